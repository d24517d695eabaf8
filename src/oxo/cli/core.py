"""``oxo count``, ``oxo show`` and ``oxo classes``: the board model and the position counter."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypedDict, cast

import click

from oxo import api
from oxo.cli.common import (
    ANY_GAME,
    CLASSIC_BOARD,
    classic_position,
    console,
    echo_json,
    echo_lines,
    game_of_text,
)
from oxo.cli.limits import (
    ASK_AFTER_SECONDS,
    REFUSE_AFTER_SECONDS,
    check_estimate,
    clean_stop,
    estimated_work,
    memory_limit,
    memory_option,
    yes_option,
)
from oxo.cli.options import (
    board_option,
    choice_option,
    folder_option,
    gravity_option,
    json_option,
    k_option,
    quiet_option,
    svg_option,
)
from oxo.counting import METHODS, CountTable, PlyCount
from oxo.counting.executors import EXECUTORS, Executor
from oxo.geometry import Geometry
from oxo.phrases import counted, duration
from oxo.progress import progress_bar
from oxo.registry import Game

if TYPE_CHECKING:
    from pathlib import Path

    from oxo.counting.budget import Estimate, MemoryPlyEstimate
    from oxo.counting.drops import DropCounts
    from oxo.counting.frontier import FrontierPly
    from oxo.gravity.board import GravityBoard
    from oxo.gravity.counting import GravityCounts
    from oxo.uttt.counting import UtttCounts

#: How ``oxo count`` names ultimate tic-tac-toe among its boards.
UTTT = "uttt"


@click.command()
@click.argument("boards", nargs=-1, required=True, metavar="BOARD [BOARD...]", type=ANY_GAME)
@k_option
@choice_option(
    "--method",
    METHODS,
    "auto",
    "lines: inclusion-exclusion over lines (boards with few lines, e.g. 7x7); pairs: subset sums over "
    "cells (boards up to ~27 cells); frontier: keep each ply's positions on disk within --memory "
    "(bigger boards such as 4x4x4, as far as time allows; stop and run again to continue); search: "
    "walk the game tree (slow reference); auto: lines when the board has at most 16 lines and fewer "
    "lines than cells, pairs up to 27 cells, else the first plies by inclusion-exclusion over the "
    "small sets of lines that fit in a player's marks while that is quick, and frontier beyond.",
)
@choice_option(
    "--executor",
    EXECUTORS,
    "auto",
    "Where the parts of a big count run: here (serial), on all local cores (processes), or on "
    "a Dask cluster (dask; needs pip install 'oxo[cluster]').",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (default: all cores).",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="Dask scheduler to use, e.g. tcp://host:8786 (default: start a local cluster); with "
    "--method frontier the workers must see the --folder.",
)
@memory_option
@click.option(
    "--plies",
    "max_ply",
    type=click.IntRange(min=0),
    default=None,
    metavar="N",
    help="Stop after ply N (frontier method, gravity boards and uttt; default: until every game "
    "has ended, which gravity boards of more than 20 cells and uttt leave to --plies).",
)
@folder_option(
    "--folder",
    "folder",
    "Frontier method and uttt on disk: where the plies are kept (default: oxo-count-BOARD "
    "in the current folder). Running the same count again continues from the last complete ply.",
)
@gravity_option(
    "Gravity boards: a mark drops to the lowest empty cell of its column (6x7 --k 4 is "
    "Connect Four; a board written 6x7,k=4,gravity is one without this flag)."
)
@yes_option
@json_option
@quiet_option
def count(
    boards: tuple[Game, ...],
    k: int | None,
    method: str,
    executor: Executor,  # one of EXECUTORS: click.Choice checked it
    workers: int | None,
    scheduler: str | None,
    memory_text: str | None,
    max_ply: int | None,
    folder: str | None,
    gravity: bool,
    yes: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    """Reachable positions per ply, with and without symmetric duplicates.

    Play starts on the empty board, players alternate, and play stops at a win. "classes" counts
    positions up to the board's symmetries (rotations and reflections). Several boards print side
    by side in one table.

    With --gravity (or a board written like 6x7,k=4,gravity) a mark drops to the lowest empty cell
    of its column; classes are then up to the left-right mirror, the only symmetry of such a board.
    Gravity boards are counted in memory, ply by ply; beyond 20 cells give --plies N. The name
    connect4 is 6x7 with k=4 and gravity.

    uttt is ultimate tic-tac-toe (nine small grids; the cell you play sends your opponent to that
    grid): give --plies N. A position is the marks and the grid the next move must go to; classes
    are up to the eight rotations and reflections, applied to the big grid and inside every small
    grid at once. Up to about ply 8 the count runs in memory; when a ply would not fit (or with
    --folder) each ply is kept on disk in parts that fit, and a stopped count continues.

    Boards beyond the formulas (4x4x4, 6x7 --k 4) are counted ply by ply: the first plies at once
    without visiting positions, further ones on disk (the note under the table says which method
    gave which plies); without --plies the plies that come in seconds are shown.

    Work predicted to take over a minute asks first (or needs --yes); work that would pass the
    memory limit is refused, and a count that comes to pass it stops. Ctrl-C stops at once.

    Example: oxo count 3x3 4x4;  oxo count 4x4x4 --plies 6 --yes;  oxo count connect4 --plies 10;
    oxo count uttt --plies 6
    """
    from oxo.counting.budget import MemoryLimitError
    from oxo.errors import OutOfReachError

    parsed = [_count_board(game) for game in boards]
    if all(not isinstance(board, Geometry) for board in parsed):
        # --folder applies to uttt, whose count goes to disk when memory is short.
        uttt_only = all(board == UTTT for board in parsed)
        _refuse_classic_options(method, executor, workers, scheduler, None if uttt_only else folder)
    limit = memory_limit(memory_text)
    tables: list[CountTable | GravityCounts | UtttCounts | DropCounts] = []
    with clean_stop():
        for board in parsed:
            # The plies of a count done one by one, as they come: a stopped count shows them.
            rows: list[PlyCount] = []
            try:
                if isinstance(board, str):  # UTTT
                    tables.append(_count_uttt(limit, max_ply, quiet, folder, rows, yes))
                elif not isinstance(board, Geometry):
                    tables.append(_count_gravity(board, limit, max_ply, yes, quiet, rows))
                elif board.gravity:
                    tables.append(_count_drops(board, limit, max_ply, yes, quiet, rows))
                else:
                    shards = _Shards(executor=executor, workers=workers, scheduler=scheduler)
                    run = _ClassicCount(shards, limit, max_ply, folder, yes, quiet, rows)
                    tables.append(_count_one(board, method, run))
            except (KeyboardInterrupt, MemoryLimitError, OutOfReachError, click.exceptions.Exit):
                # A stopped count shows the plies it finished before the one line saying why
                # (Ctrl-C, the memory limit, or work ahead that needs --yes or was declined).
                if rows:
                    tables.append(_stopped_table(board, rows))
                if tables:
                    _print_counts(tables, as_json, stopped=True)
                raise
    _print_counts(tables, as_json)


def _stopped_table(
    board: Geometry | GravityBoard | str, rows: list[PlyCount]
) -> CountTable | GravityCounts | UtttCounts | DropCounts:
    """The table of a count stopped after the plies in ``rows`` (marked incomplete)."""
    if isinstance(board, Geometry) and board.gravity:
        from oxo.counting.drops import DropCounts

        return DropCounts(
            board,
            tuple(row.positions for row in rows),
            tuple(row.classes for row in rows),
            tuple(row.finished or 0 for row in rows),
            False,
        )
    if isinstance(board, Geometry):
        method_of = {row.method for row in rows} - {None}
        used = "+".join(m for m in ("sparse", "frontier") if m in method_of)
        return CountTable(board, tuple(rows), used or "frontier", False)
    positions = tuple(row.positions for row in rows)
    classes = tuple(row.classes for row in rows)
    finished = tuple(row.finished or 0 for row in rows)
    if isinstance(board, str):  # UTTT
        from oxo.uttt.counting import UtttCounts

        return UtttCounts(positions, classes, finished)
    from oxo.gravity.counting import GravityCounts

    return GravityCounts(board, positions, finished, False, classes)


def _print_counts(
    tables: list[CountTable | GravityCounts | UtttCounts | DropCounts],
    as_json: bool,
    stopped: bool = False,
) -> None:
    """The table of ``oxo count`` (or its JSON) and a note under it for each board that needs one."""
    if as_json:
        echo_json({"boards": [table.to_dict() for table in tables]})
        return
    # A table of ultimate tic-tac-toe comes only after its module was loaded; importing it just to
    # ask would load numba (about 0.2 s) for every count of a classic board.
    uttt: type[UtttCounts] | None = getattr(
        sys.modules.get("oxo.uttt.counting"), "UtttCounts", None
    )

    console().print(_count_table(tables))
    for table in tables:
        if uttt is not None and isinstance(table, uttt):
            _note(
                "uttt: classes are up to the eight rotations and reflections (of the big grid and "
                "every small grid at once)"
                + ("" if stopped else "; a larger --plies counts further")
            )
            if stopped and table is tables[-1]:
                _note(
                    f"uttt: stopped after ply {len(table.positions) - 1}; run the same command to "
                    "go on (a count kept on disk continues from its last complete ply, one in "
                    "memory starts again)"
                )
            continue
        if isinstance(table, CountTable):
            for line in _method_notes(table):
                _note(line)
            if stopped and not table.complete:
                _note(
                    f"{table.geometry.spec}: stopped after ply {table.plies[-1].ply}; run the same "
                    "command to go on (the frontier count continues from its last complete ply)"
                )
            elif not table.complete:
                _note(
                    f"{table.geometry.spec}: counted up to ply {table.plies[-1].ply} of {table.geometry.size}; "
                    + (
                        table.note
                        or "run the same command with a larger --plies to go on from there"
                    )
                )
            continue
        from oxo.counting.drops import DropCounts

        if isinstance(table, DropCounts):
            order = len(table.geometry.symmetries)
            _note(
                f"{table.spec}: classes are up to the board's {order} symmetries (those of its "
                "base: a mark keeps its height)"
            )
            if stopped and not table.complete:
                _note(
                    f"{table.spec}: stopped after ply {len(table.positions) - 1}; run the same "
                    "command to count again (the count starts again from the empty board)"
                )
            elif not table.complete:
                _note(
                    f"{table.spec}: counted up to ply {len(table.positions) - 1} of "
                    f"{table.geometry.size}; a larger --plies counts further (the count starts "
                    "again from the empty board)"
                )
            continue
        gravity = cast("GravityCounts", table)  # the only kind left
        _note(
            f"{gravity.board.spec}: classes are up to the left-right mirror, the only symmetry of "
            "a gravity board"
        )
        if stopped and not gravity.complete:
            _note(
                f"{gravity.board.spec}: stopped after ply {len(gravity.positions) - 1}; run the "
                "same command to count again (gravity boards start again from the empty board)"
            )
        elif not gravity.complete:
            _note(
                f"{gravity.board.spec}: counted up to ply {len(gravity.positions) - 1} of "
                f"{gravity.board.size}; a larger --plies counts further (gravity boards start "
                "again from the empty board)"
            )


def _note(text: str, err: bool = False) -> None:
    """A sentence under a table or on stderr, broken between words to fit (:func:`echo_lines`)."""
    echo_lines([text], err=err)


def _method_notes(table: CountTable) -> list[str]:
    """Which method gave which plies, where a count used one that is not the usual formula."""
    spans: list[tuple[str, int, int]] = []
    for row in table.plies:
        if row.method is None:
            continue
        if spans and spans[-1][0] == row.method and spans[-1][2] == row.ply - 1:
            spans[-1] = (row.method, spans[-1][1], row.ply)
        else:
            spans.append((row.method, row.ply, row.ply))
    out = []
    for method, first, last in spans:
        plies = f"ply {first}" if first == last else f"plies {first}-{last}"
        out.append(f"{table.geometry.spec}: {plies} {PLY_METHOD_WORDS[method]}")
    return out


def _count_board(game: Game) -> Geometry | GravityBoard | str:
    """A board of ``oxo count`` (its game parsed at the edge, with --k and --gravity): a gravity
    board with --gravity or ``,gravity`` in the spec (or the name connect4), :data:`UTTT` for
    ultimate tic-tac-toe, else the classic board's geometry."""
    game.require("counter")
    if game.family == "uttt":
        return UTTT
    if game.family == "gravity":
        return game.board  # type: ignore[attr-defined]  # a gravity game has a board
    return game.geometry  # type: ignore[attr-defined]  # a classic board's game


