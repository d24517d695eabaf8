"""Playing against oxo's proofs on the page (``oxo.web.proofs``): what the API says is proved and
where the certificates are, preparing a certificate in a process of its own, and a game against
the proof on the smallest board where the certificate (not the exact solver) plays: 3x3x3, which
X wins. Every figure is compared with the library's own answers (``oxo.api.proof``, the book),
never typed in. Each test that prepares a certificate does it in an empty cache of its own."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from oxo import api
from oxo.book import book_entry, proved_boards
from oxo.book.index import load_index
from oxo.book.play import BoardBook, from_openings
from oxo.engines.exact import PERFECT_LIMIT
from oxo.position import Position
from oxo.registry import new_game
from oxo.web import proofs as web_proofs
from oxo.web.sessions import BOARDS
from servers import page_client


@pytest.fixture
def client(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    """A client of a fresh app whose cache is empty (its worker and preparation processes,
    started later, inherit the folder)."""
    monkeypatch.setenv("OXO_CACHE", str(tmp_path / "cache"))
    with page_client(thinkers=1) as test_client:
        yield test_client


def bad(response, field: str) -> str:
    """A 400 whose one-line message names ``field`` first."""
    assert response.status_code == 400, response.text
    message = response.json()["error"]
    assert message.startswith(f"{field}:") and "\n" not in message, message
    return message


def test_info_lists_every_proved_board(client: TestClient) -> None:
    """/api/info names every board of the book once, as the page's menu takes it; a board the
    page offers keeps its id, and perfect says it plays the proof where the solver does not
    reach the first position."""
    info = client.get("/api/info").json()
    rows = proved_boards()
    assert [board["name"] for board in info["proved"]] == [row.board for row in rows]
    offered = {board["id"]: board for board in info["boards"]}
    for board, row in zip(info["proved"], rows, strict=True):
        assert board["value"] == row.value and board["label"].endswith("(proved)")
        if board["id"] in offered:
            assert {k: offered[board["id"]][k] for k in ("kind", "board", "k")} == {
                k: board[k] for k in ("kind", "board", "k")
            }
        plays = {level["level"]: level["plays"] for level in board["levels"]}
        far = sum(row.shape) and len(new_game(row.board).legal_moves) > PERFECT_LIMIT
        if far and not row.gravity:  # 4x4x4x4: from its openings, its certificate not here
            said = "certificates of the" if from_openings(row) else "proof of this board"
            assert plays["perfect"].startswith(f"perfect: oxo's {said}"), plays
    assert any(board["id"] not in offered for board in info["proved"])  # 8x8 with k=5, 10x4...


def test_a_boards_proof_is_the_librarys(client: TestClient) -> None:
    answer = client.get("/api/proof?board=3x3x3").json()
    proof = answer["proof"]
    assert answer["board"] == "3x3x3"
    library = api.proof("3x3x3")
    assert library is not None
    for key in ("value", "value_words", "published", "source", "command"):
        assert proof[key] == library[key]
    entry = book_entry("3x3x3")
    assert entry is not None
    certificate = entry.certificate_of("x")
    assert certificate is not None and set(proof["sides"]) == {"x"}
    side = proof["sides"]["x"]
    assert side["file"] == certificate.file and side["claim"] == "X wins"
    assert side["path"] and Path(side["path"]).name == certificate.file
    assert side["check"] == [
        command.replace(certificate.file, side["path"]) for command in certificate.check_commands
    ]
    assert side["check"][0].startswith("oxo verify ") and side["quick"] and not side["missing"]
    assert proof["page"]["id"] == "3x3x3"
    # Connect Four: its own solver plays perfect, ready without an index; by the page's name.
    four = client.get("/api/proof?board=connect4").json()["proof"]
    assert four["page"]["id"] == "connect4" and all(s["ready"] for s in four["sides"].values())
    # A board oxo has not proved: no proof (not an error); bad fields: 400 naming them.
    assert client.get("/api/proof?board=9x9&k=5").json() == {
        "board": "9x9,k=5",
        "proof": None,
        "open": None,
    }
    hyper = client.get("/api/proof?board=4x4x4x4").json()
    assert hyper["open"] is None and hyper["proof"]["value"] == "x"
    proved = book_entry("4x4x4x4")  # its certificate not here: played from its openings
    assert proved is not None and hyper["proof"]["openings"] is not None
    assert hyper["proof"]["openings"]["openings_words"] == proved.openings_words()
    assert hyper["proof"]["openings"]["index_command"] == "oxo book 4x4x4x4 --index"
    assert client.get("/api/proof?board=3x3x3").json()["proof"]["openings"] is None
    nine = client.get("/api/proof?board=9x8&k=5").json()
    assert nine["proof"] is None and nine["open"]["run"] == "results/runs/9x8-k5"
    bad(client.get("/api/proof?board=9x9x"), "board")
    bad(client.get("/api/proof"), "board")
    bad(client.get("/api/proof?board=3x3&side=x"), "side")
    bad(client.get("/api/proof?board=3x3&k=two"), "k")


def test_prepare_refuses_bad_fields(client: TestClient) -> None:
    post = lambda body: client.post("/api/proofs/prepare", json=body)  # noqa: E731
    assert "proved nothing about 9x9,k=5" in bad(
        post({"board": "9x9", "k": 5, "side": "x"}), "board"
    )
    bad(post({"board": "nine", "side": "x"}), "board")
    bad(post({"side": "x"}), "board")
    bad(post({"board": "3x3x3", "side": "z"}), "side")
    assert "for O" in bad(post({"board": "3x3x3", "side": "o"}), "side")  # X wins: X's only
    assert bad(post({"board": "connect4", "side": "x"}), "side")  # its solver needs nothing
    bad(post({"board": "3x3x3", "side": "x", "depth": 3}), "depth")


def test_a_boards_openings_as_the_page_sees_them(client: TestClient) -> None:
    """On a board played from the openings its run settled first (4x4x4x4, its certificate not
    here), each opening with its certificate as it is on this machine (here: the file in
    results/certificates, no index in the empty cache); in a game, those its position holds (an
    inside-out image too: X on 85 and O on 86 is X on 0 and O on 3 renamed)."""
    opened = book_entry("4x4x4x4")
    assert opened is not None and opened.openings
    hyper = client.get("/api/proof?board=4x4x4x4").json()["proof"]["openings"]
    here = hyper["openings_here"]
    assert [o["name"] for o in here] == [o.name for o in opened.openings]
    assert [o["file"] for o in here] == [o.certificate.file for o in opened.openings]
    assert all(o["here"] and not o["indexed"] and o["preparing"] is None for o in here)
    assert all(o["index_seconds"] > 0 and o["side"] == "x" for o in here) and hyper["under"] == []
    first = opened.openings[0]
    for moves in (list(first.moves), [85, 86]):
        game = client.post(
            "/api/games",
            json={"board": "4x4x4x4", "players": {"x": "human", "o": "human"}, "moves": moves},
        ).json()
        under = game["proof"]["openings"]["under"]
        assert under[:1] == ["0-3"] == [first.name], under
    empty = client.post("/api/games", json={"board": "4x4x4x4"}).json()
    assert empty["proof"]["openings"]["under"] == []


def test_an_openings_preparation_is_shown_and_refusals_named(client: TestClient) -> None:
    """``POST /api/proofs/prepare`` with an ``opening``: a name that is no settled opening, a
    board with none, or neither a side nor an opening: 400 naming the field. A preparation of
    an opening (one put in the server's preparer here: a real one takes minutes) shows in the
    board's answer, and a ready one counts only while its index is there."""
    post = lambda body: client.post("/api/proofs/prepare", json=body)  # noqa: E731
    assert "settled: 0-3" in bad(post({"board": "4x4x4x4", "opening": "0-2"}), "opening")
    assert "settled no opening" in bad(post({"board": "3x3", "opening": "0-3"}), "board")
    bad(post({"board": "4x4x4x4"}), "side")
    bad(post({"board": "nine", "opening": "0-3"}), "board")
    preparer = client.app.state.preparer  # type: ignore[attr-defined]
    opened = book_entry("4x4x4x4")
    assert opened is not None
    opening = opened.openings[0]
    job = web_proofs.Preparation(
        "4x4x4x4", "x", opening.certificate.file, 180.0, opening=opening.name
    )
    job.done, job.total, job.updated = 500, 2_000, time.monotonic()
    preparer._jobs[("4x4x4x4", opening.name)] = job
    shown = client.get("/api/proof?board=4x4x4x4").json()["proof"]["openings"]["openings_here"][0]
    assert shown["preparing"]["running"] and shown["preparing"]["fraction"] == 0.25
    assert shown["preparing"]["opening"] == opening.name
    answer = post({"board": "4x4x4x4", "opening": opening.name}).json()
    assert answer["proof"]["openings"]["openings_here"][0]["preparing"]["running"]  # not again
    job.ready, job.status = True, "ready"
    job.finished.set()
    assert preparer.get_opening("4x4x4x4", opening.name) is None  # no index in this cache


def test_the_preparation_of_an_opening_indexes_its_certificate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the preparation's process does with an opening (run here, not in a process: a board
    being proved stands in for 4x4x4x4, whose certificates take minutes): the opening's
    certificate indexed, its progress and "ready" sent back; an opening it does not have,
    "failed" with the reason."""
    import multiprocessing
    import os

    import oxo.book
    from book_rows import checked_row
    from oxo.book import BookOpening, OpenBoard, OpenQuestion
    from oxo.geometry import Geometry
    from oxo.proofs.runs import RunOptions, proved_openings, write_opening_certificate
    from oxo.proofs.solver import prove_board

    monkeypatch.setenv("OXO_CACHE", str(tmp_path / "cache"))
    geometry = Geometry.parse("4x4")
    options = RunOptions(workers=1, probe_seconds=0, slice_nodes=200, split_plies=1)
    result = prove_board(geometry, seconds=None, proof_dir=tmp_path / "run", run=options)
    folder = Path(result.proofs[0]).parent
    (tmp_path / "cache" / "certificates").mkdir(parents=True)
    settled = next(o for o in proved_openings(folder) if o.side == "o")
    path = tmp_path / "cache" / "certificates" / settled.certificate_name(geometry)
    write_opening_certificate(folder, settled, path)
    opening = BookOpening(
        settled.moves, settled.position, "o", settled.guarantee, checked_row(path, "4x4")
    )
    board = OpenBoard(
        board="4x4", shape=(4, 4), k=4, gravity=False, published="none", board_args="4x4",
        run=str(folder), command="", sessions=1, date="2026-11-30", seconds=0.0,
        worker_seconds=0.0, positions=0, jobs=0,
        questions=(OpenQuestion("o", 1, 0, 0, 0, 0, (), (), ()),), openings=(opening,),
    )  # fmt: skip
    for module in (oxo.book, web_proofs):
        monkeypatch.setattr(module, "open_board", lambda name: board if name == "4x4" else None)
    monkeypatch.setattr(os, "nice", lambda increment: 0)  # the test's own process
    for name, last in ((opening.name, ("ready",)), ("9", None)):
        ours, theirs = multiprocessing.Pipe(duplex=False)
        web_proofs._prepare(theirs, "4x4", "o", name)
        messages = []
        try:
            while True:
                messages.append(ours.recv())
        except EOFError:  # the process's end of the pipe is closed once it has said all
            pass
        if last is not None:
            assert messages[-1] == last and any(m[0] == "progress" for m in messages), messages
            assert load_index(opening.certificate) is not None
            assert web_proofs._indexed("4x4", "o", opening.name)
        else:
            assert messages[-1][0] == "failed" and "'9' is not a settled opening" in messages[-1][1]


def test_a_certificate_is_prepared_in_a_process_of_its_own(client: TestClient) -> None:
    """4x5's O certificate: not indexed in an empty cache, prepared on request while the server
    answers, then ready (its index in the cache, as the library reads it)."""
    entry = book_entry("4x5")
    assert entry is not None
    certificate = entry.certificate_of("o")
    assert certificate is not None and load_index(certificate) is None
    before = client.get("/api/proof?board=4x5").json()["proof"]["sides"]["o"]
    assert before["indexed"] is False and before["preparing"] is None
    started = client.post("/api/proofs/prepare", json={"board": "4x5", "side": "o"})
    assert started.status_code == 200, started.text
    job = started.json()["proof"]["sides"]["o"]["preparing"]
    assert job["side"] == "o" and job["file"] == certificate.file
    deadline = time.monotonic() + 120
    while True:
        side = client.get("/api/proof?board=4x5").json()["proof"]["sides"]["o"]
        if not side["preparing"]["running"]:
            break
        assert client.get("/api/info").status_code == 200  # the server answers meanwhile
        assert time.monotonic() < deadline, side
        time.sleep(0.2)
    assert side["preparing"]["ready"] and side["preparing"]["failed"] is None, side
    assert side["ready"] and side["indexed"] and side["preparing"]["fraction"] == 1.0
    assert load_index(certificate) is not None


@pytest.mark.slow  # a worker process starts (seconds), then the preparation's own
def test_play_against_the_proof(client: TestClient) -> None:
    """3x3x3 with the computer as X at perfect: its first move waits for X's certificate to be
    prepared, then every move comes from the proof (the certificate while more than 16 cells
    are empty, the exact solver after), and the person (here: the first empty cell each time)
    loses."""
    game = client.post(
        "/api/games", json={"board": "3x3x3", "players": {"x": "perfect", "o": "human"}}
    ).json()
    assert game["proof"]["value"] == "x" and game["proof"]["sides"]["x"]["indexed"] is False
    # The first move waits for the preparation: the game says so, while the server answers.
    first: dict = {}
    mover = threading.Thread(
        target=lambda: first.update(client.post(f"/api/games/{game['id']}/ai", json={}).json())
    )
    mover.start()
    notes = set()
    while mover.is_alive():
        seen = client.get(f"/api/games/{game['id']}").json()
        if seen.get("thinking_phase") == "preparing":
            notes.add(seen["thinking_note"])
        time.sleep(0.02)
    mover.join()
    assert notes and all("X's certificate 3x3x3-k3-x-win.jsonl.gz" in note for note in notes)
    game = first
    engines = [game["last_search"]["engine"]]
    while not game["over"]:
        if game["computer_to_move"]:
            game = client.post(f"/api/games/{game['id']}/ai", json={}).json()
            engines.append(game["last_search"]["engine"])
        else:
            game = client.post(
                f"/api/games/{game['id']}/move", json={"move": game["legal"][0]}
            ).json()
    assert game["winner"] == "x", game["result"]
    assert engines[0].startswith("perfect (proof book: X wins"), engines
    assert all(engine.startswith("perfect") for engine in engines), engines
    side = game["proof"]["sides"]["x"]
    assert side["ready"] and side["indexed"] and side["preparing"]["ready"]


def test_what_the_computer_waits_for() -> None:
    """A move waits only for a quick certificate of a proof level, out of the exact solver's
    reach; the page's words say which file, how far and how long is left."""
    preparer = web_proofs.Preparer()
    empty = new_game("3x3")
    assert web_proofs.needs_preparing("3x3", "x", "perfect", empty, preparer) is None  # solver
    cube = new_game("3x3x3")
    assert web_proofs.needs_preparing("3x3x3", "x", "hard", cube, preparer) is None
    assert web_proofs.needs_preparing("3x3x3", "o", "perfect", cube, preparer) is None  # X's only
    four = new_game("connect4")
    assert web_proofs.needs_preparing("6x7,k=4,gravity", "x", "perfect", four, preparer) is None
    job = web_proofs.Preparation("8x8,k=5", "o", "8x8-k5-o-no-loss.jsonl.gz", 800.0)
    # a long one is never waited for, even while it is prepared: hard plays meanwhile
    preparer._jobs[("8x8,k=5", "o")] = job
    assert job.running
    eight = new_game("8x8,k=5")
    assert web_proofs.needs_preparing("8x8,k=5", "o", "perfect", eight, preparer) is None
    job.started -= 10.0
    job.done, job.total, job.updated = 1_000, 4_000, time.monotonic()
    data = job.to_dict()
    assert data["fraction"] == 0.25 and 29 <= data["seconds_left"] <= 31  # 10 s for a quarter
    from oxo.web.app import preparing_words

    words = preparing_words(job)
    assert "O's certificate 8x8-k5-o-no-loss.jsonl.gz" in words and "25 %" in words
    assert "about 30 s left" in words


