"""Score Four's positions per ply (4x4x4 with gravity: 16 columns of 4, Qubic's 76 lines), and their
classes up to the 8 symmetries of its square base, into docs/results.md.

Run:  python benchmarks/results_scorefour.py [--plies 8] [--write]

The count is :func:`oxo.counting.drops.count_positions` (held in the tests to a plain walk of the
games on the first plies and to Connect Four's own count), in a fresh process; each ply's row is
saved to ``results/count-scorefour.json`` as it comes (so a stopped run keeps what it finished),
and with ``--write`` the table goes between ``<!-- scorefour:begin -->`` and
``<!-- scorefour:end -->`` of docs/results.md. The time of each ply is its wall time, with the load
of the machine at the start named beside it (other work shares the machine's two cores).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _measure import commit, machine, replace_section  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "results" / "count-scorefour.json"
RESULTS = ROOT / "docs" / "results.md"
MARKERS = ("<!-- scorefour:begin -->", "<!-- scorefour:end -->")


def table(record: dict[str, object]) -> str:
    rows = record["plies"]
    assert isinstance(rows, list)
    lines = [
        MARKERS[0],
        "## Score Four: positions per ply",
        "",
        f"Written by `python benchmarks/results_scorefour.py --plies {record['plies_asked']} "
        f"--write` on {record['date']} (commit {record['commit']}); machine: {record['machine']}.",
        "Score Four is 4x4x4 with gravity (`oxo count scorefour --plies N`): 16 columns of 4, a",
        "mark drops to the lowest empty cell of its column, 4 in a row on any of Qubic's 76 lines",
        "wins. Positions: reachable positions after that many marks (play stops at a win; a",
        "finished position is counted at its ply and not continued); classes: up to the 8",
        "symmetries of the square base; finished: positions where the game has ended. The count",
        "goes ply by ply over (heights, X's cells) pairs (`oxo.counting.drops`); seconds are the",
        "wall time of each ply and peak MiB the process's peak memory when the ply ended.",
        "",
        "| ply | positions | classes | finished | seconds | peak MiB |",
        "| ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for row in rows:
        lines.append(
            f"| {row['ply']} | {row['positions']} | {row['classes']} | {row['finished']} | "
            f"{row['seconds']:.1f} | {row['peak_mib']:.0f} |"
        )
    lines.append("")
    lines.append(
        "Totals up to the last ply: "
        f"{sum(r['positions'] for r in rows)} positions, {sum(r['classes'] for r in rows)} classes."
    )
    lines.append(MARKERS[1])
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plies", type=int, default=8, help="the last ply to count")
    parser.add_argument("--write", action="store_true", help="write docs/results.md's section")
    parser.add_argument("--docs-only", action="store_true", help="rewrite the docs from the JSON")
    args = parser.parse_args()
    if args.docs_only:
        replace_section(RESULTS, MARKERS, table(json.loads(RECORD.read_text())), required=False)
        return
    from oxo.counting.drops import count_positions
    from oxo.fileio import write_atomic
    from oxo.geometry import Geometry

    record: dict[str, object] = {
        "board": "4x4x4,gravity",
        "plies_asked": args.plies,
        "date": time.strftime("%Y-%m-%d"),
        "commit": commit(short=True),
        "machine": machine(),
        "plies": [],
    }
    rows: list[dict[str, object]] = []
    last = [time.perf_counter()]

    def on_row(row: object) -> None:
        now = time.perf_counter()
        rows.append(
            {
                **row.to_dict(),  # type: ignore[attr-defined]  # a PlyCount
                "seconds": now - last[0],
                "peak_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            }
        )
        last[0] = now
        record["plies"] = rows
        write_atomic(RECORD, json.dumps(record, indent=1) + "\n")
        print(rows[-1], flush=True)

    count_positions(Geometry.parse("4x4x4,gravity"), args.plies, on_row=on_row)
    if args.write:
        replace_section(RESULTS, MARKERS, table(record), required=False)


if __name__ == "__main__":
    main()