def _count_uttt(
    limit: int,
    max_ply: int | None,
    quiet: bool,
    folder: str | None,
    rows: list[PlyCount],
    yes: bool,
) -> UtttCounts:
    """Ultimate tic-tac-toe's count up to ``--plies``: in memory while every ply fits in the limit,
    else (or with ``--folder``) with each ply's classes kept on disk in buckets (each ply's row
    added to ``rows`` as it comes). On disk, once the plies ahead are predicted to take over a
    minute, it asks first (or needs ``--yes``)."""
    from pathlib import Path

    from oxo.counting.budget import MemoryLimitError
    from oxo.errors import OutOfReachError
    from oxo.uttt.counting import count_positions

    if max_ply is None:
        raise OutOfReachError(
            "ultimate tic-tac-toe has 81 plies and every ply holds several times the positions of "
            "the one before, so the whole game cannot be counted: give --plies N to stop after "
            "ply N (oxo count uttt --plies 6 takes seconds)"
        )
    known: list[tuple[int, int]] = []
    if folder is None:
        with progress_bar("counting uttt", total=1.0, quiet=quiet) as bar:
            with _guarded_count("uttt", limit, known):
                try:
                    return count_positions(
                        max_ply,
                        lambda ply, positions: known.append((ply, positions)),
                        on_progress=bar,
                        memory=limit,
                        on_row=rows.append,
                    )
                except MemoryLimitError as too_big:
                    short = str(too_big).split(";")[0]
        rows.clear()  # the count on disk starts again from ply 0
        if not quiet:
            _note(f"uttt: {short}; counting on disk instead", err=True)
    where = Path(folder or "oxo-count-uttt").resolve()
    if not quiet:
        _note(
            f"uttt: the count keeps its plies in {where}; run the same command to continue a "
            "stopped count, and remove the folder when done",
            err=True,
        )
    asked = yes
    while True:
        try:
            return _count_uttt_on_disk(where, max_ply, limit, quiet, rows, ask=not asked)
        except _LongPliesAhead as ahead:
            # Asked with the bar gone; the count on disk continues from its last complete ply.
            check_estimate(
                f"counting uttt on disk from ply {ahead.first} to ply {max_ply}",
                ahead.estimate,
                limit,
                yes=False,
                smaller=f"--plies {ahead.first - 1} gives the plies counted so far, at once",
                details=ahead.details,
            )
            asked = True


