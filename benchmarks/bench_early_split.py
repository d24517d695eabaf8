"""The early split of a proof run's jobs (RunOptions.early_split): a job where the defender is to
move stops after a quarter of its slice when its search has proved none of the defender's moves.

Run:  python benchmarks/bench_early_split.py                   (8 Qubic positions, slices of 120 s)
      python benchmarks/bench_early_split.py --from-run results/runs/4x4x4   (8 the run split)
      python benchmarks/bench_early_split.py --cases 4 --slice 60 --board 8x8,k=5
      python benchmarks/bench_early_split.py --small-runs  (whole runs of small boards, both ways)

The positions are three moves in (X, O, X; O to move), the depth where the Qubic run's jobs almost
never settle: X on a corner (or beside the centre on a flat board), then a seeded random move of O
and one of X; or, with ``--from-run``, positions the run searched and split. Each position is searched twice as a job of the run, each time in a fresh process:
with the whole slice, and with the early split. For each: positions searched, CPU seconds, peak
memory, and how many of O's replies the search proved (the children that come back settled when
the job splits; all of them when it settles the position). The early split saves the positions
of the jobs it stops; what it costs is the replies the whole slice would have proved there, each
of which becomes a job of its own. Two searches run at a time (``--parallel``; this machine has two
cores).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import commit, machine, measure  # noqa: E402
from oxo.geometry import Geometry  # noqa: E402
from oxo.proofs.runs import RunOptions  # noqa: E402

SETUP = """
from oxo.proofs.workers import Job, run_job
"""

CODE = """
job = Job({shape!r}, {k}, "x", {x}, {o}, seconds={slice}, table_bytes=1 << 30, early={early})
found = run_job(job)
replies = None if found.children is None else sum(1 for c in found.children if c.value == 1)
result = {{"value": found.value, "nodes": found.nodes, "cpu": found.cpu, "replies": replies,
           "children": None if found.children is None else len(found.children),
           "early": found.statistics.get("early_splits", 0)}}
"""


def positions(spec: str, cases: int) -> list[tuple[int, int]]:
    """X on a corner (a cube) or beside the centre (a flat board), then O and X at random."""
    geometry = Geometry.parse(spec)
    first = 0 if len(geometry.shape) == 3 else (geometry.size // 2) - 1
    out = []
    for seed in range(cases):
        rng = random.Random(seed)
        free = [cell for cell in range(geometry.size) if cell != first]
        o = rng.choice(free)
        x = rng.choice([cell for cell in free if cell != o])
        out.append((1 << first | 1 << x, 1 << o))
    return out


def from_run(folder: str, cases: int) -> list[tuple[int, int]]:
    """Positions three moves in that a proof run searched and split, spread evenly over how many of
    their replies the split brought back settled (the fewest first)."""
    state = json.loads((Path(folder) / "run" / "state.json").read_text())
    rows = {row[0]: row for row in state["questions"]["x"]["nodes"]}
    found = []
    for _key, x, o, _value, _root, _entries, _offset, nodes, _jobs, children in (
        row[:10] for row in rows.values()
    ):
        if nodes and children and (int(x, 16) | int(o, 16)).bit_count() == 3:
            # Replies settled with no job of their own: settled by a split (this one, mostly).
            proved = sum(1 for _, child in children if rows[child][3] and not rows[child][8])
            found.append((proved, int(x, 16), int(o, 16)))
    found.sort()
    if len(found) < cases:
        raise SystemExit(f"{folder}: only {len(found)} positions three moves in were split")
    step = max(1, cases - 1)
    return [found[i * (len(found) - 1) // step][1:] for i in range(cases)]


RUN = """
import tempfile
from oxo.geometry import Geometry
from oxo.proofs.runs import RunOptions
from oxo.proofs.solver import prove_board
options = RunOptions(workers=1, probe_seconds=0, slice_nodes={nodes}, split_plies=2,
                     early_split={early})
proof = prove_board(Geometry.parse({spec!r}), seconds=None, proof_dir=tempfile.mkdtemp() + "/p",
                    run=options)
result = {{"value": proof.value, "nodes": proof.nodes, "jobs": sum(q["jobs_run"] for q in
          proof.run["questions"])}}
