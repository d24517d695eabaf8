"""oxo's proof book: the boards oxo has proved, as data, and where their certificates are.

``book.json`` beside this module holds one row per proved board: its value (and the ply the game
ends at with best play, where that is known), the certificates that prove it (file, entries, size,
SHA-256 of the file and of the text it holds), how and when the value was proved (method, machine,
time, positions), the published value it agrees with, and the one command that proves it again from
scratch. ``python benchmarks/results_book.py --write`` writes it from the project's records
(``results/solved.json``, the long runs in ``results/runs/``, Connect Four's record) and from the
certificate files themselves; nothing in it is typed by hand. Its ``open`` rows are the boards no
one has published the value of that oxo's long runs are settling (:class:`OpenBoard`): how far
each run has got, as of its last session.

Here the rows become values (:class:`BookEntry`, :class:`BookCertificate`), found by the name
:func:`oxo.registry.find_game` gives a game (:func:`book_entry`). A certificate is looked for in the
folders :func:`certificate_folders` lists and used only once its SHA-256 matches the book's
(:func:`checked_certificate`): a missing, truncated or altered file raises
:class:`~oxo.errors.CertificateUnavailableError` saying which file, what was found and how to get
the right one. Playing from a certificate is :mod:`oxo.book.play`; its index, built once in oxo's
cache, is :mod:`oxo.book.index`.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from oxo.errors import CertificateUnavailableError, OxoError
from oxo.phrases import listing
from oxo.proofs.results import Waiting

#: The book itself (package data).
BOOK_FILE = Path(__file__).with_name("book.json")
BOOK_FORMAT = "oxo-book/1"
#: Certificates that ship inside the package (the small ones).
PACKAGE_CERTIFICATES = Path(__file__).with_name("certificates")
#: The source tree's root, when oxo runs from a clone of its repository (editable install or
#: ``PYTHONPATH=src``): larger certificates and the long runs' state are kept there.
REPOSITORY = Path(__file__).resolve().parents[3]

Side = Literal["x", "o"]


@dataclass(frozen=True)
class BookCertificate:
    """One certificate of a proved board: a strategy for ``side`` that guarantees ``guarantee``.

    ``board`` is the board the certificate is written for, which is the book row's board or (when
    ``turned``) the same board turned a quarter (a 10x4 certificate proves 4x10: rows and columns
    swapped carry lines onto lines). ``shipped`` says where it comes from: ``"package"`` (inside
    oxo), ``"repository"`` (``results/certificates`` of oxo's source), ``"gravity"`` (Connect
    Four's, inside oxo) or ``"rebuilt"`` (too big to ship: ``make`` is the command that rebuilds it
    from the kept ``run``). ``positions``/``moves`` are the checker's figures (positions checked,
    moves of ``side`` played), for estimates of the index's build; ``check_seconds`` the processor
    time of oxo's checker recorded for the file, where the walk costs more than its positions say
    (a certificate with rules plays a search for forced chains at each of them)."""

    file: str
    board: str
    side: Side
    guarantee: str
    format: str
    entries: int
    bytes: int
    sha256: str
    sha256_text: str
    shipped: str
    positions: int = 0
    moves: int = 0
    sections: int = 0
    turned: bool = False
    make: str | None = None
    #: The kept run a ``rebuilt`` certificate is merged from, relative to the source tree's root.
    run: str | None = None
    check_seconds: float | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BookCertificate:
        return cls(**data)

    def to_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in self.__dataclass_fields__}

    @property
    def claim(self) -> str:
        """What the certificate proves, in a few words: ``X wins``, ``O does not lose``."""
        side = self.side.upper()
        if self.guarantee == "win":
            return f"{side} wins"
        if self.guarantee == "no-loss":
            return f"{side} does not lose"
        return self.guarantee  # a gravity certificate's bound, in its own words

    @property
    def check_commands(self) -> tuple[str, ...]:
        """How to check the file: with oxo, and (plain boards) with the standalone checker."""
        if self.format != "oxo-strategy/1":
            return (f"oxo verify {self.file}",)
        return (f"oxo verify {self.file}", f"python3 tools/check_strategy.py {self.file}")


def _board_fields(data: dict[str, Any]) -> dict[str, Any]:
    """A board row's fields as read from JSON, its shape and references made tuples."""
    fields = dict(data)
    fields["shape"] = tuple(fields["shape"])
    fields["references"] = tuple(
        (str(number), str(text)) for number, text in fields.get("references", ())
    )
    return fields


