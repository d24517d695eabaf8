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
from typing import Any

import numpy as np
from numba import njit
from numba.core.caching import FunctionCache

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


# -- the Monte Carlo tree search both games run ------------------------------------------------------

#: Status codes every kernel's state uses (the slot holding them is the game's own).
PLAYING, DRAWN = 0, 3


class _KernelCache(FunctionCache):
    """numba's on-disk cache for a search built by :func:`make_tree_search`.

    numba keys a closure's cached code by pickling the values it closes over, and a compiled
    function pickles with an identifier drawn afresh in every process, so the cached search would
    never be found again. This key names each kernel function by module, name and a hash of its
    module's source instead (a change to the kernel's file compiles the search anew).
    """

    def _index_key(self, sig: Any, codegen: Any) -> tuple[Any, ...]:
        parts = []
        for cell in self._py_func.__closure__ or ():
            item = cell.cell_contents
            py_func = getattr(item, "py_func", None)
            if py_func is None:
                parts.append(repr(item))
            else:
                source = Path(inspect.getfile(py_func)).read_bytes()
                digest = hashlib.sha256(source).hexdigest()
                parts.append(f"{py_func.__module__}.{py_func.__qualname__}:{digest}")
        code = hashlib.sha256(self._py_func.__code__.co_code).hexdigest()
        kernel = hashlib.sha256("\n".join(parts).encode()).hexdigest()
        return (sig, codegen.magic_tuple(), (code, kernel))


def make_tree_search(
    legal_moves: Callable[..., int],
    apply_move: Callable[..., None],
    playout: Callable[..., int],
    status: int,
    turn: int,
    state_size: int,
) -> Callable[..., int]:
    """The compiled UCT search (``mcts_iterations``) over a game's compiled rules kernel.

    The game brings ``legal_moves(st, out) -> n`` (0: no move), ``apply_move(st, m)``,
    ``playout(st, rng, buf) -> status`` and the slots of its state array (``state_size`` int64
    slots) holding the status (0 playing, 1 X won, 2 O won, 3 draw) and the side to move (0 X, 1
    O). They are fixed when the search compiles, so each game gets machine code of its own with
    its rules inlined, cached on disk like the rest.
    """

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

        Node 0 is the root. A node's children are ``first[i] .. first[i] + nchild[i] - 1``
        (``first`` is -1 before expansion); ``mover`` is the side that made the node's move and
        ``value`` sums the results from its side (1 win, 0.5 draw, 0 loss). ``meta[0]`` is the
        number of nodes in use. A leaf is expanded (all children at once, in random order) once it
        has ``expand_after`` visits, while the arrays have room; otherwise the playout starts from
        it. A position that is not over but has no move counts as a draw.
        """
        capacity = first.shape[0]
        st = np.empty(state_size, dtype=np.int64)
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
                st[status] == PLAYING
                and first[node] < 0
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
                    first[node] = f
                    nchild[node] = n
                    meta[0] = f + n
                    node = f
                    apply_move(st, move[node])
                    depth += 1
                    path[depth] = node
            # simulation
            outcome = st[status]
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

    search: Any = njit(mcts_iterations)
    search._cache = _KernelCache(mcts_iterations)  # what ``cache=True`` does, with the key above
    return search


def warm_up_search(mcts_iterations: Callable[..., int], root: np.ndarray) -> None:
    """Compile (or load from numba's cache) a search and its kernel with two simulations from
    ``root``, so no clock pays for it."""
    first = np.full(200, -1, dtype=np.int32)
    nchild = np.zeros(200, dtype=np.int16)
    move = np.zeros(200, dtype=np.int8)
    mover = np.zeros(200, dtype=np.int8)
    visits = np.zeros(200, dtype=np.int32)
    value = np.zeros(200, dtype=np.float32)
    meta = np.array([1], dtype=np.int64)
    mcts_iterations(root, 2, make_rng(0), first, nchild, move, mover, visits, value, meta, 0.7, 2)