def _count_uttt_on_disk(
    where: Path, max_ply: int, limit: int, quiet: bool, rows: list[PlyCount], ask: bool
) -> UtttCounts:
    """The uttt count on disk in ``where`` (continuing from its last complete ply), each ply's row
    added to ``rows``; with ``ask``, it stops (:class:`_LongPliesAhead`) once the plies ahead are
    predicted to take over a minute."""
    import time

    from oxo.uttt.diskcount import count_on_disk

    known: list[tuple[int, int]] = []
    rows.clear()
    started = time.monotonic()
    ply_began = [started]
    with progress_bar("counting uttt on disk", total=1.0, quiet=quiet) as bar:

        def on_ply(row: FrontierPly) -> None:
            rows.append(PlyCount(row.ply, row.positions, row.classes, row.finished_positions))
            known.append((row.ply, row.positions))
            now = time.monotonic()
            took, ply_began[0] = now - ply_began[0], now
            if now - started >= 1:  # a line a ply once the count takes noticeable time
                bar.note(
                    f"uttt ply {row.ply}: {row.positions:,} positions, {row.classes:,} classes "
                    f"({duration(now - started)})"
                )
            if ask:
                _ask_before_long_plies(rows, took, max_ply, limit)

        with _guarded_count("uttt", limit, known):
            return count_on_disk(max_ply, where, memory=limit, on_ply=on_ply, on_progress=bar)


