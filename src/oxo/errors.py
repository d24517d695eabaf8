"""Every exception the library raises, in one place, in two kinds.

- **Bad input**: :class:`OxoError`, a :class:`ValueError`, and its subclasses. The message says what
  was wrong and what is accepted. The CLI prints one line on stderr and exits with status 2; the web
  API answers 400.
- **Out of reach within the limits**: :class:`OutOfReachError`. The input is fine but the answer
  would take more time or memory than allowed (a state space too large for dense arrays, a search
  that spent its budget, a board too large to count its games on). The message says what is known
  and what to try instead. The CLI exits with status 3.

A third kind is no error at all: :class:`Stopped`, a :class:`KeyboardInterrupt` (Ctrl-C) that
carries what long work had settled when it was stopped, for the caller to report.

A "no" (an illegal position, a refuted certificate, a board the first player cannot win) is an
answer, not an error: functions return it.
"""

from __future__ import annotations


class OxoError(ValueError):
    """Bad input: the base class of every error caused by what the caller asked."""


class BoardSpecError(OxoError):
    """A board specification (such as ``4x4`` or ``3x3x3``) or its k is not valid."""


class UnknownGameError(BoardSpecError):
    """Text that names no game oxo knows; the message lists the known names."""


class UnsupportedError(OxoError):
    """A game asked for something it cannot do (an exact solver of mega tic-tac-toe); the message
    names the game and the commands that work on it."""


class PositionError(OxoError):
    """A position's text does not describe a position of the board, or the position does not fit the
    question (a position with a winner where play must go on, a position on another board)."""


class MoveError(OxoError):
    """A move (a cell or a sequence of them) cannot be played."""


class MoveSyntaxError(MoveError):
    """A move or a record of moves is not written in the game's notation."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules forbid: which move of a record it is, the move, the rule
    broken (its number in the game's rules) and why."""

    def __init__(self, message: str, *, number: int, move: int, rule: int, reason: str) -> None:
        self.number = number
        self.move = move
        self.rule = rule
        self.reason = reason
        super().__init__(message)


class OptionError(OxoError):
    """An option's value is not one of those accepted: an unknown method, level, executor or outcome,
    a ply outside the board, a budget that makes no sense."""


class CertificateError(OxoError):
    """A certificate file cannot be read as an ``oxo-strategy/1`` certificate (malformed, not wrong:
    a readable certificate that proves nothing is a "no", returned by the checker)."""


class CertificateFileError(CertificateError):
    """The file is not gzip, is truncated or corrupt, is not UTF-8, or cannot be read at all."""


class CertificateSyntaxError(CertificateError):
    """A line of the certificate is not a JSON object."""


class CertificateHeaderError(CertificateError):
    """The header is missing or wrong: format name, board, dims, k, side or guarantee."""


class CertificateEntryError(CertificateError):
    """An entry is malformed: its keys, its status string, its move or its pairing."""


class OutOfReachError(Exception):
    """A question that cannot be answered within the limits (time, memory, the solver's reach).

    Not an input error (so not a :class:`ValueError`): the CLI exits with status 3 and the message
    says what is known and what to try instead.
    """


class CertificateUnavailableError(OutOfReachError):
    """A certificate of oxo's proof book cannot be played from here: its file is not on this
    machine, or it does not match the SHA-256 the book records (truncated or altered), or its index
    is not built yet. The message names the file, what was found and how to get it right."""


class Stopped(KeyboardInterrupt):
    """Ctrl-C stopped long work that can say what it had settled by then: ``partial`` is a result
    of the kind the work returns, holding only that (a proof's value ``"unknown"``, the searches as
    far as they went). A :class:`KeyboardInterrupt`, so whoever stops on Ctrl-C stops on it too;
    the CLI reports ``partial`` in its one line."""

    def __init__(self, partial: object) -> None:
        super().__init__()
        self.partial = partial


__all__ = [
    "BoardSpecError",
    "CertificateEntryError",
    "CertificateError",
    "CertificateFileError",
    "CertificateHeaderError",
    "CertificateSyntaxError",
    "CertificateUnavailableError",
    "IllegalMoveError",
    "MoveError",
    "MoveSyntaxError",
    "OptionError",
    "OutOfReachError",
    "OxoError",
    "PositionError",
    "Stopped",
    "UnknownGameError",
    "UnsupportedError",
]
