"""The page's rough edges of issue 30 (items 3-5) in a real headless browser: a New game asked for
while the computer thinks starts the game of the form (not the old one again), a game the server put
away is rebuilt from the page's moves at the next click, Undo or Hint, and a computer move waiting
behind busy workers says so. Reuses the server and browser fixtures of ``test_web_e2e`` (and its
reasons to skip when chromium or playwright is missing)."""

from __future__ import annotations

import http.client
import json
import re
import threading
import time
import urllib.parse
from pathlib import Path
from typing import Any

import pytest

from oxo.geometry import Geometry
from oxo.position import Position
from oxo.solve import reference_value
from oxo.web.sessions import MAX_GAMES

e2e = pytest.importorskip("test_web_e2e", reason="the page's end-to-end fixtures are not available")

from test_web_e2e import (  # noqa: E402
    browser_context,
    idle,
    new_game,
    no_sideways_scroll,
    open_tab,
    page,
    server_url,
)

__all__ = ["browser_context", "page", "server_url"]  # fixtures used by the tests below


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
    assert text.startswith("O (hard) is waiting for a free worker ("), text
    assert "thinking…" not in text
    assert page.is_visible("#play-thinking-text")
    page.screenshot(path=str(tmp_path / f"waiting-{width}.png"))
    page.wait_for_function("Play.state.moves.length === 2", timeout=120_000)
    idle(page)
    assert page.evaluate("Play.state.last_search.level") == "hard"
    assert page.is_hidden("#play-thinking") and page.is_hidden("#error")
    for thread in threads:
        thread.join(timeout=60)


# -- Connect Four by keyboard alone and by screen reader (issue 45, item 7) ----------------------------------


def focused(page) -> dict[str, Any]:
    return page.evaluate(
        "(() => { const e = document.activeElement;"
        " return {tag: e.tagName, column: e.dataset ? e.dataset.column : undefined,"
        " label: e.getAttribute('aria-label'), role: e.getAttribute('role')}; })()"
    )


def column_label(state: Any, column: int) -> str:
    """A column's name as a screen reader hears it, from the library's state (column from 0)."""
    marks = [
        mark.upper()
        for mark in (state.cell(row, column) for row in range(state.board.rows))
        if mark in ("x", "o")
    ]
    contents = f"{', '.join(marks)} from the bottom" if marks else "empty"
    if not state.is_over and column in state.legal_moves:
        return (
            f"column {column + 1}: {contents}, drop a mark here: it lands in row {len(marks) + 1}"
        )
    full = len(marks) == state.board.rows
    return f"column {column + 1}: {contents}{', full' if full else ''}"


def board_buttons(page) -> list[str]:
    """The names of the board's buttons in the accessibility tree (Playwright's ARIA snapshot)."""
    snapshot = page.locator("#play-svg").aria_snapshot()
    return re.findall(r'button "([^"]*)"', snapshot)


def go_to_column(page, column: int) -> None:
    """Arrow keys from the focused column to ``column`` (from 1), checking each press moves exactly
    one column."""
    here = int(focused(page)["column"])
    key, step = ("ArrowRight", 1) if column > here else ("ArrowLeft", -1)
    while here != column:
        page.keyboard.press(key)
        assert int(focused(page)["column"]) == here + step, (here, key, focused(page))
        here += step


def hear(page) -> None:
    """Keep every text the live region says, in order (``window.heard``)."""
    page.evaluate(
        "window.heard = []; new MutationObserver(() => window.heard.push("
        "document.getElementById('play-announce').textContent))"
        ".observe(document.getElementById('play-announce'), {childList: true, characterData: true, subtree: true})"
    )


def dropped(state: Any, move: int, who: str) -> str:
    """The words of a move as the live region says them, from the library (``state`` after it)."""
    row = sum(1 for r in range(state.board.rows) if state.cell(r, move) in ("x", "o"))
    return f"{who} dropped a mark in column {move + 1}, row {row} from the bottom."


