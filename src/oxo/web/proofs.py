"""Playing against oxo's proofs on the page: what the proof book proves about a board, where its
certificates are and how to check them, and the one-time preparation perfect play needs.

The level ``perfect`` (and ``best``) plays a certificate's moves on a board the proof book holds
(:mod:`oxo.book.play`), once the certificate's index is built in oxo's cache. Building it takes
a few seconds on the small certificates and minutes on the big ones (8x8 with k=5 as O, Qubic),
so it runs in a process of its own (:class:`Preparer`, at a lower priority, as the thinkers do):
the server keeps answering, and the page shows how far the preparation is. A quick one (estimated
under :data:`oxo.book.play.AUTO_BUILD_SECONDS`) starts by itself before the computer's first move
from the proof; a long one when the person asks for it. Until a certificate is ready, ``perfect``
plays ``hard`` and says why (the engine's own note names the command that makes it ready).

:func:`board_proof` is a board's proof as the API answers it (:func:`oxo.api.proof`, plus the
page's board id, the commands that check each certificate, and the state of its preparation).
"""

from __future__ import annotations

import asyncio
import copy
import multiprocessing
import shlex
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from oxo.book import (
    BookEntry,
    BookOpening,
    OpenBoard,
    book_entry,
    find_certificate,
    missing_message,
    open_board,
    openings_row,
    proved_boards,
)
from oxo.book.index import estimate_seconds, index_folder
from oxo.book.play import FORMATS, from_openings, proof_summary, quick_to_index
from oxo.cache import BoundedCache
from oxo.engines.exact import PERFECT_LIMIT
from oxo.errors import OxoError
from oxo.game import GameState
from oxo.position import Position

#: How much lower than the server a preparation runs (Unix nice), as the thinkers do.
NICENESS = 10
#: Seconds between two progress reports of a preparation.
REPORT_SECONDS = 0.25
#: Levels that play from the proof book where a certificate covers the position.
PROOF_LEVELS = frozenset({"perfect", "best"})


def page_board(entry: BookEntry) -> dict[str, Any]:
    """How the page names a proved board: ``id`` (as its board menu and the game answers write
    it), ``kind``, ``board`` and ``k`` (the fields of ``POST /api/games``) and a ``label``."""
    from oxo.web.sessions import BOARDS

    for offered in BOARDS:  # a board the page offers already (Connect Four: by its own name)
        from oxo.registry import find_game

        if find_game(offered["board"], offered["k"]).name == entry.board:
            return {key: offered[key] for key in ("id", "kind", "board", "k")} | {
                "label": f"{offered['label']}: {_proved_words(entry)}"
            }
    shape = "x".join(map(str, entry.shape))
    return {
        "id": entry.board,
        "kind": "classic",
        "board": shape,
        "k": entry.k,
        "label": f"{shape}, {entry.k} in a row: {_proved_words(entry)}",
    }


def _proved_words(entry: BookEntry) -> str:
    """``X wins (proved)``, ``a draw (proved)``."""
    return f"{'a draw' if entry.value == 'draw' else entry.value_words} (proved)"


# -- preparing a certificate, in a process of its own ---------------------------------------------


def _prepare(  # pragma: no cover - a child process
    conn: Connection, board: str, side: str, opening: str | None = None
) -> None:
    """The preparation process: :func:`oxo.api.prepare_proof` of one side (or, with ``opening``,
    :func:`oxo.api.prepare_opening` of a settled opening of a board being proved), its progress
    sent back as ``("progress", done, total)`` and ``("status", text)``, then ``("ready",)`` or
    ``("failed", message)``."""
    import os

    try:
        os.nice(NICENESS)
    except (AttributeError, OSError):
        pass
    last = 0.0

    def progress(done: int, total: int) -> None:
        nonlocal last
        now = time.monotonic()
        if now - last >= REPORT_SECONDS or done >= total:
            last = now
            conn.send(("progress", done, total))

    def status(text: str) -> None:
        conn.send(("status", text))

    try:
        from oxo.api import prepare_opening, prepare_proof

        if opening is None:
            prepare_proof(board, side=side, on_progress=progress, on_status=status)
        else:
            prepare_opening(board, opening, on_progress=progress)
        conn.send(("ready",))
    except OxoError as error:
        conn.send(("failed", " ".join(str(error).split())))
    except Exception as error:  # a defect: said, not hidden
        conn.send(("failed", f"{type(error).__name__}: {error}"))
    finally:
        conn.close()


