"""The jobs of a split proof run, and where they run: here, on local processes, or on a Dask cluster.

A job asks one question of one position: can ``attacker`` force a line from (x, o)? It runs the
proof search (:class:`oxo.proofs.dfpn.ProofSearch`) for at most a *slice* (seconds and positions);
when the position is settled it sends back the strategy's certificate entries as a fragment
(:mod:`oxo.proofs.merge`); when it is not, it sends back the position's children (one per class of
mirror images) with whatever the search settled about them, their fragments included, so that the
run splits the job one ply deeper and loses at most the slice. Jobs and results are plain
picklable values: the same function runs in a local worker process or on a Dask worker, and only
results travel back (the workers need not share the run's folder).

The executors here schedule nothing themselves: the run (:mod:`oxo.proofs.runs`) submits a job
whenever one of their :attr:`~JobExecutor.slots` is free and collects results as they come.
"""

from __future__ import annotations

import logging
import os
import sys
import time
import traceback
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from oxo.errors import OptionError, OutOfReachError
from oxo.geometry import Geometry, mask_cells, play
from oxo.proofs.certificate import Side
from oxo.proofs.merge import encode_fragment
from oxo.proofs.search import QUICK_NODES, load_compiled_search, make_search, plain_search
from oxo.proofs.strategy import StrategyReader
from oxo.proofs.symmetry import Classes

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

    from oxo.proofs.dfpn import ProofSearch
    from oxo.proofs.wide import WideSearch


@dataclass(frozen=True)
class Job:
    """One question for a worker: can ``attacker`` force a line from (x, o) (bit c = cell c)?

    ``seconds`` and ``max_nodes`` bound the search (None: no bound), ``table_bytes`` the memory of
    its table (None: the search's default); ``search`` False only splits (the children and what is
    known of them at once, no search); ``final`` marks a slice cut short by the end of the run's
    time, which is not split when it does not settle (its children would be split for lack of
    time, not because the position is hard). With ``early`` (a part of the slice, such as 0.25),
    a job where the defender is to move stops after that part of its slice and is split when its
    search has proved none of the defender's moves by then: such a search seldom proves many by
    the end, and its children would each be a job all the same. With ``early_attacker`` too, so
    does a job where the attacker is to move whose search has disproved none of the attacker's
    moves by then (the run asks for it at depths where searches almost never settle). Without
    ``plain_first`` a board the compiled search handles goes to it at once, without the plain
    search's first moment (:func:`oxo.proofs.search.make_search`): the run gives it a job that
    the plain search is already trying elsewhere. With ``table_file`` (a path this process can
    write; the run's whole search of the root, :meth:`oxo.proofs.runs.ProofRun._root_job`), the
    compiled search starts from the table an earlier job kept there and, when it does not settle
    the position, keeps its own there for the next (:meth:`oxo.proofs.dfpn.ProofSearch.save_table`;
    on bigger boards and boxes with gravity :meth:`oxo.proofs.wide.WideSearch.save_table`)."""

    dims: tuple[int, ...]
    k: int
    attacker: Side
    x: int
    o: int
    seconds: float | None = None
    max_nodes: int | None = None
    search: bool = True
    final: bool = False
    table_bytes: int | None = None
    early: float | None = None
    early_attacker: bool = False
    plain_first: bool = True
    #: Marks drop to the lowest empty cell of their column (a box with gravity: Score Four).
    gravity: bool = False
    table_file: str | None = None
    #: The table to start from when ``table_file`` holds none yet: the one kept by the last job of
    #: the position this job's position was split from, which holds what that search learnt here.
    seed_file: str | None = None
    #: Whether a job that does not settle its position reads the strategies of the children its
    #: search settled (their fragments, for a split). The run leaves it False where it keeps the
    #: leaf whole for a longer slice: nothing uses them then, and reading a strategy may mean
    #: searching again what the table let go (the children are then reported open, with the
    #: numbers the search left). A job its early part stopped (``early``) is split, and reads
    #: them all the same.
    fragments: bool = True
    #: Moves of the attacker (cells, in this job's orientation) whose positions the search tries
    #: first, in turn, within a part of the slice together (:data:`HINT_SHARE`, at most
    #: :data:`HINT_NODES` positions), where the attacker is to move: the run passes the moves that
    #: won the position's settled siblings (:meth:`oxo.proofs.runs.Tree.hints`). What a try learns
    #: stays in the table, and one that proves its move proves the position: the search that
    #: follows finds it there.
    hints: tuple[int, ...] = ()


