"""Clean stops: one Ctrl-C ends a multi-process count, workers included, with one line and status 130."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def group_members(group: int) -> list[int]:
    """Live (not zombie) processes whose process group is ``group``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        state, pgrp = fields[0], int(fields[2])
        if pgrp == group and state != "Z":
            found.append(int(entry.name))
    return found


def children_of(pid: int) -> list[int]:
    out: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            out += [int(child) for child in (task / "children").read_text().split()]
    except OSError:
        pass
    return out


def start(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", "from oxo.cli import run; run()", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a shell gives a foreground job
    )


def wait_for_workers(process: subprocess.Popen[str], count: int, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if len(children_of(process.pid)) >= count:
            return
        if process.poll() is not None:
            raise AssertionError(f"the count ended before its workers started: {process.stderr}")
        time.sleep(0.05)
    raise AssertionError("the workers did not start")


def wait_for_cpu(process: subprocess.Popen[str], seconds: float, limit: float = 120) -> None:
    """Until the processes of ``process``'s group (the command and its workers) have used
    ``seconds`` of CPU time: past the command's imports (which take well under that, on a busy
    machine as on an idle one) and into its work. The wall clock would not say so."""
    tick = os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        used = 0
        for pid in group_members(process.pid):
            try:
                stat = Path(f"/proc/{pid}/stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2 :].split()
            used += int(fields[11]) + int(fields[12])  # utime + stime, in ticks
        if used / tick >= seconds:
            return
        assert process.poll() is None, "the work ended before it could be interrupted"
        time.sleep(0.05)
    raise AssertionError(f"the work did not use {seconds} s of CPU in {limit} s")


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [
        ["count", "3x3x3", "--method", "pairs", "--executor", "processes", "--workers", "2"],
        ["games", "5x5", "--k", "4"],
    ],
    ids=["count", "games"],
)
def test_one_ctrl_c_stops_every_process(args: list[str], tmp_path: Path) -> None:
    process = start(*args, "--yes", "--quiet")
    try:
        if "--workers" in args:
            wait_for_workers(process, 2)
        else:  # past its imports and into its work: measured in its own CPU time, not the clock's
            wait_for_cpu(process, 2.0)
        assert process.poll() is None, "the work ended before it could be interrupted"
        group = os.getpgid(process.pid)
        os.killpg(group, signal.SIGINT)  # what a terminal's Ctrl-C does: the whole foreground group
        # At once on an idle machine; the margin is for a busy one (a process left behind stays).
        deadline = time.monotonic() + 30.0
        while time.monotonic() < deadline and group_members(group):
            time.sleep(0.02)
        assert group_members(group) == [], "processes of the count outlived Ctrl-C by 30 s"
        _, err = process.communicate(timeout=5)
        assert process.returncode == 130
        assert err.strip() == "oxo: interrupted", err
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def test_workers_die_with_their_parent() -> None:
    process = start(
        "count",
        "3x3x3",
        "--method",
        "pairs",
        "--executor",
        "processes",
        "--workers",
        "2",
        "--yes",
        "--quiet",
    )
    try:
        wait_for_workers(process, 2)
        workers = children_of(process.pid)
        process.kill()  # no chance to clean up: the kernel must end the workers
        process.wait()
        deadline = time.monotonic() + 10.0  # at once on an idle machine; margin for a busy one
        alive = workers
        while time.monotonic() < deadline and alive:
            alive = [pid for pid in workers if _alive(pid)]
            time.sleep(0.02)
        assert alive == []
    finally:
        if process.poll() is None:
            process.kill()


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def interrupt_at_ply(
    process: subprocess.Popen[str], board: str, ply: int, seconds: float = 120
) -> int:
    """Read stderr until a line reports a ply of ``board`` at or past ``ply``, then Ctrl-C the
    whole group; the ply that line reports. Never one exact ply: a count prints a ply's line only
    once it has taken noticeable time, so a faster or slower machine skips other plies."""
    assert process.stderr is not None
    news = re.compile(rf"{re.escape(board)} ply (\d+):")
    seen = []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        line = process.stderr.readline()
        if not line:
            break
        seen.append(line)
        found = news.match(line)
        if found and int(found.group(1)) >= ply:
            os.killpg(os.getpgid(process.pid), signal.SIGINT)
            return int(found.group(1))
    raise AssertionError(f"never saw {board} ply {ply} or a later one: {''.join(seen)}")


@pytest.mark.parametrize("as_json", [False, True], ids=["table", "json"])
def test_a_stopped_count_prints_the_plies_it_finished(as_json: bool, tmp_path: Path) -> None:
    import json

    from oxo.counting.frontier import free_positions
    from oxo.geometry import Geometry

    args = ["count", "4x4x4", "--method", "frontier", "--plies", "7", "--yes"]
    args += ["--folder", str(tmp_path / "q"), "--workers", "2"]
    process = start(*args, *(["--json"] if as_json else []))
    try:
        interrupt_at_ply(process, "4x4x4", 3)
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130
    assert err.strip().splitlines()[-1] == "oxo: interrupted" and "Traceback" not in err
    geometry = Geometry.parse("4x4x4")
    if as_json:
        board = json.loads(out)["boards"][0]
        assert board["complete"] is False and len(board["plies"]) >= 4
        for row in board["plies"]:  # before ply 7 every position with the right marks occurs
            assert (row["positions"], row["classes"]) == free_positions(geometry, row["ply"])
        return
    for ply in range(4):
        positions, classes = free_positions(geometry, ply)
        assert f"{positions:,}" in out and f"{classes:,}" in out
    assert "stopped after ply" in out and "run the same command" in out


@pytest.mark.slow
def test_ten_interrupts_never_print_a_traceback() -> None:
    """Ctrl-C at varied moments of a multi-process count: always one line and status 130. Every
    other time the signal comes twice, to the command and then to its group, as ``timeout -s INT``
    sends it, 0 to 0.16 s apart (the second one used to land in Python's exit and print a
    traceback), and the pool's exit hook must not write to a pipe its manager thread closed. Ten
    attempts take each of the five moments twice and each of the five gaps once."""
    for attempt in range(10):
        process = start("count", "5x5", "--k", "4", "--yes", "--quiet")
        try:
            wait_for_workers(process, 2)
            time.sleep(attempt % 5 * 0.3 + attempt // 5 * 0.07)  # 0 to about 1.4 s into the work
            assert process.poll() is None, "the count ended before it could be interrupted"
            group = os.getpgid(process.pid)
            if attempt % 2:  # the second signal comes while the count stops or exits
                os.kill(process.pid, signal.SIGINT)
                time.sleep(attempt // 2 % 5 * 0.04)
            os.killpg(group, signal.SIGINT)
            _, err = process.communicate(timeout=30)
            assert process.returncode == 130, (attempt, err)
            assert err.strip() == "oxo: interrupted", (attempt, err)
        finally:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


#: A child that counts with two worker processes and gets Ctrl-C at the worst moment: while
#: ``concurrent.futures.wait`` holds the lock of one pending future and is taking the others'.
CTRL_C_INSIDE_WAIT = r"""
import os, signal, sys, time
import concurrent.futures._base as base
import numpy as np
from oxo.counting.executors import run_shards

calls = 0

def enter(self):
    global calls
    calls += 1
    futures = sorted(self.futures, key=id)
    futures[0]._condition.acquire()
    if calls == 3:  # the workers are busy; Python runs the SIGINT handler during the sleep
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)
    for future in futures[1:]:
        future._condition.acquire()

base._AcquireFutures.__enter__ = enter
# Ctrl-C as a shell gives it: a test before this one in the same test process may have left SIGINT
# ignored (the command ignores a second Ctrl-C while it stops), and children inherit that.
signal.signal(signal.SIGINT, signal.default_int_handler)

def shard():
    time.sleep(0.05)
    return np.zeros(1)

try:
    run_shards([shard] * 40, "processes", workers=2)
    print("finished")
except KeyboardInterrupt:
    print("interrupted")
"""


def test_ctrl_c_inside_the_wait_for_workers_does_not_hang(tmp_path: Path) -> None:
    """A Ctrl-C that lands while the pool's futures are being locked used to leave a lock held:
    the pool's manager thread then waited for it for ever and the command hung instead of exiting
    (one run in three of 'oxo count 5x5 --k 4' interrupted at a random moment). The signal is now
    acted on between two waits."""
    process = subprocess.Popen(
        [sys.executable, "-c", CTRL_C_INSIDE_WAIT],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = process.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        raise AssertionError("the count hung after Ctrl-C") from None
    assert out.strip() == "interrupted", (out, err)
    assert "Traceback" not in err, err
    assert group_members(process.pid) == []


def test_ctrl_c_while_the_command_starts_is_the_same_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before a command's own clean stop (reading its arguments, importing), Ctrl-C used to reach
    click, which printed a blank line and "oxo: aborted"; it is the one line of every other stop."""
    import oxo.cli.core as core
    from oxo.cli import main

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(core, "_count_board", interrupted)
    assert main(["count", "3x3"]) == 130
    captured = capsys.readouterr()
    assert captured.err == "oxo: interrupted\n" and captured.out == ""


#: A command whose work is interrupted inside a constructor, as Ctrl-C can land inside numpy's
#: reader of a zip file: the half-built object's finalizer fails once the command has stopped.
CTRL_C_INSIDE_A_CONSTRUCTOR = r"""
import os, signal, sys
import oxo.cli.core as core
from oxo.cli import run

class HalfBuilt:
    def __init__(self):
        os.kill(os.getpid(), signal.SIGINT)
        self.ready = True

    def __del__(self):
        self.ready

def count(*args, **kwargs):
    HalfBuilt()

core._count_board = count
sys.argv = ["oxo", "count", "3x3"]
run()
"""


def test_ctrl_c_inside_a_constructor_prints_one_line() -> None:
    """The finalizer of an object the interrupt left half built used to print a traceback after
    "oxo: interrupted"."""
    process = subprocess.run(
        [sys.executable, "-c", CTRL_C_INSIDE_A_CONSTRUCTOR],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert process.returncode == 130, process.stderr
    assert process.stderr == "oxo: interrupted\n"


@pytest.mark.slow
def test_a_stopped_gravity_count_prints_the_plies_it_finished() -> None:
    """Connect Four counted in memory, Ctrl-C during ply 12 or 13: the plies finished, as --json
    with complete false, equal to the published figures (OEIS A212693)."""
    import json

    from test_gravity import A212693

    process = start("count", "connect4", "--plies", "13", "--json")
    try:
        stopped_in = interrupt_at_ply(process, "6x7,k=4,gravity", 11) + 1
        assert stopped_in <= 13, "the count ended before it could be interrupted"
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130
    assert err.strip().splitlines()[-1] == "oxo: interrupted" and "Traceback" not in err
    (board,) = json.loads(out)["boards"]
    assert board["complete"] is False and len(board["plies"]) >= stopped_in
    assert [row["positions"] for row in board["plies"]] == list(A212693[: len(board["plies"])])
    for row in board["plies"]:  # a class is a position and its mirror image
        assert row["positions"] / 2 <= row["classes"] <= row["positions"]


@pytest.mark.slow
def test_a_stopped_uttt_count_prints_the_plies_it_finished(tmp_path: Path) -> None:
    """Ultimate tic-tac-toe counted on disk, Ctrl-C during ply 8: the table of plies 0-7 (0-6
    equal to the count in memory), and how to go on. A line a ply is printed once the count has
    taken a second, which ply 7 always has (plies 0-6 may take less on a fast machine); the
    count ends at ply 8, so the first line at or past ply 7 is ply 7's."""
    from oxo.uttt.counting import count_positions

    # --yes: on a slow machine ply 7's time predicts over a minute for ply 8, and the count would
    # stop to ask for it (exit 3) just as the Ctrl-C comes; the test is about the Ctrl-C.
    process = start("count", "uttt", "--plies", "8", "--folder", str(tmp_path / "u"), "--yes")
    try:
        assert interrupt_at_ply(process, "uttt", 7) == 7, "the count ended before the interrupt"
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert process.returncode == 130
    assert err.strip().splitlines()[-1] == "oxo: interrupted" and "Traceback" not in err
    expected = count_positions(6)
    for positions, classes in zip(expected.positions, expected.classes, strict=True):
        assert f"{positions:,}" in out and f"{classes:,}" in out
    assert "stopped after ply 7" in " ".join(out.split()) and "run the same command" in out
