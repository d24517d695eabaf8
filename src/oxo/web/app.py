"""The web app: a small JSON API over the library and the static page that calls it (ASGI, Starlette).

All game logic stays in Python; the page (``static/``: plain HTML, JS and CSS, no build step, nothing
fetched from the network) only draws what the API returns. The endpoints are documented in
``docs/api.md``.

No handler blocks the event loop: the computer's search runs in worker processes
(:mod:`oxo.web.thinking`), solving a board, exploring and counting run in worker threads and their
answers are cached, and reading a game while its computer thinks answers at once (``"thinking":
true``). Every request goes through :class:`Guard` first (the Host header must name this server,
POSTs must be JSON, bodies are bounded), and every field through one schema per endpoint
(:mod:`oxo.web.schemas`): bad input answers 400 with ``{"error": "<field>: <what was wrong>"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import ipaddress
import json
import logging
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from oxo.cache import BoundedCache
from oxo.engines import DEFAULT_LEVEL, DEFAULT_SECONDS, LEVELS
from oxo.engines.exact import PERFECT_LIMIT
from oxo.errors import OutOfReachError, OxoError
from oxo.game import GameState, Player
from oxo.geometry import Geometry
from oxo.phrases import counted, duration, listing
from oxo.position import Position
from oxo.registry import board_geometry, find_game, new_game
from oxo.web import explore as explorer
from oxo.web import proofs, schemas, sessions
from oxo.web.levels import board_levels, level_words, strength_notes
from oxo.web.maps import map_answer
from oxo.web.schemas import (
    ComputerMove,
    CountQuery,
    ExploreQuery,
    GameQuery,
    MapQuery,
    NewGame,
    Nothing,
    PlayMove,
    PrepareProof,
    ProofQuery,
    TakeBack,
    decode_body,
    decode_query,
)
from oxo.web.sessions import (
    MAX_SECONDS,
    MIN_SECONDS,
    PLAYERS,
    Game,
    GameNotFound,
    GameStore,
    SolutionCache,
    WebInputError,
    check_players,
    check_seconds,
)
from oxo.web.thinking import NICENESS, Task, Thinkers, ThinkingCancelled, wait_words

STATIC = Path(__file__).parent / "static"
#: Largest request body read, in bytes.
MAX_BODY = 64_000
MAX_TEXT = schemas.MAX_TEXT
#: Seconds a client has to send its request body.
BODY_SECONDS = 10.0
#: Seconds a request waits for a computation (a search, a solve, a count) before answering 503; the
#: computation carries on and its answer is kept, so asking again later answers at once.
REQUEST_SECONDS = 60.0
#: Explorer answers kept (least recently used forgotten first).
EXPLORE_CACHE = 64
#: Strategy maps kept, encoded (O's map on 3x3 is about 1 MB), and refusals of maps out of reach.
MAP_CACHE = 8
#: Host names a server bound to this machine only answers to.
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})

T = TypeVar("T")
LOG = logging.getLogger("oxo.web")


def still_computing(message: str) -> HTTPException:
    """503: a computation took longer than a request may wait; it carries on and its answer is kept."""
    return HTTPException(503, message)


# -- the guard in front of every request -----------------------------------------------------------------


def host_name(header: str) -> str:
    """The name in a Host header, without port, brackets or a final dot, in lower case."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    if header.count(":") == 1:
        header = header.split(":", 1)[0]
    return header.rstrip(".")


