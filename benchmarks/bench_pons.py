"""Connect Four: oxo's exact solver side by side with Pascal Pons' public C++ solver.

Run:  python benchmarks/bench_pons.py --pons DIR                 (random positions, a few minutes)
      python benchmarks/bench_pons.py --pons DIR --per-band 50 --seed 7
      python benchmarks/bench_pons.py --pons DIR --empty         (the empty board too: minutes more)

Pons' solver is not part of oxo and is not shipped with it. Get its source from
<https://github.com/PascalPons/connect4> (``git clone``, or the files ``Solver.cpp``,
``Solver.hpp``, ``Position.hpp``, ``TranspositionTable.hpp``, ``MoveSorter.hpp`` and
``OpeningBook.hpp`` in one folder) and give that folder as ``--pons DIR``. The benchmark compiles
his ``Solver.cpp`` with ``g++ -O3`` (his Makefile's flags) into a temporary folder, together with a
small driver of its own (in this file) instead of his ``main.cpp``: the driver reads the same input
(a position a line, as the columns played, 1 to 7), empties his table before each position, as oxo's
is emptied, and writes the score with his node count and the processor seconds of the search. His
opening book is not loaded: both solvers search every position from scratch.

The positions come from random play (``--seed``), ``--per-band`` in each band of plies, games
already over left out. Each is solved exactly by both programs, each in a process of its own (oxo:
a fresh Python process with its default table of 8 M words, 64 MiB; Pons: his table of 2^24
entries, 80 MiB). Every score must be equal (otherwise the positions that differ are printed and
the exit status is 1). The table gives per band the processor seconds (sum over the positions),
the positions searched and the positions per second of each, and the ratio of oxo's processor
time to Pons'; then each program's wall time (its whole process: start-up, compilation and table
clearing included) and peak memory (the process's maximum resident set, from ``wait4``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _measure import commit, machine  # noqa: E402

#: Bands of plies: like Pons' test sets, from the opening to the end of the game.
BANDS = ((6, 9), (10, 13), (14, 20), (21, 27), (28, 41))

#: The files of Pons' solver that the build needs.
SOURCES = (
    "Solver.cpp",
    "Solver.hpp",
    "Position.hpp",
    "TranspositionTable.hpp",
    "MoveSorter.hpp",
    "OpeningBook.hpp",
)

#: Our driver of his solver (replacing his main.cpp): one line in, one line out per position.
DRIVER = r"""
#include <ctime>
#include <iostream>
#include <string>
#include "Solver.hpp"

using GameSolver::Connect4::Position;
using GameSolver::Connect4::Solver;

int main() {
  static Solver solver;  // about 80 MiB: not on the stack
  std::string line;
  while (std::getline(std::cin, line)) {
    Position position;
    if (position.play(line) != line.size()) {
      std::cout << "invalid" << std::endl;
      continue;
    }
    solver.reset();
    std::clock_t started = std::clock();
    int score = solver.solve(position, false);
    double seconds = double(std::clock() - started) / CLOCKS_PER_SEC;
    std::cout << score << " " << solver.getNodeCount() << " " << seconds << std::endl;
  }
  return 0;
}
"""

#: The oxo side, run in a fresh process: the same lines in, the same fields out.
OXO_WORKER = r"""
import sys, time
from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.solver import GravitySolver

board = GravityBoard(6, 7, 4)
solver = GravitySolver(board)
solver.score(GravityState.from_string("3344553344"))  # numba's compilation, outside
for line in sys.stdin:
    moves = line.strip()
    state = GravityState.from_string(moves) if moves else GravityState(board)
    solver.clear()
    before = solver.nodes
    started = time.process_time()
    score = solver.score(state)
    seconds = time.process_time() - started
    print(score, solver.nodes - before, seconds, flush=True)
