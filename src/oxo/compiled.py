"""Compiled (numba) pieces that the games' kernels share (mega and ultimate tic-tac-toe): the
random stream, the tables of 9-bit masks and the Monte Carlo tree search, built once per game over
the compiled rules kernel the game brings (:func:`make_tree_search`).

The random generator is xoshiro128+ on four 32-bit words kept in an ``int64`` array: all of its
arithmetic stays below 2**63, so it gives the same numbers when run uncompiled (``.py_func``), which
the tests use as the slow reference. Nothing compiles until a function is first called, and numba's
on-disk cache (``cache=True``) lets later processes load the machine code at once.
"""

from __future__ import annotations

import hashlib
import inspect
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np
from numba import njit
from numba.core.caching import FunctionCache

#: numba's option to compile without its runtime's reference counts (``_nrt=False``; its type
#: stubs lack it), for compiled pieces that allocate nothing: the counts of their array arguments
#: are atomic operations at every call, a fifth of Connect Four's search and a tenth of the proof
#: search of big boards before they went.
NO_REFCOUNTS: dict[str, Any] = {"_nrt": False}

_Function = TypeVar("_Function", bound=Callable[..., Any])


def without_refcounts(function: _Function) -> _Function:
    """``njit(cache=True)`` without the reference counts (:data:`NO_REFCOUNTS`), typed as the
    function it compiles."""
    return cast(_Function, njit(cache=True, **NO_REFCOUNTS)(function))


_M32 = 0xFFFFFFFF
#: ``POP[m]``: the number of set bits of the 9-bit mask m.
POP = np.array([m.bit_count() for m in range(512)], dtype=np.int64)
#: ``SELECT[m, r]``: position of the r-th set bit (from 0) of the 9-bit mask m.
SELECT = np.array(
    [[([c for c in range(9) if m >> c & 1] + [-1] * 9)[r] for r in range(9)] for m in range(512)],
    dtype=np.int64,
)


# -- random numbers ------------------------------------------------------------------------------


def make_rng(seed: int | None = None) -> np.ndarray:
    """A xoshiro128+ state (four 32-bit words in an int64 array) from a seed (``None``: from the OS)."""
    if seed is None:
        import secrets

        seed = secrets.randbits(64)
    x = seed & 0xFFFFFFFFFFFFFFFF
    words = []
    for _ in range(4):  # splitmix64, taking the high half of each output
        x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        z ^= z >> 31
        words.append(z >> 32)
    if not any(words):
        words[0] = 1
    return np.array(words, dtype=np.int64)


@njit(cache=True)
def next32(s: np.ndarray) -> int:
    """The next 32-bit output of xoshiro128+ (advances ``s``)."""
    result = (s[0] + s[3]) & _M32
    t = (s[1] << 9) & _M32
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = ((s[3] << 11) | (s[3] >> 21)) & _M32
    return result


@njit(cache=True)
def below(s: np.ndarray, n: int) -> int:
    """A random integer in [0, n) from the high bits of the generator (bias below n / 2**32)."""
    return (next32(s) * n) >> 32


# -- the cells of nine grids ------------------------------------------------------------------------
# Both games keep X's marks of grid g (9 bits) in slot g of their state and O's in slot 9 + g.


@njit(cache=True)
def list_free_cells(st: np.ndarray, grids: int, avoid: int, out: np.ndarray) -> int:
    """Write the moves ``9*g + c`` of the empty cells ``c`` of the grids ``g`` in the 9-bit mask
    ``grids``, leaving out the cells in the 9-bit mask ``avoid``, into ``out``, ascending; return
    how many (how both games list their legal moves)."""
    n = 0
    for g in range(9):
        if grids >> g & 1:
            free = ~(st[g] | st[9 + g] | avoid) & 511
            for c in range(9):
                if free >> c & 1:
                    out[n] = 9 * g + c
                    n += 1
    return n


@njit(cache=True)
def draw_free_cell(st: np.ndarray, rng: np.ndarray, grids: int, avoid: int) -> int:
    """A move ``9*g + c`` drawn uniformly among the empty cells ``c`` of the grids ``g`` in the
    9-bit mask ``grids``, leaving out the cells in the 9-bit mask ``avoid`` (one draw from ``rng``:
    the r-th such cell, counting grid by grid); -1, drawing nothing, when there is none."""
    n = 0
    for g in range(9):
        if grids >> g & 1:
            n += POP[~(st[g] | st[9 + g] | avoid) & 511]
    if n == 0:
        return -1
    r = below(rng, n)
    for g in range(9):
        if grids >> g & 1:
            free = ~(st[g] | st[9 + g] | avoid) & 511
            k = POP[free]
            if r < k:
                return 9 * g + SELECT[free, r]
            r -= k
    return -1  # unreachable: r < n


