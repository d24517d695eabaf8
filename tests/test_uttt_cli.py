"""``oxo uttt rules|replay|play|selfplay``, ``oxo play uttt`` and ``oxo selfplay uttt``: output,
JSON shape and exit statuses (0 answer, 1 illegal move, 2 bad input, 3 out of reach)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from oxo.cli import cli, main
from oxo.uttt import UtttState


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_draws_the_board_and_says_where_to_play(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "uttt", "replay", "55 51 15")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "+-- 1 --+-- 2 --+-- 3 --+" and lines[12] == "+-------+-------+-------+"
    assert lines[2] == "| . X . | . . . | . . . |"  # the last move in capitals
    assert lines[5] == "| . . . | o 2 3 | . . . |"  # grid 5: the cells o may play
    assert "must play in grid 5" in out and "legal moves (7): 52 53 54 56 57 58 59" in out


def test_replay_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "uttt", "replay", "21", "12", "23", "32", "22", "--json")
    data = json.loads(out)
    assert code == 0
    assert data["won"] == {"2": "x"} and data["grid"] is None and data["to_move"] == "o"
    state = UtttState.replay("21 12 23 32 22")
    assert data["legal"] == [state.format_move(m) for m in state.legal_moves]
    code, out, _ = run(capsys, "uttt", "replay", "--json")
    assert code == 0 and len(json.loads(out)["legal"]) == 81


def test_replay_of_a_finished_game_names_the_winner(capsys: pytest.CaptureFixture[str]) -> None:
    from oxo.engines import RandomEngine
    from oxo.engines.selfplay import play_game

    final, _ = play_game(UtttState(), RandomEngine(1), RandomEngine(2))
    assert isinstance(final, UtttState)
    code, out, _ = run(capsys, "uttt", "replay", final.record)
    assert code == 0
    if final.outcome == "draw":
        assert "draw: every grid is won or full" in out
    else:
        assert f"winner: {final.outcome} (three won grids in a row" in out
    assert "legal moves" not in out


def test_an_illegal_move_exits_1_and_bad_input_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "uttt", "replay", "55 44")
    assert code == 1 and out == ""
    assert err.strip() == (
        "oxo: illegal move: move 2 (44) is illegal: the last move was played in cell 5 of its "
        "grid, so this move must go to grid 5"
    )
    code, out, _ = run(capsys, "uttt", "replay", "55 44", "--json")
    data = json.loads(out)
    assert code == 1 and data["code"] == 1 and data["move"] == "44" and data["number"] == 2
    assert data["rule"] == 3 and data["reason"].endswith("must go to grid 5")
    code, _, err = run(capsys, "uttt", "replay", "55 4x")
    assert (
        code == 2
        and err.startswith("oxo: error: move 2 of the record")
        and len(err.splitlines()) == 1
    )


def test_rules_explain_the_sending_rule_and_the_difference_from_mega(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "uttt", "rules")
    assert code == 0
    assert "sends o to grid 1" in out and "Not mega tic-tac-toe" in out
    words = " ".join(out.split())
    assert "x plays 22, winning grid 2" in words and "may play in any grid" in words


def test_play_with_piped_moves_and_undo() -> None:
    result = CliRunner().invoke(
        cli,
        ["uttt", "play", "--x", "human", "--o", "random", "--seed", "4"],
        input="55\nhelp\nmoves\n5x\nundo\n11\nquit\n",
    )
    assert result.exit_code == 0, result.output
    out = result.output
    assert "x, your move" in out and "o (random) plays" in out
    assert "type a move as two digits GC" in out
    assert "not a move: '5x'" in out
    record = out.strip().splitlines()[-1]
    assert record.startswith("record: 11 ")  # 55 and the reply were taken back
    UtttState.replay(record.removeprefix("record: "))


def test_computer_against_computer_plays_to_the_end(tmp_path: Path) -> None:
    save = tmp_path / "game.txt"
    result = CliRunner().invoke(
        cli,
        ["uttt", "play", "--x", "easy", "--o", "random", "--seed", "1", "--save", str(save)],
    )
    assert result.exit_code == 0, result.output
    final = UtttState.replay(save.read_text())
    assert final.is_over and f"record: {final.record}" in result.output


def test_oxo_play_uttt_is_the_same_game() -> None:
    result = CliRunner().invoke(
        cli, ["play", "uttt", "--as", "o", "--level", "random", "--seed", "2"], input="quit\n"
    )
    assert result.exit_code == 0, result.output
    assert "x (random) plays" in result.output and "o, your move" in result.output


def test_perfect_play_is_out_of_reach(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "selfplay", "uttt", "--x", "perfect", "--games", "1")
    assert code == 3 and err.startswith("oxo: out of reach:")


@pytest.mark.parametrize("command", [["uttt", "selfplay"], ["selfplay", "uttt"]])
def test_selfplay_json(capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    code, out, _ = run(
        capsys,
        *command,
        "--x",
        "hard",
        "--o",
        "random",
        "--games",
        "3",
        "--iterations",
        "200",
        "--seed",
        "1",
        "--json",
        "--quiet",
    )
    data = json.loads(out)
    assert code == 0 and data["games"] == 3
    assert data["x_wins"] + data["o_wins"] + data["draws"] == 3
    assert data["x"] == "hard" and data["o"] == "random"


@pytest.mark.parametrize("option", [["--k", "3"], ["--keypad", "phone"]])
def test_oxo_play_uttt_refuses_options_of_classic_boards(
    capsys: pytest.CaptureFixture[str], option: list[str]
) -> None:
    code, out, err = run(capsys, "play", "uttt", *option)
    assert code == 2 and out == "" and err.startswith("oxo: error:") and len(err.splitlines()) == 1


def test_rules_sections_are_the_words_of_oxo_uttt_rules(capsys: pytest.CaptureFixture[str]) -> None:
    from oxo.uttt.guide import rules_sections
    from oxo.uttt.rules import RULES

    _, out, _ = run(capsys, "uttt", "rules")
    sections = rules_sections()
    for title, _ in sections[1:]:
        assert f"\n{title}\n{'-' * len(title)}\n" in out
    words = " ".join(out.split())
    for rule in RULES:
        assert rule in words
    assert "seed" not in out.lower()