#: Bytes a class (or a move waiting to be sorted) takes on disk in the uttt count: three int64 words.
UTTT_ROW_BYTES = 3 * 8
#: The uttt count on disk predicts the plies ahead from a ply made from at least this many classes
#: (before, fixed costs such as loading the compiled walk dominate a ply's time).
PREDICT_FROM_CLASSES = 100_000


class _LongPliesAhead(Exception):
    """The uttt count on disk stops to ask: the plies ahead are predicted to take long."""

    def __init__(self, first: int, estimate: Estimate, details: list[str]) -> None:
        super().__init__(f"plies from {first} on are predicted to take long")
        self.first = first
        self.estimate = estimate
        self.details = details


def _ask_before_long_plies(rows: list[PlyCount], took: float, last: int, limit: int = 0) -> None:
    """Predict the plies after the last one counted from how it went, both measured: its time per
    class it grew from (once that ply grew from enough classes for the fixed costs to fade) and the
    growth of the classes from ply to ply; stop to ask when the plies ahead take over a minute."""
    from oxo.counting.budget import Estimate, format_bytes

    if len(rows) < 2 or rows[-1].ply >= last or rows[-2].classes < PREDICT_FROM_CLASSES:
        return  # too little seen to predict, or nothing ahead
    growth = rows[-1].classes / rows[-2].classes
    per_parent = took / rows[-2].classes
    seconds = 0.0
    disk = 0
    details = []
    parents, classes = rows[-1].classes, rows[-1].classes * growth
    for ply in range(rows[-1].ply + 1, last + 1):
        ply_seconds = per_parent * parents
        # while a ply is made: its parents' classes, and its moves waiting to be sorted (a few
        # more than the classes they make)
        ply_disk = int(UTTT_ROW_BYTES * (1.2 * classes + parents))
        seconds += ply_seconds
        disk = max(disk, ply_disk)
        details.append(
            f"ply {ply}: about {duration(ply_seconds)}, about {format_bytes(ply_disk)} on "
            "disk while it is made"
        )
        parents, classes = int(classes), classes * growth
    if seconds > ASK_AFTER_SECONDS:
        note = f"from ply {rows[-1].ply}'s time and the growth of the classes"
        raise _LongPliesAhead(rows[-1].ply + 1, Estimate(seconds, limit, disk, note=note), details)


@contextmanager
def _guarded_count(spec: str, limit: int, known: list[tuple[int, int]]) -> Iterator[None]:
    """A ply-by-ply count within the memory limit: when the guard stops it, the error says how far
    it got (``known`` holds each ply counted and its positions, as they come). The count's own
    refusals already say so and pass as they are."""
    from oxo.counting.budget import MemoryGuard, MemoryLimitError

    guard = MemoryGuard(limit)
    try:
        with guard:
            yield
    except MemoryLimitError as error:
        if not guard.tripped or not known:
            raise
        ply, positions = known[-1]
        raise MemoryLimitError(
            f"{error}; {spec} was counted up to ply {ply} ({positions:,} positions at that ply): "
            f"--plies {ply} gives plies 0 to {ply}"
        ) from None


def _refuse_classic_options(
    method: str,
    executor: str,
    workers: int | None,
    scheduler: str | None,
    folder: str | None,
) -> None:
    """Gravity boards and uttt have their own ply-by-ply counts: the other methods' options are
    refused (uttt takes --folder, which the caller passes as None for it)."""
    from oxo.errors import OptionError

    given = [
        name
        for name, used in (
            ("--method", method != "auto"),
            ("--executor", executor != "auto"),
            ("--workers", workers is not None),
            ("--scheduler", scheduler is not None),
            ("--folder", folder is not None),
        )
        if used
    ]
    if given:
        raise OptionError(
            f"{', '.join(given)} {'does' if len(given) == 1 else 'do'} not apply to gravity boards "
            "or uttt, which are counted ply by ply their own way; leave "
            f"{'it' if len(given) == 1 else 'them'} out"
        )


