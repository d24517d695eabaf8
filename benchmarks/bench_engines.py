"""Benchmark of the engines (oxo.engines) on every game: a ladder of the levels, the accuracy of hard
on positions with a known value, and the speed of playouts and searches.

Run:  python benchmarks/bench_engines.py            (about 7 minutes on 2 cores at load 2)
      python benchmarks/bench_engines.py --quick    (under 2 minutes: fewer games, positions, seconds)
      python benchmarks/bench_engines.py --only ladder|accuracy|speed   (one part)

(a) Ladder: on 3x3, 4x4 k=3, 5x5 k=4, 3x3x3 and mega, every pair of the levels random < easy < medium
    < hard plays --games games with each colour at --time seconds a move for hard (medium gets a tenth);
    on 4x4 k=3 hard also plays perfect; 15x15 k=5 plays a fifth of the games (at least one a colour).
    Each pairing prints its score and the Elo difference its score share implies; each level gets an
    Elo fitted to all its games (Bradley-Terry by minorisation-maximisation, one virtual draw added to
    every pairing so that a clean sweep stays finite), anchored at random = 0.
(b) Accuracy: random positions with 4 to 11 empty cells (uniformly random moves from the empty board,
    finished games thrown away) of 5x5 k=4, 4x5 k=4 and 6x5 k=4, valued by the exact solver
    (oxo.solve.solve). A move is right when it keeps the position's value: it wins where a win exists
    and does not lose where a draw exists (in a lost position every move is right). Measured for hard
    as shipped (make_engine("hard", seconds=0.5), which plays from the exact solution at up to 14 empty
    cells, so it is exact here by construction) and for hard's alpha-beta search alone (the same engine
    with exact_limit=0), and compared with a uniformly random move (the expected share of its moves
    that keep the value). The columns after "|" count only the open positions: the mover has no win
    in one and some move gives the value away.
(c) Speed: tactical random playouts (oxo.engines.mcts.rollout) against uniformly random playouts
    through the same GameState; MCTSEngine simulations from the empty board (pure Python on classic
    boards, the compiled search on mega); AlphaBetaEngine nodes from the empty board of 5x5 k=4 and
    15x15 k=5.

Each measurement runs in a fresh process (benchmarks/_measure.py; the code it runs must not assign
``started``, the wrapper's own clock) and prints its wall time (imports excluded) and the peak
resident memory of that process. Searches run on a clock, so a loaded machine makes the searching
levels weaker and the rates lower: the machine line gives the load.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import machine, measure  # noqa: E402

LEVELS = ("random", "easy", "medium", "hard")
LADDER_BOARDS = ("3x3", "4x4,k=3", "5x5,k=4", "3x3x3", "mega", "15x15,k=5")
ACCURACY_BOARDS = ("5x5,k=4", "4x5,k=4", "6x5,k=4")
SPEED_BOARDS = ("5x5,k=4", "3x3x3", "15x15,k=5", "mega")


# -- (a) ladder ----------------------------------------------------------------------------------------

LADDER_CODE = """
start = new_game({spec!r})
game = game_of(start)  # its engines: perfect, best and hard's endgames play from its exact solver, as in oxo selfplay
rows = []
for number, (low, high) in enumerate({pairs!r}):
    row = {{"low": low, "high": high, "games": 0, "high_points": 0.0, "high_wins": 0, "low_wins": 0, "draws": 0,
            "high_as_x": 0.0, "high_as_o": 0.0, "moves": 0, "seconds": 0.0}}
    for colour, (x, o) in enumerate(((high, low), (low, high))):
        stats = selfplay(start, x, o, {games}, seconds={seconds}, seed=1000 * number + colour, make=game.make_engine)
        high_wins = stats.x_wins if x == high else stats.o_wins
        low_wins = stats.o_wins if x == high else stats.x_wins
        points = high_wins + 0.5 * stats.draws
        row["games"] += stats.games
        row["high_points"] += points
        row["high_wins"] += high_wins
        row["low_wins"] += low_wins
        row["draws"] += stats.draws
        row["high_as_x" if x == high else "high_as_o"] += points
        row["moves"] += stats.total_moves
        row["seconds"] += stats.seconds
    rows.append(row)
