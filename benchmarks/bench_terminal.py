"""Benchmark of terminal positions, the constraint search, the win check and the legality check.

Run:  python benchmarks/bench_terminal.py           (under a minute)
      python benchmarks/bench_terminal.py --long    (adds 3×3×3 ply 11, Qubic plies 11-12 and the whole 5×5 table: about a minute)
Each measurement runs in a fresh process and prints wall time and peak resident memory, then the
counts it produced (totals over the plies measured).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import machine, measure, measure_command, print_rows  # noqa: E402

SETUP = "from oxo.geometry import Geometry\nfrom oxo.terminal import count_terminal"


def report(row: dict[str, object]) -> dict[str, object]:
    """Echo one measurement on stderr as soon as it is done, so a long run shows its progress."""
    print(
        f"{row['label']}: {row['seconds']:.3f} s, {row['peak_mib']:.0f} MiB",
        file=sys.stderr,
        flush=True,
    )
    return row


def table(spec: str, method: str, plies: str | None = None) -> dict[str, object]:
    ply_arg = (
        "None" if plies is None else f"range({plies.split('-')[0]}, {int(plies.split('-')[1]) + 1})"
    )
    label = f"{method}: {spec} " + (f"plies {plies}" if plies else "all plies")
    return report(
        measure(
            f"t = count_terminal(Geometry.parse({spec!r}), {method!r}, plies={ply_arg})\n"
            "result = {'positions': t.total_positions, 'classes': t.total_classes, **t.total,"
            " 'per_ply': [[r.ply, r.positions, r.classes] for r in t.plies if r.positions]}",
            setup=SETUP,
            label=label,
        )
    )


WIN_CHECK = """
import random
from oxo.geometry import Geometry
from oxo.legality import WinChecker
geometry = Geometry.parse(SPEC)
rng = random.Random(1)
masks = [rng.getrandbits(geometry.size) & rng.getrandbits(geometry.size) for _ in range(100000)]
checker = WinChecker.for_geometry(geometry)
lines = geometry.lines
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--long",
        action="store_true",
        help="also 3x3x3 ply 11, Qubic plies 11-12 and the whole 5x5 table by pairs",
    )
    args = parser.parse_args()
    rows = [
        table("3x3", "pairs"),
        table("3x3", "csp"),
        table("3x3", "search"),
        table("4x4", "pairs"),
        table("4x4,k=3", "pairs"),
        table("4x4", "csp"),
        table("4x4,k=3", "csp"),
        table("3x3x3", "csp", "0-7"),
        table("3x3x3", "csp", "8-10"),
        table("5x5", "csp", "0-9"),
        table("5x5", "csp", "10-20"),
        table("4x4x4", "csp", "0-7"),
        table("4x4x4", "csp", "8-10"),
    ]
    if args.long:
        rows += [
            table("3x3x3", "csp", "11-11"),
            table("4x4x4", "csp", "11-12"),
            table("5x5", "pairs"),
        ]
    oxo = shutil.which("oxo") or str(Path(sys.executable).with_name("oxo"))
    rows.append(
        measure_command([oxo, "terminal", "3x3"], label="`oxo terminal 3x3`, whole process")
    )
    rows.append(
        measure_command(
            [oxo, "check", "xxx/oo./..."], label="`oxo check xxx/oo./...`, whole process"
        )
    )
    for spec in ("3x3", "4x4x4"):
        setup = WIN_CHECK.replace("SPEC", repr(spec))
        rows.append(
            measure(
                "result = sum(map(checker.has_line, masks))",
                setup=setup,
                label=f"win check, shifts: 100k {spec} sets",
            )
        )
        rows.append(
            measure(
                "result = sum(any(m & l == l for l in lines) for m in masks)",
                setup=setup,
                label=f"win check, loop over lines: 100k {spec} sets",
            )
        )
    rows.append(
        measure(
            "result = sum(check_position(Position.from_statuses(g, s)).legal"
            " for s in itertools.product((0, 1, 2), repeat=9))",
            setup="import itertools\nfrom oxo.geometry import Geometry\nfrom oxo.position import Position\n"
            "from oxo.legality import check_position\ng = Geometry.parse('3x3')",
            label="legality of all 3^9 3x3 boards",
        )
    )
    print(f"machine: {machine()}")
    print_rows(rows)
    print()
    for row in rows:
        if isinstance(row.get("result"), dict):
            result = dict(row["result"])  # type: ignore[arg-type]
            per_ply = result.pop("per_ply")
            print(f"{row['label']}: {result}")
            print(f"    nonzero plies [ply, positions, classes]: {per_ply}")
        elif "result" in row:
            print(f"{row['label']}: {row['result']}")


if __name__ == "__main__":
    main()