def _check_gravity_count(
    spec: str,
    size: int,
    whole_cells: int,
    plies: Sequence[MemoryPlyEstimate],
    estimate: Callable[[int], Estimate],
    reach: int,
    limit: int,
    max_ply: int | None,
    yes: bool,
) -> int:
    """Before a count of a board with gravity, ply by ply in memory: refuse the whole game of a
    board of more than ``whole_cells`` cells, then estimate, ask or refuse (:func:`check_estimate`)
    up to the last ply, which it returns; ``plies`` the estimate of every ply, ``estimate`` of the
    count up to a ply, ``reach`` the last ply within a minute and the memory limit."""
    from oxo.counting.budget import format_bytes
    from oxo.errors import OutOfReachError

    quick = f"--plies {reach} takes at most about {duration(sum(p.seconds for p in plies[:reach]))}"
    if max_ply is None and size > whole_cells:
        raise OutOfReachError(
            f"{spec} has {size} cells: every ply is counted only on gravity boards of at most "
            f"{whole_cells} cells; give --plies N to stop after ply N ({quick})"
        )
    last = size if max_ply is None else min(max_ply, size)
    check_estimate(
        f"counting {spec} up to ply {last}",
        estimate(last),
        limit,
        yes=yes,
        smaller=f"give --plies N to stop after ply N ({quick})",
        details=[
            f"ply {p.ply}: at most {p.positions_at_most:,} positions, about "
            f"{duration(p.seconds)}, {format_bytes(p.memory)} of memory"
            for p in plies[:last]
            if p.seconds >= 1 or p.ply == last
        ][:12],
    )
    return last


def _count_drops(
    geometry: Geometry,
    limit: int,
    max_ply: int | None,
    yes: bool,
    quiet: bool,
    rows: list[PlyCount],
) -> DropCounts:
    """A box with gravity (Score Four), counted ply by ply in memory up to ``--plies`` (needed
    beyond 20 cells): estimate, ask or refuse, then count within the memory limit, each ply's row
    added to ``rows`` as it comes."""
    import time

    from oxo.counting import drops

    spec = geometry.spec
    _check_gravity_count(
        spec,
        geometry.size,
        drops.WHOLE_GAME_CELLS,
        drops.estimate_plies(geometry),
        lambda last: drops.estimate_count(geometry, last),
        drops.reach(geometry, ASK_AFTER_SECONDS, limit),
        limit,
        max_ply,
        yes,
    )
    known: list[tuple[int, int]] = []
    started = time.monotonic()
    with progress_bar(f"counting {spec}", total=1.0, quiet=quiet) as bar:

        def on_row(row: PlyCount) -> None:
            rows.append(row)
            known.append((row.ply, row.positions))
            seconds = time.monotonic() - started
            if seconds >= 1:
                bar.note(f"{spec} ply {row.ply}: {row.positions:,} positions")

        with _guarded_count(spec, limit, known):
            return drops.count_positions(geometry, max_ply, on_row=on_row)


def _count_gravity(
    board: GravityBoard,
    limit: int,
    max_ply: int | None,
    yes: bool,
    quiet: bool,
    rows: list[PlyCount],
) -> GravityCounts:
    """One gravity board's count: estimate, ask or refuse, then count within the memory limit
    (each ply's row added to ``rows`` as it comes)."""
    import time

    from oxo.gravity.counting import (
        WHOLE_GAME_CELLS,
        count_positions,
        estimate_count,
        estimate_plies,
        plies_within,
    )

    spec = board.spec
    last = _check_gravity_count(
        spec,
        board.size,
        WHOLE_GAME_CELLS,
        estimate_plies(board),
        lambda last: estimate_count(board, last),
        plies_within(board, ASK_AFTER_SECONDS, limit),
        limit,
        max_ply,
        yes,
    )
    known: list[tuple[int, int]] = []
    started = time.monotonic()
    with progress_bar(f"counting {spec}", total=1.0, quiet=quiet) as bar:

        def on_ply(ply: int, positions: int) -> None:
            known.append((ply, positions))
            seconds = time.monotonic() - started
            if seconds >= 1:  # a line a ply once the count takes noticeable time
                bar.note(
                    f"{spec} ply {ply}: {counted(positions, 'position')} ({duration(seconds)})"
                )

        with _guarded_count(spec, limit, known):
            return count_positions(board, last, on_ply, on_progress=bar, on_row=rows.append)


class _Shards(TypedDict):
    """``--executor``, ``--workers`` and ``--scheduler``: where the parts of a count run."""

    executor: Executor
    workers: int | None
    scheduler: str | None


@dataclass(frozen=True)
class _ClassicCount:
    """What ``oxo count`` was given for a classic board's count, handed down as one: ``shards``
    where its parts run (handed to the counters as it is), and ``rows`` the plies of a count ply
    by ply, added as they come (a stopped count shows them)."""

    shards: _Shards
    limit: int
    max_ply: int | None
    folder: str | None
    yes: bool
    quiet: bool
    rows: list[PlyCount]


