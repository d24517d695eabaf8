"""Running independent shards of a count: here, on all local cores, or on a Dask cluster.

A shard is any picklable callable returning a numpy array; the caller adds the arrays up. Nothing
here schedules work itself: local processes use :mod:`concurrent.futures`, clusters use Dask's
distributed scheduler (``pip install oxo[cluster]``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Literal

from oxo.errors import OptionError, OutOfReachError

if TYPE_CHECKING:  # numpy is imported by the shards themselves; the CLI starts faster without it
    import numpy as np

Executor = Literal["auto", "serial", "processes", "dask"]
EXECUTORS: tuple[str, ...] = ("auto", "serial", "processes", "dask")

Shard = Callable[[], "np.ndarray"]


#: An executor was asked for that is unknown or not installed (one of the kinds of error of :mod:`oxo.errors`).
ExecutorError = OptionError


#: A worker process died in the middle of its work (one of the kinds of error of :mod:`oxo.errors`).
WorkerLostError = OutOfReachError


def _call(shard: Shard) -> np.ndarray:
    return shard()


def run_shards(
    shards: Sequence[Shard],
    executor: Executor = "auto",
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    on_done: Callable[[], None] | None = None,
) -> list[np.ndarray]:
    """Run every shard and return their results in the order given.

    ``auto`` runs a single shard here and several on all local cores (on the cluster at
    ``scheduler`` when one is given). ``dask`` connects to the
    scheduler at ``scheduler`` (``tcp://host:8786``) or starts a local cluster of ``workers`` processes.
    """
    if executor not in EXECUTORS:
        raise ExecutorError(f"unknown executor {executor!r}; use one of {', '.join(EXECUTORS)}")
    workers = workers or os.cpu_count() or 1
    if executor == "auto" and scheduler:
        executor = "dask"  # a scheduler address means the work goes to that cluster
    if executor == "auto":
        executor = "processes" if len(shards) > 1 and workers > 1 else "serial"
    done = on_done or (lambda: None)
    if executor == "serial":
        results = []
        for shard in shards:
            results.append(shard())
            done()
        return results
    if executor == "processes":
        return _run_processes(shards, workers, done)
    return _run_dask(shards, workers, scheduler, done)


def worker_setup(parent: int) -> None:
    """In each worker: leave Ctrl-C to the parent (which stops the workers itself) and die with it."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    try:  # Linux: the kernel ends the worker when its parent dies (a closed terminal, a kill -9).
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGKILL)
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the parent died before the line above: nobody wants this worker
        os._exit(1)


def _run_processes(
    shards: Sequence[Shard], workers: int, done: Callable[[], None]
) -> list[np.ndarray]:
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    results: list[np.ndarray | None] = [None] * len(shards)
    # fork: workers inherit the loaded library and never re-run the caller's main script.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool = ProcessPoolExecutor(
        max_workers=min(workers, len(shards)),
        mp_context=context,
        initializer=worker_setup,
        initargs=(os.getpid(),),
    )
    import signal

    ctrl_c = _DeferredInterrupt()
    try:
        # Workers are forked during the first submit: with Ctrl-C blocked meanwhile, none of them
        # can be hit before it ignores Ctrl-C, and a Ctrl-C pressed now reaches this process after.
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            futures = {pool.submit(_call, shard): index for index, shard in enumerate(shards)}
        finally:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
        pending = set(futures)
        with ctrl_c:
            while pending:
                # Wake up often: a Ctrl-C is acted on here, between two waits, never inside one.
                ctrl_c.check()
                finished, pending = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
                for future in finished:
                    results[futures[future]] = future.result()
                    done()
            ctrl_c.check()
    except BrokenProcessPool:
        _stop_now(pool)
        raise WorkerLostError(
            "a worker process stopped unexpectedly (killed, perhaps by the system for lack of "
            "memory): run again with fewer --workers or less --memory; a frontier count continues "
            "from its last complete ply"
        ) from None
    except BaseException:
        # Ctrl-C, a memory stop or a failed shard: end every worker now rather than wait for them.
        _stop_now(pool)
        raise
    pool.shutdown()
    return results  # type: ignore[return-value]  # every slot is filled once all shards are done


