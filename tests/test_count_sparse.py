"""Positions per ply by inclusion–exclusion over small sets of lines, against the other counters."""

from __future__ import annotations

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
    positions, classes = count_by_search(geometry, max_ply=5)
    for ply in range(6):
        assert count_at(geometry, ply) == (positions[ply], classes[ply])


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
