"""The browser tests' server and browser, shared by the browser test files (``conftest.py`` closes them).

The four browser test files (``BROWSER_FILES``) use one ``oxo serve`` server and one headless
chromium while a test process runs their tests one after another, instead of one of each per file:
a start costs the page's two worker processes, and a browser. Both are closed as soon as the next
test of the process is not in one of these files (and started again if one comes later), so no
other test runs beside them: Playwright's sync API holds an event loop in the test process's main
thread (``asyncio.run`` fails while it is open), and the memory guard of an in-process count weighs
every process below the test process.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from servers import running_server

BROWSER_FILES = frozenset(
    {"test_web_e2e.py", "test_web_page_e2e.py", "test_uttt_web_e2e.py", "test_web_map.py"}
)

#: What is open now: "url" and "stop" (the server), "context" and "close" (the browser).
_OPEN: dict[str, Any] = {}


def e2e_server_url() -> str:
    """The address of ``oxo serve``'s server, in a background thread on a free port of 127.0.0.1
    (started at the first call since the last :func:`close_browser_tests`)."""
    if "url" not in _OPEN:
        stack = ExitStack()
        _OPEN["url"], _OPEN["server"] = stack.enter_context(running_server())
        _OPEN["stop"] = stack.close
    url: str = _OPEN["url"]
    return url


def e2e_thinkers() -> Any:
    """The worker pool of the server :func:`e2e_server_url` started (``oxo.web.thinking.Thinkers``)."""
    e2e_server_url()
    return _OPEN["server"].config.app.state.thinkers


def e2e_preparer() -> Any:
    """The certificates' preparer of the server :func:`e2e_server_url` started
    (``oxo.web.proofs.Preparer``)."""
    e2e_server_url()
    return _OPEN["server"].config.app.state.preparer


def e2e_browser_context(launch: Callable[[str], Any]) -> Any:
    """The browser context made by ``launch(profile folder)`` (a Playwright persistent context and
    the function that closes it all), made at the first call since the last
    :func:`close_browser_tests`."""
    if "context" not in _OPEN:
        profile = tempfile.mkdtemp(prefix="oxo-chromium-")
        context, close = launch(profile)

        def close_all() -> None:
            try:
                close()
            finally:
                shutil.rmtree(profile, ignore_errors=True)

        _OPEN["context"], _OPEN["close"] = context, close_all
    return _OPEN["context"]


def close_browser_tests() -> None:
    """Close the browser, then stop the server (whichever is open)."""
    close, stop = _OPEN.pop("close", None), _OPEN.pop("stop", None)
    _OPEN.clear()
    try:
        if close is not None:
            close()
    finally:
        if stop is not None:
            stop()


def is_open() -> bool:
    """Whether the server or the browser is open."""
    return bool(_OPEN)
