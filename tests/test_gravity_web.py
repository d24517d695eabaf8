"""Connect Four on the web page's game API (``oxo serve``) and its drawing, checked against the
library's gravity rules replaying the same moves."""

from __future__ import annotations

import random
import re
import xml.dom.minidom
from typing import Any

from starlette.testclient import TestClient

from oxo.gravity.board import GravityState
from oxo.gravity.svg import gravity_svg
from oxo.registry import new_game


def replay(moves: list[str]) -> GravityState:
    state = new_game("connect4")
    assert isinstance(state, GravityState)
    for text in moves:
        state = state.play(state.parse_move(text))
    return state


def clickable(svg: str) -> list[str]:
    return re.findall(r'class="legal" data-move="(\d+)"', svg)


def test_connect4_is_the_gravity_board() -> None:
    state = new_game("connect4")
    assert isinstance(state, GravityState)
    assert (state.board.rows, state.board.cols, state.board.k) == (6, 7, 4)
    assert state == new_game("6x7,k=4,gravity")


def test_the_drawing_offers_each_open_column_once() -> None:
    rng = random.Random(5)
    state = new_game("connect4")
    assert isinstance(state, GravityState)
    while not state.is_over:
        svg = gravity_svg(state)
        xml.dom.minidom.parseString(svg)
        assert clickable(svg) == [state.format_move(m) for m in state.legal_moves]
        marks = re.findall(r'class="mark (x|o)"', svg)
        assert marks.count("x") == bin(state.x).count("1")
        assert marks.count("o") == bin(state.o).count("1")
        state = state.play(rng.choice(state.legal_moves))
    assert clickable(gravity_svg(state)) == []


def columns_of(state: GravityState) -> list[dict[str, Any]]:
    """Each column as the API names it, from the library's rules: the marks from the bottom up
    (read cell by cell), open while a mark may drop there, full when it holds a mark a row."""
    rows, cols = state.board.rows, state.board.cols
    found = []
    for col in range(cols):
        marks = []
        for row in range(rows):
            mark = state.cell(row, col)
            if mark == ".":
                assert all(state.cell(r, col) == "." for r in range(row, rows))  # nothing floats
                break
            marks.append(mark)
        found.append(
            {
                "column": str(col + 1),
                "marks": marks,
                "open": not state.is_over and col in state.legal_moves,
                "full": len(marks) == rows,
            }
        )
    return found


def test_each_column_is_one_target_under_its_holes() -> None:
    """The whole column is one rectangle (class column, open while playable, data-column), drawn
    before its holes, which let a pointer through to it (the drop hole stays clickable itself)."""
    rng = random.Random(11)
    state = new_game("connect4")
    assert isinstance(state, GravityState)
    while True:
        svg = gravity_svg(state)
        dom = xml.dom.minidom.parseString(svg)
        columns = [r for r in dom.getElementsByTagName("rect") if r.getAttribute("data-column")]
        assert [r.getAttribute("data-column") for r in columns] == [str(c + 1) for c in range(7)]
        open_ = set(state.legal_moves) if not state.is_over else set()
        for col, rect in enumerate(columns):
            assert rect.getAttribute("class") == ("column open" if col in open_ else "column")
        for circle in dom.getElementsByTagName("circle"):
            passes = circle.getAttribute("pointer-events") == "none"
            assert passes != bool(circle.getAttribute("data-move"))
        order = [n for n in dom.documentElement.childNodes if n.nodeName in ("rect", "circle")]
        for rect in columns:  # each column's rectangle comes before its holes
            at = order.index(rect)
            assert all(n.nodeName == "circle" for n in order[at + 1 : at + 1 + state.board.rows])
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves))


def test_people_play_a_whole_game_on_the_page(client: TestClient) -> None:
    response = client.post(
        "/api/games", json={"kind": "connect4", "players": {"x": "human", "o": "human"}}
    )
    assert response.status_code == 200, response.text
    game: dict[str, Any] = response.json()
    rng = random.Random(3)
    while True:
        state = replay(game["moves"])
        assert game["legal"] == [state.format_move(m) for m in state.legal_moves]
        assert game["outcome"] == state.outcome and game["to_move"] == state.to_move
        assert clickable(game["svg"]) == (game["legal"] if not game["over"] else [])
        assert game["columns"] == columns_of(state)
        if game["over"]:
            break
        response = client.post(
            f"/api/games/{game['id']}/move", json={"move": rng.choice(game["legal"])}
        )
        assert response.status_code == 200, response.text
        game = response.json()


def test_a_full_column_is_refused(client: TestClient) -> None:
    moves = ["1"] * 6
    response = client.post(
        "/api/games",
        json={"kind": "connect4", "players": {"x": "human", "o": "human"}, "moves": moves},
    )
    assert response.status_code == 200, response.text
    game = response.json()
    response = client.post(f"/api/games/{game['id']}/move", json={"move": "1"})
    assert response.status_code == 400 and response.json()["error"].startswith("move")


def computer_move(client: TestClient, game_id: str) -> Any:
    """The computer's move, asked again while the server answers 503 "it carries on: ask again"
    (as the message says to): the first move starts a worker process, which on a busy machine with
    nothing compiled yet can take longer than a request waits."""
    for _ in range(10):
        response = client.post(f"/api/games/{game_id}/ai")
        if response.status_code != 503 or "ask again" not in response.text:
            break
    assert response.status_code == 200, response.text
    return response.json()


def test_the_computer_plays_connect_four_perfectly_from_the_empty_board(
    client: TestClient,
) -> None:
    """perfect opens from the proof book (the centre column), then answers a reply from it too."""
    response = client.post(
        "/api/games", json={"kind": "connect4", "players": {"x": "perfect", "o": "human"}}
    )
    assert response.status_code == 200, response.text
    game = computer_move(client, response.json()["id"])
    assert game["moves"] == ["4"]
    response = client.post(f"/api/games/{game['id']}/move", json={"move": "1"})
    assert response.status_code == 200, response.text
    game = computer_move(client, game["id"])
    state = replay(game["moves"])
    assert len(game["moves"]) == 3 and state.ply == 3


def test_perfect_is_not_held_to_the_thinking_time(client: TestClient) -> None:
    """The thinking time is hard's (and best's); perfect on Connect Four gets the solver's own
    limit. With the page's 0.05 s it answered this position (just out of the proof book, about
    half a second of solving) with a 422 "not every column was solved", mid-game. The game is set
    up from its 11 moves, as the page rebuilds a game the server put away (refused past 7 moves:
    the limit was the number of legal moves at the start, 7 columns)."""
    from oxo.gravity.solver import solver_for

    moves = list("24441444551")  # hard against perfect; O to move
    response = client.post(
        "/api/games",
        json={
            "kind": "connect4",
            "players": {"x": "human", "o": "perfect"},
            "seconds": 0.05,
            "moves": moves,
        },
    )
    assert response.status_code == 200, response.text
    game = client.post(f"/api/games/{response.json()['id']}/ai").json()
    assert game["moves"][:-1] == moves and game["last_search"]["level"] == "perfect", game
    before = replay(moves)
    analysis = solver_for(before.board).analyze(before)
    column = before.parse_move(game["moves"][-1])
    assert column in analysis.best_columns
    assert game["last_search"]["value"] == analysis.value.outcome
