"""The JSON API of ``oxo serve`` through Starlette's ASGI test client: every endpoint, good and bad input.

Answers are checked against the library's slow references (negamax values, recursive winnability,
the game-tree position count) and the mega rules engine, never against typed-in numbers."""

from __future__ import annotations

import json
import random
import warnings
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 but works with httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from oxo.analysis import line_report, reference_can_win  # noqa: E402
from oxo.counting import count_positions  # noqa: E402
from oxo.geometry import Geometry  # noqa: E402
from oxo.mega import MegaState, parse_record  # noqa: E402
from oxo.mega.notation import format_move  # noqa: E402
from oxo.position import Position  # noqa: E402
from oxo.solve import reference_value  # noqa: E402
from oxo.web import create_app  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(scope="module")
def client() -> TestClient:
    return TestClient(create_app(), raise_server_exceptions=False)


def bad(response, status: int = 400) -> str:  # type: ignore[no-untyped-def]
    """The one-line JSON error of a refused request."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    message = response.json()["error"]
    assert isinstance(message, str) and message and "\n" not in message
    return message


def for_mover(position: Position, cell: int) -> tuple[str, int]:
    """Win / draw / loss of a move for the player to move, and plies to the end, by the slow negamax."""
    value = reference_value(position.play(cell))
    outcome = "draw" if value.winner is None else "win" if value.winner == position.to_move else "loss"
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
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, f"{path.name} reaches out"
    assert bad(client.get("/nowhere"), 404).startswith("no such page")
    assert bad(client.get("/api/classic"), 405)


def test_info(client: TestClient) -> None:
    data = client.get("/api/info").json()
    assert data["classic_players"][0] == "human" and "perfect" in data["classic_players"] and "random" in data["classic_players"]
    assert data["mega_players"] == ["human", "random", "mcts"]
    assert data["seconds"]["min"] < data["seconds"]["default"] < data["seconds"]["max"]


# -- classic ------------------------------------------------------------------------------------------


def test_classic_game_with_values_matches_negamax(client: TestClient) -> None:
    game = client.post("/api/classic?values=1", json={"board": "3x3", "x": "human", "o": "perfect", "seed": 1}).json()
    assert game["players"] == {"x": "human", "o": "perfect"} and game["position"] == "0" * 9
    assert game["to_move"] == "x" and not game["computer_to_move"] and game["legal"] == list(range(9))
    gid = game["id"]
    while not game["over"]:
        position = Position.from_string(game["position"])
        assert game["legal"] == list(position.legal_moves)
        assert game["values"] == {str(c): dict(zip(("value", "plies"), for_mover(position, c), strict=True)) for c in position.legal_moves}
        if game["computer_to_move"]:
            assert bad(client.post(f"/api/classic/{gid}/move", json={"cell": position.legal_moves[0]})).startswith("it is O's turn")
            game = client.post(f"/api/classic/{gid}/ai?values=1").json()
            # the perfect player never gives anything away
            assert reference_value(Position.from_string(game["position"])).winner != "x"
        else:
            assert bad(client.post(f"/api/classic/{gid}/ai")).startswith("it is X's turn")
            game = client.post(f"/api/classic/{gid}/move?values=1", json={"cell": position.legal_moves[-1]}).json()
    final = Position.from_moves(Geometry.parse("3x3"), game["moves"])
    assert game["position"] == final.to_status_string() and game["winner"] == final.winner
    assert game["values"] == {} and game["legal"] == []
    assert game["winning_lines"] == [list(cells) for _, cells in final.complete_lines]
    assert bad(client.post(f"/api/classic/{gid}/move", json={"cell": 0})).startswith("cannot play cell 0")
    assert bad(client.post(f"/api/classic/{gid}/ai")).startswith("the game is over")
    assert client.get(f"/api/classic/{gid}").json()["moves"] == game["moves"]


def test_perfect_players_draw_and_random_players_finish(client: TestClient) -> None:
    for x, o, outcome in (("perfect", "perfect", None), ("random", "hard", "any")):
        game = client.post("/api/classic", json={"board": "3x3", "x": x, "o": o, "seed": 3}).json()
        while not game["over"]:
            assert game["computer_to_move"]
            game = client.post(f"/api/classic/{game['id']}/ai").json()
        assert len(game["moves"]) == len(set(game["moves"]))
        if outcome is None:
            assert game["winner"] is None and len(game["moves"]) == 9 and game["result"].startswith("Draw")


def test_classic_undo_takes_back_to_the_persons_turn(client: TestClient) -> None:
    game = client.post("/api/classic", json={"board": "3x3", "x": "human", "o": "random", "seed": 2}).json()
    gid = game["id"]
    assert bad(client.post(f"/api/classic/{gid}/undo")) == "there is no move to undo"
    client.post(f"/api/classic/{gid}/move", json={"cell": 4})
    game = client.post(f"/api/classic/{gid}/ai").json()
    assert len(game["moves"]) == 2 and game["moves"][0] == 4
    game = client.post(f"/api/classic/{gid}/undo").json()
    assert game["moves"] == [] and game["to_move"] == "x"
    people = client.post("/api/classic", json={"board": "4x4", "x": "human", "o": "human"}).json()
    client.post(f"/api/classic/{people['id']}/move", json={"cell": 5})
    client.post(f"/api/classic/{people['id']}/move", json={"cell": "6"})
    assert client.post(f"/api/classic/{people['id']}/undo").json()["moves"] == [5]


def test_classic_game_is_rebuilt_from_its_moves(client: TestClient) -> None:
    game = client.post("/api/classic", json={"board": "3x5", "x": "human", "o": "human", "moves": [0, 5, 1, 6]}).json()
    assert game["position"] == Position.from_moves(Geometry.parse("3x5"), [0, 5, 1, 6]).to_status_string()
    assert game["board"] == "3x5" and game["k"] == 3 and game["shape"] == [3, 5]
    assert bad(client.post("/api/classic", json={"board": "3x3", "moves": [0, 0]})) == "cell 0 is already taken"
    assert "cell ID" in bad(client.post("/api/classic", json={"board": "3x3", "moves": ["a"]}))
    assert "at most 9" in bad(client.post("/api/classic", json={"board": "3x3", "moves": list(range(10))}))
    assert "at most 9" in bad(client.post("/api/classic", json={"board": "3x3", "moves": "0 1"}))


def test_classic_bad_requests(client: TestClient) -> None:
    game = client.post("/api/classic", json={"board": "3x3", "x": "human", "o": "human"}).json()
    gid = game["id"]
    cases = [
        (client.post("/api/classic", json={"board": "9y9"}), "board"),
        (client.post("/api/classic", json={"board": "3x3", "k": 7}), "k=7"),
        (client.post("/api/classic", json={"board": "3x3", "k": 0}), "k must be at least 1"),
        (client.post("/api/classic", json={"board": 33}), "board must be text"),
        (client.post("/api/classic", json={"board": "3x3", "x": "wizard"}), "unknown player 'wizard'"),
        (client.post("/api/classic", json={"board": "5x5", "o": "perfect"}), "at most 16 cells"),
        (client.post("/api/classic", json={"board": "9x9"}), "at most 64 cells"),
        (client.post("/api/classic", content=b"{not json"), "not JSON"),
        (client.post("/api/classic", content=b"[1, 2]"), "JSON object"),
        (client.post("/api/classic", json={"board": "x" * 1000}), "at most 400"),
        (client.post(f"/api/classic/{gid}/move", json={}), "give the cell"),
        (client.post(f"/api/classic/{gid}/move", json={"cell": 9}), "not on a 3x3 board"),
        (client.post(f"/api/classic/{gid}/move", json={"cell": -1}), "not on a 3x3 board"),
        (client.post(f"/api/classic/{gid}/move", json={"cell": "four"}), "whole number"),
        (client.post(f"/api/classic/{gid}/move", json={"cell": True}), "whole number"),
        (client.post(f"/api/classic/{gid}/move", json={"cell": 1.5}), "whole number"),
        (client.post(f"/api/classic/{gid}/move", content=b"\xff\xfe"), "not JSON"),
        (client.post("/api/classic", content=b"x" * 70_000), "at most 64000"),
    ]
    for response, expected in cases:
        assert expected in bad(response), response.text
    client.post(f"/api/classic/{gid}/move", json={"cell": 4})
    assert bad(client.post(f"/api/classic/{gid}/move", json={"cell": 4})) == "cell 4 is already taken"
    assert "no game with id" in bad(client.get("/api/classic/nope"), 404)
    assert "no game with id" in bad(client.post("/api/classic/nope/move", json={"cell": 1}), 404)
    big = client.post("/api/classic", json={"board": "5x5", "x": "human", "o": "random"}).json()
    assert big["values"] is None
    assert "at most 16 cells" in bad(client.get(f"/api/classic/{big['id']}?values=1"))


@pytest.mark.slow
def test_4x4_values_match_negamax(client: TestClient) -> None:
    moves = [5, 10, 0, 15, 6]
    game = client.post("/api/classic?values=1", json={"board": "4x4", "x": "human", "o": "human", "moves": moves}).json()
    position = Position.from_moves(Geometry.parse("4x4"), moves)
    assert game["values"] == {str(c): dict(zip(("value", "plies"), for_mover(position, c), strict=True)) for c in position.legal_moves}
    game = client.post(f"/api/classic/{game['id']}/move?values=1", json={"cell": 9}).json()
    position = position.play(9)
    assert game["values"] == {str(c): dict(zip(("value", "plies"), for_mover(position, c), strict=True)) for c in position.legal_moves}


# -- mega ---------------------------------------------------------------------------------------------


def check_mega(state: dict, record: str) -> None:  # type: ignore[type-arg]
    """A mega game's JSON against the rules engine replaying the same record."""
    engine = MegaState.replay(record)
    assert state["record"] == engine.record
    assert state["legal"] == [format_move(m) for m in engine.legal_moves()]
    assert state["covered"] == {str(g): owner for g, owner in engine.covered.items()}
    assert state["winner"] == engine.winner and state["to_move"] == engine.to_move and state["over"] == engine.is_over
    string = engine.current_string
    assert state["string"]["played"] == [format_move(m) for m in string.played]
    assert state["string"]["abnormal"] == string.abnormal and state["string"]["number"] == string.index + 1
    assert state["abnormal_strings"] == [i + 1 for i in engine.abnormal_strings]
    assert state["svg"].startswith("<svg")


