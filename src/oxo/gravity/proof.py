"""Certificates for gravity boards (Connect Four and its relatives): a proof that a side's score is
at least some bound, which a checker walks with nothing but the rules, and the long solver run on
several processes that writes them.

A certificate (``oxo-gravity-strategy/1``) is gzip-compressed UTF-8 JSON lines. Line 1 is the header::

    {"format": "oxo-gravity-strategy/1", "board": "6x7,k=4,gravity", "rows": 6, "cols": 7, "k": 4,
     "side": "x", "score_at_least": 1, "claim": "X wins, by ply 41 at the latest"}

Scores are the solver's (:mod:`oxo.gravity.solver`): a game won with the mark of ply ``p`` (the
``p``-th mark of the game) is worth ``(cells + 2 - p) // 2`` to the winner and the opposite to the
loser, a draw 0. So "X scores at least 1" says X wins; "O scores at least -1" says X does not win
before ply 41 on 6x7 (any later win of X, a draw or a win of O scores more for O). The two together
prove Connect Four's value: X wins, and with best play the game ends at ply 41.

Every other line is an entry, its position written as the rows from top to bottom separated by
``/`` with ``x``, ``o`` and ``.``:

* ``{"position": "...", "move": C}``: ``side`` is to move there and plays column ``C`` (from 1);
* ``{"position": "...", "leaf": true}``: the tree stops there; the claim for that position is left to
  a solver (``oxo verify FILE --leaves N`` solves N of them, or all).

A position may be written as its left-right mirror image (its column mirrored too). The checker
(:func:`verify_gravity_certificate`) walks from the empty board, plays ``side``'s columns and every
reply of the other side, and accepts a node when the game is over with ``side``'s score at least the
bound; or it is a leaf; or ``side`` is to move and wins at once with a score at least the bound (no
entry needed), or its entry's column is legal and leads to an accepted node; or the other side is
to move and every column leads to an accepted node. Results are memoised by position.
"""

from __future__ import annotations

import functools
import gzip
import json
import multiprocessing
import os
import random
import resource
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from multiprocessing import shared_memory
from pathlib import Path
from typing import Any

import numpy as np

from oxo.errors import (
    CertificateEntryError,
    CertificateFileError,
    CertificateHeaderError,
    CertificateSyntaxError,
    OutOfReachError,
    PositionError,
)
from oxo.fileio import write_atomic
from oxo.game import Outcome
from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.solver import (
    _C_NODES,
    _C_STOP,
    _C_STOPPED,
    _SKEW,
    _SPLIT_PLY,
    GravitySolver,
    GravityValue,
    _half,
    _negamax,
    _question,
    _SearchStopped,
    _stopped_message,
    finished_score,
    prime_at_least,
    value_from_score,
)

#: The format named in a certificate's header.
FORMAT = "oxo-gravity-strategy/1"


