"""The reference counter: walk the game tree ply by ply and keep every position reached.

Kept deliberately simple so that it is obviously right; the fast counter is tested against it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from oxo.geometry import Geometry, Symmetry


def count_by_search(geometry: Geometry, max_ply: int | None = None) -> tuple[list[int], list[int]]:
    """Positions and symmetry classes per ply (index = ply), by breadth-first search from the empty board.

    With ``max_ply`` the search stops after that ply (to check the first plies of big boards).
    """
    lines = geometry.lines
    full = geometry.full_mask
    symmetries = geometry.symmetries
    positions: list[int] = []
    classes: list[int] = []
    level = {(0, 0)}
    last = geometry.size if max_ply is None else min(max_ply, geometry.size)
    for ply in range(last + 1):
        positions.append(len(level))
        classes.append(count_classes(level, symmetries))
        if ply == last:
            break
        x_to_move = ply % 2 == 0
        following = set()
        for x, o in level:
            if any(x & line == line or o & line == line for line in lines) or x | o == full:
                continue  # the game has ended here
            free = full & ~(x | o)
            while free:
                bit = free & -free
                free ^= bit
                following.add((x | bit, o) if x_to_move else (x, o | bit))
        level = following
    return positions, classes


def count_classes(positions: Iterable[tuple[int, int]], symmetries: Sequence[Symmetry]) -> int:
    """Symmetry classes among ``positions`` (X's and O's cells as masks), a set closed under the
    symmetries: one at the first of its positions met, whose images are then set aside."""
    seen: set[tuple[int, int]] = set()
    count = 0
    for x, o in positions:
        if (x, o) not in seen:
            count += 1
            seen.update((s.apply_mask(x), s.apply_mask(o)) for s in symmetries)
    return count