#: The part of its slice after which a job where the defender is to move is split when its search
#: has proved none of the defender's moves yet (Job.early). Measured on 8 Qubic positions three
#: moves in, slices of 120 s (benchmarks/bench_early_split.py, docs/performance.md): the 6 it stopped
#: would have proved 0 to 10 of O's replies with the whole slice; the 2 it let go on proved 30 of 37
#: and all; half the positions in all.
EARLY_SPLIT = 0.25

#: The part of a job's slice (its seconds and positions) that its tries of the attacker's moves
#: named in ``Job.hints`` may take in all, and the most positions they may search, together.
#: Measured on ten positions four moves in that the 4x4x4x4 run settled (``python
#: benchmarks/box_searches.py --only hinted``, docs/boxes.md): the hint won on seven, within 3,665
#: to 296,418 positions (on a dear one 225,709 against 1,332,236 without it); on the five cheap
#: ones it is the move the search plays first anyway, and costs nothing.
HINT_SHARE = 0.25
HINT_NODES = 300_000


@dataclass(frozen=True)
class Child:
    """One child of a split position: the move (a cell, in the parent's orientation), the child's
    marks, its value for the attacker (1 proven, -1 disproven, 0 open), when settled with entries
    its fragment, and when open the proof and disproof numbers the search left for it (how many
    positions at least must still be settled to prove or disprove it; the run picks its next job
    by them)."""

    move: int
    x: int
    o: int
    value: int
    fragment: bytes | None = None
    entries: int = 0
    pn: int = 1
    dn: int = 1


@dataclass(frozen=True)
class JobResult:
    """What a job found: ``value`` 1 (the attacker forces a line), -1 (it cannot) or 0 (not settled
    within the slice); the fragment when settled; the children when split (None otherwise); and
    what it cost (positions searched, the search's statistics, CPU and wall seconds)."""

    job: Job
    value: int
    fragment: bytes | None
    entries: int
    nodes: int
    statistics: dict[str, int] = field(default_factory=dict)
    cpu: float = 0.0
    wall: float = 0.0
    children: tuple[Child, ...] | None = None


@lru_cache(maxsize=8)
def geometry_of(dims: tuple[int, ...], k: int, gravity: bool = False) -> Geometry:
    """The board of a job (built once per process)."""
    return Geometry(dims, k, gravity)


@lru_cache(maxsize=8)
def classes_of(geometry: Geometry) -> Classes:
    """The classes of positions of a board under its search's symmetries (built once per process)."""
    return Classes(geometry)


def run_job(job: Job) -> JobResult:
    """Run one job (in whatever process calls it) and return its result."""
    started, cpu = time.perf_counter(), time.process_time()
    geometry = geometry_of(job.dims, job.k, job.gravity)
    search = make_search(
        geometry,
        job.attacker,
        seconds=job.seconds,
        max_nodes=job.max_nodes,
        position=(job.x, job.o),
        table_bytes=job.table_bytes,
        # A job that only lists moves settles none; a worker that loaded the compiled search for
        # an earlier job has nothing to save by trying the plain one first.
        quick_nodes=QUICK_NODES
        if job.search and job.plain_first and "oxo.proofs.dfpn" not in sys.modules
        else 0,
    )
    kept = _compiled(search) if job.table_file is not None else None
    if kept is not None and job.table_file is not None:
        if not kept.load_table(job.table_file) and job.seed_file is not None:
            kept.load_table(job.seed_file)
    early = False
    tries: dict[str, int] = {}
    if job.search:
        if job.hints:
            tries = _try_hints(search, geometry, job, started)
        answer, early = _solve(search, job, started)
        value = 0 if answer is None else 1 if answer else -1
    else:
        value = search.value_of(job.x, job.o)
    if kept is not None and job.table_file is not None and not value:
        kept.save_table(job.table_file)
    return _result(job, search, geometry, value, early, started, cpu, tries)


