"""Where Qubic's proofs need X's quiet moves: at each position of a proof where O is to move, how
many of O's replies are not answered by X's threats alone (X has to make a move that threatens
nothing somewhere below them). Relevance zones for the attacker (docs/big-proofs.md) could only
spare such replies; the others are settled by a threat search in a position each.

Run:  python benchmarks/qubic_proof_shape.py                 (three sub-problems of bench_pn_init.py)
      python benchmarks/qubic_proof_shape.py "qubic 4 plies #5"

Prints, per sub-problem, the certificate's entries, the positions with O to move that the proof
reaches, and how many of them have 0, 1, 2, ... replies that need a quiet move of X.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bench_pn_init import sub_problems  # noqa: E402
from oxo.geometry import Geometry  # noqa: E402
from oxo.proofs.search import make_search  # noqa: E402

DEFAULT = ["qubic 4 plies #0", "qubic 4 plies #1", "qubic 6 plies #0"]


def shape(name: str, geometry: Geometry, x0: int, o0: int) -> str:
    spec_lines, k, size = tuple(geometry.lines), geometry.k, geometry.size
    started = time.process_time()
    search = make_search(geometry, "x", quick_nodes=0, max_nodes=20_000_000, table_bytes=1 << 30)
    if not search.solve(x0, o0):
        return f"{name}: not proved within 20 million positions"
    entries = search.strategy(x0, o0)
    moves = {(e.x, e.o): e.move for e in entries}

    def wins(mask: int) -> bool:
        return any(line & mask == line for line in spec_lines)

    def threatens(x: int, o: int, move: int) -> bool:
        marks = x | 1 << move
        return any(
            line >> move & 1 and not line & o and (line & marks).bit_count() == k - 1
            for line in spec_lines
        )

    forced: dict[tuple[int, int], bool] = {}
    replies: Counter[int] = Counter()

    def walk(x: int, o: int) -> bool:
        """Whether X's moves below (x, o) are all threats or wins."""
        known = forced.get((x, o))
        if known is not None:
            return known
        if wins(x):
            result = True
        elif x.bit_count() == o.bit_count():
            move = moves.get((x, o))
            # walk() below the move whatever the move is (``&``, not ``and``): its replies count too.
            result = move is None or (
                (threatens(x, o, move) or wins(x | 1 << move)) & walk(x | 1 << move, o)
            )
        else:
            deep = 0
            for cell in range(size):
                if (x | o) >> cell & 1 or wins(o | 1 << cell):
                    continue
                if not walk(x, o | 1 << cell):
                    deep += 1
            replies[deep] += 1
            result = deep == 0
        forced[(x, o)] = result
        return result

    sys.setrecursionlimit(20_000)
    walk(x0, o0)
    positions = sum(replies.values())
    spread = ", ".join(f"{n}: {count:,}" for n, count in sorted(replies.items()))
    return (
        f"{name}: {len(entries):,} entries, {positions:,} positions with O to move; replies that "
        f"need a quiet move of X -> positions: {spread} ({time.process_time() - started:.1f} CPU s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="*", default=DEFAULT, help="names from bench_pn_init.py")
    args = parser.parse_args()
    cases = dict(sub_problems())
    for name in args.cases:
        position = cases[name]
        print(shape(name, position.geometry, position.x, position.o), flush=True)


if __name__ == "__main__":
    main()
