"""The JSON API of ``oxo serve`` through Starlette's ASGI test client: every endpoint, good and bad input.

Answers are checked against the library's slow references (negamax values, recursive winnability,
the game-tree position count), the game states replaying the same moves and the engines' own
descriptions, never against typed-in numbers. One game API serves every board: classic m×n boards,
cubes, gomoku and mega tic-tac-toe, each side a person or the computer at any level."""

from __future__ import annotations

import functools
import json
import random
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from oxo.analysis import line_report, reference_can_win
from oxo.counting import count_positions
from oxo.engines import LEVELS
from oxo.game import GameState
from oxo.geometry import Geometry
from oxo.mega import MegaState, parse_record
from oxo.mega.notation import format_move
from oxo.position import Position
from oxo.registry import game_of, new_game
from oxo.solve import reference_value


def bad(response, status: int = 400) -> str:
    """The one-line JSON error of a refused request."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    message = response.json()["error"]
    assert isinstance(message, str) and message and "\n" not in message
    return message


def entry(outcome: str, plies: int) -> dict[str, object]:
    """A move value as the API writes it, with its distance in words ("win in 3 plies")."""
    unit = "ply" if plies == 1 else "plies"
    return {
        "value": outcome,
        "plies": plies,
        "text": "draw" if outcome == "draw" else f"{outcome} in {plies} {unit}",
    }


@functools.cache
def negamax_memo(geometry: Geometry) -> dict[tuple[int, int], int]:
    """One memo of the slow negamax per board, shared by the moves of every position checked."""
    return {}


def for_mover(position: Position, cell: int) -> tuple[str, int]:
    """Win / draw / loss of a move for the player to move, and plies to the end, by the slow negamax."""
    value = reference_value(position.play(cell), negamax_memo(position.geometry))
    outcome = (
        "draw" if value.winner is None else "win" if value.winner == position.to_move else "loss"
    )
    return outcome, value.plies + 1


# -- the page -----------------------------------------------------------------------------------------


def test_page_and_static_files_work_offline(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    for asset in ("/static/app.js", "/static/style.css"):
        assert asset in page.text
        assert client.get(asset).status_code == 200
    static = Path(__file__).parent.parent / "src" / "oxo" / "web" / "static"
    for path in static.iterdir():
        text = path.read_text()
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, (
            f"{path.name} reaches out"
        )
    assert bad(client.get("/nowhere"), 404).startswith("no such page")
    assert bad(client.get("/api/games"), 405)
    for old in ("/api/classic", "/api/mega"):  # one set of routes for every game now
        assert bad(client.post(old, json={}), 404)


def test_info(client: TestClient) -> None:
    data = client.get("/api/info").json()
    assert (
        data["players"] == ["human", *LEVELS]
        and data["levels"] == list(LEVELS)
        and data["default_level"] in LEVELS
    )
    assert data["seconds"]["min"] < data["seconds"]["default"] < data["seconds"]["max"]
    assert data["limits"]["values_cells"] == 16 and data["limits"]["play_cells"] == 361
    for board in data["boards"]:
        assert set(board) == {"id", "label", "kind", "board", "k", "levels", "rated"}
        assert board["label"]
        if board["kind"] == "classic":
            assert Geometry.parse(board["board"], board["k"]).spec == board["id"]
    labels = {board["id"]: board["label"] for board in data["boards"]}
    assert labels["6x7,k=4"] == "6x7, 4 in a row — Connect Four's size, without gravity"


def new(client: TestClient, query: str = "", **body: object) -> dict:
    """A new game (``POST /api/games``), which must be accepted."""
    response = client.post(f"/api/games{query}", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def ai(client: TestClient, game: dict, query: str = "") -> dict:
    response = client.post(f"/api/games/{game['id']}/ai{query}")
    assert response.status_code == 200, response.text
    return response.json()


def move(client: TestClient, game: dict, played: object, query: str = "") -> dict:
    response = client.post(f"/api/games/{game['id']}/move{query}", json={"move": played})
    assert response.status_code == 200, response.text
    return response.json()


def replayed(game: dict) -> GameState:
    """The game's state rebuilt by the library from the moves in the answer."""
    state = new_game(game["board"])
    for played in game["moves"]:
        state = state.play(state.parse_move(played) if isinstance(played, str) else played)
    return state


def answers_legally(before: dict, after: dict) -> None:
    """``after`` is ``before`` plus one legal move of the computer, described by its report."""
    assert after["moves"][:-1] == before["moves"] and after["moves"][-1] in before["legal"]
    search = after["last_search"]
    assert search["side"] == before["to_move"]
    if "gravity" not in before["board"]:  # (a gravity box's notation names moves otherwise)
        assert search["move"] == str(after["moves"][-1])
    assert search["level"] == before["players"][before["to_move"]]
    state = replayed(after)
    assert after["legal"] == [
        m if after["kind"] == "classic" else state.format_move(m) for m in state.legal_moves
    ]


# -- games --------------------------------------------------------------------------------------------


