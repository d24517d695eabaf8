"""``oxo count BOARD --gravity``: positions per ply of gravity boards on the command line, against the
library's count (which test_gravity holds to a walk of every game) and the published Connect Four
figures; estimates, limits and bad input."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable

import pytest
from click.testing import CliRunner

from oxo.cli import main
from oxo.cli.core import count
from oxo.gravity import counting
from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.counting import count_positions, estimate_plies, position_bounds
from oxo.gravity.reference import mirror_classes_per_ply, positions_per_ply
from test_gravity import A212693

SMALL = ["4x4,k=3", "4x4,k=4", "5x4,k=4"]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def invoke(*args: str) -> dict:
    """``oxo count ... --json`` through click's runner: the one board's JSON."""
    result = CliRunner().invoke(count, [*args, "--json", "--quiet"])
    assert result.exit_code == 0, result.output
    boards = json.loads(result.stdout)["boards"]
    assert len(boards) == 1
    return boards[0]


def table_rows(text: str) -> dict[str, list[int]]:
    """The rows of a count table by their first word (a ply or ``total``), numbers read back."""
    rows = {}
    for line in text.splitlines():
        words = line.split()
        if words and words[0] == "total":  # "total (plies 0-N)"
            assert words[1] == "(plies" and words[2].startswith("0-"), line
            rows["total"] = [int(word.replace(",", "")) for word in words[3:]]
        elif words and words[0].isdigit():
            rows[words[0]] = [int(word.replace(",", "")) for word in words[1:]]
    return rows


# -- the counts -----------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", SMALL)
def test_cli_counts_equal_the_library(spec: str) -> None:
    board = GravityBoard.parse(spec)
    expected = count_positions(board)
    shape, k = spec.split(",k=")
    for args in ([shape, "--k", k, "--gravity"], [f"{spec},gravity"]):
        data = invoke(*args)
        assert [row["positions"] for row in data["plies"]] == list(expected.positions)
        assert [row["classes"] for row in data["plies"]] == list(expected.classes)
        assert [row["finished"] for row in data["plies"]] == list(expected.finished)
        assert data["total"]["positions"] == expected.total and data["complete"] is True


# The command line prints the library's count (above), and the library's count of positions and
# mirror classes equals a walk of every game on these boards and more (test_gravity.py's
# test_counts_match_a_walk_of_every_game*): one walk a board, not one a file.


@pytest.mark.parametrize("spec", ["2x3,k=2", "3x5,k=3", "1x5,k=2", "3x1,k=1"])
def test_mirror_classes_equal_a_walk_of_every_game(spec: str) -> None:
    board = GravityBoard.parse(spec)
    counts = count_positions(board)
    assert list(counts.classes) == mirror_classes_per_ply(board)  # one walk gives both
    assert list(counts.positions) == positions_per_ply(board)


def test_tall_columns_are_read_without_a_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Columns of more than 15 rows read their heights with shifts: the same counts as the table."""
    boards = [GravityBoard.parse(spec) for spec in ("4x4,k=3", "3x5,k=3")]
    with_table = [count_positions(board) for board in boards]
    monkeypatch.setattr(counting, "_TABLE_STRIDE", 0)
    assert [count_positions(board) for board in boards] == with_table
    tall = GravityBoard.parse("20x3,k=3")  # 21 bits a column
    layer, walked = {GravityState(tall)}, [1]
    for _ in range(7):
        layer = {
            state.play(col) for state in layer if not state.is_over for col in state.legal_moves
        }
        walked.append(len(layer))
    assert list(count_positions(tall, max_ply=7).positions) == walked


def test_connect_four_first_plies_are_the_published_figures() -> None:
    data = invoke("6x7", "--k", "4", "--gravity", "--plies", "8")
    assert [row["positions"] for row in data["plies"]] == list(A212693[:9])
    assert data["complete"] is False and data["board"] == "6x7" and data["k"] == 4


