"""Games in progress on the server: classic and mega games kept under an id, played through the library.

The page stores a game's id (and its moves, to rebuild it after a server restart) in the browser, so
a game survives a page reload. Every move goes through the library's rules (:meth:`Position.play`,
:meth:`MegaState.play`); computer moves come from the solver (classic, the levels of
:data:`oxo.players.LEVELS`) or from :class:`oxo.mega.players.MCTSPlayer` within its time budget.

Sessions are mutable server state, guarded by a lock per game; the values they hand out
(:meth:`ClassicGame.to_dict`, :meth:`MegaGame.to_dict`) are plain JSON-ready dicts.
"""

from __future__ import annotations

import math
import random
import secrets
import threading
from collections import OrderedDict
from typing import Any, Generic, TypeVar

from oxo.errors import MoveError, OxoError
from oxo.geometry import Geometry
from oxo.players import LEVELS
from oxo.position import Position
from oxo.render.svg import classic_svg, mega_svg
from oxo.solve import Solution, Value, solve
from oxo.space import MAX_EMPTY

#: Who may play a side of a classic game: a person, or the solver at one of its levels.
CLASSIC_PLAYERS: tuple[str, ...] = ("human", *LEVELS)
#: Who may play a side of a mega game.
MEGA_PLAYERS: tuple[str, ...] = ("human", "random", "mcts")
#: Largest classic board the page plays (people and the random player; the solver needs ≤ MAX_EMPTY cells).
MAX_PLAY_CELLS = 64
#: Bounds of the mega AI's thinking time per move, in seconds.
MIN_SECONDS, MAX_SECONDS = 0.05, 10.0
#: Games kept in memory; the least recently used is forgotten first (the page can rebuild it from its moves).
MAX_GAMES = 500


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


# -- classic games ------------------------------------------------------------------------------------


class ClassicGame:
    """A game on an m×n (or n×n×n) board between people and/or the solver."""

    kind = "classic"

    def __init__(self, game_id: str, geometry: Geometry, players: dict[str, str], seed: int | None, solutions: SolutionCache) -> None:
        self.id = game_id
        self.geometry = geometry
        self.players = players
        self.moves: list[int] = []
        self.position = Position.empty(geometry)
        self.lock = threading.Lock()
        self._rng = random.Random(seed)
        self._solutions = solutions

    # -- reading ------------------------------------------------------------------------------

    @property
    def computer_to_move(self) -> bool:
        mover = self.position.to_move
        return mover is not None and self.players[mover] != "human"

    def result(self) -> str:
        position = self.position
        if position.winner:
            return f"{position.winner.upper()} wins"
        if position.is_terminal:
            return "Draw: the board is full"
        mover = position.to_move
        who = "you" if self.players[mover] == "human" else f"computer: {self.players[mover]}"  # type: ignore[index]
        return f"{mover.upper()} to move ({who})"  # type: ignore[union-attr]

    def move_values(self) -> dict[int, dict[str, Any]]:
        """Each legal move's value for the player to move: win / draw / loss and plies to the end."""
        position = self.position
        mover = position.to_move
        if mover is None:
            return {}
        solution = self._solutions.get(self.geometry)
        return {
            cell: {"value": relative_value(value, mover), "plies": value.plies + 1}
            for cell, value in solution.move_values(position).items()
        }

    def to_dict(self, *, values: bool = False) -> dict[str, Any]:
        position = self.position
        move_values = self.move_values() if values else None
        svg = classic_svg(
            position,
            legal=True,
            last=self.moves[-1] if self.moves else None,
            values={cell: entry["value"] for cell, entry in move_values.items()} if move_values else None,
            cell=min(96.0, 360.0 / max(self.geometry.shape[-2:])) if self.geometry.dimensions == 2 else 36.0,
        )
        return {
            "id": self.id,
            "kind": self.kind,
            "board": self.geometry.spec,
            "shape": list(self.geometry.shape),
            "k": self.geometry.k,
            "players": dict(self.players),
            "moves": list(self.moves),
            "position": position.to_status_string(),
            "letters": position.to_letters(rows=True),
            "to_move": position.to_move,
            "winner": position.winner,
            "over": position.is_terminal,
            "result": self.result(),
            "legal": list(position.legal_moves),
            "computer_to_move": self.computer_to_move,
            "values": {str(cell): entry for cell, entry in move_values.items()} if move_values is not None else None,
            "winning_lines": [list(cells) for _, cells in position.complete_lines],
            "svg": svg,
        }

    # -- playing ------------------------------------------------------------------------------

    def play(self, cell: int, *, by_computer: bool = False) -> None:
        """Play a cell for the side to move (a person's move unless ``by_computer``)."""
        mover = self.position.to_move
        if mover is not None and not by_computer and self.players[mover] != "human":
            raise WebInputError(f"it is {mover.upper()}'s turn and {mover.upper()} is the computer: ask it to move")
        self.position = self.position.play(cell)
        self.moves.append(cell)

    def computer_move(self) -> int:
        """Let the solver play the side to move at its level; returns the cell played."""
        position = self.position
        mover = position.to_move
        if mover is None:
            raise MoveError("the game is over: there is no move to make")
        level = self.players[mover]
        if level == "human":
            raise WebInputError(f"it is {mover.upper()}'s turn and {mover.upper()} is a person: click a cell")
        legal = position.legal_moves
        if self._rng.random() < LEVELS[level]:
            cell = self._rng.choice(legal)
        else:
            cell = self._rng.choice(self._solutions.get(self.geometry).best_moves(position))
        self.play(cell, by_computer=True)
        return cell

    def undo(self) -> None:
        """Take back the last move, and the computer's moves after the last person's move."""
        if not self.moves:
            raise MoveError("there is no move to undo")
        while self.moves:
            self.moves.pop()
            self.position = Position.from_moves(self.geometry, self.moves)
            if not self.computer_to_move:
                break


