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

import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from oxo.errors import OutOfReachError, PositionError
from oxo.game import Outcome
from oxo.gravity.board import GravityBoard, GravityState

#: Bits the compiled solver can hold (a signed 64-bit word with its top bit spare).
MAX_BITS = 63
#: Transposition table entries by default (a prime near 2**23: about 80 MB).
DEFAULT_TABLE = 8388617
#: Nodes searched between two looks at the clock when a search has a time limit.
_SLICE = 1_000_000


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


@njit(cache=True)
def _winning_cells(
    pos: int,
    mask: int,
    full: int,
    k: int,
    stride: int,
    scratch: np.ndarray,
) -> int:
    """Empty cells where one more mark of ``pos`` completes ``k`` in a row (playable or not).

    Along each direction, ``before[a]`` marks the cells with ``a`` marks of ``pos`` just before them
    and ``after[b]`` those with ``b`` just after; a cell wins when ``before[j] & after[k-1-j]``."""
    result = 0
    before = scratch[0]
    after = scratch[1]
    for direction in range(4):
        if direction == 0:
            step = 1
        elif direction == 1:
            step = stride
        elif direction == 2:
            step = stride - 1
        else:
            step = stride + 1
        before[0] = -1
        after[0] = -1
        for a in range(1, k):
            before[a] = before[a - 1] & (pos << (a * step))
            after[a] = after[a - 1] & (pos >> (a * step))
        for j in range(k):
            result |= before[j] & after[k - 1 - j]
    return result & (full ^ mask)


@njit(cache=True)
def _popcount(x: int) -> int:
    count = 0
    while x:
        x &= x - 1
        count += 1
    return count


