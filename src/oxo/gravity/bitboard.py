"""The bitboards of the compiled Connect Four solver: how a board is described to compiled code
(``params``, one int64 array), the cells where a side would complete ``k`` in a row, and the small
bit tricks the search needs (counting marks, mirror images, the column of a move).

The layout is :mod:`oxo.gravity.board`'s: a column is ``rows + 1`` bits (``stride``), the bit above
the column's top always empty, so that the playable cells are ``(mask + bottom) & full``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from oxo.gravity.board import GravityBoard

#: Bits the compiled solver can hold (a signed 64-bit word with its top bit spare).
MAX_BITS = 63


def supports(board: GravityBoard) -> bool:
    """Whether the compiled solver can hold the board (its bits, one spare row included, fit in 63)."""
    return board.stride * board.cols <= MAX_BITS


#: Slots of ``params`` (one int64 array, so that the compiled functions take few arguments).
(
    _CELLS,
    _FULL,
    _BOTTOM,
    _K,
    _STRIDE,
    _COLS,
    _ROWS,
    _SYM_PLY,
    _BUCKET_BITS,
    _COLMASK,
    _ETC_PLY,
    _SPLIT_PLY,
    _SKEW,
) = range(13)


@njit(cache=True, nogil=True, inline="always")
def _winning_cells(pos: int, mask: int, params: np.ndarray, scratch: np.ndarray) -> int:
    """Empty cells where one more mark of ``pos`` completes ``k`` in a row (playable or not)."""
    full = params[_FULL]
    k = params[_K]
    stride = params[_STRIDE]
    if k == 4:  # Connect Four's k, without loops: three marks before, after, or around each cell
        result = (pos << 1) & (pos << 2) & (pos << 3)  # up the column
        for direction in range(3):
            step = stride + direction - 1
            pair = (pos << step) & (pos << (2 * step))
            result |= pair & (pos << (3 * step))
            result |= pair & (pos >> step)
            pair = (pos >> step) & (pos >> (2 * step))
            result |= pair & (pos << step)
            result |= pair & (pos >> (3 * step))
        return result & (full ^ mask)
    # Any k: along each direction, ``scratch[0, a]`` marks the cells with ``a`` marks of ``pos``
    # just before them and ``scratch[1, b]`` those with ``b`` just after; a cell wins when
    # ``scratch[0, j] & scratch[1, k-1-j]`` (rows of ``scratch`` indexed in place: a row taken
    # as an array of its own costs a reference count each call).
    result = 0
    for direction in range(4):
        step = 1 if direction == 0 else stride + direction - 2
        scratch[0, 0] = -1
        scratch[1, 0] = -1
        for a in range(1, k):
            scratch[0, a] = scratch[0, a - 1] & (pos << (a * step))
            scratch[1, a] = scratch[1, a - 1] & (pos >> (a * step))
        for j in range(k):
            result |= scratch[0, j] & scratch[1, k - 1 - j]
    return result & (full ^ mask)


@njit(cache=True, nogil=True)
def _claim_rows(params: np.ndarray) -> int:
    """The cells on the rows where a column's lowest empty cell is when the column has an even
    number of empty cells (the spare row above the top included): the rows the side to move gets
    when its opponent answers each mark on top of it (Allis's claimeven)."""
    rows = 0
    for r in range(params[_ROWS], -1, -2):
        rows |= params[_BOTTOM] << r
    return rows


@njit(cache=True, nogil=True, inline="always")
def _has_line(b: int, params: np.ndarray) -> bool:
    """Whether the cells of ``b`` (on the board, none in the spare row) hold ``k`` in a row."""
    k = params[_K]
    stride = params[_STRIDE]
    for direction in range(4):
        step = 1 if direction == 0 else stride + direction - 2
        if k == 4:
            run = b & (b >> step)
            if run & (run >> (2 * step)):
                return True
        else:
            run = b
            for i in range(1, k):
                run &= b >> (i * step)
            if run:
                return True
    return False


@intrinsic
def _ctpop_intrinsic(typingctx: Any, x: Any) -> Any:
    """LLVM's population count of a 64-bit word (one instruction where the processor has one)."""
    signature = types.int64(types.int64)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        kind = ir.FunctionType(ir.IntType(64), [ir.IntType(64)])
        return builder.call(
            cgutils.get_or_insert_function(builder.module, kind, "llvm.ctpop.i64"), args
        )

    return signature, codegen


#: The intrinsic as compiled code calls it (the cast only tells the type checker so).
_ctpop = cast(Callable[[int], int], _ctpop_intrinsic)


@njit(cache=True, nogil=True, inline="always")
def _popcount(x: int) -> int:
    """Marks in ``x`` (a non-negative word)."""
    return _ctpop(x)


@njit(cache=True, nogil=True, inline="always")
def _bit_length(x: int) -> int:
    """The bit length of ``x >= 0`` (the work of a subtree of ``x`` nodes, on a log scale)."""
    n = 0
    while x > 0:
        x >>= 1
        n += 1
    return n


@njit(cache=True, nogil=True, inline="always")
def _mirror(key: int, params: np.ndarray) -> int:
    """The key of the left-right mirror image (columns in reverse order)."""
    stride = params[_STRIDE]
    cols = params[_COLS]
    column = params[_COLMASK]
    out = 0
    for c in range(cols):
        out |= ((key >> (c * stride)) & column) << ((cols - 1 - c) * stride)
    return out


@njit(cache=True, nogil=True, inline="always")
def _column_of(move: int, stride: int) -> int:
    """The column of a one-bit move."""
    n = 0
    while move >= (1 << stride):
        move >>= stride
        n += 1
    return n


def board_params(
    board: GravityBoard,
    bucket_bits: int,
    symmetric_plies: int,
    etc_plies: int = -1,
    split_ply: int = -1,
    skew: int = 0,
) -> np.ndarray:
    """The compiled core's description of a board and search (see the ``_CELLS``... slots): mirror
    images share table entries up to ply ``symmetric_plies``, children are looked up in the table
    before searching up to ply ``etc_plies`` (default: the board's size less 14), and at ply
    ``split_ply`` the moves start ``skew`` places further on (for parallel searches)."""
    if etc_plies < 0:
        etc_plies = board.size - 14
    return np.array(
        [
            board.size,
            board.full,
            board.bottom,
            board.k,
            board.stride,
            board.cols,
            board.rows,
            symmetric_plies,
            bucket_bits,
            (1 << board.stride) - 1,
            etc_plies,
            split_ply,
            skew,
        ],
        dtype=np.int64,
    )
