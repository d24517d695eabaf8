"""Proof runs (:mod:`oxo.proofs.runs`): split into jobs, spread over workers, stopped and continued,
merged into certificates that oxo's checker and a checker without oxo (tools/check_strategy.py)
both accept; and the sectioned certificate format itself, against both checkers."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from checkers import TOOL, checker_verdict, run_checker
from oxo.cli import main
from oxo.errors import CertificateFileError, OptionError, OxoError
from oxo.geometry import Geometry
from oxo.proofs import runs, workers
from oxo.proofs.certificate import status_masks, status_string, verify_certificate
from oxo.proofs.merge import CHUNK_SHIFT, FragmentPack, decode_fragment, encode_fragment
from oxo.proofs.results import Waiting, certificate_name
from oxo.proofs.runs import (
    LAG_TRIED,
    NEAR,
    OPENING_PLIES,
    PATIENCE,
    RIVALS,
    WAITS_SAID,
    Node,
    ProofRun,
    RunOptions,
    Tree,
    _leaf_tables,
    job_estimates,
    load_state,
    proved_openings,
    run_status,
    state_geometry,
    write_certificate_again,
    write_opening_certificate,
)
from oxo.proofs.search import certificate_rules
from oxo.proofs.solver import ProofResult, prove_board
from oxo.proofs.strategy import Entry
from oxo.proofs.symmetry import Classes
from oxo.proofs.wide import SLOT_BYTES, WideSearch
from oxo.proofs.workers import Job, JobResult, run_job

ROOT = Path(__file__).resolve().parents[1]


def split(**changes: object) -> RunOptions:
    """Options that split even a small board into many jobs, run here one at a time (the same
    jobs in the same order every time: a job's slice is a number of positions, not seconds)."""
    settings: dict[str, object] = {
        "workers": 1,
        "probe_seconds": 0,
        "slice_nodes": 30,
        "split_plies": 2,
    }
    settings.update(changes)
    return RunOptions(**settings)  # type: ignore[arg-type]  # the fields' own types


def tool(path: str | Path, *args: str) -> int:
    """The exit status of the checker that does not import oxo."""
    done = run_checker(path, *args)
    assert done.returncode in (0, 1, 2), done.stderr
    return done.returncode


def oxo_verify(path: str | Path, *args: str) -> int:
    return main(["verify", str(path), *args])


def expected_value(spec: str) -> str:
    """The value by one search in memory, no split (tests/test_proofs.py checks that search against
    the per-ply tables on every board up to 16 cells)."""
    return prove_board(Geometry.parse(spec), seconds=None).value


def result_folder(result: ProofResult) -> Path:
    """The folder of a run's proof: where its certificates are, beside its state."""
    return Path(result.proofs[0]).parent


def sections_of(path: str | Path) -> list[list[object]] | None:
    with gzip.open(path, "rt") as handle:
        return json.loads(handle.readline()).get("sections")


# -- a split run gives the value, and certificates both checkers accept ------------------------------


@pytest.fixture(scope="module")
def six_by_five(tmp_path_factory: pytest.TempPathFactory) -> ProofResult:
    """6x5 (k=4), an X win, proved by a split run."""
    folder = tmp_path_factory.mktemp("six_by_five") / "p"
    options = split(slice_nodes=200)
    return prove_board(Geometry.parse("6x5,k=4"), seconds=None, proof_dir=folder, run=options)


@pytest.mark.parametrize(
    ("spec", "changes"),
    [
        ("4x4", {}),
        ("3x3x3", {"split_plies": 1}),
        ("4x5,k=4", {}),
        ("6x5,k=4", None),  # the module's run
        ("2x3x3,k=3,gravity", {}),  # a box with gravity: certificates that say so
        pytest.param("5x5,k=4", {"slice_nodes": 1000}, marks=pytest.mark.slow),
    ],
)
def test_a_split_run_gives_the_value_and_certificates_both_checkers_accept(
    spec: str, changes: dict[str, object] | None, tmp_path: Path, six_by_five: ProofResult
) -> None:
    geometry = Geometry.parse(spec)
    if changes is None:
        result = six_by_five
    else:
        result = prove_board(geometry, seconds=None, proof_dir=tmp_path / "p", run=split(**changes))
    assert result.value == expected_value(spec)
    assert result.run is not None
    first = result.run["questions"][0]  # type: ignore[index]  # a list of dicts
    assert first["split"] > 0 and first["open"] == 0  # it was split, and nothing is left open
    assert len(result.proofs) == (2 if result.value == "draw" else 1)
    for path in result.proofs:
        check = verify_certificate(path)
        assert check.valid, str(check)
        assert check.gravity == geometry.gravity
        assert check.guarantee == ("no-loss" if result.value == "draw" else "win")
        assert verify_certificate(path, whole=True).valid
        assert tool(path) == 0 and tool(path, "--whole") == 0


def test_the_openings_a_run_settled_have_certificates_that_begin_there(
    six_by_five: ProofResult, tmp_path: Path
) -> None:
    """The positions a move or two in that the 6x5 (k=4) run settled: each the first settled on
    its way (X's winning first move, not O's replies after it), with a certificate whose walk
    begins at it (the header's start) that both checkers accept, and that the empty board's walk
    (a checker that ignores the start) refuses. The state is only read: its bytes do not change."""
    folder = result_folder(six_by_five)
    state = (folder / "run" / "state.json").read_bytes()
    geometry = Geometry.parse("6x5,k=4")
    assert run_status(folder).won_by == "x"  # (X's question answered yes)
    openings = proved_openings(folder)
    assert openings and len({o.key for o in openings}) == len(openings)
    tree = Tree.from_dict(geometry, "x", folder / "run", load_state(folder)["questions"]["x"])
    values = tree.values()
    for opening in openings:
        x, o = status_masks(opening.position)
        assert len(opening.moves) == (x | o).bit_count() <= OPENING_PLIES
        assert values[opening.key] == (1 if opening.side == "x" else -1)
        parents = tree.parents_of(opening.key)
        assert all(not values[key] or key == tree.root for key in parents)
    wins = [o for o in openings if o.guarantee == "win"]
    assert [len(o.moves) for o in wins] == [1]  # X's winning first move, its replies not again
    for opening in openings[:3]:
        path = tmp_path / opening.certificate_name(geometry)
        assert "-after-" in path.name
        entries = write_opening_certificate(folder, opening, path)
        check = verify_certificate(path)
        assert check.valid and check.start == opening.position and check.entries == entries
        assert check.side == opening.side and check.guarantee == opening.guarantee
        assert tool(path) == 0
        with gzip.open(path, "rt") as handle:
            header = json.loads(handle.readline())
        header.pop("start")
        plain = tmp_path / "plain.jsonl.gz"
        with gzip.open(path, "rt") as handle:
            rest = handle.readlines()[1:]
        plain.write_bytes(gzip.compress((json.dumps(header) + "\n" + "".join(rest)).encode()))
        assert not verify_certificate(plain).valid and tool(plain) == 1
    assert (folder / "run" / "state.json").read_bytes() == state


def test_the_openings_of_every_kept_run_are_read_from_its_state() -> None:
    """The runs kept in results/runs/: open, finished, and one whose root a whole search settled
    after the run had split it (8x8 with k = 5 with the defaults, where the tree's values stop at
    the root): each listed opening has the value the tree gives it, a move or two in, and nothing
    below a position settled by a job of its own is listed."""
    for path in sorted((ROOT / "results" / "runs").glob("*/run/state.json")):
        folder = path.parent.parent
        state = load_state(folder)
        geometry = state_geometry(state)
        for opening in proved_openings(folder):
            data = state["questions"][opening.attacker]
            tree = Tree.from_dict(geometry, opening.attacker, folder / "run", data)
            value = tree.values()[opening.key]
            assert value == (1 if opening.side == opening.attacker else -1), folder
            assert 1 <= len(opening.moves) <= OPENING_PLIES


def test_a_run_past_64_cells_leaves_its_wins_by_fours_to_the_chain_rule(tmp_path: Path) -> None:
    """9x9 (k = 4), an X win, split into jobs of the search over line counts: the merged
    certificate's header names the chain rule (its jobs' fragments leave their wins by continuous
    fours to it), and both checkers accept it, the rule settling positions on the way."""
    geometry = Geometry.parse("9x9,k=4")
    options = split(slice_nodes=20_000, split_plies=1)
    result = prove_board(geometry, seconds=None, proof_dir=tmp_path / "p", run=options)
    assert result.value == "x"
    (path,) = result.proofs
    check = verify_certificate(path)
    assert check.valid, str(check)
    assert check.rules == certificate_rules(geometry, "win").to_dict() and check.rule_chains > 0
    assert check.rules["chain"]
    assert tool(path) == 0


@pytest.mark.parametrize("spec", ["6x5,k=4", "2x3x3,k=3,gravity", "9x9,k=4"])
def test_a_certificate_merged_again_from_the_run_has_the_same_bytes(
    spec: str, tmp_path: Path, six_by_five: ProofResult
) -> None:
    """What the proof book does for a certificate too big to ship: merge it again from the kept
    run. The same bytes as the run's own, on a flat board, a box with gravity and a board whose
    certificate names the chain rule."""
    if spec == "6x5,k=4":
        result = six_by_five
    else:
        options = split(slice_nodes=20_000, split_plies=1) if spec == "9x9,k=4" else split()
        result = prove_board(
            Geometry.parse(spec), seconds=None, proof_dir=tmp_path / "p", run=options
        )
    assert result.proofs and result.run is not None
    for path in map(Path, result.proofs):
        again = tmp_path / f"again-{path.name}"
        copy = tmp_path / "copy"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(path.parent / "run", copy / "run")
        write_certificate_again(copy, path.name, again)
        assert again.read_bytes() == path.read_bytes()


def test_a_win_comes_from_one_winning_move_and_leaves_the_rest_unproved(
    six_by_five: ProofResult,
) -> None:
    """An OR node is settled by one child proven: 6x5 (k=4) is proved without settling every
    first move of X (the run stops as soon as the root is known)."""
    result = six_by_five
    assert result.value == "x"
    assert result.run is not None
    moves = result.run["questions"][0]["first_moves"]  # type: ignore[index]  # a list of dicts
    assert len(moves["x wins after"]) >= 1 and moves["open"]
    check = verify_certificate(result.proofs[0])
    assert check.valid and check.sections >= 1 and check.strategy_moves > 0


def test_local_worker_processes(tmp_path: Path) -> None:
    from oxo.counting.budget import descendants

    before = set(descendants())  # others' helpers (a resource tracker, say) may live on
    result = prove_board(
        Geometry.parse("4x5,k=4"), seconds=None, proof_dir=tmp_path / "p", run=split(workers=2)
    )
    assert result.value == "draw"
    assert all(verify_certificate(path).valid for path in result.proofs)
    assert [pid for pid in descendants() if pid not in before and alive(pid)] == []


def test_beside_the_split_jobs_one_worker_searches_the_whole_root(tmp_path: Path) -> None:
    """With two workers, one searches the empty board unsplit (RunOptions.root_search): on 6x5
    (k=4) it settles X's win in a few thousand positions, long before jobs of one position each
    could, and its strategy is the certificate, which both checkers accept."""
    folder = tmp_path / "p"
    options = split(workers=2, slice_nodes=1)
    result = prove_board(Geometry.parse("6x5,k=4"), seconds=None, proof_dir=folder, run=options)
    assert result.value == "x"
    assert all(verify_certificate(path).valid and tool(path) == 0 for path in result.proofs)
    state = json.loads((folder / "run" / "state.json").read_text())
    root = next(node for node in state["questions"]["x"]["nodes"] if node[1:3] == ["0", "0"])
    value, fragment_root, jobs, children = root[3], root[4], root[8], root[9]
    assert value == 1 and fragment_root == "0" * 30  # settled by its own search: its fragment
    assert jobs == 2 and children  # split (a job that only lists the moves), then searched whole
    # Without it, the same run settles the root through its split jobs.
    plain = prove_board(
        Geometry.parse("6x5,k=4"),
        seconds=None,
        proof_dir=tmp_path / "q",
        run=split(workers=2, slice_nodes=200, root_search=False),
    )
    assert plain.value == "x"
    state = json.loads((tmp_path / "q" / "run" / "state.json").read_text())
    root = next(node for node in state["questions"]["x"]["nodes"] if node[1:3] == ["0", "0"])
    assert root[4] is None and root[8] == 1  # split only


def test_a_dask_cluster(tmp_path: Path) -> None:
    distributed = pytest.importorskip("dask.distributed")
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        options = split(scheduler=cluster.scheduler_address, workers=2)
        result = prove_board(
            Geometry.parse("4x5,k=4"), seconds=None, proof_dir=tmp_path / "p", run=options
        )
    assert result.value == "draw"
    for path in result.proofs:
        assert verify_certificate(path).valid and tool(path) == 0


# -- stopping and continuing -----------------------------------------------------------------------


class Stop(Exception):
    pass


def test_ctrl_c_leaves_a_folder_that_continues(tmp_path: Path) -> None:
    """Ctrl-C in the middle (here: raised from the progress report, as the signal would be) stops
    the run with its state written and the folder unlocked; the same call then finishes it."""
    folder = tmp_path / "p"
    geometry = Geometry.parse("4x5,k=4")
    calls = []

    def interrupt(text: str) -> None:
        calls.append(text)
        if len(calls) == 6:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        prove_board(geometry, seconds=None, proof_dir=folder, run=split(), on_status=interrupt)
    assert not (folder / "run" / "lock").exists()
    state = load_state(folder)
    assert state["sessions"][-1]["end"] == "interrupted" and state["done"] is None
    status = run_status(folder)
    assert status.active is None and status.value is None
    jobs_before = status.questions[0].jobs
    assert jobs_before > 0
    # How far the opening is: the replies to each of X's first moves the run split, every one of
    # them proved, disproved or open, and an open one has at least one job left below it.
    replies = status.questions[0].replies
    assert replies and {r.move for r in replies} <= set(status.questions[0].first_moves["open"])
    for r in replies:
        assert r.win + r.no_win + r.open > 0 and r.open_jobs >= r.open
    # X's split first moves are worked on one at a time: the one with the fewest replies open now
    # (the first in order among equals), the others wait.
    (now,) = [r for r in replies if r.now]
    assert now == next(r for r in replies if r.open == min(r.open for r in replies))
    # What each open reply of the one worked on waits on when few are open; none of the others'.
    said = now.open if now.open <= runs.WAITS_SAID else 0
    assert len(now.waits) == said and not any(r.waits for r in replies if r is not now)
    text = "\n".join(status.lines())
    assert len(replies) > 1 and "; waits its turn" in text
    assert f"replies to X on {now.move}: X wins after {now.win}," in text
    first = status.to_dict()["questions"][0]["replies"][0]  # type: ignore[index]
    assert first["first_move"] == replies[0].move
    result = prove_board(geometry, seconds=None, proof_dir=folder, run=split())
    assert result.value == "draw" and result.run is not None and result.run["resumed"]
    assert result.run["sessions"] == 2
    assert run_status(folder).questions[0].jobs > jobs_before  # the first session's jobs are kept
    assert all(verify_certificate(path).valid for path in result.proofs)


@pytest.mark.slow
def test_a_kill_loses_at_most_what_was_running(tmp_path: Path) -> None:
    """A kill leaves the folder as it was at that moment: the state as last written (here never
    written after the start) and the fragments appended since. The run continues from a copy taken
    half way, takes the fragments up again, and runs fewer jobs than a run from scratch."""
    geometry = Geometry.parse("4x5,k=4")
    options = split(save_every=1e9)  # the state is written at the start and at the end only
    reports: list[str] = []
    fresh = prove_board(
        geometry, seconds=None, proof_dir=tmp_path / "fresh", run=options, on_status=reports.append
    )
    fresh_jobs = sum(question.jobs for question in run_status(tmp_path / "fresh").questions)
    folder = tmp_path / "p"
    killed = tmp_path / "killed"
    calls = []

    def copy_half_way(text: str) -> None:
        calls.append(text)
        if len(calls) == len(reports) // 2:
            shutil.copytree(folder, killed)

    assert prove_board(
        geometry, seconds=None, proof_dir=folder, run=options, on_status=copy_half_way
    )
    (killed / "run" / "lock").unlink()  # its process is gone (a stale lock is tested below)
    assert load_state(killed)["questions"] == {}  # nothing but the start was written
    assert (killed / "run" / "fragments-x.pack").stat().st_size > 0
    resumed = prove_board(geometry, seconds=None, proof_dir=killed, run=options)
    assert resumed.value == fresh.value == "draw"
    assert all(verify_certificate(path).valid for path in resumed.proofs)
    resumed_jobs = sum(question.jobs for question in run_status(killed).questions)
    assert resumed_jobs < fresh_jobs


def test_a_fragment_cut_short_by_a_kill_is_dropped(tmp_path: Path) -> None:
    pack = FragmentPack(tmp_path / "f.pack")
    geometry = Geometry.parse("3x3")
    datas = [encode_fragment(geometry, "x", 1 << cell, 0, False, []) for cell in range(3)]
    offsets = [pack.append(data) for data in datas]
    pack.sync()
    assert [pack.read(offset) for offset in offsets] == datas
    fragment, entries = decode_fragment(datas[1])
    assert fragment.root == status_string(2, 0, 9) and not fragment.proven and list(entries) == []
    with open(pack.path, "r+b") as handle:  # the third record loses its end
        handle.truncate(offsets[2] + 20)
    assert [offset for offset, _ in pack.scan(0)] == offsets[:2]
    assert pack.size() == offsets[2] and not pack.holds(offsets[2])
    with pytest.raises(CertificateFileError):
        decode_fragment(b"not gzip")
    pack.close()


def test_a_pack_goes_on_in_a_new_chunk_when_one_is_full(tmp_path: Path) -> None:
    geometry = Geometry.parse("3x3")
    datas = [encode_fragment(geometry, "x", 1 << cell, 0, True, []) for cell in range(7)]
    pack = FragmentPack(tmp_path / "f.pack", chunk_bytes=2 * (12 + len(datas[0])))
    offsets = [pack.append(data) for data in datas]
    pack.sync()
    assert [path.name for path in pack.chunks()] == ["f.pack", "f.1.pack", "f.2.pack", "f.3.pack"]
    assert [offset >> CHUNK_SHIFT for offset in offsets] == [0, 0, 1, 1, 2, 2, 3]
    assert offsets[:2] == [0, 12 + len(datas[0])]  # the first chunk's offsets are file offsets
    again = FragmentPack(tmp_path / "f.pack")  # a reader needs no chunk size
    assert [again.read(offset) for offset in offsets] == datas
    assert [offset for offset, _ in again.scan(0)] == offsets
    assert [offset for offset, _ in again.scan(offsets[3])] == offsets[3:]
    assert again.size() > offsets[-1] and not again.holds(again.size())
    with open(pack.chunk_path(2), "r+b") as handle:  # a kill cut the third chunk's second record
        handle.truncate(12 + len(datas[0]) + 5)
    assert [offset for offset, _ in pack.scan(offsets[2])] == offsets[2:5]
    assert len(pack.chunks()) == 3 and pack.size() == offsets[5]  # the later chunk went with it
    assert pack.append(datas[5]) == offsets[5]
    with pytest.raises(CertificateFileError, match="f.7.pack"):
        pack.read(7 << CHUNK_SHIFT)
    pack.close()


def test_the_time_limit_stops_and_the_same_call_continues(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = str(tmp_path / "p")
    args = ["solve", "4x5", "--k", "4", "--proof", folder, "--workers", "1"]
    assert main([*args, "--time", "0.001"]) == 3
    out = capsys.readouterr().out
    assert "value unknown" in out and "run the same command again to continue" in out
    assert "--memory" not in out  # this board's tables are small whatever the memory
    wide = ["solve", "scorefour", "--proof", str(tmp_path / "s"), "--workers", "1"]
    assert main([*wide, "--time", "0.001"]) == 3
    said = " ".join(capsys.readouterr().out.split())
    assert "or more --memory (bigger tables) to go faster" in said
    assert main(["solve", "4x5", "--k", "4", "--proof", folder, "--status", "--json"]) == 0
    status = json.loads(capsys.readouterr().out)
    first = status["questions"][0]
    assert first["answer"] == "unknown" and first["fewest_to_prove"] >= 1
    assert 1 <= min(first["fewest_to_prove"], first["fewest_to_disprove"]) <= first["open"]
    if status["estimate_seconds"] is not None:
        assert status["estimate_seconds"] <= status["estimate_all_open_seconds"]
    assert main([*args, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["value"] == "draw" and data["run"]["resumed"] and data["run"]["sessions"] == 2


def test_o_question_first_writes_x_no_loss_certificate_at_once_and_keeps_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With O's question first, its "no" is certified before X's question is taken up (here X's
    is made to stay open); continuing gives the draw and keeps the certificate as written."""
    geometry = Geometry.parse("4x5,k=4")
    folder = tmp_path / "p"
    settle = ProofRun._settle

    def o_only(run: ProofRun, attacker: str, *args: object) -> int:
        return settle(run, attacker, *args) if attacker == "o" else 0  # type: ignore[arg-type]

    monkeypatch.setattr(ProofRun, "_settle", o_only)
    result = prove_board(geometry, seconds=None, proof_dir=folder, run=split(first_question="o"))
    name = certificate_name(geometry, "x", "no-loss")
    assert result.value == "unknown" and [Path(p).name for p in result.proofs] == [name]
    check = verify_certificate(folder / name)
    assert check.valid and (check.side, check.guarantee) == ("x", "no-loss")
    assert tool(folder / name) == 0
    status = run_status(folder)
    assert status.value is None and status.proofs == (name,)
    assert [(q.attacker, q.value) for q in status.questions] == [("o", -1)]
    assert main(["solve", "4x5", "--k", "4", "--proof", str(folder), "--status"]) == 0
    assert f"certificate: {folder / name}" in " ".join(capsys.readouterr().out.split())
    written = (folder / name).stat().st_mtime_ns, (folder / name).read_bytes()
    monkeypatch.undo()
    result = prove_board(geometry, seconds=None, proof_dir=folder, run=split(first_question="o"))
    assert result.value == "draw" == expected_value("4x5,k=4")
    assert sorted(Path(p).name for p in result.proofs) == sorted(
        [name, certificate_name(geometry, "o", "no-loss")]
    )
    assert ((folder / name).stat().st_mtime_ns, (folder / name).read_bytes()) == written
    assert main(["solve", "4x5", "--k", "4", "--first-question", "o"]) == 2
    assert "--first-question applies to proof runs" in capsys.readouterr().err


def test_the_folder_is_locked_while_a_run_goes_on(tmp_path: Path) -> None:
    geometry = Geometry.parse("4x5,k=4")
    folder = tmp_path / "p"
    prove_board(geometry, seconds=0.001, proof_dir=folder, run=split())
    lock = folder / "run" / "lock"
    lock.write_text(json.dumps({"pid": os.getpid(), "host": os.uname().nodename}))
    with pytest.raises(OptionError, match="a proof run is going on"):
        prove_board(geometry, seconds=None, proof_dir=folder, run=split())
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    lock.write_text(json.dumps({"pid": gone.pid, "host": os.uname().nodename}))
    assert prove_board(geometry, seconds=None, proof_dir=folder, run=split()).value == "draw"
    assert not lock.exists()


def test_folders_of_something_else_are_refused(tmp_path: Path) -> None:
    geometry = Geometry.parse("4x5,k=4")
    prove_board(geometry, seconds=0.001, proof_dir=tmp_path / "p", run=split())
    with pytest.raises(OxoError, match=r"holds a proof run of 4x5 \(k=4\), not of 5x4"):
        prove_board(Geometry.parse("5x4,k=4"), proof_dir=tmp_path / "p", run=split())
    (tmp_path / "file").write_text("x")
    with pytest.raises(OxoError, match="is a file"):
        prove_board(geometry, proof_dir=tmp_path / "file", run=split())
    broken = tmp_path / "broken"
    (broken / "run").mkdir(parents=True)
    (broken / "run" / "state.json").write_text("{not json")
    with pytest.raises(OxoError, match="cannot be read"):
        prove_board(geometry, proof_dir=broken, run=split())


def test_the_rate_falls_back_to_the_last_session_in_which_jobs_ended(tmp_path: Path) -> None:
    """A job's positions count when it ends, so while long jobs run the last ten minutes show
    none: the status then gives the rate of the latest session in which some ended, and says so
    (it said "0 positions per second lately")."""
    folder = tmp_path / "p"
    prove_board(Geometry.parse("4x5,k=4"), seconds=0.001, proof_dir=folder, run=split())
    path = folder / "run" / "state.json"
    state = json.loads(path.read_text())
    began = state["sessions"][-1]["started"]
    ended = dict(state["sessions"][-1], seconds=100.0, nodes=5_000, end="time")
    running = dict(ended, started=began + 200, seconds=50.0, nodes=0, end="running")
    state["sessions"] = [ended, running]
    state["samples"] = [[began + 200 + t, 5_000, 1] for t in (0, 5, 10)]  # no change lately
    path.write_text(json.dumps(state))
    status = run_status(folder)
    assert status.rate == 50.0 and status.rate_over is not None
    assert status.rate_over.startswith("session 1 (5,000 positions in")
    assert "rate: 50 positions per second over session 1" in "\n".join(status.lines())
    assert status.to_dict()["positions_per_second_over"] == status.rate_over
    state["samples"] = [[began + 200 + t, 5_000 + 100 * t, 1] for t in (0, 5, 10)]
    path.write_text(json.dumps(state))
    status = run_status(folder)  # jobs ended lately: the rate over the last ten minutes
    assert status.rate == 100.0 and status.rate_over is None
    assert "rate: 100 positions per second lately" in status.lines()


def test_each_session_counts_the_positions_it_settled(tmp_path: Path) -> None:
    """A session records how many positions its jobs settled (its pace, which the positions a
    second do not show), and the status says it while the value is open, for the latest session
    that counted them (sessions recorded before did not)."""
    folder = tmp_path / "p"
    geometry = Geometry.parse("4x5,k=4")
    prove_board(geometry, seconds=None, proof_dir=folder, run=split())
    path = folder / "run" / "state.json"
    state = json.loads(path.read_text())
    session = state["sessions"][-1]
    status = run_status(folder)
    settled = sum(q.settled_jobs for q in status.questions)
    assert session["settled_before"] == 0 and session["settled"] == settled > 0
    assert status.pace == (1, session["seconds"], settled)
    assert not any(line.startswith("pace:") for line in status.lines())  # the value is known
    prove_board(geometry, seconds=None, proof_dir=folder, run=split())  # nothing left to settle
    again = json.loads(path.read_text())["sessions"][-1]
    assert again["settled_before"] == settled and again["settled"] == 0
    # An open run: the latest session that counted, not an older one or one without the count.
    state["done"] = None
    counted = dict(session, seconds=600.0, settled=4)
    old = {key: value for key, value in session.items() if "settled" not in key}
    state["sessions"] = [dict(counted, settled=9), counted, dict(old, seconds=60.0)]
    path.write_text(json.dumps(state))
    status = run_status(folder)
    assert status.pace == (2, 600.0, 4) and status.to_dict()["pace"] == {
        "session": 2,
        "seconds": 600.0,
        "settled": 4,
    }
    assert status.value is None
    assert "pace: 4 positions settled in session 2 (10 min, one each 2 min)" in status.lines()
    # Going on now: the running session's count so far.
    state["sessions"].append(dict(counted, seconds=30.0, settled=0, end="running"))
    path.write_text(json.dumps(state))
    lock = folder / "run" / "lock"
    lock.write_text(json.dumps({"pid": os.getpid(), "host": os.uname().nodename}))
    assert "pace: no position settled in this session so far (30 s)" in run_status(folder).lines()
    lock.unlink()
    assert "pace: no position settled in session 4 (30 s)" in run_status(folder).lines()


def test_status_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = str(tmp_path / "p")
    assert main(["solve", "4x5", "--k", "4", "--proof", folder, "--status"]) == 2
    assert "no proof run" in capsys.readouterr().err
    assert main(["solve", "4x5", "--k", "4", "--proof", folder, "--workers", "1"]) == 0
    capsys.readouterr()
    assert main(["solve", "4x5", "--k", "4", "--proof", folder, "--status"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # lines broken at 80 columns in a pipe
    assert "not running" in out and "value: draw" in out and "certificate:" in out
    assert "positions searched" in out and "moves of O" in out
    assert "by depth (moves on the board): 0: 1 searched (1 settled)" in out
    assert main(["solve", "4x5", "--k", "4", "--proof", folder, "--status", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["value"] == "draw" and data["running_now"] is False
    assert data["questions"][0]["depths"] == [
        {"moves": 0, "searched": 1, "settled_by_search": 1, "split_at_once": 0}
    ]
    for name, facts in data["certificates"].items():  # the digests the run recorded: the files'
        raw = (tmp_path / "p" / name).read_bytes()
        assert facts["bytes"] == len(raw) and facts["sha256"] == hashlib.sha256(raw).hexdigest()
        text = gzip.decompress(raw)
        assert facts["sha256_uncompressed"] == hashlib.sha256(text).hexdigest()
        assert facts["sha256"] in out
        assert facts["check_seconds"] >= 0  # the check's processor time, for the index's estimate
    assert len(data["certificates"]) == 2
    assert "rate:" not in out and "not in the folder" not in out
    name = next(iter(data["certificates"]))
    kept = (tmp_path / "p" / name).read_bytes()
    (tmp_path / "p" / name).unlink()
    assert main(["solve", "4x5", "--k", "4", "--proof", folder, "--status"]) == 0
    assert "not in the folder now" in capsys.readouterr().out
    assert main(["solve", "4x5", "--k", "4", "--proof", folder, "--workers", "1"]) == 0
    capsys.readouterr()
    assert (tmp_path / "p" / name).read_bytes() == kept  # written again, byte for byte
    assert [q["answer"] for q in data["questions"]] == ["cannot win", "cannot win"]
    assert main(["solve", "5x4", "--k", "4", "--proof", folder, "--status"]) == 2
    assert main(["solve", "4x5", "--k", "4", "--workers", "2"]) == 2
    assert "--workers applies to proof runs" in capsys.readouterr().err


def test_a_job_keeps_within_its_share_of_memory() -> None:
    """A share for this process (at most 1 GiB) and the rest for the workers: the compiled search
    (up to 64 cells) gets a table of half a share, the search over line counts (beyond, and
    gravity) three quarters; each no bigger than what its slice can search needs, and at least
    16 MiB."""
    options = RunOptions(workers=3, memory=2**30)
    run = ProofRun(Geometry.parse("4x5,k=4"), Path("unused"), options)
    assert run.limits(60.0) == (None, 2**30 // 4 // 2)  # a minute's table is bigger than that
    assert run.limits(1.0) == (None, 2**24)  # what a second can search fits in 16 MiB
    assert run.limits(None) == (None, None)  # no bound: the search's own table
    small = ProofRun(Geometry.parse("4x5,k=4"), Path("u"), split(memory=2**30))
    assert small.limits(60.0) == (30, 2**24)
    share = 2**30 // 4
    for spec in ("9x9,k=5", "4x4x4,gravity"):
        wide = ProofRun(Geometry.parse(spec), Path("unused"), options)
        assert wide.limits(60.0) == (None, share * 3 // 4)  # a minute's table is bigger than that
        assert wide.limits(0.1) == (None, 2**24)
        assert wide.limits(None) == (None, None)
    # 20 GiB on two workers: 1 GiB for this process, 9.5 GiB a worker, tables of 2^28 slots.
    big = ProofRun(
        Geometry.parse("4x4x4x4"), Path("unused"), RunOptions(workers=2, memory=20 << 30)
    )
    table_bytes = (19 << 30) // 2 * 3 // 4
    assert big.limits(3600.0) == (None, table_bytes)
    assert (table_bytes // SLOT_BYTES).bit_length() - 1 == 28  # WideSearch's slots: 2^28
    table = WideSearch(Geometry.parse("9x9,k=5"), "x", table_bytes=share * 3 // 4).table
    assert sum(array.nbytes for array in table[:5]) <= share * 3 // 4  # the search keeps within
    job = run_job(Job((4, 5), 4, "x", 1, 2, max_nodes=50, table_bytes=2**24))
    assert job.nodes <= 50 + 4096  # the compiled search looks at its budget between slices


def test_a_worker_that_loaded_the_compiled_search_skips_the_plain_one() -> None:
    """The plain search's head start only saves loading numba: in a process that has loaded the
    compiled search already (this one has, as a worker has after its first big job), a job goes to
    the compiled search at once (only it counts table sweeps)."""
    import oxo.proofs.dfpn  # noqa: F401

    result = run_job(Job((3, 3), 3, "x", 0, 0))
    assert result.value == -1
    assert "table_sweeps" in result.statistics


def test_a_piece_of_the_plain_search_may_be_bounded_by_positions() -> None:
    """A piece of the plain search (the run's first look at a root) settles 4x5 (k = 4) within
    600 positions, and stops 5x5 (k = 4) at its bound."""
    from oxo.proofs.workers import plain_slice

    _, settled = plain_slice(Job((4, 5), 4, "x", 0, 0), None, nodes=600)
    assert settled is not None and settled.value == -1 and settled.fragment is not None
    search, open_ = plain_slice(Job((5, 5), 4, "x", 0, 0), None, nodes=200)
    assert open_ is None and 200 <= search.nodes < 200 + 64  # it looks at the bound every 64


@pytest.mark.parametrize(("look", "started"), [(5.0, 0), (0.0, 1)])
def test_a_root_the_first_look_does_not_settle_is_raced_on_a_worker(
    look: float, started: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With two workers, in a process that has not loaded the compiled search, the plain search
    settles a small root alone when its first look is long enough (4x5 with k = 4: no process
    started); a root it does not settle in its first look (none here) is raced against a worker,
    and either answer gives certificates both checkers accept."""
    monkeypatch.delitem(sys.modules, "oxo.proofs.dfpn", raising=False)
    monkeypatch.setattr("oxo.proofs.runs.FIRST_LOOK", look)
    if not look:  # pieces of 64 positions: a piece of 0.02 s may settle 4x5 on a fast machine
        monkeypatch.setattr("oxo.proofs.runs.PLAIN_PIECE", 0.0)
    calls: list[int] = []
    executor = ProofRun._executor

    def counted(self: ProofRun) -> object:
        calls.append(1)
        return executor(self)

    monkeypatch.setattr(ProofRun, "_executor", counted)
    result = prove_board(
        Geometry.parse("4x5,k=4"), seconds=None, proof_dir=tmp_path / "p", run=RunOptions(workers=2)
    )
    assert result.value == "draw"
    assert all(verify_certificate(path).valid and tool(path) == 0 for path in result.proofs)
    assert min(len(calls), 1) == started


def test_the_other_question_goes_at_once_to_the_worker_that_answered_the_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker that answered a root's job holds the compiled search, loaded: the other question's
    root goes to it without a first look here (no piece of the plain search for O's question)."""
    from oxo.proofs import runs

    monkeypatch.delitem(sys.modules, "oxo.proofs.dfpn", raising=False)
    monkeypatch.setattr(runs, "FIRST_LOOK", 0.0)
    monkeypatch.setattr(runs, "QUICK_SECONDS", 0.0)  # no race: the worker answers X's question
    looked: list[str] = []

    def counted(job: Job, *args: Any, **kwargs: Any) -> Any:
        """A piece of the first look that settles nothing, however fast the machine (a real
        piece of 0.02 s may settle X's question on 4x5 alone, and then no worker is warm)."""
        looked.append(job.attacker)
        return None, None

    monkeypatch.setattr(runs, "plain_slice", counted)
    result = prove_board(
        Geometry.parse("4x5,k=4"), seconds=None, proof_dir=tmp_path / "p", run=RunOptions(workers=2)
    )
    assert result.value == "draw"
    assert looked == ["x"]  # one piece of X's first look; none for O
    assert all(verify_certificate(path).valid for path in result.proofs)


def _executors(monkeypatch: pytest.MonkeyPatch) -> list[tuple[bool, object]]:
    """Record each executor a run starts (whether its first worker preloads, the executor)."""
    made: list[tuple[bool, object]] = []
    executor = ProofRun._executor

    def recorded(self: ProofRun, preload: bool = False) -> object:
        fresh = self.executor is None
        out = executor(self, preload)
        if fresh:
            made.append((preload, out))
        return out

    monkeypatch.setattr(ProofRun, "_executor", recorded)
    return made


def test_a_big_board_starts_its_worker_after_the_first_piece_and_stops_it_if_unneeded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a board of EARLY_WORKER_CELLS or more (here 20, so that 4x5 with k = 4 counts), a root
    the first piece of the first look leaves open starts a worker that loads the compiled search
    beside the rest of the look; when the look settles the root after all, the workers are
    stopped (their processes end), and the certificates are the plain search's, checked."""
    from oxo.proofs import runs

    monkeypatch.delitem(sys.modules, "oxo.proofs.dfpn", raising=False)
    monkeypatch.setattr(runs, "EARLY_WORKER_CELLS", 20)
    monkeypatch.setattr(runs, "FIRST_LOOK", 60.0)
    monkeypatch.setattr(runs, "PLAIN_PIECE", 0.0)  # pieces of 64 positions: 4x5 needs about 470
    made = _executors(monkeypatch)
    result = prove_board(
        Geometry.parse("4x5,k=4"), seconds=None, proof_dir=tmp_path / "p", run=RunOptions(workers=2)
    )
    assert result.value == "draw"
    assert all(verify_certificate(path).valid and tool(path) == 0 for path in result.proofs)
    assert [preload for preload, _ in made] == [True]  # X's question; O's settles in its piece
    processes = [worker.process for worker in made[0][1]._workers]  # type: ignore[attr-defined]
    assert len(processes) == 2 and not any(process.is_alive() for process in processes)


def test_a_big_board_whose_first_look_settles_nothing_takes_the_preloaded_worker(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The root the first look leaves open goes to the worker that started loading the compiled
    search after the first piece; smaller boards start theirs after the whole first look."""
    from oxo.proofs import runs

    monkeypatch.delitem(sys.modules, "oxo.proofs.dfpn", raising=False)
    monkeypatch.setattr(runs, "FIRST_LOOK", 0.05)
    monkeypatch.setattr(runs, "QUICK_SECONDS", 0.0)  # no race: the worker answers X's question

    def nothing(job: Job, *args: Any, **kwargs: Any) -> Any:
        return None, None  # a piece of the first look that settles nothing

    monkeypatch.setattr(runs, "plain_slice", nothing)
    for cells, preloaded in ((20, True), (21, False)):
        monkeypatch.setattr(runs, "EARLY_WORKER_CELLS", cells)
        made = _executors(monkeypatch)
        result = prove_board(
            Geometry.parse("4x5,k=4"),
            seconds=None,
            proof_dir=tmp_path / str(cells),
            run=RunOptions(workers=2),
        )
        assert result.value == "draw"
        assert all(verify_certificate(path).valid for path in result.proofs)
        assert [preload for preload, _ in made] == [preloaded]


def test_ctrl_c_while_the_early_worker_loads_stops_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C in the first look, after the early worker started: the run stops as at any other
    moment (KeyboardInterrupt, its session ended "interrupted") and no worker is left."""
    from oxo.proofs import runs

    monkeypatch.delitem(sys.modules, "oxo.proofs.dfpn", raising=False)
    monkeypatch.setattr(runs, "EARLY_WORKER_CELLS", 20)
    monkeypatch.setattr(runs, "FIRST_LOOK", 60.0)
    pieces: list[int] = []

    def interrupted(job: Job, *args: Any, **kwargs: Any) -> Any:
        pieces.append(1)
        if len(pieces) > 1:
            raise KeyboardInterrupt
        return None, None

    monkeypatch.setattr(runs, "plain_slice", interrupted)
    made = _executors(monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        prove_board(
            Geometry.parse("4x5,k=4"),
            seconds=None,
            proof_dir=tmp_path / "p",
            run=RunOptions(workers=2),
        )
    assert [preload for preload, _ in made] == [True]
    processes = [worker.process for worker in made[0][1]._workers]  # type: ignore[attr-defined]
    assert not any(process.is_alive() for process in processes)
    assert load_state(tmp_path / "p")["sessions"][-1]["end"] == "interrupted"


def _first_result(executor: Any) -> JobResult:
    """The result of 3x3's job for X, the only job given to ``executor`` (closed after it)."""
    try:
        executor.submit(1, Job((3, 3), 3, "x", 0, 0))
        results: list[tuple[int, JobResult]] = []
        while not results:
            results = executor.wait(1.0)
    finally:
        executor.close()
    return results[0][1]


def test_a_preloading_worker_takes_the_first_job_with_the_compiled_search(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first worker of a preloading executor has loaded the compiled search when the first job
    comes: a small job that a fresh process gives the plain search goes to the compiled one (only
    it counts table sweeps)."""
    from oxo.proofs.workers import ProcessExecutor

    monkeypatch.delitem(sys.modules, "oxo.proofs.dfpn", raising=False)  # as in a fresh process

    for preload in (True, False):
        result = _first_result(ProcessExecutor(2, preload=preload))
        assert result.value == -1
        assert ("table_sweeps" in result.statistics) == preload


def test_a_worker_whose_preloading_fails_still_runs_its_jobs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Preloading is a head start only: when it fails, the worker goes on to its jobs, which load
    what they need themselves (and report any failure as a job's)."""
    from oxo.proofs import workers

    def broken() -> None:
        raise RuntimeError("no machine code")

    monkeypatch.setattr(workers, "load_compiled_search", broken)  # the fork inherits it
    result = _first_result(workers.ProcessExecutor(2, preload=True))
    assert result.value == -1 and result.fragment is not None


def test_killed_workers_end_and_close_reaps_them() -> None:
    """kill() ends every worker, a job in progress too, without waiting; close() after it reaps
    them (a run kills its workers once the value is known, before writing the certificates)."""
    from oxo.proofs.workers import ProcessExecutor

    executor = ProcessExecutor(2)
    processes = [worker.process for worker in executor._workers]
    executor.submit(1, Job((7, 7), 5, "x", 0, 0))  # many seconds for the plain search
    executor.kill()
    deadline = time.monotonic() + 30
    while any(process.is_alive() for process in processes) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not any(process.is_alive() for process in processes)
    executor.close()
    assert all(process.exitcode == -signal.SIGKILL for process in processes)


def test_a_cancelled_job_leaves_no_worker_known_to_hold_the_compiled_search() -> None:
    """Cancelling replaces a local worker by a fresh process: the next root takes the first look."""
    from oxo.proofs.workers import SerialExecutor

    run = ProofRun(Geometry.parse("4x5,k=4"), Path("unused"), RunOptions(workers=2))
    run.executor, run.warm = SerialExecutor(), True
    run._cancel(1)
    assert not run.warm


# -- the tree --------------------------------------------------------------------------------------


def test_one_move_settles_an_or_node_and_one_reply_an_and_node(tmp_path: Path) -> None:
    geometry = Geometry.parse("3x3")
    tree = Tree(geometry, "x", tmp_path)  # X to move at the root: an OR node for X
    root = tree.nodes[tree.root]
    assert root.children is None
    tree.apply(tree.root, run_job(Job(geometry.shape, geometry.k, "x", 0, 0, search=False)))
    assert root.children is not None and len(root.children) == 3  # corner, side, centre
    first, second = tree.select(set(), 2, tree.values())
    assert first != second and {first, second} <= {child for _, child in root.children}
    assert tree.select({first, second}, 5, tree.values()) != []
    tree.nodes[second].value = 1
    values = tree.values()
    assert values[tree.root] == 1 and tree.relevant(values) == set()
    assert tree.select(set(), 1, values) == []
    defending = Tree(geometry, "o", tmp_path)  # X to move at the root: an AND node for O
    defending.apply(
        defending.root, run_job(Job(geometry.shape, geometry.k, "o", 0, 0, search=False))
    )
    children = [child for _, child in defending.nodes[defending.root].children or []]
    for child in children:  # as if nothing were known of X's three first moves yet
        defending.nodes[child].value = 0
    defending.nodes[children[0]].value = 1
    assert defending.values()[defending.root] == 0  # O must win after every X move
    defending.nodes[children[1]].value = -1
    assert defending.values()[defending.root] == -1


def test_the_fewest_jobs_left_count_one_move_where_the_attacker_moves_and_every_reply(
    tmp_path: Path,
) -> None:
    geometry = Geometry.parse("5x5,k=4")
    tree = Tree(geometry, "x", tmp_path)
    assert tree.fewest_leaves(tree.values()) == (1, 1)
    tree.apply(tree.root, run_job(Job(geometry.shape, geometry.k, "x", 0, 0, search=False)))
    firsts = {tree.nodes[c].x.bit_length() - 1: c for _, c in tree.nodes[tree.root].children or []}
    assert len(firsts) == 6  # one first move of each set of mirror images
    assert tree.fewest_leaves(tree.values()) == (1, 6)  # one first move proves, all six disprove
    centre = tree.nodes[firsts[12]]
    tree.apply(firsts[12], run_job(Job(geometry.shape, geometry.k, "x", centre.x, 0, search=False)))
    replies = [child for _, child in centre.children or []]
    assert len(replies) == 5 and not any(tree.values()[reply] for reply in replies)
    assert tree.fewest_leaves(tree.values()) == (1, 6)  # another first move is one job from a proof
    for cell, child in firsts.items():
        if cell != 12:
            tree.nodes[child].value = -1
    assert tree.fewest_leaves(tree.values()) == (5, 1)  # every reply to the centre, or one
    tree.nodes[replies[0]].value = tree.nodes[replies[1]].value = 1
    assert tree.fewest_leaves(tree.values()) == (3, 1)
    tree.nodes[replies[2]].value = -1
    assert tree.fewest_leaves(tree.values()) == (0, 0)  # the root is known: no first move wins


def test_numbers_near_the_least_count_as_equal_and_the_move_order_decides(tmp_path: Path) -> None:
    geometry = Geometry.parse("5x5,k=4")
    tree = Tree(geometry, "x", tmp_path)
    tree.apply(tree.root, run_job(Job(geometry.shape, geometry.k, "x", 0, 0, search=False)))
    first, second, *others = [c for _, c in tree.nodes[tree.root].children or []]
    for key in others:
        tree.nodes[key].pn = 1000
    tree.nodes[first].pn, tree.nodes[second].pn = 125, 100  # within a quarter: the first listed
    assert tree.select(set(), 1, tree.values()) == [first]
    tree.nodes[first].pn = 126  # clearly more: the least
    assert tree.select(set(), 1, tree.values()) == [second]
    assert tree.select({second}, 1, tree.values()) == [first]  # the least among those free


def test_the_next_job_follows_the_numbers_a_search_left(tmp_path: Path) -> None:
    """A job that does not settle its position hands each child the proof and disproof numbers its
    search left for it: the run's next job goes where proving is cheapest (an OR node's least
    proof number), not to the first child listed, and the numbers survive the state file."""
    geometry = Geometry.parse("5x5,k=4")
    result = run_job(Job(geometry.shape, geometry.k, "x", 0, 0, max_nodes=3000))
    assert result.value == 0 and result.children is not None
    numbers = {(child.x, child.o): (child.pn, child.dn) for child in result.children}
    assert len(set(numbers.values())) > 1  # the search ranked its first moves
    tree = Tree(geometry, "x", tmp_path)
    tree.apply(tree.root, result)
    (pick,) = tree.select(set(), 1, tree.values())
    node = tree.nodes[pick]
    assert (node.pn, node.dn) == numbers[node.x, node.o]
    least = min(pn for pn, _ in numbers.values())
    near = [(c.x, c.o) for c in result.children if c.pn * NEAR[1] <= least * NEAR[0]]
    assert (node.x, node.o) == near[0]  # of the near-least, the first in the search's move order
    again = Tree.from_dict(geometry, "x", tmp_path, json.loads(json.dumps(tree.to_dict())))
    assert {(n.pn, n.dn) for n in again.nodes.values()} == {
        (n.pn, n.dn) for n in tree.nodes.values()
    }
    old = tree.to_dict()
    old["nodes"] = [row[:10] for row in old["nodes"]]  # type: ignore[index]  # a state of before
    assert {(n.pn, n.dn) for n in Tree.from_dict(geometry, "x", tmp_path, old).nodes.values()} == {
        (1, 1)
    }


def test_children_are_one_per_class(tmp_path: Path) -> None:
    geometry = Geometry.parse("4x4")
    result = run_job(Job(geometry.shape, geometry.k, "x", 1 << 5, 0, search=False))
    assert result.children is not None
    classes = Classes(geometry)  # on 4x4 (k=4) more than the board's own symmetries
    keys = [classes.key(child.x, child.o) for child in result.children]
    assert len(keys) == len(set(keys))
    every = {classes.key(1 << 5, 1 << cell) for cell in range(16) if cell != 5}
    assert set(keys) == every
    assert len({classes.rigid_key(1 << 5, 1 << cell) for cell in range(16) if cell != 5}) > len(
        every
    )


def test_the_tree_keeps_one_node_for_positions_only_the_search_treats_alike(
    tmp_path: Path,
) -> None:
    """On 4x4 (k=4) the search's symmetries carry a corner onto an inner cell, which the board's
    own do not: the run's tree has two first moves of X, not three, and O's certificate answers X's
    inner cell with the strategy found after a corner, carried over, which both checkers accept."""
    geometry = Geometry.parse("4x4")
    folder = tmp_path / "p"
    result = prove_board(geometry, seconds=None, proof_dir=folder, run=split())
    assert result.value == "draw"
    tree = Tree.from_dict(geometry, "x", folder / "run", load_state(folder)["questions"]["x"])
    firsts = tree.nodes[tree.root].children
    assert firsts is not None and len(firsts) == 2
    assert len({tree.classes.rigid_key(1 << cell, 0) for cell in range(16)}) == 3
    top, sections = tree.assemble(-1)
    assert any(section.perm is not None for section in sections)
    for section in sections:
        x, o = status_masks(section.root)
        assert tree.classes.key(x, o) in tree.nodes
    for path in result.proofs:
        assert verify_certificate(path).valid and tool(path) == 0 and tool(path, "--whole") == 0


def test_a_state_keyed_by_the_boards_own_symmetries_is_keyed_again(tmp_path: Path) -> None:
    """A state written before the tree knew the search's symmetries: its nodes of one class become
    one (the split one is kept, whichever was met first), and children lists name each class once."""
    geometry = Geometry.parse("4x4")
    tree = Tree(geometry, "x", tmp_path)
    own = tree.classes.rigid_key
    corner, inner, edge = 0, 5, 1
    tree.nodes = {
        own(0, 0): Node(
            0, 0, [(corner, own(1, 0)), (inner, own(1 << inner, 0)), (edge, own(1 << edge, 0))]
        ),
        own(1, 0): Node(1, 0, nodes=10, jobs=1),
        own(1 << inner, 0): Node(
            1 << inner, 0, [(0, own(1 << inner, 1)), (3, own(1 << inner, 1 << 3))], nodes=30
        ),
        own(1 << inner, 1): Node(1 << inner, 1),
        own(1 << inner, 1 << 3): Node(1 << inner, 1 << 3),
        own(1 << edge, 0): Node(1 << edge, 0),
    }
    data = tree.to_dict()
    del data["symmetries"]  # as the state of an older run has it
    again = Tree.from_dict(geometry, "x", tmp_path, data)
    children = again.nodes[again.root].children
    assert children is not None and [move for move, _ in children] == [corner, edge]
    merged = again.nodes[children[0][1]]
    assert (merged.x, merged.children is not None) == (1 << inner, True)
    assert len(again.nodes) == 5 and again.root == again.classes.key(0, 0)
    assert Tree.from_dict(geometry, "x", tmp_path, tree.to_dict()).nodes.keys() == tree.nodes.keys()


# -- certificates in sections, against both checkers -----------------------------------------------


@pytest.fixture(scope="module")
def sectioned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """O's no-loss certificate of 4x5 (k=4) from a split run: section 0 and bigger sections."""
    from oxo.proofs.merge import merge_certificate

    folder = tmp_path_factory.mktemp("sectioned") / "p"
    geometry = Geometry.parse("4x5,k=4")
    result = prove_board(geometry, seconds=None, proof_dir=folder, run=split())
    assert result.value == "draw"
    # Merged again with every fragment of more than 1 entry a section of its own (the run puts
    # fragments of up to 16 entries into section 0), so that there are sections of every size.
    tree = Tree.from_dict(geometry, "x", folder / "run", load_state(folder)["questions"]["x"])
    top, parts = tree.assemble(-1)
    path = folder / "sectioned-o-no-loss.jsonl.gz"
    merge_certificate(path, geometry, "o", "no-loss", top, parts, inline_up_to=1)
    sections = sections_of(path)
    assert sections is not None and len(sections) >= 3
    return path


def rewrite(source: Path, target: Path, change) -> Path:  # type: ignore[no-untyped-def]  # a test helper
    with gzip.open(source, "rt") as handle:
        lines = [json.loads(line) for line in handle]
    lines = change(lines)
    with gzip.open(target, "wt") as handle:
        for line in lines:
            handle.write(json.dumps(line) + "\n")
    return target


def verdicts(path: Path) -> list[int]:
    """oxo verify and the checker without oxo, each a section at a time and whole (the checker
    without oxo also with its sections walked in two processes, which gives the same verdict)."""
    single, parallel = checker_verdict(path), checker_verdict(path, "--jobs", "2")
    assert parallel == single  # the same figures, and the same first failure
    return [oxo_verify(path), oxo_verify(path, "--whole"), single[0], tool(path, "--whole")]


def test_the_checker_reads_ahead_within_its_bound(sectioned: Path) -> None:
    """With two processes and a read-ahead bound below every section (each read waits until the
    section before it is judged), the checker without oxo gives the same verdict and figures as
    one process: the waits end and nothing is judged twice or left out."""
    script = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('check_strategy_tool', {str(TOOL)!r})\n"
        "tool = importlib.util.module_from_spec(spec)\n"
        "sys.modules['check_strategy_tool'] = tool  # the pool's workers find it by name\n"
        "spec.loader.exec_module(tool)\n"
        "tool.ENTRIES_AHEAD = 1\n"
        "sys.exit(tool.main(sys.argv[1:]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, str(sectioned), "--jobs", "2", "--json"],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,  # a wait that never ends fails the test
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout) == checker_verdict(sectioned)[1]


def test_both_checkers_accept_a_sectioned_certificate(
    sectioned: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert verdicts(sectioned) == [0, 0, 0, 0]
    reads = []
    check = verify_certificate(sectioned, on_progress=lambda r, t, c: reads.append((r, t, c)))
    assert check.valid and check.sections == len(sections_of(sectioned) or [])
    assert reads and reads[-1][0] == reads[-1][1] == check.entries
    assert main(["verify", str(sectioned), "--json"]) == 0
    data = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert data["sections"] == check.sections and data["strategy_moves"] == check.strategy_moves


def test_both_checkers_refuse_a_section_emptied(sectioned: Path, tmp_path: Path) -> None:
    def empty_the_biggest(lines: list[dict[str, object]]) -> list[dict[str, object]]:
        sections = lines[0]["sections"]
        assert isinstance(sections, list)
        sizes = [count for _, count in sections]
        big = max(range(1, len(sizes)), key=lambda i: sizes[i])
        start = 1 + sum(sizes[:big])
        sections[big][1] = 0
        return lines[:start] + lines[start + sizes[big] :]

    assert verdicts(rewrite(sectioned, tmp_path / "c.gz", empty_the_biggest)) == [1, 1, 1, 1]


def test_both_checkers_refuse_a_broken_move_or_pairing(sectioned: Path, tmp_path: Path) -> None:
    def occupied_moves(lines: list[dict[str, object]]) -> list[dict[str, object]]:
        for line in lines[1:]:
            if "move" in line:
                position = str(line["position"])
                line["move"] = next(i for i, c in enumerate(position) if c != "0")
        return lines

    assert verdicts(rewrite(sectioned, tmp_path / "m.gz", occupied_moves)) == [1, 1, 1, 1]

    def bad_pairings(lines: list[dict[str, object]]) -> list[dict[str, object]]:
        found = False
        for line in lines[1:]:
            if "pairing" in line:
                position = str(line["position"])
                taken = next(i for i, c in enumerate(position) if c != "0")
                line["pairing"] = [[taken, pair[1]] for pair in line["pairing"]]  # type: ignore[attr-defined]  # a list
                found = True
        assert found
        return lines

    assert verdicts(rewrite(sectioned, tmp_path / "p.gz", bad_pairings)) == [1, 1, 1, 1]


def test_both_checkers_refuse_sections_that_do_not_add_up(sectioned: Path, tmp_path: Path) -> None:
    def one_more(lines: list[dict[str, object]]) -> list[dict[str, object]]:
        sections = lines[0]["sections"]
        assert isinstance(sections, list)
        sections[-1][1] += 1
        return lines

    broken = rewrite(sectioned, tmp_path / "n.gz", one_more)
    assert [oxo_verify(broken), tool(broken), tool(broken, "--jobs", "2")] == [2, 2, 2]
    # Read whole, the counts do not matter: every entry goes into one table.
    assert [oxo_verify(broken, "--whole"), tool(broken, "--whole")] == [0, 0]

    def bad_root(lines: list[dict[str, object]]) -> list[dict[str, object]]:
        lines[0]["sections"][1][0] = "0" * 19  # type: ignore[index]  # a list of lists
        return lines

    def bad_entry(lines: list[dict[str, object]]) -> list[dict[str, object]]:
        sections = lines[0]["sections"]
        assert isinstance(sections, list) and len(sections) >= 3
        lines[1 + sum(count for _, count in sections[:2])]["position"] = "3"  # section 2's first
        return lines

    broken = rewrite(sectioned, tmp_path / "e.gz", bad_entry)
    assert [oxo_verify(broken), tool(broken), tool(broken, "--jobs", "2")] == [2, 2, 2]

    broken = rewrite(sectioned, tmp_path / "r.gz", bad_root)
    assert [oxo_verify(broken), tool(broken)] == [2, 2]
    assert [oxo_verify(broken, "--whole"), tool(broken, "--whole")] == [2, 2]


def in_parts(path: Path, record: Path, *args: str) -> tuple[int, int, dict[str, Any]]:
    """The checker without oxo run on ``path`` one section a call, with ``record``, until it gives
    a verdict: the number of calls, the exit status and the last call's report."""
    for calls in range(1, 1000):
        done = run_checker(path, "--json", "--resume", str(record), "--max-sections", "1", *args)
        assert done.returncode in (0, 1, 3), done.stdout + done.stderr
        report = json.loads(done.stdout)
        if done.returncode != 3:
            return calls, done.returncode, report
        assert report["valid"] is None and report["unfinished"] and report["failure"] is None
    raise AssertionError("the check in parts never ended")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_checker_without_oxo_checks_in_parts(
    sectioned: Path, tmp_path: Path, jobs: str
) -> None:
    status, whole = checker_verdict(sectioned)
    record = tmp_path / "record.json"
    calls, status, report = in_parts(sectioned, record, "--jobs", jobs)
    sections = sections_of(sectioned) or []
    # one section judged a call beyond the top, and in the end the figures of one whole check
    assert (status, calls) == (0, len(sections) - 1)
    assert (
        report.pop("judged") == len(sections)
        and report.pop("sha256") == hashlib.sha256(sectioned.read_bytes()).hexdigest()
    )
    assert report == whole
    data = json.loads(record.read_text())
    assert sorted(map(int, data["judged"])) == list(range(1, len(sections)))
    assert [call["sections"] for call in data["calls"]] == [1] * calls
    assert data["verdict"] == {key: whole[key] for key in data["verdict"]}
    assert data["verdict"]["failure"] is None and data["verdict"]["positions"] > 0
    assert all(call["jobs"] == int(jobs) and call["seconds"] >= 0 for call in data["calls"])
    # run again, the record has every section: only the top is walked, the same verdict
    status, again = checker_verdict(sectioned, "--resume", str(record))
    assert (status, again.pop("judged"), again.pop("sha256")) == (
        0,
        len(sections),
        data["certificate_sha256"],
    )
    assert again == whole
    # a record of this file is no record of another
    other = rewrite(sectioned, tmp_path / "other.gz", lambda lines: lines)
    done = run_checker(other, "--resume", str(record))
    assert done.returncode == 2 and "record of another file" in done.stderr
    record.write_text("not json")
    done = run_checker(sectioned, "--resume", str(record), "--json")
    assert done.returncode == 2 and json.loads(done.stdout)["valid"] is None


def test_the_checker_without_oxo_in_parts_finds_a_failure(sectioned: Path, tmp_path: Path) -> None:
    def occupied_moves(lines: list[dict[str, object]]) -> list[dict[str, object]]:
        sections = lines[0]["sections"]
        assert isinstance(sections, list)
        last = 1 + sum(count for _, count in sections[:-1])  # only the last section is broken
        for line in lines[last:]:
            if "move" in line:
                position = str(line["position"])
                line["move"] = next(i for i, c in enumerate(position) if c != "0")
        return lines

    broken = rewrite(sectioned, tmp_path / "m.gz", occupied_moves)
    status, whole = checker_verdict(broken)
    calls, status, report = in_parts(broken, tmp_path / "record.json")
    assert status == 1 and whole["failure"] == report["failure"]
    assert (
        json.loads((tmp_path / "record.json").read_text())["verdict"]["failure"] == whole["failure"]
    )
    assert calls == len(sections_of(broken) or []) - 1


def test_the_checker_without_oxo_stopped_keeps_its_record(sectioned: Path, tmp_path: Path) -> None:
    # Each section's walk slowed to a second, the checker started as a shell starts a command in
    # the background (Ctrl-C ignored), and stopped by a termination signal once the second has
    # begun (each walk marks its start in a file).
    record, walked = tmp_path / "record.json", tmp_path / "walked"
    code = (
        "import importlib.util, signal, sys, time\n"
        f"spec = importlib.util.spec_from_file_location('tool', {str(TOOL)!r})\n"
        "tool = importlib.util.module_from_spec(spec); spec.loader.exec_module(tool)\n"
        "walk = tool.walk_section\n"
        f"def slow(*args):\n    open({str(walked)!r}, 'a').write('.')\n"
        "    time.sleep(1.0)\n    return walk(*args)\n"
        "tool.walk_section = slow\n"
        f"sys.exit(tool.main([{str(sectioned)!r}, '--resume', {str(record)!r}]))\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    # the second section's walk begun (one after another: the first is judged), then the signal
    deadline = time.monotonic() + 60
    while len(walked.read_text() if walked.exists() else "") < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130 and "kept in" in err, out + err
    judged = json.loads(record.read_text())["judged"]
    assert 1 <= len(judged) < len(sections_of(sectioned) or []) - 1
    # the same command goes on from there, to the same verdict as a check in one go
    status, report = checker_verdict(sectioned, "--resume", str(record))
    assert (status, report["positions"]) == (0, checker_verdict(sectioned)[1]["positions"])


def test_the_checkers_limits_need_a_record(sectioned: Path) -> None:
    for args in (["--max-sections", "1"], ["--resume", "r.json", "--max-sections", "0"]):
        done = run_checker(sectioned, *args)
        assert done.returncode == 2 and "--max-sections" in done.stderr


@pytest.mark.parametrize("spec", ["3x3", "3x3x3", "4x4,k=3", "4x4"])
def test_both_checkers_agree_on_plain_certificates(spec: str, tmp_path: Path) -> None:
    result = prove_board(Geometry.parse(spec), seconds=None, proof_dir=tmp_path / "p")
    for path in map(Path, result.proofs):
        assert sections_of(path) is None
        assert [oxo_verify(path), tool(path)] == [0, 0]

        def drop_the_first_move(lines: list[dict[str, object]]) -> list[dict[str, object]]:
            return [lines[0], *lines[2:]]

        broken = rewrite(path, tmp_path / "b.gz", drop_the_first_move)
        assert oxo_verify(broken) == tool(broken)

        def truncated(lines: list[dict[str, object]]) -> list[dict[str, object]]:
            return [{"format": "oxo-strategy/1"}]

        broken = rewrite(path, tmp_path / "t.gz", truncated)
        assert [oxo_verify(broken), tool(broken)] == [2, 2]


def test_the_checker_without_oxo_imports_nothing_of_oxo() -> None:
    source = TOOL.read_text(encoding="utf-8")
    assert not re.search(r"^\s*(import|from)\s+oxo\b", source, re.MULTILINE)
    code = (
        f"import runpy, sys; sys.argv = ['x', '--help']\n"
        f"try:\n    runpy.run_path({str(TOOL)!r}, run_name='__main__')\nexcept SystemExit: pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('oxo')))"
    )
    done = subprocess.run(
        [sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "[]"


# -- the real thing: signals to a run on the command line -------------------------------------------


OXO = [sys.executable, "-c", "import sys; from oxo.cli import run; sys.argv[0] = 'oxo'; run()"]


def _oxo(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*OXO, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def alive(pid: int, seconds: float = 30) -> bool:
    """Whether a process still runs after ``seconds`` (a zombie, dead but not yet reaped by its new
    parent, does not): one that dies sooner answers at once, so the bound only says how long a
    busy machine may take to end it."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            return False
        if state in ("Z", "X"):
            return False
        time.sleep(0.1)
    return True


def _wait_for_jobs(folder: Path, at_least: int, process: subprocess.Popen[str]) -> None:
    """Until the run's state shows ``at_least`` jobs done and both workers running (or the run
    ends)."""
    from oxo.counting.budget import descendants

    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and process.poll() is None:
        try:
            state = load_state(folder)
        except OxoError:
            state = {}
        done = sum(q.get("jobs", 0) for q in state.get("questions", {}).values())
        if done >= at_least and len(descendants(process.pid)) == 2 and process.poll() is None:
            return
        time.sleep(0.1)
    raise AssertionError("the run ended (or hung) before it could be stopped")


@pytest.mark.slow
def test_ctrl_c_on_the_command_line_stops_every_worker(tmp_path: Path) -> None:
    """One SIGINT (Ctrl-C) to a run on 2 worker processes: exit status 130, a line saying where
    the run is kept, no worker left, the folder unlocked with its state readable."""
    from oxo.counting.budget import descendants

    folder = tmp_path / "p"  # 8x4 takes over a minute in slices: long enough to stop it
    args = ["solve", "8x4", "--k", "4", "--proof", str(folder), "--workers", "2", "--slice", "1"]
    run = _oxo(args)
    _wait_for_jobs(folder, 3, run)
    workers = descendants(run.pid)
    assert len(workers) == 2
    run.send_signal(signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert "interrupted" in err and "the same command continues it" in err
    assert "Traceback" not in err
    assert not (folder / "run" / "lock").exists()
    assert not any(alive(pid) for pid in workers)
    state = load_state(folder)
    assert state["sessions"][-1]["end"] == "interrupted"
    assert run_status(folder).questions[0].jobs >= 3


@pytest.mark.slow
def test_kill_9_in_the_middle_then_the_same_command_finishes(tmp_path: Path) -> None:
    """7x4 (k=4) on 2 worker processes with slices of 0.3 s (about 20 jobs, 7 s of CPU in all on a
    free machine), killed (SIGKILL) in the middle: the workers die with it, and the same command
    continues the run to the value of the uninterrupted proof, with certificates that check. (A
    slice is wall time: on a busy machine each does less and the run splits deeper, so a bigger
    board, 8x4 with slices of 3 s, took a minute alone but over 13 minutes in a shared suite run;
    a smaller one, 5x5 with k = 4, is settled by the first 0.3 s search of its root on a free
    machine, before any job could be killed.)"""
    from oxo.counting.budget import descendants

    folder = tmp_path / "p"
    # The split alone (--no-root-search): a whole search of the root beside it settles the board
    # in seconds, before the kill could come. The state is written every half second: the run
    # takes about 5 s, where the default of 5 s would give one save before its end.
    args = [
        *("solve", "7x4", "--k", "4", "--proof", str(folder)),
        *("--workers", "2", "--slice", "0.3", "--no-root-search", "--save-every", "0.5"),
    ]
    first = _oxo(args)
    _wait_for_jobs(folder, 2, first)
    status = subprocess.run([*OXO, *args, "--status"], capture_output=True, text=True)
    said = " ".join(status.stdout.split())  # the line wraps where the folder's name ends
    assert status.returncode == 0 and f"going on now (process {first.pid})" in said
    workers = descendants(first.pid)
    first.kill()
    first.wait()
    assert not any(alive(pid) for pid in workers)  # they die with it (the kernel ends them)
    killed = run_status(folder)
    jobs = sum(q.jobs for q in killed.questions)
    assert jobs >= 1 and killed.active is None
    left = sum(q.open_jobs + q.running for q in killed.questions)
    second = _oxo(args)
    out, err = second.communicate(timeout=900)
    assert second.returncode == 0, err
    said = " ".join(out.split())  # lines broken at 80 columns
    assert "draw with best play" in said and "continued here" in said
    assert re.search(r"this time, [0-9,]+ positions? settled; 2 sessions so far\)", said)
    if left:  # the kill came before the last job's answer was saved: the rest was done now
        assert sum(q.jobs for q in run_status(folder).questions) > jobs
    # oxo's checker (the one without oxo reads split runs' certificates in the split-run
    # tests above)
    for path in sorted(folder.glob("*.jsonl.gz")):
        assert verify_certificate(path).valid


@pytest.mark.parametrize("inline_up_to", [0, 1, 10**9])
def test_any_split_into_sections_checks_alike(
    sectioned: Path, tmp_path: Path, inline_up_to: int
) -> None:
    """The run's tree merged again with every fragment a section of its own, with the small ones
    in section 0, or all in section 0 (a plain file): each accepted by both checkers."""
    from oxo.proofs.merge import merge_certificate

    folder = sectioned.parent
    geometry = Geometry.parse("4x5,k=4")
    state = load_state(folder)
    tree = Tree.from_dict(geometry, "x", folder / "run", state["questions"]["x"])
    top, sections = tree.assemble(-1)
    path = tmp_path / "again.jsonl.gz"
    count = merge_certificate(path, geometry, "o", "no-loss", top, sections, inline_up_to)
    assert count == len(top) + sum(section.entries for section in sections)
    found = sections_of(path)
    big = [section for section in sections if section.entries > inline_up_to]
    if big:
        assert found is not None and len(found) == 1 + len(big)
    else:
        assert found is None  # everything in one piece: a plain certificate
    assert [oxo_verify(path), tool(path)] == [0, 0]


def test_a_job_where_the_defender_moves_is_split_early_when_it_proves_no_reply() -> None:
    """5x6 (k = 4), O to move. After X on 0 and 2, O on 1, X's search proves none of O's replies
    within a quarter of its 2,000 positions: the job stops there and splits into the same children
    as the whole slice would. After X on 0 and 7 it has proved one: the search goes on with its
    table to the end of the slice. Where X is to move the job searches its whole slice."""
    shape, k = (5, 6), 4

    def job(x: int, o: int, early: float | None) -> JobResult:
        return run_job(Job(shape, k, "x", x, o, seconds=600, max_nodes=2000, early=early))

    stopped, whole = job(0b101, 0b10, 0.25), job(0b101, 0b10, None)
    assert stopped.value == whole.value == 0
    assert stopped.nodes == 500 and whole.nodes == 2000
    assert stopped.statistics["early_splits"] == 1 and "early_splits" not in whole.statistics
    assert stopped.children is not None and whole.children is not None
    assert {(c.x, c.o) for c in stopped.children} == {(c.x, c.o) for c in whole.children}
    going_on = job(0b10000001, 0b10, 0.25)
    assert going_on.nodes == 2000 and "early_splits" not in going_on.statistics
    x_to_move = job(0b101, 0b1000010, 0.25)
    assert x_to_move.nodes == job(0b101, 0b1000010, None).nodes
    assert "early_splits" not in x_to_move.statistics


def test_a_job_that_settled_nothing_runs_again_with_twice_the_slice(tmp_path: Path) -> None:
    """5x6 (k = 4), X to move: a job of 50 positions settles neither the position nor any of X's
    moves. Its leaf is not split: it takes the numbers its children would give it (an OR node:
    the least proof number, the sum of the disproof numbers) and its next job gets twice the
    slice, 4 times at most (slice_doublings 2 here: then it is split). So is a job that settled
    fewer than half of its children (O to move after X on 0 and 7: it proves one of O's replies),
    or that settled more but kept its table for the next job; one that settled half or more
    without a kept table, or stopped early, is split at once, as is every job with
    slice_doublings 0."""
    geometry = Geometry.parse("5x6,k=4")
    tree = Tree(geometry, "x", tmp_path)
    run = ProofRun(
        geometry,
        tmp_path / "p",
        RunOptions(workers=1, slice_seconds=60, slice_nodes=50, slice_doublings=2),
    )

    def leaf(x: int, o: int) -> int:
        key = tree.classes.key(x, o)
        tree.nodes[key] = Node(x, o)
        return key

    key = leaf(0b101, 0b1000010)
    nothing = run_job(Job((5, 6), 4, "x", 0b101, 0b1000010, seconds=600, max_nodes=50))
    assert nothing.value == 0 and nothing.children is not None
    assert not any(child.value for child in nothing.children)
    node = tree.nodes[key]
    for jobs, (seconds, positions) in enumerate([(120, 100), (240, 200)], start=1):
        tree.apply(key, nothing, run.options.slice_doublings)
        assert node.jobs == jobs and node.children is None
        job = run._job(tree, key, None, 60)
        assert job is not None and (job.seconds, job.max_nodes) == (seconds, positions)
    assert node.pn == min(c.pn for c in nothing.children)
    assert node.dn == sum(c.dn for c in nothing.children)
    tree.apply(key, nothing, run.options.slice_doublings)  # the third: split
    assert node.jobs == 3 and node.children is not None
    once = leaf(0b101, 0b1000010 ^ 0b11000010)  # another position, the same result: split at once
    tree.apply(once, nothing, 0)
    assert tree.nodes[once].children is not None
    proved = run_job(Job((5, 6), 4, "x", 0b10000001, 0b10, seconds=600, max_nodes=2000))
    assert proved.value == 0 and proved.children is not None
    settled = [i for i, child in enumerate(proved.children) if child.value]
    assert len(settled) * 2 >= len(proved.children)  # 15 of O's 27 replies proved
    few = replace(  # as if it had proved only the first of them
        proved,
        children=tuple(
            replace(child, value=0, fragment=None, entries=0) if i in settled[1:] else child
            for i, child in enumerate(proved.children)
        ),
    )
    key = leaf(0b10000001, 0b10)
    tree.apply(key, few, 4)
    assert tree.nodes[key].children is None and tree.nodes[key].jobs == 1
    kept = leaf(0b10000001 ^ 0b100, 0b10)  # the same result from a job that kept its table:
    tree.apply(kept, replace(proved, job=replace(proved.job, table_file="t.npz")), 4)
    assert tree.nodes[kept].children is None  # its next job goes on from it: not split
    tree.apply(key, proved, 4)  # its next job proves half of them or more, no table: split
    assert tree.nodes[key].children is not None and tree.nodes[key].jobs == 2
    stopped = run_job(Job((5, 6), 4, "x", 0b101, 0b10, seconds=600, max_nodes=2000, early=0.25))
    assert stopped.statistics["early_splits"] == 1
    key = leaf(0b101, 0b10)
    tree.apply(key, stopped, 4)
    assert tree.nodes[key].children is not None


def test_a_leaf_whose_job_settled_nothing_runs_again_before_any_other(tmp_path: Path) -> None:
    """After a job that settled nothing (its leaf kept for a longer slice), the run's next pick is
    that leaf again, whatever the numbers of the others, the one with most jobs first; not while
    it runs, nor once its parent is settled without it, nor once it is split. The first two open
    children of a node take turns: the one with more jobs gives its turn to the other."""
    geometry = Geometry.parse("5x5,k=4")
    tree = Tree(geometry, "x", tmp_path)
    tree.apply(tree.root, run_job(Job(geometry.shape, geometry.k, "x", 0, 0, search=False)))
    first, second, third, fourth, *others = [c for _, c in tree.nodes[tree.root].children or []]
    for key in (second, third, fourth, *others):
        tree.nodes[key].pn = 1
    nothing = run_job(Job(geometry.shape, geometry.k, "x", tree.nodes[first].x, 0, max_nodes=20))
    assert nothing.value == 0 and nothing.children is not None
    assert not any(child.value for child in nothing.children)
    tree.apply(first, nothing, 2)
    assert tree.nodes[first].children is None and tree.nodes[first].pn > 1
    assert tree.select(set(), 1, tree.values()) == [second]  # its turn: fewer jobs than first
    assert tree.select({second}, 1, tree.values()) == [first]  # the numbers alone would not
    assert tree.select({first, second}, 1, tree.values()) not in ([first], [second])  # running
    tree.apply(second, nothing, 2)
    assert set(tree.select(set(), 2, tree.values())) == {first, second}
    tree.apply(first, nothing, 2)  # first: 2 jobs, second: 1
    assert tree.select(set(), 2, tree.values()) == [second, first]
    again = run_job(Job(geometry.shape, geometry.k, "x", tree.nodes[fourth].x, 0, max_nodes=20))
    assert again.value == 0 and not any(child.value for child in again.children or [])
    for _ in range(3):
        tree.apply(fourth, again, 3)
    # Not one of the first two children: it goes on, most jobs first, and takes no one's turn.
    assert tree.select(set(), 3, tree.values()) == [fourth, second, first]
    tree.nodes[third].value = 1  # X wins by another first move: none of them matters any more
    assert tree.select(set(), 2, tree.values()) == []
    tree.nodes[third].value = 0
    tree.apply(first, nothing, 2)
    assert tree.nodes[first].children is not None  # split after its doublings
    assert first not in tree.continuing(set(), tree.values())
    below = {child for _, child in tree.nodes[first].children or []}
    focus = tree.focus(tree.values())  # the search's next move goes first
    assert second in focus and not focus & below
    tree.nodes[second].value = -1  # (unless it fails)
    assert set(tree.select(set(), 3, tree.values())) <= below  # followed alone (_getting_on)
    tree.nodes[second].value = 0
    refuted = next(iter(below))
    tree.nodes[refuted].value = -1  # O refutes X's first move: its siblings are followed again
    tree.apply(second, nothing, 2)  # the first two open, unsplit children now: second and third
    assert tree.select(set(), 3, tree.values()) == [fourth, third, second]


def test_longer_slices_stop_at_a_depth_where_they_have_not_paid(tmp_path: Path) -> None:
    """5x5 (k = 4), X's first moves in jobs of 20 positions, two jobs each at most (one
    doubling): once three of them ran both and settled neither their position nor any of O's
    replies, a job of the depth that settles nothing is split at once, and a leaf of it that had a
    job is split when the run picks it, not run again; a reply settled by such a job, or a leaf of
    the depth settled after more than one job, shows that longer slices paid, and they go on."""
    geometry = Geometry.parse("5x5,k=4")
    tree = Tree(geometry, "x", tmp_path)
    tree.apply(tree.root, run_job(Job(geometry.shape, geometry.k, "x", 0, 0, search=False)))
    first, second, third, fourth, fifth, sixth = [
        c for _, c in tree.nodes[tree.root].children or []
    ]

    def nothing(key: int) -> JobResult:
        node = tree.nodes[key]
        found = run_job(Job(geometry.shape, geometry.k, "x", node.x, node.o, max_nodes=20))
        assert found.value == 0 and not any(child.value for child in found.children or [])
        return found

    for key in (first, second, third):
        assert not tree.doubling_fruitless(1, 1)
        tree.apply(key, nothing(key), 1)
        assert tree.nodes[key].children is None  # its doubling
        tree.apply(key, nothing(key), 1)
        assert tree.nodes[key].children is not None  # split after it
    assert tree.doubling_fruitless(1, 1) and not tree.doubling_fruitless(1, 2)
    assert not tree.doubling_fruitless(2, 1)  # another depth
    tree.apply(fourth, nothing(fourth), 1)
    assert tree.nodes[fourth].children is not None and tree.nodes[fourth].jobs == 1
    run = ProofRun(geometry, tmp_path / "p", split(slice_doublings=1))
    tree.nodes[fifth].jobs = 1  # as if its job had ended before the depth was found fruitless
    assert run._past_doubling(tree, fifth) and not run._past_doubling(tree, sixth)
    reply = tree.nodes[tree.nodes[first].children[0][1]]  # type: ignore[index]
    reply.value = -1  # as if first's jobs had settled one of O's replies
    assert not tree.doubling_fruitless(1, 1)
    reply.value = 0
    tree.nodes[sixth].jobs, tree.nodes[sixth].value = 2, 1  # settled after a longer slice
    assert not tree.doubling_fruitless(1, 1)


def test_a_run_splits_the_leaves_of_a_depth_where_longer_slices_did_not_pay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """4x5 (k = 4) in jobs of 10 positions, one doubling, a depth fruitless after one leaf: leaves
    are split when picked, and the run ends with the value and certificates as ever."""
    monkeypatch.setattr(runs, "FRUITLESS_DOUBLED", 1)
    picked = []
    past = ProofRun._past_doubling

    def spy(self: ProofRun, tree: Tree, key: int) -> bool:
        found = past(self, tree, key)
        picked.append(found)
        return found

    monkeypatch.setattr(ProofRun, "_past_doubling", spy)
    folder = tmp_path / "p"
    options = split(slice_nodes=10, slice_doublings=1)
    result = prove_board(Geometry.parse("4x5,k=4"), seconds=None, proof_dir=folder, run=options)
    assert result.value == "draw"
    assert all(verify_certificate(path).valid for path in result.proofs)
    assert True in picked and False in picked


def split_node(tree: Tree, key: int) -> list[int]:
    """Split the node ``key`` of ``tree`` into its children at once (a job without a search), as
    the run does; the children's keys."""
    node, geometry = tree.nodes[key], tree.geometry
    tree.apply(key, run_job(Job(geometry.shape, geometry.k, "x", node.x, node.o, search=False)))
    return [child for _, child in tree.nodes[key].children or []]


def test_the_attackers_split_moves_are_worked_on_one_at_a_time(tmp_path: Path) -> None:
    """Where the attacker is to move, the run follows one of its open split moves only (here the
    first in the search's order), and that one alone while the jobs below it get on (fewer than
    PATIENCE of them, or one in PATIENCE settled something); else its unsplit ones too: leaves
    under a later split move neither run again nor get a first job while the first holds a leaf
    to run; once the first is settled, the next is followed. Where the defender is to move, every
    open reply is followed."""
    tree = Tree(Geometry.parse("5x5,k=4"), "x", tmp_path)

    first, second, *others = split_node(tree, tree.root)
    under_first, under_second = split_node(tree, first), split_node(tree, second)
    values = tree.values()
    focus = tree.focus(values)
    assert {first, *under_first} <= focus and not focus & set(others)  # first alone, getting on
    assert second not in focus and not focus & set(under_second)
    tree.nodes[under_first[0]].jobs = PATIENCE  # as many jobs below it, none settled anything
    focus = tree.focus(values)
    assert {first, *under_first, *others} <= focus  # its unsplit siblings are tried too
    assert second not in focus and not focus & set(under_second)
    tree.nodes[under_first[-1]].value = 1  # one position below it settled: alone again
    assert not tree.focus(tree.values()) & set(others)
    tree.nodes[under_first[-1]].value = 0
    tree.nodes[under_first[0]].jobs = 0
    for leaf in under_second:  # the numbers alone would pick these
        tree.nodes[leaf].pn = 1
    for leaf in under_first:
        tree.nodes[leaf].pn = 1000
    tree.nodes[first].pn = tree.nodes[second].pn = 1
    picks = tree.select(set(), 4, values)
    assert picks and not set(picks) & set(under_second)
    node = tree.nodes[under_second[0]]
    nothing = run_job(Job((5, 5), 4, "x", node.x, node.o, max_nodes=20))
    assert nothing.value == 0 and not any(child.value for child in nothing.children or [])
    tree.apply(under_second[0], nothing, 2)  # had a job, settled nothing: would run again
    assert under_second[0] not in tree.continuing(set(), tree.values())
    # Every leaf under the first move running: a free worker still gets a leaf (not idle).
    assert tree.select(set(under_first), 1, tree.values()) != []
    tree.nodes[under_first[0]].value = -1  # O refutes X's first move: the second is followed
    values = tree.values()
    assert values[first] == -1 and second in tree.focus(values)
    assert under_second[0] in tree.continuing(set(), values)


def test_a_lagging_split_move_gives_way_to_the_searchs_first_moves(tmp_path: Path) -> None:
    """A split move of the attacker that lags (LAG_TRIED of the defender's replies tried, fewer
    than half of those settled) gives way to a split move that does not lag, however many replies
    that one has open, and where every split move lags, to the unsplit ones among the first
    RIVALS moves in the search's order; it is followed again where it no longer lags, or where
    every other move fails. A reply split into more is under way, not tried."""
    tree = Tree(Geometry.parse("5x5,k=4"), "x", tmp_path)
    moves = split_node(tree, tree.root)
    assert len(moves) > RIVALS + 2
    late, replies = next(
        (move, list(dict.fromkeys(split_node(tree, move))))
        for move in moves[RIVALS:]
        if len(set(split_node(tree, move))) > LAG_TRIED + 2
    )
    for key in moves[:RIVALS]:  # the search's first moves fail: nothing to compare with
        tree.nodes[key].value = -1
    focus = tree.focus(tree.values())
    others = set(moves) - {late}
    assert {late, *replies} <= focus and not focus & others  # alone: it gets on
    for key in replies[: LAG_TRIED - 1]:
        tree.nodes[key].jobs = 1
    other = next(key for key in moves[RIVALS:] if key != late)
    below = list(dict.fromkeys(split_node(tree, other)))
    for key in below[: max(0, len(below) - len(replies) + 1)]:  # fewer of its replies open
        tree.nodes[key].value = 1
    assert tree.focus(tree.values()) & {late, other} == {other}
    for key in below:
        tree.nodes[key].value = 0
    tree.nodes[other].children = None  # unsplit again
    assert tree.focus(tree.values()) & set(moves) == {late}  # not lagging yet: too few tried
    split_node(tree, replies[LAG_TRIED - 1])  # split into more: under way, not tried
    assert tree.focus(tree.values()) & set(moves) == {late}
    tree.nodes[replies[LAG_TRIED - 1]].children = None
    tree.nodes[replies[LAG_TRIED - 1]].jobs = 1  # ten tried, none settled: it lags
    assert tree.focus(tree.values()) & set(moves) == {late}  # but nothing else is split
    split_node(tree, other)
    focus = tree.focus(tree.values())
    assert {other, *below} <= focus and late not in focus  # a split move that does not lag
    cells = {child: move for move, child in tree.nodes[tree.root].children or []}
    assert tree._set_aside(tree.root, tree.values()) == ((cells[late], 0, len(replies)),)
    tree.nodes[other].children = None  # unsplit again: every split move lags
    for key in moves[:RIVALS]:
        tree.nodes[key].value = 0
    focus = tree.focus(tree.values())
    assert focus & set(moves) == set(moves[:RIVALS])
    assert set(tree.select(set(), 2, tree.values())) == set(moves[:RIVALS])
    assert tree.followed_to_prove(tree.values()) == 1
    assert tree._set_aside(tree.root, tree.values()) == ((cells[late], 0, len(replies)),)
    for key in moves[:RIVALS]:
        tree.nodes[key].value = -1
    for key in replies[:5]:  # 5 of the 10 settled: half, enough
        tree.nodes[key].value = 1
    focus = tree.focus(tree.values())  # followed alone again, however many replies are left
    assert late in focus and not focus & others and not tree._set_aside(tree.root, tree.values())
    tree.nodes[replies[0]].value = 0  # 4 of 10: it lags again; every other move fails: the
    for key in others:  # lagging one is followed, not set aside
        tree.nodes[key].value = -1
    assert late in tree.focus(tree.values()) and not tree._set_aside(tree.root, tree.values())


def test_the_searchs_first_moves_are_searched_before_a_split_move_is_followed(
    tmp_path: Path,
) -> None:
    """Once a move of the attacker is split with more than half of the defender's replies open,
    the first RIVALS moves in the search's order go first until each is split or settled (one
    that fails makes way for no other); then, of the split moves that do not lag, the one with
    the fewest replies open is followed (the first in the search's order among equals), the
    others said to be set aside."""
    tree = Tree(Geometry.parse("5x5,k=4"), "x", tmp_path)
    moves = split_node(tree, tree.root)
    assert len(moves) > RIVALS + 2
    late = moves[-1]
    replies = list(dict.fromkeys(split_node(tree, late)))
    half = len(replies) // 2
    for key in replies[half:]:  # half its replies or more settled: no need to compare
        tree.nodes[key].value = 1
    focus = tree.focus(tree.values())
    assert {late, *replies[:half]} <= focus and not focus & set(moves[:-1])
    for key in replies[half:]:
        tree.nodes[key].value = 0
    focus = tree.focus(tree.values())
    assert set(moves[:RIVALS]) <= focus and not focus & {late, *replies, *moves[RIVALS:]}
    assert set(tree.select(set(), 2, tree.values())) == set(moves[:RIVALS])
    tree.nodes[moves[0]].jobs = 1  # a job that kept its table: first still, until split
    assert tree.focus(tree.values()) & set(moves) == set(moves[:RIVALS])
    tree.nodes[moves[1]].value = -1  # the second fails: no other move takes its place
    assert tree.focus(tree.values()) & set(moves) == {moves[0]}
    first = list(dict.fromkeys(split_node(tree, moves[0])))
    cells = {child: move for move, child in tree.nodes[tree.root].children or []}

    def followed() -> list[int]:
        focus = tree.focus(tree.values())
        return [key for key in (moves[0], late) if key in focus]

    # The one with fewer replies open is followed (the first in the search's order if as many).
    (fewer, fewer_replies), (more, more_replies) = sorted(
        [(moves[0], first), (late, replies)], key=lambda pair: (len(pair[1]), pair[0] == late)
    )
    assert followed() == [fewer]
    assert tree._set_aside(tree.root, tree.values()) == ((cells[more], 0, len(more_replies)),)
    for key in more_replies[: len(more_replies) - len(fewer_replies) + 1]:
        tree.nodes[key].value = 1  # now the other has one reply fewer open
    assert followed() == [more]
    assert tree._set_aside(tree.root, tree.values()) == ((cells[fewer], 0, len(fewer_replies)),)


def test_what_is_left_to_settle_along_the_moves_the_run_follows(tmp_path: Path) -> None:
    """``followed_to_prove``: open leaves counted 1, every distinct open reply of the defender
    summed, of the attacker's moves only those the run follows (the split one alone while it gets
    on): the count the run's estimates use, where the fewest leaves in principle say 1 as long
    as one unsplit move of the attacker is left."""
    from oxo.proofs.runs import INF

    tree = Tree(Geometry.parse("5x5,k=4"), "x", tmp_path)
    assert tree.followed_to_prove(tree.values()) == 1  # the root, a leaf
    first, *others = split_node(tree, tree.root)
    assert tree.followed_to_prove(tree.values()) == 1  # any of X's unsplit moves
    replies = split_node(tree, first)
    distinct = list(dict.fromkeys(replies))
    assert len(distinct) >= 5
    assert tree.followed_to_prove(tree.values()) == 1  # the next in order is searched first,
    tree.nodes[others[0]].value = -1  # until it is split or settled (here it fails)
    values = tree.values()
    assert tree.followed_to_prove(values) == len(distinct)  # the split move alone
    assert tree.fewest_leaves(values)[0] == 1
    tree.nodes[distinct[4]].jobs = PATIENCE  # jobs below the split move get nowhere: its
    assert tree.followed_to_prove(tree.values()) == 1  # unsplit siblings are followed too
    tree.nodes[distinct[4]].jobs = 0
    for key in distinct[:3]:
        tree.nodes[key].value = 1
    assert tree.followed_to_prove(tree.values()) == len(distinct) - 3
    below = list(dict.fromkeys(split_node(tree, distinct[3])))  # X to move: its moves, any one
    assert len(below) > 1 and tree.followed_to_prove(tree.values()) == len(distinct) - 3
    tree.nodes[distinct[4]].value = -1  # a reply X cannot win: the split move fails
    values = tree.values()
    assert values[first] == -1 and tree.followed_to_prove(values) == 1  # the others are left
    for key in others:
        tree.nodes[key].value = -1
    assert tree.followed_to_prove(tree.values()) == INF
    for key in [first, *others]:
        tree.nodes[key].value = 0
    for key in distinct:
        tree.nodes[key].value = 1
    assert tree.followed_to_prove(tree.values()) == 0  # proved


def test_the_estimate_at_the_pace_of_the_sessions_that_counted(tmp_path: Path) -> None:
    """The status's time at the pace of every session that counted what it settled (their
    positions settled and seconds together) for the open positions along the followed moves,
    in words and in JSON; none before a counted session settled one or once the value is known."""
    folder = tmp_path / "p"
    geometry = Geometry.parse("4x5,k=4")
    prove_board(geometry, seconds=None, proof_dir=folder, run=split())
    status = run_status(folder)
    assert status.value is not None and status.pace_estimate() is None
    question = replace(status.questions[0], value=0, followed_to_prove=40)
    open_run = replace(status, questions=(question,), value=None, paces=(60, 62, 7200.0, 12))
    assert open_run.pace_estimate() == 40 * 600.0
    lines = open_run.lines()
    assert "  on the moves the run follows: at least 40 open jobs to prove that X can" in lines
    assert any(
        line.startswith("  at the pace of sessions 60 to 62 (12 positions settled in 2.0 h), ")
        and "those 40 take about 6.7 h of run time" in line
        for line in lines
    )
    data = open_run.to_dict()
    assert data["pace_estimate_seconds"] == 24000.0
    assert data["paces"] == {
        "first_session": 60,
        "last_session": 62,
        "seconds": 7200.0,
        "settled": 12,
    }
    assert data["questions"][0]["followed_to_prove"] == 40  # type: ignore[index]
    assert replace(open_run, paces=(60, 60, 900.0, 0)).pace_estimate() is None
    one = replace(open_run, paces=(61, 61, 3600.0, 4)).lines()
    assert any(line.startswith("  at the pace of session 61 (4 positions") for line in one)
    # With gravity (Score Four) the first moves and the replies below them are columns.
    moves = {"win": [], "no win": [], "open": [48, 53]}
    dropped = replace(question, first_moves=moves, replies=(runs.Replies(53, 1, 0, 9, 40),))
    lines = replace(open_run, board="4x4x4", k=4, gravity=True, questions=(dropped,)).lines()
    text = " ".join(lines)
    assert "(one of each set alike by symmetry, columns from 1 in reading order, seen" in text
    assert "open: 1, 6" in text and "O's 10 replies to X in column 6: X wins after 1," in text


def test_each_open_reply_says_what_it_waits_on(tmp_path: Path) -> None:
    """Below a first move the run works on, each open reply of the defender names the open
    position in the way: down the one move the run follows where the attacker is to move and the
    one open reply where the defender is, to the first position with more than one way on, or a
    leaf; a reply that waits on a position another reply waits on says so."""
    from oxo.geometry import mask_cells

    tree = Tree(Geometry.parse("5x5,k=4"), "x", tmp_path)

    first = split_node(tree, tree.root)[0]
    replies = split_node(tree, first)
    waits = tree.waits(tree.values(), first)
    assert [w.reply for w in waits] == [move for move, _ in tree.nodes[first].children or []]
    assert all(w.moves == 0 and w.jobs == 0 and w.same_as is None for w in waits)
    assert "waits on X on " in waits[0].words("x")
    assert waits[0].words("x").endswith("a job of its own (no job yet)")
    r0, r1 = replies[0], replies[1]
    moves = split_node(tree, r0)  # X to move, its moves not split: more than one way on
    assert len(moves) > 1 and tree.waits_on(r0, tree.values()) == r0
    (wait,) = [w for w in tree.waits(tree.values(), first) if w.reply == waits[0].reply]
    assert wait.attacker_to_move and wait.moves == len(moves) and wait.searched == 0
    assert wait.words("x").endswith(f"X to move: its {len(moves)} moves not searched yet")
    tree.nodes[r0].jobs, tree.nodes[r0].nodes = 5, 10_000  # five searches, nothing settled
    (wait,) = [w for w in tree.waits(tree.values(), first) if w.reply == waits[0].reply]
    assert wait.words("x").endswith(
        f"X to move: split after 5 jobs of its own, its {len(moves)} moves not searched yet"
    )
    tree.nodes[r0].jobs, tree.nodes[r0].nodes = 1, 0  # split at once, as above
    below = split_node(tree, moves[0])  # the run follows it alone while its jobs get on
    tree.nodes[moves[1]].value = -1  # (the next move in the search's order fails)
    assert tree.waits_on(r0, tree.values()) == moves[0]
    for key in below[:-1]:
        tree.nodes[key].value = 1
    tree.nodes[below[0]].jobs = 1
    assert tree.waits_on(r0, tree.values()) == below[-1]  # the one open reply: a leaf
    tree.nodes[r1].children = [(0, below[-1])]  # (a hand-made tree) r1 leads there too
    values = tree.values()
    at_r0, at_r1 = tree.waits(values, first)[:2]
    node = tree.nodes[below[-1]]
    assert (at_r0.x, at_r0.o) == (mask_cells(node.x), mask_cells(node.o)) and at_r0.moves == 0
    assert at_r0.same_as is None and at_r1.same_as == at_r0.reply
    assert at_r1.words("x") == (
        f"O on {at_r1.reply} waits on the same position as O on {at_r0.reply}"
    )
    tree.nodes[moves[0]].children = None  # unsplit again: X's moves, more than one way on
    tree.nodes[moves[0]].jobs = PATIENCE
    assert tree.waits_on(r0, tree.values()) == r0


def test_a_wait_at_the_defenders_position_with_few_replies_open_says_what_those_wait_on(
    tmp_path: Path,
) -> None:
    """Where an open reply waits on a position of the defender with at most WAITS_SAID replies
    open, its wait lists what each of those waits on in turn (one level further, no more), and
    the words say both, the deeper ones indented."""
    tree = Tree(Geometry.parse("5x5,k=4"), "x", tmp_path)
    first = split_node(tree, tree.root)[0]
    replies = split_node(tree, first)
    for key in replies[1:]:
        tree.nodes[key].value = 1
    moves = split_node(tree, replies[0])  # X to move: the run follows the split move alone
    below = list(dict.fromkeys(split_node(tree, moves[0])))  # O to move: its replies' classes
    tree.nodes[moves[1]].value = -1  # (the next move in the search's order fails)
    for i, key in enumerate(below):  # (by hand: the split settled some at once)
        tree.nodes[key].value = 1 if i >= WAITS_SAID else 0
    values = tree.values()
    assert tree.waits_on(replies[0], values) == moves[0]
    (wait,) = tree.waits(values, first)
    children = tree.nodes[moves[0]].children or []
    open_below = [move for move, key in children if not values[key]]
    assert not wait.attacker_to_move and wait.moves == len(children)
    assert wait.settled == len(children) - len(open_below) and 0 < len(open_below)
    assert [w.reply for w in wait.below] == open_below
    assert all(w.below == () and w.moves == 0 for w in wait.below)  # leaves: nothing below
    assert Waiting.from_dict(wait.to_dict()) == wait
    lines = wait.lines("x")
    assert [depth for depth, _ in lines] == [0] + [1] * len(open_below)
    assert lines[1][1] == wait.below[0].words("x")
    tree.nodes[below[WAITS_SAID]].value = 0  # one more class open: too many to list
    (wait,) = tree.waits(tree.values(), first)
    assert wait.below == ()


def test_a_slice_cut_short_by_the_end_of_the_time_is_not_a_doubling(tmp_path: Path) -> None:
    """A job the end of the run's time cut short (``final``) that settled nothing leaves its leaf
    as it was: not split, and its next job has the slice this one should have had; a whole slice
    that settled nothing counts."""
    geometry = Geometry.parse("5x5,k=4")
    tree = Tree(geometry, "x", tmp_path)
    tree.apply(tree.root, run_job(Job(geometry.shape, geometry.k, "x", 0, 0, search=False)))
    first = (tree.nodes[tree.root].children or [])[0][1]
    node = tree.nodes[first]
    job = Job(geometry.shape, geometry.k, "x", node.x, 0, max_nodes=20)
    cut = run_job(replace(job, final=True))
    assert cut.value == 0 and cut.children is None
    tree.apply(first, cut, 2)
    assert node.jobs == 0 and node.children is None and node.nodes == cut.nodes
    run = ProofRun(geometry, tmp_path / "p", split(slice_seconds=60.0))
    assert run.slice_of(node, 60.0) == 60.0
    tree.apply(first, run_job(job), 2)
    assert node.jobs == 1 and run.slice_of(node, 60.0) == 120.0
    for _ in range(5):
        tree.apply(first, cut, 0)
    assert node.jobs == 1 and node.children is None  # never split for lack of time


def test_the_end_of_the_time_says_what_the_run_waits_for(tmp_path: Path) -> None:
    """Past --time the run waits for its last slices (GRACE) and, longer, for the jobs that keep
    their table (TABLE_GRACE); its progress line says which, so that a run that goes on for a
    while after its time is up is not taken for one that hangs."""
    run = ProofRun(Geometry.parse("5x5,k=4"), tmp_path / "p", split())
    run.running = {1: ("x", 1, 0.0), 2: ("x", 2, 0.0)}
    assert run.ending_line() == (
        f"time is up: waiting up to {runs.GRACE:.0f} s for the last 2 jobs to report"
    )
    run.keeping = {2, 7}  # 7 has ended already
    assert run.ending_line() == (
        f"time is up: waiting up to {runs.TABLE_GRACE:.0f} s for the last 2 jobs (1 saves its table)"
    )
    run.running = {2: ("x", 2, 0.0)}
    assert "for the last 1 job (1 saves its table)" in run.ending_line()


def test_a_leaf_with_doublings_left_reads_no_strategies_of_its_children(tmp_path: Path) -> None:
    """A job whose leaf stays whole if it settles nothing (doublings left) reads no strategy of the
    children its search settled: they come back open, with the numbers the search left (a
    settled one's say so); the job of its last doubling reads them as ever (a split needs their
    fragments)."""
    geometry = Geometry.parse("5x6,k=4")
    job = Job(geometry.shape, geometry.k, "x", 1, 1 << 8, max_nodes=300, plain_first=False)
    full = run_job(job)
    assert full.value == 0 and full.children is not None
    settled = [child for child in full.children if child.value]
    assert settled and all(child.fragment is not None for child in settled)
    bare = run_job(replace(job, fragments=False))
    assert bare.children is not None and not any(child.value for child in bare.children)
    again = {child.move: child for child in bare.children}
    assert all(0 in (again[c.move].pn, again[c.move].dn) for c in settled)
    run = ProofRun(geometry, tmp_path / "p", split(slice_doublings=2))
    tree = Tree(geometry, "x", tmp_path)
    tree.apply(tree.root, run_job(Job(geometry.shape, geometry.k, "x", 0, 0, search=False)))
    first = (tree.nodes[tree.root].children or [])[0][1]
    jobs = []
    for _ in range(3):
        leaf_job = run._leaf_job(tree, first, None)
        assert leaf_job is not None
        jobs.append(leaf_job.fragments)
        tree.nodes[first].jobs += 1
    assert jobs == [False, False, True]  # the third, after two doublings, may be split


def test_the_whole_search_of_the_root_has_one_share_over_all_sessions(tmp_path: Path) -> None:
    """The whole search of the root gets the longest slice of a job over all sessions together
    (its table is kept, so each session's search goes on from the last): the processor seconds it
    had are kept in the state; once its share is spent no session starts it again. A state written
    before the seconds were counted counts each job of the root after its first look as a share."""
    geometry = Geometry.parse("5x6,k=4")
    folder = tmp_path / "p"
    options = RunOptions(workers=2, slice_seconds=2.0, slice_doublings=1)  # a share of 4 s
    run = ProofRun(geometry, folder, options)
    tree = Tree(geometry, "x", tmp_path)
    tree.apply(tree.root, run_job(Job(geometry.shape, geometry.k, "x", 0, 0, search=False)))
    assert run.root_left(tree) == 4.0 and run._wants_root_search(tree)
    searched = run_job(Job(geometry.shape, geometry.k, "x", 0, 0, max_nodes=20))
    tree.apply(tree.root, replace(searched, cpu=3.0))
    assert tree.root_cpu == 3.0 and run.root_left(tree) == 1.0
    job = run._root_job(tree, None)
    assert job is not None and job.seconds == 1.0
    again = Tree.from_dict(geometry, "x", tmp_path, tree.to_dict())
    assert again.root_cpu == 3.0
    tree.apply(tree.root, replace(searched, cpu=1.5))
    assert run.root_left(tree) == 0.0 and not run._wants_root_search(tree)
    data = tree.to_dict()
    del data["root_cpu"]  # a state of before: the root had its first look and one search
    old = Tree.from_dict(geometry, "x", tmp_path, data)
    assert old.root_cpu is None and old.nodes[old.root].jobs == 3
    assert run.root_left(old) == 0.0
    old.nodes[old.root].jobs = 1  # its first look only
    assert run.root_left(old) == 4.0
    unbounded = ProofRun(geometry, folder, RunOptions(workers=2, slice_seconds=None))
    assert unbounded.root_left(tree) is None and unbounded._wants_root_search(tree)


def test_a_run_whose_jobs_settle_nothing_doubles_their_slices(tmp_path: Path) -> None:
    """4x5 (k = 4) in jobs of 10 positions: some jobs settle nothing and run again with twice the
    slice before they settle or split, and the certificates are accepted as ever."""
    folder = tmp_path / "p"
    options = split(slice_nodes=10)
    result = prove_board(Geometry.parse("4x5,k=4"), seconds=None, proof_dir=folder, run=options)
    assert result.value == "draw"
    assert all(verify_certificate(path).valid for path in result.proofs)
    state = json.loads((folder / "run" / "state.json").read_text())
    jobs = [node[8] for question in state["questions"].values() for node in question["nodes"]]
    assert max(jobs) >= 2


def test_a_leaf_that_runs_again_goes_on_from_its_last_jobs_table(tmp_path: Path) -> None:
    """The jobs the run gives its leaves keep the compiled search's table in the folder (local
    workers, slices that double; not a cluster's jobs, nor with slice_doublings 0); the leaf's
    next job goes on from it and searches fewer positions than a fresh one. The run keeps the
    table when the leaf is split (for its children's first jobs), deletes it once the leaf is
    settled, and none is left once the question is settled."""
    geometry = Geometry.parse("5x6,k=4")  # X wins, searched turned (6x5): a few thousand positions
    folder = tmp_path / "p"
    run = ProofRun(geometry, folder, split())
    tree = Tree(geometry, "x", tmp_path)
    tree.apply(tree.root, run_job(Job(geometry.shape, geometry.k, "x", 0, 0, search=False)))
    key = (tree.nodes[tree.root].children or [])[0][1]
    job = run._leaf_job(tree, key, None)
    assert job is not None and job.table_file == str(run.job_table("x", key))
    assert job.table_file == str(folder / "run" / f"job-x-{key:x}.npz")
    for options in (split(scheduler="tcp://nowhere:8786"), split(slice_doublings=0)):
        other = ProofRun(geometry, tmp_path / "q", options)._leaf_job(tree, key, None)
        assert other is not None and other.table_file is None
    (folder / "run").mkdir(parents=True)
    whole = replace(job, seconds=None, max_nodes=None, plain_first=False, early=None)
    fresh = run_job(replace(whole, table_file=None))
    assert fresh.value and fresh.nodes > 1000
    first = run_job(replace(whole, max_nodes=fresh.nodes // 2))
    assert first.value == 0 and Path(whole.table_file or "").exists()
    run._tidy_tables(tree, tree.relevant(tree.values()))  # an open leaf's table stays
    assert Path(whole.table_file or "").exists()
    size = Path(whole.table_file or "").stat().st_size
    assert _leaf_tables(folder / "run") == {"x": (1, size)}  # what --status says of them
    second = run_job(whole)
    assert second.value == fresh.value and second.nodes < fresh.nodes * 3 // 4
    tree.apply(key, first, 0)  # split: its table now seeds its children's first jobs
    run._tidy_tables(tree, tree.relevant(tree.values()))
    assert tree.nodes[key].children is not None and Path(whole.table_file or "").exists()
    tree.nodes[key].value = -1  # once the leaf is settled, it is no longer needed
    run._tidy_tables(tree, tree.relevant(tree.values()))
    assert not Path(whole.table_file or "").exists()
    tree.nodes[key].value = 0
    result = prove_board(geometry, seconds=None, proof_dir=folder, run=split(slice_nodes=400))
    assert result.value == "x" and not list((folder / "run").glob("*job-*"))


def test_a_split_leafs_table_is_where_its_childrens_first_jobs_start(tmp_path: Path) -> None:
    """5x6 (k = 4), X on its second first move: a job cut at three quarters of what settles it
    keeps its table, and the leaf is split. The table stays while an open child has had no job;
    each child's first job starts from it (``seed_file``) and, over the first five open children,
    searches fewer positions than the same jobs from empty tables; a child's next job starts from
    its own table. Once each open child has had a job, the parent's table goes."""
    geometry = Geometry.parse("5x6,k=4")
    folder = tmp_path / "p"
    (folder / "run").mkdir(parents=True)
    run = ProofRun(geometry, folder, split())
    tree = Tree(geometry, "x", tmp_path)
    tree.apply(tree.root, run_job(Job(geometry.shape, geometry.k, "x", 0, 0, search=False)))
    key = (tree.nodes[tree.root].children or [])[1][1]
    job = run._leaf_job(tree, key, None)
    assert job is not None and job.seed_file is None  # split from the root: no table there
    whole = replace(job, seconds=None, max_nodes=None, plain_first=False, early=None)
    fresh = run_job(replace(whole, table_file=None))
    cut = run_job(replace(whole, max_nodes=fresh.nodes * 3 // 4))
    assert fresh.value == 1 and cut.value == 0
    tree.apply(key, cut, 0)  # split
    parent_table = run.job_table("x", key)
    run._tidy_tables(tree, tree.relevant(tree.values()))
    assert tree.nodes[key].children is not None and parent_table.exists()
    values = tree.values()
    open_children = [child for _, child in tree.nodes[key].children or [] if not values[child]]
    seeded = afresh = 0
    for child in open_children[:5]:
        child_job = run._leaf_job(tree, child, None)
        assert child_job is not None and child_job.seed_file == str(parent_table)
        child_whole = replace(child_job, seconds=None, max_nodes=None, plain_first=False)
        afresh += run_job(replace(child_whole, table_file=None, seed_file=None)).nodes
        seeded += run_job(child_whole).nodes
    assert seeded < afresh * 3 // 4
    tree.nodes[open_children[0]].jobs = 1
    later = run._leaf_job(tree, open_children[0], None)
    assert later is not None and later.seed_file is None  # from its own table now
    for child in open_children:
        tree.nodes[child].jobs = 1
    run._tidy_tables(tree, tree.relevant(tree.values()))
    assert not parent_table.exists()


def _kept_tables(tmp_path: Path, split_first: int) -> tuple[ProofRun, Tree, dict[int, Path]]:
    """A run of 5x5 (k = 4) whose root is split, the first ``split_first`` of its first four
    children split too, each of the four with a kept table of 100 bytes, the first the oldest."""
    geometry = Geometry.parse("5x5,k=4")
    folder = tmp_path / "p"
    (folder / "run").mkdir(parents=True)
    run = ProofRun(geometry, folder, split())
    tree = Tree(geometry, "x", tmp_path)
    run._split(tree, tree.root)
    children = [c for _, c in tree.nodes[tree.root].children or []][:4]
    for key in children[:split_first]:  # a split position's table seeds its children's first jobs
        run._split(tree, key)
    tables = {key: run.job_table("x", key) for key in children}
    for age, table in enumerate(tables.values()):
        table.write_bytes(bytes(100))
        os.utime(table, (1_000_000 + age, 1_000_000 + age))
    return run, tree, tables


def test_the_tables_of_split_positions_are_held_within_a_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past SEED_TABLE_BYTES of tables that seed children's first jobs, the oldest go; a leaf's
    own table (its next job goes on from it) stays whatever its size or age."""
    monkeypatch.setattr(runs, "SEED_TABLE_BYTES", 250)
    run, tree, tables = _kept_tables(tmp_path, split_first=3)
    os.utime(list(tables.values())[3], (1, 1))  # a leaf's table, older than all: kept all the same
    run._tidy_tables(tree, tree.relevant(tree.values()))
    assert [table.exists() for table in tables.values()] == [False, True, True, True]
    monkeypatch.setattr(runs, "SEED_TABLE_BYTES", 0)
    run._tidy_tables(tree, tree.relevant(tree.values()))
    assert [table.exists() for table in tables.values()] == [False, False, False, True]


def test_a_job_of_the_search_for_big_boards_and_gravity_keeps_its_table_too(
    tmp_path: Path,
) -> None:
    """The search of boards over 64 cells and of boxes with gravity (oxo.proofs.wide) keeps a
    job's table as the one of smaller boards does: on 3x4x4 with k = 3 and gravity (O's
    question, "no"), a job cut at half its positions writes it, and the next job of the position
    goes on from it and settles it in fewer positions than a fresh one."""
    job = Job((3, 4, 4), 3, "o", 0, 0, gravity=True, plain_first=False)
    fresh = run_job(job)
    assert fresh.value == -1 and fresh.nodes > 100
    table = tmp_path / "job-o-0.npz"
    first = run_job(replace(job, max_nodes=fresh.nodes // 2, table_file=str(table)))
    assert first.value == 0 and table.exists()
    second = run_job(replace(job, table_file=str(table)))
    assert second.value == -1 and second.nodes < fresh.nodes * 3 // 4


def test_the_whole_search_of_the_root_gets_the_longest_slice_a_job_may_grow_to(
    tmp_path: Path,
) -> None:
    """The search of the whole root beside the split jobs runs for the slice doubled as often as a
    job's may be (a minute: 16 minutes), cut at the end of the run's time; unbounded when the
    slices are."""
    geometry = Geometry.parse("4x5,k=4")
    tree = Tree(geometry, "x", tmp_path)
    tree.apply(tree.root, run_job(Job(geometry.shape, geometry.k, "x", 0, 0, search=False)))

    def root_job(options: RunOptions, deadline: float | None) -> Job:
        job = ProofRun(geometry, tmp_path / "p", options)._root_job(tree, deadline)
        assert job is not None and job.final and job.max_nodes is None
        return job

    assert root_job(RunOptions(workers=2), None).seconds == 60 * 16
    assert root_job(RunOptions(workers=2, slice_seconds=10, slice_doublings=1), None).seconds == 20
    assert root_job(RunOptions(workers=2, slice_seconds=None), None).seconds is None
    cut = root_job(RunOptions(workers=2), time.perf_counter() + 100).seconds
    assert cut is not None and 90 < cut <= 100


def test_an_attacker_job_is_split_early_when_asked_and_none_of_its_moves_is_disproved() -> None:
    """5x6 (k = 4), X to move. With ``early_attacker`` (which the run sets at barren depths), the
    job after X on 16 and 26, O on 10 and 11 disproves none of X's moves within a quarter of its
    2,000 positions and stops there, with the children the whole slice gives; after X on 12 and 24,
    O on 21 and 25 it has disproved one and goes on to the end of the slice."""
    shape, k = (5, 6), 4

    def job(x: int, o: int, early: float | None = None, attacker: bool = False) -> JobResult:
        return run_job(Job(shape, k, "x", x, o, 600, 2000, early=early, early_attacker=attacker))

    x, o = 1 << 16 | 1 << 26, 1 << 10 | 1 << 11
    stopped = job(x, o, 0.25, attacker=True)
    whole = job(x, o)
    assert job(x, o, 0.25).nodes == whole.nodes == 2000  # not asked: the whole slice
    assert stopped.value == whole.value == 0 and stopped.nodes == 500
    assert stopped.statistics["early_splits"] == 1
    assert stopped.children is not None and whole.children is not None
    assert {(c.x, c.o) for c in stopped.children} == {(c.x, c.o) for c in whole.children}
    going_on = job(1 << 12 | 1 << 24, 1 << 21 | 1 << 25, 0.25, attacker=True)
    assert going_on.nodes == 2000 and "early_splits" not in going_on.statistics
    assert going_on.children is not None and any(c.value == -1 for c in going_on.children)


def test_a_depth_whose_searches_do_not_settle_gets_early_splits_where_the_attacker_moves(
    tmp_path: Path,
) -> None:
    """6x6 (k = 5), searches of 30 positions two moves in (X to move): once 20 have run and none
    settled, that depth is barren and the run's next jobs there may stop early; one settled search
    in 21 keeps it barren, two in 22 do not (fewer than one in 20 must settle). Jobs three moves in
    (O to move) are early as before, and depths with no searches are not barren."""
    geometry = Geometry.parse("6x6,k=5")
    shape, k = geometry.shape, geometry.k
    run = ProofRun(geometry, tmp_path, RunOptions(workers=1, slice_nodes=30, split_plies=1))
    tree = Tree(geometry, "x", tmp_path)
    tree.apply(tree.root, run_job(Job(shape, k, "x", 0, 0, search=False)))
    for key in list(tree.nodes):
        if key != tree.root:
            tree.apply(key, run_job(Job(shape, k, "x", tree.nodes[key].x, 0, search=False)))
    results = {}
    for key, node in tree.nodes.items():
        if (node.x | node.o).bit_count() == 2:
            results[key] = run_job(Job(shape, k, "x", node.x, node.o, max_nodes=30))
    open_ = [key for key, result in results.items() if not result.value]
    settled = [key for key, result in results.items() if result.value]
    assert len(open_) >= 21 and len(settled) >= 2
    for key in open_[:20]:
        assert not tree.barren(2)
        job = run._job(tree, key, None, 60.0)
        assert job is not None and job.early and not job.early_attacker
        tree.apply(key, results[key])
    assert tree.barren(2)
    job = run._job(tree, open_[20], None, 60.0)
    assert job is not None and job.early and job.early_attacker
    three_in = next(key for key, n in tree.nodes.items() if (n.x | n.o).bit_count() == 3)
    job = run._job(tree, three_in, None, 60.0)
    assert job is not None and job.early and not job.early_attacker
    assert not tree.barren(3) and not tree.barren(1)
    tree.apply(settled[0], results[settled[0]])
    assert tree.barren(2)
    tree.apply(settled[1], results[settled[1]])
    assert not tree.barren(2)


def test_what_the_jobs_of_each_depth_did_is_counted_as_results_come_and_again_on_loading(
    tmp_path: Path,
) -> None:
    geometry = Geometry.parse("5x5,k=4")
    shape, k = geometry.shape, geometry.k
    tree = Tree(geometry, "x", tmp_path)
    tree.apply(tree.root, run_job(Job(shape, k, "x", 0, 0, search=False)))
    for _ in range(12):  # searched jobs, a few positions each: some settle, the others split
        (key,) = tree.select(set(), 1, tree.values())
        node = tree.nodes[key]
        tree.apply(key, run_job(Job(shape, k, "x", node.x, node.o, max_nodes=300)))
    figures = tree.depths()
    assert figures[0].moves == 0 and figures[0].split_at_once == 1 and figures[0].searched == 0
    assert sum(f.searched for f in figures) == 12
    assert any(f.settled for f in figures) and any(f.searched > f.settled for f in figures)
    loaded = Tree.from_dict(geometry, "x", tmp_path, json.loads(json.dumps(tree.to_dict())))
    assert loaded.depths() == figures


def test_the_whole_search_of_the_root_keeps_its_table_between_sessions(tmp_path: Path) -> None:
    """The run's whole search of the root keeps its table in the folder when its slice ends
    unsettled, and the next session's goes on from it (fewer positions than a fresh search); a
    cluster's workers get no table file. Once the question is settled the file goes."""
    geometry = Geometry.parse("5x6,k=4")  # X wins, searched turned (6x5): a few thousand positions
    folder = tmp_path / "p"
    tree = Tree(geometry, "x", tmp_path)
    tree.apply(tree.root, run_job(Job(geometry.shape, geometry.k, "x", 0, 0, search=False)))
    run = ProofRun(geometry, folder, RunOptions(workers=2))
    job = run._root_job(tree, None)
    assert job is not None and job.table_file == str(folder / "run" / "whole-search-x.npz")
    cluster = ProofRun(geometry, folder, RunOptions(workers=2, scheduler="tcp://nowhere:8786"))
    assert (root := cluster._root_job(tree, None)) is not None and root.table_file is None
    (folder / "run").mkdir(parents=True)
    whole = replace(job, seconds=None, plain_first=False)
    fresh = run_job(replace(whole, table_file=None))
    assert fresh.value == 1
    first = run_job(replace(whole, max_nodes=fresh.nodes // 2))
    assert first.value == 0 and Path(job.table_file).exists()
    opened = ProofRun(geometry, folder, RunOptions(workers=2))
    opened.open()
    opened.close()
    kept = run_status(folder).to_dict()["kept_table_bytes"]
    assert kept == {"x": Path(job.table_file).stat().st_size}
    second = run_job(whole)
    assert second.value == 1 and second.nodes < fresh.nodes * 3 // 4
    result = prove_board(geometry, seconds=None, proof_dir=folder, run=split(workers=2))
    assert result.value == "x" and not Path(job.table_file).exists()


# -- the moves that won a leaf's siblings, tried first ------------------------------------------------


def test_a_leaf_is_hinted_the_move_that_won_its_siblings_in_its_own_orientation(
    tmp_path: Path,
) -> None:
    """Two replies of O to one position, each kept in an orientation of its own (a symmetry of the
    board away from the parent's): the move that won the one (read from its children, then from
    its fragment) is hinted to the other carried into the other's orientation; a sibling not
    proven hints nothing, nor does a leaf where the defender is to move."""
    geometry = Geometry.parse("5x5,k=4")
    tree = Tree(geometry, "x", tmp_path)
    symmetries = tree.classes.symmetries
    px, po = 1 << 0 | 1 << 7, 1 << 3  # X on 0 and 7, O on 3: O to move
    leaf_move, sibling_move, won = 19, 21, 13

    def stabilizer(x: int, o: int) -> int:
        return sum((s.apply_mask(x), s.apply_mask(o)) == (x, o) for s in symmetries)

    assert stabilizer(px, po | 1 << leaf_move) == stabilizer(px, po | 1 << sibling_move) == 1

    def kept(symmetry: int, x: int, o: int) -> tuple[int, int]:
        return symmetries[symmetry].apply_mask(x), symmetries[symmetry].apply_mask(o)

    leaf_x, leaf_o = kept(5, px, po | 1 << leaf_move)
    sibling_x, sibling_o = kept(3, px, po | 1 << sibling_move)
    won_there = symmetries[3].apply_mask(1 << won).bit_length() - 1
    hinted = symmetries[5].apply_mask(1 << won).bit_length() - 1
    parent, leaf, sibling = px << 25 | po, 1, 2  # keys of the test's own
    tree.nodes = {
        parent: Node(px, po, children=[(leaf_move, leaf), (sibling_move, sibling)]),
        leaf: Node(leaf_x, leaf_o),
        sibling: Node(sibling_x, sibling_o, children=[(won_there, 3)]),
        3: Node(sibling_x | 1 << won_there, sibling_o),
    }
    tree.root = parent
    assert tree.hints(leaf, tree.values()) == ()  # the sibling is not proven
    tree.nodes[3].value = 1
    assert tree.hints(leaf, tree.values()) == (hinted,)
    assert tree.hints(parent, tree.values()) == ()  # O to move: nothing to hint
    tree.nodes[sibling] = Node(sibling_x, sibling_o)  # proven by a job of its own, a fragment
    fragment = encode_fragment(
        geometry, "x", sibling_x, sibling_o, True, [Entry(sibling_x, sibling_o, won_there)]
    )
    tree._won.clear()
    tree.settle(sibling, 1, fragment, 1, status_string(sibling_x, sibling_o, geometry.size))
    assert tree.winning_move(sibling, tree.values()) == won_there
    assert tree.hints(leaf, tree.values()) == (hinted,)


def test_a_leaf_with_nothing_to_try_first_waits_for_its_siblings_first_jobs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three replies of O to one position (X to move after each): the first had a job that
    settled nothing, the third was settled by its own job. At a depth where jobs mostly settle,
    the first does not run again while the second never had a job (and is not running) and no
    proven sibling gives it a move to try first: the second runs first. Once a sibling's winning
    move is known, the first runs again, trying it first, once (``Node.tried``, kept in the
    state); where jobs mostly do not settle, it runs again at once as before."""
    geometry = Geometry.parse("5x5,k=4")
    tree = Tree(geometry, "x", tmp_path)
    px, po = 1 << 0 | 1 << 7, 1 << 3  # X on 0 and 7, O on 3: O to move
    first, second, third = 1, 2, 3  # keys of the test's own
    tree.nodes = {
        tree.root: Node(px, po, children=[(19, first), (21, second), (23, third)]),
        first: Node(px, po | 1 << 19, jobs=1, nodes=500, pn=40, dn=3),
        second: Node(px, po | 1 << 21, pn=50, dn=3),
        third: Node(px, po | 1 << 23, value=1, jobs=1, nodes=80),  # no fragment: no move known
    }
    assert tree.hints(first, tree.values()) == ()
    assert tree.paying_depths() == set()  # one leaf searched: too few to say
    assert tree.waiting(set(), tree.values()) == set()
    # As before: it runs again at once, after its turn given to the second (ABREAST).
    assert tree.continuing(set(), tree.values()) == [second, first]
    monkeypatch.setattr(runs, "BARREN_SEARCHED", 1)
    values = tree.values()
    assert tree.paying_depths() == {4}
    assert tree.waiting(set(), values) == {first}
    assert tree.continuing(set(), values) == []
    assert tree.select(set(), 1, values) == [second]  # the numbers alone would pick first
    assert tree.waiting({second}, values) == set()  # the sibling is running: nothing to wait for
    assert tree.select({second}, 1, values) == [first]
    # The third's winning move becomes known (its fragment): the first runs with it first.
    fragment = encode_fragment(geometry, "x", px, po | 1 << 23, True, [Entry(px, po | 1 << 23, 13)])
    tree.nodes[third].value = 0
    tree._won.clear()
    tree.settle(third, 1, fragment, 1, status_string(px, po | 1 << 23, geometry.size))
    values = tree.values()
    assert tree.fresh_hints(first, values) == (13,) and tree.waiting(set(), values) == set()
    run = ProofRun(geometry, tmp_path / "p", split(slice_doublings=2))
    job = run._leaf_job(tree, first, None, values)
    assert job is not None and job.hints == (13,) and tree.nodes[first].tried == (13,)
    tree.nodes[first].jobs += 1
    again = run._leaf_job(tree, first, None, values)
    assert again is not None and again.hints == ()  # tried already
    assert tree.waiting(set(), values) == {first}  # nothing new to try: waits again
    kept = Tree.from_dict(geometry, "x", tmp_path, json.loads(json.dumps(tree.to_dict())))
    assert kept.nodes[first].tried == (13,) and kept.waiting(set(), kept.values()) == {first}


def test_a_split_run_tries_the_moves_that_won_siblings_and_says_so(
    six_by_five: ProofResult,
) -> None:
    """The 6x5 run's leaves where X is to move had their siblings' winning moves tried first, some
    of which won (the run's value and certificates are checked above); its status says how many."""
    folder = Path(result_folder(six_by_five))
    status = run_status(folder)
    question = status.questions[0]
    assert question.hinted > 0 and 0 < question.hints_won <= question.hinted
    text = " ".join(" ".join(status.lines()).split())  # any wrapping undone
    assert f"{question.hinted:,} jobs tried first the move that won a sibling" in text


def test_a_job_tries_its_hinted_moves_first_within_a_share_of_its_slice() -> None:
    """A hinted move that wins settles the job (the search that follows finds it proven); one that
    does not costs at most its share of the slice, and the job's value is the one found without
    hints; a hint to a taken cell is not tried."""
    geometry = Geometry.parse("5x5,k=4")
    x, o = 1 << 11 | 1 << 12, 1 << 0 | 1 << 4  # X on 13 makes an open three: it wins
    job = Job(geometry.shape, geometry.k, "x", x, o, max_nodes=200_000, plain_first=False)
    plain = run_job(job)
    assert plain.value == 1 and "hints_tried" not in plain.statistics
    hinted = run_job(replace(job, hints=(13,)))
    assert hinted.value == 1 and hinted.statistics["hints_won"] == 1
    assert hinted.statistics["hints_tried"] == 1 and hinted.fragment is not None
    _, lines = decode_fragment(hinted.fragment)
    assert next(lines) == {"position": status_string(x, o, geometry.size), "move": 13}
    square = Geometry.parse("4x4")  # a draw: no move of X wins
    x, o = 1 << 5, 1 << 10
    job = Job(square.shape, square.k, "x", x, o, max_nodes=20_000, plain_first=False)
    plain = run_job(job)
    bad = run_job(replace(job, hints=(5, 0)))
    assert plain.value == bad.value == -1
    assert bad.statistics["hints_tried"] == 1 and bad.statistics["hints_won"] == 0
    assert 0 < bad.statistics["hint_positions"] <= 20_000 * workers.HINT_SHARE
    assert bad.nodes <= 20_000


def test_kept_tables_go_the_oldest_first_when_the_disk_runs_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Below FREE_DISK_BYTES free on the folder's disk, kept tables go, leaves' too, the least
    recently written first, until that much is free again; a running job's table stays. Not while
    they hold less than GUARD_FROM_BYTES in all (deleting them would free nothing that matters)."""
    run, tree, tables = _kept_tables(tmp_path, split_first=1)
    run.running = {0: ("x", list(tables)[1], 0.0)}
    monkeypatch.setattr(runs, "FREE_DISK_BYTES", 1_000)
    monkeypatch.setattr(runs, "_free_bytes", lambda folder: 0)
    run._tidy_tables(tree, tree.relevant(tree.values()))
    assert all(table.exists() for table in tables.values())  # 400 bytes: too few to matter
    monkeypatch.setattr(runs, "GUARD_FROM_BYTES", 200)
    monkeypatch.setattr(runs, "_free_bytes", lambda folder: 1_000)
    run._tidy_tables(tree, tree.relevant(tree.values()))
    assert all(table.exists() for table in tables.values())  # room enough: all stay
    monkeypatch.setattr(runs, "_free_bytes", lambda folder: 850)  # two tables short of it
    run._tidy_tables(tree, tree.relevant(tree.values()))
    assert [table.exists() for table in tables.values()] == [False, True, False, True]
    run.running = {}
    monkeypatch.setattr(runs, "_free_bytes", lambda folder: 0)
    run._tidy_tables(tree, tree.relevant(tree.values()))
    assert not any(table.exists() for table in tables.values())


def test_no_estimate_before_a_job_has_settled_its_position(tmp_path: Path) -> None:
    """A run whose every job split (Score Four's so far) gives no time at the mean cost of a
    job, which would say nothing of what settling one costs; it says why, in words and JSON.
    Once a job has settled its position, the mean cost is the estimate again."""
    assert job_estimates(971, 28, 300.0, 94, 1, 0) == (None, None)
    fewest, every = job_estimates(971, 28, 300.0, 94, 1, 3)
    assert fewest == pytest.approx(28 * 300 / 94) and every == pytest.approx(971 * 300 / 94)
    assert job_estimates(971, 28, 300.0, 94, 2, 3)[1] == pytest.approx(every / 2)
    assert job_estimates(0, 0, 300.0, 94, 1, 3) == (None, None)  # nothing open
    folder = tmp_path / "p"
    prove_board(Geometry.parse("4x5,k=4"), seconds=None, proof_dir=folder, run=split())
    status = run_status(folder)
    question = replace(status.questions[0], value=0, settled_jobs=0, jobs=94)
    open_run = replace(status, questions=(question,), value=None, estimate=None)
    assert (
        "estimate: none yet: none of the 94 jobs run has settled its position (each split into "
        "more), so the cost of settling one is not known" in " ".join(open_run.lines())
    )
    assert open_run.to_dict()["estimate_seconds"] is None
    fresh = replace(open_run, questions=(replace(question, jobs=0),))
    assert "estimate: none yet: no job has run" in fresh.lines()
    timed = replace(
        open_run, questions=(replace(question, settled_jobs=3),), estimate=40.0, workers=1
    )
    assert any(
        line.startswith("estimate: at least 40 s more on 1 worker (") for line in timed.lines()
    )
