"""Ultimate tic-tac-toe: nine small grids, each move sends the opponent to a grid (``docs/uttt.md``).

Not oxo's mega tic-tac-toe (:mod:`oxo.mega`), which groups moves in strings and has no sending
rule. Importing this package is cheap: the compiled (numba) search loads only when first asked for.
"""

from oxo.errors import IllegalMoveError, MoveSyntaxError
from oxo.uttt.notation import format_move, format_record, parse_move, parse_record
from oxo.uttt.rules import UtttState, UtttSummary

__all__ = [
    "IllegalMoveError",
    "MoveSyntaxError",
    "UtttState",
    "UtttSummary",
    "format_move",
    "format_record",
    "parse_move",
    "parse_record",
]
