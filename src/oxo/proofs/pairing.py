"""Pairing strategies: a defender's proof that the attacker can never complete a line.

A pairing is a set of disjoint pairs of empty cells such that every line the attacker can still
complete (every line without a mark of the defender) holds both cells of some pair. From then on the
defender answers each attacker move in a pair with its partner (and moves anywhere otherwise): every
such line keeps one cell of its pair for the defender, so the attacker never completes it.

Finding a pairing is a small exact-cover-like search: take the uncovered line with the fewest usable
pairs, try each pair (those covering more uncovered lines first), recurse. A budget bounds the work.
"""

from __future__ import annotations

from oxo.geometry import mask_cells


def find_pairing(
    lines: tuple[int, ...], defender: int, attacker: int, full: int, budget: int = 2000
) -> list[tuple[int, int]] | None:
    """Disjoint pairs of empty cells covering every line without a ``defender`` mark, or ``None`` when
    none was found within ``budget`` search steps (``None`` does not prove that none exists)."""
    empty = full & ~(defender | attacker)
    live = [line for line in lines if not line & defender]
    for line in live:
        if (line & empty).bit_count() < 2:
            return None
    if not live:
        return []
    steps = [0]
    pairs: list[tuple[int, int]] = []

    def search(uncovered: list[int], used: int) -> bool:
        if not uncovered:
            return True
        steps[0] += 1
        if steps[0] > budget:
            return False
        best_free, best_count = 0, 1 << 30
        for line in uncovered:
            free = line & empty & ~used
            count = free.bit_count()
            if count < 2:
                return False
            if count < best_count:
                best_free, best_count = free, count
                if count == 2:
                    break
        cells = mask_cells(best_free)
        options = []
        for i, a in enumerate(cells):
            for b in cells[i + 1 :]:
                both = 1 << a | 1 << b
                covered = sum(1 for line in uncovered if line & both == both)
                options.append((covered, a, b, both))
        options.sort(reverse=True)
        for _, a, b, both in options:
            rest = [line for line in uncovered if line & both != both]
            pairs.append((a, b))
            if search(rest, used | both):
                return True
            pairs.pop()
        return False

    return list(pairs) if search(live, 0) else None


def is_pairing(
    lines: tuple[int, ...], defender: int, attacker: int, full: int, pairs: list[tuple[int, int]]
) -> bool:
    """Whether ``pairs`` is a pairing for the defender in this position (the condition, checked directly)."""
    empty = full & ~(defender | attacker)
    used = 0
    masks = []
    for a, b in pairs:
        both = 1 << a | 1 << b
        if a == b or both & used or both & ~empty:
            return False
        used |= both
        masks.append(both)
    return all(any(line & both == both for both in masks) for line in lines if not line & defender)
