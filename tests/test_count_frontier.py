"""The frontier count (positions per ply kept on disk): against the other counters, resumable, on
Dask, within a memory limit; the estimates and the command line around it."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path

import pytest

from numba_cache import twice_with_one_cache
from oxo.cli import main
from oxo.counting import count_by_frontier, count_positions
from oxo.counting.budget import (
    MemoryGuard,
    MemoryLimitError,
    MemorySpecError,
    parse_memory,
    tree_memory,
)
from oxo.counting.frontier import (
    completed_plies,
    count_frontier,
    estimate_frontier,
    free_positions,
    frontier_plan,
)
from oxo.counting.reference import count_by_search
from oxo.geometry import Geometry
from oxo.terminal import count_terminal


@pytest.mark.parametrize("spec", ["3x3", "3x4", "4x4,k=3", "2x2x2,k=2", "3x3,k=2"])
def test_frontier_agrees_with_the_other_counters(spec: str, tmp_path: Path) -> None:
    geometry = Geometry.parse(spec)
    table = count_by_frontier(geometry, str(tmp_path / "count"), executor="serial")
    assert table.complete and table.method == "frontier"
    expected = count_positions(geometry)
    assert [(r.positions, r.classes) for r in table.plies] == [
        (r.positions, r.classes) for r in expected.plies
    ]


def test_frontier_finished_positions_agree_with_terminal_counts(tmp_path: Path) -> None:
    geometry = Geometry.parse("4x4,k=3")
    rows = count_frontier(geometry, tmp_path, executor="serial")
    terminal = count_terminal(geometry)
    for row, ended in zip(rows, terminal.plies, strict=False):
        assert (row.finished_positions, row.finished_classes) == (ended.positions, ended.classes)


def test_qubic_first_plies_against_counting_without_rules(tmp_path: Path) -> None:
    # Up to ply 2k - 1 every position with the right numbers of marks can occur (no line can be
    # complete before the last move), so the count is a multinomial and Burnside over the cycles.
    geometry = Geometry.parse("4x4x4")
    rows = count_frontier(geometry, tmp_path, max_ply=4, executor="serial")
    for row in rows:
        assert (row.positions, row.classes) == free_positions(geometry, row.ply)
    assert free_positions(geometry, 2) == (64 * 63, 116)
    # X's lines at ply 7 (the first possible win): one line of four and three O marks elsewhere.
    assert math.comb(60, 3) * len(geometry.lines) > 0


def test_free_positions_against_search_on_small_boards() -> None:
    geometry = Geometry.parse("4x4")
    positions, classes = count_by_search(geometry, max_ply=5)
    for ply in range(6):  # 4x4 has no complete line before ply 7
        assert free_positions(geometry, ply) == (positions[ply], classes[ply])


def test_qubic_first_win_ply_against_the_constraint_search(tmp_path: Path) -> None:
    geometry = Geometry.parse("3x3x3")
    rows = count_frontier(geometry, tmp_path, max_ply=5, executor="serial")
    terminal = count_terminal(geometry, "csp", plies=[5])
    assert rows[5].finished_positions == terminal.plies[0].positions
    assert rows[5].finished_classes == terminal.plies[0].classes


def test_resumes_from_the_last_complete_ply(tmp_path: Path) -> None:
    geometry = Geometry.parse("4x4,k=3")
    first = count_frontier(geometry, tmp_path, max_ply=3, executor="serial")
    assert [row.ply for row in first] == [0, 1, 2, 3]
    # A ply left half-written by a stopped count is thrown away and made again.
    broken = tmp_path / "ply-004"
    broken.mkdir()
    (broken / "spill-0000-junk.npz").write_bytes(b"not a shard")
    seen: list[int] = []
    rows = count_frontier(
        geometry, tmp_path, executor="serial", on_ply=lambda row: seen.append(row.ply)
    )
    assert seen[:4] == [0, 1, 2, 3] and rows[-1].ply > 4
    full = count_positions(geometry)
    assert [r.positions for r in rows] == [r.positions for r in full.plies[: len(rows)]]
    assert [r.ply for r in completed_plies(tmp_path)] == [r.ply for r in rows]


def test_refuses_a_folder_of_another_board(tmp_path: Path) -> None:
    count_frontier(Geometry.parse("3x3"), tmp_path, max_ply=1, executor="serial")
    with pytest.raises(ValueError, match="holds a count of 3x3"):
        count_frontier(Geometry.parse("4x4"), tmp_path, executor="serial")


def test_more_shards_give_the_same_count(tmp_path: Path) -> None:
    geometry = Geometry.parse("4x4,k=3")
    chunk, shards = frontier_plan(geometry, 64 * 2**20, 1, 10**7, 10)
    assert shards > 1 and chunk >= 1
    rows = count_frontier(geometry, tmp_path, executor="serial", max_ply=6, min_shards=5)
    assert any(row.shards > 1 for row in rows)
    full = count_positions(geometry)
    assert [r.classes for r in rows] == [r.classes for r in full.plies[:7]]


@pytest.mark.slow
def test_processes_and_dask_give_the_same_count(tmp_path: Path) -> None:
    pytest.importorskip("dask.distributed")
    geometry = Geometry.parse("3x3")
    here = count_frontier(geometry, tmp_path / "here", executor="serial")
    local = count_frontier(geometry, tmp_path / "local", executor="processes", workers=2)
    on_dask = count_frontier(geometry, tmp_path / "dask", executor="dask", workers=2)
    assert here == local == on_dask


@pytest.fixture(scope="module")
def dask_scheduler() -> Iterator[str]:
    """The address of a local Dask cluster (one worker process), started once for this file's tests."""
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def test_dask_scheduler_address(tmp_path: Path, dask_scheduler: str) -> None:
    rows = count_frontier(
        Geometry.parse("3x3"), tmp_path, executor="dask", scheduler=dask_scheduler
    )
    assert sum(row.positions for row in rows) == 5478


