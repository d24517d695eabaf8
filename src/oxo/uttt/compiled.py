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

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from oxo.compiled import DRAWN as _DRAWN
from oxo.compiled import PLAYING as _PLAYING
from oxo.compiled import POP as _POP
from oxo.compiled import SELECT as _SELECT
from oxo.compiled import below, draw_free_cell, list_free_cells, make_tree_search, warm_up_search
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
def _playable_grids(st: np.ndarray) -> int:
    """The grids (a 9-bit mask) the side to move may play in: the one it is sent to, else every
    open grid."""
    t = st[TARGET]
    return 1 << t if t >= 0 else ~st[CLOSED] & 511


@njit(cache=True)
def legal_moves(st: np.ndarray, out: np.ndarray) -> int:
    """Write the legal moves (0..80, ascending) into ``out`` and return how many (0: game over)."""
    if st[STATUS] != PLAYING:
        return 0
    return list_free_cells(st, _playable_grids(st), 0, out)


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
    return draw_free_cell(st, rng, _playable_grids(st), 0)


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


# -- smarter playouts ----------------------------------------------------------------------------------

#: ``THREAT[m]``: the cells (a 9-bit mask) that would complete three in a row for the 9-bit mask m.
THREAT = np.array(
    [sum(1 << c for c in range(9) if not m >> c & 1 and WINS[m | 1 << c]) for m in range(512)],
    dtype=np.int64,
)
#: ``LOW[m]``: the lowest set bit's position in the 9-bit mask m (-1 for 0).
LOW = np.array([(m & -m).bit_length() - 1 for m in range(512)], dtype=np.int64)


@njit(cache=True)
def winning_move(st: np.ndarray) -> int:
    """A move that wins the game at once for the side to move (the lowest), or -1."""
    if st[STATUS] != PLAYING:
        return -1
    p = st[TURN]
    grids = THREAT[st[XWON + p]] & ~st[CLOSED] & 511
    t = st[TARGET]
    if t >= 0:
        grids &= 1 << t
    while grids:
        g = LOW[grids]
        cells = THREAT[st[9 * p + g]] & ~(st[g] | st[9 + g]) & 511
        if cells:
            return 9 * g + LOW[cells]
        grids &= grids - 1
    return -1


@njit(cache=True)
def losing_grids(st: np.ndarray) -> int:
    """The open grids (a 9-bit mask) where the opponent of the side to move could win the game at
    once if sent there."""
    q = 1 - st[TURN]
    grids = THREAT[st[XWON + q]] & ~st[CLOSED] & 511
    out = 0
    while grids:
        g = LOW[grids]
        if THREAT[st[9 * q + g]] & ~(st[g] | st[9 + g]) & 511:
            out |= 1 << g
        grids &= grids - 1
    return out


@njit(cache=True)
def careful_move(st: np.ndarray, rng: np.ndarray) -> int:
    """A random move that does not send the opponent where it wins the game at once (to a grid it
    wins in one, or to a free choice while it has one), when the side to move has such a move;
    otherwise a uniformly random move. Only the cell's grid counts: a move that closes the grid it
    is in and sends the opponent back there is not foreseen."""
    bad = losing_grids(st)
    if bad == 0:
        return random_move(st, rng)
    # A cell c sends the opponent to grid c: leave out the cells naming a bad or a closed grid.
    move = draw_free_cell(st, rng, _playable_grids(st), bad | st[CLOSED])
    return move if move >= 0 else random_move(st, rng)