def test_3x3_game_with_values_matches_negamax(client: TestClient) -> None:
    game = new(client, "?values=1", board="3x3", players={"x": "human", "o": "perfect"}, seed=1)
    assert (
        game["kind"] == "classic"
        and game["board"] == "3x3"
        and game["shape"] == [3, 3]
        and game["k"] == 3
    )
    assert game["players"] == {"x": "human", "o": "perfect"} and game["position"] == "0" * 9
    assert game["playing"] == {
        "o": game_of(new_game("3x3")).describe_level("perfect", new_game("3x3"))
    }
    assert (
        game["to_move"] == "x" and not game["computer_to_move"] and game["legal"] == list(range(9))
    )
    assert game["values_available"] and game["last_search"] is None
    gid = game["id"]
    while not game["over"]:
        position = Position.from_string(game["position"])
        assert game["legal"] == list(position.legal_moves)
        assert game["values"] == {
            str(c): entry(*for_mover(position, c)) for c in position.legal_moves
        }
        if game["computer_to_move"]:
            assert bad(
                client.post(f"/api/games/{gid}/move", json={"move": position.legal_moves[0]})
            ).startswith("it is O's turn")
            before, game = game, ai(client, game, "?values=1")
            answers_legally(before, game)
            assert (
                game["last_search"]["engine"] == "perfect"
                and game["last_search"]["value"] == reference_value(position).outcome
            )
            # the perfect player never gives anything away
            assert reference_value(Position.from_string(game["position"])).winner != "x"
        else:
            assert bad(client.post(f"/api/games/{gid}/ai")).startswith("it is X's turn")
            game = move(client, game, position.legal_moves[-1], "?values=1")
            assert game["last_search"] is None
    final = Position.from_moves(Geometry.parse("3x3"), game["moves"])
    assert game["position"] == final.to_status_string() and game["winner"] == final.winner
    assert game["outcome"] == final.outcome and game["values"] == {} and game["legal"] == []
    assert game["winning_lines"] == [list(cells) for _, cells in final.complete_lines]
    assert bad(client.post(f"/api/games/{gid}/move", json={"move": 0})).startswith(
        "move: cannot play cell 0"
    )
    assert bad(client.post(f"/api/games/{gid}/ai")).startswith("the game is over")
    assert client.get(f"/api/games/{gid}").json()["moves"] == game["moves"]


@pytest.mark.slow
def test_perfect_players_draw_and_others_finish(client: TestClient) -> None:
    for x, o in (("perfect", "perfect"), ("random", "hard"), ("easy", "medium"), ("best", "best")):
        game = new(client, board="3x3", players={"x": x, "o": o}, seconds=0.05, seed=3)
        while not game["over"]:
            assert game["computer_to_move"]
            before, game = game, ai(client, game)
            answers_legally(before, game)
        if "perfect" in (x, o) or x == o == "best":
            assert (
                game["winner"] is None
                and len(game["moves"]) == 9
                and game["result"] == "Draw: the board is full"
            )


