"""The compiled proof search (oxo.proofs.kernel, driven by oxo.proofs.dfpn) against the slow,
plain searches it replaces: pairings found exactly as the reference finds them, threat plans that
really win when played out against every reply, and the same values as the reference df-pn."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit

from oxo.geometry import Geometry
from oxo.proofs import dfpn, kernel
from oxo.proofs.certificate import verify_certificate
from oxo.proofs.dfpn import ProofSearch
from oxo.proofs.pairing import find_pairing as reference_pairing
from oxo.proofs.pairing import is_pairing
from oxo.proofs.reference import ReferenceSearch
from oxo.proofs.search import make_search
from oxo.proofs.solver import write_strategy
from oxo.proofs.threats import Plan

#: A small table: the tests build many searches.
SMALL = 1 << 20


@njit(cache=True)
def _bits(values: np.ndarray, out: np.ndarray) -> None:
    for i in range(values.shape[0]):
        out[i, 0] = kernel.popcount(values[i])
        out[i, 1] = kernel.lowest(values[i])


def test_popcount_and_lowest_bit() -> None:
    rng = random.Random(1)
    values = [rng.getrandbits(64) | 1 << rng.randrange(64) for _ in range(500)] + [1 << 63, 1]
    out = np.zeros((len(values), 2), np.int64)
    _bits(np.array(values, dtype=np.uint64), out)
    for value, (count, low) in zip(values, out.tolist(), strict=True):
        assert count == value.bit_count()
        assert low == (value & -value).bit_length() - 1


def random_position(geometry: Geometry, rng: random.Random, plies: int) -> tuple[int, int]:
    """X and O masks after up to ``plies`` random moves, stopping before a line is complete."""
    x = o = 0
    for ply in range(plies):
        empty = [c for c in range(geometry.size) if not (x | o) >> c & 1]
        if not empty:
            break
        cell = rng.choice(empty)
        nx, no = (x | 1 << cell, o) if ply % 2 == 0 else (x, o | 1 << cell)
        if any(line & nx == line or line & no == line for line in geometry.lines):
            break
        x, o = nx, no
    return x, o


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    spec=st.sampled_from(["4x4", "5x5,k=4", "6x6,k=5", "7x7,k=5", "4x4x4", "8x8,k=5"]),
    plies=st.integers(0, 16),
)
def test_compiled_pairing_is_the_reference_pairing(seed: int, spec: str, plies: int) -> None:
    geometry = Geometry.parse(spec)
    x, o = random_position(geometry, random.Random(seed), plies)
    scratch = kernel.PairScratch(geometry.lines, geometry.k)
    lines = np.array(geometry.lines, dtype=np.uint64)
    for defender, attacker in ((o, x), (x, o)):
        expected = reference_pairing(geometry.lines, defender, attacker, geometry.full_mask, 60)
        count = kernel.find_pairing(
            lines,
            np.uint64(defender),
            np.uint64(attacker),
            np.uint64(geometry.full_mask),
            60,
            scratch.arrays(),
        )
        if expected is None:
            assert count == -1
        else:
            found = [tuple(pair) for pair in scratch.pairs[:count].tolist()]
            assert found == expected
            assert is_pairing(geometry.lines, defender, attacker, geometry.full_mask, found)


def plan_wins(geometry: Geometry, s: int, d: int, plan: Plan) -> bool:
    """Whether S (to move, marks ``s``) wins by playing ``plan`` against every reply of D: after a
    reply the plan does not list, S must be able to complete a line at once; D must never complete
    one. Played out move by move, nothing assumed."""
    lines = geometry.lines
    if (s | d) >> plan.move & 1:
        return False
    s |= 1 << plan.move
    if any(line & s == line for line in lines):
        return True
    answers = dict(plan.replies)
    replied = False
    for reply in range(geometry.size):
        if (s | d) >> reply & 1:
            continue
        replied = True
        after = d | 1 << reply
        if any(line & after == line for line in lines):
            return False  # D completed a line
        if reply in answers:
            if not plan_wins(geometry, s, after, answers[reply]):
                return False
        elif not any(not line & after and (line & ~s).bit_count() == 1 for line in lines):
            return False  # S cannot complete a line at once
    return replied  # a full board without a line of S is no win


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    spec=st.sampled_from(["5x5,k=4", "6x5,k=4", "7x7,k=5", "4x4x4", "8x4,k=4"]),
    plies=st.integers(2, 14),
)
def test_threat_plans_win_when_played_out(seed: int, spec: str, plies: int) -> None:
    geometry = Geometry.parse(spec)
    x, o = random_position(geometry, random.Random(seed), plies)
    attacker = "x" if x.bit_count() == o.bit_count() else "o"
    search = ProofSearch(geometry, attacker, table_bytes=SMALL)
    found = search.threat_plan(x, o)
    if found is not None:
        cx, co, plan = found
        s, d = (cx, co) if attacker == "x" else (co, cx)
        assert plan_wins(geometry, s, d, plan)


def test_threat_search_finds_wins_the_reference_finds() -> None:
    """On random middle-game positions of two boards, the compiled threat search finds a win
    wherever the reference finds one in nearly every case (their move orders differ, and a search
    that runs out of its budget proves nothing), and more than none."""
    rng = random.Random(7)
    both = reference_only = 0
    for spec in ("6x5,k=4", "7x7,k=5"):
        geometry = Geometry.parse(spec)
        search = ProofSearch(geometry, "x", table_bytes=SMALL)
        reference = ReferenceSearch(geometry, "x")
        for _ in range(300):
            x, o = random_position(geometry, rng, rng.choice([6, 8, 10, 12]))
            if x.bit_count() != o.bit_count():
                continue
            compiled = search.threat_plan(x, o) is not None
            slow = reference.threat_plan(x, o) is not None
            both += compiled and slow
            reference_only += slow and not compiled
    assert both > 10
    assert reference_only <= both // 5


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    spec=st.sampled_from(["4x4,k=3", "4x4", "3x3x3", "4x5,k=4", "3x5,k=3"]),
    plies=st.integers(0, 6),
)
def test_compiled_search_matches_the_reference(seed: int, spec: str, plies: int) -> None:
    geometry = Geometry.parse(spec)
    x, o = random_position(geometry, random.Random(seed), plies)
    for attacker in ("x", "o"):
        fast = ProofSearch(geometry, attacker, table_bytes=SMALL).solve(x, o)
        slow = ReferenceSearch(geometry, attacker).solve(x, o)
        assert fast == slow


def test_search_goes_on_where_it_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A search run in slices of a few positions does exactly what one long run does."""
    geometry = Geometry.parse("5x5,k=4")
    whole = ProofSearch(geometry, "x", table_bytes=SMALL)
    assert whole.solve() is False
    monkeypatch.setattr(dfpn, "SLICE", 7)
    sliced = ProofSearch(geometry, "x", table_bytes=SMALL)
    assert sliced.solve() is False
    assert sliced.statistics() == whole.statistics()


