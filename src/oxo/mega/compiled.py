"""Compiled (numba) paths: random playouts, batches of random games and the MCTS inner loop.

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

import math

import numpy as np
from numba import njit

from oxo.compiled import POP as _POP
from oxo.compiled import SELECT as _SELECT
from oxo.compiled import below
from oxo.compiled import make_rng as make_rng  # the search driver and self-play seed it here
from oxo.compiled import next32 as next32  # re-exported for the tests' uncompiled reference
from oxo.mega.lines import WINS
from oxo.mega.rules import MegaState

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

_WIN = np.array(WINS, dtype=np.bool_)


# -- rules -----------------------------------------------------------------------------------------


def new_state() -> np.ndarray:
    """The empty board as a state array."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    st[LENGTH] = 9
    return st


def state_from(state: MegaState) -> np.ndarray:
    """The state array of an engine position."""
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
    used = st[USED]
    n = 0
    for g in range(9):
        if open_grids >> g & 1:
            free = ~(st[g] | st[9 + g] | used) & 511
            for c in range(9):
                if free >> c & 1:
                    out[n] = 9 * g + c
                    n += 1
    if n == 0:  # rule 8: ignore rule 6, keep rule 5
        for g in range(9):
            if open_grids >> g & 1:
                free = ~(st[g] | st[9 + g]) & 511
                for c in range(9):
                    if free >> c & 1:
                        out[n] = 9 * g + c
                        n += 1
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
    used = st[USED]
    n = 0
    for g in range(9):
        if open_grids >> g & 1:
            n += _POP[~(st[g] | st[9 + g] | used) & 511]
    if n == 0:  # rule 8
        used = 0
        for g in range(9):
            if open_grids >> g & 1:
                n += _POP[~(st[g] | st[9 + g]) & 511]
        if n == 0:
            return -1
    r = below(rng, n)
    for g in range(9):
        if open_grids >> g & 1:
            free = ~(st[g] | st[9 + g] | used) & 511
            k = _POP[free]
            if r < k:
                return 9 * g + _SELECT[free, r]
            r -= k
    return -1  # unreachable


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


# -- Monte Carlo tree search -----------------------------------------------------------------------


@njit(cache=True)
def mcts_iterations(
    root: np.ndarray,
    iterations: int,
    rng: np.ndarray,
    first: np.ndarray,
    nchild: np.ndarray,
    move: np.ndarray,
    mover: np.ndarray,
    visits: np.ndarray,
    value: np.ndarray,
    meta: np.ndarray,
    exploration: float,
    expand_after: int,
) -> int:
    """Run UCT iterations on a tree kept in flat arrays; return the simulations run.

    Node 0 is the root. A node's children are ``first[i] .. first[i] + nchild[i] - 1`` (``first``
    is -1 before expansion); ``mover`` is the player who made the node's move, and ``value`` sums
    the results from that player's side (1 win, 0.5 draw, 0 loss). ``meta[0]`` is the number of
    nodes in use. A leaf is expanded (all children at once, in random order) once it has
    ``expand_after`` visits, while the arrays have room; otherwise the playout starts there.
    """
    capacity = first.shape[0]
    st = np.empty(STATE_SIZE, dtype=np.int64)
    buf = np.empty(81, dtype=np.int64)
    path = np.empty(96, dtype=np.int64)
    for _ in range(iterations):
        st[:] = root
        node = 0
        depth = 0
        path[0] = 0
        # selection
        while first[node] >= 0 and nchild[node] > 0:
            f = first[node]
            k = nchild[node]
            best = f
            best_score = -1.0
            log_n = math.log(visits[node])
            for i in range(f, f + k):
                v = visits[i]
                if v == 0:
                    best = i
                    break
                score = value[i] / v + exploration * math.sqrt(log_n / v)
                if score > best_score:
                    best_score = score
                    best = i
            node = best
            apply_move(st, move[node])
            depth += 1
            path[depth] = node
        # expansion
        if (
            st[STATUS] == PLAYING
            and first[node] < 0
            and (node == 0 or visits[node] >= expand_after)
        ):
            n = legal_moves(st, buf)
            if n == 0:
                st[STATUS] = DRAWN
                first[node] = 0
                nchild[node] = 0
            elif meta[0] + n <= capacity:
                for j in range(n - 1, 0, -1):
                    r = below(rng, j + 1)
                    buf[j], buf[r] = buf[r], buf[j]
                f = meta[0]
                p = st[TURN]
                for j in range(n):
                    first[f + j] = -1
                    nchild[f + j] = 0
                    move[f + j] = buf[j]
                    mover[f + j] = p
                    visits[f + j] = 0
                    value[f + j] = 0.0
                first[node] = f
                nchild[node] = n
                meta[0] = f + n
                node = f
                apply_move(st, move[node])
                depth += 1
                path[depth] = node
        # simulation
        outcome = st[STATUS]
        if outcome == PLAYING:
            outcome = playout(st, rng, buf)
        # backpropagation
        for d in range(depth + 1):
            i = path[d]
            visits[i] += 1
            if outcome == DRAWN:
                value[i] += 0.5
            elif outcome == mover[i] + 1:
                value[i] += 1.0
    return iterations


def warm_up() -> None:
    """Compile (or load from numba's cache) the search and playout code, so no clock pays for it."""
    first = np.full(200, -1, dtype=np.int32)
    nchild = np.zeros(200, dtype=np.int16)
    move = np.zeros(200, dtype=np.int8)
    mover = np.zeros(200, dtype=np.int8)
    visits = np.zeros(200, dtype=np.int32)
    value = np.zeros(200, dtype=np.float32)
    meta = np.array([1], dtype=np.int64)
    mcts_iterations(
        new_state(), 2, make_rng(0), first, nchild, move, mover, visits, value, meta, 0.7, 2
    )