@pytest.mark.parametrize("width", [1280, 390])
def test_connect_four_played_with_the_keyboard_alone(page, server_url: str, width: int) -> None:
    """The arrows skipped columns (after 4 and 1, ArrowLeft from column 4 landed on 1) and a screen
    reader heard "6 by 7 gravity board, 4 marks" and seven buttons. Now each column, full or not,
    is one button named with its marks, the arrows move exactly one column, Enter drops into the
    focused column, and every move is said."""
    from oxo.registry import new_game as start

    page.set_viewport_size({"width": width, "height": 900})
    open_tab(page, server_url, "play")
    new_game(page, "connect4", "human", "human")
    hear(page)
    state = start("connect4")
    assert board_buttons(page) == [column_label(state, c) for c in range(7)]

    # Tab from the Hint button reaches the board: one stop (the other columns are reached by arrows)
    page.focus("#play-hint")
    for _ in range(20):
        page.keyboard.press("Tab")
        if focused(page)["role"] == "button" and focused(page)["column"]:
            break
    else:
        raise AssertionError(f"Tab never reached a column: {focused(page)}")

    def play(column: int) -> None:
        nonlocal state
        go_to_column(page, column)
        before = len(page.evaluate("Play.state.moves"))
        page.keyboard.press("Enter")
        page.wait_for_function(f"Play.state.moves.length === {before + 1}")
        idle(page)
        mover = state.to_move
        state = state.play(column - 1)
        assert page.evaluate("Play.state.moves")[-1] == str(column)
        assert (
            page.evaluate("window.heard")
            .pop()
            .startswith(dropped(state, column - 1, mover.upper()))
        )
        assert focused(page)["column"] == str(column), "the focus left the column after a move"

    play(4)
    play(1)
    go_to_column(page, 4)  # the case: the columns now stand at other heights
    page.keyboard.press("ArrowLeft")
    assert focused(page)["column"] == "3"
    for _ in range(6):  # fill column 2
        play(2)
    assert board_buttons(page) == [column_label(state, c) for c in range(7)]
    assert board_buttons(page)[1].endswith("X, O, X, O, X, O from the bottom, full")
    page.keyboard.press("ArrowRight")  # a full column is a stop too: exactly one column
    assert focused(page)["column"] == "3"
    page.keyboard.press("ArrowLeft")
    assert focused(page)["column"] == "2"
    page.keyboard.press("Enter")  # nothing drops into a full column; it is said
    page.wait_for_function("document.getElementById('play-announce').textContent.includes('full')")
    assert page.inner_text("#play-announce") == "Column 2 is full: choose another column."
    assert len(page.evaluate("Play.state.moves")) == 8

    # Hint: the suggested column is outlined and its button named so
    page.keyboard.press("Shift+Tab")
    while page.evaluate("document.activeElement.id") != "play-hint":
        page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    page.wait_for_selector("#play-hint-text:not([hidden])")
    hinted = page.locator("#play-svg circle.hinted")
    assert hinted.count() == 1
    column = hinted.get_attribute("data-move")
    assert page.inner_text("#play-hint-text").startswith(f"Hint: {column}:")
    assert board_buttons(page)[int(column) - 1].endswith(", suggested")
    page.keyboard.press("Tab")
    while not focused(page)["column"]:
        page.keyboard.press("Tab")

    # to the end: each turn the first open column of a fixed order, reached by arrows alone
    order = [4, 3, 5, 6, 7, 1, 2]
    while not state.is_over:
        play(next(c for c in order if c - 1 in state.legal_moves))
        assert len(state.legal_moves) <= 7
    assert page.evaluate("Play.state.outcome") == state.outcome
    assert board_buttons(page) == [column_label(state, c) for c in range(7)]
    assert page.locator("#play-svg circle[data-move]").count() == 0


@pytest.mark.parametrize("width", [1280, 390])
def test_the_computers_moves_are_said_in_connect_four(page, server_url: str, width: int) -> None:
    """Against the computer, by keyboard: the person's move and the computer's answer are both said,
    each in the column and row the library's rules put it, and the buttons name the marks."""
    from oxo.registry import new_game as start

    page.set_viewport_size({"width": width, "height": 900})
    open_tab(page, server_url, "play")
    new_game(page, "connect4", "human", "random")
    hear(page)
    page.focus("#play-svg rect[tabindex='0']")
    state = start("connect4")
    turns = 0
    while not state.is_over and turns < 6:
        column = next(c for c in (4, 3, 5, 2, 6, 1, 7) if c - 1 in state.legal_moves)
        go_to_column(page, column)
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"Play.state.moves.length > {2 * turns} && !Play.thinking"
            " && !(Play.state.computer_to_move && !Play.state.over)"
        )
        idle(page)
        moves = page.evaluate("Play.state.moves")
        heard = page.evaluate("window.heard")
        state = state.play(column - 1)
        assert moves[2 * turns] == str(column)
        assert any(text.startswith(dropped(state, column - 1, "X")) for text in heard), heard
        if not state.is_over:
            answer = int(moves[2 * turns + 1]) - 1
            state = state.play(answer)
            assert heard[-1].startswith(dropped(state, answer, "O (random)")), heard
            # the random player lines up four now and then (a column of its own, say)
            assert heard[-1].endswith("O wins." if state.is_over else "X to move (you)."), heard
        assert board_buttons(page) == [column_label(state, c) for c in range(7)]
        turns += 1


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


