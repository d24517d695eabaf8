"""The one progress interface (:mod:`oxo.progress`): what is redrawn in place fits the terminal,
and Ctrl-C's message starts a line of its own and says what was settled (issue 45, item 1)."""

from __future__ import annotations

import io
import re

import pytest

from oxo import progress
from oxo.errors import Stopped
from oxo.geometry import Geometry
from oxo.progress import columns, fit_width, progress_status
from oxo.proofs import solver
from oxo.proofs.results import ProofResult, SearchSummary
from terminals import run_in_terminal


def test_a_line_that_fits_is_kept_whole() -> None:
    assert fit_width("counting 4x4", 80) == "counting 4x4"
    assert fit_width("x" * 79, 80) == "x" * 79


def test_a_long_line_is_cut_short_of_the_last_column() -> None:
    text = "can X force a line? " + "1,234,567 positions searched, " * 5
    cut = fit_width(text, 80)
    assert len(cut) == 79 and cut.endswith("…")
    assert text.startswith(cut[:-1])
    assert fit_width(text, 1) == "…"  # no room at all: still one character, never an error


def test_the_width_comes_from_columns_when_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "52")
    assert columns(io.StringIO()) == 52
    monkeypatch.setenv("COLUMNS", "wide")
    assert columns(io.StringIO()) == 80  # not a number, and no terminal behind a StringIO
    monkeypatch.delenv("COLUMNS")
    assert columns(io.StringIO()) == 80


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_status_on_a_terminal_is_cut_to_its_width(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    stream = _Terminal()
    with progress_status(stream=stream) as status:
        status("searching: " + "9,999 positions " * 10)
        status("short")
    pieces = re.split(r"[\r\n]", re.sub(r"\x1b\[K", "", stream.getvalue()))
    assert max(len(piece) for piece in pieces) == 39, pieces
    assert "short" in pieces and pieces[-1] == ""  # cleared at the end


def test_a_status_in_a_pseudo_terminal_never_wraps() -> None:
    code = (
        "from oxo.progress import progress_status\n"
        "with progress_status() as status:\n"
        "    for n in range(50):\n"
        "        status(f'can X force a line? {n:,} positions searched, ' + 'more words ' * 12)\n"
        "print('done')\n"
    )
    run = run_in_terminal([], columns=60, seconds=60, python=code)
    assert run.code == 0, run.output
    assert run.wider_than(59) == [], run.output
    assert run.screen(60) == ["done"]  # nothing left behind by the redraws


@pytest.mark.slow
def test_the_count_of_qubic_fits_an_80_column_terminal() -> None:
    run = run_in_terminal(["count", "4x4x4", "--plies", "6"])
    assert run.code == 0, run.output
    assert run.wider_than(80) == [], run.output


def _summary(attacker: str, result: bool | None, nodes: int, first=None) -> SearchSummary:
    return SearchSummary(attacker, result, nodes, 1.0, None, {}, first)


def test_a_stopped_proof_says_what_it_settled() -> None:
    geometry = Geometry.parse("7x7", 5)
    nothing = ProofResult(geometry, "unknown", (_summary("x", None, 4096),), 5.0, (), 600.0)
    assert nothing.settled_text() == (
        "nothing settled yet (can X force a line? 4,096 positions searched)"
    )
    first = {"win": [], "no win": [0, 1], "open": [2, 3, 4]}
    some = ProofResult(
        geometry,
        "unknown",
        (_summary("x", False, 9000), _summary("o", None, 0, first)),
        5.0,
        (),
        600.0,
    )
    assert some.settled_text() == (
        "settled: X cannot force a line (can O force a line? just begun; of X's 5 first moves, "
        "one of each set alike by symmetry, O does not win after 0, 1; 3 not settled)"
    )


class _StoppedSearch:
    """A search that Ctrl-C stops after 4,096 positions, having settled one first move."""

    nodes = 4096

    def solve(self) -> bool | None:
        raise KeyboardInterrupt

    def first_moves(self) -> dict[str, list[int]]:
        return {"win": [], "no win": [4], "open": [0, 1]}


def test_ctrl_c_stops_a_proof_with_what_it_settled(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(solver, "make_search", lambda *args, **kwargs: _StoppedSearch())
    with pytest.raises(Stopped) as stop:
        solver.prove_board(Geometry.parse("5x5", 4), seconds=10.0)
    assert isinstance(stop.value, KeyboardInterrupt)  # whoever stops on Ctrl-C stops on it
    partial = stop.value.partial
    assert isinstance(partial, ProofResult) and partial.value == "unknown"
    assert [(s.attacker, s.result, s.nodes) for s in partial.searches] == [("x", None, 4096)]
    assert "X does not win after 4; 2 not settled" in partial.settled_text()


LONG_RUNS = [
    ["solve", "7x7", "--k", "5", "--again"],  # (without --again: read from the proof book)
    ["solve", "10x4", "--k", "4", "--time", "3", "--again"],
    ["analyze", "4453", "--gravity", "--time", "3"],
]


@pytest.mark.slow
@pytest.mark.parametrize("args", LONG_RUNS, ids=" ".join)
def test_long_work_fits_an_80_column_terminal(args: list[str]) -> None:
    run = run_in_terminal(args, columns=80, seconds=400)
    assert run.code in (0, 3), run.output  # an answer, or what is known within the time
    assert run.wider_than(80) == [], run.output
    assert "force a line?" in run.output or "column" in run.output


@pytest.mark.slow
def test_ctrl_c_of_a_proof_says_what_it_settled_on_a_line_of_its_own() -> None:
    run = run_in_terminal(
        ["solve", "8x8", "--k", "5", "--again"],
        columns=80,
        seconds=300,
        interrupt_on=r"can X force a line\? [\d,]+ positions searched",
    )
    assert run.code == 130, run.output
    assert run.wider_than(80) == [], run.output
    screen = run.screen(80)
    message = [line for line in screen if "interrupted" in line]
    assert len(message) == 1 and message[0].startswith("oxo: interrupted after "), screen
    assert "can X force a line?" in " ".join(screen[screen.index(message[0]) :]), screen
    assert not any("positions searched, " in line for line in screen), screen  # status cleared


def test_notices_reach_the_sink_set_once_each() -> None:
    from oxo.progress import notice, notices_to

    notice("nobody hears this")  # no sink: a library call stays silent
    heard: list[str] = []
    with notices_to(heard.append):
        notice("compiling")
        notice("compiling")  # said once
        notice("loading")
    notice("after")
    assert heard == ["compiling", "loading"]


def test_the_command_line_says_a_notice_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    import click

    from oxo.cli import cli, main
    from oxo.progress import notice

    @cli.command(name="noticing")
    def noticing() -> None:
        notice("compiling the search into machine code, once")
        click.echo("answer")

    try:
        assert main(["noticing"]) == 0
    finally:
        cli.commands.pop("noticing")
    captured = capsys.readouterr()
    assert captured.out == "answer\n"
    assert captured.err == "oxo: compiling the search into machine code, once\n"


class _Clock:
    """A clock the test moves by hand (for :mod:`oxo.progress`'s spacing of plain lines)."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        return self.now


def test_plain_lines_of_one_kind_are_spaced_and_another_kind_comes_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Off a terminal (a log), a command of a few seconds writes no status; after that, updates
    of one thing come at most every ``interval`` seconds, while a line about something else (the
    run's time being up) is written at once."""
    clock = _Clock()
    monkeypatch.setattr(progress, "time", clock)
    stream = io.StringIO()
    with progress_status(stream=stream, interval=5.0) as status:
        status("searching: 10 positions")
        clock.now = 1.0
        status("checking: 5 entries")  # another kind, but too soon: still quiet
        clock.now = 6.0
        status("can X force a line? 10 jobs open, 1,000 positions searched")
        clock.now = 7.0
        status("can X force a line? 9 jobs open, 2,000 positions searched")
        status("time is up: waiting up to 10 s for the last 2 jobs to report")
        clock.now = 8.0
        status("time is up: waiting up to 10 s for the last 1 job to report")
        clock.now = 13.0
        status("time is up: waiting up to 10 s for the last 1 job to report")
    assert stream.getvalue().splitlines() == [
        "can X force a line? 10 jobs open, 1,000 positions searched",
        "time is up: waiting up to 10 s for the last 2 jobs to report",
        "time is up: waiting up to 10 s for the last 1 job to report",
    ]
