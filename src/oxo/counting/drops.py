"""Positions per ply of boards with gravity, in any dimension: Score Four (``4x4x4,gravity``), and
Connect Four again (``6x7,k=4,gravity``, the yardstick: OEIS A212693).

A position of a gravity board is its *heights* (how full each column is), written as one number
(the heights as digits in base height + 1), and X's cells (a 64-bit mask: boards of at most 64
cells). The count goes ply by ply over numpy arrays of such pairs: the next ply's positions are
the moves out of this ply's unfinished ones (a mark on top of each column not full, X's on the odd
plies), with the positions reached in more than one way dropped by sorting the pairs. The moves out
are made in buckets by their heights (the number modulo the bucket count), so that only a bucket
of them is in memory at a time; a position is finished (counted at its ply and not continued) when
the mover completed a line, or the board is full.

Classes are positions up to the board's symmetries (the 8 of Score Four's square base, Connect
Four's mirror), counted by Burnside's lemma: the average, over the symmetries, of the positions
each leaves unchanged, a position being unchanged when its heights and X's cells are (the cells
carried with a table per byte).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from oxo.counting import PerPlyCounts, PlyCount
from oxo.counting.budget import (
    Estimate,
    MemoryPlyEstimate,
    MiB,
    column_fill_bounds,
    plies_within,
    ply_by_ply,
)
from oxo.errors import BoardSpecError, OutOfReachError
from oxo.geometry import Geometry, burnside_average

#: The largest board this counter takes: X's cells are a 64-bit mask.
MAX_CELLS = 64
#: Without a last ply, every ply is counted only on boards of at most this many cells (Score
#: Four's ply 9 holds up to 157 million positions, :func:`estimate_plies`).
WHOLE_GAME_CELLS = 20
#: Seconds per move out of a ply (made, sorted, checked for lines and symmetries): Score Four's ply
#: 8 made 94 million moves in 74 s beside a proof run on both cores, the slowest per move of its
#: plies 6 to 8 (ply 7: 17 million in 5.6 s).
SECONDS_PER_MOVE = 8e-7
#: Bytes per position of the ply the moves come out of (its heights number and X's cells), per
#: position of the new ply (its buckets' parts, then the parts joined), and per move of the bucket
#: being made (the moves, their order, each column's digit): Score Four's ply 8, 33 million
#: positions out of 5.9 million in buckets of 8.4 million moves, peaked at 2.08 GB.
BYTES_PER_POSITION_BEFORE = 16
BYTES_PER_POSITION = 32
BYTES_PER_MOVE = 96
#: Memory of the interpreter and numpy before the count starts (215 MB at Score Four's ply 6).
BASE_MEMORY = 200 * MiB


@dataclass(frozen=True)
class DropCounts(PerPlyCounts):
    """Positions per ply of a board with gravity from ply 0 (``complete``: up to the end of every
    game), their classes up to the board's symmetries and the finished ones (a line, or a full
    board); ``seconds`` the wall time of each ply."""

    geometry: Geometry
    positions: tuple[int, ...]
    classes: tuple[int, ...]
    finished: tuple[int, ...]
    complete: bool
    seconds: tuple[float, ...] = ()

    @property
    def spec(self) -> str:
        """The board as written on the command line (``4x4x4,gravity``)."""
        return self.geometry.spec

    def to_dict(self) -> dict[str, object]:
        """The keys of ``oxo count scorefour --json``: the board, then the per-ply rows and totals."""
        return {
            **self.geometry.board_keys(),
            "classes_up_to": f"the board's {len(self.geometry.symmetries)} symmetries",
            **self.plies_dict("drops"),
        }


#: Moves out of a ply are made and sorted in buckets of about this many.
BUCKET = 1 << 23


class _Board:
    """What the count needs of a gravity board, as numbers: the columns' cells from the bottom, the
    weight of each column's digit in the heights number, the lines and the symmetries as masks and
    per-byte tables, and the column each symmetry carries each column onto."""

    def __init__(self, geometry: Geometry) -> None:
        if not geometry.gravity:
            raise BoardSpecError(f"{geometry.spec} has no gravity: count it with oxo count")
        base = geometry.height + 1
        if geometry.size > MAX_CELLS or base**geometry.column_count >= 1 << 62:
            raise OutOfReachError(
                f"{geometry.spec} has {geometry.size} cells: the gravity count holds X's cells in "
                f"64 bits, so it takes boards of at most {MAX_CELLS} cells"
            )
        self.geometry = geometry
        self.base = base
        self.columns = [geometry.column_cells(c) for c in range(geometry.column_count)]
        self.weights = [base**c for c in range(len(self.columns))]
        #: cell_bit[c][h]: the cell at height h (from 0) of column c, as a mask (0 past the top).
        self.cell_bit = [
            np.array([1 << cell for cell in column] + [0], dtype=np.uint64)
            for column in self.columns
        ]
        #: column_mask[c][h]: the lowest h cells of column c.
        self.column_mask = [
            np.array([sum(1 << cell for cell in column[:h]) for h in range(base)], dtype=np.uint64)
            for column in self.columns
        ]
        self.lines = np.array(geometry.lines, dtype=np.uint64)
        self.symmetries = geometry.symmetries
        self.tables = []
        self.column_maps = []
        for symmetry in self.symmetries:
            per_byte = np.zeros((8, 256), dtype=np.uint64)
            for byte in range(8):
                for value in range(256):
                    image = 0
                    for bit in range(8):
                        cell = 8 * byte + bit
                        if value >> bit & 1 and cell < geometry.size:
                            image |= 1 << symmetry.perm[cell]
                    per_byte[byte, value] = image
            self.tables.append(per_byte)
            self.column_maps.append(
                tuple(geometry.column_of(symmetry.perm[column[0]]) for column in self.columns)
            )

    def digit(self, codes: np.ndarray, column: int) -> np.ndarray:
        """The height of ``column`` in each heights number."""
        return (codes // np.int64(self.weights[column])) % np.int64(self.base)

    def masks(self, digits: list[np.ndarray]) -> np.ndarray:
        """The occupied cells of each position, from its heights (one array per column)."""
        out = np.zeros(digits[0].shape, dtype=np.uint64)
        for c, h in enumerate(digits):
            out |= self.column_mask[c][h]
        return out

    def has_line(self, marks: np.ndarray) -> np.ndarray:
        """For each mask of ``marks``, whether it holds a complete line."""
        found = np.zeros(marks.shape, dtype=bool)
        for line in self.lines:
            found |= (marks & line) == line
        return found

    def image(self, index: int, marks: np.ndarray) -> np.ndarray:
        """The masks ``marks`` carried by symmetry ``index``."""
        table = self.tables[index]
        out = np.zeros(marks.shape, dtype=np.uint64)
        for byte in range(8):
            out |= table[byte][(marks >> np.uint64(8 * byte)) & np.uint64(255)]
        return out

    def carried_codes(self, index: int, digits: list[np.ndarray]) -> np.ndarray:
        """The heights numbers carried by symmetry ``index`` (column c's height goes to its image),
        from the heights (one array per column)."""
        out = np.zeros(digits[0].shape, dtype=np.int64)
        for c, target in enumerate(self.column_maps[index]):
            out += digits[c] * np.int64(self.weights[target])
        return out

    def moves_out(
        self, codes: np.ndarray, xs: np.ndarray, x_moves: bool, buckets: int, bucket: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """The distinct positions one move away from (codes, xs) whose heights number is
        ``bucket`` modulo ``buckets``, sorted."""
        parts_codes, parts_xs = [], []
        for c in range(len(self.columns)):
            h = self.digit(codes, c)
            child = codes + np.int64(self.weights[c])
            keep = h < self.geometry.height
            if buckets > 1:
                keep &= child % np.int64(buckets) == bucket
            parts_codes.append(child[keep])
            parts_xs.append(xs[keep] | self.cell_bit[c][h[keep]] if x_moves else xs[keep])
        all_codes = np.concatenate(parts_codes)
        all_xs = np.concatenate(parts_xs)
        del parts_codes, parts_xs
        order = np.lexsort((all_xs, all_codes))
        all_codes, all_xs = all_codes[order], all_xs[order]
        del order
        if all_codes.size:
            first = np.ones(all_codes.size, dtype=bool)
            first[1:] = (all_codes[1:] != all_codes[:-1]) | (all_xs[1:] != all_xs[:-1])
            all_codes, all_xs = all_codes[first], all_xs[first]
        return all_codes, all_xs


def estimate_plies(geometry: Geometry, last: int | None = None) -> list[MemoryPlyEstimate]:
    """Per ply 1..``last`` (default: the whole game) of the gravity board ``geometry``, an upper
    bound on its positions and the time and memory its count takes (rough, from this machine's
    rates). The list stops early at a ply that alone would take over a year."""
    last = geometry.size if last is None else min(last, geometry.size)
    columns = geometry.column_count
    bounds = column_fill_bounds(columns, geometry.height, last)
    out = []
    for ply in range(1, last + 1):
        moves = bounds[ply - 1] * columns
        seconds = moves * SECONDS_PER_MOVE
        memory = (
            bounds[ply - 1] * BYTES_PER_POSITION_BEFORE
            + bounds[ply] * BYTES_PER_POSITION
            + min(moves, BUCKET) * BYTES_PER_MOVE
        )
        out.append(MemoryPlyEstimate(ply, bounds[ply], seconds, memory))
        if seconds > 365 * 86400:
            break
    return out


def estimate_count(geometry: Geometry, last: int | None = None) -> Estimate:
    """Time and memory for counting up to ply ``last`` (default: the whole game): upper bounds."""
    return ply_by_ply(
        estimate_plies(geometry, last),
        BASE_MEMORY,
        "from upper bounds on the positions of each ply",
    )


def reach(geometry: Geometry, seconds: float, memory: int) -> int:
    """The last ply a count reaches within ``seconds`` and ``memory`` bytes, by the estimate."""
    return plies_within(estimate_plies(geometry), BASE_MEMORY, seconds, memory)


def count_positions(
    geometry: Geometry,
    max_ply: int | None = None,
    *,
    on_row: Callable[[PlyCount], None] | None = None,
    seconds: float | None = None,
) -> DropCounts:
    """Positions, classes and finished positions of each ply of the gravity board ``geometry`` up
    to ``max_ply`` (default: the end of every game); ``on_row`` hears each ply's row when it is
    done; with ``seconds`` no ply is begun after that long (the count is then not complete)."""
    board = _Board(geometry)
    last = geometry.size if max_ply is None else max(0, min(max_ply, geometry.size))
    started = time.perf_counter()
    codes = np.zeros(1, dtype=np.int64)
    xs = np.zeros(1, dtype=np.uint64)
    positions, classes, finished, times = [1], [1], [0], [0.0]
    if on_row is not None:
        on_row(PlyCount(0, 1, 1, 0))
    order = len(board.symmetries)
    full = np.uint64(geometry.full_mask)
    for ply in range(1, last + 1):
        if codes.size == 0:
            break
        if seconds is not None and time.perf_counter() - started > seconds:
            break
        begun = time.perf_counter()
        x_moves = ply % 2 == 1
        buckets = max(1, -(-codes.size * len(board.columns) // BUCKET))
        count = done = 0
        fixed = 0
        kept_codes, kept_xs = [], []
        for bucket in range(buckets):
            child_codes, child_xs = board.moves_out(codes, xs, x_moves, buckets, bucket)
            digits = [board.digit(child_codes, c) for c in range(len(board.columns))]
            masks = board.masks(digits)
            mover = child_xs if x_moves else masks & ~child_xs
            over = board.has_line(mover) | (masks == full)
            del masks, mover
            count += child_codes.size
            done += int(over.sum())
            for index in range(order):
                same = board.carried_codes(index, digits) == child_codes
                fixed += int(np.count_nonzero(board.image(index, child_xs[same]) == child_xs[same]))
            if ply < last:
                kept_codes.append(child_codes[~over])
                kept_xs.append(child_xs[~over])
            del child_codes, child_xs, over, digits
        codes = np.concatenate(kept_codes) if kept_codes else np.zeros(0, dtype=np.int64)
        xs = np.concatenate(kept_xs) if kept_xs else np.zeros(0, dtype=np.uint64)
        del kept_codes, kept_xs
        if count == 0:
            break
        positions.append(count)
        finished.append(done)
        classes.append(burnside_average(fixed, order, f"ply {ply}"))
        times.append(time.perf_counter() - begun)
        if on_row is not None:
            on_row(PlyCount(ply, count, classes[-1], done))
    ended = len(positions) - 1
    complete = ended == geometry.size or (ended < last and codes.size == 0)
    return DropCounts(
        geometry, tuple(positions), tuple(classes), tuple(finished), complete, tuple(times)
    )