# -- the Monte Carlo tree search both games run ------------------------------------------------------

#: Status codes every kernel's state uses (the slot holding them is the game's own).
PLAYING, DRAWN = 0, 3
#: What the solver has proven about a node, for the side that moved into it (``proof`` array):
#: nothing yet, a loss, a draw, a win (a proven node's score is ``proof - 2``: -1, 0, +1).
UNPROVEN, LOSS, DRAW, WIN = 0, 1, 2, 3
#: The search's numeric settings, in the ``params`` array: UCT constant, visits before a leaf is
#: expanded, first-play urgency (the score of an unvisited child; negative: always visit first).
EXPLORATION, EXPAND_AFTER, FPU = 0, 1, 2
PARAMS = 3


class _KernelCache(FunctionCache):
    """numba's on-disk cache for a search built by :func:`make_tree_search`.

    numba keys a closure's cached code by pickling the values it closes over, and a compiled
    function pickles with an identifier drawn afresh in every process, so the cached search would
    never be found again. This key names each kernel function by module, name and a hash of its
    module's source instead, with the values its own closure holds, and hashes the search's own
    code and module (a change to the kernel's file or to this one compiles the search anew, and two
    variants of one kernel function get two entries).
    """

    def _index_key(self, sig: Any, codegen: Any) -> tuple[Any, ...]:
        own = Path(inspect.getfile(self._py_func)).read_bytes()  # its constants live there too
        code = hashlib.sha256(self._py_func.__code__.co_code + own).hexdigest()
        kernel = hashlib.sha256("\n".join(_closure_parts(self._py_func)).encode()).hexdigest()
        return (sig, codegen.magic_tuple(), (code, kernel))


def _closure_parts(py_func: Callable[..., Any]) -> list[str]:
    """Names (with a hash of their module's source) of the compiled functions ``py_func`` closes
    over, recursively, and the repr of every other value it closes over."""
    parts = []
    for cell in getattr(py_func, "__closure__", None) or ():
        item = cell.cell_contents
        inner = getattr(item, "py_func", None)
        if inner is None:
            parts.append(repr(item))
        else:
            source = Path(inspect.getfile(inner)).read_bytes()
            digest = hashlib.sha256(source).hexdigest()
            parts.append(f"{inner.__module__}.{inner.__qualname__}:{digest}")
            parts.extend(f"  {part}" for part in _closure_parts(inner))
    return parts


@njit(cache=True)
def _no_winning_move(st: np.ndarray) -> int:
    """The stand-in for a game without a decisive-move check: never a move."""
    return -1