def test_mega_people_play_a_whole_game(client: TestClient) -> None:
    game = client.post("/api/mega", json={"x": "human", "o": "human"}).json()
    check_mega(game, "")
    assert len(game["legal"]) == 81 and game["string"]["length"] == 9
    gid = game["id"]
    played = 0
    while not game["over"]:
        move = game["legal"][(7 * played) % len(game["legal"])]
        game = client.post(f"/api/mega/{gid}/move", json={"move": move}).json()
        played += 1
        check_mega(game, game["record"])
    assert played == len(parse_record(game["record"]))
    assert client.get(f"/api/mega/{gid}").json()["record"] == game["record"]
    assert "the game is over" in bad(client.post(f"/api/mega/{gid}/move", json={"move": "11"}))


def test_mega_ai_moves_within_its_budget(client: TestClient) -> None:
    budget = 0.2
    game = client.post("/api/mega", json={"x": "human", "o": "mcts", "seconds": budget, "seed": 4}).json()
    gid = game["id"]
    assert bad(client.post(f"/api/mega/{gid}/ai")).startswith("it is X's turn and X is a person")
    game = client.post(f"/api/mega/{gid}/move", json={"move": "55"}).json()
    assert game["computer_to_move"] and game["to_move"] == "o"
    assert bad(client.post(f"/api/mega/{gid}/move", json={"move": game["legal"][0]})).startswith("it is O's turn")
    before = MegaState.replay(game["record"])
    game = client.post(f"/api/mega/{gid}/ai").json()
    search = game["last_search"]
    assert parse_record(game["record"])[:-1] == list(before.moves)
    assert parse_record(game["record"])[-1] in before.legal_moves()
    assert search["move"] == game["moves"][-1] and search["budget"] == budget and search["simulations"] > 0
    # The search stops at the first clock check past its budget (checks come every 256 simulations).
    assert search["seconds"] <= budget + 0.5
    check_mega(game, game["record"])
    game = client.post(f"/api/mega/{gid}/undo").json()
    assert game["record"] == "" and game["last_search"] is None