@pytest.mark.parametrize(
    ("slots", "counter", "max_nodes"),
    [
        # barely big enough for the proof: entries are replaced
        (32768, "table_replacements", None),
        # far too small: the table is swept of its cheaper half again and again; before, the
        # search kept re-searching the same few positions for millions of steps
        (4096, "table_sweeps", 1_000_000),
    ],
)
def test_a_full_table_still_gives_a_checked_strategy(
    slots: int, counter: str, max_nodes: int | None
) -> None:
    """5x5 with k = 4 in a small table: the value is still found and the strategy read back
    (settling again what the table let go) passes the checker."""
    geometry = Geometry.parse("5x5,k=4")
    search = ProofSearch(
        geometry, "x", table_bytes=slots * kernel.Table.bytes_per_slot(), max_nodes=max_nodes
    )
    assert search.solve() is False
    assert search.statistics()[counter] > 0
    entries = search.strategy()
    with tempfile.TemporaryDirectory() as folder:
        path = write_strategy(Path(folder), geometry, "o", "no-loss", entries)
        assert verify_certificate(path).valid


def test_out_of_budget_is_unknown() -> None:
    search = ProofSearch(Geometry.parse("7x7,k=5"), "x", max_nodes=500, table_bytes=SMALL)
    assert search.solve() is None
    assert 0 < search.nodes <= 500
    moves = search.first_moves()
    assert sum(len(v) for v in moves.values()) == 10  # one cell per class of the 7x7 board


