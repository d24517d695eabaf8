"""Benchmark of the proof search's transposition table: does it keep what the search finds?

Run:  python benchmarks/bench_table.py                      (this tree)
      python benchmarks/bench_table.py --baseline 0bac749   (and commit 0bac749, alternately)

Per board, the compiled proof search ("can X force a line?") runs for a fixed number of positions in
a fresh process and prints the positions kept in the table, the positions it had to replace, wall
and CPU seconds, peak memory, and (with --baseline) the ratio of the positions kept to the
baseline's. A table that keeps few positions while the search goes on is one that lets a few
positions push each other out of the same slots, so that the search goes round in circles. The
last row is 5x5 with k = 4 in a table of 4,096 slots, searched to the end: settled or not, and after
how many positions.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import machine, measure  # noqa: E402
from bench_solve import _export  # noqa: E402

SETUP = "from oxo.geometry import Geometry\nfrom oxo.proofs.dfpn import ProofSearch\nfrom oxo.proofs import kernel"
BOARDS = ["4x10,k=4", "10x4,k=4", "4x4x4", "8x8,k=5"]
NODES = 1_000_000
SMALL_TABLE = 4096
SMALL_LIMIT = 3_000_000

CODE = """
import time
cpu = time.process_time()
search = ProofSearch(Geometry.parse({spec!r}), "x", max_nodes={nodes}{table})
answer = search.solve()
stats = search.statistics()
result = [answer, stats["nodes"], stats["table_entries"], stats["table_replacements"],
          time.process_time() - cpu]
"""


def run(spec: str, nodes: int, src: Path, table_slots: int | None = None) -> dict[str, object]:
    table = (
        ""
        if table_slots is None
        else f", table_bytes={table_slots} * kernel.Table.bytes_per_slot()"
    )
    code = CODE.format(spec=spec, nodes=nodes, table=table)
    return measure(code, label=spec, setup=SETUP, env={"PYTHONPATH": str(src)})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", help="a git commit to compare with, run alternately")
    parser.add_argument("--nodes", type=int, default=NODES, help="positions searched per board")
    args = parser.parse_args()
    trees = [("this tree", Path(__file__).resolve().parent.parent / "src")]
    if args.baseline:
        trees.append((f"baseline {args.baseline}", _export(args.baseline) / "src"))
    print(f"machine: {machine()}")
    print(
        f"{'board':<22} {'code':<18} {'answer':>7} {'positions':>11} {'kept':>11} {'replaced':>11}"
        f" {'wall s':>8} {'cpu s':>7} {'peak MiB':>9} {'kept ratio':>10}"
    )
    cases = [(spec, args.nodes, None) for spec in BOARDS]
    cases.append(("5x5,k=4", SMALL_LIMIT, SMALL_TABLE))
    for spec, nodes, slots in cases:
        rows = {name: run(spec, nodes, src, slots) for name, src in trees}
        base = rows[trees[-1][0]]["result"] if args.baseline else None
        label = spec if slots is None else f"{spec} ({slots:,} slots)"
        for name, _ in trees:
            row = rows[name]
            answer, searched, kept, replaced, cpu = row["result"]  # type: ignore[misc]
            ratio = "" if base is None else f"{kept / max(1, base[2]):.1f}"  # type: ignore[index]
            print(
                f"{label:<22} {name:<18} {answer!s:>7} {searched:>11,} {kept:>11,} {replaced:>11,}"
                f" {float(row['seconds']):>8.2f} {cpu:>7.2f} {float(row['peak_mib']):>9.0f} {ratio:>10}",  # type: ignore[arg-type]
                flush=True,
            )
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