def _count_one(geometry: Geometry, method: str, run: _ClassicCount) -> CountTable:
    """One board's count: estimate, ask or refuse, then count within the memory limit. The plies
    of a count beyond the formulas are added to ``rows`` as they come (a stopped count shows them)."""
    import os

    from oxo.counting import choose_method, estimate_count

    used = choose_method(geometry, method)
    cores = run.shards["workers"] or os.cpu_count() or 1
    if used == "frontier":
        return _count_by_plies(geometry, method == "auto", run, cores)
    from oxo.counting import count_positions

    with estimated_work(
        f"counting {geometry.spec} by the {used} method",
        estimate_count(geometry, used, workers=cores),
        run.limit,
        yes=run.yes,
        smaller=f"use --method frontier --plies N to count the first N plies of {geometry.spec}",
        label=f"counting {geometry.spec}",
        quiet=run.quiet,
    ) as bar:
        return count_positions(
            geometry,
            used,  # type: ignore[arg-type]  # one of METHODS: choose_method checked it
            **run.shards,
            on_progress=bar,
        )


#: What the table's note calls the two methods of a count ply by ply.
PLY_METHOD_WORDS = {
    "sparse": "by inclusion-exclusion over the sets of lines that fit in one player's marks "
    "(exact, without visiting positions)",
    "frontier": "by visiting every position, kept on disk (the frontier count)",
}


#: The first plies of a count beyond the formulas are counted over sets of lines when that is
#: faster than the frontier count and takes at most this long.
SPARSE_AT_MOST_SECONDS = 3600.0


def _count_by_plies(geometry: Geometry, sparse: bool, run: _ClassicCount, cores: int) -> CountTable:
    """A board beyond the formulas, ply by ply: the first plies by inclusion-exclusion over small
    sets of lines where that is quick (``sparse``: --method auto), the frontier count beyond.

    Without --plies, when the frontier count of the whole game would be long, the plies the first
    method gives in seconds are the answer, with a note saying how to go further."""
    from pathlib import Path

    from oxo.counting import CountTable, PlyCount, count_by_frontier, plan_plies
    from oxo.counting.budget import Estimate, MemoryGuard, MiB, format_bytes
    from oxo.counting.frontier import estimate_frontier

    last = geometry.size if run.max_ply is None else min(run.max_ply, geometry.size)
    plies = estimate_frontier(geometry, last, workers=cores)
    frontier_seconds = sum(p.seconds for p in plies)
    if len(plies) < last:  # the estimate stopped at a ply beyond a year: out of reach
        frontier_seconds = max(frontier_seconds, 2 * REFUSE_AFTER_SECONDS)
    long_frontier = frontier_seconds > (REFUSE_AFTER_SECONDS if run.yes else ASK_AFTER_SECONDS)
    # The sparse method is tried as long as it is faster than the frontier count, up to an hour
    # (without --plies on a long count, only what it gives within a minute matters).
    within = min(frontier_seconds, SPARSE_AT_MOST_SECONDS)
    if run.max_ply is None and long_frontier:
        within = ASK_AFTER_SECONDS
    plan = plan_plies(geometry, last, within=max(ASK_AFTER_SECONDS, within)) if sparse else None
    known = plan.sparse_last if plan is not None else -1
    if plan is not None and plan.frontier and run.max_ply is None and long_frontier and known >= 0:
        # The whole game is long or out of reach: answer with the plies that come at once.
        found = _count_sparse_plies(geometry, known, plan.estimates, run.quiet, run.rows)
        minute, seconds = plan.within(ASK_AFTER_SECONDS)
        more = f"--plies {minute} takes about {duration(seconds)}; " if minute > known else ""
        return CountTable(
            geometry,
            tuple(found),
            "sparse",
            False,
            note=f"{more}every ply, by the frontier count, would take "
            + (
                "more than a year"
                if frontier_seconds > REFUSE_AFTER_SECONDS
                else f"about {duration(frontier_seconds)}"
            ),
        )
    if plan is not None and not plan.frontier:
        check_estimate(
            f"counting {geometry.spec} up to ply {last}",
            Estimate(plan.sparse_seconds, 200 * MiB, note="inclusion-exclusion over sets of lines"),
            run.limit,
            yes=run.yes,
            smaller="give a smaller --plies N",
        )
        found = _count_sparse_plies(geometry, last, plan.estimates, run.quiet, run.rows)
        ended = found[-1].positions == 0
        if ended:
            found += [
                PlyCount(ply, 0, 0, method="sparse") for ply in range(last + 1, geometry.size + 1)
            ]
        return CountTable(geometry, tuple(found), "sparse", ended or last == geometry.size)
    details = [
        f"ply {p.ply}: at most {p.classes_at_most:,} classes, about {duration(p.seconds)}, "
        f"{format_bytes(p.disk)} on disk"
        for p in plies
        if p.ply > known and (p.seconds >= 1 or p.ply == last)
    ][:12]
    reach, spent = 0, 0.0
    for p in plies:
        spent += p.seconds
        if spent > 600:
            break
        reach = p.ply
    quick = f"--plies {reach} takes at most about {duration(sum(p.seconds for p in plies[:reach]))}"
    if plan is not None:
        minute, seconds = plan.within(ASK_AFTER_SECONDS)
        if minute > reach:
            quick = (
                f"--plies {minute} takes about {duration(seconds)} by inclusion-exclusion "
                "over sets of lines"
            )
    check_estimate(
        f"counting {geometry.spec} up to ply {last} by the frontier method",
        Estimate(
            frontier_seconds + (plan.sparse_seconds if plan else 0.0),
            run.limit,
            max((p.disk for p in plies), default=0),
            note="upper bounds; memory stays within --memory",
        ),
        run.limit,
        yes=run.yes,
        smaller=f"give --plies N to stop after ply N ({quick})",
        details=details,
    )
    sparse_rows = (
        _count_sparse_plies(geometry, known, plan.estimates, run.quiet, run.rows)
        if plan is not None and known >= 0
        else []
    )
    where = Path(run.folder or f"oxo-count-{geometry.spec_shape}-k{geometry.k}").resolve()
    if not run.quiet:
        _note(
            f"{geometry.spec}: the frontier count keeps its plies in {where}; run the same "
            "command to continue a stopped count, and remove the folder when done",
            err=True,
        )
    with progress_bar(f"counting {geometry.spec}", total=1.0, quiet=run.quiet) as bar:

        def on_ply(row: PlyCount) -> None:
            if row.ply < len(sparse_rows):
                mine = sparse_rows[row.ply]
                if (row.positions, row.classes) != (mine.positions, mine.classes):
                    raise AssertionError(
                        f"{geometry.spec} ply {row.ply}: the frontier count gives {row}, "
                        f"inclusion-exclusion {mine}"
                    )
                return
            row = PlyCount(
                row.ply, row.positions, row.classes, method="frontier" if sparse_rows else None
            )
            run.rows.append(row)
            bar.note(_ply_line(geometry, row))

        with MemoryGuard(run.limit):
            table = count_by_frontier(
                geometry,
                str(where),
                max_ply=run.max_ply,
                memory=run.limit,
                **run.shards,
                on_ply=on_ply,
                on_progress=bar,
            )
    if not sparse_rows:
        return table
    labelled = [*sparse_rows] + [
        PlyCount(row.ply, row.positions, row.classes, method="frontier")
        for row in table.plies[len(sparse_rows) :]
    ]
    return CountTable(geometry, tuple(labelled), "sparse+frontier", table.complete)


