"""The computer's thinking, in worker processes, so the web server never stops answering.

A search holds the interpreter for seconds; run in the server's own process it would slow every
other request (Python runs one thread at a time). :class:`Thinkers` keeps a few long-lived worker
processes (``spawn``: nothing of the server is inherited). Each worker keeps the engines of the games
it served (an LRU of :data:`ENGINES_PER_WORKER`), so an engine's tables and the exact solver's answers
carry over from one move to the next, as in ``oxo play``. A game goes to the same worker when it is
free. Workers run at a lower priority than the server (:data:`NICENESS`). Cancelling a search ends its worker process at once; a fresh one starts on the next request.

When every worker is busy, searches wait in one queue, first come first served, for whichever worker
is free first; :meth:`Thinkers.waiting` says how many searches are ahead of one and roughly how long it
will wait (from the thinking time of each search before it), which the page shows.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import heapq
import multiprocessing
import threading
import time
import zlib
from collections import deque
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from oxo.cache import BoundedCache
from oxo.errors import OutOfReachError, OxoError
from oxo.game import GameState

#: How much lower than the server the workers run (Unix nice): on a busy machine the server's quick
#: answers go first and the search gets the rest of the processor.
NICENESS = 10
#: Engines a worker keeps between moves (least recently used forgotten first).
ENGINES_PER_WORKER = 64


@dataclass(frozen=True)
class Task:
    """One computer move to find: which game and side, the level and the states it needs."""

    game_id: str
    side: str
    level: str
    start: GameState
    state: GameState
    seconds: float
    seed: int | None


#: Raised by :meth:`Thinkers.think` when the search was stopped before it chose a move.
ThinkingCancelled = concurrent.futures.CancelledError


def expected_seconds(task: Task) -> float:
    """Roughly how long a search takes: its thinking time at ``hard`` and ``best`` (which may search as
    hard does), a tenth at ``medium``, a moment at the levels that do not search on a clock."""
    return {"hard": task.seconds, "best": task.seconds, "medium": task.seconds / 10}.get(
        task.level, 0.1
    )


def engine_for(level: str, start: GameState, seconds: float | None, seed: int | None) -> Any:
    """The engine of ``level`` for a game starting at ``start``, from the game's descriptor
    (:meth:`oxo.registry.Game.make_engine`): gravity boards have their own ``perfect`` and ``best``
    (the exact solver, and Connect Four's proof book), every other game the shared levels.
    ``seconds`` is the thinking time of the levels that search on a clock; ``perfect`` keeps the
    solver's own limit (held to the page's thinking time, Connect Four's perfect failed mid-game
    wherever a proof took longer)."""
    from oxo.registry import game_of

    budget = None if level == "perfect" else seconds
    return game_of(start).make_engine(level, start, seconds=budget, seed=seed)


def _work(conn: Connection) -> None:  # pragma: no cover - runs in the worker process
    """A worker's loop: receive a :class:`Task`, answer ``("ok", move, report)`` or an error."""
    import os

    try:  # the server's answers come before the search when both want the processor
        os.nice(NICENESS)
    except (AttributeError, OSError):
        pass
    try:  # compile (or load from cache) mega's search before the first clock starts
        from oxo.mega import compiled

        compiled.warm_up()
    except Exception:
        pass
    engines: BoundedCache[tuple[str, str, str, float, int | None], Any] = BoundedCache(
        ENGINES_PER_WORKER
    )
    while True:
        try:
            task: Task = conn.recv()
        except (EOFError, OSError):
            return
        try:
            key = (task.game_id, task.side, task.level, task.seconds, task.seed)
            engine = engines.get(key)  # an engine keeps its tree and tables between moves
            if engine is None:
                engine = engines.put(
                    key, engine_for(task.level, task.start, task.seconds, task.seed)
                )
            move = engine.choose(task.state)
            report = engine.last.to_dict() if engine.last is not None else None
            answer: tuple[Any, ...] = ("ok", move, report)
        except OutOfReachError as error:
            answer = ("out_of_reach", str(error), None)
        except OxoError as error:
            answer = ("bad", str(error), None)
        except Exception as error:  # an engine defect: reported, the worker keeps serving
            answer = ("failed", f"{type(error).__name__}: {error}", None)
        try:
            conn.send(answer)
        except (BrokenPipeError, OSError):
            return


