"""The web app: a small JSON API over the library and the static page that calls it (ASGI, Starlette).

All game logic stays in Python; the page (``static/``: plain HTML, JS and CSS, no build step, nothing
fetched from the network) only draws what the API returns. The endpoints are documented in
``docs/api.md``. Bad input of any kind answers HTTP 400 with ``{"error": "<one line>"}``; an unknown
game id answers 404 the same way (the page then rebuilds the game from the moves it kept).
Long work (solving a board, counting, the mega AI's search) runs in a worker thread so the server
keeps answering while it runs.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from collections.abc import Callable
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from oxo.errors import OxoError
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.web import explore as explorer
from oxo.web import sessions
from oxo.web.sessions import (
    CLASSIC_PLAYERS,
    MAX_SECONDS,
    MEGA_PLAYERS,
    MIN_SECONDS,
    ClassicGame,
    GameNotFound,
    GameStore,
    MegaGame,
    SolutionCache,
    WebInputError,
    check_classic_setup,
    check_mega_setup,
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
        raise WebInputError("the request body is not JSON; send a JSON object such as {\"cell\": 4}") from None
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
        raise WebInputError(f"{name} is {len(value)} characters long; at most {MAX_TEXT} are accepted")
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
        raise WebInputError("give a position such as x...o.... or 100020000 (rows may be separated by '/')")
    board = _text(data, "board")
    k = _integer(data, "k")
    if k is not None and k < 1:
        raise WebInputError(f"k must be at least 1, got {k}")
    geometry = Geometry.parse(board, k) if board and board.strip() else None
    position = Position.from_string(text, geometry)
    if geometry is None and k is not None:
        position = Position(Geometry(position.geometry.shape, k), position.x, position.o)
    return position


def _players(data: dict[str, Any], choices: tuple[str, ...], defaults: tuple[str, str]) -> dict[str, str]:
    players = {}
    for side, default in zip(("x", "o"), defaults, strict=True):
        who = _text(data, side, default)
        if who not in choices:
            raise WebInputError(f"unknown player {who!r} for {side.upper()}; use one of {', '.join(choices)}")
        players[side] = who  # type: ignore[assignment]
    return players


async def _under_lock(game: Any, action: Callable[[], object] | None, **state: Any) -> Response:
    """Run ``action`` on a game under its lock in a worker thread, then answer with the game's state.

    Every game request goes through here, so no two requests change one game at once and slow
    work (solving, MCTS) never blocks the event loop.
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
    classic_games: GameStore[ClassicGame] = GameStore()
    mega_games: GameStore[MegaGame] = GameStore()

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def info(request: Request) -> Response:
        return JSONResponse(
            {
                "classic_players": list(CLASSIC_PLAYERS),
                "mega_players": list(MEGA_PLAYERS),
                "seconds": {"min": MIN_SECONDS, "max": MAX_SECONDS, "default": 1.0},
                "limits": {
                    "play_cells": sessions.MAX_PLAY_CELLS,
                    "solver_cells": sessions.MAX_EMPTY,
                    "explore_cells": explorer.MAX_EXPLORE_CELLS,
                },
            }
        )

    # classic ---------------------------------------------------------------------------------

    async def classic_new(request: Request) -> Response:
        data = await _body(request)
        geometry = _geometry(data, "3x3")
        players = _players(data, CLASSIC_PLAYERS, ("human", "perfect"))
        seed = _integer(data, "seed")
        moves = data.get("moves", [])
        if not isinstance(moves, list) or len(moves) > geometry.size:
            raise WebInputError(f"moves must be a list of at most {geometry.size} cell IDs")
        check_classic_setup(geometry, players)
        values = _flag(request, "values")

        def make() -> dict[str, Any]:
            game = ClassicGame(classic_games.new_id(), geometry, players, seed, solutions)
            for number, cell in enumerate(moves, start=1):
                if isinstance(cell, bool) or not isinstance(cell, int):
                    raise WebInputError(f"move {number} of moves must be a cell ID (a whole number), got {json.dumps(cell)[:40]}")
                game.play(cell, by_computer=True)
            classic_games.add(game)
            with game.lock:
                return game.to_dict(values=values)

        return JSONResponse(await run_in_threadpool(make))

    async def classic_get(request: Request) -> Response:
        game = classic_games.get(request.path_params["game_id"])
        return await _under_lock(game, None, values=_flag(request, "values"))

    async def classic_move(request: Request) -> Response:
        game = classic_games.get(request.path_params["game_id"])
        data = await _body(request)
        cell = _integer(data, "cell")
        if cell is None:
            raise WebInputError("give the cell to play, e.g. {\"cell\": 4}")
        return await _under_lock(game, lambda: game.play(cell), values=_flag(request, "values"))

    async def classic_ai(request: Request) -> Response:
        game = classic_games.get(request.path_params["game_id"])
        return await _under_lock(game, game.computer_move, values=_flag(request, "values"))

    async def classic_undo(request: Request) -> Response:
        game = classic_games.get(request.path_params["game_id"])
        return await _under_lock(game, game.undo, values=_flag(request, "values"))

    # mega ------------------------------------------------------------------------------------

    async def mega_new(request: Request) -> Response:
        data = await _body(request)
        players = _players(data, MEGA_PLAYERS, ("human", "mcts"))
        seconds = _number(data, "seconds", 1.0)
        seed = _integer(data, "seed")
        record = data.get("record", "")
        if isinstance(record, list):
            if len(record) > 81 or not all(isinstance(m, str) for m in record):
                raise WebInputError("record must be text such as \"55 44\" or a list of at most 81 moves such as [\"55\", \"44\"]")
            record = " ".join(record)
        if not isinstance(record, str) or len(record) > 81 * 4:
            raise WebInputError("record must be text such as \"55 44\" or a list of moves such as [\"55\", \"44\"]")
        check_mega_setup(players, seconds)

        def make() -> dict[str, Any]:
            from oxo.mega.rules import MegaState

            game = MegaGame(mega_games.new_id(), players, seconds, seed)
            game.state = MegaState.replay(record)
            mega_games.add(game)
            with game.lock:
                return game.to_dict()

        return JSONResponse(await run_in_threadpool(make))

    async def mega_get(request: Request) -> Response:
        game = mega_games.get(request.path_params["game_id"])
        with game.lock:
            return JSONResponse(game.to_dict())

    async def mega_move(request: Request) -> Response:
        game = mega_games.get(request.path_params["game_id"])
        data = await _body(request)
        move = data.get("move")
        if move is None:
            raise WebInputError("give the move to play in GC notation, e.g. {\"move\": \"55\"}")
        if isinstance(move, bool) or not isinstance(move, (str, int)):
            raise WebInputError(f"a move is text GC such as \"55\", got {json.dumps(move)[:40]}")
        return await _under_lock(game, lambda: game.play(move))

    async def mega_ai(request: Request) -> Response:
        game = mega_games.get(request.path_params["game_id"])
        return await _under_lock(game, game.computer_move)

    async def mega_undo(request: Request) -> Response:
        game = mega_games.get(request.path_params["game_id"])
        return await _under_lock(game, game.undo)

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
        detail = error.detail if error.status_code != 404 else f"no such page or endpoint: {request.url.path}"
        return JSONResponse({"error": detail}, status_code=error.status_code, headers=error.headers)

    async def server_error(request: Request, error: Exception) -> Response:
        return JSONResponse({"error": f"internal error ({type(error).__name__}); the server keeps running"}, status_code=500)

    game = "/{game_id:str}"
    routes = [
        Route("/", index),
        Route("/api/info", info),
        Route("/api/classic", classic_new, methods=["POST"]),
        Route(f"/api/classic{game}", classic_get),
        Route(f"/api/classic{game}/move", classic_move, methods=["POST"]),
        Route(f"/api/classic{game}/ai", classic_ai, methods=["POST"]),
        Route(f"/api/classic{game}/undo", classic_undo, methods=["POST"]),
        Route("/api/mega", mega_new, methods=["POST"]),
        Route(f"/api/mega{game}", mega_get),
        Route(f"/api/mega{game}/move", mega_move, methods=["POST"]),
        Route(f"/api/mega{game}/ai", mega_ai, methods=["POST"]),
        Route(f"/api/mega{game}/undo", mega_undo, methods=["POST"]),
        Route("/api/explore", explore),
        Route("/api/count", count),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(
        routes=routes,
        exception_handlers={OxoError: bad_input, HTTPException: http_error, Exception: server_error},
    )
