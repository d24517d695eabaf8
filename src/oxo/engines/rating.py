"""Elo ratings from game results: a maximum-likelihood fit with error bars, and the ratings of
oxo's levels measured by ``benchmarks/bench_elo.py``.

The model is the usual one behind Elo: a player rated ``d`` points above another is expected to
score ``1 / (1 + 10 ** (-d / 400))`` against it (a win counts 1, a draw ½, a loss 0). The fit finds
the ratings that make the observed scores likeliest (Newton's method on the log-likelihood, which
is concave), with one player held at a fixed rating (the *anchor*: only differences are measured).
Each pair that met also gets ``prior_draws`` imaginary drawn games (a mild pull towards equal
ratings), so a player that won every game still gets a finite rating: then the rating is what the
games support at least, not a measurement. Error bars are standard deviations from the curvature of
the log-likelihood at its maximum (the Fisher information), relative to the anchor.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np

from oxo.phrases import listing
from oxo.records import attributes

#: Elo points per unit of the natural log-odds of the expected score.
ELO_PER_NAT = 400 / math.log(10)
#: Imaginary draws added to every pair that played (see the module docstring).
PRIOR_DRAWS = 1.0


def expected_score(difference: float) -> float:
    """The expected score of a player ``difference`` Elo points above its opponent."""
    return 1 / (1 + 10 ** (-difference / 400))


@dataclass(frozen=True)
class Game:
    """One game's result: ``score`` is what ``first`` scored against ``second`` (1, ½ or 0)."""

    first: str
    second: str
    score: float


@dataclass(frozen=True)
class Ratings:
    """Fitted ratings: ``elo[name]`` and its standard deviation ``error[name]`` (0 for the anchor)."""

    elo: dict[str, float]
    error: dict[str, float]
    anchor: str
    anchor_elo: float
    games: int
    prior_draws: float

    def to_dict(self) -> dict[str, object]:
        return {
            **attributes(self, "anchor anchor_elo games prior_draws"),
            "elo": {name: round(value, 1) for name, value in self.elo.items()},
            "error": {name: round(value, 1) for name, value in self.error.items()},
        }


def _totals(
    games: Iterable[Game], names: Sequence[str], prior_draws: float
) -> tuple[np.ndarray, np.ndarray, int]:
    """Games played ``n[i, j]`` and points scored ``s[i, j]`` by ``i`` against ``j``, priors in."""
    index = {name: i for i, name in enumerate(names)}
    size = len(names)
    n = np.zeros((size, size))
    s = np.zeros((size, size))
    count = 0
    for game in games:
        if not 0 <= game.score <= 1:
            raise ValueError(f"a game's score is 0, 0.5 or 1, got {game.score}")
        if game.first == game.second:
            raise ValueError(f"{game.first!r} cannot play itself")
        i, j = index[game.first], index[game.second]
        n[i, j] += 1
        n[j, i] += 1
        s[i, j] += game.score
        s[j, i] += 1 - game.score
        count += 1
    met = n > 0
    n[met] += prior_draws
    s[met] += prior_draws / 2
    return n, s, count


def _connected(n: np.ndarray) -> bool:
    seen, todo = {0}, [0]
    while todo:
        i = todo.pop()
        for j in np.nonzero(n[i])[0]:
            if int(j) not in seen:
                seen.add(int(j))
                todo.append(int(j))
    return len(seen) == int(n.shape[0])


def log_likelihood(
    elo: dict[str, float], games: Iterable[Game], prior_draws: float = PRIOR_DRAWS
) -> float:
    """The log-likelihood of the results (priors included) under the ratings ``elo``."""
    names = list(elo)
    n, s, _ = _totals(games, names, prior_draws)
    total = 0.0
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if n[i, j]:
                p = expected_score(elo[a] - elo[b])
                total += s[i, j] * math.log(p)
    return total


