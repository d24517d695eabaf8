"""Proven-optimal play from a game's exact solver, where the game has one and the position is in its reach.

The engines know no solver: the game's descriptor (:meth:`oxo.registry.Game.exact_solver`) hands
one to :func:`oxo.engines.make_engine`, an :data:`ExactSolver`. Asked ``solver(state, limit)``, it
returns ``None`` beyond ``limit`` empty cells (or where it cannot reach), else an object that knows,
for every state reachable from ``state``, its value (``value(state).outcome``) and best moves
(``best_moves(state)``: the quickest win, the slowest loss, or a move that keeps the draw), and
whether it holds a state (``state in solution``). One solution serves a whole game while later
states stay inside it.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from oxo.engines.base import Clock, SearchReport, legal_or_raise
from oxo.errors import OutOfReachError
from oxo.game import GameState

#: Empty cells up to which a classic position is solved exactly for ``perfect`` (about 3 s at 16).
PERFECT_LIMIT = 16

#: A game's exact solver as the engines use it: ``solver(state, limit)`` is a solution of every
#: state reachable from ``state``, or ``None`` beyond ``limit`` empty cells (see the module's text).
ExactSolver = Callable[[Any, int], Any]


class ExactCache:
    """The last solution asked for, reused while the states asked about stay reachable from its root."""

    def __init__(self, solver: ExactSolver | None, limit: int) -> None:
        self.solver = solver
        self.limit = limit
        self._solution: Any = None

    def get(self, state: GameState) -> Any:
        """A solution holding ``state``, or ``None`` when the game has no solver or it is out of reach."""
        if self._solution is not None and state in self._solution:
            return self._solution
        if self.solver is None:
            return None
        solution = self.solver(state, self.limit)
        if solution is not None:
            self._solution = solution
        return solution


def proven_move(
    name: str, state: GameState, solution: Any, rng: random.Random, clock: Clock
) -> SearchReport:
    """One of the solution's best moves in ``state`` (ties broken by ``rng``), reported with its value."""
    best = solution.best_moves(state)
    move: int = best[int(rng.random() * len(best))]
    return SearchReport.of_move(name, state, move, clock, value=solution.value(state).outcome)


def in_reach(state: GameState, solver: ExactSolver | None, limit: int = PERFECT_LIMIT) -> bool:
    """Whether the exact ``solver`` (``None``: the game has none) can answer for ``state`` (cheap:
    nothing is solved)."""
    if solver is None:
        return False
    empty = getattr(state, "empty_cells", None)
    return empty is not None and len(empty) <= limit


class PerfectEngine:
    """Plays one of the proven best moves (ties broken at random): the quickest win, the slowest loss,
    or a move that keeps the draw. Raises :class:`OutOfReachError` when the position is out of reach."""

    name = "perfect"

    def __init__(
        self,
        seed: int | None = None,
        limit: int = PERFECT_LIMIT,
        solver: ExactSolver | None = None,
    ) -> None:
        self._rng = random.Random(seed)
        self._cache = ExactCache(solver, limit)
        self.last: SearchReport | None = None

    @property
    def solver(self) -> ExactSolver | None:
        """The game's exact solver (``None``: the game has none, and every position is out of reach)."""
        return self._cache.solver

    def solve(self, state: GameState) -> Any:
        solution = self._cache.get(state)
        if solution is None:
            raise OutOfReachError(
                f"perfect play needs a position the exact solver can reach (at most {self._cache.limit} empty cells "
                "of a classic board); use the level hard or best"
            )
        return solution

    def choose(self, state: GameState) -> int:
        clock = Clock(None)
        legal_or_raise(state)
        self.last = proven_move(self.name, state, self.solve(state), self._rng, clock)
        return self.last.move