result = rows
"""
LADDER_SETUP = (
    "from oxo.registry import game_of, new_game\nfrom oxo.engines.selfplay import selfplay"
)


def ladder_pairs(spec: str) -> list[tuple[str, str]]:
    pairs = [(low, high) for i, low in enumerate(LEVELS) for high in LEVELS[i + 1 :]]
    if spec == "4x4,k=3":
        pairs.append(("hard", "perfect"))
    return pairs


def elo_gap(points: float, games: int) -> float:
    """The Elo difference a score share implies (shares of 0 and 1 are moved half a game inwards)."""
    share = min(max(points, 0.5), games - 0.5) / games
    return 400 * math.log10(share / (1 - share))


def fit_elo(rows: list[dict[str, object]], prior: float = 1.0) -> dict[str, float]:
    """Bradley-Terry ratings (draws as half points) by minorisation-maximisation, with ``prior`` virtual
    drawn games added to every pairing; Elo = 400 log10(gamma), anchored at random = 0."""
    levels = sorted(
        {str(r["low"]) for r in rows} | {str(r["high"]) for r in rows},
        key=lambda name: (*LEVELS, "perfect").index(name),
    )
    points = dict.fromkeys(levels, 0.0)
    games: dict[tuple[str, str], float] = {}
    for row in rows:
        low, high, n, high_points = (
            str(row["low"]),
            str(row["high"]),
            int(row["games"]),
            float(row["high_points"]),
        )
        points[high] += high_points + prior / 2
        points[low] += n - high_points + prior / 2
        games[(low, high)] = games[(high, low)] = n + prior
    gamma = dict.fromkeys(levels, 1.0)
    for _ in range(5000):
        new = {}
        for level in levels:
            denominator = sum(
                n / (gamma[level] + gamma[b]) for (a, b), n in games.items() if a == level
            )
            new[level] = points[level] / denominator
        scale = new["random"]
        change = max(abs(math.log(new[level] / scale) - math.log(gamma[level])) for level in levels)
        gamma = {level: new[level] / scale for level in levels}
        if change < 1e-10:
            break
    return {level: 400 * math.log10(gamma[level]) for level in levels}


def ladder(quick: bool, seconds: float, games: int) -> list[dict[str, object]]:
    reports = []
    for spec in LADDER_BOARDS:
        per_colour = max(1, games // 5) if spec.startswith("15x15") else games
        pairs = ladder_pairs(spec)
        label = f"ladder {spec}: {len(pairs)} pairings x {2 * per_colour} games, hard {seconds:g} s/move"
        report = measure(
            LADDER_CODE.format(spec=spec, pairs=pairs, games=per_colour, seconds=seconds),
            setup=LADDER_SETUP,
            label=label,
        )
        report["load"] = os.getloadavg()[0]
        print_ladder(report)
        reports.append(report)
    return reports


def print_ladder(report: dict[str, object]) -> None:
    rows: list[dict[str, object]] = report["result"]  # type: ignore[assignment]
    print(
        f"\n{report['label']}: wall {report['seconds']:.1f} s, peak {report['peak_mib']:.0f} MiB, load {report['load']:.1f} at the end"
    )
    print(
        f"  {'pairing':<18} {'games':>5} {'score':>7} {'W-D-L':>9} {'as X':>6} {'as O':>6} {'Elo gap':>8} {'s/game':>7}"
    )
    for row in rows:
        n = int(row["games"])
        gap = elo_gap(float(row["high_points"]), n)
        sweep = "≥" if row["high_points"] in (0, n) else " "
        print(
            f"  {row['high'] + ' v ' + row['low']:<18} {n:>5} {row['high_points']:>7.1f} "
            f"{row['high_wins']:>3}-{row['draws']}-{row['low_wins']:<3} {row['high_as_x']:>6.1f} {row['high_as_o']:>6.1f} "
            f"{sweep}{gap:>+7.0f} {float(row['seconds']) / n:>7.2f}"
        )
    elo = fit_elo(rows)
    print("  fitted Elo: " + ", ".join(f"{level} {value:+.0f}" for level, value in elo.items()))
    report["elo"] = elo
    sys.stdout.flush()


# -- (b) accuracy ----------------------------------------------------------------------------------------

ACCURACY_SETUP = """
import random, time
from oxo.registry import game_of, new_game
from oxo.solve import solve
from oxo.engines import AlphaBetaEngine
"""
ACCURACY_CODE = """
rng = random.Random({seed})
start = new_game({spec!r})
positions = []
while len(positions) < {count}:
    empty = rng.randint(4, 11)
    state = start
    while len(state.legal_moves) > empty and not state.is_over:
        moves = state.legal_moves
        state = state.play(moves[rng.randrange(len(moves))])
    if not state.is_over:
        positions.append(state)
