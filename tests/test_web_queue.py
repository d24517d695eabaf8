"""Computer moves that wait for a free worker, or for a worker to start, say so.

The pool's queue is first come, first served, on whichever worker is free first (no worker idles
while a search waits), and the API says while a move waits, how many searches are
before it and roughly how long it will wait, computed from the thinking time of each search and
the time a worker takes to start; a wait is "about" only when it is known, else "at least" (a
search without a clock, one past its time, a start past the measured time). A cancelled worker is
replaced by a spare started beforehand, so the next move does not wait for a start (issue 45,
item 9). The pool's books are set up by hand with stand-ins for the worker processes where the
phase or the wait is checked; no test waits for a moment of wall time.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from oxo.geometry import Geometry
from oxo.position import Position
from oxo.web.thinking import (
    Task,
    Thinkers,
    ThinkingCancelled,
    expected_seconds,
    wait_words,
)
from servers import page_client, running_server

START = Position.empty(Geometry.parse("15x15,k=5"))


def task(name: str, seconds: float, level: str = "hard") -> Task:
    return Task(name, "x", level, START, START, seconds, 1)


class ReadyWorker:
    """Stands in for a started worker process in the pool's books (no process is started)."""

    ready = True
    started = 0.0

    def alive(self) -> bool:
        return True


class StartingWorker:
    """Stands in for a worker process still starting, begun ``ago`` seconds before now."""

    ready = False

    def __init__(self, ago: float) -> None:
        self.started = time.monotonic() - ago

    def alive(self) -> bool:
        return True


def walk_of_the_queue(size: int, searching: list[float], queued: list[float]) -> list[float]:
    """The slow yardstick: the waits of queued searches, second by second of a simulated clock
    (tenths), each taking the first worker free when its turn comes."""
    free_at = [round(10 * s) for s in searching] + [0] * (size - len(searching))
    waits = []
    for length in queued:
        tick = 0
        while min(free_at) > tick:
            tick += 1
        slot = free_at.index(min(free_at))
        waits.append(tick / 10)
        free_at[slot] = tick + round(10 * length)
    return waits


@pytest.mark.parametrize(
    ("size", "searching", "queued"),
    [(2, [3.0, 3.0], [3.0, 3.0, 3.0]), (2, [1.0, 4.0], [2.0, 0.5, 5.0]), (1, [2.0], [1.0, 1.0])],
)
def test_the_wait_is_worked_out_from_the_searches_before(
    size: int, searching: list[float], queued: list[float]
) -> None:
    """The estimate against a walk of the clock, the pool's state set up by hand (no process)."""
    pool = Thinkers(size, niceness=0)

    async def run() -> list[Any]:
        now = time.monotonic()
        for slot, seconds in enumerate(searching):
            pool._free[slot] = False
            pool._searching[slot] = (task(f"s{slot}", seconds), now)
            pool._began[slot] = now  # searching (its worker was ready)
            pool._workers[slot] = ReadyWorker()  # type: ignore[assignment]  # a stand-in: no process
        for slot in range(len(searching), size):
            pool._workers[slot] = ReadyWorker()  # type: ignore[assignment]  # a stand-in: no process
        waiters = [
            asyncio.ensure_future(pool._acquire(task(f"q{i}", s))) for i, s in enumerate(queued)
        ]
        await asyncio.sleep(0)
        answers = [pool.waiting(f"q{i}") for i in range(len(queued))]
        assert pool.waiting("s0") is None and pool.waiting("nobody") is None
        for waiter in waiters:
            waiter.cancel()
        await asyncio.gather(*waiters, return_exceptions=True)
        assert not pool._queue  # a cancelled search leaves the queue
        return answers

    answers = asyncio.run(run())
    expected = walk_of_the_queue(size, searching, queued)
    assert [a["ahead"] for a in answers] == list(range(len(queued)))
    for answer, wait in zip(answers, expected, strict=True):
        assert answer["seconds"] == pytest.approx(wait, abs=0.2)
        assert answer["sure"]  # every search before it is on a clock
    assert expected_seconds(task("m", 2.0, "medium")) == pytest.approx(0.2)


