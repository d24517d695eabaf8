"""Positions per ply of gravity boards: every position reachable in a game, finished ones included
(a finished position is counted at its ply and not continued).

The walk goes ply by ply over numpy arrays: each position is the key ``x + mask`` (unique, as each
column's bits of ``x`` are below the column's height; the mask is read back from it); a ply's
positions are the distinct keys of the moves from the previous ply's unfinished ones. On 6x7 with
k=4 the counts are OEIS A212693 (Connect Four positions after n plies). Memory grows with the
widest ply: about 8 bytes for each move out of the widest ply, twice (Connect Four's ply 12 holds 12 million positions).

Run:  python -m oxo.gravity.counting 6x7 --k 4 --max-ply 11
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from oxo.errors import OutOfReachError
from oxo.gravity.board import GravityBoard
from oxo.gravity.solver import supports


@dataclass(frozen=True)
class GravityCounts:
    """Positions per ply of a gravity board (``complete``: every ply up to the end of the game)."""

    board: GravityBoard
    positions: tuple[int, ...]
    finished: tuple[int, ...]
    complete: bool

    @property
    def total(self) -> int:
        return sum(self.positions)

    def to_dict(self) -> dict[str, object]:
        return {
            "board": f"{self.board.rows}x{self.board.cols}",
            "k": self.board.k,
            "gravity": True,
            "positions": list(self.positions),
            "finished": list(self.finished),
            "complete": self.complete,
            "total": self.total if self.complete else None,
        }


def _has_line(marks: np.ndarray, board: GravityBoard) -> np.ndarray:
    """Which of the bitboards ``marks`` hold ``k`` in a row."""
    found = np.zeros(marks.shape, dtype=bool)
    for step in board.directions:
        run = marks.copy()
        for i in range(1, board.k):
            run &= marks >> np.int64(i * step)
        found |= run != 0
    return found


def masks_of(keys: np.ndarray, board: GravityBoard) -> np.ndarray:
    """The occupied cells of each key ``x + mask``: in a column of height h the key's bits read
    ``2**h - 1 + x`` with ``x < 2**h``, so h is the position of the highest bit of ``bits + 1``."""
    # The column's mask for each value its bits can take, looked up for every column.
    table = np.array(
        [(1 << ((bits + 1).bit_length() - 1)) - 1 for bits in range(1 << board.stride)],
        dtype=np.int64,
    )
    width = np.int64((1 << board.stride) - 1)
    masks = np.zeros(keys.shape, dtype=np.int64)
    for col in range(board.cols):
        shift = np.int64(col * board.stride)
        masks |= table[(keys >> shift) & width] << shift
    return masks


def count_positions(
    board: GravityBoard,
    max_ply: int | None = None,
    on_ply: Callable[[int, int], None] | None = None,
) -> GravityCounts:
    """The positions of each ply of ``board`` up to ``max_ply`` (default: the whole game).
    ``on_ply(ply, count)`` hears each ply as it is done."""
    if not supports(board):
        raise OutOfReachError(
            f"counting gravity positions holds boards with (rows + 1) x columns <= 63 bits; "
            f"{board.rows}x{board.cols} needs {board.stride * board.cols}"
        )
    last = board.size if max_ply is None else min(max_ply, board.size)
    keys = np.zeros(1, dtype=np.int64)
    positions, finished = [1], [0]
    if on_ply is not None:
        on_ply(0, 1)
    full = np.int64(board.full)
    for ply in range(1, last + 1):
        x_moves = ply % 2 == 1  # X makes the odd plies
        masks = masks_of(keys, board)
        pieces = []
        for col in range(board.cols):
            column = np.int64(board.column_mask(col))
            cell = (masks + np.int64(board.bottom & board.column_mask(col))) & column
            playable = cell != 0
            c = cell[playable]
            # x + mask gains the new cell once in the mask, and once more when it is X's.
            pieces.append(np.unique(keys[playable] + (c + c if x_moves else c)))
        del masks
        keys = np.unique(np.concatenate(pieces))
        del pieces
        if keys.size == 0:
            break
        masks = masks_of(keys, board)
        x = keys - masks
        mover = x if x_moves else masks ^ x
        over = _has_line(mover, board) | (masks == full)
        del masks, x, mover
        positions.append(int(keys.size))
        finished.append(int(over.sum()))
        if on_ply is not None:
            on_ply(ply, int(keys.size))
        keys = keys[~over]
        if keys.size == 0:
            break
    complete = keys.size == 0 or len(positions) == board.size + 1
    return GravityCounts(board, tuple(positions), tuple(finished), complete)


def main() -> None:
    parser = argparse.ArgumentParser(description="Positions per ply of a gravity board.")
    parser.add_argument("board", nargs="?", default="6x7")
    parser.add_argument("--k", type=int, default=None)
    parser.add_argument("--max-ply", type=int, default=None)
    args = parser.parse_args()
    board = GravityBoard.parse(args.board, args.k)
    started = time.perf_counter()

    def show(ply: int, count: int) -> None:
        print(f"{ply:>4} {count:>16,}  ({time.perf_counter() - started:.1f} s)", flush=True)

    print(f"{board.name}: positions per ply")
    counts = count_positions(board, args.max_ply, show)
    if counts.complete:
        print(f"total {counts.total:,}")


if __name__ == "__main__":
    main()
