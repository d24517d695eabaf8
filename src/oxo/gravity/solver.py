"""An exact solver for gravity boards (Connect Four and its relatives): the value of a position with
best play and how long the game lasts, for the side to move and for each of its columns.

The search is negamax with alpha-beta over bitboards (the layout of :mod:`oxo.gravity.board`: one
bit above each column's top stays empty, so the playable cells are ``(mask + bottom) & full``), a
transposition table of lower and upper bounds keyed by ``marks of the side to move + mask`` (unique
per position), only moves that do not hand the opponent an immediate win (a position with two
opponent threats, or a threat under a threat, is lost at once), columns tried in the order of the
threats they create (centre first on ties), and an iterative null-window search on the score. The
hot loop is compiled with numba; it holds boards of at most 63 bits (``(rows + 1) * cols <= 63``:
Connect Four uses 49).

Scores follow the usual convention, for the side to move: with ``N`` cells on the board, a win with
the mark played at ply ``p`` (the ``p``-th mark of the game) is worth ``(N + 2 - p) // 2`` — the
earlier, the more — a loss the opposite, a draw 0. On 6x7 the empty board scores +1: the first
player wins with its 21st mark, at ply 41.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import njit

from oxo.errors import OutOfReachError, PositionError
from oxo.game import Outcome, other
from oxo.gravity.board import GravityBoard, GravityState

#: Bits the compiled solver can hold (a signed 64-bit word with its top bit spare).
MAX_BITS = 63
#: Transposition table words by default (8 bytes each: 64 MiB).
DEFAULT_TABLE = 1 << 23
#: Seconds between two looks at a search running in its thread (for its deadline).
_POLL = 0.05
#: Seconds between two progress reports of a long search.
_REPORT_EVERY = 5.0


class _SearchStopped(Exception):
    """The time limit ran out: what the bisection knew (score bounds) and the nodes searched."""

    def __init__(self, known: tuple[int, int], nodes: int) -> None:
        super().__init__("search stopped")
        self.known = known
        self.nodes = nodes


def supports(board: GravityBoard) -> bool:
    """Whether the compiled solver can hold the board (its bits, one spare row included, fit in 63)."""
    return board.stride * board.cols <= MAX_BITS


# -- the compiled core ----------------------------------------------------------------------------
#
# The transposition table is one array of int64 words, two per bucket (``buckets`` a prime): the
# first word keeps the entry whose subtree cost the most work, the second the latest. A word packs
# everything about one position, so that a word written by one process while another reads it is
# never seen half-written (several processes may share a table through shared memory):
#
#     bits 20..62  key // buckets   (the key itself is this times ``buckets`` plus the bucket)
#     bits 16..19  the best column found + 1 (0: none), of the position as keyed
#     bits  8..13  work             (the bit length of the nodes the search below it took)
#     bits  1..7   score + 64
#     bit   0      1: a lower bound, 0: an upper bound
#
# Every word stored is a true bound on its position's score, so a word lost or overwritten costs
# time, never correctness; the column only orders the moves.

#: Bits of a table word that keep ``key // buckets``.
_TAG_BITS = 43

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
    _BUCKETS,
    _COLMASK,
    _ETC_PLY,
    _SPLIT_PLY,
    _SKEW,
) = range(13)

#: Slots of ``counter``: nodes searched, a stop request (set by another thread), and whether the
#: search stopped on that request (then its result means nothing).
_C_NODES, _C_STOP, _C_STOPPED = range(3)


@njit(cache=True, nogil=True)
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
    # Any k: along each direction, ``before[a]`` marks the cells with ``a`` marks of ``pos`` just
    # before them and ``after[b]`` those with ``b`` just after; a cell wins when
    # ``before[j] & after[k-1-j]``.
    result = 0
    before = scratch[0]
    after = scratch[1]
    for direction in range(4):
        step = 1 if direction == 0 else stride + direction - 2
        before[0] = -1
        after[0] = -1
        for a in range(1, k):
            before[a] = before[a - 1] & (pos << (a * step))
            after[a] = after[a - 1] & (pos >> (a * step))
        for j in range(k):
            result |= before[j] & after[k - 1 - j]
    return result & (full ^ mask)


@njit(cache=True, nogil=True)
def _popcount(x: int) -> int:
    """Marks in ``x`` (a non-negative word), without a loop."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x = x + (x >> 8)
    x = x + (x >> 16)
    x = x + (x >> 32)
    return x & 127


