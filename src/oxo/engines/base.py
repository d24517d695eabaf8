"""What every engine shares: the report of a search, the engine protocol, and the tactics that no
engine may get wrong (take a win in one; do not hand the opponent a win in one)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol, TypedDict

from oxo.errors import MoveError
from oxo.game import GameState, Outcome, other


@dataclass(frozen=True)
class SearchReport:
    """What an engine did for its last move: the move, how hard it looked, and what it found.

    ``value`` is the proven outcome of the position with best play (``"x"``, ``"o"``, ``"draw"``) when the
    engine proved it, else ``None``; ``expectation`` is the engine's guess of the mover's result (1 win,
    0.5 draw, 0 loss) when it has one.
    """

    engine: str
    move: int
    move_text: str
    seconds: float
    nodes: int = 0
    depth: int | None = None
    value: Outcome | None = None
    expectation: float | None = None

    @classmethod
    def of_move(
        cls,
        engine: str,
        state: GameState,
        move: int,
        clock: Clock,
        *,
        nodes: int = 0,
        depth: int | None = None,
        value: Outcome | None = None,
        expectation: float | None = None,
    ) -> SearchReport:
        """The report of ``move`` chosen in ``state`` by ``engine``: the move written as the game
        writes it, the time read off the search's ``clock``, and what the search found."""
        return cls(
            engine, move, state.format_move(move), clock.elapsed, nodes, depth, value, expectation
        )

    def to_dict(self) -> dict[str, object]:
        expectation = (
            None
            if self.expectation is None or not math.isfinite(self.expectation)
            else round(self.expectation, 4)
        )
        return {
            "engine": self.engine,
            "move": self.move_text,
            "seconds": round(self.seconds, 4),
            "nodes": self.nodes,
            "depth": self.depth,
            "value": self.value,
            "expectation": expectation,
        }


@dataclass(frozen=True)
class Advice:
    """What a game's tactics search (a forcing-move search, given to an engine by the registry)
    found before the engine's own search: a forced win whose first move is ``move`` (``value`` the
    winner, proven), or the only moves that stop the opponent's forced win (``defences``: every
    other move loses to it). ``nodes`` and ``seconds`` are what the search cost; ``note`` says in
    a few words what was found, for reports."""

    move: int | None = None
    value: Outcome | None = None
    defences: tuple[int, ...] = ()
    nodes: int = 0
    seconds: float = 0.0
    note: str = ""


@dataclass(frozen=True)
class BookMove:
    """What a game's proof book (given to an engine by the registry) says in a position: the move
    of a certificate that covers it for the side to move (``value`` the proven winner when the
    certificate proves a win, else None), or ``move`` None when no certificate covers it; ``note``
    says which certificate and how the move was found, or why there is none (for reports)."""

    move: int | None
    value: Outcome | None = None
    note: str = ""
    seconds: float = 0.0


class Book(Protocol):
    """A game's proof book as an engine sees it: :meth:`advise` for the side to move, and a
    ``summary`` of what it proves (for the description of a level). An engine gets its own book
    (it may remember things during a game)."""

    @property
    def summary(self) -> str: ...

    def advise(self, state: GameState) -> BookMove: ...


class Budget(TypedDict, total=False):
    """How a computer player thinks, as every maker of engines takes it (each key may be left out or
    ``None``): ``seconds`` per move, or a fixed number of tree-search ``iterations`` or alpha-beta
    ``depth`` instead, and the ``seed`` of its random choices."""

    seconds: float | None
    iterations: int | None
    depth: int | None
    seed: int | None


#: A tactics search: the state and the seconds it may take; ``None`` when it found nothing.
Tactics = Callable[[GameState, float], Advice | None]


class Engine(Protocol):
    """Anything that picks a move for the side to move: ``name`` for display, ``choose`` a legal move.

    ``last`` is the report of the last search (``None`` before the first).
    """

    name: str
    last: SearchReport | None

    def choose(self, state: GameState) -> int: ...


def legal_or_raise(state: GameState) -> tuple[int, ...]:
    """The legal moves, or :class:`MoveError` when the game is over."""
    moves = state.legal_moves
    if not moves:
        raise MoveError("the game is over: there is no move to choose")
    return moves


def blocking_moves(state: GameState) -> tuple[int, ...]:
    """The legal moves on cells where the opponent would win at once (the moves that block it)."""
    mover = state.to_move
    if mover is None:
        return ()
    legal = set(state.legal_moves)
    return tuple(m for m in state.winning_moves(other(mover)) if m in legal)


def safe_moves(state: GameState, moves: Sequence[int] | None = None) -> tuple[int, ...]:
    """The moves after which the opponent cannot win at once; all of them if every move loses so."""
    moves = tuple(state.legal_moves if moves is None else moves)
    safe = []
    for move in moves:
        child = state.play(move)
        if child.is_over or not child.winning_moves():
            safe.append(move)
    return tuple(safe) or moves


def forced_moves(state: GameState) -> tuple[int, ...]:
    """The moves a strong player must choose among: a win in one when there is one, otherwise the moves
    that do not let the opponent win at once (all legal moves when none is safe)."""
    wins = state.winning_moves()
    if wins:
        return wins
    if getattr(state, "blocks_are_forced", False):
        blocks = blocking_moves(state)
        if blocks:
            return blocks
    return safe_moves(state)


def win_at_once(
    name: str, state: GameState, clock: Clock, depth: int | None = None
) -> SearchReport | None:
    """The report of engine ``name`` taking a win in one when the side to move has one (the first
    winning move; every search takes it before looking further), else ``None``."""
    wins = state.winning_moves()
    if not wins:
        return None
    return SearchReport.of_move(
        name,
        state,
        wins[0],
        clock,
        nodes=1,
        depth=depth,
        value=state.to_move,
    )


class Clock:
    """A deadline: ``expired()`` once ``seconds`` have passed since it was made (never without seconds)."""

    def __init__(self, seconds: float | None) -> None:
        self.started = time.perf_counter()
        self.deadline = None if seconds is None else self.started + seconds

    def expired(self) -> bool:
        return self.deadline is not None and time.perf_counter() >= self.deadline

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started