def test_mega_ai_with_a_single_legal_move(client: TestClient) -> None:
    rng = random.Random(0)
    state = MegaState()
    while len(state.legal_moves()) != 1:
        state = MegaState() if state.is_over else state
        state.play(rng.choice(state.legal_moves()))
    sides = {"x": "human", "o": "human", state.to_move: "mcts"}
    game = client.post("/api/mega", json={**sides, "seconds": 0.05, "record": state.record}).json()
    game = client.post(f"/api/mega/{game['id']}/ai").json()
    assert game["moves"][-1] == format_move(state.legal_moves()[0])
    assert game["last_search"]["simulations"] == 0 and game["last_search"]["win_rate"] is None


def test_mega_computers_finish_a_game(client: TestClient) -> None:
    game = client.post("/api/mega", json={"x": "random", "o": "random", "seed": 11}).json()
    while not game["over"]:
        game = client.post(f"/api/mega/{game['id']}/ai").json()
    check_mega(game, game["record"])
    assert game["result"].startswith(("X wins", "O wins", "Draw"))


def test_mega_game_is_rebuilt_from_its_record(client: TestClient) -> None:
    record = "55 44 13 21"
    game = client.post("/api/mega", json={"x": "human", "o": "human", "record": record}).json()
    check_mega(game, record)
    assert client.post("/api/mega", json={"record": record.split()}).json()["record"] == record
    message = bad(client.post("/api/mega", json={"record": "55 55"}))
    assert "move 2 (55) is illegal" in message and "rule 2" in message


