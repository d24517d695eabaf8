"""The explorer's strategy map: ``GET /api/map`` through Starlette's test client, and the map panel
of ``oxo serve``'s page in a real headless browser (zoom, pan, reset, keyboard, 1280 and 390 px).

The drawing is checked against the library's own map (:func:`oxo.strategy_map.strategy_map`): the
nested boards of the SVG are read back as a tree and must be the map's tree, board for board, never
a typed-in count. The browser tests reuse the fixtures of ``test_web_e2e`` (and its reasons to skip
when chromium or playwright is missing); the API tests run without a browser."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from oxo.game import Player
from oxo.geometry import Geometry
from oxo.space import MAX_EMPTY
from oxo.strategy_map import StrategyNode, strategy_map
from oxo.web.maps import MAX_MAP_BOARDS

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
SVG = "{http://www.w3.org/2000/svg}"


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
    from test_words import find_jargon

    assert find_jargon(" ".join(data["lines"])) == []  # "drawn as 91 boards": which drawing?
    assert data["smallest"] is expected.smallest is True


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


@pytest.mark.slow
def test_maps_too_large_to_draw_on_the_page_say_how_to_draw_them(client: TestClient) -> None:
    """O's map of 2x5 with k = 3 (2,259 boards, 0.4 s to make) is past what a drawing holds, as
    O's of 3x4 is (3,061 boards, 1.2 s, made here and by the server); the command it gives names
    the k too."""
    expected = strategy_map(Geometry.parse("2x5,k=3"), "o")
    assert expected.boards > MAX_MAP_BOARDS  # the premise, from the library
    message = bad(client.get("/api/map?board=2x5&k=3&side=o"), 422)
    assert f"{expected.boards:,}" in message and "oxo map 2x5,k=3 --as o" in message
    assert bad(client.get("/api/map?board=2x5&k=3&side=O"), 422) == message  # kept too


def test_cubes_are_not_drawn(client: TestClient) -> None:
    message = bad(client.get("/api/map?board=2x2x2&side=x"))
    assert message.startswith("board:") and "flat" in message and "--svg" not in message


def test_answers_are_kept(client: TestClient) -> None:
    first = client.get("/api/map?board=2x2&side=o")
    again = client.get("/api/map?board=2x2&side=o")
    assert first.status_code == again.status_code == 200
    assert first.content == again.content


def test_the_map_answers_only_to_this_server(client: TestClient) -> None:
    response = client.get("/api/map?board=3x3", headers={"Host": "evil.example"})
    assert response.status_code == 403


# -- the map panel in a real browser (the fixtures of test_web_e2e) -----------------------------------

try:
    from test_web_e2e import (
        axe_violations,
        browser_context,
        idle,
        no_sideways_scroll,
        page,
        server_url,
    )

    NO_BROWSER = ""
except (
    pytest.skip.Exception
) as why:  # chromium or playwright missing: the API tests above still run
    NO_BROWSER = str(why) or "no browser"

__all__ = ["browser_context", "page", "server_url"]  # fixtures used by the tests below
browser = pytest.mark.skipif(bool(NO_BROWSER), reason=NO_BROWSER)


def open_position(page, server_url: str, position: str, board: str, k: int) -> None:
    """The explorer on a position, through a link (the saved explorer of other tests does not matter)."""
    page.goto(f"{server_url}#explore?position={position}&board={board}&k={k}")
    page.wait_for_function(
        f"Explore.data && Explore.data.position === {position!r} && Explore.data.k === {k}"
    )
    idle(page)


def show_map(page, side: str) -> None:
    page.select_option("#map-side", side)
    page.click("#map-show")
    page.wait_for_function(
        f"MapView.board && MapView.board.side === {side!r} && document.querySelector('#map-view svg')"
    )
    idle(page)


def view_box(page) -> list[float]:
    return [float(v) for v in page.get_attribute("#map-view svg", "viewBox").split()]


def close(a: list[float], b: list[float]) -> bool:
    return all(abs(x - y) < 1e-2 for x, y in zip(a, b, strict=True))


def console_errors(page) -> list[str]:
    errors: list[str] = []
    page.on(
        "console", lambda message: errors.append(message.text) if message.type == "error" else None
    )
    return errors


@browser
def test_the_map_zooms_pans_and_resets_at_1280(page, server_url: str, tmp_path: Path) -> None:
    errors = console_errors(page)
    page.set_viewport_size({"width": 1280, "height": 900})
    open_position(page, server_url, "000000000", "3x3", 3)
    assert page.is_hidden("#map-view") and page.is_disabled("#map-zoom-in")
    show_map(page, "x")
    expected = strategy_map(Geometry.parse("3x3"), "x")
    assert page.locator("#map-view g.map-board").count() == expected.boards
    base = view_box(page)
    assert page.inner_text("#map-zoom-level") == "whole map"

    page.click("#map-zoom-in")
    zoomed = view_box(page)
    assert abs(zoomed[2] - base[2] / 2) < 1e-2 and abs(zoomed[3] - base[3] / 2) < 1e-2
    assert "2.0" in page.inner_text("#map-zoom-level")
    page.click("#map-zoom-out")
    assert close(view_box(page), base)
    page.click("#map-zoom-out")  # never smaller than the whole map
    assert close(view_box(page), base)

    page.evaluate("document.getElementById('map-view').scrollIntoView({block: 'center'})")
    box = page.locator("#map-view").bounding_box()
    assert box["height"] <= 900  # the whole map fits the screen
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.wheel(0, -400)
    page.wait_for_function(f"MapView.view[2] < {base[2]} - 1")
    wheeled = view_box(page)
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx - 60, cy - 40, steps=4)
    page.mouse.up()
    dragged = view_box(page)
    assert dragged[0] > wheeled[0] and dragged[1] > wheeled[1]  # the map followed the pointer
    assert dragged[2] == wheeled[2]
    page.screenshot(path=str(tmp_path / "map-zoomed.png"))
    page.click("#map-zoom-reset")
    assert close(view_box(page), base)

    # The keyboard: the buttons by Enter, the map itself by +, -, arrows and 0.
    page.focus("#map-zoom-in")
    page.keyboard.press("Enter")
    assert view_box(page)[2] < base[2]
    page.focus("#map-view")
    page.keyboard.press("0")
    assert close(view_box(page), base)
    page.keyboard.press("+")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    moved = view_box(page)
    assert moved[2] < base[2] and moved[0] > base[0] + (base[2] - moved[2]) / 2 - 1e-6
    page.keyboard.press("0")
    assert close(view_box(page), base)
    for name in ("Zoom in", "Zoom out"):
        assert page.get_by_role("button", name=name).count() == 1

    # Double-click a board nested in the outer one: the view closes in on that board.
    nested = page.locator("#map-view g.map-board g.map-board").first
    target = nested.locator("rect").first.bounding_box()
    page.mouse.dblclick(target["x"] + 2, target["y"] + 2)
    assert view_box(page)[2] < base[2] / 2
    page.click("#map-zoom-reset")

    show_map(page, "o")
    expected_o = strategy_map(Geometry.parse("3x3"), "o")
    assert page.locator("#map-view g.map-board").count() == expected_o.boards
    assert page.locator("#map-lines li").count() >= 3
    assert page.is_hidden("#error")
    assert axe_violations(page) == []
    assert errors == []

    # Another board in the explorer: the map of the old one is put away.
    page.fill("#explore-k", "2")
    page.click("#explore-go")
    page.wait_for_function("Explore.data && Explore.data.k === 2")
    idle(page)
    assert page.is_hidden("#map-view")


@browser
def test_the_map_fits_a_phone_and_pinches_at_390(page, server_url: str, tmp_path: Path) -> None:
    errors = console_errors(page)
    page.set_viewport_size({"width": 390, "height": 844})
    open_position(page, server_url, "000000000", "3x3", 3)
    show_map(page, "o")
    box = page.locator("#map-view").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert no_sideways_scroll(page)
    base = view_box(page)
    # Two fingers moving apart (pointer events as a touch screen sends them): 40 px -> 100 px.
    page.evaluate(
        """() => {
        const view = document.getElementById('map-view');
        const r = view.getBoundingClientRect();
        const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
        const send = (type, id, x) => view.dispatchEvent(new PointerEvent(type,
            {pointerId: id, pointerType: 'touch', clientX: x, clientY: cy, bubbles: true, isPrimary: id === 1}));
        send('pointerdown', 1, cx - 20); send('pointerdown', 2, cx + 20);
        send('pointermove', 2, cx + 80);
        send('pointerup', 2, cx + 80); send('pointerup', 1, cx - 20);
    }"""
    )
    pinched = view_box(page)
    assert abs(pinched[2] - base[2] / 2.5) < 0.5, (pinched, base)
    page.screenshot(path=str(tmp_path / "map-phone.png"))
    page.click("#map-zoom-reset")
    assert close(view_box(page), base)
    assert no_sideways_scroll(page)
    assert axe_violations(page) == []
    assert errors == []


@browser
def test_a_board_beyond_reach_says_so_in_the_panel(page, server_url: str) -> None:
    open_position(page, server_url, "0" * 25, "5x5", 4)
    page.click("#map-show")
    page.wait_for_selector("#map-note:not([hidden])")
    idle(page)
    assert str(MAX_EMPTY) in page.inner_text("#map-note")
    assert page.is_hidden("#map-view") and page.is_hidden("#error")