@dataclass
class Preparation:
    """One side's certificate of one board being prepared (its file checked, its index built), or
    the certificate of a settled ``opening`` of a board being proved (its name, ``0-3``): how far
    it is (``done`` of ``total`` positions of the certificate's walk), what it does now
    (``status``), and how it ended (``ready``, or ``failed`` with ``message``)."""

    board: str
    side: str
    file: str
    estimate: float
    started: float = field(default_factory=time.monotonic)
    done: int = 0
    total: int = 0
    #: When the last report of progress came (:func:`time.monotonic`).
    updated: float = 0.0
    status: str = "starting"
    ready: bool = False
    failed: str | None = None
    finished: threading.Event = field(default_factory=threading.Event)
    process: Any = None
    opening: str | None = None

    @property
    def running(self) -> bool:
        return not self.finished.is_set()

    def to_dict(self) -> dict[str, Any]:
        """As the API answers it: the fraction done, the seconds so far, and about how many are
        left (from the rate up to the last report once a tenth is done, else from the estimate;
        None when over)."""
        now = time.monotonic()
        seconds = now - self.started
        fraction = self.done / self.total if self.total else 0.0
        if not self.running:
            left = None
        elif fraction >= 0.1:
            whole = (self.updated - self.started) / fraction
            left = max(self.started + whole - now, 1.0)
        else:
            left = max(self.estimate - seconds, 1.0)
        return {
            "side": self.side,
            "opening": self.opening,
            "file": self.file,
            "running": self.running,
            "status": self.status,
            "done": self.done,
            "total": self.total,
            "fraction": round(fraction, 4),
            "seconds": round(seconds, 1),
            "seconds_left": None if left is None else round(left, 1),
            "ready": self.ready,
            "failed": self.failed,
        }

    async def wait(self, seconds: float) -> bool:
        """Wait (on the event loop, never blocking it) at most ``seconds`` for the end; whether
        it ended."""
        deadline = time.monotonic() + seconds
        while self.running and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        return not self.running


def _indexed(board: str, side: str, opening: str | None = None) -> bool:
    """Whether ``side``'s certificate of the book's ``board`` (or that of its settled
    ``opening``, on a board being proved) has its index in the cache now (cheap: the folder of a
    finished index, which a build writes aside and renames)."""
    certificate = None
    if opening is None:
        entry = book_entry(board)
        certificate = None if entry is None else entry.certificate_of(side)
    else:
        opened = openings_row(board)
        found = None if opened is None else opened.opening_named(opening)
        certificate = None if found is None else found.certificate
    return certificate is not None and index_folder(certificate).is_dir()


