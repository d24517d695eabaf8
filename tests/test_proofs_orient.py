"""A tall board searched on its side (oxo.proofs.orient): the transposition is a map of the game,
the values are the board's own, and the certificates name the board as asked and pass the
independent checker (tools/check_strategy.py, which does not import oxo)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkers import checker_verdict
from oxo.geometry import Geometry
from oxo.proofs.dfpn import ProofSearch
from oxo.proofs.orient import Transposed, transposition, wide
from oxo.proofs.reference import ReferenceSearch
from oxo.proofs.search import make_search
from oxo.proofs.solver import prove_board
from oxo.solve import solve
from positions import random_position


@settings(max_examples=40, deadline=None)
@given(rows=st.integers(2, 9), cols=st.integers(1, 8), k=st.integers(1, 5))
def test_the_transposition_carries_lines_onto_lines(rows: int, cols: int, k: int) -> None:
    k = min(k, max(rows, cols))
    if rows <= cols:
        assert wide(Geometry((rows, cols), k)) is None
        return
    tall = Geometry((rows, cols), k)
    turned = wide(tall)
    assert turned is not None and turned.shape == (cols, rows) and turned.k == k
    turn = transposition(tall)
    assert sorted(turn.perm) == list(range(tall.size))
    for cell in tall.cells:
        r, c = tall.coords(cell)
        assert turned.coords(turn(cell)) == (c, r)
    assert sorted(turn.apply_mask(line) for line in tall.lines) == sorted(turned.lines)


def test_wide_and_square_boards_and_cubes_are_searched_as_they_are() -> None:
    for spec in ("3x3", "4x10,k=4", "7x7,k=5", "3x3x3"):
        assert wide(Geometry.parse(spec)) is None
        assert not isinstance(make_search(Geometry.parse(spec), "x", max_nodes=50), Transposed)


TALL = [
    "3x2",
    "4x2",
    "4x3",
    "5x2",
    "5x3",
    "7x2",
    "5x3,k=3",
    "6x2,k=2",
    "5x4,k=4",
    "6x5,k=4",
    "8x5,k=5",
]


def value_searched_upright(geometry: Geometry) -> str:
    """The value by the exact per-ply solver (up to 16 cells), else by the compiled search given the
    tall board itself."""
    if geometry.size <= 16:
        return solve(geometry).value().outcome
    if ProofSearch(geometry, "x").solve():
        return "x"
    return "o" if ProofSearch(geometry, "o").solve() else "draw"


@pytest.mark.parametrize("spec", TALL)
def test_a_tall_board_keeps_its_value_and_its_certificates_check(spec: str, tmp_path: Path) -> None:
    geometry = Geometry.parse(spec)
    result = prove_board(geometry, seconds=None, proof_dir=tmp_path)
    assert result.value == value_searched_upright(geometry)
    assert result.proofs
    for path in result.proofs:
        code, report = checker_verdict(path)
        assert code == 0 and report["valid"], report
        assert report["board"] == geometry.spec_shape  # the board as asked, not the one searched


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    spec=st.sampled_from(["4x3", "5x3,k=3", "5x4,k=3"]),
    plies=st.integers(0, 7),
)
def test_a_tall_board_searched_on_its_side_answers_as_the_board_itself(
    seed: int, spec: str, plies: int
) -> None:
    position = random_position(spec, plies, seed)
    for attacker in ("x", "o"):
        turned = make_search(position.geometry, attacker, position=(position.x, position.o))
        assert isinstance(turned, Transposed)
        direct = ReferenceSearch(position.geometry, attacker)
        answer = turned.solve(position.x, position.o)
        assert answer == direct.solve(position.x, position.o)
        # Every move read out is an empty cell of the board as asked.
        status, moves = turned.expand(position.x, position.o)
        empty = position.geometry.full_mask & ~(position.x | position.o)
        assert all(empty >> move & 1 for move in moves)
        if answer is not None:
            for entry in turned.strategy(position.x, position.o):
                assert not entry.x & entry.o
                if entry.move is not None:
                    assert not (entry.x | entry.o) >> entry.move & 1
