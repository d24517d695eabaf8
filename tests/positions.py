"""Boards and positions for the tests: small boards to walk whole, a 3×3 grid's straights, a game
still going after random moves, the cell that blocks a side."""

from __future__ import annotations

import random

from oxo.geometry import Geometry
from oxo.position import Position

#: Boards whose whole game tree a plain walk covers in well under a second each: where the fast
#: counters are held to the walk.
SMALL_BOARDS = [
    "1x1",
    "1x3",
    "2x2",
    "2x3",
    "3x2",
    "2x4",
    "3x3",
    "3x3,k=2",
    "2x2,k=1",
    "3x4",
    "4x3",
    "3x4,k=2",
    "2x5",
    "2x5,k=2",
    "1x6,k=3",
    "2x2x2",
    "2x2x2,k=1",
]

#: The eight straights of a 3×3 grid (cells 0 to 8 in reading order), written out by hand: the
#: yardstick of the tests of the games played on nine grids.
STRAIGHTS = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


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
