"""Positions per ply by walking the frontier on disk: memory-bounded, sharded, resumable.

For boards whose positions cannot be counted without visiting them (Qubic 4×4×4, 6×7 with k = 4),
the count keeps each ply's *classes* (positions up to symmetry, by their canonical form) in files,
split into shards by a hash of the canonical form. A ply is made from the previous one in two steps:

1. **expand**: each chunk of the previous ply's shards plays every move of every unfinished
   position, takes the children's canonical forms and writes them, sorted and without repeats, into
   one spill file per target shard;
2. **merge**: each target shard reads its spill files, removes repeats and writes the shard, with
   the number of classes, of positions (each class stands for ``|group| / |stabilizer|``
   positions) and of finished positions.

Chunks and shards are sized from the memory limit, so the count never holds more than one chunk or
shard per worker. A ply is complete when its ``done.json`` is written; a count that is stopped
continues from the last complete ply. Both steps are independent tasks, run here, on local
processes or on a Dask cluster (the workers must see the same folder).
"""

from __future__ import annotations

import json
import math
import os
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from oxo.counting.executors import Executor, run_shards
from oxo.errors import OptionError
from oxo.geometry import Geometry
from oxo.records import Record, record

#: Bytes per stored class (X cells, O cells, stabilizer size) and per child while sorting.
ENTRY_BYTES = 8 + 8 + 2
WORK_FACTOR = 4  # a chunk's children are held about four times over while being sorted

#: Hash multipliers for spreading canonical forms over shards.
_MIX_X = np.uint64(0x9E3779B97F4A7C15)
_MIX_O = np.uint64(0xC2B2AE3D27D4EB4F)


#: A frontier count was asked for on a board or folder it cannot use (one of the kinds of error of :mod:`oxo.errors`).
FrontierError = OptionError


@dataclass(frozen=True)
class FrontierPly(Record):
    """One complete ply of a frontier count."""

    ply: int
    positions: int
    classes: int
    finished_positions: int
    finished_classes: int
    shards: int


# -- the kernel: canonical forms of children ------------------------------------------------------


def _byte_tables(geometry: Geometry) -> np.ndarray:
    """tables[g, b, v]: the image under symmetry g of the cells ``v << 8b`` (a byte of a mask)."""
    size = geometry.size
    groups = (size + 7) // 8
    tables = np.zeros((len(geometry.symmetries), groups, 256), dtype=np.uint64)
    for g, symmetry in enumerate(geometry.symmetries):
        for b in range(groups):
            for value in range(1, 256):
                image = 0
                for offset in range(8):
                    cell = 8 * b + offset
                    if value >> offset & 1 and cell < size:
                        image |= 1 << symmetry.perm[cell]
                tables[g, b, value] = image
    return tables


def _expand_kernel() -> Any:
    """The compiled expansion (:mod:`oxo.counting.frontierkernel`; numba is imported only here)."""
    from oxo.counting.frontierkernel import expand

    return expand


def _unique(x: np.ndarray, o: np.ndarray, stab: np.ndarray) -> tuple[np.ndarray, ...]:
    order = np.lexsort((o, x))
    x, o, stab = x[order], o[order], stab[order]
    keep = np.ones(len(x), dtype=bool)
    keep[1:] = (x[1:] != x[:-1]) | (o[1:] != o[:-1])
    return x[keep], o[keep], stab[keep]


def _bucket(x: np.ndarray, o: np.ndarray, shards: int) -> np.ndarray:
    mixed = (x * _MIX_X) ^ (o * _MIX_O)
    mixed ^= mixed >> np.uint64(29)
    return (mixed % np.uint64(shards)).astype(np.int64)


# -- files ------------------------------------------------------------------------------------------


def _ply_dir(root: Path, ply: int) -> Path:
    return root / f"ply-{ply:03d}"


def _save(path: Path, x: np.ndarray, o: np.ndarray, stab: np.ndarray) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as handle:
        np.savez(handle, x=x, o=o, stab=stab)
    os.replace(tmp, path)


def _load(path: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    with np.load(path) as data:
        return data["x"], data["o"], data["stab"]


def _write_json(path: Path, data: object) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data))
    os.replace(tmp, path)


# -- tasks (module-level so that processes and Dask workers can run them) ---------------------------


