"""Move notation of ultimate tic-tac-toe: ``GC``, the small grid G then the cell C, both 1..9.

Grids and cells are numbered in reading order (1 2 3 / 4 5 6 / 7 8 9), as in oxo's mega
tic-tac-toe, so ``55`` is the centre of the centre grid and the move ``37`` sends the opponent to
grid 7. Inside the library a move is the integer ``9*(G-1) + (C-1)`` (0..80), also its bit in the
81-bit bitboards of :mod:`oxo.uttt.rules`. A record is moves separated by spaces (commas and move
numbers such as ``1.`` are tolerated).
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable

from oxo.errors import MoveSyntaxError

ACCEPTED = (
    "a move is two digits GC, grid then cell, each 1..9 in reading order "
    "(e.g. 55 is the centre of the centre grid)"
)


def parse_move(text: str | int) -> int:
    """The move index 0..80 of ``GC`` text such as ``"37"`` (an int 0..80 is passed through)."""
    if isinstance(text, bool):
        raise MoveSyntaxError(f"not a move: {text!r}; {ACCEPTED}")
    if isinstance(text, numbers.Integral):
        if 0 <= text < 81:
            return int(text)
        raise MoveSyntaxError(f"move index {text} is outside 0..80; {ACCEPTED}")
    if not isinstance(text, str):
        raise MoveSyntaxError(f"not a move: {text!r}; {ACCEPTED}")
    raw = text.strip()
    if len(raw) != 2 or raw[0] not in "123456789" or raw[1] not in "123456789":
        raise MoveSyntaxError(f"not a move: {text!r}; {ACCEPTED}")
    return 9 * (int(raw[0]) - 1) + int(raw[1]) - 1


def format_move(move: int) -> str:
    """``GC`` text of a move index (``40`` gives ``"55"``)."""
    if not 0 <= move < 81:
        raise MoveSyntaxError(f"move index {move} is outside 0..80")
    return f"{move // 9 + 1}{move % 9 + 1}"


_MOVE_NUMBER = re.compile(r"^\d+\.+$")


def parse_record(record: str | Iterable[str | int]) -> list[int]:
    """Move indices of a game record: ``"55 51 15"`` or a list of moves.

    Tokens are split on spaces and commas; move numbers like ``1.`` are skipped, so a record
    copied from an annotated listing still reads.
    """
    if isinstance(record, str):
        tokens: list[str | int] = [
            token
            for token in re.split(r"[\s,]+", record.strip())
            if token and not _MOVE_NUMBER.match(token)
        ]
    else:
        tokens = list(record)
    moves = []
    for number, token in enumerate(tokens, start=1):
        try:
            moves.append(parse_move(token))
        except MoveSyntaxError as error:
            raise MoveSyntaxError(f"move {number} of the record: {error}") from None
    return moves


def format_record(moves: Iterable[int]) -> str:
    """A record: the moves in ``GC`` notation separated by spaces."""
    return " ".join(format_move(move) for move in moves)
