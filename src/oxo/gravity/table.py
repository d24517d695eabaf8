"""The transposition table of the compiled Connect Four solver: what a word holds, how a position
is keyed, and the two-entry buckets (one kept by work, one by recency).

The transposition table is one array of int64 words, two per bucket (``buckets`` a prime): the
first word keeps the entry whose subtree cost the most work, the second the latest. A word packs
everything about one position, so that a word written by one process while another reads it is
never seen half-written (several processes may share a table through shared memory):

    bits 20..62  key // buckets   (the key itself is this times ``buckets`` plus the bucket)
    bits 16..19  the best column found + 1 (0: none), of the position as keyed
    bits  8..13  work             (the bit length of the nodes the search below it took)
    bits  1..7   score + 64
    bit   0      1: a lower bound, 0: an upper bound

Every word stored is a true bound on its position's score, so a word lost or overwritten costs
time, never correctness; the column only orders the moves.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, cast

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from oxo.gravity.bitboard import _SYM_PLY, _mirror
from oxo.gravity.board import GravityBoard

#: Transposition table words by default (8 bytes each: 64 MiB).
DEFAULT_TABLE = 1 << 23

#: Transposition table words of ``oxo solve`` on boards of at most 42 cells (32 MiB).
SOLVE_TABLE = 1 << 22

#: Bits of a table word that keep ``key // buckets``.
_TAG_BITS = 43


@njit(cache=True, nogil=True, inline="always")
def _table_key(pos: int, mask: int, ply: int, params: np.ndarray) -> int:
    """The table's key of a position: ``marks of the side to move + mask`` (unique), the smaller of
    the position's and its mirror image's while few marks are down (mirror images share a score)."""
    key = pos + mask
    if ply <= params[_SYM_PLY]:
        other = _mirror(key, params)
        if other < key:
            key = other
    return key


@intrinsic
def _prefetch_word_intrinsic(typingctx: Any, table: Any, index: Any) -> Any:
    """Ask the processor to bring ``table[index]`` into its cache (LLVM's prefetch; no effect on
    the values): a table word is far in memory, and the search has other work meanwhile."""
    signature = types.void(table, types.int64)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        kind = sig.args[0]
        array = context.make_array(kind)(context, builder, args[0])
        pointer = cgutils.get_item_pointer(context, builder, kind, array, [args[1]])
        byte = builder.bitcast(pointer, ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        fetch = ir.FunctionType(ir.VoidType(), [ir.IntType(8).as_pointer(), i32, i32, i32])
        function = cgutils.get_or_insert_function(builder.module, fetch, "llvm.prefetch.p0i8")
        builder.call(
            function, [byte, ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)]
        )
        return context.get_dummy_value()

    return signature, codegen


#: The intrinsic as compiled code calls it (the cast only tells the type checker so).
_prefetch_word = cast(Callable[[np.ndarray, int], None], _prefetch_word_intrinsic)


@njit(cache=True, nogil=True, inline="always")
def _prefetch(table: np.ndarray, key: int, buckets: int) -> None:
    """Start bringing ``key``'s bucket into the processor's cache, for a :func:`_probe` soon."""
    _prefetch_word(table, 2 * (key % buckets))


@njit(cache=True, nogil=True, inline="always")
def _probe(table: np.ndarray, key: int, buckets: int) -> int:
    """The table's word for ``key`` (0 when it has none)."""
    bucket = key % buckets
    tag = key // buckets
    word = table[2 * bucket]
    if word != 0 and (word >> 20) == tag:
        return word
    word = table[2 * bucket + 1]
    if word != 0 and (word >> 20) == tag:
        return word
    return 0


@njit(cache=True, nogil=True, inline="always")
def _store(
    table: np.ndarray, key: int, buckets: int, score: int, lower: int, work: int, column: int
) -> None:
    """Keep a bound on ``key``'s score (``column``: the best column found, -1 for none)."""
    bucket = key % buckets
    tag = key // buckets
    word = (tag << 20) | ((column + 1) << 16) | (work << 8) | ((score + 64) << 1) | lower
    first = table[2 * bucket]
    if first == 0 or (first >> 20) == tag or ((first >> 8) & 63) <= work:
        table[2 * bucket] = word
    else:
        table[2 * bucket + 1] = word


def prime_at_least(n: int) -> int:
    """The smallest prime ``>= n`` (table buckets are a prime so that keys spread evenly)."""
    n = max(n, 2)
    while True:
        if n % 2 or n == 2:
            d = 3
            while d * d <= n and n % d:
                d += 2
            if n == 2 or d * d > n:
                return n
        n += 1


def default_table_words(board: GravityBoard) -> int:
    """Table words for solving ``board`` from its empty position: ``SOLVE_TABLE`` (32 MiB) up to
    42 cells, which keeps ``oxo solve`` on Connect Four under 256 MiB even while numba compiles
    (the table's size buys little there: 139 million positions with 64 MiB, 142 million with
    32 MiB, 148 million with 16 MiB); beyond, 128 M words (1 GiB), or what a quarter of the memory
    now free holds if less."""
    if board.size <= 42:
        return SOLVE_TABLE
    try:
        free = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        free = 4 << 30
    return max(DEFAULT_TABLE, min(1 << 27, free // 4 // 8))
