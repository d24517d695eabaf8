"""The one interface every game of oxo implements, and games built from a parameter string.

:class:`GameState` is what the engines (:mod:`oxo.engines`) know of a game, and all they know:
whose turn it is, the legal moves, the state after a move, whether the game is over and how it
ended, a key for transposition tables, the moves that win at once, and a text form. A classic
:class:`~oxo.position.Position` (any m×n board with any k, cubes such as 3x3x3 and 4x4x4) and a
:class:`~oxo.mega.rules.MegaState` both implement it. States are values: :meth:`GameState.play`
returns a new state and leaves the old one alone.

Optional abilities, used by engines when a state has them:

* ``evaluate() -> float``: a guess of the state's worth for the side to move, in (-1, 1);
* ``candidate_moves() -> tuple[int, ...]``: the moves worth searching, most promising first;
* ``solution()``: an exact solution of everything reachable, or ``None`` when out of reach;
* ``compiled_search(seed, exploration)``: a compiled Monte Carlo tree search for this game;
* ``blocks_are_forced``: True when a cell where the opponent would win must be taken at once.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Literal, Protocol, runtime_checkable

from oxo.errors import BoardSpecError

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


GameKind = Literal["mega", "uttt", "gravity", "board"]


def game_kind(spec: str, gravity: bool = False) -> GameKind:
    """Which game a name or board spec stands for: ``"mega"``, ``"uttt"`` (also ``"ultimate"``),
    ``"gravity"`` (a spec with ``,gravity``, the name ``connect4``, or any board with
    ``gravity=True``), else ``"board"`` (a classic board, parsed by :class:`oxo.geometry.Geometry`)."""
    from oxo.gravity.board import is_connect_four

    name = spec.strip().lower()
    if name == "mega":
        return "mega"
    if name in ("uttt", "ultimate"):
        return "uttt"
    if gravity or "gravity" in name or is_connect_four(name):
        return "gravity"
    return "board"


def new_game(spec: str, k: int | None = None, gravity: bool = False) -> GameState:
    """The start of a game from its name: ``"mega"`` for mega tic-tac-toe, ``"uttt"`` for ultimate
    tic-tac-toe, or a board such as
    ``"3x3"``, ``"5x5,k=4"``, ``"3x3x3"``, ``"15x15"`` with ``k=5`` (k defaults to the shortest side).
    ``"connect4"`` is Connect Four.
    A gravity board (marks drop to the bottom of their column) with ``gravity=True`` or ``,gravity``
    in the spec: ``"6x7,k=4,gravity"`` is Connect Four."""
    if not isinstance(spec, str):
        raise BoardSpecError(
            f"a game is named by text such as '3x3', '5x5,k=4' or 'mega', got {type(spec).__name__}"
        )
    kind = game_kind(spec, gravity)
    if kind == "mega":
        if k is not None:
            raise BoardSpecError("mega tic-tac-toe has no k: three big markers in a row win")
        from oxo.mega.rules import MegaState

        return MegaState()
    if kind == "uttt":
        if k is not None:
            raise BoardSpecError("ultimate tic-tac-toe has no k: three won grids in a row win")
        from oxo.uttt.rules import UtttState

        return UtttState()
    if kind == "gravity":
        from oxo.gravity.board import GravityBoard, GravityState

        return GravityState(GravityBoard.parse(spec, k))
    from oxo.geometry import Geometry
    from oxo.position import Position

    return Position.empty(Geometry.parse(spec, k))
