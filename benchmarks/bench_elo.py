"""How strong is each level? A round robin of oxo's levels on each game, and their Elo ratings.

Run:  python benchmarks/bench_elo.py                       (every game, about half an hour)
      python benchmarks/bench_elo.py --games 3x3,connect4 --per-pair 4 --time 0.05
      python benchmarks/bench_elo.py --write                (record and publish the result)
      python benchmarks/bench_elo.py --games uttt --write   (re-measure one game; the others keep
                                                             their recorded games)

On each game every two levels play ``--per-pair`` games (colours alternating: each plays X in half
of them) from the empty board, one game at a time in this process (one core). ``hard`` thinks
``--time`` seconds a move, ``medium`` a tenth of it; ``perfect`` (where the exact solver reaches the
empty board: 3x3, 4x4, Connect Four) plays proven moves, with no time limit that matters (on
Connect Four the opening comes from oxo's proof book, and the solver gets 60 s a move). Each level
keeps one engine for the whole game type, as ``oxo selfplay`` does for its games.

Ratings are the maximum-likelihood fit of ``oxo.engines.rating.fit_elo`` with random held at 0 Elo,
error bars (±) the 95 % interval from the Fisher information (1.96 standard deviations); each pair
that met counts one imaginary draw besides, so a level that won every game gets a finite rating,
which then only says "at least about this much" (the table marks such levels).

``--write`` records every game's result, the settings and the machine in ``results/elo.json``
(a run of some of the games replaces only their entries, each marked with its own command, commit
and machine),
the ratings in ``src/oxo/engines/ratings.json`` (read by ``oxo play --help`` and
``oxo selfplay --help``), and the tables between ``<!-- elo -->`` and ``<!-- /elo -->`` in
``docs/levels.md``; ``--docs-only`` rewrites the tables and the ratings from the record.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from _measure import commit, machine, replace_section  # noqa: E402
from oxo.engines.rating import Game, fit_elo  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "results" / "elo.json"
RATINGS = ROOT / "src" / "oxo" / "engines" / "ratings.json"
DOC = ROOT / "docs" / "levels.md"
MARKERS = ("<!-- elo -->", "<!-- /elo -->")

#: The games of the round robin: name, how ``new_game`` reads it, and the levels that play it.
GAMES: dict[str, tuple[str, int | None, tuple[str, ...]]] = {
    "3x3": ("3x3", None, ("random", "easy", "medium", "hard", "perfect")),
    "4x4": ("4x4", None, ("random", "easy", "medium", "hard", "perfect")),
    "connect4": ("connect4", None, ("random", "easy", "medium", "hard", "perfect")),
    "uttt": ("uttt", None, ("random", "easy", "medium", "hard")),
    "mega": ("mega", None, ("random", "easy", "medium", "hard")),
}
TITLES = {
    "3x3": "3x3 tic-tac-toe",
    "4x4": "4x4, four in a row",
    "connect4": "Connect Four (6x7, gravity)",
    "uttt": "ultimate tic-tac-toe",
    "mega": "mega tic-tac-toe",
}


def engine_for(level: str, start: Any, seconds: float, seed: int) -> Any:
    """The engine a person meets at ``level`` on the game of ``start`` (as ``oxo play`` builds it:
    through the game's descriptor, which hands the engines its exact solver)."""
    from oxo.registry import game_of

    game = game_of(start)
    # perfect on gravity boards: the solver's own limit (60 s), not the search budget of hard
    budget = None if level == "perfect" and game.family == "gravity" else seconds
    return game.make_engine(level, start, seconds=budget, seed=seed)


def round_robin(name: str, per_pair: int, seconds: float, seed: int) -> dict[str, object]:
    """Every pair of levels plays ``per_pair`` games of ``name``, colours alternating."""
    from oxo.engines.selfplay import play_game
    from oxo.registry import new_game

    spec, k, levels = GAMES[name]
    start = new_game(spec, k)
    seeds = random.Random(seed)
    engines = {level: engine_for(level, start, seconds, seeds.getrandbits(63)) for level in levels}
    games: list[dict[str, object]] = []
    moves_by_level = {level: [0, 0.0] for level in levels}
    started = time.perf_counter()
    print(f"{name}: {len(levels)} levels, {per_pair} games a pair, hard {seconds:g} s a move")
    for a, b in combinations(levels, 2):
        tally = [0, 0, 0]
        tick = time.perf_counter()
        for number in range(per_pair):
            x, o = (a, b) if number % 2 == 0 else (b, a)
            final, moves = play_game(
                start, _Timed(engines[x], moves_by_level[x]), _Timed(engines[o], moves_by_level[o])
            )
            outcome = final.outcome or "draw"
            games.append({"x": x, "o": o, "outcome": outcome, "moves": moves})
            score_a = 0.5 if outcome == "draw" else 1.0 if (outcome == "x") == (x == a) else 0.0
            tally[0 if score_a == 1 else 1 if score_a == 0.5 else 2] += 1
        print(
            f"  {a:>8} - {b:<8} {tally[0]:>3} wins {tally[1]:>3} draws {tally[2]:>3} losses "
            f"({time.perf_counter() - tick:.1f} s)",
            flush=True,
        )
    seconds_per_move = {
        level: round(spent / count, 4) if count else 0.0
        for level, (count, spent) in moves_by_level.items()
    }
    return {
        "game": name,
        "levels": list(levels),
        "per_pair": per_pair,
        "seconds": round(time.perf_counter() - started, 1),
        "seconds_per_move": seconds_per_move,
        "games": games,
    }


class _Timed:
    """An engine whose moves are counted and timed into ``tally`` (count, seconds)."""

    def __init__(self, engine: Any, tally: list) -> None:
        self.engine = engine
        self.tally = tally

    def choose(self, state: Any) -> int:
        tick = time.perf_counter()
        move = self.engine.choose(state)
        self.tally[0] += 1
        self.tally[1] += time.perf_counter() - tick
        return int(move)


def results_of(entry: dict[str, Any]) -> list[Game]:
    """The games of one round robin as the fit reads them (X's score against O)."""
    scores = {"x": 1.0, "draw": 0.5, "o": 0.0}
    return [Game(game["x"], game["o"], scores[game["outcome"]]) for game in entry["games"]]


def rate(entry: dict[str, Any]) -> dict[str, object]:
    """Ratings of one round robin (random = 0), with each level's games, points and sweeps."""
    ratings = fit_elo(results_of(entry), anchor="random", players=entry["levels"])
    points = {level: 0.0 for level in entry["levels"]}
    played = {level: 0 for level in entry["levels"]}
    for game in results_of(entry):
        points[game.first] += game.score
        points[game.second] += 1 - game.score
        played[game.first] += 1
        played[game.second] += 1
    # A gap no game crossed: when the levels rated at or above some level scored every point
    # against the rest, only the imaginary draws keep that gap finite, so the ratings above it
    # (relative to random) are lower bounds.
    results = results_of(entry)
    bounded: set[str] = set()
    for level in entry["levels"]:
        upper = {name for name in entry["levels"] if ratings.elo[name] >= ratings.elo[level]}
        if len(upper) == len(entry["levels"]):
            continue
        crossing = [g for g in results if (g.first in upper) != (g.second in upper)]
        if crossing and all((g.first in upper) == (g.score == 1.0) for g in crossing):
            bounded |= upper
    return {
        "game": entry["game"],
        **ratings.to_dict(),
        "played": played,
        "points": points,
        "lower_bounds": [level for level in entry["levels"] if level in bounded],
    }


def docs_tables(record: dict[str, Any]) -> str:
    lines = [MARKERS[0]]
    for entry, rated in zip(record["round_robins"], record["ratings"], strict=True):
        lines += [
            "",
            f"**{TITLES.get(entry['game'], entry['game'])}** ({len(entry['games'])} games, "
            f"{entry['per_pair']} a pair, {entry['seconds']:.0f} s of play in all)",
            "",
            "| level | Elo | 95 % interval | games | points | seconds a move |",
            "| --- | ---: | ---: | ---: | ---: | ---: |",
        ]
        for level in entry["levels"]:
            elo, error = rated["elo"][level], rated["error"][level]
            bound = " (at least)" if level in rated["lower_bounds"] else ""
            interval = "anchor" if level == rated["anchor"] else f"± {1.96 * error:.0f}"
            lines.append(
                f"| {level} | {elo:.0f}{bound} | {interval} | {rated['played'][level]} | "
                f"{rated['points'][level]:g} | {entry['seconds_per_move'][level]:.3f} |"
            )
        if "provenance" in entry:
            lines += ["", f"Re-measured alone: {_provenance(entry['provenance'])}."]
    others = (
        " (the games not re-measured alone)"
        if any("provenance" in entry for entry in record["round_robins"])
        else ""
    )
    lines += [
        "",
        f"Produced by {_provenance(record)}{others}; hard thinks {record['seconds']:g} s a "
        f"move, medium a tenth of it; every game's result is in `results/elo.json`.",
        MARKERS[1],
    ]
    return "\n".join(lines)


def _provenance(run: dict[str, Any]) -> str:
    """How a run was made: the command, the day, the commit and the machine."""
    return (
        f"`{run['command']}` on {run['started'][:10]} (commit {run['commit'][:10]}; "
        f"{run['machine']})"
    )


def publish(record: dict[str, Any]) -> None:
    from oxo.fileio import write_atomic

    summary = {
        "command": record["command"],
        "started": record["started"],
        "seconds": record["seconds"],
        "anchor": "random",
        "games": [
            {
                "game": rated["game"],
                "elo": {level: rated["elo"][level] for level in entry["levels"]},
                "error": {level: rated["error"][level] for level in entry["levels"]},
                "lower_bounds": rated["lower_bounds"],
            }
            for entry, rated in zip(record["round_robins"], record["ratings"], strict=True)
        ],
    }
    write_atomic(RATINGS, json.dumps(summary, indent=1, ensure_ascii=False) + "\n")
    replace_section(DOC, MARKERS, docs_tables(record))
    print(f"wrote {RATINGS} and the tables of {DOC}")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", default=",".join(GAMES), help="which games (comma separated)")
    parser.add_argument("--per-pair", type=int, default=10, help="games between two levels")
    parser.add_argument("--time", type=float, default=0.1, help="seconds a move of hard")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--write", action="store_true", help="record and publish")
    parser.add_argument("--docs-only", action="store_true", help="publish the recorded run")
    args = parser.parse_args()
    if args.docs_only:
        publish(json.loads(RECORD.read_text()))
        return
    from oxo import __version__
    from oxo.fileio import write_atomic

    names = [name.strip() for name in args.games.split(",")]
    unknown = [name for name in names if name not in GAMES]
    if unknown:
        parser.error(f"unknown game {unknown[0]!r}; choose from {', '.join(GAMES)}")
    record: dict[str, Any] = {
        "command": ("python benchmarks/bench_elo.py " + " ".join(sys.argv[1:])).strip(),
        "version": __version__,
        "commit": commit(),
        "machine": machine(),
        "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "seconds": args.time,
        "seed": args.seed,
        "round_robins": [],
        "ratings": [],
    }
    for number, name in enumerate(names):
        entry = round_robin(name, args.per_pair, args.time, args.seed + number)
        rated = rate(entry)
        record["round_robins"].append(entry)
        record["ratings"].append(rated)
        print(
            "  Elo (random = 0, ± 95 %): "
            + ", ".join(
                f"{level} {rated['elo'][level]:.0f} ± {1.96 * rated['error'][level]:.0f}"
                for level in entry["levels"]
            ),
            flush=True,
        )
    if args.write:
        record = merged(record)
        write_atomic(RECORD, json.dumps(record, indent=1) + "\n")
        print(f"recorded in {RECORD}")
        publish(record)


def merged(record: dict[str, Any]) -> dict[str, Any]:
    """The recorded run (``results/elo.json``) with this run's games in place of its entries for
    them, each marked with how it was made; this run alone when it covers every recorded game or
    nothing is recorded."""
    if not RECORD.exists():
        return record
    old = json.loads(RECORD.read_text())
    names = {entry["game"] for entry in record["round_robins"]}
    if names >= {entry["game"] for entry in old["round_robins"]}:
        return record
    provenance = {
        key: record[key] for key in ("command", "commit", "machine", "started", "seconds")
    }
    new = {
        entry["game"]: (entry, rated)
        for entry, rated in zip(record["round_robins"], record["ratings"], strict=True)
    }
    pairs = []
    for entry, rated in zip(old["round_robins"], old["ratings"], strict=True):
        if entry["game"] in new:
            entry, rated = new.pop(entry["game"])
            entry = {**entry, "provenance": provenance}
        pairs.append((entry, rated))
    pairs += [({**entry, "provenance": provenance}, rated) for entry, rated in new.values()]
    return {
        **old,
        "round_robins": [entry for entry, _ in pairs],
        "ratings": [rated for _, rated in pairs],
    }


if __name__ == "__main__":
    main()
