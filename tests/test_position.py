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


# -- boxes of any dimension, and gravity ---------------------------------------------------------


def test_a_flat_gravity_position_plays_as_the_gravity_game() -> None:
    """A position of the geometry ``6x7,k=4,gravity`` is Connect Four played cell by cell: over
    random games it offers the same columns, lands on the same cells and ends the same way as the
    gravity boards' own bitboard state."""
    import random

    from oxo.gravity.board import GravityBoard, GravityState

    geometry = Geometry.parse("6x7,k=4,gravity")
    board = GravityBoard(6, 7, 4)
    rng = random.Random(7)
    for _ in range(40):
        position, state = Position.empty(geometry), GravityState(board)
        while not state.is_over:
            columns = [int(position.format_move(cell)) - 1 for cell in position.legal_moves]
            assert columns == list(state.legal_moves)
            wins = sorted(int(position.format_move(c)) - 1 for c in position.winning_moves())
            assert wins == sorted(state.winning_moves())
            column = rng.choice(state.legal_moves)
            position = position.play(position.parse_move(str(column + 1)))
            state = state.play(column)
            assert position.to_letters(rows=True) == state.to_rows()
        assert position.outcome == state.outcome and position.to_move is None


def test_score_four_moves_drop_down_their_column() -> None:
    geometry = Geometry.parse("4x4x4,gravity")
    position = Position.empty(geometry)
    assert len(position.legal_moves) == 16
    assert [position.format_move(c) for c in position.legal_moves] == [str(c) for c in range(1, 17)]
    cells = []
    for _ in range(4):
        cell = position.parse_move("6")
        cells.append(cell)
        position = position.play(cell)
    assert [geometry.coords(c) for c in cells] == [(3, 1, 1), (2, 1, 1), (1, 1, 1), (0, 1, 1)]
    with pytest.raises(MoveError, match="column 6 is full"):
        position.parse_move("6")
    with pytest.raises(MoveError, match="columns are 1..16"):
        position.parse_move("17")
    with pytest.raises(MoveError, match="not the lowest empty cell"):
        position.play(0)  # the top of column 1, which is empty
    assert len(position.legal_moves) == 15


def test_score_four_wins_along_a_column_and_a_space_diagonal() -> None:
    geometry = Geometry.parse("4x4x4,gravity")
    position = Position.empty(geometry)
    for column in "1212121":  # X fills column 1 from the bottom
        position = position.play(position.parse_move(column))
    assert position.winner == "x" and position.to_move is None and position.legal_moves == ()
    # The space diagonal from the bottom of column 1 to the top of column 16.
    diagonal = [geometry.cell_at((3 - i, i, i)) for i in range(4)]
    assert any(set(line) == set(diagonal) for line in geometry.line_cells)


def test_floating_marks_are_no_position_of_a_game() -> None:
    geometry = Geometry.parse("4x4x4,gravity")
    floating = Position(geometry, 1 << 0, 0)  # a mark on top of an empty column
    assert floating.floating == 1 and floating.to_move is None and floating.legal_moves == ()
    assert floating.status().code == "floating" and "drops" in floating.status().text
    with pytest.raises(MoveError, match="floats"):
        floating.play(63)
    standing = Position(geometry, 1 << 48, 0)
    assert standing.floating == 0 and standing.to_move == "o"
    assert Position(Geometry.parse("4x4x4"), 1, 0).floating == 0  # no gravity: nothing floats


@pytest.mark.parametrize("spec", ["4x4x4x4", "2x3x2x2", "2x2x2x2x2", "4x4x4,gravity"])
def test_notation_of_any_dimension_round_trips(spec: str) -> None:
    import random

    geometry = Geometry.parse(spec)
    rng = random.Random(spec)
    cells = rng.sample(range(geometry.size), 9)
    position = Position(geometry, sum(1 << c for c in cells[::2]), sum(1 << c for c in cells[1::2]))
    text = position.to_letters(rows=True)
    assert text.count("/" * geometry.dimensions) == 0
    assert text.count("/" * (geometry.dimensions - 1)) == geometry.shape[0] - 1
    assert Position.from_string(text, geometry) == position
    guessed = Position.from_string(text)  # the slashes give the shape (gravity is not written)
    assert guessed.geometry.shape == geometry.shape and (guessed.x, guessed.o) == (
        position.x,
        position.o,
    )


def test_a_4d_board_is_drawn_as_a_grid_of_layers() -> None:
    geometry = Geometry.parse("4x4x4x4")
    position = Position.from_moves(geometry, [0, 255])
    lines = position.to_grid().splitlines()
    assert len(lines) == 4 * 5 + 3  # four bands of a title and four rows, blank lines between
    assert all(len(line) <= 80 for line in lines)
    assert lines[0].split() == [
        "cells",
        "0-15",
        "cells",
        "16-31",
        "cells",
        "32-47",
        "cells",
        "48-63",
    ]
    assert lines[1].split()[:5] == ["X", ".", ".", ".", "."]
    assert lines[-1].split()[-1] == "O"
    marks = "".join(ch for ch in position.to_grid() if ch in "XO.")
    assert marks == position.to_letters().upper()


def test_score_four_is_drawn_level_by_level_with_the_column_numbers() -> None:
    position = Position.empty(Geometry.parse("4x4x4,gravity"))
    for column in "16", "1":
        position = position.play(position.parse_move(column))
    lines = position.to_grid().splitlines()
    assert lines[0].split() == ["top", "level", "3", "level", "2", "bottom", "columns"]
    assert lines[1].split()[-8:] == ["O", ".", ".", ".", "1", "2", "3", "4"]  # O in column 1
    assert lines[4].split()[-5:] == ["X", "13", "14", "15", "16"]  # X in column 16
    assert all(len(line) <= 80 for line in lines)
