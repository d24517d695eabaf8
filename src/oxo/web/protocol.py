"""The HTTP protocol ``oxo serve`` runs: uvicorn's httptools protocol with a deadline for headers.

uvicorn closes a keep-alive connection that stays idle between requests, but a client that opens a
connection and sends nothing, or sends a request line and then its headers a byte at a time, holds
the connection for ever; a few hundred of them would use up the server's connections. Here every
request's line and headers must arrive within :data:`HEADER_SECONDS` of its first byte (or of the
connection's opening), else the connection is closed. Bodies have their own deadline in the app.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

#: Seconds a client has to send a request's line and headers.
HEADER_SECONDS = 10.0


class TimedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, closing connections whose headers come too slowly."""

    _header_timer: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(HEADER_SECONDS, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        self._arm()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)
