"""Levels of play that mean the same on every game.

=========  ==================================================================================
random     a uniformly random legal move
easy       random, except that it takes a win in one and blocks the opponent's win in one
medium     the hard engine with a tenth of the thinking time, a shallow search and no exact endgames
hard       the strongest search within the thinking time (``--time``, default 1 s): alpha-beta with
           a line-count evaluation where the game has one (classic boards), Monte Carlo tree search
           on the games without one; never misses a win in one nor allows one when it can be avoided
perfect    proven-optimal moves from the exact solver (quickest win, slowest loss); beyond its reach,
           on a board oxo has proved, the move of a certificate that covers the position (the
           proven result is kept), and hard where none does, saying so; refused before the game
           starts where neither a solver nor a proof can ever reach
best       perfect where the solver or a certificate covers the position, hard elsewhere (the
           default)
=========  ==================================================================================

How strong each level is, in Elo points per game (random = 0), is measured by a round robin
(``benchmarks/bench_elo.py``); :func:`oxo.engines.rating.strength_text` reads the recorded ratings
for ``--help``, and ``docs/levels.md`` has the tables.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Unpack

from oxo.engines.alphabeta import EXACT_LIMIT, AlphaBetaEngine
from oxo.engines.base import Book, Budget, Clock, Engine, SearchReport, Tactics
from oxo.engines.basic import RandomEngine, TacticalEngine
from oxo.engines.exact import (
    PERFECT_LIMIT,
    ExactSolver,
    PerfectEngine,
    in_reach,
    solver_reach,
)
from oxo.engines.mcts import MCTSEngine
from oxo.errors import OptionError, OutOfReachError
from oxo.game import GameState

LEVELS: tuple[str, ...] = ("random", "easy", "medium", "hard", "perfect", "best")
DEFAULT_LEVEL = "best"
#: Thinking time per move of ``hard`` (and a tenth of it for ``medium``) when none is given.
DEFAULT_SECONDS = 1.0
#: Older names still accepted: ``mcts`` was mega's search, now the level ``hard``.
ALIASES = {"mcts": "hard"}


def normalize_level(level: str) -> str:
    """The level's canonical name (aliases resolved); raises :class:`oxo.errors.OptionError` for unknown names."""
    name = ALIASES.get(level, level)
    if name not in LEVELS:
        raise OptionError(f"unknown level {level!r}; use one of {', '.join(LEVELS)}")
    return name


def _searcher(
    state: GameState,
    seconds: float,
    iterations: int | None,
    depth: int | None,
    seed: int | None,
    name: str,
    solver: ExactSolver | None,
    *,
    exact: bool = True,
    tactics: Tactics | None = None,
) -> Engine:
    """The searching engine of ``hard`` and ``medium``: alpha-beta where the game has an
    evaluation, else Monte Carlo tree search. With ``exact``, alpha-beta plays from the exact
    solution once the position has :data:`EXACT_LIMIT` empty cells on classic boards, and as many
    short of its solver's reach elsewhere (22 on Score Four, whose solver reaches 24)."""
    if getattr(state, "evaluate", None) is not None and iterations is None:
        return AlphaBetaEngine(
            seconds=seconds,
            depth=depth,
            seed=seed,
            name=name,
            exact_limit=EXACT_LIMIT + solver_reach(solver) - PERFECT_LIMIT if exact else 0,
            solver=solver,
            tactics=tactics,
        )
    return MCTSEngine(seconds=seconds, iterations=iterations, seed=seed, name=name)