class Preparer:
    """The preparations of the server: at most one per certificate at a time (a proved board's
    side, or a settled opening of a board being proved), each in a ``spawn`` process (nothing of
    the server is inherited) read by a thread of its own."""

    def __init__(self) -> None:
        self._jobs: dict[tuple[str, str], Preparation] = {}
        self._lock = threading.Lock()

    def get(self, board: str, side: str) -> Preparation | None:
        """The last preparation of ``side``'s certificate of ``board`` (running or ended). One
        that ended ready counts only while its index is still in the cache (the cache may have
        been emptied or moved since, ``OXO_CACHE``): otherwise it is forgotten."""
        return self._get((board, side), lambda: _indexed(board, side))

    def get_opening(self, board: str, opening: str) -> Preparation | None:
        """The last preparation of the certificate of the settled ``opening`` (``0-3``) of
        ``board``, as :meth:`get`."""
        return self._get((board, opening), lambda: _indexed(board, "", opening))

    def _get(self, key: tuple[str, str], indexed: Callable[[], bool]) -> Preparation | None:
        job = self._jobs.get(key)
        if job is not None and job.ready and not indexed():
            with self._lock:
                if self._jobs.get(key) is job:
                    del self._jobs[key]
            return None
        return job

    def start(self, entry: BookEntry, side: str) -> Preparation:
        """The preparation of ``side``'s certificate of ``entry``: the one running, else a new
        one (a failed one is tried again: the file may have been put right meanwhile)."""
        certificate = entry.certificate_of(side)
        if certificate is None:
            raise OxoError(f"oxo's proof of {entry.board} has no certificate for {side.upper()}")
        self.get(entry.board, side)  # forgets a ready one whose index is gone since
        return self._start(
            (entry.board, side),
            lambda: Preparation(entry.board, side, certificate.file, estimate_seconds(certificate)),
            (entry.board, side),
        )

    def start_opening(self, board: OpenBoard | BookEntry, opening: BookOpening) -> Preparation:
        """The preparation of the certificate of a settled ``opening`` of ``board`` (a board
        being proved), as :meth:`start`."""
        certificate = opening.certificate
        self.get_opening(board.board, opening.name)
        return self._start(
            (board.board, opening.name),
            lambda: Preparation(
                board.board,
                opening.side,
                certificate.file,
                estimate_seconds(certificate),
                opening=opening.name,
            ),
            (board.board, opening.side, opening.name),
        )

    def _start(
        self, key: tuple[str, str], make: Callable[[], Preparation], args: tuple[str, ...]
    ) -> Preparation:
        """The job under ``key`` when it runs or is ready, else a new one (``make``) whose
        process runs :func:`_prepare` with ``args``."""
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and (job.running or job.ready):
                return job
            job = make()
            self._jobs[key] = job
            context = multiprocessing.get_context("spawn")
            ours, theirs = context.Pipe(duplex=False)
            job.process = context.Process(
                target=_prepare,
                args=(theirs, *args),
                name="oxo-prepare",
                daemon=True,
            )
            job.process.start()
            theirs.close()
        threading.Thread(
            target=self._follow, args=(job, ours), name="oxo-prepare-follow", daemon=True
        ).start()
        return job

    @staticmethod
    def _follow(job: Preparation, conn: Connection) -> None:
        """Read a preparation's reports until it ends (or its process does)."""
        try:
            while True:
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    break
                kind = message[0]
                if kind == "progress":
                    job.done, job.total = int(message[1]), int(message[2])
                    job.updated = time.monotonic()
                    job.status = f"checking {job.file} and putting its moves in a table"
                elif kind == "status":
                    job.status = str(message[1])
                elif kind == "ready":
                    job.ready, job.status = True, "ready"
                elif kind == "failed":
                    job.failed, job.status = str(message[1]), "failed"
            if not job.ready and job.failed is None:
                job.process.join(timeout=5)
                job.failed = (
                    f"the preparation of {job.file} stopped before it ended (its process "
                    f"exited with code {job.process.exitcode})"
                )
                job.status = "failed"
        finally:
            conn.close()
            job.finished.set()

    def close(self) -> None:
        """End the preparations still running (the server stops): a stopped build leaves
        nothing behind (:mod:`oxo.book.index` writes aside and renames)."""
        with self._lock:
            jobs = list(self._jobs.values())
        for job in jobs:
            if job.running and job.process is not None and job.process.is_alive():
                job.process.terminate()


# -- a board's proof, as the API answers it ---------------------------------------------------------


#: Seconds a board's summary is kept (every game answer carries it; looking for the files and
#: their indexes takes milliseconds that a page polling its game each second need not wait).
SUMMARY_SECONDS = 2.0
_summaries: BoundedCache[str, tuple[float, dict[str, Any] | None]] = BoundedCache(64)