def check_classic_setup(geometry: Geometry, players: dict[str, str]) -> None:
    """Raise :class:`WebInputError` unless the board and players can be played on the page."""
    for side, who in players.items():
        if who not in CLASSIC_PLAYERS:
            raise WebInputError(f"unknown player {who!r} for {side.upper()}; use one of {', '.join(CLASSIC_PLAYERS)}")
    if geometry.size > MAX_PLAY_CELLS:
        raise WebInputError(f"the page plays boards of at most {MAX_PLAY_CELLS} cells; {geometry.spec} has {geometry.size}")
    solver = [who for who in players.values() if who not in ("human", "random")]
    if solver and geometry.size > MAX_EMPTY:
        raise WebInputError(
            f"the solver ({solver[0]}) plays boards of at most {MAX_EMPTY} cells; {geometry.spec} has {geometry.size}: "
            "choose human or random"
        )


# -- mega games ---------------------------------------------------------------------------------------


class MegaGame:
    """A mega tic-tac-toe game between people, the random player and/or the MCTS AI."""

    kind = "mega"

    def __init__(self, game_id: str, players: dict[str, str], seconds: float, seed: int | None) -> None:
        from oxo.mega.rules import MegaState

        self.id = game_id
        self.players = players
        self.seconds = seconds
        self.state = MegaState()
        self.lock = threading.Lock()
        self.last_search: dict[str, Any] | None = None
        self._rng = random.Random(seed)

    @property
    def computer_to_move(self) -> bool:
        mover = self.state.to_move
        return mover is not None and self.players[mover] != "human"

    def result(self) -> str:
        state = self.state
        winner = state.winner
        if winner == "draw":
            return "Draw: no move is possible"
        if winner:
            return f"{winner.upper()} wins with three big markers in a row"
        mover = state.to_move
        who = "you" if self.players[mover] == "human" else f"computer: {self.players[mover]}"  # type: ignore[index]
        return f"{mover.upper()} to move ({who})"  # type: ignore[union-attr]

    def to_dict(self) -> dict[str, Any]:
        from oxo.mega.notation import format_move

        state = self.state
        string = state.current_string
        return {
            "id": self.id,
            "kind": self.kind,
            "players": dict(self.players),
            "seconds": self.seconds,
            "record": state.record,
            "moves": [format_move(m) for m in state.moves],
            "to_move": state.to_move,
            "winner": state.winner,
            "over": state.is_over,
            "result": self.result(),
            "legal": [format_move(m) for m in state.legal_moves()],
            "rule8": state.rule8_applies() if not state.is_over else False,
            "covered": {str(grid): owner for grid, owner in state.covered.items()},
            "string": {
                "number": string.index + 1,
                "length": string.length,
                "played": [format_move(m) for m in string.played],
                "grids": list(string.grids),
                "positions": list(string.positions),
                "abnormal": string.abnormal,
            },
            "abnormal_strings": [i + 1 for i in state.abnormal_strings],
            "computer_to_move": self.computer_to_move,
            "last_search": self.last_search,
            "svg": mega_svg(state, cell=44),
        }

    def play(self, move: str | int, *, by_computer: bool = False) -> None:
        mover = self.state.to_move
        if mover is not None and not by_computer and self.players[mover] != "human":
            raise WebInputError(f"it is {mover.upper()}'s turn and {mover.upper()} is the computer: ask it to move")
        self.state.play(move)

    def computer_move(self) -> int:
        """Let the computer play the side to move; the MCTS AI searches within the game's time budget."""
        from oxo.mega.players import MCTSPlayer, RandomPlayer

        state = self.state
        mover = state.to_move
        if mover is None:
            raise MoveError("the game is over: there is no move to make")
        kind = self.players[mover]
        if kind == "human":
            raise WebInputError(f"it is {mover.upper()}'s turn and {mover.upper()} is a person: click a cell")
        seed = self._rng.randrange(2**32)
        if kind == "random":
            move = RandomPlayer(seed).choose(state)
            self.last_search = None
        else:
            player = MCTSPlayer(seconds=self.seconds, seed=seed)
            move = player.choose(state)
            report = player.last
            self.last_search = None if report is None else _finite({**report.to_dict(), "budget": self.seconds})
        self.play(move, by_computer=True)
        return move

    def undo(self) -> None:
        """Take back the last move, and the computer's moves after the last person's move."""
        from oxo.mega.rules import MegaState

        if not self.state.moves:
            raise MoveError("there is no move to undo")
        moves = list(self.state.moves)
        while moves:
            moves.pop()
            self.state = MegaState.replay(moves)
            if not self.computer_to_move:
                break
        self.last_search = None


