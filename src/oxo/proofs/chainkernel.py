"""Compiled (numba) twins of the forced-chain search and of a position's class, for long walks.

:class:`CompiledChainSearch` answers as :class:`oxo.proofs.rules.ChainSearch` does (the same
definition, searched exhaustively to the bound, so the same verdicts; held to it in the tests), on
boards whose lines have one length: a position is two 64-bit masks on boards of at most 64 cells,
and on larger ones (4x4x4x4, 256 cells) each cell's owner and each line's counts, played and taken
back in place, with masks of several words as the table's keys and the few lines where a threat
can be kept as a set (:func:`_hot_update`), so that a position's scan looks at those alone. What
it learns is kept across calls in a table of fixed size (a position's verdict, "a chain of at most
d moves" or "none of at most d", does not depend on the call that found it), so a walk that asks
about many related positions, such as Patashnik's dictionary walk (:mod:`oxo.proofs.dictionary`),
pays once for what they share.

:class:`CompiledClasses` gives the key of a position's class under a list of cell permutations and
a permutation that carries it there, as :func:`oxo.proofs.symmetry.canonical` does (the same key and
the same permutation: the first that reaches the least image), from tables of bytes (on boards of
more than 64 cells, from the marked cells' images).

Masks go to the kernels as ``np.uint64``; every constant the kernels mix with them is one too (numba
turns ``uint64`` with ``int64`` into a float).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
from numba import njit

_ZERO = np.uint64(0)
_ONE = np.uint64(1)
_BYTE = np.uint64(0xFF)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX = np.uint64(0xBF58476D1CE4E5B9)
_MIX_B = np.uint64(0x94D049BB133111EB)
_SHIFT_A = np.uint64(30)
_SHIFT_B = np.uint64(27)
_SHIFT_C = np.uint64(31)
#: Slots of the table probed for a position before one is replaced.
_PROBES = 8
#: Positions a search to the full bound may visit before :meth:`CompiledChainSearch.exists` looks
#: for shorter chains first: a depth-first search that goes down a long forcing line that fails
#: can take millions of positions where a chain of six moves lies elsewhere.
BUDGET = 20_000
#: The bounds tried, in turn, when a search gives up.
DEEPENING = (4, 6, 8, 12, 16, 24)
#: Slots of the table (a power of two): 2**20 positions, 20 MiB.
TABLE_BITS = 20
#: The same past 64 cells, where a slot's key is a row of words (64 bytes on 4x4x4x4): 2**16
#: positions, 5 MiB. A checker's walk of a 4x4x4x4 certificate rarely asks about a position twice,
#: and the larger table's look-ups wait on memory: `oxo verify` of the certificate of the opening
#: 0-1 took 8 % less processor time with this one (docs/performance.md).
WIDE_TABLE_BITS = 16


@njit(cache=True)
def _slot(own: np.uint64, other: np.uint64, mask: np.uint64) -> np.int64:
    # splitmix64's finisher over both masks: every bit of either reaches the low bits (a product
    # alone leaves its low bits to the masks' low bits, and Qubic's top layer would collide).
    h = own * _GOLDEN ^ other
    h ^= h >> _SHIFT_A
    h *= _MIX
    h ^= h >> _SHIFT_B
    h *= _MIX_B
    h ^= h >> _SHIFT_C
    return np.int64(h & mask)


@njit(cache=True)
def _several(mask: np.uint64) -> bool:
    return bool((mask & (mask - _ONE)) != _ZERO)


@njit(cache=True)
def _scan(
    masks: np.ndarray, cells: np.ndarray, own: np.uint64, other: np.uint64, partners: np.ndarray
) -> np.uint64:
    """One pass over the lines (``masks[line]``, its cells ``cells[line]``): ``partners[c]`` gets,
    for each empty cell c where S would make a threat, the cells it would threaten (``partners`` is
    zero on entry); returns T's threats."""
    their = _ZERO
    for line in range(masks.shape[0]):
        mask = masks[line]
        if mask & other:
            if not mask & own:
                rest = mask & ~other
                if rest != _ZERO and not _several(rest):
                    their |= rest
            continue
        rest = mask & ~own
        if rest == _ZERO:
            continue
        higher = rest & (rest - _ONE)  # rest without its lowest cell: one cell left?
        if higher == _ZERO or _several(higher):
            continue
        low = rest ^ higher
        for i in range(cells.shape[1]):
            cell = cells[line, i]
            bit = _ONE << np.uint64(cell)
            if bit == low:
                partners[cell] |= higher
            elif bit == higher:
                partners[cell] |= low
    return their