def _summary(name: str) -> dict[str, Any] | None:
    """:func:`oxo.book.play.proof_summary` of ``name``, a fresh copy of one at most
    :data:`SUMMARY_SECONDS` old."""
    from oxo.cache import cache_root

    now = time.monotonic()
    key = f"{cache_root()}\n{name}"  # a test (or a user) may change the cache's folder
    kept = _summaries.get(key)
    if kept is None or now - kept[0] > SUMMARY_SECONDS:
        kept = _summaries.put(key, (now, proof_summary(name)))
    return copy.deepcopy(kept[1])


def board_proof(
    name: str, preparer: Preparer | None = None, state: GameState | None = None
) -> dict[str, Any] | None:
    """What oxo has proved about the game named ``name`` (:func:`oxo.api.proof`'s keys), or None:
    plus ``page`` (how the page names the board) and, per side, ``check`` (the commands that check
    the certificate: ``oxo verify FILE``, and the standalone checker), ``quick`` (its preparation
    starts by itself), ``missing`` (why the file is not here and how to get it) and
    ``preparing`` (:meth:`Preparation.to_dict`, when one was started); ``openings``
    (:func:`openings_part`, for the position ``state``) when its certificates are not here and
    perfect plays from the openings its run settled first, else None. Cheap: nothing is
    hashed."""
    summary = _summary(name)
    entry = book_entry(name)
    if summary is None or entry is None:
        return None
    sides: dict[str, Any] = summary["sides"]
    for certificate in entry.certificates:
        data = sides.get(certificate.side)
        if data is None or data.get("file") != certificate.file:
            continue
        played = certificate.format in FORMATS
        where = data["path"]
        data["check"] = [
            command if where is None else command.replace(certificate.file, shlex.quote(where))
            for command in certificate.check_commands
        ]
        data["quick"] = (not played) or quick_to_index(certificate)
        data["missing"] = None if data["path"] is not None else missing_message(certificate)
        job = None if preparer is None else preparer.get(entry.board, certificate.side)
        data["preparing"] = None if job is None else job.to_dict()
        if job is not None and job.ready and played:
            data["ready"], data["indexed"] = True, True
            data["make"], data["make_seconds"] = None, None
        elif job is not None and job.failed is not None and not data["indexed"]:
            # not played from (perfect plays hard): the page says why, and may try again
            data["ready"], data["make"] = False, f"oxo book {entry.board_args} --index"
            data["make_seconds"] = round(estimate_seconds(certificate), 1)
    summary["page"] = page_board(entry)
    summary["references"] = [list(item) for item in entry.references]
    summary["openings"] = openings_part(entry, preparer, state) if from_openings(entry) else None
    return summary


#: The settled openings found under a position of a board being proved, by (board, X, O): a page
#: polling its game each second asks again about the same position.
_under: BoundedCache[tuple[str, int, int], list[str]] = BoundedCache(256)


def _openings_under(opened: OpenBoard | BookEntry, state: Position) -> list[str]:
    """The names of the settled openings whose marks (or an image's) the position holds."""
    key = (opened.board, state.x, state.o)
    found = _under.get(key)
    if found is None:
        from oxo.book.play import OpeningsBook

        names = [o.name for o in OpeningsBook(opened).openings_under(state)]
        found = _under.put(key, names)
    return list(found)


def open_proof(
    name: str, preparer: Preparer | None = None, state: GameState | None = None
) -> dict[str, Any] | None:
    """How far oxo's run of the game named ``name`` has got, on a board no one has published the
    value of (:class:`oxo.book.OpenBoard`'s keys, plus ``answers``: each question's
    :attr:`~oxo.book.OpenQuestion.answer`, 1 or -1 once the run settled it, 0 while open;
    ``openings_words``: the settled openings
    in words, :meth:`~oxo.book.OpenBoard.openings_words`, and ``index_command``: the command that
    indexes their certificates for perfect play); None on any other board. ``openings_here``
    says, for each settled opening (in the book's order), whether perfect can play from its
    certificate on this machine: ``name`` (``0-3``), ``side``, ``words`` (its moves), ``file``,
    ``here`` (the file is on this machine), ``indexed``, ``index_seconds`` (about how long
    indexing takes) and ``preparing`` (:meth:`Preparation.to_dict`, when one was started); and
    ``under``: the names of those the position ``state`` holds (its marks include the opening's,
    or an image's), where perfect plays from their certificates."""
    opened = open_board(name)
    if opened is None:
        return None
    return {
        **opened.to_dict(),
        "answers": [q.answer for q in opened.questions],
        **openings_part(opened, preparer, state),
    }


