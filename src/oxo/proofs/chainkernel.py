"""Compiled (numba) twins of the forced-chain search and of a position's class, for long walks.

:class:`CompiledChainSearch` answers as :class:`oxo.proofs.rules.ChainSearch` does (the same
definition, searched exhaustively to the bound, so the same verdicts; held to it in the tests), on
boards of at most 64 cells whose lines have one length. What it learns is kept across calls in a
table of fixed size (a position's verdict, "a chain of at most d moves" or "none of at most d", does
not depend on the call that found it), so a walk that asks about many related positions, such as
Patashnik's dictionary walk (:mod:`oxo.proofs.dictionary`), pays once for what they share.

:class:`CompiledClasses` gives the key of a position's class under a list of cell permutations and
a permutation that carries it there, as :func:`oxo.proofs.symmetry.canonical` does (the same key and
the same permutation: the first that reaches the least image), from tables of bytes.

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


class CompiledChainSearch:
    """:class:`oxo.proofs.rules.ChainSearch` compiled, its verdicts kept across calls (see the
    module's description); ``lines`` the board's lines as cell tuples (one length), on ``size`` <= 64
    cells."""

    def __init__(
        self, line_cells: Sequence[Sequence[int]], size: int, table_bits: int = TABLE_BITS
    ) -> None:
        if size > 64:
            raise ValueError(f"a board of {size} cells: the compiled chain search takes 64 at most")
        self.cells = np.array(line_cells, dtype=np.int64)
        self.masks = np.array([sum(1 << c for c in line) for line in line_cells], dtype=np.uint64)
        self.size = size
        self.keys = np.zeros((1 << table_bits, 2), dtype=np.uint64)
        self.values = np.zeros(1 << table_bits, dtype=np.int64)
        #: Positions searched, a flag set when a search gave up, where it gives up, and the number
        #: of the search under way.
        self._nodes = np.zeros(4, dtype=np.int64)
        self._ages = np.zeros(1 << table_bits, dtype=np.int64)
        self._scratch = np.zeros((33, size), dtype=np.uint64)

    @property
    def nodes(self) -> int:
        """Positions the searches looked at (for measurements)."""
        return int(self._nodes[0])

    def exists(self, own: int, other: int, depth: int) -> bool:
        """As :meth:`oxo.proofs.rules.ChainSearch.exists`."""
        if depth < 1:
            return False
        if depth >= len(self._scratch):
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
        partners = np.zeros(self.size, dtype=np.uint64)
        their = int(_scan(self.masks, self.cells, np.uint64(own), np.uint64(other), partners))
        if their & (their - 1):
            return
        for move in range(self.size):
            threatened = int(partners[move])
            if not threatened or (their and their != 1 << move):
                continue
            if threatened & (threatened - 1) or (
                depth >= 2 and self.exists(own | 1 << move, other | threatened, depth - 1)
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


class CompiledClasses:
    """Classes of positions under ``perms`` (cell permutations of a board of ``size`` <= 64 cells),
    as :func:`oxo.proofs.symmetry.canonical` gives them."""

    def __init__(self, perms: Sequence[Sequence[int]], size: int) -> None:
        if size > 64:
            raise ValueError(f"a board of {size} cells: compiled classes take 64 at most")
        self.size = size
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
        least_x, least_o, index = _least(self.tables, np.uint64(x), np.uint64(o))
        return int(least_x) << self.size | int(least_o), int(index)
