"""Figures in words, one way everywhere: a list joined by commas and a last "and" or "or",
a count with its noun in the singular or the plural, and a duration in the unit that reads best."""

from __future__ import annotations

from collections.abc import Iterable


def listing(items: Iterable[object], conjunction: str = "and") -> str:
    """The items joined for a sentence: ``3``, ``3 and 15``, ``3, 15 and 63`` (``3, 15 or 63``
    with ``conjunction="or"``); ``""`` for none."""
    words = [str(item) for item in items]
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} {conjunction} {words[-1]}"


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """``count`` with its noun: ``1 move``, ``0 moves``, ``1,557 jobs``; ``plural`` where adding
    an s does not make it (``counted(3, "reply", "replies")``)."""
    return f"{count:,} {noun if count == 1 else plural or noun + 's'}"


def duration(seconds: float) -> str:
    """A duration in plain words: ``40 s``, ``12 min``, ``3.5 h``, ``2.1 days``."""
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.1f} h"
    if seconds < 365 * 86400:
        return f"{seconds / 86400:.1f} days"
    return f"{seconds / (365.25 * 86400):.3g} years"
