"""``oxo deadends``, ``oxo solve``, ``oxo analyze`` and ``oxo play``: dead lines, winnability and perfect play."""

from __future__ import annotations

import sys
import time

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
from oxo.cli.common import (
    board_option,
    console,
    echo_json,
    json_option,
    k_option,
    parse_board,
    parse_position,
    quiet_option,
)
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.progress import progress_bar
from oxo.proofs.solver import METHOD, ProofResult, prove_board
from oxo.solve import SolveTable, Value, solve
from oxo.space import MAX_EMPTY, build_space, check_playable


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
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    help="List every position where the seed's rule is wrong, not just 3 of each kind.",
)
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
    report = deadend_report(
        geometry, examples=None if show_all else 3, win=winnability(geometry, space=space)
    )
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
        table.add_row(
            str(row.dead_lines),
            str(row.empty),
            str(row.winnable),
            str(row.unwinnable),
            "unwinnable" if rule else "",
        )
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
        out.print(
            "\nSeed 004's example boards (drawn there with O for player 1, except where noted; X is player 1 here):"
        )
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


# -- solve -----------------------------------------------------------------------------------------


@click.command(name="solve")
@click.argument("board")
@k_option
@click.option(
    "--time",
    "seconds",
    type=click.FloatRange(min=0, min_open=True),
    default=600.0,
    show_default=True,
    metavar="SECONDS",
    help="Time limit of the proof on boards over 16 cells.",
)
@click.option(
    "--proof",
    "proof_dir",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Write certificates (strategies anyone can check with 'oxo verify') into this new or empty folder.",
)
@json_option
@quiet_option
def solve_command(
    board: str, k: int | None, seconds: float, proof_dir: str | None, as_json: bool, quiet: bool
) -> None:
    """The value of a board with perfect play: X wins, O wins or draw.

    Boards of up to 16 cells are solved completely, with a table per ply of how many reachable
    positions (finished ones included) are won for X, won for O or drawn with best play ("classes"
    counts them up to the board's symmetries). Larger boards are settled by a proof-number search
    that also uses pairing strategies (pairs of cells where the defender always answers one with the
    other). With --proof, the strategies that prove the value are written as certificates: one
    for a win, two (one per side, neither can lose) for a draw; 'oxo verify FILE' checks one.

    Past --time the value is "unknown" and the exit status is 3.

    Example: oxo solve 5x5 --k 4 --proof proofs/5x5k4
    """
    geometry = parse_board(board, k)
    if geometry.size <= MAX_EMPTY:
        started = time.perf_counter()
        space = _build(geometry, quiet)
        table = solve(geometry, space=space).ply_table()
        elapsed = time.perf_counter() - started
        proofs: list[str] = []
        if proof_dir is not None:
            result = prove_board(geometry, seconds=None, proof_dir=proof_dir)
            assert result.value == table.value.outcome, (
                "the proof search and the per-ply tables disagree"
            )
            proofs = list(result.proofs)
        if as_json:
            echo_json(
                {
                    **table.to_dict(),
                    "method": "retrograde analysis of every reachable position",
                    "nodes": space.total,
                    "seconds": round(elapsed, 3),
                    "proofs": proofs,
                }
            )
            return
        _print_solve(table)
        for path in proofs:
            click.echo(f"certificate: {path}")
        return
    report = _progress_reporter(quiet, seconds)
    result = prove_board(geometry, seconds=seconds, proof_dir=proof_dir, on_progress=report)
    if report is not None:
        click.echo("\r\033[K", err=True, nl=False)
    if as_json:
        echo_json(result.to_dict())
    else:
        _print_proof(result)
    if result.value == "unknown":
        raise click.exceptions.Exit(3)


def _progress_reporter(quiet: bool, limit: float):  # type: ignore[no-untyped-def]
    """Nodes searched so far on stderr (a TTY only)."""
    if quiet or not sys.stderr.isatty():
        return None

    def report(attacker: str, nodes: int, table: int, elapsed: float) -> None:
        click.echo(
            f"\rcan {attacker.upper()} force a line? {nodes:,} positions searched, {table:,} settled or scored; "
            f"{elapsed:.0f} s of at most {limit:.0f} s\033[K",
            err=True,
            nl=False,
        )

    return report


def _print_proof(result: ProofResult) -> None:
    geometry = result.geometry
    shape = f"{geometry.spec_shape} board, k={geometry.k}"
    if result.value == "unknown":
        click.echo(f"{shape}: value unknown within the time limit ({result.limit:g} s)")
    else:
        click.echo(f"{shape}: {_VALUE_WORDS[result.value]} with best play")
    for search in result.searches:
        answer = {True: "yes", False: "no", None: "not settled"}[search.result]
        click.echo(
            f"  can {search.attacker.upper()} force a line? {answer} ({search.nodes:,} positions searched in {search.seconds:.1f} s)"
        )
    click.echo(f"method: {METHOD}; {result.nodes:,} positions in {result.seconds:.1f} s")
    for path in result.proofs:
        click.echo(f"certificate: {path}  (check it with: oxo verify {path})")
    if result.value == "unknown":
        click.echo(
            "what to try: a longer --time; boards of up to 16 cells are always solved; 'oxo play' and 'oxo move' "
            "play this board at level hard without a proof"
        )


_VALUE_WORDS = {"x": "X wins", "o": "O wins", "draw": "draw"}


def _print_solve(table: SolveTable) -> None:
    from rich.table import Table

    geometry = table.geometry
    out = console()
    out.print(
        f"{geometry.spec_shape} board, k={geometry.k}: {_describe(table.value, 0)} with best play"
    )
    grid = Table(box=None, pad_edge=False)
    for name in ("ply", "X wins", "O wins", "draw", "X classes", "O classes", "draw classes"):
        grid.add_column(name, justify="right")
    for row in table.plies:
        grid.add_row(
            *(
                str(v)
                for v in (
                    row.ply,
                    row.x,
                    row.o,
                    row.draw,
                    row.x_classes,
                    row.o_classes,
                    row.draw_classes,
                )
            )
        )
    grid.add_section()
    grid.add_row(
        "total",
        *(
            str(sum(getattr(row, name) for row in table.plies))
            for name in ("x", "o", "draw", "x_classes", "o_classes", "draw_classes")
        ),
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
    click.echo(
        f"dead lines:     {len(lines.dead)} of {len(geometry.lines)}: {_lines(lines.dead, geometry)}"
    )
    click.echo(f"open for X:     {_lines(lines.open_for_x, geometry)}")
    click.echo(f"open for O:     {_lines(lines.open_for_o, geometry)}")
    click.echo(
        f"empty cells:    {_cells(lines.empty, geometry) if geometry.size > 10 else ' '.join(map(str, lines.empty)) or 'none'}"
    )
    click.echo(
        f"still winnable: {'yes, by ' + ' or '.join(who) if who else 'no'} (if both players may move anywhere)"
    )
    click.echo(f"value:          {value}")
    if pos.is_terminal:
        draw_text = "no: the game is over"
    else:
        draw_text = "yes: nobody can win against best defence" if forced_draw else "no"
    click.echo(f"forced draw:    {draw_text}")
    if moves:
        click.echo(f"best moves:     {' '.join(map(str, best))}")
        click.echo(
            "moves:          " + ", ".join(f"{cell}: {move}" for cell, move in moves.items())
        )


COMMANDS = [deadends, solve_command, analyze]
