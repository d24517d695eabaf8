"""Three in a row on a 3×3 grid, as 9-bit masks (bit c = cell c+1 in reading order).

Mega tic-tac-toe needs this twice: inside an inner grid (rule 7, a big marker) and on the outer
grid of big markers (rule 9, the game). Both come from the shared geometry's 3×3 board, so the check
is one table look-up.
"""

from __future__ import annotations

from oxo.geometry import Geometry

_GRID = Geometry.parse("3x3")

#: The eight straights of a 3×3 grid: three rows, three columns, two diagonals.
LINES: tuple[int, ...] = _GRID.lines

#: ``WINS[mask]`` is true when the 9-bit ``mask`` holds a straight of three.
WINS: tuple[bool, ...] = _GRID.win_table