def test_mega_bad_requests(client: TestClient) -> None:
    gid = client.post("/api/mega", json={"x": "human", "o": "human"}).json()["id"]
    cases = [
        (client.post("/api/mega", json={"x": "alphago"}), "unknown player 'alphago'"),
        (client.post("/api/mega", json={"seconds": 0}), "between 0.05 and 10"),
        (client.post("/api/mega", json={"seconds": 1000}), "between 0.05 and 10"),
        (client.post("/api/mega", json={"seconds": "soon"}), "must be a number"),
        (client.post("/api/mega", json={"seconds": "nan"}), "must be a number"),
        (client.post("/api/mega", json={"seconds": [1]}), "must be a number"),
        (client.post("/api/mega", json={"record": {"a": 1}}), "record must be text"),
        (client.post("/api/mega", json={"record": [5, 5]}), "record must be text"),
        (client.post("/api/mega", json={"record": "5"}), "not a move"),
        (client.post(f"/api/mega/{gid}/move", json={}), "give the move"),
        (client.post(f"/api/mega/{gid}/move", json={"move": "5"}), "not a move"),
        (client.post(f"/api/mega/{gid}/move", json={"move": "a1"}), "not a move"),
        (client.post(f"/api/mega/{gid}/move", json={"move": 81}), "outside 0..80"),
        (client.post(f"/api/mega/{gid}/move", json={"move": [55]}), "a move is text"),
        (client.post(f"/api/mega/{gid}/move", json={"move": False}), "a move is text"),
        (client.post(f"/api/mega/{gid}/move", content=b"55"), "JSON object"),
        (client.post(f"/api/mega/{gid}/undo"), "no move to undo"),
    ]
    for response, expected in cases:
        assert expected in bad(response), response.text
    client.post(f"/api/mega/{gid}/move", json={"move": "55"})
    message = bad(client.post(f"/api/mega/{gid}/move", json={"move": "51"}))
    assert "rule 5" in message
    assert "no game with id" in bad(client.post("/api/mega/unknown/ai"), 404)