class _DeferredInterrupt:
    """Ctrl-C noted while a pool's futures are waited for, and raised at :meth:`check`.

    A ``KeyboardInterrupt`` raised inside ``concurrent.futures.wait`` can land while it holds the
    futures' locks and leave them held; the pool's manager thread then waits for them for ever and
    the command hung after Ctrl-C instead of exiting (issue 30, item 10). So, in the main thread,
    SIGINT only sets a flag here; :meth:`check` hands it to the handler that was in place (the
    command's own, which also ignores a second Ctrl-C) at a point where no lock is held."""

    def __init__(self) -> None:
        self._noted = False
        self._previous: object = None
        self._installed = False

    def _note(self, signum: int, frame: object) -> None:
        self._noted = True

    def __enter__(self) -> _DeferredInterrupt:
        import signal
        import threading

        if threading.current_thread() is threading.main_thread():
            self._previous = signal.getsignal(signal.SIGINT)
            if callable(self._previous):  # not when Ctrl-C is ignored or left to the system
                signal.signal(signal.SIGINT, self._note)
                self._installed = True
        return self

    def __exit__(self, *exc: object) -> None:
        import signal

        # Put the handler back unless check() passed the signal on (the command's handler may
        # have set Ctrl-C to be ignored from then on).
        if self._installed and signal.getsignal(signal.SIGINT) == self._note:
            signal.signal(signal.SIGINT, self._previous)  # type: ignore[arg-type]  # a handler got from getsignal
        self._installed = False

    def check(self) -> None:
        """Raise the noted Ctrl-C, through the handler that was in place before."""
        import signal

        if not self._noted:
            return
        self._noted = False
        previous = self._previous
        signal.signal(signal.SIGINT, previous)  # type: ignore[arg-type]  # a handler got from getsignal
        if callable(previous):
            previous(signal.SIGINT, None)
        raise KeyboardInterrupt


def _stop_now(pool: object) -> None:
    """End a pool's workers at once, without a traceback at exit.

    The pool's manager thread closes its wake-up pipe once the workers are gone, while the
    library's exit hook and ``shutdown`` may still write to it: a write racing the close fails
    with "Bad file descriptor" and printed a traceback after "oxo: interrupted" (issue 30, item
    10). So the pool leaves the exit hook's list first (read before ``shutdown`` clears it), a
    failed wake-up is ignored, and the workers are killed."""
    from concurrent.futures import process as futures_process

    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    wakeups = getattr(futures_process, "_threads_wakeups", None)
    if wakeups is not None and manager is not None:
        wakeups.pop(manager, None)
    for process in processes:
        process.kill()
    try:
        pool.shutdown(wait=False, cancel_futures=True)  # type: ignore[attr-defined]  # a ProcessPoolExecutor
    except OSError:  # its wake-up pipe was closed by the manager thread meanwhile
        pass


def _run_dask(
    shards: Sequence[Shard], workers: int, scheduler: str | None, done: Callable[[], None]
) -> list[np.ndarray]:
    try:
        from dask.distributed import Client, LocalCluster, as_completed
    except ImportError as missing:
        raise ExecutorError("the dask executor needs Dask: pip install 'oxo[cluster]'") from missing
    cluster = None
    if scheduler:
        client = Client(scheduler)
    else:
        cluster = LocalCluster(
            n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None
        )
        client = Client(cluster)
    try:
        futures = client.map(_call, list(shards), pure=False)
        index = {future.key: position for position, future in enumerate(futures)}
        results: list[np.ndarray | None] = [None] * len(shards)
        for future in as_completed(futures):
            results[index[future.key]] = future.result()
            done()
        return results  # type: ignore[return-value]  # every slot is filled once all shards are done
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
