"""``oxo book``: the boards oxo has proved (its proof book), beside the published values; one board's
proof in full; and what perfect play from a certificate needs, made once (``--index``)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import click

from oxo.cli.common import ANY_GAME, echo_json, echo_lines
from oxo.cli.options import gravity_option, json_option, k_option, quiet_option
from oxo.errors import CertificateUnavailableError, OptionError, OxoError
from oxo.geometry import Geometry
from oxo.phrases import counted, duration
from oxo.progress import progress_bar
from oxo.registry import Game

if TYPE_CHECKING:
    from oxo.book import BookCertificate, BookEntry, BookOpening, OpenBoard
    from oxo.book.index import BuildProgress
    from oxo.book.play import CertificatePlayer
    from oxo.position import Position

#: Index builds estimated over this many seconds are asked for first (or left to ``oxo book``).
ASK_AFTER_SECONDS = 60.0


@click.command(name="book")
@click.argument("board", required=False, type=ANY_GAME)
@k_option
@gravity_option("A gravity board (6x7 --k 4 is Connect Four).")
@click.option(
    "--index",
    "make_index",
    is_flag=True,
    help="Make what perfect play needs, once: the index in oxo's cache of the certificate each "
    "side plays from (the first of its side in the book); on a board whose own certificate is "
    "not here (4x4x4x4), of each certificate of a position its run settled first.",
)
@click.option(
    "--side",
    type=click.Choice(["x", "o"]),
    default=None,
    help="With --index: only the certificate that plays this side.",
)
@click.option(
    "--opening",
    metavar="MOVES",
    default=None,
    help="With --index on a board with settled openings: only the certificate of this one, "
    "its moves' cells joined by '-' (0-3: X on 0, O on 3; 'oxo book 4x4x4x4' lists them).",
)
@click.option(
    "--all",
    "every",
    is_flag=True,
    help="With --index: every certificate of the board, the ones perfect does not play from "
    "too (Qubic's 57 MB one and 4x4x4x4's 336 MB one are first rebuilt from their kept runs: "
    "an hour or two).",
)
@json_option
@quiet_option
def book_command(
    board: Game | None,
    k: int | None,
    gravity: bool,
    make_index: bool,
    side: str | None,
    opening: str | None,
    every: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    """The boards oxo has proved, beside the values the field published (oxo's proof book), and
    the boards no one has published that oxo's long runs are working on, with how far each has got.

    Each value is proved by certificates: strategy files that a program checks against every
    defence ('oxo verify FILE', or without oxo 'python3 tools/check_strategy.py FILE'). With a
    BOARD: that proof in full (how, when, on what machine, the command that proves it again from
    scratch) and each certificate as it is on this machine. The levels perfect and best play
    from the certificates ('oxo play 8x8 --k 5 --level perfect'); a large certificate needs an
    index first, built once with --index (a minute for Qubic's certificate with rules, minutes
    for 8x8 with k=5). Where the board's own certificate is not here (4x4x4x4's, rebuilt from
    its run with --all), perfect plays from the certificates of the positions its run settled
    first, once they are indexed ('oxo book 4x4x4x4 --index').

    Example: oxo book;  oxo book 4x4x4;  oxo book 8x8 --k 5 --index
    """
    from oxo.book import OpenBoard, open_board, open_boards, openings_row, proved_boards

    if (side is not None or every or opening is not None) and not make_index:
        raise OptionError("--side, --opening and --all go with --index")
    if board is None:
        if make_index or k is not None or gravity:
            raise OptionError("--index, --side, --opening, --all, --k and --gravity need a BOARD")
        _list(proved_boards(), open_boards(), as_json)
        return
    game = board  # parsed at the edge, with --k and --gravity
    entry = game.proved()
    opened = openings_row(game.name) or open_board(game.name)
    if opening is not None and (opened is None or not opened.openings):
        raise OptionError(
            f"--opening goes with a board whose run settled openings; {game.name} is not one "
            "('oxo book')"
        )
    # the openings' certificates: an open board's, or a proved board's whose own certificate
    # does not ship (with --all, that board's certificates instead, the big one rebuilt)
    index_openings = bool(
        opened is not None and opened.openings and make_index and (entry is None or not every)
    )
    if index_openings:
        assert opened is not None
        _make_opening_indexes(opened, side, quiet, opening)
        if entry is None:
            return
    if entry is None and isinstance(opened, OpenBoard):
        if as_json:
            echo_json({"board": game.name, "value": "unknown", "open": opened.to_dict()})
        else:
            echo_lines(open_lines(opened))
        raise click.exceptions.Exit(3)
    if entry is None:
        raise OptionError(
            f"oxo has not proved {game.title}: 'oxo book' lists the boards it has proved"
        )
    if make_index and not index_openings:  # the board's own certificates
        _make_index(entry, side, every, quiet)
    if as_json:
        echo_json(entry_json(entry))
        return
    for line in entry_lines(entry):
        click.echo(line)


def entry_json(entry: BookEntry) -> dict[str, object]:
    """A book row as JSON, with each certificate as it is on this machine."""
    from oxo.book.play import certificates_here

    return {**entry.to_dict(), "here": [item.to_dict() for item in certificates_here(entry)]}


def _list(entries: Iterable[BookEntry], opened: Iterable[OpenBoard], as_json: bool) -> None:
    from rich.table import Table

    from oxo.cli.common import console

    rows = list(entries)
    going = list(opened)
    if as_json:
        echo_json(
            {
                "boards": [entry.to_dict() for entry in rows],
                "open": [entry.to_dict() for entry in going],
            }
        )
        return
    table = Table(box=None, pad_edge=False)
    for name, justify in (
        ("board", "left"),
        ("k", "right"),
        ("oxo proved", "left"),
        ("published", "left"),
        ("time", "right"),
        ("certificates", "left"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]  # a literal of rich's
    for entry in rows:
        table.add_row(
            entry.board.split(",")[0] + (", gravity" if entry.gravity else ""),
            str(entry.k),
            _value_text(entry),
            _words(entry.published),
            duration(entry.seconds),
            ", ".join(_certificate_word(c) for c in entry.certificates),
        )
    out = console()
    out.print("oxo's proof book: the boards oxo has proved, beside the published values")
    out.print(table)
    for line in (
        "'oxo book BOARD' shows a proof in full: sources, machine, the command that",
        "proves it again, each certificate's SHA-256 and how to check it.",
    ):
        out.print(line)
    if going:
        lines = [
            "",
            "Still open (no one has published their values); oxo's long runs work on them:",
        ]
        for row in going:
            proved = (
                f", {len(row.openings):,} openings proved with their certificates"
                if row.openings
                else ""
            )
            if row.winner:
                proved += f"; {row.winner} wins, its certificate not checked yet"
            lines.append(
                f"  {_open_title(row, capital=True)}: {row.settled:,} positions settled in "
                f"{row.sessions:,} {'session' if row.sessions == 1 else 'sessions'} (the last on "
                f"{row.date}){proved}; 'oxo book {row.board_args}' says how far it is"
            )
        echo_lines(lines, hanging=4)


def _words(value: str) -> str:
    return {"x": "X wins", "o": "O wins", "draw": "draw"}.get(value, value)


def _value_text(entry: BookEntry) -> str:
    if entry.ending_ply is None:
        return entry.value_words
    return f"{entry.value_words} (ends at ply {entry.ending_ply})"


def _certificate_word(certificate: BookCertificate) -> str:
    side = certificate.side.upper()
    where = {"rebuilt": " (rebuilt)", "repository": ""}.get(certificate.shipped, "")
    return f"{side}{where}"


def _label_wrap(label: str, text: str) -> list[str]:
    """``text`` broken to 79 columns after a label 13 columns wide (the book's reports)."""
    import textwrap

    return textwrap.wrap(
        text, 79, initial_indent=f"{label:<13}", subsequent_indent=" " * 13, break_on_hyphens=False
    ) or [label]


def entry_lines(entry: BookEntry, *, heading: bool = True) -> list[str]:
    """One proof of the book in words, for 80 columns: the value, where it is published, how and
    when it was proved, the command that proves it again, and each certificate: its figures, where
    it is on this machine, its index, how to check it."""
    import textwrap

    from oxo.book.play import certificates_here

    out: list[str] = []
    if heading:
        board = entry.board.replace(",k=", " with k=").replace(",gravity", ", gravity")
        out += textwrap.wrap(
            f"{board}: {_value_text(entry)} with best play, proved by oxo",
            79,
            break_on_hyphens=False,
        )
    out += _label_wrap("published:", f"{_words(entry.published)} ({entry.source})")
    for number, text in entry.references:
        out += _label_wrap(f"  [{number}]", text)
    out += _label_wrap("method:", entry.method)
    when = f", {entry.date}" if entry.date else ""
    out += _label_wrap(
        "proved in:", f"{duration(entry.seconds)}, {entry.positions:,} positions{when}"
    )
    out += _label_wrap("machine:", entry.machine)
    out += _label_wrap("again:", f"{entry.command} (from an empty folder DIR)")
    if entry.note:
        out += _label_wrap("note:", entry.note)
    for here in certificates_here(entry):
        certificate = here.certificate
        turned = (
            f" (the certificate of {certificate.board}: the same board turned a quarter)"
            if certificate.turned
            else ""
        )
        out += _label_wrap(
            "certificate:",
            f"{certificate.file}{turned}: {certificate.claim}; {certificate.entries:,} entries, "
            f"{certificate.bytes:,} bytes",
        )
        out.append(f"  SHA-256:   {certificate.sha256}")
        out.append(f"  its text:  {certificate.sha256_text}")
        if here.path is not None:
            out += _label_wrap("  FILE:", here.path)
            checks = ", or without oxo: ".join(
                command.replace(certificate.file, "FILE") for command in certificate.check_commands
            )
            out += _label_wrap("  check:", checks)
        else:
            out += _label_wrap(
                "  here:",
                "not on this machine: "
                + (
                    f"'oxo book {entry.board_args} --index --all' rebuilds it from the kept run "
                    f"{certificate.run} (minutes) and indexes it"
                    if certificate.run is not None
                    else "it ships with oxo's source repository (results/certificates)"
                ),
            )
        if here.indexed is not None:
            if here.indexed:
                state = "built (perfect play answers at once)"
            elif certificate.run is not None:  # rebuilt from the run, then indexed: --all
                state = (
                    f"not built yet: about {duration(here.index_seconds)}, once "
                    f"('oxo book {entry.board_args} --index --all')"
                )
            else:
                state = (
                    f"not built yet: about {duration(here.index_seconds)}, once "
                    f"('oxo book {entry.board_args} --index', or the first perfect move)"
                )
            out += _label_wrap("  index:", state)
    if entry.openings:  # settled by its run first: played from until the board's is rebuilt
        out += openings_lines(entry, "openings:")
    return out


def openings_lines(entry: OpenBoard | BookEntry, label: str = "proved:") -> list[str]:
    """The openings a board's run settled before the board, each with a certificate that ships,
    in words for 80 columns: what they prove, how to check them, how perfect plays from them (an
    open board's, and a proved board's whose own certificate does not ship)."""
    from oxo.book.play import AUTO_BUILD_SECONDS, OpeningsBook, moves_words, quick_to_index

    if not entry.openings:
        return []
    out: list[str] = []
    sizes = [opening.certificate.bytes / 1e6 for opening in entry.openings]
    size = (
        f"{sizes[0]:,.1f} MB"
        if len(sizes) == 1
        else f"{min(sizes):,.1f} to {max(sizes):,.1f} MB each"
    )
    out += _label_wrap(
        label,
        f"{'; '.join(entry.openings_words())}; each with a certificate of its own "
        f"({size}) whose walk begins there, such as {entry.openings[0].certificate.file}, "
        "in results/certificates of oxo's source repository",
    )
    out += _label_wrap("  check:", "oxo verify FILE, or python3 tools/check_strategy.py FILE")
    book = OpeningsBook(entry)
    renamed = book.renamed_example()
    if renamed is not None:
        opening, moves = renamed
        out += _label_wrap(
            "  images:",
            "proved too: their rotations and reflections, and their images under the "
            "inside-out maps, which rename the cells and keep every line a line "
            f"({moves_words(moves)} is {moves_words(opening.moves)} renamed)",
        )
    minutes = book.index_seconds / 60
    quick = sum(quick_to_index(opening.certificate) for opening in entry.openings)
    itself = (
        f"; perfect indexes one itself when a game first reaches it if that takes under "
        f"{duration(AUTO_BUILD_SECONDS)} ({quick:,} of {len(entry.openings):,})"
        if quick
        else ""
    )
    out += _label_wrap(
        "  play:",
        f"the level perfect plays from them once indexed: oxo book {entry.board_args} "
        f"--index (about {minutes:,.0f} min in all, once){itself}",
    )
    return out


#: An open board's reply counts are listed for at most this many first moves; the others are
#: summed up.
SHOWN_FIRST_MOVES = 3


def _open_title(entry: OpenBoard, *, capital: bool = False) -> str:
    """The open board's name in words: ``Score Four``, ``the 9x8 board with 5 in a row``."""
    from oxo.registry import find_game

    title = find_game(entry.board).title
    return title[:1].upper() + title[1:] if capital else title


def open_lines(entry: OpenBoard, *, heading: bool = True) -> list[str]:
    """What is known of a board no one has published the value of, for 80 columns: what is
    published, and how far oxo's long run of it has got (:class:`oxo.book.OpenBoard`)."""
    import textwrap

    from oxo.proofs.results import sessions_span

    geometry = Geometry.parse(entry.board)
    out: list[str] = []
    sessions = f"{entry.sessions:,} {'session' if entry.sessions == 1 else 'sessions'}"
    if heading and entry.winner:
        out += textwrap.wrap(
            f"{_open_title(entry, capital=True)}: {entry.winner} wins, as oxo's long run settled it "
            f"({sessions}, the last on {entry.date}); its certificate is still to be merged from "
            f"the run's pieces and checked (`{entry.command}`)",
            79,
            break_on_hyphens=False,
        )
    elif heading:
        out += textwrap.wrap(
            f"{_open_title(entry, capital=True)}: value not known yet. oxo is proving it in a "
            f"long run, {sessions} so far, the last on {entry.date}",
            79,
            break_on_hyphens=False,
        )
    out += _label_wrap("published:", entry.published)
    for number, text in entry.references:
        out += _label_wrap(f"  [{number}]", text)
    for q in entry.questions:
        side = q.attacker.upper()
        if q.answer:
            answer = "yes" if q.answer == 1 else "no"
            out.append(f"can {side} force a line? {answer}, settled by the run (certificate not")
            out.append("  checked yet)")
        else:
            out.append(f"can {side} force a line? not settled yet")
        settled = q.proved + q.disproved
        if not settled:
            words = "no position yet"
        elif not q.disproved or not q.proved:
            by = "won" if q.proved else "not won"
            words = f"{settled:,} positions, all {by} by {side}"
        else:
            words = f"{settled:,} positions, {q.proved:,} won by {side}, {q.disproved:,} not"
        out += _label_wrap("  settled:", words)
        followed = q.followed_to_prove
        to_prove = (
            f"{q.fewest_to_prove:,} of them to prove that {side} can"
            if followed is None or followed == q.fewest_to_prove
            else f"{followed:,} of them to prove that {side} can along the moves the run "
            f"follows ({q.fewest_to_prove:,} if {side}'s other moves settled in their first jobs)"
        )
        out += _label_wrap(
            "  to go:",
            f"the certificate, which the run's command merges from the run's pieces and checks: "
            f"{entry.command}"
            if q.answer
            else f"{q.open_jobs:,} jobs open (a job: a position the run searches on its own); at "
            f"least {to_prove}, {q.fewest_to_disprove:,} to prove that {side} cannot",
        )
        firsts = "; ".join(
            f"{label} {', '.join(geometry.move_name(cell) for cell in cells)}"
            for label, cells in (
                (f"{side} wins after", q.wins_after),
                (f"{side} does not win after", q.no_win_after),
                ("open after", q.open_after),
            )
            if cells
        )
        if firsts:
            out += _label_wrap(
                "  1st moves:", f"X's first moves ({geometry.moves_numbered}): {firsts}"
            )
        shown = [r for r in q.replies if r[1] or r[2]] or list(q.replies[:1])
        shown += [r for r in q.replies if r not in shown][: max(0, SHOWN_FIRST_MOVES - len(shown))]
        for move, win, no_win, open_ in shown:
            total = win + no_win + open_
            out += _label_wrap(
                "  replies:",
                f"O's {total:,} replies to {geometry.mark_words('X', move)}: {side} wins after "
                f"{win:,}, does not "
                f"win after {no_win:,}, {open_:,} open",
            )
            if move == q.waits_after:  # what each open reply waits on, as a list
                for wait in q.waits:
                    for depth, words in wait.lines(side, geometry=geometry):
                        out += textwrap.wrap(
                            words,
                            79,
                            initial_indent=" " * (13 + 2 * depth) + "- ",
                            subsequent_indent=" " * (15 + 2 * depth),
                            break_on_hyphens=False,
                        )
        rest = len(q.replies) - len(shown)
        if rest > 0:
            out += _label_wrap(
                "", f"and {rest:,} more first moves of X split into O's replies, not settled yet"
            )
    out += openings_lines(entry)
    if entry.estimate_all_seconds is not None:
        estimate = (
            f"; every open job would take about {duration(entry.estimate_all_seconds)} more at "
            "the mean cost of a job so far (a job that does not settle splits into more)"
        )
    elif entry.jobs:  # no job has settled its position: its mean cost says nothing of the end
        estimate = "; no estimate until a job settles its position (every job so far split)"
    else:
        estimate = ""
    out += _label_wrap(
        "run so far:",
        f"{entry.positions:,} positions searched in {entry.jobs:,} jobs, "
        f"{duration(entry.worker_seconds)} of worker time{estimate}",
    )
    if entry.paces is not None and entry.pace_estimate_seconds is not None:
        first, last, seconds, settled = entry.paces
        left = sum(q.followed_to_prove or 0 for q in entry.questions)
        out += _label_wrap(
            "  pace:",
            f"{counted(settled, 'position')} settled in {sessions_span(first, last)} "
            f"({duration(seconds)} of run "
            f"time): at that pace the {left:,} still to settle along the moves the run follows "
            f"take about {duration(entry.pace_estimate_seconds)} more (more where a job splits "
            "a position into more)",
        )
    out += _label_wrap(
        "continue:",
        f"in a clone of oxo's source repository, which keeps the run in {entry.run}: "
        f"{entry.command}",
    )
    return out


def _make_index(entry: BookEntry, side: str | None, every: bool, quiet: bool) -> None:
    """Make what perfect play needs: the index of the certificate each side plays from (the first
    of its side that perfect reads), or with ``every`` of each certificate; ``side``'s only, if
    given."""
    from oxo.book.play import FORMATS

    chosen: list[BookCertificate] = []
    for c in entry.certificates:
        if c.format not in FORMATS or (side is not None and c.side != side):
            continue
        if every or all(other.side != c.side for other in chosen):
            chosen.append(c)
    if not chosen:
        raise OptionError(
            f"oxo's proof of {entry.board} has no certificate that perfect play reads"
            + (f" for {side.upper()}" if side else "")
            + " (Connect Four's are played by its own solver)"
        )
    for certificate in chosen:
        _build(certificate, quiet, _preparing(entry, certificate))


def _make_opening_indexes(
    board: OpenBoard | BookEntry, side: str | None, quiet: bool, name: str | None = None
) -> None:
    """Make what perfect play needs on a board no one has proved: the index of the certificate
    of each opening its run has settled (``side``'s only, or the one named ``name``, if given)."""
    openings = board.openings
    if name is not None:
        try:
            openings = (board.settled_opening(name),)
        except OxoError as error:
            raise OptionError(f"--opening: {error}") from None
    chosen = [o for o in openings if side is None or o.side == side]
    if not chosen:
        raise OptionError(
            f"oxo's run of {board.board} has settled no opening"
            + (f" for {side.upper()}" if side else "")
            + f" yet: 'oxo book {board.board_args}' says where it stands"
        )
    for opening in chosen:
        _build(opening.certificate, quiet, _preparing_opening(board, opening))


#: How :func:`_build` makes a certificate's player: told the build's progress and status.
Maker = Callable[["BuildProgress", Callable[[str], None]], "CertificatePlayer"]


def _preparing(entry: BookEntry, certificate: BookCertificate) -> Maker:
    """A book row's certificate, rebuilt from its kept run when needed, and indexed."""
    from oxo.book.play import prepare

    def make(advance: BuildProgress, status: Callable[[str], None]) -> CertificatePlayer:
        return prepare(entry, certificate, on_progress=advance, on_status=status)

    return make


def _preparing_opening(board: OpenBoard | BookEntry, opening: BookOpening) -> Maker:
    """A settled opening's certificate, indexed."""
    from oxo.book.play import prepare_opening

    def make(advance: BuildProgress, status: Callable[[str], None]) -> CertificatePlayer:
        return prepare_opening(board, opening, on_progress=advance)

    return make


def _build(certificate: BookCertificate, quiet: bool, make: Maker) -> None:
    """Index one certificate (``make`` does it: rebuilt first when needed), under a progress
    bar."""
    from oxo.book.index import estimate_seconds, load_index

    if load_index(certificate) is not None:
        click.echo(f"{certificate.file}: index built already", err=True)
        return
    label = f"indexing {certificate.file}"
    if not quiet:
        click.echo(
            f"{label}: about {duration(estimate_seconds(certificate))}, once "
            "(Ctrl-C stops it and keeps nothing)",
            err=True,
        )
    with progress_bar(label, total=float(max(certificate.positions, 1)), quiet=quiet) as bar:

        def status(text: str) -> None:
            bar.note(text)

        def advance(checked: int, total: int) -> None:
            bar(min(1.0, checked / max(total, 1)))

        try:
            player = make(advance, status)
        except KeyboardInterrupt:
            click.echo(
                "oxo: interrupted: nothing was kept; the same command starts again", err=True
            )
            raise click.exceptions.Exit(130) from None
    index = getattr(player, "index", None)
    if index is not None:
        click.echo(
            f"{certificate.file}: index built: {len(index):,} moves, "
            f"{index.meta.get('pairings', 0):,} pairings, {index.meta.get('bytes', 0):,} bytes "
            f"in {index.folder}",
            err=True,
        )


# -- perfect play on the command line --------------------------------------------------------------


def prepare_perfect(
    game: Game,
    sides: Iterable[str],
    quiet: bool = False,
    *,
    level: str = "perfect",
    position: Position | None = None,
    offered: set[str] | None = None,
) -> None:
    """Before ``perfect`` (or ``best``) plays a proved board: make sure each of ``sides`` can play
    from its certificate. A quick index is built at once (with progress); a long one is asked for
    on a terminal at the level perfect, else (and when declined) a note says how to make it, and
    the level plays hard where the certificate cannot be read. Nothing here stops the command.
    On a board no one has proved, or one whose certificate is not here but the openings its run
    settled first are (:func:`oxo.book.play.from_openings`), with the ``position`` to play: the
    certificate of a settled opening that leads there, asked for in the same way (the level's own note says the rest),
    not again for a certificate named in ``offered`` (a game's moves: each is offered once a
    game)."""
    from oxo.book import find_certificate
    from oxo.book.index import estimate_seconds, load_index
    from oxo.book.play import FORMATS, from_openings

    entry = game.proved()
    if entry is None or from_openings(entry):  # played from the openings its run settled
        if position is not None and level == "perfect":
            _prepare_opening(game, sides, quiet, position, set() if offered is None else offered)
        return
    for side in dict.fromkeys(sides):
        certificate = entry.certificate_of(side)
        if certificate is None or certificate.format not in FORMATS:
            continue
        if load_index(certificate) is not None:
            continue
        missing = find_certificate(certificate) is None
        if missing and level == "analyze":
            continue
        if missing and certificate.run is None:
            _note(
                f"perfect plays hard as {side.upper()} here: {certificate.file} is not on this "
                "machine (it ships with oxo's source repository, results/certificates)"
            )
            continue
        seconds = estimate_seconds(certificate)
        what = (
            f"rebuilding {certificate.file} from its kept run and indexing it"
            if missing
            else f"indexing {certificate.file} ({side.upper()}'s certificate)"
        )
        if seconds > ASK_AFTER_SECONDS:
            command = f"oxo book {entry.board_args} --index"
            asked = f"{what} takes about {duration(seconds)}, once"
            if level == "analyze":
                continue  # analyze answers from what is ready; it makes only what is quick
            if level != "perfect" or not _on_terminal():
                _note(
                    f"{level} plays hard as {side.upper()} until its certificate is indexed: "
                    f"{asked}: {command}"
                )
                continue
            if not _ask(f"{asked[0].upper()}{asked[1:]}. Start it now?"):
                _note(f"perfect plays hard as {side.upper()}; later: {command}")
                continue
        try:
            _build(certificate, quiet, _preparing(entry, certificate))
        except CertificateUnavailableError as error:
            _note(f"perfect plays hard as {side.upper()}: {error}")


def _prepare_opening(
    game: Game, sides: Iterable[str], quiet: bool, position: Position, offered: set[str]
) -> None:
    """On a terminal: offer to index the certificate of a settled opening that leads to
    ``position`` for one of ``sides`` (the first of them whose index is not built), once; not
    one whose file is in ``offered`` (the one offered is added)."""
    from oxo.book import book_entry, find_certificate, openings_row
    from oxo.book.index import estimate_seconds, load_index
    from oxo.book.play import OpeningsBook, from_openings

    opened = openings_row(game.name)
    proved = book_entry(game.name)
    if opened is None or (proved is not None and not from_openings(proved)):
        return  # no openings, or the board's own certificate is here to play from
    if not _on_terminal():
        return
    wanted = set(sides)
    under = OpeningsBook(opened).openings_under(position)
    for opening in (o for o in under if o.side in wanted):
        certificate = opening.certificate
        if load_index(certificate) is not None:
            return  # perfect plays from it
        if find_certificate(certificate) is None:
            continue  # the level's note says where to get it
        if certificate.file in offered:
            return  # declined (or failed) in this game: the level's note says how, later
        offered.add(certificate.file)
        question = (
            f"Perfect play here comes from {certificate.file}, which needs an index: about "
            f"{duration(estimate_seconds(certificate))}, once. Start it now?"
        )
        if _ask(question):
            try:
                _build(certificate, quiet, _preparing_opening(opened, opening))
            except CertificateUnavailableError as error:
                _note(f"perfect plays hard: {error}")
        return


def _on_terminal() -> bool:
    """Whether a person can be asked (standard input and the error stream are a terminal)."""
    return sys.stdin.isatty() and sys.stderr.isatty()


def _ask(question: str) -> bool:
    """A yes-or-no question on stderr, broken between words so that it and its ``[y/N]: ``
    fit 80 columns."""
    import textwrap

    return click.confirm("\n".join(textwrap.wrap(question, 71)), err=True)


def _note(text: str) -> None:
    """A note on stderr, broken between words to fit (:func:`echo_lines`)."""
    echo_lines([text], err=True)


COMMANDS = [book_command]