"""


def random_line(ply: int, rng: random.Random) -> str:
    """The columns (1 to 7) of a random game of ``ply`` moves that is not over."""
    from oxo.gravity.board import GravityBoard, GravityState

    board = GravityBoard(6, 7, 4)
    while True:
        state = GravityState(board)
        moves = []
        for _ in range(ply):
            if state.is_over:
                break
            column = rng.choice(state.legal_moves)
            moves.append(column)
            state = state.play(column)
        if not state.is_over:
            return "".join(str(c + 1) for c in moves)


def build(pons: Path, folder: Path) -> Path:
    """Compile Pons' solver with our driver in ``folder``; the executable's path."""
    missing = [name for name in SOURCES if not (pons / name).is_file()]
    if missing:
        raise SystemExit(
            f"bench_pons: {pons} lacks {', '.join(missing)}: give the folder of a checkout of "
            "https://github.com/PascalPons/connect4"
        )
    compiler = shutil.which("g++")
    if compiler is None:
        raise SystemExit("bench_pons: g++ is needed to build Pons' solver")
    for name in SOURCES:
        shutil.copy(pons / name, folder / name)
    (folder / "driver.cpp").write_text(DRIVER)
    binary = folder / "pons"
    subprocess.run(
        [
            compiler,
            "--std=c++11",
            "-O3",
            "-DNDEBUG",
            "-o",
            str(binary),
            str(folder / "driver.cpp"),
            str(folder / "Solver.cpp"),
        ],
        check=True,
    )
    return binary


def run(
    argv: list[str], lines: list[str], folder: Path, name: str
) -> tuple[list[str], float, float]:
    """Feed ``lines`` to the command; its output lines, wall seconds and peak resident MiB."""
    source = folder / f"{name}.in"
    target = folder / f"{name}.out"
    source.write_text("".join(line + "\n" for line in lines))
    with source.open() as stdin, target.open("w") as stdout:
        started = time.perf_counter()
        process = subprocess.Popen(argv, stdin=stdin, stdout=stdout)
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - started
        process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"bench_pons: {name} failed with exit status {process.returncode}")
    return target.read_text().splitlines(), wall, usage.ru_maxrss / 1024


def parse(output: list[str], name: str, count: int) -> list[tuple[int, int, float]]:
    """(score, nodes, processor seconds) of each position."""
    if len(output) != count or any(line == "invalid" for line in output):
        raise SystemExit(f"bench_pons: {name} answered {len(output)} lines for {count} positions")
    rows = []
    for line in output:
        score, nodes, seconds = line.split()
        rows.append((int(score), int(nodes), float(seconds)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pons", type=Path, required=True, help="folder of Pons' source files")
    parser.add_argument("--per-band", type=int, default=40, help="positions per band of plies")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--empty", action="store_true", help="add the empty board (minutes)")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    bands: list[tuple[str, list[str]]] = []
    for low, high in BANDS:
        lines = [random_line(rng.randint(low, high), rng) for _ in range(args.per_band)]
        bands.append((f"{low}-{high}", lines))
    if args.empty:
        bands.append(("empty board", [""]))
    lines = [line for _, group in bands for line in group]

    print(machine())
    print(f"oxo commit {commit(short=True) or '?'}; {len(lines)} positions, seed {args.seed}")
    with tempfile.TemporaryDirectory(prefix="oxo-pons-") as name:
        folder = Path(name)
        binary = build(args.pons, folder)
        pons_out, pons_wall, pons_peak = run([str(binary)], lines, folder, "pons")
        oxo_out, oxo_wall, oxo_peak = run([sys.executable, "-c", OXO_WORKER], lines, folder, "oxo")
    pons = parse(pons_out, "Pons' solver", len(lines))
    oxo = parse(oxo_out, "oxo", len(lines))

    differ = [
        (line, a[0], b[0]) for line, a, b in zip(lines, oxo, pons, strict=True) if a[0] != b[0]
    ]
    header = (
        f"{'plies':<12} {'positions':>9} {'equal':>6} {'oxo s':>8} {'Pons s':>8} "
        f"{'oxo nodes':>14} {'Pons nodes':>14} {'oxo M/s':>8} {'Pons M/s':>9} {'oxo/Pons':>9}"
    )
    print(header)
    table = []
    start = 0
    for label, group in bands:
        mine = oxo[start : start + len(group)]
        his = pons[start : start + len(group)]
        start += len(group)
        row = {
            "plies": label,
            "positions": len(group),
            "equal": sum(a[0] == b[0] for a, b in zip(mine, his, strict=True)),
            "oxo_seconds": sum(a[2] for a in mine),
            "pons_seconds": sum(b[2] for b in his),
            "oxo_nodes": sum(a[1] for a in mine),
            "pons_nodes": sum(b[1] for b in his),
        }
        table.append(row)
    total = {
        "plies": "all",
        "positions": len(lines),
        **{
            key: sum(row[key] for row in table)  # type: ignore[misc]
            for key in ("equal", "oxo_seconds", "pons_seconds", "oxo_nodes", "pons_nodes")
        },
    }
    for row in [*table, total]:
        print(
            f"{row['plies']:<12} {row['positions']:>9} {row['equal']:>6} "
            f"{row['oxo_seconds']:>8.2f} {row['pons_seconds']:>8.2f} "
            f"{row['oxo_nodes']:>14,} {row['pons_nodes']:>14,} "
            f"{row['oxo_nodes'] / max(row['oxo_seconds'], 1e-9) / 1e6:>8.2f} "
            f"{row['pons_nodes'] / max(row['pons_seconds'], 1e-9) / 1e6:>9.2f} "
            f"{row['oxo_seconds'] / max(row['pons_seconds'], 1e-9):>9.2f}"
        )
    print(
        f"whole processes: oxo {oxo_wall:.1f} s wall, peak {oxo_peak:.0f} MiB; "
        f"Pons {pons_wall:.1f} s wall, peak {pons_peak:.0f} MiB; "
        f"ratio of processor seconds oxo/Pons {total['oxo_seconds'] / max(total['pons_seconds'], 1e-9):.2f}; "
        f"load {os.getloadavg()[0]:.1f} now"
    )
    if args.json is not None:
        record = {
            "command": " ".join(sys.argv),
            "commit": commit(),
            "machine": machine(),
            "rows": [*table, total],
            "oxo_wall": oxo_wall,
            "oxo_peak_mib": oxo_peak,
            "pons_wall": pons_wall,
            "pons_peak_mib": pons_peak,
            "differences": differ,
        }
        args.json.write_text(json.dumps(record, indent=1) + "\n")
    if differ:
        print(f"{len(differ)} positions with different scores (moves, oxo, Pons):")
        for line, mine_score, his_score in differ:
            print(f"  {line or '(empty board)'}: {mine_score} {his_score}")
        raise SystemExit(1)
    print(f"every score equal ({len(lines)} positions)")


if __name__ == "__main__":
    main()
