"""Hooks for the whole suite."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Generator, Iterator
from typing import Any

import pytest
from hypothesis import settings

from e2e_session import BROWSER_FILES, close_browser_tests, is_open
from servers import page_client

# No property test fails for taking long: hypothesis's default deadline (200 ms an example) is a
# timing assertion, and on a loaded machine an example of test_games' whole-game transforms took
# 312 ms. Slow examples still show in the durations at the end of the run.
settings.register_profile("oxo", deadline=None)
settings.load_profile("oxo")


def pytest_configure(config: pytest.Config) -> None:
    """oxo's cache folder (indexes of certificates, built once) is a folder of this run, shared by
    its workers (pytest-xdist starts them with this environment), never the user's: every run
    starts from an empty cache, as CI does from a clean clone."""
    if hasattr(config, "workerinput"):  # a worker: the controller chose the folder
        return
    folder = tempfile.mkdtemp(prefix="oxo-test-cache-")
    os.environ["OXO_CACHE"] = folder
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one test process more than the machine has cores. Many tests wait (for a
    browser, a child process, a server's worker), and the third process keeps the cores busy
    meanwhile."""
    return (os.cpu_count() or 1) + 1


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that drives a real browser (Playwright's ``page``) belongs to the slow part: a
    browser and the page's server cost more than most boards (CI runs the slow part too). The
    slow part runs first."""
    for item in items:
        if "page" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)
    # The slow tests first (each file's in its order): with several workers the long ones then
    # start early and the short ones fill in at the end, instead of one worker finishing a long
    # test while the others wait.
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, None, None]:
    """After a test's own teardown: close the browser tests' server and browser (``e2e_session``)
    when the next test of this process is not a browser test, or there is none."""
    try:
        return (yield)
    finally:
        if is_open() and (nextitem is None or nextitem.path.name not in BROWSER_FILES):
            close_browser_tests()


@pytest.fixture
def no_quick_index(monkeypatch: pytest.MonkeyPatch) -> None:
    """No index counts as quick to build (``AUTO_BUILD_SECONDS``), so that the level perfect and
    the page offer to build one rather than build it unasked: for tests of that offer on boards
    whose real certificates' estimates (from their recorded checks) may fall under the limit as
    the checker gets faster. The page's thinking processes are given the limit with each move
    (``oxo.web.thinking.Task``), so it reaches them too."""
    import oxo.book.play

    monkeypatch.setattr(oxo.book.play, "AUTO_BUILD_SECONDS", -1.0)


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    """A test client of ``oxo serve``'s app as the page is one (``servers.page_client``), shared by
    a test module's tests; a module that needs other options defines its own."""
    with page_client() as test_client:
        yield test_client
