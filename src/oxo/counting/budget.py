"""Limits of long counts: the memory a count may use, a guard that enforces it, and estimates.

The memory limit covers the whole count: this process and every worker it started. The default is
a safe share of the machine (half of the memory available when the count starts, at most 8 GiB).
:class:`MemoryGuard` watches the resident memory of the process tree a few times a second and, past
the limit, stops the workers and the count with :class:`MemoryLimitError` (exit status 3 on the
command line) instead of letting the machine swap or the kernel kill something else.
"""

from __future__ import annotations

import math
import os
import re
import signal
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from oxo.errors import OptionError, OutOfReachError
from oxo.phrases import duration
from oxo.records import record

GiB = 1 << 30
MiB = 1 << 20

_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)
_UNITS = {"": 1, "k": 1 << 10, "m": MiB, "g": GiB, "t": 1 << 40}


#: A memory size such as 8G could not be read (one of the kinds of error of :mod:`oxo.errors`).
MemorySpecError = OptionError


#: A count needs, or came to use, more memory than allowed (one of the kinds of error of :mod:`oxo.errors`).
MemoryLimitError = OutOfReachError


def parse_memory(text: str) -> int:
    """Bytes from a size such as ``8G``, ``8GiB``, ``512M``, ``1.5g`` or a plain number of bytes."""
    match = _SIZE.match(text)
    if not match:
        raise MemorySpecError(
            f"cannot read {text!r} as a memory size: write a number with K, M, G or T, such as 8G or 512M"
        )
    value = int(float(match.group(1)) * _UNITS[match.group(2).lower()])
    if value < 64 * MiB:
        raise MemorySpecError(f"{text!r} is too little memory for a count: give at least 64M")
    return value


def format_bytes(count: float) -> str:
    """A size in plain words: ``1.5 GiB``, ``300 MiB``."""
    if count >= 1 << 50:
        return f"{count / (1 << 50):.3g} PiB"
    if count >= 1 << 40:
        return f"{count / (1 << 40):.1f} TiB"
    if count >= GiB:
        return f"{count / GiB:.1f} GiB"
    return f"{max(count, 0) / MiB:.0f} MiB"


def available_memory() -> int:
    """Memory available to new work now (``MemAvailable``), or 8 GiB where it cannot be read."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 8 * GiB


def default_memory_limit() -> int:
    """A safe share of this machine: half of the available memory, at most 8 GiB."""
    return min(8 * GiB, available_memory() // 2)


def _children(pid: int) -> list[int]:
    found: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            text = (task / "children").read_text().split()
            found.extend(int(child) for child in text)
    except OSError:
        pass
    return found


def _rss(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def descendants(pid: int | None = None) -> list[int]:
    """Every process started by ``pid`` (default: this one), their children, and so on."""
    todo = [os.getpid() if pid is None else pid]
    out: list[int] = []
    while todo:
        for child in _children(todo.pop()):
            out.append(child)
            todo.append(child)
    return out


def tree_memory(pid: int | None = None) -> int:
    """Resident memory of a process and all its descendants, in bytes (0 where /proc is missing)."""
    root = os.getpid() if pid is None else pid
    return _rss(root) + sum(_rss(child) for child in descendants(root))


@dataclass
class MemoryGuard:
    """Stops the count when this process and its workers use more than ``limit`` bytes.

    Use as a context manager around the work: past the limit the workers are killed and the main
    thread is interrupted; leaving the block then raises :class:`MemoryLimitError`. Only processes
    started inside the block are killed: those this process had before (multiprocessing's resource
    tracker, a server's or a caller's own pool) are spared.
    """

    limit: int
    interval: float = 0.25
    #: What is stopped and what to try instead, for the message.
    what: str = "the count"
    advice: str = "give more with --memory (for example --memory 16G) or count fewer plies"
    peak: int = 0
    tripped: bool = False
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _spared: frozenset[int] = frozenset()

    def __enter__(self) -> MemoryGuard:
        self._spared = frozenset(descendants())
        if Path("/proc/self/status").exists():
            self._thread = threading.Thread(
                target=self._watch, name="oxo-memory-guard", daemon=True
            )
            self._thread.start()
        return self

    def _watch(self) -> None:
        import _thread

        while not self._stop.wait(self.interval):
            used = tree_memory()
            self.peak = max(self.peak, used)
            if used > self.limit:
                self.tripped = True
                for child in descendants():
                    if child in self._spared:
                        continue
                    try:
                        os.kill(child, signal.SIGKILL)
                    except OSError:
                        pass
                _thread.interrupt_main()
                return

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join()
        if self.tripped:
            raise MemoryLimitError(
                f"stopped: {self.what} came to use more than {format_bytes(self.limit)}, the memory "
                f"limit; {self.advice}"
            ) from None


@dataclass(frozen=True)
class Estimate:
    """What a count is predicted to cost before it starts."""

    seconds: float
    memory: int
    disk: int = 0
    note: str = ""

    def describe(self) -> str:
        parts = [f"about {duration(self.seconds)}", f"{format_bytes(self.memory)} of memory"]
        if self.disk:
            parts.append(f"{format_bytes(self.disk)} on disk")
        text = ", ".join(parts)
        return f"{text} ({self.note})" if self.note else text

    def to_dict(self) -> dict[str, object]:
        return record(
            self, {"memory": "memory_bytes", "disk": "disk_bytes"}, seconds=round(self.seconds, 1)
        )


@dataclass(frozen=True)
class MemoryPlyEstimate:
    """An upper bound on one ply of a count held in memory ply by ply (the gravity counts), and the
    time and memory it would take (a frontier count on disk has its own, frontier.PlyEstimate)."""

    ply: int
    positions_at_most: int
    seconds: float
    memory: int

    def to_dict(self) -> dict[str, object]:
        return record(self, {"memory": "memory_bytes"}, seconds=round(self.seconds, 1))


def ply_by_ply(plies: Sequence[MemoryPlyEstimate], base: int, note: str) -> Estimate:
    """The estimate of a count that goes ply by ply, keeping a ply or two at a time: the plies'
    times added, and ``base`` (the interpreter and numpy) with the most any one ply needs."""
    return Estimate(
        sum(p.seconds for p in plies), base + max((p.memory for p in plies), default=0), note=note
    )


def plies_within(plies: Sequence[MemoryPlyEstimate], base: int, seconds: float, memory: int) -> int:
    """The last ply of ``plies`` a count reaches within ``seconds`` and ``memory`` bytes."""
    reach, spent = 0, 0.0
    for p in plies:
        spent += p.seconds
        if spent > seconds or base + p.memory > memory:
            break
        reach = p.ply
    return reach


def column_fill_bounds(columns: int, height: int, last: int) -> list[int]:
    """For each ply 0..``last`` of a board with gravity (``columns`` columns of ``height`` cells),
    at most how many positions it holds: the ways to fill the columns to heights adding up to the
    ply, times the ways to choose which of the marks are X's (every reachable position is one of
    them), and never more than each position of the ply before followed by each column."""
    size = columns * height
    last = min(last, size)
    # heights[p]: the ways to give the columns heights (0..height each) that add up to p.
    heights = [1] + [0] * size
    for _ in range(columns):
        following = [0] * (size + 1)
        for total, ways in enumerate(heights):
            if ways:
                for h in range(min(height, size - total) + 1):
                    following[total + h] += ways
        heights = following
    bounds = [1]
    for ply in range(1, last + 1):
        bounds.append(min(heights[ply] * math.comb(ply, (ply + 1) // 2), bounds[-1] * columns))
    return bounds
