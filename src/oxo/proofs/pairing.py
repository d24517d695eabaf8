"""Pairing strategies: a defender's proof that the attacker can never complete a line.

A pairing is a set of disjoint pairs of empty cells such that every line the attacker can still
complete (every line without a mark of the defender) holds both cells of some pair. From then on the
defender answers each attacker move in a pair with its partner (and moves anywhere otherwise): every
such line keeps one cell of its pair for the defender, so the attacker never completes it.

**How one is found.** Two cells lie together on at most one straight *track* (a row, a column, a
diagonal, ...), so a pair only ever covers lines of one track, and the search works track by track
(:class:`Tracks`). For each track it lists the *patterns*: sets of disjoint pairs on the track that
cover every line of it the attacker can still complete, keeping only the minimal ones (no other
pattern uses a subset of their cells: a smaller one always serves as well). A pairing is then one
pattern per track, no two sharing a cell. The search picks the track with the fewest patterns still
possible, tries them (fewest cells first, then those whose cells the other tracks need least),
and after each choice drops every other track's patterns that share a cell with it; a track left
without patterns sends it back. Before each choice it also drops the patterns that share a cell
with another track's *core* (the cells all of that track's patterns hold), and a track left with
one pattern takes it. Before each choice it also checks a count that no pairing can
beat: every track needs as many cells of its own as its smallest pattern has, and no cell can serve
two tracks (a matching of tracks to cells, :func:`_cells_suffice`). That count ends most searches
for a pairing that does not exist after a step or two, where trying pairs one by one went on until
its budget ran out. A budget of steps still bounds the work, so "none found" proves nothing.

The patterns of a track depend only on its length, ``k`` and which of its lines are still open to
the attacker (with every cell empty; a pattern using a taken cell is dropped when the search
starts), so they are listed once per board. A track with more than :data:`MAX_TRACK_LINES` lines
(1x20 with k = 3, say) would have too many of those lists: on such boards the search tries pairs
line by line instead (:func:`find_pairing_by_lines`).

:mod:`oxo.proofs.kernel` holds the compiled twin of :func:`find_pairing`, which the tests hold to
the same pairs.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from oxo.geometry import mask_cells

#: Tracks with more lines than this make a board search its pairings line by line.
MAX_TRACK_LINES = 10


@dataclass(frozen=True)
class Pattern:
    """A minimal set of disjoint pairs covering the open lines of a track: its cells as a mask."""

    mask: int
    pairs: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Tracks:
    """A board's lines grouped by track: ``lines[t]`` the indices (into the board's lines) of track
    t's lines in order along it, ``cells[t]`` its cells in that order, ``k`` the cells of a line."""

    lines: tuple[tuple[int, ...], ...]
    cells: tuple[tuple[int, ...], ...]
    k: int

    def patterns(self, track: int, open_: int) -> tuple[Pattern, ...]:
        """The minimal patterns of ``track`` when its lines ``open_`` (bit j: line j of the track)
        are open to the attacker, with every cell empty: fewest cells first, then by the mask of
        their cells along the track (see :func:`local_patterns`)."""
        cells = self.cells[track]
        return tuple(
            Pattern(
                _union(1 << cells[a] | 1 << cells[b] for a, b in pairs),
                tuple((cells[a], cells[b]) for a, b in pairs),
            )
            for pairs in local_patterns(len(cells), self.k)[open_]
        )


@lru_cache(maxsize=16)
def tracks_of(lines: tuple[int, ...]) -> Tracks | None:
    """The tracks of a board given by its lines (cell masks, every line of ``k`` cells), or None
    when one is too long (see :data:`MAX_TRACK_LINES`)."""
    owner = [-1] * len(lines)
    groups: list[list[int]] = []
    for start in range(len(lines)):
        if owner[start] >= 0:
            continue
        owner[start] = len(groups)
        group = [start]
        stack = [start]
        while stack:  # lines sharing two cells lie on one track
            here = lines[stack.pop()]
            for other in range(len(lines)):
                if owner[other] < 0 and (here & lines[other]).bit_count() >= 2:
                    owner[other] = len(groups)
                    group.append(other)
                    stack.append(other)
        if len(group) > MAX_TRACK_LINES:
            return None
        groups.append(group)
    for group in groups:
        # Cell numbers grow along a straight track, so the lowest cell orders its lines.
        group.sort(key=lambda i: lines[i] & -lines[i])
    return Tracks(
        tuple(tuple(group) for group in groups),
        tuple(mask_cells(_union(lines[i] for i in group)) for group in groups),
        lines[0].bit_count() if lines else 0,
    )


def _union(masks: object) -> int:
    out = 0
    for mask in masks:  # type: ignore[attr-defined]  # an iterable of ints
        out |= mask
    return out


@lru_cache(maxsize=64)
def local_patterns(length: int, k: int) -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
    """For a track of ``length`` cells (numbered 0.. along it) and lines of ``k`` cells (line j is
    cells j..j+k-1), and each set of open lines (bit j: line j), the minimal patterns as tuples of
    pairs of cell numbers: fewest cells first, then by their cells' mask."""
    out = []
    for open_ in range(1 << (length - k + 1)):
        wanted = tuple(j for j in range(length - k + 1) if open_ >> j & 1)
        found: dict[int, tuple[tuple[int, int], ...]] = {}
        _covers(wanted, k, 0, 0, (), found)
        minimal: list[int] = []
        for mask in sorted(found, key=lambda mask: (mask.bit_count(), mask)):
            if not any(smaller & mask == smaller for smaller in minimal):
                minimal.append(mask)
        out.append(tuple(tuple(sorted(found[mask])) for mask in minimal))
    return tuple(out)