def statuses(pool: Thinkers, acquired: list[Task], queued: list[Task]) -> list[Any]:
    """Each queued task's status (and the acquired ones' first) with the pool's books as set up."""

    async def run() -> list[Any]:
        for item in acquired:
            await pool._acquire(item)
        waiters = [asyncio.ensure_future(pool._acquire(item)) for item in queued]
        await asyncio.sleep(0)
        answers = [pool.status(item.game_id) for item in (*acquired, *queued)]
        for waiter in waiters:
            waiter.cancel()
        await asyncio.gather(*waiters, return_exceptions=True)
        return answers

    return asyncio.run(run())


def test_a_worker_that_starts_is_said_to_start_and_counted_in_the_wait() -> None:
    """The old estimate counted a search from the moment it was asked for: a worker still starting
    (after Stop or New game) made a 3 s wait read "about 1 s" and the start read as thinking."""
    pool = Thinkers(1, spare=False, niceness=0)
    pool.startup_seconds, pool.startup_measured = 3.0, True
    pool._workers[0] = StartingWorker(ago=1.0)  # type: ignore[assignment]  # a stand-in: no process
    first, behind = task("first", 2.0), task("behind", 2.0)
    starting, waiting = statuses(pool, [first], [behind])
    assert starting["phase"] == "starting" and starting["sure"]
    assert starting["seconds"] == pytest.approx(2.0, abs=0.2)  # 3 s to start, 1 s of it gone
    assert waiting["phase"] == "waiting" and waiting["ahead"] == 0 and waiting["sure"]
    assert waiting["seconds"] == pytest.approx(4.0, abs=0.2)  # the rest of the start, then 2 s
    assert wait_words(starting) == (
        "is starting a worker process (about 2 s, it loads the engines) before it thinks"
    )
    assert wait_words(waiting) == "is waiting for a free worker (about 4 s)"


@pytest.mark.parametrize(
    ("ahead", "began", "worker", "startup"),
    [
        (task("perfect", 1.0, "perfect"), 0.0, ReadyWorker, (3.0, True)),  # no clock: unknown end
        (task("late", 1.0), 5.0, ReadyWorker, (3.0, True)),  # 5 s into a 1 s search
        (task("slow start", 1.0), None, lambda: StartingWorker(ago=5.0), (3.0, True)),
        (task("unmeasured", 1.0), None, lambda: StartingWorker(ago=0.0), (3.0, False)),
    ],
    ids=["perfect", "overran", "start-overran", "start-unmeasured"],
)
def test_a_wait_not_known_is_never_promised(
    ahead: Task, began: float | None, worker: Any, startup: tuple[float, bool]
) -> None:
    """Whatever is before a move without a known end, its wait is "at least" or has no figure,
    never "about N s"."""
    pool = Thinkers(1, spare=False, niceness=0)
    pool.startup_seconds, pool.startup_measured = startup
    pool._workers[0] = worker()

    async def run() -> Any:
        await pool._acquire(ahead)
        if began is not None:
            pool._began[0] = time.monotonic() - began
        waiter = asyncio.ensure_future(pool._acquire(task("mine", 1.0)))
        await asyncio.sleep(0)
        found = pool.status("mine"), pool.status(ahead.game_id)
        waiter.cancel()
        await asyncio.gather(waiter, return_exceptions=True)
        return found

    mine, first = asyncio.run(run())
    assert mine["phase"] == "waiting" and not mine["sure"]
    words = wait_words(mine)
    assert words is not None and "about" not in words and "waiting for a free worker" in words
    if began is None:  # the search before it has not begun: its worker is starting
        assert first["phase"] == "starting" and not first["sure"]
        assert "about" not in (wait_words(first) or "")


def test_the_words_of_a_wait() -> None:
    cases = [
        ({"phase": "waiting", "ahead": 1, "seconds": 3.2, "sure": True},
         "is waiting for a free worker (about 3 s, 1 other search before it)"),
        ({"phase": "waiting", "ahead": 0, "seconds": 0.4, "sure": True},
         "is waiting for a free worker (under a second)"),
        ({"phase": "waiting", "ahead": 2, "seconds": 3.7, "sure": False},
         "is waiting for a free worker (at least 3 s, 2 other searches before it)"),
        ({"phase": "waiting", "ahead": 2, "seconds": 0.2, "sure": False},
         "is waiting for a free worker (2 other searches before it, how long the searches "
         "before it take is not known)"),
        ({"phase": "starting", "seconds": 0.0, "sure": False},
         "is starting a worker process (it loads the engines) before it thinks"),
        ({"phase": "searching", "seconds": 1.5}, None),
    ]  # fmt: skip
    for status, words in cases:
        assert wait_words(status) == words