def _try_hints(
    search: StrategyReader, geometry: Geometry, job: Job, started: float
) -> dict[str, int]:
    """Search the positions after the attacker's moves in ``job.hints`` first, in turn, within
    :data:`HINT_SHARE` of the slice and :data:`HINT_NODES` positions in all, until one is proved
    (the position is then proved: the search that follows finds the move in its table). Only where
    the attacker is to move, and only moves to empty cells a mark may go to. What was tried and
    what it won, as the job's statistics ``hinted_jobs`` (1), ``hints_tried`` (moves),
    ``hints_won`` (0 or 1) and ``hint_positions``."""
    attacker_to_move = (job.x.bit_count() == job.o.bit_count()) == (job.attacker == "x")
    playable = geometry.playable(job.x | job.o)
    moves = [move for move in job.hints if playable >> move & 1]
    if not attacker_to_move or not moves:
        return {}
    limit = (
        HINT_NODES if job.max_nodes is None else min(HINT_NODES, int(job.max_nodes * HINT_SHARE))
    )
    seconds = None if job.seconds is None else job.seconds * HINT_SHARE
    before = search.nodes
    tried = won = 0
    for move in moves:
        left = None if seconds is None else seconds - (time.perf_counter() - started)
        if (left is not None and left <= 0) or search.nodes - before >= limit:
            break
        x, o = play(job.x, job.o, move)
        tried += 1
        if search.solve_until(x, o, left, before + limit):
            won = 1
            break
    positions = search.nodes - before
    return {"hinted_jobs": 1, "hints_tried": tried, "hints_won": won, "hint_positions": positions}


def _compiled(search: StrategyReader) -> ProofSearch | WideSearch | None:
    """The compiled search a job's search is or holds (a tall board's is turned), if any: the
    one of boards up to 64 cells or the one of bigger boards and boxes with gravity, both of
    which keep their table in a file (``save_table``, ``load_table``)."""
    from oxo.proofs.orient import Transposed

    inner = search.inner if isinstance(search, Transposed) else search
    if "oxo.proofs.dfpn" in sys.modules:  # else not loaded: the search is not that one
        from oxo.proofs.dfpn import ProofSearch

        if isinstance(inner, ProofSearch):
            return inner
    if "oxo.proofs.wide" in sys.modules:
        from oxo.proofs.wide import WideSearch

        if isinstance(inner, WideSearch):
            return inner
    return None


def plain_slice(
    job: Job,
    seconds: float,
    search: StrategyReader | None = None,
    since: tuple[float, float] | None = None,
    nodes: int | None = None,
) -> tuple[StrategyReader, JobResult | None]:
    """The plain search on the job's position for ``seconds`` more (going on with ``search``, the
    search an earlier call returned, begun at ``since``: wall and processor clocks), and at most
    until it has searched ``nodes`` positions in all: the search, and the job's result when it
    settled the position (None when it did not: nothing is split)."""
    started, cpu = since or (time.perf_counter(), time.process_time())
    geometry = geometry_of(job.dims, job.k)
    if search is None:
        search = plain_search(geometry, job.attacker)
    answer = search.solve_until(job.x, job.o, seconds, nodes)
    if answer is None:
        return search, None
    return search, _result(job, search, geometry, 1 if answer else -1, False, started, cpu)


def _result(
    job: Job,
    search: StrategyReader,
    geometry: Geometry,
    value: int,
    early: bool,
    started: float,
    cpu: float,
    tries: dict[str, int] | None = None,
) -> JobResult:
    """The result of a job whose search found ``value`` (0: not settled): the fragment of a settled
    position, the children of one that is split."""
    fragment = None
    entries = 0
    children: tuple[Child, ...] | None = None
    if value:
        strategy = search.strategy(job.x, job.o)
        fragment = encode_fragment(geometry, job.attacker, job.x, job.o, value > 0, strategy)
        entries = len(strategy)
    elif not job.final:
        children = _children(search, geometry, job, job.fragments or early)
    statistics = search.statistics()
    if job.search and early:
        statistics["early_splits"] = 1
    statistics.update(tries or {})
    return JobResult(
        job,
        value,
        fragment,
        entries,
        statistics.get("nodes", 0),
        statistics,
        time.process_time() - cpu,
        time.perf_counter() - started,
        children,
    )


