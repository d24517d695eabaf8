"""The computer's thinking, in worker processes, so the web server never stops answering.

A search holds the interpreter for seconds; run in the server's own process it would slow every
other request (Python runs one thread at a time). :class:`Thinkers` keeps a few long-lived worker
processes (``spawn``: nothing of the server is inherited). Each worker keeps the engines of the games
it served (an LRU of :data:`ENGINES_PER_WORKER`), so an engine's tables and the exact solver's answers
carry over from one move to the next, as in ``oxo play``. A game goes to the same worker when it is
free. Workers run at a lower priority than the server (:data:`NICENESS`).

A worker takes a second or several to start (a new interpreter loads the engines and the compiled
searches), and says when it is ready. Cancelling a search (Stop, New game) ends its worker process at
once; a spare worker, started and warmed beforehand, takes its place, and another spare starts in the
background, so the next move does not wait for a start. Only when no spare is ready (two stops in a
row) does a move wait for a worker to start, and :meth:`Thinkers.status` says so.

When every worker is busy, searches wait in one queue, first come first served, for whichever worker
is free first; :meth:`Thinkers.status` says which phase a game's computer move is in (waiting for a
worker, waiting for one to start, searching), how many searches are ahead of it and roughly how long it
will wait: "about" when every search before it runs on a clock and every start was measured, "at
least" when one has no fixed end (``perfect`` searches until it proves a move) or already ran past
its expected end; :func:`wait_words` says it in the page's words.
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
from collections.abc import Callable
from dataclasses import dataclass, field
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
#: Seconds a worker is expected to take to start before one was measured on this machine.
STARTUP_GUESS = 3.0
#: Levels whose search ends on a clock (the thinking time, or at once); ``perfect`` searches until it
#: has proved a move, which has no fixed length.
CLOCKED = frozenset({"random", "easy", "medium", "hard", "best"})


def _quick_index_seconds() -> float:
    from oxo.book import play

    return play.AUTO_BUILD_SECONDS


@dataclass(frozen=True)
class Task:
    """One computer move to find: which game and side, the level and the states it needs.

    ``quick_index_seconds`` is the server's limit under which a certificate's index is built
    unasked (``oxo.book.play.AUTO_BUILD_SECONDS`` where the task is made): the worker plays by it,
    so that the page offers to prepare exactly what the computer's player would not build."""

    game_id: str
    side: str
    level: str
    start: GameState
    state: GameState
    seconds: float
    seed: int | None
    quick_index_seconds: float = field(default_factory=_quick_index_seconds)


#: Raised by :meth:`Thinkers.think` when the search was stopped before it chose a move.
ThinkingCancelled = concurrent.futures.CancelledError


def expected_seconds(task: Task) -> float:
    """Roughly how long a search takes: its thinking time at ``hard`` and ``best`` (which may search as
    hard does), a tenth at ``medium``, a moment at the other levels (for ``perfect``, a guess: it
    has no clock, see :data:`CLOCKED`)."""
    return {"hard": task.seconds, "best": task.seconds, "medium": task.seconds / 10}.get(
        task.level, 0.1
    )


def wait_words(status: dict[str, Any]) -> str | None:
    """What the page says while a computer move is not searching yet (after "O (hard) "), from
    :meth:`Thinkers.status`; None while it searches (the page shows its clock then).

    A wait is "about N s" only when it is known (``sure``); otherwise "at least N s" when the known
    part is a second or more, and no figure at all below that: a wait is never promised shorter
    than it may be. A start is said as a start, not as thinking."""
    phase = status.get("phase")
    if phase not in ("waiting", "starting"):
        return None
    seconds = float(status.get("seconds") or 0.0)
    sure = bool(status.get("sure"))
    if sure and seconds < 1:
        time_words = "under a second"
    elif sure:
        time_words = f"about {round(seconds)} s"
    elif seconds >= 1:
        time_words = f"at least {int(seconds)} s"
    else:
        time_words = None
    if phase == "starting":
        when = f"{time_words}, " if time_words else ""
        return f"is starting a worker process ({when}it loads the engines) before it thinks"
    ahead = int(status.get("ahead") or 0)
    before = f"{ahead} other search{'es' if ahead != 1 else ''} before it" if ahead else ""
    parts = [p for p in (time_words, before) if p]
    if not sure and not time_words:
        parts.append("how long the searches before it take is not known")
    return f"is waiting for a free worker ({', '.join(parts)})"


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


