"""The compiled search for gravity boards too big for one 64-bit word (Connect Four 13 or 14
columns wide and 4 high, 12 wide and 5 high...): the search of :mod:`oxo.gravity.search`, step for
step, with every bitboard held in two words.

The layout is :mod:`oxo.gravity.board`'s (column ``c`` at bits ``c * stride`` up, ``stride = rows
+ 1``, the bit above each column's top always empty), cut between two columns: the low word holds
the first ``lo_cols`` columns, the high word the others, from its bit 0. Each word thus holds whole
columns with their spare bits, so everything done column by column (the playable cells ``(mask +
bottom) & full``, the subtractions of the follow-up bound, the key ``marks + mask``) is done in
each word alone; only the shifts across columns (rows and diagonals) carry bits from one word into
the other (:func:`_up` and :func:`_down`). A move is a column number; its cell is found when it is
played.

The table is :mod:`oxo.gravity.table`'s: a key (``stride * cols`` bits) is split into its tag
(``key >> bits``, at most 46 bits, so the table needs ``2 ** (key bits - 46)`` buckets at least:
12x5's 72 bits need 2 ** 26, a table of 1 GiB) and its bucket, its low bits mixed with a hash of
the tag, as there. Scores, windows, the follow-up bound,
the move order and the enhanced transposition cut-off are those of the one-word search; the tests
compare the two on boards both can hold, and this one with plain minimax on small boards split
over the two words.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from oxo.compiled import NO_REFCOUNTS
from oxo.gravity.bitboard import (
    _BUCKET_BITS,
    _CELLS,
    _COLMASK,
    _COLS,
    _ETC_PLY,
    _K,
    _ROWS,
    _SKEW,
    _SPLIT_PLY,
    _STRIDE,
    _SYM_PLY,
    _bit_length,
    _popcount,
)
from oxo.gravity.board import GravityBoard
from oxo.gravity.ordering import _skew_moves
from oxo.gravity.search import (
    _C_NODES,
    _C_STOP,
    _C_STOPPED,
    _NO_BOUND,
    _NO_CUT,
    _narrow,
)
from oxo.gravity.table import _COLUMN_SHIFT, _MIX, _prefetch_word, _probe_at, _store_at

#: Bits a word of this search holds (a signed 64-bit word with its top bit spare).
WORD_BITS = 63

#: Slots of the wide ``params`` after the one-word search's (whose ``_FULL`` and ``_BOTTOM`` are 0
#: here): the low word's bits and columns, and each word's cells, bottom cells and claim rows.
(
    _LO_BITS,
    _LO_COLS,
    _FULL_LO,
    _FULL_HI,
    _BOTTOM_LO,
    _BOTTOM_HI,
    _CLAIM_LO,
    _CLAIM_HI,
    _ODD_LO,
    _ODD_HI,
) = range(13, 23)

#: Fields of a frame of the stack (one row of ``frames`` per depth).
(
    _F_POS_LO,
    _F_POS_HI,
    _F_MASK_LO,
    _F_MASK_HI,
    _F_ALPHA,
    _F_BETA,
    _F_BUCKET,
    _F_TAG,
    _F_START,
    _F_INDEX,
    _F_FLIP,
    _F_ETC,
) = range(12)

#: Rows of ``kids[depth]``: each child's threats (two words), its follow-up bound, and its table
#: bucket, tag and flip, in the order of ``moves[depth]`` (which holds the columns).
_K_THREATS_LO, _K_THREATS_HI, _K_BOUND, _K_BUCKET, _K_TAG, _K_FLIP = range(6)

#: The rows of ``kids``.
KID_ROWS = 6


def lo_columns(board: GravityBoard) -> int:
    """The columns of the low word: as many as fit in it."""
    return min(board.cols, WORD_BITS // board.stride)


def supports_wide(board: GravityBoard) -> bool:
    """Whether the two words hold the board (with its spare bits)."""
    return (board.cols - lo_columns(board)) * board.stride <= WORD_BITS


def split_words(bits: int, lo_bits: int) -> tuple[int, int]:
    """A bitboard of :mod:`oxo.gravity.board` as the two words of this search."""
    return bits & ((1 << lo_bits) - 1), bits >> lo_bits


def wide_params(
    board: GravityBoard,
    bucket_bits: int,
    symmetric_plies: int,
    etc_plies: int = -1,
    split_ply: int = -1,
    skew: int = 0,
    lo_cols: int | None = None,
) -> np.ndarray:
    """This search's description of a board (the slots of
    :func:`oxo.gravity.bitboard.board_params`, then ``_LO_BITS``...); ``lo_cols`` puts fewer
    columns in the low word than fit (the tests split small boards so)."""
    cols = lo_columns(board) if lo_cols is None else lo_cols
    if not 1 <= cols <= board.cols or (board.cols - cols) * board.stride > WORD_BITS:
        raise ValueError(f"{board.name} cannot be split after {cols} columns")
    lo_bits = cols * board.stride
    if etc_plies < 0:
        etc_plies = board.size - 14
    claim = 0  # the rows where an even column's lowest empty cell is (the spare row included)
    for r in range(board.rows, -1, -2):
        claim |= board.bottom << r
    odd_rows = 0  # the first, third, ... rows from the bottom
    for r in range(0, board.rows, 2):
        odd_rows |= board.bottom << r
    words = [
        *split_words(board.full, lo_bits),
        *split_words(board.bottom, lo_bits),
        *split_words(claim, lo_bits),
        *split_words(odd_rows, lo_bits),
    ]
    return np.array(
        [
            board.size,
            0,
            0,
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
            lo_bits,
            cols,
            *words,
        ],
        dtype=np.int64,
    )


# -- two-word bit tricks ------------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def _up(lo: int, hi: int, s: int, lo_bits: int) -> tuple[int, int]:
    """``(lo, hi) << s`` (``0 < s < 64``): the bits leaving the low word enter the high one (bits
    past the high word's board are left for the caller to mask off)."""
    if s <= lo_bits:
        return (lo << s) & ((1 << lo_bits) - 1), (hi << s) | (lo >> (lo_bits - s))
    return 0, (hi << s) | (lo << (s - lo_bits))


@njit(cache=True, nogil=True, inline="always")
def _down(lo: int, hi: int, s: int, lo_bits: int) -> tuple[int, int]:
    """``(lo, hi) >> s`` (``0 < s < 64``): the high word's lowest bits enter the low word's top."""
    if s <= lo_bits:
        return (lo >> s) | ((hi << (lo_bits - s)) & ((1 << lo_bits) - 1)), hi >> s
    return (hi >> (s - lo_bits)) & ((1 << lo_bits) - 1), hi >> s


@njit(cache=True, nogil=True, inline="always")
def _winning_cells(
    pl: int, ph: int, ml: int, mh: int, params: np.ndarray, scratch: np.ndarray
) -> tuple[int, int]:
    """Empty cells where one more mark of ``pos`` completes ``k`` in a row (playable or not), as
    :func:`oxo.gravity.bitboard._winning_cells`."""
    k = params[_K]
    stride = params[_STRIDE]
    lb = params[_LO_BITS]
    if k == 4:
        rl = (pl << 1) & (pl << 2) & (pl << 3)  # up the column: inside each word
        rh = (ph << 1) & (ph << 2) & (ph << 3)
        for direction in range(3):
            step = stride + direction - 1
            u1l, u1h = _up(pl, ph, step, lb)
            u2l, u2h = _up(pl, ph, 2 * step, lb)
            u3l, u3h = _up(pl, ph, 3 * step, lb)
            d1l, d1h = _down(pl, ph, step, lb)
            d2l, d2h = _down(pl, ph, 2 * step, lb)
            d3l, d3h = _down(pl, ph, 3 * step, lb)
            al = u1l & u2l
            ah = u1h & u2h
            rl |= al & (u3l | d1l)
            rh |= ah & (u3h | d1h)
            al = d1l & d2l
            ah = d1h & d2h
            rl |= al & (u1l | d3l)
            rh |= ah & (u1h | d3h)
        return rl & (params[_FULL_LO] ^ ml), rh & (params[_FULL_HI] ^ mh)
    # Any k: scratch rows 0 and 1 hold the words of the cells with ``a`` marks just before them,
    # rows 2 and 3 those with ``b`` just after (indexed in place, as in the one-word search).
    rl = 0
    rh = 0
    for direction in range(4):
        step = 1 if direction == 0 else stride + direction - 2
        scratch[0, 0] = -1
        scratch[1, 0] = -1
        scratch[2, 0] = -1
        scratch[3, 0] = -1
        for a in range(1, k):
            ul, uh = _up(pl, ph, a * step, lb)
            dl, dh = _down(pl, ph, a * step, lb)
            scratch[0, a] = scratch[0, a - 1] & ul
            scratch[1, a] = scratch[1, a - 1] & uh
            scratch[2, a] = scratch[2, a - 1] & dl
            scratch[3, a] = scratch[3, a - 1] & dh
        for j in range(k):
            rl |= scratch[0, j] & scratch[2, k - 1 - j]
            rh |= scratch[1, j] & scratch[3, k - 1 - j]
    return rl & (params[_FULL_LO] ^ ml), rh & (params[_FULL_HI] ^ mh)


@njit(cache=True, nogil=True, inline="always")
def _has_line(bl: int, bh: int, params: np.ndarray) -> bool:
    """Whether the cells ``(bl, bh)`` (on the board) hold ``k`` in a row."""
    k = params[_K]
    stride = params[_STRIDE]
    lb = params[_LO_BITS]
    for direction in range(4):
        if direction == 0:  # up the column: inside each word
            rl = bl
            rh = bh
            for i in range(1, k):
                rl &= bl >> i
                rh &= bh >> i
        else:
            step = stride + direction - 2
            rl = bl
            rh = bh
            for i in range(1, k):
                dl, dh = _down(bl, bh, i * step, lb)
                rl &= dl
                rh &= dh
        if rl | rh:
            return True
    return False


@njit(cache=True, nogil=True, inline="always")
def _cell(ml: int, mh: int, col: int, params: np.ndarray) -> tuple[int, int]:
    """The cell a mark dropped in column ``col`` lands on (as two words; 0, 0 when it is full)."""
    stride = params[_STRIDE]
    column = params[_COLMASK] >> 1  # the column's cells, without its spare bit
    if col < params[_LO_COLS]:
        return ((ml + params[_BOTTOM_LO]) & params[_FULL_LO]) & (column << (col * stride)), 0
    shift = (col - params[_LO_COLS]) * stride
    return 0, ((mh + params[_BOTTOM_HI]) & params[_FULL_HI]) & (column << shift)


@njit(cache=True, nogil=True, inline="always")
def _settle(
    ml: int, mh: int, ply: int, owl: int, owh: int, params: np.ndarray
) -> tuple[int, int, int, bool]:
    """``(moves lo, moves hi, value, known)``, as :func:`oxo.gravity.search._settle`."""
    cells = params[_CELLS]
    pl = (ml + params[_BOTTOM_LO]) & params[_FULL_LO]
    ph = (mh + params[_BOTTOM_HI]) & params[_FULL_HI]
    fl = pl & owl
    fh = ph & owh
    if _popcount(fl) + _popcount(fh) > 1:
        return 0, 0, -((cells - ply) // 2), True  # two threats: the opponent wins next
    if fl | fh:
        pl = fl
        ph = fh
    nl = pl & ~(owl >> 1)  # never play under an opponent's winning cell
    nh = ph & ~(owh >> 1)
    if nl == 0 and nh == 0:
        return 0, 0, -((cells - ply) // 2), True
    if ply >= cells - 2:
        return nl, nh, 0, True
    return nl, nh, 0, False


@njit(cache=True, nogil=True, inline="always")
def _follow_up(pl: int, ph: int, ml: int, mh: int, tl: int, th: int, params: np.ndarray) -> int:
    """The bound of :func:`oxo.gravity.search._follow_up` (``pos``, ``mask`` and the opponent's
    winning cells ``threats`` as two words each)."""
    rows = params[_ROWS]
    fl = params[_FULL_LO]
    fh = params[_FULL_HI]
    bl = params[_BOTTOM_LO]
    bh = params[_BOTTOM_HI]
    cl = params[_CLAIM_LO]
    ch = params[_CLAIM_HI]
    el = fl & ~ml
    eh = fh & ~mh
    lowl = (ml + bl) & fl
    lowh = (mh + bh) & fh
    oddl = lowl & ~cl
    oddh = lowh & ~ch
    cutl = ((bl << rows) - oddl) & fl
    cuth = ((bh << rows) - oddh) & fh
    theirl = (cutl & cl) | (el & ~cutl & ~cl)
    theirh = (cuth & ch) | (eh & ~cuth & ~ch)
    targl = tl & theirl | (bl << rows)
    targh = th & theirh | (bh << rows)
    sl = targl & ~(targl - bl) & fl
    sh = targh & ~(targh - bh) & fh
    value = _stopped_bound(
        pl, ph, ml, mh, sl, sh, el, eh, lowl, lowh, oddl, oddh, theirl, theirh, params
    )
    if value != _NO_BOUND + 1:
        return value
    ol = sl & cutl  # leave one of the stops of the odd columns unused
    oh = sh & cuth
    while ol | oh:
        if ol:
            stop = ol & -ol
            ol ^= stop
            xl, xh = stop, 0
        else:
            stop = oh & -oh
            oh ^= stop
            xl, xh = 0, stop
        value = _stopped_bound(
            pl, ph, ml, mh, sl ^ xl, sh ^ xh, el, eh, lowl, lowh, oddl, oddh, theirl, theirh, params
        )
        if value != _NO_BOUND:
            return value
    return _NO_BOUND


@njit(cache=True, nogil=True, inline="always")
def _stopped_bound(
    pl: int,
    ph: int,
    ml: int,
    mh: int,
    sl: int,
    sh: int,
    el: int,
    eh: int,
    lowl: int,
    lowh: int,
    oddl: int,
    oddh: int,
    theirl: int,
    theirh: int,
    params: np.ndarray,
) -> int:
    """:func:`oxo.gravity.search._stopped_bound` on two words."""
    cells = params[_CELLS]
    rows = params[_ROWS]
    fl = params[_FULL_LO]
    fh = params[_FULL_HI]
    cl = params[_CLAIM_LO]
    ch = params[_CLAIM_HI]
    spl = params[_BOTTOM_LO] << rows
    sph = params[_BOTTOM_HI] << rows
    stopped_l = spl & ~((spl - sl) & spl)
    stopped_h = sph & ~((sph - sh) & sph)
    coll = stopped_l - (stopped_l >> rows)
    colh = stopped_h - (stopped_h >> rows)
    belowl = sl - (lowl & coll)
    belowh = sh - (lowh & colh)
    openl = fl & ~coll
    openh = fh & ~colh
    if (_popcount(oddl & openl) + _popcount(oddh & openh)) & 1:
        return _NO_BOUND + 1
    minel = (belowl & ~theirl) | (openl & ((el & cl) | oddl))
    mineh = (belowh & ~theirh) | (openh & ((eh & ch) | oddh))
    if _has_line(pl | minel, ph | mineh, params):
        return _NO_BOUND
    if sl | sh:
        last = (
            cells
            - _popcount(el & coll)
            - _popcount(eh & colh)
            + _popcount(belowl | sl)
            + _popcount(belowh | sh)
        )
        return -((cells + 2 - last) // 2)
    if _has_line(((pl ^ ml) | (el & ~cl & ~oddl)), ((ph ^ mh) | (eh & ~ch & ~oddh)), params):
        return -1
    return 0


# -- the table ----------------------------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def _key(pl: int, ph: int, ml: int, mh: int, ply: int, params: np.ndarray) -> tuple[int, int, int]:
    """``(bucket, tag, flip)``: the table's place of a position (its key ``marks + mask``, or its
    mirror image's while few marks are down, whichever is smaller; ``flip`` 1 for the mirror)."""
    kl = pl + ml
    kh = ph + mh
    flip = 0
    if ply <= params[_SYM_PLY]:
        stride = params[_STRIDE]
        cols = params[_COLS]
        lo_cols = params[_LO_COLS]
        column = params[_COLMASK]
        ol = 0
        oh = 0
        for c in range(cols):
            if c < lo_cols:
                bits = (kl >> (c * stride)) & column
            else:
                bits = (kh >> ((c - lo_cols) * stride)) & column
            d = cols - 1 - c
            if d < lo_cols:
                ol |= bits << (d * stride)
            else:
                oh |= bits << ((d - lo_cols) * stride)
        if oh < kh or (oh == kh and ol < kl):
            kl = ol
            kh = oh
            flip = 1
    # The key is ``kh << lo_bits | kl``: its tag is ``key >> bits``, its bucket its low bits mixed
    # with a hash of the tag (as :func:`oxo.gravity.table._split`).
    bits = params[_BUCKET_BITS]
    lo_bits = params[_LO_BITS]
    if bits <= lo_bits:
        tag = (kl >> bits) | (kh << (lo_bits - bits))
        low = kl
    else:  # only on small boards split for the tests
        tag = kh >> (bits - lo_bits)
        low = kl | (kh << lo_bits)
    bucket = (low ^ ((tag * _MIX) >> 28)) & ((1 << bits) - 1)
    return bucket, tag, flip


@njit(cache=True, nogil=True, inline="always")
def _etc_cut(
    beta: int,
    bucket: int,
    tag: int,
    flip: int,
    moves: np.ndarray,
    kids: np.ndarray,
    depth: int,
    count: int,
    params: np.ndarray,
    table: np.ndarray,
) -> int:
    """:func:`oxo.gravity.search._etc_cut` (the first ``count`` children, by their buckets)."""
    for j in range(count):
        word = _probe_at(table, kids[depth, _K_BUCKET, j], kids[depth, _K_TAG, j])
        if word != 0 and not word & 1:
            bound = 64 - ((word >> 1) & 127)  # the child's upper bound, negated
            if bound >= beta:
                best = moves[depth, j]
                _store_at(
                    table, bucket, tag, bound, 1, 0, params[_COLS] - 1 - best if flip else best
                )
                return bound
    return _NO_CUT


@njit(cache=True, nogil=True)
def table_word(
    pl: int, ph: int, ml: int, mh: int, ply: int, params: np.ndarray, table: np.ndarray
) -> tuple[int, int]:
    """``(word, flip)``: the table's word for a position (0 when it has none)."""
    bucket, tag, flip = _key(pl, ph, ml, mh, ply, params)
    return _probe_at(table, bucket, tag), flip


# -- the search ---------------------------------------------------------------------------------


@njit(cache=True, nogil=True, **NO_REFCOUNTS)
def _negamax_wide(
    pl: int,
    ph: int,
    ml: int,
    mh: int,
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
    """:func:`oxo.gravity.search._negamax` with every bitboard as two words (``pl``, ``ph`` the
    marks of the side to move, ``ml``, ``mh`` every mark)."""
    cells = params[_CELLS]
    cols = params[_COLS]
    fl = params[_FULL_LO]
    fh = params[_FULL_HI]
    bl = params[_BOTTOM_LO]
    bh = params[_BOTTOM_HI]
    odd_l = params[_ODD_LO]
    odd_h = params[_ODD_HI]
    even_l = fl & ~odd_l
    even_h = fh & ~odd_h
    root = ply
    depth = 0
    counter[_C_STOPPED] = 0
    while True:
        ply = root + depth
        nodes = counter[_C_NODES] + 1
        counter[_C_NODES] = nodes
        if (nodes & 4095) == 0 and counter[_C_STOP]:
            counter[_C_STOPPED] = 1
            return 0
        if depth == 0:
            owl, owh = _winning_cells(pl ^ ml, ph ^ mh, ml, mh, params, scratch)
            bound = _NO_BOUND + 1  # not computed yet
            bucket, tag, flip = _key(pl, ph, ml, mh, ply, params)
        else:  # computed by the parent while it ordered its moves
            index = frames[depth - 1, _F_INDEX]
            owl = kids[depth - 1, _K_THREATS_LO, index]
            owh = kids[depth - 1, _K_THREATS_HI, index]
            bound = kids[depth - 1, _K_BOUND, index]
            bucket = kids[depth - 1, _K_BUCKET, index]
            tag = kids[depth - 1, _K_TAG, index]
            flip = kids[depth - 1, _K_FLIP, index]
        nl, nh, value, known = _settle(ml, mh, ply, owl, owh, params)
        count = 0
        etc = 0
        if not known:
            alpha, beta, value, known = _narrow(alpha, beta, ply, cells)
        if not known:
            if bound > _NO_BOUND:
                bound = _follow_up(pl, ph, ml, mh, owl, owh, params)
            if bound <= alpha:
                value = bound
                known = True
            elif bound < beta:
                beta = bound
        hint = -1
        if not known:
            word = _probe_at(table, bucket, tag)
            if word != 0:
                stored = ((word >> 1) & 127) - 64
                hint = ((word >> _COLUMN_SHIFT) & 15) - 1
                if hint >= 0 and flip:
                    hint = cols - 1 - hint
                if word & 1:
                    if alpha < stored:
                        alpha = stored
                        if alpha >= beta:
                            value = alpha
                            known = True
                elif beta > stored:
                    beta = stored
                    if alpha >= beta:
                        value = beta
                        known = True
        if not known:
            parity_l = odd_l if (ply & 1) == 0 else even_l
            parity_h = odd_h if (ply & 1) == 0 else even_h
            for i in range(cols - 1, -1, -1):
                col = order[i]
                cl_, ch_ = _cell(ml, mh, col, params)
                mvl = cl_ & nl
                mvh = ch_ & nh
                if mvl | mvh:
                    cml = ml | mvl
                    cmh = mh | mvh
                    cb, ct, cf = _key(pl ^ ml, ph ^ mh, cml, cmh, ply + 1, params)
                    _prefetch_word(table, 2 * cb)
                    tl, th = _winning_cells(pl | mvl, ph | mvh, cml, cmh, params, scratch)
                    child_bound = _NO_BOUND
                    if not known:
                        child_bound = _follow_up(pl ^ ml, ph ^ mh, cml, cmh, tl, th, params)
                        if -child_bound >= beta:
                            value = -child_bound
                            known = True
                    ul = tl & ~(owl << 1)  # not above an opponent's: useless
                    uh = th & ~(owh << 1)
                    al = (((cml + bl) & fl) << 1) & fl
                    ah = (((cmh + bh) & fh) << 1) & fh
                    score = (
                        2 * (_popcount(ul) + _popcount(uh))
                        + _popcount(ul & parity_l)
                        + _popcount(uh & parity_h)
                        + _popcount(ul & al)
                        + _popcount(uh & ah)
                    )
                    if col == hint:
                        score = 1000
                    j = count
                    while j > 0 and scores[depth, j - 1] > score:
                        moves[depth, j] = moves[depth, j - 1]
                        scores[depth, j] = scores[depth, j - 1]
                        for row in range(KID_ROWS):
                            kids[depth, row, j] = kids[depth, row, j - 1]
                        j -= 1
                    moves[depth, j] = col
                    scores[depth, j] = score
                    kids[depth, _K_THREATS_LO, j] = tl
                    kids[depth, _K_THREATS_HI, j] = th
                    kids[depth, _K_BOUND, j] = child_bound
                    kids[depth, _K_BUCKET, j] = cb
                    kids[depth, _K_TAG, j] = ct
                    kids[depth, _K_FLIP, j] = cf
                    count += 1
            if not known and ply <= params[_ETC_PLY]:
                if hint >= 0:
                    etc = 1
                else:
                    cut = _etc_cut(
                        beta, bucket, tag, flip, moves, kids, depth, count, params, table
                    )
                    if cut != _NO_CUT:
                        value = cut
                        known = True
            if not known and ply == params[_SPLIT_PLY] and params[_SKEW] and count > 1:
                _skew_moves(moves, kids, depth, count, params)
        if not known:
            frames[depth, _F_POS_LO] = pl
            frames[depth, _F_POS_HI] = ph
            frames[depth, _F_MASK_LO] = ml
            frames[depth, _F_MASK_HI] = mh
            frames[depth, _F_ALPHA] = alpha
            frames[depth, _F_BETA] = beta
            frames[depth, _F_BUCKET] = bucket
            frames[depth, _F_TAG] = tag
            frames[depth, _F_START] = counter[_C_NODES]
            frames[depth, _F_INDEX] = count - 1
            frames[depth, _F_FLIP] = flip
            frames[depth, _F_ETC] = etc
            xl, xh = _cell(ml, mh, moves[depth, count - 1], params)
            pl, ph = pl ^ ml, ph ^ mh
            ml, mh = ml | xl, mh | xh
            alpha, beta = -beta, -alpha
            depth += 1
            continue
        while True:
            if depth == 0:
                return value
            depth -= 1
            score = -value
            index = frames[depth, _F_INDEX]
            if score >= frames[depth, _F_BETA]:
                work = _bit_length(counter[_C_NODES] - frames[depth, _F_START])
                best = moves[depth, index]
                if frames[depth, _F_FLIP]:
                    best = cols - 1 - best
                _store_at(
                    table, frames[depth, _F_BUCKET], frames[depth, _F_TAG], score, 1, work, best
                )
                value = score
                continue
            if score > frames[depth, _F_ALPHA]:
                frames[depth, _F_ALPHA] = score
            index -= 1
            if index < 0:
                work = _bit_length(counter[_C_NODES] - frames[depth, _F_START])
                value = frames[depth, _F_ALPHA]
                _store_at(
                    table, frames[depth, _F_BUCKET], frames[depth, _F_TAG], value, 0, work, -1
                )
                continue
            if frames[depth, _F_ETC]:
                frames[depth, _F_ETC] = 0
                cut = _etc_cut(
                    frames[depth, _F_BETA],
                    frames[depth, _F_BUCKET],
                    frames[depth, _F_TAG],
                    frames[depth, _F_FLIP],
                    moves,
                    kids,
                    depth,
                    index + 1,
                    params,
                    table,
                )
                if cut != _NO_CUT:
                    value = cut
                    continue
            frames[depth, _F_INDEX] = index
            ml0 = frames[depth, _F_MASK_LO]
            mh0 = frames[depth, _F_MASK_HI]
            xl, xh = _cell(ml0, mh0, moves[depth, index], params)
            pl = frames[depth, _F_POS_LO] ^ ml0
            ph = frames[depth, _F_POS_HI] ^ mh0
            ml = ml0 | xl
            mh = mh0 | xh
            alpha = -frames[depth, _F_BETA]
            beta = -frames[depth, _F_ALPHA]
            depth += 1
            break
