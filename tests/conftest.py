"""Fixtures shared by several test files."""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session")
def e2e_server_url() -> Iterator[str]:
    """``oxo serve``'s server in a background thread on a free port of 127.0.0.1, one for every
    browser test file of a test process (``test_web_e2e``'s ``server_url``): each start loads the
    page's two worker processes."""
    from oxo.web import bind, make_server, url_of

    sock = bind("127.0.0.1", 0)
    server = make_server(sock)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    try:
        yield url_of(sock)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture(scope="session")
def e2e_browser_context() -> Iterator[object]:
    """Headless chromium (Debian's, driven by Playwright), one for every browser test file of a test
    process (``test_web_e2e``'s ``browser_context``; each test opens its own page)."""
    import test_web_e2e as e2e  # skips when chromium or playwright is missing

    profile = tempfile.mkdtemp(prefix="oxo-chromium-")
    with e2e.playwright_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=str(e2e.CHROMIUM),
            args=e2e.ARGS,
            headless=True,
            viewport={"width": 1200, "height": 900},
            # the page's Content-Security-Policy forbids eval; Playwright's waits need it
            bypass_csp=True,
        )
        try:
            yield context
        finally:
            context.close()
    shutil.rmtree(profile, ignore_errors=True)
