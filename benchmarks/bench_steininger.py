"""Connect Four on wider boards: oxo's exact solver side by side with Christophe Steininger's.

Run:  python benchmarks/bench_steininger.py --c4 DIR                      (8 x 4 and 9 x 4)
      python benchmarks/bench_steininger.py --c4 DIR --sizes 8x4,9x4,10x4  (10 x 4: minutes more)

Steininger's solver is not part of oxo and is not shipped with it. Get its source from
<https://github.com/ChristopheSteininger/c4> (``git clone``) and give the checkout as ``--c4 DIR``.
His solver takes the board's size from ``src/solver/settings.h`` at compile time, so the benchmark
copies the checkout into a temporary folder once per size, sets ``BOARD_WIDTH`` and
``BOARD_HEIGHT`` there, ``NUM_THREADS`` to 1 (one core, as oxo's solver uses) and leaves his table
of 134,217,757 entries (1 GiB), then builds his ``c4`` program with CMake (his "optimise" preset:
a Release build) and runs it. It solves the empty board strongly (the value and the move on which
the game ends) and prints its node count.

oxo's side is ``oxo solve ROWSxCOLS --k 4 --gravity`` as a library call, in a fresh process
(its default table for the board: 32 MiB up to 42 cells, 1 GiB beyond). Sizes are written as
Steininger writes them, **width x height** (columns x rows): his 10x4 is oxo's
``4x10,k=4,gravity``.

For each size the table gives both solvers' value and ending ply (they must be equal, otherwise
the exit status is 1), processor seconds of the search (oxo's without the compilation its first
call costs; his process's whole processor time), positions searched, peak memory, and the ratio
of oxo's processor time to his. Below it: how much each solver's time grows from one width to the
next, and what that growth would make of 13 x 4, the first 4-high board without a published value.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _measure import commit, machine, measure  # noqa: E402

#: oxo's side, in a fresh process: the solve of the empty board, timed without numba's compilation.
OXO_SOLVE = """
import time
board = GravityBoard({rows}, {cols}, 4)
solver = GravitySolver(board, default_table_words(board))
started = time.process_time()
value = solver.solve(GravityState(board))
result = {{"outcome": value.outcome, "end_ply": value.end_ply, "nodes": solver.nodes,
           "cpu": time.process_time() - started, "table_words": int(solver.table.shape[0])}}
