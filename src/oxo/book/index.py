"""The index of a certificate: the moves its checker's walk plays, built once and kept in oxo's cache.

A certificate (``oxo-strategy/1``, :mod:`oxo.proofs.certificate`) maps classes of positions to moves,
but "any entry's move" is not always a good move: the checker accepts a class given more than once
when one of its moves works, and a file may hold entries its walk never reaches. So the index holds
what the walk itself used: it *is* the walk (:func:`~oxo.proofs.certificate.verify_certificate`,
told every accepted move and pairing as a :class:`~oxo.proofs.certificate.WalkStep`), and a
class is in it only when the walk accepted it, with the move (or the pairing) that made it accept.
From an indexed position of the certificate's side, its move leads to a position the walk accepted,
whose every reply leads to indexed positions again (or to ones the board alone decides, or to a
pairing): playing from the index keeps the certificate's guarantee.

Building takes as long as a check (seconds for the small certificates, minutes for 8x8's 41 MB,
about an hour for Qubic's 57 MB), so it is done once: into a folder of oxo's cache
(:func:`oxo.cache.cache_folder`), written aside and renamed into place (a stopped build leaves
nothing), under a lock (processes that want the same index wait for one build). After that a lookup
is a binary search in arrays read from disk as needed (``numpy`` memory maps): well under a second.

The folder: ``keys_x.npy``, ``keys_o.npy`` (the classes' X and O masks, sorted), ``moves.npy`` (the
move of each, in the class's orientation); ``pairs_x.npy``, ``pairs_o.npy``, ``pairs_start.npy``,
``pairs_cells.npy`` (the positions of the opponent to move where a pairing held, and the pairs);
``meta.json`` (the certificate's SHA-256, what the build took). On a board of at most 64 cells a
mask is one ``uint64``; on a larger one (4x4x4x4's 256 cells) the mask arrays have a row of
:func:`mask_words` words per class, the most significant word first, so that rows sort as the masks
do; moves and pairs' cells are ``uint16`` past 256 cells.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from oxo.book import BookCertificate, checked_certificate
from oxo.cache import cache_folder, cache_lock
from oxo.errors import CertificateUnavailableError
from oxo.fileio import atomic_writer, write_atomic

if TYPE_CHECKING:
    from oxo.proofs.certificate import WalkStep

#: Changes when the folder's layout or what it holds changes (an older index is built again).
INDEX_VERSION = 1
#: Classes held in Python before they go into arrays (bounds the memory of a long build).
CHUNK = 1 << 20

#: Reports (positions checked so far, positions the certificate holds) during a build.
BuildProgress = Callable[[int, int], None]

#: Bits of one word of a mask in an index's arrays.
WORD_BITS = 64
WORD_MASK = (1 << WORD_BITS) - 1


def words_of(size: int) -> int:
    """How many words a mask of a board of ``size`` cells takes in an index."""
    return max(1, -(-size // WORD_BITS))


def mask_words(mask: int, words: int) -> tuple[int, ...]:
    """A mask as ``words`` words, the most significant first."""
    return tuple(mask >> (WORD_BITS * (words - 1 - number)) & WORD_MASK for number in range(words))


def words_mask(row: Iterable[int]) -> int:
    """The mask of a row of words (:func:`mask_words`'s inverse)."""
    mask = 0
    for word in row:
        mask = mask << WORD_BITS | int(word)
    return mask


def _columns(masks: list[int], words: int) -> np.ndarray:
    """Masks as an array: one ``uint64`` each for one word, else a row of ``words`` each."""
    if words == 1:
        return np.fromiter(masks, np.uint64, len(masks))
    rows = [mask_words(mask, words) for mask in masks]
    return np.array(rows, np.uint64).reshape(len(masks), words)


def _cell_type(size: int) -> type[np.unsignedinteger[Any]]:
    return np.uint8 if size <= 256 else np.uint16


def index_folder(certificate: BookCertificate) -> Path:
    """The cache folder of the certificate's index (not created)."""
    stem = certificate.file.removesuffix(".jsonl.gz")
    return cache_folder("book") / f"{stem}-{certificate.sha256[:16]}-v{INDEX_VERSION}"


def estimate_seconds(certificate: BookCertificate) -> float:
    """About how long building the certificate's index takes here (an upper estimate)."""
    from oxo.proofs.certificate import CHECK_RATE

    if certificate.check_seconds is not None:
        return 2.0 + 1.5 * certificate.check_seconds
    return 2.0 + certificate.positions / CHECK_RATE


class _Recorder:
    """Keeps what the walk accepted: each class's move and each pairing that held, in arrays as
    the walk goes (the first told for a class is kept: every one told was accepted)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.words = words_of(size)
        self.mask = (1 << size) - 1
        self.moves: dict[int, int] = {}
        self.pairings: dict[int, tuple[tuple[int, int], ...]] = {}
        self.chunks: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def __call__(self, step: WalkStep) -> None:
        """The walk's observer (:data:`oxo.proofs.certificate.WalkObserver`): each class's move or
        pairing, in the class's orientation."""
        if isinstance(step.canonical, int):
            self.moves.setdefault(step.key, step.canonical)
            if len(self.moves) >= CHUNK:
                self.flush()
        else:
            self.pairings.setdefault(step.key, step.canonical)

    def _masks(self, keys: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """The X masks and the O masks of class keys, as arrays."""
        return (
            _columns([key >> self.size for key in keys], self.words),
            _columns([key & self.mask for key in keys], self.words),
        )

    def flush(self) -> None:
        if not self.moves:
            return
        xs, os_ = self._masks(list(self.moves))
        moves = np.fromiter(self.moves.values(), _cell_type(self.size), len(self.moves))
        self.chunks.append((xs, os_, moves))
        self.moves = {}

    def arrays(self) -> dict[str, np.ndarray]:
        """The index's arrays: the moves sorted by class (each class once), and the pairings."""
        self.flush()
        if self.chunks:
            xs = np.concatenate([chunk[0] for chunk in self.chunks])
            os_ = np.concatenate([chunk[1] for chunk in self.chunks])
            moves = np.concatenate([chunk[2] for chunk in self.chunks])
        else:
            xs, os_ = self._masks([])
            moves = np.zeros(0, _cell_type(self.size))
        # By X's mask, then O's, each by its most significant word first (lexsort: last key first).
        order = np.lexsort([*_by_word(os_)[::-1], *_by_word(xs)[::-1]])
        xs, os_, moves = xs[order], os_[order], moves[order]
        if len(xs) > 1:  # a class told in two sections: keep one (both were accepted)
            keep = np.ones(len(xs), bool)
            keep[1:] = _differs(xs) | _differs(os_)
            xs, os_, moves = xs[keep], os_[keep], moves[keep]
        keys = sorted(self.pairings)
        starts = [0]
        cells: list[int] = []
        for key in keys:
            for a, b in self.pairings[key]:
                cells += (a, b)
            starts.append(len(cells))
        pairs_x, pairs_o = self._masks(keys)
        return {
            "keys_x": xs,
            "keys_o": os_,
            "moves": moves,
            "pairs_x": pairs_x,
            "pairs_o": pairs_o,
            "pairs_start": np.array(starts, np.uint32),
            "pairs_cells": np.array(cells, _cell_type(self.size)),
        }


def _by_word(masks: np.ndarray) -> list[np.ndarray]:
    """The columns of a mask array, the most significant word first."""
    return [masks] if masks.ndim == 1 else [masks[:, number] for number in range(masks.shape[1])]


def _differs(masks: np.ndarray) -> np.ndarray:
    """Whether each row of a mask array but the first differs from the row before it."""
    changed = masks[1:] != masks[:-1]
    return changed if masks.ndim == 1 else np.any(changed, axis=1)


@dataclass(frozen=True)
class StrategyIndex:
    """A built index, read from its folder (arrays mapped from disk): the walk's move of a class
    (:meth:`move_of`), and the pairings that held (:meth:`pairing_of`, :attr:`pairs_x`...)."""

    folder: Path
    meta: dict[str, Any]
    keys_x: np.ndarray
    keys_o: np.ndarray
    moves: np.ndarray
    pairs_x: np.ndarray
    pairs_o: np.ndarray
    pairs_start: np.ndarray
    pairs_cells: np.ndarray

    @classmethod
    def load(cls, folder: Path) -> StrategyIndex:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        arrays = {
            name: np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False)
            for name in (
                "keys_x",
                "keys_o",
                "moves",
                "pairs_x",
                "pairs_o",
                "pairs_start",
                "pairs_cells",
            )
        }
        return cls(folder, meta, **arrays)

    def __len__(self) -> int:
        return len(self.keys_x)

    @property
    def words(self) -> int:
        """Words per mask in the arrays (1: one ``uint64`` each, a board of at most 64 cells)."""
        return 1 if self.keys_x.ndim == 1 else int(self.keys_x.shape[1])

    def keys(self) -> list[tuple[int, int]]:
        """Every class's (X mask, O mask), in the arrays' order."""
        return list(zip(_masks_of(self.keys_x), _masks_of(self.keys_o), strict=True))

    def pairings_within(self, x: int, o: int) -> list[int]:
        """The pairings (numbers, as :meth:`pairs_at` takes) whose position's marks are all
        among ``x``'s and ``o``'s."""
        if not len(self.pairs_x):
            return []
        outside_x = np.array(mask_words(~x & _all(self.words), self.words), np.uint64)
        outside_o = np.array(mask_words(~o & _all(self.words), self.words), np.uint64)
        pairs_x = self.pairs_x.reshape(len(self.pairs_x), -1)
        pairs_o = self.pairs_o.reshape(len(self.pairs_o), -1)
        inside = np.all((pairs_x & outside_x) == 0, axis=1) & np.all(
            (pairs_o & outside_o) == 0, axis=1
        )
        return [int(row) for row in np.nonzero(inside)[0]]

    def pairing_marks(self, number: int) -> int:
        """How many marks the position of the ``number``-th pairing has."""
        return sum(
            words_mask(np.atleast_1d(masks[number]).tolist()).bit_count()
            for masks in (self.pairs_x, self.pairs_o)
        )

    def move_of(self, x: int, o: int) -> int | None:
        """The walk's move in the class whose key is (``x``, ``o``) (its least image), or None."""
        return _lookup(self.keys_x, self.keys_o, x, o, self.moves)

    def pairing_of(self, x: int, o: int) -> tuple[tuple[int, int], ...] | None:
        """The pairing that held at the class (``x``, ``o``) of the opponent to move, or None."""
        found = _lookup(self.pairs_x, self.pairs_o, x, o, None)
        return None if found is None else self.pairs_at(found)

    def pairs_at(self, number: int) -> tuple[tuple[int, int], ...]:
        """The pairs of the ``number``-th pairing (in the order of :attr:`pairs_x`)."""
        start, end = int(self.pairs_start[number]), int(self.pairs_start[number + 1])
        cells = [int(cell) for cell in self.pairs_cells[start:end]]
        return tuple(zip(cells[::2], cells[1::2], strict=True))


def _all(words: int) -> int:
    return (1 << (WORD_BITS * words)) - 1


def _masks_of(masks: np.ndarray) -> list[int]:
    """The masks of an array of them (one word each, or rows of words)."""
    if masks.ndim == 1:
        return [int(mask) for mask in masks.tolist()]
    return [words_mask(row) for row in masks.tolist()]


def _lookup(
    xs: np.ndarray, os_: np.ndarray, x: int, o: int, values: np.ndarray | None
) -> int | None:
    """Binary search of (x, o) in mask arrays sorted by X then O (word by word, the most
    significant first): the value there (or its row when ``values`` is None), None when absent."""
    if not len(xs):
        return None
    low, high = 0, len(xs)
    for masks, mask in ((xs, x), (os_, o)):
        columns = _by_word(masks)
        for column, word in zip(columns, mask_words(mask, len(columns)), strict=True):
            part = column[low:high]
            query = np.uint64(word)
            start = int(np.searchsorted(part, query, "left"))
            end = int(np.searchsorted(part, query, "right"))
            if start == end:
                return None
            low, high = low + start, low + end
    return low if values is None else int(values[low])


def load_index(certificate: BookCertificate) -> StrategyIndex | None:
    """The certificate's index when it is built (for this certificate, this layout), else None."""
    folder = index_folder(certificate)
    try:
        index = StrategyIndex.load(folder)
    except (OSError, ValueError, KeyError):
        return None
    meta = index.meta
    if meta.get("sha256") != certificate.sha256 or meta.get("version") != INDEX_VERSION:
        return None
    return index


def build_index(
    certificate: BookCertificate,
    *,
    on_progress: BuildProgress | None = None,
    path: Path | None = None,
) -> StrategyIndex:
    """The certificate's index, built now when it is not built yet (see the module's text).

    The file is found and its SHA-256 compared first (:func:`~oxo.book.checked_certificate`);
    a certificate that fails its own check (it cannot, once its SHA-256 matches) raises
    :class:`~oxo.errors.CertificateUnavailableError`. ``on_progress`` gets the positions checked
    so far and the positions the certificate holds. Ctrl-C stops the build and leaves nothing."""
    from oxo.proofs.certificate import verify_certificate

    found = load_index(certificate)
    if found is not None:
        return found
    file = checked_certificate(certificate, path)
    folder = index_folder(certificate)
    with cache_lock(folder):
        found = load_index(certificate)  # another process built it while this one waited
        if found is not None:
            return found
        started = time.perf_counter()
        header = _header_of(file)
        recorder = _Recorder(_cells_of(header))
        total = certificate.positions

        def progress(read: int, entries: int, checked: int) -> None:
            if on_progress is not None:
                on_progress(checked, total)

        result = verify_certificate(file, on_progress=progress, observer=recorder)
        if not result.valid:
            raise CertificateUnavailableError(
                f"the certificate {file} does not check ({result}); it is not played from"
            )
        arrays = recorder.arrays()
        meta = {
            "version": INDEX_VERSION,
            "file": certificate.file,
            "sha256": certificate.sha256,
            "board": result.board,
            "k": result.k,
            "side": result.side,
            "guarantee": result.guarantee,
            "positions_checked": result.positions_checked,
            "moves": len(arrays["moves"]),
            "pairings": len(arrays["pairs_x"]),
            "build_seconds": round(time.perf_counter() - started, 3),
            # The certificate's header as written: a player classes positions as its checker did
            # (a header may name more than the board, such as the rules a format adds).
            "header": header,
        }
        _write_folder(folder, arrays, meta)
        if on_progress is not None:
            on_progress(total, total)
    index = load_index(certificate)
    if index is None:
        raise AssertionError(f"the index just built in {folder} does not read back")
    return index


def _header_of(path: Path) -> dict[str, Any]:
    """The header line of a certificate file, as JSON."""
    import gzip

    with gzip.open(path, "rt", encoding="utf-8") as handle:
        header: dict[str, Any] = json.loads(handle.readline())
    return header


def _cells_of(header: dict[str, Any]) -> int:
    """The number of cells of the board a certificate's header names."""
    from oxo.proofs.certificate import StrategyHeader

    return StrategyHeader.from_dict(header).geometry.size


def _write_folder(folder: Path, arrays: dict[str, np.ndarray], meta: dict[str, object]) -> None:
    """Write the index beside its place and rename it there (a stop leaves nothing half made)."""
    aside = folder.with_name(f".{folder.name}.{os.getpid()}.tmp")
    shutil.rmtree(aside, ignore_errors=True)
    aside.mkdir(parents=True)
    try:
        for name, array in arrays.items():
            with atomic_writer(aside / f"{name}.npy") as handle:
                np.save(handle, array, allow_pickle=False)
        meta["bytes"] = sum(path.stat().st_size for path in aside.iterdir())
        write_atomic(aside / "meta.json", json.dumps(meta, indent=1) + "\n")
        if folder.exists():  # an index of an older layout, or a damaged one: replaced
            shutil.rmtree(folder)
        os.replace(aside, folder)
    except BaseException:
        shutil.rmtree(aside, ignore_errors=True)
        raise