def _is_ip(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class HostRule:
    """Which Host headers a server answers: its loopback names, the address it is bound to, and on
    a wildcard address (``0.0.0.0``) any IP address plus this machine's names. A name that merely
    resolves here (DNS rebinding: a web page's own domain pointed at this machine) is refused."""

    def __init__(self, names: Iterable[str] = (), *, any_ip: bool = False) -> None:
        self.names = frozenset(host_name(n) for n in (*LOOPBACK_HOSTS, *names) if n)
        self.any_ip = any_ip

    def allows(self, name: str) -> bool:
        return name in self.names or (self.any_ip and _is_ip(name))

    @classmethod
    def for_address(cls, host: str, extra: Iterable[str] = ()) -> HostRule:
        """The rule of a server bound to ``host`` (plus names given with ``--allow-host``)."""
        import socket

        if host in ("0.0.0.0", "::", ""):
            names = {socket.gethostname(), socket.getfqdn(), *extra}
            return cls(names, any_ip=True)
        return cls({host, *extra})


def own_address(scope: Scope) -> str:
    """`` (http://127.0.0.1:8123/)``: the address the request reached, as people type it (the port
    the server really listens on), or nothing when the server's address is not known."""
    server = scope.get("server")
    if not server or server[1] is None:  # a Unix socket, or no address given
        return ""
    address, port = str(server[0]), server[1]
    if address in ("0.0.0.0", "::", ""):
        address = "127.0.0.1"
    shown = f"[{address}]" if ":" in address else address
    return f" (http://{shown}:{port}/)"


def _json_bytes(status: int, message: str) -> tuple[int, bytes]:
    """An error answer's status and body; non-ASCII text is escaped, so any text can be sent."""
    return status, json.dumps({"error": message}).encode()


class Guard:
    """Refuses, before any route runs: a Host that is not this server (403), a POST that is not
    ``application/json`` (415: forms and ``text/plain`` posts from other sites), a body over
    :data:`MAX_BODY` bytes (413); adds headers that keep other sites from framing or sniffing."""

    HEADERS = [
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"no-referrer"),
        (
            b"content-security-policy",
            b"default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            b"frame-ancestors 'none'; form-action 'self'",
        ),
    ]

    def __init__(self, app: ASGIApp, hosts: HostRule) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.lower(): v for k, v in scope["headers"]}
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            status, body = refusal
            await self._send_json(send, status, body)
            return

        started = False

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = {**message, "headers": [*message.get("headers", []), *self.HEADERS]}
            await send(message)

        try:
            await self.app(scope, receive, guarded_send)
        except ClientDisconnect:
            return  # the client went away (or was evicted as too slow) before its body came
        except Exception as error:
            # A defect, not bad input: logged with its traceback, answered as one JSON line, and not
            # raised further, so the server keeps the client's keep-alive connection open.
            LOG.exception("error while answering %s %s", scope["method"], scope["path"][:100])
            if started:
                raise
            status, body = _json_bytes(
                500, f"internal error ({type(error).__name__}); the server keeps running"
            )
            await self._send_json(send, status, body)

    async def _send_json(self, send: Send, status: int, body: bytes) -> None:
        """Answers with a JSON body of its own (a refusal or an internal error), headers included."""
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    *self.HEADERS,
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    def _refusal(self, scope: Scope, headers: dict[bytes, bytes]) -> tuple[int, bytes] | None:
        host = host_name(headers.get(b"host", b"").decode("latin-1"))
        if not self.hosts.allows(host):
            return _json_bytes(
                403,
                f"this server does not answer to the host name {host[:60]!r}; open it by its own address"
                f"{own_address(scope)}, or start it with --allow-host NAME",
            )
        if scope["method"] == "POST":
            kind = headers.get(b"content-type", b"").decode("latin-1").split(";")[0].strip().lower()
            if kind != "application/json":
                return _json_bytes(
                    415,
                    f"POST requests must be JSON (Content-Type: application/json), got {kind[:60] or 'none'!r}",
                )
        length = headers.get(b"content-length")
        if length is not None:
            if not length.isdigit():
                return _json_bytes(400, "Content-Length must be a whole number of bytes")
            if int(length) > MAX_BODY:
                return _json_bytes(
                    413, f"the request body is {int(length)} bytes; at most {MAX_BODY} are read"
                )
        return None


# -- reading requests -----------------------------------------------------------------------------------


async def _raw_body(request: Request) -> bytes:
    """The body, at most :data:`MAX_BODY` bytes, sent within :data:`BODY_SECONDS`."""

    async def read() -> bytes:
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise WebInputError(
                    f"the request body is over {MAX_BODY} bytes; at most {MAX_BODY} are read"
                )
            chunks.append(chunk)
        return b"".join(chunks)

    try:
        return await asyncio.wait_for(read(), BODY_SECONDS)
    except TimeoutError:
        raise HTTPException(
            408, f"the request body did not arrive within {BODY_SECONDS:g} s"
        ) from None


async def _body(request: Request, schema: type[schemas.S]) -> schemas.S:
    return decode_body(await _raw_body(request), schema)


def _query(request: Request, schema: type[schemas.S]) -> schemas.S:
    params: dict[str, str] = {}
    for name, value in request.query_params.multi_items():
        if name in params:
            raise WebInputError(f"{name[:40]}: given twice in the query")
        params[name] = value
    return decode_query(params, schema)


