"""``oxo play``, ``oxo move`` and ``oxo selfplay`` on every board: the terminal game over a pipe, the
engine's move as JSON, engine-against-engine counts, and the exit statuses."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys

import pytest

from oxo.cli import main
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.proofs.dropvalue import drop_solution
from oxo.registry import find_game
from oxo.solve import reference_value


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], typed: str, *args: str
) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code = main(["play", *args])
    return code, capsys.readouterr().out


# -- play ------------------------------------------------------------------------------------------


def test_play_reprompts_on_illegal_input(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_play(
        monkeypatch, capsys, "4\nfoo\n4\n9\n" + "".join(f"{c}\n" for c in range(9)), "--seed", "1"
    )
    assert code == 0
    assert (
        "'foo' is not a move" in out
        and "cell 4 is already taken" in out
        and "cell 9 is not on the board" in out
    )
    assert "computer (O) plays" in out and "best: perfect play" in out
    # Perfect play never loses: the game ends in a draw or a win for the computer.
    assert out.rstrip().endswith(("draw: the board is full", "the computer wins"))


def test_play_ends_cleanly_on_eof(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_play(monkeypatch, capsys, "", "3x3")
    assert code == 0 and "input ended; game abandoned" in out
    code, out = run_play(
        monkeypatch, capsys, "q\n", "--as", "o", "--level", "random", "--seed", "2"
    )
    assert code == 0 and "computer (X) plays" in out and "game abandoned" in out


def test_play_with_keypads(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_play(monkeypatch, capsys, "5\n", "--keypad", "phone", "--seed", "0")
    picture = out.split("\n\n", 1)[1]  # after the introduction
    assert code == 0 and "1 2 3" in picture.splitlines()[0]
    assert "4 X 6" in out  # key 5 is the centre
    code, out = run_play(monkeypatch, capsys, "7\n0\n", "--keypad", "numpad", "--seed", "0")
    assert code == 0 and "X 8 9" in out and "key 0 is not on the keypad" in out
    code, out = run_play(monkeypatch, capsys, "", "4x4", "--keypad", "phone")
    assert code == 2


@pytest.mark.parametrize(
    "board", [["5x5", "--k", "4"], ["3x3x3"], ["15x15", "--k", "5"], ["4x4x4"]]
)
def test_play_a_whole_game_on_a_big_board_at_hard(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], board: list[str]
) -> None:
    """Every cell typed in order: taken ones get a hint, the game runs to its end without an error."""
    size = Geometry.parse(board[0], int(board[2]) if len(board) > 2 else None).size
    typed = "".join(f"{c}\n" for c in range(size))
    code, out = run_play(
        monkeypatch, capsys, typed, *board, "--level", "hard", "--time", "0.05", "--seed", "3"
    )
    assert code == 0, out
    assert "computer (O) plays" in out and "hard (alpha-beta search)" in " ".join(out.split())
    assert out.rstrip().endswith(
        ("draw: the board is full", "you win", "the computer wins", "game abandoned")
    )


def test_play_through_a_pipe() -> None:
    moves = "".join(f"{c}\n" for c in range(25))
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from oxo.cli import run; run()",
            "play",
            "5x5",
            "--k",
            "4",
            "--level",
            "hard",
            "--time",
            "0.1",
        ],
        input=moves,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith(
        ("draw: the board is full", "you win", "the computer wins")
    )


def test_perfect_out_of_reach_is_refused_before_the_game(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("0\n"))
    code = main(["play", "6x6", "--level", "perfect"])  # not a board oxo has proved
    captured = capsys.readouterr()
    assert code == 3 and captured.out == ""
    assert (
        "out of reach" in captured.err
        and "hard" in captured.err
        and "Traceback" not in captured.err
    )


# -- move ------------------------------------------------------------------------------------------


def test_move_json_on_a_small_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "move", "xx./oo./...", "--level", "perfect", "--json")
    data = json.loads(out)
    assert code == 0 and set(data) == {
        "board",
        "k",
        "position",
        "level",
        "move",
        "value",
        "seconds",
    }
    assert (
        data["move"] == 2
        and data["value"] == "x"
        and data["position"] == "110220000"
        and data["board"] == "3x3"
    )


def test_move_value_agrees_with_the_reference(capsys: pytest.CaptureFixture[str]) -> None:
    position = Position.from_string("x...o..x.")
    code, out, _ = run(capsys, "move", "x...o..x.", "--json")
    data = json.loads(out)
    assert (
        code == 0 and data["level"] == "best" and data["value"] == reference_value(position).outcome
    )
    best = reference_value(position).outcome
    assert reference_value(position.play(data["move"])).outcome == best


def test_move_on_big_boards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "move", "." * 225, "--board", "15x15", "--k", "5", "--time", "0.2", "--json"
    )
    data = json.loads(out)
    assert code == 0 and 0 <= data["move"] < 225 and data["value"] is None and data["k"] == 5
    code, out, _ = run(capsys, "move", "." * 36, "--k", "4", "--level", "hard", "--time", "0.1")
    assert code == 0 and out.startswith("move: ") and "value with best play: not proven" in out
    # a board oxo has proved: the book's value, whatever the level's search found
    code, out, _ = run(capsys, "move", "." * 25, "--k", "4", "--level", "hard", "--time", "0.1")
    assert code == 0 and "value with best play: draw" in out


@pytest.mark.parametrize(
    ("args", "status"),
    [
        (["move", "xxx/oo./..."], 2),  # finished
        (["move", "xxx/ooo/..."], 2),  # cannot occur
        (["move", "xq......."], 2),
        (["move", "." * 36, "--level", "perfect"], 3),  # 6x6: not a board oxo has proved
        (["move", "." * 9, "--level", "genius"], 2),
    ],
)
def test_move_errors(capsys: pytest.CaptureFixture[str], args: list[str], status: int) -> None:
    code, out, err = run(capsys, *args)
    assert (
        code == status
        and out == ""
        and len(err.strip().splitlines()) == 1
        and "Traceback" not in err
    )


# -- selfplay --------------------------------------------------------------------------------------


def test_selfplay_json_keys_match_mega_selfplay(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "selfplay",
        "3x3",
        "--x",
        "perfect",
        "--o",
        "random",
        "--games",
        "6",
        "--seed",
        "1",
        "--json",
        "--quiet",
    )
    classic = json.loads(out)
    assert code == 0 and classic["games"] == 6 and classic["o_wins"] == 0
    code, out, _ = run(
        capsys,
        "selfplay",
        "mega",
        "--x",
        "random",
        "--o",
        "random",
        "--games",
        "3",
        "--seed",
        "1",
        "--json",
        "--quiet",
    )
    mega = json.loads(out)
    assert code == 0 and mega["games"] == 3
    required = {
        "games",
        "x_wins",
        "o_wins",
        "draws",
        "x_share",
        "o_share",
        "draw_share",
        "mean_moves",
        "seconds",
    }
    assert required <= set(classic) and required <= set(mega)


def test_selfplay_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "selfplay",
        "4x4",
        "--k",
        "3",
        "--x",
        "easy",
        "--o",
        "random",
        "--games",
        "4",
        "--seed",
        "2",
        "--quiet",
    )
    assert (
        code == 0 and out.startswith("4 games of 4x4") and "x wins" in out and "mean length" in out
    )


@pytest.mark.parametrize("keypad", ["phone", "numpad"])
def test_a_keypad_game_names_the_winning_line_by_its_keys(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], keypad: str
) -> None:
    """The last board shows each empty cell's key: the keys named for the winning line are where
    the winner's marks are (not 0-based cell IDs)."""
    keys = "".join(f"{key}\n" for key in (2, 3, 6, 7, 8, 9, 1, 4, 5))
    code, out = run_play(monkeypatch, capsys, keys, "--keypad", keypad, "--seed", "0")
    lines = out.rstrip().splitlines()
    assert code == 0 and " wins with keys " in lines[-1], lines[-1]
    winner = lines[-1][0]
    board = [line.split() for line in lines[-4:-1]]
    layout = [["1", "2", "3"], ["4", "5", "6"], ["7", "8", "9"]]
    if keypad == "numpad":
        layout = layout[::-1]
    where = {layout[r][c]: board[r][c] for r in range(3) for c in range(3)}
    named = lines[-1].split(" wins with keys ")[1].split(":")[0].split(", ")
    assert len(named) == 3 and all(where[key] == winner for key in named), (named, board)