def _solve(search: StrategyReader, job: Job, started: float) -> tuple[bool | None, bool]:
    """The job's search (``started`` when the job began): the whole slice, or first its ``early``
    part (see :class:`Job`), going on from there only when it settled a move of the side to move
    (proved one of the defender's, disproved one of the attacker's). The answer, and whether the
    search stopped early."""
    attacker_to_move = (job.x.bit_count() == job.o.bit_count()) == (job.attacker == "x")
    bounded = job.seconds is not None or job.max_nodes is not None

    def seconds_left() -> float | None:
        if job.seconds is None:
            return None
        return max(0.0, job.seconds - (time.perf_counter() - started))

    if not job.early or job.final or not bounded or (attacker_to_move and not job.early_attacker):
        if job.seconds is not None:  # what came before (a kept table read, tries) took its part
            return search.solve_until(job.x, job.o, seconds_left(), job.max_nodes), False
        return search.solve(job.x, job.o), False

    first = seconds_left()
    answer = search.solve_until(
        job.x,
        job.o,
        None if first is None else first * job.early,
        None if job.max_nodes is None else max(1, int(job.max_nodes * job.early)),
    )
    if answer is not None:
        return answer, False
    if not search.first_moves(job.x, job.o)["no win" if attacker_to_move else "win"]:
        return None, True
    return search.solve_until(job.x, job.o, seconds_left(), job.max_nodes), False


def _children(
    search: StrategyReader, geometry: Geometry, job: Job, fragments: bool = True
) -> tuple[Child, ...]:
    """Every move from the job's position, one per class of positions the search treats alike
    (:class:`oxo.proofs.symmetry.Classes`: mirror images, and on Qubic more), with what ``search``
    knows of the child (settled in its table, or settled at once) and the child's entries; the
    most promising first, in the search's own order of moves (the run tries the first first)."""

    def child(move: int) -> tuple[int, int]:
        return play(job.x, job.o, move)

    classes = classes_of(geometry)
    known = search.first_moves(job.x, job.o)
    rank: dict[int, int] = {}
    for move in [*known["win"], *known["open"], *known["no win"]]:
        rank.setdefault(classes.key(*child(move)), len(rank))
    found: dict[int, int] = {}
    for move in mask_cells(geometry.playable(job.x | job.o)):  # every empty cell without gravity
        found.setdefault(classes.key(*child(move)), move)
    out = []
    for _, move in sorted(found.items(), key=lambda item: rank.get(item[0], len(rank))):
        cx, co = child(move)
        value = search.value_of(cx, co) if fragments else 0
        fragment = None
        entries = 0
        if value:
            try:
                strategy = search.strategy(cx, co)
            except (AssertionError, ValueError):  # the search no longer holds the child's proof
                value = 0
            else:
                entries = len(strategy)
                if entries:
                    fragment = encode_fragment(geometry, job.attacker, cx, co, value > 0, strategy)
        pn, dn = (1, 1) if value else search.numbers_of(cx, co)
        out.append(Child(move, cx, co, value, fragment, entries, pn, dn))
    return tuple(out)


# -- where jobs run --------------------------------------------------------------------------------


#: A worker died in the middle of a job (one of the kinds of error of :mod:`oxo.errors`).
WorkerLostError = OutOfReachError


class JobExecutor(Protocol):
    """Runs jobs somewhere: :meth:`submit` a job under a ticket when :attr:`slots` allow, then
    :meth:`wait` for results; :meth:`cancel` gives up a job; :meth:`close` stops every worker
    (:meth:`kill` ends them at once, without waiting for them to go: close() still must)."""

    @property
    def slots(self) -> int: ...

    def submit(self, ticket: int, job: Job) -> None: ...

    def wait(self, timeout: float) -> list[tuple[int, JobResult]]: ...

    def cancel(self, ticket: int) -> None: ...

    def kill(self) -> None: ...

    def close(self) -> None: ...


