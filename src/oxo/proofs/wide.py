"""The proof search for boards of more than 64 cells (the 4x4x4x4 hypercube: 256 cells, 520 lines).

The compiled search of :mod:`oxo.proofs.dfpn` holds a board in 64-bit masks; the plain one of
:mod:`oxo.proofs.reference` takes any board but, on a big one, spends its time hashing every child
under every symmetry (384 on 4x4x4x4) and searching pairings a hypercube never has: a few positions
a second. :class:`WideSearch` drives the compiled search of :mod:`oxo.proofs.widekernel`, which
holds a board as line counts, keys a position by its class only in the first plies, and finds wins
by continuous fours (the attacker's usual way to win on a hypercube, a few moves in):

* what settles a position before any search is the plain search's list (a complete line, a full
  board, no line left to the attacker, a win at once, two threats, a forced block) and, with the
  attacker to move, a win by continuous fours (every move a four, answered by its forced block, up
  to two fours at once); no pairings;
* with the defender to move, each reply is tried once for such a win of the attacker when the
  position is first searched, so that the proof number counts only the replies that need a search;
* with the attacker to move, its moves are tried for a threat (such a win if the defender let it
  move again, which makes a move start at proof number 2), the most promising first, until
  :data:`RATED_THREATS` are found; the others start as quiet moves;
* before a reply of the defender is searched, the strategy that settled one of its siblings (the
  one whose search took most) is tried on it: the sibling's moves, every position checked by its
  own rules (Kawano's simulation; ``sim_budget=0`` turns it off, for the benchmark that compares).

Its strategies are read like the other searches' (:class:`oxo.proofs.strategy.StrategyReader`): the
attacker's move where it is to move and every reply of the defender. A win by continuous fours is a
forced chain in the sense of the certificates' chain rule (:mod:`oxo.proofs.rules`), so on a board
without gravity (where certificates may name rules) the certificate of a win names that rule
(:func:`certificate_rules`) and leaves such wins to it; with gravity they are played out. On
4x4x4x4 those wins were nearly every entry (docs/boxes.md gives the measure:
``python benchmarks/box_searches.py --only chain-rule``).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable

import numpy as np

from oxo.geometry import Geometry, mask_cells
from oxo.proofs import widekernel as wk
from oxo.proofs.kepttable import read_table, table_identity, write_table
from oxo.proofs.rules import Rules
from oxo.proofs.strategy import TableSearch
from oxo.proofs.threats import Plan

#: Plies (marks on the board) up to which positions are keyed by their symmetry class.
SYM_PLIES = 4
#: Positions one search for continuous fours may visit at a position of the attacker's ...
VCF_BUDGET = 2000
#: ... and when it only probes a move (the attacker's moves and the defender's replies are each
#: tried once, when their position is first searched, to rate them).
PROBE_BUDGET = 100
#: Positions searched between two looks at the clock: at first this many, then as many as take
#: about :data:`SLICE_SECONDS` at the rate measured so far (a position may cost a thousand searches
#: for continuous fours, so the rate varies a lot from board to board).
FIRST_SLICE = 64
SLICE_SECONDS = 0.25
#: The 1+epsilon trick (as in :mod:`oxo.proofs.dfpn`), in thousandths.
EPSILON = 250
#: The most positions one try of a settled sibling's strategy may visit (it gives up sooner, past
#: the sibling's work in the table: the most positions one pass of the search below it took, at
#: least :data:`widekernel.SIM_FLOOR <oxo.proofs.widekernel.SIM_FLOOR>`), and the deepest it goes.
SIM_BUDGET = 100_000
SIM_DEPTH = 96
#: The attacker's moves are rated, the most promising first, until this many threats are found
#: (a threat: a move after which it would win by continuous fours if the defender let it move
#: again); the moves after those start as any quiet move does, untried (``box_searches.py --only
#: rated-threats``: docs/performance.md). Twelve and three cost the same on positions that settle
#: within 200,000 positions; on those the 4x4x4x4 run took a million or so, three settled more
#: with some 60 % of the processor time.
RATED_THREATS = 3
#: Memory of the transposition table when none is given: at most this, and at most a quarter of
#: the memory free when the search starts (the pages are taken as the table fills).
DEFAULT_TABLE_BYTES = 1 << 30
#: Bytes a slot of the table takes (key, proof and disproof numbers, work, flags).
SLOT_BYTES = 8 + 4 + 4 + 8 + 1
#: The arrays of the table, in the order of ``WideSearch.table``, as a kept table names them.
TABLE_ARRAYS = ("key", "pn", "dn", "work", "flags")
#: The version of a kept table's layout (:meth:`WideSearch.save_table`).
TABLE_FORMAT = "oxo-wide-table/1"
#: The most positions a kept table holds (those of most work).
KEPT_MAX = 1 << 25
#: When the table holds this share of its slots (and at :data:`widekernel.FULL_PERMILLE
#: <oxo.proofs.widekernel.FULL_PERMILLE>` the search stops for it), the positions of least work
#: are let go until :data:`COLLECT_KEEP` of them are left (settled positions weigh four times their
#: work, as when one is replaced). Without it a full table made the search go round in place: on
#: a 4x4x4x4 position four plies in, with a table of 512 MB, 230,000 positions without a change
#: of the root's numbers, each a replacement of the entries the last one stored.
COLLECT_AT = 0.7
COLLECT_KEEP = 0.5
#: The bound of the chain rule that certificates of wins name (the most moves of the side in a
#: forced chain; :mod:`oxo.proofs.rules`). A win by continuous fours longer than this is played
#: out (its positions after the first moves come within the bound again). Chains of the wins of
#: 4x4x4x4 positions four plies in took at most 10 moves; a checker's search that finds no chain
#: explores the forcing moves up to the bound, so the bound is not made larger than it need be.
CHAIN_BOUND = 32


def certificate_rules(geometry: Geometry) -> Rules:
    """The rules a certificate of a win read from this search names: the chain rule on a board
    without gravity (rules are not defined with gravity), none with it."""
    return Rules() if geometry.gravity else Rules(chain=CHAIN_BOUND)


def default_table_bytes() -> int:
    from oxo.counting.budget import available_memory

    return min(DEFAULT_TABLE_BYTES, available_memory() // 4)


class WideSearch(TableSearch):
    """df-pn for "``attacker`` ('x' or 'o') can force a complete line" on a board of any size,
    compiled over line counts (see the module's text). ``table_bytes`` bounds the transposition
    table (when it is full, positions of least work are replaced)."""

    def __init__(
        self,
        geometry: Geometry,
        attacker: str,
        *,
        seconds: float | None = None,
        max_nodes: int | None = None,
        on_progress: Callable[[int, int], None] | None = None,
        table_bytes: int | None = None,
        vcf_budget: int = VCF_BUDGET,
        probe_budget: int = PROBE_BUDGET,
        sym_plies: int = SYM_PLIES,
        replays: bool = True,
        epsilon: int = EPSILON,
        slice_nodes: int | None = None,
        sim_budget: int = SIM_BUDGET,
        rated_threats: int = RATED_THREATS,
    ) -> None:
        self.geometry = geometry
        self.attacker_is_x = attacker == "x"
        self.rules = certificate_rules(geometry)
        self.rule_lines = geometry.lines
        self.rule_through = geometry.lines_through
        self.side = 0 if self.attacker_is_x else 1
        n = geometry.size
        cells = geometry.line_cells
        self.k = geometry.k
        self.lines = np.array(cells, dtype=np.int64).reshape(len(cells), geometry.k)
        through: list[list[int]] = [[] for _ in range(n)]
        for index, line in enumerate(cells):
            for cell in line:
                through[cell].append(index)
        width = max(1, max(len(t) for t in through))
        self.thr = np.zeros((n, width), np.int64)
        self.thrn = np.zeros(n, np.int64)
        for cell, indices in enumerate(through):
            self.thrn[cell] = len(indices)
            self.thr[cell, : len(indices)] = indices
        #: With gravity, the cell under each cell and the cell above it (-1: none, and every cell
        #: without gravity): a mark may go only to an empty cell whose cell under it is taken.
        self.below = np.full(n, -1, np.int64)
        self.above = np.full(n, -1, np.int64)
        if geometry.gravity:
            layer = geometry.column_count
            for cell in range(n):
                if cell + layer < n:
                    self.below[cell] = cell + layer
                if cell >= layer:
                    self.above[cell] = cell - layer
        rng = random.Random(0x5EED)
        base = [[rng.getrandbits(64) for _ in range(n)] for _ in range(2)]
        self.zsym = np.array(
            [
                [[base[p][s.perm[c]] for c in range(n)] for p in range(2)]
                for s in geometry.symmetries
            ],
            dtype=np.uint64,
        )
        self.zob = np.ascontiguousarray(self.zsym[0])
        self.sym_plies = sym_plies
        self.vcf_budget = vcf_budget
        self.probe_budget = min(probe_budget, vcf_budget)
        #: Where the defender is to move and the attacker would win by continuous fours if it
        #: could move again, try that plan again after each reply before a search of its own
        #: (:func:`oxo.proofs.widekernel.replay`; False: search after every reply, as before
        #: 2026-11-29, for the benchmark that compares them).
        self.replays = replays
        #: The 1+epsilon trick's epsilon, in thousandths, and the positions between two returns to
        #: the root (None: as many as take :data:`SLICE_SECONDS`). A return to the root picks the
        #: best child of every position on the way afresh, as a search with a smaller epsilon
        #: would, so both change which positions the search visits (not what it proves); a fixed
        #: number makes a search repeatable, for ``benchmarks/box_searches.py --only lottery``.
        self.epsilon = epsilon
        self.slice_nodes = slice_nodes
        #: The most positions a try of a settled sibling's strategy on a reply of the defender
        #: may visit (:func:`oxo.proofs.widekernel.simulate`; 0: never tried).
        self.sim_budget = sim_budget
        #: The threats of the attacker to find among its moves, the most promising first, before
        #: the others start untried (:func:`oxo.proofs.widekernel._init_moves`).
        self.rated_threats = rated_threats
        if table_bytes is None:
            table_bytes = default_table_bytes()
        slots = 1 << max(10, (table_bytes // SLOT_BYTES).bit_length() - 1)
        self.table: tuple[np.ndarray, ...] = (
            np.zeros(slots, np.uint64),
            np.zeros(slots, np.int32),
            np.zeros(slots, np.int32),
            np.zeros(slots, np.int64),
            np.zeros(slots, np.uint8),
        )
        depth = n + 2
        self.frames = (
            np.zeros(depth, np.int64),
            np.zeros(depth, np.uint64),
            np.zeros(depth, np.uint64),
            np.zeros(depth, np.int64),
            np.zeros(depth, np.int64),
            np.zeros(depth, np.int64),
            np.zeros(depth, np.int64),
            np.zeros(depth, np.int64),
            np.zeros(depth, np.int8),
        )
        self.cmove = np.zeros(depth * n, np.int64)
        self.ckey = np.zeros(depth * n, np.uint64)
        self.vs = wk.scratch(n, len(cells))
        self.plan = np.zeros(n + 2, np.int64)
        self.scores = np.zeros(n, np.int64)
        self.moves = np.zeros(n, np.int64)
        self.cell = np.zeros(n, np.int8)
        self.cnt = wk.new_counts(len(cells))
        #: The board as the kernel takes it (:mod:`oxo.proofs.widekernel`): its arrays, changed in
        #: place, and k.
        self.board = (
            self.lines,
            self.thr,
            self.thrn,
            self.below,
            self.above,
            self.cell,
            self.cnt,
            self.zob,
            self.k,
        )
        self.stats = np.zeros(wk.STATS, np.int64)
        sim_depth = min(depth, SIM_DEPTH)
        self.sim_scratch = (
            np.zeros((sim_depth, n), np.int64),
            np.zeros(n, np.int64),
            np.zeros((sim_depth, n), np.int64),
            np.zeros((sim_depth, n), np.uint64),
            np.zeros((sim_depth, 4), np.int64),
            np.zeros((sim_depth, 3), np.uint64),
        )
        #: Positions searched so far, and times the table was cleared of its positions of least
        #: work (:meth:`_collect`).
        self.nodes = 0
        self.collections = 0
        self.seconds = seconds
        self.max_nodes = max_nodes
        self.on_progress = on_progress

    # -- positions ---------------------------------------------------------------------------------

    def _load(self, x: int, o: int) -> None:
        owners = np.zeros(self.geometry.size, np.int8)
        owners[list(mask_cells(x))] = 1
        owners[list(mask_cells(o))] = 2
        wk.load(self.cell, self.cnt, self.thr, self.thrn, owners, self.k)

    def key(self, x: int, o: int) -> int:
        """The table key: the class's within the first plies, the position's own after."""
        self._load(x, o)
        return int(wk.position_key(self.cell, self.zob, self.zsym, self.sym_plies))

    def _flags(self, key: int) -> int:
        slot = wk.table_find(self.table[0], np.uint64(key))
        return 0 if slot < 0 else int(self.table[4][slot])

    def expand(self, x: int, o: int, key: int | None = None) -> tuple[int, list[int]]:
        """Settle a position before search if possible: ``(1, [])`` proven (``2``: by continuous
        fours), ``(-1, [])`` disproven, or ``(0, moves)``: a forced block alone, else every empty
        cell, best first."""
        flags = self._flags(self.key(x, o) if key is None else key)
        self._load(x, o)
        status, count = wk.expand(
            self.board,
            *(self.side, flags, self.vcf_budget, self.vs, self.plan, self.moves, self.scores),
            self.stats,
        )
        return int(status), [int(m) for m in self.moves[:count]]

    def threat_plan(self, x: int, o: int, key: int | None = None) -> tuple[int, int, Plan] | None:
        """The attacker's win by continuous fours from (x, o) (attacker to move) as (x, o, plan),
        or None when none is found within the budget."""
        self._load(x, o)
        length = wk.vcf(
            self.board,
            *(self.side, self.vcf_budget, self.vs, self.plan),
            np.uint64(wk.position_hash(self.cell, self.zob)),
        )
        if length <= 0:
            return None
        chain = [int(m) for m in self.plan[:length]]
        plan = Plan(chain[-1])
        for i in range(len(chain) - 3, -1, -2):
            plan = Plan(chain[i], ((chain[i + 1], plan),))
        return x, o, plan

    def pairing(self, x: int, o: int, key: int | None = None) -> tuple[tuple[int, int], ...] | None:
        """None: this search uses no pairings."""
        return None

    # -- a table kept between processes ------------------------------------------------------------

    def _table_identity(self) -> dict[str, object]:
        """What a kept table must match to be read back (:func:`oxo.proofs.kepttable.table_identity`)."""
        options = [self.sym_plies, self.vcf_budget, self.probe_budget]
        return table_identity(
            TABLE_FORMAT, self.geometry, self.attacker_is_x, options, self.zsym.tobytes()
        )

    def save_table(self, path: str | os.PathLike[str], limit: int = KEPT_MAX) -> int:
        """Write the table's positions (at most ``limit``, those of most work, as
        :func:`oxo.proofs.widekernel.table_heaviest` picks them) to ``path``, atomically, with the
        SHA-256 of its arrays, so that a later search of the same question can go on from them
        (:meth:`load_table`). Returns the positions written."""
        used = wk.table_heaviest((*self.table, self.stats), limit, True)
        arrays = {name: t[used] for name, t in zip(TABLE_ARRAYS, self.table)}
        write_table(path, self._table_identity(), arrays, TABLE_ARRAYS)
        return len(used)

    def load_table(self, path: str | os.PathLike[str]) -> int:
        """Take into the table the positions a search of the same question kept in ``path``
        (:meth:`save_table`); return how many (0 when the file is missing, damaged, or of another
        board, question or search: it is then ignored, and the search starts afresh). The SHA-256
        of its arrays is compared before anything is used. Those of least work go in first, so
        that in a smaller table the others take their slots."""
        dtypes = {name: t.dtype for name, t in zip(TABLE_ARRAYS, self.table)}
        arrays = read_table(path, self._table_identity(), dtypes)
        if arrays is None:
            return 0
        order = np.argsort(arrays["work"], kind="stable")
        keys, pns, dns, works, flags = (arrays[name][order] for name in TABLE_ARRAYS)
        wk.table_fill((*self.table, self.stats), keys, pns, dns, works, flags)
        return len(order)

    # -- df-pn -------------------------------------------------------------------------------------

    def _collect(self) -> None:
        """Make room in a table that holds :data:`COLLECT_AT` of its slots: keep the
        :data:`COLLECT_KEEP` of its positions of most weight (work, four times it plus 4 for a
        settled position), in place (:func:`oxo.proofs.widekernel.table_collect`: a copy of what
        is kept took as much memory again as the table, for a moment). What is let go costs
        search again, never a wrong answer."""
        entries = int(self.stats[wk.ST_ENTRIES])
        if entries < COLLECT_AT * len(self.table[0]):
            return
        wk.table_collect((*self.table, self.stats), int(entries * COLLECT_KEEP))
        self.collections += 1

    def _run(self, x: int, o: int, budget: int) -> bool:
        self._collect()
        self._load(x, o)
        more = wk.run(
            self.board,
            self.zsym,
            *(
                self.side,
                self.sym_plies,
                self.vcf_budget,
                self.probe_budget,
                self.epsilon,
                self.replays,
            ),
            *(self.table, self.frames),
            *(self.cmove, self.ckey, self.vs, self.plan, self.scores, self.stats, budget),
            self.sim_budget,
            self.sim_scratch,
            self.rated_threats,
        )
        self.nodes = int(self.stats[wk.ST_NODES])
        return bool(more == 0)

    def solve(self, x: int = 0, o: int = 0) -> bool | None:
        """True when the attacker can force a line from (x, o), False when it cannot, None when the
        time or position budget ran out first."""
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        budget = FIRST_SLICE if self.slice_nodes is None else self.slice_nodes
        while True:
            if self.max_nodes is not None:
                budget = min(budget, self.max_nodes - self.nodes)
                if budget <= 0:
                    return None
            if deadline is not None:
                left = deadline - time.perf_counter()
                if left <= 0:
                    return None
            before, begun = self.nodes, time.perf_counter()
            if self._run(x, o, budget):
                break
            rate = (self.nodes - before) / max(1e-6, time.perf_counter() - begun)
            budget = (
                max(FIRST_SLICE, int(rate * SLICE_SECONDS))
                if self.slice_nodes is None
                else self.slice_nodes
            )
            if deadline is not None:
                budget = max(1, min(budget, int(rate * (deadline - time.perf_counter())) + 1))
            if deadline is not None and time.perf_counter() > deadline:
                return None
            if self.on_progress is not None:
                self.on_progress(self.nodes, int(self.stats[wk.ST_ENTRIES]))
        value = self._table_value(x, o)
        return None if value == 0 else value > 0

    def numbers_of(self, x: int, o: int) -> tuple[int, int]:
        pn, dn = wk.table_numbers(
            self.table[0], self.table[1], self.table[2], np.uint64(self.key(x, o))
        )
        return int(pn), int(dn)

    def statistics(self) -> dict[str, int]:
        """What the search did: positions searched, positions in the table, entries replaced when
        it was full, searches for continuous fours, wins they found and the positions they visited,
        moves skipped as mirror images of a move already listed, moves of the attacker tried for
        such a win and those that had one, replies after which a plan found before them still
        won (:attr:`replays`), tries of a settled sibling's strategy on a reply, those that settled
        it and the positions they visited (counted in ``nodes`` too), and times the table was
        cleared of its positions of least work."""
        s = self.stats
        return {
            "nodes": int(s[wk.ST_NODES]),
            "table_entries": int(s[wk.ST_ENTRIES]),
            "table_replacements": int(s[wk.ST_REPLACED]),
            "threat_searches": int(s[wk.ST_VCF_TRIES]),
            "threat_wins": int(s[wk.ST_VCF_FOUND]),
            "threat_positions": int(s[wk.ST_VCF_NODES]),
            "symmetric_moves_skipped": int(s[wk.ST_TWINS]),
            "moves_rated": int(s[wk.ST_INIT_TRIES]),
            "threat_moves": int(s[wk.ST_INIT_THREATS]),
            "threat_wins_replayed": int(s[wk.ST_REPLAYED]),
            "sibling_strategies_tried": int(s[wk.ST_SIM_TRIES]),
            "sibling_strategies_won": int(s[wk.ST_SIM_FOUND]),
            "sibling_strategy_positions": int(s[wk.ST_SIM_NODES]),
            "table_collections": self.collections,
        }
