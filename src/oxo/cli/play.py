"""``oxo play``, ``oxo move`` and ``oxo selfplay``: the engines on the command line, on every board."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Unpack

import click

from oxo import api
from oxo.cli.common import (
    ANY_GAME,
    classic_position,
    echo_json,
    echo_lines,
    echo_selfplay,
    game_of_text,
    plural,
)
from oxo.cli.options import (
    board_option,
    choice_option,
    gravity_option,
    json_option,
    k_option,
    quiet_option,
    search_budget_options,
    sides_options,
)
from oxo.engines import DEFAULT_LEVEL, LEVELS, Engine
from oxo.engines.rating import strength_text
from oxo.errors import MoveError
from oxo.game import GameState
from oxo.position import Position
from oxo.progress import progress_bar
from oxo.registry import Game

if TYPE_CHECKING:
    from oxo.engines.base import Budget

_LEVEL_HELP = (
    "The computer's strength: random, easy (wins and blocks in one), medium, hard (searches for --time), "
    "perfect (proven moves; small boards and endgames), best (perfect where it can, hard elsewhere)."
)


level_option = choice_option("--level", LEVELS, DEFAULT_LEVEL, _LEVEL_HELP)

budget_options = search_budget_options(
    time_help="Thinking time per move of hard and best (medium gets a tenth); 1 s unless the "
    "command says otherwise.",
    iterations_help="Simulations per move of a tree search (instead of a time limit).",
    seed_help="Seed of the computer's random choices (to replay a game).",
    depth_help="Plies an alpha-beta search looks ahead (instead of a time limit).",
)


gravity_flag = gravity_option(
    "Marks drop to the lowest empty cell of their column; moves are columns (6x7 --k 4 is "
    "Connect Four)."
)


# -- play ------------------------------------------------------------------------------------------


@click.command(epilog=strength_text())
@click.argument("board", default="3x3", type=ANY_GAME)
@k_option
@choice_option("--as", ["x", "o"], "x", "Your side (X moves first).", name="side")
@level_option
@budget_options
@click.option(
    "--keypad",
    type=click.Choice(["phone", "numpad"], case_sensitive=False),
    default=None,
    help="On 3x3, type keys 1..9: phone (1 2 3 on top) or numpad (7 8 9 on top).",
)
@gravity_flag
def play(
    board: Game,
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
    """Play a game against the computer in the terminal, on any board, connect4, mega or uttt
    (ultimate tic-tac-toe).

    Type the cell ID of your move (cells are numbered from 0 in reading order, layer by layer on a
    cube; empty cells show their number), a column number on a gravity board, GC on mega and
    uttt, or a key 1..9 with --keypad on 3x3. Other inputs: 'help' explains how to write a move,
    'moves' lists the legal moves, 'undo' takes back your last move and the computer's reply,
    'rules' prints the rules of mega and uttt, 'quit' (or q) stops. Works with piped input too:
    a taken or unknown cell gets a hint and a new prompt.

    Example: oxo play 5x5 --k 4 --level hard --time 0.5
    """
    from oxo.cli import session

    game = board  # parsed at the edge, with --k and --gravity
    game.require("engine")
    if keypad and (game.family != "board" or game.geometry.shape != (3, 3)):  # type: ignore[attr-defined]  # a BoardGame has a geometry
        how = "" if game.family == "board" else f"; {game.title} moves are {game.move_help}"
        raise click.BadParameter(f"keypad moves need a 3x3 board{how}", param_hint="--keypad")
    kinds = ("human", level) if side == "x" else (level, "human")
    if game.family in ("mega", "uttt"):  # their own players: --depth does not apply
        depth = None
    before_move: Callable[[GameState], None] | None = None
    if level in ("perfect", "best"):
        from oxo.book.play import from_openings
        from oxo.cli.book import prepare_perfect

        computer = "o" if side == "x" else "x"
        prepare_perfect(game, [computer], level=level)
        proved = game.proved()
        if (
            level == "perfect"
            and game.family == "board"
            and (proved is None or from_openings(proved))
        ):
            # a board being proved, or one played from the openings its run settled first: the
            # index of a settled opening the game reaches, offered when it is reached (once a
            # game each)
            offered: set[str] = set()

            def offer(state: GameState) -> None:
                if isinstance(state, Position):
                    prepare_perfect(game, [computer], level=level, position=state, offered=offered)

            before_move = offer

    session.play(
        game,
        kinds,
        seconds=seconds,
        iterations=iterations,
        depth=depth,
        seed=seed,
        keypad=keypad,
        before_move=before_move,
    )


# -- move ------------------------------------------------------------------------------------------


@click.command()
@click.argument("position")
@board_option
@k_option
@level_option
@budget_options
@json_option
@gravity_flag
def move(
    position: str,
    board: Game | None,
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

    A game's name (5x5 with --k 4, connect4, mega, uttt) means its empty board; on mega and uttt
    --board names the game and POSITION is a record of moves (55 19 ...).

    Example: oxo move x...o.... --level perfect
    """
    budget: Budget = {"seconds": seconds, "iterations": iterations, "depth": depth, "seed": seed}
    game = game_of_text(position, board, k, gravity)
    flat_gravity = gravity if game is None else game.family == "gravity"  # not a box's
    if flat_gravity:
        from oxo.cli.gravity import gravity_position, move_command

        state = gravity_position(position, board, k, game)
        move_command(state, level, as_json, **budget)
        return
    if game is not None and game.family != "board":
        game.require("moves")
        _move_of_game(game, position if board is not None else None, level, as_json, **budget)
        return
    start = classic_position(position, board, k, game)
    if level in ("perfect", "best") and start.to_move is not None:
        from oxo.cli.book import prepare_perfect
        from oxo.registry import game_of

        prepare_perfect(game_of(start), [start.to_move], level=level, position=start)
    chosen = api.move(start, level, **budget)
    cell, report = chosen.move, chosen.report
    if as_json:
        echo_json(chosen.to_dict())
        return
    value = chosen.value_words
    detail = f"{report.engine}"
    if report.depth:
        detail += f", depth {report.depth}"
    if report.nodes:
        detail += f", {report.nodes:,} positions"
    if chosen.position.geometry.gravity:
        click.echo(f"move: column {chosen.position.format_move(cell)} (cell {cell})")
    else:
        click.echo(f"move: {cell}")
    lines = [f"value with best play: {value}"]
    if report.value is None and chosen.proven is not None:  # the book's value, not the search's
        lines += [
            f"proved by: {chosen.proven.by}",
            f"move found by: {detail} in {report.seconds:.2f} s",
        ]
    else:
        lines += [f"found by: {detail} in {report.seconds:.2f} s"]
    echo_lines(lines)


