"""The compiled (numba) heart of the proof search: df-pn over boards of at most 64 cells.

Everything here works on 64-bit cell masks (bit ``c`` is cell ``c``) and on a few arrays built once
per board by :class:`Board` (the lines, the lines through each cell, the symmetries and their hash
keys). The functions are the compiled twins of the slow, readable search in
:mod:`oxo.proofs.reference` (which the tests hold them to), arranged so that a search can stop after
a number of positions and continue later from where it stopped: its stack lives in arrays
(:class:`Frames`), not in Python's call stack, so a driver can check the clock, report progress,
answer Ctrl-C and save everything to disk between two calls.

The pieces:

* :func:`scan`: one pass over the lines (complete lines and one-move wins of both sides);
* :func:`find_pairing`: a pairing strategy for the defender (see :mod:`oxo.proofs.pairing`);
* :func:`threat_search`: a win of the attacker by a sequence of threats (see
  :mod:`oxo.proofs.threats`), recorded as a small tree of moves a certificate can be written from;
* :func:`expand`: what settles a position before any search, or the moves worth searching;
* :func:`run`: the df-pn loop itself, with a transposition table in open-addressed arrays.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, cast

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.extending import intrinsic


def _skip_the_blas_lookup() -> None:
    """Load numba's array functions without looking for a BLAS. The first compiled function a
    process loads makes numba import them, and they look for a BLAS by importing
    ``scipy.linalg``: about a third of what loading the search costs, for functions (``np.dot`` in
    compiled code) that nothing compiled in oxo uses. ``scipy.linalg`` stays importable."""
    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    sys.modules["scipy.linalg"] = None  # type: ignore[assignment]  # "import scipy.linalg" fails
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        del sys.modules["scipy.linalg"]


_skip_the_blas_lookup()

ONE = np.uint64(1)
ZERO = np.uint64(0)
#: Proof and disproof numbers at or above this are infinite.
INF = 1 << 30
#: What a line open to one side adds to a cell's promise, by the marks that side has in it.
WEIGHTS = np.array(
    [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 1 << 18, 1 << 20, 1 << 22] + [1 << 24] * 52,
    dtype=np.int64,
)

# Table flags: the threat search and the pairing search failed at this position already.
FLAG_THREATS_TRIED = 1
FLAG_PAIRING_TRIED = 2

# Indices of the counters in the statistics array.
ST_NODES = 0
ST_HITS = 1
ST_TWINS = 2
ST_PAIR_TRIES = 3
ST_PAIR_FOUND = 4
ST_THREAT_TRIES = 5
ST_THREAT_FOUND = 6
ST_ENTRIES = 7
ST_REPLACED = 8
ST_ZONE_CUTS = 9
ST_SWEPT = 10
STATS = 11

# Expand's answers.
PROVEN = 1
PROVEN_BY_THREATS = 2
DISPROVEN = -1
DISPROVEN_BY_PAIRING = -2


@intrinsic
def _popcount(typingctx, x):
    """The number of set bits of a uint64 (one machine instruction)."""
    if x != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return types.int64(types.uint64), codegen


@intrinsic
def _lowest(typingctx, x):
    """The index of the lowest set bit of a non-zero uint64 (one machine instruction)."""
    if x != types.uint64:
        return None

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

    return types.int64(types.uint64), codegen


#: The two intrinsics as compiled code calls them (the casts only tell the type checker so).
popcount = cast(Callable[[Any], int], _popcount)
lowest = cast(Callable[[Any], int], _lowest)


@njit(cache=True, inline="always")
def bit(cell: int) -> np.uint64:
    return ONE << np.uint64(cell)


@njit(cache=True, inline="always")
def highest(mask: np.uint64) -> int:
    """The index of the highest set bit of a non-zero mask."""
    n = 63
    while not (mask >> np.uint64(n)) & ONE:
        n -= 1
    return n


# -- lines -----------------------------------------------------------------------------------------


@njit(cache=True)
def scan(lines, s, d):
    """(s has a line, s's winning cells, d has a line, d's winning cells, lines still open for s)."""
    s_line = False
    d_line = False
    s_threats = ZERO
    d_threats = ZERO
    open_s = 0
    for i in range(lines.shape[0]):
        line = lines[i]
        a = s & line
        b = d & line
        if a != ZERO and b != ZERO:
            continue
        if b == ZERO:
            open_s += 1
            rest = line & ~s
            if rest == ZERO:
                s_line = True
            elif rest & (rest - ONE) == ZERO:
                s_threats |= rest
        if a == ZERO:
            rest = line & ~d
            if rest == ZERO:
                d_line = True
            elif rest & (rest - ONE) == ZERO:
                d_threats |= rest
    return s_line, s_threats, d_line, d_threats, open_s


@njit(cache=True)
def apply_perm(perm, mask):
    """The image of a cell mask under a permutation (``perm[c]`` is where cell c goes)."""
    out = ZERO
    m = mask
    while m != ZERO:
        c = lowest(m)
        m &= m - ONE
        out |= bit(perm[c])
    return out


# -- pairings --------------------------------------------------------------------------------------
#
# numba cannot keep a recursive function in its on-disk cache (a cached recursive function crashes
# when loaded again), so the two small searches below keep their stacks in arrays.

#: Pairs a pairing may hold (a board of 64 cells has at most 32 disjoint pairs).
PAIR_DEPTH = 34


class PairScratch:
    """The arrays one pairing search works in, and the board's tracks and their patterns (see
    :mod:`oxo.proofs.pairing`), for a board with ``lines`` (cell masks) of ``k`` cells. A board
    whose tracks are too long for patterns (:func:`oxo.proofs.pairing.tracks_of` gives None)
    searches line by line."""

    def __init__(self, lines: tuple[int, ...], k: int) -> None:
        nlines = len(lines)
        options = max(1, k * (k - 1) // 2)
        self.unc = np.zeros((PAIR_DEPTH + 1, max(1, nlines)), np.uint64)
        self.counts = np.zeros(PAIR_DEPTH + 1, np.int64)
        self.used = np.zeros(PAIR_DEPTH + 1, np.uint64)
        self.opt_a = np.zeros((PAIR_DEPTH + 1, options), np.int64)
        self.opt_b = np.zeros((PAIR_DEPTH + 1, options), np.int64)
        self.nopt = np.zeros(PAIR_DEPTH + 1, np.int64)
        self.next = np.zeros(PAIR_DEPTH + 1, np.int64)
        self.pairs = np.zeros((PAIR_DEPTH, 2), np.int64)
        self.tracks = _track_tables(tuple(lines))

    def arrays(self) -> tuple[np.ndarray, ...]:
        return (
            self.unc, self.counts, self.used, self.opt_a, self.opt_b, self.nopt, self.next,
            self.pairs, *self.tracks.arrays(),
        )  # fmt: skip


class TrackTables:
    """The tracks of a board and their minimal patterns as arrays (:class:`oxo.proofs.pairing.Tracks`),
    with the scratch arrays of the search over them. ``mode[0]`` is 0 when the board searches its
    pairings line by line instead."""

    def __init__(self, lines: tuple[int, ...]) -> None:
        from oxo.proofs.pairing import local_patterns, tracks_of

        tracks = tracks_of(lines)
        self.mode = np.array([0 if tracks is None else 1], np.int64)
        groups: list[tuple[int, ...]] = [] if tracks is None else list(tracks.lines)
        cells_of: list[tuple[int, ...]] = [] if tracks is None else list(tracks.cells)
        nt = max(1, len(groups))
        width = max((len(g) for g in groups), default=1)
        self.nlines = np.zeros(nt, np.int64)
        self.line = np.zeros((nt, width), np.int64)
        self.offset = np.zeros((nt, 1 << width), np.int64)
        self.count = np.zeros((nt, 1 << width), np.int64)
        masks: list[int] = []
        pair_offset: list[int] = []
        pair_count: list[int] = []
        first: list[int] = []
        second: list[int] = []
        widest = 1
        for t, group in enumerate(groups):
            assert tracks is not None
            self.nlines[t] = len(group)
            self.line[t, : len(group)] = group
            cells = cells_of[t]
            local = local_patterns(len(cells), tracks.k)
            most = 0
            for open_ in range(1, 1 << len(group)):
                self.offset[t, open_] = len(masks)
                self.count[t, open_] = len(local[open_])
                most = max(most, len(local[open_]))
                for pairs in local[open_]:
                    mask = 0
                    pair_offset.append(len(first))
                    pair_count.append(len(pairs))
                    for a, b in pairs:
                        mask |= 1 << cells[a] | 1 << cells[b]
                        first.append(cells[a])
                        second.append(cells[b])
                    masks.append(mask)
            widest += most
        self.mask = np.array(masks or [0], np.uint64)
        self.pair_offset = np.array(pair_offset or [0], np.int64)
        self.pair_count = np.array(pair_count or [0], np.int64)
        self.first = np.array(first or [0], np.int64)
        self.second = np.array(second or [0], np.int64)
        depth = nt + 1
        self.cand = np.zeros((depth, widest), np.int64)
        self.start = np.zeros((depth, nt), np.int64)
        self.size = np.zeros((depth, nt), np.int64)
        self.track = np.zeros((depth, nt), np.int64)
        self.open = np.zeros(depth, np.int64)
        self.pick = np.zeros(depth, np.int64)
        self.order = np.zeros((depth, widest), np.int64)
        self.options = np.zeros(depth, np.int64)
        self.tried = np.zeros(depth, np.int64)
        self.chosen = np.zeros(max(1, nt), np.int64)
        self.top = np.zeros(depth + 1, np.int64)
        self.owner = np.zeros(64, np.int64)
        self.parent = np.zeros(nt, np.int64)
        self.via = np.zeros(nt, np.int64)
        self.queue = np.zeros(nt, np.int64)
        self.stamp = np.zeros(nt, np.int64)
        self.need = np.zeros(64, np.int64)
        self.unions = np.zeros(nt, np.uint64)
        self.least = np.zeros(nt, np.int64)
        self.core = np.zeros(nt, np.uint64)
        self.suffix = np.zeros(nt, np.uint64)

    def arrays(self) -> tuple[np.ndarray, ...]:
        return (
            self.mode, self.nlines, self.line, self.offset, self.count, self.mask,
            self.pair_offset, self.pair_count, self.first, self.second, self.cand, self.start,
            self.size, self.track, self.open, self.pick, self.order, self.options, self.tried,
            self.chosen, self.owner, self.parent, self.via, self.queue, self.stamp, self.need,
            self.unions, self.least, self.core, self.suffix, self.top,
        )  # fmt: skip


_TRACK_TABLES: dict[tuple[int, ...], TrackTables] = {}


def _track_tables(lines: tuple[int, ...]) -> TrackTables:
    """The track tables of a board, built once per process (a search's scratch arrays are its
    own: each search gets a copy)."""
    tables = _TRACK_TABLES.get(lines)
    if tables is None:
        tables = _TRACK_TABLES[lines] = TrackTables(lines)
    copy = object.__new__(TrackTables)
    for name, value in vars(tables).items():
        setattr(copy, name, value.copy() if name in _SCRATCH else value)
    return copy


#: The arrays of TrackTables a search writes to (the others are the board's, shared).
_SCRATCH = frozenset(
    "cand start size track open pick order options tried chosen owner parent via queue stamp need "
    "unions least core suffix top".split()
)


@njit(cache=True)
def find_pairing(lines, defender, attacker, full, budget, ps):
    """Disjoint pairs of empty cells covering every line without a ``defender`` mark, written to the
    scratch's ``pairs`` (``ps[7]``): their number, or -1 when none was found within ``budget``
    search steps (-1 does not prove that none exists). The search of
    :func:`oxo.proofs.pairing.find_pairing`, track by track; on boards with too long tracks, line
    by line (:func:`find_pairing_by_lines`)."""
    if ps[8][0] == 0:
        return find_pairing_by_lines(lines, defender, attacker, full, budget, ps)
    return find_pairing_by_tracks(lines, defender, attacker, full, budget, ps)


@njit(cache=True)
def _propagate(depth, ps):
    """Drop the patterns of each open track of the level ``depth`` that share a cell with the
    *core* of another track (the cells all of its patterns hold: it takes them whatever it
    chooses), until nothing changes (see :func:`oxo.proofs.pairing._propagate`). False when a
    track is left without patterns."""
    mask, cand, start, size = ps[13], ps[18], ps[19], ps[20]
    nopen = ps[22][depth]
    core, suffix = ps[36], ps[37]
    changed = True
    while changed:
        changed = False
        for j in range(nopen):
            c = ~ZERO
            for q in range(start[depth, j], start[depth, j] + size[depth, j]):
                c &= mask[cand[depth, q]]
            core[j] = c
        acc = ZERO
        for j in range(nopen - 1, -1, -1):
            suffix[j] = acc  # the cores of the tracks after j
            acc |= core[j]
        prefix = ZERO  # the cores of the tracks before j
        for j in range(nopen):
            others = prefix | suffix[j]
            prefix |= core[j]
            s0 = start[depth, j]
            w = s0
            for q in range(s0, s0 + size[depth, j]):
                if mask[cand[depth, q]] & others == ZERO:
                    cand[depth, w] = cand[depth, q]
                    w += 1
            if w == s0:
                return False
            if w - s0 != size[depth, j]:
                size[depth, j] = w - s0
                changed = True
    return True


@njit(cache=True)
def _cells_suffice(depth, ps):
    """Whether every open track of the level ``depth`` can have as many cells of its own as its
    smallest pattern has, among its patterns' cells, no cell serving two tracks (see
    :func:`oxo.proofs.pairing._cells_suffice`): Kuhn's matching, a cell at a time, breadth first."""
    mask, cand, start, size = ps[13], ps[18], ps[19], ps[20]
    nopen = ps[22][depth]
    owner, parent, via, queue, stamp = ps[28], ps[29], ps[30], ps[31], ps[32]
    unions, least = ps[34], ps[35]
    for j in range(nopen):
        u = ZERO
        m = 64
        for q in range(start[depth, j], start[depth, j] + size[depth, j]):
            pm = mask[cand[depth, q]]
            u |= pm
            c = popcount(pm)
            if c < m:
                m = c
        unions[j] = u
        least[j] = m
        stamp[j] = -1
    owned = ZERO
    mark = 0
    for j in range(nopen):
        for _ in range(least[j]):
            mark += 1
            queue[0] = j
            stamp[j] = mark
            head = 0
            tail = 1
            seen = ZERO
            found = -1
            at = -1
            while head < tail:
                h = queue[head]
                head += 1
                reach = unions[h] & ~seen
                seen |= reach
                free = reach & ~owned
                if free != ZERO:
                    found = lowest(free)
                    at = h
                    break
                r = reach
                while r != ZERO:
                    c = lowest(r)
                    r &= r - ONE
                    holder = owner[c]
                    if stamp[holder] != mark:
                        stamp[holder] = mark
                        parent[holder] = h
                        via[holder] = c
                        queue[tail] = holder
                        tail += 1
            if found < 0:
                return False
            owned |= bit(found)
            c = found
            h = at
            while h != j:
                owner[c] = h
                nxt = via[h]
                h = parent[h]
                c = nxt
            owner[c] = j
    return True