def make_engine(
    level: str,
    state: GameState,
    *,
    solver: ExactSolver | None = None,
    tactics: Tactics | None = None,
    book: Book | None = None,
    **limits: Unpack[Budget],
) -> Engine:
    """The engine that plays ``level`` on the game of ``state`` (the position it starts from).

    ``seconds`` is the thinking time per move of ``hard`` (``medium`` gets a tenth); ``iterations``
    fixes the number of simulations of a tree search instead (reproducible with ``seed``), ``depth``
    the plies of an alpha-beta search. ``solver`` is the game's exact solver, which ``perfect``,
    ``best`` and the end of ``hard``'s games play from; ``tactics`` is the game's forcing-move search,
    which ``hard`` (and ``best`` where it plays hard) runs before its own
    (:class:`oxo.engines.alphabeta.AlphaBetaEngine`); ``book`` is the game's proof book (a fresh
    one for this engine), from which ``perfect`` and ``best`` play where a certificate covers the
    position and the solver does not reach. The registry's
    :meth:`~oxo.registry.Game.make_engine` passes the game's own (engines know no game): without a
    solver every position is out of its reach. Raises :class:`OutOfReachError` for ``perfect`` where
    the exact solver cannot reach ``state``.
    """
    level = normalize_level(level)
    seconds, iterations = limits.get("seconds"), limits.get("iterations")
    depth, seed = limits.get("depth"), limits.get("seed")
    if seconds is not None and not seconds > 0:
        raise OptionError(f"thinking time must be positive seconds, got {seconds}")
    if iterations is not None and iterations < 1:
        raise OptionError(f"iterations must be at least 1, got {iterations}")
    if depth is not None and depth < 1:
        raise OptionError(f"depth must be at least 1 ply, got {depth}")
    budget = DEFAULT_SECONDS if seconds is None else seconds
    if level == "random":
        return RandomEngine(seed)
    if level == "easy":
        engine = TacticalEngine(seed)
        engine.name = "easy"
        return engine
    if level == "medium":
        shallow = min(depth, 2) if depth is not None else 2
        few = None if iterations is None else max(1, iterations // 10)
        return _searcher(state, budget / 10, few, shallow, seed, "medium", solver, exact=False)
    if level == "hard":
        return _searcher(state, budget, iterations, depth, seed, "hard", solver, tactics=tactics)
    if level == "perfect":
        if book is not None:
            hard = _searcher(
                state, budget, iterations, depth, seed, "hard", solver, tactics=tactics
            )
            return PerfectEngine(seed, solver=solver, book=book, fallback=hard)
        if not in_reach(state, solver):
            raise OutOfReachError(
                f"perfect play is out of reach here: the exact solver handles positions with at most {solver_reach(solver)} "
                f"empty cells and this one has {len(getattr(state, 'empty_cells', ()))}; the strongest level that "
                "works is hard (or best, which turns perfect once the position is in reach)"
            )
        return PerfectEngine(seed, solver=solver)
    return BestEngine(
        _searcher(state, budget, iterations, depth, seed, "hard", solver, tactics=tactics),
        PerfectEngine(seed, solver=solver, book=book),
    )


@dataclass
class BestEngine:
    """Perfect play where the position is in the exact solver's reach or a certificate of the
    game's proof book covers it, the hard engine elsewhere."""

    hard: Engine
    perfect: PerfectEngine
    name: str = "best"
    last: SearchReport | None = None

    def using(self, state: GameState) -> str:
        """Which level plays ``state``: ``"perfect"`` or ``"hard"``."""
        return "perfect" if self.perfect.covers(state) else "hard"

    def choose(self, state: GameState) -> int:
        book = self.perfect.book
        if not in_reach(state, self.perfect.solver) and book is not None:
            advice = book.advise(state)
            if advice.move is not None:
                self.last = SearchReport.of_move(
                    f"perfect (proof book: {advice.note})",
                    state,
                    advice.move,
                    Clock(None),
                    value=advice.value,
                )
                return advice.move
            engine: Engine = self.hard
        else:
            engine = self.perfect if in_reach(state, self.perfect.solver) else self.hard
        move = engine.choose(state)
        self.last = engine.last
        return move


def describe_level(
    level: str, state: GameState, solver: ExactSolver | None = None, book: Book | None = None
) -> str:
    """A short phrase saying how a level plays on this game (whose exact solver is ``solver`` and
    proof book ``book``), for the start of a game."""
    level = normalize_level(level)
    if book is not None and level in ("perfect", "best") and not in_reach(state, solver):
        return f"{level}: {book.summary}, where a certificate covers the position; hard elsewhere"
    if level == "best":
        if in_reach(state, solver):
            return "best: perfect play (every move proven optimal)"
        searcher = (
            "alpha-beta search"
            if getattr(state, "evaluate", None) is not None
            else "Monte Carlo tree search"
        )
        later = (
            f", perfect once at most {solver_reach(solver)} cells are empty"
            if solver is not None
            else ""
        )
        return f"best: hard ({searcher}){later}"
    if level in ("hard", "medium"):
        searcher = (
            "alpha-beta search"
            if getattr(state, "evaluate", None) is not None
            else "Monte Carlo tree search"
        )
        return f"{level} ({searcher})"
    return {
        "random": "random moves",
        "easy": "easy (wins and blocks in one, otherwise random)",
        "perfect": "perfect play",
    }[level]
