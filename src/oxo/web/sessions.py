"""Games in progress on the server: one kind of session for every game, kept under an id.

A :class:`Game` holds a :class:`~oxo.game.GameState` (a classic :class:`~oxo.position.Position` on
any board, or a :class:`~oxo.mega.rules.MegaState`), who plays each side (``"human"`` or a level of
:mod:`oxo.engines`), the thinking time, the seed and the moves. Every move goes through the state's
own rules; computer moves come from :func:`oxo.engines.make_engine` at the side's level, the same
on every board. What differs between classic and mega games is only how a move is written and
what is drawn, and the game's descriptor (:mod:`oxo.registry`) says which (:func:`_classic_fields`,
:func:`_mega_fields`, :func:`_other_fields`).

The page stores a game's id and its moves in the browser, so a game survives a page reload and a
server restart. Sessions are mutable server state changed only on the event loop; what they hand out
(:meth:`Game.to_dict`) is a plain JSON-ready dict. The store is bounded (:data:`MAX_GAMES`, games
expire after :data:`IDLE_SECONDS` without a move, finished ones after :data:`FINISHED_SECONDS`).
"""

from __future__ import annotations

import json
import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from oxo import registry
from oxo.cache import BoundedCache
from oxo.engines import (
    DEFAULT_SECONDS,
    LEVELS,
    Engine,
    normalize_level,
)
from oxo.engines.exact import in_reach, solver_reach
from oxo.errors import MoveError, OutOfReachError, OxoError
from oxo.game import GameState, Player
from oxo.geometry import Geometry
from oxo.mega.rules import MegaState
from oxo.position import Position, position_status
from oxo.render.svg import classic_svg, mega_svg
from oxo.solve import Solution, Value, solve
from oxo.space import MAX_EMPTY
from oxo.web.thinking import Task, engine_for

#: Who may play a side: a person, or the computer at one of the levels of :mod:`oxo.engines`.
PLAYERS: tuple[str, ...] = ("human", *LEVELS)
#: Largest classic board the page plays (19x19).
MAX_PLAY_CELLS = 361
#: The explorer draws boards of at most this many cells (a game on a larger board has no
#: "Explore this position").
MAX_EXPLORE_CELLS = 64
#: Bounds of the computer's thinking time per move, in seconds.
MIN_SECONDS, MAX_SECONDS = 0.05, 10.0
#: Games kept in memory; the least recently used is forgotten first (the page can rebuild it from its moves).
MAX_GAMES = 500
#: A game nobody touched for this many seconds is forgotten (two hours) ...
IDLE_SECONDS = 2 * 3600.0
#: ... and a finished game after ten minutes.
FINISHED_SECONDS = 600.0


def _board(label: str, board: str, k: int | None = None) -> dict[str, Any]:
    game = registry.find_game(board, k)
    if game.family != "board":  # a game named by a word (mega, uttt, connect4), not a grid
        return {"id": board, "label": label, "kind": board, "board": board, "k": None}
    geometry = game.geometry  # type: ignore[attr-defined]  # a classic board's game has a geometry
    return {
        "id": geometry.spec,
        "label": label,
        "kind": "classic",
        "board": geometry.spec if geometry.gravity else geometry.spec_shape,  # with its gravity
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
    _board("Ultimate tic-tac-toe (each move sends the opponent to a grid)", "uttt"),
    _board("Connect Four (6x7, 4 in a row; marks drop to the bottom of their column)", "connect4"),
    _board("Score Four (4x4x4 with gravity: 16 columns of 4, 4 in a row)", "scorefour"),
    _board("4x4x4x4 hypercube, 4 in a row (a 4x4 grid of 4x4 layers)", "4x4x4x4"),
)


def solvable(geometry: Geometry) -> bool:
    """Whether the page can solve the board for the values of moves: small enough for the exact
    solver, and without gravity (which the classic solver does not know)."""
    return geometry.size <= MAX_EMPTY and not geometry.gravity


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
        self._solutions: BoundedCache[Geometry, Solution] = BoundedCache(maxsize)

    def ready(self, geometry: Geometry) -> bool:
        """Whether the board's solution is in memory (asking for it answers at once)."""
        return geometry in self._solutions

    def get(self, geometry: Geometry) -> Solution:
        """The solution of the board (raises :class:`WebInputError` for boards over ``MAX_EMPTY`` cells)."""
        if geometry.size > MAX_EMPTY:
            raise WebInputError(
                f"the solver handles boards of at most {MAX_EMPTY} cells; {geometry.spec} has {geometry.size}"
            )
        return self._solutions.get_or_compute(geometry, lambda: solve(geometry))


