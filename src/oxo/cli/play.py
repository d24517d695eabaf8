"""``oxo play``, ``oxo move`` and ``oxo selfplay``: the engines on the command line, on every board."""

from __future__ import annotations

import sys
from typing import Any

import click

from oxo import api
from oxo.cli.common import (
    board_option,
    echo_json,
    echo_outcomes,
    json_option,
    k_option,
    parse_board,
    parse_position,
    quiet_option,
)
from oxo.engines import DEFAULT_LEVEL, LEVELS, describe_level, make_engine
from oxo.engines.rating import strength_text
from oxo.errors import MoveError
from oxo.game import GameState
from oxo.position import Position
from oxo.progress import progress_bar

_NUMPAD = {7: 0, 8: 1, 9: 2, 4: 3, 5: 4, 6: 5, 1: 6, 2: 7, 3: 8}
_LEVEL_HELP = (
    "The computer's strength: random, easy (wins and blocks in one), medium, hard (searches for --time), "
    "perfect (proven moves; small boards and endgames), best (perfect where it can, hard elsewhere)."
)


def level_option(function):
    return click.option(
        "--level",
        type=click.Choice(LEVELS),
        default=DEFAULT_LEVEL,
        show_default=True,
        help=_LEVEL_HELP,
    )(function)


def budget_options(function):
    function = click.option(
        "--seed",
        type=int,
        default=None,
        help="Seed of the computer's random choices (to replay a game).",
    )(function)
    function = click.option(
        "--depth",
        type=click.IntRange(min=1),
        default=None,
        help="Plies an alpha-beta search looks ahead (instead of a time limit).",
    )(function)
    function = click.option(
        "--iterations",
        type=click.IntRange(min=1),
        default=None,
        help="Simulations per move of a tree search (instead of a time limit).",
    )(function)
    function = click.option(
        "--time",
        "seconds",
        type=click.FloatRange(min=0, min_open=True),
        default=None,
        metavar="SECONDS",
        help="Thinking time per move of hard and best (medium gets a tenth); 1 s unless the command says otherwise.",
    )(function)
    return function


def _cells(cells: tuple[int, ...], geometry_size: int) -> str:
    return ", ".join(map(str, cells))


def gravity_option(function):
    return click.option(
        "--gravity",
        is_flag=True,
        help="Marks drop to the lowest empty cell of their column; moves are columns (6x7 --k 4 is Connect Four).",
    )(function)


# -- play ------------------------------------------------------------------------------------------


def _move_label(cell: int, keypad: str | None) -> str:
    if keypad == "phone":
        return str(cell + 1)
    if keypad == "numpad":
        return str(next(key for key, target in _NUMPAD.items() if target == cell))
    return str(cell)


def _read_move(text: str, position: Position, keypad: str | None) -> int:
    """The cell meant by a typed move, or a MoveError saying why it cannot be played."""
    word = text.strip()
    if not (word.isascii() and word.isdigit()):
        accepted = "a key 1..9" if keypad else f"a cell ID 0..{position.geometry.size - 1}"
        raise MoveError(f"{word!r} is not a move; type {accepted}, or q to quit")
    number = int(word)
    if keypad == "phone":
        if not 1 <= number <= 9:
            raise MoveError(
                f"key {number} is not on the keypad; keys are 1..9 (1 2 3 on the top row)"
            )
        cell = number - 1
    elif keypad == "numpad":
        if number not in _NUMPAD:
            raise MoveError(
                f"key {number} is not on the keypad; keys are 1..9 (7 8 9 on the top row)"
            )
        cell = _NUMPAD[number]
    else:
        cell = number
        if cell >= position.geometry.size:
            raise MoveError(
                f"cell {cell} is not on the board; cells are 0..{position.geometry.size - 1}"
            )
    if (position.x | position.o) >> cell & 1:
        raise MoveError(f"{'key ' + word if keypad else 'cell ' + word} is already taken")
    return cell


def _board_picture(position: Position, keypad: str | None) -> str:
    """The grid with X and O, and each empty cell showing what to type to play there."""
    statuses = position.statuses
    labels = [(".XO"[s] if s else _move_label(cell, keypad)) for cell, s in enumerate(statuses)]
    width = max(len(label) for label in labels)
    cols = position.geometry.shape[-1]
    rows_per_layer = position.geometry.shape[-2]
    out = []
    for row_index, start in enumerate(range(0, len(labels), cols)):
        if row_index and row_index % rows_per_layer == 0:
            out.append("")
        out.append("  " + " ".join(label.rjust(width) for label in labels[start : start + cols]))
    return "\n".join(out)


