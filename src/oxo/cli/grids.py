"""The terminal side of the games on nine 3x3 grids (mega and ultimate tic-tac-toe): the board,
replaying a record, and a game between people and computer levels.

Both games write moves ``GC`` (:mod:`oxo.ninegrids`) and draw the board the same way; each passes its
state, its drawing module (``board_text``, ``board_rich``, ``status_lines``) and its own words.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

import click

from oxo.cli.common import console, echo_json
from oxo.errors import OxoError
from oxo.ninegrids import format_move

if TYPE_CHECKING:
    from oxo.engines import Engine


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
    for line in render.status_lines(state):
        click.echo(line)


def _moves(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"


def terminal_game(
    start: Any,
    kinds: tuple[str, str],
    render: ModuleType,
    *,
    seconds: float | None,
    iterations: int | None,
    seed: int | None,
    save: str | None,
    help_lines: Sequence[str],
    rules: Callable[[], str] | None = None,
) -> None:
    """A game from ``start`` in the terminal, ``kinds`` saying who plays X and O (``"human"`` or a
    level). People type ``GC`` moves, or moves/undo/help/quit (and rules when ``rules`` is given);
    'undo' takes back moves up to and including the last one a person typed. Piped input works and
    the game stops cleanly when it ends. The record is printed, and written to ``save`` if given."""
    from oxo.engines import DEFAULT_SECONDS, make_engine
    from oxo.errors import IllegalMoveError

    if seconds is None and iterations is None:
        seconds = DEFAULT_SECONDS
    players: list[Engine | None] = [
        None
        if kind == "human"
        else make_engine(
            kind,
            start,
            seconds=seconds,
            iterations=iterations,
            seed=None if seed is None else seed + side,
        )
        for side, kind in enumerate(kinds)
    ]
    words = "moves/undo/rules/help/quit" if rules is not None else "moves/undo/help/quit"
    history = [start]
    stdin = sys.stdin
    humans = any(player is None for player in players)
    show = True
    stopped = False
    while not history[-1].is_over:
        state = history[-1]
        side = state.player
        player = players[side]
        name = "xo"[side]
        if show and (player is None or not humans):
            click.echo()
            show_board(render, state)
            for line in render.status_lines(state, legal=player is None):
                click.echo(line)
        show = True
        if player is not None:
            move = player.choose(state)
            history.append(state.play(move))
            report = player.last
            detail = ""
            if report is not None and report.nodes > 1 and report.expectation is not None:
                detail = (
                    f" (played out {report.nodes:,} random games in {report.seconds:.2f} s; "
                    f"it rates its chances at {report.expectation:.0%}, 100% a sure win)"
                )
            click.echo(f"{name} ({player.name}) plays {format_move(move)}{detail}")
            continue
        click.echo(f"{name}, your move (GC, or {words}): ", nl=False)
        line = stdin.readline()
        if not line:
            click.echo()
            click.echo(f"input ended; game stopped after {_moves(state.move_count)}", err=True)
            stopped = True
            break
        text = line.strip().lower()
        if not stdin.isatty():
            click.echo(text)  # piped input: show it, so the transcript reads like a session
        if not text:
            show = False
            continue
        if text in ("q", "quit", "exit"):
            click.echo(f"game stopped after {_moves(state.move_count)}")
            stopped = True
            break
        if text in ("h", "help", "?"):
            for help_line in help_lines:
                click.echo(help_line)
            show = False
            continue
        if rules is not None and text in ("r", "rules"):
            click.echo(rules())
            show = False
            continue
        if text in ("m", "moves", "legal"):
            click.echo(" ".join(format_move(m) for m in state.legal_moves))
            show = False
            continue
        if text in ("u", "undo"):
            last_human = max(
                (n for n in range(state.move_count) if players[n % 2] is None), default=None
            )
            if last_human is None:
                click.echo("nothing to undo")
                show = False
            else:
                del history[last_human + 1 :]
            continue
        try:
            history.append(state.play(text))
        except IllegalMoveError as error:
            click.echo(f"illegal: {error}; try again")
            show = False
        except OxoError as error:
            click.echo(f"{error}; try again")
            show = False
    final = history[-1]
    if not stopped:
        click.echo()
        show_board(render, final, highlight=False)
        for line in render.status_lines(final, legal=False):
            click.echo(line)
    click.echo(f"record: {final.record}")
    if save:
        from oxo.fileio import write_atomic

        write_atomic(save, final.record + "\n")
