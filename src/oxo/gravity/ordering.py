"""Move ordering of the compiled Connect Four solver: which column the search tries first.

The table's best column goes first; the others by the threats they create (cells where one more mark
completes ``k`` in a row), a threat on a row of the mover's parity counting once more (Allis's
odd/even threats: the first player's threats on odd rows, the second's on even rows, are the ones
that decide endgames), centre columns first on ties (:func:`centre_order`). Good ordering is most
of alpha-beta's speed.

The scoring and insertion sort of the moves runs inside the search's loop
(:func:`oxo.gravity.search._negamax`): as a compiled function of its own, even one numba inlines,
it made the whole search 5 to 15 % slower in measurements (same node counts), so it stays there, commented.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from oxo.gravity.bitboard import _SKEW
from oxo.gravity.board import GravityBoard


def centre_order(board: GravityBoard) -> np.ndarray:
    """The columns from the centre out (the order moves are tried in when their threats tie)."""
    centre = (board.cols - 1) / 2
    return np.array(sorted(range(board.cols), key=lambda c: (abs(c - centre), c)), dtype=np.int64)


@njit(cache=True, nogil=True, inline="always")
def _skew_moves(
    moves: np.ndarray, kids: np.ndarray, depth: int, count: int, params: np.ndarray
) -> None:
    """Rotate ``moves[depth]`` (and what ``kids[depth]`` keeps of each move) by ``params[_SKEW]``
    places: several processes searching the same tree start at different moves at the split ply,
    so that they search different subtrees first."""
    shift = params[_SKEW] % count
    for _ in range(shift):
        first = moves[depth, count - 1]
        for j in range(count - 1, 0, -1):
            moves[depth, j] = moves[depth, j - 1]
        moves[depth, 0] = first
        for row in range(kids.shape[1]):
            first = kids[depth, row, count - 1]
            for j in range(count - 1, 0, -1):
                kids[depth, row, j] = kids[depth, row, j - 1]
            kids[depth, row, 0] = first