def claim_text(board: GravityBoard, side: Outcome, at_least: int) -> str:
    """A bound on ``side``'s score in words ("X wins, by ply 41 at the latest")."""
    who = side.upper()
    other = "O" if side == "x" else "X"
    cells = board.size
    first = 1 if side == "x" else 2  # the plies of ``side``'s marks have this parity (1: odd)
    if at_least >= 1:
        # The latest ply p of side's marks with (cells + 2 - p) // 2 >= at_least.
        latest = max(p for p in range(first, cells + 1, 2) if (cells + 2 - p) // 2 >= at_least)
        return f"{who} wins, by ply {latest} at the latest"
    if at_least == 0:
        return f"{who} does not lose"
    plies = [p for p in range(3 - first, cells + 1, 2) if -((cells + 2 - p) // 2) < at_least]
    if not plies:
        return f"{who} scores at least {at_least}"
    return f"{other} does not win before ply {max(plies) + 2}"


def _mirror(state: GravityState) -> GravityState:
    board = state.board
    x = o = 0
    for c in range(board.cols):
        shift_from, shift_to = c * board.stride, (board.cols - 1 - c) * board.stride
        column = (1 << board.stride) - 1
        x |= ((state.x >> shift_from) & column) << shift_to
        o |= ((state.o >> shift_from) & column) << shift_to
    return GravityState(board, x, o)


# -- the run ----------------------------------------------------------------------------------


@dataclass
class SharedSolvers:
    """Solvers of one board in ``workers`` processes that share one transposition table (in shared
    memory): each null-window search is raced by all of them, each starting the replies at
    ``split_ply`` from another column, so that they search different subtrees first and find each
    other's results in the table; the first to finish answers and the others are stopped."""

    board: GravityBoard
    workers: int = 2
    table_words: int = 1 << 26
    on_status: Callable[[str], None] | None = None
    nodes: int = 0
    _memory: shared_memory.SharedMemory = field(init=False, repr=False)
    solver: GravitySolver = field(init=False, repr=False)

    def __post_init__(self) -> None:
        words = 2 * prime_at_least(max(self.table_words // 2, 257))
        self._memory = shared_memory.SharedMemory(create=True, size=8 * words)
        table: np.ndarray = np.ndarray((words,), dtype=np.int64, buffer=self._memory.buf)
        table[:] = 0
        self.solver = GravitySolver(self.board, table=table)
        self._counters = shared_memory.SharedMemory(create=True, size=8 * 3 * max(self.workers, 1))
        self._results = shared_memory.SharedMemory(create=True, size=8 * 2 * max(self.workers, 1))

    def close(self) -> None:
        """Free the shared memory."""
        for block in (self._memory, self._counters, self._results):
            block.close()
            block.unlink()

    def __enter__(self) -> SharedSolvers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def window(self, state: GravityState, med: int, deadline: float | None = None) -> int:
        """The null-window search "is the side to move's score above ``med``?" (a result above
        ``med`` means yes) on every worker at once; past ``deadline`` (a ``time.perf_counter()``
        value) the workers are stopped and :class:`TimeoutError` is raised."""
        mine = state.x if state.to_move == "x" else state.o
        if self.workers <= 1:
            try:
                result = self.solver._window(mine, state.mask, state.ply, med, deadline, (-64, 64))
            except _SearchStopped:
                raise TimeoutError("the search ran out of time") from None
            finally:
                self.nodes = self.solver.nodes
            return result
        counters: np.ndarray = np.ndarray(
            (self.workers, 3), dtype=np.int64, buffer=self._counters.buf
        )
        results: np.ndarray = np.ndarray(
            (self.workers, 2), dtype=np.int64, buffer=self._results.buf
        )
        counters[:] = 0
        results[:] = 0
        context = multiprocessing.get_context("fork")
        processes = [
            context.Process(
                target=_race,
                args=(self.solver, w, mine, state, med, counters, results),
                daemon=True,
            )
            for w in range(self.workers)
        ]
        started = time.perf_counter()
        last = started
        for process in processes:
            process.start()
        try:
            winner = -1
            while winner < 0:
                time.sleep(0.05)
                done = [w for w in range(self.workers) if results[w, 1]]
                if done:
                    winner = done[0]
                    break
                if all(not p.is_alive() for p in processes):
                    raise RuntimeError("the solver's worker processes stopped without an answer")
                now = time.perf_counter()
                if deadline is not None and now >= deadline:
                    raise TimeoutError("the search ran out of time")
                if self.on_status is not None and now - last >= 5:
                    last = now
                    searched = self.nodes + int(counters[:, _C_NODES].sum())
                    self.on_status(
                        f"searching: {_question(med, state.ply, self.board.size)}; "
                        f"{searched:,} positions, {now - started:.0f} s"
                    )
        finally:
            counters[:, _C_STOP] = 1
            for process in processes:
                process.join()
            self.nodes += int(counters[:, _C_NODES].sum())
        return int(results[winner, 0])


def _race(
    solver: GravitySolver,
    worker: int,
    mine: int,
    state: GravityState,
    med: int,
    counters: np.ndarray,
    results: np.ndarray,
) -> None:
    """One worker's search, in a forked process (``counters`` and ``results`` live in shared memory,
    and so does the solver's table): its own start at the split ply, its own counter and result."""
    params = solver._arrays[0].copy()
    params[_SPLIT_PLY] = state.ply + 1
    params[_SKEW] = worker
    counter = counters[worker]
    arrays = (params, *solver._arrays[1:], counter)
    args: tuple[Any, ...] = (mine, state.mask, state.ply, med, med + 1, *arrays)
    result = int(_negamax(*args))
    if not counter[_C_STOPPED]:
        results[worker, 0] = result
        results[worker, 1] = 1


# -- writing a certificate ------------------------------------------------------------------------


@dataclass(frozen=True)
class StrategyTree:
    """A side's strategy for a bound on its score, down to ``leaf_ply``: its column in each position
    where it is to move, and the positions left to a solver."""

    board: GravityBoard
    side: Outcome
    at_least: int
    moves: dict[tuple[int, int], tuple[GravityState, int]]
    leaves: dict[tuple[int, int], GravityState]

    @property
    def claim(self) -> str:
        return claim_text(self.board, self.side, self.at_least)

    def header(self) -> dict[str, object]:
        board = self.board
        return {
            "format": FORMAT,
            "board": f"{board.rows}x{board.cols},k={board.k},gravity",
            "rows": board.rows,
            "cols": board.cols,
            "k": board.k,
            "side": self.side,
            "score_at_least": self.at_least,
            "claim": self.claim,
        }

    def lines(self) -> Iterator[dict[str, object]]:
        yield self.header()
        for state, move in self.moves.values():
            yield {"position": state.to_rows(), "move": move + 1}
        for state in self.leaves.values():
            yield {"position": state.to_rows(), "leaf": True}

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the certificate (gzip JSON lines), atomically."""
        text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in self.lines())
        write_atomic(path, gzip.compress(text.encode("utf-8"), mtime=0))


def _canonical(state: GravityState) -> tuple[int, int]:
    """The key of a position or of its mirror image, whichever is smaller."""
    return min(state.key, _mirror(state).key)


def strategy_tree(
    solver: GravitySolver,
    side: Outcome,
    at_least: int,
    leaf_ply: int,
    on_status: Callable[[str], None] | None = None,
) -> StrategyTree:
    """``side``'s strategy for "my score is at least ``at_least``" from the empty board (where the
    checker starts),
    read from the solver: at ``side``'s turns the first column (the table's best first) whose
    position the solver proves good enough, at the other side's turns every column; positions at
    ``leaf_ply`` (not over) become leaves. Raises :class:`ValueError` if the bound does not hold."""
    board = solver.board
    root = GravityState(board)
    if not solver.holds(root, side, True, at_least):
        raise ValueError(f"{claim_text(board, side, at_least)} does not hold")
    moves: dict[tuple[int, int], tuple[GravityState, int]] = {}
    leaves: dict[tuple[int, int], GravityState] = {}
    seen: set[tuple[int, int]] = set()
    started = time.perf_counter()
    last = started
    stack = [root]
    while stack:
        state = stack.pop()
        key = _canonical(state)
        if key in seen or state.is_over:
            continue
        seen.add(key)
        if on_status is not None and time.perf_counter() - last > 5:
            last = time.perf_counter()
            on_status(
                f"writing the strategy for '{claim_text(board, side, at_least)}': "
                f"{len(moves):,} moves, {len(leaves):,} leaves, {last - started:.0f} s"
            )
        if state.ply >= leaf_ply:
            leaves[key] = state
            continue
        if state.to_move == side:
            wins = state.winning_moves()
            if wins and (board.size + 1 - state.ply) // 2 >= at_least:
                continue  # the checker plays the win itself
            hint = solver.table_column(state)
            order = sorted(
                state.legal_moves, key=lambda c: (c != hint, abs(2 * c - board.cols + 1))
            )
            for col in order:
                child = state.play(col)
                if solver.holds(child, side, True, at_least):
                    moves[key] = (state, col)
                    stack.append(child)
                    break
            else:  # the solver proved the bound for this position: one column must keep it
                raise RuntimeError(f"no column keeps the bound in {state.to_rows()}")
        else:
            stack.extend(state.play(col) for col in state.legal_moves)
    return StrategyTree(board, side, at_least, moves, leaves)


# -- the run ----------------------------------------------------------------------------------


@dataclass
class ProofRun:
    """What a proof run found and what it cost."""

    board: GravityBoard
    value: GravityValue
    seconds: float
    nodes: int
    workers: int
    table_words: int
    peak_mib: float
    certificates: tuple[Path, ...] = ()
    leaves: tuple[int, ...] = ()
    started: str = ""

    def to_dict(self) -> dict[str, object]:
        return {
            "board": f"{self.board.rows}x{self.board.cols},k={self.board.k},gravity",
            **self.value.to_dict(),
            "seconds": round(self.seconds, 1),
            "nodes": self.nodes,
            "workers": self.workers,
            "table_words": self.table_words,
            "peak_mib": round(self.peak_mib),
            "certificates": [str(path) for path in self.certificates],
            "leaves": list(self.leaves),
            "started": self.started,
        }


def exact_score(
    solvers: SharedSolvers,
    state: GravityState,
    on_status: Callable[[str], None] | None = None,
    seconds: float | None = None,
) -> int:
    """The exact score of the side to move, by null-window searches raced on every worker (the
    bisection of :meth:`GravitySolver.score`, probing near zero first); past ``seconds``,
    :class:`oxo.errors.OutOfReachError` says what was known."""
    deadline = None if seconds is None else time.perf_counter() + seconds
    cells, ply = state.board.size, state.ply
    if state.winning_moves():
        return (cells + 1 - ply) // 2
    low, high = -((cells - ply) // 2), (cells + 1 - ply) // 2
    while low < high:
        med = low + (high - low) // 2
        if med <= 0 and _half(low) < med:
            med = _half(low)
        elif med >= 0 and _half(high) > med:
            med = _half(high)
        try:
            r = solvers.window(state, med, deadline)
        except TimeoutError:
            stop = _SearchStopped((low, high), solvers.nodes)
            raise OutOfReachError(_stopped_message(state, stop, seconds)) from None
        if on_status is not None:
            on_status(f"{_question(med, ply, cells)} {'yes' if r > med else 'no'}")
        if r <= med:
            high = r
        else:
            low = r
    return low


def prove(
    board: GravityBoard,
    out_dir: str | os.PathLike[str] | None = None,
    *,
    workers: int = 2,
    table_words: int = 1 << 26,
    leaf_ply: int | None = None,
    seconds: float | None = None,
    on_status: Callable[[str], None] | None = None,
) -> ProofRun:
    """Solve the empty ``board`` on ``workers`` processes sharing a table of ``table_words`` words,
    and with ``out_dir`` write the two certificates of its value there (``leaf_ply``: where their
    trees stop; by default the whole game on boards of at most 20 cells, else ply 10). ``seconds``
    limits the search (not the writing): past it :class:`oxo.errors.OutOfReachError`."""
    started_at = datetime.now(UTC).isoformat(timespec="seconds")
    state = GravityState(board)
    with SharedSolvers(board, workers, table_words, on_status) as solvers:
        started = time.perf_counter()
        score = exact_score(solvers, state, on_status, seconds)
        seconds = time.perf_counter() - started
        nodes = solvers.nodes
        value = value_from_score(score, 0, board.size, "x")
        paths: list[Path] = []
        leaves: list[int] = []
        if out_dir is not None:
            folder = Path(out_dir)
            folder.mkdir(parents=True, exist_ok=True)
            stop = leaf_ply if leaf_ply is not None else (board.size if board.size <= 20 else 10)
            sides: tuple[tuple[Outcome, int], ...] = (("x", score), ("o", -score))
            for side, bound in sides:
                tree = strategy_tree(solvers.solver, side, bound, stop, on_status=on_status)
                path = folder / certificate_name(board, side, bound)
                tree.write(path)
                paths.append(path)
                leaves.append(len(tree.leaves))
    # The largest process's peak (the shared table counts in each process that touched it).
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return ProofRun(
        board,
        value,
        seconds,
        nodes,
        workers,
        table_words,
        max(peak, children),
        tuple(paths),
        tuple(leaves),
        started_at,
    )


def certificate_name(board: GravityBoard, side: Outcome, at_least: int) -> str:
    """The file name of a certificate: ``6x7-k4-gravity-x-at-least-1.jsonl.gz``."""
    bound = f"{at_least}" if at_least >= 0 else f"minus-{-at_least}"
    return f"{board.rows}x{board.cols}-k{board.k}-gravity-{side}-at-least-{bound}.jsonl.gz"


#: Where the certificates that ship with oxo live (written by ``benchmarks/bench_connect4.py --empty``).
CERTIFICATES = Path(__file__).with_name("certificates")


def shipped_certificates(board: GravityBoard) -> tuple[Path, ...]:
    """The certificates of ``board``'s empty position that ship with oxo (none for most boards)."""
    prefix = f"{board.rows}x{board.cols}-k{board.k}-gravity-"
    return tuple(sorted(CERTIFICATES.glob(prefix + "*.jsonl.gz")))


@dataclass(frozen=True)
class BookMove:
    """A column from a shipped certificate: it keeps the certificate's bound for the side to move
    (``claim``), and ``value`` is the proven result when the bound settles it (a win), else None."""

    column: int
    claim: str
    value: Outcome | None


@functools.cache
def _book(board: GravityBoard) -> dict[tuple[int, int], tuple[int, str, Outcome | None]]:
    """Every column of the certificates that ship for ``board``, keyed by position and mirror."""
    moves: dict[tuple[int, int], tuple[int, str, Outcome | None]] = {}
    for path in shipped_certificates(board):
        cert = read_gravity_certificate(path)
        value: Outcome | None = cert.side if cert.at_least >= 1 else None
        for key, col in cert.moves.items():
            moves[key] = (col, cert.claim, value)
    return moves


def book_move(state: GravityState) -> BookMove | None:
    """The column the shipped certificates give for ``state`` (the opening of Connect Four as oxo
    proved it), or None when the position is not in them."""
    if state.is_over:
        return None
    book = _book(state.board)
    if not book:
        return None
    found = book.get(state.key)
    mirrored = False
    if found is None:
        found = book.get(_mirror(state).key)
        mirrored = True
    if found is None:
        return None
    col, claim, value = found
    return BookMove(state.board.cols - 1 - col if mirrored else col, claim, value)


# -- checking a certificate -----------------------------------------------------------------------


@dataclass(frozen=True)
class GravityCertificate:
    """A certificate as read: its board, side, bound, columns and leaves (keyed by position)."""

    board: GravityBoard
    side: Outcome
    at_least: int
    moves: dict[tuple[int, int], int]
    leaves: dict[tuple[int, int], GravityState]

    @property
    def claim(self) -> str:
        return claim_text(self.board, self.side, self.at_least)


def is_gravity_certificate(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a gzip file whose first line names this module's format (any other
    file, readable or not, is left to the classic boards' checker to explain)."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            first = handle.readline(4096)
    except (OSError, EOFError, UnicodeDecodeError):
        return False
    try:
        header = json.loads(first)
    except json.JSONDecodeError:
        return False
    return isinstance(header, dict) and header.get("format") == FORMAT


def read_gravity_certificate(path: str | os.PathLike[str]) -> GravityCertificate:
    """Read a certificate; :class:`oxo.errors.CertificateError` (bad input) names what is wrong."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except FileNotFoundError:
        raise CertificateFileError(f"no such file: {path}") from None
    except (OSError, EOFError, UnicodeDecodeError) as error:
        raise CertificateFileError(f"{path} is not a gzip-compressed text file: {error}") from None
    rows = [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    if not rows:
        raise CertificateHeaderError(f"{path} is empty: the first line must be the header")
    parsed: list[tuple[int, Any]] = []
    for n, line in rows:
        try:
            parsed.append((n, json.loads(line)))
        except json.JSONDecodeError as error:
            raise CertificateSyntaxError(f"line {n}: not JSON ({error.msg})") from None
    header = parsed[0][1]
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise CertificateHeaderError(f'line 1: the header must have "format": "{FORMAT}"')
    try:
        board = GravityBoard(int(header["rows"]), int(header["cols"]), int(header["k"]))
        side = header["side"]
        at_least = header["score_at_least"]
    except (KeyError, TypeError, ValueError) as error:
        raise CertificateHeaderError(
            f"line 1: the header needs rows, cols, k, side and score_at_least ({error})"
        ) from None
    if side not in ("x", "o") or not isinstance(at_least, int) or isinstance(at_least, bool):
        raise CertificateHeaderError('line 1: side is "x" or "o" and score_at_least a whole number')
    moves: dict[tuple[int, int], int] = {}
    leaves: dict[tuple[int, int], GravityState] = {}
    for n, entry in parsed[1:]:
        if not isinstance(entry, dict) or not isinstance(entry.get("position"), str):
            raise CertificateEntryError(f'line {n}: an entry is an object with a "position"')
        try:
            state = GravityState.from_string(entry["position"], board)
        except PositionError as error:
            raise CertificateEntryError(f"line {n}: {error}") from None
        if entry.get("leaf") is True:
            leaves[state.key] = state
            continue
        move = entry.get("move")
        if not isinstance(move, int) or isinstance(move, bool) or not 1 <= move <= board.cols:
            raise CertificateEntryError(f'line {n}: "move" is a column from 1 to {board.cols}')
        moves[state.key] = move - 1
    return GravityCertificate(board, side, at_least, moves, leaves)


@dataclass(frozen=True)
class GravityVerifyResult:
    """What the checker found: valid or not (and where it failed), the positions walked, the leaves
    reached and how many of them were solved again (and held)."""

    claim: str
    valid: bool
    positions: int
    leaves: int
    leaves_checked: int
    reason: str = ""
    failed_at: str = ""

    def __str__(self) -> str:
        if not self.valid:
            return f"invalid: {self.claim} fails at {self.failed_at}: {self.reason}"
        text = f"valid: {self.claim} ({self.positions:,} positions walked by the rules"
        if self.leaves == 0:
            return text + "; every game played to its end)"
        trusted = self.leaves - self.leaves_checked
        text += f", {self.leaves:,} leaves; {self.leaves_checked:,} solved again and held"
        if trusted:
            text += f"; {trusted:,} left to the solver run that wrote it: --leaves all checks them"
        return text + ")"

    def to_dict(self) -> dict[str, object]:
        return {
            "claim": self.claim,
            "valid": self.valid,
            "positions": self.positions,
            "leaves": self.leaves,
            "leaves_checked": self.leaves_checked,
            "reason": self.reason,
            "failed_at": self.failed_at,
        }


def verify_gravity_certificate(
    source: str | os.PathLike[str] | GravityCertificate,
    leaves: int | None = 0,
    seed: int = 0,
    solver: GravitySolver | None = None,
    on_status: Callable[[str], None] | None = None,
) -> GravityVerifyResult:
    """Walk a certificate with the rules (see the module docstring); then solve ``leaves`` of its
    leaves again, chosen at random with ``seed`` (``None``: all of them)."""
    cert = source if isinstance(source, GravityCertificate) else read_gravity_certificate(source)
    board, side, bound = cert.board, cert.side, cert.at_least
    accepted: set[tuple[int, int]] = set()
    reached: dict[tuple[int, int], GravityState] = {}

    def fail(state: GravityState, reason: str) -> GravityVerifyResult:
        return GravityVerifyResult(
            cert.claim, False, len(accepted), len(reached), 0, reason, state.to_rows()
        )

    def lookup(table: dict[tuple[int, int], Any], state: GravityState) -> tuple[Any, bool] | None:
        if state.key in table:
            return table[state.key], False
        mirrored = _mirror(state)
        if mirrored.key in table:
            return table[mirrored.key], True
        return None

    stack = [GravityState(board)]
    while stack:
        state = stack.pop()
        if state.key in accepted:
            continue
        accepted.add(state.key)
        if state.is_over:
            if finished_score(state, side) < bound:
                return fail(
                    state,
                    f"the game ends {state.outcome or ''} at ply {state.ply}, short of the claim",
                )
            continue
        leaf = lookup(cert.leaves, state)
        if leaf is not None:
            reached[_canonical(state)] = state  # a leaf and its mirror image: solved once
            continue
        if state.to_move == side:
            if state.winning_moves() and (board.size + 1 - state.ply) // 2 >= bound:
                continue
            found = lookup(cert.moves, state)
            if found is None:
                return fail(state, "missing position: the certificate gives no column here")
            col, mirrored = found
            if mirrored:
                col = board.cols - 1 - col
            if col not in state.legal_moves:
                return fail(state, f"column {col + 1} is full")
            stack.append(state.play(col))
        else:
            stack.extend(state.play(c) for c in state.legal_moves)
    chosen = list(reached.values())
    if leaves is not None:
        chosen.sort(key=lambda s: s.key)
        chosen = random.Random(seed).sample(chosen, min(leaves, len(chosen)))
    if chosen:
        solver = solver or GravitySolver(board)
        started = time.perf_counter()
        for number, state in enumerate(chosen, start=1):
            if not solver.holds(state, side, True, bound):
                return GravityVerifyResult(
                    cert.claim,
                    False,
                    len(accepted),
                    len(reached),
                    number - 1,
                    "the solver does not confirm this leaf",
                    state.to_rows(),
                )
            if on_status is not None:
                on_status(
                    f"leaf {number:,} of {len(chosen):,} holds ({time.perf_counter() - started:.0f} s)"
                )
    return GravityVerifyResult(cert.claim, True, len(accepted), len(reached), len(chosen))
