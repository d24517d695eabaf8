"""The long commands on the command line: tables that never cut a number, estimates and --yes,
progress on stderr when it is not a terminal."""

from __future__ import annotations

import functools
import io
import json
import re
import subprocess
import sys
from typing import Any

import pytest

from oxo.cli import main
from oxo.cli.games import games_text
from oxo.games import count_games
from oxo.geometry import Geometry
from oxo.progress import progress_bar
from terminals import run_in_terminal


def every_number(result) -> list[int]:
    numbers = [result.games.total, result.games.x_wins, result.games.o_wins, result.games.draws]
    numbers.append(result.classes.total)
    for row in result.by_length:
        numbers += [row.games.total, row.games.x_wins, row.games.o_wins, row.classes.total]
    return numbers


@functools.cache
def games_of(spec: str) -> Any:
    """The games of a board, counted once for every width the table is drawn at."""
    return count_games(Geometry.parse(spec), universal=spec in ("3x3", "4x4"))


@pytest.mark.parametrize("spec", ["3x3", "4x4", "7x7", "8x8"])
@pytest.mark.parametrize("width", [60, 80, 120])
def test_games_table_never_cuts_a_number(spec: str, width: int) -> None:
    result = games_of(spec)
    text = games_text(result, width)
    assert max(len(line.rstrip()) for line in text.splitlines()) <= width
    assert "…" not in text and "..." not in text
    joined = re.sub(r",\n +", ",", text)  # a long number wrapped after a comma reads as one
    found = set(re.findall(r"\d{1,3}(?:,\d{3})*", joined))
    for number in every_number(result):
        assert f"{number:,}" in found, (spec, width, number)


def test_games_cli_width_from_columns() -> None:
    for width in (60, 80, 120):
        done = subprocess.run(
            [sys.executable, "-c", "from oxo.cli import run; run()", "games", "7x7"],
            capture_output=True,
            text=True,
            env={**__import__("os").environ, "COLUMNS": str(width)},
        )
        assert done.returncode == 0 and done.stderr == ""
        assert max(len(line.rstrip()) for line in done.stdout.splitlines()) <= width
        joined = re.sub(r",\n +", ",", done.stdout)
        total = count_games(Geometry.parse("7x7"), universal=False).games.total
        assert f"{total:,}" in joined


def test_games_json_keys_are_the_same_for_both_methods(capsys: pytest.CaptureFixture[str]) -> None:
    """The same JSON, keys and figures, from either method. 3x4 has every key 4x4 has (the
    universal counts of boards up to 16 cells among them) at 0.02 s a count instead of 0.8; the
    two methods' figures on 4x4 are held to each other in test_count_games_lines."""
    assert main(["games", "3x4", "--json", "--method", "lines"]) == 0
    lines = capsys.readouterr().out
    assert json.loads(lines)["universal"] is not None
    assert main(["games", "3x4", "--json", "--method", "pairs"]) == 0
    assert lines == capsys.readouterr().out


def test_long_game_counts_need_yes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "5x5", "--k", "4"]) == 3
    err = capsys.readouterr().err
    assert "--yes" in err and "estimated" in err
    assert main(["games", "6x6", "--k", "4"]) == 3
    assert "out of reach" in capsys.readouterr().err


def test_progress_lines_when_stderr_is_not_a_terminal() -> None:
    stream = io.StringIO()
    with progress_bar("counting 8x8", total=4, stream=stream, interval=0.0) as bar:
        for _ in range(4):
            bar.advance(1)
    lines = stream.getvalue().splitlines()
    assert lines and all(line.startswith("counting 8x8: ") for line in lines)
    assert lines[-1].startswith("counting 8x8: 100%")
    stream = io.StringIO()
    with progress_bar("counting", stream=stream, interval=0.0) as bar:
        bar(0.5)  # library code reports fractions to the same sink
    assert "50%" in stream.getvalue()


def test_quiet_means_no_progress() -> None:
    stream = io.StringIO()
    with progress_bar("counting", total=2, stream=stream, interval=0.0, quiet=True) as bar:
        bar.advance(2)
        bar(1.0)
    assert stream.getvalue() == ""


def test_progress_reaches_a_pipe() -> None:
    code = (
        "from oxo.progress import progress_bar\n"
        "with progress_bar('counting 7x7', total=2, interval=0.0) as bar:\n"
        "    bar.advance(1); bar.advance(1)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "counting 7x7: 100%" in done.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["4x4x4", "--plies", "12"],
        ["4x4x4", "--plies", "4", "--method", "frontier"],
    ],
    ids=["sets-of-lines", "frontier"],
)
def test_a_count_in_an_80_column_terminal_glues_no_lines(args: list[str], tmp_path) -> None:
    if "frontier" in args:
        args = [*args, "--folder", str(tmp_path / "q")]
    run = run_in_terminal(["count", *args], columns=80, seconds=120)
    code, screen = run.code, run.screen(80)
    assert code == 0, screen
    last = int(args[2])
    ply_lines = [line for line in screen if re.search(r"ply \d+: ", line)]
    for ply in range(last + 1):  # each ply's news on a line of its own, from the first column
        assert sum(line.startswith(f"4x4x4 ply {ply}:") for line in screen) == 1, screen
    assert len(ply_lines) == last + 1, screen  # none glued after other text
    assert not any("━" in line or "%" in line for line in screen), screen  # the bar left no trace
    table = [line for line in screen if line.lstrip().startswith(("ply", "total"))]
    assert len(table) == 2, screen
    # The sentences under the table and on stderr are wrapped between words, not inside one.
    words = {word for line in screen for word in line.split()}
    assert "command" in words or "marks" in words, screen


def test_answering_no_says_the_work_was_not_started() -> None:
    """Asked before work over a minute, a person who answers n is told it did not start and how
    to start it (issue 45, item 6), in a real terminal."""
    run = run_in_terminal(["games", "5x5", "--k", "4"], typed=["n"], seconds=60)
    assert run.code == 1, run.output
    screen = " ".join(run.screen(80))
    assert "Start it? [y/N]: n" in screen
    assert "oxo: not started; --yes starts it without asking" in screen
