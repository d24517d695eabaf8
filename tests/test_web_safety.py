"""The web server as an attacker or a crowd would probe it: never a 500, never frozen, bounded.

Each probe of issue 15 has a test here: the Host check (DNS rebinding), JSON-only POSTs (cross-site
forms), no permissive CORS, body limits, deep JSON, Unicode digits, mega moves sent as numbers, a
page for unknown paths, a fuzz test posting random JSON to every endpoint, reading a game while its
computer thinks (answers at once, with a "thinking" flag), cancelling a search, TCP_NODELAY on
accepted connections, the bounded game store, the hint, and cached answers of long requests.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from oxo.engines import LEVELS
from oxo.engines import levels as levels_module
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.solve import reference_value
from oxo.web import app as web_app
from oxo.web.app import HostRule, host_name
from oxo.web.sessions import Game, GameNotFound, GameStore
from servers import JSON_HEADERS, running_server


def error_of(response: Any, status: int) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    message = response.json()["error"]
    assert isinstance(message, str) and message and "\n" not in message
    return message


def people(client: TestClient, **fields: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"players": {"x": "human", "o": "human"}, **fields})
    assert response.status_code == 200, response.text
    return response.json()


# -- safe on a shared network ---------------------------------------------------------------------------


def test_host_names() -> None:
    assert host_name("LocalHost:8000") == "localhost"
    assert host_name("[::1]:8000") == "::1"
    assert host_name("127.0.0.1") == "127.0.0.1"
    assert host_name("example.com.:80") == "example.com"
    loopback = HostRule.for_address("127.0.0.1")
    assert loopback.allows("127.0.0.1") and loopback.allows("localhost") and loopback.allows("::1")
    assert not loopback.allows("evil.example") and not loopback.allows("192.168.1.20")
    everywhere = HostRule.for_address("0.0.0.0", ["oxo.lan"])
    assert everywhere.allows("192.168.1.20") and everywhere.allows("oxo.lan")
    assert everywhere.allows(socket.gethostname().lower())
    assert not everywhere.allows("evil.example")


def test_other_hosts_are_refused(client: TestClient) -> None:
    """DNS rebinding: a page of evil.example whose name now points here must get nothing."""
    for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example", ""):
        message = error_of(client.get("/api/info", headers={"Host": host}), 403)
        assert "does not answer to the host name" in message
    assert error_of(client.get("/", headers={"Host": "evil.example"}), 403)
    for host in ("127.0.0.1:8000", "localhost:8000", "[::1]:8000", "LOCALHOST"):
        assert client.get("/api/info", headers={"Host": host}).status_code == 200


def test_the_refusal_names_the_port_the_server_listens_on(server: tuple[str, Any]) -> None:
    """The 403 suggested http://127.0.0.1:8000/ whatever the port; it names the address reached."""
    base, _ = server
    host, port = base.removeprefix("http://").rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        connection.request("GET", "/api/info", headers={"Host": "evil.example"})
        response = connection.getresponse()
        message = json.loads(response.read())["error"]
    finally:
        connection.close()
    assert response.status == 403
    assert f"open it by its own address (http://127.0.0.1:{port}/)" in message, message
    if port != "8000":
        assert ":8000" not in message


def test_an_empty_body_counts_as_an_empty_object(client: TestClient) -> None:
    """docs/api.md says so: a POST may leave its body empty (with the JSON content type); each
    route then answers as it does to ``{}``."""
    docs = (Path(__file__).parents[1] / "docs" / "api.md").read_text(encoding="utf-8")
    assert "An empty body counts as `{}`" in docs
    assert (
        client.post("/api/games", content=b"").json()["players"]
        == (client.post("/api/games", json={}).json()["players"])
    )
    computer = client.post("/api/games", json={"players": {"x": "random", "o": "human"}}).json()
    for route in ("ai", "cancel", "undo", "hint", "move"):
        game = people(client, moves=[4]) if route != "ai" else computer
        empty = client.post(f"/api/games/{game['id']}/{route}", content=b"")
        if route == "ai":
            assert empty.status_code == 200 and len(empty.json()["moves"]) == 1
            continue
        again = people(client, moves=[4])
        braces = client.post(f"/api/games/{again['id']}/{route}", json={})
        assert empty.status_code == braces.status_code, route
        body, expected = empty.json(), braces.json()
        for answer in (body, expected):
            answer.pop("id", None)
        assert body == expected, route
    missing = client.post(f"/api/games/{people(client)['id']}/move", content=b"")
    assert error_of(missing, 400) == "move: missing from the request body"


