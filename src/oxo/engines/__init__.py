"""Engines that play any game through the one game interface (:class:`oxo.game.GameState`), knowing
no game's rules: random, tactical, alpha-beta, Monte Carlo tree search with a solver, exact play;
and the levels that name them (:mod:`oxo.engines.levels`)."""

from oxo.engines.alphabeta import AlphaBetaEngine
from oxo.engines.base import Advice, Book, BookMove, Engine, SearchReport, Tactics
from oxo.engines.basic import RandomEngine, TacticalEngine
from oxo.engines.exact import ExactSolver, PerfectEngine
from oxo.engines.levels import (
    DEFAULT_LEVEL,
    DEFAULT_SECONDS,
    LEVELS,
    BestEngine,
    describe_level,
    make_engine,
    normalize_level,
)
from oxo.engines.mcts import MCTSEngine

__all__ = [
    "DEFAULT_LEVEL",
    "DEFAULT_SECONDS",
    "LEVELS",
    "Advice",
    "AlphaBetaEngine",
    "BestEngine",
    "Book",
    "BookMove",
    "Engine",
    "ExactSolver",
    "MCTSEngine",
    "PerfectEngine",
    "RandomEngine",
    "SearchReport",
    "Tactics",
    "TacticalEngine",
    "describe_level",
    "make_engine",
    "normalize_level",
]
