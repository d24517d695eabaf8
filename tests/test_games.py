"""Games: parsing and validation, whole-game symmetry, and the game counters against walking every game."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from oxo.cli import main
from oxo.errors import MoveError, OutOfReachError, OxoError
from oxo.games import (
    Game,
    GameCountError,
    OutcomeCount,
    count_games,
    count_paths,
    format_moves,
    parse_moves,
)
from oxo.geometry import Geometry

G33 = Geometry.parse("3x3")

# Published figures. 3×3: 255,168 games (131,184 X wins, 77,904 O wins, 46,080 draws), 31,896 classes
# of whole games, 26,830 games up to symmetry move by move (the issue; Schaefer, Bottomley).
# OEIS A061526, complete games of n×n tic-tac-toe: 1, 24, 255168, 15038733958272, 12123953291699459229254400.
A061526 = {
    "1x1": 1,
    "2x2": 24,
    "3x3": 255168,
    "4x4": 15038733958272,
    "5x5": 12123953291699459229254400,
    # OEIS A061526 (J. Ferry, 2001), also quoted in issue 13.
    "6x6": 317158792989363996690190881249911852582400,
    "7x7": 550923875790150163780873329493220621458883503713639780465715200,
}


# -- reference: walk every game ---------------------------------------------------------------------


def walk_every_game(geometry: Geometry) -> tuple[Counter[tuple[int, str]], int]:
    """Every game, one by one: (length, outcome) counts and the number of classes of whole games."""
    lines, full, size = geometry.lines, geometry.full_mask, geometry.size
    perms = [symmetry.perm for symmetry in geometry.symmetries]
    counts: Counter[tuple[int, str]] = Counter()
    canonical_games: set[tuple[int, ...]] = set()
    moves: list[int] = []

    def visit(x: int, o: int) -> None:
        x_line = any(x & line == line for line in lines)
        o_line = any(o & line == line for line in lines)
        if x_line or o_line or x | o == full:
            counts[(len(moves), "x" if x_line else "o" if o_line else "draw")] += 1
            canonical_games.add(min(tuple(perm[m] for m in moves) for perm in perms))
            return
        for cell in range(size):
            bit = 1 << cell
            if (x | o) & bit:
                continue
            moves.append(cell)
            if len(moves) % 2:
                visit(x | bit, o)
            else:
                visit(x, o | bit)
            moves.pop()

    visit(0, 0)
    return counts, len(canonical_games)


def as_counter(rows: list[OutcomeCount]) -> Counter[tuple[int, str]]:
    out: Counter[tuple[int, str]] = Counter()
    for length, row in enumerate(rows):
        for outcome, value in (("x", row.x_wins), ("o", row.o_wins), ("draw", row.draws)):
            if value:
                out[(length, outcome)] = value
    return out


WALKABLE = ["1x1", "1x3", "2x2", "2x3", "3x2", "1x5,k=3", "2x2x2", "3x3,k=2", "2x4,k=3", "3x3"]


@pytest.mark.parametrize("spec", WALKABLE)
def test_counts_agree_with_walking_every_game(spec: str) -> None:
    geometry = Geometry.parse(spec)
    walked, classes = walk_every_game(geometry)
    result = count_games(geometry)
    assert as_counter([row.games for row in result.by_length]) == walked
    assert result.classes.total == classes
    # The level-by-level path counter with the identity alone is a second way to count every game.
    assert as_counter(count_paths(geometry, geometry.symmetries[:1])) == walked


def test_published_3x3_figures() -> None:
    result = count_games(G33)
    assert (result.games.total, result.games.x_wins, result.games.o_wins, result.games.draws) == (
        255168,
        131184,
        77904,
        46080,
    )
    assert result.classes.total == 31896
    assert result.universal is not None and result.universal.total == 26830
    # Bottomley (se16.info/hgb/tictactoe.htm): 172, 579, 5115 and 7426 games in 5 to 8 moves, then 8670
    # wins and 4868 draws in 9, up to symmetry move by move.
    universal = [row.universal for row in result.by_length[5:]]
    assert [u.total for u in universal[:4]] == [172, 579, 5115, 7426]  # type: ignore[union-attr]
    assert (universal[4].x_wins, universal[4].draws) == (8670, 4868)  # type: ignore[union-attr]
    # Nobody can win before X's third move, and a draw fills the board.
    assert [row.length for row in result.by_length if row.games.total] == [5, 6, 7, 8, 9]
    assert result.by_length[9].games.draws == result.games.draws


@pytest.mark.parametrize("spec", ["1x1", "2x2", "3x3", "4x4"])
def test_oeis_a061526(spec: str) -> None:
    assert count_games(Geometry.parse(spec), universal=False).games.total == A061526[spec]


@pytest.mark.slow
def test_oeis_a061526_5x5() -> None:
    assert count_games(Geometry.parse("5x5"), universal=False).games.total == A061526["5x5"]


@pytest.mark.parametrize(
    "spec",
    ["3x4", "4x3", "2x5", "3x3,k=2", "2x2x2,k=2", pytest.param("4x4,k=3", marks=pytest.mark.slow)],
)
def test_pair_counting_agrees_with_counting_paths_position_by_position(spec: str) -> None:
    geometry = Geometry.parse(spec)
    result = count_games(geometry, universal=False)
    assert [row.games for row in result.by_length] == count_paths(geometry, geometry.symmetries[:1])


@pytest.mark.slow
def test_4x4_by_positions_and_universal_by_class_sequences() -> None:
    geometry = Geometry.parse("4x4")
    result = count_games(geometry)
    assert [row.games for row in result.by_length] == count_paths(geometry, geometry.symmetries[:1])
    assert [row.universal for row in result.by_length] == count_paths(geometry, children="classes")


def test_classes_by_burnside_are_whole_number_averages() -> None:
    # Each length and outcome separately: classes · |G| ≥ games, and every class has at most |G| games.
    for spec in ("3x3", "4x4", "3x4"):
        result = count_games(Geometry.parse(spec), universal=False)
        order = len(result.geometry.symmetries)
        for row in result.by_length:
            assert row.classes.total <= row.games.total <= order * row.classes.total


def test_universal_can_be_refused_or_demanded() -> None:
    assert count_games(G33, universal=False).universal is None
    assert count_games(G33, universal=False).to_dict()["universal_games"] is None
    with pytest.raises(OutOfReachError, match="at most 16 cells"):
        count_games(Geometry.parse("5x5"), universal=True)
    with pytest.raises(OutOfReachError, match="at most 27 cells"):
        count_games(Geometry.parse("6x6"), method="pairs")
    with pytest.raises(OutOfReachError, match="at most 22 lines"):
        count_games(Geometry.parse("6x6,k=4"))
    with pytest.raises(GameCountError, match="unknown game counting method"):
        count_games(G33, method="magic")
    with pytest.raises(OxoError, match="orbits or classes"):
        count_paths(G33, children="nonsense")  # type: ignore[arg-type]


def test_json_shape() -> None:
    data = count_games(G33).to_dict()
    assert data["board"] == "3x3" and data["k"] == 3
    assert (data["games"], data["x_wins"], data["o_wins"], data["draws"]) == (
        255168,
        131184,
        77904,
        46080,
    )
    assert data["games_classes"] == 31896 and data["universal_games"] == 26830
    assert [row["length"] for row in data["by_length"]] == [5, 6, 7, 8, 9]
    assert sum(row["x_wins"] for row in data["by_length"]) == 131184
    assert sum(row["universal"]["games"] for row in data["by_length"]) == 26830
    json.dumps(data)


# -- games as values ---------------------------------------------------------------------------------


@st.composite
def games(
    draw, geometries=(G33, Geometry.parse("4x4"), Geometry.parse("3x5"), Geometry.parse("3x3,k=2"))
):  # type: ignore[no-untyped-def]
    """A random game, finished or not."""
    geometry = draw(st.sampled_from(geometries))
    finish = draw(st.booleans())
    game = Game(geometry, ())
    while not game.is_over:
        if not finish and draw(st.integers(0, 5)) == 0:
            break
        move = draw(st.sampled_from(game.final.legal_moves))
        game = Game(geometry, game.moves + (move,))
    return game


def test_parse_forms() -> None:
    expected = (0, 4, 8, 2, 6)
    for text in ("0 4 8 2 6", "0,4,8,2,6", " 0, 4 ,8;2 6 ", "04826"):
        assert Game.parse(text, G33).moves == expected
    assert Game.parse("1 5 9 3 7", G33, "keypad").moves == expected
    assert Game.parse("15937", G33, "keypad").to_text() == "0 4 8 2 6"
    assert Game.parse("0 4 8 2 6", G33).to_text("keypad") == "1 5 9 3 7"
    assert Game.parse("0 5 10 15", Geometry.parse("4x4")).moves == (0, 5, 10, 15)
    assert format_moves((10, 0), Geometry.parse("4x4")) == "10 0"


@pytest.mark.parametrize(
    "text, geometry, numbering, words",
    [
        ("", G33, "id", "empty game"),
        ("0 a 8", G33, "id", "move 2 'a' .* is not a number: use cell IDs 0..8"),
        ("0 9", G33, "id", "move 2 is 9, which is not on a 3x3 board"),
        ("0 0", G33, "id", "move 2 plays cell 0, already taken by X at move 1"),
        (
            "0 3 1 4 2 5",
            G33,
            "id",
            r"move 6 \(cell 5\) comes after the end of the game: X won at move 5",
        ),
        ("0 5", G33, "keypad", "move 1 is 0, which is not on a 3x3 board: use keys 1..9"),
        ("1 2", Geometry.parse("4x4"), "keypad", "only on a 3x3 board"),
        ("0 1", G33, "roman", "unknown move numbering"),
        ("0123", Geometry.parse("4x4"), "id", "move 1 is 123"),
    ],
)
def test_bad_games(text: str, geometry: Geometry, numbering: str, words: str) -> None:
    with pytest.raises(MoveError, match=words):
        Game.parse(text, geometry, numbering)  # type: ignore[arg-type]


def test_bad_moves_given_directly() -> None:
    with pytest.raises(MoveError, match="not a cell"):
        Game(G33, (0, -1))
    with pytest.raises(MoveError, match="not a cell"):
        Game(G33, (0, True))  # type: ignore[arg-type]
    with pytest.raises(MoveError, match="a game is text"):
        parse_moves(None, G33)  # type: ignore[arg-type]


@given(games())
def test_text_round_trip(game: Game) -> None:
    if not game.moves:
        return  # nothing to write: an empty text is refused as a game
    assert Game.parse(game.to_text(), game.geometry) == game
    if game.geometry.shape == (3, 3):
        assert Game.parse(game.to_text("keypad"), game.geometry, "keypad") == game


@given(games(), st.data())
def test_whole_game_transforms(game: Game, data: st.DataObject) -> None:
    symmetry = data.draw(st.sampled_from(game.geometry.symmetries))
    image = game.transform(symmetry)
    assert image.outcome == game.outcome and image.length == game.length
    for before, after in zip(game.positions, image.positions, strict=True):
        assert before.transform(symmetry) == after
    assert image.canonical == game.canonical and image.equivalent(game)
    assert game.canonical.moves == min(other.moves for _, other in game.transforms())
    assert game.canonical.canonical == game.canonical


@given(games(), st.data())
def test_transform_from_keeps_positions_equivalent(game: Game, data: st.DataObject) -> None:
    ply = data.draw(st.integers(0, game.length))
    position = game.positions[ply]
    symmetry = data.draw(st.sampled_from(position.stabilizer))
    changed = game.transform_from(ply, symmetry)
    assert changed.moves[:ply] == game.moves[:ply]
    assert all(a.equivalent(b) for a, b in zip(game.positions, changed.positions, strict=True))
    refused = [s for s in game.geometry.symmetries if s not in position.stabilizer]
    if refused:
        with pytest.raises(MoveError, match="cannot be applied to the rest of the game alone"):
            game.transform_from(ply, refused[0])


def test_transform_from_checks_its_ply() -> None:
    game = Game.parse("4 0", G33)
    with pytest.raises(MoveError, match="ply 3 is not in a game of 2 moves"):
        game.transform_from(3, "identity")
    assert game.transform_from(1, "rot90").moves == (4, game.geometry.symmetry("rot90").perm[0])


def test_outcomes() -> None:
    assert Game.parse("0 3 1 4 2", G33).outcome == "x"
    assert Game.parse("0 3 1 4 8 5", G33).outcome == "o"
    assert Game.parse("0 4 8 2 6 3 5 7 1", G33).outcome == "draw"
    assert Game.parse("0 4", G33).outcome is None and not Game.parse("0 4", G33).is_over


def test_factorial_formula_on_one_terminal_position() -> None:
    # X 0 1 2 (line 012), O 3 4: the last move is any of 0, 1, 2; the other marks in any order.
    geometry = G33
    walked = 0
    from itertools import permutations

    for xs in permutations((0, 1, 2)):
        for os in permutations((3, 4)):
            try:
                game = Game(geometry, (xs[0], os[0], xs[1], os[1], xs[2]))
            except MoveError:
                continue
            walked += game.outcome == "x"
    assert walked == 3 * math.factorial(2) * math.factorial(2)


# -- the command line ------------------------------------------------------------------------------


def test_cli_games(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "3x3"]) == 0
    out = capsys.readouterr().out
    total = [line.split() for line in out.splitlines() if line.strip().startswith("total")][0]
    assert total == ["total", "255,168", "131,184", "77,904", "46,080", "31,896", "26,830"]
    assert main(["games", "4x4", "--json", "--no-universal"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == A061526["4x4"] and data["universal_games"] is None
    assert main(["games", "3x3", "--k", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["k"] == 2 and data["games"] == sum(
        walk_every_game(Geometry.parse("3x3,k=2"))[0].values()
    )


def test_cli_games_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "3y3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("oxo: error: bad board spec") and err.count("\n") == 1
    assert main(["games", "5x5", "--universal"]) == 3  # out of reach, not bad input
    assert "at most 16 cells" in capsys.readouterr().err