"""
#: Whole runs of the tests' small boards, with slices of a few hundred or thousand positions.
RUNS = [("6x5,k=4", 200), ("6x5,k=4", 2000), ("5x5,k=4", 200), ("5x5,k=4", 2000), ("4x5,k=4", 200)]


def small_runs(early: float) -> None:
    """Whole split runs of small boards with and without the early split: positions and jobs."""
    print(
        f"{'board':<10} {'slice':>6} {'value':>6} {'positions':>10} {'jobs':>6} {'wall s':>7}  "
        f"{'early: positions':>16} {'jobs':>6} {'wall s':>7} {'ratio':>6}"
    )
    for spec, nodes in RUNS:
        found = [
            measure(RUN.format(spec=spec, nodes=nodes, early=part), label=f"{spec} {part}")
            for part in (0.0, early)
        ]
        (whole, cut) = found
        w, e = whole["result"], cut["result"]
        if w["value"] != e["value"]:  # type: ignore[index]
            raise SystemExit(f"{spec}: the runs disagree on the value")
        print(
            f"{spec:<10} {nodes:>6} {w['value']:>6} {w['nodes']:>10,} {w['jobs']:>6} "  # type: ignore[index]
            f"{whole['seconds']:>7.1f}  {e['nodes']:>16,} {e['jobs']:>6} {cut['seconds']:>7.1f} "  # type: ignore[index]
            f"{e['nodes'] / max(1, w['nodes']):>6.2f}"  # type: ignore[index,operator]
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", default="4x4x4", help="the board (default 4x4x4, Qubic)")
    parser.add_argument("--cases", type=int, default=8, help="positions (default 8)")
    parser.add_argument("--slice", type=float, default=120.0, help="a job's seconds (default 120)")
    parser.add_argument(
        "--from-run",
        metavar="DIR",
        help="take the positions from a proof run of the board: ones it searched and split, "
        "from those whose split proved the fewest replies to those whose split proved the most",
    )
    parser.add_argument(
        "--parallel", type=int, default=2, help="searches at a time (default 2, one per core)"
    )
    parser.add_argument(
        "--small-runs",
        action="store_true",
        help="instead: whole runs of small boards (slices of a few hundred positions), with and "
        "without the early split",
    )
    args = parser.parse_args()
    geometry = Geometry.parse(args.board)
    early = RunOptions().early_split
    if args.small_runs:
        print(f"machine: {machine()}; commit {commit(short=True) or '?'}")
        small_runs(early)
        return
    print(
        f"early split on {args.board}: {args.cases} positions three moves in, slices of "
        f"{args.slice:g} s, split after {early:g} of a slice when no reply is proved"
    )
    print(f"machine: {machine()}; commit {commit(short=True) or '?'}")

    def run(case: tuple[int, int, float | None]) -> dict[str, object]:
        x, o, part = case
        code = CODE.format(
            shape=geometry.shape, k=geometry.k, x=x, o=o, slice=args.slice, early=part
        )
        return measure(code, setup=SETUP, label=f"{x:x}/{o:x}")

    chosen = (
        from_run(args.from_run, args.cases) if args.from_run else positions(args.board, args.cases)
    )
    work = [(x, o, part) for x, o in chosen for part in (None, early)]
    with ThreadPoolExecutor(args.parallel) as pool:
        reports = list(pool.map(run, work))
    print(
        f"{'X / O (hex masks)':<28} {'whole slice: positions':>22} {'replies':>8} "
        f"{'early: positions':>17} {'replies':>8} {'stopped':>8} {'peak MiB':>9}"
    )
    totals = {"whole": 0, "early": 0, "lost": 0, "stopped": 0, "saved": 0}
    for whole, cut in zip(reports[0::2], reports[1::2]):
        w, e = whole["result"], cut["result"]

        def replies(r: dict[str, object]) -> str:
            if r["value"]:
                return "settled"
            return f"{r['replies']}/{r['children']}"

        peak = max(whole["peak_mib"], cut["peak_mib"])  # type: ignore[type-var]
        print(
            f"{whole['label']:<28} {w['nodes']:>22,} {replies(w):>8} {e['nodes']:>17,} "  # type: ignore[index]
            f"{replies(e):>8} {'yes' if e['early'] else 'no':>8} {peak:>9.0f}"  # type: ignore[index]
        )
        totals["whole"] += w["nodes"]  # type: ignore[index,operator]
        totals["early"] += e["nodes"]  # type: ignore[index,operator]
        if e["early"]:  # type: ignore[index]
            totals["stopped"] += 1
            totals["saved"] += w["nodes"] - e["nodes"]  # type: ignore[index,operator]
            totals["lost"] += w["replies"] or 0  # type: ignore[index,operator]
    ratio = totals["early"] / max(1, totals["whole"])
    print(
        f"positions: {totals['whole']:,} with whole slices, {totals['early']:,} with the early "
        f"split (ratio {ratio:.2f}); stopped early: {totals['stopped']} of {args.cases}, saving "
        f"{totals['saved']:,} positions; replies the whole slice proved in the jobs stopped early "
        f"(each a job of its own instead): {totals['lost']}"
    )


if __name__ == "__main__":
    main()