def test_boards_beyond_64_cells_use_the_wide_search() -> None:
    from oxo.proofs.wide import WideSearch

    search = make_search(Geometry.parse("9x9,k=5"), "x", max_nodes=50, table_bytes=1 << 20)
    assert isinstance(search, WideSearch)
    with pytest.raises(ValueError, match="64 cells"):
        ProofSearch(Geometry.parse("9x9,k=5"), "x")


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plies=st.integers(0, 30))
def test_status_strings_of_certificates(seed: int, plies: int) -> None:
    from oxo.position import Position
    from oxo.proofs.certificate import status_string

    geometry = Geometry.parse("7x7,k=5")
    x, o = random_position(geometry, random.Random(seed), plies)
    expected = Position(geometry, x, o).to_status_string()
    assert status_string(x, o, geometry.size) == expected


def _attacker_forces_a_line(
    lines: tuple[int, ...], s: int, d: int, empty: int, s_to_move: bool, memo: dict
) -> bool:
    """Plain minimax: can S force a complete line (before D completes one) from here?"""
    key = (s, d, s_to_move)
    if key in memo:
        return bool(memo[key])
    if any(line & s == line for line in lines):
        result = True
    elif any(line & d == line for line in lines) or not empty:
        result = False
    else:
        children = []
        for cell in range(empty.bit_length()):
            if empty >> cell & 1:
                bit = 1 << cell
                if s_to_move:
                    children.append(
                        _attacker_forces_a_line(lines, s | bit, d, empty & ~bit, False, memo)
                    )
                else:
                    children.append(
                        _attacker_forces_a_line(lines, s, d | bit, empty & ~bit, True, memo)
                    )
        result = any(children) if s_to_move else all(children)
    memo[key] = result
    return result


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    spec=st.sampled_from(["4x4", "4x5,k=4", "5x4,k=4", "4x4,k=3"]),
    plies=st.integers(6, 11),
)
def test_zones_hold_with_every_other_cell_given_to_the_attacker(
    seed: int, spec: str, plies: int
) -> None:
    """Every disproven position met on the way keeps a zone that really is one: filling every
    empty cell outside it with the attacker's marks still leaves the defender holding (checked
    by plain minimax, the attacker to move as in the position)."""
    geometry = Geometry.parse(spec)
    x, o = random_position(geometry, random.Random(seed), plies)
    lines = geometry.lines
    memo: dict = {}
    for attacker in ("x", "o"):
        search = ProofSearch(geometry, attacker, table_bytes=SMALL)
        if search.solve(x, o) is not False:
            continue
        # the position itself and its children
        x_to_move = x.bit_count() == o.bit_count()
        empty = geometry.full_mask & ~(x | o)
        positions = [(x, o)] + [
            ((x | 1 << c, o) if x_to_move else (x, o | 1 << c))
            for c in range(geometry.size)
            if empty >> c & 1
        ]
        for px, po in positions:
            zone = search.zone_of(px, po)
            if zone is None:
                continue
            free = geometry.full_mask & ~(px | po)
            assert zone & ~free == 0
            if zone.bit_count() > 10:
                continue  # plain minimax over more cells takes too long here
            s, d = (px, po) if attacker == "x" else (po, px)
            s_to_move = (px.bit_count() == po.bit_count()) == (attacker == "x")
            filled = s | (free & ~zone)
            assert not _attacker_forces_a_line(lines, filled, d, zone, s_to_move, memo)


