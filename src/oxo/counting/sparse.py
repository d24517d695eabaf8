"""Positions per ply by inclusion–exclusion over *small* sets of lines: the first plies of big boards.

The lines method (:mod:`oxo.counting.lines`) sums over every set of lines, 2^lines of them, which
is out of reach for Qubic (76 lines). But a set of lines only counts when its cells fit inside one
player's marks: after ``p`` plies a player holds at most ``ceil(p / 2)`` cells, and on Qubic two
lines already cover 7 cells. Enumerating only the sets of lines whose cells (for a symmetry g:
the union of g's cycles they meet) number at most that many gives the same exact sums, so the
first plies of Qubic cost little, with classes by Burnside's lemma as in the lines method.

This is independent of the frontier count (:mod:`oxo.counting.frontier`), which visits positions:
the two are compared on the plies both reach.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from math import comb

from oxo.geometry import Geometry


def _line_sets(
    lines: Sequence[int], closure: Callable[[int], int], limit: int
) -> list[tuple[tuple[int, ...], int]]:
    """Every set of lines (as indices) whose closed cells number at most ``limit``, with them."""
    out: list[tuple[tuple[int, ...], int]] = [((), 0)]

    def grow(start: int, chosen: tuple[int, ...], cells: int) -> None:
        for index in range(start, len(lines)):
            grown = closure(cells | lines[index])
            if grown.bit_count() <= limit:
                members = (*chosen, index)
                out.append((members, grown))
                grow(index + 1, members, grown)

    grow(0, (), 0)
    return out


def _shares_a_cell(lines: Sequence[int], members: tuple[int, ...], full: int) -> bool:
    common = full
    for index in members:
        common &= lines[index]
    return common != 0


def _mover_weights(
    lines: Sequence[int], sets: list[tuple[tuple[int, ...], int]], full: int
) -> dict[int, int]:
    """Closed cells -> Σ c(S), c the Möbius transform of "the lines of S share a cell" (∅ shares)."""
    out: dict[int, int] = {}
    for members, cells in sets:
        weight = 0
        size = len(members)
        for subset in range(1 << size):
            chosen = tuple(members[i] for i in range(size) if subset >> i & 1)
            if _shares_a_cell(lines, chosen, full):
                weight += -1 if (size - len(chosen)) % 2 else 1
        if weight:
            out[cells] = out.get(cells, 0) + weight
    return {cells: w for cells, w in out.items() if w}


def _other_weights(sets: list[tuple[tuple[int, ...], int]]) -> dict[int, int]:
    out: dict[int, int] = {}
    for members, cells in sets:
        out[cells] = out.get(cells, 0) + (-1 if len(members) % 2 else 1)
    return {cells: w for cells, w in out.items() if w}


def fixed_positions_at(geometry: Geometry, cycles: Sequence[int], ply: int) -> int:
    """Reachable positions after ``ply`` marks that are unions of the given cycles."""
    from oxo.counting.lines import _fillings

    lines = geometry.lines
    full = geometry.full_mask
    mover, other = ((ply + 1) // 2, ply // 2) if ply % 2 else (ply // 2, ply // 2)
    cycle_of = {}
    for cycle in cycles:
        rest = cycle
        while rest:
            low = rest & -rest
            cycle_of[low] = cycle
            rest ^= low

    def closure(cells: int) -> int:
        closed, rest = 0, cells
        while rest:
            low = rest & -rest
            closed |= cycle_of[low]
            rest &= ~cycle_of[low]
        return closed

    sizes = sorted({c.bit_count() for c in cycles})
    total_profile = [sum(1 for c in cycles if c.bit_count() == s) for s in sizes]

    def profile(cells: int) -> list[int]:
        return [sum(1 for c in cycles if c.bit_count() == s and c & cells) for s in sizes]

    movers = _mover_weights(lines, _line_sets(lines, closure, mover), full)
    others = _other_weights(_line_sets(lines, closure, other))
    count = 0
    for cells_w, weight_w in movers.items():
        used_w = cells_w.bit_count()
        profile_w = profile(cells_w)
        for cells_o, weight_o in others.items():
            if cells_w & cells_o:
                continue
            used_o = cells_o.bit_count()
            free_profile = tuple(
                t - a - b
                for t, a, b in zip(total_profile, profile_w, profile(cells_o), strict=True)
            )
            ways = _fillings(free_profile, tuple(sizes)).get((mover - used_w, other - used_o), 0)
            count += weight_w * weight_o * ways
    return count


def positions_at(geometry: Geometry, ply: int) -> int:
    """Reachable positions after ``ply`` marks (no symmetry)."""
    return fixed_positions_at(geometry, [1 << cell for cell in range(geometry.size)], ply)


def count_at(geometry: Geometry, ply: int) -> tuple[int, int]:
    """(positions, classes) after ``ply`` marks, classes by Burnside's lemma over the symmetries."""
    from oxo.counting import symmetry_cycles

    fixed = [
        fixed_positions_at(geometry, symmetry_cycles(symmetry), ply)
        for symmetry in geometry.symmetries
    ]
    total = sum(fixed)
    if total % len(fixed):
        raise AssertionError(
            f"Burnside's sum {total} at ply {ply} is not divisible by {len(fixed)}"
        )
    return fixed[0], total // len(fixed)


def free_count(geometry: Geometry, ply: int) -> int:
    """Positions with the right mark counts and no rule at all (an upper bound, for the tests)."""
    x, o = (ply + 1) // 2, ply // 2
    return comb(geometry.size, x) * comb(geometry.size - x, o)