def test_5x5_human_against_hard(client: TestClient) -> None:
    game = new(
        client,
        "?values=1",
        board="5x5",
        k=4,
        players={"x": "human", "o": "hard"},
        seconds=0.2,
        seed=5,
    )
    assert (
        game["board"] == "5x5,k=4"
        and game["k"] == 4
        and game["playing"] == {"o": "hard (alpha-beta search)"}
    )
    assert (
        not game["values_available"] and game["values"] is None
    )  # beyond the exact solver: no move values
    for _ in range(3):
        game = move(client, game, game["legal"][len(game["legal"]) // 2], "?values=1")
        assert game["computer_to_move"]
        before, game = game, ai(client, game)
        answers_legally(before, game)
        search = game["last_search"]
        assert (
            search["engine"] == "hard"
            and search["budget"] == 0.2
            and search["nodes"] > 0
            and search["seconds"] > 0
        )
    assert len(game["moves"]) == 6 and game["svg"].count('<rect class="cell') == 25


def test_a_computer_move_may_change_the_thinking_time(client: TestClient) -> None:
    """``POST /ai`` with ``{"seconds": S}`` (the page's Go after a stopped search, the time box
    changed meanwhile) thinks for S from this move on; a time out of bounds is refused, naming
    the field, and changes nothing."""
    game = new(client, board="5x5", k=4, players={"x": "human", "o": "hard"}, seconds=0.2, seed=5)
    game = move(client, game, 12)
    refused = client.post(f"/api/games/{game['id']}/ai", json={"seconds": 99})
    assert bad(refused).startswith("seconds (the computer's time per move) is between")
    response = client.post(f"/api/games/{game['id']}/ai", json={"seconds": 0.1})
    assert response.status_code == 200, response.text
    game = response.json()
    assert game["seconds"] == 0.1 and game["last_search"]["budget"] == 0.1
    game = ai(client, move(client, game, game["legal"][0]))  # the later moves keep it
    assert game["seconds"] == 0.1 and game["last_search"]["budget"] == 0.1
    assert "seconds: expected" in bad(
        client.post(f"/api/games/{game['id']}/ai", json={"seconds": "soon"})
    )


def test_3x3x3_game(client: TestClient) -> None:
    game = new(
        client, kind="classic", board="3x3x3", players={"x": "human", "o": "hard"}, seconds=0.1
    )
    assert game["board"] == "3x3x3" and game["shape"] == [3, 3, 3] and not game["values_available"]
    assert all(f">layer {n}<" in game["svg"] for n in (1, 2, 3))
    before = move(client, game, 13)
    game = ai(client, before)
    answers_legally(before, game)
    # the first player wins 3x3x3; hard finds the win against random moves
    game = new(client, board="3x3x3", players={"x": "hard", "o": "random"}, seconds=0.1, seed=2)
    while not game["over"]:
        before, game = game, ai(client, game)
        answers_legally(before, game)
    assert game["winner"] == "x" and game["result"] == "X has won" and game["winning_lines"]
    assert replayed(game).outcome == "x"


def test_4x4x4_is_drawn_as_four_layers_two_by_two(client: TestClient) -> None:
    game = new(client, board="4x4x4", players={"x": "human", "o": "human"})
    svg = game["svg"]
    assert all(f">layer {n}<" in svg for n in (1, 2, 3, 4)) and svg.count('<rect class="cell') == 64
    width, height = (float(v) for v in svg.split('viewBox="0 0 ', 1)[1].split('"', 1)[0].split())
    assert (
        width < 1.2 * height
    )  # two layers across, two down: fits a phone screen with usable cells


def test_gomoku_ai_thinks_with_the_time_it_was_given(client: TestClient) -> None:
    budget = 0.5
    game = new(client, board="15x15", k=5, players={"x": "human", "o": "hard"}, seconds=budget)
    assert game["board"] == "15x15,k=5" and len(game["legal"]) == 225 and game["values"] is None
    game = move(client, game, 112)
    after = ai(client, game)  # (the wall time includes starting a worker process: not asserted)
    answers_legally(game, after)
    assert after["last_search"]["seconds"] > 0 and after["last_search"]["budget"] == budget


def perfect_reaches(start: GameState) -> bool:
    """Whether the library's perfect level takes this game (the page must refuse it otherwise)."""
    from oxo.errors import OutOfReachError
    from oxo.web.thinking import engine_for

    try:
        engine_for("perfect", start, None, None)
    except OutOfReachError:
        return False
    return True


@pytest.mark.slow
def test_every_offered_board_at_every_level(client: TestClient) -> None:
    boards = client.get("/api/info").json()["boards"]
    assert [b["id"] for b in boards] == [
        "3x3",
        "4x4,k=3",
        "4x4",
        "5x5,k=4",
        "6x7,k=4",
        "3x3x3",
        "4x4x4",
        "15x15,k=5",
        "mega",
        "uttt",
        "connect4",
        "4x4x4,gravity",
        "4x4x4x4",
    ]
    for board in boards:
        setup = {"kind": board["kind"]} | (
            {"board": board["board"], "k": board["k"]} if board["kind"] == "classic" else {}
        )
        start = new_game(board["board"], board["k"])
        # On 16-cell boards two moves first, so that the exact levels solve 14 empty cells, not 16.
        # (Score Four has 16 moves too, on 64 cells: it starts empty.)
        opening = [0, 5] if board["id"] in ("4x4,k=3", "4x4") else []
        for level in LEVELS:
            body = {
                **setup,
                "players": {"x": level, "o": "human"},
                "seconds": 0.05,
                "seed": 1,
                "moves": opening,
            }
            response = client.post("/api/games", json=body)
            if level == "perfect" and not perfect_reaches(start):
                assert "players.x: perfect play is out of reach" in bad(response), board
                continue
            game = response.json()
            state = replayed(game)
            assert game["playing"]["x"] == game_of(state).describe_level(level, state), (
                board,
                level,
            )
            answers_legally(game, ai(client, game))


def test_perfect_is_refused_where_out_of_reach(client: TestClient) -> None:
    message = bad(
        client.post(
            "/api/games", json={"board": "6x6", "k": 4, "players": {"x": "human", "o": "perfect"}}
        )
    )  # 6x6 with k=4: not a board oxo has proved (5x5 with k=4 is: perfect plays its proof)
    assert (
        message.startswith("players.o: perfect play is out of reach")
        and "6x6,k=4 has 36 empty cells" in message
    )
    assert "the strongest level that works here is best" in message
    message = bad(
        client.post("/api/games", json={"kind": "mega", "players": {"x": "perfect", "o": "human"}})
    )
    assert (
        message.startswith("players.x: perfect play is out of reach")
        and "the strongest level that works here is hard" in message
    )
    # within reach it plays; best plays where perfect is refused
    assert (
        new(client, board="4x4", k=3, players={"x": "human", "o": "perfect"}, moves=[0, 5])[
            "players"
        ]["o"]
        == "perfect"
    )
    assert new(client, board="6x6", k=4, players={"x": "human", "o": "best"})["playing"][
        "o"
    ].startswith("best: hard")


def test_unknown_level_names_the_field(client: TestClient) -> None:
    for side in ("x", "o"):
        message = bad(client.post("/api/games", json={"board": "3x3", "players": {side: "wizard"}}))
        assert (
            message.startswith(f'unknown level "wizard" for players.{side}')
            and "perfect" in message
        )
    assert "players.x" in bad(client.post("/api/games", json={"players": {"x": None}}))
    assert "players.o" in bad(client.post("/api/games", json={"players": {"o": 3}}))
    assert "players.z: unknown field" in bad(
        client.post("/api/games", json={"players": {"z": "hard"}})
    )
    assert "players: expected object" in bad(client.post("/api/games", json={"players": "hard"}))
    # the old name of mega's search is still understood
    assert new(client, kind="mega", players={"x": "human", "o": "mcts"})["players"]["o"] == "hard"


def test_undo_takes_back_to_the_persons_turn(client: TestClient) -> None:
    for setup, first in (({"board": "3x3"}, 4), ({"kind": "mega"}, "55")):
        game = new(client, **setup, players={"x": "human", "o": "random"}, seed=2)
        gid = game["id"]
        assert bad(client.post(f"/api/games/{gid}/undo")) == "there is no move to undo"
        game = ai(client, move(client, game, first))
        assert (
            len(game["moves"]) == 2
            and game["moves"][0] == first
            and game["last_search"] is not None
        )
        game = client.post(f"/api/games/{gid}/undo").json()
        assert game["moves"] == [] and game["to_move"] == "x" and game["last_search"] is None
    people = new(client, board="4x4", players={"x": "human", "o": "human"})
    move(client, people, 5)
    move(client, people, "6")
    assert client.post(f"/api/games/{people['id']}/undo").json()["moves"] == [5]


def test_game_is_rebuilt_from_its_moves(client: TestClient) -> None:
    game = new(client, board="3x5", players={"x": "human", "o": "human"}, moves=[0, 5, 1, 6])
    assert (
        game["position"]
        == Position.from_moves(Geometry.parse("3x5"), [0, 5, 1, 6]).to_status_string()
    )
    assert game["board"] == "3x5" and game["k"] == 3 and game["shape"] == [3, 5]
    assert (
        bad(client.post("/api/games", json={"board": "3x3", "moves": [0, 0]}))
        == "moves[1]: cell 0 is already taken"
    )
    assert "moves[0]: expected int | str" in bad(
        client.post("/api/games", json={"board": "3x3", "moves": [[0]]})
    )
    assert "at most 9 moves" in bad(
        client.post("/api/games", json={"board": "3x3", "moves": list(range(10))})
    )
    assert "moves: expected array, got str" in bad(
        client.post("/api/games", json={"board": "3x3", "moves": "0 1"})
    )
    record = ["55", "44", "13", "21"]
    game = new(client, kind="mega", players={"x": "human", "o": "human"}, moves=record)
    check_mega(game, " ".join(record))
    message = bad(client.post("/api/games", json={"kind": "mega", "moves": ["55", "55"]}))
    assert "move 2 (55) is illegal" in message and "rule 2" in message


def test_bad_requests(client: TestClient) -> None:
    gid = new(client, board="3x3", players={"x": "human", "o": "human"})["id"]
    mid = new(client, kind="mega", players={"x": "human", "o": "human"})["id"]
    cases = [
        (client.post("/api/games", json={"board": "9y9"}), "board"),
        (client.post("/api/games", json={"board": "3x3", "k": 7}), "k=7"),
        (client.post("/api/games", json={"board": "3x3", "k": 0}), "k: expected int >= 1"),
        (client.post("/api/games", json={"board": 33}), "board: expected str"),
        (client.post("/api/games", json={"board": "20x20"}), "at most 361 cells"),
        (
            client.post("/api/games", json={"kind": "chess"}),
            "kind: must be classic or connect4 or mega or uttt",
        ),
        (
            client.post("/api/games", json={"kind": "mega", "board": "3x3"}),
            "a mega game has no board size nor k",
        ),
        (
            client.post("/api/games", json={"kind": "mega", "k": 3}),
            "a mega game has no board size nor k",
        ),
        (client.post("/api/games", json={"seconds": 0}), "between 0.05 and 10"),
        (client.post("/api/games", json={"seconds": 1000}), "between 0.05 and 10"),
        (client.post("/api/games", json={"seconds": "soon"}), "seconds: expected float"),
        (client.post("/api/games", json={"seconds": "nan"}), "seconds: expected float"),
        (client.post("/api/games", json={"seconds": [1]}), "seconds: expected float"),
        (client.post("/api/games", json={"seed": 1.0}), "seed: expected int"),
        (client.post("/api/games", json={"seed": -1}), "seed: expected int >= 0"),
        (client.post("/api/games", json={"colour": "red"}), "colour: unknown field"),
        (client.post("/api/games", json={"players": {"z": "hard"}}), "players.z: unknown field"),
        (client.post("/api/games", content=b"{not json"), "not a JSON object"),
        (client.post("/api/games", content=b"[1, 2]"), "expected object, got array"),
        (
            client.post("/api/games", json={"board": "x" * 1000}),
            "board: expected str of length <= 400",
        ),
        (client.post(f"/api/games/{gid}/move", json={}), "move: missing"),
        (client.post(f"/api/games/{gid}/move", json={"move": 9}), "not on a 3x3 board"),
        (client.post(f"/api/games/{gid}/move", json={"move": -1}), "not on a 3x3 board"),
        (client.post(f"/api/games/{gid}/move", json={"move": "four"}), "move: a move on a classic"),
        (client.post(f"/api/games/{gid}/move", json={"move": True}), "move: expected int | str"),
        (client.post(f"/api/games/{gid}/move", json={"move": 1.5}), "move: expected int | str"),
        (client.post(f"/api/games/{gid}/move", json={"move": "٣"}), "move: a move on a classic"),
        (client.post(f"/api/games/{gid}/move", content=b"\xff\xfe"), "not valid UTF-8 JSON"),
        (client.post(f"/api/games/{mid}/move", json={"move": "5"}), "a mega move is text"),
        (client.post(f"/api/games/{mid}/move", json={"move": "a1"}), "a mega move is text"),
        (client.post(f"/api/games/{mid}/move", json={"move": "٥٥"}), "a mega move is text"),
        (client.post(f"/api/games/{mid}/move", json={"move": "50"}), "a mega move is text"),
        (client.post(f"/api/games/{mid}/move", json={"move": [55]}), "move: expected int | str"),
        (client.post(f"/api/games/{mid}/move", json={"move": False}), "move: expected int | str"),
        (client.post(f"/api/games/{mid}/move", content=b"55"), "expected object, got int"),
        (client.post(f"/api/games/{mid}/undo"), "no move to undo"),
    ]
    for response, expected in cases:
        assert expected in bad(response), response.text
    client.post(f"/api/games/{gid}/move", json={"move": 4})
    assert (
        bad(client.post(f"/api/games/{gid}/move", json={"move": 4}))
        == "move: cell 4 is already taken"
    )
    assert "at most 64000" in bad(client.post("/api/games", content=b"x" * 70_000), 413)
    client.post(f"/api/games/{mid}/move", json={"move": "55"})
    assert "rule 5" in bad(client.post(f"/api/games/{mid}/move", json={"move": "51"}))
    assert "no game with id" in bad(client.get("/api/games/nope"), 404)
    assert "no game with id" in bad(client.post("/api/games/nope/move", json={"move": 1}), 404)
    assert "no game with id" in bad(client.post("/api/games/nope/ai"), 404)


def test_a_json_number_is_not_a_mega_move(client: TestClient) -> None:
    game = new(client, kind="mega", players={"x": "human", "o": "human"})
    for number in (55, 40, 0):
        message = bad(client.post(f"/api/games/{game['id']}/move", json={"move": number}))
        assert message.startswith('move: a mega move is text GC such as "55"'), message
    assert bad(client.post(f"/api/games/{game['id']}/move", json={"move": 55.0})).startswith(
        "move: expected int | str, got float"
    )
    assert "a mega move is text" in bad(
        client.post("/api/games", json={"kind": "mega", "moves": [55]})
    )
    assert client.get(f"/api/games/{game['id']}").json()["moves"] == []


@pytest.mark.slow
def test_4x4_values_match_negamax(client: TestClient) -> None:
    moves = [5, 10, 0, 15, 6]
    game = new(client, "?values=1", board="4x4", players={"x": "human", "o": "human"}, moves=moves)
    position = Position.from_moves(Geometry.parse("4x4"), moves)
    assert game["values"] == {str(c): entry(*for_mover(position, c)) for c in position.legal_moves}
    game = move(client, game, 9, "?values=1")
    position = position.play(9)
    assert game["values"] == {str(c): entry(*for_mover(position, c)) for c in position.legal_moves}


# -- mega ---------------------------------------------------------------------------------------------


def check_mega(state: dict, record: str) -> None:
    """A mega game's JSON against the rules engine replaying the same record."""
    engine = MegaState.replay(record)
    assert state["kind"] == "mega" and state["board"] == "mega"
    assert state["record"] == engine.record and state["moves"] == [
        format_move(m) for m in engine.moves
    ]
    assert state["legal"] == [format_move(m) for m in engine.legal_moves]
    assert state["covered"] == {str(g): owner for g, owner in engine.covered.items()}
    assert (
        state["outcome"] == engine.winner
        and state["to_move"] == engine.to_move
        and state["over"] == engine.is_over
    )
    string = engine.current_string
    assert state["string"]["played"] == [format_move(m) for m in string.played]
    assert (
        state["string"]["abnormal"] == string.abnormal
        and state["string"]["number"] == string.index + 1
    )
    assert state["abnormal_strings"] == [i + 1 for i in engine.abnormal_strings]
    assert (
        state["svg"].startswith("<svg")
        and state["values"] is None
        and not state["values_available"]
    )


def test_mega_people_play_a_whole_game(client: TestClient) -> None:
    game = new(client, kind="mega", players={"x": "human", "o": "human"})
    check_mega(game, "")
    assert len(game["legal"]) == 81 and game["string"]["length"] == 9 and game["playing"] == {}
    played = 0
    while not game["over"]:
        game = move(client, game, game["legal"][(7 * played) % len(game["legal"])])
        played += 1
        check_mega(game, game["record"])
    assert played == len(parse_record(game["record"]))
    assert client.get(f"/api/games/{game['id']}").json()["record"] == game["record"]
    assert "the game is over" in bad(
        client.post(f"/api/games/{game['id']}/move", json={"move": "11"})
    )


def test_mega_human_against_hard(client: TestClient) -> None:
    from oxo.mega import compiled

    compiled.warm_up()  # as oxo serve does when it starts, so the first search does not pay for loading it
    budget = 0.3
    game = new(client, kind="mega", players={"x": "human", "o": "hard"}, seconds=budget, seed=4)
    assert game["playing"] == {"o": "hard (Monte Carlo tree search)"}
    assert bad(client.post(f"/api/games/{game['id']}/ai")).startswith(
        "it is X's turn and X is a person"
    )
    game = move(client, game, "55")
    assert game["computer_to_move"] and game["to_move"] == "o"
    assert bad(
        client.post(f"/api/games/{game['id']}/move", json={"move": game["legal"][0]})
    ).startswith("it is O's turn")
    after = ai(client, game)  # (the wall time includes starting a worker process: not asserted)
    answers_legally(game, after)
    check_mega(after, after["record"])
    search = after["last_search"]
    assert (
        search["engine"] == "hard"
        and search["budget"] == budget
        and search["nodes"] > 0
        and search["seconds"] > 0
    )


def test_mega_ai_with_a_single_legal_move(client: TestClient) -> None:
    rng = random.Random(0)
    state = MegaState()
    while len(state.legal_moves) != 1:
        state = MegaState() if state.is_over else state
        state.push(rng.choice(state.legal_moves))
    sides = {"x": "human", "o": "human", state.to_move: "hard"}
    game = new(
        client,
        kind="mega",
        players=sides,
        seconds=0.05,
        moves=[format_move(m) for m in state.moves],
    )
    game = ai(client, game)
    assert game["moves"][-1] == format_move(state.legal_moves[0]) == game["last_search"]["move"]


def test_mega_computers_finish_a_game(client: TestClient) -> None:
    game = new(client, kind="mega", players={"x": "random", "o": "easy"}, seed=11)
    while not game["over"]:
        before, game = game, ai(client, game)
        answers_legally(before, game)
    check_mega(game, game["record"])
    assert game["result"].startswith(("X wins", "O wins", "Draw"))


def test_the_search_runs_off_the_event_loop() -> None:
    """While the computer thinks, the server still answers other requests (before the search
    ends: the search runs in a worker, not on the server's event loop)."""
    import threading
    import urllib.request

    from oxo.web import bind, make_server, url_of

    sock = bind("127.0.0.1", 0)
    server = make_server(sock, niceness=0)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()

    def call(path: str, body: object = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            url_of(sock) + path.lstrip("/"), data=data, headers={"Content-Type": "application/json"}
        )
        return json.loads(urllib.request.urlopen(request, timeout=30).read())

    try:
        deadline = time.monotonic() + 30
        while not server.started:
            assert time.monotonic() < deadline and thread.is_alive(), (
                "the test server did not start"
            )
            time.sleep(0.05)
        # A long search, stopped once the test has seen what it needs: whether the server
        # answers while the search goes on is read from the server, never from a clock.
        game = call(
            "/api/games",
            {"board": "15x15", "k": 5, "players": {"x": "hard", "o": "human"}, "seconds": 10},
        )
        path = f"/api/games/{game['id']}"
        thinking = threading.Thread(target=call, args=(f"{path}/ai", {}))
        thinking.start()
        deadline = time.monotonic() + 30
        while not call(path)["thinking"]:  # the search has begun (its worker may take a moment)
            assert time.monotonic() < deadline and thinking.is_alive(), "the search never began"
            time.sleep(0.05)
        assert call("/api/info")["players"][0] == "human"
        # answered while the search went on: it had not ended, nor had its request
        assert call(path)["thinking"] and thinking.is_alive()
        assert call(f"{path}/cancel", {})["cancelled"]
        thinking.join(timeout=30)
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        sock.close()


# -- explorer -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text", ["x...o...x", "xo./.x./..o", "000000000", "xxx/oo./...", "x.o.x.o.x"]
)
def test_explore_matches_the_references(client: TestClient, text: str) -> None:
    data = client.get("/api/explore", params={"position": text}).json()
    position = Position.from_string(text)
    geometry = position.geometry
    assert data["position"] == position.to_status_string() and data["board"] == "3x3"
    # every symmetry appears once, grouped by the distinct image it makes
    names = [name for image in data["transforms"] for name in image["symmetries"]]
    assert sorted(names) == sorted(s.name for s in geometry.symmetries)
    assert len(data["transforms"]) == data["class_size"] == position.class_size
    for image in data["transforms"]:
        for name in image["symmetries"]:
            assert position.transform(name).to_status_string() == image["position"]
        assert image["canonical"] == (
            image["position"] == min(i["position"] for i in data["transforms"])
        )
    assert data["canonical"]["position"] == min(i["position"] for i in data["transforms"])
    assert data["stabilizer"] == [
        name
        for image in data["transforms"]
        for name in image["symmetries"]
        if image["position"] == data["position"]
    ]
    assert [c["cells"] for c in data["cell_classes"]] == [
        list(c.cells) for c in geometry.cell_classes
    ]
    assert [c["name"] for c in data["line_classes"]] == [c.name for c in geometry.line_classes]
    assert [c["lines"] for c in data["line_classes"]] == [
        [list(line) for line in c.lines] for c in geometry.line_classes
    ]
    for line_class in data["line_classes"]:
        assert line_class["svg"].count("<polyline") == len(line_class["lines"])
    dead = [
        list(cells)
        for cells in geometry.line_cells
        if any(position.statuses[c] == 1 for c in cells)
        and any(position.statuses[c] == 2 for c in cells)
    ]
    assert data["dead_lines"] == dead
    assert data["open_for_x"] == len(line_report(position).open_for_x)
    x_can, o_can = reference_can_win(position)
    assert data["winnability"] == {
        "x_can_win": x_can,
        "o_can_win": o_can,
        "winnable": x_can or o_can,
    }
    value = reference_value(position)
    assert data["solution"]["value"] == value.outcome and data["solution"]["plies"] == value.plies
    if position.to_move:
        expected = {c: for_mover(position, c) for c in position.legal_moves}
        assert {
            int(c): (v["value"], v["plies"]) for c, v in data["solution"]["move_values"].items()
        } == expected
        rank = {"win": 2, "draw": 1, "loss": 0}
        best = max((rank[o], -p if o == "win" else p) for o, p in expected.values())
        assert data["solution"]["best_moves"] == [
            c for c, (o, p) in expected.items() if (rank[o], -p if o == "win" else p) == best
        ]
    else:
        assert data["solution"]["best_moves"] == []


def test_explore_other_boards(client: TestClient) -> None:
    data = client.get("/api/explore", params={"position": "x" + "." * 26, "board": "3x3x3"}).json()
    assert (
        data["board"] == "3x3x3"
        and data["symmetries"] == 48
        and len(data["transforms"]) == data["class_size"]
    )
    assert "too many to search" in data["winnability"]["error"]
    data = client.get("/api/explore", params={"position": "x...", "k": "1"}).json()
    assert data["board"] == "2x2,k=1" and data["k"] == 1 and data["winner"] == "x"
    # A 4x5 board (20 cells, too many to solve whole) after 9 moves: searched from the position itself.
    rng = random.Random(5)
    position = Position.empty(Geometry.parse("4x5"))
    while position.ply < 9:
        position = position.play(rng.choice(position.legal_moves))
    assert not position.is_terminal
    data = client.get("/api/explore", params={"position": position.to_letters(rows=True)}).json()
    assert data["board"] == "4x5"
    value = reference_value(position)
    assert (data["solution"]["value"], data["solution"]["plies"]) == (value.outcome, value.plies)
    assert (
        data["winnability"]["x_can_win"],
        data["winnability"]["o_can_win"],
    ) == reference_can_win(position)
    data = client.get("/api/explore", params={"position": "xx......."}).json()
    assert (
        "impossible mark counts" in data["status"]
        and "X moves first" in data["winnability"]["error"]
    )
    assert data["class_size"] == Position.from_string("xx.......").class_size


def test_explore_bad_requests(client: TestClient) -> None:
    cases = [
        ({}, "position: missing"),
        ({"position": " "}, "give a position"),
        ({"position": "xq......."}, "unknown character 'q'"),
        ({"position": "x......"}, "cannot tell the board"),
        ({"position": "x........", "board": "4x4"}, "has 9 cells but a 4x4 board has 16"),
        ({"position": "x........", "board": "banana"}, "board"),
        ({"position": "x........", "k": "0"}, "k: expected int >= 1"),
        ({"position": "x........", "k": "9"}, "k=9"),
        ({"position": "x........", "k": "three"}, "k: expected int"),
        ({"position": "x........", "k": "³"}, "k: digits must be the ASCII digits"),
        ({"position": "x........", "k": "٣"}, "k: digits must be the ASCII digits"),
        ({"position": "x........", "colour": "red"}, "colour: unknown field"),
        ({"position": "." * 100, "board": "10x10"}, "at most 64 cells"),
        ({"position": "." * 500}, "position: expected str of length <= 400"),
    ]
    for params, expected in cases:
        assert expected in bad(client.get("/api/explore", params=params)), params


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    position=st.text(alphabet="xo.012/ -a", max_size=20),
    board=st.one_of(
        st.none(),
        st.sampled_from(
            ["3x3", "2x2", "3x4", "4x4,k=3", "1x1", "0x3", "3x3x", "2x2x2", "mnk(m=2,n=3,k=2)"]
        ),
    ),
    k=st.one_of(st.none(), st.integers(-2, 6).map(str)),
)
def test_explore_never_fails_on_odd_input(
    client: TestClient, position: str, board: str | None, k: str | None
) -> None:
    params = {
        "position": position,
        **({"board": board} if board else {}),
        **({"k": k} if k else {}),
    }
    response = client.get("/api/explore", params=params)
    assert response.status_code in (200, 400), response.text
    if response.status_code == 400:
        bad(response)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-100, 100)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=8,
)
FIELDS = st.sampled_from(["kind", "board", "k", "players", "seed", "moves", "move", "seconds"])
PLAYERS = st.dictionaries(
    st.sampled_from(["x", "o", "z"]),
    JSON | st.sampled_from(["human", "hard", "perfect", "mcts"]),
    max_size=2,
)