def relative_value(value: Value, mover: str) -> str:
    """``"win"``, ``"draw"`` or ``"loss"`` of a value, seen by ``mover``."""
    if value.winner is None:
        return "draw"
    return "win" if value.winner == mover else "loss"


def value_entry(outcome: str, plies: int) -> dict[str, Any]:
    """A move's value for the player making it: ``{"value": "win", "plies": 3, "text": "win in 3 plies"}``."""
    text = (
        "draw" if outcome == "draw" else f"{outcome} in {plies} {'ply' if plies == 1 else 'plies'}"
    )
    return {"value": outcome, "plies": plies, "text": text}


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
        return engine_for(level, start, seconds, None if seed is None else seed + (side == "o"))
    except OutOfReachError:
        raise WebInputError(f"players.{side}: {perfect_out_of_reach(start)}") from None


def perfect_out_of_reach(start: GameState) -> str:
    """Why ``perfect`` cannot play from ``start`` (the engine refused it), and what can."""
    game = registry.game_of(start)
    solver = game.exact_solver()
    exact = solver is not None  # 4x4x4x4 with gravity has none
    classic = game.family == "board" and exact
    where = (
        f"{game.name} has {len(getattr(start, 'empty_cells', start.legal_moves))} empty cells"
        if classic
        else f"{game.title} has no exact solver"
        if not exact
        else "this position is beyond it"
    )
    strongest = "best (hard until the position is in reach, then perfect)" if classic else "hard"
    return (
        f"perfect play is out of reach here: the exact solver handles positions with at most "
        f"{solver_reach(solver)} empty cells and {where}; the strongest level that works here is "
        f"{strongest}"
    )


def perfect_refusal(start: GameState) -> str | None:
    """Why ``perfect`` is refused at ``start`` (as a new game with it would be), or None when it plays."""
    try:
        engine_for("perfect", start, DEFAULT_SECONDS, None)
    except OutOfReachError:
        return perfect_out_of_reach(start)
    return None


# -- games --------------------------------------------------------------------------------------------

_MEGA_MOVE = re.compile(r"[1-9][1-9]")
_CELL_TEXT = re.compile(r"[0-9]{1,4}")
_OTHER_MOVE = re.compile(r"[0-9A-Za-z]{1,8}")