def make_tree_search(
    legal_moves: Callable[..., int],
    apply_move: Callable[..., None],
    playout: Callable[..., int],
    status: int,
    turn: int,
    state_size: int,
    *,
    winning_move: Callable[..., int] | None = None,
    solver: bool = False,
) -> Callable[..., int]:
    """The compiled UCT search (``mcts_iterations``) over a game's compiled rules kernel.

    The game brings ``legal_moves(st, out) -> n`` (0: no move), ``apply_move(st, m)``,
    ``playout(st, rng, buf) -> status`` and the slots of its state array (``state_size`` int64
    slots) holding the status (0 playing, 1 X won, 2 O won, 3 draw) and the side to move (0 X, 1
    O). They are fixed when the search compiles, so each game gets machine code of its own with
    its rules inlined, cached on disk like the rest.

    Two options, also fixed at compile time (off, the search is plain UCT, simulation for
    simulation what it always was): ``winning_move(st) -> m`` (a move that wins the game at once
    for the side to move, or -1) lets the search score a new node whose side to move can win at
    once without a playout; ``solver`` keeps proven results (:data:`WIN`, :data:`DRAW`,
    :data:`LOSS` for the node's mover) and backs them up by minimax, so the search stops spending
    simulations below a decided node, never selects a move proven to lose, and stops once the root
    is decided.
    """
    decisive = winning_move is not None
    win_now = winning_move if winning_move is not None else _no_winning_move

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
        proof: np.ndarray,
        meta: np.ndarray,
        params: np.ndarray,
    ) -> int:
        """Run UCT iterations on a tree kept in flat arrays; return the simulations run.

        Node 0 is the root. A node's children are ``first[i] .. first[i] + nchild[i] - 1``
        (``first`` is -1 before expansion); ``mover`` is the side that made the node's move and
        ``value`` sums the results from its side (1 win, 0.5 draw, 0 loss); ``proof`` is what the
        solver proved for that side (0 when it is off). ``meta[0]`` is the number of nodes in use.
        ``params`` holds the settings (:data:`EXPLORATION`, :data:`EXPAND_AFTER`, :data:`FPU`). A
        leaf is expanded (all children at once, in random order) once it has ``expand_after``
        visits, while the arrays have room; otherwise the playout starts from it. A position that
        is not over but has no move counts as a draw. With the solver the search returns early,
        having run fewer simulations, once the root is proven.
        """
        exploration = params[EXPLORATION]
        expand_after = int(params[EXPAND_AFTER])
        fpu = params[FPU]
        capacity = first.shape[0]
        st = np.empty(state_size, dtype=np.int64)
        buf = np.empty(81, dtype=np.int64)
        path = np.empty(96, dtype=np.int64)
        for iteration in range(iterations):
            if solver and proof[0] != UNPROVEN:
                return iteration
            st[:] = root
            node = 0
            depth = 0
            path[0] = 0
            # selection
            while first[node] >= 0 and nchild[node] > 0 and (not solver or proof[node] == 0):
                f = first[node]
                k = nchild[node]
                best = f
                best_score = -1.0
                log_n = math.log(visits[node])
                for i in range(f, f + k):
                    if solver and proof[i] != UNPROVEN:
                        if proof[i] == LOSS:
                            continue
                        score = 0.5  # a proven draw: its value is known, no need to explore
                        if score > best_score:
                            best_score = score
                            best = i
                        continue
                    v = visits[i]
                    if v == 0:
                        if fpu < 0:
                            best = i
                            break
                        score = fpu
                    else:
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
                st[status] == PLAYING
                and first[node] < 0
                and (not solver or proof[node] == 0)
                and (node == 0 or visits[node] >= expand_after)
            ):
                n = legal_moves(st, buf)
                if n == 0:
                    st[status] = DRAWN
                    first[node] = 0
                    nchild[node] = 0
                elif meta[0] + n <= capacity:
                    for j in range(n - 1, 0, -1):
                        r = below(rng, j + 1)
                        buf[j], buf[r] = buf[r], buf[j]
                    f = meta[0]
                    p = st[turn]
                    for j in range(n):
                        first[f + j] = -1
                        nchild[f + j] = 0
                        move[f + j] = buf[j]
                        mover[f + j] = p
                        visits[f + j] = 0
                        value[f + j] = 0.0
                        proof[f + j] = UNPROVEN
                    first[node] = f
                    nchild[node] = n
                    meta[0] = f + n
                    node = f
                    apply_move(st, move[node])
                    depth += 1
                    path[depth] = node
            # simulation (a node proven already, or decided at once, needs none)
            outcome = st[status]
            if solver and proof[node] != UNPROVEN:
                outcome = (
                    DRAWN if proof[node] == DRAW else (mover[node] + (proof[node] == LOSS)) % 2 + 1
                )
            elif outcome == PLAYING:
                winner = -1
                if decisive and node != 0 and visits[node] == 0 and win_now(st) >= 0:
                    winner = st[turn]
                if winner >= 0:
                    outcome = winner + 1
                    if solver:
                        proof[node] = LOSS
                else:
                    outcome = playout(st, rng, buf)
            elif solver and node != 0:
                proof[node] = (
                    DRAW if outcome == DRAWN else (WIN if outcome == mover[node] + 1 else LOSS)
                )
            # backpropagation
            for d in range(depth + 1):
                i = path[d]
                visits[i] += 1
                if outcome == DRAWN:
                    value[i] += 0.5
                elif outcome == mover[i] + 1:
                    value[i] += 1.0
            # proofs travel up: a child won for its mover decides its parent; so do children all proven
            if solver:
                for d in range(depth, 0, -1):
                    child = path[d]
                    parent = path[d - 1]
                    if proof[child] == UNPROVEN or proof[parent] != UNPROVEN:
                        break
                    if proof[child] == WIN:
                        proof[parent] = LOSS
                        continue
                    best_child = -2
                    for i in range(first[parent], first[parent] + nchild[parent]):
                        if proof[i] == UNPROVEN:
                            best_child = -3
                            break
                        if proof[i] - 2 > best_child:
                            best_child = proof[i] - 2
                    if best_child == -3:
                        break
                    proof[parent] = 2 - best_child
        return iterations

    search: Any = njit(mcts_iterations)
    search._cache = _KernelCache(mcts_iterations)  # what ``cache=True`` does, with the key above
    return search