def _ascii(name: str, value: str | None) -> str | None:
    """Text fields with digits take ASCII digits only (no superscripts, no other scripts' digits)."""
    if value is not None and any(
        ch.isdigit() or ch.isnumeric() for ch in value if not ch.isascii()
    ):
        raise WebInputError(f"{name}: digits must be the ASCII digits 0-9, got {value[:40]!r}")
    return value


def _geometry(board: str | None, k: int | None, default: str | None = None) -> Geometry:
    board = _ascii("board", board if board is not None else default)
    if board is None or not board.strip():
        raise WebInputError("board: give a board such as 3x3, 4x4, 3x5, 4x4,k=3 or 3x3x3")
    try:
        return board_geometry(board, k)  # a shape, or a name (qubic, scorefour)
    except OxoError as error:
        raise WebInputError(f"board: {error}") from None


def _position(query: ExploreQuery) -> Position:
    text = _ascii("position", query.position)
    if text is None or not text.strip():
        raise WebInputError(
            "position: give a position such as x...o.... or 100020000 (rows may be separated by '/')"
        )
    board = _ascii("board", query.board)
    geometry = _geometry(board, query.k) if board and board.strip() else None
    try:
        position = Position.from_string(text, geometry)
    except OxoError as error:
        raise WebInputError(f"position: {error}") from None
    if geometry is None and query.k is not None:
        position = Position(Geometry(position.geometry.shape, query.k), position.x, position.o)
    return position


def _start(data: NewGame) -> tuple[str, GameState]:
    """The kind and first state of the game a request asks for: ``kind`` classic (any ``board`` and
    ``k``), mega, or another game the page offers (:data:`oxo.web.sessions.BOARDS`)."""
    board = _ascii("board", data.board)
    others = sorted({b["kind"] for b in sessions.BOARDS if b["kind"] != "classic"})
    kind: str = data.kind or (board if board is not None and board in others else "classic")
    if kind in others:
        if board not in (None, kind) or data.k is not None:
            raise WebInputError(
                f"board: a {kind} game has no board size nor k: leave board and k out"
            )
        return kind, new_game(kind)
    if kind != "classic":
        raise WebInputError(f"kind: must be classic or {' or '.join(others)}, got {kind[:40]!r}")
    return kind, Position.empty(_geometry(board, data.k, "3x3"))


# -- the app --------------------------------------------------------------------------------------------