class SerialExecutor:
    """Jobs one at a time in this process (Ctrl-C interrupts the job at once)."""

    slots = 1

    def __init__(self) -> None:
        self._queue: list[tuple[int, Job]] = []

    def submit(self, ticket: int, job: Job) -> None:
        self._queue.append((ticket, job))

    def wait(self, timeout: float) -> list[tuple[int, JobResult]]:
        if not self._queue:
            time.sleep(min(timeout, 0.01))
            return []
        ticket, job = self._queue.pop(0)
        return [(ticket, run_job(job))]

    def cancel(self, ticket: int) -> None:
        self._queue = [(t, job) for t, job in self._queue if t != ticket]

    def kill(self) -> None:
        self._queue.clear()

    def close(self) -> None:
        self._queue.clear()


def _worker_loop(connection: Connection, parent: int, preload: bool = False) -> None:
    """A local worker: run the jobs that arrive on ``connection`` until it closes (with
    ``preload``, after loading the compiled search: a job sent meanwhile waits in the pipe)."""
    from oxo.counting.executors import worker_setup

    worker_setup(parent)
    if preload:
        try:
            load_compiled_search()
        except Exception:  # only a head start: the first job loads it again and reports why not
            pass
    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):
            return
        try:
            answer: Any = run_job(job)
        except BaseException:  # sent back whole: the run stops with it
            answer = traceback.format_exc()
        connection.send(answer)


@dataclass
class _Worker:
    process: BaseProcess
    connection: Connection
    ticket: int | None = None


class ProcessExecutor:
    """Jobs on ``workers`` local processes (forked from this one, so the library is loaded once).

    A worker ignores Ctrl-C (this process stops them all) and dies with this process. A worker
    whose memory passes ``recycle_above`` bytes after a job is replaced by a fresh one, so that the
    memory a big job's table held goes back to the system. With ``preload``, the first worker
    loads the compiled search as soon as it starts, before any job (the first job submitted goes
    to it)."""

    def __init__(
        self, workers: int, recycle_above: int | None = None, preload: bool = False
    ) -> None:
        import multiprocessing

        methods = multiprocessing.get_all_start_methods()
        self._context: Any = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        self._recycle_above = recycle_above
        self._workers = [self._start(preload and not i) for i in range(max(1, workers))]

    def _start(self, preload: bool = False) -> _Worker:
        import signal

        mine, theirs = self._context.Pipe()
        process = self._context.Process(
            target=_worker_loop, args=(theirs, os.getpid(), preload), daemon=True
        )
        # Ctrl-C blocked while forking: the worker cannot be hit before it ignores Ctrl-C.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            process.start()
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        theirs.close()
        return _Worker(process, mine)

    @property
    def slots(self) -> int:
        return sum(1 for worker in self._workers if worker.ticket is None)

    def submit(self, ticket: int, job: Job) -> None:
        worker = next(worker for worker in self._workers if worker.ticket is None)
        worker.connection.send(job)
        worker.ticket = ticket

    def wait(self, timeout: float) -> list[tuple[int, JobResult]]:
        from multiprocessing.connection import wait

        busy = [worker for worker in self._workers if worker.ticket is not None]
        if not busy:
            time.sleep(min(timeout, 0.01))
            return []
        ready = wait([worker.connection for worker in busy], timeout)
        done = []
        for worker in busy:
            if worker.connection not in ready:
                continue
            ticket = worker.ticket
            assert ticket is not None
            try:
                answer = worker.connection.recv()
            except (EOFError, OSError):
                code = worker.process.exitcode
                self._replace(worker)
                raise WorkerLostError(
                    f"a worker process stopped in the middle of a job (exit status {code}; killed, "
                    "perhaps by the system for lack of memory): run again with fewer --workers, a "
                    "smaller --slice or less --memory; the run continues from its folder"
                ) from None
            worker.ticket = None
            if not isinstance(answer, JobResult):
                raise RuntimeError(f"a proof job failed in its worker:\n{answer}")
            done.append((ticket, answer))
            if self._recycle_above is not None:
                from oxo.counting.budget import tree_memory

                pid = worker.process.pid
                if pid is not None and tree_memory(pid) > self._recycle_above:
                    self._replace(worker)
        return done

    def _replace(self, worker: _Worker) -> None:
        worker.process.kill()
        worker.process.join()
        worker.connection.close()
        fresh = self._start()
        worker.process, worker.connection, worker.ticket = fresh.process, fresh.connection, None

    def cancel(self, ticket: int) -> None:
        for worker in self._workers:
            if worker.ticket == ticket:
                self._replace(worker)

    def kill(self) -> None:
        """Send every worker SIGKILL; :meth:`close` reaps them (the system takes a few hundredths
        of a second to end a worker that holds the compiled search, time the caller may use)."""
        for worker in self._workers:
            worker.process.kill()

    def close(self) -> None:
        self.kill()
        for worker in self._workers:
            worker.process.join()
            worker.connection.close()


