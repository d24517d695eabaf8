"""Searching a tall board on its side: one orientation per board shape, whichever way it is asked.

A board of R rows and C columns and the board of C rows and R columns are the same game: turning
the board a quarter-turn and reflecting it (transposing: row r, column c goes to row c, column r)
carries lines onto lines. Yet the search is not indifferent to which of the two it is given: where
moves score alike it tries them in the order of the cells' numbers (row by row), and a win that a
search finds quickly when it reads along the long side it may find late when it reads across.
On the k=4 boards of docs/solved.md the wide orientation (no more rows than columns) was as quick
or quicker, and by far on 9 by 4 and 10 by 4 (``benchmarks/bench_orientation.py`` measures both
ways; figures in docs/performance.md).

So :func:`oxo.proofs.search.make_search` gives a tall board's question to a search of the wide
board and wraps it in :class:`Transposed`, which maps positions in and moves out: everything read
from it (values, moves, pairings, wins by threats, the certificate's entries) is in the board's own
orientation, and the certificate names the board as asked.
"""

from __future__ import annotations

from oxo.geometry import Geometry, Symmetry
from oxo.proofs.strategy import Entry, StrategyReader
from oxo.proofs.threats import Plan


def wide(geometry: Geometry) -> Geometry | None:
    """The wide orientation of a flat board with more rows than columns (``None`` for the others)."""
    if geometry.dimensions != 2:
        return None
    rows, cols = geometry.shape
    if rows <= cols:
        return None
    return Geometry((cols, rows), geometry.k)


def transposition(geometry: Geometry) -> Symmetry:
    """The map from ``geometry``'s cells to its transposed board's (row r, column c to row c,
    column r), as a permutation of cell numbers."""
    rows, cols = geometry.shape
    return Symmetry("transpose", tuple((i % cols) * rows + i // cols for i in range(rows * cols)))


class Transposed(StrategyReader):
    """A search of the transposed board, read in the board's own orientation.

    ``turn`` carries the board's cells to the searched board's; every position goes in through it
    and every cell comes out through its inverse. The strategy is the inner search's, each entry
    turned back, so its entries are the board's own."""

    def __init__(self, inner: StrategyReader, turn: Symmetry) -> None:
        self.inner = inner
        self._in = turn
        self._out = Symmetry("transpose back", turn.inverse_perm)
        self.attacker_is_x = inner.attacker_is_x
        self.nodes = inner.nodes
        self.rules = inner.rules  # the inner search reads its own strategy, rules and all

    def _pos(self, x: int, o: int) -> tuple[int, int]:
        return self._in.apply_mask(x), self._in.apply_mask(o)

    def _plan(self, plan: Plan) -> Plan:
        back = self._out.perm
        return Plan(
            back[plan.move],
            tuple((back[reply], self._plan(after)) for reply, after in plan.replies),
        )

    def solve(self, x: int = 0, o: int = 0) -> bool | None:
        answer = self.inner.solve(*self._pos(x, o))
        self.nodes = self.inner.nodes
        return answer

    def solve_until(
        self, x: int, o: int, seconds: float | None, max_nodes: int | None
    ) -> bool | None:
        answer = self.inner.solve_until(*self._pos(x, o), seconds, max_nodes)
        self.nodes = self.inner.nodes
        return answer

    def statistics(self) -> dict[str, int]:
        return self.inner.statistics()

    def expand(self, x: int, o: int, key: int | None = None) -> tuple[int, list[int]]:
        status, moves = self.inner.expand(*self._pos(x, o), key)
        back = self._out.perm
        return status, [back[move] for move in moves]

    def value_of(self, x: int, o: int) -> int:
        return self.inner.value_of(*self._pos(x, o))

    def settle(self, x: int, o: int) -> int:
        value = self.inner.settle(*self._pos(x, o))
        self.nodes = self.inner.nodes
        return value

    def numbers_of(self, x: int, o: int) -> tuple[int, int]:
        return self.inner.numbers_of(*self._pos(x, o))

    def key(self, x: int, o: int) -> int:
        return self.inner.key(*self._pos(x, o))

    def class_key(self, x: int, o: int) -> int:
        return self.inner.class_key(*self._pos(x, o))

    def threat_plan(self, x: int, o: int, key: int | None = None) -> tuple[int, int, Plan] | None:
        found = self.inner.threat_plan(*self._pos(x, o), key)
        if found is None:
            return None
        tx, to, plan = found
        return self._out.apply_mask(tx), self._out.apply_mask(to), self._plan(plan)

    def strategy(self, x: int = 0, o: int = 0) -> list[Entry]:
        """The inner search's strategy (its own reading, compiled where it is), turned back."""
        back = self._out
        cells = back.perm
        return [
            Entry(
                back.apply_mask(entry.x),
                back.apply_mask(entry.o),
                None if entry.move is None else cells[entry.move],
                None
                if entry.pairing is None
                else tuple((cells[a], cells[b]) for a, b in entry.pairing),
            )
            for entry in self.inner.strategy(*self._pos(x, o))
        ]

    def pairing(self, x: int, o: int, key: int | None = None) -> tuple[tuple[int, int], ...] | None:
        pairs = self.inner.pairing(*self._pos(x, o), key)
        if pairs is None:
            return None
        back = self._out.perm
        return tuple((back[a], back[b]) for a, b in pairs)
