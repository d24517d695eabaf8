"""The page's rough edges of issue 30 (items 3-5) in a real headless browser: a New game asked for
while the computer thinks starts the game of the form (not the old one again), a game the server put
away is rebuilt from the page's moves at the next click, Undo or Hint, and a computer move waiting
behind busy workers says so. Reuses the server and browser fixtures of ``test_web_e2e`` (and its
reasons to skip when chromium or playwright is missing)."""

from __future__ import annotations

import http.client
import json
import threading
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
e2e = pytest.importorskip("test_web_e2e", reason="the page's end-to-end fixtures are not available")

from oxo.geometry import Geometry  # noqa: E402
from oxo.position import Position  # noqa: E402
from oxo.solve import reference_value  # noqa: E402
from oxo.web.sessions import MAX_GAMES  # noqa: E402
from test_web_e2e import browser_context, idle, new_game, open_tab, page, server_url  # noqa: E402

__all__ = ["browser_context", "page", "server_url"]  # fixtures used by the tests below

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def connect(server_url: str) -> http.client.HTTPConnection:
    address = urllib.parse.urlsplit(server_url)
    return http.client.HTTPConnection(address.hostname, address.port, timeout=60)


def post(connection: http.client.HTTPConnection, path: str, body: object) -> dict[str, Any]:
    connection.request(
        "POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"}
    )
    response = connection.getresponse()
    data: dict[str, Any] = json.loads(response.read())
    assert response.status == 200, data
    return data


def status_of(server_url: str, game_id: str) -> int:
    connection = connect(server_url)
    try:
        connection.request("GET", f"/api/games/{game_id}")
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def put_away(server_url: str, game_id: str) -> None:
    """As 500 newer games do: the server forgets the least recently used game."""
    connection = connect(server_url)
    try:
        for _ in range(MAX_GAMES):
            post(connection, "/api/games", {"players": {"x": "human", "o": "human"}})
    finally:
        connection.close()
    assert status_of(server_url, game_id) == 404


@pytest.mark.parametrize("width", [1280, 390])
def test_new_game_while_the_computer_thinks_starts_the_chosen_game(
    page, server_url: str, width: int, tmp_path: Path
) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    open_tab(page, server_url, "play")
    new_game(page, "5x5,k=4", "human", "hard", seconds=5)
    page.click("#play-svg rect[data-cell='0']")
    page.wait_for_selector("#play-thinking:not([hidden])")
    page.wait_for_timeout(500)  # the search is under way on the server
    page.select_option("#play-board", "3x3")
    page.select_option("#play-x", "human")
    page.select_option("#play-o", "perfect")
    page.fill("#play-seconds", "1")
    page.click("#play-new")
    idle(page)
    page.wait_for_timeout(300)  # any late answer of the stopped search would have come by now
    idle(page)
    state = page.evaluate("Play.state")
    assert state["board"] == "3x3" and state["players"] == {"x": "human", "o": "perfect"}
    assert state["moves"] == [] and not state["thinking"]
    assert page.input_value("#play-board") == "3x3" and page.input_value("#play-o") == "perfect"
    assert page.is_hidden("#play-thinking") and page.is_hidden("#error")
    page.screenshot(path=str(tmp_path / f"new-game-{width}.png"))


@pytest.mark.parametrize("width", [1280, 390])
def test_a_game_put_away_is_rebuilt_at_the_next_click(page, server_url: str, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 844})
    open_tab(page, server_url, "play")
    new_game(page, "3x3", "human", "perfect")
    page.click("#play-svg rect[data-cell='0']")
    page.wait_for_function("Play.state.moves.length === 2")
    idle(page)

    # a click: the move is played on the rebuilt game, and the computer answers it
    first = page.evaluate("Play.state.id")
    put_away(server_url, first)
    cell = next(c for c in range(9) if c not in page.evaluate("Play.state.moves"))
    page.click(f"#play-svg rect[data-cell='{cell}']")
    page.wait_for_function("Play.state.moves.length === 4")
    idle(page)
    assert page.is_hidden("#error"), page.inner_text("#error")
    second = page.evaluate("Play.state")
    assert second["id"] != first and second["moves"][2] == cell
    assert second["players"] == {"x": "human", "o": "perfect"}
    assert status_of(server_url, second["id"]) == 200

    # Hint: a proven best move for the position the page shows
    put_away(server_url, second["id"])
    page.click("#play-hint")
    page.wait_for_selector("#play-hint-text:not([hidden])")
    assert page.is_hidden("#error"), page.inner_text("#error")
    position = Position.from_moves(Geometry.parse("3x3"), second["moves"])
    hinted = int(page.inner_text("#play-hint-text").removeprefix("Hint: ").split(":")[0])

    def score(cell: int) -> int:  # for X, who is to move: win 2, draw 1, loss 0
        winner = reference_value(position.play(cell)).winner
        return 1 if winner is None else 2 if winner == "x" else 0

    assert position.to_move == "x" and hinted in position.legal_moves
    assert score(hinted) == max(score(c) for c in position.legal_moves)

    # Undo: back to the person's turn before the last pair of moves
    third = page.evaluate("Play.state.id")
    put_away(server_url, third)
    page.click("#play-undo")
    page.wait_for_function("Play.state.moves.length === 2")
    idle(page)
    assert page.is_hidden("#error"), page.inner_text("#error")
    assert page.evaluate("Play.state.moves") == second["moves"][:2]
    assert page.evaluate("Play.state.id") != third


