"""The levels as the page shows them (``oxo.web.levels`` through ``GET /api/info``): on each board,
how every level plays there in the library's words, where ``perfect`` cannot start (exactly where a
new game refuses it), and the strength each level measured, read from the same record as
``oxo play --help`` (issue 45, item 8). The figures are checked against the record read here
directly and against ``--help``'s paragraph, never typed in."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import oxo.engines
from oxo.engines.exact import PERFECT_LIMIT
from oxo.engines.rating import expected_score, strength_text
from oxo.gravity.book import shipped_certificates
from oxo.registry import find_game, games
from oxo.web.levels import level_words

RECORD = Path(oxo.engines.__file__).with_name("ratings.json")


@pytest.fixture(scope="module")
def info(client: TestClient) -> dict[str, Any]:
    response = client.get("/api/info")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def record() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RECORD.read_text())
    return data


def setup(board: dict[str, Any]) -> dict[str, Any]:
    """The body that starts a game of one of the page's boards, as the page sends it."""
    body = {"kind": board["kind"]}
    if board["kind"] == "classic":
        body.update(board=board["board"], k=board["k"])
    return body


def test_each_board_says_how_its_levels_play(info: dict[str, Any]) -> None:
    for board in info["boards"]:
        game = find_game(board["board"], board["k"])
        start = game.start()
        assert [row["level"] for row in board["levels"]] == list(game.levels)
        for row in board["levels"]:
            assert row["plays"] == game.describe_level(row["level"], start)


def test_perfect_is_said_refused_exactly_where_a_game_refuses_it(
    client: TestClient, info: dict[str, Any]
) -> None:
    refused = {}
    for board in info["boards"]:
        rows = {row["level"]: row for row in board["levels"]}
        if "perfect" not in rows:
            continue
        response = client.post(
            "/api/games", json={**setup(board), "players": {"x": "human", "o": "perfect"}}
        )
        reason = rows["perfect"]["refused"]
        if reason is None:
            assert response.status_code == 200, (board["id"], response.text)
        else:
            assert response.status_code == 400, board["id"]
            assert response.json()["error"] == f"players.o: {reason}"
        refused[board["id"]] = reason is not None
    # the classic solver's limit is not Connect Four's: its perfect plays from the empty board
    assert refused["connect4"] is False
    assert refused["3x3"] is False and refused["15x15,k=5"] is True


def test_the_strength_is_the_recorded_rating_as_help_gives_it(info: dict[str, Any]) -> None:
    data = record()
    entries = {find_game(entry["game"]): entry for entry in data["games"]}
    help_text = strength_text()
    offered = set()
    for board in info["boards"]:
        game = find_game(board["board"], board["k"])
        offered.add(game)
        entry = entries.get(game)
        assert board["rated"] == (None if entry is None else entry["game"])
        for row in board["levels"]:
            level, strength = row["level"], row["strength"]
            if entry is None or level not in entry["elo"]:
                assert strength is None, (board["id"], level)
                continue
            elo = int(round(entry["elo"][level], -1))
            bound = level in entry["lower_bounds"]
            assert strength["elo"] == elo and strength["at_least"] == bound
            if level == data["anchor"]:
                assert strength["text"] == f"{elo:,}"
                continue
            sign = "≥" if bound else "≈"
            assert strength["text"] == f"{sign} {elo:,}"
            # the same figure as --help gives for that game
            said = rf"\b{re.escape(entry['game'])}: [^;]*\b{level} {sign} {elo}(?!\d)"
            assert re.search(said, help_text), (board["id"], level, help_text)
    assert set(entries) <= offered  # every recorded game's figures reach the page
    notes = info["strength"]
    assert notes["anchor"] == data["anchor"] and notes["seconds"] == data["seconds"]
    assert notes["expected_at_200"] == round(expected_score(200), 2)


def test_the_words_of_hard_name_no_single_game() -> None:
    """They said Monte Carlo tree search "otherwise (mega)", though ultimate tic-tac-toe and Connect
    Four search that way too."""
    hard = next(row["words"] for row in level_words() if row["level"] == "hard")
    assert "Monte Carlo tree search" in hard
    names = {name for game in games() for name in (game.title, game.short_name)}
    named = [name for name in names if re.search(rf"\b{re.escape(name)}\b", hard, re.I)]
    assert named == [], named


def test_perfect_on_gravity_boards_is_the_exact_solver_not_16_cells() -> None:
    """Connect Four's perfect and best were described as the classic boards' ("perfect once at
    most 16 cells are empty"); they are the gravity solver, and the proof book where one ships."""
    for spec in ("connect4", "5x6,k=4,gravity"):
        game = find_game(spec)
        start = game.start()
        book = bool(shipped_certificates(start.board))  # type: ignore[attr-defined]  # a gravity state
        for level in ("perfect", "best"):
            words = game.describe_level(level, start)
            assert "exact solver" in words and f"{PERFECT_LIMIT} cells" not in words, words
            assert ("proof book" in words) == book, (spec, words)
    assert shipped_certificates(find_game("connect4").start().board)  # type: ignore[attr-defined]  # a gravity state
