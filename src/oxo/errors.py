"""The library's exceptions: every bad input raises a subclass of :class:`OxoError`.

They derive from :class:`ValueError` so callers can catch them generically; the CLI turns
any of them into one line on stderr and exit status 2.
"""

from __future__ import annotations


class OxoError(ValueError):
    """Base class of every error caused by bad input to oxo."""


class BoardSpecError(OxoError):
    """A board specification (such as ``4x4`` or ``3x3x3``) or its k is not valid."""


class PositionError(OxoError):
    """A position's text does not describe a position of the board."""


class MoveError(OxoError):
    """A move (a cell ID or a sequence of them) cannot be played."""


class OutOfReachError(Exception):
    """A question that cannot be answered within the limits (time, memory, the solver's reach).

    Not an input error: the CLI exits with status 3 and the message says what is known and what to
    try instead.
    """
