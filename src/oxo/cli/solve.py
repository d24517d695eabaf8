"""``oxo deadends``, ``oxo solve``, ``oxo analyze`` and ``oxo play``: dead lines, winnability and perfect play."""

from __future__ import annotations

import sys

import click

from oxo.analysis import (
    SEED_EXAMPLES,
    DeadEndReport,
    dead_line_count,
    deadend_report,
    from_seed_board,
    line_report,
    winnability,
)
from oxo.cli.common import board_option, console, echo_json, json_option, k_option, parse_board, parse_position, quiet_option
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.progress import progress_bar
from oxo.solve import SearchBudgetError, SolveTable, Value, forced_win_value, solve
from oxo.space import MAX_EMPTY, SpaceTooLargeError, build_space, check_playable


def _cells(cells: tuple[int, ...] | list[int], geometry: Geometry) -> str:
    return ("" if geometry.size <= 10 else "-").join(str(cell) for cell in cells)


def _lines(lines: tuple[tuple[int, ...], ...], geometry: Geometry) -> str:
    return " ".join(_cells(line, geometry) for line in lines) or "none"


def _build(start: Geometry | Position, quiet: bool):  # type: ignore[no-untyped-def]
    with progress_bar("building the state space", total=1.0, quiet=quiet) as bar:
        state = {"done": 0.0}

        def report(fraction: float) -> None:
            bar.advance(fraction - state["done"])
            state["done"] = fraction

        return build_space(start, on_progress=report)


# -- deadends --------------------------------------------------------------------------------------


@click.command()
@click.argument("board")
@k_option
@click.option("--all", "show_all", is_flag=True, help="List every position where the seed's rule is wrong, not just 3 of each kind.")
@json_option
@quiet_option
def deadends(board: str, k: int | None, show_all: bool, as_json: bool, quiet: bool) -> None:
    """Dead lines against exact winnability, and seed 004's five questions answered.

    A line is dead when both players have a mark in it. A position is still winnable when some
    continuation of legal play (both players free to move anywhere, even helping each other) ends
    with a winner. The table counts reachable positions still in play (no winner yet, board not full)
    by dead lines and empty cells. Seed 004's rule ("unwinnable with 8 dead lines, or 7 dead lines and
    2 empty cells") is read with L = the board's number of lines for 8, and checked on every position.

    Example: oxo deadends 3x3
    """
    geometry = parse_board(board, k)
    space = _build(geometry, quiet)
    report = deadend_report(geometry, examples=None if show_all else 3, win=winnability(geometry, space=space))
    if as_json:
        echo_json(report.to_dict())
        return
    _print_deadends(report)


def _print_deadends(report: DeadEndReport) -> None:
    from rich.table import Table

    geometry = report.geometry
    out = console()
    lines = report.line_count
    out.print(
        f"{geometry.spec_shape} board, k={geometry.k}: {lines} lines; {report.positions} reachable positions still in play, "
        f"{report.unwinnable} of them unwinnable"
    )
    table = Table(box=None, pad_edge=False)
    for name in ("dead lines", "empty cells", "winnable", "unwinnable", "seed rule says"):
        table.add_column(name, justify="right")
    for row in report.rows:
        rule = row.dead_lines == lines or (row.dead_lines == lines - 1 and row.empty == 2)
        table.add_row(str(row.dead_lines), str(row.empty), str(row.winnable), str(row.unwinnable), "unwinnable" if rule else "")
    out.print(table)
    out.print(f"\nSeed 004's questions (L = {lines} lines here; on 3x3 L = 8):")
    for question in report.questions:
        answer = "yes" if question.answer else "no"
        example = f"; e.g. {question.example}" if question.example else ""
        out.print(
            f"  {question.number}. {question.question}\n     {answer} ({question.count} positions{example}); "
            f"the seed guessed: {question.seed_answer}"
        )
    def listed(examples: tuple[str, ...], count: int) -> str:
        if not examples:
            return ""
        return f" ({'all' if len(examples) == count else 'e.g.'} {', '.join(examples)})"

    out.print(
        f"\nSeed 004's rule disagrees with the exact answer on {report.rule_disagreements} positions:\n"
        f"  says unwinnable but winnable: {report.rule_says_unwinnable_but_winnable}"
        + listed(report.examples_wrongly_unwinnable, report.rule_says_unwinnable_but_winnable)
        + f"\n  says winnable but unwinnable: {report.rule_says_winnable_but_unwinnable}"
        + listed(report.examples_wrongly_winnable, report.rule_says_winnable_but_unwinnable)
    )
    if geometry.shape == (3, 3) and geometry.k == 3:
        out.print("\nSeed 004's example boards (drawn there with O for player 1, except where noted; X is player 1 here):")
        for label, drawing, first, claimed in SEED_EXAMPLES:
            position = from_seed_board(drawing, first)
            win = winnability(position)
            winnable = "winnable" if win.winnable(position) else "unwinnable"
            note = "" if first == "O" else " (X is player 1 in this drawing)"
            stated = f", seed says {claimed}" if claimed is not None else ""
            out.print(
                f"  {label:<22} {drawing:<13} = {position.to_status_string()}: {dead_line_count(position)} dead lines"
                f"{stated}, {len(position.empty_cells)} empty, {winnable}{note}"
            )


#: Positions a forcing search may visit for ``oxo solve`` on a board over 16 cells.
FORCING_BUDGET = 20_000

# -- solve -----------------------------------------------------------------------------------------