def test_a_book_uses_an_index_built_after_it_said_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An engine told a certificate had no index (the page plays hard meanwhile) plays from it
    once it is built: a preparation during a game counts from the next move."""
    monkeypatch.setenv("OXO_CACHE", str(tmp_path / "cache"))
    entry = book_entry("4x5")
    assert entry is not None
    certificate = entry.certificate_of("x")
    assert certificate is not None
    book = BoardBook(entry, build=False)
    start = Position.empty(new_game("4x5").geometry)  # type: ignore[attr-defined]
    first = book.advise(start)
    assert first.move is None and "needs an index" in first.note
    api.prepare_proof("4x5", side="x")
    again = book.advise(start)
    assert again.move is not None and again.move in start.legal_moves, again


def test_every_offered_proved_board_is_in_the_menu_once() -> None:
    boards = web_proofs.proved_page_boards()
    ids = [board["id"] for board in boards]
    assert len(ids) == len(set(ids))
    offered = {board["id"] for board in BOARDS}
    assert {"3x3", "3x3x3", "4x4x4", "connect4"} <= offered & set(ids)


def test_a_failed_preparation_is_said_and_not_played_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A preparation that failed (a file whose SHA-256 is not the book's, say) leaves the side
    not ready, with the reason and the command that makes it ready."""
    monkeypatch.setenv("OXO_CACHE", str(tmp_path / "cache"))
    preparer = web_proofs.Preparer()
    job = web_proofs.Preparation("4x5", "o", "4x5-k4-o-no-loss.jsonl.gz", 2.0)
    job.failed, job.status = "the certificate ... is not the one oxo's proof book names", "failed"
    job.finished.set()
    preparer._jobs[("4x5", "o")] = job
    side = web_proofs.board_proof("4x5", preparer)["sides"]["o"]  # type: ignore[index]
    assert not side["ready"] and side["make"] == "oxo book 4x5 --index"
    assert side["preparing"]["failed"] == job.failed and not side["preparing"]["running"]
    assert web_proofs.board_proof("4x5")["sides"]["o"]["ready"]  # type: ignore[index]  # quick


