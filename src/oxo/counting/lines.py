"""Counting reachable positions by inclusion–exclusion over lines, for boards with few lines.

Reachable positions with a last mover W and the other player L are the pairs (W's cells, L's
cells) with the right counts where L completes no line and W's complete lines, if any, share a
cell. Writing "W completes exactly the lines S, L exactly T" with Möbius inversion over sets of
lines turns every term into "W's cells contain the cells of the lines S', L's contain those of
T'", which is a multinomial coefficient. Sums run over pairs of line sets (2^lines each), grouped
by the cells they cover, so the board's size no longer matters: 6×6 and 7×7 (k = side) come out in
seconds. For a symmetry g the same holds for g-invariant positions, with cells taken in g's cycles.
See ``docs/counting.md`` for the proof.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache

import numpy as np

from oxo.geometry import Geometry

#: Boards with more lines than this are left to the pair counter (2^lines sets of lines).
MAX_LINES = 20


def line_set_unions(
    lines: Sequence[int], full_mask: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every set of lines (indexed by bitmask): the cells it covers, its size's parity sign, and
    whether its lines share a cell (the empty set counts as sharing)."""
    dtype = np.uint64 if full_mask.bit_length() >= 63 else np.int64
    unions = np.zeros(1, dtype=dtype)
    common = np.full(1, full_mask, dtype=dtype)
    signs = np.ones(1, dtype=np.int64)
    for line in lines:
        value = dtype(line)
        unions = np.concatenate([unions, unions | value])
        common = np.concatenate([common, common & value])
        signs = np.concatenate([signs, -signs])
    return unions, signs, common != 0


def mobius(values: np.ndarray) -> np.ndarray:
    """g[S] = sum over R ⊆ S of (-1)^|S \\ R| f[R], over the bitmask lattice (inverse of the subset sum)."""
    table = values.astype(np.int64).copy()
    bits = table.shape[0].bit_length() - 1
    for bit in range(bits):
        view = table.reshape(table.shape[0] >> (bit + 1), 2, 1 << bit)
        view[:, 1] -= view[:, 0]
    return table


def _closures(unions: np.ndarray, cycles: Sequence[int]) -> np.ndarray:
    """Each set of cells grown to the union of the cycles it meets (the least g-invariant superset)."""
    closed = np.zeros_like(unions)
    for cycle in cycles:
        value = unions.dtype.type(cycle)
        closed |= np.where((unions & value) != 0, value, unions.dtype.type(0))
    return closed


