"""Compiled (numba) pieces that the games' kernels share (mega and ultimate tic-tac-toe): the
random stream and the tables of 9-bit masks.

The random generator is xoshiro128+ on four 32-bit words kept in an ``int64`` array: all of its
arithmetic stays below 2**63, so it gives the same numbers when run uncompiled (``.py_func``), which
the tests use as the slow reference. Nothing compiles until a function is first called, and numba's
on-disk cache (``cache=True``) lets later processes load the machine code at once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

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
