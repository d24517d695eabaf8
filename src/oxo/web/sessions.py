"""Games in progress on the server: one kind of session for every game, kept under an id.

A :class:`Game` holds a :class:`~oxo.game.GameState` (a classic :class:`~oxo.position.Position` on
any board, or a :class:`~oxo.mega.rules.MegaState`), who plays each side (``"human"`` or a level of
:mod:`oxo.engines`), the thinking time, the seed and the moves. Every move goes through the state's
own rules; computer moves come from :func:`oxo.engines.make_engine` at the side's level, the same
on every board. What differs between classic and mega games is only how a move is written and
what is drawn, and that is a function of the state's type (:func:`_classic_fields`, :func:`_mega_fields`).

The page stores a game's id and its moves in the browser, so a game survives a page reload and a
server restart. Sessions are mutable server state, guarded by a lock per game; what they hand out
(:meth:`Game.to_dict`) is a plain JSON-ready dict.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections import OrderedDict
from typing import Any

from oxo.engines import (
    DEFAULT_SECONDS,
    LEVELS,
    Engine,
    describe_level,
    make_engine,
    normalize_level,
)
from oxo.engines.exact import PERFECT_LIMIT
from oxo.errors import MoveError, OutOfReachError, OxoError
from oxo.game import GameState, Player
from oxo.geometry import Geometry
from oxo.mega.rules import MegaState
from oxo.position import Position
from oxo.render.svg import classic_svg, mega_svg
from oxo.solve import Solution, Value, solve
from oxo.space import MAX_EMPTY

#: Who may play a side: a person, or the computer at one of the levels of :mod:`oxo.engines`.
PLAYERS: tuple[str, ...] = ("human", *LEVELS)
#: Largest classic board the page plays (19x19).
MAX_PLAY_CELLS = 361
#: Bounds of the computer's thinking time per move, in seconds.
MIN_SECONDS, MAX_SECONDS = 0.05, 10.0
#: Games kept in memory; the least recently used is forgotten first (the page can rebuild it from its moves).
MAX_GAMES = 500


def _board(label: str, board: str, k: int | None = None) -> dict[str, Any]:
    if board == "mega":
        return {"id": "mega", "label": label, "kind": "mega", "board": "mega", "k": None}
    geometry = Geometry.parse(board, k)
    return {
        "id": geometry.spec,
        "label": label,
        "kind": "classic",
        "board": geometry.spec_shape,
        "k": geometry.k,
    }


#: The boards the page offers (any other board up to MAX_PLAY_CELLS cells can be asked for through the API).
BOARDS: tuple[dict[str, Any], ...] = (
    _board("3x3, 3 in a row (tic-tac-toe)", "3x3"),
    _board("4x4, 3 in a row", "4x4", 3),
    _board("4x4, 4 in a row", "4x4"),
    _board("5x5, 4 in a row", "5x5", 4),
    _board("6x7, 4 in a row — Connect Four's size, without gravity", "6x7", 4),
    _board("3x3x3 cube, 3 in a row", "3x3x3"),
    _board("4x4x4 cube, 4 in a row (four layers)", "4x4x4"),
    _board("15x15, 5 in a row (gomoku)", "15x15", 5),
    _board("Mega tic-tac-toe", "mega"),
)


class WebInputError(OxoError):
    """A request the API cannot serve: a missing or malformed field, or a move out of turn."""


class GameNotFound(OxoError):
    """No game in progress has this id (the server restarted, or the game was forgotten)."""


# -- shared solutions ---------------------------------------------------------------------------------


class SolutionCache:
    """One solved state space per board, computed once and shared by every game and explorer request.

    Boards are solved from their empty position, so every position of a game is in the space. A
    lock per board keeps two requests from solving the same board twice.
    """

    def __init__(self, maxsize: int = 3) -> None:
        self._maxsize = maxsize
        self._solutions: OrderedDict[Geometry, Solution] = OrderedDict()
        self._locks: dict[Geometry, threading.Lock] = {}
        self._guard = threading.Lock()

    def get(self, geometry: Geometry) -> Solution:
        """The solution of the board (raises :class:`WebInputError` for boards over ``MAX_EMPTY`` cells)."""
        if geometry.size > MAX_EMPTY:
            raise WebInputError(
                f"the solver handles boards of at most {MAX_EMPTY} cells; {geometry.spec} has {geometry.size}"
            )
        with self._guard:
            lock = self._locks.setdefault(geometry, threading.Lock())
        with lock:
            with self._guard:
                if geometry in self._solutions:
                    self._solutions.move_to_end(geometry)
                    return self._solutions[geometry]
            solution = solve(geometry)
            with self._guard:
                self._solutions[geometry] = solution
                while len(self._solutions) > self._maxsize:
                    self._solutions.popitem(last=False)
            return solution


def relative_value(value: Value, mover: str) -> str:
    """``"win"``, ``"draw"`` or ``"loss"`` of a value, seen by ``mover``."""
    if value.winner is None:
        return "draw"
    return "win" if value.winner == mover else "loss"


# -- setting a game up --------------------------------------------------------------------------------


def check_players(players: Any) -> dict[str, str]:
    """``{"x": ..., "o": ...}`` with every level's canonical name; raises :class:`WebInputError` naming the field."""
    if players is None:
        players = {}
    if not isinstance(players, dict):
        raise WebInputError(
            f'players must be an object such as {{"x": "human", "o": "hard"}}, got {json.dumps(players)[:40]}'
        )
    extra = sorted(set(players) - {"x", "o"})
    if extra:
        raise WebInputError(f"players has sides x and o only, got {extra[0][:20]!r}")
    chosen = {}
    for side, default in (("x", "human"), ("o", "best")):
        who = players.get(side, default)
        if who != "human":
            try:
                who = normalize_level(who) if isinstance(who, str) else None
            except OxoError:
                who = None
        if who is None:
            raise WebInputError(
                f"unknown level {json.dumps(players.get(side))[:40]} for players.{side}; use human or one of {', '.join(LEVELS)}"
            )
        chosen[side] = who
    return chosen