# -- the levels' strength on the page (issue 45, item 8) --------------------------------------------------


def recorded_strength(game: str) -> dict[str, str]:
    """Each level's figure on ``game`` as the page writes it, from the recorded round robin read
    here directly: tens, '≈', or '≥' where the record only bounds it from below."""
    import oxo.engines

    data = json.loads(Path(oxo.engines.__file__).with_name("ratings.json").read_text())
    entry = next(e for e in data["games"] if e["game"] == game)
    figures = {}
    for level, elo in entry["elo"].items():
        tens = int(round(elo, -1))
        sign = "" if level == data["anchor"] else "≥ " if level in entry["lower_bounds"] else "≈ "
        figures[level] = f"{sign}{tens:,}"
    return figures


@pytest.mark.parametrize("width", [1280, 390])
def test_the_strength_is_shown_with_each_level(page, server_url: str, width: int) -> None:
    from oxo.registry import find_game

    page.set_viewport_size({"width": width, "height": 900})
    open_tab(page, server_url, "play")
    page.select_option("#play-board", "connect4")
    figures = recorded_strength("connect4")
    options = dict(
        zip(
            page.eval_on_selector_all("#play-o option", "o => o.map(e => e.value)"),
            page.locator("#play-o option").all_inner_texts(),
            strict=True,
        )
    )
    for level, figure in figures.items():
        assert options[level] == f"{level} · Elo {figure}", options
    assert options["best"] == "best" and options["human"] == "person"  # best was not rated
    page.click("#levels-panel summary")
    assert "Connect Four" in page.inner_text("#levels-board")
    game = find_game("connect4")
    rows = page.locator("#levels-table tbody tr")
    assert rows.count() == len(game.levels)
    for index, level in enumerate(game.levels):
        cells = rows.nth(index).locator("th, td").all_inner_texts()
        assert cells == [level, game.describe_level(level, game.start()), figures.get(level, "—")]
    note = page.inner_text("#levels-note")
    assert "random = 0" in note and "0.1 s a move" in note and "76 %" in note
    assert no_sideways_scroll(page)

    # 15x15: nothing measured; perfect cannot start there, and the menu says so before a game does
    page.select_option("#play-board", "15x15,k=5")
    labels = page.locator("#play-o option").all_inner_texts()
    assert not any("Elo" in label for label in labels)
    assert "perfect (out of reach from the start)" in labels
    perfect = page.locator("#levels-table tbody tr").nth(4).locator("td").first.inner_text()
    assert perfect.startswith("not from the start: perfect play is out of reach here")
    page.select_option("#play-board", "mega")
    assert "perfect (not on this game)" in page.locator("#play-o option").all_inner_texts()
    assert no_sideways_scroll(page)


# -- the first move after Stop (issue 45, item 9) ---------------------------------------------------------


