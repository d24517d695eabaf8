"""Connect Four on other board sizes: the value of every empty gravity board with k=4, next to the
published table.

Run:  python benchmarks/results_gravity_sizes.py                    (every size up to 40 cells)
      python benchmarks/results_gravity_sizes.py --max-cells 42 --seconds 900 --write
      python benchmarks/results_gravity_sizes.py --sizes 5x4,6x4    (width x height, as published)

Each board is solved from its empty position in a fresh process (one worker, so one core), as
``oxo solve ROWSxCOLS --k 4 --gravity`` does: the same solver, the same table size
(``default_table_words``), and a time limit per board (``--seconds``); a board not settled within
it is reported as "not settled in N s", with what the search had proved by then, never guessed.
The table lists oxo's value (who wins with best play and the ply of the last mark), the published
value, whether they agree, the wall time of the search (numba's compilation excluded) and the
process's peak memory.

Sizes are written as in the published table, **width × height** (columns × rows); oxo's own specs
are rows first, so width 7 × height 6 is oxo's ``6x7,k=4,gravity``.

The published column is John Tromp's table of Connect Four on other board sizes (all sizes with
width + height <= 15, https://tromp.github.io/c4/c4.html), as reproduced and extended in Christophe
Steininger's solver readme (https://github.com/ChristopheSteininger/c4, tables "Outcome" and "Last
Move"). Those values are facts carried over for comparison only: oxo's column is computed here.

``--write`` writes the records to ``results/gravity-sizes.json`` after each board (so a stopped run
keeps what it finished) and the table between the markers ``<!-- sizes -->`` and
``<!-- /sizes -->`` of ``docs/gravity.md``; ``--docs-only`` rewrites the docs table from the JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _measure import commit, machine, measure, replace_section  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "results" / "gravity-sizes.json"
DOC = ROOT / "docs" / "gravity.md"
MARKERS = ("<!-- sizes -->", "<!-- /sizes -->")
SOURCE = (
    "Tromp's table (https://tromp.github.io/c4/c4.html) as given in Steininger's c4 readme "
    "(https://github.com/ChristopheSteininger/c4)"
)

#: Published value of each empty board with k=4, keyed by (width, height): the winner with best
#: play ("first", "second" or "draw") and the ply on which the game ends (a draw: the full board).
#: Carried over from the source above for comparison; never used as an answer.
PUBLISHED: dict[tuple[int, int], tuple[str, int]] = {
    (4, 4): ("draw", 16),
    (5, 4): ("draw", 20),
    (6, 4): ("second", 24),
    (7, 4): ("draw", 28),
    (8, 4): ("second", 32),
    (9, 4): ("second", 36),
    (10, 4): ("second", 40),
    (11, 4): ("second", 44),
    (12, 4): ("second", 48),
    (4, 5): ("draw", 20),
    (5, 5): ("draw", 25),
    (6, 5): ("draw", 30),
    (7, 5): ("draw", 35),
    (8, 5): ("first", 39),
    (9, 5): ("first", 41),
    (10, 5): ("first", 47),
    (11, 5): ("first", 51),
    (4, 6): ("draw", 24),
    (5, 6): ("draw", 30),
    (6, 6): ("second", 36),
    (7, 6): ("first", 41),
    (8, 6): ("second", 48),
    (4, 7): ("draw", 28),
    (5, 7): ("draw", 35),
    (6, 7): ("first", 41),
    (7, 7): ("draw", 49),
    (4, 8): ("draw", 32),
    (5, 8): ("draw", 40),
    (6, 8): ("second", 48),
    (4, 9): ("draw", 36),
    (5, 9): ("draw", 45),
    (4, 10): ("draw", 40),
    (5, 10): ("draw", 50),
    (4, 11): ("draw", 44),
    (4, 12): ("draw", 48),
}

WORDS = {"first": "first player wins", "second": "second player wins", "draw": "draw"}


def sizes_up_to(max_cells: int) -> list[tuple[int, int]]:
    """Every (width, height) of the published table with at most ``max_cells`` cells, smallest
    boards first (then the lower board first)."""
    chosen = [size for size in PUBLISHED if size[0] * size[1] <= max_cells]
    return sorted(chosen, key=lambda size: (size[0] * size[1], size[1], size[0]))


def parse_sizes(text: str) -> list[tuple[int, int]]:
    """``"5x4,6x4"`` (width x height) as a list of pairs."""
    sizes = []
    for word in text.split(","):
        width, _, height = word.strip().lower().partition("x")
        sizes.append((int(width), int(height)))
    return sizes


SOLVE = """
from oxo.errors import OutOfReachError
board = GravityBoard({rows}, {cols}, 4)
solver = GravitySolver(board, default_table_words(board))
try:
    value = solver.solve(GravityState(board), seconds={seconds})
    result = {{"settled": True, "outcome": value.outcome, "end_ply": value.end_ply,
               "text": str(value), "nodes": solver.nodes}}