def _covers(
    wanted: tuple[int, ...],
    k: int,
    covered: int,
    used: int,
    pairs: tuple[tuple[int, int], ...],
    found: dict[int, tuple[tuple[int, int], ...]],
) -> None:
    """Every set of disjoint pairs covering the lines ``wanted`` (a pair covers line j when both of
    its cells are in j..j+k-1), by the mask of its cells (the first met for each mask): some pair
    must cover the first line not covered yet."""
    missing = [j for j in wanted if not covered >> j & 1]
    if not missing:
        found.setdefault(used, pairs)
        return
    first = missing[0]
    for a in range(first, first + k):
        for b in range(a + 1, first + k):
            if used >> a & 1 or used >> b & 1:
                continue
            lines = sum(1 << j for j in wanted if j <= a and b <= j + k - 1)
            _covers(wanted, k, covered | lines, used | 1 << a | 1 << b, (*pairs, (a, b)), found)


def find_pairing(
    lines: tuple[int, ...], defender: int, attacker: int, full: int, budget: int = 2000
) -> list[tuple[int, int]] | None:
    """Disjoint pairs of empty cells covering every line without a ``defender`` mark, or ``None`` when
    none was found within ``budget`` search steps (``None`` does not prove that none exists)."""
    tracks = tracks_of(lines)
    if tracks is None:
        return find_pairing_by_lines(lines, defender, attacker, full, budget)
    empty = full & ~(defender | attacker)
    # The open tracks, each with its patterns on empty cells only.
    level: list[list[Pattern]] = []
    for t, members in enumerate(tracks.lines):
        open_ = sum(1 << j for j, i in enumerate(members) if not lines[i] & defender)
        if not open_:
            continue
        usable = [p for p in tracks.patterns(t, open_) if not p.mask & ~empty]
        if not usable:
            return None
        level.append(usable)
    steps = 0
    chosen: list[Pattern] = []

    def search(level: list[list[Pattern]]) -> bool:
        nonlocal steps
        if not level:
            return True
        steps += 1
        if steps > budget:
            return False
        level = _propagate(level)
        if not level or not _cells_suffice(level):
            return False
        # A track left with one pattern takes it (no other track's pattern shares its cells now).
        forced = [patterns[0] for patterns in level if len(patterns) == 1]
        level = [patterns for patterns in level if len(patterns) > 1]
        if not level:
            chosen.extend(forced)
            return True
        pick = min(range(len(level)), key=lambda j: len(level[j]))  # the first of the fewest
        rest = level[:pick] + level[pick + 1 :]
        need = [0] * full.bit_length()
        for patterns in rest:
            for cell in mask_cells(_union(p.mask for p in patterns)):
                need[cell] += 1
        order = sorted(
            range(len(level[pick])),
            key=lambda i: (
                level[pick][i].mask.bit_count(),
                sum(need[c] for c in mask_cells(level[pick][i].mask)),
                i,
            ),
        )
        for i in order:
            pattern = level[pick][i]
            after = [[p for p in patterns if not p.mask & pattern.mask] for patterns in rest]
            if not all(after):
                continue
            chosen.extend([*forced, pattern])
            if search(after):
                return True
            del chosen[len(chosen) - len(forced) - 1 :]
            if steps > budget:
                return False
        return False

    if not search(level):
        return None
    return [pair for pattern in chosen for pair in pattern.pairs]


def _propagate(level: list[list[Pattern]]) -> list[list[Pattern]]:
    """The tracks' patterns without those sharing a cell with another track's *core* (the cells
    all of its patterns hold: it takes them whatever it chooses), again until nothing changes;
    empty when a track is left without patterns."""
    while True:
        cores = []
        for patterns in level:
            core = -1
            for pattern in patterns:
                core &= pattern.mask
            cores.append(core)
        kept = []
        for track, patterns in enumerate(level):
            others = _union(core for i, core in enumerate(cores) if i != track)
            left = [p for p in patterns if not p.mask & others]
            if not left:
                return []
            kept.append(left)
        if all(len(a) == len(b) for a, b in zip(kept, level, strict=True)):
            return kept
        level = kept


def _cells_suffice(level: list[list[Pattern]]) -> bool:
    """Whether every track can have as many cells of its own as its smallest pattern has, among
    the cells of its patterns, no cell serving two tracks (a matching, grown one cell at a time
    along augmenting paths, breadth first). A pairing needs that much."""
    owner: dict[int, int] = {}
    for track, patterns in enumerate(level):
        need = min(p.mask.bit_count() for p in patterns)
        for _ in range(need):
            # Breadth first from this track: a free cell it may take, or a cell whose owner can
            # move to another cell, and so on.
            parent = {track: (-1, -1)}
            queue = [track]
            seen = 0
            found = -1
            head = 0
            while head < len(queue) and found < 0:
                here = queue[head]
                head += 1
                reach = _union(p.mask for p in level[here]) & ~seen
                seen |= reach
                for cell in mask_cells(reach):
                    holder = owner.get(cell)
                    if holder is None:
                        found, at = cell, here
                        break
                    if holder not in parent:
                        parent[holder] = (here, cell)
                        queue.append(holder)
            if found < 0:
                return False
            cell, here = found, at
            while here != track:
                back, given = parent[here]
                owner[cell] = here
                cell, here = given, back
            owner[cell] = track
    return True


def find_pairing_by_lines(
    lines: tuple[int, ...], defender: int, attacker: int, full: int, budget: int = 2000
) -> list[tuple[int, int]] | None:
    """The same as :func:`find_pairing`, searched line by line: take the uncovered line with the
    fewest usable cells, try its pairs (those covering more uncovered lines first), recurse. For
    boards with very long tracks (see :data:`MAX_TRACK_LINES`)."""
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