@click.command(epilog=strength_text())
@click.argument("board", default="3x3")
@k_option
@click.option(
    "--as",
    "side",
    type=click.Choice(["x", "o"]),
    default="x",
    show_default=True,
    help="Your side (X moves first).",
)
@level_option
@budget_options
@click.option(
    "--keypad",
    type=click.Choice(["phone", "numpad"]),
    default=None,
    help="On 3x3, type keys 1..9: phone (1 2 3 on top) or numpad (7 8 9 on top).",
)
@gravity_option
def play(
    board: str,
    k: int | None,
    side: str,
    level: str,
    seconds: float | None,
    iterations: int | None,
    depth: int | None,
    seed: int | None,
    keypad: str | None,
    gravity: bool,
) -> None:
    """Play a game against the computer in the terminal, on any board, or uttt for ultimate
    tic-tac-toe (mega: see 'oxo mega play').

    Type the cell ID of your move (cells are numbered from 0 in reading order, layer by layer on a
    cube; empty cells show their number), or a key 1..9 with --keypad on 3x3. q quits. Works with
    piped input too: a taken or unknown cell gets a hint and a new prompt.

    Example: oxo play 5x5 --k 4 --level hard --time 0.5
    """
    from oxo.game import game_kind

    if game_kind(board) == "uttt":  # moves are GC there, see 'oxo uttt play'
        from oxo.cli.uttt import play_game
        from oxo.game import new_game

        new_game(board, k)  # refuses a --k: three won grids in a row win
        if keypad:
            raise click.BadParameter("keypad moves need a 3x3 board", param_hint="--keypad")
        sides = ("human", level) if side == "x" else (level, "human")
        play_game(*sides, seconds=seconds, iterations=iterations, seed=seed)
        return
    if gravity:  # moves are columns there
        from oxo.cli.gravity import play_game as play_gravity

        if keypad:
            raise click.BadParameter(
                "keypad moves need a 3x3 board without gravity", param_hint="--keypad"
            )
        play_gravity(
            board, k, side, level, seconds=seconds, iterations=iterations, depth=depth, seed=seed
        )
        return
    geometry = parse_board(board, k)
    if keypad and geometry.shape != (3, 3):
        raise click.BadParameter("keypad moves need a 3x3 board", param_hint="--keypad")
    position = Position.empty(geometry)
    computer = make_engine(
        level, position, seconds=seconds, iterations=iterations, depth=depth, seed=seed
    )
    stdin = sys.stdin
    click.echo(
        f"{geometry.spec_shape} board, {geometry.k} in a row wins. You are {side.upper()}; "
        f"the computer plays {describe_level(level, position)}."
    )
    while not position.is_terminal:
        click.echo()
        click.echo(_board_picture(position, keypad))
        mover = position.to_move
        if mover == side:
            while True:
                click.echo(f"your move ({side.upper()}): ", nl=False)
                sys.stdout.flush()
                line = stdin.readline()
                if not line:
                    click.echo("\ninput ended; game abandoned")
                    return
                if not stdin.isatty():
                    click.echo(line.strip())  # show piped input as if typed
                if line.strip().lower() in ("q", "quit", "exit"):
                    click.echo("game abandoned")
                    return
                try:
                    cell = _read_move(line, position, keypad)
                except MoveError as error:
                    click.echo(f"illegal move: {error}")
                    continue
                break
        else:
            cell = computer.choose(position)
            click.echo(f"computer ({mover.upper()}) plays {_move_label(cell, keypad)}")  # type: ignore[union-attr]  # the game is not over: a player is to move
        position = position.play(cell)
    click.echo()
    click.echo(_board_picture(position, keypad))
    winner = position.winner
    if winner is None:
        click.echo("draw: the board is full")
    else:
        line = next(cells for player, cells in position.complete_lines if player == winner)
        who = "you win" if winner == side else "the computer wins"
        click.echo(f"{winner.upper()} wins with the line {_cells(line, geometry.size)}: {who}")