@njit(cache=True)
def _exists(
    masks: np.ndarray,
    cells: np.ndarray,
    size: int,
    own: np.uint64,
    other: np.uint64,
    depth: int,
    keys: np.ndarray,
    values: np.ndarray,
    nodes: np.ndarray,
    scratch: np.ndarray,
    ages: np.ndarray,
) -> bool:
    """The definition of :class:`oxo.proofs.rules.ChainSearch`, with ``keys``/``values`` the table
    (``values``: d > 0, a chain of at most d moves; -d, none of at most d; 0, an empty slot);
    ``scratch[d]`` the partners of a search d moves from its bound. ``nodes[0]`` counts the
    positions searched; at ``nodes[2]`` of them the search gives up, sets ``nodes[1]`` and answers
    False, which then means nothing (and is not stored). ``ages[slot]``: the number ``nodes[3]`` of
    the search that stored the slot."""
    if nodes[0] >= nodes[2]:
        nodes[1] = 1
        return False
    nodes[0] += 1
    last = np.int64(values.shape[0] - 1)
    start = _slot(own, other, np.uint64(last))
    for probe in range(_PROBES):
        slot = (start + probe) & last
        known = values[slot]
        if known == 0:
            break
        if keys[slot, 0] == own and keys[slot, 1] == other:
            if (0 < known <= depth) or (-known >= depth):
                return bool(known > 0)
            break
    partners = scratch[depth]
    partners[:] = _ZERO
    their = _scan(masks, cells, own, other, partners)
    found = False
    if not _several(their):
        only = -1
        if their != _ZERO:
            for cell in range(size):
                if their >> np.uint64(cell) & _ONE:
                    only = cell
            for cell in range(size):
                if cell != only:
                    partners[cell] = _ZERO
        for cell in range(size):
            if _several(partners[cell]):
                found = True
                break
        if not found and depth >= 2:
            for cell in range(size):
                threatened = partners[cell]
                if threatened != _ZERO and _exists(
                    masks,
                    cells,
                    size,
                    own | _ONE << np.uint64(cell),
                    other | threatened,
                    depth - 1,
                    keys,
                    values,
                    nodes,
                    scratch,
                    ages,
                ):
                    found = True
                    break
                if nodes[1]:
                    return False
    verdict = depth if found else -depth
    # The position's own slot, else an empty one, else the one stored longest ago (by an earlier
    # search if any: a full table must not lose the entries of the search under way).
    target = np.int64(-1)
    oldest = start
    for probe in range(_PROBES):
        slot = (start + probe) & last
        if values[slot] == 0 or (keys[slot, 0] == own and keys[slot, 1] == other):
            target = slot
            break
        if ages[slot] < ages[oldest]:
            oldest = slot
    if target < 0:
        target = oldest
    keys[target, 0] = own
    keys[target, 1] = other
    values[target] = verdict
    ages[target] = nodes[3]
    return found


# -- boards of more than 64 cells ------------------------------------------------------------------
# A position is held as each cell's owner (0 empty, 1 the side S, 2 its opponent T), each line's
# count of S's and of T's marks, both sides' marks as masks of several 64-bit words (the table's
# exact key), a Zobrist hash of it (the table's slot only) and the set of lines a scan looks at.


@njit(cache=True)
def _hot_update(counts: np.ndarray, hot: np.ndarray, line: int, k: int) -> None:
    """Keep ``line`` in the set of lines a scan looks at (:func:`_wide_scan`) when it is one: S
    two marks short of it and T without a mark there (a move of S's on it makes a threat), or T
    one short and S without a mark (T threatens). ``hot[0, :n]`` holds the set's lines, ``n`` in
    ``hot[0, -1]``; ``hot[1, line]`` the line's place in it, -1 when out."""
    mine = counts[0, line]
    theirs = counts[1, line]
    wanted = (theirs == 0 and mine == k - 2) or (mine == 0 and theirs == k - 1)
    end = hot.shape[1] - 1
    place = hot[1, line]
    if wanted:
        if place < 0:
            n = hot[0, end]
            hot[0, n] = line
            hot[1, line] = n
            hot[0, end] = n + 1
    elif place >= 0:
        n = hot[0, end] - 1
        moved = hot[0, n]
        hot[0, place] = moved
        hot[1, moved] = place
        hot[1, line] = -1
        hot[0, end] = n