def _expand_task(
    spec: str,
    k: int,
    source: str,
    start: int,
    stop: int,
    target: str,
    tag: str,
    shards: int,
    x_moves: bool,
) -> np.ndarray:
    geometry = Geometry.parse(spec, k)
    x_all, o_all, _ = _load(Path(source))
    xs, os_ = x_all[start:stop], o_all[start:stop]
    free = geometry.size - int(np.bitwise_count(xs[0] | os_[0])) if len(xs) else 0
    room = len(xs) * free
    out_x = np.empty(room, dtype=np.uint64)
    out_o = np.empty(room, dtype=np.uint64)
    out_stab = np.empty(room, dtype=np.uint16)
    lines = np.array(geometry.lines, dtype=np.uint64)
    count = _expand_kernel()(
        xs,
        os_,
        x_moves,
        _tables_for(geometry),
        lines,
        np.uint64(geometry.full_mask),
        out_x,
        out_o,
        out_stab,
    )
    x, o, stab = _unique(out_x[:count], out_o[:count], out_stab[:count])
    del out_x, out_o, out_stab
    buckets = _bucket(x, o, shards)
    order = np.argsort(buckets, kind="stable")
    bounds = np.searchsorted(buckets[order], np.arange(shards + 1))
    folder = Path(target)
    for shard in range(shards):
        part = order[bounds[shard] : bounds[shard + 1]]
        if len(part):
            _save(folder / f"spill-{shard:04d}-{tag}.npz", x[part], o[part], stab[part])
    return np.array([count, len(x)], dtype=np.int64)


_TABLES: dict[tuple[str, int], np.ndarray] = {}


def _tables_for(geometry: Geometry) -> np.ndarray:
    key = (geometry.spec_shape, geometry.k)
    if key not in _TABLES:
        _TABLES[key] = _byte_tables(geometry)
    return _TABLES[key]


def _merge_task(spec: str, k: int, folder: str, shard: int) -> np.ndarray:
    geometry = Geometry.parse(spec, k)
    root = Path(folder)
    spills = sorted(root.glob(f"spill-{shard:04d}-*.npz"))
    parts = [_load(path) for path in spills]
    if parts:
        x = np.concatenate([p[0] for p in parts])
        o = np.concatenate([p[1] for p in parts])
        stab = np.concatenate([p[2] for p in parts])
    else:
        x = o = np.zeros(0, dtype=np.uint64)
        stab = np.zeros(0, dtype=np.uint16)
    del parts
    x, o, stab = _unique(x, o, stab)
    _save(root / f"shard-{shard:04d}.npz", x, o, stab)
    for path in spills:
        path.unlink()
    order = len(geometry.symmetries)
    sizes = order // stab.astype(np.int64)
    finished = (x | o) == np.uint64(geometry.full_mask)
    for line in geometry.lines:
        value = np.uint64(line)
        finished |= ((x & value) == value) | ((o & value) == value)
    return np.array(
        [len(x), int(sizes.sum()), int(finished.sum()), int(sizes[finished].sum())],
        dtype=np.int64,
    )


# -- the count --------------------------------------------------------------------------------------


