"""Slow clients cannot lock the others out (issue 30, item 2).

Hundreds of connections sending their headers (or bodies) a byte at a time, all from 127.0.0.1 like the page's
own visitors: complete requests are still answered, because only connections with a complete request
count against the server's cap, and when too many connections wait for their headers the one waiting
longest is evicted (:mod:`oxo.web.protocol`). Loopback only, bounded in count (300 sockets) and time.
"""

from __future__ import annotations

import http.client
import json
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from oxo.web import protocol
from servers import running_server

SLOW = 300
#: The client's own timeout: a normal request must be answered before it (no timing is asserted).
CLIENT_SECONDS = 10.0


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, int, Any]]:
    """A server whose header deadline lies past any test's time: only what a test is about closes
    a slow client (on a machine slow enough to take :data:`protocol.HEADER_SECONDS`, the deadline
    used to close them too, and a test of eviction passed or failed by it). The protocol reads
    both limits when it uses them, so a value set here or in a test holds for the server."""
    monkeypatch.setattr(protocol, "HEADER_SECONDS", 600.0)
    with running_server() as (url, uvicorn_server):
        host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
        yield host, int(port), uvicorn_server


def until(condition: Callable[[], bool], what: str, seconds: float = 60) -> None:
    """Wait for ``condition``, a state the server reports; ``seconds`` only bounds a hang (it comes
    at once on an idle machine), it is no moment the test depends on."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def waiting_now(uvicorn_server: Any) -> set[Any]:
    """The connections the server counts as waiting for a request (a copy, taken in one step)."""
    return set(protocol._waiting(uvicorn_server.server_state).copy())


#: How slow clients begin: a request line and a header whose value then comes a byte at a time; or
#: whole headers, then a body a byte at a time. Every byte keeps the request valid (a line that
#: began with a space would be a malformed header, answered 400 and closed at the first drip).
OPENINGS = {
    "headers": b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ",
    "body": b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    b"Content-Length: 1000\r\n\r\n{",
}


class Trickle:
    """``count`` connections that send an opening, then a byte at a time."""

    def __init__(
        self, host: str, port: int, count: int, opening: bytes = OPENINGS["headers"]
    ) -> None:
        self.sockets: list[socket.socket] = []
        for _ in range(count):
            conn = socket.create_connection((host, port), timeout=5)
            conn.sendall(opening)
            self.sockets.append(conn)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._drip, daemon=True)
        self.thread.start()

    def _drip(self) -> None:
        while not self.stop.wait(0.5):
            for conn in self.sockets:
                try:
                    conn.sendall(b"a")  # more of the header's value, or of the body
                except OSError:
                    pass  # evicted

    def open_count(self) -> int:
        """How many are still open and unanswered: a slow client has nothing to read (a closed one
        reads as the end of the stream, an answered one as its answer)."""
        still = 0
        for conn in self.sockets:
            conn.setblocking(False)
            try:
                conn.recv(1)
            except BlockingIOError:
                still += 1
            except OSError:
                pass
        return still

    def close(self) -> None:
        self.stop.set()
        self.thread.join(timeout=5)
        for conn in self.sockets:
            conn.close()


def get_info(host: str, port: int) -> int:
    connection = http.client.HTTPConnection(host, port, timeout=CLIENT_SECONDS)
    try:
        connection.request("GET", "/api/info")
        response = connection.getresponse()
        body = response.read()
        assert response.status == 200, (response.status, body[:200])
        assert json.loads(body)["levels"]
        return response.status
    finally:
        connection.close()


@pytest.mark.parametrize("slow_part", list(OPENINGS))
def test_complete_requests_are_answered_beside_300_slow_ones(
    server: tuple[str, int, Any], slow_part: str
) -> None:
    host, port, uvicorn_server = server
    slow = Trickle(host, port, SLOW, OPENINGS[slow_part])
    try:
        until(
            lambda: len(uvicorn_server.server_state.connections) >= SLOW,
            "the server accepted the slow connections",
        )
        assert SLOW > uvicorn_server.config.limit_concurrency  # more than the cap of 256
        for _ in range(10):  # each answered before the client's timeout, 200 not 503
            assert get_info(host, port) == 200
            time.sleep(0.1)
        assert slow.open_count() == SLOW  # nobody was evicted: fewer than WAITING_LIMIT wait
    finally:
        slow.close()


def test_the_slowest_are_evicted_when_too_many_wait(
    server: tuple[str, int, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Fifty wait, fifty more come: each newcomer evicts the one waiting longest, so the first
    fifty go. Every wait is for a state the server reports (its waiting connections), never for
    a moment; the header deadline is out of the way (see ``server``), so only eviction closes."""
    host, port, uvicorn_server = server
    monkeypatch.setattr(protocol, "WAITING_LIMIT", 50)
    first = Trickle(host, port, 50)
    later: Trickle | None = None
    try:
        until(lambda: len(waiting_now(uvicorn_server)) == 50, "the server took the first fifty")
        oldest = waiting_now(uvicorn_server)
        assert first.open_count() == 50
        later = Trickle(host, port, 50)
        until(
            lambda: not oldest & waiting_now(uvicorn_server),
            "the first fifty, who waited longest, were evicted",
        )
        until(lambda: first.open_count() == 0, "the evicted connections were closed")
        assert len(waiting_now(uvicorn_server)) == 50 and later.open_count() == 50
        for _ in range(5):  # and complete requests are answered
            assert get_info(host, port) == 200
        assert 50 - 5 <= later.open_count() < 50  # each evicted the oldest waiting one
    finally:
        first.close()
        if later is not None:
            later.close()