def test_a_move_from_a_stale_tab_is_refused(client: TestClient) -> None:
    """A second tab showing an older state of the game played the other side's move; a move or an
    undo sent with the number of moves its page saw is refused (409) when the game moved since."""
    game = people(client)
    gid = game["id"]
    assert client.post(f"/api/games/{gid}/move", json={"move": 4, "ply": 0}).status_code == 200
    stale = client.post(f"/api/games/{gid}/move", json={"move": 0, "ply": 0})
    message = error_of(stale, 409)
    assert message.startswith("ply: ") and "another tab" in message
    assert client.get(f"/api/games/{gid}").json()["moves"] == [4]  # nothing was played
    assert error_of(client.post(f"/api/games/{gid}/undo", json={"ply": 0}), 409)
    assert client.get(f"/api/games/{gid}").json()["moves"] == [4]
    assert client.post(f"/api/games/{gid}/move", json={"move": 0, "ply": 1}).json()["moves"] == [
        4,
        0,
    ]
    assert client.post(f"/api/games/{gid}/undo", json={"ply": 2}).json()["moves"] == [4]
    assert client.post(f"/api/games/{gid}/move", json={"move": 8}).status_code == 200  # no ply
    for bad in (-1, 1.5, "2", True):
        response = client.post(f"/api/games/{gid}/move", json={"move": 1, "ply": bad})
        assert error_of(response, 400).startswith("ply")


def test_posts_must_be_json(client: TestClient) -> None:
    """A form or a text/plain post (what another site can send without asking) is refused."""
    body = json.dumps({"board": "3x3"})
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""):
        headers = {"Content-Type": kind} if kind else {}
        response = client.post("/api/games", content=body, headers=headers)
        if not kind:  # the client's own default header is JSON: send one without any
            response = client.post(
                "/api/games", content=body, headers={"Content-Type": "text/plain;charset=utf-8"}
            )
        assert "must be JSON" in error_of(response, 415)
    gid = people(client)["id"]
    for path in ("move", "ai", "undo", "cancel", "hint"):
        response = client.post(
            f"/api/games/{gid}/{path}", content=b"", headers={"Content-Type": "text/plain"}
        )
        assert error_of(response, 415)
    ok = client.post(
        "/api/games", content=body, headers={"Content-Type": "application/json; charset=utf-8"}
    )
    assert ok.status_code == 200


def test_no_permissive_cors(client: TestClient) -> None:
    origin = {"Origin": "https://evil.example"}
    for response in (
        client.get("/api/info", headers=origin),
        client.post("/api/games", json={}, headers=origin),
        client.options(
            "/api/games",
            headers={**origin, "Access-Control-Request-Method": "POST"},
        ),
    ):
        assert not any(name.lower().startswith("access-control-") for name in response.headers)
    assert client.options("/api/games").status_code == 405
    page = client.get("/")
    assert page.headers["x-frame-options"] == "DENY"
    assert "frame-ancestors 'none'" in page.headers["content-security-policy"]


def test_body_limits(client: TestClient) -> None:
    assert "at most 64000" in error_of(client.post("/api/games", content=b" " * 64_001), 413)

    def chunks() -> Iterator[bytes]:  # no Content-Length: read until the limit, then refused
        for _ in range(100):
            yield b" " * 1000

    assert "at most 64000" in error_of(client.post("/api/games", content=chunks()), 400)
    bad_length = client.post("/api/games", content=b"{}", headers={"Content-Length": "x"})
    assert bad_length.status_code in (400, 413)


