"""Benchmark: a tall board searched upright against the same board searched on its side.

Run:  python benchmarks/bench_orientation.py                   (6x5, 7x4, 8x4 and 9x4 with k = 4, about 5 min)
      python benchmarks/bench_orientation.py --board 10x4,k=4 --limit 1800

A board with more rows than columns is the same game as its transpose, and oxo searches it on its
side (oxo.proofs.orient). This measures why: each board is proved both ways, each in a fresh process
(``upright`` patches the choice of orientation out), and the table gives the value, wall and processor
seconds, positions searched, peak memory, and the ratio of processor seconds upright to on its side.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import machine, measure  # noqa: E402

BOARDS = ["6x5,k=4", "7x4,k=4", "8x4,k=4", "9x4,k=4"]

SETUP = """
import time
from oxo.geometry import Geometry
from oxo.proofs import search
from oxo.proofs.solver import prove_board
"""

CODE = """
if {upright}:
    search.wide = lambda geometry: None  # search the board as it stands
cpu = time.process_time()
proof = prove_board(Geometry.parse({spec!r}), seconds={limit})
result = {{
    "value": proof.value,
    "cpu": time.process_time() - cpu,
    "positions": proof.nodes,
}}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--board", action="append", help="a tall board (default: %(default)s)")
    parser.add_argument("--limit", type=float, default=600.0, help="seconds per proof")
    args = parser.parse_args()
    print(machine())
    print(
        f"{'board':<10} {'searched':<12} {'value':<8} {'wall s':>8} {'cpu s':>8} {'positions':>13}"
        f" {'peak MiB':>9} {'cpu upright / on its side':>26}"
    )
    for spec in args.board or BOARDS:
        cpu = {}
        for upright in (True, False):
            way = "upright" if upright else "on its side"
            report = measure(
                CODE.format(upright=upright, spec=spec, limit=args.limit),
                setup=SETUP,
                label=f"{spec} {way}",
            )
            found = report["result"]
            assert isinstance(found, dict)
            cpu[way] = found["cpu"]
            ratio = "" if upright else f"{cpu['upright'] / cpu['on its side']:.2f}"
            print(
                f"{spec:<10} {way:<12} {found['value']:<8} {report['seconds']:>8.2f}"
                f" {found['cpu']:>8.2f} {found['positions']:>13,} {report['peak_mib']:>9.1f}"
                f" {ratio:>26}",
                flush=True,
            )


if __name__ == "__main__":
    main()