def _finite(data: dict[str, Any]) -> dict[str, Any]:
    """JSON has no NaN: a statistic the search did not measure (a forced move is not searched) becomes None."""
    return {key: None if isinstance(value, float) and not math.isfinite(value) else value for key, value in data.items()}


def check_mega_setup(players: dict[str, str], seconds: float) -> None:
    for side, who in players.items():
        if who not in MEGA_PLAYERS:
            raise WebInputError(f"unknown player {who!r} for {side.upper()}; use one of {', '.join(MEGA_PLAYERS)}")
    if not MIN_SECONDS <= seconds <= MAX_SECONDS:
        raise WebInputError(f"the AI's time per move is between {MIN_SECONDS} and {MAX_SECONDS} seconds, got {seconds}")


# -- the store ----------------------------------------------------------------------------------------

G = TypeVar("G", ClassicGame, MegaGame)


class GameStore(Generic[G]):
    """Games by id, the least recently used forgotten beyond ``maxsize``."""

    def __init__(self, maxsize: int = MAX_GAMES) -> None:
        self._games: OrderedDict[str, G] = OrderedDict()
        self._maxsize = maxsize
        self._guard = threading.Lock()

    @staticmethod
    def new_id() -> str:
        """A fresh, unguessable game id."""
        return secrets.token_urlsafe(9)

    def add(self, game: G) -> G:
        """Keep a game (made with an id from :meth:`new_id`) and return it."""
        with self._guard:
            self._games[game.id] = game
            while len(self._games) > self._maxsize:
                self._games.popitem(last=False)
        return game

    def get(self, game_id: str) -> G:
        with self._guard:
            game = self._games.get(game_id)
            if game is None:
                raise GameNotFound(f"no game with id {game_id!r} is in progress (the server may have restarted)")
            self._games.move_to_end(game_id)
            return game

    def __len__(self) -> int:
        return len(self._games)