def check_seconds(seconds: float) -> float:
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise WebInputError(
            f"seconds (the computer's time per move) is between {MIN_SECONDS} and {MAX_SECONDS}, got {seconds}"
        )
    return seconds


def _engine(side: str, level: str, start: GameState, seconds: float, seed: int | None) -> Engine:
    """The engine that plays a side; ``perfect`` out of the exact solver's reach is refused."""
    try:
        return make_engine(
            level, start, seconds=seconds, seed=None if seed is None else seed + (side == "o")
        )
    except OutOfReachError:
        classic = isinstance(start, Position)
        where = (
            f"{start.geometry.spec} has {len(start.empty_cells)} empty cells"
            if classic
            else "mega tic-tac-toe has no exact solver"
        )
        strongest = (
            "best (hard until the position is in reach, then perfect)" if classic else "hard"
        )
        raise WebInputError(
            f"players.{side}: perfect play is out of reach here: the exact solver handles classic positions with at most "
            f"{PERFECT_LIMIT} empty cells and {where}; the strongest level that works here is {strongest}"
        ) from None


# -- games --------------------------------------------------------------------------------------------


class Game:
    """A game of any kind between people and/or the computer at some level."""

    def __init__(
        self,
        game_id: str,
        start: GameState,
        players: dict[str, str],
        seconds: float = DEFAULT_SECONDS,
        seed: int | None = None,
        solutions: SolutionCache | None = None,
    ) -> None:
        if isinstance(start, Position) and start.geometry.size > MAX_PLAY_CELLS:
            raise WebInputError(
                f"the page plays boards of at most {MAX_PLAY_CELLS} cells; {start.geometry.spec} has {start.geometry.size}"
            )
        self.id = game_id
        self.start = start
        self.state = start
        self.players = players
        self.seconds = seconds
        self.seed = seed
        self.moves: list[int] = []
        self.lock = threading.Lock()
        self.last_search: dict[str, Any] | None = None
        self._solutions = solutions or SolutionCache()
        self._engines = {
            side: _engine(side, who, start, seconds, seed)
            for side, who in players.items()
            if who != "human"
        }

    @property
    def kind(self) -> str:
        return "mega" if isinstance(self.state, MegaState) else "classic"

    @property
    def board(self) -> str:
        state = self.state
        return state.geometry.spec if isinstance(state, Position) else "mega"

    @property
    def computer_to_move(self) -> bool:
        mover = self.state.to_move
        return mover is not None and self.players[mover] != "human"

    # -- moves as the API writes them: cell IDs on classic boards, GC text in mega -------------------

    def shown(self, move: int) -> int | str:
        return move if isinstance(self.state, Position) else self.state.format_move(move)

    def parse_move(self, value: Any) -> int:
        """A move as sent in JSON: a cell ID (a whole number) for classic boards, GC text such as "55" for mega."""
        if isinstance(self.state, MegaState):
            if not isinstance(value, str):
                raise WebInputError(
                    f'a mega move is text GC such as "55" (grid, then cell, both 1..9), got {json.dumps(value)[:40]}'
                )
            return self.state.parse_move(value)
        if isinstance(value, str) and len(value) < 12:
            return self.state.parse_move(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise WebInputError(
                f"a move on a classic board is a cell ID (a whole number) such as 4, got {json.dumps(value)[:40]}"
            )
        return value

    # -- reading ----------------------------------------------------------------------------------

    def result(self) -> str:
        state, mega = self.state, isinstance(self.state, MegaState)
        outcome = state.outcome
        if outcome == "draw":
            return "Draw: no move is possible" if mega else "Draw: the board is full"
        if outcome is not None:
            return f"{outcome.upper()} wins" + (" with three big markers in a row" if mega else "")
        mover: Player = state.to_move  # type: ignore[assignment]
        who = "you" if self.players[mover] == "human" else f"computer: {self.players[mover]}"
        return f"{mover.upper()} to move ({who})"

    def to_dict(self, *, values: bool = False) -> dict[str, Any]:
        state = self.state
        outcome = state.outcome
        data = {
            "id": self.id,
            "kind": self.kind,
            "board": self.board,
            "players": dict(self.players),
            "playing": {
                side: describe_level(who, state)
                for side, who in self.players.items()
                if who != "human"
            },
            "seconds": self.seconds,
            "seed": self.seed,
            "moves": [self.shown(m) for m in self.moves],
            "to_move": state.to_move,
            "winner": outcome if outcome in ("x", "o") else None,
            "outcome": outcome,
            "over": state.is_over,
            "result": self.result(),
            "legal": [self.shown(m) for m in state.legal_moves],
            "computer_to_move": self.computer_to_move,
            "last_search": self.last_search,
        }
        if isinstance(state, Position):
            data.update(_classic_fields(state, self.moves, self._solutions, values))
        else:
            data.update(_mega_fields(state))  # type: ignore[arg-type]
        return data

    # -- playing ----------------------------------------------------------------------------------

    def play(self, move: int, *, by_computer: bool = False) -> None:
        """Play a move for the side to move (a person's move unless ``by_computer``)."""
        mover = self.state.to_move
        if mover is not None and not by_computer and self.players[mover] != "human":
            raise WebInputError(
                f"it is {mover.upper()}'s turn and {mover.upper()} is the computer: ask it to move"
            )
        self.state = self.state.play(move)
        self.moves.append(move)
        if not by_computer:
            self.last_search = None

    def computer_move(self) -> int:
        """Let the computer play the side to move at its level (in the caller's thread: a worker thread)."""
        mover = self.state.to_move
        if mover is None:
            raise MoveError("the game is over: there is no move to make")
        engine = self._engines.get(mover)
        if engine is None:
            raise WebInputError(
                f"it is {mover.upper()}'s turn and {mover.upper()} is a person: click a cell"
            )
        move = engine.choose(self.state)
        report = engine.last
        budget = (
            {"hard": self.seconds, "medium": self.seconds / 10}.get(report.engine)
            if report
            else None
        )
        self.last_search = (
            None
            if report is None
            else {**report.to_dict(), "side": mover, "level": self.players[mover], "budget": budget}
        )
        self.play(move, by_computer=True)
        return move

    def undo(self) -> None:
        """Take back the last move, and the computer's moves before it, back to a person's turn."""
        if not self.moves:
            raise MoveError("there is no move to undo")
        while self.moves:
            self.moves.pop()
            state = self.start
            for move in self.moves:
                state = state.play(move)
            self.state = state
            if not self.computer_to_move:
                break
        self.last_search = None


def cell_size(position: Position) -> float:
    """Pixels per cell of a drawn board: big cells on small boards; the page scales the drawing down to fit a phone."""
    shape = position.geometry.shape
    return 44.0 if len(shape) == 3 else min(96.0, 540.0 / max(shape))


def _classic_fields(
    position: Position, moves: list[int], solutions: SolutionCache, values: bool
) -> dict[str, Any]:
    """What a classic game adds: the position, the winning lines, the move values (boards the solver reaches), the drawing."""
    geometry = position.geometry
    available = geometry.size <= MAX_EMPTY
    move_values = None
    if values and available:
        mover = position.to_move
        move_values = (
            {}
            if mover is None
            else {
                cell: {"value": relative_value(value, mover), "plies": value.plies + 1}
                for cell, value in solutions.get(geometry).move_values(position).items()
            }
        )
    svg = classic_svg(
        position,
        legal=True,
        last=moves[-1] if moves else None,
        values={cell: entry["value"] for cell, entry in move_values.items()}
        if move_values
        else None,
        cell=cell_size(position),
        layers_per_row=2 if geometry.dimensions == 3 and geometry.shape[0] > 3 else None,
    )
    return {
        "shape": list(geometry.shape),
        "k": geometry.k,
        "position": position.to_status_string(),
        "letters": position.to_letters(rows=True),
        "values_available": available,
        "values": {str(cell): entry for cell, entry in move_values.items()}
        if move_values is not None
        else None,
        "winning_lines": [list(cells) for _, cells in position.complete_lines],
        "svg": svg,
    }


def _mega_fields(state: MegaState) -> dict[str, Any]:
    """What a mega game adds: the record, the current string, big markers, rule 8, the drawing."""
    string = state.current_string
    return {
        "record": state.record,
        "rule8": state.rule8_applies() if not state.is_over else False,
        "covered": {str(grid): owner for grid, owner in state.covered.items()},
        "string": {
            "number": string.index + 1,
            "length": string.length,
            "played": [state.format_move(m) for m in string.played],
            "grids": list(string.grids),
            "positions": list(string.positions),
            "abnormal": string.abnormal,
        },
        "abnormal_strings": [i + 1 for i in state.abnormal_strings],
        "values_available": False,
        "values": None,
        "svg": mega_svg(state, cell=44),
    }


# -- the store ----------------------------------------------------------------------------------------


class GameStore:
    """Games by id, the least recently used forgotten beyond ``maxsize``."""

    def __init__(self, maxsize: int = MAX_GAMES) -> None:
        self._games: OrderedDict[str, Game] = OrderedDict()
        self._maxsize = maxsize
        self._guard = threading.Lock()

    @staticmethod
    def new_id() -> str:
        """A fresh, unguessable game id."""
        return secrets.token_urlsafe(9)

    def add(self, game: Game) -> Game:
        """Keep a game (made with an id from :meth:`new_id`) and return it."""
        with self._guard:
            self._games[game.id] = game
            while len(self._games) > self._maxsize:
                self._games.popitem(last=False)
        return game

    def get(self, game_id: str) -> Game:
        with self._guard:
            game = self._games.get(game_id)
            if game is None:
                raise GameNotFound(
                    f"no game with id {game_id!r} is in progress (the server may have restarted)"
                )
            self._games.move_to_end(game_id)
            return game

    def __len__(self) -> int:
        return len(self._games)