# -- explorer -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["x...o...x", "xo./.x./..o", "000000000", "xxx/oo./...", "x.o.x.o.x"])
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
        assert image["canonical"] == (image["position"] == min(i["position"] for i in data["transforms"]))
    assert data["canonical"]["position"] == min(i["position"] for i in data["transforms"])
    assert data["stabilizer"] == [name for image in data["transforms"] for name in image["symmetries"] if image["position"] == data["position"]]
    assert [c["cells"] for c in data["cell_classes"]] == [list(c.cells) for c in geometry.cell_classes]
    assert [c["name"] for c in data["line_classes"]] == [c.name for c in geometry.line_classes]
    assert [c["lines"] for c in data["line_classes"]] == [[list(line) for line in c.lines] for c in geometry.line_classes]
    for line_class in data["line_classes"]:
        assert line_class["svg"].count("<polyline") == len(line_class["lines"])
    dead = [list(cells) for cells in geometry.line_cells if any(position.statuses[c] == 1 for c in cells) and any(position.statuses[c] == 2 for c in cells)]
    assert data["dead_lines"] == dead
    assert data["open_for_x"] == len(line_report(position).open_for_x)
    x_can, o_can = reference_can_win(position)
    assert data["winnability"] == {"x_can_win": x_can, "o_can_win": o_can, "winnable": x_can or o_can}
    value = reference_value(position)
    assert data["solution"]["value"] == value.outcome and data["solution"]["plies"] == value.plies
    if position.to_move:
        expected = {c: for_mover(position, c) for c in position.legal_moves}
        assert {int(c): (v["value"], v["plies"]) for c, v in data["solution"]["move_values"].items()} == expected
        rank = {"win": 2, "draw": 1, "loss": 0}
        best = max((rank[o], -p if o == "win" else p) for o, p in expected.values())
        assert data["solution"]["best_moves"] == [c for c, (o, p) in expected.items() if (rank[o], -p if o == "win" else p) == best]
    else:
        assert data["solution"]["best_moves"] == []


def test_explore_other_boards(client: TestClient) -> None:
    data = client.get("/api/explore", params={"position": "x" + "." * 26, "board": "3x3x3"}).json()
    assert data["board"] == "3x3x3" and data["symmetries"] == 48 and len(data["transforms"]) == data["class_size"]
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
    assert (data["winnability"]["x_can_win"], data["winnability"]["o_can_win"]) == reference_can_win(position)
    data = client.get("/api/explore", params={"position": "xx......."}).json()
    assert "impossible mark counts" in data["status"] and "X moves first" in data["winnability"]["error"]
    assert data["class_size"] == Position.from_string("xx.......").class_size


def test_explore_bad_requests(client: TestClient) -> None:
    cases = [
        ({}, "give a position"),
        ({"position": " "}, "give a position"),
        ({"position": "xq......."}, "unknown character 'q'"),
        ({"position": "x......"}, "cannot tell the board"),
        ({"position": "x........", "board": "4x4"}, "has 9 cells but a 4x4 board has 16"),
        ({"position": "x........", "board": "banana"}, "board"),
        ({"position": "x........", "k": "0"}, "k must be at least 1"),
        ({"position": "x........", "k": "9"}, "k=9"),
        ({"position": "x........", "k": "three"}, "whole number"),
        ({"position": "." * 100, "board": "10x10"}, "at most 64 cells"),
        ({"position": "." * 500}, "at most 400"),
    ]
    for params, expected in cases:
        assert expected in bad(client.get("/api/explore", params=params)), params


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    position=st.text(alphabet="xo.012/ -a", max_size=20),
    board=st.one_of(st.none(), st.sampled_from(["3x3", "2x2", "3x4", "4x4,k=3", "1x1", "0x3", "3x3x", "2x2x2", "mnk(m=2,n=3,k=2)"])),
    k=st.one_of(st.none(), st.integers(-2, 6).map(str)),
)
def test_explore_never_fails_on_odd_input(client: TestClient, position: str, board: str | None, k: str | None) -> None:
    params = {"position": position, **({"board": board} if board else {}), **({"k": k} if k else {})}
    response = client.get("/api/explore", params=params)
    assert response.status_code in (200, 400), response.text
    if response.status_code == 400:
        bad(response)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-100, 100) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)