@njit(cache=True, nogil=True)
def _bit_length(x: int) -> int:
    """The bit length of ``x >= 0`` (the work of a subtree of ``x`` nodes, on a log scale)."""
    n = 0
    while x > 0:
        x >>= 1
        n += 1
    return n


@njit(cache=True, nogil=True)
def _mirror(key: int, params: np.ndarray) -> int:
    """The key of the left-right mirror image (columns in reverse order)."""
    stride = params[_STRIDE]
    cols = params[_COLS]
    column = params[_COLMASK]
    out = 0
    for c in range(cols):
        out |= ((key >> (c * stride)) & column) << ((cols - 1 - c) * stride)
    return out


@njit(cache=True, nogil=True)
def _table_key(pos: int, mask: int, ply: int, params: np.ndarray) -> int:
    """The table's key of a position: ``marks of the side to move + mask`` (unique), the smaller of
    the position's and its mirror image's while few marks are down (mirror images share a score)."""
    key = pos + mask
    if ply <= params[_SYM_PLY]:
        other = _mirror(key, params)
        if other < key:
            key = other
    return key


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
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


#: Fields of a frame of the search's stack (one row of ``frames`` per depth).
_F_POS, _F_MASK, _F_ALPHA, _F_BETA, _F_KEY, _F_START, _F_INDEX, _F_FLIP = range(8)


