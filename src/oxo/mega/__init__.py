"""Mega tic-tac-toe (seed 002): rules engine, notation, players, fast playouts and rendering.

Importing this package is cheap: the compiled (numba) paths load only when a search or a
compiled playout is first asked for.
"""

from oxo.errors import IllegalMoveError, MoveSyntaxError
from oxo.mega.notation import format_move, format_record, parse_move, parse_record
from oxo.mega.rules import Illegal, MegaState, MegaSummary, StringInfo

#: A new game of mega tic-tac-toe: ``oxo.mega.Game()`` is the empty board (``Game.replay(record)`` too).
Game = MegaState

__all__ = [
    "Game",
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
