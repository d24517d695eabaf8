"""Connect Four's empty board searched from scratch, ``oxo solve 6x7 --k 4 --gravity --again``
(without ``--again`` the answer comes from oxo's proof book, with no search), with this checkout
and another (say main, before a change), side by side: processor time and peak memory of one core.

Run:  git archive main | tar -x -C /tmp/base
      python benchmarks/bench_connect4_record.py /tmp/base/src [--rounds 2]

Each round runs the command once with each checkout's sources first on ``PYTHONPATH``, alternately
(timings on a shared machine drift: alternating spreads the drift over both), each in a fresh
process, after one small solve per checkout so that numba's compiled code is in its cache. A run
is measured from outside (``os.wait4``: user and system processor seconds, the largest resident
set) and its answer and positions read from its output; every answer must be the same (X wins at
ply 41), otherwise the exit status is 1. The table gives each run, then per checkout the median
processor seconds, and the ratio of this checkout's to the other's. The record's targets: at most
10 s of processor time and 256 MiB.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "src"
#: ``oxo`` itself (the console script's entry point) with the checkout's sources.
OXO = ["-c", "import sys; from oxo.cli import run; sys.argv[0] = 'oxo'; run()"]
COMMAND = [*OXO, "solve", "6x7", "--k", "4", "--gravity", "--again"]


def _run(src: Path, args: list[str]) -> tuple[str, float, float, float]:
    """Output, wall seconds, processor seconds (user + system) and peak MiB of one process."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    )
    assert proc.stdout is not None
    out = proc.stdout.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - started
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{src}: {' '.join(args)} failed")
    return out, wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("other", type=Path, help="the other checkout's src folder")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    sides = {"this": HERE, "other": args.other.resolve()}
    for src in sides.values():
        _run(src, [*OXO, "solve", "4x5", "--k", "4", "--gravity", "-q"])
    load = os.getloadavg()[0]
    print(f"load average at the start {load:.1f}; {os.cpu_count()} cores")
    print(f"{'run':<10} {'positions':>13} {'wall s':>8} {'processor s':>12} {'peak MiB':>9}")
    cpu: dict[str, list[float]] = {name: [] for name in sides}
    answers = set()
    for round_ in range(1, args.rounds + 1):
        for name, src in sides.items():
            out, wall, seconds, peak = _run(src, COMMAND)
            answer = out.splitlines()[0].split(": ", 1)[-1]
            found = re.search(r"searched ([\d,]+) positions", out)
            positions = found.group(1) if found else "?"
            answers.add(answer)
            cpu[name].append(seconds)
            label = f"{name} {round_}"
            print(
                f"{label:<10} {positions:>13} {wall:>8.1f} {seconds:>12.1f} {peak:>9.0f}",
                flush=True,
            )
    this, other = statistics.median(cpu["this"]), statistics.median(cpu["other"])
    print(
        f"median processor s: this {this:.1f}, other {other:.1f}, this / other {this / other:.2f}"
    )
    print(f"load average at the end {os.getloadavg()[0]:.1f}")
    print(f"answers: {'; '.join(sorted(answers))}")
    if len(answers) != 1:
        print(f"the answers differ: {sorted(answers)}")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
