"""The compiled (numba) proof search for boards of any size: df-pn over line counts.

The search of :mod:`oxo.proofs.kernel` holds a board in 64-bit masks; a board of more cells (the
4x4x4x4 hypercube: 256 cells, 520 lines) is held here as what a line-based game needs: each cell's
owner (``cell``: 0 empty, 1 X, 2 O) and, for every line, how many marks of X and of O it holds
(``cnt``), both changed in place as moves are made and taken back. A line of ``k`` cells is *open*
to a side while the other side has no mark in it; a side *threatens* (has a *four*, whatever ``k``)
at the empty cell of an open line it fills but one. After the lines' rows, ``cnt`` keeps three
rows of tallies per side (:func:`new_counts`), so that a search learns that a side has no four, or
no line two short, without going over every line.

The pieces, each the compiled twin of a piece of the plain search (:mod:`oxo.proofs.reference`,
:mod:`oxo.proofs.threats`):

* :func:`threats_of`: the cells where a side completes a line at once;
* :func:`vcf`: a win of the attacker by continuous fours (every move a four, each answered by its
  forced block, ending in two fours at once); the plan is a chain of moves;
* :func:`expand`: what settles a position before any search, or the moves worth searching;
* :func:`simulate`: a settled sibling's strategy tried on a reply of the defender (Kawano's
  simulation, as shogi's mate solvers do it; the plain search has no twin, it only saves
  searches): a reply that escapes the attacker's first plan often falls to the moves that beat
  another such reply;
* :func:`run`: the df-pn loop, with its stack in arrays and a transposition table in open-addressed
  arrays, for a number of positions at a time (each call starts again from the root; what it
  learnt stays in the table).

The pieces take what they share as tuples (numba passes a tuple of arrays as cheaply as the
arrays one by one): the board ``bd`` (``lines``: each line's cells; ``thr``/``thrn``: the lines
through each cell and their number; ``below``/``above``: the cell under and over each, -1 without
gravity; ``cell``; ``cnt``; ``zob``: the Zobrist keys; ``k``), the transposition table ``tb``
(keys, proof and disproof numbers, work, flags, and the statistics array) and the scratch of
:func:`simulate`'s walk ``sw`` (its rows of moves, scores, replies' moves and keys, counters and
hashes, :func:`_sim_enter`).

Positions are keyed by a 64-bit Zobrist hash; within the first ``sym_plies`` plies by the least
hash over the board's symmetries (its class), after that by their own hash.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from oxo.compiled import NO_REFCOUNTS

#: The decorator of the kernel's pieces: compiled, cached, and without numba's reference counts
#: (:data:`oxo.compiled.NO_REFCOUNTS`): none of them makes an array, and the counts' atomic
#: updates on every call of a small piece (a table lookup, a replay) took a tenth of the search's
#: time on 4x4x4x4.
_compiled = njit(cache=True, **NO_REFCOUNTS)
#: The decorator of the smallest pieces, called at every position of the searches for continuous
#: fours and the replays: written into their callers (numba's inlining), since a call passes each
#: array as its seven or more words on the stack, and on 4x4x4x4 those pushes took more of the
#: search's time than the pieces' own work.
_inlined = njit(cache=True, inline="always", **NO_REFCOUNTS)

#: Proof and disproof numbers at or above this are infinite.
INF = 1 << 30
#: Slots probed for a key before an entry is replaced.
PROBES = 8
#: Slots of :func:`vcf`'s record of positions without a win by continuous fours, which it keeps
#: from one search to the next: 512 KiB of hashes (``box_searches.py --only failed-fours``: 2^14
#: to 2^17 measured, docs/performance.md).
FAILED_SLOTS = 1 << 16
#: What :func:`vcf` mixes into a position's hash for the side that seeks the win (0: X, 1: O), so
#: that a position X cannot win that way is not taken for one O cannot.
FAILED_SIDE = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xC2B2AE3D27D4EB4F))

# Expand's answers (as in oxo.proofs.kernel).
PROVEN = 1
PROVEN_BY_THREATS = 2
DISPROVEN = -1

# Table flags.
FLAG_VCF_TRIED = 1  # the attacker to move has no win by continuous fours within the budget
FLAG_REPLIES_TRIED = 2  # the defender's replies were each tried for such a win once
FLAG_MOVES_RATED = 4  # the attacker's moves were each given the proof number they start from
FLAG_SIM_TRIED = 8  # a settled sibling's strategy was tried on this position (:func:`simulate`)

# Indices of the counters in the statistics array.
ST_NODES = 0
ST_ENTRIES = 1
ST_REPLACED = 2
ST_VCF_TRIES = 3
ST_VCF_FOUND = 4
ST_VCF_NODES = 5
ST_TWINS = 6
ST_HITS = 7
ST_INIT_TRIES = 8
ST_INIT_THREATS = 9
ST_REPLAYED = 10
ST_SIM_TRIES = 11
ST_SIM_FOUND = 12
ST_SIM_NODES = 13
STATS = 14
#: A try of a sibling's strategy may visit as many positions as the sibling's work in the table
#: (the most positions one pass of the search below it took), and at least this many
#: (:func:`simulate`).
SIM_FLOOR = 64
#: Rows of tallies after the lines' rows in the counts array (:func:`new_counts`).
TALLY_ROWS = 3
#: The share of the table's slots (in thousandths) past which :func:`run` returns for room to be
#: made (:meth:`oxo.proofs.wide.WideSearch._collect`).
FULL_PERMILLE = 800

#: Weight of a line open to one side, by the marks that side has in it (move ordering).
WEIGHTS = np.array([1 << (2 * i) for i in range(16)], dtype=np.int64)


# -- the board -------------------------------------------------------------------------------------


@_compiled
def place(cell, cnt, thr, thrn, c, side, k):
    """Mark cell ``c`` for ``side`` (0 X, 1 O), keeping the tallies (:func:`new_counts`)."""
    cell[c] = side + 1
    other = 1 - side
    t = cnt.shape[0] - TALLY_ROWS
    for j in range(thrn[c]):
        i = thr[c, j]
        a = cnt[i, side]
        b = cnt[i, other]
        if b == 0:  # open to the side: one mark more of it
            if a == k - 1:
                cnt[t, side] -= 1
            elif a == k - 2:
                cnt[t + 1, side] -= 1
                cnt[t, side] += 1
            elif a == k - 3:
                cnt[t + 1, side] += 1
        if a == 0:  # open to the other side until now
            cnt[t + 2, other] -= 1
            if b == k - 1:
                cnt[t, other] -= 1
            elif b == k - 2:
                cnt[t + 1, other] -= 1
        cnt[i, side] = a + 1


@_compiled
def unplace(cell, cnt, thr, thrn, c, side, k):
    """Take ``side``'s mark off cell ``c`` (:func:`place` undone)."""
    cell[c] = 0
    other = 1 - side
    t = cnt.shape[0] - TALLY_ROWS
    for j in range(thrn[c]):
        i = thr[c, j]
        a = cnt[i, side] - 1
        b = cnt[i, other]
        if b == 0:
            if a == k - 1:
                cnt[t, side] += 1
            elif a == k - 2:
                cnt[t + 1, side] += 1
                cnt[t, side] -= 1
            elif a == k - 3:
                cnt[t + 1, side] -= 1
        if a == 0:
            cnt[t + 2, other] += 1
            if b == k - 1:
                cnt[t, other] += 1
            elif b == k - 2:
                cnt[t + 1, other] += 1
        cnt[i, side] = a


@_inlined
def place_bare(cell, cnt, thr, thrn, c, side):
    """:func:`place` without the tallies: for a search that reads them only before its first
    move (its moves are taken back before it returns, and the tallies are right again)."""
    cell[c] = side + 1
    for j in range(thrn[c]):
        cnt[thr[c, j], side] += 1


@_inlined
def unplace_bare(cell, cnt, thr, thrn, c, side):
    """:func:`unplace` without the tallies (:func:`place_bare`)."""
    cell[c] = 0
    for j in range(thrn[c]):
        cnt[thr[c, j], side] -= 1