def _move_of_game(
    game: Game, text: str | None, level: str, as_json: bool, **budget: Unpack[Budget]
) -> None:
    """The computer's move on a game of nine grids: its empty board, or the position a record
    (``--board mega`` with the moves as POSITION) reaches."""
    state = game.start() if text is None else game.parse_position(text)
    if state.is_over:
        raise MoveError(f"the game is over ({state.outcome}): there is no move")
    engine = game.make_engine(level, state, **budget)
    chosen = engine.choose(state)
    report = engine.last
    assert report is not None
    if as_json:
        echo_json(
            {
                "game": game.name,
                "level": level,
                "move": state.format_move(chosen),
                "value": report.value,
                "seconds": round(report.seconds, 4),
            }
        )
        return
    value = {"x": "X wins", "o": "O wins", "draw": "draw"}.get(report.value or "", "not proven")
    click.echo(f"move: {state.format_move(chosen)}")
    click.echo(f"value with best play: {value}")
    click.echo(f"found by: {report.engine} in {report.seconds:.2f} s")


# -- selfplay --------------------------------------------------------------------------------------


@click.command(epilog=strength_text())
@click.argument("game", type=ANY_GAME)
@k_option
@sides_options(LEVELS, "hard", "random", "Level of X (moves first).", "Level of O.", what="level")
@click.option(
    "--games", type=click.IntRange(min=1), default=10, show_default=True, help="Number of games."
)
@budget_options
@json_option
@quiet_option
@gravity_flag
def selfplay(
    game: Game,
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

    GAME is a board (5x5, 3x3x3, 15x15 with --k 5, 6x7 with --k 4 --gravity), connect4, mega or
    uttt. Searching levels think 0.2 s per move unless --time, --iterations or --depth says
    otherwise; perfect takes the time its exact solver needs (a game where even that is not
    enough is reported, not counted, and the run goes on).

    Example: oxo selfplay 5x5 --k 4 --x hard --o random --games 20
    """
    from oxo.engines.selfplay import selfplay as run

    named = game  # parsed at the edge, with --k and --gravity
    named.require("selfplay")
    start: GameState = named.start()
    from oxo.cli.book import prepare_perfect

    for side, level in (("x", x_level), ("o", o_level)):
        if level in ("perfect", "best"):
            prepare_perfect(named, [side], quiet, level=level)
    if seconds is None and iterations is None and depth is None:
        seconds = 0.2

    def make(level: str, state: GameState, **budget: Any) -> Engine:
        """The game's own levels (Connect Four's perfect and best use the exact solver); perfect
        keeps the time it needs, the solver's own limit, whatever --time gives the others (a
        perfect move cut short is no perfect move: it stopped the whole run)."""
        if level == "perfect":
            budget["seconds"] = None
        return named.make_engine(level, state, **budget)

    stats: Any  # mega's statistics or the engines' (the same fields)
    with progress_bar(f"{named.short_name} self-play", total=games, quiet=quiet) as bar:
        if named.family == "mega":
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
                make=make,
            )
    echo_selfplay(stats, as_json, of=f" of {named.short_name}")
    if not as_json:
        unfinished = getattr(stats, "unfinished", ())
        if unfinished:
            click.echo(
                f"{plural(len(unfinished), 'more game')} not played to the end (not counted):"
            )
        for reason in unfinished:
            click.echo(f"  {reason}")


COMMANDS = [play, move, selfplay]
