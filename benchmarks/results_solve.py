"""Write the solve section of docs/results.md: the values of all small m,n,k boards, per-ply tables, seed 004's answers.

Run:  python benchmarks/results_solve.py [--output docs/results.md]     (about a minute)

Every m×n board with m <= n <= 4 and every k from 1 to n is solved completely (all reachable
positions), each with its run time; 3×3×3 (27 cells, too many for the dense state space) gets the
value of its empty board from the forcing search. Only the text between ``<!-- solve:begin -->`` and
``<!-- solve:end -->`` is replaced, atomically.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import machine, replace_section  # noqa: E402
from oxo.analysis import deadend_report, winnability  # noqa: E402
from oxo.geometry import Geometry  # noqa: E402
from oxo.position import Position  # noqa: E402
from oxo.solve import SolveTable, forced_win_value, solve  # noqa: E402
from oxo.space import build_space  # noqa: E402

BEGIN, END = "<!-- solve:begin -->", "<!-- solve:end -->"
ROOT = Path(__file__).resolve().parent.parent


def small_boards() -> list[Geometry]:
    return [
        Geometry((m, n), k) for n in range(1, 5) for m in range(1, n + 1) for k in range(1, n + 1)
    ]


def describe(outcome: str) -> str:
    return {"x": "X wins", "o": "O wins", "draw": "draw"}[outcome]


def value_table() -> tuple[list[str], dict[str, SolveTable]]:
    lines = [
        "| board | k | cells | lines | reachable positions | value | game over at ply | won for X | won for O | drawn | seconds |",
        "|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|",
    ]
    kept: dict[str, SolveTable] = {}
    for geometry in small_boards():
        started = time.perf_counter()
        table = solve(geometry).ply_table()
        seconds = time.perf_counter() - started
        if geometry.spec in ("3x3", "4x4,k=3", "4x4"):
            kept[geometry.spec] = table
        x, o, draw = (sum(getattr(row, name) for row in table.plies) for name in ("x", "o", "draw"))
        lines.append(
            f"| {geometry.spec_shape} | {geometry.k} | {geometry.size} | {len(geometry.lines)} | {x + o + draw:,} | "
            f"{describe(table.value.outcome)} | {table.value.plies} | {x:,} | {o:,} | {draw:,} | {seconds:.3f} |"
        )
        print(f"{geometry.spec}: {table.value} ({seconds:.2f} s)", file=sys.stderr)
    cube = Geometry((3, 3, 3), 3)
    started = time.perf_counter()
    value = forced_win_value(Position.empty(cube))
    seconds = time.perf_counter() - started
    assert value is not None
    lines.append(
        f"| 3x3x3 | 3 | 27 | {len(cube.lines)} | (not enumerated) | {describe(value.outcome)} | {value.plies} | | | | {seconds:.3f} |"
    )
    return lines, kept


def ply_table(table: SolveTable) -> list[str]:
    geometry = table.geometry
    out = [
        f"#### {geometry.spec_shape}, k={geometry.k}: {describe(table.value.outcome)} with best play",
        "",
        "| ply | won for X | won for O | drawn | terminal | X classes | O classes | draw classes | terminal classes |",
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for row in table.plies:
        out.append(
            f"| {row.ply} | {row.x:,} | {row.o:,} | {row.draw:,} | {row.terminal:,} | {row.x_classes:,} | "
            f"{row.o_classes:,} | {row.draw_classes:,} | {row.terminal_classes:,} |"
        )
    return out + [""]


def deadend_summary() -> list[str]:
    out = [
        "| board | k | positions in play | unwinnable | Q1 | Q2 | Q3 | Q4 | Q5 | rule says unwinnable, but winnable | rule says winnable, but unwinnable |",
        "|---|---:|---:|---:|---|---|---|---|---|---:|---:|",
    ]
    for spec in ("3x3", "3x4", "4x4,k=3", "4x4"):
        geometry = Geometry.parse(spec)
        report = deadend_report(geometry, win=winnability(geometry, space=build_space(geometry)))
        answers = [f"{'yes' if q.answer else 'no'} ({q.count:,})" for q in report.questions]
        out.append(
            f"| {geometry.spec_shape} | {geometry.k} | {report.positions:,} | {report.unwinnable:,} | "
            + " | ".join(answers)
            + f" | {report.rule_says_unwinnable_but_winnable:,} | {report.rule_says_winnable_but_unwinnable:,} |"
        )
    return out


def section() -> str:
    values, kept = value_table()
    parts = [
        BEGIN,
        "## Perfect play on small boards",
        "",
        "Written by `python benchmarks/results_solve.py`. Every reachable position of each board is solved by",
        'retrograde analysis (`oxo solve BOARD --k K`); "game over at ply" is when the game ends with best play',
        "(the winner hurries, the loser stalls, a draw fills the board). The position columns count every",
        "reachable position, finished ones included, by its value with best play. 3×3×3 is too large to",
        "enumerate; its value comes from a forcing search (quickest forced win for X).",
        f"Machine: {machine()}; load average {os.getloadavg()[0]:.1f} when run.",
        "",
        *values,
        "",
        "### Per-ply values",
        "",
        "Classes are counted up to the board's symmetries (Burnside's lemma). For 3×3 and 4×4 (k=4) the class",
        "columns are OEIS A317573 (X), A317574 (O) and A317576 (terminal); `tests/test_solve.py` checks them.",
        "",
        *ply_table(kept["3x3"]),
        *ply_table(kept["4x4,k=3"]),
        *ply_table(kept["4x4"]),
        "### Seed 004's questions (`oxo deadends BOARD`)",
        "",
        "Over reachable positions still in play (no winner, board not full), L = the board's number of lines:",
        "Q1 L-1 dead lines and 1 empty cell; Q2 L-1 dead and 3 or more empty; Q3 2 empty and fewer than L-1",
        "dead; Q4 all L dead with empty cells; Q5 L-1 dead, 2 empty and still winnable. Counts in brackets.",
        "The last two columns count the positions where the seed's rule (all lines dead, or L-1 dead and 2 empty)",
        "disagrees with exact winnability.",
        "",
        *deadend_summary(),
        END,
    ]
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--output", default=str(ROOT / "docs" / "results.md"))
    args = parser.parse_args()
    text = section()
    path = Path(args.output)
    replace_section(path, (BEGIN, END), text)
    print(f"wrote the solve section of {path}", file=sys.stderr)


if __name__ == "__main__":
    main()
