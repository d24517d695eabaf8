"""Benchmark of the state space, the solver and the winnability analysis (and, optionally, OpenSpiel).

Run:  python benchmarks/bench_solve.py                 (3×3 and 4×4, and the proof search on the boards
                                                        beyond 16 cells that settle within a minute or two)
      python benchmarks/bench_solve.py --quick         (3×3 and 4×4 with k=3 only)
      python benchmarks/bench_solve.py --openspiel /tmp/osvenv/bin/python
                                                       (also time OpenSpiel's MinimaxSolver on 4×4, k=3,
                                                        with a Python that has open_spiel installed)
      python benchmarks/bench_solve.py --proofs --baseline facf1d7
                                                       (only the proof search, per board: seconds,
                                                        positions, peak memory, certificate entries, and
                                                        the same for the code of commit facf1d7, run in
                                                        the same session, with the ratio of the times)
      python benchmarks/bench_solve.py --proofs --board 7x7,k=5 --repeat 3
      python benchmarks/bench_solve.py --proofs --command --board 7x7,k=5 --baseline REF --repeat 3
                                                       (the whole command `oxo solve 7x7 --k 5 --proof
                                                        DIR` as a user runs it: start-up, its worker
                                                        processes, both certificates written and
                                                        checked; CPU time counts the workers too)
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

from _measure import export, machine, measure, measure_command, print_rows  # noqa: E402

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
    parser.add_argument(
        "--proofs", action="store_true", help="only the proof search (with certificates), per board"
    )
    parser.add_argument(
        "--baseline",
        metavar="REF",
        help="with --proofs: also run the code of this git commit (exported to a temporary "
        "folder), or of this folder holding an exported tree",
    )
    parser.add_argument(
        "--board",
        action="append",
        default=[],
        metavar="BOARD",
        help="with --proofs: this board only (repeatable; default: the boards that settle in ~2 min)",
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="with --proofs: runs per board and code (best kept)"
    )
    parser.add_argument(
        "--limit", type=float, default=600.0, help="with --proofs: seconds per proof (default 600)"
    )
    parser.add_argument(
        "--command",
        action="store_true",
        help="with --proofs: time the whole `oxo solve BOARD --proof DIR` process with its workers "
        "(default: the proof in a fresh process, one search per question, no workers)",
    )
    args = parser.parse_args()
    if args.proofs:
        _proof_comparison(
            args.board or PROOF_BOARDS, args.baseline, args.repeat, args.limit, args.command
        )
        return
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


#: The boards of docs/solved.md whose proof settles within about two minutes.
PROOF_BOARDS = [
    "3x3",
    "3x4,k=3",
    "4x4,k=3",
    "4x4",
    "3x3x3",
    "4x5,k=4",
    "5x5,k=4",
    "6x5,k=4",
    "5x5",
    "6x6,k=5",
    "7x4,k=4",
    "7x7,k=5",
]


def _export(ref: str) -> Path:
    """The source tree of git commit ``ref`` (:func:`_measure.export`); ``ref`` may also name a
    folder holding such a tree already (one exported by an earlier run, whose compiled search is
    cached there: it is not compiled again)."""
    if Path(ref, "src", "oxo").is_dir():
        return Path(ref)
    return export(ref)


def _proof_comparison(
    boards: list[str], baseline: str | None, repeat: int, limit: float, command: bool = False
) -> None:
    """Per board: value, wall and CPU seconds, positions, peak MiB, certificate entries for this tree
    and (with ``baseline``) for that commit, run alternately in the same session, and the ratio of the
    CPU times (the machine is shared: CPU time moves less with the load than wall time). With
    ``repeat``, the run with the least CPU time of each is kept. With ``command``, each run is the
    whole ``oxo solve --proof`` command (:func:`_run_command`)."""
    from results_solved import run_board

    if command:
        run_board = _run_command  # noqa: F811

    here = Path(__file__).resolve().parent.parent / "src"
    trees = [("this tree", here)]
    if baseline:
        trees.append((f"baseline {baseline}", _export(baseline) / "src"))
    print(f"machine: {machine()}")
    print(
        f"{'board':<10} {'code':<18} {'value':>7} {'seconds':>9} {'cpu s':>8} {'positions':>11} {'peak MiB':>9} {'entries':>9} {'ratio':>7}"
    )
    for spec in boards:
        best: dict[str, dict[str, object]] = {}
        for _ in range(repeat):
            for name, src in trees:
                row = run_board(spec, limit, env={"PYTHONPATH": str(src)})
                kept = best.get(name)
                if kept is None or float(row["cpu_seconds"]) < float(kept["cpu_seconds"]):  # type: ignore[arg-type]
                    best[name] = row
        base = best.get(trees[-1][0]) if baseline else None
        for name, _ in trees:
            row = best[name]
            entries = sum(int(c["entries"]) for c in row["certificates"])  # type: ignore[attr-defined]
            ratio = ""
            if base is not None and float(base["cpu_seconds"]) > 0:  # type: ignore[arg-type]
                ratio = f"{float(row['cpu_seconds']) / float(base['cpu_seconds']):.2f}"  # type: ignore[arg-type]
            print(
                f"{spec:<10} {name:<18} {row['value']!s:>7} {float(row['wall_seconds']):>9.2f} {float(row['cpu_seconds']):>8.2f} {int(row['nodes']):>11,} "  # type: ignore[arg-type]
                f"{float(row['peak_mib']):>9.1f} {entries:>9,} {ratio:>7}",  # type: ignore[arg-type]
                flush=True,
            )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


#: The command line of oxo in a fresh interpreter (the code on its PYTHONPATH).
OXO = "import sys; from oxo.cli import run; sys.exit(run())"


def _run_command(spec: str, limit: float, env: dict[str, str] | None = None) -> dict[str, object]:
    """``oxo solve BOARD --proof DIR --json`` in a fresh process, as a user runs it (start-up, its
    worker processes, both certificates written and checked by the run): wall seconds, CPU seconds
    of the command and every process it started, the largest peak memory among them, and the
    command's own figures. The certificates' entries are read from the run's checks."""
    import json
    import subprocess
    import tempfile

    board, _, k = spec.partition(",k=")
    folder = Path(tempfile.mkdtemp(prefix="oxo-proof-")) / "proof"
    argv = [sys.executable, "-c", OXO, "solve", board, *(["--k", k] if k else [])]
    argv += ["--proof", str(folder), "--time", str(limit), "--json"]
    wrapper = textwrap.dedent(
        """
        import json, resource, subprocess, sys, time
        started = time.perf_counter()
        done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
        seconds = time.perf_counter() - started
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        print(json.dumps({"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime,
                          "peak_mib": usage.ru_maxrss / 1024, "code": done.returncode,
                          "out": done.stdout, "err": done.stderr[-500:]}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", wrapper, *argv],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, **(env or {})},
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if report["code"] != 0:
        raise SystemExit(f"oxo solve {spec}: exit {report['code']}\n{report['err']}")
    found = json.loads(report["out"])
    checks = list(found["run"]["certificates"].values())
    if not all(check["valid"] for check in checks):
        raise SystemExit(f"oxo solve {spec}: a certificate failed its check: {checks}")
    shutil.rmtree(folder.parent, ignore_errors=True)
    return {
        "value": found["value"],
        "nodes": found["nodes"],
        "wall_seconds": round(report["seconds"], 2),
        "cpu_seconds": round(report["cpu"], 2),
        "peak_mib": round(report["peak_mib"], 1),
        "certificates": [{"entries": check["entries"]} for check in checks],
    }


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