def _ply_line(geometry: Geometry, row) -> str:
    return (
        f"{geometry.spec} ply {row.ply}: {counted(row.positions, 'position')}, "
        f"{counted(row.classes, 'class', 'classes')}"
    )


def _count_sparse_plies(geometry, last, estimates, quiet, rows) -> list:
    """Plies 0 to ``last`` by inclusion-exclusion over sets of lines, each added to ``rows`` and
    told on stderr as it comes."""
    from oxo.counting import count_by_sparse

    with progress_bar(f"counting {geometry.spec}", total=1.0, quiet=quiet) as bar:

        def on_ply(row) -> None:
            rows.append(row)
            bar.note(_ply_line(geometry, row))

        return count_by_sparse(geometry, last, on_ply=on_ply, on_progress=bar, weights=estimates)


def _count_label(result: CountTable | GravityCounts | UtttCounts | DropCounts) -> str:
    return result.geometry.spec if isinstance(result, CountTable) else result.spec


def _count_table(tables: list[CountTable | GravityCounts | UtttCounts | DropCounts]):
    from rich.table import Table

    table = Table(box=None, pad_edge=False)
    table.add_column("ply", justify="right")
    for result in tables:
        label = _count_label(result)
        table.add_column(f"{label} positions", justify="right")
        table.add_column(f"{label} classes", justify="right")
    longest = max(len(result.plies) for result in tables)
    for ply in range(longest):
        cells = [str(ply)]
        for result in tables:
            if ply < len(result.plies):
                cells += [f"{result.plies[ply].positions:,}", f"{result.plies[ply].classes:,}"]
            else:
                cells += ["", ""]
        table.add_row(*cells)
    totals = [f"total (plies 0-{longest - 1})"]
    for result in tables:
        positions = result.total_positions if isinstance(result, CountTable) else result.total
        totals += [f"{positions:,}", f"{result.total_classes:,}"]
    table.add_section()
    table.add_row(*totals)
    return table