def test_a_worker_that_starts_is_said_to_start(page, server_url: str) -> None:
    """With no spare worker ready (the pool's spare is put away here, as two stops in a row would),
    the move after Stop waits for a worker process to start: the page says so, rather than counting
    the start as thinking."""
    from e2e_session import e2e_thinkers

    pool = e2e_thinkers()
    open_tab(page, server_url, "play")
    new_game(page, "15x15,k=5", "human", "hard", seconds=5)
    deadline = time.monotonic() + 120
    while not pool.spare_ready():  # none starting: the one there is put away below
        assert time.monotonic() < deadline, "the spare never started"
        time.sleep(0.05)
    try:
        with pool._guard:
            pool._keep_spare = False
            spare, pool._spare = pool._spare, None
        if spare is not None:
            spare.stop()
        page.click("#play-svg rect[data-cell='112']")
        page.wait_for_function(
            "document.getElementById('play-thinking-text').textContent.includes('is thinking')"
        )
        page.click("#play-cancel")
        page.wait_for_selector("#play-paused:not([hidden])")
        page.fill("#play-seconds", "0.3")
        page.click("#play-go")
        page.wait_for_function(
            "document.getElementById('play-thinking-text').textContent.includes('starting a worker')"
        )
        text = page.inner_text("#play-thinking-text")
        assert (
            text.startswith("O (hard) is starting a worker process (") and "thinking…" not in text
        )
        page.wait_for_function("Play.state.moves.length === 2", timeout=60_000)
        idle(page)
        assert page.is_hidden("#play-thinking") and page.is_hidden("#error")
    finally:
        with pool._guard:
            pool._keep_spare = True
        pool.start()  # the spare again, for the tests after this one


# -- small points (issue 45, item 10) ---------------------------------------------------------------------


def test_a_link_to_a_board_the_page_does_not_list(page, server_url: str) -> None:
    """It opened 3x3 silently. Now the board is played, or the link is refused saying why."""
    page.goto(f"{server_url}#play?board=3x5&x=human&o=human&seconds=1&moves=0,7")
    page.wait_for_function("Play.state && Play.state.board === '3x5'")
    idle(page)
    assert page.evaluate("Play.state.moves") == [0, 7]
    assert page.input_value("#play-board") == "3x5"
    assert (
        page.locator("#play-board option:checked").inner_text() == "3x5, 3 in a row (from a link)"
    )
    assert page.is_hidden("#error")
    page.evaluate("location.hash = '#play?board=7x7x7x7&x=human&o=human&seconds=1'")
    page.wait_for_selector("#error:not([hidden])")
    idle(page)
    message = page.inner_text("#error")
    assert message.startswith('The link\'s board "7x7x7x7" (not one this page offers) cannot be')
    assert "board:" in message
    assert page.evaluate("Play.state") is None and page.locator("#play-svg svg").count() == 0


def test_a_stale_tab_cannot_play_the_other_sides_move(
    page, server_url: str, browser_context
) -> None:
    """A second tab that missed the other's move (here: its page never hears the browser's storage
    event) sent its click as the other side's move. Now it is refused and the tab catches up."""
    open_tab(page, server_url, "play")
    new_game(page, "3x3", "human", "human")
    other = browser_context.new_page()
    try:
        other.add_init_script(
            "const listen = window.addEventListener; window.addEventListener = function (type, ...rest)"
            " { if (type !== 'storage') return listen.call(this, type, ...rest); };"
        )
        other.goto(f"{server_url}#play")
        other.wait_for_function(
            f"Play.state && Play.state.id === {page.evaluate('Play.state.id')!r}"
        )
        page.click("#play-svg rect[data-cell='4']")
        page.wait_for_function("Play.state.moves.length === 1")
        other.wait_for_timeout(300)
        assert other.evaluate("Play.state.moves") == []  # stale: it missed X's move
        other.click("#play-svg rect[data-cell='0']")  # meant as X's move
        other.wait_for_selector("#error:not([hidden])")
        assert "moved on in another tab" in other.inner_text("#error")
        other.wait_for_function("Play.state.moves.length === 1")
        assert other.evaluate("Play.state.moves") == [4]  # the game as it stands
        state = page.evaluate("fetch('/api/games/' + Play.state.id).then(r => r.json())")
        assert state["moves"] == [4]  # nothing was played for the stale tab
        other.click("#play-svg rect[data-cell='0']")  # now O's move, seen as such
        other.wait_for_function("Play.state.moves.length === 2")
        assert other.evaluate("Play.state.moves") == [4, 0]
    finally:
        other.close()


def test_the_explorer_names_the_board_once(page, server_url: str) -> None:
    """It wrote "4x4,k=3, k=3": a board whose name carries its k (not the side's length). 3x3 with
    k = 2 names it the same way at no cost to the server (its first position on 4x4 with k = 3
    took 2 s of processor time)."""
    page.goto(f"{server_url}#explore?position=x../.../..o&board=3x3&k=2")
    page.wait_for_function("Explore.data && Explore.data.board === '3x3,k=2'")
    idle(page)
    status = page.inner_text("#explore-status")
    assert status.startswith("3x3, 2 in a row — ") and "k=" not in status, status
    assert page.inner_text("#map-caption") == "3x3, 2 in a row"