FIELDS = st.sampled_from(["board", "k", "x", "o", "seed", "moves", "cell", "move", "record", "seconds"])


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=st.dictionaries(FIELDS, JSON, max_size=5) | JSON, target=st.sampled_from(["classic", "mega", "classic-move", "mega-move"]))
def test_odd_json_bodies_get_400_not_500(client: TestClient, body: object, target: str) -> None:
    if target.endswith("-move"):
        kind = target.split("-")[0]
        game = client.post(f"/api/{kind}", json={"x": "human", "o": "human"}).json()
        url = f"/api/{kind}/{game['id']}/move"
    else:
        url = f"/api/{target}"
    response = client.post(url, json=body)
    assert response.status_code in (200, 400), response.text
    if response.status_code == 400:
        bad(response)


def test_non_standard_json_numbers_get_400(client: TestClient) -> None:
    # Python's JSON reader accepts NaN and Infinity; they must still be refused politely.
    gid = client.post("/api/mega", json={"x": "human", "o": "human"}).json()["id"]
    for url, raw in (
        ("/api/mega", b'{"seconds": NaN}'),
        ("/api/mega", b'{"seconds": Infinity}'),
        ("/api/classic", b'{"board": -Infinity}'),
        ("/api/classic", b'{"board": "3x3", "seed": NaN}'),
        (f"/api/mega/{gid}/move", b'{"move": Infinity}'),
    ):
        bad(client.post(url, content=raw))


# -- counts -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["3x3", "2x3", "3x3,k=2"])
def test_count_matches_the_game_tree_walk(client: TestClient, spec: str) -> None:
    data = client.get("/api/count", params={"board": spec}).json()
    reference = count_positions(Geometry.parse(spec), "search")
    assert data["plies"] == [row.to_dict() for row in reference.plies]
    assert data["total"] == {"positions": reference.total_positions, "classes": reference.total_classes}
    assert data["svg"].startswith("<svg") and data["board"] == Geometry.parse(spec).spec
    assert client.get("/api/count", params={"board": spec.split(",")[0], "k": spec.split("k=")[-1] if "k=" in spec else ""}).json()["plies"] == data["plies"]


def test_count_bad_requests(client: TestClient) -> None:
    assert "give a board" in bad(client.get("/api/count"))
    assert "takes too long" in bad(client.get("/api/count", params={"board": "5x5", "k": "4"}))
    assert "board" in bad(client.get("/api/count", params={"board": "3by3"}))


def test_errors_are_json_one_liners(client: TestClient) -> None:
    response = client.post("/api/classic", content=json.dumps({"board": "3x3", "x": None, "o": None}).encode())
    assert response.status_code == 400 and "unknown player None" in response.json()["error"]


# -- the command --------------------------------------------------------------------------------------


def test_oxo_serve_prints_its_address_and_serves(tmp_path: Path) -> None:
    import signal
    import subprocess
    import sys
    import time
    import urllib.request

    from oxo.cli import main

    oxo = str(Path(sys.executable).with_name("oxo"))
    server = subprocess.Popen([oxo, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()  # type: ignore[union-attr]
        assert line.startswith("oxo: serving on http://127.0.0.1:") and line.rstrip().endswith("(Ctrl-C to stop)")
        url = line.split("serving on ", 1)[1].split()[0]
        port = int(url.rsplit(":", 1)[1].rstrip("/"))
        deadline = time.monotonic() + 30
        while True:
            try:
                info = json.loads(urllib.request.urlopen(url + "api/info", timeout=5).read())
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, "oxo serve did not answer"
                time.sleep(0.05)
        assert info["mega_players"] == ["human", "random", "mcts"]
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
