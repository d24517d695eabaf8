"""The contract of the one game interface, run over every game oxo plays, with random playouts."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oxo.errors import BoardSpecError, MoveError, OxoError
from oxo.game import GameState, other
from oxo.registry import new_game

GAMES = [
    "3x3",
    "4x4,k=3",
    "5x5,k=4",
    "3x3x3",
    "15x15,k=5",
    "mega",
    "uttt",
    "6x7,k=4,gravity",
    "4x4,k=3,gravity",
]


def brute_winning_moves(state: GameState, moves: list[int] | tuple[int, ...]) -> set[int]:
    """Which of ``moves`` leave the side to move having won: the obviously correct version."""
    return {move for move in moves if state.play(move).outcome == state.to_move}


@pytest.mark.parametrize("spec", GAMES)
def test_start_of_every_game(spec: str) -> None:
    state = new_game(spec)
    assert isinstance(state, GameState)
    assert state.to_move == "x" and not state.is_over and state.outcome is None
    assert state.legal_moves and len(set(state.legal_moves)) == len(state.legal_moves)
    assert state.winning_moves() == () and state.text()
    for move in state.legal_moves[:5]:
        assert state.parse_move(state.format_move(move)) == move


@pytest.mark.parametrize(
    "spec",
    # 15x15's playouts (5 CPU s: 200-move games, 30 moves checked at each) run with the slow tests
    [pytest.param(spec, marks=pytest.mark.slow) if spec == "15x15,k=5" else spec for spec in GAMES],
)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_playouts_keep_the_contract(spec: str, seed: int) -> None:
    rng = random.Random(seed)
    state = new_game(spec)
    history = [state]
    while not state.is_over:
        moves = state.legal_moves
        mover = state.to_move
        assert mover in ("x", "o") and moves and state.outcome is None
        # Every move on boards up to 81 cells, a sample of 30 on bigger ones (each check plays the move).
        sample = moves if len(moves) <= 81 else rng.sample(moves, 30)
        assert set(state.winning_moves()) & set(sample) == brute_winning_moves(state, sample)
        hash(state.key)
        move = rng.choice(moves)
        after = state.play(move)
        assert state.legal_moves == moves and state.to_move == mover, (
            "play must leave the state unchanged"
        )
        assert after.to_move in (other(mover), None)
        if after.is_over:
            assert after.legal_moves == () and after.to_move is None
            assert after.outcome in (mover, "draw"), "only the side that just moved can have won"
        state = after
        history.append(state)
    assert state.outcome in ("x", "o", "draw")
    with pytest.raises(MoveError):
        state.play(0)
    # Replaying the same moves from the start gives equal keys at every step.
    again = new_game(spec)
    assert again.key == history[0].key


@pytest.mark.parametrize("spec", ["3x3", "4x4,k=3", "mega", "uttt"])
def test_illegal_moves_are_refused(spec: str) -> None:
    state = new_game(spec)
    first = state.legal_moves[0]
    after = state.play(first)
    with pytest.raises(MoveError):
        after.play(first)


def test_keys_agree_on_symmetric_positions() -> None:
    a = new_game("3x3").play(0).play(4)
    b = new_game("3x3").play(8).play(4)
    c = new_game("3x3").play(1).play(4)
    assert a.key == b.key != c.key


def test_new_game_errors() -> None:
    with pytest.raises(BoardSpecError):
        new_game("mega", 4)
    with pytest.raises(OxoError):
        new_game("7")
    with pytest.raises(BoardSpecError):
        new_game(3)  # type: ignore[arg-type]
