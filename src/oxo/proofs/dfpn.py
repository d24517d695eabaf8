"""Depth-first proof-number search (df-pn) for "can this side force a line?", compiled.

The question is asked of one side, the attacker S; the other side is the defender D. A position is
*proven* when S can force a line whatever D does, *disproven* when D can stop every line of S (a
draw or a win of D). Proof and disproof numbers say how many positions at least must still be
settled to prove or disprove; df-pn (Nagai 2002) expands, depth first with thresholds, the position
that most cheaply settles the root, and keeps what it learnt in a transposition table keyed by the
position's class under the board's symmetries.

What settles a position before any search (:func:`oxo.proofs.kernel.expand`):

* a complete line (S's: proven; D's: disproven), a full board, no line left that S can complete
  (disproven);
* the side to move completing a line at once;
* the other side threatening two cells at once with no win of the mover's own (the mover loses);
* a single threat of the other side: the mover's only move worth trying is to block it;
* S to move with a win by threats (see :mod:`oxo.proofs.threats`): proven; the certificate gets the
  threat plan played out against every reply that does not lose at once;
* S to move and a *pairing* for D (see :mod:`oxo.proofs.pairing`): disproven, D draws at least by
  answering every move in a pair with its partner.

The search itself runs compiled (:mod:`oxo.proofs.kernel`) in slices of a few thousand positions,
so that between two slices this driver can watch the clock and report progress. The slow search it
is held to in the tests is :class:`oxo.proofs.reference.ReferenceSearch`. The proof (S's move where
it is to move, every reply of D) or the disproof (D's move, every move of S, pairings) is read back
out of the table by :meth:`ProofSearch.strategy` as entries of a certificate
(see :mod:`oxo.proofs.certificate`).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable

import numpy as np

from oxo.geometry import Geometry, play
from oxo.proofs import kernel
from oxo.proofs.kepttable import read_table, table_identity, write_table
from oxo.proofs.strategy import Entry, TableSearch
from oxo.proofs.symmetry import search_symmetries
from oxo.proofs.threats import Plan

__all__ = ["Entry", "ProofSearch", "DEFAULT_TABLE_BYTES"]

#: Search steps a pairing attempt may take at one position before giving up.
PAIRING_BUDGET = 200
#: Positions (and moves tried) one threat search may visit before it gives up.
THREAT_BUDGET = 20
#: The same on cubes, whose forced wins run longer: on Qubic's positions four and six plies deep it
#: halved the positions and processor time of the proofs that settle within 500,000 positions, and
#: settled 3 of 6 harder ones within 5 million where 20 settled 2 (benchmarks/bench_pn_init.py
#: --only qubic --threat-budget N).
CUBE_THREAT_BUDGET = 2000
#: The most defences a three may leave and still be searched on.
MAX_DEFENCES = 4
#: Memory for the transposition table when none is given: at most this, and at most a quarter of
#: the memory free when the search starts. The pages are taken as the table fills, so a small proof
#: costs little; a large one thrashes when its table is too small (9x4 with k = 4 needs about 7
#: million positions kept: it is settled in a minute with a table of 1 GiB and not in 40 minutes
#: with 256 MiB; 10x4 keeps over 13 million).
DEFAULT_TABLE_BYTES = 4 << 30
#: Slots of a new table (it doubles when a third full, up to the memory it is given).
FIRST_SLOTS = 1 << 16
#: Positions searched between two looks at the clock.
SLICE = 4096
#: The 1+epsilon trick (Pawlewicz and Lew): a child's threshold is the second best value times
#: 1 + EPSILON / 1000, so the search switches between siblings less often.
EPSILON = 250
#: How a fresh position's proof and disproof numbers start (``kernel.INIT_*``): 1 and 1.
PN_INIT = kernel.INIT_ONE
#: The format of a table kept on disk (:meth:`ProofSearch.save_table`).
TABLE_FORMAT = "oxo-dfpn-table/1"
#: The most positions a table kept on disk holds (those that cost most work to find): 2**25,
#: about 1 GiB. 10x4 with k = 4 keeps about 13 million.
KEPT_MAX = 1 << 25
#: The arrays of a table, in the order :func:`kernel.table_rehash` takes them.
TABLE_ARRAYS = ("key", "pn", "dn", "flags", "work", "zone")


def default_table_bytes() -> int:
    """The table's memory when none is given (see :data:`DEFAULT_TABLE_BYTES`)."""
    from oxo.counting.budget import available_memory

    return min(DEFAULT_TABLE_BYTES, available_memory() // 4)


def _say_if_compiling() -> None:
    """Say so when the search's machine code is not in numba's cache yet: its first call compiles
    it (once after install, about a minute), and the wait would look like searching."""
    from oxo.compiled import is_cached

    if not is_cached(kernel.run):
        from oxo.progress import notice

        notice(
            "compiling the proof search into machine code, once after install: it can take a "
            "minute or more, beyond the time limit; later runs load it at once"
        )


class ProofSearch(TableSearch):
    """df-pn for "``attacker`` ('x' or 'o') can force a complete line" from a position of ``geometry``
    (at most 64 cells), compiled. ``table_bytes`` bounds the transposition table (positions are
    replaced when it is full, those of least work first)."""

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
        table_bytes: int | None = None,
        epsilon: int = EPSILON,
        threat_budget: int = THREAT_BUDGET,
        deep_threes: bool = False,
        pairing_budget: int = PAIRING_BUDGET,
        zones: bool = True,
        pn_init: int = PN_INIT,
        on_progress: Callable[[int, int], None] | None = None,
    ) -> None:
        if geometry.size > 64:
            raise ValueError("the compiled proof search handles boards of at most 64 cells")
        _say_if_compiling()
        self.geometry = geometry
        self.attacker_is_x = attacker == "x"
        self.symmetries = geometry.symmetries
        perms = search_symmetries(geometry)
        #: The board's own symmetries come first among the search's; certificates use only those.
        self.rigid = len(self.symmetries)
        size = geometry.size
        self.full = geometry.full_mask
        self.lines = np.array(geometry.lines, dtype=np.uint64)
        through = geometry.lines_through
        width = max(len(t) for t in through)
        index = {line: i for i, line in enumerate(geometry.lines)}
        self.thr = np.zeros((size, width), np.int64)
        self.thrn = np.zeros(size, np.int64)
        for cell, lines in enumerate(through):
            self.thrn[cell] = len(lines)
            for j, line in enumerate(lines):
                self.thr[cell, j] = index[line]
        if not self.symmetries[0].is_identity:
            raise AssertionError("the board's first symmetry must be the identity")
        self.perms = np.array(perms, dtype=np.int64)
        self.inverse = np.argsort(self.perms, axis=1).astype(np.int64)
        rng = random.Random(0x5EED)
        base = [[rng.getrandbits(64) for _ in range(size)] for _ in range(2)]
        # zob[i, p, c]: the hash of mark p (0 X, 1 O) on cell c seen under symmetry i.
        self.zob = np.array(
            [[[base[p][perm[c]] for c in range(size)] for p in range(2)] for perm in perms],
            dtype=np.uint64,
        )
        self.options = np.array(
            [int(threats), int(pairings), pairing_budget, epsilon, int(zones), pn_init],
            dtype=np.int64,
        )
        self.weights = kernel.WEIGHTS
        if table_bytes is None:
            table_bytes = default_table_bytes()
        #: The most slots the table may grow to; it starts small and doubles when a third full, so
        #: that a small proof touches little memory.
        self.max_slots = 1 << max(
            10, (table_bytes // kernel.Table.bytes_per_slot()).bit_length() - 1
        )
        self.table = kernel.Table(min(self.max_slots, FIRST_SLOTS))
        self._replaced_before = 0
        self.frames = kernel.Frames(size, len(perms))
        self.threats = kernel.ThreatScratch(threat_budget, threes, deep_threes, MAX_DEFENCES)
        self.pairings = kernel.PairScratch(geometry.lines, geometry.k)
        self._ts = self.threats.arrays()
        self._ps = self.pairings.arrays()
        self.stats = np.zeros(kernel.STATS, np.int64)
        #: Positions searched so far.
        self.nodes = 0
        self.seconds = seconds
        self.max_nodes = max_nodes
        self.on_progress = on_progress

    # -- positions ---------------------------------------------------------------------------------

    def _hashes(self, x: int, o: int) -> np.ndarray:
        out = np.zeros(len(self.perms), np.uint64)
        kernel.hashes_of(self.zob, np.uint64(x), np.uint64(o), out)
        return out

    def key(self, x: int, o: int) -> int:
        """The transposition-table key of the position's class under the search's symmetries."""
        key, _ = kernel.class_key(self._hashes(x, o))
        return int(key)

    def class_key(self, x: int, o: int) -> int:
        """The key of the position's class under the board's own symmetries (those of certificates)."""
        key, _ = kernel.class_key(self._hashes(x, o)[: self.rigid])
        return int(key)

    def _canonical(self, x: int, o: int) -> tuple[int, int, int]:
        """(symmetry, image of x, image of o): the image the threat and pairing searches look at."""
        _, sym = kernel.class_key(self._hashes(x, o))
        perm = self.perms[sym]
        return (
            int(sym),
            int(kernel.apply_perm(perm, np.uint64(x))),
            int(kernel.apply_perm(perm, np.uint64(o))),
        )

    def _flags(self, key: int) -> int:
        slot = kernel.table_find(self.table.key, np.uint64(key))
        return 0 if slot < 0 else int(self.table.flags[slot])

    def expand(self, x: int, o: int, key: int | None = None) -> tuple[int, list[int]]:
        """Settle a position before search if possible: ``(1, [])`` proven (``2``: by a sequence of
        threats), ``(-1, [])`` disproven (``-2``: by a pairing of the defender), or ``(0, moves)`` with
        the moves worth searching (a forced block alone, otherwise every empty cell, best first)."""
        hashes = self._hashes(x, o)
        k, sym = kernel.class_key(hashes)
        moves = np.zeros(64, np.int64)
        status, count, _, _ = kernel.expand(
            *(self.lines, self.thr, self.thrn, np.uint64(self.full), self.perms, self.inverse),
            *(np.uint64(x), np.uint64(o), self.attacker_is_x, sym, np.uint8(self._flags(int(k)))),
            *(self.options, np.zeros(kernel.STATS, np.int64), moves, self.weights),
            self._ps,
            self._ts,
        )
        return int(status), [int(m) for m in moves[:count]]

    def pairing(self, x: int, o: int, key: int | None = None) -> tuple[tuple[int, int], ...] | None:
        """The defender's pairing in (x, o), in that orientation (attacker to move), or None. It is
        searched for in the class's chosen image, so every orientation gets the same answer."""
        sym, cx, co = self._canonical(x, o)
        s, d = (cx, co) if self.attacker_is_x else (co, cx)
        count = kernel.find_pairing(
            self.lines, np.uint64(d), np.uint64(s), np.uint64(self.full), self.options[2], self._ps
        )
        if count < 0:
            return None
        back = self.inverse[sym]
        pairs = self.pairings.pairs
        return tuple(
            (int(back[int(pairs[i, 0])]), int(back[int(pairs[i, 1])])) for i in range(count)
        )

    def threat_plan(self, x: int, o: int, key: int | None = None) -> tuple[int, int, Plan] | None:
        """A win of the attacker (to move) by threats, as (x, o, plan) (found in the class's chosen
        image, so that every orientation gets the same answer, and carried back), or None when none
        is found within the threat search's budget."""
        sym, cx, co = self._canonical(x, o)
        s, d = (cx, co) if self.attacker_is_x else (co, cx)
        sc = self.threats
        back = self.inverse[sym]
        root = kernel.threat_search(
            self.lines,
            self.thr,
            self.thrn,
            np.uint64(self.full),
            np.uint64(s),
            np.uint64(d),
            self._ts,
        )
        if root < 0:
            return None

        def build(index: int) -> Plan:
            first = int(sc.plan_first[index])
            replies = tuple(
                (int(back[sc.reply_cell[r]]), build(int(sc.reply_plan[r])))
                for r in range(first, first + int(sc.plan_count[index]))
            )
            return Plan(int(back[sc.plan_move[index]]), replies)

        return x, o, build(int(root))

    def strategy(self, x: int = 0, o: int = 0) -> list[Entry]:
        """The certificate entries of the settled root, read as :meth:`StrategyReader.strategy`
        reads them, the walk compiled (:func:`oxo.proofs.kernel.strategy_walk`); the positions
        whose values the table let go are settled here, searched again."""
        root = self.value_of(x, o)
        if root == 0:
            raise ValueError("the position is not settled: run solve() first")
        proving = root > 0
        target = 1 if proving else -1
        side_is_x = self.attacker_is_x if proving else not self.attacker_is_x
        walk = kernel.Walk(self.geometry.size, int(self.stats[kernel.ST_ENTRIES]))
        walk.push(x, o)
        entries: list[Entry] = []
        board = (self.lines, self.thr, self.thrn, np.uint64(self.full), self.perms, self.inverse)
        while True:
            t = self.table
            code = kernel.strategy_walk(
                *board,
                self.zob,
                self.rigid,
                self.attacker_is_x,
                self.options,
                self.weights,
                *(t.key, t.pn, t.dn, t.flags),
                self._ps,
                self._ts,
                *(walk.stack_x, walk.stack_o, walk.done),
                *(walk.out_x, walk.out_o, walk.kind, walk.move, walk.pairs, walk.pair_count),
                *(walk.pending_x, walk.pending_o, walk.pending_kind),
                walk.counts,
                target,
                side_is_x,
            )
            if code < 0:
                raise AssertionError("a settled strategy reached a position of the wrong value")
            written = int(walk.counts[1])
            cells = walk.pairs[: int(walk.counts[4])].tolist()
            for px, po, kind, move, count in zip(
                walk.out_x[:written].tolist(),
                walk.out_o[:written].tolist(),
                walk.kind[:written].tolist(),
                walk.move[:written].tolist(),
                walk.pair_count[:written].tolist(),
                strict=True,
            ):
                if kind == kernel.WALK_MOVE:
                    entries.append(Entry(px, po, move=move))
                elif kind == kernel.WALK_PAIRING:
                    pairs = tuple((a, b) for a, b in cells[move : move + count])
                    entries.append(Entry(px, po, pairing=pairs))
                else:
                    entries.extend(self._threat_entries(px, po))
            pending = int(walk.counts[2])
            left = list(
                zip(
                    walk.pending_x[:pending].tolist(),
                    walk.pending_o[:pending].tolist(),
                    walk.pending_kind[:pending].tolist(),
                    strict=True,
                )
            )
            walk.counts[1] = walk.counts[2] = walk.counts[4] = 0
            for px, po, kind in left:
                self._settle_pending(walk, entries, px, po, kind, target)
            if code == 2:
                walk.grow()
            elif code == 0 and not walk.counts[0]:
                return entries

    def _settle_pending(
        self, walk: kernel.Walk, entries: list[Entry], x: int, o: int, kind: int, target: int
    ) -> None:
        """A position the compiled walk left: the table no longer holds the values it needs, so
        they are searched again (the table may have grown meanwhile: the walk reads it anew)."""
        if kind == kernel.PENDING_REPLY:
            if self.settle(x, o) != target:
                raise AssertionError("a reply escapes a settled strategy")
            walk.push(x, o)
            return
        _, moves = self.expand(x, o)
        kept = self.keeping_move([(move, play(x, o, move)) for move in moves], target)
        if kept is None:
            raise AssertionError("no move keeps a settled value")
        move, child = kept
        entries.append(Entry(x, o, move=move))
        walk.push(*child)

    # -- df-pn -------------------------------------------------------------------------------------

    def _start(self, x: int, o: int) -> None:
        f = self.frames
        hashes = self._hashes(x, o)
        key, _ = kernel.class_key(hashes)
        f.x[0] = x
        f.o[0] = o
        f.hashes[0, :] = hashes
        f.key[0] = key
        f.thpn[0] = kernel.INF
        f.thdn[0] = kernel.INF
        f.phase[0] = 0
        f.state[0] = 0

    def _run(self, budget: int) -> int:
        f = self.frames
        t = self.table
        board = (self.lines, self.thr, self.thrn, np.uint64(self.full), self.perms, self.inverse)
        table = (t.key, t.pn, t.dn, t.flags, t.work, t.zone)
        frames = (f.x, f.o, f.key, f.hashes, f.thpn, f.thdn, f.phase, f.count, f.child_move)
        more = (f.child_key, f.start, f.state, f.sym, f.forced, f.child_sym, f.child_zone)
        return int(
            kernel.run(
                *board,
                self.zob,
                self.attacker_is_x,
                self.options,
                self.weights,
                *table,
                *frames,
                *more,
                f.child_zone_ok,
                f.child_init,
                self.stats,
                budget,
                self._ps,
                self._ts,
            )
        )

    def _grow(self) -> None:
        """Double the table while it is more than a third full and may still grow, or when it
        replaced more positions than it has slots since it last grew: a cluster of full slots
        makes the search forget what it is working on long before the table is full. A table that
        may not grow any more is swept (:meth:`_sweep`) once it has replaced a quarter as many
        positions as it has slots."""
        slots = len(self.table.key)
        entries = int(self.stats[kernel.ST_ENTRIES])
        replaced = int(self.stats[kernel.ST_REPLACED]) - self._replaced_before
        if slots >= self.max_slots:
            if replaced > slots // 4:
                self._replaced_before += replaced
                self._sweep()
            return
        if entries * 3 <= slots and replaced <= slots:
            return
        self._replaced_before += replaced
        self._move_into(kernel.Table(self._slots_for(entries, slots * 2)), self.table)

    def _slots_for(self, entries: int, slots: int) -> int:
        """``slots`` doubled until ``entries`` fill at most a third of them, or the table may not
        grow any more."""
        while entries * 3 > slots and slots < self.max_slots:
            slots *= 2
        return slots

    def _move_into(
        self, new: kernel.Table, old: kernel.Table, keep: np.ndarray | None = None
    ) -> None:
        """Store the entries of ``old`` (those of ``keep``, a mask of slots, when given) in ``new``."""
        arrays = tuple(getattr(old, name) for name in TABLE_ARRAYS)
        if keep is not None:
            arrays = tuple(a[keep] for a in arrays)  # copies: ``new`` may be ``old`` emptied
            old.key[:] = 0
        self._rehash(new, arrays)

    def _rehash(self, new: kernel.Table, arrays: tuple[np.ndarray, ...]) -> None:
        """Store the entries of ``arrays`` (in the order of :data:`TABLE_ARRAYS`) in ``new``, which
        becomes the table."""
        key, pn, dn, flags, work, zone = arrays
        kernel.table_rehash(
            key, pn, dn, flags, work, zone,
            new.key, new.pn, new.dn, new.flags, new.work, new.zone, self.stats,
        )  # fmt: skip
        self.table = new

    def _worth(self) -> np.ndarray:
        """The work of each slot's position, as the replacement weighs it (a settled position
        counts :data:`kernel.SETTLED_WEIGHT` times its work)."""
        t = self.table
        settled = (t.pn == 0) | (t.dn == 0)
        return t.work.astype(np.int64) * np.where(settled, kernel.SETTLED_WEIGHT, 1)

    def _sweep(self) -> None:
        """Drop the half of the table that cost least to find (weighed as the replacement weighs
        them), once the full-size table replaces too much: a table that only ever replaces one slot
        at a time can keep the search going round between a few positions that push each other out
        (dropping the positions of least work is a common remedy in df-pn solvers)."""
        t = self.table
        used = t.key != 0
        if not used.any():
            return
        score = self._worth()
        median = np.median(score[used])
        self.stats[kernel.ST_SWEPT] += 1
        self._move_into(t, t, used & (score > median))

    # -- a table kept between processes ------------------------------------------------------------

    def _table_identity(self) -> dict[str, object]:
        """What a kept table must match to be read back (:func:`oxo.proofs.kepttable.table_identity`)."""
        options = [int(v) for v in self.options]
        hashing = self.zob.tobytes() + self.perms.tobytes()
        return table_identity(TABLE_FORMAT, self.geometry, self.attacker_is_x, options, hashing)

    def _kept_slots(self, limit: int) -> np.ndarray:
        """The slots of the table's positions, at most ``limit`` of them: those of most work (a
        settled position counting as the table's replacement counts it)."""
        used = np.flatnonzero(self.table.key != 0)
        if len(used) <= limit:
            return used
        score = self._worth()[used]
        return used[np.argsort(-score, kind="stable")[:limit]]

    def save_table(self, path: str | os.PathLike[str]) -> int:
        """Write the table's positions (at most :data:`KEPT_MAX`, those of most work) to ``path``,
        atomically, so that a later search of the same question can go on from them
        (:meth:`load_table`): a search stopped by the end of a session keeps what it learnt.
        Returns the positions written."""
        slots = self._kept_slots(KEPT_MAX)
        arrays = {name: getattr(self.table, name)[slots] for name in TABLE_ARRAYS}
        write_table(path, self._table_identity(), arrays, TABLE_ARRAYS)
        return len(slots)

    def load_table(self, path: str | os.PathLike[str]) -> int:
        """Take into the table the positions a search of the same question kept in ``path``
        (:meth:`save_table`); return how many (0 when the file is missing, damaged, or of another
        board, question or search: it is then ignored, and the search starts afresh). The file's
        SHA-256 of its arrays is compared before anything is used."""
        t = self.table
        dtypes = {name: getattr(t, name).dtype for name in TABLE_ARRAYS}
        arrays = read_table(path, self._table_identity(), dtypes)
        if arrays is None:
            return 0
        held = t.key != 0  # what this search holds already stays, after the kept positions
        slots = self._slots_for(len(arrays["key"]) + int(held.sum()), len(t.key))
        merged = tuple(
            np.concatenate((arrays[name], getattr(t, name)[held])) for name in TABLE_ARRAYS
        )
        self._rehash(kernel.Table(slots), merged)
        return len(arrays["key"])

    # -- solving -----------------------------------------------------------------------------------

    def solve(self, x: int = 0, o: int = 0) -> bool | None:
        """True when the attacker can force a line from (x, o), False when it cannot, None when the
        time or position budget ran out first."""
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        self._start(x, o)
        while True:
            budget = SLICE
            if self.max_nodes is not None:
                budget = min(budget, self.max_nodes - self.nodes)
                if budget <= 0:
                    return None
            settled = self._run(budget) == 0
            self.nodes = int(self.stats[kernel.ST_NODES])
            if settled:  # read the value before the table may grow or be swept
                break
            self._grow()
            if deadline is not None and time.perf_counter() > deadline:
                return None
            if self.on_progress is not None:
                self.on_progress(self.nodes, int(self.stats[kernel.ST_ENTRIES]))
        value = self._table_value(x, o)
        return None if value == 0 else value > 0

    def numbers_of(self, x: int, o: int) -> tuple[int, int]:
        slot = kernel.table_find(self.table.key, np.uint64(self.key(x, o)))
        if slot < 0:
            return self.start_numbers(x, o)
        return int(self.table.pn[slot]), int(self.table.dn[slot])

    def start_numbers(self, x: int, o: int) -> tuple[int, int]:
        """The proof and disproof numbers (x, o) starts from before the search looks at it: 1 and 1,
        or with ``pn_init=kernel.INIT_MOBILITY``, after a move of the attacker (the defender to
        move), the defender's mobility as :func:`oxo.proofs.kernel.initial_numbers` has it (1 when
        the attacker threatens a line, otherwise the empty cells). A split run ranks the children
        the search never reached by these: 1 and 1 would make them look the cheapest to prove."""
        if self.options[5] != kernel.INIT_MOBILITY:
            return 1, 1
        x_to_move = x.bit_count() == o.bit_count()
        if x_to_move != self.attacker_is_x:  # the defender to move
            s, d = (x, o) if self.attacker_is_x else (o, x)
            threats = kernel.scan(self.lines, np.uint64(s), np.uint64(d))[1]
            empty = (self.full & ~(x | o)).bit_count()
            return (1 if threats else max(1, empty)), 1
        return 1, 1

    def zone_of(self, x: int, o: int) -> int | None:
        """The relevance zone of a position the search disproved (a mask of empty cells: the
        defender holds even with every other empty cell given to the attacker), or None."""
        key = np.uint64(self.key(x, o))
        slot = kernel.table_find(self.table.key, key)
        if slot < 0 or self.table.dn[slot] != 0:
            return None
        _, sym = kernel.class_key(self._hashes(x, o))
        return int(kernel.apply_perm(self.inverse[sym], self.table.zone[slot]))

    def statistics(self) -> dict[str, int]:
        """What the search did: positions searched, positions in the table, children found already in
        the table (reached before by another order of moves), moves skipped as mirror images of a move
        already listed, pairing searches and pairings found, threat searches and wins found by
        threats, table entries replaced when it was full, the attacker's moves left unsearched
        because they lie outside the relevance zone of a disproof, and the times a full table was
        swept."""
        s = self.stats
        return {
            "nodes": int(s[kernel.ST_NODES]),
            "table_entries": int(s[kernel.ST_ENTRIES]),
            "table_hits": int(s[kernel.ST_HITS]),
            "symmetric_moves_skipped": int(s[kernel.ST_TWINS]),
            "pairing_searches": int(s[kernel.ST_PAIR_TRIES]),
            "pairings_found": int(s[kernel.ST_PAIR_FOUND]),
            "threat_searches": int(s[kernel.ST_THREAT_TRIES]),
            "threat_wins": int(s[kernel.ST_THREAT_FOUND]),
            "table_replacements": int(s[kernel.ST_REPLACED]),
            "zone_cutoffs": int(s[kernel.ST_ZONE_CUTS]),
            "table_sweeps": int(s[kernel.ST_SWEPT]),
        }
