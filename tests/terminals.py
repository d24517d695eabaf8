"""Running the command line in a pseudo-terminal of a given width, as a user at a terminal would,
and reading what the terminal would show: the tests of progress lines, wrapping and Ctrl-C."""

from __future__ import annotations

import fcntl
import os
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from dataclasses import dataclass

#: An escape sequence (colours, clearing a line, moving the cursor): no width on the screen.
_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07")


@dataclass(frozen=True)
class TerminalRun:
    """What a command did in the terminal: its exit status and every byte it wrote, decoded."""

    code: int
    output: str

    def pieces(self) -> list[str]:
        """The output between carriage returns and line ends, escape sequences removed: each piece
        is what the terminal draws from the first column before the cursor goes back to it."""
        return re.split(r"[\r\n]", _ESCAPE.sub("", self.output))

    def wider_than(self, columns: int) -> list[str]:
        """The pieces the terminal must wrap (a wrapped line redrawn in place leaves a row behind)."""
        return [piece for piece in self.pieces() if len(piece) > columns]

    def screen(self, columns: int, rows: int = 500) -> list[str]:
        """The lines a terminal ``columns`` wide shows at the end (drawn by the pyte emulator)."""
        import pytest

        pyte = pytest.importorskip("pyte")
        screen = pyte.Screen(columns, rows)
        pyte.ByteStream(screen).feed(self.output.replace("\n", "\r\n").encode())
        return [line.rstrip() for line in screen.display if line.strip()]


def run_in_terminal(
    args: list[str],
    columns: int = 80,
    seconds: float = 180,
    *,
    interrupt_on: str | None = None,
    typed: list[str] | None = None,
    python: str | None = None,
) -> TerminalRun:
    """Run ``oxo ARGS`` (or the ``python`` code given, with ARGS) in a pseudo-terminal ``columns``
    wide. With ``interrupt_on`` (a regular expression), press Ctrl-C once the output shows it
    (SIGINT to the command's process group, as a terminal does); ``typed`` lines are answered one
    at a time to prompts that wait."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, columns, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": str(columns)}
    process = subprocess.Popen(
        [sys.executable, "-c", python or "from oxo.cli import run; run()", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        start_new_session=True,
    )
    os.close(slave)
    answers = list(typed or [])
    pattern = None if interrupt_on is None else re.compile(interrupt_on)
    chunks: list[bytes] = []
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    data = os.read(master, 65536)
                except OSError:  # the other end closed: everything was read
                    break
                if not data:
                    break
                chunks.append(data)
                if pattern is not None and pattern.search(
                    b"".join(chunks).decode("utf-8", "replace")
                ):
                    pattern = None
                    os.killpg(process.pid, signal.SIGINT)
            elif process.poll() is not None:
                break
            elif answers and chunks and not chunks[-1].endswith(b"\n"):  # a prompt waits
                os.write(master, (answers.pop(0) + "\n").encode())
    finally:
        if process.poll() is None:
            process.kill()
        process.wait()
        os.close(master)
    return TerminalRun(process.returncode, b"".join(chunks).decode("utf-8", "replace"))
