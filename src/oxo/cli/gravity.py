"""``--gravity`` on ``oxo play``, ``move``, ``selfplay``, ``solve`` and ``analyze``: gravity boards,
where a mark drops to the lowest empty cell of its column (6x7 with k=4 is Connect Four).

Helpers called by the commands of :mod:`oxo.cli.play` and :mod:`oxo.cli.solve`: a library call
plus formatting."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Unpack

import click

from oxo.cli.common import echo_json, echo_lines
from oxo.errors import MoveError
from oxo.gravity.board import GravityBoard, GravityState
from oxo.progress import progress_status
from oxo.registry import Game, game_of

if TYPE_CHECKING:
    from oxo.engines.base import Budget

#: Time limit of ``oxo analyze --gravity`` (``oxo solve`` has ``--time``).
ANALYZE_SECONDS = 120.0


def parse_gravity_position(text: str, board: GravityBoard | None, k: int | None) -> GravityState:
    """A gravity position from the command line: columns played from 1 (``4453``; Connect Four
    unless --board says otherwise: the board parsed at the edge, with its k) or rows top first
    with ``/`` (the board read from them)."""
    if board is not None:
        return GravityState.from_string(text, board)
    if re.fullmatch(r"\s*\d+\s*x\s*\d+\s*(,.*)?", text):  # a board: its empty position
        return GravityState(GravityBoard.parse(text, k))
    if "/" in text:
        state = GravityState.from_string(text)
        if k is not None:
            shape = state.board
            state = GravityState.from_string(text, GravityBoard(shape.rows, shape.cols, k))
        return state
    return GravityState.from_string(text, GravityBoard(6, 7, 4 if k is None else k))


def gravity_position(
    text: str, board: Game | None, k: int | None, game: Game | None
) -> GravityState:
    """The gravity position of a command's POSITION argument: the empty board of the ``game`` the
    text names when no ``--board`` is given, the position on the ``--board`` game (both parsed at
    the edge, with --k), else the board read from the text (:func:`parse_gravity_position`)."""
    if game is None:
        return parse_gravity_position(text, None, k)
    shape = game.board  # type: ignore[attr-defined]  # a gravity game has a board
    return GravityState(shape) if board is None else parse_gravity_position(text, shape, None)


def move_command(state: GravityState, level: str, as_json: bool, **budget: Unpack[Budget]) -> None:
    """The computer's column in a gravity position, and the value when proven."""
    if state.is_over:
        ended = "draw" if state.winner is None else f"{state.winner.upper()} has won"
        raise MoveError(f"the game is over ({ended}): there is no move")
    engine = game_of(state).make_engine(level, state, **budget)
    col = engine.choose(state)
    report = engine.last
    assert report is not None
    data = {
        **state.to_dict(),
        "level": level,
        "move": state.format_move(col),
        "value": report.value,
        "seconds": round(report.seconds, 4),
    }
    if as_json:
        echo_json(data)
        return
    value = {"x": "X wins", "o": "O wins", "draw": "draw"}.get(report.value or "", "not proven")
    detail = report.engine + (f", {report.nodes:,} positions" if report.nodes else "")
    click.echo(f"move: column {state.format_move(col)}")
    click.echo(f"value with best play: {value}")
    echo_lines([f"found by: {detail} in {report.seconds:.2f} s"])


