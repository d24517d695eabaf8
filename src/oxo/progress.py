"""The one progress interface: long library work reports to a sink; the sink shows it on stderr.

Two shapes, one behaviour: :func:`progress_bar` for work with a known end (units or fractions),
:func:`progress_status` for a status line (positions searched so far).

Library code takes either a :class:`ProgressSink` (``advance`` by units of work) or a
:data:`Reporter` (a callable given the fraction done, 0..1). Both come from the same object here:
:func:`progress_bar` yields a sink that is also a reporter, so a command writes
``with progress_bar(...) as bar: count(..., on_progress=bar)``.

On a terminal the sink draws a rich bar with the time left; when stderr is not a terminal (a log
file, a pipe, CI) it prints a plain line every few seconds (``counting 8x8: 35% after 12 s``), so
long work is never silent; with ``quiet`` it prints nothing. What is redrawn in place never runs
past the terminal's right edge (:func:`fit_width`): a line the terminal wraps would leave its first
row behind at every redraw.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any, Protocol

from oxo.phrases import duration

#: What library functions call with the fraction of the work done (0..1).
Reporter = Callable[[float], None]

#: Seconds between two plain progress lines when stderr is not a terminal.
PLAIN_INTERVAL = 5.0


class ProgressSink(Protocol):
    """What long-running library code reports to: ``advance`` by units of work, or call it with the
    fraction done."""

    def advance(self, amount: float = 1) -> None: ...

    def __call__(self, fraction: float) -> None: ...

    def note(self, text: str) -> None:
        """A line of news (a ply finished, say), printed above the bar, never glued onto it."""
        ...


class _Silent:
    def advance(self, amount: float = 1) -> None:
        return None

    def __call__(self, fraction: float) -> None:
        return None

    def note(self, text: str) -> None:
        return None


SILENT: ProgressSink = _Silent()


class _Sink:
    """Counts units done out of ``total`` and passes the news to a display."""

    def __init__(
        self, total: float, show: Callable[[float], None], say: Callable[[str], None]
    ) -> None:
        self.total = total
        self.done = 0.0
        self._show = show
        self._say = say

    def note(self, text: str) -> None:
        self._say(text)

    def advance(self, amount: float = 1) -> None:
        self.done += amount
        self._show(self.done)

    def __call__(self, fraction: float) -> None:
        self.done = max(self.done, fraction * self.total)
        self._show(self.done)


class _PlainLines:
    """A plain line on a stream every :data:`PLAIN_INTERVAL` seconds (and none for short work)."""

    def __init__(self, description: str, total: float, stream: IO[str], interval: float) -> None:
        self.description = description
        self.total = total
        self.stream = stream
        self.interval = interval
        self.started = time.monotonic()
        self.last = self.started

    def __call__(self, done: float) -> None:
        now = time.monotonic()
        if now - self.last < self.interval:
            return
        self.last = now
        share = 100 * done / self.total if self.total else 0.0
        elapsed = now - self.started
        left = ""
        if 0 < done < self.total:
            left = f", about {duration(elapsed * (self.total - done) / done)} left"
        self.stream.write(f"{self.description}: {share:.0f}% after {duration(elapsed)}{left}\n")
        self.stream.flush()


#: Where :func:`notice` sends its news: the sinks shells set with :func:`notices_to` (the last
#: one hears), each with the news it heard already.
_NOTICES: list[tuple[Callable[[str], None], set[str]]] = []


def notice(text: str) -> None:
    """News from deep in the library for the person waiting, that no result carries (machine code
    being compiled, once after install, say): given once to the sink the shell set with
    :func:`notices_to`; dropped when none was (a library call stays silent)."""
    if _NOTICES:
        sink, heard = _NOTICES[-1]
        if text not in heard:
            heard.add(text)
            sink(text)


@contextmanager
def notices_to(sink: Callable[[str], None]) -> Iterator[None]:
    """Send :func:`notice`'s news to ``sink`` inside the block, each piece once (the command line:
    a line on stderr)."""
    entry: tuple[Callable[[str], None], set[str]] = (sink, set())
    _NOTICES.append(entry)
    try:
        yield
    finally:
        _NOTICES.remove(entry)


def columns(stream: IO[str]) -> int:
    """The width of the terminal ``stream`` writes to: ``COLUMNS`` when set (as rich and the
    fitted output read it), else the terminal's own, else 80."""
    try:
        given = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        given = 0
    if given > 0:
        return given
    try:
        return os.get_terminal_size(stream.fileno()).columns or 80
    except (AttributeError, OSError, ValueError):  # not a real terminal (a test's stream)
        return 80


