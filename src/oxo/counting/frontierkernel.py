"""The compiled step of the frontier count (numba): the canonical forms of a chunk's children.

A module of its own, with its functions at module level, so that numba's disk cache finds them in
every process. Made inside another function (as they were), ``expand`` held a new dispatcher of
``apply`` in each process, and numba's cache key holds a closure's variables: the key never
matched, and every process that counted (each worker of a count too) compiled it again, about a
second of processor time.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def apply(tables: np.ndarray, g: int, mask: np.uint64) -> np.uint64:
    """The image of ``mask`` under symmetry ``g``, a byte at a time (see ``_byte_tables``)."""
    image = np.uint64(0)
    for b in range(tables.shape[1]):
        image |= tables[g, b, (mask >> np.uint64(8 * b)) & np.uint64(0xFF)]
    return image


@njit(cache=True, nogil=True)
def expand(
    xs: np.ndarray,
    os_: np.ndarray,
    x_moves: bool,
    tables: np.ndarray,
    lines: np.ndarray,
    full: np.uint64,
    out_x: np.ndarray,
    out_o: np.ndarray,
    out_stab: np.ndarray,
) -> int:
    """Every child of every unfinished position (``xs[i]``, ``os_[i]``), X moving when
    ``x_moves``: its least image over the symmetries into ``out_x``/``out_o`` and how many
    symmetries give that image into ``out_stab``; returns how many children were written."""
    count = 0
    symmetries = tables.shape[0]
    for i in range(xs.shape[0]):
        x = xs[i]
        o = os_[i]
        done = (x | o) == full
        for line in lines:
            if (x & line) == line or (o & line) == line:
                done = True
                break
        if done:
            continue
        free = full & ~(x | o)
        while free:
            bit = free & (~free + np.uint64(1))
            free ^= bit
            cx = x | bit if x_moves else x
            co = o if x_moves else o | bit
            best_x = cx
            best_o = co
            same = 1
            for g in range(1, symmetries):
                gx = apply(tables, g, cx)
                if gx > best_x:
                    continue
                go = apply(tables, g, co)
                if gx < best_x or go < best_o:
                    best_x = gx
                    best_o = go
                    same = 1
                elif go == best_o:
                    same += 1
            out_x[count] = best_x
            out_o[count] = best_o
            out_stab[count] = same
            count += 1
    return count


def warm_up() -> None:
    """Compile ``expand`` (or load it from the cache) with the types the count passes, so that
    worker processes forked after this hold it already."""
    empty = np.empty(0, dtype=np.uint64)
    expand(
        empty,
        empty,
        True,
        np.zeros((1, 1, 256), dtype=np.uint64),
        empty,
        np.uint64(0),
        empty,
        empty,
        np.empty(0, dtype=np.uint16),
    )