except OutOfReachError as stop:
    result = {{"settled": False, "text": str(stop), "nodes": solver.nodes}}
result["table_words"] = int(solver.table.shape[0])
"""

SETUP = """
from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.solver import GravitySolver, default_table_words
GravitySolver(GravityBoard(4, 4, 4), 1 << 12).solve(GravityState(GravityBoard(4, 4, 4)))  # compile
"""


def solve_size(width: int, height: int, seconds: float) -> dict[str, object]:
    """Solve the empty board of ``width`` columns and ``height`` rows (k=4) in a fresh process."""
    report = measure(
        SOLVE.format(rows=height, cols=width, seconds=seconds),
        setup=SETUP,
        label=f"{width}x{height}",
    )
    result = dict(report.pop("result"))  # type: ignore[call-overload]
    published = PUBLISHED.get((width, height))
    record: dict[str, object] = {
        "width": width,
        "height": height,
        "cells": width * height,
        "spec": f"{height}x{width},k=4,gravity",
        "seconds": round(float(report["seconds"]), 2),  # type: ignore[arg-type]
        "peak_mib": round(float(report["peak_mib"])),  # type: ignore[arg-type]
        "limit_seconds": seconds,
        "load_after": round(os.getloadavg()[0], 1),  # the machine is shared: how busy it was
        **result,
    }
    if result["settled"]:
        mover = "first" if result["outcome"] == "x" else "second"
        record["winner"] = "draw" if result["outcome"] == "draw" else mover
    if published is not None:
        record["published"] = {"winner": published[0], "end_ply": published[1]}
        if result["settled"]:
            record["agrees"] = (record["winner"], record["end_ply"]) == published
    return record


def ours(record: dict[str, object]) -> str:
    if not record["settled"]:
        known = str(record.get("text", "")).partition("known so far: ")[2].partition(")")[0]
        return f"not settled in {record['limit_seconds']:g} s" + (
            f" (known: {known})" if known else ""
        )
    return f"{WORDS[str(record['winner'])]}, ply {record['end_ply']}"


def theirs(record: dict[str, object]) -> str:
    published = record.get("published")
    if not isinstance(published, dict):
        return "—"
    return f"{WORDS[published['winner']]}, ply {published['end_ply']}"


def agreement(record: dict[str, object]) -> str:
    if "agrees" not in record:
        return "—"
    return "yes" if record["agrees"] else "**no**"


def print_row(record: dict[str, object]) -> None:
    print(
        f"{record['width']:>3}x{record['height']:<3} {record['cells']:>5}  {ours(record):<34} "
        f"{theirs(record):<30} {agreement(record):<6} {record['seconds']:>8.1f} "
        f"{record['nodes']:>14,} {record['peak_mib']:>8}",
        flush=True,
    )


def docs_table(run: dict[str, object]) -> str:
    """The markdown table of the recorded run, between the markers."""
    records = run["boards"]
    assert isinstance(records, list)
    lines = [
        MARKERS[0],
        "| width × height | cells | oxo's board | oxo: value with best play, ending ply | "
        "published | agree | seconds | positions | peak MiB |",
        "| --- | ---: | --- | --- | --- | --- | ---: | ---: | ---: |",
    ]
    for record in records:
        lines.append(
            f"| {record['width']} × {record['height']} | {record['cells']} | `{record['spec']}` | "
            f"{ours(record)} | {theirs(record)} | {agreement(record)} | {record['seconds']:.1f} | "
            f"{record['nodes']:,} | {record['peak_mib']:,} |"
        )
    settled = [r for r in records if r["settled"]]
    agree = sum(1 for r in settled if r.get("agrees"))
    lines += [
        "",
        f"{len(settled)} of {len(records)} boards settled, {agree} of them equal to the published "
        f"value. Produced by `{run['command']}` on {str(run['started'])[:10]} (commit "
        f"{str(run['commit'])[:10]}; {run['machine']}); each board in a fresh process on one core, "
        f"limit {run['limit_seconds']:g} s; the record is `results/gravity-sizes.json`.",
    ]
    loads = [float(r["load_after"]) for r in records if "load_after" in r]
    if loads:
        lines[-1] += (
            f" The load average (one minute) after each board ran from {min(loads):.1f} to "
            f"{max(loads):.1f} on this shared machine: the seconds are wall times under contention."
        )
    reruns = run.get("reruns", [])
    assert isinstance(reruns, list)
    for rerun in reruns:
        lines.append(
            f"Solved again with `{rerun['command']}` on {rerun['started'][:10]} "
            f"({rerun['machine']}): {', '.join(rerun['sizes'])}."
        )
    lines.append(MARKERS[1])
    return "\n".join(lines)


def write_docs(run: dict[str, object]) -> None:
    replace_section(DOC, MARKERS, docs_table(run))
    print(f"wrote the table of sizes in {DOC}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--max-cells", type=int, default=40, help="largest board (cells)")
    parser.add_argument("--sizes", default=None, help="only these, width x height: 5x4,6x4")
    parser.add_argument("--seconds", type=float, default=600.0, help="time limit per board")
    parser.add_argument(
        "--write", action="store_true", help="record in results/ and the table in docs"
    )
    parser.add_argument(
        "--update",
        action="store_true",
        help="with --write: replace these boards in the recorded run instead of starting a new one",
    )
    parser.add_argument(
        "--docs-only", action="store_true", help="rewrite the docs table from the record"
    )
    args = parser.parse_args()
    if args.docs_only:
        write_docs(json.loads(RECORD.read_text()))
        return
    from oxo import __version__
    from oxo.fileio import write_atomic

    sizes = parse_sizes(args.sizes) if args.sizes else sizes_up_to(args.max_cells)
    command = "python benchmarks/results_gravity_sizes.py " + " ".join(sys.argv[1:])
    run: dict[str, object] = {
        "command": command.strip(),
        "version": __version__,
        "commit": commit(),
        "machine": machine(),
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "limit_seconds": args.seconds,
        "published_source": SOURCE,
        "boards": [],
    }
    if args.update:  # keep the recorded run; the boards solved now replace their old rows
        recorded = json.loads(RECORD.read_text())
        rerun = {key: run[key] for key in ("command", "commit", "machine", "started")}
        rerun["sizes"] = [f"{w} × {h}" for w, h in sizes]
        recorded.setdefault("reruns", []).append(rerun)
        recorded["boards"] = [
            b for b in recorded["boards"] if (b["width"], b["height"]) not in set(sizes)
        ]
        run = recorded
    boards = run["boards"]
    assert isinstance(boards, list)
    print(f"empty gravity boards with k=4, one process each, limit {args.seconds:g} s a board")
    print(f"published: {SOURCE}")
    print(
        f"{'board':>7} {'cells':>5}  {'oxo':<34} {'published':<30} {'agree':<6} {'seconds':>8} "
        f"{'positions':>14} {'peak MiB':>8}"
    )
    for width, height in sizes:
        record = solve_size(width, height, args.seconds)
        boards.append(record)
        boards.sort(key=lambda b: (b["cells"], b["height"], b["width"]))
        print_row(record)
        if args.write:
            write_atomic(RECORD, json.dumps(run, indent=1) + "\n")
    if args.write:
        print(f"recorded in {RECORD}")
        write_docs(run)


if __name__ == "__main__":
    main()
