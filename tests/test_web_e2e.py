"""End to end: ``oxo serve``'s page in a real headless browser (Playwright driving Debian's chromium).

A uvicorn server runs in a background thread on a free port of 127.0.0.1; the tests click through a
3x3 game against perfect play to the end (with a page reload and a server that forgot the game in the
middle), a whole mega game between two people, one move of the hard level in mega (the page shows it
thinking), a 15x15 gomoku game on a 390 px wide phone screen (the board fits without scrolling
sideways), the explorer, and issue 15's page items: a refused New game, keyboard play and cell names,
values with distances, hint, play again, links, the explorer opened from a game, stopping the
computer, the levels and limits, the spinner of long requests, and axe-core at 1280 and 390 px.
Screenshots go to each test's temporary folder. Skipped, with the reason, when chromium or playwright is missing.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest

import e2e_session
from oxo.geometry import Geometry
from oxo.mega import MegaState
from oxo.position import Position

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


@pytest.fixture(scope="module")
def server_url() -> str:
    """The server, one for the browser test files while a test process runs them in a row
    (``e2e_session``)."""
    return e2e_session.e2e_server_url()


def _launch(profile: str) -> tuple[object, Callable[[], None]]:
    manager = playwright_api.sync_playwright()
    playwright = manager.__enter__()
    try:
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=str(CHROMIUM),
            args=ARGS,
            headless=True,
            viewport={"width": 1200, "height": 900},
            # the page's Content-Security-Policy forbids eval; Playwright's waits need it
            bypass_csp=True,
        )
    except BaseException:
        manager.__exit__(None, None, None)
        raise

    def close() -> None:
        try:
            context.close()
        finally:
            manager.__exit__(None, None, None)

    return context, close


@pytest.fixture(scope="module")
def browser_context() -> object:
    """The browser, one for the browser test files while a test process runs them in a row
    (``e2e_session``; each test opens its own page)."""
    return e2e_session.e2e_browser_context(_launch)


@pytest.fixture
def page(browser_context, server_url: str):
    page = browser_context.new_page()
    page.set_default_timeout(60_000)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    # Nothing but our own server may be asked for anything: the page works offline.
    outside: list[str] = []

    def only_ours(route):
        if route.request.url.startswith(server_url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_ours)
    yield page
    page.close()
    assert not errors, f"JavaScript errors: {errors}"
    assert not outside, f"the page fetched from outside: {outside}"


def idle(page) -> None:
    """Wait until no request is pending and no computer move is due."""
    page.wait_for_function(
        "document.body.dataset.busy === '0' && !Play.thinking"
        " && !(Play.state && Play.state.computer_to_move && !Play.state.over)"
    )


def open_tab(page, server_url: str, tab: str) -> None:
    page.goto(f"{server_url}#{tab}")
    page.wait_for_selector(f"#panel-{tab}:not([hidden])")
    idle(page)


def new_game(page, board: str, x: str, o: str, seconds: float | None = None) -> None:
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


def no_sideways_scroll(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


# -- classic ------------------------------------------------------------------------------------------


def test_classic_game_to_the_end_survives_a_reload(page, server_url: str, tmp_path: Path) -> None:
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
    assert status == ("O has won" if final.winner == "o" else "Draw: the board is full")
    assert page.locator("#play-svg .mark").count() == final.ply
    assert "perfect" in page.inner_text("#play-levels")
    page.screenshot(path=str(tmp_path / "classic-over.png"), full_page=True)
    assert (tmp_path / "classic-over.png").stat().st_size > 5000


def test_gomoku_fits_a_phone_and_the_computer_answers(
    page, server_url: str, tmp_path: Path
) -> None:
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
    # with Score Four and 4x4x4x4; the boards oxo has proved besides come apart, in a group
    assert page.locator("#play-board > option").count() == 13


# -- mega ---------------------------------------------------------------------------------------------


def test_mega_game_played_by_clicking(page, server_url: str, tmp_path: Path) -> None:
    open_tab(page, server_url, "play")
    new_game(page, "mega", "human", "human")
    assert page.evaluate("Play.state.moves.length") == 0
    page.click(
        "#mega-rules summary"
    )  # the rules panel opens on demand, in the words of oxo mega rules
    page.wait_for_selector("#mega-rules-text pre")
    rules = page.inner_text("#mega-rules")
    assert "nine small tic-tac-toe grids" in rules and "strings" in rules and "seed" not in rules
    from oxo.mega.guide import rules_sections

    for title, _ in rules_sections():
        assert title in rules
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


def test_mega_hard_thinks_within_its_time(page, server_url: str, tmp_path: Path) -> None:
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
    assert search["budget"] == 0.6 and search["seconds"] > 0 and search["nodes"] > 0
    assert search["move"] == page.evaluate("Play.state.moves[1]")
    assert "of 0.6 s" in page.inner_text("#play-search")
    # whose win rate: the side that searched
    if search["expectation"] is not None:
        assert "O expects to score" in page.inner_text("#play-search")
    assert "Monte Carlo" in page.inner_text("#play-levels")
    page.screenshot(path=str(tmp_path / "mega-ai.png"))


# -- explorer -----------------------------------------------------------------------------------------
def test_explorer_shows_the_class_and_edits_by_clicking(
    page, server_url: str, tmp_path: Path
) -> None:
    open_tab(page, server_url, "explore")
    # 3x3: the eight symmetries of a square board, solved at once (a long first look, such as a
    # 4x4 board's, is test_long_requests_show_a_spinner_and_can_be_cancelled's)
    page.fill("#explore-position", "x../.o./...")
    page.fill("#explore-board", "")
    page.fill("#explore-k", "")
    page.click("#explore-go")
    page.wait_for_function("Explore.data && Explore.data.board === '3x3'", timeout=60_000)
    page.wait_for_selector("#explore-chart svg")
    idle(page)
    position = Position.from_string("x../.o./...")
    assert page.locator("#explore-transforms figure").count() == position.class_size
    assert page.inner_text("#explore-canonical") == position.canonical.to_status_string()
    assert page.locator("#explore-chart rect.bar").count() == 2 * 10
    page.screenshot(path=str(tmp_path / "explore-3x3.png"), full_page=True)
    page.click("#explore-board-svg rect[data-cell='8']")
    page.wait_for_function("Explore.data.position[8] === '1'")
    idle(page)
    edited = position.play(8)
    assert page.locator("#explore-transforms figure").count() == edited.class_size
    assert page.inner_text("#explore-string") == edited.to_status_string()
    page.fill("#explore-position", "not a position")
    page.click("#explore-go")
    page.wait_for_selector("#error:not([hidden])")
    assert "unknown character" in page.inner_text("#error")


# -- friendly: issue 15's page items ------------------------------------------------------------------


def test_refused_new_game_clears_the_board_and_the_error_stays(page, server_url: str) -> None:
    open_tab(page, server_url, "play")
    new_game(page, "3x3", "human", "human")
    page.click("#play-svg rect[data-cell='4']")
    page.wait_for_function("Play.state.moves.length === 1")
    # perfect on 15x15 is out of the solver's reach: refused, and the old board does not stay playable
    page.select_option("#play-board", "15x15,k=5")
    page.select_option("#play-o", "perfect")
    page.click("#play-new")
    page.wait_for_selector("#error:not([hidden])")
    idle(page)
    assert "perfect play is out of reach" in page.inner_text("#error")
    assert page.evaluate("Play.state") is None
    assert page.locator("#play-svg svg").count() == 0
    assert "No game" in page.inner_text("#play-status")
    page.wait_for_timeout(500)
    assert page.is_visible("#error"), "the error must stay until the person acts"
    assert page.input_value("#play-board") == "15x15,k=5"  # the refused settings stay visible
    page.select_option("#play-o", "hard")
    page.click("#play-new")
    page.wait_for_function("Play.state && Play.state.board === '15x15,k=5'")
    idle(page)
    assert page.is_hidden("#error")


def test_keyboard_play_and_cell_names(page, server_url: str) -> None:
    open_tab(page, server_url, "play")
    new_game(page, "3x3", "human", "human")
    labels = page.eval_on_selector_all(
        "#play-svg rect[data-cell]", "cells => cells.map(c => c.getAttribute('aria-label'))"
    )
    # (with move values shown, the name ends with the value: "..., empty, draw")
    assert labels[5].startswith("row 2, column 3, empty")
    assert labels[0].startswith("row 1, column 1, empty")
    assert page.eval_on_selector("#play-svg svg", "svg => svg.getAttribute('role')") == "group"
    # Tab reaches the board; arrows move; Enter plays
    page.focus("#play-svg rect[tabindex='0']")
    assert page.evaluate("document.activeElement.dataset.cell") == "0"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement.dataset.cell") == "4"
    page.keyboard.press("Enter")
    page.wait_for_function("Play.state.moves.length === 1")
    assert page.evaluate("Play.state.moves") == [4]
    # the move is said (a live region), with the state after it
    result = page.evaluate("Play.state.result")
    assert page.inner_text("#play-announce") == f"X played row 2, column 2 (cell 4). {result}."
    assert page.evaluate("document.activeElement.dataset.cell") == "4", "the focus stays put"
    label = page.eval_on_selector(
        "#play-svg rect[data-cell='4']", "c => c.getAttribute('aria-label')"
    )
    assert label.startswith("row 2, column 2, X")
    page.keyboard.press("ArrowUp")
    page.keyboard.press(" ")
    page.wait_for_function("Play.state.moves.length === 2")
    assert page.evaluate("Play.state.moves") == [4, 1]
    # digits: 1..9 in reading order
    page.keyboard.press("9")
    page.wait_for_function("Play.state.moves.length === 3")
    assert page.evaluate("Play.state.moves") == [4, 1, 8]
    # focus is visible: the focused cell is drawn with a thick outline
    page.focus("#play-svg rect[data-cell='0']")
    width = page.eval_on_selector(
        "#play-svg rect[data-cell='0']", "c => getComputedStyle(c).strokeWidth"
    )
    assert width == "5px"


def test_score_four_values_near_the_end_by_keyboard(page, server_url: str) -> None:
    """Score Four from a link to a game 40 plies in (24 cells empty): the values of the moves are
    offered, turned on from the keyboard, and listed and drawn for each open column's cell."""
    geometry = Geometry.parse("4x4x4,gravity")
    rng = random.Random(5)
    moves: list[int] = []
    position = Position.empty(geometry)
    while len(position.empty_cells) > 24:
        if position.is_over:
            position, moves = Position.empty(geometry), []
            continue
        moves.append(rng.choice(position.legal_moves))
        position = position.play(moves[-1])
    link = ",".join(str(m) for m in moves)
    page.goto(f"{server_url}#play?board=4x4x4,gravity&x=human&o=human&moves={link}")
    page.wait_for_selector("#play-svg svg")
    idle(page)
    assert page.evaluate("Play.state.moves.length") == 40
    assert page.is_visible("#play-values-label")
    page.focus("#play-values")
    if page.is_checked("#play-values"):  # the saved game of an earlier test had them on: off first
        page.keyboard.press("Space")
        idle(page)
    page.keyboard.press("Space")
    # The list and the board read in one go, when no request is pending and the list is full (a
    # request may wait a minute for its answer, the server's bound).
    full = len(position.legal_moves)
    seen = page.wait_for_function(
        """() => {
        if (document.body.dataset.busy !== '0' || Play.thinking) return null;
        const items = [...document.querySelectorAll('#play-values-list li')]
            .map((item) => item.innerText);
        if (items.length < FULL) return null;
        return {items, drawn: document.querySelectorAll('#play-svg [data-value]').length};
    }""".replace("FULL", str(full)),
        timeout=150_000,
    ).json_value()
    items = seen["items"]
    assert len(items) == len(position.legal_moves)
    assert all(item.rsplit(": ", 1)[1].split()[0] in ("win", "draw", "loss") for item in items)
    assert seen["drawn"] == len(position.legal_moves)
    toggle = page.get_by_role("checkbox", name="show the value of every empty cell")
    assert toggle.is_checked()  # found by its name in the accessibility tree


