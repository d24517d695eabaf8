"""The HTTP protocol ``oxo serve`` runs: uvicorn's httptools protocol with a deadline for headers, and
a cap that slow clients cannot fill.

uvicorn closes a keep-alive connection that stays idle between requests, but a client that opens a
connection and sends nothing, or sends a request line and then its headers a byte at a time, holds
the connection for ever; a few hundred of them would use up the server's connections. Here every
request's line and headers must arrive within :data:`HEADER_SECONDS` of its first byte (or of the
connection's opening), else the connection is closed. Bodies have their own deadline in the app.

The deadline alone does not stop a neighbour who reconnects at once, even from this machine's own
address (so a limit per address would not help). So connections are counted in two groups:

* *waiting* connections: opened, or idle between two requests, and still sending a request (its
  line, headers or body). At most :data:`WAITING_LIMIT` are kept; one more evicts the one that has
  been waiting longest (the slowest to deliver its request; a browser sends a request at once).
* *busy* connections: with a whole request being answered. Only these count against uvicorn's
  ``limit_concurrency`` (its 503 "Exceeded concurrency limit"), so a complete request is answered
  however many slow ones are waiting.

A request that is not HTTP at all (a malformed request line or header, bytes outside ASCII in the
address) gets uvicorn's 400 with the reason in this app's JSON form, and the connection is closed
(the parser cannot find where the next request would begin).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: Seconds a client has to send a request's line and headers.
HEADER_SECONDS = 10.0
#: Connections kept while they send a request (or idle between requests); one more evicts the one
#: waiting longest. Below the usual limit of 1024 open files, with room for the busy ones.
WAITING_LIMIT = 512
#: The answer to bytes that are not an HTTP request.
NOT_HTTP = json.dumps(
    {
        "error": "the request is not valid HTTP: a malformed request line or header, or bytes "
        "outside ASCII in the address (percent-encode them, as in %C3%A9)"
    }
).encode()


def _waiting(server_state: Any) -> dict[TimedHttpToolsProtocol, float]:
    """The server's waiting connections, oldest first, with the time each began waiting."""
    table: dict[TimedHttpToolsProtocol, float] | None = getattr(server_state, "oxo_waiting", None)
    if table is None:
        table = {}
        server_state.oxo_waiting = table
    return table


class TimedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing connections whose headers come too slowly, and counting
    only connections with whole requests against the concurrency limit."""

    _header_timer: asyncio.TimerHandle | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # uvicorn's own check counts every open connection; this protocol checks busy ones only.
        self._cap: int | None = self.limit_concurrency
        self.limit_concurrency = None

    # -- the header deadline -------------------------------------------------------------------

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(HEADER_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        self._close()

    def _close(self) -> None:
        _waiting(self.server_state).pop(self, None)
        if not self.transport.is_closing():
            self.transport.close()

    # -- waiting and busy connections ----------------------------------------------------------

    def _wait(self) -> None:
        """This connection now waits for a request to arrive (kept: the time it began waiting)."""
        waiting = _waiting(self.server_state)
        waiting.setdefault(self, time.monotonic())
        while len(waiting) > WAITING_LIMIT:
            oldest = next(iter(waiting))
            oldest._close()  # the slowest: waiting longest (this one, the newest, is last)

    def _busy(self) -> int:
        """Connections answering a whole request, and this one (its headers just came)."""
        waiting = _waiting(self.server_state)
        return 1 + sum(
            1
            for connection in self.connections
            if connection is not self
            and connection not in waiting
            and not (connection.transport is not None and connection.transport.is_closing())
        )

    # -- uvicorn's callbacks ---------------------------------------------------------------------

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm()
        self._wait()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()
        if (
            self.cycle is None or self.cycle.response_complete
        ):  # not behind a request being answered
            self._wait()

    def on_headers_complete(self) -> None:
        self._disarm()  # still waiting (evictable) until the body has come too
        # 0 makes uvicorn answer 503 (its test is "connections >= limit"); None lets the request in.
        full = self._cap is not None and self._busy() > self._cap
        self.limit_concurrency = 0 if full else None
        try:
            super().on_headers_complete()
        finally:
            self.limit_concurrency = None

    def on_message_complete(self) -> None:
        _waiting(self.server_state).pop(self, None)  # the whole request is here: busy now
        super().on_message_complete()

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to what its parser refuses, as one JSON line saying what is wrong."""
        self.transport.write(
            b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n"
            + f"content-length: {len(NOT_HTTP)}\r\nconnection: close\r\n\r\n".encode()
            + NOT_HTTP
        )
        self._close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self.timeout_keep_alive_task is not None and not self.transport.is_closing():
            self._wait()  # idle, kept alive for the next request

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        _waiting(self.server_state).pop(self, None)
        super().connection_lost(exc)
