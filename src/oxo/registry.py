"""Every game oxo knows, by name: one descriptor per game and :func:`find_game`, the one entry that
turns what a user typed into a game.

A descriptor (:class:`Game`) says what the game is called (its name, the other names it answers to,
a one-line description), how its positions and moves are written, and what oxo can do with it —
each ability an explicit attribute (``solver``, ``prover``, ``counter``, ...), ``False`` when absent,
so a command asks the descriptor instead of testing the type of a state. A command that needs an
ability the game lacks calls :meth:`Game.require`, which raises :class:`oxo.errors.UnsupportedError`
naming the game and the commands that do work on it.

The games: classic boards (any m×n board with k in a row, cubes such as ``3x3x3``; OpenSpiel's
``mnk(m=4,n=4,k=3)``), gravity boards (``6x7,k=4,gravity``, also ``connect4``), mega tic-tac-toe
(``mega``) and ultimate tic-tac-toe (``uttt``, also ``ultimate``).

This module sits above the games and the questions (it builds states and engines of every game)
and below :mod:`oxo.api`, :mod:`oxo.rl` and the shells, which find games here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, partial
from typing import TYPE_CHECKING, Any, ClassVar, Unpack

from oxo.errors import (
    BoardSpecError,
    OutOfReachError,
    PositionError,
    UnknownGameError,
    UnsupportedError,
)
from oxo.game import GameState
from oxo.records import attributes

if TYPE_CHECKING:
    from oxo.book import BookEntry
    from oxo.engines import Engine, ExactSolver
    from oxo.engines.base import Book, Budget
    from oxo.geometry import Geometry
    from oxo.gravity.board import GravityBoard

#: The abilities a game may have, with the words that name them in messages and the command that
#: uses each (``None`` for abilities no single command stands for).
ABILITIES: dict[str, tuple[str, str | None]] = {
    "engine": ("computer players", "play"),
    "selfplay": ("self-play", "selfplay"),
    "moves": ("computer move for a position", "move"),
    "counter": ("position counter", "count"),
    "solver": ("exact solver", "solve"),
    "prover": ("certificates of its value", None),
    "analyzer": ("analysis of a position", "analyze"),
    "strategy_map": ("strategy map", "map"),
    "describer": ("position report", "show"),
    "legality": ("legality check", "check"),
    "svg": ("SVG drawing", None),
    "rl_encoding": ("learning environment", None),
    "rules": ("rules text", None),
}

#: Engine levels of every game (see :mod:`oxo.engines.levels`).
LEVELS: tuple[str, ...] = ("random", "easy", "medium", "hard", "perfect", "best")

#: Boards people call by a name, and the board each name stands for (``oxo play qubic``).
BOARD_NAMES: dict[str, str] = {
    "tictactoe": "3x3",
    "tic-tac-toe": "3x3",
    "qubic": "4x4x4",
    "gomoku": "15x15,k=5",
    "scorefour": "4x4x4,gravity",
    "score-four": "4x4x4,gravity",
    "sogo": "4x4x4,gravity",
}

_BOARD_TEXT = re.compile(
    r"\s*(\d+\s*[x×*]\s*\d+(\s*[x×*]\s*\d+)*(\s*[,:;/ ]\s*k\s*=?\s*\d+)?|mnk\(.*\))\s*", re.I
)


class Game:
    """One game: its names, how its positions and moves are written, and what oxo can do with it.

    Subclasses set the abilities as class attributes (``True``/``False``) and implement
    :meth:`start`; a descriptor is a value (equal descriptors name the same game)."""

    #: The name that :func:`find_game` parses back to this game (``"3x3"``, ``"6x7,k=4,gravity"``).
    name: str
    #: How people call it in sentences (``"Connect Four"``, ``"mega tic-tac-toe"``).
    title: str
    #: The family of games it belongs to: ``"board"``, ``"gravity"``, ``"mega"`` or ``"uttt"``.
    family: ClassVar[str]
    #: How a move is written, in a few words.
    move_help: ClassVar[str]
    #: How a position is written, in a few words.
    position_help: ClassVar[str]

    engine: ClassVar[bool] = True
    selfplay: ClassVar[bool] = True
    moves: ClassVar[bool] = True
    counter: ClassVar[bool] = False
    solver: ClassVar[bool] = False
    prover: ClassVar[bool] = False
    analyzer: ClassVar[bool] = False
    strategy_map: ClassVar[bool] = False
    describer: ClassVar[bool] = True
    legality: ClassVar[bool] = False
    svg: ClassVar[bool] = True
    rl_encoding: ClassVar[bool] = True
    rules: ClassVar[bool] = False
    #: Engine levels the game offers.
    levels: ClassVar[tuple[str, ...]] = LEVELS

    @property
    def gomoku(self) -> bool:
        """Whether the game is played as gomoku (five in a row on a board): its engines and its
        analysis then search forced wins by fours and threes (:mod:`oxo.tactics`)."""
        return False

    @property
    def aliases(self) -> tuple[str, ...]:
        """Every name :func:`find_game` takes for this game, :attr:`name` first."""
        return (self.name,)

    @property
    def short_name(self) -> str:
        """The shortest name :func:`find_game` takes for this game (``connect4``), for messages."""
        return min(self.aliases, key=len)

    @property
    def description(self) -> str:
        """The game in one line."""
        raise NotImplementedError

    def start(self) -> GameState:
        """The state before the first move."""
        raise NotImplementedError

    def parse_position(self, text: str) -> GameState:
        """A position of this game from text; the game's own name stands for its empty board."""
        if find_game_or_none(text) == self:
            return self.start()
        return self._parse_position(text)

    def _parse_position(self, text: str) -> GameState:
        raise PositionError(f"{self.title} positions are written as {self.position_help}")

    def parse_move(self, state: GameState, text: str) -> int:
        """A move of ``state`` from how people write it."""
        return state.parse_move(text)

    def make_engine(
        self,
        level: str,
        state: GameState,
        **limits: Unpack[Budget],
    ) -> Engine:
        """The computer player of ``level`` on this game (:func:`oxo.engines.make_engine`, handed the
        game's :meth:`exact_solver`, unless the game brings its own levels)."""
        return self._engine_maker()(level, state, **limits)

    def _engine_maker(self) -> Callable[..., Engine]:
        """What builds the game's engines from a level, a state and the thinking budget."""
        from oxo.engines import make_engine

        return partial(make_engine, solver=self.exact_solver(), book=self.proof_book())

    def exact_solver(self) -> ExactSolver | None:
        """The game's exact solver as the engines ask it (``solver(state, limit)``, see
        :data:`oxo.engines.ExactSolver`), ``None`` when the game has none: engines know no game, so
        the descriptor hands them the solver."""
        return None

    def proof_book(self) -> Book | None:
        """A fresh proof book of this game for an engine (:class:`oxo.engines.base.Book`): the
        moves of the certificates of oxo's proof of the board (:mod:`oxo.book`); ``None`` when oxo
        has not proved the game, or plays its proof its own way (Connect Four)."""
        return None

    def proved(self) -> BookEntry | None:
        """The row of oxo's proof book for this game (:class:`oxo.book.BookEntry`), or None when
        oxo has not proved it."""
        from oxo.book import book_entry

        return book_entry(self.name)

    def describe_level(self, level: str, state: GameState) -> str:
        """How ``level`` plays on this game, in a short phrase (for the start of a game)."""
        from oxo.engines import describe_level

        return describe_level(level, state, self.exact_solver(), self.proof_book())

    def rules_text(self) -> str | None:
        """The rules in plain words, ``None`` when the game has no rules text."""
        return None

    @property
    def size(self) -> int:
        """Cells of the board (81 on the games of nine grids)."""
        return 81

    def draw_svg(self, state: GameState) -> str:
        """A state of this game drawn as an ``<svg>`` element (legal moves marked where the game's
        drawing does), for the web page and notebooks."""
        raise UnsupportedError(f"{self.title} has no SVG drawing")

    def abilities(self) -> dict[str, bool]:
        """Each ability of :data:`ABILITIES` and whether the game has it."""
        return {ability: getattr(self, ability) for ability in ABILITIES}

    def supports(self, ability: str) -> bool:
        """Whether the game has ``ability`` (a key of :data:`ABILITIES`; KeyError for another)."""
        return self.abilities()[ability]

    def commands(self) -> tuple[str, ...]:
        """The ``oxo`` commands that work on this game."""
        return tuple(
            command
            for ability, (_, command) in ABILITIES.items()
            if command is not None and self.supports(ability)
        )

    def require(self, ability: str, detail: str = "") -> None:
        """Raise :class:`UnsupportedError` naming the game and what it supports when it lacks
        ``ability``; ``detail`` adds why, when there is more to say."""
        if self.supports(ability):
            return
        words = ABILITIES[ability][0]
        tries = [c for c in ("analyze", "solve", "play", "selfplay") if c in self.commands()]
        hint = " or ".join(f"oxo {c} {self.short_name}" for c in tries[:2])
        raise UnsupportedError(
            f"{self.title} has no {words}{detail}" + (f"; try {hint}" if hint else "")
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and (self.family, self.name) == (other.family, other.name)

    def __hash__(self) -> int:
        return hash((self.family, self.name))

    def __repr__(self) -> str:
        return f"find_game({self.name!r})"

    def to_dict(self) -> dict[str, Any]:
        """The descriptor as JSON-ready data: names, description and abilities."""
        return {
            **attributes(self, "name title family"),
            "aliases": list(self.aliases),
            "description": self.description,
            "moves": self.move_help,
            "positions": self.position_help,
            "levels": list(self.levels),
            "abilities": self.abilities(),
        }


class BoardGame(Game):
    """A classic board: any m×n board or box (3x3x3, 4x4x4x4) with k in a row; with gravity in
    three dimensions and more (``4x4x4,gravity``: Score Four) a mark drops down its column, and
    moves are written as column numbers. (Flat gravity boards are :class:`GravityGame`.)"""

    family = "board"
    move_help = "a cell ID, counting from 0 in reading order (layer by layer on a cube)"
    position_help = (
        "cells in reading order: xo....... (. empty) or 120000000, rows may be split by /"
    )
    counter = True
    solver = True
    prover = True
    analyzer = True
    strategy_map = True
    legality = True

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        self.name = geometry.spec
        dims = geometry.dimensions
        kind = "board" if dims == 2 else "cube" if dims == 3 else "box"
        if dims > 3 and len(set(geometry.shape)) == 1:
            kind = "hypercube"
        self.title = f"the {geometry.spec_shape} {kind} with {geometry.k} in a row"

    @property
    def aliases(self) -> tuple[str, ...]:
        geometry = self.geometry
        names = [self.name, f"{geometry.spec_shape},k={geometry.k}"]
        if geometry.gravity:
            names[1] += ",gravity"
        elif len(geometry.shape) == 2:
            rows, cols = geometry.shape
            names.append(f"mnk(m={cols},n={rows},k={geometry.k})")
        names += [name for name, board in BOARD_NAMES.items() if _named(board) == geometry]
        return tuple(dict.fromkeys(names))

    @property
    def description(self) -> str:
        return f"{self.geometry.spec_shape}: {self.geometry.k} in a row wins, X moves first"

    def start(self) -> GameState:
        from oxo.position import Position

        return Position.empty(self.geometry)

    def _parse_position(self, text: str) -> GameState:
        from oxo.position import Position

        return Position.from_string(text, self.geometry)

    def exact_solver(self) -> ExactSolver | None:
        from oxo.solve import solution_within

        return solution_within

    def proof_book(self) -> Book | None:
        from oxo.book.play import board_book

        return board_book(self.name)

    @property
    def size(self) -> int:
        return self.geometry.size

    def draw_svg(self, state: GameState) -> str:
        from oxo.render.svg import classic_svg

        return classic_svg(state, legal=True)  # type: ignore[arg-type]  # a state of this game: a Position

    @property
    def gomoku(self) -> bool:
        """Whether the board is played as gomoku (five in a row): its engines and analysis then
        search forced wins by fours and threes (:mod:`oxo.tactics`)."""
        return self.geometry.k == 5

    def parse_move(self, state: GameState, text: str) -> int:
        """A cell ID; on gomoku boards also a point as ``oxo analyze`` writes it (``h8``: column
        letter, row counted from 1 at the bottom)."""
        if self.gomoku:
            from oxo.tactics import parse_point

            return parse_point(self.geometry, text)
        return state.parse_move(text)

    def _engine_maker(self) -> Callable[..., Engine]:
        """The shared levels, handed the exact solver; on gomoku boards ``hard`` (and ``best``
        where it plays hard) first search forced wins by fours and threes, and play or stop them."""
        from oxo.engines import make_engine

        tactics = None
        if self.gomoku:
            from oxo.tactics import engine_advice

            tactics = engine_advice
        return partial(
            make_engine, solver=self.exact_solver(), tactics=tactics, book=self.proof_book()
        )


class GravityBoxGame(BoardGame):
    """A box with gravity (``4x4x4,gravity``: Score Four; ``4x4x4x4,gravity``): a position of the
    classic boards' kind whose marks drop to the lowest empty cell of their column; moves are
    written as column numbers. What the classic boards' questions do not answer with gravity is
    refused by name."""

    move_help = "a column number, from 1, the columns in reading order from the top left"
    position_help = (
        "cells in reading order, the top level first: xo... (. empty) or 120..., rows split by /, "
        "levels by //"
    )
    analyzer = False
    strategy_map = False
    rl_encoding = False

    def __init__(self, geometry: Geometry) -> None:
        super().__init__(geometry)
        kind = self.title.split()[2]
        self.title = (
            "Score Four"
            if _named(BOARD_NAMES["scorefour"]) == geometry
            else f"the {geometry.spec_shape} {kind} with gravity and {geometry.k} in a row"
        )

    def exact_solver(self) -> ExactSolver | None:
        """The alpha-beta of boards with gravity (:func:`oxo.proofs.dropvalue.drop_solution`),
        near the end of a game."""
        from oxo.proofs.dropvalue import drop_solution

        return drop_solution

    def make_engine(self, level: str, state: GameState, **limits: Unpack[Budget]) -> Engine:
        if level == "perfect" and self.exact_solver() is None:
            raise OutOfReachError(
                f"perfect play is out of reach here: {self.title} has no exact solver (the one of "
                "boxes with gravity holds at most 64 cells); the strongest level that works is hard "
                "(best plays hard here)"
            )
        return super().make_engine(level, state, **limits)

    @property
    def short_name(self) -> str:
        """The name people know the board by (``scorefour``), else its spec."""
        words = [word for word, spec in BOARD_NAMES.items() if _named(spec) == self.geometry]
        return words[0] if words else self.name

    @property
    def description(self) -> str:
        geometry = self.geometry
        foot = "x".join(map(str, geometry.footprint))
        return (
            f"{geometry.spec_shape}: {geometry.column_count} columns of {geometry.height} on a "
            f"{foot} base, marks drop to the lowest empty cell, {geometry.k} in a row wins, X "
            "moves first"
        )


class BigGravityBoxGame(GravityBoxGame):
    """A box with gravity of more than 64 cells (``4x4x4x4,gravity``): beyond the exact solver of
    boards with gravity, so no perfect play."""

    levels = ("random", "easy", "medium", "hard", "best")

    def exact_solver(self) -> ExactSolver | None:
        return None


def board_game(geometry: Geometry) -> BoardGame:
    """The descriptor of a board: :class:`GravityBoxGame` for a box with gravity
    (:class:`BigGravityBoxGame` past 64 cells), else :class:`BoardGame` (flat gravity boards are
    :class:`GravityGame`, found by name)."""
    if not geometry.gravity:
        return BoardGame(geometry)
    return GravityBoxGame(geometry) if geometry.size <= 64 else BigGravityBoxGame(geometry)


class GravityGame(Game):
    """A gravity board: a mark drops to the lowest empty cell of its column (6x7, k=4: Connect Four)."""

    family = "gravity"
    move_help = "a column number, from 1 on the left"
    position_help = "the columns played from 1 (4453) or the rows top first with /"
    counter = True
    solver = True
    prover = True
    analyzer = True
    rules = True

    def __init__(self, board: GravityBoard) -> None:
        self.board = board
        self.name = board.spec
        connect_four = (board.rows, board.cols, board.k) == (6, 7, 4)
        self.title = (
            "Connect Four"
            if connect_four
            else f"the {board.rows}x{board.cols} gravity board with {board.k} in a row"
        )

    @property
    def aliases(self) -> tuple[str, ...]:
        names = [self.name]
        if self.board.spec == "6x7,k=4,gravity":
            names += ["connect4", "connect-four"]
        return tuple(names)

    @property
    def description(self) -> str:
        return (
            f"{self.board.rows} rows by {self.board.cols} columns, marks drop to the bottom of "
            f"their column, {self.board.k} in a row wins"
        )

    def start(self) -> GameState:
        from oxo.gravity.board import GravityState

        return GravityState(self.board)

    def _parse_position(self, text: str) -> GameState:
        from oxo.gravity.board import GravityState

        return GravityState.from_string(text, self.board)

    def exact_solver(self) -> ExactSolver | None:
        from oxo.gravity.engine import gravity_solution

        return gravity_solution

    def rules_text(self) -> str | None:
        from oxo.gravity.guide import rules_text

        return rules_text(self.board)

    @property
    def size(self) -> int:
        return self.board.size

    def draw_svg(self, state: GameState) -> str:
        from oxo.gravity.svg import gravity_svg

        return gravity_svg(state)  # type: ignore[arg-type]  # a state of this game: a GravityState

    def describe_level(self, level: str, state: GameState) -> str:
        """Gravity boards' own words for ``perfect`` and ``best`` (the exact solver, the proof book)."""
        from oxo.gravity.engine import describe_gravity_level

        return describe_gravity_level(level, state)

    def _engine_maker(self) -> Callable[..., Engine]:
        """Gravity boards' own ``perfect`` and ``best`` (the exact solver); other levels shared."""
        from oxo.gravity.engine import make_gravity_engine

        return make_gravity_engine


class _NineGridsGame(Game):
    """What the two games on nine 3x3 grids share as games: a position is a record of ``GC`` moves
    replayed from the empty board, the rules are explained, and every level but perfect is offered."""

    position_help = "a record of moves, two digits GC each (55 19 91 ...)"
    rules = True
    levels = ("random", "easy", "medium", "hard", "best")  # no exact solver: no perfect

    def _state_class(self) -> Any:
        """The game's state class (imported when first needed), with ``replay(record)``."""
        raise NotImplementedError

    def start(self) -> GameState:
        return self._state_class()()

    def _parse_position(self, text: str) -> GameState:
        return self._state_class().replay(text)


class MegaGame(_NineGridsGame):
    """Mega tic-tac-toe: nine small grids whose moves come in strings (not ultimate tic-tac-toe)."""

    family = "mega"
    name = "mega"
    title = "mega tic-tac-toe"
    move_help = "two digits GC: the grid G, then the cell C, both 1..9 in reading order"

    @property
    def aliases(self) -> tuple[str, ...]:
        return ("mega",)

    @property
    def description(self) -> str:
        return "nine small grids on a big one; a won grid is a big marker, three big markers in a row win"

    def _state_class(self) -> Any:
        from oxo.mega.rules import MegaState

        return MegaState

    def draw_svg(self, state: GameState) -> str:
        from oxo.render.svg import mega_svg

        return mega_svg(state, cell=44)  # type: ignore[arg-type]  # a state of this game: a MegaState

    def rules_text(self) -> str | None:
        from oxo.mega.guide import rules_text

        return rules_text()


class UtttGame(_NineGridsGame):
    """Ultimate tic-tac-toe: the cell you play sends your opponent to that grid."""

    family = "uttt"
    name = "uttt"
    title = "ultimate tic-tac-toe"
    move_help = "two digits GC: the small grid G, then the cell C, both 1..9 in reading order"
    counter = True

    @property
    def aliases(self) -> tuple[str, ...]:
        return ("uttt", "ultimate")

    @property
    def description(self) -> str:
        return "nine small grids; the cell you play sends your opponent to that grid; three won grids in a row win"

    def _state_class(self) -> Any:
        from oxo.uttt.rules import UtttState

        return UtttState

    def draw_svg(self, state: GameState) -> str:
        from oxo.uttt.svg import uttt_svg

        return uttt_svg(state)  # type: ignore[arg-type]  # a state of this game: a UtttState

    def rules_text(self) -> str | None:
        from oxo.uttt.guide import rules_text

        return rules_text()


#: The names of the games that are not boards, and their descriptors.
_NAMED: dict[str, Game] = {}
for _game in (MegaGame(), UtttGame()):
    for _alias in _game.aliases:
        _NAMED[_alias] = _game

#: How the known names are listed in messages.
KNOWN_NAMES = (
    "a board such as 3x3, 5x5,k=4, 3x3x3 or 4x4x4x4, mnk(m=4,n=4,k=3), tictactoe (3x3), qubic "
    "(4x4x4), gomoku (15x15,k=5), a gravity board such as 6x7,k=4,gravity, connect4, "
    "4x4x4,gravity or scorefour (also sogo), mega, uttt (or ultimate)"
)


@cache
def _named(board: str) -> Geometry:
    """The geometry a name of :data:`BOARD_NAMES` stands for (parsed once a process)."""
    from oxo.geometry import Geometry

    return Geometry.parse(board)


def looks_like_board(text: str) -> bool:
    """Whether ``text`` is written as a classic board (``5x5``, ``4x4,k=3``, ``3x3x3``, ``mnk(...)``)
    or names one (``qubic``, :data:`BOARD_NAMES`)."""
    return _BOARD_TEXT.fullmatch(text) is not None or text.strip().lower() in BOARD_NAMES


def may_name_a_game(text: str) -> bool:
    """Whether ``text`` is written as a game's name may be (a shape such as ``5x5,k=4`` or
    ``mnk(...)``, a name such as ``qubic``, ``connect4`` or ``mega``): :func:`find_game` finds no
    game in other text (a position such as ``xo./.x./..o`` or ``4453``), so it need not be asked."""
    name = text.strip().lower() if isinstance(text, str) else ""
    if name in _NAMED or name in BOARD_NAMES or name in ("connect4", "connect-four"):
        return True
    return re.match(r"(\d+\s*[x×*]\s*\d|mnk\()", name) is not None


def board_geometry(spec: str, k: int | None = None) -> Geometry:
    """The geometry of a classic board from text: its shape (``4x4``, ``4x4,k=3``, ``3x3x3``) or a
    name people use (``tictactoe``, ``qubic``, ``gomoku``: :data:`BOARD_NAMES`), which takes no
    other k than its own."""
    name = spec.strip().lower() if isinstance(spec, str) else spec
    if isinstance(name, str) and name in BOARD_NAMES:
        geometry = _named(BOARD_NAMES[name])
        if k is not None and k != geometry.k:
            other = (
                f"{geometry.spec_shape},k={k},gravity"
                if geometry.gravity
                else f"{geometry.spec_shape} --k {k}"
            )
            raise BoardSpecError(
                f"{name} is {geometry.spec} with {geometry.k} in a row, not {k}; for another "
                f"k give the board itself: {other}"
            )
        return geometry
    from oxo.geometry import Geometry

    return Geometry.parse(spec, k)


def find_game(spec: str, k: int | None = None, gravity: bool = False) -> Game:
    """The game a user's text names: ``"3x3"``, ``"5x5,k=4"`` (or ``k=4``), ``"3x3x3"``,
    ``"mnk(m=4,n=4,k=3)"``, the boards of :data:`BOARD_NAMES` (``"tictactoe"``, ``"qubic"``,
    ``"gomoku"``), ``"6x7,k=4,gravity"`` (or ``gravity=True``), ``"connect4"``, ``"mega"``,
    ``"uttt"``/``"ultimate"``. Unknown text raises :class:`UnknownGameError` listing the
    known names; a board that is written right but cannot be (``0x3``, ``k=9`` on 3x3) raises
    :class:`BoardSpecError` saying why."""
    if not isinstance(spec, str):
        raise BoardSpecError(
            f"a game is named by text such as '3x3', '5x5,k=4' or 'mega', got {type(spec).__name__}"
        )
    name = spec.strip().lower()
    named = _NAMED.get(name)
    if named is not None:
        if k is not None or gravity:
            raise BoardSpecError(
                f"{named.title} takes neither --k nor --gravity (k=, gravity=): {named.description}"
            )
        return named
    if name in BOARD_NAMES:
        geometry = board_geometry(name, k)
        if gravity and not geometry.gravity:
            raise BoardSpecError(
                f"{name} is played without gravity ({BOARD_NAMES[name]}); a gravity board is "
                "written like 6x7,k=4,gravity"
            )
        return board_game(geometry)
    from oxo.geometry import Geometry
    from oxo.gravity.board import GravityBoard, is_connect_four

    if gravity or "gravity" in name or is_connect_four(name):
        if not is_connect_four(name) and not re.match(r"\d", name):  # a board's own errors say more
            raise UnknownGameError(
                f"unknown game {spec.strip()[:40]!r}; known games: {KNOWN_NAMES}"
            )
        if not is_connect_four(name) and len(re.findall(r"\d+\s*[x×*]", name)) >= 2:
            return board_game(Geometry.parse(name, k, gravity=True))  # a box with gravity
        return GravityGame(GravityBoard.parse(name, k))
    # text that starts like a board but is not one gets the board's own error, which says more
    if not looks_like_board(name) and not re.match(r"\d|mnk\(", name):
        raise UnknownGameError(f"unknown game {spec.strip()[:40]!r}; known games: {KNOWN_NAMES}")
    return BoardGame(Geometry.parse(name, k))


def refuse_other_games(text: str, asked: str) -> None:
    """Raise :class:`UnsupportedError` when ``text`` names a game other than a classic board where
    ``asked`` (a command or function that answers only m,n,k boards and cubes) expects one, naming
    the game and the commands that work on it."""
    game = find_game_or_none(text)
    if game is not None:
        refuse_game(game, asked)


def refuse_game(game: Game, asked: str) -> None:
    """:func:`refuse_other_games` for a game found already: raise :class:`UnsupportedError` unless
    ``game`` is a classic board."""
    if game.family != "board":
        works = ", ".join(f"oxo {command} {game.short_name}" for command in game.commands())
        raise UnsupportedError(
            f"{game.title} is not a board of m,n,k tic-tac-toe, which {asked} answers; "
            f"for {game.title} try {works}"
        )


def classic_board(spec: str, k: int | None = None, asked: str = "this command") -> Geometry:
    """The geometry of a classic board from text (a shape or a name such as ``qubic``), the text
    parsed once (:func:`find_game`); the name of another game is refused by name, saying what
    works on it and that ``asked`` answers only classic boards. Only text that names no game is
    read again, for the board parser's own message about it."""
    try:
        game = find_game(spec, k)
    except BoardSpecError:
        refuse_other_games(spec, asked)  # mega with a k: refused by name first
        board_geometry(spec, k)  # its own error says what a board is (an unknown name does not)
        raise
    refuse_game(game, asked)
    return game.geometry  # type: ignore[attr-defined]  # a classic board's game


def find_game_or_none(spec: str) -> Game | None:
    """:func:`find_game` for text that may name a game or be something else (a position)."""
    try:
        return find_game(spec)
    except BoardSpecError:
        return None


def new_game(spec: str, k: int | None = None, gravity: bool = False) -> GameState:
    """The start of a game from its name (see :func:`find_game`): ``"mega"``, ``"uttt"``,
    ``"3x3"``, ``"5x5,k=4"``, ``"3x3x3"``, ``"connect4"``, ``"6x7,k=4,gravity"``..."""
    return find_game(spec, k, gravity).start()


def game_of(state: GameState) -> Game:
    """The descriptor of the game a state belongs to (the one place that maps a state's type to its
    game)."""
    kind = type(state).__name__
    if kind == "Position":
        return board_game(state.geometry)  # type: ignore[attr-defined]  # a Position has a geometry
    if kind == "GravityState":
        return GravityGame(state.board)  # type: ignore[attr-defined]  # a GravityState has a board
    for game in _NAMED.values():
        if type(game.start()).__name__ == kind:
            return game
    raise UnknownGameError(f"no game of oxo has states of type {kind}")


def games() -> tuple[Game, ...]:
    """One descriptor of each family, as the examples of help texts and tests: 3x3, Connect Four,
    mega and ultimate tic-tac-toe."""
    return (find_game("3x3"), find_game("connect4"), find_game("mega"), find_game("uttt"))