def _plain(value: object) -> object:
    """``value`` as JSON holds it: tuples as lists, the book's values as their dicts."""
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    to_dict = getattr(value, "to_dict", None)
    return to_dict() if callable(to_dict) else value


class _SettledOpenings:
    """What a book row with settled openings (:class:`BookOpening`, each with its certificate)
    answers about them: an open board's, and a proved board's whose own certificate is too big to
    ship, so that they are played and answered before it is rebuilt."""

    board: str
    shape: tuple[int, ...]
    k: int
    gravity: bool
    openings: tuple[BookOpening, ...]

    def openings_words(self) -> list[str]:
        """The settled openings in words, those after the same first move together: ``X wins
        after X on 0 and O on 3, 15 or 63``."""
        groups: dict[str, list[int]] = {}
        for opening in self.openings:
            first = f"{opening.value_words} after X on {opening.moves[0]}"
            groups.setdefault(first, []).extend(opening.moves[1:2])
        return [
            first if not replies else f"{first} and O on {listing(replies, 'or')}"
            for first, replies in groups.items()
        ]

    def opening_named(self, name: str) -> BookOpening | None:
        """The settled opening whose :attr:`BookOpening.name` is ``name`` (``0-3``), or None."""
        return next((o for o in self.openings if o.name == name.strip()), None)

    def settled_opening(self, name: str) -> BookOpening:
        """:meth:`opening_named`, or :class:`~oxo.errors.OxoError` naming the settled ones."""
        found = self.opening_named(name)
        if found is None:
            raise OxoError(
                f"{name.strip()[:40]!r} is not a settled opening of {self.board} (its moves' "
                f"cells joined by '-'; settled: {', '.join(o.name for o in self.openings)})"
            )
        return found

    def opening_at(self, x: int, o: int) -> BookOpening | None:
        """The settled opening that is the position (X's and O's cells as bitmasks) or an image of
        it under a map that carries lines onto lines (the board's symmetries, and on 4x4x4x4 the
        inside-out maps: :attr:`oxo.geometry.Geometry.line_symmetries`; such an image is the same
        game, with the cells renamed), or None."""
        from oxo.geometry import Geometry
        from oxo.proofs.certificate import status_masks

        geometry = Geometry(self.shape, self.k, self.gravity)
        images = {(s.apply_mask(x), s.apply_mask(o)) for s in geometry.line_symmetries}
        for opening in self.openings:
            if status_masks(opening.position) in images:
                return opening
        return None


