"""Reading a settled search back out as a strategy: the entries of a certificate.

Both searches (the compiled :class:`oxo.proofs.dfpn.ProofSearch` and the slow
:class:`oxo.proofs.reference.ReferenceSearch`) settle positions and keep what they learnt in a
table; :class:`StrategyReader` walks from the root through the settled positions and writes down the
strategy side's move wherever it is to move and every reply of the other side, with pairings and
wins by threats written out where they settled a position (see :mod:`oxo.proofs.certificate`), or
left to the certificate's chain rule where the search names one (:attr:`StrategyReader.rules`).
"""

from __future__ import annotations

from dataclasses import dataclass

from oxo.geometry import play
from oxo.proofs.rules import Rules, chain_witness
from oxo.proofs.threats import Plan

#: Positions the first round of :meth:`StrategyReader.keeping_move` gives the first child it tries
#: (the later ones less, and each round twice the last).
SETTLE_FIRST = 1 << 12


@dataclass(frozen=True)
class Entry:
    """One line of a certificate: a position (X and O masks, in the orientation met) and either the
    move of the strategy's side, or a pairing for it."""

    x: int
    o: int
    move: int | None = None
    pairing: tuple[tuple[int, int], ...] | None = None


class StrategyReader:
    """What a search must offer for its strategy to be read (``expand``, ``value_of``, ``key``,
    ``threat_plan``, ``pairing``, ``attacker_is_x``), and the reading itself."""

    attacker_is_x: bool
    #: Positions searched so far.
    nodes: int
    #: The rules the certificate of a win read from this search names (its header's ``rules``,
    #: :mod:`oxo.proofs.rules`): with the chain rule, a win by threats that is a forced chain within
    #: its bound is left to the rule, no entry written (the checker finds the chain itself). The
    #: plain searches name none; their wins by threats are played out.
    rules: Rules = Rules()
    #: The board's lines (bitmasks) the chain rule is checked against, and for each cell those
    #: through it (with :attr:`rules` only).
    rule_lines: tuple[int, ...] = ()
    rule_through: tuple[tuple[int, ...], ...] = ()

    def solve(self, x: int = 0, o: int = 0) -> bool | None:
        """True when the attacker can force a line from (x, o), False when it cannot, None when the
        search's budget ran out first."""
        raise NotImplementedError

    def solve_until(
        self, x: int, o: int, seconds: float | None, max_nodes: int | None
    ) -> bool | None:
        """:meth:`solve` within these bounds (None: none) instead of the search's own; ``max_nodes``
        counts every position the search has searched, calls before included. What a call learns
        stays in the table, so a later call goes on from where it stopped."""
        raise NotImplementedError

    def statistics(self) -> dict[str, int]:
        """What the search did, by name (positions searched, table entries, ...)."""
        raise NotImplementedError

    def expand(self, x: int, o: int, key: int | None = None) -> tuple[int, list[int]]:
        """``(1, [])`` proven (``2``: by threats), ``(-1, [])`` disproven (``-2``: by a pairing), or
        ``(0, moves)``: the moves worth searching."""
        raise NotImplementedError

    def value_of(self, x: int, o: int) -> int:
        """1 proven, -1 disproven, 0 unknown."""
        raise NotImplementedError

    def key(self, x: int, o: int) -> int:
        """The key of the position's class under the symmetries the search uses."""
        raise NotImplementedError

    def class_key(self, x: int, o: int) -> int:
        """The key of the position's class under the board's own symmetries, those a certificate's
        checker uses (a search may know more, such as Qubic's inside-out symmetry)."""
        return self.key(x, o)

    def threat_plan(self, x: int, o: int, key: int | None = None) -> tuple[int, int, Plan] | None:
        """The attacker's win by threats as (x, o, plan) in some orientation of the position."""
        raise NotImplementedError

    def pairing(self, x: int, o: int, key: int | None = None) -> tuple[tuple[int, int], ...] | None:
        """The defender's pairing in (x, o), in that orientation."""
        raise NotImplementedError

    def numbers_of(self, x: int, o: int) -> tuple[int, int]:
        """(proof number, disproof number) the search left for (x, o); when it never looked, those
        the position starts from (1, 1 unless the search starts them from what the board shows)."""
        raise NotImplementedError

    def settle(self, x: int, o: int) -> int:
        """The value of a position the strategy needs (1 or -1), searching again if the table no
        longer holds it. The reference keeps everything, so it never needs to."""
        return self.value_of(x, o)

    def keeping_move(
        self, children: list[tuple[int, tuple[int, int]]], target: int
    ) -> tuple[int, tuple[int, int]] | None:
        """The first ``(move, (x, o))`` of ``children`` (the strategy side's moves) whose position
        has the value ``target``: one the table or the board settles already, else one found by
        searching them again, in rounds: the most promising first (by the numbers the table left,
        then the search's order), each within a number of positions that is the round's share
        divided by its rank, the share doubling each round; a child settled the other way drops
        out. None when none keeps the value.

        The search settled the parent, so one child keeps its value; searching the first child to
        the end could mean proving that it does not, which may take far longer than proving the
        one that does: reading a fragment of Qubic's run, with X's first move at the 16-mark
        position not settled in 300,000 positions where the second was proved in 4,371, the
        unbounded search of the first held the job for over a quarter of an hour."""
        known = []
        for move, child in children:
            value = self.value_of(*child)
            if value == target:
                return move, child
            known.append((move, child, value))
        index = 0 if target > 0 else 1
        left = [(move, child) for move, child, value in known if not value]
        left.sort(key=lambda item: self.numbers_of(*item[1])[index])
        share = SETTLE_FIRST
        while left:
            for rank, (move, child) in enumerate(list(left)):
                found = self.solve_until(*child, None, self.nodes + max(1, share // (rank + 1)))
                if found is None:
                    continue
                if (1 if found else -1) == target:
                    return move, child
                left.remove((move, child))
            share *= 2
        return None

    def first_moves(self, x: int = 0, o: int = 0) -> dict[str, list[int]]:
        """The moves from (x, o), one per class of mirror images, by what the search knows of them for
        the attacker: ``"win"`` (the attacker wins after it), ``"no win"`` and ``"open"``."""
        out: dict[str, list[int]] = {"win": [], "no win": [], "open": []}
        status, moves = self.expand(x, o)
        if status:
            return out
        seen = set()
        for move in moves:
            cx, co = play(x, o, move)
            ckey = self.class_key(cx, co)
            if ckey in seen:
                continue
            seen.add(ckey)
            value = self.value_of(cx, co)
            out["win" if value > 0 else "no win" if value < 0 else "open"].append(move)
        return out

    def strategy(self, x: int = 0, o: int = 0) -> list[Entry]:
        """The certificate entries of the settled root: the attacker's winning strategy when proven, the
        defender's drawing (no-loss) strategy when disproven."""
        root = self.value_of(x, o)
        if root == 0:
            raise ValueError("the position is not settled: run solve() first")
        proving = root > 0
        side_is_x = self.attacker_is_x if proving else not self.attacker_is_x
        entries: list[Entry] = []
        done: set[int] = set()
        stack = [(x, o)]
        target = 1 if proving else -1
        while stack:
            x, o = stack.pop()
            key = self.class_key(x, o)
            if key in done:
                continue
            done.add(key)
            status, moves = self.expand(x, o)
            if status:
                if (status > 0) != proving:
                    raise AssertionError("a settled strategy reached a position of the wrong value")
                if status == 2:
                    entries.extend(self._threat_entries(x, o))
                if status == -2:
                    # The defender draws by pairing from here: record the pairs so that a checker
                    # can confirm them.
                    pairs = self.pairing(x, o)
                    assert pairs is not None, "a pairing found once is found again"
                    entries.append(Entry(x, o, pairing=pairs))
                continue
            side_to_move = (x.bit_count() == o.bit_count()) == side_is_x
            children = [(move, play(x, o, move)) for move in moves]
            if side_to_move:
                # The table may have let the deciding child go: then settle the children again.
                kept = self.keeping_move(children, target)
                if kept is None:
                    raise AssertionError("no move keeps a settled value")
                move, child = kept
                entries.append(Entry(x, o, move=move))
                stack.append(child)
            else:
                for _, (cx, co) in children:
                    value = self.value_of(cx, co)
                    if value == 0:
                        value = self.settle(cx, co)
                    if value != target:
                        raise AssertionError("a reply escapes a settled strategy")
                    stack.append((cx, co))
        return entries

    def _threat_entries(self, x: int, o: int) -> list[Entry]:
        """The attacker's moves along its win by threats, played out against every defender reply that
        does not lose at once (after the others the attacker completes a line, which needs no entry);
        none where :attr:`rules` has the chain rule and the win is a forced chain within its bound."""
        found = self.threat_plan(x, o)
        assert found is not None, "a threat win found once is found again"
        cx, co, plan = found
        if self.rules.chain and self._is_chain(cx, co, plan):
            return []
        entries: list[Entry] = []
        stack = [(cx, co, plan)]
        while stack:
            x, o, plan = stack.pop()
            entries.append(Entry(x, o, move=plan.move))
            if self.attacker_is_x:
                x |= 1 << plan.move
            else:
                o |= 1 << plan.move
            for reply, after in plan.replies:
                stack.append(
                    (x, o | 1 << reply, after) if self.attacker_is_x else (x | 1 << reply, o, after)
                )
        return entries

    def _is_chain(self, x: int, o: int, plan: Plan) -> bool:
        """Whether the attacker's win ``plan`` from (x, o) is a forced chain within the chain rule's
        bound (:func:`oxo.proofs.rules.chain_witness`: the plan's one line of play checked step by
        step, so the rule accepts the position for certain)."""
        steps = {-1: plan}

        def path(taken: int) -> int | None:
            step = steps.pop(taken, None)
            if step is None:
                return None
            steps.clear()
            steps.update(step.replies)
            return step.move

        own, other = (x, o) if self.attacker_is_x else (o, x)
        return chain_witness(
            self.rule_lines, own, other, path, self.rules.chain, self.rule_through or None
        )


class TableSearch(StrategyReader):
    """A compiled df-pn (:mod:`oxo.proofs.dfpn`, :mod:`oxo.proofs.wide`): its numbers in a table
    that calls go on from, each call within its bounds of time and positions (``seconds``,
    ``max_nodes``: None for none). What both searches read from that table is here, once."""

    seconds: float | None
    max_nodes: int | None

    def solve_until(
        self, x: int, o: int, seconds: float | None, max_nodes: int | None
    ) -> bool | None:
        saved = self.seconds, self.max_nodes
        self.seconds, self.max_nodes = seconds, max_nodes
        try:
            return self.solve(x, o)
        finally:
            self.seconds, self.max_nodes = saved

    def _table_value(self, x: int, o: int) -> int:
        """1 proven, -1 disproven, 0 unknown, as the table holds (x, o) now."""
        pn, dn = self.numbers_of(x, o)
        return 1 if pn == 0 else -1 if dn == 0 else 0

    def value_of(self, x: int, o: int) -> int:
        """1 proven, -1 disproven, 0 unknown, for a position the search has settled or can settle at once."""
        value = self._table_value(x, o)
        if value:
            return value
        status, _ = self.expand(x, o)
        return 0 if status == 0 else 1 if status > 0 else -1

    def settle(self, x: int, o: int) -> int:
        """The value of (x, o), searching it again when the table let it go (for reading a strategy)."""
        value = self.value_of(x, o)
        if value:
            return value
        result = self.solve_until(x, o, None, None)
        return 0 if result is None else 1 if result else -1