def _grouped(keys: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct keys with the sum of their weights, dropping keys whose weights cancel."""
    distinct, inverse = np.unique(keys, return_inverse=True)
    sums = np.zeros(len(distinct), dtype=np.int64)
    np.add.at(sums, inverse.ravel(), weights)
    keep = sums != 0
    return distinct[keep], sums[keep]


def count_fixed_positions(geometry: Geometry, cycles: Sequence[int]) -> list[int]:
    """Reachable positions per ply that are unions of the given cycles (all positions for singletons)."""
    unions, signs, shared = line_set_unions(geometry.lines, geometry.full_mask)
    closures = _closures(unions, cycles)
    shared_terms = mobius(shared)  # weight of "covers exactly these lines, which share a cell"
    cycle_sizes = sorted({c.bit_count() for c in cycles})
    profile_of = _profiler(cycles, cycle_sizes)
    total_profile = tuple(sum(1 for c in cycles if c.bit_count() == s) for s in cycle_sizes)
    mover_sets, mover_weights = _grouped(closures, shared_terms)
    other_sets, other_weights = _grouped(closures, signs)
    pair_weights = _disjoint_pair_weights(
        mover_sets, mover_weights, other_sets, other_weights, profile_of
    )
    counts = [0] * (geometry.size + 1)
    for (mover_profile, other_profile), weight in pair_weights.items():
        rest = tuple(
            t - a - b for t, a, b in zip(total_profile, mover_profile, other_profile, strict=True)
        )
        mover_cells = sum(n * s for n, s in zip(mover_profile, cycle_sizes, strict=True))
        other_cells = sum(n * s for n, s in zip(other_profile, cycle_sizes, strict=True))
        fills = _fillings(rest, tuple(cycle_sizes))
        for (extra_mover, extra_other), ways in fills.items():
            mover, other = mover_cells + extra_mover, other_cells + extra_other
            # The mover is X with one mark more than O, or O with as many marks as X (the empty board too).
            if mover - other in (0, 1):
                counts[mover + other] += weight * ways
    return counts


def _profiler(cycles: Sequence[int], sizes: list[int]) -> Callable[[int], tuple[int, ...]]:
    by_size = {s: [c for c in cycles if c.bit_count() == s] for s in sizes}

    def profile(mask: int) -> tuple[int, ...]:
        return tuple(sum(1 for c in by_size[s] if c & mask) for s in sizes)

    return profile


def _disjoint_pair_weights(
    mover_sets: np.ndarray,
    mover_weights: np.ndarray,
    other_sets: np.ndarray,
    other_weights: np.ndarray,
    profile_of: Callable[[int], tuple[int, ...]],
) -> dict[tuple[tuple[int, ...], tuple[int, ...]], int]:
    """Sum of mover_weight × other_weight over disjoint pairs of cell sets, grouped by their cycle profiles."""
    other_profiles = [profile_of(int(v)) for v in other_sets]
    distinct_profiles = sorted(set(other_profiles))
    profile_index = np.array([distinct_profiles.index(p) for p in other_profiles], dtype=np.int64)
    # Sums of weights per profile stay far below 2^53, so float64 bincount is exact here.
    if len(other_weights) and int(np.abs(other_weights).sum()) >= 2**53:
        raise OverflowError("line-set weights too large for exact float sums")
    out: dict[tuple[tuple[int, ...], tuple[int, ...]], int] = {}
    for mover_set, mover_weight in zip(mover_sets.tolist(), mover_weights.tolist(), strict=True):
        disjoint = (other_sets & other_sets.dtype.type(mover_set)) == 0
        sums = np.bincount(
            profile_index[disjoint],
            weights=other_weights[disjoint],
            minlength=len(distinct_profiles),
        )
        mover_profile = profile_of(mover_set)
        for index, total in enumerate(sums.tolist()):
            if total:
                key = (mover_profile, distinct_profiles[index])
                out[key] = out.get(key, 0) + mover_weight * round(total)
    return out


@lru_cache(maxsize=4096)
def _fillings(
    rest: tuple[int, ...], sizes: tuple[int, ...], most: tuple[int, int] | None = None
) -> dict[tuple[int, int], int]:
    """Ways to give each of the free cycles to the mover, the other player or nobody, by cells each
    gets; with ``most``, only the ways that give them at most that many cells each (a count of one
    ply needs no more, and a board of hundreds of cells would otherwise make every split)."""
    ways: dict[tuple[int, int], int] = {(0, 0): 1}
    cap_a, cap_b = most if most is not None else (1 << 62, 1 << 62)
    for count, size in zip(rest, sizes, strict=True):
        for _ in range(count):
            grown: dict[tuple[int, int], int] = {}
            for (a, b), n in ways.items():
                for key in ((a, b), (a + size, b), (a, b + size)):
                    if key[0] <= cap_a and key[1] <= cap_b:
                        grown[key] = grown.get(key, 0) + n
            ways = grown
    return ways


def count_by_lines(
    geometry: Geometry, *, on_progress: Callable[[float], None] | None = None
) -> tuple[list[int], list[int]]:
    """Positions and classes per ply by inclusion–exclusion over lines, and Burnside's lemma."""
    from oxo.counting import burnside_classes, symmetry_cycles

    fixed = []
    symmetries = geometry.symmetries
    for done, symmetry in enumerate(symmetries, start=1):
        fixed.append(count_fixed_positions(geometry, symmetry_cycles(symmetry)))
        if on_progress is not None:
            on_progress(done / len(symmetries))
    return fixed[0], burnside_classes(fixed, len(symmetries))
