"""Would the 4x4x4x4 run's open leaves be won by the other moves that won their siblings?

Run:  python benchmarks/bench_hints.py --x 0,11,103 --o 3,7 --leaves 8 --nodes 300000

The run tries first, in a leaf's job, the move that won most of its settled siblings (the other
replies of the defender to the same position; ``oxo.proofs.runs.Tree.hints``, one move). This
takes the position given by ``--x`` and ``--o`` (cells, as the run's state keeps it, the defender
to move; it must be split in the run's state) and ``--leaves`` of its open children whose one job
settled nothing (evenly drawn from the order the run keeps them in); for each, the position after
each of the next ``--hints`` moves of the run's ranking of the moves that won its siblings
(``Tree.hints``, after the ``--skip`` first, which the jobs tried already) is searched in a fresh
search within ``--nodes`` positions: won, lost ("no": the move does not win) or open, with its
positions and processor seconds. Moves are named in the position's orientation.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import commit, machine  # noqa: E402


def cells_of(text: str) -> list[int]:
    return sorted(int(part) for part in text.split(",") if part)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--x", required=True, help="X's cells of the position, comma-separated")
    parser.add_argument("--o", required=True, help="O's cells of the position, comma-separated")
    parser.add_argument("--leaves", type=int, default=8, help="open children to try (default 8)")
    parser.add_argument("--nodes", type=int, default=300_000, help="positions a search may take")
    parser.add_argument("--skip", type=int, default=1, help="best moves already tried (default 1)")
    parser.add_argument("--hints", type=int, default=3, help="moves to try after those (default 3)")
    parser.add_argument(
        "--run",
        default=str(Path(__file__).resolve().parents[1] / "results" / "runs" / "4x4x4x4"),
        help="the run's folder (default: the one kept in the repository)",
    )
    args = parser.parse_args()

    from oxo.geometry import Geometry, play
    from oxo.proofs.runs import Tree, load_state
    from oxo.proofs.wide import WideSearch

    geometry = Geometry.parse("4x4x4x4")
    folder = Path(args.run)
    tree = Tree.from_dict(geometry, "x", folder / "run", load_state(folder)["questions"]["x"])
    values = tree.values()
    x = sum(1 << cell for cell in cells_of(args.x))
    o = sum(1 << cell for cell in cells_of(args.o))
    parent = next(
        (node for node in tree.nodes.values() if (node.x, node.o) == (x, o) and node.children),
        None,
    )
    if parent is None or parent.children is None:
        raise SystemExit("no split position with those cells in the run's state")
    print(f"machine: {machine()}; commit {commit(short=True) or '?'}")
    leaves = [
        (move, key)
        for move, key in parent.children
        if not values.get(key) and tree.nodes[key].jobs == 1 and tree.nodes[key].children is None
    ]
    step = max(1, len(leaves) // max(1, args.leaves))
    tally: collections.Counter[str] = collections.Counter()
    for move, key in leaves[::step][: args.leaves]:
        leaf = tree.nodes[key]
        # The run's own ranking for the leaf (Tree.hints), past the moves its jobs tried; named
        # in the parent's orientation, as the moves of all the leaves compare.
        into_parent = tree.classes.carrying((leaf.x, leaf.o), play(x, o, move))
        words = []
        for cell in tree.hints(key, values, count=args.skip + args.hints)[args.skip :]:
            hint = into_parent[cell]
            search = WideSearch(geometry, "x", table_bytes=1 << 28)
            began = time.process_time()
            answer = search.solve_until(*play(leaf.x, leaf.o, cell), None, args.nodes)
            word = "won" if answer else "no" if answer is False else "open"
            tally[word] += 1
            seconds = time.process_time() - began
            words.append(f"{hint}: {word} {search.nodes:,} ({seconds:.0f} s)")
        print(f"O on {move} (run: {leaf.nodes:,} positions, 1 job): " + "; ".join(words))
    print("in all: " + ", ".join(f"{count} {word}" for word, count in sorted(tally.items())))


if __name__ == "__main__":
    main()
