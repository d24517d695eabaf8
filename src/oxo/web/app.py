"""The web app: a small JSON API over the library and the static page that calls it (ASGI, Starlette).

All game logic stays in Python; the page (``static/``: plain HTML, JS and CSS, no build step, nothing
fetched from the network) only draws what the API returns. The endpoints are documented in
``docs/api.md``. Bad input of any kind answers HTTP 400 with ``{"error": "<one line>"}``; an unknown
game id answers 404 the same way (the page then rebuilds the game from the moves it kept).
Long work (solving a board, counting, the computer's search) runs in a worker thread so the server
keeps answering while it runs.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from oxo.engines import DEFAULT_LEVEL, DEFAULT_SECONDS, LEVELS
from oxo.engines.exact import PERFECT_LIMIT
from oxo.errors import OxoError
from oxo.game import GameState
from oxo.geometry import Geometry
from oxo.mega.rules import MegaState
from oxo.position import Position
from oxo.web import explore as explorer
from oxo.web import sessions
from oxo.web.sessions import (
    BOARDS,
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

STATIC = Path(__file__).parent / "static"
#: Largest request body read, in bytes, and longest text field.
MAX_BODY = 64_000
MAX_TEXT = 400


# -- reading requests -----------------------------------------------------------------------------------


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise WebInputError(f"the request body is {len(raw)} bytes; at most {MAX_BODY} are read")
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise WebInputError(
            'the request body is not JSON; send a JSON object such as {"move": 4}'
        ) from None
    if not isinstance(data, dict):
        raise WebInputError(f"the request body must be a JSON object, got {type(data).__name__}")
    return data


def _text(data: Any, name: str, default: str | None = None) -> str | None:
    value = data.get(name, default)
    if value is None:
        return None
    if not isinstance(value, str):
        raise WebInputError(f"{name} must be text, got {json.dumps(value)[:40]}")
    if len(value) > MAX_TEXT:
        raise WebInputError(
            f"{name} is {len(value)} characters long; at most {MAX_TEXT} are accepted"
        )
    return value


def _integer(data: Any, name: str, default: int | None = None) -> int | None:
    value = data.get(name, default)
    if value is None or value == "":
        return default
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and len(value) < 12:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise WebInputError(f"{name} must be a whole number, got {json.dumps(value)[:40]}")
    return value


def _number(data: Any, name: str, default: float) -> float:
    value = data.get(name, default)
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            raise WebInputError(f"{name} must be a number, got {value[:40]!r}") from None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise WebInputError(f"{name} must be a number, got {json.dumps(value)[:40]}")
    return float(value)


def _flag(request: Request, name: str) -> bool:
    return request.query_params.get(name, "").lower() in ("1", "true", "yes", "on")


def _geometry(data: Any, default: str | None = None) -> Geometry:
    board = _text(data, "board", default)
    if board is None or not board.strip():
        raise WebInputError("give a board such as 3x3, 4x4, 3x5, 4x4,k=3 or 3x3x3")
    k = _integer(data, "k")
    if k is not None and k < 1:
        raise WebInputError(f"k must be at least 1, got {k}")
    return Geometry.parse(board, k)


def _position(data: Any) -> Position:
    text = _text(data, "position")
    if text is None or not text.strip():
        raise WebInputError(
            "give a position such as x...o.... or 100020000 (rows may be separated by '/')"
        )
    board = _text(data, "board")
    k = _integer(data, "k")
    if k is not None and k < 1:
        raise WebInputError(f"k must be at least 1, got {k}")
    geometry = Geometry.parse(board, k) if board and board.strip() else None
    position = Position.from_string(text, geometry)
    if geometry is None and k is not None:
        position = Position(Geometry(position.geometry.shape, k), position.x, position.o)
    return position


def _start(data: dict[str, Any]) -> GameState:
    """The first state of the game a request asks for: ``kind`` classic (any ``board`` and ``k``) or mega."""
    board = _text(data, "board")
    kind = _text(data, "kind") or ("mega" if board == "mega" else "classic")
    if kind == "mega":
        if board not in (None, "mega") or data.get("k") is not None:
            raise WebInputError("a mega game has no board size nor k: leave board and k out")
        return MegaState()
    if kind != "classic":
        raise WebInputError(f"kind must be classic or mega, got {kind[:40]!r}")
    return Position.empty(_geometry(data, "3x3"))


async def _under_lock(game: Any, action: Callable[[], object] | None, **state: Any) -> Response:
    """Run ``action`` on a game under its lock in a worker thread, then answer with the game's state.

    Every game request goes through here, so no two requests change one game at once and slow
    work (solving, the computer's search) never blocks the event loop.
    """

    def run() -> dict[str, Any]:
        with game.lock:
            if action is not None:
                action()
            return game.to_dict(**state)

    return JSONResponse(await run_in_threadpool(run))


# -- the app --------------------------------------------------------------------------------------------


def create_app() -> Starlette:
    """A fresh app with its own game store and solution cache."""
    solutions = SolutionCache()
    games = GameStore()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def info(request: Request) -> Response:
        return JSONResponse(
            {
                "players": list(PLAYERS),
                "levels": list(LEVELS),
                "default_level": DEFAULT_LEVEL,
                "boards": list(BOARDS),
                "seconds": {"min": MIN_SECONDS, "max": MAX_SECONDS, "default": DEFAULT_SECONDS},
                "limits": {
                    "play_cells": sessions.MAX_PLAY_CELLS,
                    "values_cells": sessions.MAX_EMPTY,
                    "perfect_empty_cells": PERFECT_LIMIT,
                    "explore_cells": explorer.MAX_EXPLORE_CELLS,
                },
            }
        )

    # games -----------------------------------------------------------------------------------

    async def game_new(request: Request) -> Response:
        data = await _body(request)
        start = _start(data)
        players = check_players(data.get("players"))
        seconds = check_seconds(_number(data, "seconds", DEFAULT_SECONDS))
        seed = _integer(data, "seed")
        moves = data.get("moves", [])
        most = len(start.legal_moves)
        if not isinstance(moves, list) or len(moves) > most:
            raise WebInputError(
                f"moves must be a list of at most {most} moves, as the move endpoint takes them"
            )
        values = _flag(request, "values")

        def make() -> dict[str, Any]:
            game = Game(games.new_id(), start, players, seconds, seed, solutions)
            for move in moves:
                game.play(game.parse_move(move), by_computer=True)
            games.add(game)
            with game.lock:
                return game.to_dict(values=values)

        return JSONResponse(await run_in_threadpool(make))

    async def game_get(request: Request) -> Response:
        game = games.get(request.path_params["game_id"])
        return await _under_lock(game, None, values=_flag(request, "values"))

    async def game_move(request: Request) -> Response:
        game = games.get(request.path_params["game_id"])
        data = await _body(request)
        if data.get("move") is None:
            raise WebInputError(
                'give the move to play: a cell ID such as {"move": 4}, or GC text such as {"move": "55"} in mega'
            )
        move = game.parse_move(data["move"])
        return await _under_lock(game, lambda: game.play(move), values=_flag(request, "values"))

    async def game_ai(request: Request) -> Response:
        game = games.get(request.path_params["game_id"])
        return await _under_lock(game, game.computer_move, values=_flag(request, "values"))

    async def game_undo(request: Request) -> Response:
        game = games.get(request.path_params["game_id"])
        return await _under_lock(game, game.undo, values=_flag(request, "values"))

    # explorer --------------------------------------------------------------------------------

    async def explore(request: Request) -> Response:
        position = _position(request.query_params)
        return JSONResponse(await run_in_threadpool(explorer.explore, position, solutions))

    async def count(request: Request) -> Response:
        geometry = _geometry(request.query_params)
        explorer.check_countable(geometry)
        return JSONResponse(await run_in_threadpool(explorer.count_chart, geometry))

    # errors ----------------------------------------------------------------------------------

    async def bad_input(request: Request, error: Exception) -> Response:
        status = 404 if isinstance(error, GameNotFound) else 400
        return JSONResponse({"error": str(error)}, status_code=status)

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        detail = (
            error.detail
            if error.status_code != 404
            else f"no such page or endpoint: {request.url.path}"
        )
        return JSONResponse({"error": detail}, status_code=error.status_code, headers=error.headers)

    async def server_error(request: Request, error: Exception) -> Response:
        return JSONResponse(
            {"error": f"internal error ({type(error).__name__}); the server keeps running"},
            status_code=500,
        )

    game = "/{game_id:str}"
    routes = [
        Route("/", index),
        Route("/api/info", info),
        Route("/api/games", game_new, methods=["POST"]),
        Route(f"/api/games{game}", game_get),
        Route(f"/api/games{game}/move", game_move, methods=["POST"]),
        Route(f"/api/games{game}/ai", game_ai, methods=["POST"]),
        Route(f"/api/games{game}/undo", game_undo, methods=["POST"]),
        Route("/api/explore", explore),
        Route("/api/count", count),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(
        routes=routes,
        exception_handlers={
            OxoError: bad_input,
            HTTPException: http_error,
            Exception: server_error,
        },
    )
