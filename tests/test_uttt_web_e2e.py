"""Ultimate tic-tac-toe on ``oxo serve``'s page in a real headless browser: a whole game between two
people played by clicking the legal cells, then one move of the hard level. Reuses the browser and
server fixtures of ``test_web_e2e`` (and its reasons to skip when chromium or playwright is missing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from oxo.uttt import UtttState

e2e = pytest.importorskip("test_web_e2e", reason="the page's end-to-end fixtures are not available")

from test_web_e2e import browser_context, idle, new_game, open_tab, page, server_url  # noqa: E402

__all__ = ["browser_context", "page", "server_url"]  # fixtures used by the tests below


def test_a_game_played_by_clicking(page, server_url: str, tmp_path: Path) -> None:
    open_tab(page, server_url, "play")
    new_game(page, "uttt", "human", "human")
    assert "Ultimate" in page.inner_text("#play-board option[value='uttt']")
    clicks = 0
    while page.evaluate("!Play.state.over"):
        cells = page.locator("#play-svg rect.legal")
        count = cells.count()
        legal = page.evaluate("Play.state.legal")
        assert count == len(legal)
        cells.nth((7 * clicks + 2) % count).click()
        page.wait_for_function(f"Play.state.moves.length > {clicks}")
        clicks += 1
        assert clicks <= 81
        state = UtttState.replay(page.evaluate("Play.state.moves"))
        if clicks == 12:
            page.screenshot(path=str(tmp_path / "uttt-middle.png"))
        if not state.is_over:
            assert page.evaluate("Play.state.legal") == [
                state.format_move(m) for m in state.legal_moves
            ]
    idle(page)
    final = UtttState.replay(page.evaluate("Play.state.moves"))
    assert final.is_over and final.move_count == clicks
    assert page.evaluate("Play.state.outcome") == final.outcome
    page.screenshot(path=str(tmp_path / "uttt-over.png"), full_page=True)


def test_the_hard_level_answers(page, server_url: str) -> None:
    open_tab(page, server_url, "play")
    new_game(page, "uttt", "human", "hard", seconds=0.3)
    page.locator("#play-svg rect[data-move='55']").click()
    # The first search may compile the numba code in a fresh checkout: allow for it.
    page.wait_for_function("Play.state.moves.length === 2", timeout=180_000)
    idle(page)
    moves = page.evaluate("Play.state.moves")
    state = UtttState.replay(moves)  # legal: the computer was sent to grid 5
    assert moves[1][0] == "5" and state.move_count == 2
    assert page.evaluate("Play.state.last_search.level") == "hard"
