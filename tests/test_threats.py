"""Threat-space search against plain searches on small boards: with fours only it finds exactly the wins of
a brute-force search of the game where the attacker may only make threats; with threes, every plan it finds
is played out against every reply and agrees with plain minimax; and proofs that use it verify."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oxo.geometry import Geometry
from oxo.proofs.certificate import verify_certificate
from oxo.proofs.dfpn import ProofSearch
from oxo.proofs.solver import prove_board
from oxo.proofs.threats import Plan, ThreatSearch

BOARDS = ["4x4,k=3", "3x5,k=3", "4x5,k=4", "5x5,k=4", "3x3x3", "6x3,k=4"]


def has_line(geometry: Geometry, marks: int) -> bool:
    return any(marks & line == line for line in geometry.lines)


def random_position(geometry: Geometry, rng: random.Random, plies: int) -> tuple[int, int] | None:
    """S and D marks of a random game prefix with no line, S to move (S made as many moves as D)."""
    s = d = 0
    cells = list(range(geometry.size))
    rng.shuffle(cells)
    for ply in range(2 * plies):
        cell = cells[ply]
        if ply % 2 == 0:
            s |= 1 << cell
        else:
            d |= 1 << cell
        if has_line(geometry, s) or has_line(geometry, d):
            return None
    return s, d


def threats_only_win(geometry: Geometry, s: int, d: int) -> bool:
    """Brute force: can S (to move) force a line when every move of S must complete a line or leave a
    line one mark short, while D may play anywhere? (All of D's replies are tried.)"""
    full = geometry.full_mask

    @cache
    def s_to_move(s: int, d: int) -> bool:
        empty = full & ~(s | d)
        cells = [cell for cell in range(geometry.size) if empty >> cell & 1]
        if any(has_line(geometry, s | 1 << cell) for cell in cells):
            return True
        for cell in cells:
            after = s | 1 << cell
            short = any(
                not line & d and (line & ~after).bit_count() == 1 for line in geometry.lines
            )
            if short and d_to_move(after, d):
                return True
        return False

    @cache
    def d_to_move(s: int, d: int) -> bool:
        empty = full & ~(s | d)
        if not empty:
            return False
        for cell in range(geometry.size):
            if empty >> cell & 1:
                after = d | 1 << cell
                if has_line(geometry, after) or not s_to_move(s, after):
                    return False
        return True

    return s_to_move(s, d)


def minimax_win(geometry: Geometry, s: int, d: int) -> bool:
    """Plain minimax: can S (to move) force a line of its own?"""
    full = geometry.full_mask

    @cache
    def win(s: int, d: int, s_moves: bool) -> bool:
        empty = full & ~(s | d)
        if not empty:
            return False
        cells = [c for c in range(geometry.size) if empty >> c & 1]
        if s_moves:
            return any(has_line(geometry, s | 1 << c) or win(s | 1 << c, d, False) for c in cells)
        return all(not has_line(geometry, d | 1 << c) and win(s, d | 1 << c, True) for c in cells)

    return win(s, d, True)


def plan_wins(geometry: Geometry, s: int, d: int, plan: Plan) -> bool:
    """Play the plan against every reply of D: every listed reply continues the plan, every other reply
    lets S complete a line at once, and D never completes one."""
    empty = geometry.full_mask & ~(s | d)
    if not empty >> plan.move & 1:
        return False
    s |= 1 << plan.move
    if has_line(geometry, s):
        return True
    listed = dict(plan.replies)
    for reply in range(geometry.size):
        if not (empty & ~(1 << plan.move)) >> reply & 1:
            continue
        after = d | 1 << reply
        if has_line(geometry, after):
            return False
        if reply in listed:
            if not plan_wins(geometry, s, after, listed[reply]):
                return False
        elif not any(not line & after and (line & ~s).bit_count() == 1 for line in geometry.lines):
            return False
    return bool(empty & ~(1 << plan.move))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), spec=st.sampled_from(BOARDS), plies=st.integers(1, 5))