@settings(
    max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.dictionaries(FIELDS, JSON, max_size=5)
    | JSON
    | st.fixed_dictionaries({"players": PLAYERS}),
    target=st.sampled_from(["new", "classic-move", "mega-move"]),
)
def test_odd_json_bodies_get_400_not_500(client: TestClient, body: object, target: str) -> None:
    if target == "new":
        if isinstance(body, dict) and isinstance(body.get("players"), dict):
            body["seconds"] = 0.05  # a computer may move when moves are replayed: keep it quick
        url = "/api/games"
    else:
        kind = target.split("-")[0]
        game = client.post(
            "/api/games", json={"kind": kind, "players": {"x": "human", "o": "human"}}
        ).json()
        url = f"/api/games/{game['id']}/move"
    response = client.post(url, json=body)
    assert response.status_code in (200, 400), response.text
    if response.status_code == 400:
        bad(response)


def test_non_standard_json_numbers_get_400(client: TestClient) -> None:
    # Python's JSON reader accepts NaN and Infinity; they must still be refused politely.
    gid = client.post(
        "/api/games", json={"kind": "mega", "players": {"x": "human", "o": "human"}}
    ).json()["id"]
    cid = client.post("/api/games", json={"players": {"x": "human", "o": "human"}}).json()["id"]
    for url, raw in (
        ("/api/games", b'{"seconds": NaN}'),
        ("/api/games", b'{"seconds": Infinity}'),
        ("/api/games", b'{"board": -Infinity}'),
        ("/api/games", b'{"board": "3x3", "seed": NaN}'),
        (f"/api/games/{gid}/move", b'{"move": Infinity}'),
        (f"/api/games/{cid}/move", b'{"move": NaN}'),
    ):
        bad(client.post(url, content=raw))


