"""The transposition table of the compiled Connect Four solver: what a word holds, how a position
is keyed, and the two-entry buckets (one kept by work, one by recency).

The transposition table is one array of int64 words, two per bucket (``buckets`` a power of two,
``2 ** bits``): the first word keeps the entry whose subtree cost the most work, the second the
latest. A key is split into its *tag*, ``key >> bits``, and its bucket, its low ``bits`` bits mixed
with a hash of the tag (:func:`_split`): the tag and the bucket give the key back, so a word need
keep only the tag, and no division is needed (a division by a prime took a fifth of the search's
time). A word packs everything about one position, so that a word written by one process while
another reads it is never seen half-written (several processes may share a table through shared
memory):

    bits 17..62  the tag          (``key >> bits``, at most 46 bits)
    bits 13..16  the best column found + 1 (0: none), of the position as keyed
    bits  8..12  work             (the bit length of the nodes the search below it took, at
                                  most 31)
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

#: Bits of a table word that keep the tag (``key >> bits``), and where they start.
_TAG_BITS = 46
_TAG_SHIFT = 17
#: Where the column starts in a word (4 bits), and the largest work kept (5 bits).
_COLUMN_SHIFT = 13
_WORK_MAX = 31

#: An odd multiplier (the golden ratio's, as in Fibonacci hashing) that mixes a tag into the bits
#: of its bucket.
_MIX = -7046029254386353131  # 0x9E3779B97F4A7C15 as a signed 64-bit word


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
def _split(key: int, bits: int) -> tuple[int, int]:
    """``(bucket, tag)`` of a key: the tag is ``key >> bits``, the bucket the key's low ``bits``
    bits mixed with a hash of the tag, so that keys differing only in their high bits (the columns
    on the right) spread over the buckets too. The key is ``tag << bits`` plus the bucket mixed back
    with the same hash: two keys never share both."""
    tag = key >> bits
    bucket = (key ^ ((tag * _MIX) >> 28)) & ((1 << bits) - 1)
    return bucket, tag


@njit(cache=True, nogil=True, inline="always")
def _prefetch(table: np.ndarray, key: int, bits: int) -> None:
    """Start bringing ``key``'s bucket into the processor's cache, for a :func:`_probe` soon."""
    bucket, _ = _split(key, bits)
    _prefetch_word(table, 2 * bucket)


@njit(cache=True, nogil=True, inline="always")
def _probe(table: np.ndarray, key: int, bits: int) -> int:
    """The table's word for ``key`` (0 when it has none)."""
    bucket, tag = _split(key, bits)
    return _probe_at(table, bucket, tag)


@njit(cache=True, nogil=True, inline="always")
def _probe_at(table: np.ndarray, bucket: int, tag: int) -> int:
    """The word of ``bucket`` whose tag is ``tag`` (0 when neither is)."""
    word = table[2 * bucket]
    if word != 0 and (word >> _TAG_SHIFT) == tag:
        return word
    word = table[2 * bucket + 1]
    if word != 0 and (word >> _TAG_SHIFT) == tag:
        return word
    return 0


@njit(cache=True, nogil=True, inline="always")
def _store(
    table: np.ndarray, key: int, bits: int, score: int, lower: int, work: int, column: int
) -> None:
    """Keep a bound on ``key``'s score (``column``: the best column found, -1 for none)."""
    bucket, tag = _split(key, bits)
    _store_at(table, bucket, tag, score, lower, work, column)


@njit(cache=True, nogil=True, inline="always")
def _store_at(
    table: np.ndarray, bucket: int, tag: int, score: int, lower: int, work: int, column: int
) -> None:
    """:func:`_store` by bucket and tag: the first word of the bucket keeps the entry whose subtree
    cost the most work (or the same position's), the second the latest."""
    word = (
        (tag << _TAG_SHIFT)
        | ((column + 1) << _COLUMN_SHIFT)
        | (min(work, _WORK_MAX) << 8)
        | ((score + 64) << 1)
        | lower
    )
    first = table[2 * bucket]
    if first == 0 or (first >> _TAG_SHIFT) == tag or ((first >> 8) & _WORK_MAX) <= work:
        table[2 * bucket] = word
    else:
        table[2 * bucket + 1] = word


def bucket_bits(words: int, least_bits: int = 8) -> int:
    """The bits of the number of buckets of a table of at most ``words`` words (two words a
    bucket), and at least ``least_bits``."""
    return max(least_bits, (max(words, 2) // 2).bit_length() - 1)


def tag_room(board: GravityBoard) -> int:
    """The least bucket bits for ``board``: its keys' bits less the bits a word keeps of the tag."""
    return max(8, board.stride * board.cols - _TAG_BITS)


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
