"""Ultimate tic-tac-toe on the web page's game API (``oxo serve``), checked against the library's
rules replaying the same moves."""

from __future__ import annotations

import random
import re
from typing import Any

from starlette.testclient import TestClient

from oxo.uttt import UtttState, format_move


def new(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"kind": "uttt", **body})
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def refused(response: Any) -> str:
    assert response.status_code == 400, response.text
    message: str = response.json()["error"]
    return message


def check(game: dict[str, Any]) -> UtttState:
    """The game's answer against the rules replaying its moves."""
    state = UtttState.replay(game["moves"])
    assert game["kind"] == "uttt" and game["board"] == "uttt"
    assert game["legal"] == [format_move(m) for m in state.legal_moves]
    assert game["to_move"] == state.to_move and game["outcome"] == state.outcome
    assert game["record"] == state.record
    clickable = re.findall(r'class="cell legal" data-move="(\d\d)"', game["svg"])
    assert clickable == game["legal"]
    return state


def test_the_page_offers_ultimate_tic_tac_toe(client: TestClient) -> None:
    boards = client.get("/api/info").json()["boards"]
    entry = next(b for b in boards if b["id"] == "uttt")
    assert entry["kind"] == "uttt" and entry["k"] is None and "Ultimate" in entry["label"]


def test_people_play_a_whole_game(client: TestClient) -> None:
    game = new(client, players={"x": "human", "o": "human"})
    check(game)
    rng = random.Random(7)
    while not game["over"]:
        response = client.post(
            f"/api/games/{game['id']}/move", json={"move": rng.choice(game["legal"])}
        )
        assert response.status_code == 200, response.text
        game = response.json()
        state = check(game)
    outcome = state.outcome
    assert outcome is not None
    assert game["result"].startswith("Draw" if outcome == "draw" else outcome.upper())


def test_the_computer_answers_legally(client: TestClient) -> None:
    game = new(client, players={"x": "human", "o": "hard"}, seconds=0.05, seed=3)
    response = client.post(f"/api/games/{game['id']}/move", json={"move": "55"})
    assert response.status_code == 200, response.text
    response = client.post(f"/api/games/{game['id']}/ai")
    assert response.status_code == 200, response.text
    after = response.json()
    state = check(after)
    assert after["moves"][0] == "55" and len(after["moves"]) == 2 and state.move_count == 2
    assert after["moves"][1][0] == "5"  # sent to grid 5


def test_bad_and_illegal_moves_are_refused(client: TestClient) -> None:
    game = new(client, players={"x": "human", "o": "human"}, moves=["55"])
    gid = game["id"]
    assert "must go to grid 5" in refused(
        client.post(f"/api/games/{gid}/move", json={"move": "44"})
    )
    for bad in ("5", 55, "a1", "٥٥"):
        message = refused(client.post(f"/api/games/{gid}/move", json={"move": bad}))
        assert message.startswith("move"), message
    assert "uttt" in refused(client.post("/api/games", json={"kind": "uttt", "board": "3x3"}))
    message = refused(
        client.post("/api/games", json={"kind": "uttt", "players": {"x": "perfect", "o": "human"}})
    )
    assert "perfect play is out of reach" in message and "hard" in message


def test_the_rules_are_served_in_the_guide_s_words(client: TestClient) -> None:
    from oxo.uttt.guide import rules_sections

    response = client.get("/api/rules/uttt")
    assert response.status_code == 200
    sections = response.json()["sections"]
    assert [(s["title"], s["text"]) for s in sections] == rules_sections()
    assert [s["preformatted"] for s in sections] == [
        title == "Worked example" for title, _ in rules_sections()
    ]
    assert client.get("/api/rules/mega").json()["sections"] != sections