def test_estimates_bound_the_count() -> None:
    geometry = Geometry.parse("4x4")
    estimates = estimate_frontier(geometry, 16)
    actual = count_positions(geometry)
    for estimate in estimates:
        assert actual.plies[estimate.ply].classes <= estimate.classes_at_most


def test_memory_sizes() -> None:
    assert parse_memory("8G") == 8 * 2**30 == parse_memory("8GiB") == parse_memory("8 gb")
    assert parse_memory("512M") == 512 * 2**20
    for bad in ("", "8X", "lots", "1K"):
        with pytest.raises(MemorySpecError):
            parse_memory(bad)


def test_memory_guard_stops_work_past_the_limit() -> None:
    assert tree_memory() > 0
    with pytest.raises(MemoryLimitError, match="memory limit"):
        with MemoryGuard(limit=tree_memory() + 100 * 2**20, interval=0.02):
            hog = []
            for _ in range(200):
                hog.append(bytearray(10 * 2**20))
                __import__("time").sleep(0.01)
            raise AssertionError("the guard did not stop the work")


def test_memory_guard_spares_the_processes_started_before_it() -> None:
    """A process this one had before the guard (multiprocessing's resource tracker, say) is not
    the guard's to kill; a worker started inside the block is."""
    import subprocess
    import sys

    earlier = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    inside = None
    try:
        with pytest.raises(MemoryLimitError):
            with MemoryGuard(limit=tree_memory() + 100 * 2**20, interval=0.02):
                inside = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
                hog = []
                for _ in range(200):
                    hog.append(bytearray(10 * 2**20))
                    __import__("time").sleep(0.01)
        assert inside is not None and inside.wait(10) == -9
        assert earlier.poll() is None
    finally:
        for process in (earlier, inside):
            if process is not None:
                process.kill()
                process.wait()


def test_memory_guard_is_quiet_within_the_limit() -> None:
    with MemoryGuard(limit=tree_memory() + 2**30, interval=0.02) as guard:
        sum(range(10**5))
    assert not guard.tripped


# -- the command line -------------------------------------------------------------------------------


def test_count_json_has_one_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", "3x3", "--json"]) == 0
    one = json.loads(capsys.readouterr().out)
    assert main(["count", "3x3", "2x2", "--json"]) == 0
    two = json.loads(capsys.readouterr().out)
    assert set(one) == set(two) == {"boards"}
    assert one["boards"][0] == two["boards"][0]
    assert set(one["boards"][0]) == set(two["boards"][1])


def test_count_frontier_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "q"
    args = ["count", "4x4x4", "--plies", "3", "--folder", str(folder), "--json", "--quiet"]
    args += ["--method", "frontier"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)["boards"][0]
    assert data["method"] == "frontier" and data["complete"] is False
    assert [row["positions"] for row in data["plies"]] == [1, 64, 4032, 124992]


def test_long_counts_need_yes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", "4x4x4", "--plies", "7", "--method", "frontier"]) == 3
    err = capsys.readouterr().err
    assert "--yes" in err and "ply 7" in err and "Traceback" not in err


def test_out_of_reach_counts_say_what_to_try(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", "4x4x4", "--method", "frontier"]) == 3
    err = capsys.readouterr().err
    assert "out of reach" in err and "--plies 6" in err
    assert main(["count", "4x4x4", "--method", "pairs", "--json"]) == 3
    captured = capsys.readouterr()
    assert "frontier" in captured.err


def test_memory_limit_refuses_before_starting(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["count", "3x3x3", "--memory", "100M", "--yes"]) == 3
    err = capsys.readouterr().err
    assert "more than the limit" in err and "--memory" in err
    assert main(["count", "3x3", "--memory", "lots"]) == 2


def test_count_command_on_a_dask_cluster(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], dask_scheduler: str
) -> None:
    args = ["count", "3x3", "--method", "frontier", "--executor", "dask"]
    args += ["--scheduler", dask_scheduler, "--folder", str(tmp_path), "--json"]
    assert main([*args, "--quiet"]) == 0
    data = json.loads(capsys.readouterr().out)["boards"][0]
    assert data["total"] == {"positions": 5478, "classes": 765} and data["complete"] is True


def test_a_frontier_count_says_where_its_folder_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["count", "4x4x4", "--plies", "2", "--method", "frontier"]) == 0
    err = capsys.readouterr().err
    folder = tmp_path / "oxo-count-4x4x4-k4"
    assert folder.is_dir() and str(folder) in err.replace("\n", "")
    assert "continue a stopped count" in err and "remove the folder" in err


def test_a_later_process_finds_the_compiled_step_in_the_cache(tmp_path: Path) -> None:
    """The compiled step is kept in numba's cache under a key every process computes alike: a
    second process loads it instead of compiling it again (made inside a function, it never did)."""
    code = (
        "from oxo.compiled import is_cached\nfrom oxo.counting import frontierkernel as kernel\n"
        "before = is_cached(kernel.expand)\nkernel.warm_up()\n"
        "print(before, is_cached(kernel.expand))"
    )
    runs = twice_with_one_cache(code, tmp_path / "cache")
    assert runs == [["False", "True"], ["True", "True"]]