@dataclass(frozen=True)
class BookEntry(_SettledOpenings):
    """One proved board: its value with best play, the certificates and how it was proved.

    ``board`` is the game's name as :func:`oxo.registry.find_game` gives it (``"4x4x4"``,
    ``"8x8,k=5"``, ``"6x7,k=4,gravity"``); ``value`` is ``"x"``, ``"o"`` or ``"draw"``;
    ``ending_ply`` the ply at which the game ends with best play when that is known (the quickest
    win against the slowest loss), else None. ``seconds`` is the wall time of the proof as it was
    measured (the run time of a long run), ``positions`` the positions it searched, ``command``
    the one command that proves the value again from scratch."""

    board: str
    shape: tuple[int, ...]
    k: int
    gravity: bool
    value: str
    ending_ply: int | None
    published: str
    source: str
    method: str
    machine: str
    date: str | None
    seconds: float
    positions: int
    command: str
    certificates: tuple[BookCertificate, ...]
    note: str = ""
    #: The sources ``source`` cites by number (``[3]``): (number, the reference in full).
    references: tuple[tuple[str, str], ...] = ()
    #: Positions a few moves in that the board's run settled before the board, each with a
    #: certificate of its own that ships: kept where the board's certificate does not ship, for
    #: play and answers before it is rebuilt (4x4x4x4's).
    openings: tuple[BookOpening, ...] = ()

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BookEntry:
        fields = _board_fields(data)
        fields["certificates"] = tuple(
            BookCertificate.from_dict(item) for item in fields["certificates"]
        )
        fields["openings"] = tuple(
            BookOpening.from_dict(item) for item in fields.get("openings", ())
        )
        return cls(**fields)

    def to_dict(self) -> dict[str, object]:
        return {name: _plain(getattr(self, name)) for name in self.__dataclass_fields__}

    @property
    def value_words(self) -> str:
        """The value in words: ``X wins``, ``O wins``, ``draw``."""
        return {"x": "X wins", "o": "O wins", "draw": "draw"}[self.value]

    @property
    def board_args(self) -> str:
        """The board as the command line takes it: ``8x8 --k 5``, ``6x7 --k 4 --gravity``."""
        if self.gravity:
            return f"{self.board.split(',')[0]} --k {self.k} --gravity"
        shape = "x".join(map(str, self.shape))
        return shape if self.k == min(self.shape) else f"{shape} --k {self.k}"

    def certificate_of(self, side: str) -> BookCertificate | None:
        """The certificate that gives ``side``'s moves (None when the book has none: the losing
        side of a won board, or a board whose certificates are of another kind)."""
        for certificate in self.certificates:
            if certificate.side == side and certificate.format == "oxo-strategy/1":
                return certificate
        return None

    @property
    def playable_sides(self) -> tuple[str, ...]:
        """The sides a certificate gives moves for (``("x",)`` on a board X wins, both on a draw)."""
        return tuple(side for side in ("x", "o") if self.certificate_of(side) is not None)


@functools.cache
def _book() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(BOOK_FILE.read_text(encoding="utf-8"))
    if data.get("format") != BOOK_FORMAT:
        raise AssertionError(f"{BOOK_FILE} is not an {BOOK_FORMAT} file")
    return data


@functools.cache
def proved_boards() -> tuple[BookEntry, ...]:
    """Every row of the book, in the book's order (small boards first)."""
    return tuple(BookEntry.from_dict(row) for row in _book()["boards"])


@dataclass(frozen=True)
class OpenQuestion:
    """How far a run has got with one question of an open board ("can X force a line?")."""

    attacker: Side
    #: Positions the run's jobs settled: proved (the attacker forces a line) and disproved.
    proved: int
    disproved: int
    #: Jobs still open, and the fewest of them whose values would prove the answer yes, or no.
    open_jobs: int
    fewest_to_prove: int
    fewest_to_disprove: int
    #: The attacker's first moves (cells, one of each set alike by symmetry) after which it is
    #: known to win, known not to win, and not known yet.
    wins_after: tuple[int, ...]
    no_win_after: tuple[int, ...]
    open_after: tuple[int, ...]
    #: For each first move split into the other side's replies: (the first move, replies after
    #: which the attacker wins, does not win, still open).
    replies: tuple[tuple[int, int, int, int], ...] = ()
    #: For the first move the run works on (its replies above): what each open reply waits on.
    waits_after: int | None = None
    waits: tuple[Waiting, ...] = ()
    #: The fewest open jobs that would prove the answer yes along the moves the run follows
    #: (``fewest_to_prove`` counts any unsplit move of the attacker beside them as one job away);
    #: None where none of them can (or in a row written before it was kept).
    followed_to_prove: int | None = None

    @property
    def answer(self) -> int:
        """1 where the run settled the answer yes, -1 no (its certificate is still to be merged
        and checked: a board whose certificate is checked is no longer open), 0 while open."""
        if self.fewest_to_prove or self.fewest_to_disprove:  # both 0 once the root is known
            return 0
        return 1 if self.wins_after else -1

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> OpenQuestion:
        fields = dict(data)
        for name in ("wins_after", "no_win_after", "open_after"):
            fields[name] = tuple(fields[name])
        fields["replies"] = tuple(tuple(item) for item in fields.get("replies", ()))
        fields["waits"] = tuple(Waiting.from_dict(item) for item in fields.get("waits", ()))
        return cls(**fields)

    def to_dict(self) -> dict[str, object]:
        return {name: _plain(getattr(self, name)) for name in self.__dataclass_fields__}


