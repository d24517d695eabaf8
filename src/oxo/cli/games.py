"""``oxo games``, ``oxo notation`` (``views``, ``game``) and ``oxo fullboards``: games, their universal notation, full boards."""

from __future__ import annotations

import click

from oxo.cli.common import (
    CLASSIC_BOARD,
    classic_geometry,
    console,
    echo_json,
    echo_lines,
    parse_board,
    parse_position,
)
from oxo.cli.limits import clean_stop, estimated_work, memory_limit, memory_option, yes_option
from oxo.cli.options import board_option, choice_option, json_option, k_option, quiet_option
from oxo.geometry import Geometry
from oxo.registry import Game as GameOfOxo


@click.command()
@click.argument("board", type=CLASSIC_BOARD)
@k_option
@click.option(
    "--universal/--no-universal",
    default=None,
    help="Count universal games (default: on boards of at most 16 cells).",
)
@choice_option(
    "--method",
    ["auto", "lines", "pairs"],
    "auto",
    "lines: inclusion-exclusion over sets of lines (boards with few lines, any size: n x n "
    "with k = n up to 10x10); pairs: over sets of cells (boards up to 27 cells, e.g. 5x5 k=4); "
    "auto: lines when the board has at most 22 lines, else pairs.",
)
@memory_option
@yes_option
@json_option
@quiet_option
def games(
    board: Geometry,
    k: int | None,
    universal: bool | None,
    method: str,
    memory_text: str | None,
    yes: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    """Every game of a board, by length and outcome, with its symmetry classes.

    A game is the sequence of moves from the empty board to a win or a full board. "classes"
    counts games up to a symmetry applied to the whole game; "universal" counts them up to
    symmetry applied move by move (two games are the same when the players faced the same
    choices at every move; see 'oxo notation'). Counted without walking the games, so 8x8
    takes a second.

    Example: oxo games 3x3;  oxo games 7x7 --json
    """
    from oxo.games import count_games, estimate_games

    geometry = board  # parsed at the edge, with --k
    limit = memory_limit(memory_text)
    with (
        clean_stop(),
        estimated_work(
            f"counting the games of {geometry.spec}",
            estimate_games(geometry, method),
            limit,
            yes=yes,
            smaller="count positions per move instead with 'oxo count'",
            label=f"counting games of {geometry.spec}",
            quiet=quiet,
        ) as bar,
    ):
        result = count_games(geometry, universal=universal, method=method, on_progress=bar)
    if as_json:
        echo_json(result.to_dict())
        return
    click.echo(games_text(result, output_width()), nl=False)
    if result.universal is None:
        click.echo("universal games: counted on boards of 16 cells at most")


def output_width() -> int:
    """Columns to fit: the terminal's width, or COLUMNS when set; unbounded for a file or pipe."""
    import os
    import shutil
    import sys

    if sys.stdout.isatty():
        return max(20, shutil.get_terminal_size((80, 24)).columns)
    columns = os.environ.get("COLUMNS", "")
    return max(20, int(columns)) if columns.isdigit() else 10_000


def games_text(result, width: int) -> str:
    """The games table as text that fits ``width`` columns without cutting a number: the table
    when it fits, else one figure per line, long numbers wrapped after a comma."""
    from rich.console import Console
    from rich.table import Table

    geometry = result.geometry
    title = f"games of {geometry.spec_shape}, k={geometry.k}"
    show_universal = result.universal is not None
    names = ["games", "X wins", "O wins", "draws", "classes"] + (
        ["universal"] if show_universal else []
    )
    rows: list[tuple[str, list[int]]] = []
    for row in result.by_length:
        if not row.games.total:
            continue
        figures = [
            row.games.total,
            row.games.x_wins,
            row.games.o_wins,
            row.games.draws,
            row.classes.total,
        ]
        if show_universal and row.universal is not None:
            figures.append(row.universal.total)
        rows.append((str(row.length), figures))
    totals = result.games
    figures = [totals.total, totals.x_wins, totals.o_wins, totals.draws, result.classes.total]
    if show_universal and result.universal is not None:
        figures.append(result.universal.total)
    rows.append(("total", figures))

    table = Table(box=None, pad_edge=False, title=title, title_justify="left")
    table.add_column("length", justify="right")
    for name in names:
        table.add_column(name, justify="right")
    for index, (label, values) in enumerate(rows):
        if index == len(rows) - 1:
            table.add_section()
        table.add_row(label, *(f"{value:,}" for value in values))
    wide = Console(width=100_000, highlight=False, color_system=None, file=None)
    with wide.capture() as captured:
        wide.print(table)
    text = captured.get()
    if max(len(line) for line in text.splitlines()) <= width:
        return text
    out = [title]
    label_width = max(len(name) for name in names) + 2
    for label, values in rows:
        out.append(f"length {label}" if label != "total" else "total")
        for name, value in zip(names, values, strict=True):
            out.extend(_wrapped(f"{value:,}", f"  {name:<{label_width}}", width))
    return "\n".join(out) + "\n"


def _wrapped(number: str, lead: str, width: int) -> list[str]:
    """A number with thousands separators after ``lead``, wrapped after a comma to fit ``width``."""
    room = max(8, width - len(lead))
    if len(number) <= room:
        return [lead + number]
    lines, line = [], ""
    for group in number.split(","):
        piece = group if not line else "," + group
        if line and len(line) + len(piece) + 1 > room:  # keep room for the trailing comma
            lines.append(line + ",")
            line = group
        else:
            line += piece
    lines.append(line)
    pad = " " * len(lead)
    return [lead + lines[0]] + [pad + rest for rest in lines[1:]]


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def notation() -> None:
    """Universal notation: each move named by how the cells already taken see it.

    Games that are the same up to rotations and reflections get the same name, even when
    the symmetry changes in the middle of the game. 'oxo notation views' shows the letters
    each kind of cell uses; 'oxo notation game "0 4 8 2 6" --explain' reads a game move by
    move. The full description is in docs/notation.md.
    """


@notation.command("views")
@click.argument("board", default="3x3", type=CLASSIC_BOARD)
@k_option
@json_option
def notation_views(board: Geometry, k: int | None, as_json: bool) -> None:
    """The point-of-view letters: how each kind of cell sees the others.

    The center looks under the 90° rotation, a middle cell under the reflection in the 0° mirror
    line, a corner under the reflection in the 45° mirror line; cells a view cannot tell apart
    share a letter, and no letter is used by two views.
    """
    from oxo.notation import seed_ambiguities, views

    geometry = board  # parsed at the edge, with --k
    found = views(geometry)
    ambiguity = seed_ambiguities(geometry) if geometry.size <= 9 else None
    if as_json:
        echo_json(
            {
                **geometry.board_keys(),
                "views": [view.to_dict() for view in found],
                "seed_ambiguities": None if ambiguity is None else ambiguity.to_dict(),
            }
        )
        return
    for view in found:
        seen = (
            f"{view.symmetry} ({_SEED_WORDS.get(view.symmetry, view.symmetry)})"
            if view.symmetry
            else f"the symmetries fixing it ({', '.join(view.group)})"
        )
        click.echo(f"{view.cell_class} (cell {view.cell}, marked *), seen under {seen}:")
        click.echo("\n".join("    " + line for line in view.to_grid().splitlines()))
        click.echo()
    click.echo("Other cells of a kind see the board the same way, turned to match")
    click.echo("(oxo notation game shows it).")
    if ambiguity is not None:
        click.echo(
            f"The letters alone name moves ambiguously in {ambiguity.ambiguous} of {ambiguity.positions} reachable "
            f"positions up to symmetry ({ambiguity.moves} moves); a prime (') tells those moves apart."
        )


#: One line under the universal form saying how to read it.
LEGEND = (
    "            (each move: the letters the taken cells see it as, X's cells in capitals, O's in "
    "lower case; the first move is named by its kind of cell; --explain says more)"
)


def _explanation(geometry) -> str:
    """How to read the universal notation, with the views of the board drawn."""
    from oxo.notation import views

    lines = [
        "How to read the universal form:",
        "  The first move is named by its kind of cell (on 3x3: corner, middle or",
        "  center): all cells of a kind are the same move up to rotations and",
        "  reflections. Every later move is named by how each cell already taken sees",
        "  it. Each kind of cell looks at the board through its own letters (drawn",
        "  below, the cell itself marked *); a cell of X reports its letter in",
        "  capitals, a cell of O in lower case; X's letters come first, then O's,",
        "  each in alphabetical order. So 'La' means: an X cell sees the move as L",
        "  and an O cell sees it as a. Other cells of a kind use the same letters,",
        "  turned to match. Where the letters alone fit two different moves, a prime",
        "  (') marks the second. Two games have the same universal form exactly when,",
        "  move by move, their positions are the same up to rotations and",
        "  reflections.",
        "",
        "The letters each kind of cell sees:",
    ]
    for view in views(geometry):
        lines.append(f"  {view.cell_class} (cell {view.cell}, marked *):")
        lines.extend("      " + row for row in view.to_grid().splitlines())
    return "\n".join(lines)


_SEED_WORDS = {
    "rot90": "the 90° rotation",
    "mirror0": "the reflection in the 0° mirror line",
    "mirror45": "the reflection in the 45° mirror line",
}


@notation.command("game")
@click.argument("moves")
@board_option
@k_option
@click.option(
    "--keypad",
    is_flag=True,
    help="Moves are keys 1..9 (1 2 3 on the top row to 7 8 9 on the bottom; 3x3 only) instead of cell numbers from 0.",
)
@click.option(
    "--explain",
    is_flag=True,
    help="Explain how to read the universal form and the letters, with the views drawn.",
)
@json_option
def notation_game(
    moves: str,
    board: GameOfOxo | None,
    k: int | None,
    keypad: bool,
    explain: bool,
    as_json: bool,
) -> None:
    """A game in cell numbers, its canonical form and its universal form, move by move.

    MOVES are the cells played, e.g. "0 4 8 2 6" (cells numbered from 0 in reading order, so
    0..8 on 3x3), or keys 1..9 with --keypad. The canonical form is the game turned by the
    rotation or reflection that makes it least. Each move is named by what every taken cell sees:
    one letter per taken cell, X's cells in capitals, O's in lower case. --explain says how to
    read it.
    """
    from oxo.games import Game
    from oxo.notation import format_universal, universal_game

    geometry = parse_board("3x3", k) if board is None else classic_geometry(board)
    game = Game.parse(moves, geometry, "keypad" if keypad else "id")
    named = universal_game(game)
    outcome = game.outcome
    status = {"x": "X wins", "o": "O wins", "draw": "draw", None: "unfinished"}[outcome]
    data = {
        **geometry.board_keys(),
        "moves": list(game.moves),
        "game": game.to_text(),
        "canonical": game.canonical.to_text(),
        "universal": format_universal([move.token for move in named]),
        "outcome": outcome,
        "length": game.length,
        "plies": [
            {
                "ply": ply,
                "player": "x" if ply % 2 else "o",
                "cell": move.cell,
                "token": move.token,
                "seed_letters": move.seed_name,
                "equivalent_cells": list(move.orbit),
                "alternatives_with_same_letters": move.alternatives,
                "reports": [
                    {"cell": r.cell, "owner": r.owner, "letter": r.letter} for r in move.reports
                ],
                "position": game.positions[ply].to_status_string(),
            }
            for ply, move in enumerate(named, start=1)
        ],
    }
    if keypad:
        data["keypad"] = game.to_text("keypad")
    if as_json:
        echo_json(data)
        return
    click.echo(f"game:       {data['game']}   ({status} after {game.length} moves)")
    if keypad:
        click.echo(f"keypad:     {data['keypad']}")
    click.echo(f"canonical:  {data['canonical']}")
    click.echo(f"universal:  {data['universal']}")
    echo_lines([LEGEND])
    click.echo()
    if explain:
        click.echo(_explanation(geometry))
        click.echo()
    for ply, move in enumerate(named, start=1):
        player = "X" if ply % 2 else "O"
        if move.reports:
            seen = ", ".join(
                f"{r.owner.upper()}{r.cell} sees {r.letter if r.owner == 'x' else r.letter.lower()}"
                for r in move.reports
            )
        else:
            seen = f"empty board: a {move.token}"
        line = f"{ply:>3}. {player} {move.cell:<3} {move.token:<10} {seen}"
        if len(move.orbit) > 1:
            line += f"  [same as {', '.join(str(c) for c in move.orbit if c != move.cell)} here]"
        if move.seed_is_ambiguous:
            line += (
                f"  [letters shared by {move.alternatives} different moves: prime rank {move.rank}]"
            )
        click.echo(line)
    click.echo()
    click.echo(game.final.to_grid())


@click.command()
@click.argument("board", required=False, type=CLASSIC_BOARD)
@k_option
@click.option(
    "--games",
    "games_of",
    metavar="POSITION",
    default=None,
    help="List the games inside one full board instead.",
)
@json_option
def fullboards(board: Geometry | None, k: int | None, games_of: str | None, as_json: bool) -> None:
    """Full boards: every square filled (5 X and 4 O on 3x3), by alignments and their owners.

    As if the players went on regardless of wins. With --games POSITION, the games one full board
    contains: the reachable winning positions found by emptying some of its squares, with the
    number of move orders reaching each.

    Examples: oxo fullboards 3x3    oxo fullboards --games xxxooxxoo
    """
    from oxo.fullboards import count_full_boards, games_in_full_board

    if games_of is not None:
        position = parse_position(games_of, board, k)
        found = games_in_full_board(position)
        if as_json:
            echo_json(found.to_dict())
            return
        _print_contained(found)
        return
    geometry = parse_board("3x3", k) if board is None else board
    result = count_full_boards(geometry)
    if as_json:
        echo_json(result.to_dict())
        return
    from rich.table import Table

    table = Table(
        box=None,
        pad_edge=False,
        title=f"full boards of {geometry.spec_shape}, k={geometry.k}",
        title_justify="left",
    )
    for name in ("alignments", "owners", "boards", "classes"):
        table.add_column(name, justify="right")
    for row in result.rows:
        table.add_row(str(row.alignments), row.owners, f"{row.boards:,}", f"{row.classes:,}")
    table.add_section()
    table.add_row("total", "", f"{result.full_boards:,}", f"{result.full_board_classes:,}")
    console().print(table)


def _print_contained(found) -> None:
    from rich.table import Table

    board = found.board
    data = found.to_dict()
    click.echo(board.to_grid())
    click.echo()
    click.echo(
        f"alignments: {data['alignments']} ({data['owners']}); {len(found.games)} game ends inside, "
        f"{found.move_orders:,} move orders in all"
    )
    table = Table(box=None, pad_edge=False)
    for name in ("length", "position", "winner", "lines", "move orders"):
        table.add_column(name, justify="right" if name in ("length", "move orders") else "left")
    sep = "" if board.geometry.size <= 10 else "-"
    for game in found.games:
        lines = " ".join(sep.join(map(str, line)) for line in game.lines) or "-"
        table.add_row(
            str(game.length),
            game.position.to_letters(rows=True),
            (game.winner or "draw").upper() if game.winner else "draw",
            lines,
            f"{game.move_orders:,}",
        )
    console().print(table)


COMMANDS = [games, notation, fullboards]
