"""A new user's walk through the command line: the README's commands, then the newcomer's questions.

Every command runs as a user would run it, through the installed ``oxo`` entry point in a
subprocess (the README's commands) or through ``oxo.cli.main`` (the rest, faster). Each run fails
on a traceback, on a word a newcomer cannot know (``tests/test_words.py``), on a number cut short
(an ellipsis in a table, a big count without thousands separators) or on a wrong exit status
(0 an answer, 1 a "no", 2 bad input, 3 out of reach within the limits).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from oxo.cli import main
from terminals import run_in_terminal
from test_words import find_jargon

ROOT = Path(__file__).resolve().parents[1]


def oxo_command() -> list[str]:
    """The installed console script beside this Python, or the same entry point through ``-c``."""
    script = Path(sys.executable).parent / "oxo"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from oxo.cli import run; run()"]


@dataclass(frozen=True)
class Run:
    args: tuple[str, ...]
    code: int
    out: str
    err: str


def run_installed(args: list[str], stdin: str = "", timeout: float = 120) -> Run:
    done = subprocess.run(
        oxo_command() + args,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "COLUMNS": "100"},
    )
    return Run(tuple(args), done.returncode, done.stdout, done.stderr)


def run_here(capsys: pytest.CaptureFixture[str], args: list[str]) -> Run:
    code = main(args)
    out, err = capsys.readouterr()
    return Run(tuple(args), code, out, err)


#: A number in a table that lost digits shows an ellipsis; a big count printed bare lacks separators.
ELLIPSIS = re.compile(r"\d…|…\d|\d\.\.\.(?!\.)")
BARE = re.compile(r"(?<![\d,.'/x])\d{5,}(?![\d,.])")


def check(run: Run, code: int, *, table: bool = False) -> None:
    """The checks every run gets; ``table``: also no big number without thousands separators."""
    where = f"oxo {shlex.join(run.args)}"
    text = run.out + run.err
    assert "Traceback" not in text, f"{where}: a traceback\n{run.err}"
    assert run.code == code, f"{where}: exit status {run.code}, expected {code}\n{run.err}"
    assert find_jargon(text) == [], f"{where}: {find_jargon(text)}"
    if code == 2:
        assert run.err.count("\n") == 1 and run.err.startswith("oxo: "), f"{where}: {run.err!r}"
    if table:
        assert not ELLIPSIS.search(run.out), f"{where}: a number cut short"
        assert not BARE.findall(run.out), f"{where}: {BARE.findall(run.out)} without separators"


# -- the README ---------------------------------------------------------------------------------


def readme_commands() -> list[list[str]]:
    """Every ``oxo`` command the README shows: in its console examples and its quick start."""
    text = (ROOT / "README.md").read_text()
    commands = []
    for block in re.findall(r"```(?:console|sh)\n(.*?)```", text, flags=re.DOTALL):
        for line in block.splitlines():
            line = line.removeprefix("$ ")
            for part in line.split("&&"):
                words = shlex.split(part, comments=True)
                if words and words[0].endswith("oxo"):
                    commands.append(words[1:])
    return commands


#: Exit statuses of the README's commands other than 0, and what they read on standard input.
README_STATUS: dict[tuple[str, ...], int] = {("check", "xxx/ooo/..."): 1}
STDIN = "quit\n"


def test_the_readme_shows_commands() -> None:
    commands = readme_commands()
    assert ["count", "4x4"] in commands and ["check", "xxx/ooo/..."] in commands
    assert len(commands) >= 8


#: README commands that take a few seconds (self-play, the 6x6 count) or most of a minute (solving
#: Connect Four): run with the slow tests.
HEAVY = ("selfplay", "6x6")
HEAVY_COMMANDS = (["solve", "6x7", "--k", "4", "--gravity"],)


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(args, marks=pytest.mark.slow)
        if set(HEAVY) & set(args) or args in HEAVY_COMMANDS
        else args
        for args in readme_commands()
    ],
    ids=shlex.join,
)
def test_readme_command(args: list[str]) -> None:
    run = run_installed(args, stdin=STDIN, timeout=1200 if args in HEAVY_COMMANDS else 120)
    table = args[0] in ("count", "games", "terminal") and "--json" not in args
    check(run, README_STATUS.get(tuple(args), 0), table=table)
    if "--json" in args:
        json.loads(run.out)


def test_readme_figures_are_what_the_commands_print() -> None:
    """The README quotes a few figures in its examples: each is what the command prints now."""
    text = (ROOT / "README.md").read_text()
    quoted = re.search(
        r"oxo games 3x3 +# ([\d,]+) games, ([\d,]+) classes, ([\d,]+) universal", text
    )
    assert quoted is not None
    out = run_installed(["games", "3x3", "--json"]).out
    data = json.loads(out)
    totals = json.dumps(data)
    for figure in quoted.groups():
        assert figure.replace(",", "") in totals


# -- a newcomer's questions -----------------------------------------------------------------------


def test_oxo_alone_prints_the_help_and_what_to_try() -> None:
    run = run_installed([])
    check(run, 0)
    assert "Usage: oxo" in run.out and "Exit status" in run.out
    tries = run.out[run.out.index("Try this:") :].splitlines()[1:]
    assert len(tries) == 3
    for line in tries:  # each suggestion runs and answers
        args = shlex.split(re.split(r"\s{2,}", line.strip())[0])[1:]
        expected = 1 if args[0] == "check" else 0
        check(run_installed(args, stdin=STDIN), expected)


def test_exit_statuses_are_documented() -> None:
    help_text = run_installed(["--help"]).out
    readme = (ROOT / "README.md").read_text()
    for text in (" ".join(help_text.split()), " ".join(readme.split())):
        for status in ("0", "1", "2", "3"):
            assert re.search(rf"\b{status}\b", text)
        assert "out of reach" in text.lower() or "within the limits" in text


@pytest.mark.parametrize(
    "args, code",
    [
        (["mega"], 0),
        (["notation"], 0),
        (["mega", "rules"], 0),
        (["mega", "rules", "--full"], 0),
        (["mega", "--help"], 0),
        (["mega", "replay", "11 22 33 44 55 66 77 88 99 23 12 31 45 54 67 76 89 98 13"], 0),
        (["mega", "replay", "55 44 13 42"], 1),
        (["mega", "replay", "5x"], 2),
        (["notation", "views"], 0),
        (["notation", "game", "0 4 8 2 6", "--explain"], 0),
        (["show", "xo./.x./..o"], 0),
        (["show", "x" + "." * 26], 0),
        (["show", "." * 64], 2),
        (["classes", "3x3x3"], 0),
        (["check", "xxx/ooo/..."], 1),
        (["check", "xo./.x./..o"], 0),
        (["analyze", "xo./.x./..."], 0),
        (["deadends", "3x3", "--quiet"], 0),
        (["terminal", "3x3", "--quiet"], 0),
        (["map", "3x3"], 0),
        (["count", "4x4x4", "--plies", "9", "--quiet"], 0),
        (["fullboards"], 0),
        (["move", "x...o....", "--json"], 0),
        (["solve", "3x3"], 0),
        (["solve", "8x8", "--k", "5", "--time", "0.5", "--quiet"], 0),
        (["solve", "8x8", "--k", "5", "--time", "0.5", "--quiet", "--again"], 3),
        (["move", "5x5", "--k", "4", "--level", "easy", "--seed", "1"], 0),
        (["show", "x........//....o....//........."], 2),
        (["show", "x.o/..."], 0),
        (["selfplay", "connect4", "--x", "random", "--o", "perfect", "--games", "1"], 0),
        (["count", "3q3"], 2),
        (["count", "3x3", "--bogus"], 2),
        (["nonsense"], 2),
    ],
    ids=lambda value: shlex.join(value) if isinstance(value, list) else str(value),
)
def test_newcomer_command(capsys: pytest.CaptureFixture[str], args: list[str], code: int) -> None:
    run = run_here(capsys, args)
    check(run, code)


@pytest.mark.parametrize(
    "args",
    [
        ["analyze", "9x9", "--k", "5", "--time", "0.2"],  # 5x5 is proved: its value is known
        ["deadends", "5x5", "--quiet"],
        ["terminal", "5x5", "--quiet"],
        ["count", "4x4x4", "--method", "frontier", "--quiet"],
    ],
    ids=shlex.join,
)
def test_out_of_reach_is_exit_3_with_what_to_try(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    run = run_here(capsys, args)
    check(run, 3)
    assert "out of reach" in run.err and ("try" in run.err.lower() or "--" in run.err)


def test_out_of_reach_says_what_is_known_and_what_to_try(
    capsys: pytest.CaptureFixture[str],
) -> None:
    again = ["solve", "8x8", "--k", "5", "--time", "0.5", "--quiet", "--again"]
    run = run_here(capsys, again)
    check(run, 3)
    assert "unknown" in run.out and "try" in (run.out + run.err)
    run = run_here(capsys, [*again, "--json"])
    assert run.code == 3 and json.loads(run.out)["value"] == "unknown"


@pytest.mark.parametrize(
    "args, code",
    [
        (["count", "3q3", "--json"], 2),
        (["show", "." * 64, "--json"], 2),
        (["count", "3x3", "--bogus", "--json"], 2),
        (["mega", "replay", "55 44 13 42", "--json"], 1),
    ],
    ids=lambda value: shlex.join(value) if isinstance(value, list) else str(value),
)
def test_errors_under_json_are_json_on_stdout(
    capsys: pytest.CaptureFixture[str], args: list[str], code: int
) -> None:
    run = run_here(capsys, args)
    check(run, code)
    data = json.loads(run.out)
    assert data["code"] == code and data["error"] and run.err.startswith("oxo: ")


def test_a_game_record_and_a_drawing_land_in_normal_files(tmp_path: Path) -> None:
    svg = tmp_path / "p.svg"
    check(run_installed(["show", "xo./.x./..o", "--svg", str(svg)]), 0)
    record = tmp_path / "game.txt"
    check(run_installed(["mega", "play", "--o", "random", "--save", str(record)], "55\nquit\n"), 0)
    umask = os.umask(0o022)
    os.umask(umask)
    for path in (svg, record):
        assert path.stat().st_mode & 0o777 == 0o644 & ~umask, path


def test_words_and_numbers_in_the_newcomers_outputs(capsys: pytest.CaptureFixture[str]) -> None:
    run = run_here(
        capsys, ["mega", "replay", "11 22 33 44 55 66 77 88 99 23 12 31 45 54 67 76 89 98 13"]
    )
    assert "string 3 of the game (9 moves long): 1 move so far (13), 8 to go" in run.out
    run = run_here(capsys, ["deadends", "3x3", "--quiet"])
    words = " ".join(run.out.split())  # sentences broken at 80 columns in a pipe
    assert "4,520 reachable positions" in words and ": 1 dead line," in words
    for args in (
        ["games", "3x3"],
        ["count", "4x4"],
        ["terminal", "4x4", "--quiet"],
        ["solve", "3x4"],
    ):
        run = run_here(capsys, args)
        check(run, 0, table=True)
        assert re.search(r"\d,\d{3}", run.out), args  # big counts are there, with separators
    run = run_here(capsys, ["analyze", "xo./.x./..."])
    empty = next(line for line in run.out.splitlines() if line.startswith("empty cells"))
    assert ", " in empty


@pytest.mark.parametrize(
    "args",
    [
        ["analyze", "9x9", "--k", "5", "--time", "0.2"],
        ["analyze", "x" + "." * 80, "--board", "9x9", "--k", "5", "--time", "0.2"],
    ],
    ids=shlex.join,
)
def test_analyze_beyond_the_solver_fits_80_columns_and_says_why_once(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    run = run_here(capsys, args)
    check(run, 3)
    assert max(len(line) for line in run.out.splitlines()) <= 80, run.out
    assert (run.out + run.err).count("too many for the exact solver") == 1
    empty_board = "--board" not in args  # a board alone stands for its empty position
    assert (
        "empty board" in run.err
    ) == empty_board  # oxo solve is offered for the empty board only


@pytest.mark.parametrize(
    "args, stdin, code",
    [
        (["analyze", "5x5"], "", 0),  # a draw, from oxo's proof book
        (["analyze", "9x9", "--k", "5", "--time", "0.2"], "", 3),
        (["analyze", "xo./.x./..."], "", 0),
        (["check", "xxx/ooo/..."], "", 1),
        (["classes", "3x3x3"], "", 0),
        (["notation", "game", "0 4 8 2 6", "--explain"], "", 0),
        (["play", "3x3", "--level", "easy", "--seed", "1"], "help\n4\nquit\n", 0),
        (["show", "x........//....o....//........."], "", 2),
        (["move", "5x5", "--k", "4", "--level", "perfect"], "", 0),  # from the proof book
        (["move", "6x6", "--k", "4", "--level", "perfect"], "", 3),
    ],
    ids=lambda value: shlex.join(value) if isinstance(value, list) else None,
)
def test_texts_fit_an_80_column_terminal(args: list[str], stdin: str, code: int) -> None:
    """Sentences, lists of moves, rules and errors are broken between words at the terminal's
    width (a terminal cut them inside a word); what draws in place (progress) is left alone."""
    run = run_in_terminal(args, 80, 120, typed=stdin.splitlines())
    status, output = run.code, run.output
    assert status == code, output
    assert "Traceback" not in output
    lines = [line for line in output.replace("\r\n", "\n").split("\n") if "\x1b" not in line]
    too_wide = [line for line in lines if "\r" not in line and len(line) > 80]
    assert too_wide == [], too_wide


@pytest.mark.parametrize(
    "args, code",
    [
        (["solve", "9x8", "--k", "5", "--time", "0.5"], 3),
        (["solve", "4x4x4x4", "--time", "0.5"], 0),  # proved: the book answers at once
        (["deadends", "3x3"], 0),
        (["count", "scorefour", "--plies", "2"], 0),
        (["map", "3x3"], 0),
        (["show", "4x4x4x4"], 0),
        (["notation", "game", "0 4 8 2 6"], 0),
        (["move", "scorefour"], 0),
    ],
    ids=lambda value: shlex.join(value) if isinstance(value, list) else None,
)
def test_reports_fit_80_columns_in_a_pipe(
    capsys: pytest.CaptureFixture[str], args: list[str], code: int
) -> None:
    """A report's sentences and lists are broken between words to 80 columns in a file or a pipe
    too (a one-line error stays one line; tables are not sentences and are not broken). A word
    longer than a line, such as 4x4x4x4's position in digits, stands whole on a line of its own,
    so that it can be copied."""
    run = run_here(capsys, args)
    check(run, code)
    lines = (run.out + run.err).splitlines()
    too_wide = [line for line in lines if len(line) > 80 and len(line.split()) > 1]
    assert too_wide == [], too_wide
    if args == ["show", "4x4x4x4"]:
        assert "0" * 256 in [line.strip() for line in lines]


def test_the_readme_lists_every_page_of_the_docs() -> None:
    """Each page in docs/ is named in the README's documentation list (docs/proofs.md was missing;
    issue 45, item 6)."""
    text = (ROOT / "README.md").read_text()
    listed = text.split("## Documentation", 1)[1]
    pages = sorted(path.name for path in (ROOT / "docs").glob("*.md"))
    missing = [page for page in pages if f"docs/{page}" not in listed]
    assert missing == []