@pytest.mark.parametrize("depth", [50, 5_000, 30_000])
def test_deep_json_is_refused(client: TestClient, depth: int) -> None:
    deep = b"[" * depth + b"]" * depth
    gid = people(client)["id"]
    mid = people(client, kind="mega")["id"]
    for url, body in (
        ("/api/games", b'{"moves": ' + deep + b"}"),
        ("/api/games", b'{"unknown": ' + deep + b"}"),
        ("/api/games", b'{"players": {"x": ' + deep + b"}}"),
        (f"/api/games/{gid}/move", b'{"move": ' + deep + b"}"),
        (f"/api/games/{mid}/move", deep),
        (f"/api/games/{gid}/ai", b'{"a": ' + deep + b"}"),
    ):
        error_of(client.post(url, content=body), 400)


def test_unicode_digits_are_refused(client: TestClient) -> None:
    gid = people(client)["id"]
    mid = people(client, kind="mega")["id"]
    for text in ("²", "٣", "३", "³", "①"):
        assert "seed" in error_of(
            client.post("/api/games", content=b'{"seed": "' + text.encode() + b'"}'), 400
        )
        assert "k" in error_of(client.post("/api/games", json={"k": text}), 400)
        assert "k: digits" in error_of(
            client.get("/api/explore", params={"position": "x........", "k": text}), 400
        )
        assert "k: digits" in error_of(
            client.get("/api/count", params={"board": "3x3", "k": text}), 400
        )
        assert "board: digits" in error_of(
            client.post("/api/games", json={"board": f"{text}x3"}), 400
        )
        assert "move:" in error_of(client.post(f"/api/games/{gid}/move", json={"move": text}), 400)
        assert "move:" in error_of(
            client.post(f"/api/games/{mid}/move", json={"move": text * 2}), 400
        )
        assert "moves[0]:" in error_of(
            client.post("/api/games", json={"kind": "mega", "moves": [f"5{text}"]}), 400
        )
    assert client.get(f"/api/games/{gid}").json()["moves"] == []
    assert client.get(f"/api/games/{mid}").json()["moves"] == []


def test_mega_moves_only_as_documented(client: TestClient) -> None:
    mid = people(client, kind="mega")["id"]
    for move in (55, 72, "72 ", " 55", "5 5", "G5", "0x37", "+55", "5.5", "055"):
        assert "move" in error_of(client.post(f"/api/games/{mid}/move", json={"move": move}), 400)
    assert client.get(f"/api/games/{mid}").json()["moves"] == []
    assert client.post(f"/api/games/{mid}/move", json={"move": "55"}).json()["moves"] == ["55"]


def test_unknown_paths(client: TestClient) -> None:
    page = client.get("/no/such/page", headers={"Accept": "text/html,application/xhtml+xml"})
    assert page.status_code == 404 and page.headers["content-type"].startswith("text/html")
    assert "Nothing here" in page.text and "href='/'" in page.text
    escaped = client.get("/<script>", headers={"Accept": "text/html"})
    assert "<script>" not in escaped.text
    assert "no such page or endpoint" in error_of(client.get("/api/nope"), 404)
    assert error_of(client.get("/api/games"), 405)