@njit(cache=True)
def _negamax(
    pos: int,
    mask: int,
    ply: int,
    alpha: int,
    beta: int,
    params: np.ndarray,
    order: np.ndarray,
    tt_key: np.ndarray,
    tt_val: np.ndarray,
    tt_flag: np.ndarray,
    move_buf: np.ndarray,
    score_buf: np.ndarray,
    scratch: np.ndarray,
    counter: np.ndarray,
) -> int:
    """The score of the side to move (``pos`` its marks) within the window (alpha, beta), given that it
    cannot win with its next mark."""
    cells = params[0]
    full = params[1]
    bottom = params[2]
    k = params[3]
    stride = params[4]
    cols = params[5]
    rows = params[6]
    counter[0] += 1
    if counter[0] >= counter[1]:  # out of budget: stop, and store nothing on the way back
        counter[2] = 1
        return 0

    possible = (mask + bottom) & full
    opponent_win = _winning_cells(pos ^ mask, mask, full, k, stride, scratch)
    forced = possible & opponent_win
    if forced:
        if forced & (forced - 1):
            return -((cells - ply) // 2)  # two threats at once: the opponent wins next
        possible = forced
    nxt = possible & ~(opponent_win >> 1)  # never play under an opponent's winning cell
    if nxt == 0:
        return -((cells - ply) // 2)
    if ply >= cells - 2:
        return 0

    low = -((cells - 2 - ply) // 2)
    if alpha < low:
        alpha = low
        if alpha >= beta:
            return alpha
    high = (cells - 1 - ply) // 2
    if beta > high:
        beta = high
        if alpha >= beta:
            return beta

    key = pos + mask
    slot = key % tt_key.shape[0]
    if tt_key[slot] == key:
        value = int(tt_val[slot])
        if tt_flag[slot] == 2:
            if alpha < value:
                alpha = value
                if alpha >= beta:
                    return alpha
        else:
            if beta > value:
                beta = value
                if alpha >= beta:
                    return beta

    # Order the moves by the threats they create; centre columns first on ties.
    count = 0
    for i in range(cols - 1, -1, -1):
        col = order[i]
        move = nxt & (((1 << rows) - 1) << (col * stride))
        if move:
            score = _popcount(_winning_cells(pos | move, mask | move, full, k, stride, scratch))
            j = count
            while j > 0 and score_buf[ply, j - 1] > score:
                move_buf[ply, j] = move_buf[ply, j - 1]
                score_buf[ply, j] = score_buf[ply, j - 1]
                j -= 1
            move_buf[ply, j] = move
            score_buf[ply, j] = score
            count += 1

    for index in range(count - 1, -1, -1):
        move = move_buf[ply, index]
        new_mask = mask | move
        score = -_negamax(
            (pos ^ mask),
            new_mask,
            ply + 1,
            -beta,
            -alpha,
            params,
            order,
            tt_key,
            tt_val,
            tt_flag,
            move_buf,
            score_buf,
            scratch,
            counter,
        )
        if counter[2]:
            return 0
        if score >= beta:
            tt_key[slot] = key
            tt_val[slot] = score
            tt_flag[slot] = 2
            return score
        if score > alpha:
            alpha = score
    tt_key[slot] = key
    tt_val[slot] = alpha
    tt_flag[slot] = 1
    return alpha


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


@dataclass
class GravitySolver:
    """The solver of one gravity board, with its transposition table (kept between questions)."""

    board: GravityBoard
    table_size: int = DEFAULT_TABLE
    nodes: int = 0
    _arrays: tuple[np.ndarray, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not supports(self.board):
            raise OutOfReachError(
                f"the exact gravity solver holds boards with (rows + 1) x columns <= {MAX_BITS} bits; "
                f"{self.board.rows}x{self.board.cols} needs {self.board.stride * self.board.cols}: "
                "play it with the level hard instead"
            )
        board = self.board
        params = np.array(
            [board.size, board.full, board.bottom, board.k, board.stride, board.cols, board.rows],
            dtype=np.int64,
        )
        centre = (board.cols - 1) / 2
        order = np.array(
            sorted(range(board.cols), key=lambda c: (abs(c - centre), c)), dtype=np.int64
        )
        self._arrays = (
            params,
            order,
            np.full(self.table_size, -1, dtype=np.int64),
            np.zeros(self.table_size, dtype=np.int8),
            np.zeros(self.table_size, dtype=np.int8),
            np.zeros((board.size + 1, board.cols), dtype=np.int64),
            np.zeros((board.size + 1, board.cols), dtype=np.int64),
            np.zeros((2, board.k), dtype=np.int64),
        )

    def clear(self) -> None:
        """Forget the transposition table."""
        self._arrays[2][:] = -1

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
        """One null-window search (is the score above ``med``?), in slices of nodes so that a deadline
        can stop it; the table keeps the work of a stopped slice's finished subtrees."""
        while True:
            counter = np.array([0, _SLICE if deadline is not None else 2**62, 0], dtype=np.int64)
            result = _negamax(  # type: ignore[call-arg]  # numba's Dispatcher hides the signature
                mine, mask, ply, med, med + 1, *self._arrays, counter
            )
            self.nodes += int(counter[0])
            if not counter[2]:
                return int(result)
            if deadline is not None and time.perf_counter() > deadline:
                raise _SearchStopped(known, self.nodes)

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

        def left() -> float | None:
            return None if seconds is None else max(0.0, seconds - (time.perf_counter() - started))

        value = self.solve(state, seconds=left())
        columns = []
        mover = state.to_move
        for col in state.legal_moves:
            child = state.play(col)
            if child.is_over:
                end = child.ply
                outcome = child.outcome
                assert outcome is not None and mover is not None
                score = 0 if outcome == "draw" else (self.board.size + 1 - state.ply) // 2
                columns.append(ColumnValue(col, GravityValue(score, outcome, state.ply, end)))
                continue
            inner = self.solve(child, seconds=left())
            columns.append(
                ColumnValue(
                    col, GravityValue(-inner.score, inner.outcome, state.ply, inner.end_ply)
                )
            )
        return GravityAnalysis(
            state, value, tuple(columns), self.nodes - before, time.perf_counter() - started
        )


_SOLVERS: dict[tuple[GravityBoard, int], GravitySolver] = {}


def solver_for(board: GravityBoard, table_size: int = 1 << 20 | 7) -> GravitySolver:
    """A shared solver of ``board`` (one per board and table size in this process)."""
    key = (board, table_size)
    if key not in _SOLVERS:
        _SOLVERS[key] = GravitySolver(board, table_size)
    return _SOLVERS[key]


def analyze(
    state: GravityState, seconds: float | None = None, table_size: int = DEFAULT_TABLE
) -> GravityAnalysis:
    """The exact value of a gravity position and of each of its columns (see :class:`GravityAnalysis`),
    within ``seconds`` if given (else :class:`OutOfReachError`, saying what is known)."""
    return solver_for(state.board, table_size).analyze(state, seconds)


def solve(
    state: GravityState,
    weak: bool = False,
    seconds: float | None = None,
    table_size: int = DEFAULT_TABLE,
) -> GravityValue:
    """The exact value of a gravity position (see :class:`GravitySolver.solve`)."""
    return solver_for(state.board, table_size).solve(state, weak, seconds)


def _stopped_message(state: GravityState, stop: _SearchStopped, seconds: float | None) -> str:
    """What a stopped search knew, in words: who wins or does not lose, and by when."""
    low, high = stop.known
    mover: Outcome = state.to_move or "x"
    other: Outcome = "o" if mover == "x" else "x"
    cells, ply = state.board.size, state.ply
    known = []
    if low > 0:
        latest = value_from_score(low, ply, cells, mover).end_ply
        known.append(f"{mover.upper()} wins, by ply {latest} at the latest")
    elif low == 0:
        known.append(f"{mover.upper()} does not lose")
    elif high < 0:
        known.append(f"{other.upper()} wins")
    if high == 0:
        known.append(f"{mover.upper()} does not win")
    elif 0 < high < (cells + 1 - ply) // 2:
        known.append(
            f"{mover.upper()} cannot win before ply {value_from_score(high, ply, cells, mover).end_ply}"
        )
    what = "; ".join(known) if known else "nothing proven yet"
    return (
        f"the exact value of this {state.board.name} position was not found within {seconds:g} s "
        f"({stop.nodes:,} positions searched; known so far: {what}); give it more time with --time"
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
