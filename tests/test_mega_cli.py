"""``oxo mega replay|play|selfplay``: output, JSON shape and the error paths (exit 1 and 2)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from oxo.cli import main
from oxo.cli.mega import mega

RULE8 = "11 22 33 44 55 66 77 88 99 12 23 34 45 56 67 78 81"
X_WINS = (
    "64 23 56 99 75 42 88 37 11 82 34 13 46 29 78 55 91 67 21 66 72 18 35 43 59 97 84 12 53 69 36"
)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "mega", "replay", RULE8)
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "+-- 1 --+-- 2 --+-- 3 --+" and lines[12] == "+-------+-------+-------+"
    assert (
        lines[9] == "| . . . | X . . | 1 2 3 |"
    )  # last move 81 in capitals, grid 9 open for rule 8
    assert "to move: o (move 18)" in out
    assert "legal moves (8) (rule 8: no move keeps rule 6): 91 92 93 94 95 96 97 98" in out


def test_replay_accepts_separate_arguments_and_the_empty_record(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "mega", "replay", "55", "44", "--json")
    assert code == 0 and json.loads(out)["moves"] == 2
    code, out, _ = run(capsys, "mega", "replay", "--json")
    data = json.loads(out)
    assert code == 0 and data["moves"] == 0 and len(data["legal"]) == 81 and data["to_move"] == "x"


def test_replay_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "mega", "replay", RULE8, "--json")
    data = json.loads(out)
    assert code == 0
    assert set(data) == {"to_move", "winner", "legal", "covered", "string", "moves"}
    assert data == {
        "to_move": "o",
        "winner": None,
        "legal": ["91", "92", "93", "94", "95", "96", "97", "98"],
        "covered": {},
        "string": {
            "index": 1,
            "length": 9,
            "played": ["12", "23", "34", "45", "56", "67", "78", "81"],
            "abnormal": False,
        },
        "moves": 17,
    }
    code, out, _ = run(capsys, "mega", "replay", X_WINS, "--json")
    data = json.loads(out)
    assert (
        data["winner"] == "x"
        and data["to_move"] is None
        and data["legal"] == []
        and len(data["covered"]) >= 3
    )


def test_replay_winner_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "mega", "replay", X_WINS)
    assert code == 0 and "winner: x (three big markers in a row, after 31 moves)" in out
    assert "\\   /" in out and "legal moves" not in out


def test_replay_illegal_move_exits_1_naming_move_number_and_rule(
    capsys: pytest.CaptureFixture[str],
) -> None:
    result = CliRunner().invoke(mega, ["replay", "55 44 13 42"])
    assert result.exit_code == 1
    assert "move 4 (42) is illegal" in result.output and "rule 5" in result.output
    code, out, err = run(capsys, "mega", "replay", "11 21")
    assert code == 1 and out == ""
    assert (
        err.startswith("oxo: illegal move: move 2 (21) is illegal:")
        and "(rule 6:" in err
        and len(err.splitlines()) == 1
    )


@pytest.mark.parametrize("record", ["55 4", "5x", "00", "55 100"])
def test_replay_malformed_record_exits_2(capsys: pytest.CaptureFixture[str], record: str) -> None:
    code, out, err = run(capsys, "mega", "replay", record)
    assert (
        code == 2
        and out == ""
        and err.startswith("oxo: error: ")
        and "GC" in err
        and "Traceback" not in err
    )


def test_play_with_piped_input_reprompts_and_ends_on_eof() -> None:
    result = CliRunner().invoke(
        mega, ["play", "--o", "random", "--seed", "3"], input="55\nxx\n55\nmoves\n"
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "o (random) plays" in out and "not a move: 'xx'" in out
    assert "illegal: move 3 (55) is illegal" in out
    assert "input ended; game stopped after 2 moves" in out
    assert out.rstrip().splitlines()[-1].startswith("record: 55 ")


def test_play_quit_undo_and_save(tmp_path) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "game.txt"
    result = CliRunner().invoke(
        mega,
        ["play", "--o", "random", "--seed", "1", "--save", str(target)],
        input="55\n\nhelp\nundo\n44\nquit\n",
    )
    assert result.exit_code == 0, result.output
    record = target.read_text().split()
    assert record[0] == "44" and len(record) == 2
    assert "game stopped after 2 moves" in result.output


def test_play_computer_against_computer_to_the_end() -> None:
    result = CliRunner().invoke(
        mega, ["play", "--x", "random", "--o", "mcts", "--iterations", "50", "--seed", "7"]
    )
    assert result.exit_code == 0, result.output
    assert "o (hard) plays" in result.output and "simulations" in result.output
    last = result.output.rstrip().splitlines()
    assert last[-1].startswith("record: ") and any(
        line.startswith(("winner:", "draw:")) for line in last[-7:]
    )


def test_selfplay_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys, "mega", "selfplay", "--games", "50", "--seed", "1", "--json", "--quiet"
    )
    data = json.loads(out)
    assert code == 0
    for key in ("games", "x_wins", "o_wins", "draws", "mean_moves", "abnormal_share", "seconds"):
        assert key in data
    assert data["games"] == 50 == data["x_wins"] + data["o_wins"] + data["draws"]
    assert 0 <= data["abnormal_share"] <= 1 and data["engine"] == "python"


def test_selfplay_text_and_mcts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "mega",
        "selfplay",
        "--games",
        "2",
        "--x",
        "mcts",
        "--iterations",
        "40",
        "--seed",
        "1",
        "--quiet",
    )
    assert code == 0 and out.startswith("2 games, x: hard, o: random (checked engine")
    assert "x wins" in out and "mean length" in out


@pytest.mark.parametrize(
    "args",
    [
        ["mega", "selfplay", "--games", "0"],
        ["mega", "selfplay", "--x", "human"],
        ["mega", "selfplay", "--x", "mcts", "--engine", "python", "--iterations", "5"],
        ["mega", "play", "--time", "-1"],
        ["mega", "nosuch"],
    ],
)
def test_bad_options_exit_2(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2 and err.startswith("oxo: error:")


def test_play_undo_when_the_computer_moved_first() -> None:
    result = CliRunner().invoke(
        mega, ["play", "--x", "random", "--o", "human", "--seed", "2"], input="undo\n"
    )
    assert result.exit_code == 0, result.output
    assert "nothing to undo" in result.output and "game stopped after 1 move" in result.output