def frontier_plan(
    geometry: Geometry, memory: int, workers: int, classes: int, free: int
) -> tuple[int, int]:
    """(parents per chunk, shards of the next ply) so that one chunk or one shard per worker fits in
    ``memory`` bytes, for a ply of ``classes`` classes with ``free`` empty cells each."""
    per_worker = max(memory // max(workers, 1) - 200 * 2**20, 64 * 2**20)
    chunk = max(1, per_worker // (max(free, 1) * ENTRY_BYTES * WORK_FACTOR))
    children = classes * max(free, 1)
    shards = max(1, math.ceil(children * ENTRY_BYTES * WORK_FACTOR / per_worker))
    return int(min(chunk, 1 << 24)), int(shards)


def completed_plies(folder: Path) -> list[FrontierPly]:
    """The plies a frontier count in ``folder`` has completed, in order."""
    out = []
    ply = 0
    while (_ply_dir(folder, ply) / "done.json").exists():
        data = json.loads((_ply_dir(folder, ply) / "done.json").read_text())
        out.append(FrontierPly(**data))
        ply += 1
    return out


def count_frontier(
    geometry: Geometry,
    folder: str | Path,
    *,
    max_ply: int | None = None,
    memory: int = 2 * 2**30,
    executor: Executor = "auto",
    workers: int | None = None,
    scheduler: str | None = None,
    on_ply: Callable[[FrontierPly], None] | None = None,
    on_progress: Callable[[float], None] | None = None,
    keep: bool = False,
    min_shards: int | None = None,
) -> list[FrontierPly]:
    """Positions and classes per ply up to ``max_ply`` (default: the whole board), kept in ``folder``.

    A folder holding an earlier count of the same board continues from its last complete ply.
    ``on_ply`` hears of each ply as it completes; ``on_progress`` of the fraction of the current ply.
    With ``keep`` every ply's shards stay on disk; otherwise only the last complete ply's do.
    ``min_shards`` (default: one per worker on big plies) spreads each ply over at least that many
    shards, so that merging runs on every worker.
    """
    if geometry.size > 64:
        raise FrontierError(
            f"the frontier count stores positions as 64-bit masks; {geometry.spec} has {geometry.size} cells"
        )
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    meta = {"board": geometry.spec_shape, "k": geometry.k}
    meta_path = root / "count.json"
    if meta_path.exists():
        found = json.loads(meta_path.read_text())
        if found != meta:
            raise FrontierError(
                f"{root} holds a count of {found['board']} with k={found['k']}, not {geometry.spec}: "
                "use another folder"
            )
    else:
        _write_json(meta_path, meta)
    last = geometry.size if max_ply is None else min(max_ply, geometry.size)
    workers = workers or os.cpu_count() or 1
    done = completed_plies(root)
    if not done:
        start = _ply_dir(root, 0)
        shutil.rmtree(start, ignore_errors=True)
        start.mkdir()
        empty = np.zeros(1, dtype=np.uint64)
        _save(
            start / "shard-0000.npz", empty, empty, np.array([len(geometry.symmetries)], np.uint16)
        )
        first = FrontierPly(0, 1, 1, 0, 0, 1)
        _write_json(start / "done.json", first.to_dict())
        done = [first]
        if on_ply is not None:
            on_ply(first)
    elif on_ply is not None:
        for row in done:
            on_ply(row)
    cluster = None
    if executor == "dask" and scheduler is None:
        cluster = _local_cluster(workers)  # one cluster for the whole count, not one per step
        scheduler = cluster.scheduler_address
    try:
        _walk(
            geometry,
            root,
            done,
            last,
            memory,
            executor,
            workers,
            scheduler,
            on_ply,
            on_progress,
            keep,
            min_shards,
        )
    finally:
        if cluster is not None:
            cluster.close()
    return [row for row in done if row.ply <= last]


def _local_cluster(workers: int) -> Any:
    from oxo.counting.executors import ExecutorError

    try:
        from dask.distributed import LocalCluster
    except ImportError as missing:
        raise ExecutorError("the dask executor needs Dask: pip install 'oxo[cluster]'") from missing
    return LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
    )


def _walk(
    geometry: Geometry,
    root: Path,
    done: list[FrontierPly],
    last: int,
    memory: int,
    executor: Executor,
    workers: int,
    scheduler: str | None,
    on_ply: Callable[[FrontierPly], None] | None,
    on_progress: Callable[[float], None] | None,
    keep: bool,
    min_shards: int | None,
) -> None:
    """Make plies from the last complete one until ``last`` or until every game has ended."""
    spec, k = geometry.spec_shape, geometry.k
    while done[-1].ply < last and done[-1].classes > done[-1].finished_classes:
        previous = done[-1]
        ply = previous.ply + 1
        source_dir, target_dir = _ply_dir(root, previous.ply), _ply_dir(root, ply)
        shutil.rmtree(target_dir, ignore_errors=True)  # an interrupted ply starts again
        target_dir.mkdir()
        free = geometry.size - previous.ply
        chunk, shards = frontier_plan(geometry, memory, workers, previous.classes, free)
        floor = min_shards if min_shards is not None else workers if previous.classes > 10**5 else 1
        shards = max(shards, floor)
        if previous.classes > 10**5:  # several chunks per worker keep every worker busy
            chunk = min(chunk, max(1, previous.classes // (4 * workers)))
        tasks = []
        for source in sorted(source_dir.glob("shard-*.npz")):
            with np.load(source) as data:
                length = len(data["x"])
            for offset in range(0, length, chunk):
                tasks.append(
                    partial(
                        _expand_task,
                        spec,
                        k,
                        str(source),
                        offset,
                        min(offset + chunk, length),
                        str(target_dir),
                        f"{source.stem}-{offset}",
                        shards,
                        previous.ply % 2 == 0,
                    )
                )
        merges = [partial(_merge_task, spec, k, str(target_dir), shard) for shard in range(shards)]
        step = _Steps(len(tasks) + len(merges), on_progress)

        if tasks:
            from oxo.counting.frontierkernel import warm_up

            warm_up()  # compile (or load) it before the workers fork, so each holds it already
            run_shards(tasks, executor, workers=workers, scheduler=scheduler, on_done=step)
        results = run_shards(merges, executor, workers=workers, scheduler=scheduler, on_done=step)
        sums = np.sum(np.array(results), axis=0) if results else np.zeros(4, dtype=np.int64)
        row = FrontierPly(ply, int(sums[1]), int(sums[0]), int(sums[3]), int(sums[2]), shards)
        _write_json(target_dir / "done.json", row.to_dict())
        if not keep:
            for old in source_dir.glob("shard-*.npz"):
                old.unlink()
        done.append(row)
        if on_ply is not None:
            on_ply(row)


class _Steps:
    """Calls ``on_progress`` with the fraction of tasks done, one call per task."""

    def __init__(self, total: int, on_progress: Callable[[float], None] | None) -> None:
        self.total = max(total, 1)
        self.done = 0
        self.on_progress = on_progress

    def __call__(self) -> None:
        self.done += 1
        if self.on_progress is not None:
            self.on_progress(self.done / self.total)


def free_positions(geometry: Geometry, ply: int) -> tuple[int, int]:
    """Positions and classes after ``ply`` marks with no rule but alternation (X has the extra mark).

    Every such position is reachable while no line can be complete before the last move, i.e. up to
    ply 2k - 1: an independent check of the frontier count's first plies. Classes by Burnside's lemma
    over the symmetries' cycles of cells.
    """
    x_count, o_count = (ply + 1) // 2, ply // 2
    n = geometry.size
    positions = math.comb(n, x_count) * math.comb(n - x_count, o_count)
    from oxo.counting import symmetry_cycles

    total = 0
    for symmetry in geometry.symmetries:
        # ways[(a, b)]: g-invariant colourings with a X cells and b O cells, cycle by cycle.
        ways: dict[tuple[int, int], int] = {(0, 0): 1}
        for cycle in symmetry_cycles(symmetry):
            length = cycle.bit_count()
            grown: dict[tuple[int, int], int] = {}
            for (a, b), count in ways.items():
                for key in ((a, b), (a + length, b), (a, b + length)):
                    if key[0] <= x_count and key[1] <= o_count:
                        grown[key] = grown.get(key, 0) + count
            ways = grown
        total += ways.get((x_count, o_count), 0)
    return positions, total // len(geometry.symmetries)


#: Seconds per child and symmetry in the expansion, one worker (measured on Qubic, plies 5 and 6).
SECONDS_PER_CHILD_SYMMETRY = 8e-8


@dataclass(frozen=True)
class PlyEstimate:
    """An upper bound on one ply of a frontier count and the time and disk it would take."""

    ply: int
    classes_at_most: int
    seconds: float
    disk: int

    def to_dict(self) -> dict[str, object]:
        return record(self, {"disk": "disk_bytes"}, seconds=round(self.seconds, 1))


def estimate_frontier(geometry: Geometry, max_ply: int, *, workers: int = 2) -> list[PlyEstimate]:
    """Per ply up to ``max_ply``: at most how many classes (every position with the right mark
    counts is an upper bound on the reachable ones), and the time and disk that makes. The list
    stops early at a ply that alone would take over a year."""
    out = []
    order = len(geometry.symmetries)
    previous = 1
    for ply in range(1, min(max_ply, geometry.size) + 1):
        positions, classes = free_positions(geometry, ply)
        children = previous * (geometry.size - ply + 1)
        seconds = children * order * SECONDS_PER_CHILD_SYMMETRY / max(1, workers)
        out.append(PlyEstimate(ply, classes, seconds, classes * ENTRY_BYTES * 2))
        previous = classes
        if seconds > 365 * 86400:  # beyond a year per ply the later plies add nothing useful
            break
    return out
