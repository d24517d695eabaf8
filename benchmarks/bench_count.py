"""Benchmark of the position counter: oxo's pair counter against seed 001's own algorithm.

Run:  python benchmarks/bench_count.py            (3×3 and 4×4; about half a minute)
      python benchmarks/bench_count.py --quick    (skip seed 001's algorithm on 4×4)
      python benchmarks/bench_count.py --frontier (the frontier count on disk: peak memory of the
                                                   command and its workers against --memory)
Each measurement runs in a fresh process and prints wall time and peak resident memory.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import machine, measure, measure_command, print_rows  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="skip the slow 4x4 run of seed 001's algorithm"
    )
    parser.add_argument(
        "--frontier",
        action="store_true",
        help="only the frontier count: Qubic and 6x7 k=4 to ply 5 under --memory 1G",
    )
    args = parser.parse_args()
    if args.frontier:
        frontier()
        return
    here = Path(__file__).resolve().parent
    rows = []
    results = {}
    for side in (3, 4):
        fast = measure(
            f"result = count_by_pairs(Geometry.parse('{side}x{side}'))",
            setup="import numpy\nfrom oxo.geometry import Geometry\nfrom oxo.counting import count_by_pairs",
            label=f"oxo pair counter, {side}x{side} (in process)",
        )
        rows.append(fast)
        results[side] = fast
    for spec in ("4x4", "6x6", "7x7"):
        rows.append(
            measure(
                f"result = count_by_lines(Geometry.parse('{spec}'))[0][-1]",
                setup="import numpy\nfrom oxo.geometry import Geometry\nfrom oxo.counting.lines import count_by_lines",
                label=f"oxo lines method, {spec} (in process)",
            )
        )
    oxo = shutil.which("oxo") or str(Path(sys.executable).with_name("oxo"))
    rows.append(measure_command([oxo, "count", "4x4"], label="`oxo count 4x4`, whole process"))
    rows.append(measure_command([oxo, "count", "3x3"], label="`oxo count 3x3`, whole process"))
    sides = (3,) if args.quick else (3, 4)
    ratios = []
    for side in sides:
        seed = measure(
            f"result = seed_count({side})",
            setup=f"import sys; sys.path.insert(0, {str(here)!r})\nfrom seed001_algorithm import seed_count",
            label=f"seed 001's algorithm, {side}x{side} (in process)",
        )
        if seed["result"] != results[side]["result"]:
            raise SystemExit(f"seed 001's algorithm and oxo disagree on {side}x{side}")
        rows.append(seed)
        ratio_time = seed["seconds"] / results[side]["seconds"]
        ratio_memory = seed["peak_mib"] / results[side]["peak_mib"]
        ratios.append(
            f"{side}x{side}: seed 001's algorithm takes {ratio_time:,.1f}x the time and {ratio_memory:,.1f}x the peak memory of oxo's"
        )
    print(f"machine: {machine()}")
    print_rows(rows)
    print("\n".join(ratios))


def frontier() -> None:
    """Frontier counts in a fresh folder: wall time and the peak memory of the command and its
    workers, as a share of the --memory limit; and the pair counter on a board both reach."""
    import tempfile

    oxo = shutil.which("oxo") or str(Path(sys.executable).with_name("oxo"))
    rows, notes = [], []
    limit_mib = 1024
    for spec, plies in (("4x4x4", 5), ("6x7,k=4", 5), ("4x4,k=3", 16)):
        with tempfile.TemporaryDirectory() as folder:
            argv = [oxo, "count", spec, "--plies", str(plies), "--yes", "--quiet", "--json"]
            argv += ["--memory", f"{limit_mib}M", "--folder", folder, "--method", "frontier"]
            row = measure_command(argv, label=f"`oxo count {spec} --plies {plies}` frontier")
        rows.append(row)
        share = row["peak_mib"] / limit_mib  # type: ignore[operator]
        notes.append(f"{spec}: peak {row['peak_mib']:.0f} MiB = {share:.2f} of the 1 GiB limit")
    pairs = measure_command(
        [oxo, "count", "4x4,k=3", "--method", "pairs", "--json"],
        label="`oxo count 4x4,k=3` by pairs (for comparison)",
    )
    rows.append(pairs)
    notes.append(
        f"4x4,k=3: the frontier count takes {rows[2]['seconds'] / pairs['seconds']:.1f}x the time "  # type: ignore[operator]
        "of the pair counter (which visits no position)"
    )
    print(f"machine: {machine()}")
    print_rows(rows)
    print("\n".join(notes))


if __name__ == "__main__":
    main()
