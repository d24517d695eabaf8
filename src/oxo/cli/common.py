"""Helpers shared by the CLI's topic modules: parsing boards and positions, printing tables and JSON."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Sequence
from typing import Any

import click

from oxo.geometry import Geometry
from oxo.position import Position
from oxo.registry import Game, find_game, find_game_or_none, refuse_other_games


def parse_board(spec: str, k: int | None = None) -> Geometry:
    """A geometry from a board spec given on the command line (errors become exit status 2); the
    name of another game (connect4, mega, uttt) is refused by name, saying what works on it."""
    refuse_other_games(spec, "this command")
    return Geometry.parse(spec, k)


def parse_position(text: str, board: str | None = None, k: int | None = None) -> Position:
    """A position from the command line; the board is guessed from the text unless given."""
    refuse_other_games(text, "this command")
    geometry = parse_board(board, k) if board else None
    position = Position.from_string(text, geometry)
    if geometry is None and k is not None:
        position = Position(parse_board(position.geometry.spec_shape, k), position.x, position.o)
    return position


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


def k_option(function):
    """``--k K``: how many marks in a row win (default: the board's shortest side)."""
    return click.option(
        "--k",
        "k",
        type=click.IntRange(min=1),
        default=None,
        help="Marks in a row needed to win (default: shortest side).",
    )(function)


def json_option(function):
    return click.option(
        "--json", "as_json", is_flag=True, help="Print JSON for scripts instead of a table."
    )(function)


def quiet_option(function):
    return click.option("--quiet", "-q", is_flag=True, help="No progress bar.")(function)


def board_option(function):
    return click.option(
        "--board",
        "-b",
        default=None,
        metavar="BOARD",
        help="Board of the position, e.g. 3x5 (default: guessed from the text).",
    )(function)


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


def search_budget_options(
    time_help: str,
    iterations_help: str,
    seed_help: str = "Seed of the computer players (reproducible with --iterations).",
    depth_help: str | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--time SECONDS``, ``--iterations N`` and ``--seed N`` of the computer players (each command
    words its own), with ``--depth N`` before ``--seed`` when ``depth_help`` is given (the engines
    of every board; the games of nine grids search no fixed depth)."""

    def add(function: Callable[..., Any]) -> Callable[..., Any]:
        function = click.option("--seed", type=int, default=None, help=seed_help)(function)
        if depth_help is not None:
            function = click.option(
                "--depth", type=click.IntRange(min=1), default=None, help=depth_help
            )(function)
        function = click.option(
            "--iterations",
            type=click.IntRange(min=1),
            default=None,
            help=iterations_help,
        )(function)
        return seconds_option(time_help)(function)

    return add


def sides_options(
    choices: Sequence[str],
    x_default: str,
    o_default: str,
    x_help: str,
    o_help: str,
    what: str = "kind",
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--x`` and ``--o``: who plays each side (``x_kind``, ``o_kind``; ``x_level``, ``o_level``
    with ``what="level"``), one of ``choices``."""

    def add(function: Callable[..., Any]) -> Callable[..., Any]:
        for flag, default, words in (("--o", o_default, o_help), ("--x", x_default, x_help)):
            function = choice_option(flag, choices, default, words, name=f"{flag[2]}_{what}")(
                function
            )
        return function

    return add


def seconds_option(
    words: str, default: float | None = None, *, flag: str = "--time", name: str = "seconds"
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A time in seconds, more than 0 (``--time`` into ``seconds`` unless named otherwise), its
    default shown when it has one."""
    return click.option(
        flag,
        name,
        type=click.FloatRange(min=0, min_open=True),
        default=default,
        show_default=default is not None,
        metavar="SECONDS",
        help=words,
    )


def folder_option(
    flag: str, name: str, words: str
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A folder (``DIR``; it need not exist yet), none by default."""
    return click.option(
        flag, name, type=click.Path(file_okay=False), default=None, metavar="DIR", help=words
    )


def choice_option(
    flag: str,
    choices: Sequence[str],
    default: str,
    words: str,
    *,
    name: str | None = None,
    case_sensitive: bool = True,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """An option taking one of ``choices`` (its parameter ``name``, by default the flag's own), its
    default shown in the help: the shape of every ``--method``, ``--level`` and ``--as``."""
    return click.option(
        flag,
        *([name] if name else []),
        type=click.Choice(choices, case_sensitive=case_sensitive),
        default=default,
        show_default=True,
        help=words,
    )


def svg_option(words: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--svg FILE`` (``svg_path``): also draw the answer as an SVG image, each command saying what."""
    return click.option(
        "--svg",
        "svg_path",
        type=click.Path(dir_okay=False, writable=True),
        default=None,
        metavar="FILE",
        help=words,
    )


def save_option(function: Callable[..., Any]) -> Callable[..., Any]:
    """``--save FILE``: where a terminal game writes its record at the end."""
    return click.option(
        "--save",
        type=click.Path(dir_okay=False, writable=True),
        default=None,
        help="Write the game record to this file at the end.",
    )(function)
