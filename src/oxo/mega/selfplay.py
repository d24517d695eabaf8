"""Self-play statistics: many games between two computer players, summed up.

Uniformly random players on both sides take the fast path (:mod:`oxo.mega.playout` in pure
Python, or :mod:`oxo.mega.compiled` with ``engine="compiled"``); any other pairing plays every
game through :class:`oxo.mega.rules.MegaState`, which checks each move.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Literal

from oxo.errors import OxoError
from oxo.mega.players import make_player
from oxo.mega.rules import MegaState
from oxo.progress import SILENT, ProgressSink

Engine = Literal["python", "compiled", "checked"]
KINDS = ("random", "mcts")


@dataclass(frozen=True)
class SelfPlayStats:
    """Outcomes of a self-play run, with the mean game length and the share with an abnormal string."""

    games: int
    x_wins: int
    o_wins: int
    draws: int
    total_moves: int
    abnormal_games: int
    seconds: float
    x: str
    o: str
    engine: str
    seed: int | None

    @property
    def mean_moves(self) -> float:
        return self.total_moves / self.games if self.games else 0.0

    @property
    def abnormal_share(self) -> float:
        """Share of games in which at least one string turned abnormal (rule 8)."""
        return self.abnormal_games / self.games if self.games else 0.0

    def share(self, outcome: str) -> float:
        """Share of games won by ``"x"``, by ``"o"``, or ``"draw"``."""
        count = {"x": self.x_wins, "o": self.o_wins, "draw": self.draws}[outcome]
        return count / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            "games": self.games,
            "x_wins": self.x_wins,
            "o_wins": self.o_wins,
            "draws": self.draws,
            "x_share": round(self.share("x"), 6),
            "o_share": round(self.share("o"), 6),
            "draw_share": round(self.share("draw"), 6),
            "mean_moves": round(self.mean_moves, 4),
            "abnormal_share": round(self.abnormal_share, 6),
            "seconds": round(self.seconds, 3),
            "x": self.x,
            "o": self.o,
            "engine": self.engine,
            "seed": self.seed,
        }


def selfplay(
    games: int,
    x: str = "random",
    o: str = "random",
    *,
    seconds: float | None = None,
    iterations: int | None = None,
    seed: int | None = None,
    engine: Engine | None = None,
    progress: ProgressSink = SILENT,
) -> SelfPlayStats:
    """Play ``games`` games of ``x`` against ``o`` (``random`` or ``mcts``) and count the outcomes.

    ``seconds``/``iterations`` is the search budget per move of an ``mcts`` side. ``engine``
    chooses how random-against-random games are played: ``python`` (default, the fast
    pure-Python loop), ``compiled`` (numba) or ``checked`` (every move through the engine).
    Pairings with a search always play through the engine.
    """
    if games < 1:
        raise OxoError(f"the number of games must be at least 1, got {games}")
    for kind in (x, o):
        if kind not in KINDS:
            raise OxoError(f"unknown player {kind!r}; choose one of {', '.join(KINDS)}")
    both_random = x == o == "random"
    if engine is None:
        engine = "python" if both_random else "checked"
    if engine not in ("python", "compiled", "checked"):
        raise OxoError(f"unknown engine {engine!r}; choose python, compiled or checked")
    if not both_random and engine != "checked":
        raise OxoError("only random-against-random games have a fast engine; use the checked engine")
    started = time.perf_counter()
    if engine == "python":
        counts = _python_games(games, seed, progress)
    elif engine == "compiled":
        counts = _compiled_games(games, seed, progress)
    else:
        counts = _checked_games(games, x, o, seconds, iterations, seed, progress)
    draws, x_wins, o_wins, total, abnormal = counts
    return SelfPlayStats(games, x_wins, o_wins, draws, total, abnormal, time.perf_counter() - started, x, o, engine, seed)


def _python_games(games: int, seed: int | None, progress: ProgressSink) -> list[int]:
    from oxo.mega.playout import playout

    rnd = random.Random(seed).random
    counts = [0, 0, 0, 0, 0]
    for number in range(games):
        outcome, moves, abnormal = playout(rnd)
        counts[outcome] += 1
        counts[3] += moves
        counts[4] += abnormal
        if number % 1000 == 999:
            progress.advance(1000)
    progress.advance(games % 1000)
    return counts


def _compiled_games(games: int, seed: int | None, progress: ProgressSink) -> list[int]:
    from oxo.mega import compiled

    rng = compiled.make_rng(seed)
    counts = [0, 0, 0, 0, 0]
    done = 0
    while done < games:
        chunk = min(50_000, games - done)
        totals = compiled.random_games(chunk, rng)
        counts = [a + int(b) for a, b in zip(counts, totals)]
        done += chunk
        progress.advance(chunk)
    return counts


def _checked_games(
    games: int, x: str, o: str, seconds: float | None, iterations: int | None, seed: int | None, progress: ProgressSink
) -> list[int]:
    seeds = random.Random(seed)
    side_seeds = (None, None) if seed is None else (seeds.getrandbits(63), seeds.getrandbits(63))
    players = (
        make_player(x, seconds=seconds, iterations=iterations, seed=side_seeds[0]),
        make_player(o, seconds=seconds, iterations=iterations, seed=side_seeds[1]),
    )
    counts = [0, 0, 0, 0, 0]
    for _ in range(games):
        state = play_game(players[0], players[1])
        counts[{"draw": 0, "x": 1, "o": 2}[state.winner or "draw"]] += 1
        counts[3] += state.move_count
        counts[4] += bool(state.abnormal_strings)
        progress.advance(1)
    return counts


def play_game(x_player, o_player, state: MegaState | None = None) -> MegaState:  # type: ignore[no-untyped-def]
    """Play a game to its end between two computer players (each move checked by the engine)."""
    state = state or MegaState()
    players = (x_player, o_player)
    while not state.is_over:
        state.play(players[state.player].choose(state))
    return state