@njit(cache=True)
def _wide_flip(
    through: np.ndarray,
    counts: np.ndarray,
    owners: np.ndarray,
    words_of: np.ndarray,
    zobrist: np.ndarray,
    hashed: np.ndarray,
    hot: np.ndarray,
    k: int,
    cell: int,
    side: int,
    step: int,
) -> None:
    """Play ``side``'s mark on ``cell`` (``step`` 1) or take it back (``step`` -1)."""
    owners[cell] = side + 1 if step > 0 else 0
    for j in range(through.shape[1]):
        line = through[cell, j]
        if line < 0:
            break
        counts[side, line] += step
        _hot_update(counts, hot, line, k)
    words_of[side, cell >> 6] ^= _ONE << np.uint64(cell & 63)
    hashed[0] ^= zobrist[side, cell]


@njit(cache=True)
def _wide_load(
    through: np.ndarray,
    counts: np.ndarray,
    owners: np.ndarray,
    words_of: np.ndarray,
    zobrist: np.ndarray,
    hashed: np.ndarray,
    hot: np.ndarray,
    k: int,
    marks: np.ndarray,
) -> None:
    """Hold the position whose marks are ``marks`` (S's, then T's: each side's mask as 64-bit
    words, the lowest first), from the one held (``words_of``): the marks it lacks taken back
    first, then the new ones played. A walk asks about positions a few marks apart, so this
    touches a few cells' lines, where starting from empty touched every line."""
    n = words_of.shape[1]
    for turn in range(4 * n):  # each side's words: the marks taken back, then those played
        adding, side, w = turn >= 2 * n, turn // n % 2, turn % n
        held, wanted = words_of[side, w], marks[side * n + w]
        change = wanted & ~held if adding else held & ~wanted
        step = 1 if adding else -1
        bit = 0
        while change:
            if change & _ONE:
                cell = 64 * w + bit
                _wide_flip(
                    through, counts, owners, words_of, zobrist, hashed, hot, k, cell, side, step
                )
            change >>= _ONE
            bit += 1


@njit(cache=True)
def _hot_fill(counts: np.ndarray, hot: np.ndarray, k: int) -> None:
    """The set of :func:`_hot_update` made afresh from the lines' counts."""
    hot[1, :] = -1
    hot[0, -1] = 0
    for line in range(counts.shape[1]):
        _hot_update(counts, hot, line, k)


@njit(cache=True)
def _pair(
    firsts: np.ndarray, several: np.ndarray, listed: np.ndarray, cell: int, partner: int
) -> None:
    if firsts[cell] < 0:
        firsts[cell] = partner
        n = listed[-1]
        listed[n] = cell
        listed[-1] = n + 1
    elif firsts[cell] != partner:
        several[cell] = True


@njit(cache=True)
def _wide_scan(
    cells: np.ndarray,
    counts: np.ndarray,
    owners: np.ndarray,
    hot: np.ndarray,
    firsts: np.ndarray,
    several: np.ndarray,
    listed: np.ndarray,
) -> tuple[int, bool]:
    """One pass over the lines of the hot set (:func:`_hot_update`; the other lines can hold
    neither): ``firsts[c]`` gets a cell S would threaten by playing c (-1: none) and
    ``several[c]`` whether it would threaten two or more, and ``listed`` the cells c with a
    threat, in increasing order (their number in ``listed[-1]``); returns T's threat (-1: none)
    and whether T has two or more. ``firsts``, ``several`` and ``listed`` hold the last scan's
    answers on entry (-1, False and none at first): only its cells are cleared."""
    for i in range(listed[-1]):
        cell = listed[i]
        firsts[cell] = -1
        several[cell] = False
    listed[-1] = 0
    k = cells.shape[1]
    their = -1
    theirs = False
    for h in range(hot[0, -1]):
        line = hot[0, h]
        if counts[1, line]:  # T one short of the line, S without a mark on it
            for i in range(k):
                cell = cells[line, i]
                if owners[cell] == 0:
                    if their < 0:
                        their = cell
                    elif cell != their:
                        theirs = True
                    break
        else:  # S two short, T without a mark
            a = -1
            b = -1
            for i in range(k):
                cell = cells[line, i]
                if owners[cell] == 0:
                    if a < 0:
                        a = cell
                    else:
                        b = cell
            _pair(firsts, several, listed, a, b)
            _pair(firsts, several, listed, b, a)
    # in increasing order, as a pass over every cell meets them (few: an insertion sort)
    for i in range(1, listed[-1]):
        cell = listed[i]
        j = i - 1
        while j >= 0 and listed[j] > cell:
            listed[j + 1] = listed[j]
            j -= 1
        listed[j + 1] = cell
    return their, theirs