def fit_elo(
    games: Iterable[Game],
    anchor: str,
    anchor_elo: float = 0.0,
    prior_draws: float = PRIOR_DRAWS,
    players: Sequence[str] | None = None,
) -> Ratings:
    """The maximum-likelihood Elo ratings of the players in ``games``, ``anchor`` held at
    ``anchor_elo``, with standard deviations from the Fisher information.

    Raises :class:`ValueError` when some player never met the others (directly or through
    opponents): its rating would mean nothing."""
    games = list(games)
    names = list(players) if players is not None else []
    for game in games:
        for name in (game.first, game.second):
            if name not in names:
                names.append(name)
    if anchor not in names:
        raise ValueError(f"the anchor {anchor!r} played no game")
    n, s, count = _totals(games, names, prior_draws)
    if not _connected(n):
        raise ValueError("the players do not all meet (directly or through opponents)")
    if prior_draws <= 0 and np.any((s == 0) & (n > 0)):
        raise ValueError("a player lost every game to another: give prior_draws > 0")
    size = len(names)
    a = names.index(anchor)
    free = [i for i in range(size) if i != a]
    r = np.zeros(size)  # natural units, anchor at 0
    for _ in range(200):
        p = 1 / (1 + np.exp(-(r[:, None] - r[None, :])))
        gradient = (s - n * p).sum(axis=1)
        weight = n * p * (1 - p)
        information = np.diag(weight.sum(axis=1)) - weight  # minus the Hessian
        reduced = information[np.ix_(free, free)]
        step = np.linalg.solve(reduced, gradient[free])
        r[free] += step
        if np.max(np.abs(step)) < 1e-12:
            break
    p = 1 / (1 + np.exp(-(r[:, None] - r[None, :])))
    weight = n * p * (1 - p)
    information = np.diag(weight.sum(axis=1)) - weight
    covariance = np.linalg.inv(information[np.ix_(free, free)])
    error = {anchor: 0.0}
    for k, i in enumerate(free):
        error[names[i]] = float(math.sqrt(covariance[k, k]) * ELO_PER_NAT)
    elo = {name: float(anchor_elo + r[i] * ELO_PER_NAT) for i, name in enumerate(names)}
    return Ratings(
        elo, {name: error[name] for name in names}, anchor, anchor_elo, count, prior_draws
    )


# -- the levels' measured strength -----------------------------------------------------------------


@cache
def level_ratings() -> dict[str, object]:
    """The ratings of the levels per game as ``benchmarks/bench_elo.py --write`` recorded them
    (``{}`` when no record ships)."""
    try:
        text = resources.files("oxo.engines").joinpath("ratings.json").read_text()
    except (FileNotFoundError, OSError):
        return {}
    data = json.loads(text)
    return data if isinstance(data, dict) else {}


def strength_text() -> str:
    """One paragraph for ``--help``: each level's Elo per game, from the recorded round robin."""
    data = level_ratings()
    games = data.get("games")
    if not isinstance(games, list) or not games:
        return ""
    parts = []
    tied: dict[tuple[str, ...], list[str]] = {}
    for entry in games:
        elo, bounds = entry["elo"], entry.get("lower_bounds", ())
        levels = ", ".join(
            f"{level} {'≥' if level in bounds else '≈'} {round(elo[level], -1):.0f}"
            for level in elo
            if level != data.get("anchor")
        )
        parts.append(f"{entry['game']}: {levels}")
        top = top_tie(entry)
        if len(top) > 1:
            tied.setdefault(top, []).append(entry["game"])
    ties = "".join(
        f" On {listing(names)}, {listing(levels)} tie within the "
        "margin: best play there is a draw, which each of them holds against the others, so the "
        "scale tops out."
        for levels, names in tied.items()
    )
    return (
        f"Strength of the levels in Elo points, random = 0 (a level 200 points above another "
        f"is expected to score {expected_score(200):.0%} against it, a draw counting half; from a "
        f"round robin with hard at {data['seconds']:g} s a move, medium a tenth; '≥': at least; "
        f"see docs/levels.md): " + "; ".join(parts) + "." + ties
    )


def top_tie(entry: Mapping[str, Any]) -> tuple[str, ...]:
    """The strongest levels of one game's recorded ratings that the round robin does not tell
    apart: those whose rating is within a third of the best one's margin of error of it (well
    inside the noise; a rating that is only a lower bound is never a tie), in order."""
    elo: dict[str, float] = entry["elo"]
    error: dict[str, float] = entry.get("error", {})
    if not elo or entry.get("lower_bounds"):
        return ()
    best = max(elo, key=lambda level: elo[level])
    close = error.get(best, 0.0) / 3
    return tuple(level for level in elo if elo[best] - elo[level] <= close)
