"""``oxo serve``: a local web page to play classic and mega tic-tac-toe and explore positions.

:func:`create_app` builds the ASGI app (Starlette); :func:`serve` runs it with uvicorn. The API is
documented in ``docs/api.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import socket

    import uvicorn
    from starlette.applications import Starlette

    from oxo.web.app import HostRule


def create_app(hosts: HostRule | None = None, *, niceness: int | None = None) -> Starlette:
    """The ASGI app: JSON API under ``/api`` and the page at ``/`` (answering the Host names of ``hosts``,
    this machine's loopback names by default); the computer's searches run ``niceness`` lower than
    the server (:data:`oxo.web.thinking.NICENESS` unless given)."""
    from oxo.web.app import create_app as make
    from oxo.web.thinking import NICENESS

    return make(hosts, niceness=NICENESS if niceness is None else niceness)


def bind(host: str = "127.0.0.1", port: int = 8000) -> socket.socket:
    """A listening socket for the server (port 0 picks a free port); raises OxoError when it cannot bind."""
    import socket

    from oxo.errors import OxoError

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as error:
        raise OxoError(f"cannot resolve host {host!r}: {error}") from None
    family, kind, proto, _, address = infos[0]
    # The protocol must be TCP by name (not 0): asyncio then sets TCP_NODELAY on every accepted
    # connection, so keep-alive answers are not held back ~40 ms by Nagle's algorithm.
    sock = socket.socket(family, kind, proto or socket.IPPROTO_TCP)
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


def url_of(sock: socket.socket) -> str:
    """The address people type into a browser for a bound socket."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = "127.0.0.1"
    return f"http://{shown}:{port}/"


def make_server(
    sock: socket.socket,
    *,
    log_level: str = "warning",
    allow_hosts: tuple[str, ...] = (),
    niceness: int | None = None,
) -> uvicorn.Server:
    """A uvicorn server for the app on an already bound socket: ``server.run(sockets=[sock])`` serves until
    ``server.should_exit`` is set (Ctrl-C sets it). The app answers the Host names of the bound address
    (and ``allow_hosts``); connections idle for 5 s, or whose headers take over 10 s, are closed, at
    most 256 complete requests are served at once, and of the connections still sending their headers
    the slowest are evicted when too many wait (:mod:`oxo.web.protocol`). ``niceness``: how much
    lower than the server the computer's searches run (:data:`oxo.web.thinking.NICENESS` unless
    given)."""
    import uvicorn

    from oxo.web.app import HostRule
    from oxo.web.app import create_app as make_app
    from oxo.web.thinking import NICENESS

    hosts = HostRule.for_address(sock.getsockname()[0], allow_hosts)
    config = uvicorn.Config(
        make_app(hosts, prestart=True, niceness=NICENESS if niceness is None else niceness),
        log_level=log_level,
        lifespan="on",
        access_log=False,
        timeout_keep_alive=5,
        limit_concurrency=256,
        h11_max_incomplete_event_size=16_384,
        http=_protocol(),
    )
    return uvicorn.Server(config)


def _protocol() -> Any:
    """uvicorn's httptools protocol with a deadline for headers, or uvicorn's choice without httptools."""
    try:
        from oxo.web.protocol import TimedHttpToolsProtocol
    except ImportError:  # pragma: no cover - httptools is a dependency
        return "auto"
    return TimedHttpToolsProtocol


def warm_up_in_background() -> None:
    """Load the compiled mega search in a background thread (kept for callers of older versions:
    the computer's moves now run in worker processes, which load it themselves)."""
    import threading

    def load() -> None:
        try:
            from oxo.mega import compiled

            compiled.warm_up()
        except Exception:  # pragma: no cover - a missing compiler only slows the first AI move
            pass

    threading.Thread(target=load, name="oxo-warm-up", daemon=True).start()
