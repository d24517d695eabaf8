"""The explorer's strategy map: ``GET /api/map`` through Starlette's test client, and the map panel
of ``oxo serve``'s page in a real headless browser (zoom, pan, reset, keyboard, 1280 and 390 px).

The drawing is checked against the library's own map (:func:`oxo.strategy_map.strategy_map`): the
nested boards of the SVG are read back as a tree and must be the map's tree, board for board, never
a typed-in count. The browser tests reuse the fixtures of ``test_web_e2e`` (and its reasons to skip
when chromium or playwright is missing); the API tests run without a browser."""

from __future__ import annotations

import warnings
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # Starlette 1.x prefers httpx2 but works with httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from oxo.game import Player  # noqa: E402
from oxo.geometry import Geometry  # noqa: E402
from oxo.space import MAX_EMPTY  # noqa: E402
from oxo.strategy_map import StrategyNode, strategy_map  # noqa: E402
from oxo.web import create_app  # noqa: E402
from oxo.web.maps import MAX_MAP_BOARDS  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(
        create_app(),
        base_url="http://127.0.0.1:8000",
        raise_server_exceptions=False,
    ) as test_client:
        yield test_client


def boards_of(element: ET.Element) -> list[ET.Element]:
    """The map boards directly inside ``element`` (not inside another board)."""
    found: list[ET.Element] = []
    for child in element:
        if child.tag == f"{SVG}g" and "map-board" in child.get("class", "").split():
            found.append(child)
        else:
            found.extend(boards_of(child))
    return found


def tree(board: ET.Element) -> tuple[str, str | None, list[object]]:
    """A drawn board as (digits, move, the boards nested in it)."""
    return (
        board.get("data-position", ""),
        board.get("data-move"),
        [tree(b) for b in boards_of(board)],
    )


def library_tree(node: StrategyNode) -> tuple[str, str | None, list[object]]:
    move = None if node.move is None else str(node.move)
    return (node.position.to_status_string(), move, [library_tree(c) for _, c in node.replies])


def bad(response, status: int = 400) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    message = response.json()["error"]
    assert "\n" not in message and "Traceback" not in message
    return message


@pytest.mark.parametrize(
    ("board", "side"), [("3x3", "x"), ("3x3", "o"), ("2x4", "o"), ("3x3,k=2", "x")]
)
def test_the_map_is_the_librarys_map_board_for_board(
    client: TestClient, board: str, side: Player
) -> None:
    response = client.get("/api/map", params={"board": board, "side": side})
    assert response.status_code == 200, response.text
    data = response.json()
    expected = strategy_map(Geometry.parse(board), side)
    nodes = list(expected.root.walk())
    root = ET.fromstring(data["svg"])
    drawn = root.findall(f".//{SVG}g[@class='map-board']")
    assert len(drawn) == len(nodes) == expected.boards == data["boards"]
    (outer,) = boards_of(root)
    assert tree(outer) == library_tree(expected.root)
    assert data["side"] == side and data["board"] == expected.geometry.spec_shape
    assert data["value"] == expected.value.outcome
    assert data["positions"] == expected.positions and data["outcomes"] == expected.outcomes
    assert root.get("viewBox") and "moves" not in data
    assert any(side.upper() in line for line in data["lines"])


def test_the_side_may_be_upper_case_and_defaults_to_x(client: TestClient) -> None:
    upper = client.get("/api/map?board=3x3&side=X").json()
    default = client.get("/api/map?board=3x3").json()
    assert upper["side"] == default["side"] == "x"
    assert upper["svg"] == default["svg"]


def test_a_k_beside_the_board(client: TestClient) -> None:
    data = client.get("/api/map?board=3x3&k=2&side=o").json()
    assert data["k"] == 2
    assert data["boards"] == strategy_map(Geometry.parse("3x3", 2), "o").boards


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("board=3x3&side=z", "side"),
        ("board=3x3&side=", None),  # empty means not given: x
        ("board=banana&side=x", "board"),
        ("side=x", "board"),
        ("board=3x3&k=0", "k"),
        ("board=3x3&k=two", "k"),
        ("board=3x3&colour=red", "colour"),
        ("board=3x3&side=x&side=o", "side"),
        ("board=3x%C2%B3&side=x", "board"),
    ],
)
def test_bad_queries_name_their_field(client: TestClient, query: str, field: str | None) -> None:
    response = client.get(f"/api/map?{query}")
    if field is None:
        assert response.status_code == 200 and response.json()["side"] == "x"
        return
    assert bad(response).startswith(field)


def test_boards_beyond_the_solver_are_out_of_reach(client: TestClient) -> None:
    big = Geometry.parse("5x5")
    assert big.size > MAX_EMPTY
    message = bad(client.get("/api/map?board=5x5&side=x"), 422)
    assert str(MAX_EMPTY) in message and "5x5" in message


def test_maps_too_large_to_draw_on_the_page_say_how_to_draw_them(client: TestClient) -> None:
    expected = strategy_map(Geometry.parse("3x4"), "o")
    assert expected.boards > MAX_MAP_BOARDS  # the premise, from the library
    message = bad(client.get("/api/map?board=3x4&side=o"), 422)
    assert f"{expected.boards:,}" in message and "oxo map 3x4 --as o" in message


def test_answers_are_kept(client: TestClient) -> None:
    first = client.get("/api/map?board=2x2&side=o")
    again = client.get("/api/map?board=2x2&side=o")
    assert first.status_code == again.status_code == 200
    assert first.content == again.content


def test_the_map_answers_only_to_this_server(client: TestClient) -> None:
    response = client.get("/api/map?board=3x3", headers={"Host": "evil.example"})
    assert response.status_code == 403
