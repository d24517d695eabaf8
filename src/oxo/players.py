"""Computer players behind one small interface (:class:`ComputerPlayer`): ``choose(position) -> cell``.

* :class:`RandomPlayer` picks any legal move.
* :class:`PerfectPlayer` picks one of the solver's best moves (quickest win, slowest loss, or keep the draw).
* :class:`NoisyPlayer` plays perfectly except that, with a given probability, it picks a random move instead;
  the named levels of :data:`LEVELS` are such players, from ``random`` (always random) to ``perfect``.

Every player draws its randomness from its own seeded generator, so a game can be replayed. The
perfect player solves lazily: the first position it is asked about becomes the root of a solved
state space (see :mod:`oxo.solve`), reused while later positions stay inside it; so on boards of more
than 16 cells it can play once at most 16 cells are empty.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Protocol

from oxo.errors import MoveError, OxoError
from oxo.position import Position
from oxo.solve import Solution, solve


class PlayerError(OxoError):
    """An unknown player level, or a bad parameter for a player."""


class ComputerPlayer(Protocol):
    """Anything that picks a move: ``name`` for display, ``choose`` returns a legal cell ID."""

    name: str

    def choose(self, position: Position) -> int: ...


def _legal(position: Position) -> tuple[int, ...]:
    moves = position.legal_moves
    if not moves:
        raise MoveError(f"no legal move in position {position.to_status_string()}: the game is over")
    return moves


@dataclass
class RandomPlayer:
    """Plays a uniformly random legal move."""

    seed: int | None = None
    name: str = "random"
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def choose(self, position: Position) -> int:
        return self._rng.choice(_legal(position))


@dataclass
class PerfectPlayer:
    """Plays one of the best moves by the game value (ties broken at random)."""

    seed: int | None = None
    name: str = "perfect"
    _rng: random.Random = field(init=False, repr=False)
    _solution: Solution | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def solution(self, position: Position) -> Solution:
        """A solution whose space holds the position (the current one, or a new one rooted at the position)."""
        if self._solution is None or position not in self._solution.space:
            self._solution = solve(position)
        return self._solution

    def choose(self, position: Position) -> int:
        _legal(position)
        return self._rng.choice(self.solution(position).best_moves(position))


@dataclass
class NoisyPlayer:
    """Plays like :class:`PerfectPlayer`, except that with probability ``blunder`` it plays a random move."""

    blunder: float
    seed: int | None = None
    name: str = "noisy"
    _rng: random.Random = field(init=False, repr=False)
    _perfect: PerfectPlayer = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not 0.0 <= self.blunder <= 1.0:
            raise PlayerError(f"a blunder probability is between 0 and 1, got {self.blunder}")
        self._rng = random.Random(self.seed)
        self._perfect = PerfectPlayer(seed=self._rng.randrange(2**32))

    def choose(self, position: Position) -> int:
        moves = _legal(position)
        if self.blunder >= 1.0 or self._rng.random() < self.blunder:
            return self._rng.choice(moves)
        return self._perfect.choose(position)


#: Named levels: the probability of a random move instead of a best one.
LEVELS: dict[str, float] = {"random": 1.0, "easy": 0.5, "medium": 0.25, "hard": 0.1, "perfect": 0.0}


def make_player(level: str, seed: int | None = None) -> ComputerPlayer:
    """The player for a named level of :data:`LEVELS`."""
    if level not in LEVELS:
        raise PlayerError(f"unknown level {level!r}; use one of {', '.join(LEVELS)}")
    if level == "random":
        return RandomPlayer(seed)
    if level == "perfect":
        return PerfectPlayer(seed)
    return NoisyPlayer(LEVELS[level], seed, name=level)
