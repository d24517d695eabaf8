"""Any bytes a client sends get a 4xx that says what is wrong, never a 500 (issue 30, item 1).

A fuzz of every endpoint with random bytes (bodies, query strings, game ids), in process and over a
real server's kept-alive connections, and the three ways text fails to be UTF-8 (an invalid byte, a
truncated sequence, an overlong or surrogate encoding): each answers 400 on a kept-alive connection
and the next, normal request on the same connection is answered.
"""

from __future__ import annotations

import http.client
import json
import random
import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from servers import JSON_HEADERS, running_server

POSTS = ["new", "move", "ai", "undo", "cancel", "hint"]
GETS = ["get", "explore", "count", "map", "info", "rules"]

#: Text that is not UTF-8: an invalid byte, a sequence cut short, an overlong form of "/", and a
#: surrogate (U+D800) written as UTF-8 bytes.
NOT_UTF8 = {
    "invalid byte": b"\xff",
    "truncated sequence": b"\xe2\x82",
    "overlong": b"\xc0\xaf",
    "surrogate": b"\xed\xa0\x80",
}


def url_of_endpoint(endpoint: str, gid: str) -> str:
    if endpoint == "new":
        return "/api/games"
    if endpoint in POSTS:
        return f"/api/games/{gid}/{endpoint}"
    return {
        "get": f"/api/games/{gid}",
        "explore": "/api/explore",
        "count": "/api/count",
        "map": "/api/map",
        "info": "/api/info",
        "rules": "/api/rules/mega",
    }[endpoint]


def one_line_error(status: int, body: bytes) -> str:
    message = json.loads(body)["error"]
    assert isinstance(message, str) and message and "\n" not in message, (status, body[:200])
    return message


# -- in process: hypothesis drives random bytes into every field of every endpoint ---------------------

BYTES = st.binary(max_size=40) | st.sampled_from(
    [b'{"board": "' + bad + b'"}' for bad in NOT_UTF8.values()]
    + [b'{"move": "' + bad + b'"}' for bad in NOT_UTF8.values()]
    + [b'{"players": {"x": "\xff"}}', b'{"moves": ["5\xe2"]}', b"\xef\xbb\xbf{}"]
)


@pytest.mark.slow
@settings(
    max_examples=200,
    deadline=None,
    derandomize=True,  # seeded: the same bytes on every run
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    endpoint=st.sampled_from(POSTS + GETS),
    body=BYTES,
    query=st.binary(max_size=30),
    gid=st.none() | st.binary(min_size=1, max_size=12),
    mega=st.booleans(),
)
def test_random_bytes_never_give_a_5xx(
    client: TestClient, endpoint: str, body: bytes, query: bytes, gid: bytes | None, mega: bool
) -> None:
    game = client.post(
        "/api/games",
        json={"kind": "mega" if mega else "classic", "players": {"x": "human", "o": "human"}},
    ).json()
    game_id = game["id"] if gid is None else urllib.parse.quote_from_bytes(gid, safe="")
    url = url_of_endpoint(endpoint, game_id) + "?" + urllib.parse.quote_from_bytes(query, safe="=&")
    if endpoint in POSTS:
        response = client.post(url, content=body)
    else:
        response = client.get(url)
    assert response.status_code < 500, response.text
    if response.status_code != 200:
        one_line_error(response.status_code, response.content)


@pytest.mark.parametrize("bad", list(NOT_UTF8.values()), ids=list(NOT_UTF8))
def test_text_that_is_not_utf8_is_named(client: TestClient, bad: bytes) -> None:
    gid = client.post("/api/games", json={"players": {"x": "human", "o": "human"}}).json()["id"]
    for url, body in (
        ("/api/games", b'{"board": "' + bad + b'"}'),
        ("/api/games", b'{"kind": "classic", "moves": ["' + bad + b'"]}'),
        (f"/api/games/{gid}/move", b'{"move": "' + bad + b'"}'),
        (f"/api/games/{gid}/undo", b'{"' + bad + b'": 1}'),
    ):
        response = client.post(url, content=body)
        assert response.status_code == 400, response.text
        assert "not valid UTF-8 JSON" in one_line_error(400, response.content)


