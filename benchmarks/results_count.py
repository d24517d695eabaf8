"""Compute the position tables of the boards beyond 4×4 and write them into docs/results.md.

Run:  python benchmarks/results_count.py [--boards 5x5 6x6 ...] [--quick]
Each board is counted in a fresh process (so its time and peak memory are its own); the section
between `<!-- counting:begin -->` and `<!-- counting:end -->` of docs/results.md is replaced.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import machine, measure  # noqa: E402
from oxo.fileio import write_atomic  # noqa: E402

BOARDS = ["3x3", "4x4", "4x4,k=3", "4x5,k=4", "5x5", "5x5,k=4", "3x3x3", "6x6", "7x7"]
QUICK = ["3x3", "4x4", "4x4,k=3", "5x5", "6x6"]
RESULTS = Path(__file__).resolve().parent.parent / "docs" / "results.md"


def count_in_fresh_process(spec: str) -> dict[str, object]:
    code = (
        f"table = count_positions(Geometry.parse({spec!r}))\n"
        "result = {'method': table.method, 'plies': [[r.positions, r.classes] for r in table.plies]}"
    )
    setup = "from oxo.geometry import Geometry\nfrom oxo.counting import count_positions"
    return measure(code, setup=setup, label=spec)


def section(rows: list[tuple[str, dict[str, object]]]) -> str:
    out = [
        "## Reachable positions per ply, beyond seed 001's table",
        "",
        f"Written by `python benchmarks/results_count.py` on {time.strftime('%Y-%m-%d')}; machine: {machine()}.",
        "Positions: reachable positions after that many marks (play stops at a win); classes: up to the",
        "board's symmetries. Times are wall time of the count alone, in a fresh process using both cores.",
        "",
        "| board | k | method | seconds | peak MiB (main / largest worker) | positions | classes |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: |",
    ]
    from oxo.geometry import Geometry

    for spec, report in rows:
        geometry = Geometry.parse(spec)
        plies = report["result"]["plies"]  # type: ignore[index]
        out.append(
            f"| {geometry.spec_shape} | {geometry.k} | {report['result']['method']} | {report['seconds']:.2f} | "  # type: ignore[index]
            f"{report['peak_mib']:.0f} / {report['worker_peak_mib']:.0f} | {sum(p[0] for p in plies)} | "
            f"{sum(p[1] for p in plies)} |"
        )
    for spec, report in rows:
        geometry = Geometry.parse(spec)
        out += [
            "",
            f"### {geometry.spec_shape}, k={geometry.k}",
            "",
            "| ply | positions | classes |",
            "| ---: | ---: | ---: |",
        ]
        for ply, (positions, classes) in enumerate(report["result"]["plies"]):  # type: ignore[index]
            out.append(f"| {ply} | {positions} | {classes} |")
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--boards", nargs="+", default=None, help="boards to count (default: all of them)"
    )
    parser.add_argument("--quick", action="store_true", help=f"only {' '.join(QUICK)}")
    args = parser.parse_args()
    boards = args.boards or (QUICK if args.quick else BOARDS)
    rows = []
    for spec in boards:
        report = count_in_fresh_process(spec)
        print(
            f"{spec:<10} {report['seconds']:9.2f} s {report['peak_mib']:8.0f} MiB, workers {report['worker_peak_mib']:.0f} MiB",
            flush=True,
        )
        rows.append((spec, report))
    text = RESULTS.read_text()
    begin, end = "<!-- counting:begin -->", "<!-- counting:end -->"
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    write_atomic(RESULTS, f"{head}{begin}\n{section(rows)}\n{end}{tail}")


if __name__ == "__main__":
    main()