def test_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    result = CliRunner().invoke(count, ["6x7,k=4,gravity", "--plies", "8", "--quiet"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["ply", "6x7,k=4,gravity", "positions", "6x7,k=4,gravity", "classes"]
    rows = table_rows(result.stdout)
    assert [rows[str(ply)][0] for ply in range(9)] == list(A212693[:9])
    assert rows["total"][0] == sum(A212693[:9]) and "261,234" in result.stdout  # separators
    assert "classes are up to the left-right mirror" in result.stdout
    assert "counted up to ply 8 of 42" in result.stdout and "--plies" in result.stdout
    # A classic board and a gravity board side by side, as in the classic count.
    code, out, _ = run(capsys, "count", "3x3", "4x4,k=3,gravity", "--quiet")
    rows = table_rows(out)
    assert code == 0 and rows["total"] == [5478, 765, 41750, 20890] and rows["16"] == [42, 22]
    assert "counted up to" not in out


def test_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", "3x3", "4x4", "--k", "3", "--gravity", "--json", "-q")
    assert code == 0 and all(board["gravity"] for board in json.loads(out)["boards"])
    code, out, _ = run(capsys, "count", "3x3", "4x4,k=3,gravity", "--json", "--quiet")
    classic, gravity = json.loads(out)["boards"]
    assert code == 0 and "gravity" not in classic and gravity["gravity"] is True
    assert set(gravity) >= set(classic) and gravity["classes_up_to"] == "left-right mirror"
    assert gravity["board"] == "4x4" and gravity["k"] == 3 and gravity["method"] == "gravity"
    assert gravity["plies"][5] == {"ply": 5, "positions": 436, "classes": 218, "finished": 44}
    assert gravity["total"] == {"positions": 41750, "classes": 20890, "finished": 17820}
    data = invoke("4x4", "--k", "3", "--gravity", "--plies", "0")
    assert data["plies"] == [{"ply": 0, "positions": 1, "classes": 1, "finished": 0}]
    assert data["complete"] is False and data["total"]["positions"] == 1


# -- limits ---------------------------------------------------------------------------------------


def test_estimates_are_upper_bounds() -> None:
    for spec, last in (("6x7,k=4", 9), ("5x4,k=4", None), ("4x4,k=3", None)):
        board = GravityBoard.parse(spec)
        counted = count_positions(board, last).positions
        bounds = position_bounds(board, len(counted) - 1)
        assert all(n <= bound for n, bound in zip(counted, bounds, strict=True)), spec
    plies = estimate_plies(GravityBoard(6, 7, 4), 14)
    assert [p.ply for p in plies] == list(range(1, 15))
    assert all(a.seconds < b.seconds and a.memory < b.memory for a, b in zip(plies, plies[1:]))


def test_big_boards_need_plies(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "count", "6x7", "--k", "4", "--gravity")
    assert code == 3 and out == "" and err.count("\n") == 1
    assert "42 cells" in err and "--plies" in err and re.search(r"--plies \d+ takes", err)
    code, out, err = run(capsys, "count", "5x5,k=4,gravity", "--json")
    assert code == 3 and json.loads(out)["code"] == 3 and "--plies" in json.loads(out)["error"]


def test_long_counts_ask_first_and_memory_is_a_limit(capsys: pytest.CaptureFixture[str]) -> None:
    # (--memory given: the default, half the memory free, is under the 4.2 GiB the count needs
    # on a machine busy with other work, and the count would be refused for it instead)
    code, out, err = run(
        capsys, "count", "6x7", "--k", "4", "--gravity", "--plies", "14", "--memory", "8G"
    )
    assert code == 3 and out == "" and "--yes" in err and "ply 14: at most" in err
    code, out, err = run(capsys, "count", "6x7,k=4,gravity", "--plies", "14", "--memory", "1G")
    assert code == 3 and "more than the limit of 1.0 GiB" in err and err.count("\n") == 1
    code, out, err = run(capsys, "count", "20x4,k=4,gravity", "--plies", "3", "--json")
    assert code == 3 and "63" in json.loads(out)["error"]


def score_four_counts(last: int) -> list[int]:
    from oxo.counting.drops import count_positions as count_drops
    from oxo.geometry import Geometry

    return list(count_drops(Geometry.parse("4x4x4,gravity"), last).positions)


@pytest.mark.parametrize(
    ("module", "board", "memory", "expected"),
    [
        ("oxo.gravity.counting", "6x7,k=4,gravity", "200M", lambda ply: list(A212693[: ply + 1])),
        ("oxo.counting.drops", "scorefour", "300M", score_four_counts),
    ],
)
def test_a_count_stopped_by_the_memory_limit_says_how_far_it_got(
    module: str, board: str, memory: str, expected: Callable[[int], list[int]]
) -> None:
    """The estimate let through (patched to nothing), the guard stops the count past --memory:
    the plies it finished are printed first (issue 30, item 8), then one line on stderr; Connect
    Four by the plane's count, Score Four by the count of boxes with gravity (which had no guard
    until 2026-12-04)."""
    script = (
        "import sys\n"
        f"import {module} as counting\n"
        "from oxo.counting.budget import Estimate\n"
        "from oxo.cli import main\n"
        "counting.estimate_count = lambda board, last=None: Estimate(1.0, 0)\n"
        f"sys.exit(main(['count', '{board}', '--plies', '13', '--memory', '{memory}', '-q']))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 3 and "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1 and "--memory" in done.stderr
    found = re.search(r"counted up to ply (\d+) \(([\d,]+) positions at that ply\)", done.stderr)
    assert found is not None
    ply = int(found.group(1))
    counts = expected(ply)
    assert 0 < ply < 13 and int(found.group(2).replace(",", "")) == counts[ply]
    rows = [line.split() for line in done.stdout.splitlines() if line.split()[:1] != ["ply"]]
    table = [int(row[1].replace(",", "")) for row in rows if row and row[0].isdigit()]
    assert table == counts, done.stdout
    assert f"stopped after ply {ply}" in " ".join(done.stdout.split())


# -- bad input ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["4x,gravity"], "not a gravity board"),
        (["6x7", "--gravity", "--k", "9"], "k must be between 1 and the longest side"),
        (["6x7,k=0,gravity"], "k must be between"),
        (["4x4", "--gravity", "--method", "lines"], "--method does not apply to gravity boards"),
        (["4x4", "--gravity", "--folder", "x", "--workers", "2"], "--workers, --folder do not"),
        (["4x4", "--gravity", "--plies", "-1"], "--plies"),
        (["4x4", "--gravity", "--memory", "lots"], "lots"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    code, out, err = run(capsys, "count", *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("oxo: error: ") and words in err
    code, out, err = run(capsys, "count", *args, "--json")
    assert code == 2 and json.loads(out)["code"] == 2 and words in json.loads(out)["error"]