@njit(cache=True)
def find_pairing_by_tracks(lines, defender, attacker, full, budget, ps):
    """The search of :func:`oxo.proofs.pairing.find_pairing`: one minimal pattern per open track, no
    two sharing a cell; at each level the patterns sharing a cell with another track's core are
    dropped, the tracks left with one pattern take it, the matching bound is checked, and the
    track with the fewest patterns is tried, its patterns fewest cells first, then those whose
    cells the other tracks need least. Its stack lives in arrays (levels: the open tracks left and
    their patterns still possible; ``chosen``: the patterns taken, ``top[d]`` how many before level
    d)."""
    pairs = ps[7]
    nlines, tline, offset, count, mask = ps[9], ps[10], ps[11], ps[12], ps[13]
    pair_offset, pair_count, first, second = ps[14], ps[15], ps[16], ps[17]
    cand, start, size, track, nopen = ps[18], ps[19], ps[20], ps[21], ps[22]
    pick, order, noptions, tried, chosen, need = ps[23], ps[24], ps[25], ps[26], ps[27], ps[33]
    unions, top = ps[34], ps[38]
    empty = full & ~(defender | attacker)
    n = 0
    nc = 0
    for t in range(nlines.shape[0]):
        op = 0
        for j in range(nlines[t]):
            if lines[tline[t, j]] & defender == ZERO:
                op |= 1 << j
        if op == 0:
            continue
        begin = nc
        for p in range(offset[t, op], offset[t, op] + count[t, op]):
            if mask[p] & ~empty == ZERO:
                cand[0, nc] = p
                nc += 1
        if nc == begin:
            return -1
        track[0, n] = t
        start[0, n] = begin
        size[0, n] = nc - begin
        n += 1
    nopen[0] = n
    top[0] = 0
    if n == 0:
        return 0
    steps = 0
    depth = 0
    entering = True
    taken = 0
    while True:
        if entering:
            entering = False
            if nopen[depth] == 0:
                taken = top[depth]
                break
            steps += 1
            if steps > budget:
                return -1
            noptions[depth] = 0
            tried[depth] = 0
            if _propagate(depth, ps) and _cells_suffice(depth, ps):
                n = nopen[depth]
                # The tracks left with one pattern take it; the others stay in the level.
                k = top[depth]
                w = 0
                for j in range(n):
                    if size[depth, j] == 1:
                        chosen[k] = cand[depth, start[depth, j]]
                        k += 1
                    else:
                        track[depth, w] = track[depth, j]
                        start[depth, w] = start[depth, j]
                        size[depth, w] = size[depth, j]
                        unions[w] = unions[j]
                        w += 1
                n = w
                nopen[depth] = n
                top[depth + 1] = k + 1  # after the forced patterns and the one tried here
                if n == 0:
                    taken = k
                    break
                best = 0
                for j in range(1, n):
                    if size[depth, j] < size[depth, best]:
                        best = j
                pick[depth] = best
                for c in range(64):
                    need[c] = 0
                for j in range(n):
                    if j == best:
                        continue
                    u = unions[j]  # the cells of track j's patterns (from _cells_suffice)
                    while u != ZERO:
                        need[lowest(u)] += 1
                        u &= u - ONE
                # The chosen track's patterns by (cells, need of their cells, index): insertion.
                s0 = start[depth, best]
                cnt = size[depth, best]
                keys = np.empty(cnt, np.int64)
                for i in range(cnt):
                    pm = mask[cand[depth, s0 + i]]
                    total = 0
                    u = pm
                    while u != ZERO:
                        total += need[lowest(u)]
                        u &= u - ONE
                    key = (popcount(pm) * (1 << 24) + total) * (1 << 16) + i
                    a = i
                    while a > 0 and keys[a - 1] > key:
                        keys[a] = keys[a - 1]
                        order[depth, a] = order[depth, a - 1]
                        a -= 1
                    keys[a] = key
                    order[depth, a] = i
                noptions[depth] = cnt
        advanced = False
        while tried[depth] < noptions[depth]:
            i = order[depth, tried[depth]]
            tried[depth] += 1
            best = pick[depth]
            p = cand[depth, start[depth, best] + i]
            pm = mask[p]
            below = depth + 1
            n1 = 0
            nc1 = 0
            ok = True
            for j in range(nopen[depth]):
                if j == best:
                    continue
                begin = nc1
                for q in range(start[depth, j], start[depth, j] + size[depth, j]):
                    other = cand[depth, q]
                    if mask[other] & pm == ZERO:
                        cand[below, nc1] = other
                        nc1 += 1
                if nc1 == begin:
                    ok = False
                    break
                track[below, n1] = track[depth, j]
                start[below, n1] = begin
                size[below, n1] = nc1 - begin
                n1 += 1
            if not ok:
                continue
            nopen[below] = n1
            chosen[top[below] - 1] = p
            depth = below
            entering = True
            advanced = True
            break
        if advanced:
            continue
        depth -= 1
        if depth < 0:
            return -1
    npairs = 0
    for d in range(taken):
        p = chosen[d]
        for q in range(pair_offset[p], pair_offset[p] + pair_count[p]):
            pairs[npairs, 0] = first[q]
            pairs[npairs, 1] = second[q]
            npairs += 1
    return npairs


