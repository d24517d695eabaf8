"""Positions per ply of gravity boards: every position reachable in a game, finished ones included
(a finished position is counted at its ply and not continued), and their classes up to the
left-right mirror, the only symmetry of a gravity board.

The walk goes ply by ply over numpy arrays: each position is the key ``x + mask`` (unique, as each
column's bits of ``x`` are below the column's height; the mask is read back from it); a ply's
positions are the distinct keys of the moves from the previous ply's unfinished ones (sorted in
place, then read off once each). On 6x7 with k=4 the counts are OEIS A212693 (Connect Four
positions after n plies). Memory grows with the widest ply: about 9 bytes for each move out of the
ply before, or about 48 bytes for each position of the new ply, whichever is more (Connect Four's
ply 13 holds 31 million positions and takes about 1.4 GiB in all).

``oxo count 6x7 --k 4 --gravity --plies 11`` on the command line, or
``python -m oxo.gravity.counting 6x7 --k 4 --max-ply 11``.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from oxo.counting import PerPlyCounts, PlyCount, budget
from oxo.counting.budget import Estimate, MemoryPlyEstimate, MiB, column_fill_bounds, ply_by_ply
from oxo.errors import OutOfReachError
from oxo.gravity.board import GravityBoard
from oxo.gravity.solver import supports

#: Without a last ply, the command line counts every ply only on gravity boards of at most this
#: many cells (5x4 takes seconds; 5x5 with k=4 already holds hundreds of millions of positions).
WHOLE_GAME_CELLS = 20

#: Seconds per move out of a ply, per doubling of the moves (the sort), on this project's machine.
SECONDS_PER_MOVE_STEP = 1e-8
#: Bytes of memory per move out of a ply (its key, then a flag), and per position of a new ply
#: while its finished positions and classes are found (the key, the marks and their copies).
BYTES_PER_MOVE = 9
BYTES_PER_POSITION = 48
#: Memory of the interpreter and numpy before the count starts.
BASE_MEMORY = 120 * MiB

#: Column heights above this many rows read the occupied cells with shifts instead of a table.
_TABLE_STRIDE = 16


@dataclass(frozen=True)
class GravityCounts(PerPlyCounts):
    """Positions per ply of a gravity board (``complete``: every ply up to the end of the game).

    ``classes`` counts positions up to the left-right mirror (a position and its mirror image are
    one class), the only symmetry of a gravity board; ``finished`` the positions where the game has
    ended (a line of k, or a full board)."""

    board: GravityBoard
    positions: tuple[int, ...]
    finished: tuple[int, ...]
    complete: bool
    classes: tuple[int, ...] = ()

    @property
    def spec(self) -> str:
        """The board as written on the command line (``6x7,k=4,gravity``)."""
        return self.board.spec

    def to_dict(self) -> dict[str, object]:
        """The keys of ``oxo count BOARD --gravity --json`` (the shape of the classic boards' count,
        with ``gravity`` true and the finished positions of each ply)."""
        return {
            "board": f"{self.board.rows}x{self.board.cols}",
            "k": self.board.k,
            "gravity": True,
            "classes_up_to": "left-right mirror",
            **self.plies_dict("gravity"),
        }


def _check_supported(board: GravityBoard) -> None:
    if not supports(board):
        raise OutOfReachError(
            f"gravity positions are counted on boards where (rows + 1) x columns is at most "
            f"63; {board.rows}x{board.cols} has ({board.rows} + 1) x {board.cols} = "
            f"{board.stride * board.cols}"
        )


def position_bounds(board: GravityBoard, last: int) -> list[int]:
    """For each ply 0..``last``, at most how many positions it holds
    (:func:`oxo.counting.budget.column_fill_bounds`)."""
    return column_fill_bounds(board.cols, board.rows, last)


def estimate_plies(board: GravityBoard, last: int | None = None) -> list[MemoryPlyEstimate]:
    """Per ply 1..``last`` (default: the whole game), an upper bound on its positions and the time
    and memory it takes (rough, from this machine's rates). The list stops early at a ply that
    alone would take over a year."""
    _check_supported(board)
    last = board.size if last is None else min(last, board.size)
    bounds = position_bounds(board, last)
    out = []
    for ply in range(1, last + 1):
        moves = bounds[ply - 1] * board.cols
        seconds = moves * SECONDS_PER_MOVE_STEP * max(1.0, math.log2(max(moves, 1)))
        # First the moves with the ply before and the new keys, then the new ply's own arrays.
        gathering = moves * BYTES_PER_MOVE + bounds[ply - 1] * 16 + bounds[ply] * 8
        memory = max(gathering, bounds[ply] * BYTES_PER_POSITION)
        out.append(MemoryPlyEstimate(ply, bounds[ply], seconds, memory))
        if seconds > 365 * 86400:
            break
    return out


def estimate_count(board: GravityBoard, last: int | None = None) -> Estimate:
    """Time and memory for counting up to ply ``last`` (default: the whole game): upper bounds."""
    return ply_by_ply(
        estimate_plies(board, last), BASE_MEMORY, "from upper bounds on the positions of each ply"
    )


def plies_within(board: GravityBoard, seconds: float, memory: int) -> int:
    """The last ply a count can reach within ``seconds`` and ``memory`` bytes, by the estimate."""
    return budget.plies_within(estimate_plies(board), BASE_MEMORY, seconds, memory)


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
    width = np.int64((1 << board.stride) - 1)
    masks = np.zeros(keys.shape, dtype=np.int64)
    if board.stride <= _TABLE_STRIDE:
        # The column's mask for each value its bits can take, looked up for every column.
        table = np.array(
            [(1 << ((bits + 1).bit_length() - 1)) - 1 for bits in range(1 << board.stride)],
            dtype=np.int64,
        )
        for col in range(board.cols):
            shift = np.int64(col * board.stride)
            masks |= table[(keys >> shift) & width] << shift
        return masks
    for col in range(board.cols):  # tall columns: row r is occupied when bits + 1 >= 2**(r + 1)
        shift = np.int64(col * board.stride)
        above = ((keys >> shift) & width) + np.int64(1)
        for row in range(board.rows):
            masks |= ((above >> np.int64(row + 1)) != 0).astype(np.int64) << (shift + row)
    return masks


def mirror_keys(keys: np.ndarray, board: GravityBoard) -> np.ndarray:
    """The key of each position's mirror image (column c and column cols - 1 - c swapped)."""
    width = np.int64((1 << board.stride) - 1)
    mirrored = np.zeros(keys.shape, dtype=np.int64)
    for col in range(board.cols):
        bits = (keys >> np.int64(col * board.stride)) & width
        mirrored |= bits << np.int64((board.cols - 1 - col) * board.stride)
    return mirrored


def _distinct(values: np.ndarray) -> np.ndarray:
    """The distinct values of ``values``, sorted (``values`` is sorted in place)."""
    if values.size == 0:
        return values.copy()
    values.sort()
    first = np.empty(values.size, dtype=bool)
    first[0] = True
    np.not_equal(values[1:], values[:-1], out=first[1:])
    return values[first]


def count_positions(
    board: GravityBoard,
    max_ply: int | None = None,
    on_ply: Callable[[int, int], None] | None = None,
    *,
    on_progress: Callable[[float], None] | None = None,
    on_row: Callable[[PlyCount], None] | None = None,
) -> GravityCounts:
    """The positions of each ply of ``board`` up to ``max_ply`` (default: the whole game), with
    their classes up to the mirror and the finished ones. ``on_ply(ply, count)`` hears each ply as
    it is done, ``on_row`` its whole row (so a stopped count can show the plies it finished);
    ``on_progress`` the fraction of the estimated work done."""
    _check_supported(board)
    last = board.size if max_ply is None else max(0, min(max_ply, board.size))
    weights = [max(p.seconds, 1e-9) for p in estimate_plies(board, last)] if on_progress else []
    whole, done = sum(weights), 0.0
    keys = np.zeros(1, dtype=np.int64)
    positions, classes, finished = [1], [1], [0]
    if on_row is not None:
        on_row(PlyCount(0, 1, 1, 0))
    if on_ply is not None:
        on_ply(0, 1)
    full = np.int64(board.full)
    for ply in range(1, last + 1):
        x_moves = ply % 2 == 1  # X makes the odd plies
        masks = masks_of(keys, board)
        # Room for every move; only the part written is ever touched.
        children = np.empty(keys.size * board.cols, dtype=np.int64)
        used = 0
        for col in range(board.cols):
            column = np.int64(board.column_mask(col))
            cell = (masks + np.int64(board.bottom & board.column_mask(col))) & column
            playable = cell != 0
            c = cell[playable]
            # x + mask gains the new cell once in the mask, and once more when it is X's.
            children[used : used + c.size] = keys[playable] + (c + c if x_moves else c)
            used += c.size
            del cell, playable, c
            if on_progress is not None and ply <= len(weights):
                on_progress(
                    min(1.0, (done + weights[ply - 1] * (col + 1) / (board.cols + 2)) / whole)
                )
        del masks, keys
        keys = _distinct(children[:used])
        del children
        if keys.size == 0:
            break
        masks = masks_of(keys, board)
        x = keys - masks
        mover = x if x_moves else masks ^ x
        over = _has_line(mover, board) | (masks == full)
        del masks, x, mover
        positions.append(int(keys.size))
        finished.append(int(over.sum()))
        # The ply's positions are closed under the mirror: a class is a key not above its mirror's.
        classes.append(int(np.count_nonzero(keys <= mirror_keys(keys, board))))
        if on_row is not None:  # first: whoever hears on_ply may stop the count at once
            on_row(PlyCount(ply, positions[-1], classes[-1], finished[-1]))
        if on_ply is not None:
            on_ply(ply, int(keys.size))
        if on_progress is not None and ply <= len(weights):
            done += weights[ply - 1]
            on_progress(min(1.0, done / whole))
        keys = keys[~over]
        if keys.size == 0:
            break
    complete = keys.size == 0 or len(positions) == board.size + 1
    return GravityCounts(board, tuple(positions), tuple(finished), complete, tuple(classes))


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
