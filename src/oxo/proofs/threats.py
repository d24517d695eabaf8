"""Threat-space search: wins of the attacker made of threats the defender must answer.

The attacker S is to move. A *four* is a move after which a line of S lacks one mark and holds no
mark of the defender D: D must take that cell at once or lose. A *double four* leaves two such cells
(on different lines): D can take only one. So a sequence of fours, each answered by its forced block,
that ends in a double four (or a completed line) wins whatever D does, and it is found without
looking at D's quiet moves: every reply but the block loses at once.

The search also knows one step more (Thomsen's lambda-2 threats): a *three* is a move that makes no
four but leaves S a double four to play next. D's replies then split into the *defences* (the cells
of the coming double fours, where every one of them is spoilt, and the cells where D makes a four of
its own) and all other replies, after which S plays a double four still standing. Each defence is
searched on (as D's forced replies are), so a three is tried only when it leaves few defences. By
default a three is tried only as the first move of a plan, the rest being fours.

A found win is a :class:`Plan`: S's move, and for D's replies that do not lose at once the plan after
each. A plan can be played out against every defence into certificate entries (see
:mod:`oxo.proofs.dfpn`); the checker in :mod:`oxo.proofs.certificate` then confirms it by playing.
"""

from __future__ import annotations

from dataclasses import dataclass

from oxo.geometry import completing_cells, mask_cells

#: Searched positions (and moves tried) a threat search may visit before it gives up: small, since
#: most positions have no win by threats and the search runs at every position of the attacker.
BUDGET = 20
#: The most defences a three may leave and still be searched on.
MAX_DEFENCES = 4


@dataclass(frozen=True)
class Plan:
    """S plays ``move``; ``replies`` gives the plan after each of D's replies that does not lose at
    once (after every reply not listed, S completes a line with its next move)."""

    move: int
    replies: tuple[tuple[int, Plan], ...] = ()

    def size(self) -> int:
        """The number of S moves in the plan (the certificate entries it becomes, at most)."""
        return 1 + sum(plan.size() for _, plan in self.replies)


class _OutOfBudget(Exception):
    pass