tally = {{"positions": 0, "hard": 0, "search": 0, "random": 0.0, "lost": 0, "win_in_one": 0,
          "open": 0, "hard_open": 0, "search_open": 0, "random_open": 0.0,
          "hard_seconds": 0.0, "search_seconds": 0.0, "solve_seconds": 0.0, "search_misses": []}}
for number, state in enumerate(positions):
    t0 = time.perf_counter()
    solution = solve(state)
    value = solution.value(state).outcome
    after = {{move: v.outcome for move, v in solution.move_values(state).items()}}
    tally["solve_seconds"] += time.perf_counter() - t0
    keeps = {{move for move, outcome in after.items() if outcome == value}}
    lost = value not in (state.to_move, "draw")
    win_in_one = bool(state.winning_moves())
    # "open": the mover has no win in one and not every move keeps the value (a move has to be found)
    is_open = not win_in_one and len(keeps) < len(after)
    random_share = len(keeps) / len(after)
    hard = game_of(state).make_engine("hard", state, seconds={seconds}, seed=number)
    search = AlphaBetaEngine(seconds={seconds}, seed=number, exact_limit=0, name="hard-search")
    t0 = time.perf_counter()
    hard_ok = hard.choose(state) in keeps
    tally["hard_seconds"] += time.perf_counter() - t0
    t0 = time.perf_counter()
    search_move = search.choose(state)
    tally["search_seconds"] += time.perf_counter() - t0
    search_ok = search_move in keeps
    if not search_ok:
        tally["search_misses"].append([state.to_status_string(), value, search_move, after[search_move], sorted(keeps)])
    tally["positions"] += 1
    tally["hard"] += hard_ok
    tally["search"] += search_ok
    tally["random"] += random_share
    tally["lost"] += lost
    tally["win_in_one"] += win_in_one
    if is_open:
        tally["open"] += 1
        tally["hard_open"] += hard_ok
        tally["search_open"] += search_ok
        tally["random_open"] += random_share