@click.command()
@click.argument("position")
@board_option
@k_option
@json_option
@svg_option("Also draw the position as an SVG image into FILE (the drawing of 'oxo serve').")
def show(
    position: str, board: Game | None, k: int | None, as_json: bool, svg_path: str | None
) -> None:
    """One position: grid, whose turn, winner, complete lines and its symmetry class.

    POSITION is written cell by cell in reading order: letters (xo....... with . for
    empty) or digits (120000000: 0 empty, 1 for x, 2 for o), either with rows separated
    by '/' (xo./.../...). A game's name (3x3x3, connect4, mega, uttt) means its empty board; with
    --board mega or --board uttt, POSITION is a record of moves (55 19 ...).
    """
    game = game_of_text(position, board, k)
    if game is not None and game.family != "board":
        _show_game(game, position if board is not None else None, as_json, svg_path)
        return
    pos = classic_position(position, board, k, game)
    if svg_path is not None:
        from oxo.errors import OxoError
        from oxo.fileio import write_atomic
        from oxo.render.svg import classic_svg

        try:
            write_atomic(svg_path, classic_svg(pos, labels=True) + "\n")
        except OSError as error:
            raise OxoError(f"cannot write {svg_path}: {error.strerror or error}") from None
    report = api.describe(pos)
    if as_json:
        echo_json(report.to_dict())
        return
    click.echo(pos.to_grid())
    click.echo()
    # Which board was read, and from what: a guess from the text's length or slashes can surprise.
    shape = "x".join(str(side) for side in pos.geometry.shape)
    read = "" if board is not None else " (read from the text; --board and --k change it)"
    if pos.geometry.gravity:
        read = f", gravity: {pos.geometry.column_count} columns, moves by column number"
    echo_lines([f"board:          {shape}, {pos.geometry.k} in a row{read}", *report.text_lines()])


def _show_game(game: Game, text: str | None, as_json: bool, svg_path: str | None) -> None:
    """A position of a game other than a classic board: its text drawing and whose turn it is."""
    from oxo.errors import OptionError

    if svg_path is not None:
        raise OptionError(f"--svg draws classic boards; oxo serve draws {game.title} on its page")
    state = game.start() if text is None else game.parse_position(text)
    mover = state.to_move
    status = (
        f"{mover.upper()} to move"
        if mover is not None
        else "draw"
        if state.outcome == "draw"
        else f"{(state.outcome or '').upper()} has won"
    )
    if as_json:
        echo_json(
            {
                "game": game.name,
                "to_move": mover,
                "outcome": state.outcome,
                "legal_moves": [state.format_move(m) for m in state.legal_moves],
            }
        )
        return
    click.echo(state.text())
    click.echo()
    echo_lines([f"game:    {game.title} ({game.description})"])
    played = getattr(state, "moves", ()) if game.family in ("mega", "uttt") else ()
    last = played[-1] if played else None
    target = getattr(state, "target", None) if game.family == "uttt" else None
    if mover is not None and target is not None and last is not None:  # where the last move sends
        sent = f"the last move, {state.format_move(last)}, sends {mover.upper()} there"
        status += f", in grid {target + 1} ({sent})"
    elif mover is not None and game.family == "uttt" and last is not None:
        status += ", in any grid that is neither won nor full"
    click.echo(f"status:  {status}")
    if game.family in ("mega", "uttt"):  # the string, won grids: the game's own words
        import importlib

        from oxo.ninegrids import LEGEND

        render = importlib.import_module(f"oxo.{game.family}.render")
        skip = ("to move:", "winner:", "draw:", "must play", "may play")
        for line in render.status_lines(state, legal=False):
            if not line.startswith(skip):
                label, _, rest = line.partition(": ")
                echo_lines([f"{label + ':':<8} {rest}" if len(label) < 8 else line])
        if last is not None:
            click.echo(f"last:    {state.format_move(last)}, in capitals on the board")
        echo_lines([f"key:     {LEGEND}"])
    echo_lines([f"a move:  {game.move_help}"])


@click.command()
@click.argument("board", type=CLASSIC_BOARD)
@k_option
@json_option
def classes(board: Geometry, k: int | None, as_json: bool) -> None:
    """Cell classes and alignment classes: what the board's symmetries make equivalent.

    On 3x3 the cells fall into corner, middle and center, and the alignments into
    diagonal, middle and side. The names are derived from where a class lies.
    """
    geometry = board  # parsed at the edge, with --k
    data = {
        **geometry.board_keys(),
        "symmetries": [symmetry.name for symmetry in geometry.symmetries],
        "cell_classes": [{"name": c.name, "cells": list(c.cells)} for c in geometry.cell_classes],
        "line_classes": [
            {"name": c.name, "lines": [list(line) for line in c.lines]}
            for c in geometry.line_classes
        ],
    }
    if as_json:
        echo_json(data)
        return
    sep = "" if geometry.size <= 10 else "-"
    click.echo(
        f"{geometry.spec_shape} board, k={geometry.k}: {geometry.size} cells, {len(geometry.lines)} lines, "
        f"{len(geometry.symmetries)} symmetries"
    )
    echo_lines([f"symmetries: {', '.join(symmetry.name for symmetry in geometry.symmetries)}"])
    if len(geometry.shape) == 3:
        echo_lines(
            [
                "  (a name says where the new x, y and z come from: (y,x,z) swaps x and y, "
                "(-x,y,z) mirrors x; x runs along a row, y down the rows, z through the layers)"
            ]
        )
    click.echo("\ncell classes:")
    echo_lines(
        f"  {cell_class.name + ':':<11} {' '.join(map(str, cell_class.cells))}"
        for cell_class in geometry.cell_classes
    )
    click.echo("\nalignment classes:")
    echo_lines(
        f"  {line_class.name + ':':<11} {' '.join(sep.join(map(str, line)) for line in line_class.lines)}"
        for line_class in geometry.line_classes
    )


COMMANDS = [count, show, classes]