def test_a_connect_four_game_put_away_is_rebuilt(page, server_url: str) -> None:
    """Past 7 moves too (the server refused to set up a game of more moves than its first
    position's legal moves: Connect Four's 7 columns)."""
    page.set_viewport_size({"width": 1280, "height": 900})
    open_tab(page, server_url, "play")
    new_game(page, "connect4", "human", "human")
    columns = ["4", "4", "3", "5", "2", "1", "6", "7", "4"]
    for number, column in enumerate(columns, start=1):
        page.click(f"#play-svg circle[data-move='{column}']")
        page.wait_for_function(f"Play.state.moves.length === {number}")
        idle(page)
    first = page.evaluate("Play.state.id")
    put_away(server_url, first)
    page.click("#play-svg circle[data-move='3']")
    page.wait_for_function("Play.state.moves.length === 10")
    idle(page)
    assert page.is_hidden("#error"), page.inner_text("#error")
    assert page.evaluate("Play.state.moves") == [*columns, "3"]
    assert page.evaluate("Play.state.id") != first


@pytest.mark.parametrize("width", [1280, 390])
def test_a_move_waiting_for_a_free_worker_says_so(
    page, server_url: str, tmp_path: Path, width: int
) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    open_tab(page, server_url, "play")
    connection = connect(server_url)
    busy = [
        post(
            connection,
            "/api/games",
            {"board": "15x15", "k": 5, "players": {"x": "hard", "o": "human"}, "seconds": 4},
        )["id"]
        for _ in range(2)
    ]
    connection.close()

    def think(game_id: str) -> None:
        own = connect(server_url)
        try:
            post(own, f"/api/games/{game_id}/ai", {})
        finally:
            own.close()

    threads = [threading.Thread(target=think, args=(g,), daemon=True) for g in busy]
    for thread in threads:
        thread.start()
    new_game(page, "15x15,k=5", "human", "hard", seconds=0.5)
    page.click("#play-svg rect[data-cell='112']")
    page.wait_for_function(
        "document.getElementById('play-thinking-text').textContent.includes('waiting for a free worker')",
        timeout=20_000,
    )
    text = page.inner_text("#play-thinking-text")
    assert "O (hard) is waiting for a free worker (about" in text, text
    assert page.is_visible("#play-thinking-text")
    page.screenshot(path=str(tmp_path / f"waiting-{width}.png"))
    page.wait_for_function("Play.state.moves.length === 2", timeout=120_000)
    idle(page)
    assert page.evaluate("Play.state.last_search.level") == "hard"
    assert page.is_hidden("#play-thinking") and page.is_hidden("#error")
    for thread in threads:
        thread.join(timeout=60)


# -- item 6: Connect Four by keyboard alone, the rules of ultimate tic-tac-toe -----------------------------


def focused(page) -> dict[str, Any]:
    return page.evaluate(
        "(() => { const e = document.activeElement;"
        " return {tag: e.tagName, move: e.dataset ? e.dataset.move : undefined,"
        " label: e.getAttribute('aria-label'), role: e.getAttribute('role')}; })()"
    )


@pytest.mark.parametrize("width", [1280, 390])
def test_connect_four_played_with_the_keyboard_alone(page, server_url: str, width: int) -> None:
    from oxo.registry import new_game as start

    page.set_viewport_size({"width": width, "height": 900})
    open_tab(page, server_url, "play")
    new_game(page, "connect4", "human", "human")
    open_columns = page.locator("#play-svg circle[data-move]")
    assert open_columns.count() == 7
    for index in range(7):  # every open column is a named button
        column = open_columns.nth(index)
        assert column.get_attribute("role") == "button"
        assert column.get_attribute("aria-label") == f"column {index + 1}, drop a mark here"

    # Tab from the Hint button reaches the board (one stop: the other columns are reached by arrows)
    page.focus("#play-hint")
    for _ in range(20):
        page.keyboard.press("Tab")
        if focused(page)["role"] == "button" and focused(page)["tag"] == "circle":
            break
    else:
        raise AssertionError(f"Tab never reached a column: {focused(page)}")

    # Hint: the suggested column is highlighted and named so
    page.keyboard.press("Shift+Tab")
    while page.evaluate("document.activeElement.id") != "play-hint":
        page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    page.wait_for_selector("#play-hint-text:not([hidden])")
    hinted = page.locator("#play-svg circle.hinted")
    assert hinted.count() == 1
    assert hinted.get_attribute("aria-label").endswith(", suggested")
    assert page.inner_text("#play-hint-text").startswith(
        f"Hint: {hinted.get_attribute('data-move')}:"
    )
    page.keyboard.press("Tab")
    while focused(page)["tag"] != "circle":
        page.keyboard.press("Tab")

    state = start("connect4")
    pressed: list[str] = []
    plays = 0
    while not page.evaluate("Play.state.over"):
        for _ in range((3 * plays + 1) % 5):  # wander right (wrapping back left at the edge)
            before = focused(page)["move"]
            page.keyboard.press("ArrowRight")
            if focused(page)["move"] == before:
                for _ in range(7):
                    page.keyboard.press("ArrowLeft")
        column = focused(page)["move"]
        assert column is not None, focused(page)
        page.keyboard.press("Enter")
        plays += 1
        page.wait_for_function(f"Play.state.moves.length === {plays}")
        idle(page)
        pressed.append(column)
        state = state.play(state.parse_move(column))  # the library's rules, the same columns
        assert page.evaluate("Play.state.moves") == pressed
        if not state.is_over:
            assert focused(page)["tag"] == "circle", "the focus left the board after a move"
        assert plays <= 42
    assert state.is_over and page.evaluate("Play.state.outcome") == state.outcome
    assert page.locator("#play-svg circle[data-move]").count() == 0


