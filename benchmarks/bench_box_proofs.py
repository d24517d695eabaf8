"""Benchmark of the proof runs on 4x4x4x4 and Score Four: positions per second of the proof search on
1 and 2 local workers and on a local Dask cluster, in one run.

Run:  python benchmarks/bench_box_proofs.py                      (60 s per way and board)
      python benchmarks/bench_box_proofs.py --seconds 120 --board scorefour

Neither board is settled in minutes, so each way runs the same proof (``oxo solve BOARD --proof
DIR``: the run of :mod:`oxo.proofs.runs`, its jobs searched by :mod:`oxo.proofs.wide`) from an empty
folder for a fixed time, in a fresh process, and counts the positions its jobs searched: a run
with its jobs in the same process (1 worker), a run on 2 local worker processes and a run on a
Dask cluster of 2 worker processes started for it (its start-up is counted in the time). The runs
search the split jobs only (no whole search of the root beside them), with the run's slices. For
each: positions searched, positions per second of wall time, CPU seconds (this process and its
workers), positions per CPU second, peak memory, and the ratio of positions per second to 1
worker's. The machine is shared, so the load is printed before and after; the positions per CPU
second do not depend on it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import commit, machine, measure  # noqa: E402

SETUP = """
import resource, tempfile
from oxo.registry import find_game
from oxo.proofs.solver import RunOptions, prove_board
"""

CODE = """
def cpu():
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

geometry = find_game({board!r}).geometry
began = cpu()
options = RunOptions(workers={workers}, scheduler={scheduler!r}, slice_seconds={slice},
                     root_search=False)
proof = prove_board(geometry, seconds={seconds}, proof_dir=tempfile.mkdtemp() + "/run", run=options)
result = {{"value": proof.value, "nodes": proof.nodes, "cpu": cpu() - began}}
"""

WAYS = [
    ("1 worker (jobs in this process)", 1, None),
    ("2 local worker processes", 2, None),
    ("Dask cluster of 2 worker processes", 2, "local"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--board",
        action="append",
        help="a board (default: 4x4x4x4 and scorefour); may be given more than once",
    )
    parser.add_argument("--seconds", type=float, default=60.0, help="time of each way")
    parser.add_argument("--slice", type=float, default=20.0, help="seconds a job may search")
    args = parser.parse_args()
    boards = args.board or ["4x4x4x4", "scorefour"]
    print(f"proof runs of {args.seconds:g} s, slices of {args.slice:g} s, on {', '.join(boards)}")
    print(f"load before: {os.getloadavg()[0]:.1f}")
    print(f"machine: {machine()}; commit {commit(short=True) or '?'}")
    print(
        f"{'board':<10} {'way':<36} {'wall s':>7} {'positions':>11} {'pos/s':>8} {'CPU s':>7} "
        f"{'pos/CPU s':>9} {'peak MiB':>9} {'pos/s ratio':>11}"
    )
    for board in boards:
        rows = []
        for label, workers, scheduler in WAYS:
            code = CODE.format(
                board=board,
                workers=workers,
                scheduler=scheduler,
                slice=args.slice,
                seconds=args.seconds,
            )
            rows.append(measure(code, setup=SETUP, label=label))
        base = rows[0]
        base_rate = base["result"]["nodes"] / base["seconds"]  # type: ignore[index,operator]
        for row in rows:
            result = row["result"]
            rate = result["nodes"] / row["seconds"]  # type: ignore[index,operator]
            peak = max(row["peak_mib"], row["worker_peak_mib"])  # type: ignore[type-var]
            per_cpu = result["nodes"] / max(result["cpu"], 1e-9)  # type: ignore[index]
            # No position in 1 worker's time (a loaded machine): no ratio to give.
            ratio = f"{rate / base_rate:>11.2f}" if base_rate else f"{'-':>11}"
            print(
                f"{board:<10} {row['label']:<36} {row['seconds']:>7.1f} "
                f"{result['nodes']:>11,} {rate:>8,.0f} {result['cpu']:>7.1f} "  # type: ignore[index]
                f"{per_cpu:>9,.0f} {peak:>9.0f} {ratio}",
                flush=True,
            )
    print(f"load now {os.getloadavg()[0]:.1f}")
    print("pos/s ratio: positions per second of wall time against 1 worker's")


if __name__ == "__main__":
    main()
