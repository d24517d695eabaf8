"""The computer's levels on gravity boards: ``perfect`` and ``best`` use the exact bitboard solver
(the quickest win, the slowest loss), and in Connect Four's opening the columns of the certificates
oxo's proof run wrote (each keeps the proven result); the other levels are the engines every game
shares."""

from __future__ import annotations

import random
import time
from functools import partial
from typing import Unpack

from oxo.engines import make_engine
from oxo.engines.base import Budget, Engine, SearchReport
from oxo.errors import OutOfReachError
from oxo.game import GameState, Outcome, other
from oxo.gravity.board import GravityState
from oxo.gravity.solver import ExactSolution, solvable, solver_for

#: Seconds the solver gets per move at the level perfect when no thinking time is given.
PERFECT_SECONDS = 60.0


class SolverEngine:
    """Plays a proven best column (ties broken at random) when the solver finishes within ``seconds``;
    otherwise hands over to ``fallback``, or raises :class:`OutOfReachError` when there is none.
    With ``every_column`` false it proves one best column rather than valuing every column (a few
    times faster; ties are still broken at random among the columns it tries)."""

    def __init__(
        self,
        seconds: float,
        fallback: Engine | None = None,
        seed: int | None = None,
        name: str = "perfect",
        every_column: bool = True,
    ) -> None:
        self.seconds = seconds
        self.every_column = every_column
        self.fallback = fallback
        self.name = name
        self._rng = random.Random(seed)
        self.last: SearchReport | None = None

    def choose(self, state: GameState) -> int:
        if not isinstance(state, GravityState):
            raise TypeError("the gravity solver plays gravity boards only")
        started = time.perf_counter()
        from oxo.gravity.proof import book_move

        book = book_move(state)
        if book is not None:  # the opening, from the certificates oxo's proof run wrote
            self.last = SearchReport(
                f"{self.name} (proof book: {book.claim})",
                book.column,
                state.format_move(book.column),
                time.perf_counter() - started,
                value=book.value,
            )
            return book.column
        quick = _settled_column(state)
        if quick is not None:  # a win in one, or the one block: no search needed
            column, value = quick
            self.last = SearchReport(
                self.name,
                column,
                state.format_move(column),
                time.perf_counter() - started,
                value=value,
            )
            return column
        try:
            if not solvable(state.board):
                raise OutOfReachError(f"the exact solver does not hold {state.board.name}")
            solver = solver_for(state.board)
            before = solver.nodes
            if self.every_column:
                analysis = solver.analyze(state, seconds=self.seconds)
                best = analysis.best_columns
                move = best[int(self._rng.random() * len(best))]
                found = analysis.value
            else:
                move, found = solver.best_column(state, self.seconds, self._rng)
        except OutOfReachError:
            if self.fallback is None:
                raise
            move = self.fallback.choose(state)
            self.last = self.fallback.last
            return move
        self.last = SearchReport(
            "perfect",
            move,
            state.format_move(move),
            time.perf_counter() - started,
            nodes=solver.nodes - before,
            value=found.outcome,
        )
        return move


def _settled_column(state: GravityState) -> tuple[int, Outcome | None] | None:
    """A column the rules alone prove best, and the value when it is known: a win in one (the
    quickest win there is), or blocking the opponent's one playable winning cell (every other column
    loses at the next mark; the block loses no sooner). ``None`` when it takes a search. Without this
    an exact analysis of every column came first, which on Connect Four just out of the book can take
    seconds: past ``best``'s half second it handed a won position to ``hard``."""
    wins = state.winning_moves()
    if wins:
        return wins[0], state.to_move
    mover = state.to_move
    assert mover is not None
    threats = state.winning_moves(other(mover))
    if len(threats) == 1:
        return threats[0], None
    return None


def gravity_solution(state: GameState, limit: int = 16) -> ExactSolution | None:
    """Exact values and best moves of the states reachable from ``state`` (the gravity boards'
    :data:`~oxo.engines.ExactSolver`, for perfect play), from the bitboard solver; ``None`` beyond
    ``limit`` empty cells or on boards it cannot hold."""
    if not isinstance(state, GravityState):
        raise TypeError("the gravity solver solves gravity boards only")
    if not solvable(state.board) or len(state.empty_cells) > limit:
        return None
    return ExactSolution(state)


def describe_gravity_level(level: str, state: GameState) -> str:
    """How ``level`` plays on a gravity board, in a short phrase: ``perfect`` and ``best`` are the
    exact solver here (and the proof book in the opening where oxo ships one), not the classic
    boards' solver of at most 16 empty cells; the other levels as on every game."""
    from oxo.engines import describe_level
    from oxo.gravity.book import shipped_certificates

    if not isinstance(state, GravityState):
        raise TypeError("the gravity levels describe gravity boards only")
    book = (
        " (in the opening, the columns of the proof book oxo ships)"
        if shipped_certificates(state.board)
        else ""
    )
    if level == "perfect":
        return f"perfect play: the exact solver's best column at every move{book}"
    if level == "best":
        hard = describe_level("hard", state, gravity_solution)
        return (
            f"best: the exact solver's column when it finds one within half the thinking "
            f"time{book}, else {hard}"
        )
    return describe_level(level, state, gravity_solution)


def make_gravity_engine(
    level: str,
    state: GravityState,
    **limits: Unpack[Budget],
) -> Engine:
    """The engine of ``level`` on a gravity board: ``perfect`` is the solver (``seconds`` per move,
    60 by default, else out of reach), ``best`` the solver for half the thinking time and ``hard``
    for the rest when it does not finish; other levels as on every game."""
    seconds, seed = limits.pop("seconds", None), limits.get("seed")
    if level == "perfect":
        return SolverEngine(seconds or PERFECT_SECONDS, None, seed)
    shared = partial(make_engine, state=state, solver=gravity_solution, **limits)
    if level == "best":
        budget = seconds or 1.0
        hard = shared("hard", seconds=budget / 2)
        return SolverEngine(budget / 2, hard, seed, name="best", every_column=False)
    return shared(level, seconds=seconds)
