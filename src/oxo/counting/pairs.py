"""Counting pairs of disjoint cell sets (X, O) with given properties, without listing positions.

Every position-counting question in oxo has the same form: how many pairs of disjoint sets
(X's cells, O's cells), each a union of given blocks of cells, satisfy a property of X alone and a
property of O alone, with |X| - |O| fixed? (Blocks are single cells for plain counts, and the
cycles of one symmetry for Burnside's fixed-point counts.)

For a set T of blocks let F[T][j] be the number of O ⊆ T with |O| = j having O's property: the
subset-sum (zeta) transform of O's indicator, done one block at a time. The answer by size of X is
then the sum over X with X's property of F[complement of X][|X| - d]: one gather, no enumeration
of pairs. Large boards are split on their last ``split`` blocks: every choice of those blocks for O
is an independent shard over the remaining ones.
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

    def _scan(self, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        # common: AND of the lines contained in the set (all cells when there is none).
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
        return ~self._scan(masks)[1]

    def shared(self, masks: np.ndarray) -> np.ndarray:
        """No complete line, or all complete lines share a cell (one last move could have made them all)."""
        common, _ = self._scan(masks)
        return common != 0

    def winning(self, masks: np.ndarray) -> np.ndarray:
        """At least one complete line, and all of them share a cell."""
        common, has_line = self._scan(masks)
        return has_line & (common != 0)


def block_masks(blocks: Sequence[int], dtype: type = np.int64) -> tuple[np.ndarray, np.ndarray]:
    """Cell mask and cell count of every union of blocks, indexed by the union's bitmask over blocks."""
    masks = np.zeros(1, dtype=dtype)
    sizes = np.zeros(1, dtype=np.int16)
    for block in blocks:
        masks = np.concatenate([masks, masks | dtype(block)])
        sizes = np.concatenate([sizes, sizes + int(block).bit_count()])
    return masks, sizes


def zeta_by_size(weights: np.ndarray, sizes: np.ndarray, width: int, offset: int = 0) -> np.ndarray:
    """F[T][j] = sum of weights[U] over U ⊆ T with |U| + offset = j, for j < width, over the bitmask lattice of T."""
    count = weights.shape[0]
    bits = count.bit_length() - 1
    table = np.zeros((count, width), dtype=np.int64)
    index = sizes.astype(np.int64) + offset
    keep = (weights != 0) & (index < width)
    table[np.nonzero(keep)[0], index[keep]] = weights[keep]
    for bit in range(bits):
        view = table.reshape(count >> (bit + 1), 2, 1 << bit, width)
        view[:, 1] += view[:, 0]
    return table


def count_pairs(
    blocks: Sequence[int],
    x_property: MaskPredicate,
    o_property: MaskPredicate,
    difference: int,
    *,
    split: int = 0,
    on_shard: Callable[[], None] | None = None,
) -> np.ndarray:
    """Number of disjoint pairs (X, O) of unions of ``blocks`` with |X| - |O| = ``difference``.

    Each pair counts ``x_property(X) * o_property(O)`` times (booleans count once). Returns an int64
    array indexed by |X| + |O| (the ply).
    """
    blocks = list(blocks)
    total_cells = sum(int(b).bit_count() for b in blocks)
    width = total_cells // 2 + 1  # O never has more than half the cells
    split = max(0, min(split, len(blocks)))
    low_blocks, high_blocks = blocks[: len(blocks) - split], blocks[len(blocks) - split :]
    dtype = np.uint64 if total_cells >= 63 else np.int64
    low_masks, low_sizes = block_masks(low_blocks, dtype)
    high_masks, high_sizes = block_masks(high_blocks, dtype)
    result = np.zeros(total_cells + 1, dtype=np.int64)
    x_rows: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for high_o in range(len(high_masks)):
        o_masks = low_masks | high_masks[high_o]
        f_table = zeta_by_size(o_property(o_masks), low_sizes, width, int(high_sizes[high_o]))
        complement = f_table[::-1]  # row V holds F over the low blocks outside V
        for high_x in range(len(high_masks)):
            if high_x & high_o:
                continue
            if high_x not in x_rows:
                x_sizes = low_sizes.astype(np.int64) + int(high_sizes[high_x])
                weights = x_property(low_masks | high_masks[high_x])
                rows = np.nonzero((weights != 0) & (x_sizes >= difference))[0]
                x_rows[high_x] = (rows, x_sizes[rows], weights[rows].astype(np.int64))
            rows, sizes, weights = x_rows[high_x]
            o_sizes = sizes - difference
            inside = (o_sizes < width) & (sizes + o_sizes <= total_cells)
            values = complement[rows[inside], o_sizes[inside]] * weights[inside]
            result += _sum_by(sizes[inside] + o_sizes[inside], values, total_cells + 1)
        if on_shard is not None:
            on_shard()
    return result


def _sum_by(keys: np.ndarray, values: np.ndarray, length: int) -> np.ndarray:
    """Exact integer sums of ``values`` grouped by ``keys`` (np.bincount would go through floats)."""
    out = np.zeros(length, dtype=np.int64)
    np.add.at(out, keys, values)
    return out
