"""``oxo mega rules|replay|play|selfplay``: mega tic-tac-toe on the command line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, Unpack

import click

from oxo.cli import OxoGroup, grids
from oxo.cli.common import echo_selfplay
from oxo.cli.options import (
    json_option,
    quiet_option,
    save_option,
    search_budget_options,
    sides_options,
)
from oxo.progress import progress_bar

if TYPE_CHECKING:
    from oxo.engines.base import Budget

#: Who may play a side: a person, or the computer at a level (``mcts`` is the old name of ``hard``).
PLAYERS = ("human", "random", "easy", "medium", "hard", "best", "mcts")
COMPUTERS = PLAYERS[1:]


@click.group(cls=OxoGroup)
def mega() -> None:
    """Mega tic-tac-toe: nine inner grids, moves grouped in strings, big markers.

    A move is GC: the inner grid G then the cell C, both 1..9 in reading order
    (55 is the centre of the centre grid). A record is moves separated by spaces.
    New to the game? 'oxo mega rules' explains it in plain words with a worked
    example ('oxo mega rules --full' prints the complete reference). Mega
    tic-tac-toe is not ultimate tic-tac-toe: no move sends the opponent to a grid.
    """


@mega.command()
@click.option(
    "--full",
    is_flag=True,
    help="Print the complete reference instead: every rule as the program applies it, the "
    "command line, the library and how the computer player works.",
)
def rules(full: bool) -> None:
    """Explain the rules of mega tic-tac-toe in plain words, with a worked example.

    Covers strings, big markers, abnormal strings, what wins, and how mega differs
    from ultimate tic-tac-toe.

    Example: oxo mega rules | less
    """
    from oxo.mega.guide import full_text, rules_text

    click.echo(full_text() if full else rules_text(), nl=False)


@mega.command()
@click.argument("record", nargs=-1)
@json_option
def replay(record: tuple[str, ...], as_json: bool) -> None:
    """Replay a game record, checking every move, and show the final position.

    Prints the board with big markers (legal moves drawn as their cell digit), whose turn it
    is, the current string, the legal moves and the winner if any. An illegal move stops the
    replay with exit status 1, naming the move, its number and the rule it breaks.

    Example: oxo mega replay "55 44 13"
    """
    from oxo.mega import render
    from oxo.mega.rules import MegaState

    grids.replay(MegaState, render, record, as_json)


_budget_options = search_budget_options(
    time_help="Thinking time per move of the computer (hard; medium gets a tenth).",
    iterations_help="Simulations per move of the tree search (instead of, or as well as, --time).",
)


@mega.command()
@sides_options(PLAYERS, "human", "hard", "Who plays X (moves first).", "Who plays O.")
@_budget_options
@save_option
def play(x_kind: str, o_kind: str, save: str | None, **limits: Unpack[Budget]) -> None:
    """Play a game in the terminal: human or a computer level on each side.

    Type moves as GC (grid, then cell). Other inputs: 'moves' lists the legal moves, 'undo'
    takes back your last move, 'rules' prints the rules, 'help' explains, 'quit' stops. The
    record is printed at the end.
    Levels: random, easy, medium, hard (Monte Carlo tree search), best; mcts is another name
    for hard. The computer thinks 1 s per move by default; a longer --time makes it stronger.
    Works with piped input too, and stops cleanly when the input ends.

    Example: oxo mega play --x human --o hard --time 2
    """
    from oxo.cli import session
    from oxo.registry import find_game

    session.play(find_game("mega"), (x_kind, o_kind), save=save, **limits)


@mega.command()
@click.option(
    "--games", type=click.IntRange(min=1), default=100, show_default=True, help="Number of games."
)
@sides_options(COMPUTERS, "random", "random", "Who plays X (a level).", "Who plays O (a level).")
@_budget_options
@click.option(
    "--engine",
    type=click.Choice(("python", "compiled", "checked"), case_sensitive=False),
    default=None,
    help="Random-vs-random only: python (default) fast loop, compiled (numba) or checked (every move through the rules engine).",
)
@json_option
@quiet_option
def selfplay(
    games: int,
    x_kind: str,
    o_kind: str,
    seconds: float | None,
    iterations: int | None,
    seed: int | None,
    engine: Literal["python", "compiled", "checked"] | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Play computer against computer and report outcomes, mean length and abnormal share.

    A searching level thinks 0.2 s per move unless --time or --iterations says otherwise.

    Example: oxo mega selfplay --games 20000 --seed 1
             oxo mega selfplay --games 100 --x hard --o random --time 0.2
    """
    from oxo.mega.selfplay import selfplay as run

    if seconds is None and iterations is None:
        seconds = 0.2
    with progress_bar("mega self-play", total=games, quiet=quiet) as bar:
        stats = run(
            games,
            x_kind,
            o_kind,
            seconds=seconds,
            iterations=iterations,
            seed=seed,
            engine=engine,
            progress=bar,
        )
    echo_selfplay(
        stats,
        as_json,
        how=f"{stats.engine} engine, ",
        after=f"; games with an abnormal string {stats.abnormal_share:.2%}",
    )


COMMANDS = [mega]