def create_app(
    hosts: HostRule | None = None,
    *,
    thinkers: int = 2,
    prestart: bool = False,
    niceness: int = NICENESS,
) -> Starlette:
    """A fresh app with its own game store, caches and worker processes.

    ``hosts`` says which Host headers are answered (this machine's loopback names unless given);
    ``thinkers`` is the number of worker processes for the computer's moves (started with the
    server when ``prestart``, else at the first computer move), run ``niceness`` lower than the
    server (Unix nice; 0 where the server shares the machine with other work of the same priority
    that the searches must not wait behind, as in the test suite).
    """
    solutions = SolutionCache()
    games = GameStore()
    pool = Thinkers(thinkers, niceness=niceness)
    preparer = proofs.Preparer()
    explored: BoundedCache[tuple[str, str], dict[str, Any]] = BoundedCache(EXPLORE_CACHE)
    pending: dict[Any, asyncio.Future[Any]] = {}
    info_cache: dict[str, Any] = {}
    maps: BoundedCache[tuple[str, str], tuple[int, bytes]] = BoundedCache(MAP_CACHE)

    async def compute(key: Any, what: str, function: Callable[[], T]) -> T:
        """Run ``function`` in a worker thread, one run per ``key`` at a time; wait at most
        :data:`REQUEST_SECONDS`, after which the run carries on and the request answers 503."""
        job = pending.get(key)
        if job is None:
            job = asyncio.ensure_future(run_in_threadpool(function))
            pending[key] = job
            job.add_done_callback(lambda _: pending.pop(key, None))
        try:
            return await asyncio.wait_for(asyncio.shield(job), REQUEST_SECONDS)
        except TimeoutError:
            raise still_computing(
                f"{what} takes longer than {REQUEST_SECONDS:g} s; it carries on here and its answer is kept: ask again in a minute"
            ) from None

    async def answer(game: Game, values: bool, **extra: Any) -> Response:
        """The game as JSON; when move values need a board solved first, that runs in a thread."""
        if values and not game.values_ready():
            state = game.state
            assert isinstance(state, Position)
            if game.exact_values_reach(state):
                await compute(
                    ("values", game.id, len(game.moves)),
                    "the exact values of the moves",
                    game.compute_exact_values,
                )
            elif sessions.solvable(state.geometry):
                await compute(
                    ("solve", state.geometry),
                    f"solving {state.geometry.spec} (for the values of the moves)",
                    lambda: solutions.get(state.geometry),
                )
        return JSONResponse({**game.to_dict(values=values), **queued(game), **extra})

    def proof_of(game: Game) -> dict[str, Any]:
        """The game's board as oxo's proof book has it (``"proof"``: None when it has not proved
        it; ``"open"``: how far oxo's run of it is, on a board no one has published)."""
        return {
            "proof": proofs.board_proof(game.game.name, preparer, game.state),
            "open": proofs.open_proof(game.game.name, preparer, game.state),
        }

    def queued(game: Game) -> dict[str, Any]:
        """Where the game's computer move is (:meth:`Thinkers.status`): waiting for a free worker (for
        about how long, behind how many searches: the two workers may be busy with other games'
        moves), waiting for its worker process to start, or searching (for how long); and the
        page's words for the first two (:func:`oxo.web.thinking.wait_words`)."""
        status = (pool.status(game.id) if game.is_thinking else None) or {}
        phase = status.get("phase")
        waiting = phase == "waiting"
        preparing = game.preparing if game.is_thinking else None
        if preparing is not None and preparing.running:
            return {
                "thinking_phase": "preparing",
                "thinking_note": preparing_words(preparing),
                "search_seconds": None,
                "waiting_for_worker": False,
                "wait_seconds": None,
                "searches_ahead": None,
                **proof_of(game),
            }
        return {
            **proof_of(game),
            "thinking_phase": phase,
            "thinking_note": wait_words(status) if status else None,
            "search_seconds": status["seconds"] if phase == "searching" else None,
            "waiting_for_worker": waiting,
            "wait_seconds": status["seconds"] if waiting else None,
            "searches_ahead": status["ahead"] if waiting else None,
        }

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    info_lock = threading.Lock()

    def info_bytes() -> bytes:
        """``/api/info``'s answer, built once (in a thread: describing Connect Four's levels loads
        its solver's modules, seconds the event loop must not wait)."""
        with info_lock:
            if "bytes" not in info_cache:
                data = {
                    "players": list(PLAYERS),
                    "levels": list(LEVELS),
                    "level_words": level_words(),
                    "default_level": DEFAULT_LEVEL,
                    "boards": [
                        {**board, **board_levels(find_game(board["board"], board["k"]))}
                        for board in sessions.BOARDS
                    ],
                    # the boards oxo has proved: the page lists those it does not offer above
                    # apart ("play against the proof"), each with how its levels play there
                    "proved": [
                        {**board, **board_levels(find_game(board["name"]))}
                        for board in proofs.proved_page_boards()
                    ],
                    "strength": strength_notes(),
                    "seconds": {
                        "min": MIN_SECONDS,
                        "max": MAX_SECONDS,
                        "default": DEFAULT_SECONDS,
                    },
                    "limits": {
                        "play_cells": sessions.MAX_PLAY_CELLS,
                        "values_cells": sessions.MAX_EMPTY,
                        "perfect_empty_cells": PERFECT_LIMIT,
                        "explore_cells": sessions.MAX_EXPLORE_CELLS,
                        "games": sessions.MAX_GAMES,
                        "idle_minutes": round(sessions.IDLE_SECONDS / 60),
                        "finished_minutes": round(sessions.FINISHED_SECONDS / 60),
                        "request_seconds": REQUEST_SECONDS,
                    },
                }
                info_cache["bytes"] = JSONResponse(data).body  # encoded once
            answer: bytes = info_cache["bytes"]
            return answer

    async def info(request: Request) -> Response:
        body = info_cache.get("bytes")
        if body is None:
            body = await compute(("info",), "listing the boards and levels", info_bytes)
        return Response(body, media_type="application/json")

    def rules_answer(name: str, sections: Callable[[], list[tuple[str, str]]]) -> Response:
        """A game's rules as sections (the worked example preformatted), encoded once."""
        key = f"rules/{name}"
        if key not in info_cache:
            info_cache[key] = JSONResponse(
                {
                    "sections": [
                        {"title": title, "text": text, "preformatted": title == "Worked example"}
                        for title, text in sections()
                    ]
                }
            ).body
        return Response(info_cache[key], media_type="application/json")

    async def mega_rules(request: Request) -> Response:
        """The rules of mega tic-tac-toe in the words of ``oxo mega rules`` (:mod:`oxo.mega.guide`)."""
        from oxo.mega.guide import rules_sections

        return rules_answer("mega", rules_sections)

    async def uttt_rules(request: Request) -> Response:
        """The rules of ultimate tic-tac-toe in the words of ``oxo uttt rules`` (:mod:`oxo.uttt.guide`)."""
        from oxo.uttt.guide import rules_sections

        return rules_answer("uttt", rules_sections)

    # games -----------------------------------------------------------------------------------

    async def game_new(request: Request) -> Response:
        data = await _body(request, NewGame)
        query = _query(request, GameQuery)
        kind, start = _start(data)
        players = data.players
        chosen = check_players(
            None
            if players is None
            else {
                "x": _ascii("players.x", players.x),
                "o": _ascii("players.o", players.o),
            }
        )
        seconds = check_seconds(data.seconds if data.seconds is not None else DEFAULT_SECONDS)
        game = Game(games.new_id(), start, chosen, seconds, data.seed, solutions, kind)
        most = game.game.size  # a game has at most one move a cell (Connect Four: 42, not 7)
        if len(data.moves) > most:
            raise WebInputError(f"moves: at most {most} moves, as the move endpoint takes them")
        for number, move in enumerate(data.moves):
            try:
                game.play(game.parse_move(move, f"moves[{number}]"), by_computer=True)
            except WebInputError:
                raise
            except OxoError as error:
                raise WebInputError(f"moves[{number}]: {error}") from None
        games.add(game)
        return await answer(game, query.values)

    async def game_get(request: Request) -> Response:
        game = games.get(request.path_params["game_id"])
        query = _query(request, GameQuery)
        if game.is_thinking:  # at once, whatever the values: the page asks again after the move
            return JSONResponse(
                {**game.to_dict(values=query.values and game.values_ready()), **queued(game)}
            )
        return await answer(game, query.values)

    async def game_move(request: Request) -> Response:
        game = games.get(request.path_params["game_id"])
        query = _query(request, GameQuery)
        data = await _body(request, PlayMove)
        _check_ply(game, data.ply)
        try:
            game.play(game.parse_move(data.move))
        except WebInputError:
            raise
        except OxoError as error:
            raise WebInputError(f"move: {error}") from None
        return await answer(game, query.values)

    async def think(game: Game, task: Task) -> None:
        # A certificate the move plays from, quick to prepare but not prepared yet, is prepared
        # first, in a process of its own (the page shows how far it is).
        job = proofs.needs_preparing(game.game.name, task.side, task.level, task.state, preparer)
        if job is not None:
            game.preparing = job
            try:
                while not await job.wait(3600.0):
                    pass
            finally:
                game.preparing = None
        move, report = await pool.think(task)
        game.apply(task, move, report)

    async def game_ai(request: Request) -> Response:
        game = games.get(request.path_params["game_id"])
        query = _query(request, GameQuery)
        data = await _body(request, ComputerMove)
        seconds = None if data.seconds is None else check_seconds(data.seconds)
        if seconds is not None and not game.is_thinking:  # a running search keeps its time
            game.seconds = seconds
        if not game.is_thinking:
            task = game.task()
            game.thinking = asyncio.ensure_future(think(game, task))
            game.thinking.add_done_callback(_consume)
            game.thinking_since = time.monotonic()
        job = game.thinking
        cancelled = False
        try:
            await asyncio.wait_for(asyncio.shield(job), REQUEST_SECONDS)
        except (ThinkingCancelled, asyncio.CancelledError):
            if not job.done():
                raise
            cancelled = True
        except TimeoutError:
            raise still_computing(
                "the computer's move takes longer than a request may wait; it carries on: ask again"
            ) from None
        return await answer(game, query.values, cancelled=cancelled)

    async def game_cancel(request: Request) -> Response:
        game = games.get(request.path_params["game_id"])
        query = _query(request, GameQuery)
        await _body(request, Nothing)
        job = game.thinking
        stopped = False
        if job is not None and not job.done():
            stopped = True
            if not pool.cancel(game.id):
                job.cancel()
            try:
                await asyncio.wait_for(asyncio.shield(job), 10)
            except (ThinkingCancelled, asyncio.CancelledError, TimeoutError):
                pass
        return await answer(game, query.values, cancelled=stopped)

    async def game_undo(request: Request) -> Response:
        game = games.get(request.path_params["game_id"])
        query = _query(request, GameQuery)
        data = await _body(request, TakeBack)
        _check_ply(game, data.ply)
        game.undo()
        return await answer(game, query.values)

    async def game_hint(request: Request) -> Response:
        """A move for the person to move: a proven best move where the solver reaches, else the move
        of a certificate of oxo's proof that covers the position, else the hard level's choice
        (thinking at most a second)."""
        game = games.get(request.path_params["game_id"])
        await _body(request, Nothing)
        state = game.state
        mover = state.to_move
        if mover is None:
            raise WebInputError("the game is over: there is no move to suggest")
        if game.players[mover] != "human":
            raise WebInputError(f"it is {mover.upper()}'s turn and {mover.upper()} is the computer")
        if isinstance(state, Position) and sessions.solvable(state.geometry):
            geometry = state.geometry
            solution = await compute(
                ("solve", geometry),
                f"solving {geometry.spec} (for a hint)",
                lambda: solutions.get(geometry),
            )
            best = solution.best_moves(state)
            entry = sessions.value_entry(
                sessions.relative_value(solution.value(state.play(best[0])), mover),
                solution.value(state.play(best[0])).plies + 1,
            )
            return JSONResponse(
                {
                    "move": best[0],
                    "moves": list(best),
                    "text": f"{best[0]}: {entry['text']} with best play (proven)",
                    "value": entry,
                }
            )
        if isinstance(state, Position):  # a certificate of oxo's proof, where one covers it
            proved = await run_in_threadpool(proofs.proof_hint, game.game.name, state)
            if proved is not None:
                return JSONResponse(proved)
        task = Task(
            f"{game.id}/hint",
            mover,
            "hard",
            game.start,
            state,
            min(game.seconds, 1.0),
            game.seed,
        )
        try:
            move, report = await asyncio.wait_for(pool.think(task), REQUEST_SECONDS)
        except ThinkingCancelled:
            raise still_computing("the hint was stopped; ask again") from None
        except TimeoutError:  # waited behind other searches, or searched, for too long
            raise still_computing(
                f"no hint within {REQUEST_SECONDS:g} s (the workers are busy with other moves); ask again"
            ) from None
        shown = game.shown(move, state)
        guess = (report or {}).get("expectation")
        text = f"{shown}: the hard level's choice after {(report or {}).get('seconds', 0)} s"
        if guess is not None:
            text += (
                f" (it expects {mover.upper()} to score {round(100 * guess)}%, a win counting 1 "
                "and a draw ½)"
            )
        return JSONResponse({"move": shown, "moves": [shown], "text": text, "value": None})

    # oxo's proofs ----------------------------------------------------------------------------

    def proved_entry(board: str | None, k: int | None) -> Any:
        """The proof book's row of a board named in a request (400 naming ``board`` when it is
        not a board, or oxo has not proved it)."""
        from oxo.book import book_entry

        text = _ascii("board", board)
        if text is None or not text.strip():
            raise WebInputError("board: give a board such as 8x8 (with k=5), 10x4 or qubic")
        try:
            name = find_game(text.strip(), k).name
        except OxoError as error:
            raise WebInputError(f"board: {error}") from None
        entry = book_entry(name)
        if entry is None:
            proved = ", ".join(row["id"] for row in proofs.proved_page_boards())
            raise WebInputError(
                f"board: oxo has proved nothing about {name}; the proved boards are {proved}"
            )
        return entry

    async def proofs_list(request: Request) -> Response:
        """Every board oxo has proved, with its certificates as they are on this machine."""
        from oxo.book import proved_boards as rows

        _query(request, Nothing)
        return JSONResponse({"boards": [proofs.board_proof(row.board, preparer) for row in rows()]})

    async def proof_one(request: Request) -> Response:
        """One board's proof (``"proof": null`` when oxo has not proved it), and for a board no one
        has published that oxo's long runs are proving, how far its run has got (``"open"``, as
        :func:`oxo.web.proofs.open_proof` gives it; null for any other board)."""
        query = _query(request, ProofQuery)
        text = _ascii("board", query.board) or ""
        try:
            name = find_game(text.strip(), query.k).name
        except OxoError as error:
            raise WebInputError(f"board: {error}") from None
        return JSONResponse(
            {
                "board": name,
                "proof": proofs.board_proof(name, preparer),
                "open": proofs.open_proof(name, preparer),
            }
        )

    async def proof_prepare(request: Request) -> Response:
        """Start preparing a certificate for perfect play (its index, once on this machine): a
        proved board's ``side``, or on a board being proved the certificate of a settled
        ``opening`` (``0-3``)."""
        data = await _body(request, PrepareProof)
        if data.opening is not None:
            return opening_prepare(data)
        if data.side is None:
            raise WebInputError("side: the side whose certificate to prepare (x or o) is missing")
        entry = proved_entry(data.board, data.k)
        side = (_ascii("side", data.side) or "").strip().lower()
        if side not in ("x", "o"):
            raise WebInputError(f"side: must be x or o, got {data.side[:40]!r}")
        from oxo.book.play import FORMATS

        certificate = entry.certificate_of(side)
        if certificate is None or certificate.format not in FORMATS:
            has = entry.playable_sides
            raise WebInputError(
                f"side: oxo's proof of {entry.board} ({entry.value_words}) has no certificate "
                f"to prepare for {side.upper()}"
                + (f"; it has one for {listing(s.upper() for s in has)}" if has else "")
            )
        preparer.start(entry, side)
        return JSONResponse(
            {"board": entry.board, "proof": proofs.board_proof(entry.board, preparer)}
        )

    def opening_prepare(data: PrepareProof) -> Response:
        """``POST /api/proofs/prepare`` with an ``opening``: its certificate's preparation."""
        text = _ascii("board", data.board) or ""
        try:
            name = find_game(text.strip(), data.k).name
        except OxoError as error:
            raise WebInputError(f"board: {error}") from None
        from oxo.book import board_with_openings

        try:
            opened = board_with_openings(name)
        except OxoError as error:
            raise WebInputError(f"board: {error}") from None
        try:
            opening = opened.settled_opening(_ascii("opening", data.opening) or "")
        except OxoError as error:
            raise WebInputError(f"opening: {error}") from None
        preparer.start_opening(opened, opening)
        return JSONResponse(
            {
                "board": name,
                "proof": proofs.board_proof(name, preparer),
                "open": proofs.open_proof(name, preparer),
            }
        )

    # explorer --------------------------------------------------------------------------------

    async def explore(request: Request) -> Response:
        position = _position(_query(request, ExploreQuery))
        key = (position.geometry.spec, position.to_status_string())
        data = explored.get(key)
        if data is None:

            def work() -> dict[str, Any]:  # kept even when the request gave up waiting
                return explored.put(key, explorer.explore(position, solutions))

            data = await compute(
                ("explore", key), f"exploring this {position.geometry.spec} position", work
            )
        return JSONResponse(data)

    async def count(request: Request) -> Response:
        query = _query(request, CountQuery)
        geometry = _geometry(query.board, query.k)
        explorer.check_countable(geometry)
        data = await compute(
            ("count", geometry),
            f"counting the positions of {geometry.spec}",
            lambda: explorer.count_chart(geometry),
        )
        return JSONResponse(data)

    async def strategy(request: Request) -> Response:
        """A side's strategy map on a board (:mod:`oxo.web.maps`), kept once drawn."""
        query = _query(request, MapQuery)
        geometry = _geometry(query.board, query.k)
        side = (_ascii("side", query.side) or "").strip().lower()
        if side not in ("x", "o"):
            raise WebInputError(f"side: must be x or o, got {query.side[:40]!r}")
        player: Player = "x" if side == "x" else "o"
        key = (geometry.spec, side)

        def work() -> tuple[int, bytes]:  # kept even when the request gave up waiting
            def draw() -> tuple[int, bytes]:
                solution = solutions.get(geometry) if sessions.solvable(geometry) else None
                try:
                    data = map_answer(geometry, player, solution)
                except OutOfReachError as error:  # kept too: finding it out may take seconds
                    return 422, bytes(JSONResponse({"error": " ".join(str(error).split())}).body)
                return 200, bytes(JSONResponse(data).body)

            return maps.get_or_compute(key, draw)

        kept = maps.get(key)
        if kept is None:
            kept = await compute(
                ("map", key), f"drawing the strategy map of {side.upper()} on {geometry.spec}", work
            )
        status, body = kept
        return Response(body, status_code=status, media_type="application/json")

    # errors ----------------------------------------------------------------------------------

    async def bad_input(request: Request, error: Exception) -> Response:
        status = (
            404
            if isinstance(error, GameNotFound)
            else 422
            if isinstance(error, OutOfReachError)
            else 400
        )
        return _error(status, " ".join(str(error).split()))

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        if error.status_code == 404:
            path = request.url.path
            if not path.startswith("/api/") and "text/html" in request.headers.get("accept", ""):
                return HTMLResponse(_not_found_page(path), status_code=404)
            detail = (
                f"no such page or endpoint: {path[:100]}; the endpoints are listed in docs/api.md"
            )
        else:
            detail = str(error.detail)
        return _error(error.status_code, detail, error.headers)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if prestart:  # in the background: the server answers while the workers load
            loop = asyncio.get_running_loop()
            loop.run_in_executor(None, pool.start)
            loop.run_in_executor(None, info_bytes)
        yield
        pool.close()
        preparer.close()

    game_path = "/api/games/{game_id:str}"
    routes = [
        Route("/", index),
        Route("/api/info", info),
        Route("/api/rules/mega", mega_rules),
        Route("/api/rules/uttt", uttt_rules),
        Route("/api/games", game_new, methods=["POST"]),
        Route(game_path, game_get),
        Route(f"{game_path}/move", game_move, methods=["POST"]),
        Route(f"{game_path}/ai", game_ai, methods=["POST"]),
        Route(f"{game_path}/cancel", game_cancel, methods=["POST"]),
        Route(f"{game_path}/undo", game_undo, methods=["POST"]),
        Route(f"{game_path}/hint", game_hint, methods=["POST"]),
        Route("/api/proofs", proofs_list),
        Route("/api/proof", proof_one),
        Route("/api/proofs/prepare", proof_prepare, methods=["POST"]),
        Route("/api/explore", explore),
        Route("/api/count", count),
        Route("/api/map", strategy),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(
        routes=routes,
        exception_handlers={
            OxoError: bad_input,
            OutOfReachError: bad_input,
            HTTPException: http_error,
        },
        lifespan=lifespan,
    )
    app.state.games = games
    app.state.thinkers = pool
    app.state.solutions = solutions
    app.state.preparer = preparer
    app.add_middleware(Guard, hosts=hosts or HostRule())
    return app


def _error(status: int, message: str, headers: Any = None) -> Response:
    """``{"error": message}`` with its status (any text, even one a client sent back broken)."""
    return Response(_json_bytes(status, message)[1], status, headers, "application/json")


def _check_ply(game: Game, ply: int | None) -> None:
    """409 when the sender saw another number of moves than the game has: another tab or window
    moved in it since (a move sent now would be the other side's)."""
    played = len(game.moves)
    if ply is not None and ply != played:
        raise HTTPException(
            409,
            f"ply: this was sent after {counted(ply, 'move')} of the game, but it has "
            f"{played} now (another tab or window moved in it); nothing was played: "
            "load the game again",
        )


def preparing_words(job: proofs.Preparation) -> str:
    """What the page says while the computer's move waits for its certificate (after "O
    (perfect) "): which file, how far, about how long is left."""
    data = job.to_dict()
    left = data["seconds_left"]
    when = "" if left is None else f", about {duration(max(1.0, left))} left"
    far = f"{round(100 * data['fraction'])} %" if data["total"] else "starting"
    return (
        f"is preparing its proof first: {job.side.upper()}'s certificate {job.file}, checked "
        f"and its moves put in a table, once on this machine ({far}{when})"
    )


def _consume(job: asyncio.Future[Any]) -> None:
    """Read a finished search's exception, so one nobody waited for is not reported as lost."""
    if not job.cancelled():
        job.exception()


def _not_found_page(path: str) -> str:
    return (
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'><title>Not found — oxo</title>"
        "<link rel='stylesheet' href='/static/style.css'></head><body><main>"
        f"<h1>Nothing here</h1><p>This server has no page at <code>{html.escape(path[:200])}</code>.</p>"
        "<p><a href='/'>Go to the oxo page</a> to play and explore tic-tac-toe.</p></main></body></html>"
    )
