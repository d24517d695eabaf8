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


#: The address and the headers of the page's requests, as a test client sends them.
BASE = "http://127.0.0.1:8000"
JSON_HEADERS = {"Content-Type": "application/json"}


@contextmanager
def page_client(*, raise_server_exceptions: bool = False, **options: Any) -> Iterator[Any]:
    """A Starlette test client of ``oxo serve``'s app as the page is one: this machine's address,
    JSON posts, one event loop throughout, and a failure of the server's answered as the page sees
    it (500) unless ``raise_server_exceptions``. ``options`` go to ``create_app``; its searches run
    at the tests' own priority unless they say otherwise."""
    from starlette.testclient import TestClient

    from oxo.web.app import create_app

    options.setdefault("niceness", 0)
    with TestClient(
        create_app(**options),
        base_url=BASE,
        headers=JSON_HEADERS,
        raise_server_exceptions=raise_server_exceptions,
    ) as client:
        yield client
