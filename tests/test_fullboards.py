"""Full boards: the counter against listing every full board, and the games inside one against walking every game."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter

import pytest

from oxo.cli import main
from oxo.errors import OutOfReachError, PositionError
from oxo.fullboards import count_full_boards, games_in_full_board, owners_of
from oxo.games import count_games
from oxo.geometry import Geometry
from oxo.position import Position

G33 = Geometry.parse("3x3")


def list_full_boards(geometry: Geometry) -> list[Position]:
    x_size = (geometry.size + 1) // 2
    out = []
    for cells in itertools.combinations(range(geometry.size), x_size):
        x = sum(1 << c for c in cells)
        out.append(Position(geometry, x, geometry.full_mask & ~x))
    return out


def brute_force(geometry: Geometry) -> dict[tuple[int, str], tuple[int, int]]:
    boards: Counter[tuple[int, str]] = Counter()
    classes: dict[tuple[int, str], set[Position]] = {}
    for board in list_full_boards(geometry):
        key = (
            len(board.x_lines) + len(board.o_lines),
            owners_of(len(board.x_lines), len(board.o_lines)),
        )
        boards[key] += 1
        classes.setdefault(key, set()).add(board.canonical)
    return {key: (boards[key], len(classes[key])) for key in boards}


@pytest.mark.parametrize(
    "spec", ["1x1", "2x2", "3x3", "2x3", "3x4", "4x4", "2x2x2", "3x3,k=2", "4x4,k=3", "1x7,k=3"]
)
def test_counts_agree_with_listing_every_full_board(spec: str) -> None:
    geometry = Geometry.parse(spec)
    result = count_full_boards(geometry)
    assert {(r.alignments, r.owners): (r.boards, r.classes) for r in result.rows} == brute_force(
        geometry
    )
    assert result.full_boards == math.comb(geometry.size, (geometry.size + 1) // 2)


def test_3x3_figures() -> None:
    result = count_full_boards(G33)
    assert result.full_boards == 126  # C(9, 5)
    draws = [r for r in result.rows if r.alignments == 0]
    # The well-known 16 drawn full boards, 3 up to symmetry; games ending in a draw are their move orders.
    assert [(r.owners, r.boards, r.classes) for r in draws] == [("none", 16, 3)]
    assert (
        16 * math.factorial(5) * math.factorial(4) == count_games(G33, universal=False).games.draws
    )
    # Seed 000: "zero, one or two" alignments, "made by the same player or by both".
    assert {r.alignments for r in result.rows} == {0, 1, 2}
    assert result.to_dict()["full_board_classes"] == sum(r.classes for r in result.rows)


@pytest.mark.slow
def test_large_board_in_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    import oxo.fullboards as fullboards

    geometry = Geometry.parse("4x4")
    whole = count_full_boards(geometry)
    monkeypatch.setattr(fullboards, "CHUNK_BITS", 9)
    assert count_full_boards(geometry) == whole


def test_chunked_unions_agree(monkeypatch: pytest.MonkeyPatch) -> None:
    import oxo.fullboards as fullboards

    geometry = Geometry.parse("3x4")
    whole = count_full_boards(geometry)
    monkeypatch.setattr(fullboards, "CHUNK_BITS", 5)
    assert count_full_boards(geometry) == whole


# -- the games inside one full board -----------------------------------------------------------------


def game_ends(geometry: Geometry) -> Counter[tuple[int, int]]:
    """Walk every game; count the games ending at each terminal position."""
    lines, full = geometry.lines, geometry.full_mask
    ends: Counter[tuple[int, int]] = Counter()

    def visit(x: int, o: int, ply: int) -> None:
        if any(x & l == l or o & l == l for l in lines) or x | o == full:
            ends[(x, o)] += 1
            return
        for cell in range(geometry.size):
            bit = 1 << cell
            if not (x | o) & bit:
                visit(x | bit, o, ply + 1) if ply % 2 == 0 else visit(x, o | bit, ply + 1)

    visit(0, 0, 0)
    return ends


@pytest.mark.parametrize("spec", ["3x3", "2x3", "3x3,k=2"])
def test_games_inside_every_full_board_agree_with_walking_every_game(spec: str) -> None:
    geometry = Geometry.parse(spec)
    ends = game_ends(geometry)
    for board in list_full_boards(geometry):
        expected = {
            (x, o): n for (x, o), n in ends.items() if x & ~board.x == 0 and o & ~board.o == 0
        }
        found = games_in_full_board(board)
        assert {(g.position.x, g.position.o): g.move_orders for g in found.games} == expected
        for game in found.games:
            assert game.winner == game.position.winner
            assert game.position.is_terminal
        assert [g.length for g in found.games] == sorted(g.length for g in found.games)


@pytest.mark.parametrize(
    "spec", ["3x3", "3x3,k=2", "2x4,k=3", pytest.param("3x4", marks=pytest.mark.slow)]
)
def test_games_inside_all_full_boards_add_up_to_every_game_extended(spec: str) -> None:
    """Each game ends at a position that lies in C(empty, X still to place) full boards."""
    geometry = Geometry.parse(spec)
    size, x_size = geometry.size, (geometry.size + 1) // 2
    inside = sum(games_in_full_board(board).move_orders for board in list_full_boards(geometry))
    expected = 0
    for row in count_games(geometry, universal=False).by_length:
        x_marks = (row.length + 1) // 2
        expected += row.games.total * math.comb(size - row.length, x_size - x_marks)
    assert inside == expected


def test_one_full_board() -> None:
    found = games_in_full_board(Position.from_string("xxx/oox/xoo"))
    data = found.to_dict()
    assert data["alignments"] == 1 and data["owners"] == "x"
    assert [g["length"] for g in data["games"]][0] == 5 and data["games"][-1][
        "position"
    ] == "111221122"
    assert all(g["lines"] == [[0, 1, 2]] for g in data["games"])
    draw = games_in_full_board(Position.from_string("xox/xoo/oxx"))
    assert [(g.winner, g.length, g.move_orders) for g in draw.games] == [
        (None, 9, math.factorial(5) * math.factorial(4))
    ]
    json.dumps(data)


@pytest.mark.parametrize(
    "text, words",
    [
        ("xxxoo....", "not a full board: 4 squares are empty"),
        ("xxxxxxooo", "has 5 X and 4 O, but .* has 6 X"),
        ("xxxxxoooo", None),
    ],
)
def test_bad_full_boards(text: str, words: str | None) -> None:
    board = Position.from_string(text)
    if words is None:
        assert games_in_full_board(board).board == board
        return
    with pytest.raises(PositionError, match=words):
        games_in_full_board(board)


def test_too_large() -> None:
    with pytest.raises(OutOfReachError, match="at most 27 cells"):
        count_full_boards(Geometry.parse("4x4x4"))


# -- the command line ------------------------------------------------------------------------------


def test_cli_fullboards(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fullboards"]) == 0
    out = capsys.readouterr().out
    assert [line.split() for line in out.splitlines() if line.strip().startswith("total")] == [
        ["total", "126", "23"]
    ]
    assert main(["fullboards", "4x4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    expected = brute_force(Geometry.parse("4x4"))
    assert data["full_boards"] == 12870
    assert {
        (r["alignments"], r["owners"]): (r["boards"], r["classes"]) for r in data["by_alignments"]
    } == expected
    assert main(["fullboards", "--games", "xxx/oox/xoo"]) == 0
    out = capsys.readouterr().out
    assert "15 game ends inside" in out and "xxx/oox/xoo" in out
    assert main(["fullboards", "--games", "1112211 22", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["positions"] == 15


def test_cli_fullboards_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fullboards", "--games", "xx......."]) == 2
    err = capsys.readouterr().err
    assert err.startswith("oxo: error: ") and "not a full board" in err and err.count("\n") == 1
