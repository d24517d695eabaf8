"""One question ("can ATTACKER force a line?") searched whole from one position of a board, by one
compiled proof search in one process: the answer, the positions searched, wall time and peak memory.

Run:  python benchmarks/prove_position.py 8x8 --k 5 --x 0 --o 27              (X to move)
      python benchmarks/prove_position.py 8x8 --k 5 --x 27 --attacker o       (O to move)
      python benchmarks/prove_position.py 8x8 --k 5 --x 0 --o 27 --seconds 3600 --table 7G

This is how a split run's job searches a position, without the run around it (no slice, no split,
a table as large as --table): it says what one long search settles where a run's jobs of a few
minutes each did not, and how much it costs (docs/big-proofs.md). Cells are numbered row by row from
0 (the top left); the side to move follows from the marks (X moves first).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import machine, measure  # noqa: E402


def cells(text: str) -> list[int]:
    return [int(part) for part in text.replace(",", " ").split()] if text else []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("board", help="a board such as 8x8 (k from --k)")
    parser.add_argument("--k", type=int, required=True)
    parser.add_argument("--x", default="", help="X's cells, e.g. '0' or '27,36'")
    parser.add_argument("--o", default="", help="O's cells")
    parser.add_argument("--attacker", choices=["x", "o"], default="x")
    parser.add_argument("--seconds", type=float, default=1800.0, help="give up after this long")
    parser.add_argument("--table", default="4G", help="the search's table, e.g. 4G or 512M")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    from oxo.counting.budget import parse_memory
    from oxo.geometry import Geometry

    geometry = Geometry.parse(args.board, args.k)
    xs, os_ = cells(args.x), cells(args.o)
    if not 0 <= len(xs) - len(os_) <= 1 or len(set(xs) | set(os_)) != len(xs) + len(os_):
        raise SystemExit("give X as many marks as O or one more, on distinct cells")
    if any(not 0 <= c < geometry.size for c in xs + os_):
        raise SystemExit(f"cells run from 0 to {geometry.size - 1} on {args.board}")
    setup = f"""
        from oxo.geometry import Geometry
        from oxo.proofs.dfpn import ProofSearch
        geometry = Geometry({tuple(geometry.shape)!r}, {geometry.k})
        search = ProofSearch(geometry, {args.attacker!r}, seconds={args.seconds!r},
                             table_bytes={parse_memory(args.table)})
    """
    code = f"""
        answer = search.solve({sum(1 << c for c in xs)}, {sum(1 << c for c in os_)})
        result = {{"answer": answer, "positions": search.nodes,
                  "statistics": search.statistics()}}
    """
    report = measure(code, setup=setup, label="prove_position")
    result = report["result"]
    assert isinstance(result, dict)
    words = {True: "yes", False: "no", None: "not settled within the time"}[result["answer"]]
    row = {
        "board": args.board,
        "k": geometry.k,
        "x": xs,
        "o": os_,
        "question": f"can {args.attacker.upper()} force a line?",
        "answer": words,
        "positions": result["positions"],
        "seconds": round(float(report["seconds"]), 1),
        "peak_mib": round(float(report["peak_mib"]), 1),
        "statistics": result["statistics"],
        "machine": machine(),
    }
    if args.json:
        print(json.dumps(row, indent=2))
        return
    print(
        f"{args.board} (k = {geometry.k}), X on {xs or 'no cell'}, O on {os_ or 'no cell'}: "
        f"{row['question']} {words}"
    )
    print(
        f"{row['positions']:,} positions in {row['seconds']} s of wall time, peak memory "
        f"{row['peak_mib']} MiB ({row['machine']})"
    )


if __name__ == "__main__":
    main()