@dataclass(frozen=True)
class BookOpening:
    """A position a few moves into an open board that oxo's run has settled already, with the
    certificate that proves it (its walk begins at the position: the header's ``start``).
    ``moves`` reach it from the empty board, X first; ``side`` wins (``guarantee`` ``"win"``) or
    does not lose (``"no-loss"``) the game that goes on from it."""

    moves: tuple[int, ...]
    position: str
    side: Side
    guarantee: str
    certificate: BookCertificate

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BookOpening:
        fields = dict(data)
        fields["moves"] = tuple(fields["moves"])
        fields["certificate"] = BookCertificate.from_dict(fields["certificate"])
        return cls(**fields)

    def to_dict(self) -> dict[str, object]:
        return {name: _plain(getattr(self, name)) for name in self.__dataclass_fields__}

    @property
    def value_words(self) -> str:
        """``X wins`` or ``O does not lose``: what the certificate proves from the position."""
        return self.certificate.claim

    @property
    def moves_words(self) -> str:
        """The moves in words: ``X on 0, O on 3``."""
        return ", ".join(f"{'XO'[n % 2]} on {cell}" for n, cell in enumerate(self.moves))

    @property
    def name(self) -> str:
        """The moves' cells joined by ``-`` (``0-3``), as its certificate's file ends: how a
        script names the opening (:meth:`OpenBoard.opening_named`)."""
        return "-".join(map(str, self.moves))


@dataclass(frozen=True)
class OpenBoard(_SettledOpenings):
    """A board no one has published the value of, that a long proof run of oxo is settling: what
    is published, and how far the run kept in oxo's source repository (``run``) has got as of its
    last session (``date``). ``command`` continues it, from a clone of the repository."""

    board: str
    shape: tuple[int, ...]
    k: int
    gravity: bool
    published: str
    #: The board as the command line takes it (``9x8 --k 5``, ``scorefour``).
    board_args: str
    run: str
    command: str
    sessions: int
    date: str
    #: The run's wall time, its workers' time, positions searched and jobs run, in all.
    seconds: float
    worker_seconds: float
    positions: int
    jobs: int
    questions: tuple[OpenQuestion, ...]
    #: The time every open job would take at the mean cost of a job so far (None: no job yet).
    estimate_all_seconds: float | None = None
    #: The sources ``published`` cites by number (``[6]``): (number, the reference in full).
    references: tuple[tuple[str, str], ...] = ()
    #: The positions a few moves in that the run has settled, each with its certificate.
    openings: tuple[BookOpening, ...] = ()
    #: The sessions that counted the positions they settled, together: (the first's number, the
    #: last's, their seconds, positions settled); and the run time the positions still to settle
    #: along the moves the run follows take at that pace (None: no counted session settled one).
    paces: tuple[int, int, float, int] | None = None
    pace_estimate_seconds: float | None = None

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> OpenBoard:
        fields = _board_fields(data)
        fields["questions"] = tuple(OpenQuestion.from_dict(item) for item in fields["questions"])
        fields["openings"] = tuple(
            BookOpening.from_dict(item) for item in fields.get("openings", ())
        )
        if fields.get("paces") is not None:
            first, last, seconds, settled = fields["paces"]
            fields["paces"] = (int(first), int(last), float(seconds), int(settled))
        return cls(**fields)

    def to_dict(self) -> dict[str, object]:
        return {name: _plain(getattr(self, name)) for name in self.__dataclass_fields__}

    @property
    def settled(self) -> int:
        """Positions the run has settled, for every question."""
        return sum(q.proved + q.disproved for q in self.questions)

    @property
    def winner(self) -> str | None:
        """The side (``"X"``) whose question the run answered yes, its certificate still to be
        checked (:attr:`OpenQuestion.answer`); None while none is."""
        return next((q.attacker.upper() for q in self.questions if q.answer == 1), None)


