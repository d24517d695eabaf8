"""Positions per ply of ultimate tic-tac-toe past what memory holds: the classes kept on disk.

The same walk as :func:`oxo.uttt.counting.count_positions` (classes as least images, three
``int64`` words each), but each ply's classes live in *bucket* files, split by a hash of the key, so
that memory holds one chunk of parents' moves or one bucket at a time, whatever the ply's size:

1. **expand**: the previous ply's buckets are read in chunks of parents whose moves fit in the
   memory limit; each chunk's children (least images) are sorted, repeats dropped, and written into
   one spill file per destination bucket;
2. **merge**: each bucket reads its spill files, drops the repeats between chunks, and writes its
   classes (only the unfinished ones, which the next ply expands) with the sums of the ply.

A ply is complete when its ``done.json`` is written (the same record and folder layout as the
classic boards' frontier count, :mod:`oxo.counting.frontier`); a stopped count continues from the
last complete ply, and only that ply's buckets are kept.
"""

from __future__ import annotations

import json
import math
import os
import shutil
from collections.abc import Callable
from pathlib import Path

import numpy as np

from oxo.counting.budget import MiB
from oxo.counting.frontier import FrontierError, FrontierPly, _ply_dir, _write_json, completed_plies
from oxo.uttt.counting import (
    BASE_MEMORY,
    BYTES_PER_MOVE,
    UtttCounts,
    _children,
    _describe,
    _distinct_rows,
    _moves_out,
)

#: Parents per block when parents are grouped into chunks (the chunks are whole blocks).
BLOCK = 1 << 14
#: Margin on a bucket's share of the moves (the hash spreads them only about evenly).
SKEW = 1.3
#: The least memory a chunk or bucket is given, whatever the limit.
FLOOR = 16 * MiB

_MIX = (
    np.uint64(0x9E3779B97F4A7C15),
    np.uint64(0xC2B2AE3D27D4EB4F),
    np.uint64(0x165667B19E3779F9),
)


def buckets_of(rows: np.ndarray, buckets: int) -> np.ndarray:
    """The bucket of each key (an ``(n, 3)`` array): a hash of its three words modulo ``buckets``."""
    words = rows.view(np.uint64)
    with np.errstate(over="ignore"):
        mixed = words[:, 0] * _MIX[0] ^ words[:, 1] * _MIX[1] ^ words[:, 2] * _MIX[2]
    mixed ^= mixed >> np.uint64(31)
    return (mixed % np.uint64(buckets)).astype(np.int64)


def _save_rows(path: Path, rows: np.ndarray) -> None:
    """Write an array to ``path`` through a temporary file and a rename (never half a file).

    ``oxo.fileio.write_atomic`` takes the bytes at once; a bucket of hundreds of MiB is streamed
    by numpy instead."""
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "wb") as handle:
        np.save(handle, rows)
    os.replace(tmp, path)


