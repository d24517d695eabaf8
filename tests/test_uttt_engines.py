"""Ultimate tic-tac-toe through the engines: random play, the compiled Monte Carlo tree search behind
``hard``, and its strength against random play (iteration budgets only, so results are reproducible)."""

from __future__ import annotations

import random

import pytest

from oxo.engines import MCTSEngine, RandomEngine, make_engine
from oxo.engines.base import Clock
from oxo.engines.selfplay import play_game, selfplay
from oxo.errors import MoveError, OutOfReachError
from oxo.uttt import UtttState
from oxo.uttt.search import PLAIN


def states_with_a_win_in_one(count: int) -> list[UtttState]:
    """Positions of seeded random games where the side to move can win the game at once."""
    found = []
    for seed in range(2000):
        rng = random.Random(seed)
        state = UtttState()
        while not state.is_over:
            wins = [m for m in state.legal_moves if state.play(m).outcome == state.to_move]
            if wins and len(wins) < len(state.legal_moves):
                found.append(state)
                break
            state = state.play(rng.choice(state.legal_moves))
        if len(found) == count:
            return found
    raise AssertionError("too few positions with a win in one")


def test_random_engine_is_seeded_and_legal() -> None:
    a, moves = play_game(UtttState(), RandomEngine(3), RandomEngine(4))
    b, _ = play_game(UtttState(), RandomEngine(3), RandomEngine(4))
    assert isinstance(a, UtttState) and isinstance(b, UtttState)
    assert a.record == b.record and a.is_over and moves == a.move_count
    with pytest.raises(MoveError):
        RandomEngine(1).choose(a)


def test_hard_is_the_compiled_tree_search_and_reproducible() -> None:
    state = UtttState.replay("55 51 15")
    assert isinstance(make_engine("hard", state, iterations=500, seed=5), MCTSEngine)
    engine = MCTSEngine(iterations=500, seed=5)  # no clock: the budget alone decides
    first = engine.choose(state)
    again = MCTSEngine(iterations=500, seed=5).choose(state)
    assert first == again and first in state.legal_moves
    assert engine.last is not None and engine.last.nodes == 500
    with pytest.raises(OutOfReachError):
        make_engine("perfect", state)


def test_the_compiled_search_finds_wins_in_one_without_the_root_tactics() -> None:
    """The tree itself (no shortcut at the root) ends up preferring a winning move: its results are
    counted from the right side."""
    for state in states_with_a_win_in_one(5):
        wins = {m for m in state.legal_moves if state.play(m).outcome == state.to_move}
        search = state.compiled_search(seed=1, **PLAIN)
        stats, done, nodes = search.run(state, Clock(None), 4000)
        assert done == 4000 and nodes > len(state.legal_moves)
        assert sorted(move for move, *_ in stats) == sorted(state.legal_moves)
        assert sum(visits for _, visits, *_ in stats) == 4000
        best = max(stats, key=lambda s: s[1])
        assert best[0] in wins, (state.record, best, wins)
        assert best[2] / best[1] > 0.9


def test_hard_s_search_proves_a_win_in_one_at_once() -> None:
    """With the solver and the decisive-move check, the search itself marks a winning move proven
    and stops: the root is decided."""
    for state in states_with_a_win_in_one(5):
        wins = {m for m in state.legal_moves if state.play(m).outcome == state.to_move}
        stats, done, _ = state.compiled_search(seed=1).run(state, Clock(None), 4000)
        assert done < 4000
        proven = {move for move, _, _, proof in stats if proof == 3}
        assert proven and proven <= wins


def test_mcts_plays_a_win_in_one_and_reports_the_value() -> None:
    for state in states_with_a_win_in_one(3):
        engine = MCTSEngine(iterations=50, seed=2)
        move = engine.choose(state)
        assert state.play(move).outcome == state.to_move
        assert engine.last is not None and engine.last.value == state.to_move


def test_hard_beats_random_in_a_few_quick_games() -> None:
    stats = selfplay(UtttState(), "hard", "random", 4, iterations=300, seed=1)
    assert stats.x_wins >= 3


@pytest.mark.slow
def test_hard_beats_random_as_either_colour() -> None:
    as_x = selfplay(UtttState(), "hard", "random", 12, iterations=1000, seed=1)
    as_o = selfplay(UtttState(), "random", "hard", 12, iterations=1000, seed=2)
    assert as_x.x_wins >= 11 and as_o.o_wins >= 11
