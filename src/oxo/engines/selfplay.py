"""Engine against engine: play games to the end and count the outcomes, on any game."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Unpack

from oxo.engines.base import Budget, Engine
from oxo.engines.levels import make_engine, normalize_level
from oxo.errors import OutOfReachError, OxoError
from oxo.game import GameState
from oxo.progress import SILENT, ProgressSink
from oxo.records import attributes

#: Builds a level's engine: :func:`oxo.engines.make_engine`, or a game's own (its descriptor's
#: ``make_engine`` in :mod:`oxo.registry`: gravity boards' perfect and best use the exact solver).
EngineMaker = Callable[..., Engine]


@dataclass(frozen=True)
class SelfPlayStats:
    """Outcomes of a self-play run and the mean game length."""

    games: int
    x_wins: int
    o_wins: int
    draws: int
    total_moves: int
    seconds: float
    x: str
    o: str
    seed: int | None
    #: The games that could not be played to their end, each in a sentence: a side that must
    #: solve its move exactly (perfect) found it out of reach. They are not in the counts above.
    unfinished: tuple[str, ...] = ()

    @property
    def mean_moves(self) -> float:
        return self.total_moves / self.games if self.games else 0.0

    def share(self, outcome: str) -> float:
        """Share of games won by ``"x"``, by ``"o"``, or ``"draw"``."""
        count = {"x": self.x_wins, "o": self.o_wins, "draw": self.draws}[outcome]
        return count / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, object]:
        return {
            **attributes(self, "games x_wins o_wins draws"),
            **{f"{outcome}_share": round(self.share(outcome), 6) for outcome in ("x", "o", "draw")},
            "mean_moves": round(self.mean_moves, 4),
            "seconds": round(self.seconds, 3),
            **attributes(self, "x o seed"),
            "unfinished": list(self.unfinished),
        }


def play_game(start: GameState, x_engine: Engine, o_engine: Engine) -> tuple[GameState, int]:
    """Play from ``start`` to the end, each side choosing with its engine; the final state and the
    moves played. A move out of reach stops the game: :class:`OutOfReachError` naming the side, its
    engine and the ply, with the engine's own reason."""
    state, moves = start, 0
    while not state.is_over:
        engine = x_engine if state.to_move == "x" else o_engine
        try:
            move = engine.choose(state)
        except OutOfReachError as error:
            side = (state.to_move or "?").upper()
            raise OutOfReachError(
                f"{side} ({engine.name}) stopped at move {moves + 1}: {error}"
            ) from None
        state = state.play(move)
        moves += 1
    return state, moves


def side_engines(
    start: GameState,
    x: str,
    o: str,
    *,
    make: EngineMaker = make_engine,
    **limits: Unpack[Budget],
) -> tuple[Engine, Engine]:
    """The engines of both sides (each with its own seed drawn from ``seed``), built by ``make``."""
    seed = limits.pop("seed", None)
    seeds = random.Random(seed)
    x_seed, o_seed = (
        (None, None) if seed is None else (seeds.getrandbits(63), seeds.getrandbits(63))
    )
    return make(x, start, seed=x_seed, **limits), make(o, start, seed=o_seed, **limits)


def selfplay(
    start: GameState,
    x: str,
    o: str,
    games: int,
    *,
    progress: ProgressSink = SILENT,
    on_game: Callable[[GameState], None] | None = None,
    make: EngineMaker = make_engine,
    **limits: Unpack[Budget],
) -> SelfPlayStats:
    """Play ``games`` games from ``start`` between the levels ``x`` and ``o`` and count the outcomes.

    ``on_game`` sees each final state (for a game's own statistics); ``make`` builds the engines
    (a game's own levels where it has them). A game in which a side finds its move out of reach
    (:class:`OutOfReachError`: perfect play that cannot be solved within its limits) is left
    unfinished, said in :attr:`SelfPlayStats.unfinished`, and the run goes on.
    """
    if games < 1:
        raise OxoError(f"the number of games must be at least 1, got {games}")
    x, o = normalize_level(x), normalize_level(o)
    engines = side_engines(start, x, o, make=make, **limits)
    started = time.perf_counter()
    counts = {"x": 0, "o": 0, "draw": 0}
    total = 0
    unfinished: list[str] = []
    for number in range(1, games + 1):
        try:
            final, moves = play_game(start, *engines)
        except OutOfReachError as error:
            unfinished.append(f"game {number}: {error}")
            progress.advance(1)
            continue
        counts[final.outcome or "draw"] += 1
        total += moves
        if on_game is not None:
            on_game(final)
        progress.advance(1)
    return SelfPlayStats(
        games - len(unfinished),
        counts["x"],
        counts["o"],
        counts["draw"],
        total,
        time.perf_counter() - started,
        x,
        o,
        limits.get("seed"),
        tuple(unfinished),
    )