def test_the_worked_zone_example_of_docs_proofs() -> None:
    """docs/proofs.md's worked example prints what the page says it prints: on 4x5 (k=4) with X
    on 15, 16 and O on 3, 4, O holds, the zone leaves out cells 9 and 14 only, and zones spare
    the search some positions."""
    board = Geometry.parse("4x5,k=4")
    x, o = 1 << 15 | 1 << 16, 1 << 3 | 1 << 4
    search = ProofSearch(board, "x")
    assert search.solve(x, o) is False
    zone = search.zone_of(x, o)
    assert zone is not None
    empty = board.full_mask & ~(x | o)
    assert [c for c in range(board.size) if (empty & ~zone) >> c & 1] == [9, 14]
    stats = search.statistics()
    assert stats["zone_cutoffs"] == 6 and stats["nodes"] == 280
    plain = ProofSearch(board, "x", zones=False)
    assert plain.solve(x, o) is False
    assert plain.statistics()["nodes"] == 325 and plain.statistics()["zone_cutoffs"] == 0
    text = (Path(__file__).resolve().parent.parent / "docs" / "proofs.md").read_text()
    assert "`[9, 14]`" in text and "280 positions, against 325" in text


@pytest.mark.slow
def test_a_table_that_may_grow_replaces_almost_nothing() -> None:
    """While the table may still grow it stays at most a third full, so a position finds a free
    slot among its probes nearly always: replacements are a tiny fraction of the stores (a table
    whose slots are badly spread replaces positions long before it is full)."""
    search = ProofSearch(Geometry.parse("7x4,k=4"), "x", max_nodes=300_000)
    search.solve()
    stats = search.statistics()
    assert stats["table_entries"] > 100_000
    assert stats["table_replacements"] < stats["table_entries"] // 100


def test_replacement_spares_work_over_cheap_settled_positions() -> None:
    """When a key's probes are all taken, the entry replaced is the one that cost least to find: a
    position settled at once (work 1) goes before an unsettled one with much work below it. (A
    policy that kept every settled position let two positions of the search push each other out
    for ever next to a cluster of settled ones.)"""
    table = kernel.Table(1024)
    stats = np.zeros(kernel.STATS, np.int64)
    home = 5
    # Odd keys (as the search's are) whose first slot is ``home``: the bits above the lowest.
    keys = [np.uint64((home << 1 | 1) | (j << 11)) for j in range(1, 10)]
    assert all(kernel.home(key, np.int64(1023)) == home for key in keys)
    arrays = (table.key, table.pn, table.dn, table.flags, table.work, table.zone, stats)
    kernel.table_store(*arrays, keys[0], 3, 4, np.uint8(0), 1000, kernel.ZERO)
    for key in keys[1 : kernel.PROBES]:
        kernel.table_store(*arrays, key, 0, kernel.INF, np.uint8(0), 1, kernel.ZERO)
    kernel.table_store(*arrays, keys[kernel.PROBES], 5, 5, np.uint8(0), 1, kernel.ZERO)
    assert stats[kernel.ST_REPLACED] == 1
    assert kernel.table_find(table.key, keys[0]) >= 0
    assert kernel.table_find(table.key, keys[kernel.PROBES]) >= 0
    kept = sum(kernel.table_find(table.key, key) >= 0 for key in keys[1 : kernel.PROBES])
    assert kept == kernel.PROBES - 2


def test_a_table_that_replaces_too_much_grows() -> None:
    """4x10 with k = 4 fills a few clusters of slots early: the table grows on the replacements,
    not only when a third full, so the positions found are kept (before, the table stayed at
    39,369 entries while the search went on for millions of positions)."""
    search = ProofSearch(Geometry.parse("4x10,k=4"), "x", max_nodes=300_000)
    search.solve()
    stats = search.statistics()
    assert stats["table_entries"] > 100_000
    assert stats["table_replacements"] < stats["nodes"] // 2
