"""The proof search past 64 cells (``oxo.proofs.wide``) in this checkout against another checkout's
(say the commit before a change), on a position of the 4x4x4x4 run, taking turns.

Run:  git archive ff03691 | tar -x -C /tmp/base
      python benchmarks/bench_wide_before_after.py /tmp/base/src [--nodes 300000] [--repeats 3]
      python benchmarks/bench_wide_before_after.py /tmp/base/src --board 9x9,k=4 --x 40 --o 41

Each search runs in a fresh process (numba's cache warmed first, one search of a few positions
per checkout), the two checkouts taking turns, ``--repeats`` times: ``--nodes`` positions of "can X
force a line?" from the position with X on ``--x`` and O on ``--o`` (cells, comma-separated; by
default a reply to X's answer 11 below O on 7 in the 4x4x4x4 run), in a table of ``--table-mib``.
A change that keeps the search's path visits the same positions in both: the benchmark says
whether the answers and the positions searched are equal. Printed: each checkout's median
processor seconds (what a loaded machine inflates least), its peak memory, and the ratio of
this checkout's time to the other's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import commit, machine, measure  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

SETUP = """
import time
from oxo.geometry import Geometry
from oxo.proofs.wide import WideSearch
"""

CODE = """
search = WideSearch(Geometry.parse({board!r}), "x", max_nodes={nodes}, table_bytes={table})
x = sum(1 << c for c in {x!r})
o = sum(1 << c for c in {o!r})
cpu = time.process_time()
answer = search.solve(x, o)
result = [answer, search.nodes, time.process_time() - cpu]
"""


def cells(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split(",") if part.strip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the other checkout's src folder")
    parser.add_argument("--board", default="4x4x4x4")
    parser.add_argument("--x", type=cells, default=(0, 11, 103), help="X's cells")
    parser.add_argument("--o", type=cells, default=(3, 7, 21), help="O's cells")
    parser.add_argument("--nodes", type=int, default=300_000, help="positions a search")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--table-mib", type=int, default=1024, help="each search's table")
    args = parser.parse_args()
    trees = {"this": ROOT / "src", "other": args.other.resolve()}
    print(machine())
    print(f"commit {commit()}; other: {args.other}")
    print(f"{args.board}, X on {args.x}, O on {args.o}: {args.nodes:,} positions a search")

    def run(src: Path, nodes: int) -> dict[str, object]:
        code = CODE.format(
            board=args.board, nodes=nodes, table=args.table_mib << 20, x=args.x, o=args.o
        )
        return measure(code, label=str(src), setup=SETUP, env={"PYTHONPATH": str(src)})

    for src in trees.values():  # numba compiles each checkout's kernel once, into its cache
        run(src, 100)
    results: dict[str, list[dict[str, object]]] = {name: [] for name in trees}
    for _ in range(args.repeats):
        for name, src in trees.items():
            results[name].append(run(src, args.nodes))
    rows = {}
    for name, reports in results.items():
        outcomes = {(r["result"][0], r["result"][1]) for r in reports}  # type: ignore[index]
        cpu = statistics.median(float(r["result"][2]) for r in reports)  # type: ignore[index]
        peak = max(float(r["peak_mib"]) for r in reports)  # type: ignore[arg-type]
        rows[name] = (outcomes, cpu, peak)
    same = rows["this"][0] == rows["other"][0] and len(rows["this"][0]) == 1
    for name, (outcomes, cpu, peak) in rows.items():
        answer, nodes = sorted(outcomes, key=str)[0]
        print(
            f"{name:<6} answer {answer!s:<5} {nodes:>10,} positions  {cpu:8.2f} s processor"
            f"  {nodes / cpu:>9,.0f} a second  peak {peak:,.0f} MiB"
        )
    ratio = rows["this"][1] / rows["other"][1]
    print(f"this / other processor time: {ratio:.3f}; same answers and positions: {same}")


if __name__ == "__main__":
    main()
