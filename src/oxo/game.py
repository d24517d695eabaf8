"""The one interface every game of oxo implements.

:class:`GameState` is what the engines (:mod:`oxo.engines`) know of a game, and all they know:
whose turn it is, the legal moves, the state after a move, whether the game is over and how it
ended, a key for transposition tables, the moves that win at once, and a text form. A classic
:class:`~oxo.position.Position` (any m×n board with any k, cubes such as 3x3x3 and 4x4x4) and a
:class:`~oxo.mega.rules.MegaState` both implement it. States are values: :meth:`GameState.play`
returns a new state and leaves the old one alone.

Optional abilities, used by engines when a state has them:

* ``evaluate() -> float``: a guess of the state's worth for the side to move, in (-1, 1);
* ``candidate_moves() -> tuple[int, ...]``: the moves worth searching, most promising first;
* ``compiled_search(seed, exploration)``: a compiled Monte Carlo tree search for this game;
* ``blocks_are_forced``: True when a cell where the opponent would win must be taken at once;
* ``empty_cells``: the empty cells, so that an engine knows whether an exact solver reaches.

A state holds no question about itself: a game's exact solver lives above the games, and its
descriptor hands it to the engines (:meth:`oxo.registry.Game.exact_solver`,
:data:`oxo.engines.ExactSolver`). Games are built from their names by
:func:`oxo.registry.find_game` (``oxo.new_game`` for short), above every game: this module, at the
bottom, imports none of them.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Literal, Protocol, runtime_checkable

Player = Literal["x", "o"]
Outcome = Literal["x", "o", "draw"]


@runtime_checkable
class GameState(Protocol):
    """A state of a two-player game in which X moves first and the sides alternate."""

    @property
    def to_move(self) -> Player | None:
        """``"x"`` or ``"o"``; ``None`` once the game is over."""

    @property
    def legal_moves(self) -> tuple[int, ...]:
        """The moves of the side to move, as integers (empty once the game is over)."""

    def play(self, move: int) -> GameState:
        """The state after a legal move (raises :class:`oxo.errors.MoveError` for an illegal one)."""

    @property
    def is_over(self) -> bool: ...

    @property
    def outcome(self) -> Outcome | None:
        """How the game ended (``"x"``, ``"o"`` or ``"draw"``), ``None`` while it goes on."""

    @property
    def key(self) -> Hashable:
        """Equal for states with the same future (up to symmetry where the game has it)."""

    def winning_moves(self, player: Player | None = None) -> tuple[int, ...]:
        """Moves with which ``player`` (default: the side to move) would win at once."""

    def text(self) -> str:
        """The state drawn as text for people."""

    def format_move(self, move: int) -> str:
        """A move as people write it."""

    def parse_move(self, text: str) -> int:
        """A move from how people write it (raises :class:`oxo.errors.OxoError` when malformed)."""


def other(player: Player) -> Player:
    """The opponent of a side."""
    return "o" if player == "x" else "x"