def test_a_preparation_counts_only_while_its_index_is_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_quick_index: None
) -> None:
    """A preparation that ended ready is forgotten once its index is gone from the cache (the
    cache emptied or moved while the server runs): the page says "not prepared" again instead
    of "ready", and a new preparation can start (no side counts as quick to build)."""
    monkeypatch.setenv("OXO_CACHE", str(tmp_path / "built"))
    entry = book_entry("3x3x3")
    assert entry is not None
    api.prepare_proof("3x3x3", side="x")
    preparer = web_proofs.Preparer()
    job = web_proofs.Preparation("3x3x3", "x", entry.certificates[0].file, 1.0)
    job.ready, job.status = True, "ready"
    job.finished.set()
    preparer._jobs[("3x3x3", "x")] = job
    assert preparer.get("3x3x3", "x") is job
    side = web_proofs.board_proof("3x3x3", preparer)["sides"]["x"]  # type: ignore[index]
    assert side["ready"] and side["preparing"]["ready"]
    monkeypatch.setenv("OXO_CACHE", str(tmp_path / "empty"))
    side = web_proofs.board_proof("3x3x3", preparer)["sides"]["x"]  # type: ignore[index]
    assert not side["ready"] and not side["indexed"] and side["preparing"] is None
    assert preparer.get("3x3x3", "x") is None