@njit(cache=True)
def find_pairing_by_lines(lines, defender, attacker, full, budget, ps):
    """The search of :func:`oxo.proofs.pairing.find_pairing_by_lines`: take the uncovered line
    with the fewest usable cells, try its pairs (those covering more uncovered lines first; ties:
    larger cells first). Its answer as :func:`find_pairing`'s."""
    unc, counts, used, opt_a, opt_b, nopt, nxt, pairs = (
        ps[0],
        ps[1],
        ps[2],
        ps[3],
        ps[4],
        ps[5],
        ps[6],
        ps[7],
    )
    empty = full & ~(defender | attacker)
    live = 0
    for i in range(lines.shape[0]):
        line = lines[i]
        if line & defender == ZERO:
            if popcount(line & empty) < 2:
                return -1
            unc[0, live] = line
            live += 1
    counts[0] = live
    if live == 0:
        return 0
    steps = 0
    depth = 0
    used[0] = ZERO
    entering = True
    while True:
        if entering:
            count = counts[depth]
            if count == 0:
                return depth
            steps += 1
            if steps > budget:
                return -1
            best_free = ZERO
            best_count = 1 << 30
            dead = False
            for i in range(count):
                free = unc[depth, i] & empty & ~used[depth]
                c = popcount(free)
                if c < 2:
                    dead = True
                    break
                if c < best_count:
                    best_free = free
                    best_count = c
                    if c == 2:
                        break
            nopt[depth] = 0
            nxt[depth] = 0
            if not dead:
                # The pairs inside the chosen line, sorted by (lines covered, a, b) descending.
                keys = np.empty(opt_a.shape[1], np.int64)
                n = 0
                ma = best_free
                while ma != ZERO:
                    a = lowest(ma)
                    ma &= ma - ONE
                    mb = ma
                    while mb != ZERO:
                        b = lowest(mb)
                        mb &= mb - ONE
                        both = bit(a) | bit(b)
                        covered = 0
                        for t in range(count):
                            if unc[depth, t] & both == both:
                                covered += 1
                        key = (covered * 64 + a) * 64 + b
                        i = n
                        while i > 0 and keys[i - 1] < key:
                            keys[i] = keys[i - 1]
                            opt_a[depth, i] = opt_a[depth, i - 1]
                            opt_b[depth, i] = opt_b[depth, i - 1]
                            i -= 1
                        keys[i] = key
                        opt_a[depth, i] = a
                        opt_b[depth, i] = b
                        n += 1
                nopt[depth] = n
            entering = False
        # Try the next pair at this depth, or go back up.
        if nxt[depth] < nopt[depth]:
            t = nxt[depth]
            nxt[depth] = t + 1
            a = opt_a[depth, t]
            b = opt_b[depth, t]
            both = bit(a) | bit(b)
            rc = 0
            for i in range(counts[depth]):
                line = unc[depth, i]
                if line & both != both:
                    unc[depth + 1, rc] = line
                    rc += 1
            counts[depth + 1] = rc
            used[depth + 1] = used[depth] | both
            pairs[depth, 0] = a
            pairs[depth, 1] = b
            depth += 1
            entering = True
            continue
        depth -= 1
        if depth < 0:
            return -1


# -- threats ---------------------------------------------------------------------------------------

# Indices of the threat search's context array.
TS_STEPS = 0
TS_BUDGET = 1
TS_THREES = 2
TS_DEEP = 3
TS_NPLAN = 4
TS_NREPLY = 5
TS_NFAILED = 6
TS_MAXDEF = 7
TS_SIZE = 8
#: Plan nodes and replies a threat search may record.
PLAN_CAP = 4096
REPLY_CAP = 65536
FAILED_CAP = 256
#: Frames of the threat search's stack.
DEPTH_CAP = 64
# The two kinds of frames: a plan for S to move, and the plan after S's move.
_PLAN = 0
_AFTER = 1


class ThreatScratch:
    """The arrays one threat search works in: its settings and counters, the plans it records and its
    stack of frames."""

    def __init__(self, budget: int, threes: bool, deep: bool, max_defences: int) -> None:
        d = DEPTH_CAP
        self.ctx = np.zeros(TS_SIZE, np.int64)
        self.ctx[TS_BUDGET] = budget
        self.ctx[TS_THREES] = int(threes)
        self.ctx[TS_DEEP] = int(deep)
        self.ctx[TS_MAXDEF] = max_defences
        self.partners = np.zeros((d, 64), np.uint64)
        self.failed = np.zeros((FAILED_CAP, 2), np.uint64)
        self.plan_move = np.zeros(PLAN_CAP, np.int64)
        self.plan_first = np.zeros(PLAN_CAP, np.int64)
        self.plan_count = np.zeros(PLAN_CAP, np.int64)
        self.reply_cell = np.zeros(REPLY_CAP, np.int64)
        self.reply_plan = np.zeros(REPLY_CAP, np.int64)
        self.three_lines = np.zeros((d, 256), np.uint64)
        self.words = np.zeros((d, 8), np.uint64)  # s, d, d_makers, remaining replies, defences
        self.ints = np.zeros((d, 8), np.int64)  # kind, phase, move, candidates, next, doubles, ...
        self.cand = np.zeros((d, 64), np.int64)
        self.dbl_cell = np.zeros((d, 64), np.int64)
        self.dbl_mask = np.zeros((d, 64), np.uint64)
        self.rep_cell = np.zeros((d, 64), np.int64)
        self.rep_plan = np.zeros((d, 64), np.int64)

    def arrays(self) -> tuple[np.ndarray, ...]:
        return (
            self.ctx, self.partners, self.failed, self.plan_move, self.plan_first,
            self.plan_count, self.reply_cell, self.reply_plan, self.three_lines, self.words,
            self.ints, self.cand, self.dbl_cell, self.dbl_mask, self.rep_cell, self.rep_plan,
        )  # fmt: skip


# Columns of ThreatScratch.words and .ints.
_W_S = 0
_W_D = 1
_W_DMK = 2
_W_REM = 3
_W_DEF = 4
_I_KIND = 0
_I_PHASE = 1
_I_MOVE = 2
_I_NCAND = 3
_I_NEXT = 4
_I_NDBL = 5
_I_NREP = 6
_I_NTHREE = 7


