"""Fast mega tic-tac-toe paths against the checked engine: the pure-Python playout and numba.

Every random game of a fast path is replayed through :class:`MegaState`, which validates each
move, so a fast path that drifted from the rules fails here. Outcome shares of 20,000 random
games are compared with the figures measured for docs/mega.md.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from oxo.mega import MegaState
from oxo.mega.playout import playout_from, random_game
from oxo.mega.selfplay import selfplay

#: Measured with `oxo mega selfplay --games 20000 --seed 1 --json` (docs/mega.md, "Random self-play").
SHARES_20000 = {"x": 0.4117, "o": 0.3796, "draw": 0.2087}
MEAN_MOVES_20000 = 58.69
ABNORMAL_20000 = 0.7795
#: 20,000 games give shares to about ±0.35 % (one standard error); allow four of them.
TOLERANCE = 0.015


def outcome_code(state: MegaState) -> int:
    return {"draw": 0, "x": 1, "o": 2}[state.winner or "draw"]


def test_python_playouts_replay_through_the_engine() -> None:
    rng = random.Random(11)
    for _ in range(150):
        record: list[int] = []
        result = random_game(rng, record)
        state = MegaState.replay(record)
        state.check_invariants()
        assert state.is_over and outcome_code(state) == result.outcome
        assert state.move_count == result.moves and bool(state.abnormal_strings) == result.abnormal


def test_python_playout_from_a_midgame_state() -> None:
    rng = random.Random(5)
    for _ in range(30):
        record: list[int] = []
        random_game(rng, record)
        cut = rng.randrange(len(record))
        start = MegaState.replay(record[:cut])
        rest: list[int] = []
        outcome, moves, _ = playout_from(start, rng.random, rest)
        state = MegaState.replay(record[:cut] + rest)
        assert state.is_over and outcome_code(state) == outcome and moves == len(rest)


@pytest.mark.slow
def test_python_selfplay_shares_match_the_documented_run() -> None:
    stats = selfplay(20_000, seed=2)
    assert stats.games == stats.x_wins + stats.o_wins + stats.draws == 20_000
    for outcome, share in SHARES_20000.items():
        assert abs(stats.share(outcome) - share) < TOLERANCE, (outcome, stats.to_dict())
    assert abs(stats.mean_moves - MEAN_MOVES_20000) < 0.5
    assert abs(stats.abnormal_share - ABNORMAL_20000) < TOLERANCE


def test_selfplay_is_reproducible_and_json_shaped() -> None:
    a = selfplay(300, seed=9).to_dict()
    b = selfplay(300, seed=9).to_dict()
    for key in ("games", "x_wins", "o_wins", "draws", "mean_moves", "abnormal_share", "seconds"):
        assert key in a
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_checked_selfplay_agrees_with_the_engine() -> None:
    stats = selfplay(40, seed=4, engine="checked")
    assert stats.engine == "checked" and stats.games == 40 and 20 < stats.mean_moves < 81


# -- compiled (numba) ------------------------------------------------------------------------


@pytest.fixture(scope="module")
def compiled():  # type: ignore[no-untyped-def]
    from oxo.mega import compiled

    return compiled


def test_compiled_random_games_replay_through_the_engine(compiled) -> None:  # type: ignore[no-untyped-def]
    rng = compiled.make_rng(3)
    record = np.empty(81, dtype=np.int64)
    for _ in range(150):
        n = compiled.random_game_record(rng, record)
        state = MegaState.replay([int(m) for m in record[:n]])
        state.check_invariants()
        assert state.is_over


def test_compiled_code_matches_its_uncompiled_source(compiled) -> None:  # type: ignore[no-untyped-def]
    a, b = compiled.make_rng(8), compiled.make_rng(8)
    ra, rb = np.empty(81, dtype=np.int64), np.empty(81, dtype=np.int64)
    for _ in range(5):
        na = compiled.random_game_record(a, ra)
        nb = compiled.random_game_record.py_func(b, rb)
        assert na == nb and (ra[:na] == rb[:nb]).all()
    assert compiled.next32(a) == compiled.next32.py_func(b)


def test_compiled_state_and_legal_moves_follow_the_engine(compiled) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(21)
    buf = np.empty(81, dtype=np.int64)
    for _ in range(40):
        record: list[int] = []
        random_game(rng, record)
        state = MegaState()
        st = compiled.state_from(state)
        for move in record:
            n = compiled.legal_moves(st, buf)
            assert sorted(buf[:n].tolist()) == list(state.legal_moves)
            state.push(move)
            compiled.apply_move(st, move)
            expected = compiled.state_from(state)
            if state.winner == "draw":  # the compiled state finds a draw when it looks for moves
                assert st[compiled.STATUS] == compiled.PLAYING
                st[compiled.STATUS] = compiled.DRAWN
            assert (st == expected).all()
        assert compiled.legal_moves(st, buf) == 0


@pytest.mark.slow
def test_compiled_selfplay_shares_match_the_documented_run() -> None:
    stats = selfplay(20_000, seed=3, engine="compiled")
    for outcome, share in SHARES_20000.items():
        assert abs(stats.share(outcome) - share) < TOLERANCE, (outcome, stats.to_dict())
    assert abs(stats.abnormal_share - ABNORMAL_20000) < TOLERANCE
