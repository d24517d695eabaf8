"""Positions per ply by inclusion–exclusion over small sets of lines, against the other counters."""

from __future__ import annotations

from math import comb
from pathlib import Path

import pytest

from oxo.counting import count_positions
from oxo.counting.frontier import count_frontier, free_positions
from oxo.counting.reference import count_by_search
from oxo.counting.sparse import count_at, positions_at
from oxo.geometry import Geometry


@pytest.mark.parametrize("spec", ["3x3", "4x4", "3x4", "2x2x2,k=2", "3x3,k=2", "4x4,k=3"])
def test_every_ply_agrees_with_the_lines_and_pairs_counters(spec: str) -> None:
    geometry = Geometry.parse(spec)
    table = count_positions(geometry)
    for row in table.plies:
        assert count_at(geometry, row.ply) == (row.positions, row.classes), row.ply


def test_first_plies_of_5x5_k4_agree_with_the_tree_walk() -> None:
    geometry = Geometry.parse("5x5,k=4")
    # The walk to ply 4 (ply 5 alone would take ten times as long); up to ply 7 = 2k - 1 no game
    # has ended, so every placement of the marks counts, which free_positions counts by formula.
    positions, classes = count_by_search(geometry, max_ply=4)
    for ply in range(5):
        assert count_at(geometry, ply) == (positions[ply], classes[ply])
        assert free_positions(geometry, ply) == (positions[ply], classes[ply])
    for ply in range(5, 8):
        assert count_at(geometry, ply) == free_positions(geometry, ply)


def test_first_plies_of_4x4x4x4_agree_with_the_formula() -> None:
    # 256 cells: the fillings of the free cells stop at the marks a ply has (without that bound
    # every split of 256 cells would be made); no line is complete before ply 7.
    geometry = Geometry.parse("4x4x4x4")
    positions, classes = count_at(geometry, 3)
    assert (positions, classes) == free_positions(geometry, 3)
    assert positions == comb(256, 2) * 254


@pytest.mark.parametrize("spec", ["3x3x3", "6x7,k=4"])
def test_agrees_with_the_frontier_count(spec: str, tmp_path: Path) -> None:
    geometry = Geometry.parse(spec)
    rows = count_frontier(geometry, tmp_path, max_ply=5 if spec == "3x3x3" else 4)
    for row in rows:
        assert count_at(geometry, row.ply) == (row.positions, row.classes), row.ply


def test_qubic_beyond_the_first_win() -> None:
    geometry = Geometry.parse("4x4x4")
    for ply in range(8):  # no game can have ended before ply 7, and at ply 7 nothing is excluded
        assert count_at(geometry, ply) == free_positions(geometry, ply)
    # Ply 8: X's four marks must not form a line (X would have won at ply 7); O's may.
    lines = len(geometry.lines)
    from math import comb

    assert positions_at(geometry, 8) == comb(64, 4) * comb(60, 4) - lines * comb(60, 4)


# -- the command line: the first plies by sets of lines, the frontier beyond ------------------------


def published_qubic() -> list[dict[str, int]]:
    """The table written by benchmarks/results_count.py --sparse 4x4x4:14 (results/)."""
    import json

    record = Path(__file__).parents[1] / "results" / "sparse-4x4x4.json"
    return json.loads(record.read_text())["result"]["plies"]


@pytest.mark.parametrize("plies", [8, 14])
def test_qubic_count_by_sets_of_lines(plies: int, capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from oxo.cli import main

    assert main(["count", "4x4x4", "--plies", str(plies), "--json", "--quiet"]) == 0
    board = json.loads(capsys.readouterr().out)["boards"][0]
    assert board["method"] == "sparse" and board["complete"] is False
    assert [row.pop("method") for row in board["plies"]] == ["sparse"] * (plies + 1)
    assert board["plies"] == published_qubic()[: plies + 1]


@pytest.mark.slow
def test_qubic_without_plies_gives_the_quick_plies(capsys: pytest.CaptureFixture[str]) -> None:
    from oxo.cli import main

    assert main(["count", "4x4x4", "--quiet"]) == 0
    out = capsys.readouterr().out
    published = published_qubic()
    assert f"{published[14]['positions']:,}" in out
    assert "counted up to ply" in out and "--plies" in out and "frontier" in out


def test_plan_stops_where_the_sets_of_lines_grow(monkeypatch: pytest.MonkeyPatch) -> None:
    from oxo.counting import plan_plies
    from oxo.counting.sparse import estimate_sparse

    geometry = Geometry.parse("4x4x4")
    assert not plan_plies(geometry, 10, within=60).frontier
    plan = plan_plies(geometry, 64, within=60)
    assert plan.frontier and 0 <= plan.sparse_last < 64
    seconds = estimate_sparse(geometry, 64, within=60)
    assert sum(seconds) <= 60 and len(seconds) == len(plan.estimates)
    assert estimate_sparse(geometry, 64, max_sets=100)[-1] < 1  # capped long before big plies


def test_a_mixed_count_labels_each_ply_and_agrees_with_the_formulas(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A board small enough to finish: plies 0-2 by sets of lines, the rest by the frontier count,
    which must agree with the sets of lines on the plies both give."""
    import json

    import oxo.counting as counting
    from oxo.cli import main

    expected = count_positions(Geometry.parse("3x3"), "pairs")
    real_plan = counting.plan_plies

    def plan(geometry: Geometry, last: int, *, within: float) -> counting.PlyPlan:
        found = real_plan(geometry, last, within=within)
        return counting.PlyPlan(found.last, 2, found.estimates)

    monkeypatch.setattr(counting, "choose_method", lambda geometry, method="auto": "frontier")
    monkeypatch.setattr(counting, "plan_plies", plan)
    args = ["count", "3x3", "--folder", str(tmp_path / "q"), "--json", "--quiet"]
    assert main(args) == 0
    board = json.loads(capsys.readouterr().out)["boards"][0]
    assert board["method"] == "sparse+frontier" and board["complete"] is True
    assert [row["method"] for row in board["plies"]] == ["sparse"] * 3 + ["frontier"] * 7
    assert [(row["positions"], row["classes"]) for row in board["plies"]] == [
        (row.positions, row.classes) for row in expected.plies
    ]
    assert main([*args[:-2], "--quiet"]) == 0  # the text names which method gave which plies
    out = capsys.readouterr().out
    assert "plies 0-2 by inclusion-exclusion" in out and "plies 3-9 by visiting" in out
