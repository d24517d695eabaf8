"""Ultimate tic-tac-toe replayed move for move through OpenSpiel's ``ultimate_tic_tac_toe``.

OpenSpiel splits a free-choice move in two actions (choose a grid, then a cell) and forced moves
are one action (the cell). At every step the two must agree on whose turn it is, where the mover
is sent, every legal move, and at the end on the result.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from oxo.uttt import UtttState

pyspiel = pytest.importorskip(
    "pyspiel",
    reason="OpenSpiel (pip install open_spiel) is not installed: the cross-check needs its ultimate_tic_tac_toe",
)


def openspiel_moves(state: Any) -> tuple[int | None, set[int]]:
    """The grid OpenSpiel sends the mover to (``None``: free choice) and its legal moves as ``9*g + c``."""
    forced = str(state).rsplit("Forced board: ", 1)[1].strip()
    if forced == "any":
        moves: set[int] = set()
        for grid in state.legal_actions():
            chosen = state.clone()
            chosen.apply_action(grid)
            moves |= {9 * grid + cell for cell in chosen.legal_actions()}
        return None, moves
    grid = int(forced)
    return grid, {9 * grid + cell for cell in state.legal_actions()}


def replay_through_openspiel(games: int, seed: int) -> dict[str, int]:
    """Play ``games`` uniformly random games in both at once; return the outcome counts."""
    game = pyspiel.load_game("ultimate_tic_tac_toe")
    rng = random.Random(seed)
    outcomes = {"x": 0, "o": 0, "draw": 0}
    for _ in range(games):
        ours, theirs = UtttState(), game.new_initial_state()
        while not theirs.is_terminal():
            assert not ours.is_over, ours.record
            assert theirs.current_player() == ours.player, ours.record
            grid, legal = openspiel_moves(theirs)
            assert grid == ours.target, ours.record
            assert legal == set(ours.legal_moves), ours.record
            move = rng.choice(ours.legal_moves)
            if grid is None:
                theirs.apply_action(move // 9)
            theirs.apply_action(move % 9)
            ours = ours.play(move)
        returns = theirs.returns()
        expected = "x" if returns[0] > 0 else "o" if returns[1] > 0 else "draw"
        assert ours.outcome == expected, ours.record
        outcomes[expected] += 1
    return outcomes


def test_fifty_random_games_agree_with_openspiel() -> None:
    outcomes = replay_through_openspiel(50, seed=1)
    assert sum(outcomes.values()) == 50


@pytest.mark.slow
def test_three_thousand_random_games_agree_with_openspiel() -> None:
    """Enough games for every ending (X, O, a draw) many times over: about 4 s of CPU (ten
    thousand took 13)."""
    outcomes = replay_through_openspiel(3_000, seed=2026)
    assert sum(outcomes.values()) == 3_000 and min(outcomes.values()) >= 100
