"""Computer moves that wait for a free worker say so (issue 30, item 5).

The pool's queue is first come, first served, on whichever worker is free first (no worker idles
while a search waits), and the API says while a move waits, how many searches are
before it and roughly how long it will wait, computed from the thinking time of each search.
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

from servers import running_server

pytest.importorskip("uvicorn")
from oxo.geometry import Geometry  # noqa: E402
from oxo.position import Position  # noqa: E402
from oxo.web.thinking import Task, Thinkers, expected_seconds  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

START = Position.empty(Geometry.parse("15x15,k=5"))


def task(name: str, seconds: float, level: str = "hard") -> Task:
    return Task(name, "x", level, START, START, seconds, 1)


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
    pool = Thinkers(size)

    async def run() -> list[Any]:
        now = time.monotonic()
        for slot, seconds in enumerate(searching):
            pool._free[slot] = False
            pool._searching[slot] = (task(f"s{slot}", seconds), now)
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
    assert expected_seconds(task("m", 2.0, "medium")) == pytest.approx(0.2)


@pytest.mark.slow  # starts two worker processes: about 7 s on a busy machine
def test_no_worker_idles_while_a_search_waits() -> None:
    """Four searches on two workers: whenever one waits, both workers are busy (the old pool made a
    search wait for its own game's worker while the other was free: 3, 3, 6 and 9 s)."""
    pool = Thinkers(2)
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
    with running_server() as (url, _):
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
    # one of the three waited (two workers), behind nobody, for at most about one search
    assert seen, "no move was ever reported waiting for a worker"
    assert {s["id"] for s in seen} < set(games) and len({s["id"] for s in seen}) == 1
    for state in seen:
        assert state["thinking"] and state["searches_ahead"] == 0
        assert 0 <= state["wait_seconds"] <= 1.5


def test_a_hint_that_waits_too_long_answers_503(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint queued behind busy workers past the request's wait: 503 saying so, not a failure."""
    import warnings

    from oxo.web import app as web_app

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    async def slow(self: Thinkers, task: Task) -> tuple[int, None]:
        await asyncio.sleep(5)
        return 0, None

    monkeypatch.setattr(Thinkers, "think", slow)
    monkeypatch.setattr(web_app, "REQUEST_SECONDS", 0.2)
    with TestClient(
        web_app.create_app(),
        base_url="http://127.0.0.1:8000",
        headers={"Content-Type": "application/json"},
        raise_server_exceptions=False,
    ) as client:
        game = client.post("/api/games", json={"kind": "mega", "players": {"o": "human"}}).json()
        response = client.post(f"/api/games/{game['id']}/hint", json={})
    assert response.status_code == 503, response.text
    assert "no hint within 0.2 s" in response.json()["error"]
