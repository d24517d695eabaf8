"""Move notation of mega tic-tac-toe: ``GC``, the inner grid G then the cell C, both 1..9.

Grids and cells are numbered in reading order (1 2 3 / 4 5 6 / 7 8 9), so ``55`` is the centre of
the centre grid. Inside the library a move is the integer ``9*(G-1) + (C-1)`` (0..80), which is
also its bit in the 81-bit bitboards of :mod:`oxo.mega.rules`. A record is moves separated by
spaces (commas and a leading move number such as ``1.`` are tolerated).

The notation is shared with the other game on nine grids: :mod:`oxo.ninegrids` defines it.
"""

from __future__ import annotations

from oxo.ninegrids import ACCEPTED, format_move, format_record, parse_move, parse_record

__all__ = ["ACCEPTED", "format_move", "format_record", "parse_move", "parse_record"]
