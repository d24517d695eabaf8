"""``oxo deadends``, ``oxo solve``, ``oxo analyze`` and ``oxo play``: dead lines, winnability and perfect play."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Literal

import click
from click.core import ParameterSource

from oxo import api
from oxo.analysis import (
    SEED_EXAMPLES,
    DeadEndReport,
    dead_line_count,
    deadend_report,
    from_seed_board,
    seed_rule_unwinnable,
    winnability,
)
from oxo.book import OpenBoard, open_board
from oxo.cli.common import (
    ANY_GAME,
    CLASSIC_BOARD,
    classic_geometry,
    classic_position,
    console,
    echo_json,
    echo_lines,
    game_of_text,
    parse_board,
    parse_position,
    plural,
)
from oxo.cli.limits import memory_limit, memory_option
from oxo.cli.options import (
    board_option,
    folder_option,
    gravity_option,
    json_option,
    k_option,
    quiet_option,
    seconds_option,
)
from oxo.errors import OptionError
from oxo.geometry import Geometry
from oxo.phrases import counted, duration
from oxo.position import Position
from oxo.progress import progress_bar, progress_status
from oxo.proofs.results import goes_wide
from oxo.proofs.runs import SLICE_DOUBLINGS
from oxo.proofs.solver import ProofResult, RunOptions, method_of
from oxo.registry import Game, game_of
from oxo.solve import SolveTable, Value
from oxo.space import MAX_EMPTY, build_space


def _cells(cells: tuple[int, ...] | list[int], geometry: Geometry) -> str:
    return ("" if geometry.size <= 10 else "-").join(str(cell) for cell in cells)


def _lines(lines: tuple[tuple[int, ...], ...], geometry: Geometry) -> str:
    return " ".join(_cells(line, geometry) for line in lines) or "none"


def _build(start: Geometry | Position, quiet: bool):
    with progress_bar("building the state space", total=1.0, quiet=quiet) as bar:
        state = {"done": 0.0}

        def report(fraction: float) -> None:
            bar.advance(fraction - state["done"])
            state["done"] = fraction

        return build_space(start, on_progress=report)


# -- deadends --------------------------------------------------------------------------------------


@click.command()
@click.argument("board", metavar="BOARD|POSITION")
@click.option(
    "--board",
    "-b",
    "board_of_position",
    type=CLASSIC_BOARD,
    default=None,
    metavar="BOARD",
    help="Board of a position, e.g. 3x5 (default: guessed from the text).",
)
@k_option
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    help="List every position where the rule of thumb is wrong, not just 3 of each kind.",
)
@json_option
@quiet_option
def deadends(
    board: str,
    board_of_position: Geometry | None,
    k: int | None,
    show_all: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    """Dead lines against exact winnability, and the five questions about dead lines answered.

    A line is dead when both players have a mark in it. A position is still winnable when some
    continuation of legal play (both players free to move anywhere, even helping each other) ends
    with a winner. The table counts reachable positions still in play (no winner yet, board not full)
    by dead lines and empty cells. The rule of thumb ("unwinnable with 8 dead lines, or 7 dead lines and
    2 empty cells") is read with L = the board's number of lines for 8, and checked on every position.

    Given a position instead of a board, it says which of its lines are dead or open, whether it is
    still winnable and what the rule says. Boards of more than 16 cells get what is cheap to know
    (the lines of the empty board) and exit status 3.

    Example: oxo deadends 3x3
    """
    if board_of_position is not None or not api.looks_like_board(board):
        _deadends_of_position(parse_position(board, board_of_position, k), as_json)
        return
    geometry = parse_board(board, k)
    if geometry.size > MAX_EMPTY:
        _deadends_of_position(
            Position.empty(geometry),
            as_json,
            f"the table over every reachable position is built for boards of at most {MAX_EMPTY} cells "
            f"({geometry.spec} has {geometry.size}); shown instead: the empty board's lines. Try "
            f"'oxo deadends POSITION' for a position with at most {MAX_EMPTY} empty cells",
        )
        return
    space = _build(geometry, quiet)
    report = deadend_report(
        geometry, examples=None if show_all else 3, win=winnability(geometry, space=space)
    )
    if as_json:
        echo_json(report.to_dict())
        return
    _print_deadends(report)


_LINE_KEYS = (
    "board",
    "k",
    "position",
    "status",
    "dead_lines",
    "open_for_x",
    "open_for_o",
    "empty_cells",
    "x_can_win",
    "o_can_win",
    "winnable",
)


def _deadends_of_position(
    position: Position, as_json: bool, out_of_reach: str | None = None
) -> None:
    """Dead and open lines of one position, winnability and the dead-line rule's verdict; exit 3 with
    ``out_of_reach`` or when winnability is out of reach (more than 16 empty cells, and the lines
    cannot tell)."""
    report = api.analyze(position)
    geometry = position.geometry
    lines = len(geometry.lines)
    rule = seed_rule_unwinnable(len(report.lines.dead), len(position.empty_cells), lines)
    data = report.to_dict()
    if report.winnable is None:
        out_of_reach = (
            f"whether it is still winnable is worked out exactly for positions with at most {MAX_EMPTY} "
            f"empty cells (this one has {len(position.empty_cells)}), and from the lines alone it cannot be told; "
            "try a position with fewer empty cells"
        )
    if as_json:
        echo_json(
            {
                **{key: data[key] for key in _LINE_KEYS},
                "lines": lines,
                "rule_says_unwinnable": rule,
                "out_of_reach": out_of_reach,
            }
        )
    else:
        click.echo(position.to_grid())
        click.echo()
        echo_lines(report.line_text())
        verdict = "unwinnable" if rule else "winnable"
        if report.winnable is not None:
            verdict += " (right)" if rule != report.winnable else " (wrong)"
        click.echo(
            f"the rule says:  {verdict}; the rule: unwinnable when all {lines} lines are dead, "
            f"or {lines - 1} are and two cells are empty"
        )
    if out_of_reach is not None:
        click.echo(f"oxo: out of reach: {out_of_reach}", err=True)
        raise click.exceptions.Exit(3)


def _print_deadends(report: DeadEndReport) -> None:
    from rich.table import Table

    geometry = report.geometry
    out = console()
    lines = report.line_count
    echo_lines(
        [
            f"{geometry.spec_shape} board, k={geometry.k}: {lines} lines; {report.positions:,} "
            f"reachable positions still in play, {report.unwinnable:,} of them unwinnable"
        ]
    )
    table = Table(box=None, pad_edge=False)
    for name in ("dead lines", "empty cells", "winnable", "unwinnable", "rule of thumb says"):
        table.add_column(name, justify="right")
    for row in report.rows:
        rule = row.dead_lines == lines or (row.dead_lines == lines - 1 and row.empty == 2)
        table.add_row(
            str(row.dead_lines),
            str(row.empty),
            f"{row.winnable:,}",
            f"{row.unwinnable:,}",
            "unwinnable" if rule else "",
        )
    out.print(table)
    out.print(f"\nThe five questions about dead lines (L = {lines} lines here; on 3x3 L = 8):")
    for question in report.questions:
        answer = "yes" if question.answer else "no"
        example = f"; e.g. {question.example}" if question.example else ""
        echo_lines(
            [
                f"  {question.number}. {question.question}",
                f"     {answer} ({plural(question.count, 'position')}{example}); "
                f"the answer guessed before counting: {question.seed_answer}",
            ]
        )

    def listed(examples: tuple[str, ...], count: int) -> str:
        if not examples:
            return ""
        return f" ({'all' if len(examples) == count else 'e.g.'} {', '.join(examples)})"

    out.print(
        f"\nThe rule of thumb disagrees with the exact answer on {plural(report.rule_disagreements, 'position')}:\n"
        f"  says unwinnable but winnable: {report.rule_says_unwinnable_but_winnable}"
        + listed(report.examples_wrongly_unwinnable, report.rule_says_unwinnable_but_winnable)
        + f"\n  says winnable but unwinnable: {report.rule_says_winnable_but_unwinnable}"
        + listed(report.examples_wrongly_winnable, report.rule_says_winnable_but_unwinnable)
    )
    if geometry.shape == (3, 3) and geometry.k == 3:
        echo_lines(
            [
                "",
                "The example boards these questions came with (drawn there with O for player 1, "
                "except where noted; X is player 1 here):",
            ]
        )
        for label, drawing, first, claimed in SEED_EXAMPLES:
            position = from_seed_board(drawing, first)
            win = winnability(position)
            winnable = "winnable" if win.winnable(position) else "unwinnable"
            note = "" if first == "O" else " (X is player 1 in this drawing)"
            stated = f"; its caption says {claimed}" if claimed is not None else ""
            echo_lines(
                [
                    f"  {label:<22} {drawing:<13} = {position.to_status_string()}:",
                    f"      {plural(dead_line_count(position), 'dead line')}, "
                    f"{len(position.empty_cells)} empty, {winnable}{note}{stated}",
                ]
            )


# -- solve -----------------------------------------------------------------------------------------


@click.command(name="solve")
@click.argument("board", type=ANY_GAME)
@k_option
@seconds_option("Time limit of the proof on boards over 16 cells.", 600.0)
@folder_option(
    "--proof",
    "proof_dir",
    "Write certificates (strategies anyone can check with 'oxo verify') into this folder: "
    "a new or empty one, or the folder of an earlier run of the same board, which continues.",
)
@click.option(
    "--status",
    "show_status",
    is_flag=True,
    help="With --proof DIR: say how far the run kept in DIR is (what is proved, what is open, the "
    "rate, an estimate), also while it is going on; nothing is searched.",
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="With --proof: worker processes for the jobs of the run (default: all cores; 1 runs "
    "them in this process), or Dask workers with --scheduler local.",
)
@click.option(
    "--scheduler",
    default=None,
    metavar="ADDRESS",
    help="With --proof: run the jobs on the Dask cluster at ADDRESS (tcp://host:8786; 'local' "
    "starts one here). Results come back to this process: the workers need not see DIR.",
)
@seconds_option(
    "With --proof: the longest a job searches; a job that does not settle its position in "
    "that time is split into the positions after each move (a stop loses at most a slice).",
    60.0,
    flag="--slice",
    name="slice_seconds",
)
@seconds_option(
    "With --proof: write the run's state to DIR at most this often (and at every stop); a kill "
    "loses at most the jobs that were running and the answers that came since.",
    5.0,
    flag="--save-every",
    name="save_every",
)
@click.option(
    "--split",
    "split_plies",
    type=click.IntRange(min=0, max=8),
    default=2,
    show_default=True,
    metavar="PLIES",
    help="With --proof: split the opening into jobs to this many moves before the workers start "
    "(one job per position up to symmetry).",
)
@click.option(
    "--root-search/--no-root-search",
    default=True,
    show_default=True,
    help="With --proof and 2 workers or more: one worker searches the empty board whole, without "
    "splitting, beside the split jobs, for as long as a job's slice may grow (--slice doubled "
    "--slice-doublings times; one long search keeps all it learns). At the end of --time it "
    "keeps its table in DIR (up to about 1 GiB) and the next run goes on from it.",
)
@click.option(
    "--early-split/--no-early-split",
    default=True,
    show_default=True,
    help="With --proof: a job where the defender is to move is split after a quarter of --slice "
    "when its search has proved none of the defender's moves by then; so is a job where the "
    "attacker is to move that has disproved none of its moves, at a depth where fewer than one "
    "job in 20 settled.",
)
@click.option(
    "--first-question",
    type=click.Choice(["x", "o"], case_sensitive=False),
    default="x",
    show_default=True,
    help="With --proof: the question the run settles first: can X force a line? (x) or can O? "
    "(o). A draw needs both; the first one answered no has its certificate (the other side "
    "cannot lose) written at once, before the second is taken up.",
)
@click.option(
    "--again",
    is_flag=True,
    help="Prove the value again from scratch, here and now, instead of reading it from oxo's "
    "proof book (the boards 'oxo book' lists; --proof DIR proves it again too).",
)
@click.option(
    "--slice-doublings",
    "slice_doublings",
    type=click.IntRange(min=0, max=10),
    default=SLICE_DOUBLINGS,
    show_default=True,
    metavar="N",
    help="With --proof: a job that used its whole --slice without settling its position runs "
    "again at once with twice the slice, before any other job, going on from what the last one "
    "learnt, up to N times, before it is split (0: split at once; on a cluster, whose jobs "
    "start afresh, also when it settled half of the moves from it; and at a depth where three "
    "positions ran all their doublings and settled nothing, not even one of their moves).",
)
@memory_option
@json_option
@quiet_option
@gravity_option("Marks drop to the lowest empty cell of their column (6x7 --k 4 is Connect Four).")
def solve_command(
    board: Game,
    k: int | None,
    seconds: float,
    proof_dir: str | None,
    show_status: bool,
    workers: int | None,
    scheduler: str | None,
    slice_seconds: float,
    save_every: float,
    split_plies: int,
    root_search: bool,
    early_split: bool,
    first_question: Literal["x", "o"],
    again: bool,
    slice_doublings: int,
    memory_text: str | None,
    as_json: bool,
    quiet: bool,
    gravity: bool,
) -> None:
    """The value of a board with perfect play: X wins, O wins or draw.

    Boards of up to 16 cells are solved completely, with a table per ply of how many reachable
    positions (finished ones included) are won for X, won for O or drawn with best play ("classes"
    counts them up to the board's symmetries). Larger boards are settled by a proof-number search
    that also uses pairing strategies (pairs of cells where the defender always answers one with the
    other). With --proof, the strategies that prove the value are written as certificates: one
    for a win, two (one per side, neither can lose) for a draw; 'oxo verify FILE' checks one.

    A proof with --proof DIR is a run kept in DIR: the opening is split into jobs (one per
    position up to symmetry) that run on all cores (--workers) or a Dask cluster (--scheduler);
    a job that does not settle within --slice is split one move deeper (or, when it settled
    nothing at all, runs again with twice the slice: --slice-doublings). Past --time (after a
    wait for the last jobs' results: seconds, longer for a job that keeps its table),
    on Ctrl-C (exit status 130) or after a kill, DIR keeps what was found: the same command
    continues the run, and --status says how far it is.

    A board oxo has proved ('oxo book' lists them: Qubic, 8x8 with k=5, 10x4 with k=4,
    Connect Four...) is answered at once from oxo's proof book: the value, how and when it was
    proved, and its certificates with the commands that check them; --again proves it here.
    A board no one has published the value of, that oxo's long runs are working on (Score
    Four, 9x8 with k=5), is answered at once with how far its run has got (exit status 3: only
    a long run could settle it); give --time to search here anyway.

    Past --time the value is "unknown" and the exit status is 3.

    With --gravity, an exact alpha-beta search gives the value and when the game ends with best
    play (6x7 --k 4, Connect Four, takes about 20 s on one core and under 256 MiB); --proof
    writes two certificates there too, one per side, that together pin the value and the ending
    ply.

    Example: oxo solve 5x5 --k 4 --proof proofs/5x5k4
    """
    game = board  # parsed once, at the edge, with --k and --gravity
    game.require("solver")
    if proof_dir is not None:
        game.require("prover")
    run_flags = [
        ("--status", show_status),
        ("--workers", workers is not None),
        ("--scheduler", scheduler is not None),
        ("--memory", memory_text is not None),
        ("--first-question", first_question != "x"),
        ("--slice-doublings", slice_doublings != SLICE_DOUBLINGS),
    ]
    given = [name for name, on in run_flags if on]
    if given and (proof_dir is None or game.family == "gravity"):
        raise OptionError(
            f"{', '.join(given)} {'applies' if len(given) == 1 else 'apply'} to proof runs: give "
            "--proof DIR (the folder that keeps the run), on a board without gravity"
        )
    if show_status:
        assert proof_dir is not None
        _print_status(classic_geometry(game), proof_dir, as_json)
        return
    if game.family == "gravity":
        from oxo.cli.gravity import solve_command as solve_gravity

        solve_gravity(game.board, seconds, as_json, proof_dir, quiet, again=again)  # type: ignore[attr-defined]  # a gravity game has a board
        return
    geometry = classic_geometry(game)
    opened = open_board(geometry.spec) if proof_dir is None else None
    source = click.get_current_context().get_parameter_source("seconds")
    if opened is not None and source is ParameterSource.DEFAULT:
        _print_open(geometry, opened, as_json)  # a long run works on it: known at once, no search
        raise click.exceptions.Exit(3)
    options = RunOptions(
        workers=workers,
        scheduler=scheduler,
        memory=None if memory_text is None else memory_limit(memory_text),
        slice_seconds=slice_seconds,
        save_every=save_every,
        split_plies=split_plies,
        root_search=root_search,
        early_split=RunOptions().early_split if early_split else 0.0,
        first_question=first_question,
        slice_doublings=slice_doublings,
    )
    if geometry.size <= MAX_EMPTY and not geometry.gravity:  # the table knows no gravity
        with (
            _kept_on_stop(proof_dir),
            progress_bar("building the state space", total=1.0, quiet=quiet) as bar,
        ):
            state = {"done": 0.0}

            def advance(fraction: float) -> None:
                bar.advance(fraction - state["done"])
                state["done"] = fraction

            solved = api.solve(geometry, proof_dir=proof_dir, on_progress=advance, run=options)
        if as_json:
            echo_json(solved.to_dict())
            return
        assert solved.table is not None
        _print_solve(solved.table)
        for path in solved.proofs:
            click.echo(f"certificate: {path}")
        return
    with _kept_on_stop(proof_dir), progress_status(quiet=quiet) as status:

        def report(attacker: str, nodes: int, table: int, elapsed: float) -> None:
            status(
                f"can {attacker.upper()} force a line? {nodes:,} positions searched, "
                f"{elapsed:.0f} s of at most {seconds:.0f} s"
            )

        solved = api.solve(
            geometry,
            seconds=seconds,
            proof_dir=proof_dir,
            on_search=report,
            run=options,
            on_status=status,
            again=again,  # a board of the proof book is answered from it, without a search
        )
    if solved.from_book:
        _print_from_book(solved, as_json)
        return
    if as_json:
        known = {} if solved.known or opened is None else {"open": opened.to_dict()}
        echo_json({**solved.to_dict(), **known})
    else:
        assert solved.proof is not None
        _print_proof(solved.proof)
        if not solved.known and opened is not None:
            from oxo.cli.book import open_lines

            echo_lines(["what is known:", *open_lines(opened, heading=False)])
    if not solved.known:
        if solved.book is not None and not as_json:
            click.echo(
                f"proved before: {solved.book.value_words} (oxo's proof book: 'oxo solve "
                f"{_board_words(geometry)}' without --again says how)"
            )
        raise click.exceptions.Exit(3)


def _print_open(geometry: Geometry, entry: OpenBoard, as_json: bool) -> None:
    """A board no one has published the value of, asked without --time: what is known of it
    (oxo's proof book, :func:`oxo.book.open_board`) instead of a search that cannot settle it
    within the default limit."""
    from oxo.cli.book import open_lines

    if as_json:
        echo_json(
            {
                "board": geometry.spec_shape,
                "k": geometry.k,
                "gravity": geometry.gravity,
                "value": "unknown",
                "searched": False,
                "open": entry.to_dict(),
            }
        )
        return
    shape = f"{geometry.spec_shape} board, k={geometry.k}" + (
        ", gravity" if geometry.gravity else ""
    )
    board = entry.board_args
    echo_lines(
        [
            f"{shape}: value unknown: no one has published it and oxo has not proved it yet; "
            "not searched here, as only a long run could settle it (below)",
            *open_lines(entry, heading=False),
            f"what to try: the run's command above to take it further, 'oxo solve {board} "
            f"--time SECONDS' to search here for that long, 'oxo play {board}' to play it",
        ]
    )


def _board_words(geometry: Geometry) -> str:
    """The board as the command line takes it: ``8x8 --k 5``."""
    if geometry.k == geometry.default_k:
        return geometry.spec_shape
    return f"{geometry.spec_shape} --k {geometry.k}"


def _print_from_book(solved: api.Solved, as_json: bool) -> None:
    """A value read from oxo's proof book: the book's row in full (or its JSON)."""
    from oxo.cli.book import entry_json, entry_lines

    assert solved.book is not None
    if as_json:
        echo_json({**solved.to_dict(), "book": entry_json(solved.book)})
        return
    for line in entry_lines(solved.book):
        click.echo(line)
    click.echo(f"to prove it again here: oxo solve {_board_words(solved.board)} --again")
    click.echo("  (or --proof DIR, which writes the certificates too)")


@contextmanager
def _kept_on_stop(proof_dir: str | None) -> Iterator[None]:
    """Ctrl-C during a proof: one line saying what the search had settled (or where the run is
    kept), then exit status 130. Entered outside the progress display, so the line is cleared
    before the message is written."""
    try:
        yield
    except KeyboardInterrupt as stop:
        partial = getattr(stop, "partial", None)
        if isinstance(partial, ProofResult):
            click.echo(
                f"oxo: interrupted after {partial.seconds:.0f} s; {partial.settled_text()}",
                err=True,
            )
        else:
            click.echo("oxo: interrupted", err=True)
        if proof_dir is not None:
            click.echo(
                f"the run is kept in {proof_dir}: the same command continues it, and with "
                "--status says what it has settled",
                err=True,
            )
        raise click.exceptions.Exit(130) from None


def _print_status(geometry: Geometry, proof_dir: str, as_json: bool) -> None:
    from oxo.proofs.runs import run_status

    status = run_status(proof_dir)
    if (status.board, status.k, status.gravity) != (
        geometry.spec_shape,
        geometry.k,
        geometry.gravity,
    ):
        raise OptionError(
            f"{proof_dir} holds a proof run of {status.board} (k={status.k}"
            f"{', gravity' if status.gravity else ''}), not of {geometry.spec_shape} "
            f"(k={geometry.k}{', gravity' if geometry.gravity else ''})"
        )
    if as_json:
        echo_json(status.to_dict())
        return
    echo_lines(status.lines(), hanging=4)  # continuations further in than the next item


def _print_proof(result: ProofResult) -> None:
    echo_lines(_proof_lines(result))


def _proof_lines(result: ProofResult) -> list[str]:
    """The report of ``oxo solve`` on a board the proof search settles: its value, each search,
    the method, the run, the certificates and what to try when the value is not known."""
    geometry = result.geometry
    shape = f"{geometry.spec_shape} board, k={geometry.k}" + (
        ", gravity" if geometry.gravity else ""
    )
    if result.value == "unknown":
        lines = [f"{shape}: value unknown within the time limit ({result.limit:g} s)"]
    else:
        lines = [f"{shape}: {_VALUE_WORDS[result.value]} with best play"]
    for search in result.searches:
        answer = {True: "yes", False: "no", None: "not settled"}[search.result]
        lines.append(
            f"  can {search.attacker.upper()} force a line? {answer} ({search.nodes:,} positions "
            f"searched in {_took(search.seconds)})"
        )
        if search.first_moves is not None and any(search.first_moves.values()):
            side = search.attacker.upper()  # (none listed: the first moves were not split yet)
            known = search.first_moves

            def moves(cells: list[int]) -> str:
                return ", ".join(map(geometry.move_name, cells)) if cells else "none"

            lines.append(
                f"    X's first moves ({geometry.moves_numbered}, one of each set alike by "
                f"symmetry): {side} wins after {moves(known['win'])}; {side} does not win after "
                f"{moves(known['no win'])}; not settled: {moves(known['open'])}"
            )
    run = result.run
    if run is None:
        lines.append(
            f"method: {method_of(result.geometry)}; {result.nodes:,} positions in "
            f"{_took(result.seconds)}"
        )
    else:
        resumed = "continued" if run.get("resumed") else "started"
        lines.append(
            f"method: {method_of(result.geometry)}; {result.nodes:,} positions searched by the "
            "run in all"
        )
        sessions = run["sessions"]
        so_far = counted(sessions, "session") if isinstance(sessions, int) else "sessions"
        pace = run.get("pace")
        settled = (
            f", {counted(pace['settled'], 'position')} settled"
            if isinstance(pace, dict) and pace.get("session") == sessions
            else ""
        )
        lines.append(
            f"run: kept in {run['folder']} ({resumed} here, {_took(result.seconds)} this "
            f"time{settled}; {so_far} so far)"
        )
    lines += [f"certificate: {path}  (check it with: oxo verify {path})" for path in result.proofs]
    if result.value == "unknown":
        if run is not None:
            faster = (
                "more --workers, a --scheduler, or more --memory (bigger tables)"
                if goes_wide(result.geometry)
                else "more --workers or a --scheduler"
            )
            lines.append(
                "what to try: run the same command again to continue the run (--status shows how "
                f"far it is); {faster} to go faster"
            )
        else:
            lines.append(
                "what to try: a longer --time, or --proof DIR to keep the work and continue it "
                "later; boards of up to 16 cells are always solved; 'oxo play' and 'oxo move' "
                "play this board at level hard without a proof"
            )
    return lines


_VALUE_WORDS = {"x": "X wins", "o": "O wins", "draw": "draw"}


def _took(seconds: float) -> str:
    """How long a search took: tenths of a second under a minute and a half, then plain words."""
    return f"{seconds:.1f} s" if seconds < 90 else duration(seconds)


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
                f"{v:,}"
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
        f"total (plies 0-{table.plies[-1].ply})",
        *(
            f"{sum(getattr(row, name) for row in table.plies):,}"
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
@click.argument("position", metavar="POSITION|BOARD")
@board_option
@k_option
@json_option
@gravity_option(
    "A gravity position: the columns played from 1 (4453, Connect Four unless --board says "
    "otherwise) or rows top first with '/'; gives each column's exact value and distance."
)
@seconds_option(
    "Gravity positions: time limit of the exact values (default 120); past it, the columns "
    "solved so far are reported with exit status 3. Positions beyond the exact solver: time for "
    "the forced-win search on gomoku boards (k=5), for the proof search on others (default 3)."
)
def analyze(
    position: str,
    board: Game | None,
    k: int | None,
    as_json: bool,
    gravity: bool,
    seconds: float | None,
) -> None:
    """One position: dead and open lines, still winnable, value with best play and every move's value.

    A board (such as 5x5 or 4x4,k=3) means its empty position. "Forced draw" means nobody can win
    against best defence any more: the earliest point at which a tool could call the draw. Only what
    can follow the position is explored, so positions with at most 16 empty cells get every answer
    on any board; with more, the lines are still reported (and whether anybody has a line left to
    complete), and who wins is given where oxo can prove it: from its proof book (a board oxo
    has proved, where a certificate covers the position: 'oxo book'), on gomoku boards (five in a
    row, such as 15x15 with --k 5) from a forced win by fours and threes, searched for the side to
    move (and for its opponent, as a threat): a win found is proven against every defence and shown
    as a line of moves, attacker and defender alternating, in coordinates (h8: column h, row 8 from
    the bottom) and as cell IDs; on other boards from a proof search within --time. When none of
    these settles it, the value is not known and the exit status is 3.

    Example: oxo analyze x...o....
    """
    game = game_of_text(position, board, k, gravity)
    if game is not None:
        game.require("analyzer")
    flat_gravity = gravity if game is None else game.family == "gravity"  # not a box's
    if flat_gravity:
        from oxo.cli.gravity import ANALYZE_SECONDS, analyze_command, gravity_position

        state = gravity_position(position, board, k, game)
        analyze_command(state, seconds or ANALYZE_SECONDS, as_json)
        return
    if game is None and board is None and api.looks_like_board(position):
        parse_board(position, k)  # written as a board that cannot be (0x3): the board's own error
    target = classic_position(position, board, k, game)
    if seconds is not None and len(target.empty_cells) <= MAX_EMPTY:
        raise OptionError(
            "--time applies to gravity positions (--gravity) and to positions beyond the exact "
            f"solver (more than {MAX_EMPTY} empty cells); this one is analysed exactly, without "
            "a time limit"
        )
    if len(target.empty_cells) > MAX_EMPTY and target.to_move is not None:
        from oxo.cli.book import prepare_perfect

        # What the proof book needs to answer, made now with progress when it is quick.
        prepare_perfect(game_of(target), ("x", "o"), level="analyze")
    report = api.analyze(target, seconds=seconds)
    if as_json:
        echo_json(report.to_dict())
    else:
        click.echo(report.position.to_grid())
        click.echo()
        echo_lines(report.text_lines(why=False))  # an unknown value's reason: once, on stderr
    if report.outcome is None:
        known = ""
        if report.proven is not None:
            known = f" (what is known: {report.proven.bound})"
        click.echo(
            f"oxo: out of reach: who wins is not known{known}: {report.out_of_reach}",
            err=True,
        )
        raise click.exceptions.Exit(3)


COMMANDS = [deadends, solve_command, analyze]
