"""``oxo uttt rules|replay|play|selfplay``: ultimate tic-tac-toe on the command line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Unpack

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
from oxo.engines import LEVELS
from oxo.progress import progress_bar

if TYPE_CHECKING:
    from oxo.engines.base import Budget

#: Who may play a side: a person, or the computer at a level.
PLAYERS = ("human", *LEVELS)
#: Levels that make sense here: no exact solver reaches ultimate tic-tac-toe, so perfect is refused.
COMPUTERS = tuple(level for level in LEVELS if level != "perfect")


@click.group(cls=OxoGroup)
def uttt() -> None:
    """Ultimate tic-tac-toe: the cell you play sends your opponent to that grid.

    Nine small 3x3 grids; three in a row wins a small grid, three won grids in a row win
    the game. A move is GC: the small grid G then the cell C, both 1..9 in reading order
    (55 is the centre of the centre grid). Not the same game as 'oxo mega' (see 'oxo uttt rules').
    Positions per move: 'oxo count uttt --plies 6'.
    """


@uttt.command()
def rules() -> None:
    """Explain the rules in plain words, how this differs from mega tic-tac-toe, and an example.

    Example: oxo uttt rules
    """
    from oxo.uttt.guide import rules_text

    click.echo(rules_text(), nl=False)


@uttt.command()
@click.argument("record", nargs=-1)
@json_option
def replay(record: tuple[str, ...], as_json: bool) -> None:
    """Replay a game record, checking every move, and show the final position.

    Prints the board (legal moves drawn as their cell digit, won grids as a big mark), whose
    turn it is and in which grid, the won grids, the legal moves and the winner if any. An
    illegal move stops the replay with exit status 1, naming the move, its number and why.

    Example: oxo uttt replay "55 51 15"
    """
    from oxo.uttt import render
    from oxo.uttt.rules import UtttState

    grids.replay(UtttState, render, record, as_json)


_budget_options = search_budget_options(
    time_help="Thinking time per move of the computer (hard and best; medium gets a tenth).",
    iterations_help="Simulations per move of the tree search (instead of --time).",
)


@uttt.command()
@sides_options(
    PLAYERS[:1] + COMPUTERS,
    "human",
    "hard",
    "Who plays X (moves first): human or a level.",
    "Who plays O: human or a level.",
)
@_budget_options
@save_option
def play(x_kind: str, o_kind: str, save: str | None, **limits: Unpack[Budget]) -> None:
    """Play a game in the terminal: a person or a computer level on each side.

    Type moves as GC (grid, then cell). Other inputs: 'moves' lists the legal moves, 'undo'
    takes back your last move, 'rules' prints the rules, 'help' explains, 'quit' stops. The
    record is printed at the end.
    Levels: random, easy (wins in one, otherwise random), medium, hard (Monte Carlo tree
    search), best (the same as hard here). The computer thinks 1 s per move unless --time says
    otherwise; longer is stronger. Works with piped input too.

    Example: oxo uttt play --x human --o hard --time 2
    """
    from oxo.cli import session
    from oxo.registry import find_game

    session.play(find_game("uttt"), (x_kind, o_kind), save=save, **limits)


@uttt.command()
@click.option(
    "--games", type=click.IntRange(min=1), default=100, show_default=True, help="Number of games."
)
@sides_options(COMPUTERS, "hard", "random", "Level of X (moves first).", "Level of O.")
@_budget_options
@json_option
@quiet_option
def selfplay(
    games: int,
    x_kind: str,
    o_kind: str,
    seconds: float | None,
    iterations: int | None,
    seed: int | None,
    as_json: bool,
    quiet: bool,
) -> None:
    """Computer against computer: play GAMES games and count the outcomes.

    A searching level thinks 0.2 s per move unless --time or --iterations says otherwise.
    The same as 'oxo selfplay uttt'.

    Example: oxo uttt selfplay --games 100 --x hard --o random --time 0.1
    """
    from oxo.engines.selfplay import selfplay as run
    from oxo.uttt.rules import UtttState

    if seconds is None and iterations is None:
        seconds = 0.2
    with progress_bar("ultimate tic-tac-toe self-play", total=games, quiet=quiet) as bar:
        stats = run(
            UtttState(),
            x_kind,
            o_kind,
            games,
            seconds=seconds,
            iterations=iterations,
            seed=seed,
            progress=bar,
        )
    echo_selfplay(stats, as_json, of=" of ultimate tic-tac-toe")


COMMANDS = [uttt]
