"""Compiled (numba) paths of ultimate tic-tac-toe: the rules kernel, random playouts, batches of
random games, and the Monte Carlo tree search shared with mega tic-tac-toe built over this kernel.

Nothing compiles until a function is first called, and numba's on-disk cache (``cache=True``)
lets later processes load the machine code in well under a second.

A position is an ``int64`` array of :data:`STATE_SIZE` slots, cheap to copy: ``[0..8]`` X's marks
per small grid (9 bits each), ``[9..17]`` O's, ``[18]``/``[19]`` grids won by X/O, ``[20]`` closed
grids (won or full), ``[21]`` the grid the side to move must play in (-1: any open grid), ``[22]``
the side to move (0 X, 1 O), ``[23]`` status (0 playing, 1 X won, 2 O won, 3 draw), ``[24]`` moves
played. The random generator is xoshiro128+ on four 32-bit words kept in an ``int64`` array; its
arithmetic stays below 2**63, so the functions give the same moves uncompiled (``.py_func``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from oxo.compiled import DRAWN as _DRAWN
from oxo.compiled import PLAYING as _PLAYING
from oxo.compiled import POP as _POP
from oxo.compiled import SELECT as _SELECT
from oxo.compiled import below, make_tree_search, warm_up_search
from oxo.compiled import make_rng as make_rng  # the search driver and self-play seed it here
from oxo.compiled import next32 as next32  # re-exported for the tests' uncompiled reference
from oxo.ninegrids import WINS

STATE_SIZE = 32
XWON, OWON, CLOSED, TARGET, TURN, STATUS, MOVES = 18, 19, 20, 21, 22, 23, 24
PLAYING, X_WON, O_WON, DRAWN = 0, 1, 2, 3
assert (PLAYING, DRAWN) == (_PLAYING, _DRAWN)  # the shared search reads these codes

_WIN = np.array(WINS, dtype=np.bool_)


# -- rules --------------------------------------------------------------------------------------------


def new_state() -> np.ndarray:
    """The empty board as a state array."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    st[TARGET] = -1
    return st


def state_from(state: Any) -> np.ndarray:
    """The state array of a :class:`UtttState`."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    for p, marks in enumerate((state.x_marks, state.o_marks)):
        for g in range(9):
            st[9 * p + g] = (marks >> (9 * g)) & 511
    st[XWON], st[OWON] = state.won_grids
    st[CLOSED] = state.closed_grids
    target = state.target
    st[TARGET] = -1 if target is None else target
    st[TURN] = state.player
    st[STATUS] = {None: PLAYING, "x": X_WON, "o": O_WON, "draw": DRAWN}[state.outcome]
    st[MOVES] = state.move_count
    return st


@njit(cache=True)
def legal_moves(st: np.ndarray, out: np.ndarray) -> int:
    """Write the legal moves (0..80, ascending) into ``out`` and return how many (0: game over)."""
    if st[STATUS] != PLAYING:
        return 0
    n = 0
    t = st[TARGET]
    for g in range(9):
        if (t < 0 and not (st[CLOSED] >> g) & 1) or g == t:
            free = ~(st[g] | st[9 + g]) & 511
            for c in range(9):
                if free >> c & 1:
                    out[n] = 9 * g + c
                    n += 1
    return n


@njit(cache=True)
def apply_move(st: np.ndarray, m: int) -> None:
    """Play a legal move (not checked) for the side to move; update won grids, target and status."""
    g = m // 9
    c = m - 9 * g
    p = st[TURN]
    slot = 9 * p + g
    st[slot] |= 1 << c
    if _WIN[st[slot]]:
        st[XWON + p] |= 1 << g
        st[CLOSED] |= 1 << g
    elif (st[g] | st[9 + g]) == 511:
        st[CLOSED] |= 1 << g
    st[MOVES] += 1
    if _WIN[st[XWON + p]]:
        st[STATUS] = X_WON + p
    elif st[CLOSED] == 511:
        st[STATUS] = DRAWN
    if (st[CLOSED] >> c) & 1:
        st[TARGET] = -1
    else:
        st[TARGET] = c
    st[TURN] = 1 - p


@njit(cache=True)
def random_move(st: np.ndarray, rng: np.ndarray) -> int:
    """A legal move drawn uniformly (count the empty cells per grid, pick the r-th); -1 if none."""
    if st[STATUS] != PLAYING:
        return -1
    t = st[TARGET]
    if t >= 0:
        free = ~(st[t] | st[9 + t]) & 511
        return 9 * t + _SELECT[free, below(rng, _POP[free])]
    closed = st[CLOSED]
    n = 0
    for g in range(9):
        if not (closed >> g) & 1:
            n += _POP[~(st[g] | st[9 + g]) & 511]
    r = below(rng, n)
    for g in range(9):
        if not (closed >> g) & 1:
            free = ~(st[g] | st[9 + g]) & 511
            k = _POP[free]
            if r < k:
                return 9 * g + _SELECT[free, r]
            r -= k
    return -1  # unreachable: an open grid has an empty cell


@njit(cache=True)
def playout(st: np.ndarray, rng: np.ndarray) -> int:
    """Play uniformly random moves on ``st`` until the game ends; return the status (1, 2 or 3)."""
    while st[STATUS] == PLAYING:
        apply_move(st, random_move(st, rng))
    return st[STATUS]


@njit(cache=True)
def random_game_record(rng: np.ndarray, record: np.ndarray) -> int:
    """Play one random game from the start, writing its moves into ``record``; return how many."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    st[TARGET] = -1
    while st[STATUS] == PLAYING:
        m = random_move(st, rng)
        record[st[MOVES]] = m
        apply_move(st, m)
    return st[MOVES]


@njit(cache=True)
def random_games(games: int, rng: np.ndarray) -> np.ndarray:
    """Play ``games`` random games; return [draws, X wins, O wins, total moves]."""
    totals = np.zeros(4, dtype=np.int64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    for _ in range(games):
        st[:] = 0
        st[TARGET] = -1
        status = playout(st, rng)
        totals[status % 3] += 1
        totals[3] += st[MOVES]
    return totals


# -- Monte Carlo tree search ------------------------------------------------------------------------


@njit(cache=True)
def _search_playout(st: np.ndarray, rng: np.ndarray, buf: np.ndarray) -> int:
    """:func:`playout` in the form the shared search calls (it needs no move buffer here)."""
    return playout(st, rng)


#: UCT iterations on flat tree arrays: the shared search (:func:`oxo.compiled.make_tree_search`)
#: over these rules.
mcts_iterations = make_tree_search(
    legal_moves, apply_move, _search_playout, STATUS, TURN, STATE_SIZE
)


def warm_up() -> None:
    """Compile (or load from numba's cache) the search and playout code, so no clock pays for it."""
    warm_up_search(mcts_iterations, new_state())