# -- Score Four and the 4D board -------------------------------------------------------------------


def test_show_score_four_and_the_4d_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "scorefour")
    assert code == 0 and "columns" in out and "gravity: 16 columns" in out
    assert "class size:     1 of 8 symmetries" in out
    code, out, _ = run(capsys, "show", "4x4x4x4")
    assert code == 0 and "cells 240-255" in out and "all 384 symmetries" in out
    drawing = out.split("\n\nboard:")[0]
    assert max(len(line) for line in drawing.splitlines()) <= 80
    code, out, err = run(capsys, "show", "x" + "." * 63, "--board", "scorefour")
    assert code == 0 and "holds a mark above an empty cell" in out


def test_play_score_four_by_columns(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = run_play(
        monkeypatch, capsys, "6\n17\nfoo\nq\n", "scorefour", "--level", "random", "--seed", "3"
    )
    words = " ".join(out.split())  # the introduction is broken at 80 columns
    assert code == 0 and "Score Four" in out and "Type a column number (1..16)" in words
    assert "computer (O) plays column" in out and "columns are 1..16" in out
    assert "game abandoned" in out
    # a whole game (full columns are refused and asked again) ends with a line named by columns and
    # levels, or a full board
    typed = "".join(f"{column}\n" for column in range(1, 17) for _ in range(4))
    code, out = run_play(
        monkeypatch, capsys, typed, "scorefour", "--level", "random", "--seed", "5"
    )
    assert code == 0 and ("wins with column" in out or "draw" in out)


def test_move_and_selfplay_on_score_four_and_4x4x4x4(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "move", "scorefour", "--level", "easy", "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["gravity"] is True and 1 <= int(data["column"]) <= 16
    assert data["move"] >= 48  # the first mark lands on the bottom level
    code, out, _ = run(capsys, "move", "4x4x4x4", "--level", "easy", "--seed", "1", "--json")
    assert code == 0 and 0 <= json.loads(out)["move"] < 256
    code, out, _ = run(
        capsys,
        "selfplay",
        "scorefour",
        "--games",
        "2",
        "--x",
        "easy",
        "--o",
        "random",
        "--seed",
        "2",
    )
    assert code == 0 and "2 games of scorefour" in out
    code, _, err = run(capsys, "analyze", "scorefour")
    assert code == 2 and err.startswith("oxo: error: Score Four has no")
    code, out, _ = run(capsys, "check", "o" + "." * 15 + "x" + "." * 47, "--board", "scorefour")
    assert code == 1 and "above an empty cell" in out
    code, out, _ = run(capsys, "solve", "scorefour", "--time", "1")
    assert code == 3 and "4x4x4 board, k=4, gravity: value unknown" in out
    code, out, _ = run(capsys, "count", "scorefour", "--plies", "3", "--json")
    counted = json.loads(out)["boards"][0]
    assert code == 0 and counted["gravity"] is True
    from oxo.counting.drops import count_positions

    walked = count_positions(Geometry.parse("4x4x4,gravity"), 3)  # held to a plain walk elsewhere
    assert [row["positions"] for row in counted["plies"]] == list(walked.positions)
    code, _, err = run(capsys, "count", "scorefour")
    assert code == 3 and "give --plies N" in err
    # Beyond the memory limit refused before it starts (it used to start, with no estimate and
    # no guard), and a count of over a minute asks first: on stdin not a terminal, out of reach.
    code, _, err = run(capsys, "count", "scorefour", "--plies", "64")
    assert code == 3 and "would need about" in err and "give --plies N" in err
    code, _, err = run(capsys, "count", "scorefour", "--plies", "8", "--memory", "8G")
    assert code == 3 and "--yes" in err and "ply 8: at most 33,408,060 positions" in err


def test_perfect_play_on_score_four_near_the_end(capsys: pytest.CaptureFixture[str]) -> None:
    """Near the end perfect play answers with a proven value and a best column (the exact
    search's, held to minimax in tests/test_proofs_dropvalue.py); before that it is out of reach
    (exit 3, saying why and what works); the 256-cell box with gravity has no perfect."""
    text = "0002212210010002200122121002012111022111210212122122111211021221"  # 16 empty
    position = Position.from_string(text, Geometry.parse("4x4x4,gravity"))
    solution = find_game("scorefour").exact_solver()(position, 16)  # type: ignore[misc]
    best = {position.format_move(move) for move in solution.best_moves(position)}
    code, out, _ = run(capsys, "move", text, "--board", "scorefour", "--level", "perfect", "--json")
    data = json.loads(out)
    assert code == 0 and data["column"] in best
    assert data["value"] == solution.value(position).outcome
    code, _, err = run(capsys, "move", "scorefour", "--level", "perfect")
    reach = drop_solution.reach
    assert code == 3 and f"at most {reach} empty cells and this one has 64" in " ".join(err.split())
    code, _, err = run(capsys, "move", "4x4x4x4,gravity", "--level", "perfect")
    assert code == 3 and "has no exact solver" in " ".join(err.split())


def test_gomoku_takes_the_points_analyze_prints(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """On a gomoku board a move is a cell ID or a point as 'oxo analyze' writes it (h8: column
    letter, row from the bottom), and the board shows both (issue 45, item 4)."""
    from oxo.tactics import parse_point, point_name

    code, out = run_play(
        monkeypatch, capsys, "h8\nH8\nz99\n0\nquit\n", "gomoku", "--level", "random", "--seed", "3"
    )
    assert code == 0, out
    geometry = Geometry.parse("15x15", 5)
    assert parse_point(geometry, "h8") == 112 and point_name(geometry, 112) == "h8"
    assert "h8 (cell 112) is already taken" in out.replace("H8", "h8")  # any case, once played
    assert "'z99' is not a cell of a 15x15 board; give a point a1..o15" in out
    replies = [line for line in out.splitlines() if line.startswith("computer (O) plays")]
    for reply in replies:  # each reply named both ways, and the two agree
        cell, point = reply.split()[-2:]
        assert parse_point(geometry, point.strip("()")) == int(cell)
    assert len(replies) == 2
    picture = out.split("your move")[0].splitlines()
    assert picture[-3].split() == list("abcdefghijklmno")  # the letters under the columns
    rows = [line.split()[-1] for line in picture if re.match(r"\s*\d+\s+[.XO] ", line)]
    assert rows == [str(row) for row in range(15, 0, -1)]  # rows counted from the bottom


@pytest.mark.parametrize("side", ["X", "o", "O"])
def test_a_side_is_taken_in_either_case(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], side: str
) -> None:
    code, out = run_play(monkeypatch, capsys, "quit\n", "--as", side, "--level", "Random")
    assert code == 0 and f"You are {side.upper()}" in out


@pytest.mark.parametrize("command", ["move", "analyze", "show", "check"])
def test_a_record_of_columns_without_gravity_gets_a_hint(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    code, out, err = run(capsys, command, "4453")
    assert code == 2 and out == ""
    assert "4453 looks like a record of columns (Connect Four)" in err
    takes_gravity = command in ("move", "analyze")
    assert ("add --gravity" in err) == takes_gravity
    assert ("try 'oxo analyze 4453 --gravity'" in err) != takes_gravity
    code, out, err = run(capsys, command, "120")  # cells written with 0, 1, 2: no such hint
    assert "record of columns" not in err


def test_perfect_keeps_the_time_it_needs_in_selfplay(capsys: pytest.CaptureFixture[str]) -> None:
    """--time is the searching levels' time: on a gravity board perfect, given 1 ms, used to
    stop the whole run at its first move that took longer (issue 45, item 5)."""
    code, out, err = run(
        capsys,
        *("selfplay", "5x4,k=4,gravity", "--x", "perfect", "--o", "random"),
        *("--time", "0.001", "--games", "2", "--seed", "1", "--quiet"),
    )
    assert code == 0, err
    assert out.startswith("2 games of 5x4,k=4,gravity") and "not played to the end" not in out


def test_selfplay_says_which_games_were_not_played_to_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from oxo.engines import selfplay as selfplay_module
    from oxo.errors import OutOfReachError

    real = selfplay_module.play_game
    played = []

    def second_out_of_reach(*args: object) -> object:
        played.append(1)
        if len(played) == 2:
            raise OutOfReachError("X (perfect) stopped at move 9: not solved in time")
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(selfplay_module, "play_game", second_out_of_reach)
    code, out, err = run(capsys, "selfplay", "3x3", "--games", "3", "--seed", "1", "--quiet")
    assert code == 0, err
    assert out.startswith("2 games of 3x3")
    assert "1 more game not played to the end (not counted):" in out
    assert "  game 2: X (perfect) stopped at move 9: not solved in time" in out