# -- counts -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["3x3", "2x3", "3x3,k=2"])
def test_count_matches_the_game_tree_walk(client: TestClient, spec: str) -> None:
    data = client.get("/api/count", params={"board": spec}).json()
    reference = count_positions(Geometry.parse(spec), "search")
    assert data["plies"] == [row.to_dict() for row in reference.plies]
    assert data["total"] == {
        "positions": reference.total_positions,
        "classes": reference.total_classes,
    }
    assert data["svg"].startswith("<svg") and data["board"] == Geometry.parse(spec).spec
    assert (
        client.get(
            "/api/count",
            params={"board": spec.split(",")[0], "k": spec.split("k=")[-1] if "k=" in spec else ""},
        ).json()["plies"]
        == data["plies"]
    )


def test_count_bad_requests(client: TestClient) -> None:
    assert "board: missing" in bad(client.get("/api/count"))
    assert "takes too long" in bad(client.get("/api/count", params={"board": "5x5", "k": "4"}))
    assert "board" in bad(client.get("/api/count", params={"board": "3by3"}))


def test_errors_are_json_one_liners(client: TestClient) -> None:
    response = client.post(
        "/api/games", content=json.dumps({"board": "3x3", "players": {"x": None}}).encode()
    )
    assert response.status_code == 400 and response.json()["error"].startswith(
        "players.x: expected str, got null"
    )


