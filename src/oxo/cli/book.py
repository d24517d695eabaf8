"""``oxo book``: the boards oxo has proved (its proof book), beside the published values; one board's
proof in full; and what perfect play from a certificate needs, made once (``--index``)."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING

import click

from oxo.cli.common import ANY_GAME, echo_json, echo_lines
from oxo.cli.options import gravity_option, json_option, k_option, quiet_option
from oxo.errors import CertificateUnavailableError, OptionError
from oxo.progress import progress_bar
from oxo.registry import Game

if TYPE_CHECKING:
    from oxo.book import BookCertificate, BookEntry

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
    "side plays from (the first of its side in the book).",
)
@click.option(
    "--side",
    type=click.Choice(["x", "o"]),
    default=None,
    help="With --index: only the certificate that plays this side.",
)
@click.option(
    "--all",
    "every",
    is_flag=True,
    help="With --index: every certificate of the board, the ones perfect does not play from "
    "too (Qubic's 57 MB one is first rebuilt from its kept run: about an hour).",
)
@json_option
@quiet_option
def book_command(
    board: Game | None,
    k: int | None,
    gravity: bool,
    make_index: bool,
    side: str | None,
    every: bool,
    as_json: bool,
    quiet: bool,
) -> None:
    """The boards oxo has proved, beside the values the field published (oxo's proof book).

    Each value is proved by certificates: strategy files that a program checks against every
    defence ('oxo verify FILE', or without oxo 'python3 tools/check_strategy.py FILE'). With a
    BOARD: that proof in full (how, when, on what machine, the command that proves it again from
    scratch) and each certificate as it is on this machine. The levels perfect and best play
    from the certificates ('oxo play 8x8 --k 5 --level perfect'); a large certificate needs an
    index first, built once with --index (a minute for Qubic's certificate with rules, minutes
    for 8x8 with k=5).

    Example: oxo book;  oxo book 4x4x4;  oxo book 8x8 --k 5 --index
    """
    from oxo.book import proved_boards

    if (side is not None or every) and not make_index:
        raise OptionError("--side and --all go with --index")
    if board is None:
        if make_index or k is not None or gravity:
            raise OptionError("--index, --side, --all, --k and --gravity need a BOARD")
        _list(proved_boards(), as_json)
        return
    game = board  # parsed at the edge, with --k and --gravity
    entry = game.proved()
    if entry is None:
        raise OptionError(
            f"oxo has not proved {game.title}: 'oxo book' lists the boards it has proved"
        )
    if make_index:
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


def _list(entries: Iterable[BookEntry], as_json: bool) -> None:
    from rich.table import Table

    from oxo.cli.common import console

    rows = list(entries)
    if as_json:
        echo_json({"boards": [entry.to_dict() for entry in rows]})
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
            _duration(entry.seconds),
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


def _duration(seconds: float) -> str:
    from oxo.counting.budget import format_seconds

    return format_seconds(seconds)


def entry_lines(entry: BookEntry, *, heading: bool = True) -> list[str]:
    """One proof of the book in words, for 80 columns: the value, where it is published, how and
    when it was proved, the command that proves it again, and each certificate: its figures, where
    it is on this machine, its index, how to check it."""
    import textwrap

    from oxo.book.play import certificates_here

    def wrapped(label: str, text: str) -> list[str]:
        return textwrap.wrap(
            text,
            79,
            initial_indent=f"{label:<13}",
            subsequent_indent=" " * 13,
            break_on_hyphens=False,
        ) or [label]

    out: list[str] = []
    if heading:
        board = entry.board.replace(",k=", " with k=").replace(",gravity", ", gravity")
        out += textwrap.wrap(
            f"{board}: {_value_text(entry)} with best play, proved by oxo",
            79,
            break_on_hyphens=False,
        )
    out += wrapped("published:", f"{_words(entry.published)} ({entry.source})")
    for number, text in entry.references:
        out += wrapped(f"  [{number}]", text)
    out += wrapped("method:", entry.method)
    when = f", {entry.date}" if entry.date else ""
    out += wrapped("proved in:", f"{_duration(entry.seconds)}, {entry.positions:,} positions{when}")
    out += wrapped("machine:", entry.machine)
    out += wrapped("again:", f"{entry.command} (from an empty folder DIR)")
    if entry.note:
        out += wrapped("note:", entry.note)
    for here in certificates_here(entry):
        certificate = here.certificate
        turned = (
            f" (the certificate of {certificate.board}: the same board turned a quarter)"
            if certificate.turned
            else ""
        )
        out += wrapped(
            "certificate:",
            f"{certificate.file}{turned}: {certificate.claim}; {certificate.entries:,} entries, "
            f"{certificate.bytes:,} bytes",
        )
        out.append(f"  SHA-256:   {certificate.sha256}")
        out.append(f"  its text:  {certificate.sha256_text}")
        if here.path is not None:
            out += wrapped("  FILE:", here.path)
            checks = ", or without oxo: ".join(
                command.replace(certificate.file, "FILE") for command in certificate.check_commands
            )
            out += wrapped("  check:", checks)
        else:
            out += wrapped(
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
            else:
                state = (
                    f"not built yet: about {_duration(here.index_seconds)}, once "
                    f"('oxo book {entry.board_args} --index', or the first perfect move)"
                )
            out += wrapped("  index:", state)
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
        _build(entry, certificate, quiet)


def _build(entry: BookEntry, certificate: BookCertificate, quiet: bool) -> None:
    """Rebuild (when needed) and index one certificate, under a progress bar."""
    from oxo.book.index import estimate_seconds, load_index
    from oxo.book.play import prepare

    if load_index(certificate) is not None:
        click.echo(f"{certificate.file}: index built already", err=True)
        return
    label = f"indexing {certificate.file}"
    if not quiet:
        click.echo(
            f"{label}: about {_duration(estimate_seconds(certificate))}, once "
            "(Ctrl-C stops it and keeps nothing)",
            err=True,
        )
    with progress_bar(label, total=float(max(certificate.positions, 1)), quiet=quiet) as bar:

        def status(text: str) -> None:
            bar.note(text)

        def advance(checked: int, total: int) -> None:
            bar(min(1.0, checked / max(total, 1)))

        try:
            player = prepare(entry, certificate, on_progress=advance, on_status=status)
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
    game: Game, sides: Iterable[str], quiet: bool = False, *, level: str = "perfect"
) -> None:
    """Before ``perfect`` (or ``best``) plays a proved board: make sure each of ``sides`` can play
    from its certificate. A quick index is built at once (with progress); a long one is asked for
    on a terminal at the level perfect, else (and when declined) a note says how to make it, and
    the level plays hard where the certificate cannot be read. Nothing here stops the command."""
    from oxo.book import find_certificate
    from oxo.book.index import estimate_seconds, load_index
    from oxo.book.play import FORMATS

    entry = game.proved()
    if entry is None:
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
            asked = f"{what} takes about {_duration(seconds)}, once"
            if level == "analyze":
                continue  # analyze answers from what is ready; it makes only what is quick
            if level != "perfect" or not (sys.stdin.isatty() and sys.stderr.isatty()):
                _note(
                    f"{level} plays hard as {side.upper()} until its certificate is indexed: "
                    f"{asked}: {command}"
                )
                continue
            if not click.confirm(f"{asked[0].upper()}{asked[1:]}. Start it now?", err=True):
                _note(f"perfect plays hard as {side.upper()}; later: {command}")
                continue
        try:
            _build(entry, certificate, quiet)
        except CertificateUnavailableError as error:
            _note(f"perfect plays hard as {side.upper()}: {error}")


def _note(text: str) -> None:
    """A note on stderr, broken between words to fit (:func:`echo_lines`)."""
    echo_lines([text], err=True)


COMMANDS = [book_command]