def answer_task(
    task: Task, engines: BoundedCache[tuple[str, str, str, float, int | None], Any]
) -> tuple[Any, ...]:
    """A worker's answer to ``task``: ``("ok", move, report)``, or the kind of error and its
    message. ``engines`` keeps each game's engine (its tree and tables) between moves. The task's
    limit for building an index unasked becomes this process's (a worker serves one server)."""
    from oxo.book import play

    play.AUTO_BUILD_SECONDS = task.quick_index_seconds
    try:
        key = (task.game_id, task.side, task.level, task.seconds, task.seed)
        engine = engines.get(key)
        if engine is None:
            engine = engines.put(key, engine_for(task.level, task.start, task.seconds, task.seed))
        move = engine.choose(task.state)
        report = engine.last.to_dict() if engine.last is not None else None
        return ("ok", move, report)
    except OutOfReachError as error:
        return ("out_of_reach", str(error), None)
    except OxoError as error:
        return ("bad", str(error), None)
    except Exception as error:  # an engine defect: reported, the worker keeps serving
        return ("failed", f"{type(error).__name__}: {error}", None)


def _work(conn: Connection, niceness: int = NICENESS) -> None:  # pragma: no cover - a worker
    """A worker's loop: receive a :class:`Task`, answer ``("ok", move, report)`` or an error."""
    import os

    try:  # the server's answers come before the search when both want the processor
        if niceness:
            os.nice(niceness)
    except (AttributeError, OSError):
        pass
    try:  # compile (or load from cache) mega's search before the first clock starts
        from oxo.mega import compiled

        compiled.warm_up()
    except Exception:
        pass
    try:  # and load what every task needs (the registry, the engines) before saying it is ready
        import oxo.engines
        import oxo.registry  # noqa: F401  # loaded, not used here

        oxo.engines.make_engine("random", oxo.registry.new_game("3x3"))
    except Exception:
        pass
    try:  # ready: the server may send tasks now (and knows how long a start takes here)
        conn.send(("ready", None, None))
    except (BrokenPipeError, OSError):
        return
    engines: BoundedCache[tuple[str, str, str, float, int | None], Any] = BoundedCache(
        ENGINES_PER_WORKER
    )
    while True:
        try:
            task: Task = conn.recv()
        except (EOFError, OSError):
            return
        answer = answer_task(task, engines)
        try:
            conn.send(answer)
        except (BrokenPipeError, OSError):
            return