# -- fuzz: random JSON to every endpoint ----------------------------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(
        ["55", "4", "3x3", "mega", "classic", "hard", "human", "²", "٣", "x...o...."]
    ),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=10,
)
FIELDS = st.sampled_from(
    [
        "kind",
        "board",
        "k",
        "players",
        "seed",
        "moves",
        "move",
        "seconds",
        "values",
        "x",
        "o",
        "position",
    ]
)
BODIES = st.dictionaries(FIELDS, JSON, max_size=5) | JSON
QUERY = st.dictionaries(
    st.sampled_from(["position", "board", "k", "values", "wait", "x"]),
    st.text(max_size=12) | st.sampled_from(["x...o....", "3x3", "2", "²", "1", "true"]),
    max_size=3,
)
ENDPOINTS = ["new", "move", "ai", "undo", "cancel", "hint", "get", "explore", "count", "info"]


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    endpoint=st.sampled_from(ENDPOINTS),
    body=BODIES,
    query=QUERY,
    mega=st.booleans(),
)
def test_fuzz_every_endpoint(
    client: TestClient, endpoint: str, body: object, query: dict[str, str], mega: bool
) -> None:
    """Random JSON and queries: every answer is 200 or a one-line JSON error, never a 500."""
    if isinstance(body, dict) and endpoint == "new":
        body.pop("seconds", None)  # a replayed game may let a computer move: keep it quick
        body["seconds"] = 0.05
    game = people(client, kind="mega" if mega else "classic")
    gid = game["id"]
    if endpoint in ("new", "move", "ai", "undo", "cancel", "hint"):
        url = "/api/games" if endpoint == "new" else f"/api/games/{gid}/{endpoint}"
        response = client.post(url, params=query, content=json.dumps(body).encode())
    else:
        url = {
            "get": f"/api/games/{gid}",
            "explore": "/api/explore",
            "count": "/api/count",
            "info": "/api/info",
        }[endpoint]
        response = client.get(url, params=query)
    assert response.status_code in (200, 400, 404, 413), response.text
    if response.status_code != 200:
        error_of(response, response.status_code)


# -- the store, the hint and cached answers ---------------------------------------------------------------


def test_the_store_is_bounded_and_games_expire() -> None:
    now = [0.0]
    store = GameStore(maxsize=3, idle=100.0, finished=10.0, clock=lambda: now[0])
    start = Position.empty(Geometry.parse("3x3"))
    games = [store.add(Game(store.new_id(), start, {"x": "human", "o": "human"})) for _ in range(4)]
    assert len(store) == 3
    with pytest.raises(GameNotFound):
        store.get(games[0].id)  # the least recently used went first
    store.get(games[1].id)
    store.add(Game(store.new_id(), start, {"x": "human", "o": "human"}))
    assert store.get(games[1].id) is games[1]  # touched, so kept
    with pytest.raises(GameNotFound):
        store.get(games[2].id)
    finished = games[1]
    for cell in (0, 3, 1, 4, 2):
        finished.play(cell)
    assert finished.state.is_over
    now[0] = 11.0
    with pytest.raises(GameNotFound, match="put away"):
        store.get(finished.id)  # finished games go after ten (here: 10) seconds
    assert store.get(games[3].id) is games[3]  # unfinished ones stay ...
    now[0] = 200.0
    with pytest.raises(GameNotFound):
        store.get(games[3].id)  # ... until idle too long


def test_hint_is_a_proven_best_move(client: TestClient) -> None:
    game = people(client, moves=[0, 4])
    position = Position.from_moves(Geometry.parse("3x3"), [0, 4])
    hint = client.post(f"/api/games/{game['id']}/hint").json()
    values = {c: reference_value(position.play(c)) for c in position.legal_moves}
    best = {c for c, v in values.items() if v.winner != "o"}
    assert hint["move"] in best and set(hint["moves"]) <= best
    assert hint["text"].startswith(f"{hint['move']}: draw") and hint["value"]["value"] == "draw"
    over = people(client, moves=[0, 3, 1, 4, 2])
    assert "game is over" in error_of(client.post(f"/api/games/{over['id']}/hint"), 400)
    computer = client.post("/api/games", json={"players": {"x": "random", "o": "human"}}).json()
    assert "is the computer" in error_of(client.post(f"/api/games/{computer['id']}/hint"), 400)