def new_counts(lines: int) -> np.ndarray:
    """The counts array of a board of ``lines`` lines (the shape :func:`load` fills): a row per
    line (X's marks, O's marks), then :data:`TALLY_ROWS` rows of tallies per side that
    :func:`place` and :func:`unplace` keep, so that the searches need not go over every line to
    learn that there is nothing there: the lines where the side lacks one mark and the other side
    has none (its fours), those where it lacks two (a mark makes a four), and those where the
    other side has no mark (open to the side)."""
    return np.zeros((lines + TALLY_ROWS, 2), np.int16)


def scratch(cells: int, lines: int) -> tuple[np.ndarray, ...]:
    """The scratch arrays of :func:`vcf` (its ``vs``) on a board of ``cells`` cells and ``lines``
    lines."""
    n = cells
    return (
        np.zeros(n * (n // 2 + 2), np.int64),  # candidates, level after level
        np.zeros(n + 2, np.int64),  # a level's first candidate
        np.zeros(n + 2, np.int64),  # its number of candidates
        np.zeros(n + 2, np.int64),  # the next one to try
        np.zeros(n + 2, np.int64),  # the defender's block that led to it
        np.zeros(FAILED_SLOTS, np.uint64),  # positions without a win, by hash (0: a free slot)
        np.zeros(1, np.int64),  # the cells' stamp
        np.zeros(4, np.int64),
        np.zeros(4, np.int64),
        np.zeros(1, np.int64),  # positions of the last search
        np.zeros(lines * (n // 2 + 2), np.int64),  # lines two short, level after level
        np.zeros(n + 2, np.int64),  # a level's first line
        np.zeros(n + 2, np.int64),  # its number of lines
        np.zeros(n, np.int64),  # a stamp per cell
        np.zeros((4, n + 2), np.int64),  # the scratch of replay
        np.zeros(lines, np.int64),  # the lines through a standing plan's cells (1), by line
        np.zeros(n + 2, np.int64),  # the standing plan
        np.zeros(1, np.uint64),  # what :func:`_touch` read
    )


@_compiled
def load(cell, cnt, thr, thrn, owners, k):
    """Set the board to ``owners`` (one of 0, 1, 2 per cell)."""
    cell[:] = 0
    cnt[:, :] = 0
    t = cnt.shape[0] - TALLY_ROWS
    for side in range(2):  # the empty board: every line open to both sides, no marks in it
        cnt[t + 2, side] = t
        if k == 1:
            cnt[t, side] = t
        if k == 2:
            cnt[t + 1, side] = t
    for c in range(owners.shape[0]):
        if owners[c]:
            place(cell, cnt, thr, thrn, c, owners[c] - 1, k)


@_compiled
def threats_of(lines, cnt, cell, below, k, side, out):
    """The distinct cells where ``side`` completes a line at once, into ``out``; their number.
    ``out`` holds at most its length (enough to tell one threat from two). With gravity
    (``below[c]``: the cell under ``c``, -1 for none) only cells a mark may go to now count."""
    n = 0
    other = 1 - side
    left = cnt[cnt.shape[0] - TALLY_ROWS, side]  # the side's fours not met yet in the walk
    i = 0
    while left > 0 and i < lines.shape[0]:
        if cnt[i, side] == k - 1 and cnt[i, other] == 0:
            left -= 1
            for j in range(k):
                c = lines[i, j]
                if cell[c] == 0:
                    if below[c] >= 0 and cell[below[c]] == 0:
                        break  # not playable yet
                    seen = False
                    for t in range(n):
                        if out[t] == c:
                            seen = True
                            break
                    if not seen and n < out.shape[0]:
                        out[n] = c
                        n += 1
                    break
        i += 1
    return n


@_inlined
def threats_through(lines, thr, thrn, cnt, cell, below, above, k, side, c, out):
    """:func:`threats_of` over what a move on cell ``c`` changed: the lines through it and, with
    gravity, the cell above it (``above[c]``, -1 for none), which a mark may go to now."""
    n = 0
    other = 1 - side
    up = above[c]
    if up >= 0 and cell[up] == 0 and four_cell(cnt, thr, thrn, up, side, k):
        out[0] = up
        n = 1
    for j in range(thrn[c]):
        i = thr[c, j]
        if cnt[i, side] == k - 1 and cnt[i, other] == 0:
            for q in range(k):
                e = lines[i, q]
                if cell[e] == 0:
                    if below[e] >= 0 and cell[below[e]] == 0:
                        break  # not playable yet
                    seen = False
                    for t in range(n):
                        if out[t] == e:
                            seen = True
                            break
                    if not seen and n < out.shape[0]:
                        out[n] = e
                        n += 1
                    break
    return n


@_inlined
def four_cell(cnt, thr, thrn, c, side, k):
    """Whether a mark of ``side`` on the empty cell ``c`` would complete a line."""
    other = 1 - side
    for j in range(thrn[c]):
        i = thr[c, j]
        if cnt[i, side] == k - 1 and cnt[i, other] == 0:
            return True
    return False


@_inlined
def completes(cnt, thr, thrn, c, side, k):
    """Whether ``side``'s mark on ``c`` (already placed) completes a line."""
    for j in range(thrn[c]):
        if cnt[thr[c, j], side] == k:
            return True
    return False


@_compiled
def has_open_line(cnt, side):
    """Whether some line holds no mark of the other side (``side`` may still complete it)."""
    return cnt[cnt.shape[0] - TALLY_ROWS + 2, side] > 0


@_compiled
def position_hash(cell, zob):
    """The position's own Zobrist hash."""
    h = np.uint64(0)
    for c in range(cell.shape[0]):
        if cell[c]:
            h ^= zob[cell[c] - 1, c]
    return h


@_compiled
def position_key(cell, zob, zsym, sym_plies):
    """The table key: the least hash over the symmetries within ``sym_plies`` marks, else the
    position's own hash (never 0, which marks an empty slot)."""
    marks = 0
    for c in range(cell.shape[0]):
        if cell[c]:
            marks += 1
    if marks > sym_plies:
        h = position_hash(cell, zob)
    else:
        h = np.uint64(0)
        for s in range(zsym.shape[0]):
            hs = np.uint64(0)
            for c in range(cell.shape[0]):
                if cell[c]:
                    hs ^= zsym[s, cell[c] - 1, c]
            if s == 0 or hs < h:
                h = hs
    if h == 0:
        h = np.uint64(1)
    return h


# -- the transposition table -----------------------------------------------------------------------


@_compiled
def table_find(tkey, key):
    """The slot holding ``key``, or -1."""
    mask = tkey.shape[0] - 1
    slot = np.int64(key & np.uint64(mask))
    for _ in range(PROBES):
        if tkey[slot] == key:
            return slot
        if tkey[slot] == 0:
            return -1
        slot = (slot + 1) & mask
    return -1


@_inlined
def entry_weight(pn, dn, work):
    """What an entry is worth keeping when the table is full: its work, four times it plus 4 when
    it is settled (a strategy is read from settled positions)."""
    if pn == 0 or dn == 0:
        return np.int64(work) * 4 + 4
    return np.int64(work)


#: Weights below this have a class of their own in :func:`_weight_class`; above, one per power
#: of two (the few positions of that much work are kept all the same).
EXACT_WEIGHTS = 4096


@_inlined
def _weight_class(weight):
    if weight < EXACT_WEIGHTS:
        return weight
    return EXACT_WEIGHTS + np.int64(np.log2(np.float64(weight)))


@_inlined
def _weight_of(tb, slot, by_work):
    tpn, tdn, twork = tb[1], tb[2], tb[3]
    return twork[slot] if by_work else entry_weight(tpn[slot], tdn[slot], twork[slot])


@njit(cache=True)  # makes an array
def _cut(tb, limit, by_work):
    """Where to cut the table's entries so that the ``limit`` of most weight (``by_work``: of most
    work) are kept: ``(class, taken, total)``, every entry of a higher class (:func:`_weight_class`)
    kept and the first ``taken`` of that class, of ``total`` entries."""
    tkey = tb[0]
    classes = np.zeros(EXACT_WEIGHTS + 64, np.int64)
    for slot in range(tkey.shape[0]):
        if tkey[slot] != 0:
            classes[_weight_class(_weight_of(tb, slot, by_work))] += 1
    above = np.int64(0)
    for c in range(classes.shape[0] - 1, -1, -1):
        if above + classes[c] >= limit:
            return np.int64(c), limit - above, classes.sum()
        above += classes[c]
    return np.int64(0), classes[0], above


@_compiled
def _keep_heaviest(tb, cut, taken, by_work, out, clear):
    """Walk the table's entries in slot order and pick those :func:`_cut` keeps (``cut``,
    ``taken``): their slots into ``out`` (as many as it has room for), and with ``clear`` every
    other entry cleared."""
    tkey = tb[0]
    top = 0
    for slot in range(tkey.shape[0]):
        if tkey[slot] != 0:
            c = _weight_class(_weight_of(tb, slot, by_work))
            if c > cut or (c == cut and taken > 0):
                if c == cut:
                    taken -= 1
                if top < out.shape[0]:
                    out[top] = slot
                top += 1
            elif clear:
                tkey[slot] = 0


@njit(cache=True)  # makes an array
def table_heaviest(tb, limit, by_work):
    """The slots of the ``limit`` entries of most weight (``by_work``: of most work), in slot
    order: all of them when the table holds no more. Where entries of the same weight straddle
    the cut (or, past :data:`EXACT_WEIGHTS`, of the same power of two), those of the first slots
    are taken. Only the slots are copied: a table of billions of bytes is read in place."""
    cut, taken, total = _cut(tb, limit, by_work)
    out = np.empty(min(limit, total), np.int64)
    _keep_heaviest(tb, cut, taken, by_work, out, False)
    return out


@njit(cache=True)  # through _cut, which makes an array
def table_collect(tb, keep):
    """Let go all but the ``keep`` entries of most weight (:func:`entry_weight`; chosen as
    :func:`table_heaviest` chooses them), in place: the others are cleared, then every entry left
    is put again where a look-up finds it, the first free slot from its own (never past where it
    was), walk after walk until one moves none (a move may free a slot on the way of an entry
    already walked past). No copy of the table is made."""
    tkey, tpn, tdn, twork, tflags, stats = tb
    n = tkey.shape[0]
    mask = n - 1
    cut, taken, total = _cut(tb, keep, False)
    if total <= keep:
        return
    _keep_heaviest(tb, cut, taken, False, np.empty(0, np.int64), True)
    moved = True
    while moved:  # each move takes an entry nearer its own slot: at most a few walks
        moved = False
        for slot in range(n):
            key = tkey[slot]
            if key == 0:
                continue
            home = np.int64(key & np.uint64(mask))
            while tkey[home] != 0 and home != slot:
                home = (home + 1) & mask
            if home != slot:
                tkey[home] = key
                tpn[home] = tpn[slot]
                tdn[home] = tdn[slot]
                twork[home] = twork[slot]
                tflags[home] = tflags[slot]
                tkey[slot] = 0
                moved = True
    stats[ST_ENTRIES] = keep


@_compiled
def table_store(tb, key, pn, dn, work, flags):
    """Store ``key``'s numbers (and OR ``flags`` into its flags); a full run of slots gives up the
    one of least work."""
    tkey, tpn, tdn, twork, tflags, stats = tb
    mask = tkey.shape[0] - 1
    slot = np.int64(key & np.uint64(mask))
    victim = np.int64(-1)
    least = np.int64(1) << np.int64(62)
    for _ in range(PROBES):
        if tkey[slot] == key:
            tpn[slot] = pn
            tdn[slot] = dn
            if work > twork[slot]:
                twork[slot] = work
            tflags[slot] |= flags
            return
        if tkey[slot] == 0:
            tkey[slot] = key
            tpn[slot] = pn
            tdn[slot] = dn
            twork[slot] = work
            tflags[slot] = flags
            stats[ST_ENTRIES] += 1
            return
        # settled positions are worth more: a strategy is read from them
        weight = entry_weight(tpn[slot], tdn[slot], twork[slot])
        if weight < least:
            least = weight
            victim = slot
        slot = (slot + 1) & mask
    stats[ST_REPLACED] += 1
    tkey[victim] = key
    tpn[victim] = pn
    tdn[victim] = dn
    twork[victim] = work
    tflags[victim] = flags


@_compiled
def table_mark(tb, key, flags):
    """OR ``flags`` into ``key``'s flags, storing it with the numbers (1, 1) when it is new."""
    tkey, tflags = tb[0], tb[4]
    slot = table_find(tkey, key)
    if slot >= 0:
        tflags[slot] |= flags
    else:
        table_store(tb, key, 1, 1, 0, flags)


@_compiled
def table_fill(tb, keys, pns, dns, works, flags):
    """Store the entries of ``keys`` (with their numbers, work and flags) in the table, in order:
    a later one may take the slot of an earlier one of less work."""
    for i in range(keys.shape[0]):
        table_store(tb, keys[i], pns[i], dns[i], works[i], flags[i])


@_compiled
def table_numbers(tkey, tpn, tdn, key):
    """(pn, dn) of ``key``, (1, 1) when the table does not hold it."""
    slot = table_find(tkey, key)
    if slot < 0:
        return 1, 1
    return tpn[slot], tdn[slot]


# -- continuous fours ------------------------------------------------------------------------------


@_compiled
def _fail_seen(fkeys, h):
    """Whether the record ``fkeys`` holds hash ``h`` (stored with its lowest bit set, so that no
    key is 0, a free slot's mark: one slot read where a slot and its generation took two)."""
    key = h | np.uint64(1)
    mask = fkeys.shape[0] - 1
    slot = np.int64(key & np.uint64(mask))
    for _ in range(PROBES):
        held = fkeys[slot]
        if held == key:
            return True
        if held == 0:
            return False
        slot = (slot + 1) & mask
    return False


@_compiled
def _fail_add(fkeys, h):
    key = h | np.uint64(1)
    mask = fkeys.shape[0] - 1
    slot = np.int64(key & np.uint64(mask))
    for _ in range(PROBES):
        if fkeys[slot] == 0 or fkeys[slot] == key:
            fkeys[slot] = key
            return
        slot = (slot + 1) & mask
    fkeys[np.int64(key & np.uint64(mask))] = key  # a full run: overwrite its first slot


@_compiled
def vcf(bd, s, budget, vs, plan, h0):
    """A win of side ``s`` (to move) by continuous fours: ``plan`` gets the moves in order (S's
    move, D's forced block, S's move, ..., S's last move, which completes a line or makes two fours
    at once); the number of moves, or 0 when none is found within ``budget`` positions. The board
    is left as it was; ``h0`` is its Zobrist hash.

    A position (S to move) whose every candidate failed has no such win, whichever search meets it
    again: the record of these (by hash, S mixed in) is kept from one search to the next (within
    one the same position comes back by other orders of the same moves; the next search is often
    of the same position with one more mark, as when the attacker's moves are rated). A record can
    only hide a win (a hash shared by two positions), never make one: what is found is played out.

    ``vs`` is the search's scratch: (candidates buffer, offsets, counts, indices, blocks, the
    record of failed positions, the cells' stamp counter, small buffers, node counter, the lines
    that lack two marks level after level with their offsets and counts, a stamp per cell: see
    :func:`scratch`)."""
    lines, thr, thrn, below, above, cell, cnt, zob, k = bd
    cand, start, count, index, block, fkeys, stamp, tmp, tmp2, nodes = vs[:10]
    lstack, lstart, lcount, cstamp = vs[10], vs[11], vs[12], vs[13]
    d = 1 - s
    h = h0 ^ FAILED_SIDE[s]
    depth = 0
    top = 0  # next free slot of ``cand``
    nodes[0] = 0
    # Enter level 0.
    entering = True
    result = 0
    while True:
        if entering:
            entering = False
            nodes[0] += 1
            if nodes[0] > budget:
                result = 0
                break
            # S completes a line at once: the plan ends here. (Deeper down S has none: its last
            # move made one four, which D's block took.)
            if depth == 0:
                t = threats_of(lines, cnt, cell, below, k, s, tmp)
                if t > 0:
                    plan[0] = tmp[0]
                    result = 1
                    break
            elif above[block[depth - 1]] >= 0:  # gravity: D's block let S onto the cell above it
                up = above[block[depth - 1]]
                if cell[up] == 0 and four_cell(cnt, thr, thrn, up, s, k):
                    plan[2 * depth] = up
                    result = 2 * depth + 1
                    break
            failed = _fail_seen(fkeys, h)
            if failed:
                u = 0
            elif depth == 0:
                u = threats_of(lines, cnt, cell, below, k, d, tmp2)
            else:  # D's fours: only where its block made them (S took any it had before)
                u = threats_through(
                    lines, thr, thrn, cnt, cell, below, above, k, d, block[depth - 1], tmp2
                )
            start[depth] = top
            count[depth] = 0
            index[depth] = 0
            if not failed and u < 2:
                forced = tmp2[0] if u == 1 else -1
                # Candidates: cells of S's open lines that lack two marks (a mark there makes a
                # four), in the order of the lines, only D's threat cell when D threatens. At
                # the root such lines are looked for among all; below it they are the parent's
                # still two short (S's move or D's block took some) and those through S's last
                # move (marks only add: no other line can have come to lack two). ``lstack``
                # holds each level's lines, one level after the other.
                if depth == 0:
                    base = 0
                    nl = 0
                    left = cnt[cnt.shape[0] - TALLY_ROWS + 1, s]
                    i = 0
                    while left > 0 and i < lines.shape[0]:
                        if cnt[i, s] == k - 2 and cnt[i, d] == 0:
                            lstack[nl] = i
                            nl += 1
                            left -= 1
                        i += 1
                else:
                    # The parent's lines still open, then those S's last move brought to two
                    # short, each put in its place (the parent's are in order).
                    p0 = lstart[depth - 1]
                    base = p0 + lcount[depth - 1]
                    nl = 0
                    for q in range(p0, base):
                        i = lstack[q]
                        if cnt[i, s] == k - 2 and cnt[i, d] == 0:
                            lstack[base + nl] = i
                            nl += 1
                    m = plan[2 * depth - 2]
                    for j in range(thrn[m]):
                        i = thr[m, j]
                        if cnt[i, s] == k - 2 and cnt[i, d] == 0:
                            r = base + nl - 1
                            while r >= base and lstack[r] > i:
                                lstack[r + 1] = lstack[r]
                                r -= 1
                            lstack[r + 1] = i
                            nl += 1
                lstart[depth] = base
                lcount[depth] = nl
                stamp[0] += 1
                for q in range(base, base + nl):
                    i = lstack[q]
                    for j in range(k):
                        c = lines[i, j]
                        playable = below[c] < 0 or cell[below[c]] != 0
                        if cell[c] == 0 and playable and (forced < 0 or c == forced):
                            if cstamp[c] != stamp[0] and top < cand.shape[0]:
                                cstamp[c] = stamp[0]
                                cand[top] = c
                                top += 1
                count[depth] = top - start[depth]
        # Try the next candidate at this depth.
        advanced = False
        while index[depth] < count[depth]:
            c = cand[start[depth] + index[depth]]
            index[depth] += 1
            place_bare(cell, cnt, thr, thrn, c, s)
            h ^= zob[s, c]
            t = threats_through(lines, thr, thrn, cnt, cell, below, above, k, s, c, tmp)
            up = above[c]
            if t == 0 or (up >= 0 and four_cell(cnt, thr, thrn, up, d, k)):
                # (with gravity) no four S may finish at once, or D may finish one above c
                unplace_bare(cell, cnt, thr, thrn, c, s)
                h ^= zob[s, c]
                continue
            if t >= 2:
                plan[2 * depth] = c
                unplace_bare(cell, cnt, thr, thrn, c, s)
                h ^= zob[s, c]
                result = 2 * depth + 1
                advanced = True
                break
            b = tmp[0]
            place_bare(cell, cnt, thr, thrn, b, d)
            h ^= zob[d, b]
            if completes(cnt, thr, thrn, b, d, k):
                unplace_bare(cell, cnt, thr, thrn, b, d)
                h ^= zob[d, b]
                unplace_bare(cell, cnt, thr, thrn, c, s)
                h ^= zob[s, c]
                continue
            plan[2 * depth] = c
            plan[2 * depth + 1] = b
            block[depth] = b
            depth += 1
            entering = True
            advanced = True
            break
        if result:
            break
        if advanced:
            continue
        # Every candidate failed: this position has no such win; back up one level.
        _fail_add(fkeys, h)
        top = start[depth]
        if depth == 0:
            result = 0
            break
        depth -= 1
        b = block[depth]
        c = plan[2 * depth]
        unplace_bare(cell, cnt, thr, thrn, b, d)
        h ^= zob[d, b]
        unplace_bare(cell, cnt, thr, thrn, c, s)
        h ^= zob[s, c]
    # Take back the moves of the plan's path still on the board.
    while depth > 0:
        depth -= 1
        b = plan[2 * depth + 1]
        c = plan[2 * depth]
        unplace_bare(cell, cnt, thr, thrn, b, d)
        unplace_bare(cell, cnt, thr, thrn, c, s)
    return result


@_compiled
def off_plan(thr, thrn, below, above, touched, c):
    """Whether a mark on cell ``c`` leaves a plan of :func:`vcf` alone: ``c`` on no line through
    the plan's cells (``touched``, 1 by line), and no gravity. Such a mark changes nothing the plan's
    checks read, so the plan wins after it (:func:`replay` would say so) unless it gives the
    other side a four (the caller asks that)."""
    if below[c] >= 0 or above[c] >= 0:
        return False
    for j in range(thrn[c]):
        if touched[thr[c, j]]:
            return False
    return True


@_compiled
def replay(lines, thr, thrn, below, above, cell, cnt, k, s, plan, n, work):
    """Whether the ``n`` moves of a :func:`vcf` plan found in another position still win for
    side ``s`` (to move) here, checked move by move as :func:`vcf` checks the path it takes: each
    move of S makes a four (two: the win), D has no four of its own that S does not take, and D's
    forced block completes none of D's lines. The block is the cell the position forces, not the
    plan's. The board is left as it was.

    ``work``: four rows of scratch, each as long as the board has cells (:func:`scratch`).

    Far cheaper than a search: after one reply of the defender the plan found before it usually
    stands (the reply was elsewhere), and the defender has some hundred replies on 4x4x4x4."""
    d = 1 - s
    tmp = work[0]
    tmp2 = work[1]
    made = work[2]
    sides = work[3]
    placed = 0
    won = False
    depth = 0
    while 2 * depth < n:
        if depth == 0:
            if threats_of(lines, cnt, cell, below, k, s, tmp) > 0:
                won = True
                break
            u = threats_of(lines, cnt, cell, below, k, d, tmp2)
        else:
            b = made[placed - 1]
            up = above[b]
            if up >= 0 and cell[up] == 0 and four_cell(cnt, thr, thrn, up, s, k):
                won = True
                break
            u = threats_through(lines, thr, thrn, cnt, cell, below, above, k, d, b, tmp2)
        if u >= 2:
            break
        c = plan[2 * depth]
        if cell[c] != 0 or (below[c] >= 0 and cell[below[c]] == 0) or (u == 1 and c != tmp2[0]):
            break
        place_bare(cell, cnt, thr, thrn, c, s)
        made[placed] = c
        sides[placed] = s
        placed += 1
        t = threats_through(lines, thr, thrn, cnt, cell, below, above, k, s, c, tmp)
        up = above[c]
        if t == 0 or (up >= 0 and four_cell(cnt, thr, thrn, up, d, k)):
            break
        if t >= 2:
            won = True
            break
        b = tmp[0]
        place_bare(cell, cnt, thr, thrn, b, d)
        made[placed] = b
        sides[placed] = d
        placed += 1
        if completes(cnt, thr, thrn, b, d, k):
            break
        depth += 1
    while placed > 0:
        placed -= 1
        unplace_bare(cell, cnt, thr, thrn, made[placed], sides[placed])
    return won


# -- settling a position ---------------------------------------------------------------------------


@njit(cache=True, inline="always")
def k_of(lines):
    return lines.shape[1]


@_compiled
def ordered_moves(lines, thr, thrn, below, above, cell, cnt, s, moves, scores):
    """Every cell ``s`` may mark into ``moves``, the most promising first (lines open to either
    side through the cell, weighed by the marks in them); their number. With gravity, only the
    lowest empty cell of each column, and not one under a cell where the other side completes a
    line (it would at once: such a move loses, and is left out)."""
    m = 0
    d = 1 - s
    for c in range(cell.shape[0]):
        if cell[c] != 0 or (below[c] >= 0 and cell[below[c]] == 0):
            continue
        if above[c] >= 0 and four_cell(cnt, thr, thrn, above[c], d, k_of(lines)):
            continue
        if cell[c] == 0:
            score = 0
            for j in range(thrn[c]):
                i = thr[c, j]
                if cnt[i, d] == 0:
                    score += WEIGHTS[min(cnt[i, s], 15)]
                if cnt[i, s] == 0:
                    score += WEIGHTS[min(cnt[i, d], 15)]
            moves[m] = c
            scores[m] = score
            m += 1
    # insertion sort, highest score first (stable: lower cells first among equals)
    for a in range(1, m):
        mv = moves[a]
        sc = scores[a]
        b = a - 1
        while b >= 0 and scores[b] < sc:
            moves[b + 1] = moves[b]
            scores[b + 1] = scores[b]
            b -= 1
        moves[b + 1] = mv
        scores[b + 1] = sc
    return m


@_compiled
def expand(bd, attacker, flags, vcf_budget, vs, plan, moves, scores, stats):
    """Settle the position on the board if the rules alone (or a win by continuous fours of the
    attacker to move) do: ``(status, count)`` with status 1 proven, 2 proven by continuous fours,
    -1 disproven, or 0 and the ``count`` moves worth searching in ``moves`` (a forced block alone,
    else every empty cell, best first). A side completing a line on the board is not asked about:
    the search never moves past a completed line."""
    lines, thr, thrn, below, above, cell, cnt, zob, k = bd
    a = attacker
    d = 1 - attacker
    marks = 0
    for c in range(cell.shape[0]):
        if cell[c]:
            marks += 1
    x_to_move = marks % 2 == 0
    a_to_move = x_to_move == (a == 0)
    if marks == cell.shape[0] or not has_open_line(cnt, a):
        return DISPROVEN, 0
    tmp = vs[7]
    if a_to_move:
        if threats_of(lines, cnt, cell, below, k, a, tmp) > 0:
            return PROVEN, 0
        u = threats_of(lines, cnt, cell, below, k, d, tmp)
        if u >= 2:
            return DISPROVEN, 0
        if u == 1:
            moves[0] = tmp[0]
            return 0, 1
        if not flags & FLAG_VCF_TRIED:
            stats[ST_VCF_TRIES] += 1
            h = position_hash(cell, zob)
            found = vcf(bd, a, vcf_budget, vs, plan, h)
            stats[ST_VCF_NODES] += vs[9][0]
            if found > 0:
                stats[ST_VCF_FOUND] += 1
                return PROVEN_BY_THREATS, 0
        return 0, ordered_moves(lines, thr, thrn, below, above, cell, cnt, a, moves, scores)
    if threats_of(lines, cnt, cell, below, k, d, tmp) > 0:
        return DISPROVEN, 0
    u = threats_of(lines, cnt, cell, below, k, a, tmp)
    if u >= 2:
        return PROVEN, 0
    if u == 1:
        moves[0] = tmp[0]
        return 0, 1
    return 0, ordered_moves(lines, thr, thrn, below, above, cell, cnt, d, moves, scores)


# -- df-pn -----------------------------------------------------------------------------------------


@_compiled
def _read_numbers(tkey, tpn, tdn, ckey, lpn, ldn, start, count):
    """The table's numbers of the children ``start`` to ``start + count`` into ``lpn``/``ldn``."""
    for i in range(start, start + count):
        pn, dn = table_numbers(tkey, tpn, tdn, ckey[i])
        lpn[i] = pn
        ldn[i] = dn


@_compiled
def _store_status(tb, key, status):
    if status > 0:
        table_store(tb, key, 0, INF, 1, 0)
    else:
        table_store(tb, key, INF, 0, 1, 0)


@_compiled
def _set_children(
    cell, zob, zsym, sym_plies, marks, own_hash, mover, moves, m, cmove, ckey, at, stats
):
    """The children of the position on the board (``mover`` to move, ``marks`` marks, its own hash
    given) from its ``m`` moves: their moves and keys from ``at`` on, mirror twins dropped within
    the symmetric plies; the end of what was written."""
    top = at
    for i in range(m):
        c = moves[i]
        if marks + 1 > sym_plies:
            h = own_hash ^ zob[mover, c]
            if h == 0:
                h = np.uint64(1)
        else:
            cell[c] = mover + 1
            h = position_key(cell, zob, zsym, sym_plies)
            cell[c] = 0
            twin = False
            for q in range(at, top):
                if ckey[q] == h:
                    twin = True
                    break
            if twin:
                stats[ST_TWINS] += 1
                continue
        cmove[top] = c
        ckey[top] = h
        top += 1
    return top


@_compiled
def _touch(tkey, ckey, first, end, sink):
    """Read the first table slot of each child's key, ``first`` to ``end``, before any is looked up:
    reads that do not wait on each other go to memory together, where the look-ups, one after the
    other, would each wait for its own (``sink`` keeps what was read, so that the reads stay)."""
    mask = np.uint64(tkey.shape[0] - 1)
    seen = np.uint64(0)
    for i in range(first, end):
        seen ^= tkey[np.int64(ckey[i] & mask)]
    sink[0] ^= seen


@_compiled
def _try_replies(bd, a, vcf_budget, vs, plan, replays, tb, cmove, ckey, first, count, h):
    """The defender to move (the position's hash ``h``): each reply not settled yet is tried once
    for a win of the attacker by continuous fours (or a four it leaves standing), so that the
    replies the attacker answers at once count as settled from the start. Only when the attacker
    would have such a win if the defender let it move again: a reply never gives the attacker one
    it does not have (with the budget a search may still find one after a reply and not before:
    these replies are searched when their turn comes)."""
    lines, thr, thrn, below, above, cell, cnt, zob, k = bd
    tkey, tpn, tdn, _, tflags, stats = tb
    d = 1 - a
    tmp = vs[8]
    stats[ST_VCF_TRIES] += 1
    threat = vcf(bd, a, vcf_budget, vs, plan, h)
    stats[ST_VCF_NODES] += vs[9][0]
    if threat == 0:
        return
    # The attacker's win if the defender let it move again: after most replies it stands as it is.
    standing = vs[16]
    for q in range(threat):
        standing[q] = plan[q]
    # Every check of a replay reads only the lines through the plan's cells (and, with gravity,
    # the cells above and below them): a reply on none of them, which gives the defender no four
    # (asked below), leaves the plan winning as it is, without a replay.
    touched = vs[15]
    for q in range(threat):
        m = standing[q]
        for j in range(thrn[m]):
            touched[thr[m, j]] = 1
    for i in range(first, first + count):
        ck = ckey[i]
        slot = table_find(tkey, ck)
        if slot >= 0 and (tpn[slot] == 0 or tdn[slot] == 0 or tflags[slot] & FLAG_VCF_TRIED):
            continue
        c = cmove[i]
        place(cell, cnt, thr, thrn, c, d, k)
        if threats_of(lines, cnt, cell, below, k, a, tmp) > 0:
            table_store(tb, ck, 0, INF, 1, 0)
        elif threats_of(lines, cnt, cell, below, k, d, tmp) == 0 and has_open_line(cnt, a):
            if replays and (
                off_plan(thr, thrn, below, above, touched, c)
                or replay(lines, thr, thrn, below, above, cell, cnt, k, a, standing, threat, vs[14])
            ):
                stats[ST_REPLAYED] += 1
                table_store(tb, ck, 0, INF, 1, 0)
                unplace(cell, cnt, thr, thrn, c, d, k)
                continue
            stats[ST_VCF_TRIES] += 1
            found = vcf(bd, a, vcf_budget, vs, plan, h ^ zob[d, c])
            stats[ST_VCF_NODES] += vs[9][0]
            if found > 0:
                stats[ST_VCF_FOUND] += 1
                table_store(tb, ck, 0, INF, 1, 0)
            else:
                table_mark(tb, ck, FLAG_VCF_TRIED)
        unplace(cell, cnt, thr, thrn, c, d, k)
    for q in range(threat):
        m = standing[q]
        for j in range(thrn[m]):
            touched[thr[m, j]] = 0


@_compiled
def _init_moves(bd, a, vcf_budget, vs, plan, tb, cmove, ckey, first, count, empties, h, rated):
    """The attacker to move: the proof number each move starts from, stored for the moves the
    table does not hold yet. A four (the defender must block) starts at 1; a move after which the
    attacker would win by continuous fours if the defender let it move again (a threat the defender
    must answer) at 2; any other move at the defender's replies (``empties``), each of which may
    need a proof of its own. ``h`` is the position's hash.

    The moves are tried in their order (the most promising first) until ``rated`` threats are
    found; the moves after those start at ``empties`` untried. One threat that works is all the
    attacker needs, and the search tries the first ones before any move at ``empties``; a move
    left untried is searched like any other once the search comes to it, and the position after
    it is then tried for the same win (:func:`_try_replies`), which gives it its number."""
    lines, thr, thrn, below, above, cell, cnt, zob, k = bd
    tkey, stats = tb[0], tb[5]
    tmp = vs[8]
    threats = 0
    for i in range(first, first + count):
        ck = ckey[i]
        if table_find(tkey, ck) >= 0:
            continue
        c = cmove[i]
        place(cell, cnt, thr, thrn, c, a, k)
        # A move that leaves no line through it open to the attacker with two marks short or
        # fewer makes no threat the attacker did not have (it had none: its own search failed).
        near = False
        for j in range(thrn[c]):
            line = thr[c, j]
            if cnt[line, 1 - a] == 0 and cnt[line, a] >= k - 2:
                near = True
                break
        if threats_through(lines, thr, thrn, cnt, cell, below, above, k, a, c, tmp) > 0:
            pn = 1
        elif (not near and below[c] < 0) or threats >= rated:
            pn = empties
        else:
            stats[ST_INIT_TRIES] += 1
            found = vcf(bd, a, vcf_budget, vs, plan, h ^ zob[a, c])
            stats[ST_VCF_NODES] += vs[9][0]
            if found > 0:
                stats[ST_INIT_THREATS] += 1
                threats += 1
                pn = 2
            else:
                pn = empties
        unplace(cell, cnt, thr, thrn, c, a, k)
        table_store(tb, ck, pn, 1, 0, 0)


@_compiled
def _sim_enter(
    bd, a, vcf_budget, probe_budget, vs, plan, replays, tb, sw, depth, or_node, nh, oh, limit
):
    """A position of :func:`simulate`'s walk, on the board: 1 won (the table or its own rules say
    so), -1 not (or the walk is too deep or too long), 0 its row ``depth`` is set up, the moves
    to go through in ``smoves`` (``scmove``/``sckey`` with the replies' keys where the defender is
    to move). ``sint[depth]``: or_node, count, next index, positions at entry; ``skeys[depth]``:
    own hash, the sibling's hash, key."""
    zob = bd[7]
    tkey, tpn, tdn, _, tflags, stats = tb
    smoves, sscores, scmove, sckey, sint, skeys = sw
    if depth >= smoves.shape[0] or stats[ST_SIM_NODES] >= limit:
        return -1
    nkey = nh if nh != 0 else np.uint64(1)
    slot = table_find(tkey, nkey)
    flags = 0
    if slot >= 0:
        if tpn[slot] == 0:
            return 1
        if tdn[slot] == 0:
            return -1
        flags = tflags[slot]
    stats[ST_SIM_NODES] += 1
    stats[ST_NODES] += 1
    moves = smoves[depth]
    status, m = expand(bd, a, flags, vcf_budget, vs, plan, moves, sscores, stats)
    if status != 0:
        _store_status(tb, nkey, status)
        return 1 if status > 0 else -1
    sint[depth, 0] = 1 if or_node else 0
    sint[depth, 1] = m
    sint[depth, 2] = 0
    sint[depth, 3] = stats[ST_SIM_NODES]
    skeys[depth, 0] = nh
    skeys[depth, 1] = oh
    skeys[depth, 2] = nkey
    if or_node:
        if not flags & FLAG_VCF_TRIED:
            table_mark(tb, nkey, FLAG_VCF_TRIED)
        return 0
    d = 1 - a
    cm = scmove[depth]
    ck = sckey[depth]
    for i in range(m):
        c = moves[i]
        cm[i] = c
        h = nh ^ zob[d, c]
        ck[i] = h if h != 0 else np.uint64(1)
    if not flags & FLAG_REPLIES_TRIED:
        _try_replies(bd, a, probe_budget, vs, plan, replays, tb, cm, ck, 0, m, nh)
        # What the search would store on its first look: every reply won, or as many replies
        # still to settle (a mark alone would store 1, the number of a four, and the search
        # would take the strategy's move for one when it rates the moves of the position above).
        left = 0
        for i in range(m):
            s2 = table_find(tkey, ck[i])
            if s2 < 0 or tpn[s2] != 0:
                left += 1
        if left == 0:
            table_store(tb, nkey, 0, INF, 1, FLAG_REPLIES_TRIED)
            return 1
        if slot < 0:
            table_store(tb, nkey, left, 1, 0, FLAG_REPLIES_TRIED)
        else:
            table_mark(tb, nkey, FLAG_REPLIES_TRIED)
    return 0


@_compiled
def _sim_step(bd, a, vcf_budget, probe_budget, vs, plan, replays, tb, sw, depth, side, c, nh, oc,
              limit):  # fmt: skip
    """:func:`simulate`'s move ``c`` of ``side`` from its row ``depth`` (the position's own hash
    ``nh``; ``oc`` the hash of the matching position of the sibling's tree): made and entered as
    row ``depth + 1`` (:func:`_sim_enter`), taken back unless the walk goes on from it. The
    entry's answer: 0 the walk goes on from it, 1 won, -1 not."""
    cell, cnt, thr, thrn, k = bd[5], bd[6], bd[1], bd[2], bd[8]
    place(cell, cnt, thr, thrn, c, side, k)
    st = _sim_enter(bd, a, vcf_budget, probe_budget, vs, plan, replays, tb, sw, depth + 1,
                    side != a, nh ^ bd[7][side, c], oc, limit)  # fmt: skip
    if st != 0:
        unplace(cell, cnt, thr, thrn, c, side, k)
    return st


@_compiled
def _sim_fours(bd, a, vcf_budget, vs, plan, tb, nh, oh):
    """For :func:`simulate`, the attacker to move: where the sibling's position (own hash ``oh``)
    is won, a win here by continuous fours with the full budget (stored as won when found)."""
    tkey, tpn, stats = tb[0], tb[1], tb[5]
    okey = oh if oh != 0 else np.uint64(1)
    slot = table_find(tkey, okey)
    if slot < 0 or tpn[slot] != 0:
        return False
    stats[ST_VCF_TRIES] += 1
    found = vcf(bd, a, vcf_budget, vs, plan, nh)
    stats[ST_VCF_NODES] += vs[9][0]
    if found == 0:
        return False
    stats[ST_VCF_FOUND] += 1
    return True


@_compiled
def simulate(bd, a, vcf_budget, probe_budget, vs, plan, replays, tb, sw, nh, oh, r1, limit):
    """Whether the strategy that settled a sibling position wins here too (Kawano's simulation),
    the attacker ``a`` to move. The position on the board (own hash ``nh``) is the sibling's (own
    hash ``oh``) with the defender's last mark on another cell than the sibling's ``r1``. Where
    the attacker is to move it plays the move of the sibling's strategy (the first of its moves
    whose position in the sibling's tree the table holds as won); where the defender is, every
    reply the position allows is won here already or met in the same way, where the matching
    position of the sibling's tree is held as won (a reply on ``r1`` leads into the sibling's
    tree itself: the table must hold it as won). Every position is
    settled by its own rules (:func:`expand`, the defender's replies tried as the search tries
    them, :func:`_try_replies`): what is stored as won is won, the sibling's tree only says which
    move to try. Gives up (False) past ``limit`` of :data:`ST_SIM_NODES` or where the strategy
    does not fit; what it settled on the way stays. The board is left as it was.

    A walk with a row per depth in ``smoves``, ``scmove``, ``sckey``, ``sint``, ``skeys``
    (:func:`_sim_enter`), not a recursion: numba's cache of a recursive function could not be
    read back safely."""
    lines, thr, thrn, below, above, cell, cnt, zob, k = bd
    tkey, tpn, stats = tb[0], tb[1], tb[5]
    smoves, _, scmove, sckey, sint, skeys = sw
    d = 1 - a
    st = _sim_enter(
        bd, a, vcf_budget, probe_budget, vs, plan, replays, tb, sw, 0, True, nh, oh, limit
    )
    if st != 0:
        return st > 0
    depth = 0
    result = 0
    while True:
        if result != 0:
            if result < 0:
                break
            if sint[depth, 0] == 1:
                result = 1  # the attacker's move won: so does its position
            else:
                sint[depth, 2] += 1
                result = 0
            if result == 1:
                work = stats[ST_SIM_NODES] - sint[depth, 3] + 1
                table_store(tb, skeys[depth, 2], 0, INF, work, 0)
                if depth == 0:
                    return True
                side = a if sint[depth, 0] == 0 else d
                unplace(cell, cnt, thr, thrn, smoves[depth - 1, sint[depth - 1, 2]], side, k)
                depth -= 1
                continue
        nh = skeys[depth, 0]
        oh = skeys[depth, 1]
        m = sint[depth, 1]
        if sint[depth, 0] == 1:
            found = -1
            for i in range(m):
                oc = oh ^ zob[a, smoves[depth, i]]
                s2 = table_find(tkey, oc if oc != 0 else np.uint64(1))
                if s2 >= 0 and tpn[s2] == 0:
                    found = i
                    break
            if found < 0:
                # The sibling's position was settled by a win by continuous fours (its own search,
                # or a replay of its parent's plan), not a move kept in the table: look for one
                # here with the full budget (the defender's replies were only probed for one).
                if _sim_fours(bd, a, vcf_budget, vs, plan, tb, nh, oh):
                    result = 1
                    continue
                result = -1
                continue
            sint[depth, 2] = found
            st = _sim_step(bd, a, vcf_budget, probe_budget, vs, plan, replays, tb, sw, depth, a,
                           smoves[depth, found], nh, oc, limit)  # fmt: skip
            if st == 0:
                depth += 1
            else:
                result = st
            continue
        i = sint[depth, 2]
        while i < m:
            s2 = table_find(tkey, sckey[depth, i])
            if s2 >= 0 and tpn[s2] == 0:
                i += 1
                continue
            break
        if i == m:
            # the defender's position: every reply won
            result = 1
            work = stats[ST_SIM_NODES] - sint[depth, 3] + 1
            table_store(tb, skeys[depth, 2], 0, INF, work, 0)
            if depth == 0:
                return True
            unplace(cell, cnt, thr, thrn, smoves[depth - 1, sint[depth - 1, 2]], a, k)
            depth -= 1
            continue
        c = scmove[depth, i]
        if c == r1:
            result = -1  # into the sibling's tree, and the table does not hold it as won
            continue
        oc = oh ^ zob[d, c]
        s3 = table_find(tkey, oc if oc != 0 else np.uint64(1))
        if s3 < 0 or tpn[s3] != 0:
            result = -1
            continue
        sint[depth, 2] = i
        st = _sim_step(bd, a, vcf_budget, probe_budget, vs, plan, replays, tb, sw, depth, d, c, nh,
                       oc, limit)  # fmt: skip
        if st == 0:
            depth += 1
        else:
            result = st
    # Gave up: take back the moves still on the board.
    while depth > 0:
        side = a if sint[depth, 0] == 0 else d
        unplace(cell, cnt, thr, thrn, smoves[depth - 1, sint[depth - 1, 2]], side, k)
        depth -= 1
    return False


@njit(cache=True)
def run(
    bd,
    zsym,
    attacker,
    sym_plies,
    vcf_budget,
    probe_budget,
    epsilon,
    replays,
    table,
    frames,
    cmove,
    ckey,
    vs,
    plan,
    scores,
    stats,
    budget,
    sim_budget,
    sw,
    rated,
):
    """df-pn from the position on the board for at most ``budget`` positions: 0 when the root is
    settled, 1 when the budget ran out first (or the table holds :data:`FULL_PERMILLE` thousandths
    of its slots). The board is left as it was; what was learnt stays
    in ``table`` (keys, pn, dn, work, flags), so the next call goes on from there.

    ``frames`` holds one row per depth: the move made to get there, the key and own hash, the
    thresholds, the first child in ``cmove``/``ckey`` and their number, the positions searched at
    entry, and whether the attacker is to move (an OR node). ``bd`` is the board, ``zsym`` the
    Zobrist keys of its symmetric images, ``sw`` the scratch of :func:`simulate` (see the module's
    description); ``rated``: the threats of the attacker to find among its moves before the others
    start untried (:func:`_init_moves`)."""
    lines, thr, thrn, below, above, cell, cnt, zob, k = bd
    tkey, tpn, tdn, twork, tflags = table
    tb = (tkey, tpn, tdn, twork, tflags, stats)
    fmove, fkey, fhash, fthpn, fthdn, fstart, fcount, fwork, f_or = frames
    n = cell.shape[0]
    a = attacker
    # Past this many positions in the table the search goes back to the root (as when its budget
    # is spent) for the caller to clear room (``WideSearch._collect``): in a table nearly full, a
    # position's entry and its children's take each other's slots, and the search goes round
    # without learning anything.
    full_at = (tkey.shape[0] * FULL_PERMILLE) // 1000
    # The children's numbers as this search last saw them, beside the table's: a child whose entry
    # the table let go (another position took its slot) keeps what was learnt of it, so the search
    # never goes back into a child it has just settled or whose numbers it has just raised (with
    # the table alone, a settled child whose entry its parent's next store replaced looked new
    # again, and was searched again, without end). ``fbest[d]``: the index of the child searched
    # at depth d.
    lpn = np.empty(cmove.shape[0], np.int64)
    ldn = np.empty(cmove.shape[0], np.int64)
    fbest = np.empty(fmove.shape[0], np.int64)
    marks0 = 0
    for c in range(n):
        if cell[c]:
            marks0 += 1
    moves = np.empty(n, np.int64)
    key0 = position_key(cell, zob, zsym, sym_plies)
    slot = table_find(tkey, key0)
    flags0 = 0 if slot < 0 else tflags[slot]
    if slot >= 0 and (tpn[slot] == 0 or tdn[slot] == 0):
        return 0
    x_to_move = marks0 % 2 == 0
    a_to_move = x_to_move == (a == 0)
    status, m = expand(bd, a, flags0, vcf_budget, vs, plan, moves, scores, stats)
    stats[ST_NODES] += 1
    if status != 0:
        _store_status(tb, key0, status)
        return 0
    if a_to_move and not flags0 & FLAG_VCF_TRIED:
        table_mark(tb, key0, FLAG_VCF_TRIED)
    depth = 0
    fmove[0] = -1
    fkey[0] = key0
    fhash[0] = position_hash(cell, zob)
    fthpn[0] = INF
    fthdn[0] = INF
    fstart[0] = 0
    fwork[0] = stats[ST_NODES]
    f_or[0] = 1 if a_to_move else 0
    mover0 = 0 if x_to_move else 1
    fcount[0] = _set_children(
        cell, zob, zsym, sym_plies, marks0, fhash[0], mover0, moves, m, cmove, ckey, 0, stats
    )
    _touch(tkey, ckey, 0, fcount[0], vs[17])
    if a_to_move and not flags0 & FLAG_MOVES_RATED:
        _init_moves(
            *(bd, a, probe_budget, vs, plan, tb, cmove, ckey, 0, fcount[0], n - marks0 - 1),
            *(fhash[0], rated),
        )
        table_mark(tb, key0, FLAG_MOVES_RATED)
    if not a_to_move and not flags0 & FLAG_REPLIES_TRIED:
        _try_replies(
            bd, a, probe_budget, vs, plan, replays, tb, cmove, ckey, 0, fcount[0], fhash[0]
        )
        table_mark(tb, key0, FLAG_REPLIES_TRIED)
    _read_numbers(tkey, tpn, tdn, ckey, lpn, ldn, 0, fcount[0])
    spent = 0
    while True:
        or_node = f_or[depth] == 1
        first = fstart[depth]
        count = fcount[depth]
        best = -1
        best_value = INF + 1
        second_value = INF + 1
        pn_sum = 0
        dn_sum = 0
        pn_min = INF
        dn_min = INF
        best_pn = 0
        best_dn = 0
        # The children's numbers as read on entry (_read_numbers), the one searched since updated
        # on its return: no other child's entry can change meanwhile (the positions below a child
        # hold more marks than its siblings), so the table is not read again.
        for i in range(first, first + count):
            cpn = int(lpn[i])
            cdn = int(ldn[i])
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
                best = i
                best_pn = cpn
                best_dn = cdn
            elif value < second_value:
                second_value = value
        if or_node:
            pn = pn_min
            dn = min(dn_sum, INF)
        else:
            pn = min(pn_sum, INF)
            dn = dn_min
        work = stats[ST_NODES] - fwork[depth]
        table_store(tb, fkey[depth], pn, dn, work, 0)
        if (
            pn >= fthpn[depth]
            or dn >= fthdn[depth]
            or pn == 0
            or dn == 0
            or spent >= budget
            or stats[ST_ENTRIES] >= full_at
        ):
            if depth == 0:
                return 0 if (pn == 0 or dn == 0) else 1
            side = 0 if (marks0 + depth) % 2 == 1 else 1  # the side that made the move
            unplace(cell, cnt, thr, thrn, fmove[depth], side, k)
            lpn[fbest[depth]] = pn
            ldn[fbest[depth]] = dn
            depth -= 1
            continue
        # The best child, with its thresholds (the 1 + epsilon trick).
        grown = INF if second_value >= INF else second_value + (second_value * epsilon) // 1000 + 1
        if or_node:
            child_thpn = min(fthpn[depth], grown)
            child_thdn = min(INF, fthdn[depth] - dn + best_dn)
        else:
            child_thdn = min(fthdn[depth], grown)
            child_thpn = min(INF, fthpn[depth] - pn + best_pn)
        c = cmove[best]
        ck = ckey[best]
        mover = 0 if (marks0 + depth) % 2 == 0 else 1
        place(cell, cnt, thr, thrn, c, mover, k)
        stats[ST_NODES] += 1
        spent += 1
        slot = table_find(tkey, ck)
        cflags = 0 if slot < 0 else tflags[slot]
        if (
            sim_budget > 0
            and not or_node
            and marks0 + depth + 1 > sym_plies
            and not cflags & FLAG_SIM_TRIED
        ):
            # A reply of the defender: first try the strategy of the sibling settled with the most
            # work (a reply elsewhere often leaves what won there standing).
            donor = -1
            donor_work = np.int64(1)
            for i in range(first, first + count):
                if i == best or lpn[i] != 0:
                    continue
                s2 = table_find(tkey, ckey[i])
                if s2 >= 0 and tpn[s2] == 0 and twork[s2] > donor_work:
                    donor = i
                    donor_work = twork[s2]
            if donor >= 0:
                stats[ST_SIM_TRIES] += 1
                before = stats[ST_SIM_NODES]
                r1 = cmove[donor]
                won = simulate(
                    bd,
                    a,
                    vcf_budget,
                    probe_budget,
                    vs,
                    plan,
                    replays,
                    tb,
                    sw,
                    fhash[depth] ^ zob[mover, c],
                    fhash[depth] ^ zob[mover, r1],
                    r1,
                    before + min(sim_budget, max(donor_work, SIM_FLOOR)),
                )
                spent += stats[ST_SIM_NODES] - before
                if won:
                    stats[ST_SIM_FOUND] += 1
                    unplace(cell, cnt, thr, thrn, c, mover, k)
                    lpn[best] = 0
                    ldn[best] = INF
                    continue
                table_mark(tb, ck, FLAG_SIM_TRIED)
                slot = table_find(tkey, ck)
                cflags = 0 if slot < 0 else tflags[slot]
        status, m = expand(bd, a, cflags, vcf_budget, vs, plan, moves, scores, stats)
        if status != 0:
            _store_status(tb, ck, status)
            unplace(cell, cnt, thr, thrn, c, mover, k)
            lpn[best] = 0 if status > 0 else INF
            ldn[best] = INF if status > 0 else 0
            continue
        child_or = mover != a
        if child_or and not cflags & FLAG_VCF_TRIED:
            table_mark(tb, ck, FLAG_VCF_TRIED)
        depth += 1
        fbest[depth] = best
        fmove[depth] = c
        fkey[depth] = ck
        fhash[depth] = fhash[depth - 1] ^ zob[mover, c]
        fthpn[depth] = child_thpn
        fthdn[depth] = child_thdn
        fstart[depth] = first + count
        fwork[depth] = stats[ST_NODES]
        f_or[depth] = 1 if child_or else 0
        end = _set_children(
            cell,
            zob,
            zsym,
            sym_plies,
            marks0 + depth,
            fhash[depth],
            1 - mover,
            moves,
            m,
            cmove,
            ckey,
            first + count,
            stats,
        )
        fcount[depth] = end - (first + count)
        _touch(tkey, ckey, first + count, end, vs[17])
        if child_or and not cflags & FLAG_MOVES_RATED:
            _init_moves(
                bd,
                a,
                probe_budget,
                vs,
                plan,
                tb,
                cmove,
                ckey,
                fstart[depth],
                fcount[depth],
                n - marks0 - depth - 1,
                fhash[depth],
                rated,
            )
            table_mark(tb, ck, FLAG_MOVES_RATED)
        if not child_or and not cflags & FLAG_REPLIES_TRIED:
            _try_replies(
                bd,
                a,
                probe_budget,
                vs,
                plan,
                replays,
                tb,
                cmove,
                ckey,
                fstart[depth],
                fcount[depth],
                fhash[depth],
            )
            table_mark(tb, ck, FLAG_REPLIES_TRIED)
        _read_numbers(tkey, tpn, tdn, ckey, lpn, ldn, fstart[depth], fcount[depth])