class Game:
    """A game of any kind between people and/or the computer at some level.

    Only the event loop changes a game (a move, an undo, the computer's answer applied), so no lock
    is needed; readers in worker threads take :attr:`current`, one immutable pair of the state and
    the moves, replaced as a whole at each change. The computer's search runs elsewhere
    (:mod:`oxo.web.thinking`); while it runs, :attr:`thinking` is the task that will apply its move.
    """

    def __init__(
        self,
        game_id: str,
        start: GameState,
        players: dict[str, str],
        seconds: float = DEFAULT_SECONDS,
        seed: int | None = None,
        solutions: SolutionCache | None = None,
        kind: str | None = None,
    ) -> None:
        #: The game's descriptor: its name, how moves are written, what it can do.
        self.game = registry.game_of(start)
        if self.game.size > MAX_PLAY_CELLS:
            raise WebInputError(
                f"board: the page plays boards of at most {MAX_PLAY_CELLS} cells; {self.game.name} has {self.game.size}"
            )
        for side, who in players.items():
            if who != "human":
                _engine(side, who, start, seconds, seed)  # refuses perfect out of reach now
        self.id = game_id
        #: "classic", "mega", or the ``new_game`` name of another game (see :data:`BOARDS`).
        self.kind = kind or ("classic" if self.game.family == "board" else self.game.short_name)
        self.start = start
        self.current: tuple[GameState, tuple[int, ...]] = (start, ())
        self.players = players
        self.seconds = seconds
        self.seed = seed
        self.last_search: dict[str, Any] | None = None
        self.thinking: Any = None  # the asyncio task of a running search, if any
        self.thinking_since: float | None = None
        #: The preparation of a certificate the computer's move waits for (:mod:`oxo.web.proofs`).
        self.preparing: Any = None
        self.touched = time.monotonic()  # set by the store at each request
        self._solutions = solutions or SolutionCache()
        #: The values of the moves of one position by the game's exact solver (boxes with gravity
        #: near the end, which the classic solver does not know), as (position, values).
        self._exact_values: tuple[GameState, dict[int, dict[str, Any]]] | None = None

    @property
    def state(self) -> GameState:
        return self.current[0]

    @property
    def moves(self) -> tuple[int, ...]:
        return self.current[1]

    @property
    def board(self) -> str:
        return self.game.name if self.game.family == "board" else self.kind

    @property
    def computer_to_move(self) -> bool:
        mover = self.state.to_move
        return mover is not None and self.players[mover] != "human"

    @property
    def is_thinking(self) -> bool:
        return self.thinking is not None and not self.thinking.done()

    def values_ready(self) -> bool:
        """Whether the values of the moves can be given at once (the board's solution is in
        memory, or the exact solver's values of this position are)."""
        state = self.state
        if self.exact_values_reach(state):
            held = self._exact_values
            return held is not None and held[0] == state
        return (
            not isinstance(state, Position)
            or not solvable(state.geometry)
            or self._solutions.ready(state.geometry)
        )

    def exact_values_reach(self, state: GameState) -> bool:
        """Whether the game's exact solver gives the values of ``state``'s moves: a box with
        gravity (Score Four) with few enough empty cells, the game still going."""
        if not isinstance(state, Position) or not state.geometry.gravity or state.is_over:
            return False
        solver = self.game.exact_solver()
        return solver is not None and in_reach(state, solver)

    def compute_exact_values(self) -> None:
        """The exact solver's values of the moves of the position on the board, kept for
        :meth:`to_dict` (the solver's search: up to a second near its reach; run off the event
        loop)."""
        state = self.state
        solver = self.game.exact_solver()
        if solver is None or not isinstance(state, Position) or not self.exact_values_reach(state):
            return
        solution = solver(state, solver_reach(solver))
        mover = state.to_move
        assert mover is not None  # the game is still going
        values = {}
        for move in state.legal_moves:
            value = solution.value(state.play(move))
            values[move] = value_entry(relative_value(value, mover), value.plies + 1)
        self._exact_values = (state, values)

    # -- moves as the API writes them: cell IDs on classic boards, GC text in mega -------------------

    def shown(self, move: int, state: GameState | None = None) -> int | str:
        state = self.state if state is None else state
        return move if self.game.family == "board" else state.format_move(move)

    def parse_move(self, value: Any, field: str = "move") -> int:
        """A move as documented: a cell ID (a JSON whole number, or its ASCII digits as text) on classic
        boards, GC text such as "55" in mega; anything else is refused naming ``field``."""
        state = self.state
        if self.game.family == "mega":
            if not isinstance(value, str) or not _MEGA_MOVE.fullmatch(value):
                raise WebInputError(
                    f'{field}: a mega move is text GC such as "55" (the grid, then the cell, each 1..9), got {json.dumps(value)[:40]}'
                )
            return state.parse_move(value)
        if self.game.family != "board":  # another game: its own move text, ASCII only
            if not isinstance(value, str) or not _OTHER_MOVE.fullmatch(value):
                raise WebInputError(
                    f"{field}: a move in {self.kind} is text such as {json.dumps(state.format_move(state.legal_moves[0]) if state.legal_moves else '55')}, got {json.dumps(value)[:40]}"
                )
            return state.parse_move(value)
        if isinstance(value, str) and _CELL_TEXT.fullmatch(value):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            raise WebInputError(
                f"{field}: a move on a classic board is a cell ID (a whole number) such as 4, got {json.dumps(value)[:40]}"
            )
        return value

    # -- reading ----------------------------------------------------------------------------------

    def result(self, state: GameState | None = None) -> str:
        state = self.state if state is None else state
        mega = self.game.family == "mega"
        outcome = state.outcome
        if isinstance(state, Position):
            # The library writes a classic position's sentence once (oxo.reports); the page adds who plays.
            status = position_status(state)
            text = status.text[:1].upper() + status.text[1:]
            if status.turn is None or outcome is not None:
                return text
            who = (
                "you"
                if self.players[status.turn] == "human"
                else f"computer: {self.players[status.turn]}"
            )
            return f"{text} ({who})"
        if outcome == "draw":
            return "Draw: no move is possible"
        if outcome is not None:
            return f"{outcome.upper()} wins" + (" with three big markers in a row" if mega else "")
        mover: Player = state.to_move  # type: ignore[assignment]  # no outcome yet: a player is to move
        who = "you" if self.players[mover] == "human" else f"computer: {self.players[mover]}"
        return f"{mover.upper()} to move ({who})"

    def to_dict(self, *, values: bool = False) -> dict[str, Any]:
        """The game as the API answers it (safe to call from a worker thread)."""
        state, moves = self.current
        outcome = state.outcome
        since = self.thinking_since
        data = {
            "id": self.id,
            "kind": self.kind,
            "board": self.board,
            "players": dict(self.players),
            "playing": {
                side: self.game.describe_level(who, state)
                for side, who in self.players.items()
                if who != "human"
            },
            "seconds": self.seconds,
            "seed": self.seed,
            "moves": [self.shown(m, state) for m in moves],
            "to_move": state.to_move,
            "winner": outcome if outcome in ("x", "o") else None,
            "outcome": outcome,
            "over": state.is_over,
            "result": self.result(state),
            "legal": [self.shown(m, state) for m in state.legal_moves],
            "computer_to_move": state.to_move is not None
            and self.players[state.to_move] != "human",
            "thinking": self.is_thinking,
            "thinking_seconds": None
            if since is None or not self.is_thinking
            else round(time.monotonic() - since, 1),
            "last_search": self.last_search,
        }
        if isinstance(state, Position):
            exact = None
            if self.exact_values_reach(state):
                held = self._exact_values
                exact = held[1] if held is not None and held[0] == state else {}
            data.update(_classic_fields(state, list(moves), self._solutions, values, exact))
        elif self.game.family == "mega":
            data.update(_mega_fields(state))  # type: ignore[arg-type]  # a mega game's state is a MegaState
        else:
            data.update(_other_fields(self.game, state, moves))
        return data

    # -- playing (on the event loop) ------------------------------------------------------------

    def _check_idle(self) -> None:
        if self.is_thinking:
            mover = self.state.to_move or "x"
            raise WebInputError(
                f"{mover.upper()} (the computer) is still thinking: wait for its move or cancel it"
            )

    def play(self, move: int, *, by_computer: bool = False) -> None:
        """Play a move for the side to move (a person's move unless ``by_computer``)."""
        state, moves = self.current
        mover = state.to_move
        if not by_computer:
            self._check_idle()
            if mover is not None and self.players[mover] != "human":
                raise WebInputError(
                    f"it is {mover.upper()}'s turn and {mover.upper()} is the computer: ask it to move"
                )
        self.current = (state.play(move), (*moves, move))
        if not by_computer:
            self.last_search = None

    def task(self) -> Task:
        """What the worker needs to choose the computer's move now."""
        state, moves = self.current
        mover = state.to_move
        if mover is None:
            raise MoveError("the game is over: there is no move to make")
        if self.players[mover] == "human":
            raise WebInputError(
                f"it is {mover.upper()}'s turn and {mover.upper()} is a person: click a cell"
            )
        seed = None if self.seed is None else self.seed + (mover == "o")
        return Task(self.id, mover, self.players[mover], self.start, state, self.seconds, seed)

    def apply(self, task: Task, move: int, report: dict[str, Any] | None) -> None:
        """Play the computer's move found for ``task`` (ignored when the game moved on meanwhile)."""
        if self.state is not task.state:
            return
        level = self.players[task.side]
        budget = (
            {"hard": task.seconds, "medium": task.seconds / 10}.get(report["engine"])
            if report
            else None
        )
        self.play(move, by_computer=True)
        self.last_search = (
            None
            if report is None
            else {**report, "side": task.side, "level": level, "budget": budget}
        )

    def undo(self) -> None:
        """Take back the last move, and the computer's moves before it, back to a person's turn."""
        self._check_idle()
        state, moves = self.current
        if not moves:
            raise MoveError("there is no move to undo")
        while moves:
            moves = moves[:-1]
            state = self.start
            for move in moves:
                state = state.play(move)
            mover = state.to_move
            if mover is None or self.players[mover] == "human":
                break
        self.current = (state, moves)
        self.last_search = None