@njit(cache=True)
def _new_plan(ctx, plan_move, plan_first, plan_count, move, first, count):
    n = ctx[TS_NPLAN]
    if n >= plan_move.shape[0]:
        return -1
    plan_move[n] = move
    plan_first[n] = first
    plan_count[n] = count
    ctx[TS_NPLAN] = n + 1
    return n


@njit(cache=True)
def _push(words, ints, depth, kind, s, d, move, d_makers):
    words[depth, _W_S] = s
    words[depth, _W_D] = d
    words[depth, _W_DMK] = d_makers
    ints[depth, _I_KIND] = kind
    ints[depth, _I_PHASE] = 0
    ints[depth, _I_MOVE] = move


@njit(cache=True)
def threat_search(lines, thr, thrn, full, s0, d0, ts):
    """A win of S (to move) in (s0, d0) by threats: the index of its plan's root in the scratch's
    plan arrays, or -1 when none was found within the budget (which proves nothing).

    The search of :class:`oxo.proofs.threats.ThreatSearch`, as a loop over a stack of frames of two
    kinds: a *plan* frame looks for S's move (a win at once, the forced block of D's four, the cells
    that make a four, double fours first, and on the first position threes), an *after* frame
    follows S's move (a double four wins; a four is answered by its block and the search goes on;
    a three is answered by each of its few defences, and every other reply by a double four)."""
    (
        ctx, partners, failed, plan_move, plan_first, plan_count, reply_cell, reply_plan,
        three_lines, words, ints, cand, dbl_cell, dbl_mask, rep_cell, rep_plan,
    ) = ts  # fmt: skip
    ctx[TS_STEPS] = 0
    ctx[TS_NPLAN] = 0
    ctx[TS_NREPLY] = 0
    ctx[TS_NFAILED] = 0
    budget = ctx[TS_BUDGET]
    top = 0
    _push(words, ints, 0, _PLAN, s0, d0, -1, ZERO)
    ret = -1
    while top >= 0:
        s = words[top, _W_S]
        d = words[top, _W_D]
        phase = ints[top, _I_PHASE]
        if ints[top, _I_KIND] == _PLAN:
            if phase == 0:
                ctx[TS_STEPS] += 1
                if ctx[TS_STEPS] > budget:
                    return -1
                seen = False
                for i in range(ctx[TS_NFAILED]):
                    if failed[i, 0] == s and failed[i, 1] == d:
                        seen = True
                        break
                if seen:
                    ret = -1
                    top -= 1
                    continue
                wins = ZERO
                d_fours = ZERO
                d_makers = ZERO
                touched = ZERO
                nthree = 0
                for i in range(lines.shape[0]):
                    line = lines[i]
                    a = line & s
                    b = line & d
                    if a != ZERO and b != ZERO:
                        continue
                    if b == ZERO:
                        rest = line & ~s
                        count = popcount(rest)
                        if count == 1:
                            wins |= rest
                        elif count == 2:
                            x = lowest(rest)
                            y = lowest(rest & (rest - ONE))
                            if not (touched >> np.uint64(x)) & ONE:
                                partners[top, x] = ZERO
                                touched |= bit(x)
                            if not (touched >> np.uint64(y)) & ONE:
                                partners[top, y] = ZERO
                                touched |= bit(y)
                            partners[top, x] |= bit(y)
                            partners[top, y] |= bit(x)
                        elif count == 3 and nthree < three_lines.shape[1]:
                            three_lines[top, nthree] = rest
                            nthree += 1
                    if a == ZERO:
                        rest = line & ~d
                        count = popcount(rest)
                        if count == 1:
                            d_fours |= rest
                        elif count == 2:
                            d_makers |= rest
                # Cells that make no four have no partner (partners[top, c] != 0: c makes a four).
                m = full & ~touched
                while m != ZERO:
                    c = lowest(m)
                    m &= m - ONE
                    partners[top, c] = ZERO
                if wins != ZERO:
                    ret = _new_plan(ctx, plan_move, plan_first, plan_count, highest(wins), 0, 0)
                    if ret < 0:
                        return -1
                    top -= 1
                    continue
                if d_fours & (d_fours - ONE) != ZERO:
                    n = ctx[TS_NFAILED]
                    if n < failed.shape[0]:
                        failed[n, 0] = s
                        failed[n, 1] = d
                        ctx[TS_NFAILED] = n + 1
                    ret = -1
                    top -= 1
                    continue
                ncand = 0
                if d_fours != ZERO:
                    cand[top, 0] = highest(d_fours)
                    ncand = 1
                else:
                    for pass_ in range(2):  # double fours first, then the other fours
                        m = touched
                        while m != ZERO:
                            c = lowest(m)
                            m &= m - ONE
                            if (popcount(partners[top, c]) >= 2) == (pass_ == 0):
                                cand[top, ncand] = c
                                ncand += 1
                    if ctx[TS_THREES] and (ctx[TS_DEEP] or ctx[TS_STEPS] == 1):
                        # Threes: a cell c making no four, on a line lacking three marks, after
                        # which a cell w of that line has two distinct partners.
                        found = ZERO
                        for t in range(nthree):
                            mm = three_lines[top, t]
                            while mm != ZERO:
                                c = lowest(mm)
                                mm &= mm - ONE
                                if partners[top, c] != ZERO or (found >> np.uint64(c)) & ONE:
                                    continue
                                # For each cell w, the partners c's three-lines give it.
                                good = False
                                for u in range(nthree):
                                    r2 = three_lines[top, u]
                                    if not (r2 >> np.uint64(c)) & ONE:
                                        continue
                                    pair = r2 & ~bit(c)
                                    for side in range(2):
                                        w = lowest(pair) if side == 0 else highest(pair)
                                        gain = ZERO
                                        for v in range(nthree):
                                            r3 = three_lines[top, v]
                                            if (r3 >> np.uint64(c)) & ONE and (
                                                r3 >> np.uint64(w)
                                            ) & ONE:
                                                gain |= r3 & ~bit(c) & ~bit(w)
                                        if popcount(partners[top, w] | gain) >= 2:
                                            good = True
                                            break
                                    if good:
                                        break
                                if good:
                                    found |= bit(c)
                        m = found
                        while m != ZERO:
                            c = lowest(m)
                            m &= m - ONE
                            cand[top, ncand] = c
                            ncand += 1
                words[top, _W_DMK] = d_makers
                ints[top, _I_NCAND] = ncand
                ints[top, _I_NEXT] = 0
                ints[top, _I_PHASE] = 1
            else:
                # Back from an after frame.
                if ret >= 0:
                    top -= 1
                    continue
            nxt = ints[top, _I_NEXT]
            if nxt < ints[top, _I_NCAND]:
                ints[top, _I_NEXT] = nxt + 1
                c = cand[top, nxt]
                if top + 1 >= words.shape[0]:
                    return -1
                _push(words, ints, top + 1, _AFTER, s | bit(c), d, c, words[top, _W_DMK])
                top += 1
                continue
            n = ctx[TS_NFAILED]
            if n < failed.shape[0]:
                failed[n, 0] = s
                failed[n, 1] = d
                ctx[TS_NFAILED] = n + 1
            ret = -1
            top -= 1
            continue

        # An after frame: S has just played ``move`` (in s); the plan frame below it is its parent.
        move = ints[top, _I_MOVE]
        if phase == 0:
            ctx[TS_STEPS] += 1
            if ctx[TS_STEPS] > budget:
                return -1
            made = ZERO
            for j in range(thrn[move]):
                line = lines[thr[move, j]]
                if line & d == ZERO:
                    rest = line & ~s
                    if rest != ZERO and rest & (rest - ONE) == ZERO:
                        made |= rest
            if made & (made - ONE) != ZERO:  # a double four: D blocks one, S completes the other
                ret = _new_plan(ctx, plan_move, plan_first, plan_count, move, 0, 0)
                if ret < 0:
                    return -1
                top -= 1
                continue
            if made != ZERO:  # a four: D's block is forced
                block = highest(made)
                rep_cell[top, 0] = block
                ints[top, _I_PHASE] = 1
                if top + 1 >= words.shape[0]:
                    return -1
                _push(words, ints, top + 1, _PLAN, s, d | bit(block), -1, ZERO)
                top += 1
                continue
            if not ctx[TS_THREES]:
                ret = -1
                top -= 1
                continue
            # A three? The double fours S has now: cells with two distinct threatened partners.
            newcells = ZERO
            for j in range(thrn[move]):
                line = lines[thr[move, j]]
                if line & d == ZERO:
                    rest = line & ~s
                    if popcount(rest) == 2:
                        x = lowest(rest)
                        y = lowest(rest & (rest - ONE))
                        if not (newcells >> np.uint64(x)) & ONE:
                            partners[top, x] = ZERO
                            newcells |= bit(x)
                        if not (newcells >> np.uint64(y)) & ONE:
                            partners[top, y] = ZERO
                            newcells |= bit(y)
                        partners[top, x] |= bit(y)
                        partners[top, y] |= bit(x)
            nd = 0
            m = newcells & ~bit(move)
            while m != ZERO:
                w = lowest(m)
                m &= m - ONE
                cells = (partners[top - 1, w] | partners[top, w]) & ~bit(move)
                if popcount(cells) >= 2:
                    dbl_cell[top, nd] = w
                    dbl_mask[top, nd] = cells
                    nd += 1
            if nd == 0:
                ret = -1
                top -= 1
                continue
            empty = full & ~(s | d)
            spoiled_by_all = empty
            for i in range(nd):
                kills = bit(dbl_cell[top, i])
                if popcount(dbl_mask[top, i]) == 2:
                    kills |= dbl_mask[top, i]
                spoiled_by_all &= kills
            defences = (spoiled_by_all | words[top, _W_DMK]) & empty
            if popcount(defences) > ctx[TS_MAXDEF]:
                ret = -1
                top -= 1
                continue
            ints[top, _I_NDBL] = nd
            ints[top, _I_NREP] = 0
            words[top, _W_REM] = empty
            words[top, _W_DEF] = defences
            ints[top, _I_PHASE] = 2
            phase = 2
        elif phase == 1:
            # Back from the plan after the forced block.
            if ret < 0:
                top -= 1
                continue
            r = ctx[TS_NREPLY]
            if r >= reply_cell.shape[0]:
                return -1
            reply_cell[r] = rep_cell[top, 0]
            reply_plan[r] = ret
            ctx[TS_NREPLY] = r + 1
            ret = _new_plan(ctx, plan_move, plan_first, plan_count, move, r, 1)
            if ret < 0:
                return -1
            top -= 1
            continue
        elif phase == 3:
            # Back from the plan after a defence.
            if ret < 0:
                top -= 1
                continue
            n = ints[top, _I_NREP]
            rep_plan[top, n] = ret
            ints[top, _I_NREP] = n + 1
            ints[top, _I_PHASE] = 2
            phase = 2
        # phase 2: answer the replies in turn, defences by a search, the rest by a double four.
        pushed = False
        defences = words[top, _W_DEF]
        nd = ints[top, _I_NDBL]
        while words[top, _W_REM] != ZERO:
            rem = words[top, _W_REM]
            reply = lowest(rem)
            words[top, _W_REM] = rem & (rem - ONE)
            n = ints[top, _I_NREP]
            rep_cell[top, n] = reply
            if (defences >> np.uint64(reply)) & ONE:
                ints[top, _I_PHASE] = 3
                if top + 1 >= words.shape[0]:
                    return -1
                _push(words, ints, top + 1, _PLAN, s, d | bit(reply), -1, ZERO)
                top += 1
                pushed = True
                break
            w = -1
            for i in range(nd):
                cw = dbl_cell[top, i]
                cm = dbl_mask[top, i]
                if cw != reply and (popcount(cm) > 2 or not (cm >> np.uint64(reply)) & ONE):
                    w = cw
                    break
            p = _new_plan(ctx, plan_move, plan_first, plan_count, w, 0, 0)
            if p < 0:
                return -1
            rep_plan[top, n] = p
            ints[top, _I_NREP] = n + 1
        if pushed:
            continue
        n = ints[top, _I_NREP]
        r = ctx[TS_NREPLY]
        if r + n > reply_cell.shape[0]:
            return -1
        for i in range(n):
            reply_cell[r + i] = rep_cell[top, i]
            reply_plan[r + i] = rep_plan[top, i]
        ctx[TS_NREPLY] = r + n
        ret = _new_plan(ctx, plan_move, plan_first, plan_count, move, r, n)
        if ret < 0:
            return -1
        top -= 1
    return ret


