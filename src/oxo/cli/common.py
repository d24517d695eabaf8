"""Helpers shared by the CLI's topic modules: parsing boards and positions, printing tables and JSON
(the options they share are in :mod:`oxo.cli.options`)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any

import click

from oxo.errors import PositionError
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.registry import (
    Game,
    board_geometry,
    find_game,
    find_game_or_none,
    refuse_other_games,
)


def parse_board(spec: str, k: int | None = None) -> Geometry:
    """A geometry from a board spec given on the command line (errors become exit status 2), or a
    board's name (qubic, gomoku); the name of another game (connect4, mega, uttt) is refused by
    name, saying what works on it."""
    refuse_other_games(spec, "this command")
    return board_geometry(spec, k)


def parse_position(text: str, board: str | None = None, k: int | None = None) -> Position:
    """A position from the command line; the board is guessed from the text unless given. Digits
    that read as a record of columns (``4453``) get a hint about ``--gravity``."""
    refuse_other_games(text, "this command")
    geometry = parse_board(board, k) if board else None
    try:
        position = Position.from_string(text, geometry)
    except PositionError as error:
        hint = column_record_hint(text)
        if not hint:
            raise
        raise PositionError(f"{error}; {hint}") from None
    if geometry is None and k is not None:
        position = Position(parse_board(position.geometry.spec_shape, k), position.x, position.o)
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


def classic_position(text: str, board: str | None, k: int | None, game: Game | None) -> Position:
    """The classic position a command's POSITION argument gives: the empty board of the ``game`` the
    text names (see :func:`game_of_text`) when no ``--board`` is given, else the position written
    cell by cell (on ``--board`` when given)."""
    if game is not None and board is None:
        return Position.empty(parse_board(game.name))
    return parse_position(text, board, k)


def game_of_text(
    text: str, board: str | None = None, k: int | None = None, gravity: bool = False
) -> Game | None:
    """The game of a command's POSITION argument: the one ``--board`` (or ``--gravity``) names, or
    the one the text itself names (``connect4``, ``mega``, ``5x5`` with ``--k 4``: its empty board);
    ``None`` for a classic position written cell by cell without ``--board``."""
    if board is not None:
        return find_game(board, k, gravity)
    if find_game_or_none(text) is None:
        return None
    return find_game(text, k, gravity)


#: The width lists are broken to when the output is not a terminal (a file, a pipe).
PIPE_WIDTH = 80


def echo_lines(lines: Iterable[str]) -> None:
    """Lines of a report (``label:   value``, lists of moves, cells or symmetries) on stdout, each
    broken between words to :data:`PIPE_WIDTH` columns when stdout is not a terminal, as
    :mod:`oxo.cli.fit` breaks them to a terminal's width: a long list reads the same in a file or
    a pipe. Tables and JSON are not printed through here."""
    from oxo.cli.fit import fit_line

    piped = not sys.stdout.isatty()
    for line in lines:
        click.echo(fit_line(line, PIPE_WIDTH) if piped else line)


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
