"""The compiled tree search of mega and ultimate tic-tac-toe in this checkout against another
checkout's (say the commit before a change), interleaved in one run and repeated, since timings on
a shared machine are noisy.

Run:  git archive facf1d7 | tar -x -C /tmp/base
      python benchmarks/bench_search_before_after.py /tmp/base/src [--repeats 3] [--iterations 40000]

Each row is a seeded search with an iteration budget from the empty board and from a midgame
position, run in a fresh process (numba's cache warm); the rate is simulations per second, and the
last lines give the median rate of this checkout over the other's, per game and position.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import machine  # noqa: E402
from _measure import measure as measure_child  # noqa: E402

HERE = str(Path(__file__).resolve().parents[1] / "src")
MIDGAME = {
    "mega": "64 23 56 99 75 42 88 37 11 82 34 13 46 29 78 55 91 67",
    "uttt": "55 51 15 59 99 95 52 24 42 27 71 13 37 73 34 45 56 68",
}
STATE = {
    "mega": "from oxo.mega import MegaState as S",
    "uttt": "from oxo.uttt import UtttState as S",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("other", help="the src folder of the checkout to compare with")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=40_000)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    rates: dict[tuple[str, str, str], list[float]] = {}
    print(
        f"{'game':<5} {'position':<9} {'checkout':<6} {'wall s':>8} {'peak MiB':>9} {'sims/s':>10}"
    )
    for _ in range(args.repeats):
        for game in ("mega", "uttt"):
            for where, record in (("empty", ""), ("midgame", MIDGAME[game])):
                for name, src in (("this", HERE), ("other", args.other)):
                    setup = (
                        f"{STATE[game]}\nfrom oxo.engines import MCTSEngine\n"
                        "MCTSEngine(iterations=300, seed=0).choose(S())\n"
                        f"position = S.replay({record!r})\n"
                    )
                    code = (
                        f"engine = MCTSEngine(iterations={args.iterations}, seed=1)\n"
                        "engine.choose(position)\nresult = engine.last.nodes"
                    )
                    row = measure_child(code, label=name, setup=setup, env={"PYTHONPATH": src})
                    rate = float(row["result"]) / float(row["seconds"])  # type: ignore[arg-type]
                    rates.setdefault((game, where, name), []).append(rate)
                    print(
                        f"{game:<5} {where:<9} {name:<6} {row['seconds']:>8.3f} "
                        f"{row['peak_mib']:>9.0f} {rate:>10,.0f}"
                    )
    for game in ("mega", "uttt"):
        for where in ("empty", "midgame"):
            this = statistics.median(rates[(game, where, "this")])
            other = statistics.median(rates[(game, where, "other")])
            print(
                f"{game} {where}: median {this:,.0f} sims/s here, {other:,.0f} there, "
                f"ratio {this / other:.3f}"
            )


if __name__ == "__main__":
    main()