# -- a real server: the connection stays usable ------------------------------------------------------------


@pytest.fixture(scope="module")
def server() -> Iterator[tuple[str, int]]:
    with running_server() as (url, _):
        host, port = url.removeprefix("http://").rstrip("/").rsplit(":", 1)
        yield host, int(port)


def ask(
    connection: http.client.HTTPConnection, method: str, path: str, body: bytes | None = None
) -> tuple[int, bytes, http.client.HTTPResponse]:
    connection.request(method, path, body=body, headers=JSON_HEADERS if body is not None else {})
    response = connection.getresponse()
    return response.status, response.read(), response


def test_not_utf8_on_a_kept_alive_connection(server: tuple[str, int]) -> None:
    host, port = server
    connection = http.client.HTTPConnection(host, port, timeout=10)
    try:
        status, body, _ = ask(connection, "POST", "/api/games", b'{"players": {"o": "human"}}')
        assert status == 200
        gid = json.loads(body)["id"]
        sock = connection.sock
        for name, bad in NOT_UTF8.items():
            for path, sent in (
                ("/api/games", b'{"board": "' + bad + b'"}'),
                (f"/api/games/{gid}/move", b'{"move": "4' + bad + b'"}'),
            ):
                status, body, response = ask(connection, "POST", path, sent)
                assert 400 <= status < 500, (name, status, body)
                assert "not valid UTF-8 JSON" in one_line_error(status, body), name
                assert not response.will_close, f"{name}: the server closed the connection"
            # then a normal request on the same connection succeeds
            status, body, _ = ask(connection, "POST", f"/api/games/{gid}/move", b'{"move": 4}')
            assert status == 200 and json.loads(body)["moves"] == [4], (name, body)
            status, body, _ = ask(connection, "POST", f"/api/games/{gid}/undo", b"{}")
            assert status == 200 and json.loads(body)["moves"] == [], (name, body)
            assert connection.sock is sock, f"{name}: the connection was not kept alive"
    finally:
        connection.close()


def noise_of(rng: random.Random, size: int, anything: bool) -> bytes:
    """Any bytes, or (so that JSON strings get past the quotes and control characters to the
    UTF-8 check) printable ASCII without quotes or backslashes mixed with bytes over 0x7f."""
    if anything:
        return rng.randbytes(size)
    text = b"abc 019{}[]:,xo" + bytes(range(0x80, 0x100))
    return bytes(rng.choice(text) for _ in range(size))


def test_random_bytes_over_kept_alive_connections(server: tuple[str, int]) -> None:
    """Random bodies and query strings (a bounded, seeded count) on every endpoint: each answer is
    a 4xx or a 200, the connection stays open, and the server answers a normal request after."""
    host, port = server
    rng = random.Random(30)
    connection = http.client.HTTPConnection(host, port, timeout=10)
    try:
        status, body, _ = ask(connection, "POST", "/api/games", b'{"players": {"o": "human"}}')
        gid = json.loads(body)["id"]
        for round_ in range(120):
            endpoint = (POSTS + GETS)[round_ % len(POSTS + GETS)]
            noise = noise_of(rng, rng.randrange(0, 48), anything=round_ % 3 == 0)
            if rng.random() < 0.5:  # JSON with bytes in a string, or bytes alone
                noise = b'{"board": "' + noise + b'"}'
            query = urllib.parse.quote_from_bytes(rng.randbytes(rng.randrange(0, 16)), safe="=&")
            path = f"{url_of_endpoint(endpoint, gid)}?{query}"
            if endpoint == "ai":
                continue  # two people play this game: there is no computer move to ask for
            if endpoint in POSTS:
                status, body, response = ask(connection, "POST", path, noise)
            else:
                status, body, response = ask(connection, "GET", path)
            assert status < 500, (endpoint, noise, query, body)
            if status != 200:
                one_line_error(status, body)
            assert not response.will_close, (endpoint, noise, query)
        status, body, _ = ask(connection, "GET", "/api/info")
        assert status == 200 and json.loads(body)["levels"]
    finally:
        connection.close()


