"""Games by inclusion–exclusion over lines against pair counting, walking every game and OEIS A061526."""

from __future__ import annotations

import math

import pytest
from tests.test_games import A061526, as_counter, walk_every_game

from oxo.counting.gamelines import (
    count_games_by_lines,
    disjoint_line_set_weights,
    games_by_lines,
    line_free_pairs,
)
from oxo.games import choose_game_method, count_games, games_on_cells
from oxo.geometry import Geometry

# Both methods on every symmetry's fixed cells (the Burnside terms), not only on the whole board.
BOTH_METHODS = ["1x1", "2x2", "3x3", "3x3,k=2", "3x4", "4x3", "2x5", "4x4", "1x5,k=3", "2x4,k=3"]


def fixed_masks(geometry: Geometry) -> list[int]:
    return [
        sum(1 << cell for cell, image in enumerate(s.perm) if image == cell)
        for s in geometry.symmetries
    ]


@pytest.mark.parametrize("spec", BOTH_METHODS)
def test_lines_agree_with_pair_counting_on_every_fixed_set(spec: str) -> None:
    geometry = Geometry.parse(spec)
    masks = fixed_masks(geometry)
    by_lines = count_games_by_lines(geometry.lines, geometry.full_mask, masks)
    for mask, rows in zip(masks, by_lines, strict=True):
        pairs = [(c.x_wins, c.o_wins, c.draws) for c in games_on_cells(geometry, mask)]
        assert rows == pairs


@pytest.mark.parametrize("spec", ["2x2", "2x3", "3x2", "1x5,k=3", "3x3,k=2"])
def test_lines_agree_with_walking_every_game(spec: str) -> None:
    geometry = Geometry.parse(spec)
    walked, classes = walk_every_game(geometry)
    result = count_games(geometry, method="lines")
    assert as_counter([row.games for row in result.by_length]) == walked
    assert result.classes.total == classes


def test_published_3x3_split_by_lines() -> None:
    result = count_games(Geometry.parse("3x3"), method="lines", universal=False)
    games = result.games
    assert (games.total, games.x_wins, games.o_wins, games.draws) == (255168, 131184, 77904, 46080)
    assert result.classes.total == 31896


def brute_line_free_pairs(lines: list[int], cells: int, a: int, b: int) -> int:
    """Disjoint pairs of line-free sets of sizes a and b, by listing every pair."""
    from itertools import combinations

    def free(mask: int) -> bool:
        return not any(mask & line == line for line in lines)

    count = 0
    for first in combinations(range(cells), a):
        mask_a = sum(1 << c for c in first)
        if not free(mask_a):
            continue
        rest = [c for c in range(cells) if not mask_a >> c & 1]
        for second in combinations(rest, b):
            count += free(sum(1 << c for c in second))
    return count


@pytest.mark.parametrize("spec", ["3x3", "2x4,k=3", "3x3,k=2"])
def test_line_free_pairs_against_listing(spec: str) -> None:
    geometry = Geometry.parse(spec)
    weights = disjoint_line_set_weights(geometry.lines, geometry.size)
    for a in range(geometry.size + 1):
        for b in range(geometry.size + 1 - a):
            expected = brute_line_free_pairs(list(geometry.lines), geometry.size, a, b)
            assert line_free_pairs(weights, geometry.size, a, b) == expected


def test_partial_boards_have_no_draws() -> None:
    geometry = Geometry.parse("3x3")
    rows = games_by_lines(geometry.lines, geometry.size, full_board=False)
    assert all(draws == 0 for _, _, draws in rows)


@pytest.mark.parametrize("spec", ["4x4", "5x5", "6x6", "7x7"])
def test_oeis_a061526_by_lines(spec: str) -> None:
    geometry = Geometry.parse(spec)
    assert choose_game_method(geometry) == "lines"
    result = count_games(geometry, universal=False)
    assert result.games.total == A061526[spec]
    # Every game ends once: the split by outcome adds up, and each length's classes are averages.
    games = result.games
    assert games.x_wins + games.o_wins + games.draws == A061526[spec]
    order = len(geometry.symmetries)
    for row in result.by_length:
        assert row.classes.total <= row.games.total <= order * row.classes.total


def test_5x5_split_agrees_with_pair_counting_split() -> None:
    # Pair counting on 5x5 takes about a minute; compare the splits on 4x4 by lengths, 5x5 by totals
    # of one length class only when pairs are quick (every Burnside term but the identity is small).
    geometry = Geometry.parse("5x5")
    masks = fixed_masks(geometry)[1:]
    by_lines = count_games_by_lines(geometry.lines, geometry.full_mask, masks)
    for mask, rows in zip(masks, by_lines, strict=True):
        pairs = [(c.x_wins, c.o_wins, c.draws) for c in games_on_cells(geometry, mask)]
        assert rows == pairs


@pytest.mark.parametrize("spec", ["4x5,k=4", "5x4,k=4"])
def test_a_whole_board_of_twenty_cells_agrees_with_pair_counting(spec: str) -> None:
    """Every length and outcome, draws included, on boards of 17 lines (more than 5x5's 12, whose
    total is held to OEIS A061526 in test_games; 5x5 by pairs takes a minute on two processes)."""
    geometry = Geometry.parse(spec)
    lines = count_games(geometry, universal=False, method="lines")
    pairs = count_games(geometry, universal=False, method="pairs")
    assert lines.to_dict() == pairs.to_dict()


def test_8x8_is_counted_and_consistent() -> None:
    geometry = Geometry.parse("8x8")
    result = count_games(geometry, universal=False)
    # No game is shorter than 2k - 1 = 15 moves; draws fill the board; classes are exact averages.
    lengths = [row.length for row in result.by_length if row.games.total]
    assert lengths[0] == 15 and lengths[-1] == 64
    assert result.by_length[64].games.draws == result.games.draws > 0
    assert result.games.total < math.factorial(64)
