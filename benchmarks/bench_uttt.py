"""Benchmark of ultimate tic-tac-toe: random games (the rules in pure Python, the compiled playout,
OpenSpiel's ultimate_tic_tac_toe) and Monte Carlo tree search (oxo's compiled search behind ``hard``,
OpenSpiel's Python MCTS).

Run:  python benchmarks/bench_uttt.py            (about a minute on an idle machine)
      python benchmarks/bench_uttt.py --quick    (smaller runs)
      python benchmarks/bench_uttt.py --count    (positions per ply: the compiled walk over classes
                                                  against the plain walk of every position; ~2 min)
      python benchmarks/bench_uttt.py --strength 200 --time 0.1 [--candidate 'solver=true ...']
                                                 (hard as it is here, or another configuration,
                                                  against hard of commit 0920763 (before issue 29)
                                                  at equal time, colours alternating; --clock cpu
                                                  for equal CPU time, --iterations N for equal
                                                  simulations, --baseline REF or plain)
      python benchmarks/bench_uttt.py --versus-openspiel   (simulations per second of ``hard``'s
                                                  search and of OpenSpiel's C++ MCTSBot with random
                                                  rollouts on the same positions, and the ratio)
Each measurement runs in a fresh process and prints its wall time (imports and compilation
excluded), the peak resident memory of that process (getrusage), the rate it measures, and the
ratio of that rate to the row it is compared with (named in the last column). OpenSpiel rows need
``pyspiel`` importable (``pip install open_spiel``) and are skipped otherwise.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import export, machine  # noqa: E402
from _measure import measure as measure_child  # noqa: E402

WARM_COMPILED = "from oxo.uttt import compiled\ncompiled.random_games(2, compiled.make_rng(0))\n"
WARM_MCTS = (
    "from oxo.uttt import UtttState\nfrom oxo.engines import MCTSEngine\n"
    "MCTSEngine(iterations=300, seed=0).choose(UtttState())\n"
)
#: The settings of the plain search (``hard`` before issue 29: uniformly random playouts, as
#: OpenSpiel's rollouts), and warming it up.
PLAIN_SETUP = (
    "from oxo.uttt.search import PLAIN\n"
    "PLAIN_ENGINE = {'exploration': PLAIN['exploration'], "
    "'options': {k: v for k, v in PLAIN.items() if k != 'exploration'}}\n"
)
WARM_PLAIN = (
    "from oxo.uttt import UtttState\nfrom oxo.engines import MCTSEngine\n"
    + PLAIN_SETUP
    + "MCTSEngine(iterations=300, seed=0, **PLAIN_ENGINE).choose(UtttState())\n"
)
#: The same game without its compiled search, so MCTSEngine runs its pure-Python tree on it.
PLAIN = """
from oxo.uttt import UtttState
from oxo.engines import MCTSEngine

class Plain:
    blocks_are_forced = False

    def __init__(self, state):
        self.state = state

    def __getattr__(self, name):
        if name == "compiled_search":
            raise AttributeError(name)
        return getattr(self.state, name)

    def play(self, move):
        return Plain(self.state.play(move))

