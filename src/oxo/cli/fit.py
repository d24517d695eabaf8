"""Text that fits the terminal: on a terminal, every line of plain text wider than it is broken
between words, so that a sentence, a list of moves or an error never runs past the right edge and
gets cut inside a word by the terminal (issue 30, item 14).

The command line also breaks its reports' sentences and lists (``label:   value`` lines) to 80
columns when the output is a file or a pipe (:func:`oxo.cli.common.echo_lines`): a long list reads
the same there; a one-line error stays one line. The break keeps the shape of the line: the
continuation lines start under the value of a line of the form ``label:   value`` (labels aligned
with two spaces or more), under the text of a list item (``- `` or ``* ``), else at the line's own
indent. Lines that draw something in place (a progress bar or a status line: carriage returns and
escape sequences) pass unchanged; this stream wraps only a terminal's output, and ``--json`` is
never touched.
"""

from __future__ import annotations

import re
import shutil
import textwrap
from typing import Any, TextIO

#: A list item: its bullet, the continuation goes under the text after it.
_BULLET = re.compile(r"^(\s*(?:[-*•]|\d+\.) )")
#: A label aligned with others: ``status:         X to move`` (two spaces or more after the colon).
_LABEL = re.compile(r"^(\s*[^\s:][^:]{0,40}:\s{2,})\S")


def continuation(line: str) -> str:
    """The indent of the lines a long ``line`` continues on."""
    for pattern in (_BULLET, _LABEL):
        found = pattern.match(line)
        if found:
            return " " * len(found.group(1))
    return line[: len(line) - len(line.lstrip(" "))]


def fit_line(line: str, width: int, hanging: int = 0, cut: bool = True) -> str:
    """``line`` broken between words into lines of at most ``width`` characters (a word longer
    than a line is cut, unless not ``cut``: a path or a digest in a file stays whole), or as it
    is when it fits or draws in place. ``hanging``: columns the continuation lines go further in
    than the line's indent (where no label or bullet sets it), so that a list whose items are
    plain lines keeps its items apart."""
    if len(line) <= width or "\x1b" in line or "\r" in line or "\t" in line:
        return line
    lead = line[: len(line) - len(line.lstrip(" "))]
    indent = continuation(line)
    if indent == lead:
        indent = lead + " " * hanging
    if len(indent) > width // 2:  # too little room under the label: continue at the line's indent
        indent = lead
    return "\n".join(
        textwrap.wrap(
            line[len(lead) :],
            width=width,
            initial_indent=lead,
            subsequent_indent=indent,
            break_on_hyphens=False,  # cell lists such as 0-1-2-3 stay whole
            break_long_words=cut,
        )
    )


class FittingStream:
    """A text stream that writes to ``stream``, breaking lines wider than the terminal (or than
    ``width``, when given).

    Whole lines are kept until their end comes; a flush (a prompt waiting for an answer, a progress
    bar) writes what is kept as it is."""

    def __init__(self, stream: TextIO, width: int | None = None) -> None:
        self._stream = stream
        self._partial = ""
        self._fixed = width

    def _width(self) -> int:
        """The terminal's width now (it may change while the command runs)."""
        if self._fixed is not None:
            return self._fixed
        return max(20, shutil.get_terminal_size((80, 24)).columns)

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # as a text stream would: click checks bytes are refused
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if "\x1b" in text or "\r" in text:  # drawn in place: now, untouched
            self.flush()
            return self._stream.write(text)
        *whole, self._partial = (self._partial + text).split("\n")
        if whole:
            width = self._width()
            self._stream.write("".join(fit_line(line, width) + "\n" for line in whole))
        return len(text)

    def flush(self) -> None:
        if self._partial:
            self._stream.write(self._partial)
            self._partial = ""
        self._stream.flush()

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding, errors, buffer, ...
        return getattr(self._stream, name)
