"""Benchmark of mega tic-tac-toe: random self-play (pure Python, compiled), the checked engine, MCTS,
and OpenSpiel's ultimate_tic_tac_toe side by side when an interpreter with ``open_spiel`` is given.

Run:  python benchmarks/bench_mega.py                       (about a minute)
      python benchmarks/bench_mega.py --quick               (smaller runs)
      python benchmarks/bench_mega.py --openspiel /tmp/osvenv/bin/python
      python benchmarks/bench_mega.py --strength 20      (MCTS 20,000 against 2,000 simulations a move)
The checked engine's row plays through ``oxo.engines.selfplay.play_game`` with two ``RandomEngine``s
(``MegaState.play`` returns a new state, a copy, each move); the row after it pushes moves in place,
as the loop of ``oxo.mega.selfplay.play_game`` did before the engines package replaced it.
Each measurement runs in a fresh process and prints its wall time (imports and compilation
excluded unless the label says so), the peak resident memory of that process (getrusage) and
the rate it measures.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import machine  # noqa: E402
from _measure import measure as measure_child  # noqa: E402


def measure(
    label: str,
    code: str,
    setup: str = "",
    *,
    python: str = sys.executable,
    unit: str = "",
    env: dict[str, str] | None = None,
) -> dict[str, object]:
    """Run ``setup`` then time ``code`` in a child; ``code`` sets ``result`` to the units of work done."""
    row = measure_child(code, label=label, setup=setup, python=python, env=env)
    row["unit"] = unit
    return row


WARM_COMPILED = "from oxo.mega import compiled\ncompiled.random_games(2, compiled.make_rng(0))\n"
WARM_MCTS = "from oxo.mega import MegaState\nfrom oxo.engines import MCTSEngine\nMCTSEngine(iterations=300, seed=0).choose(MegaState())\n"
MIDGAME = "64 23 56 99 75 42 88 37 11 82 34 13 46 29 78 55 91 67"


def mega_rows(quick: bool) -> list[dict[str, object]]:
    scale = 1 if quick else 4
    rows = [
        measure(
            f"oxo: random self-play, pure Python, one game at a time ({5000 * scale:,} games)",
            f"""
            total = 0
            for _ in range({5000 * scale}):
                total += playout(rnd)[1]
            result = total
            """,
            "import random\nfrom oxo.mega.playout import playout\nrnd = random.Random(1).random",
            unit="moves",
        ),
        measure(
            f"oxo: random self-play through the checked engine ({200 * scale:,} games)",
            f"""
            total = 0
            for _ in range({200 * scale}):
                total += play_game(MegaState(), RandomEngine(None), RandomEngine(None))[1]
            result = total
            """,
            "from oxo.engines import RandomEngine\nfrom oxo.engines.selfplay import play_game\nfrom oxo.mega import MegaState",
            unit="moves",
        ),
        measure(
            f"oxo: the same, moves pushed in place, no engine objects ({200 * scale:,} games)",
            f"""
            total = 0
            for _ in range({200 * scale}):
                state = MegaState()
                while not state.is_over:
                    moves = state.legal_moves
                    state.push(moves[int(rnd() * len(moves))])
                total += state.move_count
            result = total
            """,
            "import random\nfrom oxo.mega import MegaState\nrnd = random.Random(1).random",
            unit="moves",
        ),
        measure(
            "oxo: import + first call of the compiled path, empty numba cache",
            WARM_COMPILED,
            env={"NUMBA_CACHE_DIR": tempfile.mkdtemp(prefix="numba-bench-")},
        ),
        measure("oxo: import + first call of the compiled path, warm numba cache", WARM_COMPILED),
        measure(
            "oxo: import + first MCTS move (300 simulations), warm numba cache",
            WARM_MCTS,
        ),
        measure(
            f"oxo: random self-play, compiled, batched ({250_000 * scale:,} games)",
            f"result = int(compiled.random_games({250_000 * scale}, compiled.make_rng(1))[3])",
            WARM_COMPILED,
            unit="moves",
        ),
        measure(
            f"oxo: MCTS from the empty board ({25_000 * scale:,} simulations)",
            f"engine = MCTSEngine(iterations={25_000 * scale}, seed=1)\nengine.choose(MegaState())\nresult = engine.last.nodes",
            WARM_MCTS,
            unit="simulations",
        ),
        measure(
            f"oxo: MCTS at move 19 of a game ({25_000 * scale:,} simulations)",
            f"engine = MCTSEngine(iterations={25_000 * scale}, seed=1)\nengine.choose(MegaState.replay({MIDGAME!r}))\nresult = engine.last.nodes",
            WARM_MCTS,
            unit="simulations",
        ),
        measure(
            "oxo: MCTS at 0.2 s a move, empty board",
            "engine = MCTSEngine(seconds=0.2, seed=1)\nengine.choose(MegaState())\nresult = engine.last.nodes",
            WARM_MCTS,
            unit="simulations",
        ),
    ]
    return rows


def openspiel_rows(python: str, quick: bool) -> list[dict[str, object]]:
    scale = 1 if quick else 4
    setup = "import random, pyspiel\ngame = pyspiel.load_game('ultimate_tic_tac_toe')\nrng = random.Random(1)"
    return [
        measure(
            f"OpenSpiel ultimate_tic_tac_toe: random games from a Python loop ({2000 * scale:,} games)",
            f"""
            total = 0
            for _ in range({2000 * scale}):
                state = game.new_initial_state()
                while not state.is_terminal():
                    state.apply_action(rng.choice(state.legal_actions()))
                    total += 1
            result = total
            """,
            setup,
            python=python,
            unit="moves",
        ),
        measure(
            f"OpenSpiel ultimate_tic_tac_toe: Python MCTS, empty board ({2000 * scale:,} simulations)",
            f"""
            bot = mcts.MCTSBot(game, 2.0, {2000 * scale}, mcts.RandomRolloutEvaluator(1, np.random.RandomState(1)),
                               random_state=np.random.RandomState(1))
            bot.step(game.new_initial_state())
            result = {2000 * scale}
            """,
            setup + "\nimport numpy as np\nfrom open_spiel.python.algorithms import mcts",
            python=python,
            unit="simulations",
        ),
    ]


def strength(games: int, strong: int, weak: int) -> None:
    """MCTS with ``strong`` simulations a move against ``weak``, colours alternating, both seeded."""
    from oxo.engines import MCTSEngine
    from oxo.engines.selfplay import play_game
    from oxo.mega import MegaState

    wins = draws = losses = 0
    for number in range(games):
        a = MCTSEngine(iterations=strong, seed=1000 + number)
        b = MCTSEngine(iterations=weak, seed=2000 + number)
        strong_is_x = number % 2 == 0
        state, _ = play_game(MegaState(), a, b) if strong_is_x else play_game(MegaState(), b, a)
        if state.outcome == "draw":
            draws += 1
        elif (state.outcome == "x") == strong_is_x:
            wins += 1
        else:
            losses += 1
    print(
        f"MCTS {strong:,} simulations/move against {weak:,}: {games} games, colours alternating: "
        f"{wins} wins, {draws} draws, {losses} losses for the stronger setting"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs")
    parser.add_argument(
        "--openspiel",
        metavar="PYTHON",
        default=None,
        help="an interpreter that can import pyspiel (kept out of oxo's venv)",
    )
    parser.add_argument(
        "--strength",
        type=int,
        metavar="GAMES",
        default=0,
        help="instead: MCTS 20,000 against 2,000 simulations a move, GAMES games",
    )
    args = parser.parse_args()
    print(f"machine: {machine()}")
    if args.strength:
        strength(args.strength, 20_000, 2_000)
        return
    rows = mega_rows(args.quick)
    if args.openspiel:
        rows += openspiel_rows(args.openspiel, args.quick)
    print(f"{'measurement':<86} {'wall s':>8} {'peak MiB':>9} {'rate':>22}")
    for row in rows:
        rate = ""
        if row["unit"] and row["result"]:
            rate = f"{row['result'] / row['seconds']:,.0f} {row['unit']}/s"
        print(f"{row['label']:<86} {row['seconds']:>8.3f} {row['peak_mib']:>9.0f} {rate:>22}")


if __name__ == "__main__":
    main()
