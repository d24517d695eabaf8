"""The compiled tree search of mega and ultimate tic-tac-toe in this checkout against another
checkout's (say the commit before a change), interleaved finely in one run, since timings on a
shared machine are noisy.

Run:  git archive facf1d7 | tar -x -C /tmp/base
      python benchmarks/bench_search_before_after.py /tmp/base/src [--repeats 15] [--iterations 40000]
      python benchmarks/bench_search_before_after.py /tmp/base/src --kernel

One worker process per checkout loads its code once (numba's cache warm) and then times seeded
searches with an iteration budget, from the empty board and from a midgame position, when told to;
the two workers take turns search by search. Each line is one game and position: the median
simulations per second of each checkout over the repeats and the ratio (this over the other).

Ultimate tic-tac-toe runs its plain search (``oxo.uttt.search.PLAIN``) in a checkout that has other
settings for ``hard``, so both sides run the same algorithm.

With ``--kernel`` the comparison runs in one process instead: the other checkout's
``oxo/<game>/compiled.py`` is loaded beside this one's (it imports this checkout's ``oxo.compiled``,
so this fits a change to a game's kernel, not to the search or the shared random stream), both
searches are checked to build the same tree, then called directly on the same arrays, alternating.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import machine  # noqa: E402

HERE = str(Path(__file__).resolve().parents[1] / "src")
MIDGAME = {
    "mega": "64 23 56 99 75 42 88 37 11 82 34 13 46 29 78 55 91 67",
    "uttt": "55 51 15 59 99 95 52 24 42 27 71 13 37 73 34 45 56 68",
}
WORKER = textwrap.dedent(
    """
    import json, sys, time
    from oxo.engines import MCTSEngine
    from oxo.mega import MegaState
    from oxo.uttt import UtttState
    games = {"mega": MegaState, "uttt": UtttState}
    try:  # the plain search, where a checkout's ultimate tic-tac-toe has other settings for hard
        from oxo.uttt.search import PLAIN
        plain = {"uttt": {"exploration": PLAIN["exploration"], "options": {
            k: v for k, v in PLAIN.items() if k != "exploration"}}}
    except ImportError:
        plain = {}
    for game, cls in games.items():
        MCTSEngine(iterations=300, seed=0, **plain.get(game, {})).choose(cls())
    print("ready", flush=True)
    for line in sys.stdin:
        game, record, iterations = json.loads(line)
        position = games[game].replay(record)
        engine = MCTSEngine(iterations=iterations, seed=1, **plain.get(game, {}))
        started = time.perf_counter()
        engine.choose(position)
        seconds = time.perf_counter() - started
        print(json.dumps(engine.last.nodes / seconds), flush=True)
    """
)


def worker(src: str) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        [sys.executable, "-c", WORKER],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": src},
    )
    assert process.stdout is not None and process.stdout.readline().strip() == "ready"
    return process


def ask(process: subprocess.Popen[str], game: str, record: str, iterations: int) -> float:
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(json.dumps([game, record, iterations]) + "\n")
    process.stdin.flush()
    return float(json.loads(process.stdout.readline()))


def kernel_comparison(other: str, repeats: int, iterations: int) -> None:
    """Both checkouts' compiled search of each game in this process, alternating call by call."""
    import importlib
    import importlib.util
    import time

    import numpy as np

    from oxo.mega import MegaState
    from oxo.uttt import UtttState

    states = {"mega": MegaState, "uttt": UtttState}

    def run(module: object, root: np.ndarray, budget: int) -> tuple[float, list[np.ndarray]]:
        from oxo.compiled import search_params

        size = 82 * budget + 82
        arrays = [
            np.full(size, -1, dtype=np.int32),
            np.zeros(size, dtype=np.int16),
            np.zeros(size, dtype=np.int8),
            np.zeros(size, dtype=np.int8),
            np.zeros(size, dtype=np.int32),
            np.zeros(size, dtype=np.float32),
            np.zeros(size, dtype=np.int8),
            np.array([1], dtype=np.int64),
        ]
        rng = module.make_rng(1)  # type: ignore[attr-defined]
        params = search_params(0.7, 2)
        started = time.perf_counter()
        module.mcts_iterations(root, budget, rng, *arrays, params)  # type: ignore[attr-defined]
        return budget / (time.perf_counter() - started), arrays

    print(f"{repeats} calls of {iterations:,} simulations each, in one process, alternating")
    for game in ("mega", "uttt"):
        spec = importlib.util.spec_from_file_location(
            f"other_{game}_compiled", Path(other) / "oxo" / game / "compiled.py"
        )
        assert spec is not None and spec.loader is not None
        theirs = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(theirs)
        ours = importlib.import_module(f"oxo.{game}.compiled")
        for where in ("empty", "midgame"):
            record = MIDGAME[game] if where == "midgame" else ""
            root = ours.state_from(states[game].replay(record))
            _, a = run(ours, root, 1000)
            _, b = run(theirs, root, 1000)
            assert all((x == y).all() for x, y in zip(a, b, strict=True)), "trees differ"
            rates: dict[str, list[float]] = {"this": [], "other": []}
            for number in range(repeats):
                pair = [("this", ours), ("other", theirs)]
                for name, module in pair if number % 2 == 0 else pair[::-1]:
                    rates[name].append(run(module, root, iterations)[0])
            this, that = statistics.median(rates["this"]), statistics.median(rates["other"])
            print(
                f"{game} {where:<8} median {this:>9,.0f} sims/s here, {that:>9,.0f} there, "
                f"ratio {this / that:.3f} (same tree: yes)"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("other", help="the src folder of the checkout to compare with")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--iterations", type=int, default=40_000)
    parser.add_argument("--kernel", action="store_true", help="compare in one process instead")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    if args.kernel:
        kernel_comparison(args.other, args.repeats, args.iterations)
        return
    workers = {"this": worker(HERE), "other": worker(args.other)}
    cases = [(game, where) for game in ("mega", "uttt") for where in ("empty", "midgame")]
    rates: dict[tuple[str, str, str], list[float]] = {}
    for number in range(args.repeats):
        order = ("this", "other") if number % 2 == 0 else ("other", "this")
        for game, where in cases:
            record = MIDGAME[game] if where == "midgame" else ""
            for name in order:
                rate = ask(workers[name], game, record, args.iterations)
                rates.setdefault((game, where, name), []).append(rate)
    for process in workers.values():
        assert process.stdin is not None
        process.stdin.close()
        process.wait()
    print(f"{args.repeats} searches of {args.iterations:,} simulations each, alternating")
    for game, where in cases:
        this = statistics.median(rates[(game, where, "this")])
        other = statistics.median(rates[(game, where, "other")])
        print(
            f"{game} {where:<8} median {this:>9,.0f} sims/s here, {other:>9,.0f} there, "
            f"ratio {this / other:.3f}"
        )


if __name__ == "__main__":
    main()