@click.command(name="solve")
@click.argument("board")
@k_option
@json_option
@quiet_option
def solve_command(board: str, k: int | None, as_json: bool, quiet: bool) -> None:
    """The value of a board with perfect play, and the values of all its reachable positions per ply.

    Every reachable position (finished ones included) is counted as won for X, won for O or drawn
    with best play from there on; "classes" counts them up to the board's symmetries. Boards of up
    to 16 cells are solved completely; on larger boards (such as 3x3x3) only the empty board's value
    is given, when X can force a win.

    Example: oxo solve 4x4 --k 3
    """
    geometry = parse_board(board, k)
    if geometry.size > MAX_EMPTY:
        _solve_by_forcing(geometry, as_json)
        return
    space = _build(geometry, quiet)
    table = solve(geometry, space=space).ply_table()
    if as_json:
        echo_json(table.to_dict())
        return
    _print_solve(table)


def _solve_by_forcing(geometry: Geometry, as_json: bool) -> None:
    """Boards over 16 cells: only the empty board's value, when X can force a win (found by a forcing search)."""
    try:
        value = forced_win_value(Position.empty(geometry), max_nodes=FORCING_BUDGET)
    except SearchBudgetError:
        value = None
    if value is None:
        raise SpaceTooLargeError(
            f"a {geometry.spec_shape} board has {geometry.size} cells: per-ply tables need at most {MAX_EMPTY}, "
            f"and a forcing search of {FORCING_BUDGET} positions found no win for X"
        )
    if as_json:
        echo_json({"board": geometry.spec_shape, "k": geometry.k, "value": value.outcome, "plies_to_end": value.plies,
                   "plies": [], "method": "forcing search"})
        return
    click.echo(
        f"{geometry.spec_shape} board, k={geometry.k}: {_describe(value, 0)} with best play "
        f"(forcing search; the per-ply table needs at most {MAX_EMPTY} cells)"
    )


def _print_solve(table: SolveTable) -> None:
    from rich.table import Table

    geometry = table.geometry
    out = console()
    out.print(f"{geometry.spec_shape} board, k={geometry.k}: {_describe(table.value, 0)} with best play")
    grid = Table(box=None, pad_edge=False)
    for name in ("ply", "X wins", "O wins", "draw", "X classes", "O classes", "draw classes"):
        grid.add_column(name, justify="right")
    for row in table.plies:
        grid.add_row(*(str(v) for v in (row.ply, row.x, row.o, row.draw, row.x_classes, row.o_classes, row.draw_classes)))
    grid.add_section()
    grid.add_row(
        "total",
        *(str(sum(getattr(row, name) for row in table.plies)) for name in ("x", "o", "draw", "x_classes", "o_classes", "draw_classes")),
    )
    out.print(grid)


def _describe(value: Value, ply: int) -> str:
    if value.winner is None:
        return "draw"
    return f"{value.winner.upper()} wins (game over at ply {ply + value.plies})"


# -- analyze ---------------------------------------------------------------------------------------


@click.command()
@click.argument("position")
@board_option
@k_option
@json_option
def analyze(position: str, board: str | None, k: int | None, as_json: bool) -> None:
    """One position: dead and open lines, still winnable, value with best play and every move's value.

    "Forced draw" means nobody can win against best defence any more: the earliest point at which
    a tool could call the draw. Only what can follow the position is explored, so positions with at
    most 16 empty cells can be analysed on any board.

    Example: oxo analyze x...o....
    """
    pos = parse_position(position, board, k)
    check_playable(pos)
    geometry = pos.geometry
    space = build_space(pos)
    solution = solve(pos, space=space)
    x_can, o_can = winnability(pos, space=space).can_win(pos)
    lines = line_report(pos)
    value = solution.value(pos)
    moves = solution.move_values(pos)
    best = solution.best_moves(pos)
    forced_draw = value.winner is None and not pos.is_terminal
    data = {
        "board": geometry.spec_shape,
        "k": geometry.k,
        "position": pos.to_status_string(),
        "ply": pos.ply,
        "turn": pos.to_move,
        "winner": pos.winner,
        **lines.to_dict(),
        "x_can_win": x_can,
        "o_can_win": o_can,
        "winnable": x_can or o_can,
        "value": value.outcome,
        "plies_to_end": value.plies,
        "forced_draw": forced_draw,
        "best_moves": list(best),
        "moves": [{"cell": cell, **move.to_dict()} for cell, move in moves.items()],
    }
    if as_json:
        echo_json(data)
        return
    click.echo(pos.to_grid())
    click.echo()
    if pos.winner:
        status = f"{pos.winner.upper()} has won"
    elif pos.is_full:
        status = "draw: the board is full"
    else:
        status = f"{pos.to_move.upper()} to move (ply {pos.ply})"  # type: ignore[union-attr]
    who = [name for name, can in (("X", x_can), ("O", o_can)) if can]
    click.echo(f"status:         {status}")
    click.echo(f"dead lines:     {len(lines.dead)} of {len(geometry.lines)}: {_lines(lines.dead, geometry)}")
    click.echo(f"open for X:     {_lines(lines.open_for_x, geometry)}")
    click.echo(f"open for O:     {_lines(lines.open_for_o, geometry)}")
    click.echo(f"empty cells:    {_cells(lines.empty, geometry) if geometry.size > 10 else ' '.join(map(str, lines.empty)) or 'none'}")
    click.echo(f"still winnable: {'yes, by ' + ' or '.join(who) if who else 'no'} (if both players may move anywhere)")
    click.echo(f"value:          {value}")
    if pos.is_terminal:
        draw_text = "no: the game is over"
    else:
        draw_text = "yes: nobody can win against best defence" if forced_draw else "no"
    click.echo(f"forced draw:    {draw_text}")
    if moves:
        click.echo(f"best moves:     {' '.join(map(str, best))}")
        click.echo("moves:          " + ", ".join(f"{cell}: {move}" for cell, move in moves.items()))


COMMANDS = [deadends, solve_command, analyze]