@njit(cache=True, nogil=True)
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
    full = params[_FULL]
    bottom = params[_BOTTOM]
    rows = params[_ROWS]
    stride = params[_STRIDE]
    cols = params[_COLS]
    buckets = params[_BUCKETS]
    column = (1 << rows) - 1
    odd_rows = (
        0  # the first, third, ... rows from the bottom (where the first player's threats count)
    )
    for r in range(0, rows, 2):
        odd_rows |= bottom << r
    even_rows = full & ~odd_rows
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
        value = 0
        known = True
        possible = (mask + bottom) & full
        opponent_win = _winning_cells(pos ^ mask, mask, params, scratch)
        forced = possible & opponent_win
        nxt = 0
        if forced & (forced - 1):
            value = -((cells - ply) // 2)  # two threats at once: the opponent wins next
        else:
            if forced:
                possible = forced
            nxt = possible & ~(opponent_win >> 1)  # never play under an opponent's winning cell
            if nxt == 0:
                value = -((cells - ply) // 2)
            elif ply >= cells - 2:
                value = 0
            else:
                known = False
        key = 0
        flip = 0
        hint = -1
        if not known:
            low = -((cells - 2 - ply) // 2)
            if alpha < low:
                alpha = low
                if alpha >= beta:
                    value = alpha
                    known = True
            high = (cells - 1 - ply) // 2
            if not known and beta > high:
                beta = high
                if alpha >= beta:
                    value = beta
                    known = True
        if not known:
            key = _table_key(pos, mask, ply, params)
            flip = 1 if key != pos + mask else 0
            word = _probe(table, key, buckets)
            if word != 0:
                bound = ((word >> 1) & 127) - 64
                hint = ((word >> 16) & 15) - 1
                if hint >= 0 and flip:
                    hint = cols - 1 - hint
                if word & 1:
                    if alpha < bound:
                        alpha = bound
                        if alpha >= beta:
                            value = alpha
                            known = True
                elif beta > bound:
                    beta = bound
                    if alpha >= beta:
                        value = beta
                        known = True
        if not known:
            # Order the moves: the table's best column first, then by the threats each creates
            # (threats on the cell just above another playable one count double: they force a
            # reply at once), centre columns first on ties. ``moves[depth]`` is kept in increasing
            # order, so that the last is tried first.
            count = 0
            for i in range(cols - 1, -1, -1):
                col = order[i]
                move = nxt & (column << (col * stride))
                if move:
                    after = mask | move
                    threats = _winning_cells(pos | move, after, params, scratch)
                    score = 2 * _popcount(threats) + _popcount(
                        threats & (odd_rows if (ply & 1) == 0 else even_rows)
                    )
                    if col == hint:
                        score = 1000
                    j = count
                    while j > 0 and scores[depth, j - 1] > score:
                        moves[depth, j] = moves[depth, j - 1]
                        scores[depth, j] = scores[depth, j - 1]
                        j -= 1
                    moves[depth, j] = move
                    scores[depth, j] = score
                    count += 1
            if ply <= params[_ETC_PLY]:
                # Look the children up first: one the table already knows to be good enough for
                # a cut-off saves searching the others (enhanced transposition cut-off).
                for j in range(count):
                    child = mask | moves[depth, j]
                    word = _probe(table, _table_key(pos ^ mask, child, ply + 1, params), buckets)
                    if word != 0 and not word & 1:
                        bound = 64 - ((word >> 1) & 127)  # the child's upper bound, negated
                        if bound >= beta:
                            value = bound
                            known = True
                            best = _column_of(moves[depth, j], stride)
                            _store(
                                table, key, buckets, value, 1, 0, cols - 1 - best if flip else best
                            )
                            break
            if not known and ply == params[_SPLIT_PLY] and params[_SKEW] and count > 1:
                # Several processes searching the same tree start at different moves here.
                shift = params[_SKEW] % count
                for _ in range(shift):
                    first = moves[depth, count - 1]
                    for j in range(count - 1, 0, -1):
                        moves[depth, j] = moves[depth, j - 1]
                    moves[depth, 0] = first
        if not known:
            frame = frames[depth]
            frame[_F_POS] = pos
            frame[_F_MASK] = mask
            frame[_F_ALPHA] = alpha
            frame[_F_BETA] = beta
            frame[_F_KEY] = key
            frame[_F_START] = counter[_C_NODES]
            frame[_F_INDEX] = count - 1
            frame[_F_FLIP] = flip
            mask = mask | moves[depth, count - 1]
            pos = pos ^ frame[_F_MASK]
            alpha, beta = -beta, -alpha
            depth += 1
            continue
        # Hand ``value`` up the stack until a frame has another child to enter.
        while True:
            if depth == 0:
                return value
            depth -= 1
            frame = frames[depth]
            score = -value
            index = frame[_F_INDEX]
            if score >= frame[_F_BETA]:
                work = _bit_length(counter[_C_NODES] - frame[_F_START])
                best = _column_of(moves[depth, index], stride)
                if frame[_F_FLIP]:
                    best = cols - 1 - best
                _store(table, frame[_F_KEY], buckets, score, 1, min(work, 63), best)
                value = score
                continue
            if score > frame[_F_ALPHA]:
                frame[_F_ALPHA] = score
            index -= 1
            if index < 0:
                work = _bit_length(counter[_C_NODES] - frame[_F_START])
                value = frame[_F_ALPHA]
                _store(table, frame[_F_KEY], buckets, value, 0, min(work, 63), -1)
                continue
            frame[_F_INDEX] = index
            pos = frame[_F_POS] ^ frame[_F_MASK]
            mask = frame[_F_MASK] | moves[depth, index]
            alpha = -frame[_F_BETA]
            beta = -frame[_F_ALPHA]
            depth += 1
            break


@njit(cache=True, nogil=True)
def _column_of(move: int, stride: int) -> int:
    """The column of a one-bit move."""
    n = 0
    while move >= (1 << stride):
        move >>= stride
        n += 1
    return n


def _half(value: int) -> int:
    """``value / 2`` rounded towards zero."""
    return value // 2 if value >= 0 else -((-value) // 2)


# -- the library's face ---------------------------------------------------------------------------


@dataclass(frozen=True)
class GravityValue:
    """The value of a position with best play, for the side to move, and how long the game lasts.

    ``score`` is the solver's score (see the module docstring); ``outcome`` is ``"x"``, ``"o"`` or
    ``"draw"``; ``end_ply`` is the ply of the winning mark (for a draw, the board's size: the game
    ends on a full board); ``plies`` the marks still to be played; ``winner_moves`` the marks the
    winner still plays ("wins in N moves"), 0 for a draw.
    """

    score: int
    outcome: Outcome
    ply: int
    end_ply: int
    weak: bool = False

    @property
    def plies(self) -> int:
        return self.end_ply - self.ply

    @property
    def winner_moves(self) -> int:
        return 0 if self.outcome == "draw" else (self.plies + 1) // 2

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {"value": self.outcome, "score": self.score}
        if not self.weak:
            data.update(
                plies_to_end=self.plies, end_ply=self.end_ply, winner_moves=self.winner_moves
            )
        return data

    def __str__(self) -> str:
        if self.outcome == "draw":
            return "draw"
        who = self.outcome.upper()
        if self.weak:
            return f"{who} wins"
        moves = self.winner_moves
        return f"{who} wins in {moves} move{'s' if moves != 1 else ''} (the game ends at ply {self.end_ply})"


def value_from_score(
    score: int, ply: int, cells: int, mover: Outcome, weak: bool = False
) -> GravityValue:
    """The value meant by a score of the side ``mover`` at ``ply`` on a board of ``cells`` cells."""
    opponent: Outcome = "o" if mover == "x" else "x"
    if score == 0:
        return GravityValue(0, "draw", ply, cells, weak)
    if score > 0:
        end = ply + 1 + 2 * ((cells + 1 - ply) // 2 - score)
        return GravityValue(score, mover, ply, end, weak)
    end = ply + 2 + 2 * ((cells - ply) // 2 + score)
    return GravityValue(score, opponent, ply, end, weak)


@dataclass(frozen=True)
class ColumnValue:
    """One column's value for the side to move (``None`` when the column is full)."""

    column: int
    value: GravityValue

    def to_dict(self) -> dict[str, object]:
        return {"column": self.column + 1, **self.value.to_dict()}


@dataclass(frozen=True)
class GravityAnalysis:
    """A position's exact value and every playable column's, with the search's effort."""

    state: GravityState
    value: GravityValue
    columns: tuple[ColumnValue, ...]
    nodes: int
    seconds: float

    @property
    def best_columns(self) -> tuple[int, ...]:
        """The columns (from 0) that keep the position's value at its best: the quickest win, the
        slowest loss, or a draw."""
        if not self.columns:
            return ()
        best = max(c.value.score for c in self.columns)
        return tuple(c.column for c in self.columns if c.value.score == best)

    def to_dict(self) -> dict[str, object]:
        return {
            **self.state.to_dict(),
            **self.value.to_dict(),
            "best_moves": [c + 1 for c in self.best_columns],
            "moves": [c.to_dict() for c in self.columns],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
        }


def finished_score(state: GravityState, player: Outcome) -> int:
    """``player``'s score in a finished game: ``(cells + 2 - ply) // 2`` for the winner, the
    opposite for the loser, 0 for a draw."""
    if state.outcome == "draw":
        return 0
    won = (state.board.size + 2 - state.ply) // 2
    return won if state.outcome == player else -won


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


def board_params(
    board: GravityBoard,
    buckets: int,
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
            buckets,
            (1 << board.stride) - 1,
            etc_plies,
            split_ply,
            skew,
        ],
        dtype=np.int64,
    )


def default_table_words(board: GravityBoard) -> int:
    """Table words for solving ``board`` from its empty position: the default (64 MiB) up to 36
    cells; beyond, 128 M words (1 GiB), or what a quarter of the memory now free holds if less."""
    if board.size <= 36:
        return DEFAULT_TABLE
    try:
        free = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError):
        free = 4 << 30
    return max(DEFAULT_TABLE, min(1 << 27, free // 4 // 8))


def centre_order(board: GravityBoard) -> np.ndarray:
    """The columns from the centre out (the order moves are tried in when their threats tie)."""
    centre = (board.cols - 1) / 2
    return np.array(sorted(range(board.cols), key=lambda c: (abs(c - centre), c)), dtype=np.int64)


@dataclass
class GravitySolver:
    """The solver of one gravity board, with its transposition table (kept between questions).

    ``table_size`` is the table's number of words (8 bytes each); ``table``, when given, is an array
    of int64 to use instead (for instance one in shared memory, searched by several processes).
    Mirror images share the table's entries while at most ``symmetric_plies`` marks are down."""

    board: GravityBoard
    table_size: int = DEFAULT_TABLE
    nodes: int = 0
    symmetric_plies: int = 20
    table: np.ndarray | None = field(default=None, repr=False)
    on_status: Callable[[str], None] | None = field(default=None, repr=False)
    _arrays: tuple[np.ndarray, ...] = field(init=False, repr=False)
    #: When ``on_status`` last heard news: kept across searches, many of which are short.
    _last_report: float = field(default=0.0, init=False, repr=False)

    def __post_init__(self) -> None:
        if not supports(self.board):
            raise OutOfReachError(
                f"the exact gravity solver holds boards with (rows + 1) x columns <= {MAX_BITS} bits; "
                f"{self.board.rows}x{self.board.cols} needs {self.board.stride * self.board.cols}: "
                "play it with the level hard instead"
            )
        board = self.board
        # A word keeps ``_TAG_BITS`` bits of ``key // buckets``: enough buckets for the board's keys.
        least = max(257, 1 << max(0, board.stride * board.cols - _TAG_BITS))
        if self.table is None:
            self.table = np.zeros(2 * prime_at_least(max(self.table_size // 2, least)), np.int64)
        buckets = self.table.shape[0] // 2
        if buckets < least or self.table.dtype != np.int64:
            raise ValueError(f"a table for {board.name} needs at least {2 * least} int64 words")
        self._arrays = (
            board_params(board, buckets, self.symmetric_plies),
            centre_order(board),
            self.table,
            np.zeros((board.size + 1, 8), dtype=np.int64),
            np.zeros((board.size + 1, board.cols), dtype=np.int64),
            np.zeros((board.size + 1, board.cols), dtype=np.int64),
            np.zeros((2, board.k), dtype=np.int64),
        )

    def clear(self) -> None:
        """Forget the transposition table."""
        self._arrays[2][:] = 0

    def _check(self, state: GravityState) -> None:
        if state.board != self.board:
            raise PositionError(
                f"the position is on {state.board.name}, the solver on {self.board.name}"
            )

    def score(self, state: GravityState, weak: bool = False, seconds: float | None = None) -> int:
        """The score of the side to move (see the module docstring); with ``weak`` only its sign.
        With ``seconds``, raises :class:`OutOfReachError` saying what is known when time runs out."""
        deadline = None if seconds is None else time.perf_counter() + seconds
        try:
            return self._score(state, weak, deadline)
        except _SearchStopped as stop:
            raise OutOfReachError(_stopped_message(state, stop, seconds)) from None

    def _score(self, state: GravityState, weak: bool, deadline: float | None) -> int:
        self._check(state)
        board = self.board
        if state.is_over:
            raise PositionError("the game is over: there is nothing to solve")
        ply = state.ply
        cells = board.size
        if state.winning_moves():
            return 1 if weak else (cells + 1 - ply) // 2
        mine = state.x if state.to_move == "x" else state.o
        low, high = -((cells - ply) // 2), (cells + 1 - ply) // 2
        if weak:
            low, high = -1, 1
        while low < high:  # bisection by null-window searches, probing near 0 first
            med = low + (high - low) // 2
            if med <= 0 and _half(low) < med:
                med = _half(low)
            elif med >= 0 and _half(high) > med:
                med = _half(high)
            r = self._window(mine, state.mask, ply, med, deadline, (low, high))
            if r <= med:
                high = r
            else:
                low = r
        return low

    def _window(
        self,
        mine: int,
        mask: int,
        ply: int,
        med: int,
        deadline: float | None,
        known: tuple[int, int],
    ) -> int:
        """One null-window search (is the score above ``med``?). Without a deadline or progress
        reports it runs here; otherwise in a thread (the compiled search holds no lock), watched from
        here: a deadline or Ctrl-C stops it within a few thousand nodes, every bound it stored kept."""
        counter = np.zeros(3, dtype=np.int64)
        args: tuple[Any, ...] = (mine, mask, ply, med, med + 1, *self._arrays, counter)
        if deadline is None and self.on_status is None:
            result = int(_negamax(*args))
            self.nodes += int(counter[_C_NODES])
            return result
        box: list[int] = []
        worker = threading.Thread(target=lambda: box.append(int(_negamax(*args))), daemon=True)
        started = time.perf_counter()
        if self._last_report == 0.0:
            self._last_report = started
        worker.start()
        try:
            while worker.is_alive():
                now = time.perf_counter()
                wait = _POLL if deadline is None else max(0.0, min(_POLL, deadline - now))
                worker.join(wait)
                now = time.perf_counter()
                if worker.is_alive() and deadline is not None and now >= deadline:
                    counter[_C_STOP] = 1
                    worker.join()
                    self.nodes += int(counter[_C_NODES])
                    raise _SearchStopped(known, self.nodes)
                if self.on_status is not None and now - self._last_report >= _REPORT_EVERY:
                    self._last_report = now
                    self.on_status(
                        f"searching: {_question(med, ply, self.board.size)}; "
                        f"{self.nodes + int(counter[_C_NODES]):,} positions, {now - started:.0f} s"
                    )
        except BaseException:
            counter[_C_STOP] = 1  # Ctrl-C or an error here: stop the search before going on
            worker.join()
            raise
        self.nodes += int(counter[_C_NODES])
        return box[0]

    def table_column(self, state: GravityState) -> int | None:
        """The best column the table remembers for ``state`` (a search found it good enough for a
        cut-off), or ``None``."""
        self._check(state)
        if state.is_over:
            return None
        mine = state.x if state.to_move == "x" else state.o
        params = self._arrays[0]
        key = int(_table_key(mine, state.mask, state.ply, params))
        word = int(_probe(self._arrays[2], key, int(params[_BUCKETS])))
        column = ((word >> 16) & 15) - 1
        if word == 0 or column < 0:
            return None
        return self.board.cols - 1 - column if key != mine + state.mask else column

    def holds(self, state: GravityState, player: Outcome, at_least: bool, threshold: int) -> bool:
        """Whether ``player``'s score in ``state`` is at least (or with ``at_least`` false, at most)
        ``threshold``: one null-window search, cheaper than the exact score. Scores depend only on
        the ply of the winning mark, so a threshold means the same at every ply of a game."""
        self._check(state)
        if player not in ("x", "o"):
            raise ValueError(f"player is 'x' or 'o', got {player!r}")
        if state.is_over:
            score = finished_score(state, player)
        elif state.winning_moves():
            score = (self.board.size + 1 - state.ply) // 2
            if state.to_move != player:
                score = -score
        else:
            mine = state.x if state.to_move == "x" else state.o
            # "player's score >= t" is "the mover's score > t - 1" for the mover, "< -t + 1" else.
            if state.to_move == player:
                med = threshold - 1 if at_least else threshold
                above = self._window(mine, state.mask, state.ply, med, None, (-64, 64)) > med
                return above if at_least else not above
            med = -threshold if at_least else -threshold - 1
            above = self._window(mine, state.mask, state.ply, med, None, (-64, 64)) > med
            return not above if at_least else above
        return score >= threshold if at_least else score <= threshold

    def solve(
        self, state: GravityState, weak: bool = False, seconds: float | None = None
    ) -> GravityValue:
        """The exact value of ``state`` with best play (``weak``: only who wins, which is faster);
        ``seconds`` limits the time (then :class:`OutOfReachError` says what is known)."""
        if state.is_over:
            self._check(state)
            outcome = state.outcome
            assert outcome is not None
            return GravityValue(0 if outcome == "draw" else -1, outcome, state.ply, state.ply, weak)
        mover = state.to_move
        assert mover is not None
        return value_from_score(
            self.score(state, weak, seconds), state.ply, self.board.size, mover, weak
        )

    def analyze(self, state: GravityState, seconds: float | None = None) -> GravityAnalysis:
        """The value of ``state`` and of each playable column (for the side to move), exactly;
        ``seconds`` limits the whole analysis (then :class:`OutOfReachError` says what is known)."""
        started = time.perf_counter()
        before = self.nodes

        self._check(state)
        mover = state.to_move
        if mover is None:
            raise PositionError("the game is over: there is nothing to analyse")
        deadline = None if seconds is None else started + seconds
        # The column the table holds as best goes first, then from the centre out: the best column
        # is often the slowest to prove, and a stopped analysis then reports the likeliest first.
        first = self.table_column(state)
        cols = self.board.cols
        order = sorted(state.legal_moves, key=lambda col: (col != first, abs(2 * col - cols + 1)))
        found: dict[int, GravityValue] = {}
        for col in order:
            child = state.play(col)
            if child.is_over:
                outcome = child.outcome
                assert outcome is not None
                score = 0 if outcome == "draw" else (self.board.size + 1 - state.ply) // 2
                found[col] = GravityValue(score, outcome, state.ply, child.ply)
                continue
            try:
                inner = value_from_score(
                    self._score(child, False, deadline), child.ply, self.board.size, other(mover)
                )
            except _SearchStopped as stop:
                raise OutOfReachError(
                    _analysis_stopped_message(state, found, col, stop, seconds, self.nodes - before)
                ) from None
            found[col] = GravityValue(-inner.score, inner.outcome, state.ply, inner.end_ply)
        columns = tuple(ColumnValue(col, found[col]) for col in state.legal_moves)
        # Scores count from the end of the game, so the position's is its best column's.
        value = value_from_score(
            max(c.value.score for c in columns), state.ply, self.board.size, mover
        )
        return GravityAnalysis(
            state, value, columns, self.nodes - before, time.perf_counter() - started
        )


_SOLVERS: dict[tuple[GravityBoard, int], GravitySolver] = {}


def solver_for(board: GravityBoard, table_size: int = 1 << 20 | 7) -> GravitySolver:
    """A shared solver of ``board`` (one per board and table size in this process)."""
    key = (board, table_size)
    if key not in _SOLVERS:
        _SOLVERS[key] = GravitySolver(board, table_size)
    return _SOLVERS[key]


def analyze(
    state: GravityState,
    seconds: float | None = None,
    table_size: int = DEFAULT_TABLE,
    on_status: Callable[[str], None] | None = None,
) -> GravityAnalysis:
    """The exact value of a gravity position and of each of its columns (see :class:`GravityAnalysis`),
    within ``seconds`` if given (else :class:`OutOfReachError`, saying what is known);
    ``on_status`` hears every few seconds what the search is doing."""
    solver = solver_for(state.board, table_size)
    if on_status is None:
        return solver.analyze(state, seconds)
    before = solver.on_status
    solver.on_status = on_status
    try:
        return solver.analyze(state, seconds)
    finally:
        solver.on_status = before


def solve(
    state: GravityState,
    weak: bool = False,
    seconds: float | None = None,
    table_size: int = DEFAULT_TABLE,
) -> GravityValue:
    """The exact value of a gravity position (see :class:`GravitySolver.solve`)."""
    return solver_for(state.board, table_size).solve(state, weak, seconds)


def _question(med: int, ply: int, cells: int) -> str:
    """What a null-window search at ``med`` asks, in words, for the side to move at ``ply``."""
    if med == 0:
        return "does the side to move win?"
    if med == -1:
        return "does the side to move avoid losing?"
    if med > 0:
        end = value_from_score(med + 1, ply, cells, "x").end_ply
        return f"does the side to move win by ply {end}?"
    end = value_from_score(med + 1, ply, cells, "x").end_ply
    return f"does the side to move lose no sooner than ply {end}?"


def _known_words(state: GravityState, bounds: tuple[int, int]) -> str:
    """Score bounds of the side to move in words: who wins or does not lose, and by when."""
    low, high = bounds
    side = state.to_move or "x"
    mover: Outcome = side
    rival = other(side)
    cells, ply = state.board.size, state.ply
    known: list[str] = []
    if low > 0:
        latest = value_from_score(low, ply, cells, mover).end_ply
        known.append(f"{mover.upper()} wins, by ply {latest} at the latest")
    elif low == 0:
        known.append(f"{mover.upper()} does not lose")
    elif high < 0:
        known.append(f"{rival.upper()} wins")
    if high == 0:
        known.append(f"{mover.upper()} does not win")
    elif 0 < high < (cells + 1 - ply) // 2:
        known.append(
            f"{mover.upper()} cannot win before ply {value_from_score(high, ply, cells, mover).end_ply}"
        )
    return "; ".join(known) if known else "nothing proven yet"


def _stopped_message(state: GravityState, stop: _SearchStopped, seconds: float | None) -> str:
    """What a stopped search knew, in words, and what to try."""
    return (
        f"the exact value of this {state.board.name} position was not found within {seconds:g} s "
        f"({stop.nodes:,} positions searched; known so far: {_known_words(state, stop.known)}); "
        "give it more time with --time"
    )


def _analysis_stopped_message(
    state: GravityState,
    found: dict[int, GravityValue],
    column: int,
    stop: _SearchStopped,
    seconds: float | None,
    nodes: int,
) -> str:
    """What a stopped analysis knew: the columns solved, the one under way, the ones not reached."""
    parts = [f"column {col + 1}: {found[col]}" for col in sorted(found)]
    child = state.play(column)
    parts.append(
        f"column {column + 1}: not solved (known so far: {_known_words(child, stop.known)})"
    )
    waiting = [col + 1 for col in state.legal_moves if col not in found and col != column]
    if waiting:
        parts.append(
            f"not reached: column{'s' * (len(waiting) > 1)} {', '.join(map(str, waiting))}"
        )
    return (
        f"not every column of this {state.board.name} position was solved within {seconds:g} s "
        f"({nodes:,} positions searched): {'; '.join(parts)}; give it more time with --time"
    )


class ExactSolution:
    """Values and best moves of gravity positions for :class:`oxo.engines.exact.PerfectEngine`."""

    def __init__(self, state: GravityState) -> None:
        self.board = state.board
        self._solver = solver_for(state.board)

    def __contains__(self, state: object) -> bool:
        return isinstance(state, GravityState) and state.board == self.board

    def value(self, state: GravityState) -> GravityValue:
        return self._solver.solve(state)

    def best_moves(self, state: GravityState) -> tuple[int, ...]:
        return self._solver.analyze(state).best_columns
