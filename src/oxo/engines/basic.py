"""The simplest engines: a uniformly random move, and a random move that never misses a win in one
nor leaves a win in one to the opponent (the ``easy`` level)."""

from __future__ import annotations

import random

from oxo.engines.base import Clock, SearchReport, forced_moves, legal_or_raise
from oxo.game import GameState


class RandomEngine:
    """Plays a legal move drawn uniformly (reproducible from ``seed``)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)
        self.last: SearchReport | None = None

    def candidates(self, state: GameState) -> tuple[int, ...]:
        """The moves drawn from."""
        return state.legal_moves

    def choose(self, state: GameState) -> int:
        clock = Clock(None)
        legal_or_raise(state)
        moves = self.candidates(state)
        move = moves[int(self._rng.random() * len(moves))]
        self.last = SearchReport.of_move(self.name, state, move, clock, nodes=len(moves))
        return move


class TacticalEngine(RandomEngine):
    """Takes a win in one, blocks the opponent's win in one, otherwise plays a random safe move."""

    name = "tactical"

    def candidates(self, state: GameState) -> tuple[int, ...]:
        return forced_moves(state)
