"""The constraint search: its counts against its own listing, with cells and with symmetry cycles."""

from __future__ import annotations

import pytest

import oxo.winsearch as winsearch
from oxo.counting import symmetry_cycles
from oxo.errors import OptionError
from oxo.geometry import Geometry
from oxo.legality import check_position
from oxo.position import Position
from oxo.winsearch import count_terminal_ply, search_terminal

BOARDS = ["3x3", "2x4", "3x3,k=2", "2x2x2", "3x4", "1x6,k=3", "4x4"]


def all_outcomes(geometry: Geometry):  # type: ignore[no-untyped-def]
    for ply in range(geometry.size + 1):
        for outcome in ("x", "o", "draw"):
            yield ply, outcome


@pytest.mark.parametrize("spec", BOARDS)
def test_count_equals_listing(spec: str) -> None:
    geometry = Geometry.parse(spec)
    for ply, outcome in all_outcomes(geometry):
        if geometry.size == 16 and 9 <= ply <= 14:
            continue  # listed in the slow test
        listed = list(search_terminal(geometry, ply, outcome))  # type: ignore[arg-type]
        assert len(listed) == len(set(listed))
        assert count_terminal_ply(geometry, ply, outcome) == len(listed)  # type: ignore[arg-type]


@pytest.mark.slow
def test_count_equals_listing_4x4_middle_plies() -> None:
    geometry = Geometry.parse("4x4")
    for ply in range(9, 15):
        for outcome in ("x", "o"):
            assert count_terminal_ply(geometry, ply, outcome) == sum(
                1 for _ in search_terminal(geometry, ply, outcome)
            )


@pytest.mark.parametrize("spec", ["3x3", "3x4", "2x2x2", "4x4,k=3"])
def test_fixed_points_equal_listing(spec: str) -> None:
    # With a symmetry's cycles as blocks the search finds exactly the positions that symmetry fixes.
    geometry = Geometry.parse(spec)
    for symmetry in geometry.symmetries[1:]:
        blocks = symmetry_cycles(symmetry)
        for ply, outcome in all_outcomes(geometry):
            listed = list(search_terminal(geometry, ply, outcome, blocks=blocks))  # type: ignore[arg-type]
            for x, o in listed:
                assert symmetry.apply_mask(x) == x and symmetry.apply_mask(o) == o
            assert count_terminal_ply(geometry, ply, outcome, blocks=blocks) == len(listed)  # type: ignore[arg-type]


def test_listed_positions_are_terminal_and_legal() -> None:
    geometry = Geometry.parse("4x4,k=3")
    for ply, outcome in all_outcomes(geometry):
        for count, (x, o) in enumerate(search_terminal(geometry, ply, outcome)):  # type: ignore[arg-type]
            if count >= 40:
                break
            position = Position(geometry, x, o)
            verdict = check_position(position)
            assert position.ply == ply and verdict.is_terminal
            assert verdict.status == {"x": "x_won", "o": "o_won", "draw": "draw"}[outcome]


@pytest.mark.parametrize(
    ("spec", "plies"), [("4x4,k=3", range(7, 12)), ("3x3x3", (6,)), ("3x4,k=2", range(13))]
)
def test_branching_fallback_gives_the_same_counts(
    spec: str, plies: range, monkeypatch: pytest.MonkeyPatch
) -> None:
    # With little room for inclusion–exclusion the loser's count branches cell by cell to smaller cases.
    geometry = Geometry.parse(spec)
    expected = {(p, oc): count_terminal_ply(geometry, p, oc) for p in plies for oc in ("x", "o")}  # type: ignore[arg-type]
    gave_up = []
    exclusion = winsearch._inclusion_exclusion

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        try:
            return exclusion(*args, **kwargs)
        except winsearch._TooMany:
            gave_up.append(1)
            raise

    monkeypatch.setattr(winsearch, "IE_BUDGET", 8)
    monkeypatch.setattr(winsearch, "TABLE_BUDGET", 0)  # no shared table: each winner set on its own
    monkeypatch.setattr(winsearch, "_inclusion_exclusion", counted)
    for (ply, outcome), value in expected.items():
        assert count_terminal_ply(geometry, ply, outcome) == value  # type: ignore[arg-type]
    assert gave_up  # the fallback did run


def test_bad_requests() -> None:
    geometry = Geometry.parse("3x3")
    with pytest.raises(OptionError):
        list(search_terminal(geometry, 10, "x"))
    with pytest.raises(OptionError):
        count_terminal_ply(geometry, 5, "nobody")  # type: ignore[arg-type]
    assert list(search_terminal(geometry, 4, "x")) == []  # X cannot finish at an even ply
    assert count_terminal_ply(geometry, 8, "draw") == 0  # a draw needs a full board