MCTSEngine(iterations=20, seed=0).choose(Plain(UtttState()))
"""
OPENSPIEL = "import random, pyspiel\ngame = pyspiel.load_game('ultimate_tic_tac_toe')\nrng = random.Random(1)"


def row(
    key: str, label: str, code: str, setup: str, unit: str, versus: str | None = None
) -> dict[str, object]:
    """Time ``code`` (which sets ``result`` to the units of work) after ``setup`` in a child process."""
    report = measure_child(code, label=label, setup=setup)
    report.update(key=key, unit=unit, versus=versus)
    return report


def rows(quick: bool) -> list[dict[str, object]]:
    scale = 1 if quick else 4
    have_openspiel = importlib.util.find_spec("pyspiel") is not None
    out = [
        row(
            "python",
            f"oxo: random games, rules in pure Python ({500 * scale:,} games)",
            f"""
            total = 0
            for _ in range({500 * scale}):
                state = UtttState()
                while not state.is_over:
                    moves = state.legal_moves
                    state = state.play(moves[int(rnd() * len(moves))])
                total += state.move_count
            result = total
            """,
            "import random\nfrom oxo.uttt import UtttState\nrnd = random.Random(1).random",
            "moves",
            "openspiel" if have_openspiel else None,
        ),
        row(
            "compiled",
            f"oxo: random games, compiled playout, batched ({100_000 * scale:,} games)",
            f"result = int(compiled.random_games({100_000 * scale}, compiled.make_rng(1))[3])",
            WARM_COMPILED,
            "moves",
            "python",
        ),
        row(
            "mcts",
            f"oxo: hard (compiled MCTS), empty board ({20_000 * scale:,} simulations)",
            f"engine = MCTSEngine(iterations={20_000 * scale}, seed=1)\n"
            "engine.choose(UtttState())\nresult = engine.last.nodes",
            WARM_MCTS,
            "simulations",
            "python mcts",
        ),
        row(
            "python mcts",
            f"oxo: the engines' pure-Python MCTS on the same game ({500 * scale:,} simulations)",
            f"engine = MCTSEngine(iterations={500 * scale}, seed=1)\n"
            "engine.choose(Plain(UtttState()))\nresult = engine.last.nodes",
            PLAIN,
            "simulations",
        ),
        row(
            "mcts 0.1",
            "oxo: hard at 0.1 s a move, empty board",
            "engine = MCTSEngine(seconds=0.1, seed=1)\nengine.choose(UtttState())\nresult = engine.last.nodes",
            WARM_MCTS,
            "simulations",
        ),
    ]
    if have_openspiel:
        out += [
            row(
                "openspiel",
                f"OpenSpiel: random games from a Python loop ({500 * scale:,} games)",
                f"""
                total = 0
                for _ in range({500 * scale}):
                    state = game.new_initial_state()
                    while not state.is_terminal():
                        state.apply_action(rng.choice(state.legal_actions()))
                        total += 1
                result = total
                """,
                OPENSPIEL,
                "actions",
            ),
            row(
                "openspiel mcts",
                f"OpenSpiel: Python MCTS, empty board ({1000 * scale:,} simulations)",
                f"""
                bot = mcts.MCTSBot(game, 2.0, {1000 * scale},
                                   mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                                   random_state=np.random.RandomState(1))
                bot.step(game.new_initial_state())
                result = {1000 * scale}
                """,
                OPENSPIEL + "\nimport numpy as np\nfrom open_spiel.python.algorithms import mcts",
                "simulations",
                "python mcts",
            ),
        ]
    return out


def count_rows() -> list[dict[str, object]]:
    """``oxo count uttt``'s walk over classes against the plain walk of every position (the tests'
    reference), to ply 5; then the compiled walk alone to plies 7 and 8. The rate is positions
    counted per second (every ply's positions added up)."""
    warm = "from oxo.uttt.counting import count_positions, reference_counts\ncount_positions(3)\n"
    return [
        row(
            "count 5",
            "oxo count uttt --plies 5: compiled walk over classes",
            "result = count_positions(5).total",
            warm,
            "positions",
            "plain 5",
        ),
        row(
            "plain 5",
            "the plain walk of every position with the rules, to ply 5",
            "result = sum(reference_counts(5)[0])",
            warm,
            "positions",
        ),
        row(
            "count 7",
            "oxo count uttt --plies 7",
            "result = count_positions(7).total",
            warm,
            "positions",
        ),
        row(
            "count 8",
            "oxo count uttt --plies 8",
            "result = count_positions(8).total",
            warm,
            "positions",
        ),
    ]


#: Positions of the side-by-side search rows (oxo records): the empty board, three sent to a grid
#: and one with a free choice of grid (46 moves).
SEARCH_POSITIONS = {
    "empty board": "",
    "move 4": "55 51 15",
    "move 19": "55 51 15 59 99 95 52 24 42 27 71 13 37 73 34 45 56 68",
    "move 27, free choice": (
        "62 22 21 13 38 84 45 57 75 58 88 86 67 78 87 72 25 56 61 16 68 82 29 96 69 92"
    ),
    "move 31": (
        "55 51 15 59 99 95 52 24 42 27 71 13 37 73 34 45 56 68 86 64 47 74 43 38 87 79 91 18 85 58"
    ),
}
#: Replay an oxo record as OpenSpiel actions (a free choice of grid is an action of its own).
OPENSPIEL_REPLAY = """
import pyspiel
from oxo.uttt import UtttState, parse_record
game = pyspiel.load_game("ultimate_tic_tac_toe")

def openspiel_state(record):
    ours, theirs = UtttState(), game.new_initial_state()
    for move in parse_record(record):
        if ours.target is None:
            theirs.apply_action(move // 9)
        theirs.apply_action(move % 9)
        ours = ours.play(move)
    return theirs
"""


def versus_openspiel_rows(quick: bool) -> list[dict[str, object]]:
    """oxo's compiled search (the engine behind ``hard``; and the plain search, whose playouts are
    uniformly random like OpenSpiel's rollouts) and OpenSpiel's C++ ``MCTSBot`` with one random
    rollout per leaf, each with a budget of simulations, from the same positions."""
    scale = 1 if quick else 4
    out = []
    for name, record in SEARCH_POSITIONS.items():
        ours = 25_000 * scale
        theirs = 5_000 * scale
        out.append(
            row(
                f"oxo {name}",
                f"oxo hard's search, {name} ({ours:,} simulations)",
                f"engine = MCTSEngine(iterations={ours}, seed=1)\n"
                "engine.choose(position)\nresult = engine.last.nodes",
                WARM_MCTS + f"position = UtttState.replay({record!r})\n",
                "simulations",
                f"openspiel {name}",
            )
        )
        out.append(
            row(
                f"plain {name}",
                f"oxo plain search, {name} ({ours:,} simulations)",
                f"engine = MCTSEngine(iterations={ours}, seed=1, **PLAIN_ENGINE)\n"
                "engine.choose(position)\nresult = engine.last.nodes",
                WARM_PLAIN + f"position = UtttState.replay({record!r})\n",
                "simulations",
                f"openspiel {name}",
            )
        )
        out.append(
            row(
                f"openspiel {name}",
                f"OpenSpiel C++ MCTSBot, {name} ({theirs:,} simulations)",
                f"bot = pyspiel.MCTSBot(game, pyspiel.RandomRolloutEvaluator(1, 1), 2.0, {theirs}, "
                "1000, False, 1, False)\nbot.step(position)\nresult = " + str(theirs),
                OPENSPIEL_REPLAY + f"position = openspiel_state({record!r})\n",
                "simulations",
            )
        )
    return out


#: The commit whose ``hard`` the strength benchmark plays against: ``hard`` as it was before issue 29
#: changed its search (plain UCT, constant 0.7, uniformly random playouts).
BASELINE_REF = "0920763"
#: One engine in a process of its own, from the source tree on its PYTHONPATH: ``new`` builds the
#: engine for a game (keyword arguments of MCTSEngine), ``move`` answers the move for a record.
MATCH_WORKER = """
import json, sys, time
from oxo.uttt import UtttState
from oxo.engines import MCTSEngine
import oxo.engines.mcts as mcts_module

settings = json.loads(sys.argv[1])
if settings["clock"] == "cpu":
    class CpuClock:
        # the engine's deadline in this process's CPU time (time.process_time), not wall time
        def __init__(self, seconds):
            self.started = time.process_time()
            self.deadline = None if seconds is None else self.started + seconds

        def expired(self):
            return self.deadline is not None and time.process_time() >= self.deadline

        @property
        def elapsed(self):
            return time.process_time() - self.started

    mcts_module.Clock = CpuClock
config = dict(settings["config"])
exploration = config.pop("exploration", None)
extra = {} if exploration is None else {"exploration": exploration}
if config:
    extra["options"] = config
MCTSEngine(iterations=300, seed=0, **extra).choose(UtttState())  # compile or load, no clock
print("ready", flush=True)
engine = None
for line in sys.stdin:
    command, argument = json.loads(line)
    if command == "new":
        engine = MCTSEngine(seconds=settings["seconds"], iterations=settings["iterations"],
                            seed=argument, **extra)
        print("{}", flush=True)
    else:
        move = engine.choose(UtttState.replay(argument))
        print(json.dumps([move, engine.last.nodes]), flush=True)
"""


def parse_config(text: str) -> dict[str, object]:
    """Engine settings written ``key=value`` separated by spaces or commas (values read as JSON
    where they parse: ``solver=true exploration=0.5 playout=careful``)."""
    import json

    config: dict[str, object] = {}
    for item in text.replace(",", " ").split():
        key, sep, value = item.partition("=")
        if not sep:
            raise SystemExit(f"engine setting {item!r} is not key=value")
        try:
            config[key] = json.loads(value)
        except ValueError:
            config[key] = value
    return config


class MatchWorker:
    """One side of a match: a worker process running :data:`MATCH_WORKER` on a source tree."""

    def __init__(self, src: Path, settings: dict[str, object]) -> None:
        import json
        import os
        import subprocess

        self.process = subprocess.Popen(
            [sys.executable, "-c", MATCH_WORKER, json.dumps(settings)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(src)},
        )
        line = self._read()
        if line.strip() != "ready":
            raise SystemExit(f"the engine worker on {src} did not start")

    def _read(self) -> str:
        assert self.process.stdout is not None
        return self.process.stdout.readline()

    def ask(self, command: str, argument: object) -> object:
        import json

        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps([command, argument]) + "\n")
        self.process.stdin.flush()
        line = self._read()
        if not line:
            raise SystemExit("an engine worker stopped")
        return json.loads(line)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def play_match_game(
    number: int, candidate: MatchWorker, baseline: MatchWorker
) -> tuple[str, int, int, int, int]:
    """Game ``number`` (the candidate is X in even games): the candidate's result (``w``, ``d``,
    ``l``), and the simulations and moves of each side."""
    from oxo.uttt import UtttState

    candidate.ask("new", 1000 + number)
    baseline.ask("new", 2000 + number)
    candidate_is_x = number % 2 == 0
    state = UtttState()
    sims = {True: 0, False: 0}
    moves = {True: 0, False: 0}
    while not state.is_over:
        ours = (state.to_move == "x") == candidate_is_x
        move, nodes = (candidate if ours else baseline).ask("move", state.record)  # type: ignore[misc]
        sims[ours] += nodes
        moves[ours] += 1
        state = state.play(move)
    if state.outcome == "draw":
        result = "d"
    else:
        result = "w" if (state.outcome == "x") == candidate_is_x else "l"
    return result, sims[True], moves[True], sims[False], moves[False]


