"""Certificate fragments of a split proof run, and their streamed merge into one certificate.

A *fragment* is the strategy of one settled job of a run (:mod:`oxo.proofs.runs`): the entries of
the proof (or disproof) of "can the attacker force a line from this position?", written by the
worker as gzip JSON lines. Line 1 describes it::

    {"fragment": "oxo-proof-run/1", "dims": [5, 5], "k": 4, "attacker": "x", "root": "<status>",
     "value": "proven", "side": "x", "entries": 12}

(``side`` is whose strategy the entries are: the attacker's for ``proven``, the defender's for
``disproven``); every other line is a certificate entry exactly as in ``oxo-strategy/1``
(:mod:`oxo.proofs.certificate`).

:func:`merge_certificate` writes the board's certificate from the entries of the top of the run's
tree (the moves that lead from the empty board to the jobs) and the fragments of the jobs, as a
sectioned ``oxo-strategy/1`` file: section 0 the top and the small fragments, then one section per
bigger fragment, its root the fragment's root. Entries are copied as they are read: the
certificate is never whole in memory, and neither is any fragment but the one being copied.

The fragments of one question of a run live in a :class:`FragmentPack` (a few files of at most
about 32 MB each).
"""

from __future__ import annotations

import gzip
import io
import json
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from oxo.errors import CertificateFileError
from oxo.geometry import Geometry
from oxo.proofs.certificate import (
    Guarantee,
    MoveEntry,
    PairingEntry,
    Side,
    StrategyHeader,
    open_certificate,
    status_string,
)
from oxo.proofs.rules import Rules
from oxo.proofs.strategy import Entry

FRAGMENT = "oxo-proof-run/1"

#: An offset into a :class:`FragmentPack` holds its chunk's number from this bit up.
CHUNK_SHIFT = 40
CHUNK_MASK = (1 << CHUNK_SHIFT) - 1


@dataclass(frozen=True)
class Fragment:
    """What line 1 of a fragment file says: the job's root, its value and the entries' count."""

    attacker: Side
    root: str
    proven: bool
    entries: int

    @property
    def side(self) -> Side:
        """Whose strategy the entries are."""
        if self.proven:
            return self.attacker
        return "o" if self.attacker == "x" else "x"


def certificate_lines(geometry: Geometry, entries: Iterable[Entry]) -> Iterator[dict[str, object]]:
    """The certificate entries (as their JSON objects) of a search's strategy."""
    for entry in entries:
        status = status_string(entry.x, entry.o, geometry.size)
        if entry.pairing is not None:
            yield PairingEntry(status, entry.pairing).to_dict()
        else:
            assert entry.move is not None
            yield MoveEntry(status, entry.move).to_dict()


def encode_fragment(
    geometry: Geometry, attacker: Side, x: int, o: int, proven: bool, entries: Sequence[Entry]
) -> bytes:
    """A fragment file's bytes: the strategy ``entries`` settling (x, o) for ``attacker``."""
    head = {
        "fragment": FRAGMENT,
        "dims": list(geometry.shape),
        "k": geometry.k,
        "attacker": attacker,
        "root": status_string(x, o, geometry.size),
        "value": "proven" if proven else "disproven",
        "side": attacker if proven else ("o" if attacker == "x" else "x"),
        "entries": len(entries),
    }
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, compresslevel=6, mtime=0) as handle:
        lines = [json.dumps(head, separators=(",", ":"))]
        lines.extend(
            json.dumps(line, separators=(",", ":")) for line in certificate_lines(geometry, entries)
        )
        handle.write(("\n".join(lines) + "\n").encode("utf-8"))
    return out.getvalue()


def decode_fragment(data: bytes) -> tuple[Fragment, Iterator[dict[str, object]]]:
    """What a fragment's bytes hold: its line 1, and its entries one JSON object at a time."""
    try:
        lines = gzip.decompress(data).decode("utf-8").splitlines()
        head = json.loads(lines[0])
        if not isinstance(head, dict) or head.get("fragment") != FRAGMENT:
            raise ValueError("no fragment header")
        fragment = Fragment(
            head["attacker"], head["root"], head["value"] == "proven", int(head["entries"])
        )
    except (OSError, EOFError, ValueError, KeyError, TypeError, IndexError):
        raise CertificateFileError("not a fragment of a proof run") from None
    return fragment, (json.loads(line) for line in lines[1:] if line.strip())


