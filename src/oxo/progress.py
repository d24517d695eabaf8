"""Progress bars on stderr for long work; silent when stderr is not a terminal or when asked."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol


class ProgressSink(Protocol):
    """What long-running library code reports to: ``advance`` by some units of work."""

    def advance(self, amount: float = 1) -> None: ...


class _Silent:
    def advance(self, amount: float = 1) -> None:
        return None


SILENT: ProgressSink = _Silent()


class _RichSink:
    def __init__(self, progress, task) -> None:  # type: ignore[no-untyped-def]
        self._progress = progress
        self._task = task

    def advance(self, amount: float = 1) -> None:
        self._progress.advance(self._task, amount)


@contextmanager
def progress_bar(description: str, total: float, *, quiet: bool = False) -> Iterator[ProgressSink]:
    """A rich progress bar on stderr with time left, or a silent sink when quiet or not a TTY."""
    if quiet or not sys.stderr.isatty():
        yield SILENT
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        TextColumn("{task.percentage:>3.0f}%"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task(description, total=total)
        yield _RichSink(progress, task)
