"""``oxo serve``: a local web page to play classic and mega tic-tac-toe and explore positions.

:func:`create_app` builds the ASGI app (Starlette); :func:`serve` runs it with uvicorn. The API is
documented in ``docs/api.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.applications import Starlette


def create_app() -> Starlette:
    """The ASGI app: JSON API under ``/api`` and the page at ``/``."""
    from oxo.web.app import create_app as make

    return make()


def bind(host: str = "127.0.0.1", port: int = 8000):  # type: ignore[no-untyped-def]
    """A listening socket for the server (port 0 picks a free port); raises OxoError when it cannot bind."""
    import socket

    from oxo.errors import OxoError

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise OxoError(f"cannot resolve host {host!r}: {error}") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as error:
        sock.close()
        raise OxoError(
            f"cannot listen on {host}:{port}: {error.strerror or error}; choose another --port"
        ) from None
    sock.listen(128)
    sock.set_inheritable(True)
    return sock


def url_of(sock) -> str:  # type: ignore[no-untyped-def]
    """The address people type into a browser for a bound socket."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    return f"http://{shown}:{port}/"


def make_server(sock, *, log_level: str = "warning"):  # type: ignore[no-untyped-def]
    """A uvicorn server for the app on an already bound socket: ``server.run(sockets=[sock])`` serves until
    ``server.should_exit`` is set (Ctrl-C sets it)."""
    import uvicorn

    config = uvicorn.Config(create_app(), log_level=log_level, lifespan="off", access_log=False)
    return uvicorn.Server(config)


def warm_up_in_background() -> None:
    """Load the compiled mega search in a background thread, so the AI's first move starts at once."""
    import threading

    def load() -> None:
        try:
            from oxo.mega import compiled

            compiled.warm_up()
        except Exception:  # pragma: no cover - a missing compiler only slows the first AI move
            pass

    threading.Thread(target=load, name="oxo-warm-up", daemon=True).start()