def cell_size(position: Position) -> float:
    """Pixels per cell of a drawn board: big cells on small boards; the page scales the drawing down to fit a phone."""
    shape = position.geometry.shape
    if len(shape) > 3:  # a grid of layers, as many across as the third axis from the end
        return max(12.0, min(44.0, 540.0 / (shape[-3] * (shape[-1] + 0.5))))
    return 44.0 if len(shape) == 3 else min(96.0, 540.0 / max(shape))


def _classic_fields(
    position: Position,
    moves: list[int],
    solutions: SolutionCache,
    values: bool,
    exact: dict[int, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """What a classic game adds: the position, the winning lines, the move values (boards the
    solver reaches, or ``exact``: the exact solver's values on a box with gravity near the end,
    empty while not computed yet), the drawing."""
    geometry = position.geometry
    available = solvable(geometry) or exact is not None
    move_values = None
    if values and exact is not None:
        move_values = exact or None
    elif values and available:
        mover = position.to_move
        move_values = (
            {}
            if mover is None
            else {
                cell: value_entry(relative_value(value, mover), value.plies + 1)
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
        "explorable": geometry.size <= MAX_EXPLORE_CELLS,
        "svg": svg,
    }


def _other_fields(game: registry.Game, state: GameState, moves: tuple[int, ...]) -> dict[str, Any]:
    """What any other game adds: its record, its text and its own drawing (legal cells marked
    ``class="legal"`` with ``data-move`` are clickable on the page); on gravity boards the
    contents of each column too (:func:`_columns`)."""
    return {
        "record": " ".join(state.format_move(m) for m in moves),
        "text": state.text(),
        "values_available": False,
        "values": None,
        **({"columns": _columns(state)} if game.family == "gravity" else {}),
        "svg": game.draw_svg(state) if game.svg else "",
    }


def _columns(state: Any) -> list[dict[str, Any]]:
    """Each column of a gravity board as the page names it for screen readers: ``column`` (as a
    move is written), ``marks`` from the bottom up, ``open`` (a mark may drop there now) and
    ``full``."""
    board = state.board
    legal = set(state.legal_moves) if not state.is_over else set()
    return [
        {
            "column": state.format_move(col),
            "marks": [
                mark
                for mark in (state.cell(row, col) for row in range(board.rows))
                if mark in ("x", "o")
            ],
            "open": col in legal,
            "full": state.drop_cell(col) == 0,
        }
        for col in range(board.cols)
    ]


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
    """Games by id, bounded: at most ``maxsize`` (the least recently used is forgotten first), a game
    nobody touched for ``idle`` seconds is forgotten, and a finished one after ``finished`` seconds.

    A forgotten game answers 404; the page then rebuilds it from the moves it kept. ``clock`` is
    :func:`time.monotonic` unless a test passes its own.
    """

    def __init__(
        self,
        maxsize: int = MAX_GAMES,
        idle: float = IDLE_SECONDS,
        finished: float = FINISHED_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._games: BoundedCache[str, Game] = BoundedCache(maxsize)
        self._idle = idle
        self._finished = finished
        self._clock = clock

    @staticmethod
    def new_id() -> str:
        """A fresh, unguessable game id."""
        return secrets.token_urlsafe(9)

    def _expired(self, game: Game, now: float) -> bool:
        if game.is_thinking:
            return False
        limit = self._finished if game.state.is_over else self._idle
        return now - game.touched > limit

    def add(self, game: Game) -> Game:
        """Keep a game (made with an id from :meth:`new_id`) and return it; forget expired ones."""
        now = self._clock()
        game.touched = now
        for game_id, old in self._games.items():
            if self._expired(old, now):
                self._games.pop(game_id)
        return self._games.put(game.id, game)

    def get(self, game_id: str) -> Game:
        now = self._clock()
        game = self._games.get(game_id)  # now the most recently used
        if game is not None and self._expired(game, now):
            self._games.pop(game_id)
            game = None
        if game is None:
            raise GameNotFound(
                f"no game with id {game_id[:40]!r} is in progress (the server may have restarted, "
                "or the game was put away after a while without moves)"
            )
        game.touched = now
        return game

    def __len__(self) -> int:
        return len(self._games)