def fit_width(text: str, width: int) -> str:
    """``text`` cut to fit ``width - 1`` columns (an ellipsis marks the cut): a line redrawn in
    place must leave the last column free, or the terminal wraps it and the next redraw starts
    one row down."""
    room = max(1, width - 1)
    if len(text) <= room:
        return text
    return text[: room - 1] + "…"


@contextmanager
def progress_bar(
    description: str,
    total: float = 1.0,
    *,
    quiet: bool = False,
    stream: IO[str] | None = None,
    interval: float = PLAIN_INTERVAL,
) -> Iterator[ProgressSink]:
    """Progress on stderr: a rich bar on a terminal, plain lines every few seconds otherwise, nothing
    when ``quiet``. The sink takes ``advance(units)`` or a call with the fraction done."""
    if quiet:
        yield SILENT
        return
    out = stream if stream is not None else sys.stderr
    if not out.isatty():

        def line(text: str) -> None:
            out.write(text + "\n")
            out.flush()

        yield _Sink(total, _PlainLines(description, total, out, interval), line)
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    console = Console(file=out)
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

        def show(done: float, progress: Any = progress, task: Any = task) -> None:
            progress.update(task, completed=done)

        def say(text: str, progress: Any = progress) -> None:
            # Through the bar's own console: the line goes above the bar, which is drawn again below.
            progress.console.print(text, markup=False, highlight=False, soft_wrap=True)

        yield _Sink(total, show, say)


def _kind(text: str) -> str:
    """What a status line is about: its words before the first figure. Once a command has run
    for a few seconds, a line of another kind than the last (the run's time is up, say) is
    written at once; updates of one kind at most every few seconds."""
    return re.split(r"\d", text, maxsplit=1)[0]


@contextmanager
def progress_status(
    *, quiet: bool = False, stream: IO[str] | None = None, interval: float = PLAIN_INTERVAL
) -> Iterator[Callable[[str], None]]:
    """A one-line status for work measured in something other than a fraction (positions
    searched, say): rewritten in place on a terminal (cut to its width, :func:`fit_width`) and
    cleared at the end, a plain line every few seconds when stderr is not a terminal (and at once
    when it is of another kind than the last, :func:`_kind`), nothing when ``quiet``. The line is
    cleared before anything raised leaves the block, so a message printed for it (Ctrl-C's)
    starts on a clean line."""
    if quiet:
        yield lambda text: None
        return
    out = stream if stream is not None else sys.stderr
    if out.isatty():

        def rewrite(text: str) -> None:
            out.write(f"\r{fit_width(text, columns(out))}\033[K")
            out.flush()

        try:
            yield rewrite
        finally:
            out.write("\r\033[K")
            out.flush()
        return
    start = time.monotonic()
    last: list[Any] = [start, None]  # when a line was last written; the kind of the last status

    def plain(text: str) -> None:
        now, kind = time.monotonic(), _kind(text)
        new_kind = kind != last[1] and now - start >= interval  # a quick command stays quiet
        last[1] = kind
        if now - last[0] >= interval or new_kind:
            last[0] = now
            out.write(text + "\n")
            out.flush()

    yield plain
