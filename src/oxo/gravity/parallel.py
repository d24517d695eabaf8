"""Solvers of one gravity board on several processes sharing one transposition table (in shared
memory), raced on each null-window search: the driver of the long proof run."""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import shared_memory

import numpy as np

from oxo.gravity.bitboard import _SKEW, _SPLIT_PLY
from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.search import _C_NODES, _C_STOP, _C_STOPPED
from oxo.gravity.solver import GravitySolver, _question, _SearchStopped
from oxo.gravity.table import bucket_bits, tag_room


@dataclass
class SharedSolvers:
    """Solvers of one board in ``workers`` processes that share one transposition table (in shared
    memory): each null-window search is raced by all of them, each starting the replies at
    ``split_ply`` from another column, so that they search different subtrees first and find each
    other's results in the table; the first to finish answers and the others are stopped."""

    board: GravityBoard
    workers: int = 2
    table_words: int = 1 << 26
    on_status: Callable[[str], None] | None = None
    nodes: int = 0
    _memory: shared_memory.SharedMemory = field(init=False, repr=False)
    solver: GravitySolver = field(init=False, repr=False)

    def __post_init__(self) -> None:
        words = 2 << bucket_bits(self.table_words, tag_room(self.board))
        self._memory = shared_memory.SharedMemory(create=True, size=8 * words)
        table: np.ndarray = np.ndarray((words,), dtype=np.int64, buffer=self._memory.buf)
        table[:] = 0
        self.solver = GravitySolver(self.board, table=table)
        self._counters = shared_memory.SharedMemory(create=True, size=8 * 3 * max(self.workers, 1))
        self._results = shared_memory.SharedMemory(create=True, size=8 * 2 * max(self.workers, 1))

    def close(self) -> None:
        """Free the shared memory."""
        for block in (self._memory, self._counters, self._results):
            block.close()
            block.unlink()

    def __enter__(self) -> SharedSolvers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def window(self, state: GravityState, med: int, deadline: float | None = None) -> int:
        """The null-window search "is the side to move's score above ``med``?" (a result above
        ``med`` means yes) on every worker at once; past ``deadline`` (a ``time.perf_counter()``
        value) the workers are stopped and :class:`TimeoutError` is raised."""
        mine = state.x if state.to_move == "x" else state.o
        if self.workers <= 1:
            try:
                result = self.solver._window(mine, state.mask, state.ply, med, deadline, (-64, 64))
            except _SearchStopped:
                raise TimeoutError("the search ran out of time") from None
            finally:
                self.nodes = self.solver.nodes
            return result
        counters: np.ndarray = np.ndarray(
            (self.workers, 3), dtype=np.int64, buffer=self._counters.buf
        )
        results: np.ndarray = np.ndarray(
            (self.workers, 2), dtype=np.int64, buffer=self._results.buf
        )
        counters[:] = 0
        results[:] = 0
        context = multiprocessing.get_context("fork")
        processes = [
            context.Process(
                target=_race,
                args=(self.solver, w, mine, state, med, counters, results),
                daemon=True,
            )
            for w in range(self.workers)
        ]
        started = time.perf_counter()
        last = started
        for process in processes:
            process.start()
        try:
            winner = -1
            while winner < 0:
                time.sleep(0.05)
                done = [w for w in range(self.workers) if results[w, 1]]
                if done:
                    winner = done[0]
                    break
                if all(not p.is_alive() for p in processes):
                    raise RuntimeError("the solver's worker processes stopped without an answer")
                now = time.perf_counter()
                if deadline is not None and now >= deadline:
                    raise TimeoutError("the search ran out of time")
                if self.on_status is not None and now - last >= 5:
                    last = now
                    searched = self.nodes + int(counters[:, _C_NODES].sum())
                    self.on_status(
                        f"searching: {_question(med, state.ply, self.board.size)}; "
                        f"{searched:,} positions, {now - started:.0f} s"
                    )
        finally:
            counters[:, _C_STOP] = 1
            for process in processes:
                process.join()
            self.nodes += int(counters[:, _C_NODES].sum())
        return int(results[winner, 0])


def _race(
    solver: GravitySolver,
    worker: int,
    mine: int,
    state: GravityState,
    med: int,
    counters: np.ndarray,
    results: np.ndarray,
) -> None:
    """One worker's search, in a forked process (``counters`` and ``results`` live in shared memory,
    and so does the solver's table): its own start at the split ply, its own counter and result."""
    params = solver._arrays[0].copy()
    params[_SPLIT_PLY] = state.ply + 1
    params[_SKEW] = worker
    counter = counters[worker]
    arrays = (params, *solver._arrays[1:])
    result = solver.search(mine, state.mask, state.ply, med, med + 1, counter, arrays)
    if not counter[_C_STOPPED]:
        results[worker, 0] = result
        results[worker, 1] = 1