def test_a_started_worker_handed_a_search_is_searching() -> None:
    """Between taking a slot and sending the task, a move on a started worker reads as searching
    (0 s), not as a start."""
    pool = Thinkers(1, spare=False, niceness=0)
    pool._workers[0] = ReadyWorker()  # type: ignore[assignment]  # a stand-in: no process
    (status,) = statuses(pool, [task("g", 1.0)], [])
    assert status == {"phase": "searching", "seconds": 0.0}
    assert Thinkers(1, spare=False, niceness=0).status("nobody") is None


def until(condition: Any, what: str, seconds: float = 120.0) -> None:
    """Wait for a signal the pool gives (a worker started), failing after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.05)


@pytest.mark.slow  # starts three worker processes: a few seconds of processor
def test_a_spare_worker_takes_over_from_a_cancelled_one() -> None:
    """Stop, then the next move: the cancelled worker's slot gets the spare, started beforehand, so
    the move searches at once (it never reads as a start), and a new spare starts behind it."""
    pool = Thinkers(1, niceness=0)
    pool.start()
    until(lambda: pool.ready(0) and pool.spare_ready(), "the worker and the spare started")
    spare = pool._spare

    async def run() -> list[Any]:
        long = asyncio.ensure_future(pool.think(task("long", 10.0)))
        while not pool.running("long"):  # on its worker (the pool's own signal)
            await asyncio.sleep(0.01)
        assert pool.cancel("long")
        with pytest.raises(ThinkingCancelled):
            await long
        seen = []
        quick = asyncio.ensure_future(pool.think(task("next", 0.2)))
        while not quick.done():
            seen.append(pool.status("next"))
            await asyncio.sleep(0.005)
        move, _ = quick.result()
        assert move in START.legal_moves
        return seen

    try:
        seen = asyncio.run(run())
        assert pool._workers[0] is spare  # the spare took the slot
        assert all(s is None or s["phase"] == "searching" for s in seen), seen
        until(pool.spare_ready, "a new spare started")
        assert pool._spare is not spare
    finally:
        pool.close()
    assert not spare.alive() and pool._spare is None


@pytest.mark.slow  # starts two worker processes: about 7 s on a busy machine
def test_no_worker_idles_while_a_search_waits() -> None:
    """Four searches on two workers: whenever one waits, both workers are busy (the old pool made a
    search wait for its own game's worker while the other was free: 3, 3, 6 and 9 s)."""
    pool = Thinkers(2, niceness=0)
    pool.start()

    async def run() -> int:
        jobs = [asyncio.ensure_future(pool.think(task(f"g{i}", 0.3))) for i in range(4)]
        samples = 0
        while not all(job.done() for job in jobs):
            await asyncio.sleep(0.01)
            if pool._queue:
                samples += 1
                assert not any(pool._free), (pool._free, len(pool._queue))
        for job in jobs:
            move, _ = job.result()
            assert move in START.legal_moves
        assert all(pool._free) and not pool._searching
        return samples

    try:
        samples = asyncio.run(run())
    finally:
        pool.close()
    assert samples > 0  # some search did wait


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """The server, once its two workers and the spare have started (the pool says so): a wait
    reported before that includes their start."""
    with running_server() as (url, uvicorn_server):
        pool = uvicorn_server.config.app.state.thinkers
        until(lambda: pool.ready(0) and pool.ready(1) and pool.spare_ready(), "the workers started")
        yield url.rstrip("/")


def call(base: str, path: str, body: object = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


@pytest.mark.slow  # three searches of 1.5 s on two worker processes: about 10 s on a busy machine
def test_the_api_says_a_move_waits_for_a_free_worker(server: str) -> None:
    games = [
        call(
            server,
            "/api/games",
            {"board": "15x15", "k": 5, "players": {"x": "hard", "o": "human"}, "seconds": 1.5},
        )["id"]
        for _ in range(3)
    ]
    moved: dict[str, Any] = {}
    threads = [
        threading.Thread(
            target=lambda g=g: moved.update({g: call(server, f"/api/games/{g}/ai", {})})
        )
        for g in games
    ]
    for thread in threads:
        thread.start()
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + 60
    while len(moved) < 3 and time.monotonic() < deadline:
        for g in games:
            state = call(server, f"/api/games/{g}")
            if state["waiting_for_worker"]:
                seen.append(state)
        time.sleep(0.1)
    for thread in threads:
        thread.join(timeout=60)
    assert len(moved) == 3 and all(len(m["moves"]) == 1 for m in moved.values())
    assert all(not m["waiting_for_worker"] and m["wait_seconds"] is None for m in moved.values())
    # one of the three waited (two workers), behind nobody
    assert seen, "no move was ever reported waiting for a worker"
    assert {s["id"] for s in seen} < set(games) and len({s["id"] for s in seen}) == 1
    for state in seen:
        assert state["thinking"] and state["searches_ahead"] == 0
        assert state["thinking_phase"] == "waiting" and state["search_seconds"] is None
        assert state["thinking_note"].startswith("is waiting for a free worker (")
        assert state["wait_seconds"] >= 0


def test_a_hint_that_waits_too_long_answers_503(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint queued behind busy workers past the request's wait: 503 saying so, not a failure."""
    from oxo.web import app as web_app

    async def slow(self: Thinkers, task: Task) -> tuple[int, None]:
        await asyncio.sleep(5)
        return 0, None

    monkeypatch.setattr(Thinkers, "think", slow)
    monkeypatch.setattr(web_app, "REQUEST_SECONDS", 0.2)
    with page_client() as client:
        game = client.post("/api/games", json={"kind": "mega", "players": {"o": "human"}}).json()
        response = client.post(f"/api/games/{game['id']}/hint", json={})
    assert response.status_code == 503, response.text
    assert "no hint within 0.2 s" in response.json()["error"]


@pytest.mark.parametrize("nice", [0, 7])
def test_workers_run_as_far_below_the_server_as_asked(nice: int) -> None:
    """The workers' priority is the server's plus ``niceness`` (the page's default keeps the server's
    answers first; the test suite's server asks for 0, so its searches do not wait behind the other
    test processes). A worker lowers its priority first thing, before it loads the engines: the
    test waits for that, not for the whole start (which a loaded machine makes long at nice 7)."""
    import os

    pool = Thinkers(1, spare=False, niceness=nice)
    try:
        pool.start()
        worker = pool._workers[0]
        assert worker is not None
        wanted = min(19, os.getpriority(os.PRIO_PROCESS, 0) + nice)
        if not nice:  # at the server's own priority from the start: it must stay there
            assert worker.wait_ready(120)
        until(
            lambda: os.getpriority(os.PRIO_PROCESS, worker.process.pid) == wanted,
            f"the worker at priority {wanted}",
        )
    finally:
        pool.close()


def test_a_worker_builds_an_index_unasked_only_under_the_servers_limit(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The limit under which the level perfect builds a certificate's index unasked goes with each
    task, so that a worker process plays by the server's limit (the page offers to prepare what
    the computer's player would not build): here 5x5 with k = 4, past the exact solver, whose
    certificate's index is estimated at seconds."""
    import dataclasses

    from oxo.book import book_entry, play
    from oxo.book.index import load_index
    from oxo.cache import BoundedCache
    from oxo.web.thinking import answer_task

    monkeypatch.setenv("OXO_CACHE", str(tmp_path))  # no index built yet
    monkeypatch.setattr(play, "AUTO_BUILD_SECONDS", -1.0)  # the server's: none is quick
    start = Position.empty(Geometry.parse("5x5,k=4"))
    entry = book_entry("5x5,k=4")
    assert entry is not None
    certificate = entry.certificate_of("x")
    assert certificate is not None and load_index(certificate) is None
    made = Task("g", "x", "perfect", start, start, 0.5, 1)
    assert made.quick_index_seconds == -1.0
    kind, move, report = answer_task(made, BoundedCache(4))
    assert kind == "ok" and move in start.empty_cells
    assert load_index(certificate) is None  # not built: perfect played as hard does
    quick = dataclasses.replace(made, quick_index_seconds=60.0)
    kind, move, report = answer_task(quick, BoundedCache(4))
    assert kind == "ok" and report is not None, (kind, move)
    assert load_index(certificate) is not None  # built unasked: the estimate is under the limit
    assert play.AUTO_BUILD_SECONDS == 60.0  # the task's limit is this process's now