result = tally
"""


def accuracy(quick: bool, count: int, seconds: float) -> list[dict[str, object]]:
    reports = []
    for number, spec in enumerate(ACCURACY_BOARDS):
        label = f"accuracy {spec}: {count} positions, 4-11 empty, {seconds:g} s/move"
        report = measure(
            ACCURACY_CODE.format(seed=100 + number, spec=spec, count=count, seconds=seconds),
            setup=ACCURACY_SETUP,
            label=label,
        )
        report["spec"] = spec
        reports.append(report)
        print_accuracy([report], header=number == 0)
    if len(reports) > 1:
        total: dict[str, object] = {
            "spec": "all three",
            "label": "accuracy, all three boards",
            "seconds": sum(r["seconds"] for r in reports),
            "peak_mib": max(r["peak_mib"] for r in reports),
        }
        keys = [k for k, v in reports[0]["result"].items() if isinstance(v, (int, float))]
        total["result"] = {k: sum(r["result"][k] for r in reports) for k in keys}
        total["result"]["search_misses"] = [
            m for r in reports for m in r["result"]["search_misses"]
        ]
        print_accuracy([total], header=False)
        reports.append(total)
    return reports


def print_accuracy(reports: list[dict[str, object]], header: bool) -> None:
    if header:
        print(
            f"\n{'accuracy (share of moves that keep the value)':<46} {'wall s':>7} {'MiB':>5} {'n':>4} {'hard':>7} "
            f"{'search':>7} {'random':>7} {'hard/rnd':>8} | {'open n':>6} {'hard':>7} {'search':>7} {'random':>7}"
        )
    for report in reports:
        t = report["result"]
        n, o = t["positions"], t["open"]
        share = lambda a, b: f"{a / b:7.1%}" if b else "      -"  # noqa: E731
        print(
            f"{report['spec']:<46} {report['seconds']:>7.1f} {report['peak_mib']:>5.0f} {n:>4} {share(t['hard'], n)} "
            f"{share(t['search'], n)} {share(t['random'], n)} {t['hard'] / max(t['random'], 1e-9):>7.2f}x | {o:>6} "
            f"{share(t['hard_open'], o)} {share(t['search_open'], o)} {share(t['random_open'], o)}"
        )
        print(
            f"{'':<46} (lost for the mover {t['lost']}, win in one {t['win_in_one']}; engine seconds: hard "
            f"{t['hard_seconds']:.1f}, search alone {t['search_seconds']:.1f}, reference solving {t['solve_seconds']:.1f})"
        )
        if report["spec"] != "all three":
            for position, value, move, after, right in t["search_misses"]:
                print(
                    f"{'':<46} search alone missed: {position} ({value} with best play) played {move} ({after}); right: {right}"
                )
    sys.stdout.flush()


# -- (c) speed -------------------------------------------------------------------------------------------

SPEED_SETUP = """
import random, time
from oxo.registry import new_game
from oxo.engines.mcts import rollout
from oxo.engines import AlphaBetaEngine, MCTSEngine
start = new_game({spec!r})
if {spec!r} == "mega":
    MCTSEngine(iterations=300, seed=0).choose(start)  # compile / load the numba cache before the clock starts
"""
PLAIN_CODE = """
rng = random.Random(1)
count = moves = 0
t0 = time.perf_counter()
while time.perf_counter() - t0 < {seconds}:
    state = start
    while not state.is_over:
        legal = state.legal_moves
        state = state.play(legal[int(rng.random() * len(legal))])
        moves += 1
    count += 1
result = {{"count": count, "moves": moves}}
"""
ROLLOUT_CODE = """
rng = random.Random(1)
count = 0
t0 = time.perf_counter()
while time.perf_counter() - t0 < {seconds}:
    rollout(start, rng)
    count += 1
result = {{"count": count}}
"""
MEGA_PLAYOUT_CODE = """
from oxo.mega.playout import playout
rnd = random.Random(1).random
count = moves = 0
t0 = time.perf_counter()
while time.perf_counter() - t0 < {seconds}:
    moves += playout(rnd)[1]
    count += 1
