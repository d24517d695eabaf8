"""The levels ``perfect`` and ``best`` on gravity boards: columns the rules alone settle (a win in one,
the one block) are played at once, and they are among the best columns plain minimax finds."""

from __future__ import annotations

import random

from tests.test_gravity import random_state

from oxo.game import Outcome, other
from oxo.gravity.board import GravityBoard
from oxo.gravity.engine import SolverEngine, _settled_column, make_gravity_engine
from oxo.gravity.reference import Memo, minimax
from oxo.gravity.solver import GravitySolver

C4 = GravityBoard(6, 7, 4)


def _rank(mover: Outcome, outcome: Outcome, end: int) -> int:
    """How good a result is for ``mover``: wins (sooner better) over draws over losses (later better)."""
    if outcome == mover:
        return 2_000 - end
    return 1_000 if outcome == "draw" else end


def test_settled_columns_are_best_by_minimax() -> None:
    board = GravityBoard(4, 4, 3)
    memo: Memo = {}
    rng = random.Random(11)
    settled = {"win": 0, "block": 0}
    for _ in range(300):
        state = random_state(board, rng.randint(0, 10), rng)
        found = _settled_column(state)
        if found is None:
            continue
        column, value = found
        mover = state.to_move
        assert mover is not None
        ranks = {c: _rank(mover, *minimax(state.play(c), memo)) for c in state.legal_moves}
        assert ranks[column] == max(ranks.values()), state.to_rows()
        if value is not None:
            assert value == minimax(state, memo)[0] == mover
            settled["win"] += 1
        else:
            assert state.winning_moves(other(mover)) == (column,)
            settled["block"] += 1
    assert settled["win"] > 10 and settled["block"] > 10  # both kinds were met


def test_a_win_in_one_needs_no_time_to_search() -> None:
    """Just out of Connect Four's book an exact analysis of every column can take seconds, more
    than ``best`` gives the solver: a win in one (or the one block) is played without it."""
    rng = random.Random(5)
    met = 0
    while met < 5:
        state = random_state(C4, rng.randint(6, 12), rng)
        mover = state.to_move
        assert mover is not None
        wins = state.winning_moves()
        threats = state.winning_moves(other(mover))
        if not wins and len(threats) != 1:
            continue
        engine = SolverEngine(1e-9, None, seed=1, name="best")  # no time at all, no fallback
        column = engine.choose(state)
        assert column in (wins or threats)
        assert engine.last is not None and engine.last.value == (mover if wins else None)
        met += 1


def test_one_best_column_is_best_by_minimax() -> None:
    """``best_column`` (the level best's question) proves one column that keeps the exact value."""
    for board, seed in ((GravityBoard(4, 4, 3), 3), (GravityBoard(3, 5, 3), 4)):
        memo: Memo = {}
        solver = GravitySolver(board, 1 << 12)
        rng = random.Random(seed)
        for _ in range(60):
            state = random_state(board, rng.randint(0, 9), rng)
            mover = state.to_move
            assert mover is not None
            column, value = solver.best_column(state, rng=random.Random(rng.random()))
            ranks = {c: _rank(mover, *minimax(state.play(c), memo)) for c in state.legal_moves}
            assert ranks[column] == max(ranks.values()), state.to_rows()
            assert (value.outcome, value.end_ply) == minimax(state, memo)


def test_best_asks_for_one_column_perfect_for_every_column() -> None:
    rng = random.Random(8)
    state = random_state(C4, 14, rng)
    while _settled_column(state) is not None:  # out of the book, nothing settled by the rules
        state = random_state(C4, 14, rng)
    for level, every in (("perfect", True), ("best", False)):
        engine = make_gravity_engine(level, state, seconds=60, seed=2)
        assert isinstance(engine, SolverEngine) and engine.every_column is every
        column = engine.choose(state)
        assert engine.last is not None
        assert column in GravitySolver(C4).analyze(state).best_columns