class _Worker:
    """One worker process and the pipe to it. A thread reads the worker's first message, "ready"
    (sent once it has loaded the engines), and calls ``on_ready`` with the seconds the start took."""

    def __init__(
        self, on_ready: Callable[[float], None] | None = None, niceness: int = NICENESS
    ) -> None:
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        self.conn = ours
        self.started = time.monotonic()
        self.ready_at: float | None = None
        self._settled = threading.Event()  # ready, or ended before it was
        self._on_ready = on_ready
        self.process = context.Process(
            target=_work, args=(theirs, niceness), name="oxo-thinker", daemon=True
        )
        self.process.start()
        theirs.close()
        threading.Thread(target=self._await_ready, name="oxo-thinker-start", daemon=True).start()

    def _await_ready(self) -> None:
        try:
            kind = self.conn.recv()[0]
            if kind == "ready":
                self.ready_at = time.monotonic()
                if self._on_ready is not None:
                    self._on_ready(self.ready_at - self.started)
        except (EOFError, OSError):
            pass  # ended (cancelled, or closed) before it was ready
        finally:
            self._settled.set()

    @property
    def ready(self) -> bool:
        """Whether the worker has started and takes tasks now."""
        return self.ready_at is not None

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until the worker is ready (True) or has ended before it was (False)."""
        self._settled.wait(timeout)
        return self.ready

    def alive(self) -> bool:
        return self.process.is_alive()

    def stop(self) -> None:
        if self.process.is_alive():
            self.process.kill()
        self.process.join(timeout=5)
        # the thread reading "ready" sees the end of the pipe first: closing it under a read races it
        self._settled.wait(5)
        self.conn.close()


class Thinkers:
    """A small pool of worker processes that choose computer moves, cancellable per game, with one
    spare worker kept started (``spare``) to replace a cancelled one at once. Searches that find
    every worker busy wait in one first-come-first-served queue. ``niceness`` is how much lower
    than the server the workers run (:data:`NICENESS`; 0: the same priority)."""

    def __init__(self, workers: int = 2, spare: bool = True, niceness: int = NICENESS) -> None:
        self.size = max(1, workers)
        self.niceness = niceness
        self._workers: list[_Worker | None] = [None] * self.size
        self._spare: _Worker | None = None
        self._keep_spare = spare
        self._free: list[bool] = [True] * self.size
        self._searching: dict[
            int, tuple[Task, float]
        ] = {}  # slot -> its task, when it got the slot
        self._began: dict[int, float] = {}  # slot -> when its worker began searching (it was ready)
        self._queue: deque[tuple[asyncio.Future[int], Task]] = deque()  # waiting, oldest first
        self._running: dict[str, int] = {}  # game id -> worker slot
        self._guard = threading.Lock()
        self._closed = False
        self._spare_starting = False
        #: Seconds the last worker took to start here (a guess until one was measured).
        self.startup_seconds = STARTUP_GUESS
        self.startup_measured = False

    def _started(self, seconds: float) -> None:
        self.startup_seconds = seconds
        self.startup_measured = True

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
        self._began.pop(slot, None)
        while self._queue:
            waiter, _ = self._queue.popleft()
            if not waiter.done():
                waiter.set_result(slot)
                return
        self._free[slot] = True

    # -- how long: the phase of a game's move and its wait ------------------------------------------

    def _start_left(self, slot: int, now: float) -> tuple[float, bool]:
        """Seconds until the worker of ``slot`` can search, and whether that is known: 0 when it is
        ready; a measured start's remainder; unknown once a start runs past the measured time."""
        worker = self._workers[slot]
        if worker is not None and worker.ready:
            return 0.0, True
        if worker is None and self._spare is not None and self._spare.ready:
            return 0.0, True  # the spare takes the slot at once
        began = now if worker is None else worker.started
        left = began + self.startup_seconds - now
        if left < 0:
            return 0.0, False
        return left, self.startup_measured

    def _free_in(self, slot: int, now: float) -> tuple[float, bool]:
        """Seconds until ``slot`` is free for the next search, and whether that is known."""
        start, sure = self._start_left(slot, now)
        if slot not in self._searching:
            return start, sure
        task, _ = self._searching[slot]
        expected, clocked = expected_seconds(task), task.level in CLOCKED
        began = self._began.get(slot)
        if began is None:  # not searching yet: the start, then the whole search
            return start + expected, sure and clocked
        left = began + expected - now
        if left < 0:  # past its expected end: any moment, but when is not known
            return 0.0, False
        return left, clocked

    def status(self, game_id: str) -> dict[str, Any] | None:
        """The phase of the game's computer move, None when it has none under way:
        ``{"phase": "waiting", "ahead": searches before it, "seconds": rough wait, "sure": bool}`` while
        it waits for a free worker; ``{"phase": "starting", "seconds", "sure"}`` while its worker
        starts; ``{"phase": "searching", "seconds": since the search began}``."""
        now = time.monotonic()
        for slot, (task, _) in self._searching.items():
            if task.game_id != game_id:
                continue
            began = self._began.get(slot)
            if began is not None:
                return {"phase": "searching", "seconds": round(now - began, 1)}
            seconds, sure = self._start_left(slot, now)
            if seconds == 0 and sure:  # a started worker is being handed the search now
                return {"phase": "searching", "seconds": 0.0}
            return {"phase": "starting", "seconds": round(seconds, 1), "sure": sure}
        if not any(task.game_id == game_id for _, task in self._queue):
            return None
        free_at = [(*self._free_in(slot, now), slot) for slot in range(self.size)]
        heapq.heapify(free_at)
        for ahead, (_, task) in enumerate(self._queue):
            start, sure, slot = heapq.heappop(free_at)
            if task.game_id == game_id:
                return {
                    "phase": "waiting",
                    "ahead": ahead,
                    "seconds": round(start, 1),
                    "sure": sure,
                }
            end = start + expected_seconds(task)
            heapq.heappush(free_at, (end, sure and task.level in CLOCKED, slot))
        return None  # pragma: no cover - found above

    def waiting(self, game_id: str) -> dict[str, Any] | None:
        """``{"ahead": searches before this one, "seconds": rough wait, "sure": bool}`` while the
        game's search waits for a free worker; None when it is not waiting (see :meth:`status`)."""
        status = self.status(game_id)
        if status is None or status["phase"] != "waiting":
            return None
        return {key: status[key] for key in ("ahead", "seconds", "sure")}

    # -- the workers ---------------------------------------------------------------------------

    def _worker(self, slot: int) -> _Worker:
        """The worker of ``slot``: the one there while it lives, else the spare (already started),
        else a new one; a new spare then starts in the background (never holding up a search)."""
        with self._guard:
            if self._closed:
                raise ThinkingCancelled()
            worker = self._workers[slot]
            if worker is None or not worker.alive():
                if worker is not None:
                    worker.stop()
                spare, self._spare = self._spare, None
                if spare is None or not spare.alive():
                    if spare is not None:
                        spare.stop()
                    spare = _Worker(self._started, self.niceness)
                worker = self._workers[slot] = spare
            wanted = self._keep_spare and not self._spare_starting
            wanted = wanted and (self._spare is None or not self._spare.alive())
            if wanted:
                self._spare_starting = True
        if wanted:
            threading.Thread(target=self._start_spare, name="oxo-spare", daemon=True).start()
        return worker

    def _start_spare(self) -> None:
        """Start a spare worker (in its own thread: starting a process takes a moment)."""
        spare: _Worker | None = None
        try:
            spare = _Worker(self._started, self.niceness)
        finally:
            with self._guard:
                self._spare_starting = False
                keep = spare is not None and self._keep_spare and not self._closed
                old, self._spare = (self._spare, spare) if keep else (None, self._spare)
            if not keep and spare is not None:
                spare.stop()
            if old is not None:
                old.stop()

    def _refill(self, slot: int) -> None:
        """Put a worker (the spare) into a slot emptied by a cancel, off the event loop."""

        def refill() -> None:
            try:
                self._worker(slot)
            except ThinkingCancelled:  # the pool closed meanwhile
                pass

        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            refill()
            return
        loop.run_in_executor(None, refill)

    async def think(self, task: Task) -> tuple[int, dict[str, Any] | None]:
        """The move and the engine's report; raises :class:`ThinkingCancelled` when cancelled,
        :class:`OxoError` subclasses for what the engine refused."""
        slot = await self._acquire(task)
        try:
            loop = asyncio.get_running_loop()
            worker = await loop.run_in_executor(None, self._worker, slot)
            self._running[task.game_id] = slot

            def ask() -> tuple[Any, ...]:
                if not worker.wait_ready():  # ended while it started (cancelled)
                    raise EOFError
                self._began[slot] = time.monotonic()
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
        """Start every worker now, and the spare (each loads the engines and mega's compiled
        search), rather than at the first computer move."""
        for slot in range(self.size):
            self._worker(slot)

    def spare_ready(self) -> bool:
        """Whether a spare worker has started and waits to replace a cancelled one."""
        spare = self._spare
        return spare is not None and spare.ready and spare.alive()

    def ready(self, slot: int) -> bool:
        """Whether the worker of ``slot`` is started and takes a search now."""
        worker = self._workers[slot]
        return worker is not None and worker.ready and worker.alive()

    def running(self, game_id: str) -> bool:
        """Whether a worker is searching for this game now (not merely waiting for a free worker)."""
        return game_id in self._running

    def cancel(self, game_id: str) -> bool:
        """Stop the search of a game: its worker process ends now and the spare takes its slot.
        True when one was running."""
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
        if self._keep_spare:
            self._refill(slot)
        return True

    def close(self) -> None:
        """End every worker process, the spare too."""
        with self._guard:
            workers, self._workers = self._workers, [None] * self.size
            spare, self._spare = self._spare, None
            self._closed = True
        for worker in (*workers, spare):
            if worker is not None:
                worker.stop()
