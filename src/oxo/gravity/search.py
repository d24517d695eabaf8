"""The search of the compiled Connect Four solver: negamax with alpha-beta over bitboards, written as
a loop over an explicit stack, with the table's bounds, only moves that do not hand the opponent an
immediate win, and the children looked up in the table before they are searched (enhanced
transposition cut-off).

Each node is entered in steps, one function each: :func:`_settle` (a value known from the threats
alone), :func:`_narrow` (the window against the scores still possible), :func:`_look_up` (the
table's bound and best column), the move ordering of :mod:`oxo.gravity.ordering` (written in the
loop: as a call of its own it cost 5 to 15 %), and :func:`_etc_cut`. The helpers are inlined by
numba (``inline="always"``); the node counts are the same as before the split.

numba's on-disk cache does not notice a change in a function of another module: after editing
``bitboard``, ``table`` or ``ordering``, delete ``src/oxo/gravity/__pycache__``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from oxo.compiled import NO_REFCOUNTS
from oxo.gravity.bitboard import (
    _BOTTOM,
    _BUCKET_BITS,
    _CELLS,
    _COLS,
    _ETC_PLY,
    _FULL,
    _ROWS,
    _SKEW,
    _SPLIT_PLY,
    _STRIDE,
    _bit_length,
    _claim_rows,
    _column_of,
    _has_line,
    _popcount,
    _winning_cells,
)
from oxo.gravity.ordering import _skew_moves
from oxo.gravity.table import _COLUMN_SHIFT, _prefetch, _probe, _store, _table_key

#: Slots of ``counter``: nodes searched, a stop request (set by another thread), and whether the
#: search stopped on that request (then its result means nothing).
_C_NODES, _C_STOP, _C_STOPPED = range(3)

#: Fields of a frame of the search's stack (one row of ``frames`` per depth).
_F_POS, _F_MASK, _F_ALPHA, _F_BETA, _F_KEY, _F_START, _F_INDEX, _F_FLIP, _F_ETC = range(9)

#: Rows of ``kids[depth]``: each child's threats (its opponent's winning cells), its own
#: follow-up bound, and its table key, in the order of ``moves[depth]``.
_K_THREATS, _K_BOUND, _K_KEY = range(3)


#: What :func:`_etc_cut` answers when no child gives a cut-off (no score is this low).
_NO_CUT = -1000
#: What :func:`_follow_up` answers when it knows no bound (no score is this high).
_NO_BOUND = 1000


@njit(cache=True, nogil=True, inline="always")
def _settle(mask: int, ply: int, opponent_win: int, params: np.ndarray) -> tuple[int, int, bool]:
    """``(moves, value, known)``: the moves worth searching (one bit per column: the forced reply to
    an opponent's threat if there is one, never the cell under an opponent's winning cell, given
    as ``opponent_win``), or the value when it is known at once (two threats, no safe move, or a
    full board next)."""
    cells = params[_CELLS]
    full = params[_FULL]
    possible = (mask + params[_BOTTOM]) & full
    forced = possible & opponent_win
    if forced & (forced - 1):
        return 0, -((cells - ply) // 2), True  # two threats: the opponent wins next
    if forced:
        possible = forced
    nxt = possible & ~(opponent_win >> 1)  # never play under an opponent's winning cell
    if nxt == 0:
        return 0, -((cells - ply) // 2), True
    if ply >= cells - 2:
        return nxt, 0, True
    return nxt, 0, False


@njit(cache=True, nogil=True, inline="always")
def _narrow(alpha: int, beta: int, ply: int, cells: int) -> tuple[int, int, int, bool]:
    """``(alpha, beta, value, known)``: the window narrowed to the scores still possible (the side
    to move cannot win with its next mark, nor lose before the opponent's next)."""
    low = -((cells - 2 - ply) // 2)
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha, beta, alpha, True
    high = (cells - 1 - ply) // 2
    if beta > high:
        beta = high
        if alpha >= beta:
            return alpha, beta, beta, True
    return alpha, beta, 0, False


@njit(cache=True, nogil=True, inline="always")
def _follow_up(pos: int, mask: int, threats: int, claim_rows: int, params: np.ndarray) -> int:
    """An upper bound on the score of the side to move from a strategy of the opponent that
    generalises Allis's claimeven, or ``_NO_BOUND``.

    The opponent answers every mark in the same column, on top of it. A column with an even number
    of empty cells thus gives the opponent every other cell from the second up (the rows off
    ``claim_rows``) and the side to move the rest; a column with an odd number gives the side to
    move its lowest empty cell and the opponent every other cell above it (the rows of
    ``claim_rows``). A column is *stopped* by the opponent's lowest winning cell (``threats``) among
    the cells it would get there, if it has one: the side to move never plays directly under it
    (the opponent would win at once), so it gets no cell above. When the side to move fills one of
    the odd columns that are not stopped (the *open* ones), the opponent plays the lowest empty cell
    of another open column, which then has an even number: the strategy works when the open
    columns are even in number. There the side to move may get the lowest cell and every cell of
    its claimeven rows, the opponent surely gets the other cells above the lowest.

    If the marks of the side to move and the cells it may get hold no line, it never wins. With a
    stopped column it must in the end play under a stop and loses, at the latest when every cell
    but those above the stops is filled; without one it scores at most 0, and at most -1 if the
    opponent's marks and the cells it surely gets hold a line. Column by column without a loop:
    subtractions borrow only inside a column, as each column's spare bit (``spare``) is above
    everything else in it."""
    full = params[_FULL]
    bottom = params[_BOTTOM]
    spare = bottom << params[_ROWS]
    empty = full & ~mask
    lowest = (mask + bottom) & full  # the lowest empty cell of each column not full
    odd = lowest & ~claim_rows  # ... of the columns with an odd number of empty cells
    cut = (spare - odd) & full  # the empty cells of the odd columns
    theirs = (cut & claim_rows) | (empty & ~cut & ~claim_rows)  # the opponent's cells
    targets = threats & theirs | spare
    stops = targets & ~(targets - bottom) & full  # the lowest of each column, if any
    value = _stopped_bound(pos, mask, stops, empty, lowest, odd, theirs, claim_rows, params)
    if value != _NO_BOUND + 1:
        return value
    # An odd number of open columns: the opponent may leave one of its stops in the columns with
    # an odd number of empty cells unused (that column is then open like the others).
    odd_stops = stops & cut
    while odd_stops:
        stop = odd_stops & -odd_stops
        odd_stops ^= stop
        value = _stopped_bound(
            pos, mask, stops ^ stop, empty, lowest, odd, theirs, claim_rows, params
        )
        if value != _NO_BOUND:
            return value
    return _NO_BOUND


@njit(cache=True, nogil=True, inline="always")
def _stopped_bound(
    pos: int,
    mask: int,
    stops: int,
    empty: int,
    lowest: int,
    odd: int,
    theirs: int,
    claim_rows: int,
    params: np.ndarray,
) -> int:
    """The bound of :func:`_follow_up` with the opponent using the ``stops`` given (at most one a
    column); ``_NO_BOUND + 1`` when the open columns are odd in number."""
    cells = params[_CELLS]
    full = params[_FULL]
    spare = params[_BOTTOM] << params[_ROWS]
    if stops:
        open_spares = (spare - stops) & spare  # the spare bits of the columns without a stop
        stopped = spare & ~open_spares
        columns = stopped - (stopped >> params[_ROWS])  # the cells of the stopped columns
        below = stops - (lowest & columns)  # from the lowest empty cell up to the stop
        opened = full & ~columns
    else:
        columns = 0
        below = 0
        opened = full
    if _popcount(odd & opened) & 1:
        return _NO_BOUND + 1  # an odd number of open columns
    mine = (below & ~theirs) | (opened & ((empty & claim_rows) | odd))
    if _has_line(pos | mine, params):
        return _NO_BOUND
    if stops:
        # The opponent wins at the latest when every cell but those above the stops is filled.
        last = cells - _popcount(empty & columns) + _popcount(below | stops)
        return -((cells + 2 - last) // 2)
    if _has_line((pos ^ mask) | (empty & ~claim_rows & ~odd), params):
        return -1
    return 0


@njit(cache=True, nogil=True, inline="always")
def _look_up(
    pos: int, mask: int, key: int, alpha: int, beta: int, params: np.ndarray, table: np.ndarray
) -> tuple[int, int, int, int, int, int, bool]:
    """``(key, flip, hint, alpha, beta, value, known)``: the position's table key (given, with
    ``flip`` 1 when it is its mirror image's), the table's best column (-1: none) and the window
    narrowed by its bound."""
    flip = 1 if key != pos + mask else 0
    hint = -1
    word = _probe(table, key, params[_BUCKET_BITS])
    if word != 0:
        bound = ((word >> 1) & 127) - 64
        hint = ((word >> _COLUMN_SHIFT) & 15) - 1
        if hint >= 0 and flip:
            hint = params[_COLS] - 1 - hint
        if word & 1:
            if alpha < bound:
                alpha = bound
                if alpha >= beta:
                    return key, flip, hint, alpha, beta, alpha, True
        elif beta > bound:
            beta = bound
            if alpha >= beta:
                return key, flip, hint, alpha, beta, beta, True
    return key, flip, hint, alpha, beta, 0, False


@njit(cache=True, nogil=True, inline="always")
def _etc_cut(
    beta: int,
    key: int,
    flip: int,
    moves: np.ndarray,
    kids: np.ndarray,
    depth: int,
    count: int,
    params: np.ndarray,
    table: np.ndarray,
) -> int:
    """The value of a cut-off by one of the first ``count`` children that the table already knows
    to be good enough (enhanced transposition cut-off, saving the search of the others; the
    cut-off is stored), or ``_NO_CUT``."""
    bits = params[_BUCKET_BITS]
    stride = params[_STRIDE]
    for j in range(count):
        word = _probe(table, kids[depth, _K_KEY, j], bits)
        if word != 0 and not word & 1:
            bound = 64 - ((word >> 1) & 127)  # the child's upper bound, negated
            if bound >= beta:
                best = _column_of(moves[depth, j], stride)
                _store(table, key, bits, bound, 1, 0, params[_COLS] - 1 - best if flip else best)
                return bound
    return _NO_CUT


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def _negamax(
    pos: int,
    mask: int,
    ply: int,
    alpha: int,
    beta: int,
    params: np.ndarray,
    order: np.ndarray,
    table: np.ndarray,
    frames: np.ndarray,
    moves: np.ndarray,
    scores: np.ndarray,
    kids: np.ndarray,
    scratch: np.ndarray,
    counter: np.ndarray,
) -> int:
    """The score of the side to move (``pos`` its marks) within the window (alpha, beta), given that it
    cannot win with its next mark: negamax with alpha-beta, written as a loop over an explicit stack
    (``frames``, ``moves`` and ``scores`` have a row per depth) rather than as a recursion.

    ``counter[_C_NODES]`` counts the nodes; when another thread sets ``counter[_C_STOP]``, the search
    returns within a few thousand nodes with ``counter[_C_STOPPED]`` set, and its result means
    nothing (every bound it stored in the table is still true)."""
    cells = params[_CELLS]
    stride = params[_STRIDE]
    cols = params[_COLS]
    bits = params[_BUCKET_BITS]
    bottom = params[_BOTTOM]
    full = params[_FULL]
    odd_rows = (
        0  # the first, third, ... rows from the bottom (where the first player's threats count)
    )
    for r in range(0, params[_ROWS], 2):
        odd_rows |= params[_BOTTOM] << r
    even_rows = params[_FULL] & ~odd_rows
    claim_rows = _claim_rows(params)
    root = ply
    depth = 0
    counter[_C_STOPPED] = 0
    while True:
        # Enter the node at ``depth`` (position ``pos``/``mask``, window ``alpha``/``beta``): either
        # its value is known at once (``value``), or its frame is pushed and its first child entered.
        ply = root + depth
        nodes = counter[_C_NODES] + 1
        counter[_C_NODES] = nodes
        if (nodes & 4095) == 0 and counter[_C_STOP]:
            counter[_C_STOPPED] = 1
            return 0
        key = _table_key(pos, mask, ply, params)
        # (its bucket was prefetched by the parent, while it ordered its moves)
        if depth == 0:
            opponent_win = _winning_cells(pos ^ mask, mask, params, scratch)
            bound = _NO_BOUND + 1  # not computed yet
        else:  # computed by the parent while it ordered its moves
            index = frames[depth - 1, _F_INDEX]
            opponent_win = kids[depth - 1, _K_THREATS, index]
            bound = kids[depth - 1, _K_BOUND, index]
        nxt, value, known = _settle(mask, ply, opponent_win, params)
        flip = 0
        count = 0
        etc = 0
        if not known:
            alpha, beta, value, known = _narrow(alpha, beta, ply, cells)
        if not known:
            if bound > _NO_BOUND:
                bound = _follow_up(pos, mask, opponent_win, claim_rows, params)
            if bound <= alpha:
                value = bound
                known = True
            elif bound < beta:
                beta = bound
        if not known:
            key, flip, hint, alpha, beta, value, known = _look_up(
                pos, mask, key, alpha, beta, params, table
            )
            if not known:
                parity = odd_rows if (ply & 1) == 0 else even_rows
                # Order the moves (see :mod:`oxo.gravity.ordering`): the table's best column first,
                # then by the threats each creates, those on the mover's rows counting once more,
                # centre columns first on ties. ``moves[depth]`` is kept in increasing order of
                # promise, so that the last is tried first.
                count = 0
                column = (1 << params[_ROWS]) - 1
                for i in range(cols - 1, -1, -1):
                    col = order[i]
                    move = nxt & (column << (col * stride))
                    if move:
                        child = _table_key(pos ^ mask, mask | move, ply + 1, params)
                        _prefetch(table, child, bits)  # needed soon, by the ETC or the child
                        threats = _winning_cells(pos | move, mask | move, params, scratch)
                        child_threats = threats
                        child_bound = _NO_BOUND
                        if not known:
                            child_bound = _follow_up(
                                pos ^ mask, mask | move, threats, claim_rows, params
                            )
                            if -child_bound >= beta:
                                value = -child_bound
                                known = True
                        threats &= ~(opponent_win << 1)  # not above an opponent's: useless
                        above = (((mask | move) + bottom) & full) << 1
                        score = (
                            2 * _popcount(threats)
                            + _popcount(threats & parity)
                            + _popcount(threats & above)
                        )
                        if col == hint:
                            score = 1000
                        j = count
                        while j > 0 and scores[depth, j - 1] > score:
                            moves[depth, j] = moves[depth, j - 1]
                            scores[depth, j] = scores[depth, j - 1]
                            kids[depth, _K_THREATS, j] = kids[depth, _K_THREATS, j - 1]
                            kids[depth, _K_BOUND, j] = kids[depth, _K_BOUND, j - 1]
                            kids[depth, _K_KEY, j] = kids[depth, _K_KEY, j - 1]
                            j -= 1
                        moves[depth, j] = move
                        scores[depth, j] = score
                        kids[depth, _K_THREATS, j] = child_threats
                        kids[depth, _K_BOUND, j] = child_bound
                        kids[depth, _K_KEY, j] = child
                        count += 1
                # The children are looked up in the table (enhanced transposition cut-off) now,
                # or, when the table gave a best column, only if that column does not cut off:
                # it mostly does, and the look-ups would wait for memory.
                if not known and ply <= params[_ETC_PLY]:
                    if hint >= 0:
                        etc = 1
                    else:
                        cut = _etc_cut(beta, key, flip, moves, kids, depth, count, params, table)
                        if cut != _NO_CUT:
                            value = cut
                            known = True
                if not known and ply == params[_SPLIT_PLY] and params[_SKEW] and count > 1:
                    _skew_moves(moves, kids, depth, count, params)
        if not known:
            frames[depth, _F_POS] = pos
            frames[depth, _F_MASK] = mask
            frames[depth, _F_ALPHA] = alpha
            frames[depth, _F_BETA] = beta
            frames[depth, _F_KEY] = key
            frames[depth, _F_START] = counter[_C_NODES]
            frames[depth, _F_INDEX] = count - 1
            frames[depth, _F_FLIP] = flip
            frames[depth, _F_ETC] = etc
            mask = mask | moves[depth, count - 1]
            pos = pos ^ frames[depth, _F_MASK]
            alpha, beta = -beta, -alpha
            depth += 1
            continue
        # Hand ``value`` up the stack until a frame has another child to enter.
        while True:
            if depth == 0:
                return value
            depth -= 1
            score = -value
            index = frames[depth, _F_INDEX]
            if score >= frames[depth, _F_BETA]:
                work = _bit_length(counter[_C_NODES] - frames[depth, _F_START])
                best = _column_of(moves[depth, index], stride)
                if frames[depth, _F_FLIP]:
                    best = cols - 1 - best
                _store(table, frames[depth, _F_KEY], bits, score, 1, work, best)
                value = score
                continue
            if score > frames[depth, _F_ALPHA]:
                frames[depth, _F_ALPHA] = score
            index -= 1
            if index < 0:
                work = _bit_length(counter[_C_NODES] - frames[depth, _F_START])
                value = frames[depth, _F_ALPHA]
                _store(table, frames[depth, _F_KEY], bits, value, 0, work, -1)
                continue
            if frames[depth, _F_ETC]:  # the table's column did not cut off: look the rest up
                frames[depth, _F_ETC] = 0
                cut = _etc_cut(
                    frames[depth, _F_BETA],
                    frames[depth, _F_KEY],
                    frames[depth, _F_FLIP],
                    moves,
                    kids,
                    depth,
                    index + 1,
                    params,
                    table,
                )
                if cut != _NO_CUT:
                    value = cut  # this node's value, handed up
                    continue
            frames[depth, _F_INDEX] = index
            pos = frames[depth, _F_POS] ^ frames[depth, _F_MASK]
            mask = frames[depth, _F_MASK] | moves[depth, index]
            alpha = -frames[depth, _F_BETA]
            beta = -frames[depth, _F_ALPHA]
            depth += 1
            break