@njit(cache=True)
def _wide_same(keys: np.ndarray, slot: np.int64, words_of: np.ndarray) -> bool:
    n = words_of.shape[1]
    for w in range(n):
        if keys[slot, w] != words_of[0, w] or keys[slot, n + w] != words_of[1, w]:
            return False
    return True


@njit(cache=True)
def _wide_exists(
    cells: np.ndarray,
    through: np.ndarray,
    counts: np.ndarray,
    owners: np.ndarray,
    words_of: np.ndarray,
    zobrist: np.ndarray,
    hashed: np.ndarray,
    hot: np.ndarray,
    depth: int,
    keys: np.ndarray,
    values: np.ndarray,
    nodes: np.ndarray,
    firsts: np.ndarray,
    several: np.ndarray,
    listed: np.ndarray,
    ages: np.ndarray,
) -> bool:
    """:func:`_exists` on a board of any size: the position is the one held in ``counts``,
    ``owners``, ``words_of``, ``hashed`` and ``hot`` (played and taken back in place),
    ``firsts[d]``, ``several[d]`` and ``listed[d]`` the scan of a search d moves from its bound
    (:func:`_wide_scan`); the table's keys are both sides' masks, word by word."""
    if nodes[0] >= nodes[2]:
        nodes[1] = 1
        return False
    nodes[0] += 1
    last = np.int64(values.shape[0] - 1)
    start = np.int64(hashed[0] & np.uint64(last))
    for probe in range(_PROBES):
        slot = (start + probe) & last
        known = values[slot]
        if known == 0:
            break
        if _wide_same(keys, slot, words_of):
            if (0 < known <= depth) or (-known >= depth):
                return bool(known > 0)
            break
    first = firsts[depth]
    many = several[depth]
    threatening = listed[depth]
    their, theirs = _wide_scan(cells, counts, owners, hot, first, many, threatening)
    found = False
    if not theirs:
        count = threatening[-1]
        for i in range(count):
            cell = threatening[i]
            if (their < 0 or cell == their) and many[cell]:
                found = True
                break
        if not found and depth >= 2:
            k = cells.shape[1]
            for i in range(count):
                cell = threatening[i]
                block = first[cell]
                if their >= 0 and cell != their:
                    continue
                _wide_flip(through, counts, owners, words_of, zobrist, hashed, hot, k, cell, 0, 1)
                _wide_flip(through, counts, owners, words_of, zobrist, hashed, hot, k, block, 1, 1)
                deeper = _wide_exists(
                    cells,
                    through,
                    counts,
                    owners,
                    words_of,
                    zobrist,
                    hashed,
                    hot,
                    depth - 1,
                    keys,
                    values,
                    nodes,
                    firsts,
                    several,
                    listed,
                    ages,
                )
                _wide_flip(through, counts, owners, words_of, zobrist, hashed, hot, k, block, 1, -1)
                _wide_flip(through, counts, owners, words_of, zobrist, hashed, hot, k, cell, 0, -1)
                if deeper:
                    found = True
                    break
                if nodes[1]:
                    return False
    verdict = depth if found else -depth
    target = np.int64(-1)
    oldest = start
    for probe in range(_PROBES):
        slot = (start + probe) & last
        if values[slot] == 0 or _wide_same(keys, slot, words_of):
            target = slot
            break
        if ages[slot] < ages[oldest]:
            oldest = slot
    if target < 0:
        target = oldest
    n = words_of.shape[1]
    for w in range(n):
        keys[target, w] = words_of[0, w]
        keys[target, n + w] = words_of[1, w]
    values[target] = verdict
    ages[target] = nodes[3]
    return found


def _as_words(own: int, other: int, words: int) -> np.ndarray:
    """Both masks as ``words`` 64-bit words each, the lowest first, ``own``'s then ``other``'s: a
    position as the kernels past 64 cells take it."""
    size = 8 * words
    return np.frombuffer(own.to_bytes(size, "little") + other.to_bytes(size, "little"), "<u8")


