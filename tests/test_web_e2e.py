"""End to end: ``oxo serve``'s page in a real headless browser (Playwright driving Debian's chromium).

A uvicorn server runs in a background thread on a free port of 127.0.0.1; the tests click through a
classic game to the end (with a page reload in the middle), a whole mega game between two people,
one move of the MCTS AI (the page shows it thinking), and the explorer. Screenshots go to each
test's temporary folder. Skipped, with the reason, when chromium or playwright is missing.
"""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is missing (install Debian's chromium: apt-get install -y chromium)", allow_module_level=True)
playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed (pip install playwright)")
pytest.importorskip("uvicorn", reason="uvicorn is not installed")

from oxo.mega import MegaState  # noqa: E402
from oxo.position import Position  # noqa: E402
from oxo.web import bind, make_server, url_of  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
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


@pytest.fixture(scope="module")
def browser_context() -> Iterator[object]:
    profile = tempfile.mkdtemp(prefix="oxo-chromium-")
    with playwright_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=ARGS, headless=True, viewport={"width": 1200, "height": 900}
        )
        try:
            yield context
        finally:
            context.close()
    shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def page(browser_context, server_url: str):  # type: ignore[no-untyped-def]
    page = browser_context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # Nothing but our own server may be asked for anything: the page works offline.
    outside: list[str] = []
    page.route("**/*", lambda route: route.continue_() if route.request.url.startswith(server_url) else (outside.append(route.request.url), route.abort()))
    yield page
    page.close()
    assert not errors, f"JavaScript errors: {errors}"
    assert not outside, f"the page fetched from outside: {outside}"


def idle(page) -> None:  # type: ignore[no-untyped-def]
    """Wait until no request is pending and no computer move is due."""
    page.wait_for_function(
        "document.body.dataset.busy === '0' && !Classic.thinking && !Mega.thinking"
        " && !(Classic.state && Classic.state.computer_to_move && !Classic.state.over)"
        " && !(Mega.state && Mega.state.computer_to_move && !Mega.state.over)"
    )


def open_tab(page, server_url: str, tab: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server_url}#{tab}")
    page.wait_for_selector(f"#panel-{tab}:not([hidden])")
    idle(page)


# -- classic ------------------------------------------------------------------------------------------