class DaskExecutor:
    """Jobs on a Dask cluster: the scheduler at ``address`` (``tcp://host:8786``), or with
    ``address`` ``"local"`` a cluster of ``workers`` local processes started here. Results travel
    back to this process; the workers need oxo installed, not the run's folder."""

    def __init__(self, address: str, workers: int) -> None:
        import importlib

        try:  # Dask is optional and untyped: reached through Any
            distributed: Any = importlib.import_module("dask.distributed")
        except ImportError as missing:
            raise OptionError("--scheduler needs Dask: pip install 'oxo[cluster]'") from missing
        self._distributed = distributed
        self._cluster: Any = None
        self._client: Any = None
        try:
            if address == "local":
                # Its worker processes ignore Ctrl-C (see dask_setup below): one Ctrl-C, which the
                # terminal sends to every process of the command, is for this process, which
                # stops them.
                self._cluster = distributed.LocalCluster(
                    n_workers=max(1, workers),
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.ERROR,  # not a warning for each cancelled job
                    preload=[__name__],
                )
                self._client = distributed.Client(self._cluster)
            else:
                self._client = distributed.Client(address, timeout=30)
        except OSError as error:
            if self._cluster is not None:
                self._cluster.close()
            raise OptionError(f"cannot reach the Dask scheduler at {address}: {error}") from None
        self._futures: dict[int, Any] = {}

    @property
    def slots(self) -> int:
        threads = sum(self._client.nthreads().values())
        return max(0, int(threads) - len(self._futures))

    def submit(self, ticket: int, job: Job) -> None:
        self._futures[ticket] = self._client.submit(
            run_job, job, pure=False, key=f"oxo-proof-job-{os.getpid()}-{ticket}"
        )

    def wait(self, timeout: float) -> list[tuple[int, JobResult]]:
        if not self._futures:
            time.sleep(min(timeout, 0.01))
            return []
        try:
            self._distributed.wait(
                list(self._futures.values()), timeout=timeout, return_when="FIRST_COMPLETED"
            )
        except TimeoutError:
            return []
        done = []
        for ticket, future in list(self._futures.items()):
            if future.done():
                del self._futures[ticket]
                result = future.result()
                assert isinstance(result, JobResult)
                done.append((ticket, result))
        return done

    def cancel(self, ticket: int) -> None:
        future = self._futures.pop(ticket, None)
        if future is not None:
            future.cancel()

    def kill(self) -> None:
        for future in self._futures.values():
            future.cancel()
        self._futures.clear()

    def close(self) -> None:
        self.kill()
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def dask_setup(worker: object) -> None:
    """Run by each worker of a Dask cluster started for a run (Dask's preload hook): leave Ctrl-C to
    the run, which stops the cluster itself."""
    import signal

    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread of the worker's process: nothing to do
        pass


def make_executor(
    workers: int, scheduler: str | None, recycle_above: int | None = None, preload: bool = False
) -> JobExecutor:
    """The executor for ``workers`` local workers (1: this process), or the Dask cluster at
    ``scheduler`` (``"local"`` for one started here); ``preload``: see :class:`ProcessExecutor`."""
    if scheduler:
        return DaskExecutor(scheduler, workers)
    if workers <= 1:
        return SerialExecutor()
    return ProcessExecutor(workers, recycle_above, preload)