"""

OXO_SETUP = """
from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.solver import GravitySolver, default_table_words
GravitySolver(GravityBoard(4, 4, 4), 1 << 12).solve(GravityState(GravityBoard(4, 4, 4)))  # compile
"""

#: His program's answer: "Final strong score is S (first player will win on move #N)." (or draw).
SCORE = re.compile(
    r"Final strong score is (-?\d+) \((?:(first|second) player will win on move #(\d+)|draw)\)"
)
TOTAL = re.compile(r"Total\s*=\s*([\d,.' ]+)")


def parse_sizes(text: str) -> list[tuple[int, int]]:
    """``"8x4,9x4"`` (width x height) as pairs."""
    sizes = []
    for word in text.split(","):
        width, _, height = word.strip().lower().partition("x")
        if not (width.isdigit() and height.isdigit()):
            raise SystemExit(f"bench_steininger: {word!r} is not WIDTHxHEIGHT (such as 9x4)")
        sizes.append((int(width), int(height)))
    return sizes


def build(checkout: Path, folder: Path, width: int, height: int) -> Path:
    """His ``c4`` built for ``width`` x ``height`` with one thread, in ``folder``; its path."""
    settings = checkout / "src" / "solver" / "settings.h"
    if not settings.is_file() or not (checkout / "CMakePresets.json").is_file():
        raise SystemExit(
            f"bench_steininger: {checkout} is not a checkout of "
            "https://github.com/ChristopheSteininger/c4 (no src/solver/settings.h)"
        )
    for tool in ("cmake", "ninja", "g++"):
        if shutil.which(tool) is None:
            raise SystemExit(f"bench_steininger: {tool} is needed to build Steininger's solver")
    source = folder / "c4"
    shutil.copytree(checkout, source, ignore=shutil.ignore_patterns(".git", "out"))
    text = (source / "src" / "solver" / "settings.h").read_text()
    for name, value in (("BOARD_WIDTH", width), ("BOARD_HEIGHT", height), ("NUM_THREADS", 1)):
        text, count = re.subn(rf"({name} = )\d+;", rf"\g<1>{value};", text)
        if count != 1:
            raise SystemExit(f"bench_steininger: {name} not found in his settings.h")
    (source / "src" / "solver" / "settings.h").write_text(text)
    for step in (
        ["cmake", "--preset", "optimise"],
        ["cmake", "--build", "--preset", "optimise", "--target", "c4"],
    ):
        done = subprocess.run(step, cwd=source, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(
                f"bench_steininger: {' '.join(step)} failed:\n{done.stdout}{done.stderr}"
            )
    return source / "out" / "optimise" / "c4"


def run_theirs(binary: Path, cells: int) -> dict[str, object]:
    """Run his program (it waits for a line at the end): value, nodes, processor time, peak."""
    output = Path(binary.parent / "answer.txt")
    with open(output, "w") as out:
        started = time.perf_counter()
        process = subprocess.Popen(
            [str(binary)], stdin=subprocess.PIPE, stdout=out, cwd=binary.parent
        )
        assert process.stdin is not None
        process.stdin.write(b"\n")
        process.stdin.close()
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"bench_steininger: his solver failed with status {status}")
    text = output.read_text()
    found, total = SCORE.search(text), TOTAL.search(text)
    if found is None or total is None:
        raise SystemExit(f"bench_steininger: could not read his answer:\n{text[-2000:]}")
    score, side, move = found.groups()
    outcome = "draw" if side is None else "x" if side == "first" else "o"
    return {
        "outcome": outcome,
        "end_ply": cells if move is None else int(move),  # a draw ends on the full board
        "nodes": int(re.sub(r"\D", "", total.group(1))),
        "cpu": usage.ru_utime + usage.ru_stime,
        "wall": wall,
        "peak_mib": usage.ru_maxrss / 1024,
    }


def run_ours(width: int, height: int) -> dict[str, object]:
    report = measure(
        OXO_SOLVE.format(rows=height, cols=width), setup=OXO_SETUP, label=f"{width}x{height}"
    )
    result = dict(report["result"])  # type: ignore[call-overload]
    result["peak_mib"] = report["peak_mib"]
    result["wall"] = report["seconds"]
    return result


def value_text(record: dict[str, object]) -> str:
    if record["outcome"] == "draw":
        return "draw"
    who = "first" if record["outcome"] == "x" else "second"
    return f"{who} wins, ply {record['end_ply']}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--c4", type=Path, required=True, help="a checkout of ChristopheSteininger/c4"
    )
    parser.add_argument("--sizes", default="8x4,9x4", help="WIDTHxHEIGHT,... (default 8x4,9x4)")
    args = parser.parse_args()
    sizes = parse_sizes(args.sizes)
    print(f"machine: {machine()}; commit {commit()}")
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for width, height in sizes:
            place = Path(folder) / f"{width}x{height}"
            place.mkdir()
            binary = build(args.c4.resolve(), place, width, height)
            theirs = run_theirs(binary, width * height)
            ours = run_ours(width, height)
            rows.append((width, height, ours, theirs))
            shutil.rmtree(place)
    print()
    print(
        f"{'size':>6} {'value (both)':<22} {'oxo s':>8} {'his s':>8} {'ratio':>6} "
        f"{'oxo positions':>14} {'his positions':>14} {'MiB':>11}"
    )
    disagree = []
    for width, height, ours, theirs in rows:
        same = (ours["outcome"], ours["end_ply"]) == (theirs["outcome"], theirs["end_ply"])
        value = value_text(ours) if same else f"{value_text(ours)} / {value_text(theirs)}"
        if not same:
            disagree.append(f"{width}x{height}")
        ratio = float(ours["cpu"]) / max(float(theirs["cpu"]), 1e-9)
        print(
            f"{f'{width}x{height}':<6} {value:<22} {float(ours['cpu']):8.1f} {float(theirs['cpu']):8.1f} "
            f"{ratio:6.2f} {int(ours['nodes']):14,} {int(theirs['nodes']):14,} "
            f"{float(ours['peak_mib']):5.0f}/{float(theirs['peak_mib']):<5.0f}"
        )
    print("(seconds: processor time of one core; MiB: peak resident memory, oxo/his)")
    pairs = [
        (first, second)
        for first, second in zip(rows, rows[1:])
        if first[1] == second[1] and second[0] == first[0] + 1
    ]
    for (w1, h1, o1, t1), (w2, h2, o2, t2) in pairs:
        grow_ours = float(o2["cpu"]) / max(float(o1["cpu"]), 1e-9)
        grow_theirs = float(t2["cpu"]) / max(float(t1["cpu"]), 1e-9)
        print(
            f"{w1}x{h1} -> {w2}x{h2}: processor time x{grow_ours:.1f} (oxo), x{grow_theirs:.1f} (his)"
        )
    if pairs and pairs[-1][1][1] == 4 and pairs[-1][1][0] < 13:
        (w1, _, o1, t1), (w2, _, o2, t2) = pairs[-1]
        steps = 13 - w2
        for name, before, after in (("oxo", o1, o2), ("his", t1, t2)):
            grow = float(after["cpu"]) / max(float(before["cpu"]), 1e-9)
            days = float(after["cpu"]) * grow**steps / 86400
            print(
                f"  13x4 at the growth of the last step ({name}): about {days:,.1f} days of one core"
            )
    if disagree:
        print(f"values differ on {', '.join(disagree)}")
        raise SystemExit(1)
    print("every value and ending ply equal")


if __name__ == "__main__":
    main()