def openings_part(
    opened: OpenBoard | BookEntry, preparer: Preparer | None = None, state: GameState | None = None
) -> dict[str, Any]:
    """The settled openings of a book row as the page shows them (:func:`open_proof`'s
    ``openings_words``, ``index_command``, ``openings_here`` and ``under``): an open board's, or
    a proved board's played from them (:func:`oxo.book.play.from_openings`)."""
    here = []
    for opening in opened.openings:
        certificate = opening.certificate
        job = None if preparer is None else preparer.get_opening(opened.board, opening.name)
        here.append(
            {
                "name": opening.name,
                "side": opening.side,
                "words": opening.moves_words,
                "file": certificate.file,
                "here": find_certificate(certificate) is not None,
                "indexed": index_folder(certificate).is_dir(),
                "index_seconds": round(estimate_seconds(certificate), 1),
                "preparing": None if job is None else job.to_dict(),
            }
        )
    under: list[str] = []
    if isinstance(state, Position) and opened.openings and not opened.gravity:
        under = _openings_under(opened, state)
    return {
        "openings_words": opened.openings_words(),
        "index_command": f"oxo book {opened.board_args} --index",
        "openings_here": here,
        "under": under,
    }


def proved_page_boards() -> list[dict[str, Any]]:
    """Every board of the book as the page's board menu lists it (:func:`page_board`), with what
    is proved (``value``, ``value_words``) and each side's claim: static, for ``/api/info``."""
    out = []
    for entry in proved_boards():
        claims = {
            certificate.side: certificate.claim
            for certificate in entry.certificates
            if certificate.format in FORMATS or entry.gravity
        }
        out.append(
            {
                **page_board(entry),
                "name": entry.board,
                "value": entry.value,
                "value_words": entry.value_words,
                "claims": claims,
            }
        )
    return out


def needs_preparing(
    name: str, side: str, level: str, state: GameState, preparer: Preparer
) -> Preparation | None:
    """The preparation the computer's move in ``state`` must wait for, when it plays ``side`` at
    ``level`` on the game named ``name``: a certificate of the book whose index is not built yet,
    whose file is here and whose build is quick (a long one waits for the person to ask: the move
    plays hard meanwhile). None where the exact solver plays (a position of at most
    :data:`~oxo.engines.exact.PERFECT_LIMIT` empty cells: small boards never wait), or nothing is
    to wait for. Started here when it is not running."""
    if level not in PROOF_LEVELS or len(state.legal_moves) <= PERFECT_LIMIT:
        return None
    entry = book_entry(name)
    if entry is None:
        return None
    certificate = entry.certificate_of(side)
    if certificate is None or certificate.format not in FORMATS:
        return None
    if not quick_to_index(certificate):
        return None  # a long one: hard plays until it is ready, even while it is prepared
    job = preparer.get(entry.board, side)
    if job is not None:
        return job if job.running else None
    from oxo.book.index import load_index

    if load_index(certificate) is not None or find_certificate(certificate) is None:
        return None
    return preparer.start(entry, side)


def proof_hint(name: str, state: Position) -> dict[str, Any] | None:
    """A hint from oxo's proof of the game named ``name``: the move of a certificate that covers
    ``state`` for the side to move (``/hint``'s keys), or None where none does or its index is not
    built yet (a hint never waits for one)."""
    from oxo.book.play import board_book

    book = board_book(name, build=False)
    if book is None or state.to_move is None:
        return None
    advice = book.advise(state)
    if advice.move is None:
        return None
    return {
        "move": advice.move,
        "moves": [advice.move],
        "text": f"{advice.move}: the move of oxo's proof ({advice.note})",
        "value": None,
    }