# -- the transposition table -----------------------------------------------------------------------

#: Slots looked at for one key (linear probing); the least useful of them is replaced when all are taken.
PROBES = 8
#: A settled position weighs this many times its work when entries are replaced or swept (it is
#: final, but one settled at once by expand costs no more than one expand to settle again).
SETTLED_WEIGHT = 2


class Table:
    """The transposition table: ``capacity`` slots (a power of two) of key, proof and disproof
    numbers, flags and the work spent below the position over all its visits (which decides what
    is replaced when a key's probes are all taken: the least work, a settled position counting
    twice its work)."""

    def __init__(self, capacity: int) -> None:
        if capacity & (capacity - 1) or capacity < 1024:
            raise ValueError("the table's capacity must be a power of two, at least 1024")
        self.key = np.zeros(capacity, np.uint64)
        self.pn = np.zeros(capacity, np.uint32)
        self.dn = np.zeros(capacity, np.uint32)
        self.flags = np.zeros(capacity, np.uint8)
        self.work = np.zeros(capacity, np.uint32)
        #: For a disproven position: its relevance zone, in the class's chosen orientation.
        self.zone = np.zeros(capacity, np.uint64)

    @staticmethod
    def bytes_per_slot() -> int:
        return 8 + 4 + 4 + 1 + 4 + 8


@njit(cache=True, inline="always")
def home(key, mask):
    """The first slot looked at for ``key``. Keys are odd (their lowest bit is set), so the bits
    above it are used: with the lowest bits, only every other slot was anyone's first, clusters of
    taken slots grew long, and a few positions could push each other out of one cluster for a
    million positions on end (4x9 with k = 4)."""
    return np.int64((key >> ONE) & np.uint64(mask))


@njit(cache=True, inline="always")
def table_find(tkey, key):
    """The slot holding ``key``, or -1."""
    mask = tkey.shape[0] - 1
    i = home(key, mask)
    for _ in range(PROBES):
        k = tkey[i]
        if k == key:
            return i
        if k == ZERO:
            return -1
        i = (i + 1) & mask
    return -1


@njit(cache=True)
def table_store(tkey, tpn, tdn, tflags, twork, tzone, stats, key, pn, dn, flags, work, zone):
    """Keep (pn, dn, flags, work, zone) for ``key``, replacing the least useful entry of its slots
    when they are all taken."""
    mask = tkey.shape[0] - 1
    i = home(key, mask)
    victim = i
    victim_score = np.int64(1) << 62
    if work > 0xFFFFFFFF:
        work = 0xFFFFFFFF
    for _ in range(PROBES):
        k = tkey[i]
        if k == key or k == ZERO:
            if k == ZERO:
                stats[ST_ENTRIES] += 1
            tkey[i] = key
            tpn[i] = pn
            tdn[i] = dn
            tflags[i] = flags
            twork[i] = work
            tzone[i] = zone
            return
        score = np.int64(twork[i])  # the least work is replaced first
        if tpn[i] == 0 or tdn[i] == 0:
            score *= SETTLED_WEIGHT
        if score < victim_score:
            victim_score = score
            victim = i
        i = (i + 1) & mask
    stats[ST_REPLACED] += 1
    tkey[victim] = key
    tpn[victim] = pn
    tdn[victim] = dn
    tflags[victim] = flags
    twork[victim] = work
    tzone[victim] = zone


@njit(cache=True)
def table_rehash(okey, opn, odn, oflags, owork, ozone, tkey, tpn, tdn, tflags, twork, tzone, stats):
    """Move every entry of the old table into a new, larger one."""
    stats[ST_ENTRIES] = 0
    for i in range(okey.shape[0]):
        if okey[i] != ZERO:
            table_store(
                tkey, tpn, tdn, tflags, twork, tzone, stats, okey[i], opn[i], odn[i], oflags[i],
                owork[i], ozone[i],
            )  # fmt: skip


# -- one position ----------------------------------------------------------------------------------


@njit(cache=True)
def ordered(lines, thr, thrn, s, d, empty, moves, weights):
    """Write the empty cells to ``moves``, the most promising first (a cell scores for every line
    through it that one side can still complete, more the more marks that side has in it; ties in
    cell order); return how many."""
    n = 0
    scores = np.empty(64, np.int64)
    m = empty
    while m != ZERO:
        cell = lowest(m)
        m &= m - ONE
        score = 0
        for j in range(thrn[cell]):
            line = lines[thr[cell, j]]
            a = s & line
            b = d & line
            if a != ZERO and b != ZERO:
                continue
            score += weights[popcount(a | b)]
        # insertion, keeping scores descending and cells ascending among equal scores
        i = n
        while i > 0 and scores[i - 1] < score:
            scores[i] = scores[i - 1]
            moves[i] = moves[i - 1]
            i -= 1
        scores[i] = score
        moves[i] = cell
        n += 1
    return n


@njit(cache=True)
def hitting_zone(lines, s, d, empty, need):
    """Empty cells such that every line S can still complete (no mark of D) keeps ``need`` of its
    empty cells among them (or all of them, if it has fewer): with every other empty cell given to S,
    S still has no complete line (``need`` 1) or no line to complete at once (``need`` 2)."""
    zone = ZERO
    for i in range(lines.shape[0]):
        line = lines[i]
        if line & d != ZERO:
            continue
        free = line & empty
        while popcount(free & zone) < need and free & ~zone != ZERO:
            zone |= bit(lowest(free & ~zone))
    return zone


