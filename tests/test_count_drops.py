"""Positions per ply of boards with gravity (oxo.counting.drops), against a plain walk of the games
and against the gravity boards' own count of Connect Four."""

from __future__ import annotations

import pytest

from oxo.counting.drops import count_positions, estimate_count, estimate_plies, reach
from oxo.errors import BoardSpecError, OutOfReachError
from oxo.geometry import Geometry
from oxo.position import Position


def walk(geometry: Geometry, last: int) -> tuple[list[int], list[int], list[int]]:
    """Positions, classes and finished positions per ply by playing every game move by move with
    the positions' own rules, up to ply ``last``."""
    level = {(0, 0)}
    positions, classes, finished = [1], [1], [0]
    for _ in range(last):
        children = set()
        for x, o in level:
            position = Position(geometry, x, o)
            for move in position.legal_moves:
                child = position.play(move)
                children.add((child.x, child.o))
        if not children:
            break
        over = {pair for pair in children if Position(geometry, *pair).is_over}
        positions.append(len(children))
        finished.append(len(over))
        classes.append(
            len(
                {
                    min((s.apply_mask(x), s.apply_mask(o)) for s in geometry.symmetries)
                    for x, o in children
                }
            )
        )
        level = children - over
    return positions, classes, finished


@pytest.mark.parametrize(
    ("spec", "last"),
    [("4x4x4,gravity", 4), ("3x3x3,gravity", 5), ("2x2x2,gravity", 8), ("3x2x3,k=2,gravity", 18)],
)
def test_counts_match_a_plain_walk(spec: str, last: int) -> None:
    geometry = Geometry.parse(spec)
    counted = count_positions(geometry, last)
    positions, classes, finished = walk(geometry, last)
    assert list(counted.positions) == positions
    assert list(counted.classes) == classes
    assert list(counted.finished) == finished
    assert counted.complete == (len(positions) - 1 < last or last == geometry.size)


def test_connect_four_matches_the_gravity_boards_own_count() -> None:
    """The same board counted by the gravity boards' bitboard walk (held to OEIS A212693)."""
    from oxo.gravity.board import GravityBoard
    from oxo.gravity.counting import count_positions as count_gravity

    ours = count_positions(Geometry.parse("6x7,k=4,gravity"), 9)
    theirs = count_gravity(GravityBoard(6, 7, 4), 9)
    assert (ours.positions, ours.classes, ours.finished) == (
        theirs.positions,
        theirs.classes,
        theirs.finished,
    )


def test_a_whole_game_and_its_json() -> None:
    counted = count_positions(Geometry.parse("2x2x2,gravity"))
    assert counted.complete and sum(counted.finished) > 0
    data = counted.to_dict()
    assert data["gravity"] is True and data["board"] == "2x2x2" and data["complete"] is True
    assert data["classes_up_to"] == "the board's 8 symmetries"


def test_boards_it_does_not_take() -> None:
    with pytest.raises(BoardSpecError):
        count_positions(Geometry.parse("4x4x4"), 2)
    with pytest.raises(OutOfReachError):
        count_positions(Geometry.parse("4x4x4x4,gravity"), 2)


# -- limits ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "last"),
    [
        ("4x4x4,gravity", 5),
        ("3x3x3,gravity", 8),
        ("3x2x3,k=2,gravity", None),
        ("6x7,k=4,gravity", 8),
    ],
)
def test_estimates_are_upper_bounds(spec: str, last: int | None) -> None:
    """Every ply's bound holds the positions counted, and the bounds of a board with gravity in
    any dimension are those of the plane's gravity count where both apply (Connect Four)."""
    geometry = Geometry.parse(spec)
    counted = count_positions(geometry, last).positions
    plies = estimate_plies(geometry, len(counted) - 1)
    assert [p.ply for p in plies] == list(range(1, len(counted)))
    assert all(n <= p.positions_at_most for n, p in zip(counted[1:], plies, strict=True)), spec
    assert all(p.seconds > 0 and p.memory > 0 for p in plies)
    if spec.startswith("6x7"):
        from oxo.gravity.board import GravityBoard
        from oxo.gravity.counting import position_bounds

        assert [p.positions_at_most for p in plies] == position_bounds(GravityBoard(6, 7, 4), 8)[1:]


def test_the_estimate_reaches_further_with_more_time_and_memory() -> None:
    geometry = Geometry.parse("4x4x4,gravity")
    whole = estimate_count(geometry)
    assert whole.memory > estimate_count(geometry, 8).memory > estimate_count(geometry, 4).memory
    small, large = reach(geometry, 1.0, 1 << 30), reach(geometry, 600.0, 1 << 40)
    assert 0 < small < large < geometry.size
    assert reach(geometry, 600.0, 1 << 20) == 0  # not even the interpreter fits
