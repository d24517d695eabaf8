"""``oxo compile``: compile oxo's searches into machine code now, rather than at their first use."""

from __future__ import annotations

import click

from oxo.cli.common import echo_json
from oxo.cli.options import json_option, quiet_option


@click.command(name="compile")
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Processes that compile side by side (default: one per core).",
)
@json_option
@quiet_option
def compile_command(workers: int | None, as_json: bool, quiet: bool) -> None:
    """Compile oxo's fast searches into machine code now, once after install.

    Each search (proofs, the gravity solver, the counters, the tree searches of ultimate and
    mega tic-tac-toe) is compiled the first time it runs, which can take a minute or more; the
    machine code is kept, and later runs load it at once. This command does that work now, so
    that no later command waits for it. Running it again only loads what is kept. It also writes
    Python's compiled form of oxo's modules (the __pycache__ folders, even where
    PYTHONDONTWRITEBYTECODE is set), so that every command starts faster.
    """
    from oxo.progress import progress_bar
    from oxo.warmup import FAMILIES, compile_searches

    with progress_bar("compiling oxo's searches", len(FAMILIES), quiet=quiet or as_json) as bar:
        done = compile_searches(workers, bar)
    if as_json:
        echo_json(done.to_dict())
        return
    for name, seconds in done.seconds.items():
        click.echo(f"{name}: ready ({seconds:.1f} s)")
    click.echo(f"all compiled searches are ready ({done.wall:.1f} s)")


COMMANDS = [compile_command]