def test_classic_game_to_the_end_survives_a_reload(page, server_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    open_tab(page, server_url, "classic")
    page.fill("#classic-board-spec", "3x3")
    page.select_option("#classic-x", "human")
    page.select_option("#classic-o", "perfect")
    page.click("#classic-new")
    page.wait_for_function("Classic.state && Classic.state.moves.length === 0 && Classic.state.players.o === 'perfect'")
    idle(page)
    page.check("#classic-values")
    page.wait_for_selector("#classic-board text.value")
    idle(page)
    assert page.locator("#classic-board text.value").count() == 9
    page.screenshot(path=str(tmp_path / "classic-values.png"))

    clicks = 0
    while page.evaluate("!Classic.state.over"):
        cells = page.locator("#classic-board rect.legal")
        before = page.evaluate("Classic.state.moves.length")
        cells.nth(clicks % cells.count()).click()
        page.wait_for_function(f"Classic.state.moves.length > {before}")
        idle(page)
        clicks += 1
        if clicks == 2:
            moves = page.evaluate("Classic.state.moves")
            page.reload()
            page.wait_for_selector("#classic-board svg")
            idle(page)
            assert page.evaluate("Classic.state.moves") == moves, "the game did not survive the reload"
            assert page.locator("#classic-board .mark").count() == len(moves)
            # a server that forgot the game (restarted): the page rebuilds it from the moves it kept
            page.evaluate("localStorage.setItem('oxo.classic', JSON.stringify({...JSON.parse(localStorage.getItem('oxo.classic')), id: 'forgotten'}))")
            page.reload()
            page.wait_for_selector("#classic-board svg")
            idle(page)
            assert page.evaluate("Classic.state.moves") == moves and page.evaluate("Classic.state.id") != "forgotten"
            assert page.is_hidden("#error")
    state = page.evaluate("Classic.state")
    final = Position.from_string(state["position"])
    assert final.is_terminal and final.winner != "x"  # the perfect player never loses
    status = page.inner_text("#classic-status")
    assert status == ("O wins" if final.winner == "o" else "Draw: the board is full")
    assert page.locator("#classic-board .mark").count() == final.ply
    page.screenshot(path=str(tmp_path / "classic-over.png"), full_page=True)
    assert (tmp_path / "classic-over.png").stat().st_size > 5000


# -- mega ---------------------------------------------------------------------------------------------


def test_mega_game_played_by_clicking(page, server_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    open_tab(page, server_url, "mega")
    page.select_option("#mega-x", "human")
    page.select_option("#mega-o", "human")
    page.click("#mega-new")
    page.wait_for_function("Mega.state && Mega.state.moves.length === 0 && Mega.state.players.o === 'human'")
    idle(page)
    clicks = 0
    while page.evaluate("!Mega.state.over"):
        cells = page.locator("#mega-board rect.legal")
        count = cells.count()
        assert count == len(page.evaluate("Mega.state.legal"))
        cells.nth((5 * clicks + 3) % count).click()
        page.wait_for_function(f"Mega.state.moves.length > {clicks}")
        clicks += 1
        assert clicks <= 81
        if clicks == 20:
            page.screenshot(path=str(tmp_path / "mega-middle.png"))
            record = page.evaluate("Mega.state.record")
            page.reload()
            page.wait_for_selector("#mega-board svg")
            idle(page)
            assert page.evaluate("Mega.state.record") == record, "the game did not survive the reload"
    idle(page)
    state = page.evaluate("Mega.state")
    engine = MegaState.replay(state["record"])
    assert engine.is_over and engine.move_count == clicks
    assert page.locator("#mega-board .big-marker").count() == len(engine.covered)
    status = page.inner_text("#mega-status")
    assert status.startswith("Draw" if engine.winner == "draw" else f"{engine.winner.upper()} wins")  # type: ignore[union-attr]
    page.screenshot(path=str(tmp_path / "mega-over.png"), full_page=True)


def test_mega_ai_thinks_within_its_budget(page, server_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    open_tab(page, server_url, "mega")
    page.select_option("#mega-x", "human")
    page.select_option("#mega-o", "mcts")
    page.fill("#mega-seconds", "0.6")
    page.click("#mega-new")
    page.wait_for_function("Mega.state && Mega.state.moves.length === 0 && Mega.state.players.o === 'mcts'")
    idle(page)
    page.click("#mega-board rect.legal[data-move='55']")
    page.wait_for_selector("#mega-thinking:not([hidden])", timeout=5000)
    assert "thinking" in page.inner_text("#mega-thinking")
    page.screenshot(path=str(tmp_path / "mega-thinking.png"))
    page.wait_for_function("Mega.state.moves.length === 2")
    idle(page)
    assert page.is_hidden("#mega-thinking")
    search = page.evaluate("Mega.state.last_search")
    assert search["budget"] == 0.6 and search["seconds"] <= 0.6 + 0.5 and search["simulations"] > 0
    assert search["move"] == page.evaluate("Mega.state.moves[1]")
    assert "budget 0.6 s" in page.inner_text("#mega-search")
    page.screenshot(path=str(tmp_path / "mega-ai.png"))


# -- explorer -----------------------------------------------------------------------------------------


def test_explorer_shows_the_class_and_edits_by_clicking(page, server_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    open_tab(page, server_url, "explore")
    page.fill("#explore-position", "x.../.o../..../....")
    page.fill("#explore-board", "")
    page.fill("#explore-k", "")
    page.click("#explore-go")
    page.wait_for_function("Explore.data && Explore.data.board === '4x4'")
    page.wait_for_selector("#explore-chart svg")
    idle(page)
    position = Position.from_string("x.../.o../..../....")
    assert page.locator("#explore-transforms figure").count() == position.class_size
    assert page.inner_text("#explore-canonical") == position.canonical.to_status_string()
    assert page.locator("#explore-chart rect.bar").count() == 2 * 17
    page.screenshot(path=str(tmp_path / "explore-4x4.png"), full_page=True)
    page.click("#explore-board-svg rect[data-cell='15']")
    page.wait_for_function("Explore.data.position[15] === '1'")
    idle(page)
    edited = position.play(15)
    assert page.locator("#explore-transforms figure").count() == edited.class_size
    assert page.inner_text("#explore-string") == edited.to_status_string()
    page.fill("#explore-position", "not a position")
    page.click("#explore-go")
    page.wait_for_selector("#error:not([hidden])")
    assert "unknown character" in page.inner_text("#error")
