"""Compiled (numba) paths: the rules kernel, random playouts, batches of random games, and the
Monte Carlo tree search shared with ultimate tic-tac-toe built over this kernel.

Importing this module compiles nothing until a function is first called, and numba's on-disk
cache (``cache=True``) makes later processes load the machine code in well under a second. The
first call in a fresh checkout compiles for a few seconds.

A position is an ``int64`` array of :data:`STATE_SIZE` slots (layout below), cheap to copy. The
random generator is xoshiro128+ on four 32-bit words kept in an ``int64`` array: all of its
arithmetic stays below 2**63, so every function here gives the same moves when run uncompiled
(``function.py_func``), which the tests use as the slow reference.

State layout: ``[0..8]`` X's marks per inner grid (9 bits each), ``[9..17]`` O's, ``[18]``/``[19]``
grids covered by X/O, ``[20]`` grids played in the current string, ``[21]`` cell positions used in
it, ``[22]`` its length, ``[23]`` moves played in it, ``[24]`` player to move (0 X, 1 O), ``[25]``
status (0 playing, 1 X won, 2 O won, 3 draw), ``[26]`` moves played, ``[27]`` current string
abnormal, ``[28]`` some string was abnormal, ``[29]`` string index.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from oxo.compiled import DRAWN as _DRAWN
from oxo.compiled import PLAYING as _PLAYING
from oxo.compiled import POP as _POP
from oxo.compiled import draw_free_cell, list_free_cells, make_tree_search, warm_up_search
from oxo.compiled import make_rng as make_rng  # the search driver and self-play seed it here
from oxo.compiled import next32 as next32  # re-exported for the tests' uncompiled reference
from oxo.ninegrids import WINS

STATE_SIZE = 32
COV, PLAYED, USED, LENGTH, COUNT, TURN, STATUS, MOVES, ABNORMAL, ANY_ABNORMAL, INDEX = (
    18,
    20,
    21,
    22,
    23,
    24,
    25,
    26,
    27,
    28,
    29,
)
PLAYING, X_WON, O_WON, DRAWN = 0, 1, 2, 3
assert (PLAYING, DRAWN) == (_PLAYING, _DRAWN)  # the shared search reads these codes

_WIN = np.array(WINS, dtype=np.bool_)


# -- rules -----------------------------------------------------------------------------------------


def new_state() -> np.ndarray:
    """The empty board as a state array."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    st[LENGTH] = 9
    return st


def state_from(state: Any) -> np.ndarray:
    """The state array of a :class:`~oxo.mega.rules.MegaState` (the kernel is imported by the
    rules' compiled search, so it reads the state without importing its class)."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    for p in (0, 1):
        marks = state._marks[p]
        for g in range(9):
            st[9 * p + g] = (marks >> (9 * g)) & 511
        st[COV + p] = state._covered[p]
    st[PLAYED], st[USED], st[LENGTH], st[COUNT] = (
        state._played,
        state._used,
        state._length,
        state._count,
    )
    st[TURN] = state.player
    winner = state.winner
    st[STATUS] = {None: PLAYING, "x": X_WON, "o": O_WON, "draw": DRAWN}[winner]
    st[MOVES] = state.move_count
    st[ABNORMAL] = int(state._abnormal)
    st[ANY_ABNORMAL] = int(bool(state._abnormal_strings))
    st[INDEX] = state._index
    return st


@njit(cache=True)
def legal_moves(st: np.ndarray, out: np.ndarray) -> int:
    """Write the legal moves (0..80, ascending) into ``out`` and return how many (0: game over)."""
    if st[STATUS] != PLAYING:
        return 0
    open_grids = ~(st[COV] | st[COV + 1] | st[PLAYED]) & 511
    n = list_free_cells(st, open_grids, st[USED], out)
    if n == 0:  # rule 8: ignore rule 6, keep rule 5
        n = list_free_cells(st, open_grids, 0, out)
    return n


@njit(cache=True)
def apply_move(st: np.ndarray, m: int) -> None:
    """Play a legal move (not checked) for the player to move and update string and status."""
    g = m // 9
    c = m - 9 * g
    p = st[TURN]
    bit = 1 << c
    slot = 9 * p + g
    st[slot] |= bit
    if _WIN[st[slot]]:
        st[COV + p] |= 1 << g
        if _WIN[st[COV + p]]:
            st[STATUS] = X_WON + p
    if st[USED] & bit:
        st[ABNORMAL] = 1
        st[ANY_ABNORMAL] = 1
    st[PLAYED] |= 1 << g
    st[USED] |= bit
    st[COUNT] += 1
    st[MOVES] += 1
    if st[COUNT] == st[LENGTH]:
        st[INDEX] += 1
        st[PLAYED] = 0
        st[USED] = 0
        st[COUNT] = 0
        st[ABNORMAL] = 0
        st[LENGTH] = 9 - _POP[st[COV] | st[COV + 1]]
    st[TURN] = 1 - p


@njit(cache=True)
def random_move(st: np.ndarray, rng: np.ndarray) -> int:
    """A legal move drawn uniformly (counting per grid, then picking the r-th); -1 if none."""
    if st[STATUS] != PLAYING:
        return -1
    open_grids = ~(st[COV] | st[COV + 1] | st[PLAYED]) & 511
    move = draw_free_cell(st, rng, open_grids, st[USED])
    if move < 0:  # rule 8: ignore rule 6, keep rule 5
        move = draw_free_cell(st, rng, open_grids, 0)
    return move


@njit(cache=True)
def playout(st: np.ndarray, rng: np.ndarray, buf: np.ndarray) -> int:
    """Play uniformly random moves on ``st`` until the game ends; return the status (1, 2 or 3)."""
    while st[STATUS] == PLAYING:
        m = random_move(st, rng)
        if m < 0:
            st[STATUS] = DRAWN
            break
        apply_move(st, m)
    return st[STATUS]


@njit(cache=True)
def random_game_record(rng: np.ndarray, record: np.ndarray) -> int:
    """Play one random game from the start, writing its moves into ``record``; return how many."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    st[LENGTH] = 9
    while True:
        m = random_move(st, rng)
        if m < 0:
            if st[STATUS] == PLAYING:
                st[STATUS] = DRAWN
            return st[MOVES]
        record[st[MOVES]] = m
        apply_move(st, m)


@njit(cache=True)
def random_games(games: int, rng: np.ndarray) -> np.ndarray:
    """Play ``games`` random games; return [draws, X wins, O wins, total moves, games with an abnormal string]."""
    totals = np.zeros(5, dtype=np.int64)
    st = np.empty(STATE_SIZE, dtype=np.int64)
    buf = np.empty(81, dtype=np.int64)
    for _ in range(games):
        st[:] = 0
        st[LENGTH] = 9
        status = playout(st, rng, buf)
        totals[status % 3] += 1
        totals[3] += st[MOVES]
        totals[4] += st[ANY_ABNORMAL]
    return totals


# -- Monte Carlo tree search ------------------------------------------------------------------------


#: UCT iterations on flat tree arrays: the shared search (:func:`oxo.compiled.make_tree_search`)
#: over these rules.
mcts_iterations = make_tree_search(legal_moves, apply_move, playout, STATUS, TURN, STATE_SIZE)


def warm_up() -> None:
    """Compile (or load from numba's cache) the search and playout code, so no clock pays for it."""
    warm_up_search(mcts_iterations, new_state(), "mega tic-tac-toe's search")