# -- the command --------------------------------------------------------------------------------------


def test_oxo_serve_prints_its_address_and_serves(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time
    import urllib.request

    from oxo.cli import main

    oxo = str(Path(sys.executable).with_name("oxo"))
    server = subprocess.Popen(
        [oxo, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        line = server.stdout.readline()  # type: ignore[union-attr]
        assert line.startswith("oxo: serving on http://127.0.0.1:") and line.rstrip().endswith(
            "(Ctrl-C to stop)"
        )
        url = line.split("serving on ", 1)[1].split()[0]
        port = int(url.rsplit(":", 1)[1].rstrip("/"))
        deadline = time.monotonic() + 30
        while True:
            try:
                info = json.loads(urllib.request.urlopen(url + "api/info", timeout=5).read())
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, (
                    "oxo serve did not answer"
                )
                time.sleep(0.05)
        assert info["players"] == ["human", *LEVELS]
        # the port is taken now: a second server says so in one line and exits with status 2
        assert main(["serve", "--port", str(port)]) == 2
        # Ctrl-C stops it cleanly
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=20)
        assert server.returncode == 0 and out.strip() == "oxo: stopped" and "Traceback" not in err
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(timeout=10)


def test_a_new_game_needs_only_a_board_entry(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session is generic over oxo.registry.new_game: another game (here ultimate tic-tac-toe) is
    offered by one entry in sessions.BOARDS; moves are its own text, drawn by its _repr_svg_."""
    from oxo.web import sessions

    entry = sessions._board("Ultimate tic-tac-toe", "uttt")
    assert entry == {
        "id": "uttt",
        "label": "Ultimate tic-tac-toe",
        "kind": "uttt",
        "board": "uttt",
        "k": None,
    }
    monkeypatch.setattr(sessions, "BOARDS", (*sessions.BOARDS, entry))
    game = new(client, kind="uttt", players={"x": "human", "o": "random"}, seed=3)
    reference = new_game("uttt")
    assert game["kind"] == game["board"] == "uttt"
    assert game["legal"] == [reference.format_move(m) for m in reference.legal_moves]
    assert game["svg"].startswith("<svg") and game["values"] is None
    first = game["legal"][0]
    assert "move" in bad(client.post(f"/api/games/{game['id']}/move", json={"move": 0}))
    assert "move" in bad(client.post(f"/api/games/{game['id']}/move", json={"move": "٥٥"}))
    game = move(client, game, first)
    game = ai(client, game)
    assert game["moves"][0] == first and len(game["moves"]) == 2
    state = reference.play(reference.parse_move(first)).play(reference.parse_move(game["moves"][1]))
    assert game["record"] == " ".join(game["moves"])
    assert game["legal"] == [state.format_move(m) for m in state.legal_moves]
    assert "uttt" in bad(client.post("/api/games", json={"kind": "uttt", "board": "3x3"}))
    assert new(client, board="uttt", players={"x": "human", "o": "human"})["kind"] == "uttt"


def test_the_docs_show_the_boards_the_page_offers(client: TestClient) -> None:
    """docs/api.md's example of GET /api/info is the answer, boards included (it omitted ultimate
    tic-tac-toe and Connect Four: issue 30, item 6)."""
    import re
    from pathlib import Path

    text = (Path(__file__).parents[1] / "docs" / "api.md").read_text()
    block = re.search(r"`GET /api/info` lists the boards.*?```json\n(.*?)```", text, re.S)
    assert block is not None
    documented = json.loads(block.group(1).replace('"..."', "null"))
    answer = client.get("/api/info").json()
    shown = ("id", "label", "kind", "board", "k")  # the levels of one board are shown after it
    assert documented["boards"] == [{key: b[key] for key in shown} for b in answer["boards"]]
    for key in ("players", "levels", "default_level", "seconds", "limits", "strength"):
        assert documented[key] == answer[key], key
    assert {board["kind"] for board in answer["boards"]} >= {"uttt", "connect4"}
    levels = re.search(r"another\. Connect Four's:\n\n```json\n(.*?)```", text, re.S)
    assert levels is not None
    connect4 = next(b for b in answer["boards"] if b["id"] == "connect4")
    assert json.loads(levels.group(1)) == {key: connect4[key] for key in ("rated", "levels")}


def test_score_four_shows_the_values_of_its_moves_near_the_end(client: TestClient) -> None:
    """Score Four, which the classic solver does not know: the values of the moves come from its
    exact solver once at most its reach of cells are empty (none before), each the value of the
    position the move leads to for the player making it, and the best of them the position's own."""
    from oxo.proofs.dropvalue import DropSolver, drop_solution

    geometry = Geometry.parse("4x4x4,gravity")
    rng = random.Random(5)
    moves: list[int] = []
    position = Position.empty(geometry)
    while len(position.empty_cells) > drop_solution.reach:
        if position.is_over:
            position, moves = Position.empty(geometry), []  # a line on the way: again
            continue
        choice = rng.choice(position.legal_moves)
        moves.append(choice)
        position = position.play(choice)
    earlier = new(
        client,
        "?values=1",
        board="scorefour",
        players={"x": "human", "o": "human"},
        moves=moves[:-2],
    )
    assert not earlier["values_available"] and earlier["values"] is None
    game = new(
        client, "?values=1", board="scorefour", players={"x": "human", "o": "human"}, moves=moves
    )
    assert game["values_available"] and set(game["values"]) == {str(m) for m in game["legal"]}
    solver = DropSolver(geometry)
    rank = {"loss": 0, "draw": 1, "win": 2}
    for cell, entry in game["values"].items():
        child = position.play(int(cell))
        if child.winner is not None:
            expected = ("win", 1)
        else:
            score = solver.score(child)  # for the side to move after the move: the other one
            assert score is not None
            outcome = "loss" if score > 0 else "win" if score < 0 else "draw"
            plies = geometry.size + 1 - child.ply - abs(score) if score else None
            expected = (outcome, None if plies is None else plies + 1)
        assert (entry["value"], entry["plies"] if entry["value"] != "draw" else None) == expected
    own = solver.score(position)
    best = max(
        game["values"].values(),
        key=lambda e: (rank[e["value"]], -e["plies"] if e["value"] == "win" else e["plies"]),
    )
    assert best["value"] == ("win" if own > 0 else "loss" if own < 0 else "draw")
    assert game["svg"].count("data-value=") == len(game["legal"])  # the drawing shows them


def test_score_four_and_the_4d_board_on_the_page(client: TestClient) -> None:
    boards = {b["id"]: b for b in client.get("/api/info").json()["boards"]}
    offered = boards["4x4x4,gravity"]
    assert offered["board"] == "4x4x4,gravity" and offered["k"] == 4
    game = new(
        client,
        kind="classic",
        board=offered["board"],
        k=offered["k"],
        players={"x": "human", "o": "easy"},
        seed=1,
    )
    assert game["legal"] == list(range(48, 64)) and not game["values_available"]
    svg = game["svg"]
    assert all(f">{name}<" in svg for name in ("top", "level 3", "level 2", "bottom"))
    assert svg.count('class="cell legal') == 16
    refused = client.post(f"/api/games/{game['id']}/move", json={"move": 0})  # a floating mark
    assert "not the lowest empty cell" in bad(refused)
    before = move(client, game, 53)
    assert 53 - 16 in before["legal"]  # the column's next cell up
    after = ai(client, before)
    assert after["moves"][:-1] == [53] and after["moves"][-1] in before["legal"]
    column = replayed(before).format_move(after["moves"][-1])
    assert after["last_search"]["move"] == column  # the computer's move named by its column
    game = new(client, board="scorefour", players={"x": "human", "o": "human"})
    assert game["board"] == "4x4x4,gravity" and len(game["legal"]) == 16
    refused = client.post(
        "/api/games", json={"board": "scorefour", "players": {"x": "perfect", "o": "human"}}
    )
    assert "4x4x4,gravity has 64 empty cells" in bad(refused)  # perfect near the end only
    refused = client.post(
        "/api/games",
        json={"board": "4x4x4x4,gravity", "players": {"x": "perfect", "o": "human"}},
    )
    assert "has no exact solver" in bad(refused)
    game = new(client, board="4x4x4x4", players={"x": "human", "o": "human"})
    svg = game["svg"]
    assert svg.count('<rect class="cell') == 256 and ">cells 240-255<" in svg
    width, height = (float(v) for v in svg.split('viewBox="0 0 ', 1)[1].split('"', 1)[0].split())
    assert width <= 600 and height <= 700  # a 4x4 grid of layers that fits a page


def test_explore_this_position_only_where_the_explorer_draws(client: TestClient) -> None:
    """The page offered "Explore this position" on 15x15, where the explorer always refused: a
    classic game says whether its board can be explored, and the explorer agrees."""
    for spec in ("3x3", "4x4,k=3", "6x7,k=4", "4x4x4", "5x9,k=4", "15x15,k=5"):
        game = client.post(
            "/api/games", json={"board": spec, "players": {"x": "human", "o": "human"}}
        ).json()
        explored = client.get("/api/explore", params={"position": game["position"], "board": spec})
        assert game["explorable"] == (explored.status_code == 200), (spec, explored.text)
    assert not game["explorable"]  # 15x15: refused by the explorer
    mega = client.post("/api/games", json={"kind": "mega"}).json()
    assert "explorable" not in mega