# -- move ------------------------------------------------------------------------------------------


@click.command()
@click.argument("position")
@board_option
@k_option
@level_option
@budget_options
@json_option
@gravity_option
def move(
    position: str,
    board: str | None,
    k: int | None,
    level: str,
    seconds: float | None,
    iterations: int | None,
    depth: int | None,
    seed: int | None,
    as_json: bool,
    gravity: bool,
) -> None:
    """The computer's move in a position of any board, and the position's value when proven.

    The move is a cell ID (reading order, from 0). The value is who wins with best play from the
    position (x, o or draw), or unknown when the engine did not prove it.

    With --gravity the move is a column (from 1) and the position the columns played (4453, on
    Connect Four unless --board says otherwise) or its rows, top first, with '/'.

    Example: oxo move x...o.... --level perfect
    """
    if gravity:
        from oxo.cli.gravity import move_command

        move_command(
            position,
            board,
            k,
            level,
            seconds=seconds,
            iterations=iterations,
            depth=depth,
            seed=seed,
            as_json=as_json,
        )
        return
    chosen = api.move(
        parse_position(position, board, k),
        level,
        seconds=seconds,
        iterations=iterations,
        depth=depth,
        seed=seed,
    )
    cell, report = chosen.move, chosen.report
    if as_json:
        echo_json(chosen.to_dict())
        return
    value = {"x": "X wins", "o": "O wins", "draw": "draw"}.get(report.value or "", "not proven")
    detail = f"{report.engine}"
    if report.depth:
        detail += f", depth {report.depth}"
    if report.nodes:
        detail += f", {report.nodes:,} positions"
    click.echo(f"move: {cell}")
    click.echo(f"value with best play: {value}")
    click.echo(f"found by: {detail} in {report.seconds:.2f} s")


# -- selfplay --------------------------------------------------------------------------------------


@click.command(epilog=strength_text())
@click.argument("game")
@k_option
@click.option(
    "--x",
    "x_level",
    type=click.Choice(LEVELS),
    default="hard",
    show_default=True,
    help="Level of X (moves first).",
)
@click.option(
    "--o",
    "o_level",
    type=click.Choice(LEVELS),
    default="random",
    show_default=True,
    help="Level of O.",
)
@click.option(
    "--games", type=click.IntRange(min=1), default=10, show_default=True, help="Number of games."
)
@budget_options
@json_option
@quiet_option
@gravity_option
def selfplay(
    game: str,
    k: int | None,
    x_level: str,
    o_level: str,
    games: int,
    seconds: float | None,
    iterations: int | None,
    depth: int | None,
    seed: int | None,
    as_json: bool,
    quiet: bool,
    gravity: bool,
) -> None:
    """Computer against computer: play GAMES games and count the outcomes.

    GAME is a board (5x5, 3x3x3, 15x15 with --k 5, 6x7 with --k 4 --gravity) or mega. Searching levels think 0.2 s per move
    unless --time, --iterations or --depth says otherwise.

    Example: oxo selfplay 5x5 --k 4 --x hard --o random --games 20
    """
    from oxo.engines.selfplay import selfplay as run
    from oxo.game import game_kind, new_game

    start: GameState = new_game(game, k, gravity=gravity)
    if seconds is None and iterations is None and depth is None:
        seconds = 0.2
    stats: Any  # mega's statistics or the engines' (the same fields)
    with progress_bar(f"{game} self-play", total=games, quiet=quiet) as bar:
        if game_kind(game) == "mega":
            from oxo.mega.selfplay import selfplay as run_mega

            stats = run_mega(
                games,
                x_level,
                o_level,
                seconds=seconds,
                iterations=iterations,
                seed=seed,
                progress=bar,
            )
        else:
            stats = run(
                start,
                x_level,
                o_level,
                games,
                seconds=seconds,
                iterations=iterations,
                depth=depth,
                seed=seed,
                progress=bar,
            )
    if as_json:
        echo_json(stats.to_dict())
        return
    click.echo(f"{stats.games} games of {game}, x: {stats.x}, o: {stats.o} ({stats.seconds:.2f} s)")
    echo_outcomes(stats)
    click.echo(f"mean length {stats.mean_moves:.2f} moves")


COMMANDS = [play, move, selfplay]