def test_the_cube_explorer_fits_a_phone(page, server_url: str) -> None:
    """The 3x3x3 explorer scrolled sideways at 390 px (its images three layers wide)."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{server_url}#explore?position=x{'.' * 26}&board=3x3x3&k=3")
    page.wait_for_function("Explore.data && Explore.data.board === '3x3x3'", timeout=60_000)
    idle(page)
    assert page.locator("#explore-transforms figure").count() > 1
    assert no_sideways_scroll(page)


def test_explore_this_position_only_where_the_explorer_draws(page, server_url: str) -> None:
    """It was offered on 15x15, where the explorer always refused."""
    open_tab(page, server_url, "play")
    new_game(page, "15x15,k=5", "human", "human")
    assert page.is_hidden("#play-explore")
    new_game(page, "4x4x4", "human", "human")
    assert page.is_visible("#play-explore")


WIDE = """() => { const W = document.documentElement.clientWidth; const out = [];
  for (const e of document.querySelectorAll('body *')) { const r = e.getBoundingClientRect();
    if (r.right > W + 1) out.push(e.tagName + '#' + e.id + ' ' + Math.round(r.right)); }
  return out.slice(0, 10); }"""


def focused_label(page) -> str:
    return page.evaluate("document.activeElement.getAttribute('aria-label') || ''")


def play_an_empty_cell_by_keyboard(page) -> None:
    """From the board's tab stop, the arrow keys to an empty cell (a snake through the rows),
    then Enter."""
    page.focus("#play-svg [role=button][tabindex='0']")
    across, before = "ArrowRight", None
    for _ in range(200):
        label = focused_label(page)
        if label.endswith(", empty"):
            page.keyboard.press("Enter")
            return
        if label == before:  # at the end of a row: down one, then back the other way
            page.keyboard.press("ArrowDown")
            across = "ArrowLeft" if across == "ArrowRight" else "ArrowRight"
        before = focused_label(page)
        page.keyboard.press(across)
    raise AssertionError("no empty cell was reached with the arrow keys")


@pytest.mark.parametrize("width", [1280, 390])
def test_play_against_the_proof(page, server_url: str, width: int) -> None:
    """Issue 41, item 3: the menu lists the boards oxo has proved, the level menu names the
    proof, the page says what is proved and where the certificate is (and how to check it), with
    nothing wider than a phone and nothing axe-core finds serious; and a game against the proof
    (3x3x3: the computer as X wins), played with the keyboard, is lost."""
    from oxo.book import book_entry
    from oxo.web.proofs import proved_page_boards
    from oxo.web.sessions import BOARDS

    page.set_viewport_size({"width": width, "height": 900})
    open_tab(page, server_url, "play")
    group = page.locator("#play-board optgroup")
    assert group.get_attribute("label") == "Proved by oxo: play against the proof"
    offered = {board["id"] for board in BOARDS}
    apart = [board for board in proved_page_boards() if board["id"] not in offered]
    assert group.locator("option").all_inner_texts() == [board["label"] for board in apart]
    assert "8x8, 5 in a row: a draw (proved)" in [board["label"] for board in apart]
    assert "8x8, 5 in a row" in (page.text_content("#proved-list") or "")
    new_game(page, "3x3x3", "human", "human")
    assert page.inner_text("#play-x option[value='perfect']") == "perfect · plays oxo's proof"
    entry = book_entry("3x3x3")
    assert entry is not None and entry.certificate_of("x") is not None
    certificate = entry.certificate_of("x")
    panel = page.locator("#proof")
    text = panel.inner_text()
    assert "X wins with best play" in text and f"{certificate.file}" in text
    assert "oxo verify " in text and "python3 tools/check_strategy.py " in text
    snapshot = panel.aria_snapshot()
    assert 'heading "Proved by oxo"' in snapshot and 'button "Play O against the proof"' in snapshot
    assert no_sideways_scroll(page), page.evaluate(WIDE)
    if width == 390:  # the game itself once, at the desktop's width
        assert e2e.axe_violations(page) == []
        return
    page.focus("#proof-play button")
    page.keyboard.press("Enter")
    page.wait_for_function(
        "Play.state && Play.state.players.x === 'perfect' && Play.state.players.o === 'human'"
    )
    idle(page)
    engines = [page.evaluate("Play.state.last_search.engine")]
    while not page.evaluate("Play.state.over"):
        play_an_empty_cell_by_keyboard(page)
        idle(page)
        if page.evaluate("Play.state.last_search && Play.state.last_search.side === 'x'"):
            engines.append(page.evaluate("Play.state.last_search.engine"))
    assert page.evaluate("Play.state.winner") == "x"
    assert "loss" in page.get_attribute("#play-status", "class")
    assert engines[0].startswith("perfect (proof book: X wins"), engines
    assert "Ready: perfect plays X's moves from it" in panel.inner_text()
    assert no_sideways_scroll(page)


def game_box(page, server_url: str, width: int, board: str, shown: str, hidden: str):
    """A new game of ``board`` between two people, the page ``width`` wide: the box ``shown``
    (waited for), the box ``hidden`` checked hidden."""
    page.set_viewport_size({"width": width, "height": 900})
    open_tab(page, server_url, "play")
    new_game(page, board, "human", "human")
    box = page.locator(shown)
    box.wait_for(state="visible")
    assert page.locator(hidden).is_hidden()
    return box


@pytest.mark.parametrize("width", [1280, 390])
def test_an_open_board_says_how_far_its_proof_is(page, server_url: str, width: int) -> None:
    """A board no one has published the value of (Score Four): no "Proved by oxo" box, but one
    that says how far oxo's run of it has got (the book's figures) and the command that takes it
    further, in the accessibility tree, with nothing wider than a phone."""
    from oxo.book import open_board
    from oxo.registry import find_game

    opened = open_board(find_game("scorefour").name)
    assert opened is not None
    panel = game_box(page, server_url, width, "4x4x4,gravity", "#open-proof", "#proof")
    text = panel.inner_text()
    assert f"settled {opened.settled:,} positions" in text and opened.date in text
    assert opened.command in text
    snapshot = panel.aria_snapshot()
    assert 'heading "Still open"' in snapshot and "not proved it" in snapshot
    assert no_sideways_scroll(page), page.evaluate(WIDE)
    if width == 390:
        assert e2e.axe_violations(page) == []
    new_game(page, "3x3x3", "human", "human")  # a proved board: the box goes
    page.locator("#proof").wait_for(state="visible")
    assert panel.is_hidden()


@pytest.mark.parametrize("width", [1280, 390])
def test_a_proved_board_played_from_its_openings_says_so(page, server_url: str, width: int) -> None:
    """4x4x4x4, proved, its certificate too big to ship and not rebuilt here: the "Proved by oxo"
    box says so, and that perfect plays from the openings its run settled first (listed, with
    the command that indexes them), in the accessibility tree, nothing wider than a phone."""
    from oxo.book import book_entry

    proved = book_entry("4x4x4x4")
    assert proved is not None and proved.openings
    box = game_box(page, server_url, width, "4x4x4x4", "#proof", "#open-proof")
    text = box.inner_text()
    assert "X wins with best play, as oxo proved it" in text
    assert "Until it is, perfect plays X from the openings below" in text
    replies = [o.moves[1] for o in proved.openings if o.moves[:1] == (0,) and len(o.moves) == 2]
    assert replies and f"X wins after X on 0 and O on {replies[0]}, " in text
    assert "perfect plays from them once they are indexed (oxo book 4x4x4x4 --index)" in text
    assert "Until its certificate is rebuilt here" in box.aria_snapshot()
    assert no_sideways_scroll(page), page.evaluate(WIDE)
    if width == 390:
        assert e2e.axe_violations(page) == []


@pytest.mark.parametrize("width", [1280, 390])
def test_an_openings_certificate_is_offered_where_a_game_reaches_it(
    page, server_url: str, width: int, monkeypatch, no_quick_index: None
) -> None:
    """A game of 4x4x4x4 against perfect, in a settled opening (its link's moves: X on 0 and O on
    3): the box offers to prepare that opening's certificate; the button, by keyboard, starts it
    and the box shows how far it is, then that it failed, with the button again (the
    preparation is one put in the server's preparer: a real one takes minutes). In the
    accessibility tree, nothing wider than a phone."""
    from e2e_session import e2e_preparer
    from oxo.book import book_entry
    from oxo.web.proofs import Preparation

    opened = book_entry("4x4x4x4")  # played from its openings: its certificate is not here
    assert opened is not None
    opening = opened.opening_named("0-3")
    assert opening is not None
    preparer = e2e_preparer()
    started: list[Preparation] = []

    def start_opening(board, chosen):  # type: ignore[no-untyped-def]
        job = Preparation(board.board, chosen.side, chosen.certificate.file, 180.0)
        job.opening = chosen.name
        job.done, job.total, job.updated = 250, 1_000, time.monotonic()
        preparer._jobs[(board.board, chosen.name)] = job
        started.append(job)
        return job

    monkeypatch.setattr(preparer, "start_opening", start_opening)
    page.set_viewport_size({"width": width, "height": 900})
    open_tab(page, server_url, "play")
    hear(page)
    page.goto(f"{server_url}#play?board=4x4x4x4&x=perfect&o=human&seconds=0.2&moves=0,3")
    page.wait_for_function("Play.state && Play.state.board === '4x4x4x4'")
    idle(page)
    name = f"Prepare the certificate of {opening.moves_words}"
    button = page.get_by_role("button", name=name)
    button.wait_for(state="visible")
    box = page.locator("#proof-openings-play")
    assert f"This game is in the opening {opening.moves_words}, settled" in box.inner_text()
    assert "Indexed on this machine: 0 of" in box.inner_text()
    assert "oxo book 4x4x4x4 --index --opening 0-3" in box.inner_text()
    button.focus()
    page.keyboard.press("Enter")
    bar = page.get_by_role(
        "progressbar", name=f"Preparing the certificate of the opening {opening.moves_words}"
    )
    bar.wait_for(state="visible")
    assert len(started) == 1 and started[0].opening == "0-3"
    assert "25 %" in box.inner_text()
    page.wait_for_function(
        "window.heard.some((text) => text.startsWith('Preparing the certificate of the opening'))"
    )
    snapshot = box.aria_snapshot()
    assert "progressbar" in snapshot and "Indexed on this machine" in snapshot
    assert no_sideways_scroll(page)
    if width == 390:
        assert e2e.axe_violations(page) == []
    job = started[0]
    job.failed, job.status = "the test stopped it", "failed"
    job.finished.set()
    button.wait_for(state="visible", timeout=10_000)  # the page polls while it runs
    assert "The last preparation failed: the test stopped it." in box.inner_text()
    del preparer._jobs[("4x4x4x4", "0-3")]


def test_a_certificate_is_prepared_from_the_page(
    page, server_url: str, no_quick_index: None
) -> None:
    """A certificate whose index takes long is prepared when asked (here every one counts as
    long): the button starts it, the box shows how far it is, and says when it is ready."""
    from oxo.book import proved_boards
    from oxo.book.index import load_index
    from oxo.engines.exact import PERFECT_LIMIT
    from oxo.web.proofs import page_board

    # the smallest board beyond the exact solver with a certificate not indexed yet
    chosen = next(
        (entry, certificate)
        for entry in proved_boards()
        if not entry.gravity
        and len(Position.empty(Geometry(entry.shape, entry.k)).empty_cells) > PERFECT_LIMIT
        for certificate in entry.certificates
        if load_index(certificate) is None and certificate.positions < 1_000
    )
    entry, certificate = chosen
    board = page_board(entry)
    side = certificate.side.upper()
    open_tab(page, server_url, "play")
    hear(page)
    new_game(page, board["id"], "human", "human")
    button = page.get_by_role("button", name=f"Prepare {side}'s certificate")
    assert "Not prepared yet" in page.inner_text("#proof")
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        f"Play.state.proof.sides[{certificate.side!r}].ready", timeout=120_000, polling=200
    )
    page.wait_for_function(
        "window.heard.some((text) => text.startsWith('A certificate is ready'))", timeout=10_000
    )
    assert f"Ready: perfect plays {side}'s moves from it." in page.inner_text("#proof-sides"), (
        page.inner_text("#proof-sides")
    )
    assert load_index(certificate) is not None