def strength(
    games: int,
    seconds: float | None,
    iterations: int | None,
    clock: str,
    candidate: dict[str, object],
    baseline: str,
    jobs: int,
) -> None:
    """A candidate engine configuration (this checkout's MCTSEngine with ``candidate`` settings;
    none: ``hard`` as it is here) against ``hard`` of commit ``baseline`` (exported with ``git
    archive``; ``plain`` for this checkout's :data:`oxo.uttt.search.PLAIN` settings, ``here:SETTINGS``
    for this checkout's engine with other settings), each in a
    process of its own, with ``seconds`` a move (wall or CPU time, ``clock``) or ``iterations``
    simulations, colours alternating, every engine seeded by the game's number. Prints the score
    (a draw is half a point) with its standard error, and the simulations a move of each side."""
    import os
    import threading
    import time

    here = Path(__file__).resolve().parent.parent / "src"
    if baseline == "plain":
        from oxo.uttt.search import PLAIN

        base_src, base_config = here, dict(PLAIN)
    elif baseline.startswith("here:"):
        base_src, base_config = here, parse_config(baseline[len("here:") :])
    else:
        base_src, base_config = export(baseline) / "src", {}
    common = {"seconds": seconds, "iterations": iterations, "clock": clock}
    load_before = os.getloadavg()
    started = time.perf_counter()
    results: dict[int, tuple[str, int, int, int, int]] = {}
    numbers = iter(range(games))
    lock = threading.Lock()

    def run() -> None:
        ours = MatchWorker(here, {**common, "config": candidate})
        theirs = MatchWorker(base_src, {**common, "config": base_config})
        try:
            while True:
                with lock:
                    number = next(numbers, None)
                if number is None:
                    return
                outcome = play_match_game(number, ours, theirs)
                with lock:
                    results[number] = outcome
                    tally = [r[0] for r in results.values()]
                    done = len(tally)
                    score = (tally.count("w") + tally.count("d") / 2) / done
                    print(
                        f"  game {number + 1}: {outcome[0]}; {done}/{games} played, "
                        f"{tally.count('w')}-{tally.count('d')}-{tally.count('l')}, "
                        f"score {100 * score:.1f} %",
                        file=sys.stderr,
                        flush=True,
                    )
        finally:
            ours.close()
            theirs.close()

    threads = [threading.Thread(target=run) for _ in range(max(1, jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if len(results) < games:
        raise SystemExit("the match stopped early")
    tally = [results[n][0] for n in range(games)]
    wins, draws, losses = tally.count("w"), tally.count("d"), tally.count("l")
    score = (wins + draws / 2) / games
    spread = (sum(({"w": 1.0, "d": 0.5, "l": 0.0}[k] - score) ** 2 for k in tally) / games) ** 0.5
    ours_rate = sum(r[1] for r in results.values()) / max(1, sum(r[2] for r in results.values()))
    theirs_rate = sum(r[3] for r in results.values()) / max(1, sum(r[4] for r in results.values()))
    budget = f"{iterations} simulations" if iterations else f"{seconds} s ({clock} time)"
    name = " ".join(f"{k}={v}" for k, v in candidate.items()) or "hard as it is here"
    print(
        f"candidate ({name}) against hard of {baseline}, {budget} a move, {games} games, "
        f"colours alternating: {wins} wins, {draws} draws, {losses} losses, score "
        f"{100 * score:.1f} % (standard error {100 * spread / games**0.5:.1f} %); simulations a "
        f"move {ours_rate:,.0f} against {theirs_rate:,.0f}; {time.perf_counter() - started:.0f} s, "
        f"load {load_before[0]:.1f} at the start, {os.getloadavg()[0]:.1f} at the end, "
        f"{max(1, jobs)} game(s) at a time"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs")
    parser.add_argument("--count", action="store_true", help="positions per ply instead")
    parser.add_argument(
        "--versus-openspiel",
        action="store_true",
        help="simulations per second of hard's search and OpenSpiel's C++ MCTSBot, side by side",
    )
    parser.add_argument(
        "--strength",
        type=int,
        metavar="GAMES",
        default=0,
        help="play a candidate configuration against hard of --baseline",
    )
    parser.add_argument("--time", type=float, default=0.1, help="seconds a move for --strength")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="--time is wall time, or each engine's own CPU time (fairer on a busy machine)",
    )
    parser.add_argument(
        "--iterations", type=int, default=None, help="simulations a move instead of --time"
    )
    parser.add_argument(
        "--candidate",
        default="",
        help="the candidate's settings, e.g. 'exploration=0.5 solver=true' (default: hard as it is)",
    )
    parser.add_argument(
        "--exploration", type=float, default=None, help="the candidate's UCT constant"
    )
    parser.add_argument(
        "--baseline",
        default=BASELINE_REF,
        help=f"git commit whose hard is the opponent (default {BASELINE_REF}), 'plain' (this "
        "checkout's search as it was before issue 29), or 'here:SETTINGS' (this checkout's engine "
        "with those settings)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="games played at a time")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    if args.strength:
        candidate = parse_config(args.candidate)
        if args.exploration is not None:
            candidate["exploration"] = args.exploration
        strength(
            args.strength,
            None if args.iterations else args.time,
            args.iterations,
            args.clock,
            candidate,
            args.baseline,
            args.jobs,
        )
        return
    if args.versus_openspiel:
        if importlib.util.find_spec("pyspiel") is None:
            raise SystemExit("the side-by-side search needs OpenSpiel: pip install open_spiel")
        measured = versus_openspiel_rows(args.quick)
    else:
        measured = count_rows() if args.count else rows(args.quick)
    rates = {
        r["key"]: r["result"] / r["seconds"]  # type: ignore[operator]
        for r in measured
        if r["result"]
    }
    print(f"{'measurement':<74} {'wall s':>8} {'peak MiB':>9} {'rate':>24}  ratio")
    for r in measured:
        rate = rates.get(r["key"])
        text = f"{rate:,.0f} {r['unit']}/s" if rate else ""
        versus = r["versus"]
        ratio = f"{rate / rates[versus]:,.1f}x {versus}" if rate and versus in rates else ""
        print(f"{r['label']:<74} {r['seconds']:>8.3f} {r['peak_mib']:>9.0f} {text:>24}  {ratio}")
    if args.count:
        return
    if args.versus_openspiel:
        for prefix, who in (("oxo", "hard's search"), ("plain", "the plain search")):
            ratios = [
                rates[r["key"]] / rates[r["versus"]]  # type: ignore[index]
                for r in measured
                if str(r["key"]).startswith(prefix + " ")
                and r["versus"] in rates
                and r["key"] in rates
            ]
            if ratios:
                print(
                    f"oxo ({who}) over OpenSpiel's C++ MCTS: {min(ratios):.1f}x to "
                    f"{max(ratios):.1f}x (geometric mean {statistics.geometric_mean(ratios):.1f}x) "
                    "simulations per second"
                )
        print(
            "(OpenSpiel's tree has a level for a free choice of grid, then the cell; oxo's tree "
            "has one level per move; OpenSpiel plays every rollout to the end uniformly at random, "
            "hard's playouts take a win of the game in one when there is one)"
        )
        return
    print(
        "(OpenSpiel counts actions: a move into a grid of the mover's choice is two actions, "
        "choose the grid then the cell)"
    )


if __name__ == "__main__":
    main()
