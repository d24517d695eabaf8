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

#: Seconds per pair of sets of lines summed, and per set of lines found (Qubic, plies 15 and 16).
SECONDS_PER_PAIR = 2e-6
SECONDS_PER_SET = 1e-4

#: The estimate gives up on a ply once its sets of lines (over every symmetry) pass this many.
MAX_SETS = 20_000


class _TooMany(Exception):
    """Private: the enumeration passed its cap (control flow inside this module only)."""


def _line_sets(
    lines: Sequence[int], closure: Callable[[int], int], limit: int, cap: int | None = None
) -> list[tuple[tuple[int, ...], int]]:
    """Every set of lines (as indices) whose closed cells number at most ``limit``, with them;
    past ``cap`` sets the enumeration stops with :class:`_TooMany`."""
    out: list[tuple[tuple[int, ...], int]] = [((), 0)]

    def grow(start: int, chosen: tuple[int, ...], cells: int) -> None:
        for index in range(start, len(lines)):
            grown = closure(cells | lines[index])
            if grown.bit_count() <= limit:
                members = (*chosen, index)
                out.append((members, grown))
                if cap is not None and len(out) > cap:
                    raise _TooMany
                grow(index + 1, members, grown)

    grow(0, (), 0)
    return out


def _closure(cycles: Sequence[int]) -> Callable[[int], int]:
    """A set of cells grown to the union of the cycles it meets."""
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

    return closure


def _marks(ply: int) -> tuple[int, int]:
    """(the last mover's marks, the other player's) after ``ply`` marks."""
    return (ply + 1) // 2, ply // 2


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
    mover, other = _marks(ply)
    closure = _closure(cycles)

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
            wanted = (mover - used_w, other - used_o)
            ways = _fillings(free_profile, tuple(sizes), wanted).get(wanted, 0)
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


def estimate_sparse(
    geometry: Geometry,
    max_ply: int,
    *,
    within: float = float("inf"),
    max_sets: int = MAX_SETS,
) -> list[float]:
    """Predicted seconds of :func:`count_at` for plies 0, 1, ... ``max_ply``: the sets of lines
    found and the pairs of them summed, for every symmetry. The list stops before the first ply
    whose sets number more than ``max_sets`` (out of this method's reach), or that would bring the
    total past ``within`` seconds (finding the sets costs about what the count of them does)."""
    from oxo.counting import symmetry_cycles

    closures = [_closure(symmetry_cycles(symmetry)) for symmetry in geometry.symmetries]
    sets_by_marks: dict[int, list[int]] = {}  # marks -> sets of lines per symmetry

    def sets(marks: int) -> list[int] | None:
        if marks not in sets_by_marks:
            found = []
            room = max_sets
            for closure in closures:
                try:
                    count = len(_line_sets(geometry.lines, closure, marks, room))
                except _TooMany:
                    return None
                found.append(count)
                room -= count
            sets_by_marks[marks] = found
        return sets_by_marks[marks]

    out: list[float] = []
    for ply in range(min(max_ply, geometry.size) + 1):
        mover, other = _marks(ply)
        movers, others = sets(mover), sets(other)
        if movers is None or others is None:
            break
        pairs = sum(a * b for a, b in zip(movers, others, strict=True))
        seconds = pairs * SECONDS_PER_PAIR + (sum(movers) + sum(others)) * SECONDS_PER_SET
        if sum(out) + seconds > within:
            break
        out.append(seconds)
    return out
