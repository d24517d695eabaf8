"""An exact solver for gravity boards (Connect Four and its relatives): the value of a position with
best play and how long the game lasts, for the side to move and for each of its columns.

The search is negamax with alpha-beta over bitboards (the layout of :mod:`oxo.gravity.board`: one
bit above each column's top stays empty, so the playable cells are ``(mask + bottom) & full``), a
transposition table of lower and upper bounds keyed by ``marks of the side to move + mask`` (unique
per position), only moves that do not hand the opponent an immediate win (a position with two
opponent threats, or a threat under a threat, is lost at once), columns tried in the order of the
threats they create (centre first on ties), and an iterative null-window search on the score. The
hot loop is compiled with numba; it holds boards of at most 63 bits (``(rows + 1) * cols <= 63``:
Connect Four uses 49) in one word, bigger ones (13x4, 14x4, 12x5 as width x height) in two
(:mod:`oxo.gravity.wide`).

Scores follow the usual convention, for the side to move: with ``N`` cells on the board, a win with
the mark played at ply ``p`` (the ``p``-th mark of the game) is worth ``(N + 2 - p) // 2`` — the
earlier, the more — a loss the opposite, a draw 0. On 6x7 the empty board scores +1: the first
player wins with its 21st mark, at ply 41.

This module is the driver: the solver object with its table, the bisection on the score by
null-window searches, deadlines and progress (the search runs in a thread and is watched from here)
and the library's functions. The pieces it drives live one idea a file, as in Pascal Pons'
solver: :mod:`oxo.gravity.bitboard` (positions as bits), :mod:`oxo.gravity.ordering` (which column
first), :mod:`oxo.gravity.table` (the transposition table), :mod:`oxo.gravity.search` (the
compiled negamax) and :mod:`oxo.gravity.values` (what the answers mean); the proof run and its
certificates are :mod:`oxo.gravity.proof`, :mod:`oxo.gravity.parallel`,
:mod:`oxo.gravity.certificate` and :mod:`oxo.gravity.book`.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from oxo.errors import OutOfReachError, PositionError
from oxo.fileio import atomic_writer, write_atomic
from oxo.game import Outcome, other
from oxo.gravity.bitboard import (
    _BUCKET_BITS,
    board_params,
    supports,
)
from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.ordering import centre_order
from oxo.gravity.search import _C_NODES, _C_STOP, _negamax
from oxo.gravity.table import (
    _COLUMN_SHIFT,
    DEFAULT_TABLE,
    _probe,
    _table_key,
    bucket_bits,
    tag_room,
)
from oxo.gravity.table import (
    default_table_words as default_table_words,
)
from oxo.gravity.values import (
    ColumnValue,
    GravityAnalysis,
    GravityValue,
    value_from_score,
)
from oxo.gravity.values import (
    finished_score as finished_score,
)
from oxo.gravity.wide import (
    _LO_BITS,
    KID_ROWS,
    WORD_BITS,
    _negamax_wide,
    split_words,
    supports_wide,
    table_word,
    wide_params,
)


def solvable(board: GravityBoard) -> bool:
    """Whether the exact solver holds ``board``: on one 64-bit word, or on two."""
    return supports(board) or supports_wide(board)


#: The header's format name of a transposition table saved by :meth:`GravitySolver.save_table`.
TABLE_FORMAT = "oxo-gravity-table/1"

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


def next_probe(low: int, high: int) -> int:
    """The next null-window search of the exact score, known to lie in ``[low, high]`` (``low <
    high``): the ``med`` of the question "is the score above ``med``?".

    Who wins comes first (``med`` 0, then -1 for a draw), then the scores outward from there,
    doubling the step (``s >= 2``, ``s >= 4``, ... for a win; ``s <= -2``, ``s <= -4``, ... for a
    loss) and halving the interval once it is small. A question whose answer lies far from the true
    score is cheap; the two next to it ("above s - 1?" yes, "above s?" no) are the expensive ones
    and cannot be avoided, so the order wastes little on the late wins and losses that the hard
    positions have (Connect Four's empty board: 0 then 1, two questions, where halving the interval
    [-21, 21] towards 0 asked eight; 20 % fewer positions)."""
    if low <= 0 < high:
        return 0
    if low > 0:
        return min(2 * low - 1, low + (high - low) // 2)
    return max(2 * high if high < 0 else -1, high - 1 - (high - low - 1) // 2)


@dataclass
class GravitySolver:
    """The solver of one gravity board, with its transposition table (kept between questions).

    ``table_size`` is the table's number of words (8 bytes each; rounded down to a power of two);
    ``table``, when given, is an array of int64 to use instead (for instance one in shared memory,
    searched by several processes). Mirror images share the table's entries while at most
    ``symmetric_plies`` marks are down. Boards whose bitboard (a spare bit above each column
    included) does not fit one 64-bit word are searched by :mod:`oxo.gravity.wide`, over two
    words; ``lo_cols`` forces that search, with that many columns in the first word (the tests
    use it on small boards)."""

    board: GravityBoard
    table_size: int = DEFAULT_TABLE
    nodes: int = 0
    symmetric_plies: int = 20
    table: np.ndarray | None = field(default=None, repr=False)
    on_status: Callable[[str], None] | None = field(default=None, repr=False)
    lo_cols: int | None = field(default=None, repr=False)
    _arrays: tuple[np.ndarray, ...] = field(init=False, repr=False)
    #: Whether the board is searched over two words (:mod:`oxo.gravity.wide`).
    wide: bool = field(default=False, init=False, repr=False)
    #: When ``on_status`` last heard news: kept across searches, many of which are short.
    _last_report: float = field(default=0.0, init=False, repr=False)
    #: Set when the last search run in a thread (see :meth:`_window`) has ended: the table is
    #: still only then.
    _searched: threading.Event | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if not solvable(self.board):
            raise OutOfReachError(
                f"the exact gravity solver holds boards with (rows + 1) x columns <= "
                f"{2 * WORD_BITS} bits; {self.board.rows}x{self.board.cols} needs "
                f"{self.board.stride * self.board.cols}: play it with the level hard instead"
            )
        from oxo.compiled import is_cached

        compiled = _negamax if supports(self.board) and self.lo_cols is None else _negamax_wide
        if not is_cached(compiled):  # its first call compiles it: the wait is no search
            from oxo.progress import notice

            notice(
                "compiling the exact solver of gravity boards into machine code, once after "
                "install: it can take a minute or more; later runs load it at once"
            )
        board = self.board
        self.wide = self.lo_cols is not None or not supports(board)
        # A word keeps ``_TAG_BITS`` bits of the tag: enough buckets for the board's keys.
        least = tag_room(board)
        if self.table is None:
            self.table = np.zeros(2 << bucket_bits(self.table_size, least), np.int64)
        words = self.table.shape[0]
        bits = bucket_bits(words, least)
        if words != 2 << bits or self.table.dtype != np.int64:
            raise ValueError(
                f"a table for {board.name} is 2 ** k int64 words, and it needs at least "
                f"{2 << least}"
            )
        if self.wide:
            params = wide_params(board, bits, self.symmetric_plies, lo_cols=self.lo_cols)
            fields, kid_rows = 12, KID_ROWS
        else:
            params = board_params(board, bits, self.symmetric_plies)
            fields, kid_rows = 9, 3
        self._arrays = (
            params,
            centre_order(board),
            self.table,
            np.zeros((board.size + 1, fields), dtype=np.int64),
            np.zeros((board.size + 1, board.cols), dtype=np.int64),
            np.zeros((board.size + 1, board.cols), dtype=np.int64),
            np.zeros((board.size + 1, kid_rows, board.cols), dtype=np.int64),
            np.zeros((4, max(board.k, board.cols, board.size + 1)), dtype=np.int64),
        )

    def search(
        self,
        mine: int,
        mask: int,
        ply: int,
        alpha: int,
        beta: int,
        counter: np.ndarray,
        arrays: tuple[np.ndarray, ...] | None = None,
    ) -> int:
        """The compiled search of one window (``mine``: the marks of the side to move), with this
        solver's arrays or ``arrays`` (a worker's copy, :mod:`oxo.gravity.parallel`)."""
        arrays = self._arrays if arrays is None else arrays
        if not self.wide:
            return int(_negamax(mine, mask, ply, alpha, beta, *arrays, counter))
        lo_bits = int(arrays[0][_LO_BITS])
        ml, mh = split_words(mine, lo_bits)
        kl, kh = split_words(mask, lo_bits)
        return int(_negamax_wide(ml, mh, kl, kh, ply, alpha, beta, *arrays, counter))

    def clear(self) -> None:
        """Forget the transposition table."""
        self._arrays[2][:] = 0

    def _table_header(self) -> dict[str, object]:
        return {
            "format": TABLE_FORMAT,
            "board": self.board.name,
            "words": int(self._arrays[2].shape[0]),
            "symmetric_plies": self.symmetric_plies,
        }

    def save_table(self, path: str | os.PathLike[str]) -> None:
        """Write the transposition table to ``path`` (its words, raw) and a header beside it
        (``path`` + ``.json``: the board, the table's size, the SHA-256 of the words), each file
        atomically: a long search stopped and started again (:meth:`load_table`) keeps every bound
        it had stored. Call it while no search runs."""
        _wait_through_interrupts(self._searched)  # a search stopped by Ctrl-C: let it end first
        table = self._arrays[2]
        digest = hashlib.sha256(table.data.cast("B")).hexdigest()
        with atomic_writer(path) as handle:
            handle.write(table.data.cast("B"))
        header = {**self._table_header(), "sha256": digest}
        write_atomic(f"{path}.json", json.dumps(header, indent=1) + "\n")

    def load_table(self, path: str | os.PathLike[str]) -> None:
        """Read a table written by :meth:`save_table` into this solver's. Raises
        :class:`ValueError` when it was written for another board or table size, or when its
        words do not match the SHA-256 of its header (then this solver's table is unchanged)."""
        header = json.loads(Path(f"{path}.json").read_text(encoding="utf-8"))
        digest = header.pop("sha256", None)
        if header != self._table_header():
            raise ValueError(
                f"the table {path} was written for {header}, not {self._table_header()}"
            )
        words = np.fromfile(path, dtype=np.int64)
        if hashlib.sha256(words.data.cast("B")).hexdigest() != digest:
            raise ValueError(f"the table {path} does not match the SHA-256 of its header")
        if words.shape != self._arrays[2].shape:
            raise ValueError(
                f"the table {path} has {words.shape[0]} words, not {self._arrays[2].shape[0]}"
            )
        self._arrays[2][:] = words

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
        while low < high:  # null-window searches: who wins first, then outward from there
            med = next_probe(low, high)
            r = self._window(mine, state.mask, ply, med, deadline, (low, high))
            if r <= med:
                high = r
            else:
                low = r
        return low

    def window(self, state: GravityState, med: int, seconds: float | None = None) -> int | None:
        """One null-window search of ``state`` (not over): is the score of the side to move above
        ``med``? The answer ``r`` means "at least ``r``" when ``r > med``, else "at most ``r``";
        ``None`` when ``seconds`` ran out first (every bound the search stored is kept, so asking
        again goes on from there)."""
        self._check(state)
        mine = state.x if state.to_move == "x" else state.o
        deadline = None if seconds is None else time.perf_counter() + seconds
        try:
            return self._window(mine, state.mask, state.ply, med, deadline, (med, med + 1))
        except _SearchStopped:
            return None

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
        if deadline is None and self.on_status is None:
            result = self.search(mine, mask, ply, med, med + 1, counter)
            self.nodes += int(counter[_C_NODES])
            return result
        box: list[int] = []
        # The search says itself when it has ended: Thread.join interrupted by Ctrl-C can mark a
        # thread that still runs as ended (Python 3.11), and its table was then saved while the
        # search still wrote to it.
        searched = self._searched = threading.Event()

        def run() -> None:
            try:
                box.append(self.search(mine, mask, ply, med, med + 1, counter))
            finally:
                searched.set()

        started = time.perf_counter()
        if self._last_report == 0.0:
            self._last_report = started
        threading.Thread(target=run, daemon=True).start()
        try:
            while not searched.is_set():
                now = time.perf_counter()
                wait = _POLL if deadline is None else max(0.0, min(_POLL, deadline - now))
                searched.wait(wait)
                now = time.perf_counter()
                if not searched.is_set() and deadline is not None and now >= deadline:
                    counter[_C_STOP] = 1
                    searched.wait()
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
            _wait_through_interrupts(searched)
            self.nodes += int(counter[_C_NODES])
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
        if self.wide:
            lo_bits = int(params[_LO_BITS])
            word, flip = table_word(
                *split_words(mine, lo_bits),
                *split_words(state.mask, lo_bits),
                state.ply,
                params,
                self._arrays[2],
            )
            word, flipped = int(word), bool(flip)
        else:
            key = int(_table_key(mine, state.mask, state.ply, params))
            word = int(_probe(self._arrays[2], key, int(params[_BUCKET_BITS])))
            flipped = key != mine + state.mask
        column = ((word >> _COLUMN_SHIFT) & 15) - 1
        if word == 0 or column < 0:
            return None
        return self.board.cols - 1 - column if flipped else column

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

    def best_column(
        self, state: GravityState, seconds: float | None = None, rng: random.Random | None = None
    ) -> tuple[int, GravityValue]:
        """One column that keeps the position's exact value (the quickest win, the slowest loss, or
        a draw) and that value: the value's bisection, then one null-window search per column (the
        table's best column first, the others in ``rng``'s order or from the centre out) until one
        keeps it. Cheaper than :meth:`analyze`, which values every column; ``seconds`` limits the
        whole (then :class:`OutOfReachError` says what is known)."""
        deadline = None if seconds is None else time.perf_counter() + seconds
        self._check(state)
        mover = state.to_move
        if mover is None:
            raise PositionError("the game is over: there is no move to choose")
        cells = self.board.size
        try:
            score = self._score(state, False, deadline)
            first = self.table_column(state)
            rest = sorted(
                (c for c in state.legal_moves if c != first),
                key=lambda c: abs(2 * c - self.board.cols + 1),
            )
            if rng is not None:
                rng.shuffle(rest)
            for col in ([first] if first is not None else []) + rest:
                child = state.play(col)
                if child.is_over:
                    keeps = finished_score(child, mover) >= score
                elif child.winning_moves():  # the opponent wins at once
                    keeps = -((cells + 1 - child.ply) // 2) >= score
                else:
                    # The column keeps ``score`` when the opponent's score is not above ``-score``.
                    mine = child.x if child.to_move == "x" else child.o
                    r = self._window(mine, child.mask, child.ply, -score, deadline, (score, score))
                    keeps = r <= -score
                if keeps:
                    return col, value_from_score(score, state.ply, cells, mover)
        except _SearchStopped as stop:
            raise OutOfReachError(_stopped_message(state, stop, seconds)) from None
        raise AssertionError(f"no column keeps the score {score} in {state.to_rows()}")

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


def solver_for(board: GravityBoard, table_size: int = 1 << 20) -> GravitySolver:
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


def _wait_through_interrupts(searched: threading.Event | None) -> None:
    """Wait until a search told to stop has ended (``searched`` set), even through more Ctrl-Cs
    (a stop sent twice, to a process and then to its group): until then it still writes to the
    table, and a table saved meanwhile does not match the SHA-256 taken of it. The first extra
    interrupt is raised once the search has ended."""
    again: BaseException | None = None
    while searched is not None and not searched.is_set():
        try:
            searched.wait()
        except KeyboardInterrupt as interrupt:
            again = again or interrupt
    if again is not None:
        raise again


def _stopped_message(state: GravityState, stop: _SearchStopped, seconds: float | None) -> str:
    """What a stopped search knew, in words, and what to try."""
    return (
        f"the exact value was not found within {seconds:g} s ({state.board.name}; "
        f"{stop.nodes:,} positions searched; known so far: {_known_words(state, stop.known)}); "
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
