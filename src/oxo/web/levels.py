"""The levels as the page shows them: what each level does on every game (the library's words), and
on each board the page offers how each level plays there, whether ``perfect`` can start, and how
strong the level measured.

The strength is the Elo rating that ``oxo play --help`` and ``docs/levels.md`` give, read from the
same record (:func:`oxo.engines.rating.level_ratings`, written by ``benchmarks/bench_elo.py``) and
rounded as ``--help`` rounds it; a board the round robin did not play has no figure. How a level
plays is :meth:`oxo.registry.Game.describe_level`, and whether ``perfect`` can start is asked of the
engine itself (:func:`oxo.web.sessions.perfect_refusal`), so nothing here is a list typed by hand.
"""

from __future__ import annotations

from typing import Any

from oxo.engines import LEVELS
from oxo.engines import levels as levels_module
from oxo.engines.rating import expected_score, level_ratings
from oxo.errors import OxoError
from oxo.registry import Game, find_game
from oxo.web.sessions import perfect_refusal


def level_words() -> list[dict[str, str]]:
    """Each level and what it does on every game, in the words of :mod:`oxo.engines.levels` (its table)."""
    rows: list[dict[str, str]] = []
    for line in (levels_module.__doc__ or "").splitlines():
        if line.startswith("="):
            continue
        name = line.split(" ", 1)[0]
        if name in LEVELS:
            rows.append({"level": name, "words": " ".join(line[len(name) :].split())})
        elif rows and line.startswith(" ") and line.strip():
            rows[-1]["words"] += " " + " ".join(line.split())
    for row in rows:
        row["words"] = row["words"].replace("``", "")
    return rows


def rated_entry(game: Game) -> dict[str, Any] | None:
    """The recorded round robin of ``game`` (its levels' ``elo``, ``lower_bounds``), or None when
    the record has none for it (games are matched through the registry, as the record names them)."""
    entries = level_ratings().get("games")
    for entry in entries if isinstance(entries, list) else ():
        try:
            rated = find_game(str(entry["game"]))
        except (OxoError, KeyError):
            continue
        if rated == game:
            return dict(entry)
    return None


def strength(entry: dict[str, Any], level: str, anchor: str) -> dict[str, Any] | None:
    """A level's rating in one game's record: ``elo`` rounded to tens (as ``--help`` gives it),
    ``at_least`` when the record only bounds it from below, and ``text`` (``"≈ 550"``,
    ``"≥ 1,070"``, ``"0"`` for the reference level); None when the level was not rated there."""
    elo = entry.get("elo", {}).get(level)
    if elo is None:
        return None
    rounded = int(round(float(elo), -1))
    at_least = level in entry.get("lower_bounds", ())
    text = f"{rounded:,}" if level == anchor else f"{'≥' if at_least else '≈'} {rounded:,}"
    return {"elo": rounded, "at_least": at_least, "text": text}


def board_levels(game: Game) -> dict[str, Any]:
    """How each level of ``game`` plays from its first position: ``plays`` (the library's phrase),
    ``refused`` (why perfect cannot start, when it cannot), ``strength`` (None where not measured);
    and ``rated``, the name of the record's game when the board was measured."""
    start = game.start()
    entry = rated_entry(game)
    anchor = str(level_ratings().get("anchor", "random"))
    rows = []
    for level in game.levels:
        row: dict[str, Any] = {"level": level, "plays": game.describe_level(level, start)}
        row["refused"] = perfect_refusal(start) if level == "perfect" else None
        row["strength"] = strength(entry, level, anchor) if entry is not None else None
        rows.append(row)
    return {"levels": rows, "rated": None if entry is None else str(entry["game"])}


def strength_notes() -> dict[str, Any]:
    """How the ratings were measured, for the sentence under them: the anchor, the thinking time of
    hard in the round robin, and the expected score 200 points above an opponent."""
    data = level_ratings()
    return {
        "anchor": data.get("anchor"),
        "seconds": data.get("seconds"),
        "expected_at_200": round(expected_score(200), 2),
    }