@njit(cache=True)
def grid_winning_move(st: np.ndarray, rng: np.ndarray) -> int:
    """A move that wins a small grid for the side to move (drawn uniformly among them), or -1."""
    p = st[TURN]
    t = st[TARGET]
    if t >= 0:
        cells = THREAT[st[9 * p + t]] & ~(st[t] | st[9 + t]) & 511
        if cells == 0:
            return -1
        return 9 * t + _SELECT[cells, below(rng, _POP[cells])]
    closed = st[CLOSED]
    n = 0
    for g in range(9):
        if not (closed >> g) & 1:
            n += _POP[THREAT[st[9 * p + g]] & ~(st[g] | st[9 + g]) & 511]
    if n == 0:
        return -1
    r = below(rng, n)
    for g in range(9):
        if not (closed >> g) & 1:
            cells = THREAT[st[9 * p + g]] & ~(st[g] | st[9 + g]) & 511
            k = _POP[cells]
            if r < k:
                return 9 * g + _SELECT[cells, r]
            r -= k
    return -1  # unreachable


@njit(cache=True)
def greedy_playout(st: np.ndarray, rng: np.ndarray, buf: np.ndarray) -> int:
    """A playout in which a side that can win the game at once does so, and otherwise wins a small
    grid when it can (else a uniformly random move)."""
    while st[STATUS] == PLAYING:
        m = winning_move(st)
        if m < 0:
            m = grid_winning_move(st, rng)
            if m < 0:
                m = random_move(st, rng)
        apply_move(st, m)
    return st[STATUS]


@njit(cache=True)
def decisive_playout(st: np.ndarray, rng: np.ndarray, buf: np.ndarray) -> int:
    """A random playout in which a side that can win the game at once does so."""
    while st[STATUS] == PLAYING:
        m = winning_move(st)
        if m < 0:
            m = random_move(st, rng)
        apply_move(st, m)
    return st[STATUS]


@njit(cache=True)
def careful_playout(st: np.ndarray, rng: np.ndarray, buf: np.ndarray) -> int:
    """A playout in which a side that can win the game at once does so, and otherwise avoids
    sending the opponent where it wins at once (:func:`careful_move`)."""
    while st[STATUS] == PLAYING:
        m = winning_move(st)
        if m < 0:
            m = careful_move(st, rng)
        apply_move(st, m)
    return st[STATUS]


# -- Monte Carlo tree search ------------------------------------------------------------------------


@njit(cache=True)
def _search_playout(st: np.ndarray, rng: np.ndarray, buf: np.ndarray) -> int:
    """:func:`playout` in the form the shared search calls (it needs no move buffer here)."""
    return playout(st, rng)


#: UCT iterations on flat tree arrays: the shared search (:func:`oxo.compiled.make_tree_search`)
#: over these rules, plain (the search of ``hard`` before the solver).
mcts_iterations = make_tree_search(
    legal_moves, apply_move, _search_playout, STATUS, TURN, STATE_SIZE
)

PLAYOUTS = {
    "random": _search_playout,
    "decisive": decisive_playout,
    "careful": careful_playout,
    "greedy": greedy_playout,
}
_SEARCHES: dict[tuple[bool, bool, str], Callable[..., int]] = {}


def tree_search(
    solver: bool = False, decisive: bool = False, playout: str = "random"
) -> Callable[..., int]:
    """The shared search over these rules with its options (see
    :func:`oxo.compiled.make_tree_search`): the solver, the decisive-move check at new nodes and
    the playout (``random``, ``decisive``: take a win of the game in one, ``careful``: that and
    avoid handing the opponent one). All off is :data:`mcts_iterations`."""
    key = (solver, decisive, playout)
    if key == (False, False, "random"):
        return mcts_iterations
    if key not in _SEARCHES:
        _SEARCHES[key] = make_tree_search(
            legal_moves,
            apply_move,
            PLAYOUTS[playout],
            STATUS,
            TURN,
            STATE_SIZE,
            winning_move=winning_move if decisive else None,
            solver=solver,
        )
    return _SEARCHES[key]


def warm_up(**options: Any) -> None:
    """Compile (or load from numba's cache) the search and playout code, so no clock pays for it."""
    warm_up_search(tree_search(**options), new_state(), "ultimate tic-tac-toe's search")
