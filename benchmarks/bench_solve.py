"""Benchmark of the state space, the solver and the winnability analysis (and, optionally, OpenSpiel).

Run:  python benchmarks/bench_solve.py                 (3×3 and 4×4, and the proof search on the boards
                                                        beyond 16 cells that settle within a minute or two)
      python benchmarks/bench_solve.py --quick         (3×3 and 4×4 with k=3 only)
      python benchmarks/bench_solve.py --openspiel /tmp/osvenv/bin/python
                                                       (also time OpenSpiel's MinimaxSolver on 4×4, k=3,
                                                        with a Python that has open_spiel installed)
Each measurement runs in a fresh process and prints wall time and peak resident memory.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import machine, measure, measure_command, print_rows  # noqa: E402

SETUP = "import numpy\nfrom oxo.geometry import Geometry\nfrom oxo.position import Position\nfrom oxo.space import build_space\nfrom oxo.solve import solve, reference_value, forced_win_value\nfrom oxo.analysis import winnability, deadend_report"

# OpenSpiel's memoised minimax over the whole game tree of m,n,k tic-tac-toe (it has no symmetry reduction).
OPENSPIEL_CODE = textwrap.dedent(
    """
    import json, resource, sys, time
    import pyspiel
    from open_spiel.python.algorithms.minimax_solver import MinimaxSolver
    game_string = sys.argv[1]
    started = time.perf_counter()
    solver = MinimaxSolver(game_string)
    table = solver.solve()
    value = table[str(pyspiel.load_game(game_string).new_initial_state())].value
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "peak_mib": peak, "result": [value, len(table)]}))
    """
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="skip 4x4 with k=4 and the 4x4 dead-end report"
    )
    parser.add_argument(
        "--openspiel", metavar="PYTHON", help="a Python with open_spiel installed, to time it too"
    )
    args = parser.parse_args()
    rows = []
    boards = ["3x3", "4x4,k=3"] + ([] if args.quick else ["4x4"])
    for spec in boards:
        rows.append(
            measure(
                f"s = build_space(Geometry.parse({spec!r})); result = s.total",
                setup=SETUP,
                label=f"state space {spec}",
            )
        )
        rows.append(
            measure(
                f"sol = solve(Geometry.parse({spec!r})); result = str(sol.value())",
                setup=SETUP,
                label=f"solve {spec} (all positions)",
            )
        )
        rows.append(
            measure(
                f"t = solve(Geometry.parse({spec!r})).ply_table(); result = str(t.value)",
                setup=SETUP,
                label=f"solve {spec} + per-ply table with classes",
            )
        )
    rows.append(
        measure(
            "m = {}; result = str(reference_value(Position.empty(Geometry.parse('3x3')), m))",
            setup=SETUP,
            label="reference minimax 3x3 (Position objects)",
        )
    )
    rows.append(
        measure(
            "result = str(forced_win_value(Position.empty(Geometry.parse('3x3x3'))))",
            setup=SETUP,
            label="forcing search 3x3x3 (empty board only)",
        )
    )
    oxo = shutil.which("oxo") or str(Path(sys.executable).with_name("oxo"))
    commands = [
        ["solve", "3x3"],
        ["deadends", "3x3"],
        ["analyze", "x...o...."],
        ["play", "3x3", "--level", "perfect", "--seed", "1"],
        ["solve", "4x4", "--k", "3"],
        ["analyze", "x.o.............", "--k", "3"],
    ]
    if not args.quick:
        commands += [["solve", "4x4"], ["deadends", "4x4"]]
    for argv in commands:
        label = f"`oxo {' '.join(argv)}`, whole process"
        if argv[0] == "play":
            # Nine moves on stdin, more than a game needs; the computer answers with the solver.
            rows.append(_measure_play([oxo, *argv], label))
        else:
            rows.append(measure_command([oxo, *argv], label=label))
    if args.openspiel:
        rows.extend(_openspiel(args.openspiel))
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.1f}")
    print_rows(rows)
    _proof_boards(
        ["3x3x3", "4x5,k=4", "5x5,k=4", "5x5", "6x6,k=5"] + ([] if args.quick else ["6x5,k=4"])
    )


def _proof_boards(boards: list[str]) -> None:
    """The proof search with its certificates, per board: value, nodes, wall time, peak memory."""
    from results_solved import run_board

    print()
    print(
        f"{'proof search (with certificates, checked)':<44} {'value':>7} {'nodes':>10} {'wall s':>9} {'peak MiB':>9}"
    )
    for spec in boards:
        row = run_board(spec, 600)
        print(
            f"{'oxo solve ' + spec:<44} {row['value']!s:>7} {row['nodes']:>10,} {row['wall_seconds']:>9.2f} {row['peak_mib']:>9.0f}"
        )


def _measure_play(argv: list[str], label: str) -> dict[str, object]:
    import json
    import subprocess

    wrapper = textwrap.dedent(
        """
        import json, resource, subprocess, sys, time
        started = time.perf_counter()
        subprocess.run(sys.argv[1:], input="".join(f"{c}\\n" for c in range(9)), text=True, check=True,
                       stdout=subprocess.DEVNULL)
        seconds = time.perf_counter() - started
        print(json.dumps({"seconds": seconds, "peak_mib": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", wrapper, *argv], capture_output=True, text=True, check=True
    )
    report = json.loads(done.stdout.strip())
    report["label"] = label
    return report


def _openspiel(python: str) -> list[dict[str, object]]:
    """OpenSpiel's MinimaxSolver (memoised over all non-terminal states, no symmetry) on 3x3 and 4x4 with k=3."""
    import json
    import subprocess

    out = []
    for game_string in ("mnk(m=3,n=3,k=3)", "mnk(m=4,n=4,k=3)"):
        done = subprocess.run(
            [python, "-c", OPENSPIEL_CODE, game_string], capture_output=True, text=True
        )
        if done.returncode != 0:
            print(f"OpenSpiel {game_string}: failed: {done.stderr.strip()[-300:]}")
            continue
        report = json.loads(done.stdout.strip().splitlines()[-1])
        value, states = report["result"]
        report["label"] = f"OpenSpiel MinimaxSolver {game_string}"
        print(
            f"OpenSpiel {game_string}: value {value} for the first player, {states} non-terminal states tabled"
        )
        out.append(report)
    return out


if __name__ == "__main__":
    main()