def test_fours_only_finds_exactly_the_threat_wins(seed: int, spec: str, plies: int) -> None:
    geometry = Geometry.parse(spec)
    start = random_position(geometry, random.Random(seed), plies)
    if start is None:
        return
    s, d = start
    search = ThreatSearch(
        geometry.lines, geometry.lines_through, geometry.full_mask, threes=False, budget=10**7
    )
    plan = search.find(s, d)
    assert (plan is not None) == threats_only_win(geometry, s, d)
    if plan is not None:
        assert plan_wins(geometry, s, d, plan)


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    spec=st.sampled_from(BOARDS),
    plies=st.integers(2, 6),
    deep=st.booleans(),
)
def test_plans_with_threes_win_against_every_reply(
    seed: int, spec: str, plies: int, deep: bool
) -> None:
    geometry = Geometry.parse(spec)
    start = random_position(geometry, random.Random(seed), plies)
    if start is None:
        return
    s, d = start
    fours = ThreatSearch(
        geometry.lines, geometry.lines_through, geometry.full_mask, threes=False, budget=10**7
    )
    both = ThreatSearch(
        geometry.lines,
        geometry.lines_through,
        geometry.full_mask,
        deep_threes=deep,
        budget=10**7,
    )
    plan = both.find(s, d)
    if plan is not None:
        assert plan_wins(geometry, s, d, plan)
        if (geometry.full_mask & ~(s | d)).bit_count() <= 12:
            assert minimax_win(geometry, s, d)
    # Threes only add wins: whatever fours alone find, the search with threes finds too.
    if fours.find(s, d) is not None:
        assert plan is not None


def test_threes_find_wins_fours_alone_miss() -> None:
    """On 4x4 with k=3 (an X win) the empty board is won by threats once threes count, not by fours
    alone; the plan holds against every reply."""
    geometry = Geometry.parse("4x4,k=3")
    args = (geometry.lines, geometry.lines_through, geometry.full_mask)
    assert ThreatSearch(*args, threes=False).find(0, 0) is None
    plan = ThreatSearch(*args).find(0, 0)
    assert plan is not None and plan_wins(geometry, 0, 0, plan)


@pytest.mark.parametrize("deep", [False, True])
def test_plan_on_a_small_position_is_a_win_by_minimax(deep: bool) -> None:
    rng = random.Random(7)
    geometry = Geometry.parse("4x5,k=4")
    found = 0
    for _ in range(300):
        start = random_position(geometry, rng, 5)
        if start is None:
            continue
        plan = ThreatSearch(
            geometry.lines,
            geometry.lines_through,
            geometry.full_mask,
            deep_threes=deep,
            budget=10**6,
        ).find(*start)
        if plan is not None:
            found += 1
            assert plan_wins(geometry, *start, plan)
            assert minimax_win(geometry, *start)
    assert found > 0


@pytest.mark.parametrize(
    ("spec", "value"), [("4x4,k=3", "x"), ("3x4,k=3", "x"), ("4x5,k=4", "draw")]
)
def test_proofs_with_threat_plans_verify(spec: str, value: str, tmp_path: Path) -> None:
    geometry = Geometry.parse(spec)
    search = ProofSearch(geometry, "x")
    result = prove_board(geometry, seconds=None, proof_dir=tmp_path / "proof")
    assert result.value == value
    for path in result.proofs:
        assert verify_certificate(path).valid
    search.solve()
    if value == "x":
        assert search.statistics()["threat_wins"] > 0  # the win is (partly) proved by threat plans


@pytest.mark.slow
def test_six_by_five_with_threes_verifies(tmp_path: Path) -> None:
    result = prove_board(Geometry.parse("6x5,k=4"), seconds=None, proof_dir=tmp_path / "p")
    assert result.value == "x"
    assert all(verify_certificate(path).valid for path in result.proofs)
