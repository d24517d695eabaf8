"""Fast uniformly random games in pure Python: the engine's rules as a few mask operations per move.

:class:`oxo.mega.rules.MegaState` checks and records everything; the loop here keeps only the
bitboards and the current string in local variables, so one game at a time runs at well over
100,000 moves per second in CPython. It draws each move uniformly among all legal moves (not a
grid first, then a cell), exactly like :class:`oxo.engines.RandomEngine`, and the tests
replay its records through the engine. The compiled path is :mod:`oxo.mega.compiled`.
"""

from __future__ import annotations

import random as _random
from collections.abc import Callable
from dataclasses import dataclass

from oxo.mega.rules import POSITION_CELLS, MegaState
from oxo.ninegrids import GRID_CELLS, WINS

#: Outcome codes of the fast paths: 0 draw, 1 X wins, 2 O wins.
DRAW, X_WINS, O_WINS = 0, 1, 2

_POP = tuple(m.bit_count() for m in range(512))
_BITS = tuple(tuple(c for c in range(9) if m >> c & 1) for m in range(512))
_GRIDS = tuple(tuple((g, 9 * g) for g in range(9) if m >> g & 1) for m in range(512))


@dataclass(frozen=True)
class PlayoutResult:
    """How a random game ended: outcome code (0 draw, 1 X, 2 O), moves played, any abnormal string."""

    outcome: int
    moves: int
    abnormal: bool


def playout(
    rnd: Callable[[], float],
    mx: int = 0,
    mo: int = 0,
    cx: int = 0,
    co: int = 0,
    played: int = 0,
    used: int = 0,
    length: int = 9,
    count: int = 0,
    player: int = 0,
    record: list[int] | None = None,
) -> tuple[int, int, bool]:
    """Play uniformly random moves to the end from the given state; return (outcome, moves, abnormal).

    ``rnd`` returns floats in [0, 1) (``random.Random().random``). The state is the engine's:
    81-bit marks of X and O, 9-bit covered masks, the current string's played grids, used cell
    positions, length and move count, and the player to move (0 X, 1 O). ``abnormal`` is true
    when a string turned abnormal during this playout. Moves are appended to ``record`` if given.
    """
    g2c, p2c, wins, pop, bits, grids = GRID_CELLS, POSITION_CELLS, WINS, _POP, _BITS, _GRIDS
    n = 0
    abnormal = False
    while True:
        open_grids = ~(cx | co | played) & 511
        base = ~(mx | mo) & g2c[open_grids]
        if not base:
            return DRAW, n, abnormal
        legal = base & ~p2c[used]
        if not legal:
            legal = base
        r = int(rnd() * legal.bit_count())
        for g, shift in grids[open_grids]:  # noqa: B007 - g is the grid played, used after the loop
            chunk = (legal >> shift) & 511
            k = pop[chunk]
            if r < k:
                c = bits[chunk][r]
                break
            r -= k
        bit = 1 << c
        if record is not None:
            record.append(shift + c)
        if used & bit:
            abnormal = True
        if player:
            mo |= bit << shift
            if wins[(mo >> shift) & 511]:
                co |= 1 << g
                if wins[co]:
                    return O_WINS, n + 1, abnormal
        else:
            mx |= bit << shift
            if wins[(mx >> shift) & 511]:
                cx |= 1 << g
                if wins[cx]:
                    return X_WINS, n + 1, abnormal
        used |= bit
        played |= 1 << g
        n += 1
        count += 1
        if count == length:
            count = played = used = 0
            length = 9 - pop[cx | co]
        player ^= 1


def playout_from(
    state: MegaState, rnd: Callable[[], float], record: list[int] | None = None
) -> tuple[int, int, bool]:
    """:func:`playout` from an engine state (the state itself is not changed)."""
    if state.is_over:
        winner = state.winner
        return (X_WINS if winner == "x" else O_WINS if winner == "o" else DRAW), 0, False
    s = state
    return playout(
        rnd,
        s._marks[0],
        s._marks[1],
        s._covered[0],
        s._covered[1],
        s._played,
        s._used,
        s._length,
        s._count,
        s.player,
        record,
    )


def random_game(
    rng: _random.Random | None = None, record: list[int] | None = None
) -> PlayoutResult:
    """One uniformly random game from the start; ``abnormal`` tells whether any string was abnormal."""
    outcome, moves, abnormal = playout((rng or _random).random, record=record)
    return PlayoutResult(outcome, moves, abnormal)
