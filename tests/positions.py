"""Positions for the tests: a game still going after random moves; the cell that blocks a side."""

from __future__ import annotations

import random

from oxo.geometry import Geometry
from oxo.position import Position


def random_position(spec: str, plies: int, seed: int) -> Position:
    """A position of a game still going after up to ``plies`` random moves (the walk stops before
    a move that would end the game)."""
    rng = random.Random(seed)
    position = Position.empty(Geometry.parse(spec))
    for _ in range(plies):
        child = position.play(rng.choice(position.legal_moves))
        if child.is_over:
            break
        position = child
    return position


def blocking_x(position: Position) -> int | None:
    """A cell that completes a line of X's but one (where O blocks a threat), or None."""
    return blocking(position, "x")


def blocking(position: Position, side: str) -> int | None:
    """A cell that completes a line of ``side``'s but one (where the other side blocks a
    threat), or None."""
    own, other = (position.x, position.o) if side == "x" else (position.o, position.x)
    for line in position.geometry.lines:
        if line & other:
            continue
        rest = line & ~own
        if rest and rest & (rest - 1) == 0:
            return rest.bit_length() - 1
    return None
