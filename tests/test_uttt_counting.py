"""Positions per ply of ultimate tic-tac-toe: the compiled walk over classes against a plain walk of
every position with the rules, and the symmetries it relies on against the rules themselves."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oxo.cli import main
from oxo.counting.budget import MemoryLimitError, MiB
from oxo.counting.frontier import FrontierError, FrontierPly, completed_plies
from oxo.uttt import counting, diskcount
from oxo.uttt.counting import (
    children_of,
    count_positions,
    key_of,
    least_image_of,
    reference_counts,
)
from oxo.uttt.diskcount import count_on_disk
from oxo.uttt.rules import UtttState


def random_state(seed: int, plies: int) -> UtttState:
    """The position after up to ``plies`` random moves (fewer when the game ends first)."""
    rng = random.Random(seed)
    state = UtttState()
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves))
    return state


def image_record(state: UtttState, perm: list[int]) -> UtttState:
    """The game of ``state`` with every move carried by the cell permutation ``perm`` (applied to
    the grid and to the cell alike)."""
    image = UtttState()
    for move in state.moves:
        g, c = divmod(move, 9)
        image = image.play(9 * perm[g] + perm[c])
    return image


def as_rules_key(words: tuple[int, int, int]) -> tuple[tuple[int, int], int]:
    """A walk key (three words) read back as the rules' state key."""
    x = o = 0
    for g in range(9):
        bits = (words[g // 3] >> (18 * (g % 3))) & 0x3FFFF
        x |= (bits & 511) << (9 * g)
        o |= (bits >> 9) << (9 * g)
    return (x, o), ((words[2] >> 54) & 15) - 1


def rules_key(state: UtttState) -> tuple[tuple[int, int], int]:
    """A position as the walk sees it: the marks and the grid to play in (-1: any, or game over)."""
    return (state.x_marks, state.o_marks), -1 if state.target is None else state.target


PERMS = counting._PERM.tolist()


def test_the_walk_matches_a_plain_walk_of_every_position() -> None:
    # to ply 3 (half a second); ply 4's 54,828 positions (the plain walk: 5 s) are checked with
    # ply 5 by the slow test below, which compares every ply up to its last
    fast = count_positions(3)
    positions, classes, finished = reference_counts(3)
    assert fast.positions == positions
    assert fast.classes == classes
    assert fast.finished == finished
    # Ply 1: the 81 cells fall into 15 classes (Burnside: (81 + 1 + 1 + 1 + 4 * 9) / 8).
    assert fast.classes[1] == (81 + 3 + 4 * 9) // 8


@pytest.mark.slow
def test_the_walk_matches_a_plain_walk_to_ply_five() -> None:
    fast = count_positions(5)
    assert (fast.positions, fast.classes, fast.finished) == reference_counts(5)


@given(st.integers(0, 10**6), st.integers(0, 81), st.integers(0, 7))
@settings(max_examples=60, deadline=None)
def test_a_symmetry_carries_games_to_games(seed: int, plies: int, t: int) -> None:
    """Carrying every move of a game by one symmetry (grid and cell alike) gives a legal game whose
    position is the image of the first one: the classes the walk counts are sound."""
    state = random_state(seed, plies)
    perm = PERMS[t]
    image = image_record(state, perm)
    assert image.outcome == state.outcome
    assert sorted(image.legal_moves) == sorted(
        9 * perm[m // 9] + perm[m % 9] for m in state.legal_moves
    )
    assert least_image_of(image) == least_image_of(state)


@given(st.integers(0, 10**6), st.integers(0, 70))
@settings(max_examples=60, deadline=None)
def test_the_compiled_step_follows_the_rules(seed: int, plies: int) -> None:
    """The compiled step's children of a position (with won and full grids, and free moves) are the
    least images of the rules' children, each an image of it, in the order of the legal moves."""
    state = random_state(seed, plies)
    if state.is_over:
        assert children_of(state) == [] or not state.legal_moves
        return
    rows = children_of(state)
    assert len(rows) == len(state.legal_moves)
    for row, move in zip(rows, state.legal_moves, strict=True):
        child = state.play(move)
        assert row == least_image_of(child)[0]
        images = {rules_key(image_record(child, perm)) for perm in PERMS}
        assert as_rules_key(row) in images
        # The count of symmetries fixing the child is the number of images equal to it.
        fixed = sum(rules_key(image_record(child, perm)) == rules_key(child) for perm in PERMS)
        assert least_image_of(child)[1] == fixed


def test_finished_positions_are_seen_and_class_sizes_add_up() -> None:
    finished = [random_state(seed, 81) for seed in range(40)]
    keys = np.array([least_image_of(state)[0] for state in finished], dtype=np.int64)
    sizes = np.empty(len(finished), dtype=np.int64)
    over = np.empty(len(finished), dtype=np.bool_)
    counting._describe(keys, sizes, over)
    assert over.all()
    for state, size in zip(finished, sizes, strict=True):
        assert size == len({rules_key(image_record(state, perm)) for perm in PERMS})
    playing = random_state(3, 20)
    keys = key_of(playing).reshape(1, 3)
    counting._describe(keys, sizes[:1], over[:1])
    assert not over[0]


def test_a_ply_that_would_not_fit_stops_before_it_starts_and_says_what_was_counted() -> None:
    with pytest.raises(MemoryLimitError, match=r"counted up to ply 5 \(465,192 positions"):
        # Ply 5 has 58,282 classes with about nine moves each; room for two moves each is too little.
        count_positions(8, memory=counting.BASE_MEMORY + 2 * counting.BYTES_PER_MOVE * 58282)
    assert count_positions(3, memory=256 * MiB).positions[-1] == 6336


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main([*args, "--quiet"])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cli_counts_uttt_and_names_its_symmetries(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", "uttt", "--plies", "4", "--json")
    assert code == 0, out
    (table,) = json.loads(out)["boards"]
    fast = count_positions(4)
    assert [row["positions"] for row in table["plies"]] == list(fast.positions)
    assert [row["classes"] for row in table["plies"]] == list(fast.classes)
    assert table["total"]["positions"] == fast.total and table["complete"] is False
    code, out, _ = run(capsys, "count", "uttt", "--plies", "2")
    assert code == 0 and "uttt classes" in out and "rotations and reflections" in out


@pytest.mark.parametrize(
    ("args", "code", "words"),
    [
        (["count", "uttt"], 3, "give --plies N"),
        (["count", "uttt", "--k", "3", "--plies", "2"], 2, "neither --k nor --gravity"),
        (["count", "connect4", "--k", "5", "--plies", "2"], 2, "6x7,k=5,gravity"),
        (["count", "uttt", "--plies", "2", "--method", "pairs"], 2, "gravity boards or uttt"),
    ],
)
def test_cli_refusals_are_one_line_with_the_right_status(
    capsys: pytest.CaptureFixture[str], args: list[str], code: int, words: str
) -> None:
    got, out, err = run(capsys, *args)
    assert got == code and out == ""
    assert words in err and err.count("\n") == 1 and "Traceback" not in err


def test_cli_connect4_is_the_gravity_board(capsys: pytest.CaptureFixture[str]) -> None:
    named = run(capsys, "count", "connect4", "--plies", "4", "--json")
    spelled = run(capsys, "count", "6x7", "--k", "4", "--gravity", "--plies", "4", "--json")
    assert named[0] == 0 and named == spelled


def test_the_table_in_the_docs_is_the_count() -> None:
    text = (Path(__file__).resolve().parents[1] / "docs" / "uttt.md").read_text()
    rows = re.findall(r"^\s+(\d+)\s+([\d,]+)\s+([\d,]+)$", text, flags=re.MULTILINE)
    table = {int(ply): (int(p.replace(",", "")), int(c.replace(",", ""))) for ply, p, c in rows}
    assert set(range(9)) <= set(table)
    fast = count_positions(6)
    for ply in range(7):
        assert table[ply] == (fast.positions[ply], fast.classes[ply])


@pytest.mark.slow
def test_cli_counts_on_disk_when_memory_is_short(tmp_path: Path) -> None:
    """In its own process (the memory guard watches the whole process tree): ply 6 would need
    about 238 MiB in memory (the interpreter's 200 and 80 bytes for each of ply 5's 495,738
    moves), more than 235 MiB, so the count goes to disk, says where, and gives the same plies.
    (The process stays under 190 MiB here; ply 7 with 450 MiB cost four times the work.)"""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from oxo.cli import main; sys.exit(main(sys.argv[1:]))",
            *("count", "uttt", "--plies", "6", "--memory", "235M", "--json"),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(Path(counting.__file__).parents[2])},
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "counting on disk instead" in " ".join(done.stderr.split())  # broken at 80 columns
    where = tmp_path / "oxo-count-uttt"
    assert (
        str(where) in done.stderr.replace("\n", " ") and (where / "ply-006" / "done.json").exists()
    )
    (table,) = json.loads(done.stdout)["boards"]
    fast = count_positions(6)
    assert [row["positions"] for row in table["plies"]] == list(fast.positions)
    assert [row["classes"] for row in table["plies"]] == list(fast.classes)


# -- the count on disk ------------------------------------------------------------------------------


def test_the_disk_count_matches_the_walk_and_the_plain_walk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Forced into several buckets, and (with a tiny memory limit, a small least chunk and small
    blocks of parents) into several chunks a ply: the same figures as the walk in memory (which the
    tests above hold to the plain walk to ply 4) and the plain walk of every position."""
    plain = reference_counts(3)
    fast = count_positions(5)
    forced = count_on_disk(5, tmp_path / "buckets", buckets=7)
    assert forced == fast
    assert (forced.positions[:4], forced.classes[:4], forced.finished[:4]) == plain
    monkeypatch.setattr(diskcount, "BLOCK", 64)
    monkeypatch.setattr(diskcount, "FLOOR", MiB)
    seen: list[FrontierPly] = []
    tiny = count_on_disk(5, tmp_path / "tiny", memory=1, on_ply=seen.append)
    assert tiny == fast
    assert [row.ply for row in seen] == list(range(6))
    # Ply 5 has more moves than fit in the smallest chunk: several chunks and buckets were used.
    assert seen[-1].shards > 1
    kept = sorted(
        p.relative_to(tmp_path / "tiny").as_posix() for p in (tmp_path / "tiny").rglob("*.npy")
    )
    assert kept and all(name.startswith("ply-005/bucket-") for name in kept)
    stored = np.concatenate([np.load(tmp_path / "tiny" / name) for name in kept])
    assert stored.shape[0] == fast.classes[5]  # no finished class before ply 17: all are kept
    assert len(np.unique(stored, axis=0)) == stored.shape[0]


def test_the_disk_count_continues_a_stopped_count(tmp_path: Path) -> None:
    """Stopped after ply 3 (as Ctrl-C would), with a half-written ply 4 left behind, the same
    command continues from ply 3 and gives the figures of the walk in memory."""

    def stop_at_three(row: FrontierPly) -> None:
        if row.ply == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        count_on_disk(5, tmp_path, buckets=2, on_ply=stop_at_three)
    assert [row.ply for row in completed_plies(tmp_path)] == [0, 1, 2, 3]
    half = tmp_path / "ply-004"
    half.mkdir()
    np.save(half / "spill-0000-00000.npy", np.ones((5, 3), dtype=np.int64))
    heard: list[int] = []
    again = count_on_disk(5, tmp_path, buckets=3, on_ply=lambda row: heard.append(row.ply))
    assert again == count_positions(5)
    assert heard == list(range(6))
    # Asked again for fewer plies, the finished ones are read back.
    assert count_on_disk(2, tmp_path) == count_positions(2)


def test_the_disk_count_refuses_another_count_s_folder(tmp_path: Path) -> None:
    (tmp_path / "count.json").write_text(json.dumps({"board": "4x4x4", "k": 4}))
    with pytest.raises(FrontierError, match="another folder"):
        count_on_disk(2, tmp_path)


def test_buckets_spread_keys_and_keep_each_key_in_one_place() -> None:
    rows = np.array([least_image_of(random_state(seed, 12))[0] for seed in range(400)])
    first = diskcount.buckets_of(rows, 5)
    assert first.min() >= 0 and first.max() < 5 and len(set(first.tolist())) == 5
    assert (diskcount.buckets_of(rows.copy(), 5) == first).all()


def test_cli_counts_on_disk_in_the_folder_given(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "count", "uttt", "--plies", "4", "--folder", str(tmp_path), "--json")
    assert code == 0
    (table,) = json.loads(out)["boards"]
    assert [row["positions"] for row in table["plies"]] == list(count_positions(4).positions)
    assert (tmp_path / "ply-004" / "done.json").exists()


# -- a long count on disk asks first ------------------------------------------------------------------


def test_the_plies_ahead_are_predicted_from_the_last_one() -> None:
    """From the last ply's time per parent class and the growth of the classes (both measured):
    each ply ahead grows from the classes of the one before."""
    from oxo.cli import core
    from oxo.counting import PlyCount

    rows = [PlyCount(6, 0, 500_000), PlyCount(7, 0, 4_000_000)]  # growth 8
    with pytest.raises(core._LongPliesAhead) as stop:
        core._ask_before_long_plies(rows, took=20.0, last=9, limit=MiB)
    ahead = stop.value
    per_parent = 20.0 / 500_000
    expected = [per_parent * 4_000_000 * 8**step for step in range(3)]  # plies 8, 9, 10's parents
    assert ahead.first == 8 and len(ahead.details) == 2
    assert ahead.estimate.seconds == pytest.approx(sum(expected[:2]))
    assert ahead.estimate.disk == int(
        core.UTTT_ROW_BYTES * (1.2 * 4_000_000 * 8**2 + 4_000_000 * 8)
    )
    # too few classes behind the last ply to tell its fixed costs from its work: no prediction
    core._ask_before_long_plies([PlyCount(3, 0, 822), PlyCount(4, 0, 6_920)], 20.0, 9)
    # a quick ply ahead: no question
    core._ask_before_long_plies(rows, took=0.001, last=8)


def test_a_long_count_on_disk_asks_first_and_shows_what_it_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """'oxo count uttt --plies 10' went on for hours without an estimate. Here (the thresholds
    lowered so that plies 5 and 6 count as long) the count stops before them, prints plies 0-4,
    says what is ahead and that --yes starts it; --yes then goes on from the folder."""
    from oxo.cli import core, limits

    monkeypatch.setattr(core, "PREDICT_FROM_CLASSES", 100)
    monkeypatch.setattr(core, "ASK_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(limits, "ASK_AFTER_SECONDS", 0.0)
    folder = str(tmp_path / "u")
    assert main(["count", "uttt", "--plies", "6", "--folder", folder, "--json", "-q"]) == 3
    captured = capsys.readouterr()
    # on stdout: the plies counted, then the error (as every error under --json)
    stopped, end = json.JSONDecoder().raw_decode(captured.out)
    assert json.loads(captured.out[end:])["code"] == 3
    plies = stopped["boards"][0]["plies"]
    fast = count_positions(6)
    assert stopped["boards"][0]["complete"] is False and len(plies) == 4  # 0-3: ply 3 grew from 102
    assert [row["classes"] for row in plies] == list(fast.classes[:4])
    assert "--yes" in captured.err and "uttt on disk from ply 4 to ply 6" in captured.err
    assert main(["count", "uttt", "--plies", "6", "--folder", folder, "--json", "-q", "--yes"]) == 0
    (table,) = json.loads(capsys.readouterr().out)["boards"]
    assert [row["classes"] for row in table["plies"]] == list(fast.classes)