def test_mega_hint_is_a_legal_move(client: TestClient) -> None:
    game = client.post(
        "/api/games", json={"kind": "mega", "players": {"x": "human", "o": "human"}, "seconds": 0.1}
    ).json()
    hint = client.post(f"/api/games/{game['id']}/hint").json()
    assert hint["move"] in game["legal"] and "hard level" in hint["text"]
    from test_words import find_jargon

    assert find_jargon(hint["text"]) == [], hint["text"]  # "it expects 52% for X" said of what?


def test_long_answers_are_cached_and_wait_is_bounded(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    real = web_app.explorer.explore

    def slow(position: Position, solutions: Any) -> dict[str, Any]:
        calls.append(position.to_status_string())
        time.sleep(1.0)
        return real(position, solutions)

    monkeypatch.setattr(web_app.explorer, "explore", slow)
    monkeypatch.setattr(web_app, "REQUEST_SECONDS", 0.2)
    params = {"position": "x.o......"}
    message = error_of(client.get("/api/explore", params=params), 503)
    assert "carries on" in message and "ask again" in message
    time.sleep(1.5)
    monkeypatch.setattr(web_app, "REQUEST_SECONDS", 60.0)
    first = client.get("/api/explore", params=params)
    second = client.get("/api/explore", params=params)
    assert first.status_code == second.status_code == 200 and first.json() == second.json()
    assert calls == ["102000000"]  # computed once, even though the first request gave up waiting


def test_the_page_lists_the_levels_in_the_library_words(client: TestClient) -> None:
    info = client.get("/api/info").json()
    words = info["level_words"]
    assert [row["level"] for row in words] == list(LEVELS)
    doc = " ".join((levels_module.__doc__ or "").replace("``", "").split())
    for row in words:
        assert f"{row['level']} {row['words']}" in doc
    assert info["limits"]["games"] > 0 and info["limits"]["finished_minutes"] > 0


# -- a real server: never frozen, TCP_NODELAY -----------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, Any]]:
    with running_server() as (url, uvicorn_server):
        yield url.rstrip("/"), uvicorn_server


def call(
    base: str, path: str, body: object = None, timeout: float = 60
) -> tuple[int, dict[str, Any]]:
    import urllib.error
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers=JSON_HEADERS)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_tcp_nodelay_on_accepted_connections(server: tuple[str, Any]) -> None:
    base, uvicorn_server = server
    host, port = base.removeprefix("http://").rsplit(":", 1)
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    try:
        for _ in range(3):  # keep-alive: one connection, several requests
            connection.request("GET", "/api/info")
            response = connection.getresponse()
            assert response.status == 200 and json.loads(response.read())["levels"]
        flags = [
            protocol.transport.get_extra_info("socket").getsockopt(
                socket.IPPROTO_TCP, socket.TCP_NODELAY
            )
            for protocol in uvicorn_server.server_state.connections
        ]
        assert flags and all(flags), flags
    finally:
        connection.close()