@functools.cache
def open_boards() -> tuple[OpenBoard, ...]:
    """The boards whose value no one has published and oxo's runs are settling, in the book's
    order."""
    return tuple(OpenBoard.from_dict(row) for row in _book().get("open", ()))


def open_board(name: str) -> OpenBoard | None:
    """The book's record of the open board named ``name`` (a game's
    :attr:`~oxo.registry.Game.name`), or None when the book has none."""
    for entry in open_boards():
        if entry.board == name:
            return entry
    return None


def openings_row(name: str) -> OpenBoard | BookEntry | None:
    """The book's row of the game named ``name`` that lists settled openings: an open board's, or
    a proved board's whose certificate does not ship (None when neither has any)."""
    rows: tuple[OpenBoard | BookEntry | None, ...] = (book_entry(name), open_board(name))
    return next((row for row in rows if row is not None and row.openings), None)


def board_with_openings(name: str) -> OpenBoard | BookEntry:
    """:func:`openings_row`, or :class:`~oxo.errors.OxoError` saying there is none."""
    opened = openings_row(name)
    if opened is None:
        raise OxoError(
            f"oxo's runs have settled no opening of {name} (the long runs' boards, and what "
            "they have settled: 'oxo book')"
        )
    return opened


def book_entry(name: str) -> BookEntry | None:
    """The book's row of the game named ``name`` (a game's :attr:`~oxo.registry.Game.name`), or
    None when oxo has not proved it."""
    for entry in proved_boards():
        if entry.board == name:
            return entry
    return None


# -- the files ---------------------------------------------------------------------------------------


def certificate_folders() -> tuple[Path, ...]:
    """Where certificates are looked for, in order: inside the package (the small ones and
    Connect Four's), the source tree's ``results/certificates`` (in a clone of oxo's repository),
    and ``certificates`` in oxo's cache (:func:`oxo.cache.cache_root`), where
    ``oxo book build`` puts a certificate rebuilt from a kept run and where any other copy may go."""
    from oxo.cache import cache_root

    return (
        PACKAGE_CERTIFICATES,
        Path(__file__).resolve().parent.parent / "gravity" / "certificates",
        REPOSITORY / "results" / "certificates",
        cache_root() / "certificates",
    )


def find_certificate(certificate: BookCertificate) -> Path | None:
    """The first file of the certificate's name in :func:`certificate_folders`, or None."""
    for folder in certificate_folders():
        path = folder / certificate.file
        if path.is_file():
            return path
    return None


@functools.cache
def _file_digest(path: str, size: int, mtime_ns: int) -> str:
    """A file's SHA-256, computed once per process for a given size and time of change."""
    with open(path, "rb") as handle:
        return hashlib.file_digest(handle, "sha256").hexdigest()


def _text_digest(path: Path) -> str:
    import gzip

    with gzip.open(path, "rb") as inner:
        return hashlib.file_digest(inner, "sha256").hexdigest()


def checked_certificate(certificate: BookCertificate, path: Path | None = None) -> Path:
    """The certificate's file, once its SHA-256 matches the book's; otherwise
    :class:`~oxo.errors.CertificateUnavailableError` saying what is wrong and how to get it.

    The file's own SHA-256 is compared; when it differs, the SHA-256 of the text it holds (a gzip
    library of another version may compress the same text to other bytes): the same text is the
    same certificate. ``path`` checks a given file instead of looking for one."""
    found = path if path is not None else find_certificate(certificate)
    if found is None:
        raise CertificateUnavailableError(missing_message(certificate))
    try:
        stat = found.stat()
        digest = _file_digest(str(found), stat.st_size, stat.st_mtime_ns)
    except OSError as error:
        raise CertificateUnavailableError(
            f"cannot read the certificate {found} ({error.strerror or error})"
        ) from None
    if digest == certificate.sha256:
        return found
    try:
        text = _text_digest(found)
    except (OSError, EOFError, ValueError) as error:  # gzip.BadGzipFile is an OSError
        text = f"unreadable ({error})"
    if text == certificate.sha256_text:
        return found
    raise CertificateUnavailableError(
        f"the certificate {found} is not the one oxo's proof book names: its SHA-256 is "
        f"{digest} ({stat.st_size:,} bytes), the book's {certificate.sha256} "
        f"({certificate.bytes:,} bytes); it is truncated or altered, and is not played from. "
        + how_to_get(certificate)
    )