def test_values_hint_play_again_and_link(page, server_url: str, browser_context) -> None:
    open_tab(page, server_url, "play")
    new_game(page, "3x3", "human", "perfect")
    page.check("#play-values")
    page.wait_for_selector("#play-values-list li")
    idle(page)
    items = page.locator("#play-values-list li").all_inner_texts()
    assert len(items) == 9 and all(item.startswith("cell ") for item in items)
    assert all(item.endswith(": draw") for item in items)  # every first move keeps the draw
    # hovering a cell with a value keeps its colour (a loss is never drawn green)
    page.hover("#play-svg rect[data-cell='0']")
    fill = page.eval_on_selector("#play-svg rect[data-cell='0']", "c => getComputedStyle(c).fill")
    assert fill != "rgb(185, 236, 185)"
    page.click("#play-svg rect[data-cell='1']")  # an edge: still a draw
    page.wait_for_function("Play.state.moves.length === 2")
    idle(page)
    position = Position.from_moves(Geometry.parse("3x3"), page.evaluate("Play.state.moves"))
    from oxo.solve import reference_value

    texts = page.locator("#play-values-list li").all_inner_texts()
    for text in texts:
        cell = int(text.split(":")[0].split()[1])
        value = reference_value(position.play(cell))
        if value.winner is None:
            assert text.endswith(": draw")
        else:
            outcome = "win" if value.winner == "x" else "loss"
            plies = value.plies + 1
            assert text.endswith(f": {outcome} in {plies} {'ply' if plies == 1 else 'plies'}"), text
    page.click("#play-hint")
    page.wait_for_selector("#play-hint-text:not([hidden])")
    hinted = page.eval_on_selector("#play-svg rect.hinted", "c => Number(c.dataset.cell)")
    assert reference_value(position.play(hinted)).winner != "o"
    assert "proven" in page.inner_text("#play-hint-text")
    # a link to the game opens it, moves and players included, in another tab
    page.click("#play-share")
    link = page.input_value("#play-link")
    assert "#play?" in link and "moves=" in link
    other = browser_context.new_page()
    other.goto(link)
    other.wait_for_function("Play.state && Play.state.moves.length === 2")
    assert other.evaluate("Play.state.moves") == page.evaluate("Play.state.moves")
    assert other.evaluate("Play.state.players") == {"x": "human", "o": "perfect"}
    other.close()
    # play to the end, then play again with the same settings
    while page.evaluate("!Play.state.over"):
        before = page.evaluate("Play.state.moves.length")
        page.locator("#play-svg rect.legal").first.click()
        page.wait_for_function(f"Play.state.moves.length > {before}")
        idle(page)
    verdict = page.evaluate("Play.verdict(Play.state)")
    color = page.eval_on_selector("#play-status", "e => getComputedStyle(e).color")
    if verdict == "loss":
        assert color != "rgb(46, 125, 50)", "a loss is not drawn in green"
    assert (
        page.evaluate("Play.verdict({winner: 'o', players: {x: 'human', o: 'perfect'}})") == "loss"
    )
    page.click("#play-again")
    page.wait_for_function("Play.state.moves.length === 0")
    idle(page)
    assert page.evaluate("Play.state.players") == {"x": "human", "o": "perfect"}