@njit(cache=True)
def expand(
    lines, thr, thrn, full, perms, inverse, x, o, attacker_is_x, sym, flags, options, stats,
    moves, weights, ps, ts,
):  # fmt: skip
    """Settle (x, o) before any search if possible. Returns (status, number of moves, flags, zone):
    status PROVEN / PROVEN_BY_THREATS / DISPROVEN / DISPROVEN_BY_PAIRING, or 0 with the moves worth
    searching written to ``moves`` (a forced block alone, otherwise every empty cell, best first).
    A disproven position comes with its relevance zone (in this orientation): empty cells such
    that the defender still holds when every other empty cell belongs to the attacker.
    ``sym`` is the symmetry that carries the position to its class's least hash (the threat and
    pairing searches run on that image, so every orientation gets the same answer); ``flags`` says
    which of those searches failed here before. ``options``: [use threats, use pairings, pairing
    budget]."""
    x_to_move = popcount(x) == popcount(o)
    attacker_to_move = x_to_move == attacker_is_x
    if attacker_is_x:
        s = x
        d = o
    else:
        s = o
        d = x
    s_line, s_threats, d_line, d_threats, open_s = scan(lines, s, d)
    empty = full & ~(x | o)
    if s_line:
        return PROVEN, 0, flags, ZERO
    if d_line:
        return DISPROVEN, 0, flags, hitting_zone(lines, s, d, empty, 1)
    if empty == ZERO or open_s == 0:
        return DISPROVEN, 0, flags, ZERO
    if attacker_to_move:
        if s_threats != ZERO:
            return PROVEN, 0, flags, ZERO
        if d_threats != ZERO:
            if d_threats & (d_threats - ONE) != ZERO:
                return DISPROVEN, 0, flags, hitting_zone(lines, s, d, empty, 2) | d_threats
            moves[0] = highest(d_threats)
            return 0, 1, flags, ZERO
        if options[0] and not flags & FLAG_THREATS_TRIED:
            cs = apply_perm(perms[sym], s)
            cd = apply_perm(perms[sym], d)
            stats[ST_THREAT_TRIES] += 1
            plan = threat_search(lines, thr, thrn, full, cs, cd, ts)
            if plan >= 0:
                stats[ST_THREAT_FOUND] += 1
                return PROVEN_BY_THREATS, 0, flags, ZERO
            flags |= FLAG_THREATS_TRIED
        if options[1] and not flags & FLAG_PAIRING_TRIED:
            cs = apply_perm(perms[sym], s)
            cd = apply_perm(perms[sym], d)
            stats[ST_PAIR_TRIES] += 1
            npairs = find_pairing(lines, cd, cs, full, options[2], ps)
            if npairs >= 0:
                stats[ST_PAIR_FOUND] += 1
                pairs = ps[7]
                zone = ZERO
                for i in range(npairs):
                    zone |= bit(inverse[sym, pairs[i, 0]]) | bit(inverse[sym, pairs[i, 1]])
                return DISPROVEN_BY_PAIRING, 0, flags, zone
            flags |= FLAG_PAIRING_TRIED
    else:
        if d_threats != ZERO:
            return DISPROVEN, 0, flags, hitting_zone(lines, s, d, empty, 1) | bit(lowest(d_threats))
        if s_threats != ZERO:
            if s_threats & (s_threats - ONE) != ZERO:
                return PROVEN, 0, flags, ZERO
            moves[0] = highest(s_threats)
            return 0, 1, flags, ZERO
    return 0, ordered(lines, thr, thrn, s, d, empty, moves, weights), flags, ZERO


# -- initial proof and disproof numbers ------------------------------------------------------------

#: Ways a fresh position's numbers start (``options[5]``): 1 and 1 whatever the board shows, or the
#: proof number from the defender's mobility (see :func:`initial_numbers`).
INIT_ONE = 0
INIT_MOBILITY = 1


@njit(cache=True)
def initial_numbers(lines, thr, thrn, s, d, empty, cmoves, count, out):
    """The proof and disproof numbers the ``count`` children (moves ``cmoves``) of a position with the
    attacker to move start from, written to ``out[i] = (pn, dn)`` (Allis's mobility, for the proof
    number only): the defender's moves after the attacker's, 1 when the move makes a threat (the
    defender must block it, or has lost), otherwise every empty cell. The disproof number stays 1:
    giving it the attacker's mobility too made the draws' disproofs several times longer.

    These only steer the search towards the attacker's forcing moves before it has looked at them;
    a child's own numbers replace them once it is visited. (Neither side has a threat here: expand
    settles that position or lists the block alone.)"""
    k = popcount(lines[0])
    moves_left = max(1, popcount(empty) - 1)
    for j in range(count):
        move = cmoves[j]
        pn = moves_left
        for t in range(thrn[move]):
            line = lines[thr[move, t]]
            if line & d == ZERO and popcount(line & s) == k - 2:
                pn = 1
                break
        out[j, 0] = pn
        out[j, 1] = 1


# -- df-pn -----------------------------------------------------------------------------------------


class Frames:
    """The search's stack, one row per depth: the position, its hashes under every symmetry, its
    key, thresholds, children (moves and keys) and the work done when it was entered."""

    def __init__(self, size: int, symmetries: int) -> None:
        depth = size + 2
        self.x = np.zeros(depth, np.uint64)
        self.o = np.zeros(depth, np.uint64)
        self.key = np.zeros(depth, np.uint64)
        self.hashes = np.zeros((depth, symmetries), np.uint64)
        self.thpn = np.zeros(depth, np.int64)
        self.thdn = np.zeros(depth, np.int64)
        self.phase = np.zeros(depth, np.int64)
        self.count = np.zeros(depth, np.int64)
        self.child_move = np.zeros((depth, 64), np.int64)
        self.child_key = np.zeros((depth, 64), np.uint64)
        self.start = np.zeros(depth, np.int64)
        self.sym = np.zeros(depth, np.int64)
        self.forced = np.zeros(depth, np.uint8)
        self.child_sym = np.zeros((depth, 64), np.int64)
        self.child_zone = np.zeros((depth, 64), np.uint64)
        self.child_zone_ok = np.zeros((depth, 64), np.uint8)
        #: The proof and disproof numbers a child starts from while it is not in the table.
        self.child_init = np.ones((depth, 64, 2), np.int64)
        #: [depth of the top frame (-1: nothing to do), ...]
        self.state = np.full(4, -1, np.int64)


@njit(cache=True)
def class_key(hashes):
    """(the least hash, the symmetry giving it)."""
    best = hashes[0]
    sym = 0
    for i in range(1, hashes.shape[0]):
        if hashes[i] < best:
            best = hashes[i]
            sym = i
    return best | ONE, sym


@njit(cache=True)
def hashes_of(zob, x, o, out):
    for i in range(zob.shape[0]):
        h = ZERO
        m = x
        while m != ZERO:
            c = lowest(m)
            m &= m - ONE
            h ^= zob[i, 0, c]
        m = o
        while m != ZERO:
            c = lowest(m)
            m &= m - ONE
            h ^= zob[i, 1, c]
        out[i] = h