def tree_arrays(nodes: int) -> tuple[np.ndarray, ...]:
    """Empty tree arrays for ``nodes`` nodes: first child, number of children, move, mover, visits,
    summed value, proof (the search's arguments after the random stream, in that order)."""
    return (
        np.empty(nodes, dtype=np.int32),
        np.empty(nodes, dtype=np.int16),
        np.empty(nodes, dtype=np.int8),
        np.empty(nodes, dtype=np.int8),
        np.empty(nodes, dtype=np.int32),
        np.empty(nodes, dtype=np.float32),
        np.empty(nodes, dtype=np.int8),
    )


def search_params(exploration: float = 0.7, expand_after: int = 2, fpu: float = -1.0) -> np.ndarray:
    """The ``params`` array of a search (see :func:`make_tree_search`)."""
    params = np.zeros(PARAMS, dtype=np.float64)
    params[EXPLORATION], params[EXPAND_AFTER], params[FPU] = exploration, expand_after, fpu
    return params


@njit(cache=True)
def copy_subtree(
    sub: int,
    first: np.ndarray,
    nchild: np.ndarray,
    move: np.ndarray,
    mover: np.ndarray,
    visits: np.ndarray,
    value: np.ndarray,
    proof: np.ndarray,
    to_first: np.ndarray,
    to_nchild: np.ndarray,
    to_move: np.ndarray,
    to_mover: np.ndarray,
    to_visits: np.ndarray,
    to_value: np.ndarray,
    to_proof: np.ndarray,
) -> int:
    """Copy the subtree under node ``sub`` into the ``to_`` arrays with ``sub`` as node 0, keeping
    each node's children together (breadth first); return the nodes copied (the ``to_`` arrays
    must have room for the subtree)."""
    source = np.empty(to_first.shape[0], dtype=np.int64)
    source[0] = sub
    used = 1
    j = 0
    while j < used:
        s = source[j]
        to_nchild[j] = nchild[s]
        to_move[j] = move[s]
        to_mover[j] = mover[s]
        to_visits[j] = visits[s]
        to_value[j] = value[s]
        to_proof[j] = proof[s]
        if first[s] < 0:
            to_first[j] = -1
        else:
            to_first[j] = used
            for i in range(nchild[s]):
                source[used + i] = first[s] + i
            used += nchild[s]
        j += 1
    return used


@njit(cache=True)
def subtree_size(sub: int, first: np.ndarray, nchild: np.ndarray) -> int:
    """The number of nodes in the subtree under node ``sub``, ``sub`` included."""
    stack = np.empty(first.shape[0], dtype=np.int64)
    stack[0] = sub
    top = 1
    count = 0
    while top > 0:
        top -= 1
        s = stack[top]
        count += 1
        if first[s] >= 0:
            for i in range(nchild[s]):
                stack[top] = first[s] + i
                top += 1
    return count


def is_cached(*functions: Any) -> bool:
    """Whether numba's on-disk cache holds machine code of each compiled function for this machine
    and this source, so that the first call loads it (well under a second) instead of compiling
    it (seconds to a minute, once after install). Read from the cache's index with numba's own
    key; when the index cannot be read that way, ``True`` (nothing is said rather than a wrong
    word)."""
    for function in functions:
        cache: Any = getattr(function, "_cache", None)  # numba's FunctionCache, when cached
        try:
            wanted = cache._index_key(None, function.targetctx.codegen())[1:]
            index = cache._cache_file._load_index()
        except Exception:  # not a cached dispatcher, or another numba: say nothing
            continue
        if not any(key[1:] == wanted for key in index):
            return False
    return True


def warm_up_search(
    mcts_iterations: Callable[..., int], root: np.ndarray, what: str = "the tree search"
) -> None:
    """Compile (or load from numba's cache) a search and its kernel with two simulations from
    ``root``, and the helpers of tree reuse, so no clock pays for it. Compiling (once after
    install) is said as such (:func:`oxo.progress.notice`), naming ``what``."""
    if not is_cached(mcts_iterations, copy_subtree, subtree_size):
        from oxo.progress import notice

        notice(
            f"compiling {what} into machine code, once after install: it can take a minute or "
            "more, not counted as thinking; later runs load it at once"
        )
    first, nchild, move, mover, visits, value, proof = tree_arrays(200)
    first[0], nchild[0], mover[0], visits[0], value[0], proof[0] = -1, 0, 1, 0, 0.0, 0
    meta = np.array([1], dtype=np.int64)
    params = search_params()
    mcts_iterations(
        root, 2, make_rng(0), first, nchild, move, mover, visits, value, proof, meta, params
    )
    copy_subtree(0, first, nchild, move, mover, visits, value, proof, *tree_arrays(200))
    subtree_size(0, first, nchild)  # tree reuse's helpers, loaded too