class _Worker:
    """One worker process and the pipe to it."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        self.conn = ours
        self.process = context.Process(
            target=_work, args=(theirs,), name="oxo-thinker", daemon=True
        )
        self.process.start()
        theirs.close()

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        self.conn.close()


class Thinkers:
    """A small pool of worker processes that choose computer moves; cancellable per game. Searches
    that find every worker busy wait in one first-come-first-served queue."""

    def __init__(self, workers: int = 2) -> None:
        self.size = max(1, workers)
        self._workers: list[_Worker | None] = [None] * self.size
        self._free: list[bool] = [True] * self.size
        self._searching: dict[int, tuple[Task, float]] = {}  # slot -> its task, when it began
        self._queue: deque[tuple[asyncio.Future[int], Task]] = deque()  # waiting, oldest first
        self._running: dict[str, int] = {}  # game id -> worker slot
        self._guard = threading.Lock()

    async def _acquire(self, task: Task) -> int:
        """A free worker slot for ``task``: the game's own worker when free (it keeps the game's
        engine), else any free one, else the first one freed after the searches queued before it."""
        slot: int | None = None
        if not self._queue:
            preferred = zlib.crc32(task.game_id.encode()) % self.size
            free = [i for i in range(self.size) if self._free[i]]
            if free:
                slot = preferred if self._free[preferred] else free[0]
        if slot is None:
            waiter: asyncio.Future[int] = asyncio.get_running_loop().create_future()
            entry = (waiter, task)
            self._queue.append(entry)
            try:
                slot = await waiter
            except asyncio.CancelledError:
                if entry in self._queue:
                    self._queue.remove(entry)
                elif waiter.done() and not waiter.cancelled():
                    self._release(waiter.result())  # handed a worker just as it was cancelled
                raise
        self._free[slot] = False
        self._searching[slot] = (task, time.monotonic())
        return slot

    def _release(self, slot: int) -> None:
        """The worker of ``slot`` is free: it goes to the search waiting longest, if any."""
        self._searching.pop(slot, None)
        while self._queue:
            waiter, _ = self._queue.popleft()
            if not waiter.done():
                waiter.set_result(slot)
                return
        self._free[slot] = True

    def waiting(self, game_id: str) -> dict[str, Any] | None:
        """``{"ahead": searches before this one, "seconds": rough wait}`` while the game's search waits
        for a free worker; None when it is not waiting (searching, or not asked for)."""
        if not any(task.game_id == game_id for _, task in self._queue):
            return None
        now = time.monotonic()
        free_at = [
            0.0
            if slot not in self._searching
            else max(
                0.0,
                self._searching[slot][1] + expected_seconds(self._searching[slot][0]) - now,
            )
            for slot in range(self.size)
        ]
        heapq.heapify(free_at)
        for ahead, (_, task) in enumerate(self._queue):
            start = heapq.heappop(free_at)
            if task.game_id == game_id:
                return {"ahead": ahead, "seconds": round(start, 1)}
            heapq.heappush(free_at, start + expected_seconds(task))
        return None  # pragma: no cover - found above

    def _worker(self, slot: int) -> _Worker:
        with self._guard:
            worker = self._workers[slot]
            if worker is None or not worker.process.is_alive():
                if worker is not None:
                    worker.stop()
                worker = self._workers[slot] = _Worker()
            return worker

    async def think(self, task: Task) -> tuple[int, dict[str, Any] | None]:
        """The move and the engine's report; raises :class:`ThinkingCancelled` when cancelled,
        :class:`OxoError` subclasses for what the engine refused."""
        slot = await self._acquire(task)
        try:
            loop = asyncio.get_running_loop()
            worker = await loop.run_in_executor(None, self._worker, slot)
            self._running[task.game_id] = slot

            def ask() -> tuple[Any, ...]:
                worker.conn.send(task)
                return worker.conn.recv()

            try:
                kind, first, report = await loop.run_in_executor(None, ask)
            except (EOFError, OSError):
                with self._guard:
                    if self._workers[slot] is worker:
                        self._workers[slot] = None
                worker.stop()
                raise ThinkingCancelled() from None
            finally:
                self._running.pop(task.game_id, None)
            with self._guard:
                retired = self._workers[slot] is not worker
            if retired:  # cancelled just as the answer came: the answer stands, the pipe closes
                worker.stop()
        finally:
            self._release(slot)
        if kind == "ok":
            return int(first), report
        if kind == "out_of_reach":
            raise OutOfReachError(first)
        if kind == "bad":
            raise OxoError(first)
        raise RuntimeError(first)

    def start(self) -> None:
        """Start every worker now (each loads the engines and mega's compiled search), rather than
        at the first computer move."""
        for slot in range(self.size):
            self._worker(slot)

    def running(self, game_id: str) -> bool:
        """Whether a worker is searching for this game now (not merely waiting for a free worker)."""
        return game_id in self._running

    def cancel(self, game_id: str) -> bool:
        """Stop the search of a game: its worker process ends now. True when one was running."""
        slot = self._running.get(game_id)
        if slot is None:
            return False
        with self._guard:
            worker = self._workers[slot]
            self._workers[slot] = None
        if worker is not None:
            # Only the process ends here. The pipe is closed by the thread that is reading it
            # (it sees the end of the pipe); closing it from here races that read.
            worker.process.kill()
        return True

    def close(self) -> None:
        """End every worker process."""
        with self._guard:
            workers, self._workers = self._workers, [None] * self.size
        for worker in workers:
            if worker is not None:
                worker.stop()
