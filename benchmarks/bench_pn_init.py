"""Initial proof and disproof numbers of fresh positions: the compiled search with each way of
starting them (``kernel.INIT_*``), counted in positions searched (deterministic, unlike time on a
shared machine) and CPU seconds.

Run:  python benchmarks/bench_pn_init.py                       (boards and sub-problems, modes 0 and 1)
      python benchmarks/bench_pn_init.py --modes 0 1 --only qubic --budget 2000000
      python benchmarks/bench_pn_init.py --big                 (adds 9x4 with k = 4, about a minute)
      python benchmarks/bench_pn_init.py --only qubic --modes 1 --threat-budget 2000

Two kinds of cases:

* boards that settle: each question of the board's value ("can X force a line?", then for a draw
  "can O?") searched to the end from the empty board, the board turned on its side as the solver
  turns it; the value must be the same for every mode;
* sub-problems of boards out of reach (Qubic, 8x8 with k = 5): a seeded walk of random moves from a
  first move of X, then "can X force a line?" within ``--budget`` positions.

Mode 0 starts every fresh position at 1 and 1 (as before); the table gives, per case, the value
and positions searched of each mode, and at the end how many sub-problems each mode settled and
the positions over the cases every mode settled.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from oxo.geometry import Geometry
from oxo.position import Position
from oxo.proofs.dfpn import THREAT_BUDGET, ProofSearch
from oxo.proofs.orient import wide

TABLE_BYTES = 1 << 30
#: (board, questions): the boards that settle in seconds.
BOARDS = [
    ("3x3x3", ("x",)),
    ("5x5,k=4", ("x", "o")),
    ("6x5,k=4", ("x",)),
    ("7x4,k=4", ("x", "o")),
    ("8x4,k=4", ("x", "o")),
    ("7x7,k=5", ("x", "o")),
]
BIG = [("9x4,k=4", ("x",))]


def walk(spec: str, first: int, plies: int, seed: int) -> Position:
    """X on ``first``, then random moves until ``plies`` marks (never one that ends the game)."""
    rng = random.Random(seed)
    position = Position.empty(Geometry.parse(spec)).play(first)
    while bin(position.x | position.o).count("1") < plies:
        moves = [m for m in position.legal_moves if not position.play(m).is_over]
        if not moves:
            break
        position = position.play(rng.choice(moves))
    return position


def sub_problems() -> list[tuple[str, Position]]:
    """Qubic: X on a corner, then 3 random moves (ten seeds) and 5 (four seeds); 8x8 with k = 5:
    X beside the centre, then 3 random moves (four seeds)."""
    cases = []
    for seed in range(10):
        cases.append((f"qubic 4 plies #{seed}", walk("4x4x4", 0, 4, seed)))
    for seed in range(4):
        cases.append((f"qubic 6 plies #{seed}", walk("4x4x4", 0, 6, 100 + seed)))
    for seed in range(4):
        cases.append((f"8x8,k=5 4 plies #{seed}", walk("8x8,k=5", 27, 4, 200 + seed)))
    return cases


def search(
    geometry: Geometry,
    attacker: str,
    x: int,
    o: int,
    mode: int,
    budget: int | None,
    threat_budget: int = THREAT_BUDGET,
) -> dict[str, object]:
    engine = ProofSearch(
        geometry,
        attacker,
        max_nodes=budget,
        table_bytes=TABLE_BYTES,
        pn_init=mode,
        threat_budget=threat_budget,
    )
    started = time.process_time()
    value = engine.solve(x, o)
    return {"value": value, "nodes": engine.nodes, "cpu": time.process_time() - started}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--modes", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--budget", type=int, default=500_000)
    parser.add_argument("--only", choices=["boards", "qubic", "8x8", "sub"], default=None)
    parser.add_argument("--big", action="store_true", help="add 9x4 with k = 4")
    parser.add_argument(
        "--threat-budget",
        type=int,
        default=THREAT_BUDGET,
        help=f"positions one threat search may visit (default {THREAT_BUDGET}, as on flat boards)",
    )
    parser.add_argument("--json", help="write the rows to this file too")
    args = parser.parse_args()
    rows: list[dict[str, object]] = []
    cases: list[tuple[str, Geometry, str, int, int, int | None]] = []
    if args.only in (None, "boards"):
        for spec, questions in BOARDS + (BIG if args.big else []):
            geometry = Geometry.parse(spec)
            turned = wide(geometry) or geometry
            for attacker in questions:
                cases.append((f"{spec} {attacker}", turned, attacker, 0, 0, None))
    if args.only != "boards":
        for name, position in sub_problems():
            if args.only == "qubic" and not name.startswith("qubic"):
                continue
            if args.only == "8x8" and not name.startswith("8x8"):
                continue
            cases.append((name, position.geometry, "x", position.x, position.o, args.budget))
    header = f"{'case':24}" + "".join(f"  {'mode ' + str(m):>24}" for m in args.modes)
    print(header)
    print(f"{'':24}" + "".join(f"  {'value  positions  cpu s':>24}" for _ in args.modes))
    for name, geometry, attacker, x, o, budget in cases:
        cells = []
        for mode in args.modes:
            r = search(geometry, attacker, x, o, mode, budget, args.threat_budget)
            rows.append({"case": name, "mode": mode, **r})
            value = "?" if r["value"] is None else "yes" if r["value"] else "no"
            cells.append(f"{value:>5} {r['nodes']:>10,} {r['cpu']:>7.1f}")
        print(f"{name:24}" + "".join(f"  {c:>24}" for c in cells), flush=True)
    print()
    for mode in args.modes:
        mine = [r for r in rows if r["mode"] == mode]
        settled = sum(1 for r in mine if r["value"] is not None)
        boards = sum(int(str(r["nodes"])) for r in mine if str(r["case"]).endswith((" x", " o")))
        cpu = sum(float(str(r["cpu"])) for r in mine)
        print(
            f"mode {mode}: settled {settled} of {len(mine)}; boards' positions {boards:,}; cpu {cpu:.1f} s"
        )
    settled_by_all = [
        name
        for name in dict.fromkeys(str(r["case"]) for r in rows)
        if all(r["value"] is not None for r in rows if r["case"] == name)
    ]
    for mode in args.modes:
        total = sum(
            int(str(r["nodes"])) for r in rows if r["mode"] == mode and r["case"] in settled_by_all
        )
        print(
            f"mode {mode}: positions over the {len(settled_by_all)} cases every mode settled: {total:,}"
        )
    values = {}
    for r in rows:
        if r["value"] is not None:
            values.setdefault(r["case"], set()).add(r["value"])
    clash = [name for name, v in values.items() if len(v) > 1]
    print("values agree" if not clash else f"VALUES DISAGREE: {clash}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
