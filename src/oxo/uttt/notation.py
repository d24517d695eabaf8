"""Move notation of ultimate tic-tac-toe: ``GC``, the small grid G then the cell C, both 1..9.

Grids and cells are numbered in reading order (1 2 3 / 4 5 6 / 7 8 9), as in oxo's mega
tic-tac-toe, so ``55`` is the centre of the centre grid and the move ``37`` sends the opponent to
grid 7. Inside the library a move is the integer ``9*(G-1) + (C-1)`` (0..80), also its bit in the
81-bit bitboards of :mod:`oxo.uttt.rules`. A record is moves separated by spaces (commas and move
numbers such as ``1.`` are tolerated).

The notation is shared with the other game on nine grids: :mod:`oxo.ninegrids` defines it.
"""

from __future__ import annotations

from oxo.ninegrids import ACCEPTED, format_move, format_record, parse_move, parse_record

__all__ = ["ACCEPTED", "format_move", "format_record", "parse_move", "parse_record"]
