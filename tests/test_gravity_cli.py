"""``--gravity`` on the command line: play, move, selfplay, solve and analyze, with their exit statuses."""

from __future__ import annotations

import io
import json
import random
import sys

import pytest

from oxo.cli import main
from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.reference import minimax


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_solve_a_small_gravity_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "4x4", "--k", "3", "--gravity", "--json")
    data = json.loads(out)
    outcome, end = minimax(GravityState(GravityBoard(4, 4, 3)))
    assert code == 0 and data["value"] == outcome and data["end_ply"] == end


def test_solve_connect_four_past_its_time_limit_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "solve", "6x7", "--k", "4", "--gravity", "--time", "0.2", "--again"
    )
    assert code == 3 and "--time" in err and "Traceback" not in err


def test_solve_connect_four_answers_from_the_proof_book(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "solve", "connect4", "--time", "5", "--json")
    data = json.loads(out)
    assert code == 0 and data["value"] == "x" and data["end_ply"] == 41 and data["from_book"]
    assert len(data["certificates"]) == 2
    code, out, err = run(capsys, "solve", "connect4", "--time", "5")
    assert code == 0 and "X wins in 21 moves" in out and "proved by oxo" in out
    assert "oxo verify" in out and "--again" in out


def test_analyze_gives_each_column_exactly(capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(8)
    while True:  # a Connect Four position late enough for the plain minimax
        state, played = GravityState(GravityBoard(6, 7, 4)), []
        for _ in range(30):
            if state.is_over:
                break
            played.append(rng.choice(state.legal_moves))
            state = state.play(played[-1])
        if not state.is_over:
            break
    moves = "".join(str(col + 1) for col in played)
    code, out, _ = run(capsys, "analyze", moves, "--gravity", "--json")
    data = json.loads(out)
    assert code == 0 and data["ply"] == state.ply
    for entry in data["moves"]:
        assert (entry["value"], entry["end_ply"]) == minimax(state.play(entry["column"] - 1))
    code, text, _ = run(capsys, "analyze", moves, "--gravity")
    assert code == 0 and "column 1:" in text and "1 2 3 4 5 6 7" in text


def test_analyze_past_its_time_limit_says_which_columns_are_known(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "analyze", "4", "--gravity", "--time", "0.3")
    assert code == 3 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert "not every column" in err and "not solved (known so far:" in err
    assert "not reached: columns" in err and "--time" in err
    code, out, err = run(capsys, "analyze", "121212", "--gravity", "--time", "30", "--json")
    assert code == 0 and json.loads(out)["value"] == "x"
    code, _, err = run(capsys, "analyze", "x........", "--time", "3")
    assert code == 2 and "--time applies to gravity positions" in err


def test_analyze_an_empty_small_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "4x4", "--k", "3", "--gravity", "--json")
    data = json.loads(out)
    assert code == 0 and data["value"] == "x" and data["best_moves"] == [2, 3]


@pytest.mark.parametrize("bad", ["4a", "1111111", "...x/..../..../...."])
def test_bad_positions_exit_2(capsys: pytest.CaptureFixture[str], bad: str) -> None:
    code, out, err = run(capsys, "analyze", bad, "--gravity")
    assert code == 2 and err.startswith("oxo: error:") and "Traceback" not in err


def test_move_plays_the_winning_column(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "move", "121212", "--gravity", "--level", "perfect", "--json")
    data = json.loads(out)
    assert code == 0 and data["move"] == "1" and data["value"] == "x"


def test_move_on_a_finished_game_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "move", "1212121", "--gravity")
    assert code == 2 and "over" in err


def test_selfplay_with_gravity(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "selfplay", "4x4", "--k", "3", "--gravity", "--x", "easy", "--o", "random",
        "--games", "3", "--seed", "1", "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert code == 0 and data["x_wins"] + data["o_wins"] + data["draws"] == 3


def test_selfplay_uses_the_gravity_levels(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """perfect and best on a gravity board are the exact solver's, as in oxo play and on the page:
    'oxo selfplay connect4 --o perfect' used to be refused (the classic boards' limit of 16 empty
    cells) and best was the hard level's search."""
    import oxo.gravity.engine as gravity_engine

    made: list[tuple[str, float | None]] = []
    real = gravity_engine.make_gravity_engine

    def recording(level: str, state: GravityState, **budget: object) -> object:
        made.append((level, budget.get("seconds")))  # type: ignore[arg-type]
        return real(level, state, **budget)  # type: ignore[arg-type]

    monkeypatch.setattr(gravity_engine, "make_gravity_engine", recording)
    code, out, err = run(
        capsys, "selfplay", "connect4", "--x", "random", "--o", "perfect",
        "--games", "2", "--seed", "1", "--json", "--quiet",
    )  # fmt: skip
    assert code == 0, err
    assert json.loads(out)["o_wins"] == 2
    # perfect keeps the solver's own limit, not the 0.2 s of the searching levels
    assert made == [("random", 0.2), ("perfect", None)]
    made.clear()
    code, out, err = run(
        capsys, "selfplay", "4x4", "--k", "3", "--gravity", "--x", "best", "--o", "perfect",
        "--games", "1", "--json", "--quiet",
    )  # fmt: skip
    assert code == 0, err
    assert [level for level, _ in made] == ["best", "perfect"]
    # both exact: the game ends as the solver says the board does
    outcome, _ = minimax(GravityState(GravityBoard.parse("4x4", 3)))
    data = json.loads(out)
    assert (data["x_wins"], data["o_wins"], data["draws"]) == (
        int(outcome == "x"),
        int(outcome == "o"),
        int(outcome == "draw"),
    )


def test_play_over_a_pipe(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("9\n1\n1\n1\n1\nq\n"))
    code = main(["play", "6x7", "--k", "4", "--gravity", "--level", "random", "--seed", "3"])
    out = capsys.readouterr().out
    assert code == 0 and "illegal move" in out and "1 2 3 4 5 6 7" in out
    assert "computer (O) plays column" in out


def test_analyze_says_what_it_does_from_the_start() -> None:
    """In a terminal, a gravity analysis shows a status line before any answer (a 13 s analysis
    used to show nothing), rewritten in place and cleared at the end (issue 30, item 11)."""
    from terminals import run_in_terminal

    run = run_in_terminal(["analyze", "444444333322", "--gravity"], 80, 120)
    code, output = run.code, run.output
    assert code == 0 and "Traceback" not in output
    status = output.index("analysing the 6 playable columns")  # column 4 is full
    assert status < output.index("value:")
    assert output[:status] == "\r"  # the first thing on the screen
    assert output.index("\r\x1b[K") < output.index("value:")  # cleared before the answer