def test_a_certificate_not_here_says_how_to_get_it(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every side whose file is not on this machine (here: an installed oxo, without the source
    tree's results/certificates, and an empty cache) is not ready, and says why and where to
    get the file, in the library's words; perfect plays hard for it (the level's own note)."""
    import oxo.book
    from oxo.book import missing_message
    from oxo.cache import BoundedCache

    monkeypatch.setattr(oxo.book, "REPOSITORY", tmp_path / "no-source-tree")
    monkeypatch.setattr(web_proofs, "_summaries", BoundedCache(64))
    boards = client.get("/api/proofs").json()["boards"]
    assert [board["board"] for board in boards] == [row.board for row in proved_boards()]
    absent = 0
    for board, row in zip(boards, proved_boards(), strict=True):
        for name, side in board["sides"].items():
            certificate = row.certificate_of(name)  # the one a side is played from: its first
            if certificate is None or side["path"] is not None:
                continue
            absent += 1
            assert not side["ready"] and side["missing"] == missing_message(certificate)
            if certificate.make is not None:
                assert certificate.make in side["missing"]
    qubic = next(board for board in boards if board["board"] == "4x4x4")["sides"]["x"]
    assert absent and "results/certificates" in qubic["missing"], qubic


def test_a_hint_plays_the_proof(client: TestClient) -> None:
    """On 3x3x3 the person as X gets the move of X's certificate as a hint (once its index is
    built: a hint never waits for one), the same the computer would play from it."""
    from oxo.book.play import board_book

    game = client.post(
        "/api/games", json={"board": "3x3x3", "players": {"x": "human", "o": "hard"}}
    ).json()
    api.prepare_proof("3x3x3", side="x")
    hint = client.post(f"/api/games/{game['id']}/hint", json={}).json()
    book = board_book("3x3x3", build=False)
    assert book is not None
    advice = book.advise(Position.empty(new_game("3x3x3").geometry))  # type: ignore[attr-defined]
    assert hint["move"] == advice.move and hint["moves"] == [advice.move]
    assert hint["text"] == f"{advice.move}: the move of oxo's proof ({advice.note})"
    assert "X wins" in hint["text"]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
FIELDS = st.sampled_from(["board", "k", "side", "opening", "x", ""])
WORDS = st.sampled_from(
    ["8x8", "qubic", "3x3x3", "connect4", "4x4x4x4", "x", "o", "5", "-1", "9x9x", "²", ""]
)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    body=st.one_of(JSON, st.dictionaries(FIELDS, WORDS | JSON, max_size=3)),
    query=st.dictionaries(FIELDS, WORDS | st.text(max_size=8), max_size=3),
)
def test_odd_requests_get_a_named_400_never_a_500(
    client: TestClient, body: object, query: dict[str, str]
) -> None:
    """Random bodies and queries on the proof endpoints: 200, or a one-line error naming what
    was wrong (never a 500). A body that happens to name a proved side starts its preparation:
    only the two small boards' ones can be named here."""
    if isinstance(body, dict) and body.get("board") in ("8x8", "qubic"):
        body["board"] = "3x3x3"
    for response in (
        client.get("/api/proof", params=query),
        client.get("/api/proofs", params=query),
        client.post("/api/proofs/prepare", content=json.dumps(body).encode()),
    ):
        assert response.status_code in (200, 400), response.text
        if response.status_code == 400:
            message = response.json()["error"]
            assert message and "\n" not in message