def test_explorer_opens_from_the_game(page, server_url: str) -> None:
    open_tab(page, server_url, "play")
    new_game(page, "3x3", "human", "human")
    for cell in (0, 4):
        page.click(f"#play-svg rect[data-cell='{cell}']")
        page.wait_for_function(f"Play.state.moves.includes({cell})")
    page.click("#play-explore")
    page.wait_for_selector("#panel-explore:not([hidden])")
    page.wait_for_function("Explore.data && Explore.data.position === '100020000'")
    assert "#explore?" in page.url and "position=100020000" in page.url
    # the explorer's link opens the same position
    link = page.url
    page.goto(server_url)
    page.goto(link)
    page.wait_for_function("Explore.data && Explore.data.position === '100020000'")


def test_the_computer_can_be_stopped(page, server_url: str) -> None:
    open_tab(page, server_url, "play")
    page.select_option("#play-board", "15x15,k=5")
    page.select_option("#play-x", "hard")
    page.select_option("#play-o", "human")
    # the game's thinking time: 4 s to cancel in
    page.fill("#play-seconds", "4")
    page.click("#play-new")
    page.wait_for_selector("#play-thinking:not([hidden])")
    # reading the game meanwhile answers at once, with the thinking flag
    state = page.evaluate("fetch('/api/games/' + Play.state.id).then(r => r.json())")
    assert state["thinking"] is True and state["moves"] == []
    page.click("#play-cancel")
    page.wait_for_selector("#play-paused:not([hidden])")
    assert page.is_hidden("#play-thinking") and page.evaluate("Play.state.moves") == []
    # a thinking time out of bounds is refused, and the button stays to try again
    page.fill("#play-seconds", "99")
    page.click("#play-go")
    page.wait_for_selector("#play-paused:not([hidden])")
    page.wait_for_selector("#error:not([hidden])")
    assert "between" in page.inner_text("#error") and page.evaluate("Play.state.moves") == []
    # the thinking time typed while the search was stopped applies from this move on
    page.fill("#play-seconds", "0.2")
    page.click("#play-go")
    page.wait_for_function("Play.state.moves.length === 1", timeout=30_000)
    assert page.evaluate("[Play.state.seconds, Play.state.last_search.budget]") == [0.2, 0.2]
    idle(page)


