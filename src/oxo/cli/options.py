"""The options several commands share, each worded once: the board and k of a position, ``--json``,
``--quiet``, the computer players' budget and sides, a choice, a time, a folder, an output file."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import click


def k_option(function):
    """``--k K``: how many marks in a row win (default: the board's shortest side). Read before
    the other parameters (eager), so that a board argument is parsed once, with its k
    (:class:`oxo.cli.common.GameType`)."""
    return click.option(
        "--k",
        "k",
        type=click.IntRange(min=1),
        default=None,
        is_eager=True,
        help="Marks in a row needed to win (default: shortest side).",
    )(function)


def gravity_option(words: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--gravity``: a gravity board (each command words its help), read before the other
    parameters (eager) as ``--k`` is, for the board argument parsed with it."""
    return click.option("--gravity", is_flag=True, is_eager=True, help=words)


def json_option(function):
    return click.option(
        "--json", "as_json", is_flag=True, help="Print JSON for scripts instead of a table."
    )(function)


def quiet_option(function):
    return click.option("--quiet", "-q", is_flag=True, help="No progress bar.")(function)


def board_option(function):
    """``--board BOARD``: the game of a position, parsed at the edge into its :class:`Game`
    (with ``--k`` and ``--gravity``: :class:`oxo.cli.common.GameType`)."""
    from oxo.cli.common import ANY_GAME

    return click.option(
        "--board",
        "-b",
        type=ANY_GAME,
        default=None,
        metavar="BOARD",
        help="Board of the position, e.g. 3x5 (default: guessed from the text).",
    )(function)


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
    case_sensitive: bool = False,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """An option taking one of ``choices`` (its parameter ``name``, by default the flag's own), its
    default shown in the help: the shape of every ``--method``, ``--level`` and ``--as``. Any case
    is taken (``--as X``, ``--level Hard``) and passed on as the choice is written."""
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
