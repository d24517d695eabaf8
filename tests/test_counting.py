"""The position counter: the fast pair counter against the reference search and seed 001's table."""

from __future__ import annotations

import pytest

from oxo.counting import CountingError, count_by_pairs, count_positions
from oxo.counting.lines import count_by_lines
from oxo.counting.reference import count_by_search
from oxo.geometry import Geometry
from positions import SMALL_BOARDS

# Seed 001's table: (positions, classes) per ply, as published there.
SEED_001 = {
    "1x1": [(1, 1), (1, 1)],
    "2x2": [(1, 1), (4, 1), (12, 2), (12, 2), (0, 0)],
    "3x3": [
        (1, 1),
        (9, 3),
        (72, 12),
        (252, 38),
        (756, 108),
        (1260, 174),
        (1520, 204),
        (1140, 153),
        (390, 57),
        (78, 15),
    ],
    "4x4": [
        (1, 1),
        (16, 3),
        (240, 33),
        (1680, 219),
        (10920, 1413),
        (43680, 5514),
        (160160, 20122),
        (400400, 50215),
        (895950, 112379),
        (1433520, 179510),
        (1962576, 245690),
        (1962576, 245690),
        (1543080, 193318),
        (881760, 110452),
        (333792, 41870),
        (83440, 10489),
        (8220, 1059),
    ],
}
SEED_001_TOTALS = {"1x1": (2, 2), "2x2": (29, 6), "3x3": (5478, 765), "4x4": (9722011, 1217977)}


@pytest.mark.parametrize("spec", sorted(SEED_001))
def test_seed_001_table(spec: str) -> None:
    table = count_positions(Geometry.parse(spec))
    assert [(row.positions, row.classes) for row in table.plies] == SEED_001[spec]
    assert (table.total_positions, table.total_classes) == SEED_001_TOTALS[spec]


@pytest.mark.parametrize("spec", SMALL_BOARDS)
def test_pair_counter_agrees_with_search(spec: str) -> None:
    geometry = Geometry.parse(spec)
    assert count_positions(geometry, "pairs").plies == count_positions(geometry, "search").plies


# Boards with at most 20 lines (the lines method sums over 2^lines sets of lines).
LINE_BOARDS = ["2x2", "3x3", "3x4", "4x3", "4x4", "3x3,k=2", "3x5", "1x4,k=2", "2x3,k=2", "2x2,k=1"]


@pytest.mark.parametrize("spec", LINE_BOARDS)
def test_line_method_agrees_with_pair_method(spec: str) -> None:
    geometry = Geometry.parse(spec)
    assert count_by_lines(geometry) == count_by_pairs(geometry, executor="serial")


@pytest.mark.slow
# 5x5 whole costs about 40 s of CPU: its first plies are held to the search below instead.
@pytest.mark.parametrize("spec", ["4x5", "5x4,k=4"])
def test_line_method_agrees_with_pair_method_on_big_boards(spec: str) -> None:
    geometry = Geometry.parse(spec)
    assert count_by_lines(geometry) == count_by_pairs(geometry)


@pytest.mark.parametrize(("spec", "plies"), [("5x5", 3), ("6x6", 3), ("4x5,k=4", 3)])
def test_big_boards_agree_with_search_on_first_plies(spec: str, plies: int) -> None:
    geometry = Geometry.parse(spec)
    table = count_positions(geometry)
    positions, classes = count_by_search(geometry, max_ply=plies)
    assert [(r.positions, r.classes) for r in table.plies[: plies + 1]] == list(
        zip(positions, classes)
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spec", "plies"), [("5x5", 5), ("6x6", 4), ("7x7", 2), ("2x3x3", 18), ("4x5,k=4", 5)]
)
def test_big_boards_agree_with_search_on_more_plies(spec: str, plies: int) -> None:
    geometry = Geometry.parse(spec)
    table = count_positions(geometry)
    positions, classes = count_by_search(geometry, max_ply=plies)
    assert [(r.positions, r.classes) for r in table.plies[: plies + 1]] == list(
        zip(positions, classes)
    )


def test_6x6_first_plies_are_multinomials() -> None:
    # Nobody can have six in a row before ply 11, so every placement of the marks is reachable.
    from math import comb

    table = count_positions(Geometry.parse("6x6"), "lines")
    for row in table.plies[:11]:
        x, o = (row.ply + 1) // 2, row.ply // 2
        assert row.positions == comb(36, x) * comb(36 - x, o)
    # At ply 11 X may have completed one line; every such position is still reachable.
    assert table.plies[11].positions == comb(36, 6) * comb(30, 5)


def test_lines_method_refuses_boards_with_many_lines() -> None:
    with pytest.raises(CountingError, match="at most"):
        count_positions(Geometry.parse("4x4x4"), "lines")


def test_auto_picks_lines_for_few_lines_and_pairs_otherwise() -> None:
    assert count_positions(Geometry.parse("5x5")).method == "lines"
    assert count_positions(Geometry.parse("3x3")).method == "lines"
    assert count_positions(Geometry.parse("3x3", k=2)).method == "pairs"
    # 16 lines of one cell on 16 cells: few lines, but no fewer than the cells
    assert count_positions(Geometry.parse("4x4", k=1)).method == "pairs"


@pytest.mark.parametrize("executor", ["processes", "dask"])
def test_executors_give_the_same_table(monkeypatch: pytest.MonkeyPatch, executor: str) -> None:
    import oxo.counting as counting

    geometry = Geometry.parse("3x4")
    monkeypatch.setattr(counting, "SHARD_CELLS", 10)  # four shards per problem
    expected = count_positions(geometry, "pairs", executor="serial")
    assert count_positions(geometry, "pairs", executor=executor, workers=2).plies == expected.plies


def test_search_reproduces_3x3_by_itself() -> None:
    positions, classes = count_by_search(Geometry.parse("3x3"))
    assert positions == [1, 9, 72, 252, 756, 1260, 1520, 1140, 390, 78]
    assert classes == [1, 3, 12, 38, 108, 174, 204, 153, 57, 15]


def test_sharded_counting_agrees_with_unsharded(monkeypatch: pytest.MonkeyPatch) -> None:
    import oxo.counting as counting

    geometry = Geometry.parse("3x4")
    whole = count_positions(geometry, "pairs")
    monkeypatch.setattr(counting, "SHARD_CELLS", 7)  # forces up to 2^5 shards per symmetry
    fractions: list[float] = []
    sharded = count_positions(geometry, "pairs", on_progress=fractions.append)
    assert sharded.plies == whole.plies
    assert fractions and fractions[-1] == pytest.approx(1.0)
    assert fractions == sorted(fractions)


def test_table_json_shape() -> None:
    data = count_positions(Geometry.parse("3x3")).to_dict()
    assert data["board"] == "3x3" and data["k"] == 3
    assert data["plies"][1] == {"ply": 1, "positions": 9, "classes": 3}
    assert data["total"] == {"positions": 5478, "classes": 765}


def test_unknown_method() -> None:
    with pytest.raises(CountingError, match="unknown counting method"):
        count_positions(Geometry.parse("3x3"), "magic")  # type: ignore[arg-type]


@pytest.mark.slow
def test_search_agrees_on_4x4_with_k_3_while_games_are_short() -> None:
    geometry = Geometry.parse("4x4", k=3)
    table = count_positions(geometry, "pairs")
    # X can win from ply 5 and O from ply 6: ply 7 already leaves out both sides' finished games.
    positions, classes = count_by_search(geometry, max_ply=7)
    assert [(r.positions, r.classes) for r in table.plies[:8]] == list(zip(positions, classes))
