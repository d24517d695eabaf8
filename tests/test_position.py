"""Positions: notations, play, symmetry, canonical forms and stabilizers."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oxo.errors import MoveError, OxoError, PositionError
from oxo.geometry import Geometry
from oxo.position import Position

GEOMETRIES = [Geometry.parse(s) for s in ("3x3", "4x4", "3x5", "2x2", "3x3x3")]


@st.composite
def positions(draw, geometries=GEOMETRIES):  # type: ignore[no-untyped-def]
    geometry = draw(st.sampled_from(geometries))
    statuses = draw(
        st.lists(st.sampled_from((0, 1, 2)), min_size=geometry.size, max_size=geometry.size)
    )
    return Position.from_statuses(geometry, statuses)


@given(positions())
def test_status_string_round_trip(position: Position) -> None:
    for rows in (False, True):
        text = position.to_status_string(rows=rows)
        assert Position.from_string(text, position.geometry) == position
        letters = position.to_letters(rows=rows)
        assert Position.from_string(letters, position.geometry) == position


@given(positions(geometries=[g for g in GEOMETRIES if g.dimensions == 2]))
def test_rows_give_the_board_without_asking(position: Position) -> None:
    parsed = Position.from_string(position.to_letters(rows=True))
    assert (
        parsed.geometry.shape == position.geometry.shape
        and parsed.x == position.x
        and parsed.o == position.o
    )


@given(positions(), st.data())
def test_canonical_form_is_invariant(position: Position, data: st.DataObject) -> None:
    symmetry = data.draw(st.sampled_from(position.geometry.symmetries))
    image = position.transform(symmetry)
    assert image.canonical == position.canonical
    assert image.equivalent(position)
    assert position.canonical.canonical == position.canonical


@given(positions())
def test_orbit_stabilizer(position: Position) -> None:
    images = {image for _, image in position.transforms()}
    assert len(images) == position.class_size
    assert len(images) * len(position.stabilizer) == len(position.geometry.symmetries)
    assert position.canonical in images
    assert position.canonical.to_status_string() == min(
        image.to_status_string() for image in images
    )


def test_seed_001_example_boards_are_one_class() -> None:
    first = Position.from_string("xox/.../x.o")
    second = Position.from_string("x.o/o../x.x")
    assert first.transform("rot90") == second  # the seed's code rotates counterclockwise
    assert first.equivalent(second)


def test_transform_by_name_on_3x3() -> None:
    position = Position.from_string("120000000")  # X top-left, O top-middle
    assert position.transform("mirror90").to_status_string() == "021000000"
    assert position.transform("rot90").to_status_string() == "000200100"
    assert position.transform("mirror135").to_status_string() == "100200000"


def test_play_and_state() -> None:
    geometry = Geometry.parse("3x3")
    position = Position.from_moves(geometry, [4, 0, 8, 2, 1, 6])
    assert position.to_status_string() == "212010201"
    assert position.to_move == "x" and position.ply == 6
    assert position.play(3).winner is None  # O has 0, 2, 6; X 1, 3, 4, 8
    assert position.play(7).winner == "x"  # 1, 4, 7
    assert position.play(7).complete_lines == (("x", (1, 4, 7)),)
    assert position.play(7).legal_moves == ()
    with pytest.raises(MoveError, match="already taken"):
        position.play(0)
    with pytest.raises(MoveError, match="game is over"):
        position.play(7).play(3)
    with pytest.raises(MoveError, match="not on a 3x3 board"):
        position.play(9)


def test_turn_and_terminal() -> None:
    assert Position.from_string("000000000").to_move == "x"
    assert Position.from_string("100000000").to_move == "o"
    assert Position.from_string("110000000").turn is None
    full = Position.from_string("121121212")
    assert full.is_full and full.is_terminal and full.winner is None


@pytest.mark.parametrize(
    ("text", "board", "message"),
    [
        ("12x", None, "cannot tell the board"),
        ("1234", None, "unknown character"),
        ("", None, "empty position"),
        ("xo/x", None, "every row"),
        ("1200", "3x3", "has 4 cells"),
        ("xo.?", None, "unknown character"),
    ],
)
def test_bad_positions_raise_clear_errors(text: str, board: str | None, message: str) -> None:
    geometry = Geometry.parse(board) if board else None
    with pytest.raises(PositionError, match=message) as info:
        Position.from_string(text, geometry)
    assert isinstance(info.value, OxoError)


@given(st.text(max_size=30))
@settings(max_examples=300)
def test_any_text_parses_or_raises_position_error(text: str) -> None:
    try:
        Position.from_string(text)
    except OxoError:
        pass


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("x........//....o....//.........", "3 layers of 1 row of 9 cells"),
        ("x/o/.", "3 rows of 1 cell"),
        ("xo.", None),  # three cells without slashes: not a board oxo can guess either
    ],
)
def test_slashes_that_give_a_side_of_one_cell_are_refused_with_what_was_read(
    text: str, read: str | None
) -> None:
    """A side one cell long would make k = 1 (one mark wins): nobody means that board."""
    with pytest.raises(PositionError) as error:
        Position.parse(text)
    if read is not None:
        assert read in str(error.value) and "one mark would make a line" in str(error.value)


def test_the_refusal_names_the_board_the_cells_fit() -> None:
    with pytest.raises(PositionError, match=r"--board 3x3x3"):
        Position.parse("x........//....o....//.........")
    same = Position.parse("x.............o............", "3x3x3")
    assert same.geometry.shape == (3, 3, 3) and bin(same.x).count("1") == 1
