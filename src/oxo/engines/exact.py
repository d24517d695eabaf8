"""Proven play: from a game's exact solver where the position is in its reach, else from the game's
proof book where a certificate covers the position.

The engines know no solver: the game's descriptor (:meth:`oxo.registry.Game.exact_solver`) hands
one to :func:`oxo.engines.make_engine`, an :data:`ExactSolver`. Asked ``solver(state, limit)``, it
returns ``None`` beyond ``limit`` empty cells (or where it cannot reach), else an object that knows,
for every state reachable from ``state``, its value (``value(state).outcome``) and best moves
(``best_moves(state)``: the quickest win, the slowest loss, or a move that keeps the draw), and
whether it holds a state (``state in solution``). One solution serves a whole game while later
states stay inside it.

Beyond the solver's reach, a board oxo has proved has a proof book (:class:`~oxo.engines.base.Book`,
handed over by the descriptor as well): the move of a certificate that covers the position keeps
the proven result (a win stays a win, a draw is never lost). Where neither reaches, ``perfect``
says why and plays its fallback (the level ``hard``), and ``best`` plays hard.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from oxo.engines.base import Book, Clock, Engine, SearchReport, legal_or_raise
from oxo.errors import OutOfReachError
from oxo.game import GameState

#: Empty cells up to which a classic position is solved exactly for ``perfect`` (about 3 s at 16).
PERFECT_LIMIT = 16

#: A game's exact solver as the engines use it: ``solver(state, limit)`` is a solution of every
#: state reachable from ``state``, or ``None`` beyond ``limit`` empty cells (see the module's text).
#: A solver that answers for more empty cells than :data:`PERFECT_LIMIT` in a moment says how
#: many in its ``reach`` (:func:`solver_reach`).
ExactSolver = Callable[[Any, int], Any]


def solver_reach(solver: ExactSolver | None) -> int:
    """The most empty cells perfect play asks ``solver`` about: its ``reach`` where it has one
    (the boxes with gravity's), else :data:`PERFECT_LIMIT`."""
    reach = getattr(solver, "reach", PERFECT_LIMIT)
    return reach if isinstance(reach, int) else PERFECT_LIMIT


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


def in_reach(state: GameState, solver: ExactSolver | None, limit: int | None = None) -> bool:
    """Whether the exact ``solver`` (``None``: the game has none) can answer for ``state`` within
    ``limit`` empty cells (default: the solver's reach, :func:`solver_reach`); cheap: nothing is
    solved."""
    if solver is None:
        return False
    empty = getattr(state, "empty_cells", None)
    return empty is not None and len(empty) <= (solver_reach(solver) if limit is None else limit)


class PerfectEngine:
    """Plays one of the proven best moves (ties broken at random): the quickest win, the slowest loss,
    or a move that keeps the draw, where the exact solver reaches the position; else, with a
    ``book``, the move of a certificate that covers it. Where neither does, the ``fallback`` engine
    plays and its report says why (``note``); without a fallback :class:`OutOfReachError` is raised.
    """

    def __init__(
        self,
        seed: int | None = None,
        limit: int | None = None,
        solver: ExactSolver | None = None,
        *,
        book: Book | None = None,
        fallback: Engine | None = None,
        name: str = "perfect",
    ) -> None:
        self._rng = random.Random(seed)
        self._cache = ExactCache(solver, solver_reach(solver) if limit is None else limit)
        self.book = book
        self.fallback = fallback
        self.name = name
        self.last: SearchReport | None = None
        #: Why the last move did not come from a proof (None when it did).
        self.note: str | None = None

    @property
    def solver(self) -> ExactSolver | None:
        """The game's exact solver (``None``: the game has none, and every position is out of reach)."""
        return self._cache.solver

    def solve(self, state: GameState) -> Any:
        solution = self._cache.get(state)
        if solution is None:
            raise OutOfReachError(
                f"perfect play needs a position the exact solver can reach (at most {self._cache.limit} empty "
                "cells); use the level hard or best"
            )
        return solution

    def choose(self, state: GameState) -> int:
        clock = Clock(None)
        legal_or_raise(state)
        self.note = None
        if self.book is None and self.fallback is None:  # the exact solver alone
            self.last = proven_move(self.name, state, self.solve(state), self._rng, clock)
            return self.last.move
        if in_reach(state, self.solver, self._cache.limit):
            solution = self._cache.get(state)
            if solution is not None:
                self.last = proven_move(self.name, state, solution, self._rng, clock)
                return self.last.move
        if self.book is not None:
            advice = self.book.advise(state)
            if advice.move is not None:
                self.last = SearchReport.of_move(
                    f"{self.name} (proof book: {advice.note})",
                    state,
                    advice.move,
                    clock,
                    value=advice.value,
                )
                return advice.move
            self.note = advice.note
        else:
            self.note = f"more than {self._cache.limit} empty cells for the exact solver"
        if self.fallback is None:
            raise OutOfReachError(f"perfect play is out of reach here: {self.note}")
        move = self.fallback.choose(state)
        report = self.fallback.last
        assert report is not None, "an engine reports on every move it chooses"
        self.last = SearchReport(
            f"{report.engine} ({self.name} falls back: {self.note})",
            report.move,
            report.move_text,
            clock.elapsed,
            report.nodes,
            report.depth,
            report.value,
            report.expectation,
        )
        return move

    def covers(self, state: GameState) -> bool:
        """Whether a proof plays ``state`` (the exact solver reaches it, or a certificate covers it)."""
        if in_reach(state, self.solver, self._cache.limit):
            return True
        return self.book is not None and self.book.advise(state).move is not None
