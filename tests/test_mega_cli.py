"""``oxo mega replay|play|selfplay``: output, JSON shape and the error paths (exit 1 and 2)."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from oxo.cli import main
from oxo.cli.mega import mega
from oxo.mega.rules import MegaState
from positions import STRAIGHTS

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
            "number": 2,
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


def test_play_quit_undo_and_save(tmp_path) -> None:
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
    assert "o (hard) plays" in result.output and "random games" in result.output
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


# -- the rules for newcomers: oxo mega rules ------------------------------------------------------


def test_rules_in_plain_words(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "mega", "rules")
    assert code == 0 and not err
    for title in ("Strings", "Abnormal strings", "Big markers and winning", "Worked example"):
        assert f"\n{title}\n" in out
    assert "not ultimate tic-tac-toe" in out and "sends your opponent" in out
    assert "seed" not in out.lower() and "issue" not in out.lower()
    assert max(len(line) for line in out.splitlines()) <= 78
    from oxo.mega.guide import EXAMPLE_RECORD
    from oxo.mega.render import board_text

    assert board_text(MegaState.replay(EXAMPLE_RECORD)) in out


def _free_normal_moves(state: MegaState) -> list[str]:
    """Moves keeping rules 5 and 6, found cell by cell without the engine's masks (a slow reference)."""
    string = state.current_string
    moves = []
    for grid in range(1, 10):
        if grid in state.covered or grid in string.grids:
            continue
        for cell in range(1, 10):
            if state.cell(grid, cell) is None and cell not in string.positions:
                moves.append(f"{grid}{cell}")
    return moves


def test_rules_worked_example_says_what_the_rules_engine_does() -> None:
    from oxo.mega.guide import EXAMPLE_RECORD, example_facts, example_text

    facts = example_facts()
    moves = EXAMPLE_RECORD.split()
    assert facts.record == tuple(moves)
    assert facts.first_string == tuple(moves[:9]) and facts.second_string == tuple(moves[9:18])
    # Before the abnormal move no move keeps rules 5 and 6; before every earlier move one did.
    for number in range(1, facts.abnormal_move):
        assert _free_normal_moves(MegaState.replay(moves[: number - 1]))
    before = MegaState.replay(moves[: facts.abnormal_move - 1])
    assert _free_normal_moves(before) == []
    assert MegaState.replay(moves[: facts.abnormal_move]).abnormal_strings == (1,)
    # The covering move is the first after which the grid carries a big marker, with three in a row.
    assert MegaState.replay(moves[: facts.cover_move - 1]).covered == {}
    after = MegaState.replay(moves[: facts.cover_move])
    assert after.covered == {facts.cover_grid: facts.cover_owner}
    assert facts.cover_cells in {tuple(cell + 1 for cell in line) for line in STRAIGHTS}
    text = example_text()
    assert f"Before move {facts.abnormal_move} " in text and "string 2 is abnormal" in text
    assert f"grid {facts.cover_grid} is covered by {facts.cover_owner}'s big marker" in text
    # Played on to the end of the string, the next one is as long as the grids left uncovered.
    state = MegaState.replay(moves)
    while state.current_string.index == 2:
        state.push(state.legal_moves[0])
    if len(state.covered) == 1:
        assert state.current_string.length == facts.next_length


def test_rules_full_is_the_reference_shipped_in_the_package(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from pathlib import Path

    docs = Path(__file__).resolve().parents[1] / "docs" / "mega.md"
    packaged = Path(__file__).resolve().parents[1] / "src" / "oxo" / "mega" / "mega.md"
    assert packaged.read_text() == docs.read_text(), (
        "src/oxo/mega/mega.md must be a copy of docs/mega.md: cp docs/mega.md src/oxo/mega/mega.md"
    )
    code, out, _ = run(capsys, "mega", "rules", "--full")
    assert code == 0 and out == docs.read_text()


def test_mega_help_and_in_game_help_point_to_the_rules(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "mega", "--help")
    assert code == 0 and "oxo mega rules" in out and "ultimate" in out
    result = CliRunner().invoke(
        mega, ["play", "--o", "random", "--seed", "1"], input="help\nrules\nquit\n"
    )
    assert result.exit_code == 0 and "oxo mega rules" in result.output
    from oxo.mega.guide import rules_text

    assert rules_text() in result.output


@pytest.mark.slow
def test_rules_full_from_an_installed_copy(tmp_path) -> None:
    """Install the package (without its dependencies) into a folder and read the reference from there."""
    import shutil
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    project = tmp_path / "project"  # a copy, so the build leaves nothing in the working tree
    shutil.copytree(
        root / "src" / "oxo", project / "src" / "oxo", ignore=shutil.ignore_patterns("__pycache__")
    )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(root / name, project / name)
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps"]
        + ["--target", str(target), str(project)],
        check=True,
        capture_output=True,
    )
    code = (
        "import oxo, oxo.mega.guide as g; "
        f"assert oxo.__file__.startswith({str(target)!r}), oxo.__file__; "
        "print(g.full_text(), end='')"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        check=True,
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PYTHONPATH": str(target), "PATH": "/usr/bin:/bin"},
    ).stdout
    assert out == (root / "docs" / "mega.md").read_text()


def test_replay_illegal_move_under_json_is_json_on_stdout_too(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "mega", "replay", "55 44 13 42", "--json")
    data = json.loads(out)
    assert code == 1 and data["code"] == 1 and data["rule"] == 5 and data["number"] == 4
    assert data["move"] == "42" and "(string 1, move 2)" in data["error"]
    assert err.startswith("oxo: illegal move: move 4 (42)") and err.count("\n") == 1
    code, out, err = run(capsys, "mega", "replay", "5x", "--json")
    assert code == 2 and json.loads(out)["code"] == 2 and "not a move" in json.loads(out)["error"]