def test_levels_and_limits_are_listed(page, server_url: str) -> None:
    from oxo.engines import LEVELS, levels

    open_tab(page, server_url, "play")
    page.click("#levels-panel summary")
    terms = page.locator("#levels-list dt").all_inner_texts()
    assert terms == list(LEVELS)
    doc = " ".join((levels.__doc__ or "").replace("``", "").split())
    for term, words in zip(terms, page.locator("#levels-list dd").all_inner_texts(), strict=True):
        assert f"{term} {words}" in doc
    limits = page.inner_text("#limits-list")
    from oxo.web.sessions import MAX_GAMES, MAX_PLAY_CELLS

    # what perfect covers is said board by board (test_web_page_e2e), not as one classic limit
    assert "perfect" not in limits
    assert f"up to {MAX_PLAY_CELLS} cells" in limits and f"up to {MAX_GAMES} games" in limits


def test_long_requests_show_a_spinner_and_can_be_cancelled(page, server_url: str) -> None:
    open_tab(page, server_url, "explore")
    page.fill("#explore-position", "0000/0000/0000/0000")
    page.fill("#explore-board", "")
    page.fill("#explore-k", "3")
    page.click("#explore-go")
    page.wait_for_selector("#busy:not([hidden])", timeout=10_000)
    assert "Exploring" in page.inner_text("#busy-text")
    page.click("#busy-cancel")
    page.wait_for_selector("#error:not([hidden])")
    assert "Cancelled" in page.inner_text("#error") and page.is_hidden("#busy")
    # the server finishes the work; asking again gets the answer
    page.click("#explore-go")
    page.wait_for_function("Explore.data && Explore.data.board === '4x4,k=3'", timeout=120_000)
    idle(page)


