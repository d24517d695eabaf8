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

from oxo.engines.levels import normalize_level
from oxo.engines.selfplay import SelfPlayStats
from oxo.engines.selfplay import selfplay as play_levels
from oxo.errors import OxoError
from oxo.mega.rules import MegaState
from oxo.progress import SILENT, ProgressSink

Engine = Literal["python", "compiled", "checked"]
#: Who may play a side: a level of :mod:`oxo.engines.levels` (``mcts`` is the old name of ``hard``).
KINDS = ("random", "easy", "medium", "hard", "best", "mcts")


@dataclass(frozen=True)
class MegaSelfPlayStats(SelfPlayStats):
    """Self-play outcomes, with the share of games with an abnormal string and how the games were played."""

    abnormal_games: int = 0
    engine: str = "checked"

    @property
    def abnormal_share(self) -> float:
        """Share of games in which at least one string turned abnormal (rule 8)."""
        return self.abnormal_games / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            **super().to_dict(),
            "abnormal_share": round(self.abnormal_share, 6),
            "engine": self.engine,
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
) -> MegaSelfPlayStats:
    """Play ``games`` games of ``x`` against ``o`` (levels such as ``random`` or ``hard``) and count the outcomes.

    ``seconds``/``iterations`` is the search budget per move of a searching side. ``engine``
    chooses how random-against-random games are played: ``python`` (default, the fast
    pure-Python loop), ``compiled`` (numba) or ``checked`` (every move through the engine).
    Pairings with a search always play through the engine.
    """
    if games < 1:
        raise OxoError(f"the number of games must be at least 1, got {games}")
    for kind in (x, o):
        if kind not in KINDS:
            raise OxoError(f"unknown player {kind!r}; choose one of {', '.join(KINDS)}")
    x, o = normalize_level(x), normalize_level(o)
    both_random = x == o == "random"
    if engine is None:
        engine = "python" if both_random else "checked"
    if engine not in ("python", "compiled", "checked"):
        raise OxoError(f"unknown engine {engine!r}; choose python, compiled or checked")
    if not both_random and engine != "checked":
        raise OxoError(
            "only random-against-random games have a fast engine; use the checked engine"
        )
    started = time.perf_counter()
    if engine == "python":
        counts = _python_games(games, seed, progress)
    elif engine == "compiled":
        counts = _compiled_games(games, seed, progress)
    else:
        counts = _checked_games(games, x, o, seconds, iterations, seed, progress)
    draws, x_wins, o_wins, total, abnormal = counts
    return MegaSelfPlayStats(
        games,
        x_wins,
        o_wins,
        draws,
        total,
        time.perf_counter() - started,
        x,
        o,
        seed,
        abnormal_games=abnormal,
        engine=engine,
    )


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
    games: int,
    x: str,
    o: str,
    seconds: float | None,
    iterations: int | None,
    seed: int | None,
    progress: ProgressSink,
) -> list[int]:
    abnormal = [0]

    def count_abnormal(final: object) -> None:
        abnormal[0] += bool(final.abnormal_strings)  # type: ignore[attr-defined]  # final states here are MegaStates

    stats = play_levels(
        MegaState(),
        x,
        o,
        games,
        seconds=seconds,
        iterations=iterations,
        seed=seed,
        progress=progress,
        on_game=count_abnormal,
    )
    return [stats.draws, stats.x_wins, stats.o_wins, stats.total_moves, abnormal[0]]
