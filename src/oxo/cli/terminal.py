"""``oxo check`` and ``oxo terminal``: legality with reasons, and the positions where games end."""

from __future__ import annotations

import click

from oxo import api
from oxo.cli.common import (
    CLASSIC_BOARD,
    classic_position,
    console,
    echo_json,
    echo_lines,
    game_of_text,
)
from oxo.cli.limits import clean_stop, estimated_work, memory_limit, memory_option, yes_option
from oxo.cli.options import board_option, choice_option, json_option, k_option, quiet_option
from oxo.geometry import Geometry
from oxo.registry import Game
from oxo.terminal import (
    METHODS,
    TerminalTable,
    count_terminal,
    estimate_terminal,
    parse_plies,
    terminal_positions,
)

_STATUS_TEXT = {
    "x_to_move": "legal: X to move",
    "o_to_move": "legal: O to move",
    "x_won": "legal: X has won",
    "o_won": "legal: O has won",
    "draw": "legal: a draw (the board is full)",
}


@click.command()
@click.argument("position")
@board_option
@k_option
@json_option
def check(position: str, board: Game | None, k: int | None, as_json: bool) -> None:
    """Can POSITION occur in a real game? If not, every reason why.

    X moves first, players alternate and play stops at the first complete line. Exit status:
    0 legal, 1 illegal (reasons printed), 2 not a position at all.

    Example: oxo check xxx/oo./...
    """
    game = game_of_text(position, board, k)
    if game is not None:
        game.require("legality")
    verdict = api.check(classic_position(position, board, k, game))
    if as_json:
        echo_json(verdict.to_dict())
    else:
        click.echo(verdict.position.to_grid())
        click.echo()
        if verdict.legal:
            click.echo(_STATUS_TEXT[verdict.status or "x_to_move"])
            if verdict.last_moves:
                click.echo(f"last move: {_last_move_words(verdict.last_moves)}")
        else:
            click.echo("illegal:")
            echo_lines(f"  - {reason.message} [{reason.code}]" for reason in verdict.reasons)
    if not verdict.legal:
        raise click.exceptions.Exit(1)


def _last_move_words(cells: tuple[int, ...]) -> str:
    """``cell 4``, or ``one of cells 0, 8`` when the position does not tell which."""
    if len(cells) == 1:
        return f"cell {cells[0]}"
    return f"one of cells {', '.join(map(str, cells))} (the position does not tell which)"


@click.command()
@click.argument("board", type=CLASSIC_BOARD)
@k_option
@click.option(
    "--ply",
    "ply_text",
    default=None,
    metavar="P",
    help="Only these plies: 7, 0-7 or 5,7,9 (default: all).",
)
@choice_option(
    "--method",
    METHODS,
    "auto",
    "pairs: pair counter, every ply; csp: constraint search, per ply; search: walk the game tree (slow reference).",
)
@click.option(
    "--list",
    "as_list",
    is_flag=True,
    help="Stream the positions instead: '<position> <x|o|draw>' per line, the position as digits (0 empty, 1 x, 2 o).",
)
@click.option(
    "--limit",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="With --list: stop after N positions.",
)
@memory_option
@yes_option
@json_option
@quiet_option
def terminal(
    board: Geometry,
    k: int | None,
    ply_text: str | None,
    method: str,
    as_list: bool,
    limit: int | None,
    memory_text: str | None,
    yes: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    """Terminal positions: where the game has ended, per ply, as X wins, O wins and draws.

    Counts reachable positions (X first, alternate turns, play stops at a win) and, in the
    "classes" columns, the same up to the board's symmetries. Big boards (5x5, 3x3x3, 4x4x4)
    need --ply, which counts those plies with a constraint search.

    Examples: oxo terminal 3x3;  oxo terminal 3x3x3 --ply 0-7;  oxo terminal 4x4 --list --limit 5
    """
    geometry = board  # parsed at the edge, with --k
    plies = parse_plies(ply_text, geometry) if ply_text is not None else None
    if as_list or limit is not None:
        shown = 0
        for found in terminal_positions(geometry, plies):
            if limit is not None and shown >= limit:
                break
            if as_json:
                echo_json(found.to_dict())
            else:
                click.echo(found.to_line())
            shown += 1
        return
    memory = memory_limit(memory_text)
    with (
        clean_stop(),
        estimated_work(
            f"counting the terminal positions of {geometry.spec}",
            estimate_terminal(geometry, method, plies),
            memory,
            yes=yes,
            smaller="give --ply to count some plies with the constraint search",
            label=f"terminal positions of {geometry.spec}",
            quiet=quiet,
        ) as bar,
    ):
        table = count_terminal(geometry, method, plies=plies, on_progress=bar)  # type: ignore[arg-type]  # click.Choice(METHODS) checked the method
    if as_json:
        echo_json(table.to_dict())
        return
    console().print(_terminal_table(table))


#: How the table's title says which method counted it, in words a newcomer can place.
TERMINAL_METHOD_WORDS = {
    "pairs": "counted without visiting positions (over the pairs of X's and O's cells)",
    "csp": "found ply by ply by a constraint search",
    "search": "found by walking every game",
}


def _terminal_table(result: TerminalTable):
    from rich.table import Table

    table = Table(
        box=None,
        pad_edge=False,
        title=f"positions where the game has ended, {result.geometry.spec_shape} k={result.geometry.k}, "
        f"{TERMINAL_METHOD_WORDS.get(result.method, result.method)}",
        title_justify="left",
    )
    for header in (
        "ply",
        "X wins",
        "O wins",
        "draws",
        "total",
        "X classes",
        "O classes",
        "draw classes",
        "classes",
    ):
        table.add_column(header, justify="right")
    for row in result.plies:
        table.add_row(
            *map(
                "{:,}".format,
                (
                    row.ply,
                    row.x_wins,
                    row.o_wins,
                    row.draws,
                    row.positions,
                    row.x_wins_classes,
                    row.o_wins_classes,
                    row.draws_classes,
                    row.classes,
                ),
            )
        )
    total = result.total
    table.add_section()
    table.add_row(
        f"total (plies {result.plies[0].ply}-{result.plies[-1].ply})",
        *map(
            "{:,}".format,
            (
                total["x_wins"],
                total["o_wins"],
                total["draws"],
                result.total_positions,
                total["x_wins_classes"],
                total["o_wins_classes"],
                total["draws_classes"],
                result.total_classes,
            ),
        ),
    )
    return table


COMMANDS = [check, terminal]