def _scan_rows(depths: int, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows for :func:`_wide_scan` at ``depths`` depths on ``size`` cells, as it wants them on
    entry: every ``firsts`` -1, every ``several`` False, no cell listed."""
    return (
        np.full((depths, size), -1, dtype=np.int64),
        np.zeros((depths, size), dtype=np.bool_),
        np.zeros((depths, size + 1), dtype=np.int64),
    )


class _WideBoard:
    """The arrays :func:`_wide_exists` plays on, for a board of ``size`` cells whose lines are the
    rows of ``cells``."""

    def __init__(self, cells: np.ndarray, size: int) -> None:
        self.cells = cells
        self.words = (size + 63) // 64
        on: list[list[int]] = [[] for _ in range(size)]
        for line, row in enumerate(cells.tolist()):
            for cell in row:
                on[cell].append(line)
        self.through = np.full((size, max(map(len, on), default=0)), -1, dtype=np.int64)
        for cell, lines in enumerate(on):
            self.through[cell, : len(lines)] = lines
        self.counts = np.zeros((2, len(cells)), dtype=np.int64)
        self.owners = np.zeros(size, dtype=np.int64)
        self.words_of = np.zeros((2, self.words), dtype=np.uint64)
        rng = np.random.default_rng(20261129)
        self.zobrist = rng.integers(0, 1 << 63, size=(2, size), dtype=np.int64).astype(np.uint64)
        self.hashed = np.zeros(1, dtype=np.uint64)
        #: The lines a scan looks at (:func:`_hot_update`): on the empty board, with k = 2,
        #: every line; kept as marks are played and taken back.
        self.hot = np.full((2, len(cells) + 1), -1, dtype=np.int64)
        self.k = int(cells.shape[1])
        _hot_fill(self.counts, self.hot, self.k)

    def load(self, own: int, other: int) -> None:
        """Hold the position: S's marks ``own``, T's ``other``."""
        marks = _as_words(own, other, self.words)
        _wide_load(
            self.through,
            self.counts,
            self.owners,
            self.words_of,
            self.zobrist,
            self.hashed,
            self.hot,
            self.k,
            marks,
        )

    def scan(self, own: int, other: int) -> tuple[list[int], list[bool], int, bool]:
        """:func:`_wide_scan` of the position: for each cell a cell S would threaten by playing it
        (-1: none) and whether it would threaten several; T's threat (-1: none) and whether T has
        several."""
        self.load(own, other)
        firsts, several, listed = _scan_rows(1, len(self.owners))
        their, theirs = _wide_scan(
            self.cells, self.counts, self.owners, self.hot, firsts[0], several[0], listed[0]
        )
        firsts, several = firsts[0], several[0]
        return firsts.tolist(), several.tolist(), int(their), bool(theirs)


class CompiledChainSearch:
    """:class:`oxo.proofs.rules.ChainSearch` compiled, its verdicts kept across calls (see the
    module's description); ``lines`` the board's lines as cell tuples (one length). Boards of at
    most 64 cells hold a position in two 64-bit masks; larger ones (4x4x4x4: 256 cells) in line
    counts, cells and masks of several words (:func:`_wide_exists`)."""

    def __init__(
        self, line_cells: Sequence[Sequence[int]], size: int, table_bits: int | None = None
    ) -> None:
        self.cells = np.array(line_cells, dtype=np.int64)
        self.size = size
        self.wide = size > 64
        if table_bits is None:
            table_bits = WIDE_TABLE_BITS if self.wide else TABLE_BITS
        #: Positions searched, a flag set when a search gave up, where it gives up, and the number
        #: of the search under way.
        self._nodes = np.zeros(4, dtype=np.int64)
        self._ages = np.zeros(1 << table_bits, dtype=np.int64)
        self.values = np.zeros(1 << table_bits, dtype=np.int64)
        if self.wide:
            self._board = _WideBoard(self.cells, size)
            self.keys = np.zeros((1 << table_bits, 2 * self._board.words), dtype=np.uint64)
            self._firsts, self._several, self._listed = _scan_rows(33, size)
        else:
            self.masks = np.array(
                [sum(1 << c for c in line) for line in line_cells], dtype=np.uint64
            )
            self.keys = np.zeros((1 << table_bits, 2), dtype=np.uint64)
            self._scratch = np.zeros((33, size), dtype=np.uint64)

    @property
    def nodes(self) -> int:
        """Positions the searches looked at (for measurements)."""
        return int(self._nodes[0])

    def exists(self, own: int, other: int, depth: int) -> bool:
        """As :meth:`oxo.proofs.rules.ChainSearch.exists`."""
        if depth < 1:
            return False
        if self.wide and depth >= len(self._firsts):
            self._firsts, self._several, self._listed = _scan_rows(depth + 1, self.size)
        elif not self.wide and depth >= len(self._scratch):
            self._scratch = np.zeros((depth + 1, self.size), dtype=np.uint64)
        if depth > DEEPENING[0]:
            found = self._search(own, other, depth, BUDGET)
            if found is not None:
                return found
            # A deep search that went astray: look for short chains first.
            for bound in DEEPENING:
                if bound >= depth:
                    break
                if self._search(own, other, bound, None):
                    return True
        return bool(self._search(own, other, depth, None))

    def _search(self, own: int, other: int, depth: int, budget: int | None) -> bool | None:
        """The kernel's answer, or None when it gave up after ``budget`` more positions."""
        self._nodes[1] = 0
        self._nodes[3] += 1
        self._nodes[2] = np.iinfo(np.int64).max if budget is None else self._nodes[0] + budget
        if self.wide:
            board = self._board
            board.load(own, other)
            found = bool(
                _wide_exists(
                    board.cells,
                    board.through,
                    board.counts,
                    board.owners,
                    board.words_of,
                    board.zobrist,
                    board.hashed,
                    board.hot,
                    depth,
                    self.keys,
                    self.values,
                    self._nodes,
                    self._firsts,
                    self._several,
                    self._listed,
                    self._ages,
                )
            )
            return None if self._nodes[1] else found
        found = bool(
            _exists(
                self.masks,
                self.cells,
                self.size,
                np.uint64(own),
                np.uint64(other),
                depth,
                self.keys,
                self.values,
                self._nodes,
                self._scratch,
                self._ages,
            )
        )
        return None if self._nodes[1] else found

    def length(self, own: int, other: int, bound: int) -> int | None:
        """As :meth:`oxo.proofs.rules.ChainSearch.length`."""
        from oxo.proofs.rules import least_depth

        return least_depth(lambda depth: self.exists(own, other, depth), bound)

    def moves(self, own: int, other: int, depth: int) -> list[int]:
        """As :meth:`oxo.proofs.rules.ChainSearch.moves`."""
        return list(self._starts(own, other, depth))

    def first_move(self, own: int, other: int, depth: int) -> int | None:
        """As :meth:`oxo.proofs.rules.ChainSearch.first_move`."""
        return next(self._starts(own, other, depth), None)

    def _starts(self, own: int, other: int, depth: int) -> Iterator[int]:
        """The moves that start a forced chain of at most ``depth`` moves, in increasing order,
        each searched only when asked for (``first_move`` stops at the first)."""
        if depth < 1:
            return
        if self.wide:
            firsts, several, their, theirs = self._board.scan(own, other)
        else:
            masks = np.zeros(self.size, dtype=np.uint64)
            found = int(_scan(self.masks, self.cells, np.uint64(own), np.uint64(other), masks))
            their, theirs = found.bit_length() - 1, bool(found & (found - 1))
            threatened = [int(mask) for mask in masks]
            firsts = [mask.bit_length() - 1 for mask in threatened]
            several = [bool(mask & (mask - 1)) for mask in threatened]
        if theirs:
            return
        for move in range(self.size):
            if firsts[move] < 0 or (their >= 0 and move != their):
                continue
            if several[move] or (
                depth >= 2 and self.exists(own | 1 << move, other | 1 << firsts[move], depth - 1)
            ):
                yield move


@njit(cache=True)
def _least(tables: np.ndarray, x: np.uint64, o: np.uint64) -> tuple[np.uint64, np.uint64, int]:
    best_x = ~_ZERO
    best_o = ~_ZERO
    best = -1
    for s in range(tables.shape[0]):
        image_x = _ZERO
        for b in range(tables.shape[1]):
            image_x |= tables[s, b, (x >> np.uint64(8 * b)) & _BYTE]
        if best >= 0 and image_x > best_x:
            continue
        image_o = _ZERO
        for b in range(tables.shape[1]):
            image_o |= tables[s, b, (o >> np.uint64(8 * b)) & _BYTE]
        if best < 0 or image_x < best_x or image_o < best_o:
            best_x, best_o, best = image_x, image_o, s
    return best_x, best_o, best


@njit(cache=True)
def _image(targets: np.ndarray, s: int, marked: np.ndarray, out: np.ndarray) -> None:
    out[:] = _ZERO
    for i in range(marked.shape[0]):
        cell = targets[s, marked[i]]
        out[cell >> 6] |= _ONE << np.uint64(cell & 63)


@njit(cache=True)
def _below(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether the number of words ``a`` (the least first) is below ``b``'s."""
    for w in range(a.shape[0] - 1, -1, -1):
        if a[w] != b[w]:
            return bool(a[w] < b[w])
    return False


@njit(cache=True)
def _wide_least(targets: np.ndarray, xs: np.ndarray, os: np.ndarray, words: np.ndarray) -> int:
    """:func:`_least` on a board of any size: ``targets[s, cell]`` where symmetry s sends the cell,
    ``xs`` and ``os`` the marked cells; the least images (X's, then O's) go to ``words``."""
    best = -1
    image_x = np.zeros(words.shape[1], dtype=np.uint64)
    image_o = np.zeros(words.shape[1], dtype=np.uint64)
    for s in range(targets.shape[0]):
        _image(targets, s, xs, image_x)
        if best >= 0 and _below(words[0], image_x):
            continue
        _image(targets, s, os, image_o)
        if best < 0 or _below(image_x, words[0]) or _below(image_o, words[1]):
            words[0, :] = image_x
            words[1, :] = image_o
            best = s
    return best


@njit(cache=True)
def _cells_of(marks: np.ndarray, side: int, out: np.ndarray) -> int:
    """The cells of side ``side``'s mask in ``marks`` (both sides' masks as words, as
    :func:`_wide_load` takes them) into ``out``, in increasing order; their number."""
    n = marks.shape[0] // 2
    count = 0
    for w in range(n):
        word = marks[side * n + w]
        bit = 0
        while word:
            if word & _ONE:
                out[count] = 64 * w + bit
                count += 1
            word >>= _ONE
            bit += 1
    return count


@njit(cache=True)
def _wide_least_of(
    targets: np.ndarray, marks: np.ndarray, words: np.ndarray, cells: np.ndarray
) -> int:
    """:func:`_wide_least` of the position whose masks are the words ``marks``."""
    xs = _cells_of(marks, 0, cells[0])
    os = _cells_of(marks, 1, cells[1])
    return _wide_least(targets, cells[0, :xs], cells[1, :os], words)


class CompiledClasses:
    """Classes of positions under ``perms`` (cell permutations of a board of ``size`` cells), as
    :func:`oxo.proofs.symmetry.canonical` gives them: on at most 64 cells from tables of bytes, on
    more from the marked cells (a position of a walk has few)."""

    def __init__(self, perms: Sequence[Sequence[int]], size: int) -> None:
        self.size = size
        self.wide = size > 64
        if self.wide:
            self.targets = np.array(perms, dtype=np.int64)
            self.words = np.zeros((2, (size + 63) // 64), dtype=np.uint64)
            self._cells = np.zeros((2, size), dtype=np.int64)
            return
        count = (size + 7) // 8
        tables = np.zeros((len(perms), count, 256), dtype=np.uint64)
        values = np.arange(256)
        targets = np.array(perms, dtype=np.uint64)  # targets[s, cell]: where s sends the cell
        for cell in range(size):
            b, bit = divmod(cell, 8)
            has = (values >> bit & 1).astype(bool)
            tables[:, b, has] |= (np.uint64(1) << targets[:, cell])[:, None]
        self.tables = tables

    def canonical(self, x: int, o: int) -> tuple[int, int]:
        """The class's key (``X << size | O`` of its least image) and the index of a permutation
        that carries the position there (the first that does)."""
        if self.wide:
            marks = _as_words(x, o, self.words.shape[1])
            index = _wide_least_of(self.targets, marks, self.words, self._cells)
            image_x = int.from_bytes(self.words[0].tobytes(), "little")
            image_o = int.from_bytes(self.words[1].tobytes(), "little")
            return image_x << self.size | image_o, int(index)
        least_x, least_o, index = _least(self.tables, np.uint64(x), np.uint64(o))
        return int(least_x) << self.size | int(least_o), int(index)