def _plan(moves: int, memory: int | None, buckets: int | None) -> tuple[int, int]:
    """(moves per chunk, buckets of the next ply) so that one chunk or one bucket fits in
    ``memory``; ``buckets`` given forces their number (the tests use it on small plies)."""
    # A quarter of the room is left for what the estimate leaves out (the parents read, the pages
    # of the files, the interpreter growing past BASE_MEMORY).
    room = max(FLOOR, ((memory if memory is not None else 2**62) - BASE_MEMORY) * 3 // 4)
    chunk = max(1, int(room // (BYTES_PER_MOVE * SKEW)))
    if buckets is None:
        buckets = max(1, math.ceil(moves * SKEW * BYTES_PER_MOVE / room))
    return int(chunk), int(buckets)


def _blocks(path: Path) -> list[tuple[int, int, int]]:
    """(start, stop, moves) of each block of parents in one bucket file."""
    keys = np.load(path, mmap_mode="r")
    out = []
    for start in range(0, keys.shape[0], BLOCK):
        block = np.ascontiguousarray(keys[start : start + BLOCK])
        out.append((start, start + block.shape[0], int(_moves_out(block))))
    return out


def count_on_disk(
    last: int,
    folder: str | Path,
    *,
    memory: int | None = None,
    buckets: int | None = None,
    on_ply: Callable[[FrontierPly], None] | None = None,
    on_progress: Callable[[float], None] | None = None,
) -> UtttCounts:
    """Positions, classes and finished positions of plies 0..``last``, the plies kept in ``folder``.

    A folder holding an earlier count continues from its last complete ply (finished plies are read
    back, not counted again). ``memory`` (bytes) bounds a chunk of moves or a bucket; ``buckets``
    forces every ply past 0 into that many buckets. ``on_ply`` hears each ply (also those read
    back), ``on_progress`` the fraction of the plies done."""
    last = max(0, min(int(last), 81))
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    meta = {"board": "uttt"}
    meta_path = root / "count.json"
    if meta_path.exists():
        found = json.loads(meta_path.read_text())
        if found != meta:
            raise FrontierError(f"{root} holds a count of {found.get('board')}: use another folder")
    else:
        _write_json(meta_path, meta)
    done = completed_plies(root)
    if not done:
        start = _ply_dir(root, 0)
        shutil.rmtree(start, ignore_errors=True)
        start.mkdir()
        _save_rows(start / "bucket-0000.npy", np.zeros((1, 3), dtype=np.int64))
        first = FrontierPly(0, 1, 1, 0, 0, 1)
        _write_json(start / "done.json", first.to_dict())
        done = [first]
    for row in done[: last + 1]:
        if on_ply is not None:
            on_ply(row)
    while done[-1].ply < last:
        row = _next_ply(root, done[-1], memory, buckets, last, on_progress)
        done.append(row)
        for old in _ply_dir(root, row.ply - 1).glob("bucket-*.npy"):
            old.unlink()
        if on_ply is not None:
            on_ply(row)
        if on_progress is not None:
            on_progress(row.ply / max(last, 1))
    rows = done[: last + 1]
    return UtttCounts(
        tuple(r.positions for r in rows),
        tuple(r.classes for r in rows),
        tuple(r.finished_positions for r in rows),
    )


def _next_ply(
    root: Path,
    previous: FrontierPly,
    memory: int | None,
    forced: int | None,
    last: int,
    on_progress: Callable[[float], None] | None,
) -> FrontierPly:
    """Expand the classes of ``previous`` into the next ply's buckets and merge them."""
    ply = previous.ply + 1
    source, target = _ply_dir(root, previous.ply), _ply_dir(root, ply)
    shutil.rmtree(target, ignore_errors=True)  # an interrupted ply starts again
    target.mkdir()
    files = sorted(source.glob("bucket-*.npy"))
    blocks = {path: _blocks(path) for path in files}
    moves = sum(b[2] for parts in blocks.values() for b in parts)
    chunk_moves, buckets = _plan(moves, memory, forced)
    steps = max(1, moves)
    seen = 0

    def tick(share: float) -> None:
        if on_progress is not None:
            on_progress((previous.ply + min(1.0, share)) / max(last, 1))

    chunk = 0
    for path, parts in blocks.items():
        keys = np.load(path, mmap_mode="r")
        i = 0
        while i < len(parts):
            # A chunk: consecutive blocks whose moves fit together (at least one block).
            j, count = i + 1, parts[i][2]
            while j < len(parts) and count + parts[j][2] <= chunk_moves:
                count += parts[j][2]
                j += 1
            rows = np.empty((count, 3), dtype=np.int64)
            written = 0
            for first in range(parts[i][0], parts[j - 1][1], BLOCK):
                # One block per compiled call: Ctrl-C is heard between calls.
                stop = min(first + BLOCK, parts[j - 1][1])
                parents = np.ascontiguousarray(keys[first:stop])
                written += _children(parents, previous.ply & 1, rows[written:])
            distinct = _distinct_rows(rows[:written])
            del rows
            where = buckets_of(distinct, buckets)
            order = np.argsort(where, kind="stable")
            bounds = np.searchsorted(where[order], np.arange(buckets + 1))
            for b in range(buckets):
                part = order[bounds[b] : bounds[b + 1]]
                if len(part):
                    _save_rows(target / f"spill-{b:04d}-{chunk:05d}.npy", distinct[part])
            del distinct, where, order
            chunk += 1
            seen += count
            tick(0.7 * seen / steps)
            i = j
        del keys
    totals = np.zeros(4, dtype=np.int64)
    for b in range(buckets):
        spills = sorted(target.glob(f"spill-{b:04d}-*.npy"))
        merged = (
            np.concatenate([np.load(p) for p in spills])
            if spills
            else np.zeros((0, 3), dtype=np.int64)
        )
        classes = _distinct_rows(merged)
        del merged
        sizes = np.empty(classes.shape[0], dtype=np.int64)
        over = np.empty(classes.shape[0], dtype=np.bool_)
        _describe(classes, sizes, over)
        _save_rows(target / f"bucket-{b:04d}.npy", classes[~over])
        totals += (classes.shape[0], sizes.sum(), over.sum(), sizes[over].sum())
        for p in spills:
            p.unlink()
        tick(0.7 + 0.3 * (b + 1) / buckets)
    row = FrontierPly(
        ply, int(totals[1]), int(totals[0]), int(totals[3]), int(totals[2]), int(buckets)
    )
    _write_json(target / "done.json", row.to_dict())
    return row