def solve_command(
    shape: GravityBoard,
    seconds: float,
    as_json: bool,
    proof_dir: str | None = None,
    quiet: bool = False,
    *,
    again: bool = False,
) -> None:
    """The value of an empty gravity board with best play and when the game ends; with
    ``proof_dir``, the two certificates of that value written there. A board of oxo's proof book
    (Connect Four) is answered from the book unless ``again`` (or ``proof_dir``)."""
    from oxo.gravity.proof import prove
    from oxo.gravity.solver import GravitySolver, default_table_words

    state = GravityState(shape)
    if proof_dir is None and not again:
        from oxo.book import book_entry

        entry = book_entry(shape.spec)
        if entry is not None:
            _solved_from_book(state, entry, as_json)
            return
    words = default_table_words(shape)
    if proof_dir is not None:
        folder = Path(proof_dir)
        if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
            raise click.BadParameter(
                f"{proof_dir} must be a new or empty folder", param_hint="--proof"
            )
    paths: tuple[Path, ...] = ()
    started = time.perf_counter()
    with progress_status(quiet=quiet) as status:
        if proof_dir is not None:
            run = prove(
                shape, proof_dir, workers=1, table_words=words, seconds=seconds, on_status=status
            )
            value, paths, nodes = run.value, run.certificates, run.nodes
        else:
            solver = GravitySolver(shape, words, on_status=status)
            value = solver.solve(state, seconds=seconds)
            nodes = solver.nodes
    spent = time.perf_counter() - started
    if as_json:
        echo_json(
            {
                **state.to_dict(),
                **value.to_dict(),
                "method": "alpha-beta search over bitboards",
                "nodes": nodes,
                "seconds": round(spent, 2),
                "certificates": [str(path) for path in paths],
            }
        )
        return
    click.echo(f"{state.board.name}: {value}")
    click.echo(f"searched {nodes:,} positions in {spent:.1f} s")
    for path in paths:
        click.echo(f"certificate: {path}")


def _solved_from_book(state: GravityState, entry: Any, as_json: bool) -> None:
    """An empty gravity board's value read from oxo's proof book (its row in full, or its JSON)."""
    from oxo.book import find_certificate
    from oxo.cli.book import entry_json, entry_lines
    from oxo.gravity.values import value_from_score

    cells = state.board.size
    if entry.value == "draw":
        score = 0
    else:
        end = entry.ending_ply if entry.ending_ply is not None else cells
        score = (cells + 2 - end) // 2 * (1 if entry.value == "x" else -1)
    value = value_from_score(score, 0, cells, "x", weak=entry.ending_ply is None)
    if as_json:
        found = [find_certificate(certificate) for certificate in entry.certificates]
        echo_json(
            {
                **state.to_dict(),
                **value.to_dict(),
                "method": entry.method,
                "nodes": entry.positions,
                "seconds": entry.seconds,
                "certificates": [
                    str(path) if path is not None else certificate.file
                    for path, certificate in zip(found, entry.certificates, strict=True)
                ],
                "from_book": True,
                "book": entry_json(entry),
            }
        )
        return
    import textwrap

    heading = f"{state.board.name}: {value}, proved by oxo (its proof book)"
    for line in textwrap.wrap(heading, 79, break_on_hyphens=False):
        click.echo(line)
    for line in entry_lines(entry, heading=False):
        click.echo(line)
    board = f"{state.board.rows}x{state.board.cols} --k {state.board.k} --gravity"
    click.echo(f"to prove it again here: oxo solve {board} --again")


def analyze_command(state: GravityState, seconds: float, as_json: bool) -> None:
    """A gravity position's exact value and each column's, with the distance to the end."""
    from oxo.gravity.solver import analyze

    if state.is_over:
        if as_json:
            echo_json({**state.to_dict(), "value": state.outcome, "moves": []})
            return
        click.echo(state.text())
        click.echo(
            f"\nstatus: {'draw: the board is full' if state.winner is None else state.winner.upper() + ' has won'}"
        )
        return
    with progress_status() as status:  # long analyses say what they are doing meanwhile
        status(f"analysing the {len(state.legal_moves)} playable columns")
        result = analyze(state, seconds=seconds, on_status=status)
    if as_json:
        echo_json(result.to_dict())
        return
    click.echo(state.text())
    click.echo()
    assert state.to_move is not None
    click.echo(f"status:     {state.to_move.upper()} to move (move {state.ply + 1})")
    click.echo(f"value:      {result.value}")
    click.echo(f"best moves: {' '.join(state.format_move(c) for c in result.best_columns)}")
    for column in result.columns:
        click.echo(f"  column {state.format_move(column.column)}: {column.value}")
    click.echo(f"searched {result.nodes:,} positions in {result.seconds:.2f} s")