def test_reading_a_thinking_game_answers_at_once_and_cancel_stops_it(
    server: tuple[str, Any],
) -> None:
    base, _ = server
    assert call(base, "/api/info")[0] == 200  # built once (it describes every board's levels)
    status, game = call(
        base,
        "/api/games",
        {"board": "15x15", "k": 5, "players": {"x": "hard", "o": "human"}, "seconds": 8},
    )
    assert status == 200 and game["computer_to_move"] and not game["thinking"]
    answers: dict[str, Any] = {}
    thinking = threading.Thread(
        target=lambda: answers.update(ai=call(base, f"/api/games/{game['id']}/ai", {}))
    )
    thinking.start()
    deadline = time.monotonic() + 30
    while True:  # the worker process may take a moment to start
        status, seen = call(base, f"/api/games/{game['id']}?values=1", timeout=2)
        assert status == 200
        if seen["thinking"]:
            break
        assert time.monotonic() < deadline and thinking.is_alive()
        time.sleep(0.1)
    assert seen["moves"] == [] and seen["computer_to_move"]
    # (None: the search is not handed to the pool yet)
    assert seen["thinking_phase"] in ("starting", "searching", None)
    # the server answers other requests meanwhile (each with a short timeout: no waiting in line)
    for path in ("/api/info", f"/api/games/{game['id']}", "/api/explore?position=x...o...."):
        assert call(base, path, timeout=2)[0] == 200
    assert call(base, f"/api/games/{game['id']}/move", {"move": 0}, timeout=2)[0] == 400
    status, stopped = call(base, f"/api/games/{game['id']}/cancel", {}, timeout=10)
    assert status == 200 and stopped["cancelled"] and not stopped["thinking"]
    assert stopped["moves"] == []
    thinking.join(timeout=15)
    status, waited = answers["ai"]
    assert status == 200 and waited["cancelled"] and waited["moves"] == []
    # a fresh worker takes the next move
    quick = call(
        base,
        "/api/games",
        {"board": "3x3", "players": {"x": "hard", "o": "human"}, "seconds": 0.1},
    )[1]
    status, moved = call(base, f"/api/games/{quick['id']}/ai", {})
    assert status == 200 and len(moved["moves"]) == 1 and moved["last_search"]["level"] == "hard"


def test_cancel_without_a_search_changes_nothing(client: TestClient) -> None:
    game = people(client, moves=[4])
    answer = client.post(f"/api/games/{game['id']}/cancel").json()
    assert answer["cancelled"] is False and answer["moves"] == [4]


@pytest.mark.parametrize(("board", "rounds", "pause"), [("3x3", 1, 0.05), ("15x15,k=5", 6, 0.0)])
def test_thinkers_pool_survives_cancelled_workers(board: str, rounds: int, pause: float) -> None:
    """A cancelled search ends in ThinkingCancelled and the pool serves the next move. Cancelling
    at once, while another thread may still be writing the task to the worker's pipe, never ends in
    an error from the pipe (CI once saw a 500 from that race; its timing is not forced here, the
    rounds without a pause make it likely)."""
    from oxo.web.thinking import Task, Thinkers, ThinkingCancelled

    pool = Thinkers(1, niceness=0)
    start = Position.empty(Geometry.parse(board))

    async def run() -> None:
        for round_ in range(rounds):
            task = Task(f"g{round_}", "x", "hard", start, start, 5.0, 1)
            job = asyncio.ensure_future(pool.think(task))
            while not pool.running(task.game_id):
                await asyncio.sleep(pause)
            assert pool.cancel(task.game_id)
            with pytest.raises(ThinkingCancelled):
                await job
        move, report = await pool.think(Task("h", "x", "random", start, start, 1.0, 1))
        assert move in start.legal_moves and report is not None

    try:
        asyncio.run(run())
    finally:
        pool.close()


def test_a_body_that_never_arrives_times_out(
    server: tuple[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    base, _ = server
    monkeypatch.setattr(web_app, "BODY_SECONDS", 0.5)
    host, port = base.removeprefix("http://").rsplit(":", 1)
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 40\r\n\r\n{"
        )
        answer = b""
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            chunk = conn.recv(4096)
            if not chunk:
                break
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"did not arrive within 0.5 s" in answer
    assert call(base, "/api/info", timeout=5)[0] == 200


def test_slow_headers_are_cut_off(server: tuple[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    """A client that opens connections and sends its headers a trickle at a time is disconnected."""
    from oxo.web import protocol

    base, _ = server
    monkeypatch.setattr(protocol, "HEADER_SECONDS", 0.5)
    host, port = base.removeprefix("http://").rsplit(":", 1)
    for opening in (b"", b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\n"):
        with socket.create_connection((host, int(port)), timeout=10) as conn:
            conn.sendall(opening)
            # closed by the server, nothing answered (else recv would time out after 10 s and fail)
            assert conn.recv(4096) == b""
    assert call(base, "/api/info", timeout=5)[0] == 200