result = {{"count": count, "moves": moves}}
"""
MCTS_CODE = """
engine = MCTSEngine(seconds={seconds}, seed=1)
engine.choose(start)
result = {{"count": engine.last.nodes}}
"""
ALPHABETA_CODE = """
engine = AlphaBetaEngine(seconds={seconds}, seed=1)
engine.choose(start)
result = {{"count": engine.last.nodes, "depth": engine.last.depth}}
"""


def speed(seconds: float) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []

    def row(
        spec: str,
        what: str,
        code: str,
        unit: str,
        compared: str | None = None,
        against: dict[str, object] | None = None,
    ) -> dict[str, object]:
        report = measure(
            code.format(seconds=seconds),
            setup=SPEED_SETUP.format(spec=spec),
            label=f"{spec}: {what}",
        )
        report["rate"] = report["result"]["count"] / report["seconds"]
        report["unit"] = unit
        report["compared"] = compared
        report["ratio"] = report["rate"] / against["rate"] if against else None
        rows.append(report)
        print_speed([report], header=len(rows) == 1)
        return report

    searches = {}
    for spec in SPEED_BOARDS:
        plain = row(spec, "uniform random playouts through GameState", PLAIN_CODE, "playouts")
        tactical = row(
            spec,
            "tactical rollouts (engines.mcts.rollout)",
            ROLLOUT_CODE,
            "playouts",
            "uniform playouts",
            plain,
        )
        if spec == "mega":
            row(
                spec,
                "mega's own pure-Python playout loop (uniform)",
                MEGA_PLAYOUT_CODE,
                "playouts",
                "tactical rollouts",
                tactical,
            )
        kind = "compiled" if spec == "mega" else "pure Python"
        searches[spec] = row(
            spec,
            f"MCTSEngine from the empty board ({kind})",
            MCTS_CODE,
            "simulations",
            "tactical rollouts",
            tactical,
        )
    for spec in ("5x5,k=4", "15x15,k=5"):
        row(
            spec,
            "AlphaBetaEngine from the empty board",
            ALPHABETA_CODE,
            "nodes",
            "MCTS simulations",
            searches[spec],
        )
    return rows


def print_speed(rows: list[dict[str, object]], header: bool) -> None:
    if header:
        print(f"\n{'speed':<62} {'wall s':>7} {'MiB':>5} {'rate':>22} {'ratio':>28}")
    for r in rows:
        ratio = f"{r['ratio']:.3g}x {r['compared']}" if r["ratio"] is not None else ""
        depth = f" (depth {r['result']['depth']})" if "depth" in r["result"] else ""
        print(
            f"{r['label'] + depth:<62} {r['seconds']:>7.2f} {r['peak_mib']:>5.0f} {r['rate']:>14,.1f} {r['unit'] + '/s':<7} {ratio:>28}"
        )
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="fewer games, positions and seconds (under 2 minutes)"
    )
    parser.add_argument(
        "--time",
        type=float,
        default=None,
        help="seconds a move for hard in the ladder (default 0.1; 0.05 with --quick)",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        help="games per colour per pairing (default 20; 2 with --quick)",
    )
    parser.add_argument(
        "--positions",
        type=int,
        default=None,
        help="positions per board for accuracy (default 200; 10 with --quick)",
    )
    parser.add_argument(
        "--only", choices=("ladder", "accuracy", "speed"), default=None, help="run one part only"
    )
    args = parser.parse_args()
    seconds = args.time or (0.05 if args.quick else 0.1)
    games = args.games or (2 if args.quick else 20)
    positions = args.positions or (10 if args.quick else 200)
    started = time.perf_counter()
    print(f"machine: {machine()}")
    print(f"command: python benchmarks/bench_engines.py {' '.join(sys.argv[1:])}".rstrip())
    if args.only in (None, "ladder"):
        ladder(args.quick, seconds, games)
    if args.only in (None, "accuracy"):
        accuracy(args.quick, positions, 0.5)
    if args.only in (None, "speed"):
        speed(0.5 if args.quick else 2.0)
    print(
        f"\ntotal {time.perf_counter() - started:.0f} s; load average now {os.getloadavg()[0]:.1f} "
        f"(1 min), {os.getloadavg()[1]:.1f} (5 min), {os.getloadavg()[2]:.1f} (15 min)"
    )


if __name__ == "__main__":
    main()
