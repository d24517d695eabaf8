"""Three in a row on a 3×3 grid, as 9-bit masks (bit c = cell c+1 in reading order).

Mega tic-tac-toe needs this twice: inside an inner grid (rule 7, a big marker) and on the outer
grid of big markers (rule 9, the game). It is kept here, apart from the shared geometry module,
so the mega package stands on its own and the check is one table look-up.
"""

from __future__ import annotations

#: The eight straights of a 3×3 grid: three rows, three columns, two diagonals.
LINES: tuple[int, ...] = (
    0b000000111,
    0b000111000,
    0b111000000,
    0b001001001,
    0b010010010,
    0b100100100,
    0b100010001,
    0b001010100,
)


def _has_line_slow(mask: int) -> bool:
    return any(mask & line == line for line in LINES)


#: ``WINS[mask]`` is true when the 9-bit ``mask`` holds a straight of three.
WINS: tuple[bool, ...] = tuple(_has_line_slow(mask) for mask in range(512))