def missing_message(certificate: BookCertificate) -> str:
    """Why a certificate cannot be used when its file is nowhere to be found, and what to do."""
    return (
        f"the certificate {certificate.file} ({certificate.bytes:,} bytes) is not on this "
        "machine. " + how_to_get(certificate)
    )


def how_to_get(certificate: BookCertificate) -> str:
    """How to get the right file of a certificate, in a sentence."""
    from oxo.cache import cache_root

    if certificate.make is not None:
        return f"{certificate.make} makes it (the command says how long it takes)."
    home = {
        "package": "it ships inside oxo (reinstall oxo)",
        "gravity": "it ships inside oxo (reinstall oxo)",
        "repository": "it is in results/certificates of oxo's source repository",
    }.get(certificate.shipped, "it ships with oxo's source")
    return f"Get it again: {home}, or copy it into {cache_root() / 'certificates'}."


def shipped_here(certificate: BookCertificate) -> bool:
    """Whether the certificate's file is present (not checked: see :func:`checked_certificate`)."""
    return find_certificate(certificate) is not None


def environment_note() -> str:
    """Where oxo looks for certificates, in a sentence (for messages and ``oxo book``)."""
    folders = ", ".join(os.fspath(folder) for folder in certificate_folders())
    return f"certificates are looked for in: {folders}"


def rebuild_certificate(
    certificate: BookCertificate, on_status: Callable[[str], None] | None = None
) -> Path:
    """Write a ``rebuilt`` certificate into ``certificates`` of oxo's cache, merged again from its
    kept run (in oxo's source tree), and return its path once its SHA-256 matches the book's.

    The run's folder is copied into the cache first (the merge writes the run's state) and the copy
    removed after; the certificate is not checked here: its SHA-256 is the book's, and building
    its index walks it as a check does (:func:`oxo.book.index.build_index`). Raises
    :class:`~oxo.errors.CertificateUnavailableError` when the kept run is not here (oxo installed
    without its source tree) or the merge gives other bytes."""
    import shutil

    from oxo.cache import cache_folder, cache_lock
    from oxo.fileio import digests
    from oxo.proofs.runs import write_certificate_again

    say = on_status or (lambda text: None)
    found = find_certificate(certificate)
    if found is not None:
        return checked_certificate(certificate, found)
    if certificate.run is None:
        raise CertificateUnavailableError(missing_message(certificate))
    run = REPOSITORY / certificate.run
    if not (run / "run" / "state.json").is_file():
        raise CertificateUnavailableError(
            f"the certificate {certificate.file} is rebuilt from the proof run kept in "
            f"{certificate.run} of oxo's source repository, which is not here ({run}): work in a "
            f"clone of the repository, or copy the file into {cache_folder('certificates')}"
        )
    target = cache_folder("certificates") / certificate.file
    with cache_lock(target):
        if target.is_file():
            return checked_certificate(certificate, target)
        work = cache_folder("book") / f".rebuild-{os.getpid()}"
        shutil.rmtree(work, ignore_errors=True)
        try:
            say(f"copying the kept run {certificate.run}")
            shutil.copytree(run / "run", work / "run")
            say(
                f"merging {certificate.file} ({certificate.bytes / 1e6:,.0f} MB) from the run's pieces"
            )
            made = work / certificate.file
            write_certificate_again(work, certificate.file, made)
            sums = digests(made)
            if sums["sha256"] != certificate.sha256 and (
                sums.get("sha256_uncompressed") != certificate.sha256_text
            ):
                raise CertificateUnavailableError(
                    f"the certificate merged again from {certificate.run} has SHA-256 "
                    f"{sums['sha256']}, not the book's {certificate.sha256}: it is not used"
                )
            os.replace(made, target)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    return checked_certificate(certificate, target)
