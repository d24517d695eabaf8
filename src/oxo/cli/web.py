"""``oxo serve``: the local web page to play classic and mega tic-tac-toe and explore positions."""

from __future__ import annotations

import click


@click.command()
@click.option(
    "--port",
    "-p",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port to listen on (0: any free port).",
)
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on; the default serves this machine only.",
)
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="Also answer requests addressed to this host name (repeatable). By default the page answers "
    "only to the address it listens on (and this machine's names), which keeps other web sites out.",
)
@click.option(
    "--open", "open_browser", is_flag=True, help="Open the page in the default web browser."
)
def serve(port: int, host: str, allow_hosts: tuple[str, ...], open_browser: bool) -> None:
    """Serve the play-and-explore page until Ctrl-C.

    Games on 3x3, 4x4, 5x5, 6x7, 3x3x3, 4x4x4, 15x15 (gomoku) and mega tic-tac-toe, against a
    person or the computer at any level, and an explorer of positions (symmetry class, cell and
    alignment classes, dead lines, winnability, best moves, counts per ply). Everything runs
    locally; the page needs no network. The computer thinks in two background processes, so the
    page keeps answering while it does. The JSON API is described in docs/api.md.

    Example: oxo serve --port 8000 --open
    """
    from oxo.web import bind, make_server, url_of

    sock = bind(host, port)
    url = url_of(sock)
    click.echo(f"oxo: serving on {url} (Ctrl-C to stop)")
    if host not in ("127.0.0.1", "localhost", "::1"):
        click.echo("oxo: note: the page is reachable from other machines on this network", err=True)
    if open_browser:
        import threading
        import webbrowser

        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    server = make_server(sock, allow_hosts=allow_hosts)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn shuts down cleanly, then passes Ctrl-C on
        pass
    finally:
        sock.close()
    click.echo("oxo: stopped")


COMMANDS = [serve]