# -- accessibility: axe-core in the page, at 1280 px and at 390 px -----------------------------------


def axe_violations(page) -> list[dict]:
    """Serious and critical findings of axe-core (bundled with axe-playwright-python, injected locally)."""
    axe = pytest.importorskip("axe_playwright_python")
    script = Path(axe.__file__).with_name("axe.min.js").read_text()
    page.evaluate(script)
    results = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        {"id": v["id"], "impact": v["impact"], "nodes": [n["target"] for n in v["nodes"]][:5]}
        for v in results["violations"]
        if v["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("width", [1280, 390])
def test_axe_finds_no_serious_violations(page, server_url: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    from oxo.web.sessions import BOARDS

    for board in (
        "3x3",
        "mega",
        *(b["id"] for b in BOARDS if b["kind"] not in ("classic", "mega")),
    ):
        open_tab(page, server_url, "play")
        new_game(page, board, "human", "human")
        page.click("#levels-panel summary")
        if board in ("mega", "uttt"):
            page.click(f"#{board}-rules summary")
            page.wait_for_selector(f"#{board}-rules-text pre")
        assert axe_violations(page) == [], board
        assert no_sideways_scroll(page), board
        box = page.locator("#play-svg svg").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (board, box)
    page.goto(f"{server_url}#explore?position=x...o....&board=3x3&k=3")  # a link to a position
    page.wait_for_function("Explore.data && Explore.data.position === '100020000'")
    idle(page)
    assert axe_violations(page) == []
