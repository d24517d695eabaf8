"""Helpers shared by the CLI's topic modules: parsing boards and positions, printing tables and JSON
(the options they share are in :mod:`oxo.cli.options`)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import click

from oxo.errors import BoardSpecError, PositionError
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.registry import (
    Game,
    classic_board,
    find_game,
    find_game_or_none,
    may_name_a_game,
    refuse_game,
    refuse_other_games,
)


def parse_board(spec: str, k: int | None = None) -> Geometry:
    """A geometry from a board spec given on the command line (errors become exit status 2), or a
    board's name (qubic, gomoku); the name of another game (connect4, mega, uttt) is refused by
    name, saying what works on it (:func:`oxo.registry.classic_board`: the text parsed once)."""
    return classic_board(spec, k, "this command")


class GameType(click.ParamType):
    """A board argument (or ``--board``) parsed once, at the edge: the :class:`Game` its text
    names (:func:`find_game`), with the command's ``--k`` and ``--gravity`` (eager options, so read
    before it); with ``classic=True`` the :class:`Geometry` of a classic board, another game
    refused by name (:func:`parse_board`). Bad text raises the library's own error, which the
    command line prints on one line with exit status 2 (JSON with ``--json``)."""

    name = "board"

    def __init__(self, classic: bool = False) -> None:
        self.classic = classic

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):  # parsed already (a default given as a value)
            return value
        params = ctx.params if ctx is not None else {}
        k = params.get("k")
        if self.classic:
            return parse_board(value, k)
        return find_game(value, k, bool(params.get("gravity")))


#: The BOARD argument of the commands that answer about classic boards only: a :class:`Geometry`.
CLASSIC_BOARD = GameType(classic=True)
#: The BOARD argument (or ``--board``) of the commands that take every game: a :class:`Game`.
ANY_GAME = GameType()


def parse_position(
    text: str, geometry: Geometry | None = None, k: int | None = None, *, named: bool = True
) -> Position:
    """A position from the command line, on ``geometry`` (its board parsed at the edge, whose k
    holds) or on the board guessed from the text, with ``k`` when given. Digits that read as a
    record of columns (``4453``) get a hint about ``--gravity``. The name of another game is
    refused by name, unless the caller has looked the text up already (``named=False``)."""
    if named:
        refuse_other_games(text, "this command")
    try:
        position = Position.from_string(text, geometry)
    except PositionError as error:
        hint = column_record_hint(text)
        if not hint:
            raise
        raise PositionError(f"{error}; {hint}") from None
    if geometry is None and k is not None:
        position = Position(replace(position.geometry, k=k), position.x, position.o)
    return position


def column_record_hint(text: str) -> str:
    """What to say when ``text`` looks like a record of columns (``4453``: digits 1-9, one over 2,
    so not cells written with 0, 1 and 2) given to a classic position: ``--gravity`` when the
    command takes it, else a command that does."""
    word = text.strip()
    if not (word.isascii() and word.isdigit()) or "0" in word or not set(word) - {"1", "2"}:
        return ""
    looks = f"{word} looks like a record of columns (Connect Four)"
    context = click.get_current_context(silent=True)
    if context is not None and any(param.name == "gravity" for param in context.command.params):
        return f"{looks}: add --gravity"
    return f"{looks}, which this command does not take: try 'oxo analyze {word} --gravity'"


def classic_position(text: str, board: Game | None, k: int | None, game: Game | None) -> Position:
    """The classic position a command's POSITION argument gives: the empty board of the ``game`` the
    text names (see :func:`game_of_text`) when no ``--board`` is given, else the position written
    cell by cell (on the ``--board`` game, parsed at the edge, when given)."""
    if board is not None:
        return parse_position(text, classic_geometry(board))
    if game is not None:
        return Position.empty(classic_geometry(game))
    return parse_position(text, None, k, named=False)  # game_of_text found no game's name


def classic_geometry(game: Game) -> Geometry:
    """The geometry of a game parsed at the edge that must be a classic board (another game is
    refused by name, saying what works on it)."""
    refuse_game(game, "this command")
    return game.geometry  # type: ignore[attr-defined]  # a classic board's game


def game_of_text(
    text: str, board: Game | None = None, k: int | None = None, gravity: bool = False
) -> Game | None:
    """The game of a command's POSITION argument: the one ``--board`` names (parsed at the edge,
    with ``--k`` and ``--gravity``), or the one the text itself names (``connect4``, ``mega``,
    ``5x5`` with ``--k 4``: its empty board), parsed once; ``None`` for a classic position written
    cell by cell without ``--board``."""
    if board is not None:
        return board
    if not may_name_a_game(text):
        return None  # a position, written cell by cell or as a record of columns
    try:
        return find_game(text, k, gravity)
    except BoardSpecError:
        if (k is None and not gravity) or find_game_or_none(text) is None:
            return None  # not a game's name: a position
        raise  # a game's name with a --k or --gravity it does not take: say why


#: The width lists are broken to when the output is not a terminal (a file, a pipe).
PIPE_WIDTH = 80


def echo_lines(lines: Iterable[str], err: bool = False, hanging: int = 0) -> None:
    """Lines of a report (``label:   value``, sentences, lists of moves, cells or symmetries) on
    stdout (stderr with ``err``), each broken between words to :data:`PIPE_WIDTH` columns when the
    stream is not a terminal, as :mod:`oxo.cli.fit` breaks them to a terminal's width: a long list
    reads the same in a file or a pipe (``hanging``: :func:`oxo.cli.fit.fit_line`'s; a word
    longer than a line, such as a path, is not cut there). Tables, JSON and one-line errors are
    not printed through here."""
    from oxo.cli.fit import fit_line

    piped = not (sys.stderr if err else sys.stdout).isatty()
    for line in lines:
        click.echo(fit_line(line, PIPE_WIDTH, hanging, cut=False) if piped else line, err=err)


def echo_json(data: Any) -> None:
    """Print JSON data on stdout, one document."""
    click.echo(json.dumps(data, indent=None if not sys.stdout.isatty() else 2))


def console():
    """A rich console on stdout that never wraps tables when stdout is a file or a pipe."""
    from rich.console import Console

    if sys.stdout.isatty():
        return Console(highlight=False)
    return Console(width=400, highlight=False, color_system=None, soft_wrap=True)


def echo_outcomes(stats: Any) -> None:
    """The outcome lines of a self-play run (any stats with x_wins, o_wins, draws and share())."""
    for label, count, outcome in (
        ("x wins", stats.x_wins, "x"),
        ("o wins", stats.o_wins, "o"),
        ("draws", stats.draws, "draw"),
    ):
        click.echo(f"{label:<8} {count:>8,}  {stats.share(outcome):7.2%}")


def echo_selfplay(stats: Any, as_json: bool, of: str = "", how: str = "", after: str = "") -> None:
    """A self-play run's statistics (``oxo selfplay``, ``oxo mega selfplay``, ``oxo uttt selfplay``):
    its JSON, or a line naming the game (``of``), the sides and the time (after ``how``), the outcome
    lines and the mean length (and ``after``)."""
    if as_json:
        echo_json(stats.to_dict())
        return
    click.echo(f"{stats.games} games{of}, x: {stats.x}, o: {stats.o} ({how}{stats.seconds:.2f} s)")
    echo_outcomes(stats)
    click.echo(f"mean length {stats.mean_moves:.2f} moves{after}")


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 dead line``, ``2 dead lines``: a count with its noun, thousands separated (for tables and text)."""
    return f"{count:,} {word if count == 1 else words or word + 's'}"