class ThreatSearch:
    """Threat-space search over the ``lines`` (bitmasks) of a board whose cells are ``full``.

    ``threes`` allows the lambda-2 threats (threes) besides fours: as the plan's first move only, or
    anywhere in it with ``deep_threes`` (which finds more wins but costs more time on the positions
    where none is found; on the boards of docs/solved.md the first move only is the better trade);
    ``budget`` bounds the positions visited by one :meth:`find`.
    """

    def __init__(
        self,
        lines: tuple[int, ...],
        lines_through: tuple[tuple[int, ...], ...] | list[list[int]],
        full: int,
        *,
        threes: bool = True,
        deep_threes: bool = False,
        budget: int = BUDGET,
    ) -> None:
        self.lines = lines
        self.through = lines_through
        self.full = full
        self.threes = threes
        self.deep_threes = deep_threes
        self.budget = budget
        self.steps = 0
        self._failed: set[tuple[int, int]] = set()

    def find(self, s: int, d: int) -> Plan | None:
        """A winning plan for S (to move) with marks ``s`` against D's marks ``d``, or None when none
        is found within the budget (None proves nothing)."""
        self.steps = 0
        self._failed = set()
        try:
            return self._plan(s, d)
        except _OutOfBudget:
            return None

    # -- the pieces --------------------------------------------------------------------------------

    def _winning_cells(self, own: int, other: int) -> int:
        """The cells that complete a line of ``own`` (lines without a mark of ``other``, one cell short)."""
        return completing_cells(self.lines, own, other)

    def _short_by(self, own: int, other: int, n: int) -> int:
        """The empty cells of the lines without a mark of ``other`` that lack exactly ``n`` marks of ``own``."""
        cells = 0
        for line in self.lines:
            if not line & other:
                rest = line & ~own
                if rest.bit_count() == n:
                    cells |= rest
        return cells

    def _partners(
        self, s: int, d: int, lines: tuple[int, ...] | None = None
    ) -> dict[int, set[int]]:
        """Cell a → the cells b such that some line without a mark of D lacks exactly a and b of S's
        marks (S playing a threatens b), over ``lines`` (default: all)."""
        partners: dict[int, set[int]] = {}
        for line in self.lines if lines is None else lines:
            if not line & d:
                rest = line & ~s
                if rest.bit_count() == 2:
                    low = rest & -rest
                    a, b = low.bit_length() - 1, (rest ^ low).bit_length() - 1
                    partners.setdefault(a, set()).add(b)
                    partners.setdefault(b, set()).add(a)
        return partners

    # -- the search ---------------------------------------------------------------------------------

    def _plan(self, s: int, d: int) -> Plan | None:
        """A plan for S to move in (s, d), or None."""
        self._step()
        if (s, d) in self._failed:
            return None
        # One pass over the lines: S's winning cells, D's, S's pairs (lines lacking two marks of S),
        # D's four-making cells, and S's lines lacking three marks (where S can make a three).
        wins = d_fours = d_makers = 0
        partners: dict[int, set[int]] = {}
        three_lines = []
        for line in self.lines:
            a = line & s
            b = line & d
            if a and b:
                continue
            if not b:
                rest = line & ~s
                count = rest.bit_count()
                if count == 1:
                    wins |= rest
                elif count == 2:
                    low = rest & -rest
                    x, y = low.bit_length() - 1, (rest ^ low).bit_length() - 1
                    partners.setdefault(x, set()).add(y)
                    partners.setdefault(y, set()).add(x)
                elif count == 3:
                    three_lines.append(rest)
            if not a:
                rest = line & ~d
                count = rest.bit_count()
                if count == 1:
                    d_fours |= rest
                elif count == 2:
                    d_makers |= rest
        if wins:
            return Plan(wins.bit_length() - 1)
        if d_fours & (d_fours - 1):
            self._failed.add((s, d))
            return None  # two threats of D: S can block only one
        if d_fours:
            candidates = [d_fours.bit_length() - 1]  # S must block
        else:
            # S has no double four here when D has no four: it would have been tried first and won.
            doubles = [w for w, threatened in partners.items() if len(threatened) >= 2]
            candidates = doubles + [c for c in partners if c not in doubles]
            if self.threes and (self.deep_threes or self.steps == 1):
                candidates += self._three_candidates(three_lines, partners)
        for cell in candidates:
            plan = self._after(s | 1 << cell, d, cell, partners, d_makers)
            if plan is not None:
                return plan
        self._failed.add((s, d))
        return None

    @staticmethod
    def _three_candidates(three_lines: list[int], partners: dict[int, set[int]]) -> list[int]:
        """The cells c (making no four) after which S has a double four: a line lacking three marks
        through c becomes a pair, and one of its cells then has two distinct partners."""
        new: dict[int, list[tuple[int, int]]] = {}
        for rest in three_lines:
            for c in mask_cells(rest):
                if c in partners:
                    continue  # c makes a four: tried already
                pair = rest & ~(1 << c)
                low = pair & -pair
                new.setdefault(c, []).append((low.bit_length() - 1, (pair ^ low).bit_length() - 1))
        out = []
        for c, pairs in new.items():
            gained: dict[int, set[int]] = {}
            for x, y in pairs:
                gained.setdefault(x, set()).add(y)
                gained.setdefault(y, set()).add(x)
            if any(len(partners.get(w, set()) | cells) >= 2 for w, cells in gained.items()):
                out.append(c)
        return sorted(out)

    def _step(self) -> None:
        self.steps += 1
        if self.steps > self.budget:
            raise _OutOfBudget

    def _after(
        self, s: int, d: int, move: int, partners: dict[int, set[int]], d_makers: int
    ) -> Plan | None:
        """The plan that starts with S's ``move`` (already in ``s``; S had no win and D has no four
        after it), or None. ``partners`` and ``d_makers`` are those of the position before the move
        (D's four-making cells then: a superset of them after it)."""
        self._step()
        through = self.through[move]
        made = self._winning_cells_of(s, d, through)
        if made & (made - 1):
            return Plan(move)  # a double four: D blocks one, S completes the other
        if made:
            block = made.bit_length() - 1
            after = self._plan(s, d | 1 << block)
            return None if after is None else Plan(move, ((block, after),))
        if not self.threes:
            return None
        # The double fours S has now: the cells with two distinct threatened partners. Lines not
        # through the move are as before; the move took a cell from some (drop it) and made new ones.
        new = self._partners(s, d, tuple(through))
        doubles: dict[int, list[int]] = {}
        for w, extra in new.items():
            if w == move:
                continue
            cells = (partners.get(w, set()) | extra) - {move}
            if len(cells) >= 2:
                doubles[w] = sorted(cells)
        if not doubles:
            return None
        empty = self.full & ~(s | d)
        # A reply spoils the double four at w when it takes w, or one of only two cells it threatens.
        spoiled_by_all = empty
        for w, threatened in doubles.items():
            kills = 1 << w
            if len(threatened) == 2:
                kills |= 1 << threatened[0] | 1 << threatened[1]
            spoiled_by_all &= kills
        defences = (spoiled_by_all | d_makers) & empty
        if defences.bit_count() > MAX_DEFENCES:
            return None
        replies = []
        for reply in mask_cells(empty):
            if defences >> reply & 1:
                after = self._plan(s, d | 1 << reply)
                if after is None:
                    return None
                replies.append((reply, after))
            else:
                w = next(
                    w
                    for w, threatened in doubles.items()
                    if w != reply and (len(threatened) > 2 or reply not in threatened)
                )
                replies.append((reply, Plan(w)))
        return Plan(move, tuple(replies))

    def _winning_cells_of(self, own: int, other: int, lines: tuple[int, ...] | list[int]) -> int:
        return completing_cells(lines, own, other)
