"""Symmetry.apply_mask, this checkout against an earlier commit: the symmetry classes of random
positions, found the way oxo finds them (the least image of the position under every symmetry).

Run:  python benchmarks/bench_masks.py --before 0cc7861
      python benchmarks/bench_masks.py --before 0cc7861 --repeats 3 --scale 2

Each case is a board and a range of how many cells are filled: that many positions, their cells
drawn at random (seeded, the same for both sides; X has the odd cell when the count is odd), in a
fresh process for each side and turn, so that the symmetries start without their byte tables as
in a new command. The two sides take turns, case by case, --repeats times; the table gives each
side's median wall time (the classes only, not the imports or the drawing of the positions), its
peak memory, and the ratio of the earlier commit's time to this one's (above 1 is faster). Both
sides must find the same number of classes, and the same classes (a digest of them), or the run
stops.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import commit, export, machine, measure  # noqa: E402

HERE = Path(__file__).resolve().parents[1] / "src"
#: (board, fewest cells filled, most cells filled, positions).
CASES = [
    ("3x3", 0, 9, 200_000),
    ("4x4", 0, 16, 100_000),
    ("4x4x4", 0, 10, 20_000),
    ("4x4x4", 10, 30, 20_000),
    ("4x4x4x4", 0, 10, 1_000),
    ("4x4x4x4", 10, 30, 1_000),
    ("4x4x4x4", 30, 100, 1_000),
]

SETUP = """
import hashlib, random
from oxo.geometry import Geometry
geometry = Geometry.parse({board!r})
symmetries = geometry.symmetries
rng = random.Random(1)
positions = []
for _ in range({count}):
    cells = rng.sample(geometry.cells, rng.randint({low}, {high}))
    half = (len(cells) + 1) // 2
    positions.append((sum(1 << c for c in cells[:half]), sum(1 << c for c in cells[half:])))
"""

CODE = """
classes = {min((s.apply_mask(x), s.apply_mask(o)) for s in symmetries) for x, o in positions}
digest = hashlib.sha256(repr(sorted(classes)).encode()).hexdigest()[:16]
result = {"classes": len(classes), "digest": digest, "symmetries": len(symmetries)}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the earlier commit to compare with")
    parser.add_argument("--repeats", type=int, default=3, help="turns of each side (default 3)")
    parser.add_argument(
        "--scale", type=float, default=1.0, help="multiply each case's positions (default 1)"
    )
    args = parser.parse_args()
    if args.repeats < 1 or args.scale <= 0:
        parser.error("--repeats must be at least 1 and --scale above 0")
    sides = [
        (args.before, {"PYTHONPATH": str(export(args.before) / "src")}),
        ("now", {"PYTHONPATH": str(HERE)}),
    ]
    print(f"machine: {machine()}; commit {commit(short=True) or '?'}")
    header = (
        f"{'board':<8} {'cells':>6} {'pos.':>6} {'syms':>5} {'classes':>7} "
        f"{'before s':>9} {'now s':>7} {'MiB bef.':>8} {'MiB now':>8} {'ratio':>6}"
    )
    print(header)
    print("-" * len(header))
    for board, low, high, count in CASES:
        count = max(1, round(count * args.scale))
        setup = SETUP.format(board=board, count=count, low=low, high=high)
        runs: dict[str, list[dict]] = {name: [] for name, _ in sides}
        for _ in range(args.repeats):
            for name, env in sides:
                runs[name].append(measure(CODE, setup=setup, label=name, env=env))
        found = {
            (run["result"]["classes"], run["result"]["digest"]) for r in runs.values() for run in r
        }
        if len(found) != 1:
            raise SystemExit(f"{board} {low}-{high}: the two sides found different classes {found}")
        before, now = (statistics.median(run["seconds"] for run in runs[name]) for name, _ in sides)
        peaks = [max(run["peak_mib"] for run in runs[name]) for name, _ in sides]
        result = runs["now"][0]["result"]
        print(
            f"{board:<8} {f'{low}-{high}':>6} {count:>6} {result['symmetries']:>5} "
            f"{result['classes']:>7} {before:>9.3f} {now:>7.3f} {peaks[0]:>8.0f} {peaks[1]:>8.0f} "
            f"{before / now:>5.2f}x"
        )


if __name__ == "__main__":
    main()
