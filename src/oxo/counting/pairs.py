"""Counting pairs of disjoint cell sets (X, O) with given properties, without listing positions.

Every position-counting question in oxo has the same form: how many pairs of disjoint sets
(X's cells, O's cells), each a union of given blocks of cells, satisfy a property of X alone and a
property of O alone, with |X| - |O| fixed? (Blocks are single cells for plain counts, and the
cycles of one symmetry for Burnside's fixed-point counts.)

For a set T of blocks let F[T][j] be the number of O ⊆ T with |O| = j having O's property: the
subset-sum (zeta) transform of O's indicator, done one block at a time. The answer by size of X is
then the sum over X with X's property of F[complement of X][|X| - d]: one gather, no enumeration
of pairs. Large boards are split on their last ``split`` blocks: each choice of those blocks for O
is an independent :class:`PairShard`, which an executor may run anywhere (see
:mod:`oxo.counting.executors`). See ``docs/counting.md`` for the proofs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

#: A property of cell sets, vectorised: bitmasks (int64 or uint64 array) in, booleans out — or
#: non-negative integer weights, to count each set that many times.
MaskPredicate = Callable[[np.ndarray], np.ndarray]


@dataclass(frozen=True)
class LinePredicates:
    """The line-based properties of a set of cells that reachability needs, for one geometry's lines."""

    lines: tuple[int, ...]
    full_mask: int

    def scan(self, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For each set: the AND of the lines it contains (all cells when none), and whether it contains one."""
        common = np.full(masks.shape, self.full_mask, dtype=masks.dtype)
        has_line = np.zeros(masks.shape, dtype=bool)
        for line in self.lines:
            line_value = masks.dtype.type(line)
            contained = (masks & line_value) == line_value
            has_line |= contained
            np.bitwise_and(common, line_value, out=common, where=contained)
        return common, has_line

    def free(self, masks: np.ndarray) -> np.ndarray:
        """No complete line."""
        return ~self.scan(masks)[1]

    def shared(self, masks: np.ndarray) -> np.ndarray:
        """No complete line, or all complete lines share a cell (one last move could have made them all)."""
        common, _ = self.scan(masks)
        return common != 0

    def winning(self, masks: np.ndarray) -> np.ndarray:
        """At least one complete line, and all of them share a cell."""
        common, has_line = self.scan(masks)
        return has_line & (common != 0)

    def last_moves(self, masks: np.ndarray) -> np.ndarray:
        """How many cells could have been the winning last move: the cells common to all complete lines (0 if none)."""
        common, has_line = self.scan(masks)
        return np.where(has_line, np.bitwise_count(common), 0).astype(np.int64)


def block_masks(blocks: Sequence[int], dtype: type = np.int64) -> tuple[np.ndarray, np.ndarray]:
    """Cell mask and cell count of every union of blocks, indexed by the union's bitmask over blocks."""
    masks: np.ndarray = np.zeros(1, dtype=dtype)
    sizes = np.zeros(1, dtype=np.int16)
    for block in blocks:
        masks = np.concatenate([masks, masks | dtype(block)])
        sizes = np.concatenate([sizes, sizes + int(block).bit_count()])
    return masks, sizes


def zeta_by_size(weights: np.ndarray, sizes: np.ndarray, width: int, offset: int = 0) -> np.ndarray:
    """F[T][j] = sum of weights[U] over U ⊆ T with |U| + offset = j, for j < width, over the bitmask lattice of T.

    Sums are kept in int32 when they provably fit (largest weight × number of subsets < 2^31).
    """
    count = weights.shape[0]
    bits = count.bit_length() - 1
    largest = int(weights.max()) if count else 0
    dtype = np.int32 if largest * count < 2**31 else np.int64
    table = np.zeros((count, width), dtype=dtype)
    index = sizes.astype(np.int64) + offset
    keep = (weights != 0) & (index < width)
    table[np.nonzero(keep)[0], index[keep]] = weights[keep]
    for bit in range(bits):
        view = table.reshape(count >> (bit + 1), 2, 1 << bit, width)
        view[:, 1] += view[:, 0]
    return table


@dataclass(frozen=True)
class PairProblem:
    """Count disjoint pairs (X, O) of unions of ``blocks`` with |X| - |O| = ``difference``, by ply.

    Each pair counts ``x_property(X) * o_property(O)`` times (booleans count once). The last ``split``
    blocks are decided outside the transform: shard ``i`` fixes O's part of them to the bitmask ``i``.
    """

    blocks: tuple[int, ...]
    x_property: MaskPredicate
    o_property: MaskPredicate
    difference: int
    split: int = 0

    @property
    def total_cells(self) -> int:
        return sum(int(block).bit_count() for block in self.blocks)

    @property
    def shard_count(self) -> int:
        return 1 << self.effective_split

    @property
    def effective_split(self) -> int:
        return max(0, min(self.split, len(self.blocks)))

    def shards(self) -> list[PairShard]:
        return [PairShard(self, index) for index in range(self.shard_count)]


@dataclass(frozen=True)
class PairShard:
    """One independent piece of a :class:`PairProblem`: O's choice among the split blocks is fixed."""

    problem: PairProblem
    high_o: int

    def __call__(self) -> np.ndarray:
        return solve_shard(self.problem, self.high_o)


def solve_shard(problem: PairProblem, high_o: int) -> np.ndarray:
    """The pairs of one shard, by ply (index |X| + |O|), as int64."""
    blocks = list(problem.blocks)
    total_cells = problem.total_cells
    width = total_cells // 2 + 1  # O never has more than half the cells
    split = problem.effective_split
    low_blocks, high_blocks = blocks[: len(blocks) - split], blocks[len(blocks) - split :]
    dtype = np.uint64 if total_cells >= 63 else np.int64
    low_masks, low_sizes = block_masks(low_blocks, dtype)
    high_masks, high_sizes = block_masks(high_blocks, dtype)
    result = np.zeros(total_cells + 1, dtype=np.int64)

    o_weights = np.asarray(problem.o_property(low_masks | high_masks[high_o]))
    f_table = zeta_by_size(o_weights, low_sizes, width, int(high_sizes[high_o]))
    # Row V of `complement` holds F over the low blocks outside V. Rows are put in order of |V| so
    # that the X sets of one size (hence one ply) form one contiguous slice.
    order, bounds = _size_order(low_sizes)
    complement = f_table[::-1][order]
    for high_x in range(len(high_masks)):
        if high_x & high_o:
            continue
        x_weights = _x_weights(problem, high_x, low_masks, high_masks[high_x], order)
        extra = int(high_sizes[high_x])
        for low_size in range(len(bounds) - 1):
            x_size = low_size + extra
            o_size = x_size - problem.difference
            if o_size < 0 or o_size >= width or x_size + o_size > total_cells:
                continue
            rows = slice(bounds[low_size], bounds[low_size + 1])
            weights = x_weights[rows]
            if not weights.any():
                continue
            result[x_size + o_size] += int(
                np.dot(weights.astype(np.int64), complement[rows, o_size].astype(np.int64))
            )
    return result


def _size_order(sizes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A permutation putting unions in order of size, and where each size starts and ends in it."""
    order = np.argsort(sizes, kind="stable")
    bounds = np.searchsorted(sizes[order], np.arange(int(sizes.max()) + 2))
    return order, bounds


_X_CACHE: dict[tuple[PairProblem, int], np.ndarray] = {}


def _x_weights(
    problem: PairProblem, high_x: int, low_masks: np.ndarray, high_mask: int, order: np.ndarray
) -> np.ndarray:
    """X's weights for one choice of the split blocks, in size order, kept for the process's next shards.

    Every shard of a problem needs the same 2^split arrays; keeping them (one byte per union of
    blocks when the weights are small) saves a pass over every line per shard.
    """
    key = (problem, high_x)
    cached = _X_CACHE.get(key)
    if cached is None:
        if _X_CACHE and next(iter(_X_CACHE))[0] != problem:
            _X_CACHE.clear()  # a new problem: the old one's arrays are no longer wanted
        weights = np.asarray(problem.x_property(low_masks | high_mask))[order]
        largest = int(weights.max()) if weights.size else 0
        cached = weights.astype(np.uint8) if largest < 256 else weights
        if problem.effective_split:
            _X_CACHE[key] = cached
    return cached


def count_pairs(
    blocks: Sequence[int],
    x_property: MaskPredicate,
    o_property: MaskPredicate,
    difference: int,
    *,
    split: int = 0,
    executor: str = "auto",
    workers: int | None = None,
    on_shard: Callable[[], None] | None = None,
) -> np.ndarray:
    """Number of disjoint pairs (X, O) of unions of ``blocks`` with |X| - |O| = ``difference``, by ply.

    Each pair counts ``x_property(X) * o_property(O)`` times. The shards run through
    :func:`oxo.counting.executors.run_shards`: with ``auto``, one shard runs here and several run on
    all local cores (the properties must then be picklable, e.g. methods of :class:`LinePredicates`).
    """
    from oxo.counting.executors import run_shards

    problem = PairProblem(tuple(blocks), x_property, o_property, difference, split)
    result = np.zeros(problem.total_cells + 1, dtype=np.int64)
    for part in run_shards(problem.shards(), executor, workers=workers, on_done=on_shard):  # type: ignore[arg-type]  # run_shards checks the executor name
        result += part
    return result