def test_defects_answer_json_and_keep_the_connection(
    server: tuple[str, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Were some route to fail unexpectedly, the answer is one JSON line and the connection stays."""
    from oxo.web import explore as explorer

    def broken(*args: Any) -> Any:
        raise RuntimeError("a defect")

    monkeypatch.setattr(explorer, "check_countable", broken)
    host, port = server
    connection = http.client.HTTPConnection(host, port, timeout=10)
    try:
        status, body, response = ask(connection, "GET", "/api/count?board=3x3")
        assert status == 500 and "RuntimeError" in one_line_error(status, body)
        assert not response.will_close
        sock = connection.sock
        assert ask(connection, "GET", "/api/info")[0] == 200 and connection.sock is sock
    finally:
        connection.close()


def raw_exchange(host: str, port: int, request: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send bytes as they are; the status, headers and body of the answer."""
    import socket

    with socket.create_connection((host, port), timeout=10) as conn:
        conn.sendall(request)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = conn.recv(4096)
            assert chunk, f"closed without an answer to {request[:60]!r}"
            data += chunk
        head, body = data.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        headers = {k.lower(): v.strip() for k, v in (line.split(":", 1) for line in lines[1:])}
        while len(body) < int(headers.get("content-length", "0")):
            chunk = conn.recv(4096)
            if not chunk:
                break
            body += chunk
        return int(lines[0].split()[1]), headers, body


def test_random_bytes_in_the_request_line_and_headers(server: tuple[str, int]) -> None:
    """Bytes that do not make an HTTP request (outside ASCII in the address, garbage for a request
    line, odd header values): a 4xx as one JSON line, never a 5xx (seeded, bounded count)."""
    host, port = server
    rng = random.Random(1)
    requests = [
        b"GET /api/explore?position=\xff\xfe HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"GET /api/games/\xed\xa0\x80 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\xff\r\n\r\n",
        b"\xff\xfe\xfd\r\n\r\n",
    ]
    for _ in range(40):
        noise = noise_of(rng, rng.randrange(1, 24), anything=rng.random() < 0.5)
        where = rng.randrange(3)
        if where == 0:  # in the address
            requests.append(b"GET /api/" + noise + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        elif where == 1:  # in a header's value
            requests.append(
                b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"X-Noise: " + noise.replace(b"\r", b"").replace(b"\n", b"") + b"\r\n"
                b"Content-Length: 2\r\n\r\n{}"
            )
        else:  # instead of a request line
            requests.append(noise.replace(b"\r\n", b"") + b"\r\nHost: 127.0.0.1\r\n\r\n")
    for request in requests:
        status, headers, body = raw_exchange(host, port, request)
        assert status < 500, (request, status, body)
        if status != 200:
            assert headers["content-type"].startswith("application/json"), (request, headers)
            one_line_error(status, body)
    not_http = raw_exchange(host, port, requests[0])
    assert not_http[0] == 400 and "not valid HTTP" in one_line_error(400, not_http[2])


def test_the_refusal_names_the_byte_of_the_body(client: TestClient) -> None:
    """The offset is the body's (it was the offset inside the JSON string: 'at byte 0' for
    {"board":"\\xff"}), and bytes that are not UTF-8 outside any string are named so too."""
    for body, where in (
        (b'{"board":"\xff"}', 10),
        (b'{"board": "3x3", "moves": ["\xe2\x82"]}', 28),
        (b"\xff\xfe{}", 0),
    ):
        response = client.post("/api/games", content=body)
        assert response.status_code == 400
        message = one_line_error(400, response.content)
        assert "not valid UTF-8 JSON" in message and f"at byte {where};" in message, message
        body[:where].decode("utf-8")  # the bytes before it are valid UTF-8 (else this raises)
