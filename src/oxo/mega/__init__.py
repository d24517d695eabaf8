"""Mega tic-tac-toe (seed 002): rules engine, notation, players, fast playouts and rendering.

Importing this package is cheap: the compiled (numba) paths load only when a search or a
compiled playout is first asked for.
"""

from oxo.errors import IllegalMoveError, MoveSyntaxError
from oxo.mega.notation import format_move, format_record, parse_move, parse_record
from oxo.mega.rules import Illegal, MegaState, MegaSummary, StringInfo

__all__ = [
    "Illegal",
    "IllegalMoveError",
    "MegaState",
    "MegaSummary",
    "MoveSyntaxError",
    "StringInfo",
    "format_move",
    "format_record",
    "parse_move",
    "parse_record",
]
