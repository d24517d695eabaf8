"""The terminal side of the games on nine 3x3 grids (mega and ultimate tic-tac-toe): the board,
and replaying a record. A game in the terminal is :mod:`oxo.cli.session`'s, as on every game.

Both games write moves ``GC`` (:mod:`oxo.ninegrids`) and draw the board the same way; each passes its
state and its drawing module (``board_text``, ``board_rich``, ``status_lines``).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import click

from oxo.cli.common import console, echo_json, echo_lines
from oxo.ninegrids import format_move


def show_board(render: ModuleType, state: Any, *, highlight: bool = True) -> None:
    """The board in colour on a terminal, as plain text otherwise."""
    if sys.stdout.isatty():
        console().print(render.board_rich(state, highlight=highlight))
    else:
        click.echo(render.board_text(state, highlight=highlight))


def replay(game: Any, render: ModuleType, record: Sequence[str], as_json: bool) -> None:
    """Replay ``record`` through ``game.replay`` and show the final position; an illegal move is a
    "no" answer: exit status 1, naming the move, its number and why (also as JSON with ``--json``)."""
    from oxo.errors import IllegalMoveError

    try:
        state = game.replay(" ".join(record))
    except IllegalMoveError as error:
        click.echo(f"oxo: illegal move: {error}", err=True)
        if as_json:  # a "no" answer: exit status 1, and for scripts the same as JSON on stdout
            echo_json(
                {
                    "error": f"illegal move: {error}",
                    "code": 1,
                    "number": error.number,
                    "move": format_move(error.move),
                    "rule": error.rule,
                    "reason": error.reason,
                }
            )
        raise click.exceptions.Exit(1) from None
    if as_json:
        echo_json(state.summary().to_dict())
        return
    show_board(render, state)
    echo_lines(render.status_lines(state))
