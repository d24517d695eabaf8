"""A real ``oxo serve`` server for the tests that talk to it over sockets."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def running_server() -> Iterator[tuple[str, Any]]:
    """``oxo serve``'s app in a background thread on a free port of 127.0.0.1: its address (as
    :func:`oxo.web.url_of` gives it) and the uvicorn server; stopped on leaving."""
    from oxo.web import bind, make_server, url_of  # the web extra: the callers skip without it

    sock = bind("127.0.0.1", 0)
    # the searches at the tests' own priority: below it, they wait behind the other test processes
    server = make_server(sock, niceness=0)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the test server did not start"
        time.sleep(0.05)
    try:
        yield url_of(sock), server
    finally:
        server.should_exit = True
        thread.join(timeout=15)
        sock.close()
