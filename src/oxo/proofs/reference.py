"""Depth-first proof-number search (df-pn) for "can this side force a win?" on m,n,k boards and cubes.

The question is asked of one side, the attacker S; the other side is the defender D. A position is
*proven* when S can force a line whatever D does, *disproven* when D can stop every line of S (a draw
or a win of D). Proof and disproof numbers say how many positions at least must still be settled to
prove or disprove; df-pn (Nagai 2002) expands, depth first with thresholds, the position that most
cheaply settles the root, and keeps every result in a transposition table keyed by the symmetry class.

What settles a position before any search:

* a complete line (S's: proven; D's: disproven), a full board (disproven);
* the side to move completing a line at once;
* the other side threatening two cells at once with no win of the mover's own (the mover loses);
* a single threat of the other side: the mover's only move worth trying is to block it;
* no line left that S can complete, or a *pairing* for D (see :mod:`oxo.proofs.pairing`) with S to
  move: disproven, D draws at least by answering every move in a pair with its partner.
* S to move with a win by threats (see :mod:`oxo.proofs.threats`): proven; the certificate gets the
  threat plan played out against every reply that does not lose at once.

The proof (S's move in each position where it is to move, every reply of D) or the disproof (D's
move, every move of S, pairings) is read back out of the table by :meth:`ProofSearch.strategy`, as
entries of a certificate (see :mod:`oxo.proofs.certificate`).
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable

from oxo.geometry import Geometry, mask_cells
from oxo.proofs.pairing import find_pairing_by_lines
from oxo.proofs.strategy import StrategyReader
from oxo.proofs.threats import Plan, ThreatSearch

INF = 1 << 40
#: What a line open to one side adds to a cell's promise, by the marks that side has in it.
_WEIGHTS = (1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 1 << 18, 1 << 20, 1 << 22)
#: Search steps a pairing attempt may take at one position before giving up. The plain search
#: tries pairs line by line (:func:`oxo.proofs.pairing.find_pairing_by_lines`): in Python, the
#: search track by track costs more per position than it saves on the small boards the plain
#: search settles (4x5 with k = 4: 0.115 s against 0.074 s).
PAIRING_BUDGET = 60


class _SearchTimeout(Exception):
    """The search ran out of its time or node budget."""


class ReferenceSearch(StrategyReader):
    """df-pn for "``attacker`` ('x' or 'o') can force a complete line" from a position of ``geometry``:
    the slow, plain search that the compiled :class:`oxo.proofs.dfpn.ProofSearch` is held to."""

    def __init__(
        self,
        geometry: Geometry,
        attacker: str,
        *,
        seconds: float | None = None,
        max_nodes: int | None = None,
        pairings: bool = True,
        threats: bool = True,
        threes: bool = True,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self.geometry = geometry
        self.lines = geometry.lines
        self.through = geometry.lines_through
        self.full = geometry.full_mask
        self.attacker_is_x = attacker == "x"
        self.symmetries = geometry.symmetries
        rng = random.Random(0x5EED)
        base = [[rng.getrandbits(64) for _ in range(geometry.size)] for _ in range(2)]
        # zobrist[i][p][c]: the hash of mark p (0 X, 1 O) on cell c seen under symmetry i.
        self.zobrist = [
            [[base[p][s.perm[c]] for c in range(geometry.size)] for p in range(2)]
            for s in self.symmetries
        ]
        self.table: dict[int, tuple[int, int]] = {}
        # Pairings are searched in one orientation of each class only (the least image), so that every
        # orientation of a position gets the same answer (the search's order depends on the cell numbers).
        self.pairing_cache: dict[int, tuple[tuple[int, int], ...] | None] = {}
        self.use_pairings = pairings
        self.use_threats = threats
        self.threat_cache: dict[int, tuple[int, int, Plan] | None] = {}
        self.threat_search = ThreatSearch(self.lines, self.through, self.full, threes=threes)
        self.threat_proofs = 0
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.max_nodes = max_nodes
        self.nodes = 0
        self.on_progress = on_progress
        # Counts for the statistics (see :meth:`statistics`).
        self.table_hits = 0
        self.twins = 0
        self.pairing_attempts = 0
        self.pairings_found = 0
        self.threat_attempts = 0

    # -- positions ---------------------------------------------------------------------------------

    def hashes(self, x: int, o: int) -> list[int]:
        """The position's hash under each symmetry."""
        out = []
        for per_symmetry in self.zobrist:
            h = 0
            for cell in mask_cells(x):
                h ^= per_symmetry[0][cell]
            for cell in mask_cells(o):
                h ^= per_symmetry[1][cell]
            out.append(h)
        return out

    def key(self, x: int, o: int) -> int:
        """The transposition-table key of the position's symmetry class."""
        return min(self.hashes(x, o))

    def canonical(self, x: int, o: int) -> tuple[int, int, int]:
        """(index of a symmetry, image of x, image of o): the least image of the position, the same for
        every orientation of it."""
        cx, co, index = min(
            (s.apply_mask(x), s.apply_mask(o), i) for i, s in enumerate(self.symmetries)
        )
        return index, cx, co

    def _scan(self, own: int, other: int) -> tuple[bool, int, bool, int, int]:
        """(own has a line, own's winning cells, other has a line, other's winning cells, lines still open
        for own) in one pass over the lines."""
        own_line = other_line = False
        own_threats = other_threats = 0
        open_own = 0
        for line in self.lines:
            a = own & line
            b = other & line
            if a and b:
                continue
            if not b:
                open_own += 1
                rest = line & ~own
                if not rest:
                    own_line = True
                elif not rest & (rest - 1):
                    own_threats |= rest
            if not a:
                rest = line & ~other
                if not rest:
                    other_line = True
                elif not rest & (rest - 1):
                    other_threats |= rest
        return own_line, own_threats, other_line, other_threats, open_own

    def expand(self, x: int, o: int, key: int | None = None) -> tuple[int, list[int]]:
        """Settle a position before search if possible: ``(1, [])`` proven (``2``: by a sequence of
        threats), ``(-1, [])`` disproven (``-2``: by a pairing of the defender), or ``(0, moves)`` with the
        moves worth searching (a forced block alone, otherwise every empty cell)."""
        x_to_move = x.bit_count() == o.bit_count()
        attacker_to_move = x_to_move == self.attacker_is_x
        s, d = (x, o) if self.attacker_is_x else (o, x)
        s_line, s_threats, d_line, d_threats, open_s = self._scan(s, d)
        if s_line:
            return 1, []
        if d_line:
            return -1, []
        empty = self.full & ~(x | o)
        if not empty or not open_s:
            return -1, []
        if attacker_to_move:
            if s_threats:
                return 1, []
            if d_threats:
                if d_threats & (d_threats - 1):
                    return -1, []
                return 0, [d_threats.bit_length() - 1]
            if self.use_threats and self.threat_plan(x, o, key) is not None:
                return 2, []
            if self.use_pairings and self.pairing(x, o, key) is not None:
                return -2, []
        else:
            if d_threats:
                return -1, []
            if s_threats:
                if s_threats & (s_threats - 1):
                    return 1, []
                return 0, [s_threats.bit_length() - 1]
        return 0, self.ordered(s, d, empty)

    def ordered(self, s: int, d: int, empty: int) -> list[int]:
        """The empty cells, the most promising first: a cell scores for every line through it that one
        side can still complete, more the more marks that side has in it."""
        through = self.through
        weights = _WEIGHTS
        scored = []
        for cell in mask_cells(empty):
            score = 0
            for line in through[cell]:
                a = s & line
                b = d & line
                if a and b:
                    continue
                score += weights[(a | b).bit_count()]
            scored.append((-score, cell))
        scored.sort()
        return [cell for _, cell in scored]

    def pairing(self, x: int, o: int, key: int | None = None) -> tuple[tuple[int, int], ...] | None:
        """The defender's pairing in (x, o), in that orientation (attacker to move), or None. It is
        searched for once per class, in the class's least image, and carried back to (x, o)."""
        key = self.key(x, o) if key is None else key
        if key in self.pairing_cache and self.pairing_cache[key] is None:
            return None
        index, cx, co = self.canonical(x, o)
        if key in self.pairing_cache:
            pairs = self.pairing_cache[key]
        else:
            s, d = (cx, co) if self.attacker_is_x else (co, cx)
            found = find_pairing_by_lines(self.lines, d, s, self.full, PAIRING_BUDGET)
            pairs = self.pairing_cache[key] = None if found is None else tuple(found)
            self.pairing_attempts += 1
            self.pairings_found += found is not None
        if pairs is None:
            return None
        back = self.symmetries[index].inverse_perm
        return tuple((back[a], back[b]) for a, b in pairs)

    def threat_plan(self, x: int, o: int, key: int | None = None) -> tuple[int, int, Plan] | None:
        """A win of the attacker (to move) by threats (:mod:`oxo.proofs.threats`), as (x, o, plan) in
        the least image of the position's class (certificate entries may name any orientation), or
        None when none is found within the threat search's budget. Searched once per class."""
        key = self.key(x, o) if key is None else key
        if key in self.threat_cache:
            return self.threat_cache[key]
        _, cx, co = self.canonical(x, o)
        s, d = (cx, co) if self.attacker_is_x else (co, cx)
        plan = self.threat_search.find(s, d)
        self.threat_attempts += 1
        found = self.threat_cache[key] = None if plan is None else (cx, co, plan)
        if found is not None:
            self.threat_proofs += 1
        return found

    # -- df-pn -------------------------------------------------------------------------------------

    def solve(self, x: int = 0, o: int = 0) -> bool | None:
        """True when the attacker can force a line from (x, o), False when it cannot, None on timeout."""
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * self.geometry.size + 200))
        try:
            hashes = self.hashes(x, o)
            key = min(hashes)
            pn, dn = self.table.get(key, (1, 1))
            if pn and dn:  # not settled yet (a settled one answers at once, whatever the clock)
                self._mid(x, o, hashes, key, INF, INF)
        except _SearchTimeout:
            return None
        finally:
            sys.setrecursionlimit(limit)
        pn, dn = self.table[key]
        if pn == 0:
            return True
        if dn == 0:
            return False
        return None

    def solve_until(
        self, x: int, o: int, seconds: float | None, max_nodes: int | None
    ) -> bool | None:
        saved = self.deadline, self.max_nodes
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.max_nodes = max_nodes
        try:
            return self.solve(x, o)
        finally:
            self.deadline, self.max_nodes = saved

    def _mid(self, x: int, o: int, hashes: list[int], key: int, thpn: int, thdn: int) -> None:
        self.nodes += 1
        if self.nodes & 63 == 0:
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise _SearchTimeout
            if self.max_nodes is not None and self.nodes > self.max_nodes:
                raise _SearchTimeout
            if self.on_progress is not None:
                self.on_progress(self.nodes, len(self.table))
        status, moves = self.expand(x, o, key)
        if status:
            self.table[key] = (0, INF) if status > 0 else (INF, 0)
            return
        x_to_move = x.bit_count() == o.bit_count()
        or_node = x_to_move == self.attacker_is_x
        children = []
        seen = set()
        mark = 0 if x_to_move else 1
        tables = [per_symmetry[mark] for per_symmetry in self.zobrist]
        pairs = list(zip(hashes, tables, strict=True))
        for move in moves:
            bit = 1 << move
            cx, co = (x | bit, o) if x_to_move else (x, o | bit)
            chashes = [h ^ table[move] for h, table in pairs]
            ckey = min(chashes)
            if ckey in seen:
                self.twins += 1
                continue  # a symmetric twin of a move already listed
            seen.add(ckey)
            if ckey in self.table:
                self.table_hits += 1
            children.append((cx, co, chashes, ckey))
        table = self.table
        while True:
            best = -1
            best_value = second_value = INF + 1
            pn_sum = dn_sum = 0
            pn_min = dn_min = INF
            best_pn = best_dn = 0
            for index, (_, _, _, ckey) in enumerate(children):
                cpn, cdn = table.get(ckey, (1, 1))
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
                    best_value, best, best_pn, best_dn = value, index, cpn, cdn
                elif value < second_value:
                    second_value = value
            if or_node:
                pn, dn = pn_min, min(dn_sum, INF)
            else:
                pn, dn = min(pn_sum, INF), dn_min
            if pn >= thpn or dn >= thdn or pn == 0 or dn == 0:
                table[key] = (pn, dn)
                return
            cx, co, chashes, ckey = children[best]
            if or_node:
                child_thpn = min(thpn, second_value + 1)
                child_thdn = min(INF, thdn - dn + best_dn)
            else:
                child_thdn = min(thdn, second_value + 1)
                child_thpn = min(INF, thpn - pn + best_pn)
            table[key] = (pn, dn)
            self._mid(cx, co, chashes, ckey, child_thpn, child_thdn)

    def numbers_of(self, x: int, o: int) -> tuple[int, int]:
        return self.table.get(self.key(x, o), (1, 1))

    def statistics(self) -> dict[str, int]:
        """What the search did: positions searched, positions in the table, children found already in
        the table (reached before by another order of moves), moves skipped as mirror images of a move
        already listed, pairing searches and pairings found, threat searches and wins found by threats."""
        return {
            "nodes": self.nodes,
            "table_entries": len(self.table),
            "table_hits": self.table_hits,
            "symmetric_moves_skipped": self.twins,
            "pairing_searches": self.pairing_attempts,
            "pairings_found": self.pairings_found,
            "threat_searches": self.threat_attempts,
            "threat_wins": self.threat_proofs,
        }

    # -- strategies --------------------------------------------------------------------------------

    def value_of(self, x: int, o: int) -> int:
        """1 proven, -1 disproven, 0 unknown, for a position the search has settled or can settle at once."""
        status, _ = self.expand(x, o)
        if status:
            return 1 if status > 0 else -1
        pn, dn = self.table.get(self.key(x, o), (1, 1))
        return 1 if pn == 0 else -1 if dn == 0 else 0