class FragmentPack:
    """The fragments of one question of a run, appended one after another to a few files.

    Each record is the four bytes ``oxof``, the length of the fragment's bytes (8 bytes, big-endian)
    and those bytes; a record is found again by its offset. Appending never rewrites what is there,
    so a kill loses at most the record being written, which :meth:`scan` drops (it ends the pack at
    the last whole record). :meth:`sync` makes what was appended durable; the run does it before
    each write of its state, which names records by their offsets.

    The records go to *chunks*: ``fragments-x.pack`` first, then ``fragments-x.1.pack``,
    ``fragments-x.2.pack``, ... A new chunk starts when the last one holds ``chunk_bytes`` or more,
    so a long run's pack never becomes one file too big to keep in a repository, and a chunk once
    full never changes again. An offset names the chunk in its bits from :data:`CHUNK_SHIFT` up
    and the place in the chunk below them; offsets of the first chunk are plain file offsets."""

    MAGIC = b"oxof"
    #: A chunk is full when it holds this many bytes (it may exceed it by its last record).
    CHUNK_BYTES = 32 << 20

    def __init__(self, path: Path, chunk_bytes: int = CHUNK_BYTES) -> None:
        self.path = path
        self.chunk_bytes = chunk_bytes
        self._handle: io.BufferedRandom | None = None
        self._handle_chunk = -1

    def chunk_path(self, chunk: int) -> Path:
        """The file of chunk number ``chunk``."""
        if chunk == 0:
            return self.path
        return self.path.with_name(f"{self.path.stem}.{chunk}{self.path.suffix}")

    def chunks(self) -> list[Path]:
        """The pack's chunk files that exist, in order."""
        found: list[Path] = []
        while self.chunk_path(len(found)).exists():
            found.append(self.chunk_path(len(found)))
        return found

    def _last(self) -> tuple[int, int]:
        """The last chunk's number and size (chunk 0, size 0, when there is none)."""
        chunks = self.chunks()
        if not chunks:
            return 0, 0
        return len(chunks) - 1, chunks[-1].stat().st_size

    def _open(self, chunk: int) -> io.BufferedRandom:
        if self._handle_chunk != chunk:
            self.close()
        if self._handle is None:
            path = self.chunk_path(chunk)
            path.touch(exist_ok=True)
            self._handle = open(path, "r+b")  # noqa: SIM115  # kept open for the run
            self._handle_chunk = chunk
        return self._handle

    def size(self) -> int:
        """The offset just after the last record (0 when the pack is empty)."""
        chunk, size = self._last()
        return (chunk << CHUNK_SHIFT) | size

    def append(self, data: bytes) -> int:
        """Add one fragment's bytes at the end; return the record's offset."""
        chunk, size = self._last()
        if size >= self.chunk_bytes:
            if self._handle is not None and self._handle_chunk == chunk:
                self.sync()  # a full chunk is durable before the next one starts
            chunk += 1
        handle = self._open(chunk)
        local = handle.seek(0, os.SEEK_END)
        handle.write(self.MAGIC + len(data).to_bytes(8, "big") + data)
        handle.flush()
        return (chunk << CHUNK_SHIFT) | local

    def read(self, offset: int) -> bytes:
        """The fragment's bytes of the record at ``offset``."""
        path = self.chunk_path(offset >> CHUNK_SHIFT)
        local = offset & CHUNK_MASK
        try:
            with open(path, "rb") as handle:
                data = self._record(handle, local)
        except FileNotFoundError:
            raise CertificateFileError(f"{path}: no such file (a part of the pack)") from None
        if data is None:
            raise CertificateFileError(f"{path}: no whole fragment at offset {local}")
        return data

    @classmethod
    def _record(cls, handle: BinaryIO, local: int) -> bytes | None:
        """The fragment's bytes of the record at ``local`` in a chunk, or None when no whole
        record starts there (the end of the chunk, or a record cut short)."""
        handle.seek(local)
        head = handle.read(12)
        if len(head) < 12 or head[:4] != cls.MAGIC:
            return None
        length = int.from_bytes(head[4:], "big")
        data = handle.read(length)
        return data if len(data) == length else None

    def holds(self, offset: int) -> bool:
        """Whether a whole record starts at ``offset``."""
        try:
            self.read(offset)
        except (CertificateFileError, OSError):
            return False
        return True

    def scan(self, start: int) -> Iterator[tuple[int, Fragment]]:
        """(offset, line 1) of every whole record from ``start`` on; the pack is cut after the
        last whole one (a record cut short by a kill is dropped, and any chunk after it)."""
        chunks = self.chunks()
        chunk, local = start >> CHUNK_SHIFT, start & CHUNK_MASK
        while chunk < len(chunks):
            path = chunks[chunk]
            with open(path, "rb") as handle:
                while (data := self._record(handle, local)) is not None:
                    try:
                        fragment, _ = decode_fragment(data)
                    except CertificateFileError:
                        break
                    yield (chunk << CHUNK_SHIFT) | local, fragment
                    local += 12 + len(data)
            if local < path.stat().st_size:
                writer = self._open(chunk)
                writer.truncate(local)
                writer.flush()
                for later in chunks[chunk + 1 :]:
                    later.unlink()
                return
            chunk, local = chunk + 1, 0

    def sync(self) -> None:
        """Make every record appended so far durable (fsync)."""
        if self._handle is not None:
            self._handle.flush()
            os.fsync(self._handle.fileno())

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
            self._handle_chunk = -1


