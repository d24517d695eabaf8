"""Options and helpers for long commands (count, games, terminal): memory, estimates, clean stops."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click

from oxo.counting.budget import (
    Estimate,
    MemoryLimitError,
    default_memory_limit,
    format_bytes,
    parse_memory,
)
from oxo.errors import OutOfReachError
from oxo.progress import ProgressSink, progress_bar

#: Work predicted to take longer than this asks first (or needs --yes).
ASK_AFTER_SECONDS = 60.0

#: Work predicted to take longer than this is refused outright: out of reach on this machine.
REFUSE_AFTER_SECONDS = 365 * 86400.0


def memory_option(function):
    """``--memory SIZE``: the most memory the command and its workers may use."""
    return click.option(
        "--memory",
        "memory_text",
        default=None,
        metavar="SIZE",
        help="Most memory the command and its workers may use, e.g. 8G or 512M (default: half "
        "of the memory available, at most 8G). Past it the work stops with a message.",
    )(function)


def yes_option(function):
    """``--yes``: start work predicted to be long without asking."""
    return click.option(
        "--yes",
        "-y",
        is_flag=True,
        help="Start work predicted to take over a minute without asking.",
    )(function)


def memory_limit(memory_text: str | None) -> int:
    """The memory limit in bytes from ``--memory`` (bad sizes raise an input error)."""
    return default_memory_limit() if memory_text is None else parse_memory(memory_text)


def check_estimate(
    what: str,
    estimate: Estimate,
    limit: int,
    *,
    yes: bool,
    smaller: str,
    details: list[str] | None = None,
) -> None:
    """Refuse work that would pass the memory limit; ask before work over a minute (or need --yes).

    ``smaller`` says how to run a smaller part; ``details`` are extra lines (an estimate per ply).
    """
    if estimate.memory > limit:
        raise MemoryLimitError(
            f"{what} would need about {format_bytes(estimate.memory)} of memory, more than the limit of "
            f"{format_bytes(limit)}: give more with --memory, or {smaller}"
        )
    if estimate.seconds > REFUSE_AFTER_SECONDS:
        for line in details or []:
            click.echo(f"  {line}", err=True)
        raise OutOfReachError(
            f"{what} would take {estimate.describe()}: out of reach on this machine; {smaller}"
        )
    if yes or estimate.seconds <= ASK_AFTER_SECONDS:
        return
    click.echo(f"{what}: estimated {estimate.describe()}", err=True)
    for line in details or []:
        click.echo(f"  {line}", err=True)
    if sys.stdin.isatty() and sys.stderr.isatty():
        if click.confirm("Start it?", default=False, err=True):
            return
        click.echo(f"oxo: not started; --yes starts it without asking, or {smaller}", err=True)
        raise click.exceptions.Exit(1)
    raise OutOfReachError(
        f"{what} is estimated to take {estimate.describe()}; run again with --yes to start it, "
        f"or {smaller}"
    )


@contextmanager
def estimated_work(
    what: str,
    estimate: Estimate,
    limit: int,
    *,
    yes: bool,
    smaller: str,
    label: str,
    quiet: bool,
) -> Iterator[ProgressSink]:
    """Work that starts only once its ``estimate`` passes :func:`check_estimate` (``what`` and
    ``smaller`` worded as there), then runs under a progress bar ``label`` within the memory
    ``limit`` (a count that comes to pass it stops)."""
    from oxo.counting.budget import MemoryGuard

    check_estimate(what, estimate, limit, yes=yes, smaller=smaller)
    with progress_bar(label, quiet=quiet) as bar, MemoryGuard(limit):
        yield bar


@contextmanager
def clean_stop() -> Iterator[None]:
    """One Ctrl-C stops the command and its workers: one line on stderr, exit status 130."""
    try:
        yield
    except KeyboardInterrupt:
        click.echo("oxo: interrupted", err=True)
        raise click.exceptions.Exit(130) from None