@pytest.mark.parametrize("width", [1280, 390])
def test_the_rules_of_ultimate_tic_tac_toe(page, server_url: str, width: int) -> None:
    from oxo.uttt.guide import rules_sections

    page.set_viewport_size({"width": width, "height": 900})
    open_tab(page, server_url, "play")
    new_game(page, "uttt", "human", "human")
    assert page.is_visible("#uttt-rules") and page.is_hidden("#mega-rules")
    page.click("#uttt-rules summary")
    page.wait_for_selector("#uttt-rules-text pre")
    rules = page.inner_text("#uttt-rules")
    for title, _ in rules_sections():
        assert title in rules
    assert "seed" not in rules
    # the panel fits the screen: nothing scrolls sideways
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    new_game(page, "3x3", "human", "human")
    assert page.is_hidden("#uttt-rules")


def test_links_pasted_into_an_open_tab_are_followed(page, server_url: str) -> None:
    open_tab(page, server_url, "play")
    new_game(page, "3x3", "human", "human")
    page.click("#play-svg rect[data-cell='4']")
    page.wait_for_function("Play.state.moves.length === 1")
    idle(page)
    # as if pasted into the address bar: the hash changes, the page does not reload
    page.evaluate("location.hash = '#play?board=4x4&x=human&o=human&seconds=1&moves=0,5'")
    page.wait_for_function("Play.state.board === '4x4'")
    idle(page)
    assert page.evaluate("Play.state.moves") == [0, 5]
    assert page.input_value("#play-board") == "4x4" and page.is_hidden("#error")
    page.evaluate("location.hash = '#explore?position=x...o....&board=3x3&k=3'")
    page.wait_for_function("Explore.data && Explore.data.position === '100020000'")
    idle(page)
    page.evaluate("location.hash = '#explore?position=.x.../...../..o../...../.....&board=5x5&k=4'")
    page.wait_for_function("Explore.data && Explore.data.board === '5x5,k=4'", timeout=60_000)
    idle(page)
    assert page.evaluate("Explore.data.position") == "0100000000002000000000000"
    assert page.is_hidden("#error"), page.inner_text("#error")


def test_a_second_tab_follows_the_game(page, server_url: str, browser_context) -> None:
    open_tab(page, server_url, "play")
    new_game(page, "3x3", "human", "human")
    other = browser_context.new_page()
    try:
        other.goto(f"{server_url}#play")
        other.wait_for_function(
            f"Play.state && Play.state.id === {page.evaluate('Play.state.id')!r}"
        )
        page.click("#play-svg rect[data-cell='4']")
        page.wait_for_function("Play.state.moves.length === 1")
        other.wait_for_function("Play.state.moves.length === 1")  # without a reload
        assert other.locator("#play-svg .mark").count() == 1
        other.click("#play-svg rect[data-cell='0']")  # and it plays on from there
        page.wait_for_function("Play.state.moves.length === 2")
        assert page.evaluate("Play.state.moves") == [4, 0]
    finally:
        other.close()


def test_a_typed_position_gets_its_own_board(page, server_url: str) -> None:
    open_tab(page, server_url, "explore")
    page.fill("#explore-position", "x...o....")
    page.fill("#explore-board", "")
    page.fill("#explore-k", "")
    page.click("#explore-go")
    page.wait_for_function("Explore.data && Explore.data.position === '100020000'")
    idle(page)
    page.click("#explore-board-svg rect[data-cell='8']")  # the page fills in board 3x3 and k 3
    page.wait_for_function("Explore.data.position === '100020001'")
    idle(page)
    assert page.input_value("#explore-board") == "3x3"
    page.fill("#explore-position", "x.../.o../....")  # a 3x4 position typed next
    page.click("#explore-go")
    page.wait_for_function("Explore.data && Explore.data.board.startsWith('3x4')", timeout=60_000)
    idle(page)
    assert page.is_hidden("#error"), page.inner_text("#error")
    page.fill("#explore-board", "4x4")  # a board typed by the person stays
    page.fill("#explore-position", "x.../..../..../...o")
    assert page.input_value("#explore-board") == "4x4"