@dataclass(frozen=True)
class Section:
    """One fragment to copy into a merged certificate: its root (a status string), where it is
    (a pack and an offset) and its number of entries."""

    root: str
    pack: Path
    offset: int
    entries: int
    #: A permutation of the cells the fragment's entries are carried over by (``perm[c]`` the image
    #: of cell c; it maps lines onto lines), when the position that needs them is an image of the
    #: fragment's root that the board's own symmetries do not give; ``root`` is then that image.
    perm: tuple[int, ...] | None = None


def carried(line: dict[str, object], perm: Sequence[int]) -> dict[str, object]:
    """A certificate entry (its JSON object) carried over by the cell permutation ``perm``."""
    position = str(line["position"])
    image = ["0"] * len(position)
    for cell, mark in enumerate(position):
        image[perm[cell]] = mark
    out: dict[str, object] = {**line, "position": "".join(image)}
    move = line.get("move")
    if isinstance(move, int):
        out["move"] = perm[move]
    pairing = line.get("pairing")
    if isinstance(pairing, list):
        out["pairing"] = [[perm[a], perm[b]] for a, b in pairing]
    return out


#: Fragments of at most this many entries are copied into section 0 rather than given a section
#: of their own: the walk from the empty board checks them, and the header stays short.
INLINE_ENTRIES = 16


def merge_certificate(
    path: str | os.PathLike[str],
    geometry: Geometry,
    side: Side,
    guarantee: Guarantee,
    top: Sequence[MoveEntry],
    sections: Sequence[Section],
    inline_up_to: int = INLINE_ENTRIES,
    rules: Rules | None = None,
    start: str | None = None,
) -> int:
    """Write the board's certificate from the top entries and the fragments, streamed and atomic;
    return the number of entries. ``rules``: the rules its header names, those the fragments'
    searches left moves to (:func:`oxo.proofs.search.certificate_rules`); ``start``: the position
    (a status string) the certificate's walk begins at, when not the empty board (the header's
    ``start``).

    Section 0 holds the top entries and the small fragments (at most ``inline_up_to`` entries);
    every bigger fragment is a section of its own. A certificate without such sections, or made of
    one fragment rooted where the walk begins, is written plain (no sections in its header)."""
    small = [section for section in sections if section.entries <= inline_up_to]
    big = [section for section in sections if section.entries > inline_up_to]
    first = len(top) + sum(section.entries for section in small)
    begin = start or "0" * geometry.size
    whole_board = first == 0 and len(big) == 1 and big[0].root == begin
    plain = not big or whole_board
    header = StrategyHeader(
        geometry.shape,
        geometry.k,
        side,
        guarantee,
        None if plain else ((None, first), *((section.root, section.entries) for section in big)),
        rules or Rules(),
        gravity=geometry.gravity,
        start=start,
    )
    packs: dict[Path, FragmentPack] = {}
    with open_certificate(path, header) as writer:
        for entry in top:
            writer.write(entry)
        for section in [*small, *big]:
            pack = packs.setdefault(section.pack, FragmentPack(section.pack))
            _, lines = decode_fragment(pack.read(section.offset))
            for line in lines:
                writer.write(line if section.perm is None else carried(line, section.perm))
    return writer.count
