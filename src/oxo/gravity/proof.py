"""The proof run of a gravity board (Connect Four and its relatives): solve the empty board on
several processes sharing one table (:mod:`oxo.gravity.parallel`), then read each side's strategy
from the solver and write it as a certificate (:mod:`oxo.gravity.certificate`, the format and its
rules-only checker). The names of those modules and of :mod:`oxo.gravity.book` are importable from
here too.
"""

from __future__ import annotations

import os
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from oxo.errors import OutOfReachError
from oxo.game import Outcome
from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.book import CERTIFICATES as CERTIFICATES
from oxo.gravity.book import BookMove as BookMove
from oxo.gravity.book import book_move as book_move
from oxo.gravity.book import shipped_certificates as shipped_certificates
from oxo.gravity.certificate import FORMAT as FORMAT
from oxo.gravity.certificate import GravityCertificate as GravityCertificate
from oxo.gravity.certificate import GravityVerifyResult as GravityVerifyResult
from oxo.gravity.certificate import StrategyTree, canonical_key, certificate_name, claim_text
from oxo.gravity.certificate import is_gravity_certificate as is_gravity_certificate
from oxo.gravity.certificate import read_gravity_certificate as read_gravity_certificate
from oxo.gravity.certificate import verify_gravity_certificate as verify_gravity_certificate
from oxo.gravity.parallel import SharedSolvers
from oxo.gravity.solver import (
    GravitySolver,
    _question,
    _SearchStopped,
    _stopped_message,
    next_probe,
)
from oxo.gravity.values import GravityValue, value_from_score


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
        key = canonical_key(state)
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
    order of :func:`oxo.gravity.solver.next_probe`); past ``seconds``,
    :class:`oxo.errors.OutOfReachError` says what was known."""
    deadline = None if seconds is None else time.perf_counter() + seconds
    cells, ply = state.board.size, state.ply
    if state.winning_moves():
        return (cells + 1 - ply) // 2
    low, high = -((cells - ply) // 2), (cells + 1 - ply) // 2
    while low < high:
        med = next_probe(low, high)
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