@njit(cache=True)
def run(
    lines, thr, thrn, full, perms, inverse, zob, attacker_is_x, options, weights,
    tkey, tpn, tdn, tflags, twork, tzone,
    fx, fo, fkey, fhash, fthpn, fthdn, fphase, fcount, fcmove, fckey, fstart, fstate,
    fsym, fforced, fcsym, fczone, fczok, fcinit,
    stats, budget, ps, ts,
):  # fmt: skip
    """Run df-pn from the frames' state for at most ``budget`` positions. Returns 0 when the root
    (frame 0) is settled or back under its thresholds, 1 when the budget ran out (call again to go
    on). ``options``: [use threats, use pairings, pairing budget, epsilon in thousandths, use
    relevance zones, how fresh positions' numbers start (INIT_*)].

    Relevance zones (for the defender's side): a disproven position keeps a zone, empty cells such
    that the defender still holds with every other empty cell given to the attacker. Where the
    attacker is to move, once some of its moves are disproven, the union R of their zones (with the
    moves themselves, and closed under the symmetries that keep the position) is such a zone for
    the position as soon as every move inside R is disproven: the moves outside R need no search."""
    moves = np.empty(64, np.int64)
    nsym = zob.shape[0]
    eps = options[3]
    use_zones = options[4] != 0
    spent = 0
    while True:
        depth = fstate[0]
        if depth < 0:
            return 0
        if spent >= budget:
            return 1
        x = fx[depth]
        o = fo[depth]
        key = fkey[depth]
        x_to_move = popcount(x) == popcount(o)
        or_node = x_to_move == attacker_is_x
        if fphase[depth] == 0:
            stats[ST_NODES] += 1
            spent += 1
            slot = table_find(tkey, key)
            flags = np.uint8(0) if slot < 0 else tflags[slot]
            # The work below a position adds up over its visits (what the replacement weighs).
            fstart[depth] = stats[ST_NODES] - (0 if slot < 0 else np.int64(twork[slot]))
            _, sym = class_key(fhash[depth])
            fsym[depth] = sym
            status, nmoves, newflags, zone = expand(
                lines, thr, thrn, full, perms, inverse, x, o, attacker_is_x, sym, flags, options,
                stats, moves, weights, ps, ts,
            )  # fmt: skip
            if status != 0:
                if status > 0:
                    table_store(
                        tkey, tpn, tdn, tflags, twork, tzone, stats, key, 0, INF, newflags, 1, ZERO
                    )
                else:
                    table_store(
                        tkey, tpn, tdn, tflags, twork, tzone, stats, key, INF, 0, newflags, 1,
                        apply_perm(perms[sym], zone),
                    )  # fmt: skip
                fstate[0] = depth - 1
                continue
            if newflags != flags:
                if slot < 0:
                    table_store(
                        tkey, tpn, tdn, tflags, twork, tzone, stats, key, 1, 1, newflags, 1, ZERO
                    )
                else:
                    tflags[slot] = newflags
            fforced[depth] = nmoves == 1
            mark = 0 if x_to_move else 1
            count = 0
            for j in range(nmoves):
                move = moves[j]
                ckey = ZERO
                csym = 0
                for i in range(nsym):
                    h = fhash[depth, i] ^ zob[i, mark, move]
                    if i == 0 or h < ckey:
                        ckey = h
                        csym = i
                ckey |= ONE
                twin = False
                for t in range(count):
                    if fckey[depth, t] == ckey:
                        twin = True
                        break
                if twin:
                    stats[ST_TWINS] += 1
                    continue
                if table_find(tkey, ckey) >= 0:
                    stats[ST_HITS] += 1
                fcmove[depth, count] = move
                fckey[depth, count] = ckey
                fcsym[depth, count] = csym
                fczok[depth, count] = 0
                count += 1
            fcount[depth] = count
            fphase[depth] = 1
            if options[5] == INIT_MOBILITY and or_node:
                if attacker_is_x:
                    sa, da = x, o
                else:
                    sa, da = o, x
                initial_numbers(
                    lines, thr, thrn, sa, da, full & ~(x | o), fcmove[depth], count, fcinit[depth]
                )
        count = fcount[depth]
        # The zone R of the attacker's disproven moves, when some are (see above).
        region = ZERO
        zoned = False
        if use_zones and or_node:
            for index in range(count):
                slot = table_find(tkey, fckey[depth, index])
                if slot >= 0 and tdn[slot] == 0:
                    if not fczok[depth, index]:
                        fczone[depth, index] = apply_perm(inverse[fcsym[depth, index]], tzone[slot])
                        fczok[depth, index] = 1
                    region |= fczone[depth, index] | bit(fcmove[depth, index])
                    zoned = True
            if zoned:
                # Closed under the symmetries that keep this position (its hash under them is the
                # identity's), which carry a move onto its skipped mirror images.
                closed = region
                for i in range(1, nsym):
                    if fhash[depth, i] == fhash[depth, 0]:
                        closed |= apply_perm(perms[i], region)
                region = closed
        any_proven = False
        outside = 0
        best = -1
        best_value = np.int64(INF) + 1
        second_value = np.int64(INF) + 1
        pn_sum = np.int64(0)
        dn_sum = np.int64(0)
        pn_min = np.int64(INF)
        dn_min = np.int64(INF)
        best_pn = np.int64(0)
        best_dn = np.int64(0)
        for index in range(count):
            slot = table_find(tkey, fckey[depth, index])
            if slot < 0:
                # A fresh position: 1 and 1, or the numbers it starts from (see above).
                steered = options[5] != INIT_ONE and or_node
                cpn = fcinit[depth, index, 0] if steered else np.int64(1)
                cdn = fcinit[depth, index, 1] if steered else np.int64(1)
            else:
                cpn = np.int64(tpn[slot])
                cdn = np.int64(tdn[slot])
            if zoned and not (region >> np.uint64(fcmove[depth, index])) & ONE:
                # Outside the zone: no search needed (and it cannot be a win of the attacker
                # unless one inside is too).
                any_proven = any_proven or cpn == 0
                outside += 1
                continue
            if or_node:
                dn_sum += cdn
                if cpn < pn_min:
                    pn_min = cpn
                value = cpn
            else:
                pn_sum += cpn
                if cdn < dn_min:
                    dn_min = cdn
                value = cdn
            if value < best_value:
                second_value = best_value
                best_value = value
                best = index
                best_pn = cpn
                best_dn = cdn
            elif value < second_value:
                second_value = value
        if or_node:
            pn = 0 if any_proven else pn_min
            dn = dn_sum if dn_sum < INF else np.int64(INF)
        else:
            pn = pn_sum if pn_sum < INF else np.int64(INF)
            dn = dn_min
        thpn = fthpn[depth]
        thdn = fthdn[depth]
        work = stats[ST_NODES] - fstart[depth] + 1
        slot = table_find(tkey, key)
        flags = np.uint8(0) if slot < 0 else tflags[slot]
        if pn >= thpn or dn >= thdn or pn == 0 or dn == 0:
            zone = ZERO
            if dn == 0 and pn != 0 and use_zones:
                if or_node:
                    zone = region
                    stats[ST_ZONE_CUTS] += outside
                    if fforced[depth]:
                        # Only the block was searched: the other moves lose to the defender's
                        # threat as long as the attacker cannot complete a line at once, which
                        # the zone must keep true (two empty cells of each of its lines).
                        if attacker_is_x:
                            sa, da = x, o
                        else:
                            sa, da = o, x
                        zone |= hitting_zone(lines, sa, da, full & ~(x | o), 2)
                else:
                    # The defender's move that holds, with the smallest zone.
                    smallest = 65
                    for index in range(count):
                        cslot = table_find(tkey, fckey[depth, index])
                        if cslot >= 0 and tdn[cslot] == 0:
                            if not fczok[depth, index]:
                                fczone[depth, index] = apply_perm(
                                    inverse[fcsym[depth, index]], tzone[cslot]
                                )
                                fczok[depth, index] = 1
                            z = fczone[depth, index] | bit(fcmove[depth, index])
                            if popcount(z) < smallest:
                                smallest = popcount(z)
                                zone = z
                zone = apply_perm(perms[fsym[depth]], zone)
            table_store(tkey, tpn, tdn, tflags, twork, tzone, stats, key, pn, dn, flags, work, zone)
            fphase[depth] = 0
            fstate[0] = depth - 1
            continue
        grown = second_value + (second_value * eps) // 1000 + 1
        if or_node:
            child_thpn = thpn if thpn < grown else grown
            child_thdn = thdn - dn + best_dn
            if child_thdn > INF:
                child_thdn = np.int64(INF)
        else:
            child_thdn = thdn if thdn < grown else grown
            child_thpn = thpn - pn + best_pn
            if child_thpn > INF:
                child_thpn = np.int64(INF)
        table_store(tkey, tpn, tdn, tflags, twork, tzone, stats, key, pn, dn, flags, work, ZERO)
        move = fcmove[depth, best]
        child = depth + 1
        mark = 0 if x_to_move else 1
        if x_to_move:
            fx[child] = x | bit(move)
            fo[child] = o
        else:
            fx[child] = x
            fo[child] = o | bit(move)
        for i in range(nsym):
            fhash[child, i] = fhash[depth, i] ^ zob[i, mark, move]
        fkey[child] = fckey[depth, best]
        fthpn[child] = child_thpn
        fthdn[child] = child_thdn
        fphase[child] = 0
        fstate[0] = child


# -- reading a strategy back -----------------------------------------------------------------------

# What the walk writes for a position (Walk.kind): a move of the strategy's side, or a position
# settled by a pairing or by a win by threats (the caller writes those entries out).
WALK_MOVE = 0
WALK_PAIRING = 1
WALK_THREATS = 2
# What the walk leaves to its caller (Walk.pending_kind): a position of the strategy's side where
# no move is known to keep the value (the table let the deciding child go), and a position of the
# other side, reached by a reply, whose value the table does not hold.
PENDING_CHOICE = 0
PENDING_REPLY = 1


