"""Connect Four on other board sizes: the solver's value of each empty k=4 board against the plain
minimax of ``oxo.gravity.reference`` (the smallest boards) and against the published table that
``benchmarks/results_gravity_sizes.py`` compares with (Tromp's, as given in Steininger's readme)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.reference import minimax
from oxo.gravity.solver import GravitySolver, default_table_words

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import results_gravity_sizes as sizes  # noqa: E402


def solved(width: int, height: int) -> tuple[str, int]:
    """The winner ("first", "second" or "draw") and ending ply of the empty board, as oxo solves it."""
    board = GravityBoard(height, width, 4)
    value = GravitySolver(board, default_table_words(board)).solve(GravityState(board))
    winner = {"x": "first", "o": "second", "draw": "draw"}[value.outcome]
    return winner, value.end_ply


@pytest.mark.parametrize(("rows", "cols"), [(3, 4), (4, 3), (2, 5)])
def test_the_smallest_boards_agree_with_plain_minimax(rows, cols):
    board = GravityBoard(rows, cols, 4)
    value = GravitySolver(board, 1 << 16).solve(GravityState(board))
    assert (value.outcome, value.end_ply) == minimax(GravityState(board))


@pytest.mark.slow
def test_4x4_agrees_with_plain_minimax():
    board = GravityBoard(4, 4, 4)
    value = GravitySolver(board, 1 << 16).solve(GravityState(board))
    assert (value.outcome, value.end_ply) == minimax(GravityState(board))


SMALL = sizes.sizes_up_to(25)
MIDDLE = [size for size in sizes.sizes_up_to(32) if size not in SMALL]


def test_the_table_covers_every_size_of_at_most_40_cells():
    wanted = {(w, h) for w in range(4, 11) for h in range(4, 11) if w * h <= 40}
    assert set(sizes.sizes_up_to(40)) == wanted
    assert len(SMALL) == 6 and len(MIDDLE) == 6


@pytest.mark.parametrize(("width", "height"), SMALL)
def test_small_boards_have_their_published_value(width, height):
    assert solved(width, height) == sizes.PUBLISHED[width, height]


@pytest.mark.slow
@pytest.mark.parametrize(("width", "height"), MIDDLE)
def test_boards_of_up_to_32_cells_have_their_published_value(width, height):
    assert solved(width, height) == sizes.PUBLISHED[width, height]


@pytest.mark.slow  # a fresh process: numba's start-up
def test_the_benchmark_solves_a_board_in_a_fresh_process_and_compares():
    record = sizes.solve_size(6, 4, seconds=120)
    assert record["settled"] and record["agrees"] is True
    assert (record["winner"], record["end_ply"]) == ("second", 24)
    assert record["spec"] == "4x6,k=4,gravity" and record["peak_mib"] > 0


@pytest.mark.slow  # a fresh process: numba's start-up
def test_a_board_past_its_time_limit_is_reported_not_settled():
    record = sizes.solve_size(6, 6, seconds=0.001)  # 6x6 takes seconds
    assert record["settled"] is False and "agrees" not in record
    assert "not settled in 0.001 s" in sizes.ours(record)
    assert "cannot" in str(record["text"]) or "not" in str(record["text"])
