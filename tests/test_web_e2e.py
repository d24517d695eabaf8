"""End to end: ``oxo serve``'s page in a real headless browser (Playwright driving Debian's chromium).

A uvicorn server runs in a background thread on a free port of 127.0.0.1; the tests click through a
3x3 game against perfect play to the end (with a page reload and a server that forgot the game in the
middle), a whole mega game between two people, one move of the hard level in mega (the page shows it
thinking), a 15x15 gomoku game on a 390 px wide phone screen (the board fits without scrolling
sideways), and the explorer. Screenshots go to each test's temporary folder. Skipped, with the reason, when chromium or playwright is missing.
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
    pytest.skip(
        f"{CHROMIUM} is missing (install Debian's chromium: apt-get install -y chromium)",
        allow_module_level=True,
    )
playwright_api = pytest.importorskip(
    "playwright.sync_api", reason="playwright is not installed (pip install playwright)"
)
pytest.importorskip("uvicorn", reason="uvicorn is not installed")

from oxo.mega import MegaState  # noqa: E402
from oxo.position import Position  # noqa: E402
from oxo.web import bind, make_server, url_of, warm_up_in_background  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def server_url() -> Iterator[str]:
    sock = bind("127.0.0.1", 0)
    warm_up_in_background()  # as oxo serve does: the compiled mega search loads before the first computer move
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
            profile,
            executable_path=str(CHROMIUM),
            args=ARGS,
            headless=True,
            viewport={"width": 1200, "height": 900},
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
    page.route(
        "**/*",
        lambda route: (
            route.continue_()
            if route.request.url.startswith(server_url)
            else (outside.append(route.request.url), route.abort())
        ),
    )
    yield page
    page.close()
    assert not errors, f"JavaScript errors: {errors}"
    assert not outside, f"the page fetched from outside: {outside}"


def idle(page) -> None:  # type: ignore[no-untyped-def]
    """Wait until no request is pending and no computer move is due."""
    page.wait_for_function(
        "document.body.dataset.busy === '0' && !Play.thinking"
        " && !(Play.state && Play.state.computer_to_move && !Play.state.over)"
    )


def open_tab(page, server_url: str, tab: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(f"{server_url}#{tab}")
    page.wait_for_selector(f"#panel-{tab}:not([hidden])")
    idle(page)


def new_game(page, board: str, x: str, o: str, seconds: float | None = None) -> None:  # type: ignore[no-untyped-def]
    """Start a game from the form and wait for it."""
    page.select_option("#play-board", board)
    page.select_option("#play-x", x)
    page.select_option("#play-o", o)
    if seconds is not None:
        page.fill("#play-seconds", str(seconds))
    page.click("#play-new")
    page.wait_for_function(
        f"Play.state && Play.state.board === {board!r} && Play.state.players.x === {x!r} && Play.state.players.o === {o!r}"
    )
    idle(page)


def no_sideways_scroll(page) -> bool:  # type: ignore[no-untyped-def]
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


# -- classic ------------------------------------------------------------------------------------------


def test_classic_game_to_the_end_survives_a_reload(page, server_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    open_tab(page, server_url, "play")
    new_game(page, "3x3", "human", "perfect")
    assert page.evaluate("Play.state.moves.length") == 0
    assert page.is_hidden("#mega-rules")
    page.check("#play-values")
    page.wait_for_selector("#play-svg text.value")
    idle(page)
    assert page.locator("#play-svg text.value").count() == 9
    page.screenshot(path=str(tmp_path / "classic-values.png"))

    clicks = 0
    while page.evaluate("!Play.state.over"):
        cells = page.locator("#play-svg rect.legal")
        before = page.evaluate("Play.state.moves.length")
        cells.nth(clicks % cells.count()).click()
        page.wait_for_function(f"Play.state.moves.length > {before}")
        idle(page)
        clicks += 1
        if clicks == 2:
            moves = page.evaluate("Play.state.moves")
            page.reload()
            page.wait_for_selector("#play-svg svg")
            idle(page)
            assert page.evaluate("Play.state.moves") == moves, "the game did not survive the reload"
            assert page.locator("#play-svg .mark").count() == len(moves)
            # a server that forgot the game (restarted): the page rebuilds it from the moves it kept
            page.evaluate(
                "localStorage.setItem('oxo.game', JSON.stringify({...JSON.parse(localStorage.getItem('oxo.game')), id: 'forgotten'}))"
            )
            page.reload()
            page.wait_for_selector("#play-svg svg")
            idle(page)
            assert (
                page.evaluate("Play.state.moves") == moves
                and page.evaluate("Play.state.id") != "forgotten"
            )
            assert page.evaluate("Play.state.players") == {"x": "human", "o": "perfect"}
            assert page.is_hidden("#error")
    state = page.evaluate("Play.state")
    final = Position.from_string(state["position"])
    assert final.is_terminal and final.winner != "x"  # the perfect player never loses
    status = page.inner_text("#play-status")
    assert status == ("O wins" if final.winner == "o" else "Draw: the board is full")
    assert page.locator("#play-svg .mark").count() == final.ply
    assert "perfect" in page.inner_text("#play-levels")
    page.screenshot(path=str(tmp_path / "classic-over.png"), full_page=True)
    assert (tmp_path / "classic-over.png").stat().st_size > 5000


def test_gomoku_fits_a_phone_and_the_computer_answers(
    page, server_url: str, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    page.set_viewport_size({"width": 390, "height": 844})
    open_tab(page, server_url, "play")
    new_game(page, "15x15,k=5", "human", "hard", seconds=0.3)
    box = page.locator("#play-svg svg").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert no_sideways_scroll(page), "the page scrolls sideways at 390 px"
    assert page.is_hidden("#play-values-label"), (
        "move values are offered only where the solver reaches"
    )
    page.screenshot(path=str(tmp_path / "gomoku-phone.png"), full_page=True)
    page.click("#play-svg rect[data-cell='112']")
    page.wait_for_function("Play.state.moves.length === 2")
    idle(page)
    state = page.evaluate("Play.state")
    assert (
        state["moves"][0] == 112
        and state["moves"][1] != 112
        and state["last_search"]["level"] == "hard"
    )
    assert page.locator("#play-svg .mark").count() == 2
    assert "hard" in page.inner_text("#play-search")
    for board in ("4x4x4", "6x7,k=4", "mega"):
        new_game(page, board, "human", "human")
        box = page.locator("#play-svg svg").bounding_box()
        assert box["x"] + box["width"] <= 390 and no_sideways_scroll(page), board
        page.screenshot(path=str(tmp_path / f"{board}-phone.png"), full_page=True)
    assert "four layers" in page.inner_text("#play-board option[value='4x4x4']")
    assert page.locator("#play-board option").count() == 9


# -- mega ---------------------------------------------------------------------------------------------


def test_mega_game_played_by_clicking(page, server_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    open_tab(page, server_url, "play")
    new_game(page, "mega", "human", "human")
    assert page.evaluate("Play.state.moves.length") == 0
    rules = page.inner_text("#mega-rules")
    assert "nine small grids" in rules and "strings" in rules and "seed" not in rules
    assert page.is_hidden("#play-values-label")
    clicks = 0
    while page.evaluate("!Play.state.over"):
        cells = page.locator("#play-svg rect.legal")
        count = cells.count()
        assert count == len(page.evaluate("Play.state.legal"))
        cells.nth((5 * clicks + 3) % count).click()
        page.wait_for_function(f"Play.state.moves.length > {clicks}")
        clicks += 1
        assert clicks <= 81
        if clicks == 20:
            page.screenshot(path=str(tmp_path / "mega-middle.png"))
            record = page.evaluate("Play.state.record")
            page.reload()
            page.wait_for_selector("#play-svg svg")
            idle(page)
            assert page.evaluate("Play.state.record") == record, (
                "the game did not survive the reload"
            )
    idle(page)
    state = page.evaluate("Play.state")
    engine = MegaState.replay(state["record"])
    assert engine.is_over and engine.move_count == clicks
    assert page.locator("#play-svg .big-marker").count() == len(engine.covered)
    status = page.inner_text("#play-status")
    assert status.startswith("Draw" if engine.winner == "draw" else f"{engine.winner.upper()} wins")  # type: ignore[union-attr]
    page.screenshot(path=str(tmp_path / "mega-over.png"), full_page=True)


def test_mega_hard_thinks_within_its_time(page, server_url: str, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    open_tab(page, server_url, "play")
    new_game(page, "mega", "human", "hard", seconds=0.6)
    page.click("#play-svg rect.legal[data-move='55']")
    page.wait_for_selector("#play-thinking:not([hidden])", timeout=5000)
    assert "thinking" in page.inner_text("#play-thinking")
    page.screenshot(path=str(tmp_path / "mega-thinking.png"))
    page.wait_for_function("Play.state.moves.length === 2")
    idle(page)
    assert page.is_hidden("#play-thinking")
    search = page.evaluate("Play.state.last_search")
    assert search["budget"] == 0.6 and search["seconds"] <= 0.6 + 1.0 and search["nodes"] > 0
    assert search["move"] == page.evaluate("Play.state.moves[1]")
    assert "of 0.6 s" in page.inner_text("#play-search")
    assert "Monte Carlo" in page.inner_text("#play-levels")
    page.screenshot(path=str(tmp_path / "mega-ai.png"))


# -- explorer -----------------------------------------------------------------------------------------
def test_explorer_shows_the_class_and_edits_by_clicking(
    page, server_url: str, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
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
