"""Benchmark of proof runs: positions per second on 1 and 2 local workers and on a local Dask cluster.

Run:  python benchmarks/bench_proof_runs.py                       (7x4 with k=4, slices of 1 s)
      python benchmarks/bench_proof_runs.py --board 6x5,k=4 --slice 0.5 --repeat 3

Each way of running proves the same board from an empty folder, in a fresh process: one search
that is not split (``RunOptions.one_search``, for reference), a run with its jobs in the same
process (1 worker), a run on 2 local worker processes, and a run on a Dask cluster of 2 worker
processes started for it (the cluster's start-up is counted). Every way writes the certificates
and checks them. For each: wall seconds to the value (certificates merged and
checked), positions searched, positions per second of wall time, CPU seconds (this process and
its workers), peak memory, and the ratios to 1 worker. The machine is shared, so the load is
printed before and after; the CPU seconds do not depend on it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import commit, machine, measure  # noqa: E402

SETUP = """
import resource, tempfile, time
from oxo.geometry import Geometry
from oxo.proofs.solver import RunOptions, prove_board
"""

CODE = """
def cpu():
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime

geometry = Geometry.parse({board!r})
began = cpu()
if {mode!r} == "search":
    proof = prove_board(geometry, seconds=None, proof_dir=tempfile.mkdtemp() + "/run",
                        run=RunOptions.one_search())
else:
    # Split jobs only: the rate of the split is what is compared (a whole search of the root
    # beside them, RunOptions.root_search, would settle this board alone).
    options = RunOptions(workers={workers}, scheduler={scheduler!r}, slice_seconds={slice},
                         split_plies={split}, root_search=False)
    proof = prove_board(geometry, seconds=None, proof_dir=tempfile.mkdtemp() + "/run",
                        run=options)
result = {{"value": proof.value, "nodes": proof.nodes, "cpu": cpu() - began,
           "proofs": len(proof.proofs)}}
"""

WAYS = [
    ("one search, not split (one_search)", "search", 1, None),
    ("run, 1 worker (jobs in this process)", "run", 1, None),
    ("run, 2 local worker processes", "run", 2, None),
    ("run, Dask cluster of 2 worker processes", "run", 2, "local"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="7x4,k=4", help="the board (default 7x4,k=4)")
    parser.add_argument("--slice", type=float, default=1.0, help="seconds a job may search")
    parser.add_argument("--split", type=int, default=2, help="plies split before the workers start")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each way (the best is kept)")
    args = parser.parse_args()
    print(f"proof runs on {args.board}, slices of {args.slice:g} s, split to {args.split} plies")
    print(f"load before: {os.getloadavg()[0]:.1f}")
    print(f"machine: {machine()}; commit {commit(short=True) or '?'}")
    rows = []
    for label, mode, workers, scheduler in WAYS:
        best = None
        for _ in range(args.repeat):
            code = CODE.format(
                board=args.board,
                mode=mode,
                workers=workers,
                scheduler=scheduler,
                slice=args.slice,
                split=args.split,
            )
            report = measure(code, setup=SETUP, label=label)
            if best is None or report["seconds"] < best["seconds"]:  # type: ignore[operator]
                best = report
        assert best is not None
        rows.append(best)
    base = next(row for row in rows if row["label"] == WAYS[1][0])
    values = {row["result"]["value"] for row in rows}  # type: ignore[index]
    if len(values) != 1:
        raise SystemExit(f"the ways disagree on the value: {values}")
    print(
        f"{'way':<42} {'wall s':>8} {'positions':>10} {'pos/s':>8} {'CPU s':>7} {'pos/CPU s':>9} "
        f"{'peak MiB':>9} {'pos/s ratio':>11} {'time ratio':>10}"
    )
    for row in rows:
        result = row["result"]
        rate = result["nodes"] / row["seconds"]  # type: ignore[index,operator]
        base_rate = base["result"]["nodes"] / base["seconds"]  # type: ignore[index,operator]
        peak = max(row["peak_mib"], row["worker_peak_mib"])  # type: ignore[type-var]
        per_cpu = result["nodes"] / max(result["cpu"], 1e-9)  # type: ignore[index]
        print(
            f"{row['label']:<42} {row['seconds']:>8.2f} {result['nodes']:>10,} {rate:>8,.0f} "  # type: ignore[index]
            f"{result['cpu']:>7.1f} {per_cpu:>9,.0f} {peak:>9.0f} {rate / base_rate:>11.2f} "  # type: ignore[index]
            f"{base['seconds'] / row['seconds']:>10.2f}"  # type: ignore[operator]
        )
    print(f"value: {values.pop()}; load now {os.getloadavg()[0]:.1f}")
    print(
        "pos/s ratio: positions per second against 1 worker; time ratio: 1 worker's wall time "
        "over this one's (above 1 is faster)"
    )


if __name__ == "__main__":
    main()