class Walk:
    """The state of one reading of a strategy (:func:`strategy_walk`) on a board of ``size`` cells:
    its stack of positions, the classes done (an open-addressed set of keys, sized for about
    ``positions``), the entries written and the positions left to the caller since the last call.
    It stops to have them drained (and the set grown) and goes on from its stack."""

    def __init__(self, size: int, positions: int = 0, batch: int = 1 << 14) -> None:
        self.stack_x = np.zeros(64 * (size + 2), np.uint64)
        self.stack_o = np.zeros(64 * (size + 2), np.uint64)
        # Room for twice the positions expected (those of the search's table) before growing.
        self.done = np.zeros(1 << max(12, (4 * positions).bit_length()), np.uint64)
        self.out_x = np.zeros(batch, np.uint64)
        self.out_o = np.zeros(batch, np.uint64)
        self.kind = np.zeros(batch, np.int64)
        self.move = np.zeros(batch, np.int64)
        self.pending_x = np.zeros(batch, np.uint64)
        self.pending_o = np.zeros(batch, np.uint64)
        self.pending_kind = np.zeros(batch, np.int64)
        #: The pairs of the pairings written (an entry's ``move`` is the index of its first pair,
        #: ``pair_count`` how many), in the entry's orientation.
        self.pairs = np.zeros((batch * 4, 2), np.int64)
        self.pair_count = np.zeros(batch, np.int64)
        #: [positions on the stack, entries written, positions pending, keys in the set, pairs]
        self.counts = np.zeros(5, np.int64)

    def push(self, x: int, o: int) -> None:
        n = int(self.counts[0])
        self.stack_x[n] = x
        self.stack_o[n] = o
        self.counts[0] = n + 1

    def grow(self) -> None:
        """Double the set of classes done."""
        old = self.done
        self.done = np.zeros(2 * len(old), np.uint64)
        _set_rehash(old, self.done)


@njit(cache=True, inline="always")
def _set_add(keys, key):
    """Add ``key`` (non-zero) to the open-addressed set; False when it was there already."""
    mask = keys.shape[0] - 1
    i = home(key, mask)
    while True:
        k = keys[i]
        if k == key:
            return False
        if k == ZERO:
            keys[i] = key
            return True
        i = (i + 1) & mask


@njit(cache=True)
def _set_rehash(old, new):
    for i in range(old.shape[0]):
        if old[i] != ZERO:
            _set_add(new, old[i])


@njit(cache=True)
def _settled_value(
    lines, thr, thrn, full, perms, inverse, attacker_is_x, options, weights, tkey, tpn, tdn,
    tflags, stats, moves, ps, ts, x, o, hashes,
):  # fmt: skip
    """1 proven, -1 disproven, 0 unknown: the table's value of (x, o), else what expand settles at
    once (as :meth:`oxo.proofs.dfpn.ProofSearch.value_of`)."""
    key, sym = class_key(hashes)
    slot = table_find(tkey, key)
    flags = np.uint8(0)
    if slot >= 0:
        if tpn[slot] == 0:
            return 1
        if tdn[slot] == 0:
            return -1
        flags = tflags[slot]
    status, _, _, _ = expand(
        lines, thr, thrn, full, perms, inverse, x, o, attacker_is_x, sym, flags, options, stats,
        moves, weights, ps, ts,
    )  # fmt: skip
    return 0 if status == 0 else (1 if status > 0 else -1)


@njit(cache=True)
def strategy_walk(
    lines, thr, thrn, full, perms, inverse, zob, rigid, attacker_is_x, options, weights,
    tkey, tpn, tdn, tflags, ps, ts,
    stack_x, stack_o, done, out_x, out_o, out_kind, out_move, out_pairs, out_npairs, pend_x, pend_o,
    pend_kind, counts, target, side_is_x,
):  # fmt: skip
    """Read the strategy of a settled search (``target`` 1: the attacker's win, -1: the
    defender's no-loss; the strategy's side is X when ``side_is_x``) from the positions on the
    stack, as :meth:`oxo.proofs.strategy.StrategyReader.strategy` reads it: each class once (under
    the board's own ``rigid`` symmetries), the side's first move (in expand's order) whose
    position keeps the value, every reply of the other side. Writes what each position needs
    (``out_*``: a pairing's pairs too), and leaves to the caller (``pend_*``) the positions whose values the table no
    longer holds. Returns 0 when the stack is empty, 1 when the output is full (drain it and call
    again), 2 when the set of classes done must grow, -1 when a position has the wrong value."""
    nsym = zob.shape[0]
    h = np.empty(nsym, np.uint64)
    ch = np.empty(nsym, np.uint64)
    moves = np.empty(64, np.int64)
    cmoves = np.empty(64, np.int64)
    stats = np.zeros(STATS, np.int64)
    proving = target > 0
    while counts[0] > 0:
        if (
            counts[1] >= out_x.shape[0]
            or counts[2] + 64 >= pend_x.shape[0]
            or counts[4] + PAIR_DEPTH >= out_pairs.shape[0]
        ):
            return 1
        if counts[3] * 2 >= done.shape[0]:
            return 2
        n = counts[0] - 1
        counts[0] = n
        x = stack_x[n]
        o = stack_o[n]
        hashes_of(zob, x, o, h)
        rk, _ = class_key(h[:rigid])
        if not _set_add(done, rk):
            continue
        counts[3] += 1
        key, sym = class_key(h)
        slot = table_find(tkey, key)
        flags = np.uint8(0) if slot < 0 else tflags[slot]
        status, nmoves, _, zone = expand(
            lines, thr, thrn, full, perms, inverse, x, o, attacker_is_x, sym, flags, options,
            stats, moves, weights, ps, ts,
        )  # fmt: skip
        if status != 0:
            if (status > 0) != proving:
                return -1
            if status == PROVEN_BY_THREATS or status == DISPROVEN_BY_PAIRING:
                e = counts[1]
                out_x[e] = x
                out_o[e] = o
                out_kind[e] = WALK_THREATS if status == PROVEN_BY_THREATS else WALK_PAIRING
                out_move[e] = -1
                if status == DISPROVEN_BY_PAIRING:
                    # expand left the pairs (of the class's chosen image) in the scratch; the
                    # zone it returned is their cells, so it tells how many.
                    found = ps[7]
                    first = counts[4]
                    for i in range(popcount(zone) // 2):
                        out_pairs[first + i, 0] = inverse[sym, found[i, 0]]
                        out_pairs[first + i, 1] = inverse[sym, found[i, 1]]
                    out_move[e] = first
                    out_npairs[e] = popcount(zone) // 2
                    counts[4] = first + popcount(zone) // 2
                counts[1] = e + 1
            continue
        for j in range(nmoves):
            cmoves[j] = moves[j]
        x_to_move = popcount(x) == popcount(o)
        mark = 0 if x_to_move else 1
        if x_to_move == side_is_x:
            # The first move whose position the table holds with the value, else the first that
            # expand settles so (expand may run a threat and a pairing search: the table first).
            chosen = -1
            for j in range(nmoves):
                move = cmoves[j]
                for i in range(nsym):
                    ch[i] = h[i] ^ zob[i, mark, move]
                ckey, _ = class_key(ch)
                cslot = table_find(tkey, ckey)
                if cslot >= 0 and (tpn[cslot] == 0 if proving else tdn[cslot] == 0):
                    chosen = move
                    break
            for j in range(nmoves if chosen < 0 else 0):
                move = cmoves[j]
                for i in range(nsym):
                    ch[i] = h[i] ^ zob[i, mark, move]
                cx = x | bit(move) if x_to_move else x
                co = o if x_to_move else o | bit(move)
                value = _settled_value(
                    lines, thr, thrn, full, perms, inverse, attacker_is_x, options, weights,
                    tkey, tpn, tdn, tflags, stats, moves, ps, ts, cx, co, ch,
                )  # fmt: skip
                if value == target:
                    chosen = move
                    break
            if chosen < 0:
                p = counts[2]
                pend_x[p] = x
                pend_o[p] = o
                pend_kind[p] = PENDING_CHOICE
                counts[2] = p + 1
                continue
            e = counts[1]
            out_x[e] = x
            out_o[e] = o
            out_kind[e] = WALK_MOVE
            out_move[e] = chosen
            counts[1] = e + 1
            stack_x[counts[0]] = x | bit(chosen) if x_to_move else x
            stack_o[counts[0]] = o if x_to_move else o | bit(chosen)
            counts[0] += 1
        else:
            for j in range(nmoves):
                move = cmoves[j]
                for i in range(nsym):
                    ch[i] = h[i] ^ zob[i, mark, move]
                cx = x | bit(move) if x_to_move else x
                co = o if x_to_move else o | bit(move)
                value = _settled_value(
                    lines, thr, thrn, full, perms, inverse, attacker_is_x, options, weights,
                    tkey, tpn, tdn, tflags, stats, moves, ps, ts, cx, co, ch,
                )  # fmt: skip
                if value == -target:
                    return -1
                if value == 0:
                    p = counts[2]
                    pend_x[p] = cx
                    pend_o[p] = co
                    pend_kind[p] = PENDING_REPLY
                    counts[2] = p + 1
                else:
                    stack_x[counts[0]] = cx
                    stack_o[counts[0]] = co
                    counts[0] += 1
    return 0
