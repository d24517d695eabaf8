"""Mega tic-tac-toe through the engines: the random engine and Monte Carlo tree search on the compiled
search (iteration budgets only, so every result here is deterministic and independent of the machine)."""

from __future__ import annotations

import pytest

from oxo.engines import MCTSEngine, RandomEngine, make_engine
from oxo.engines.selfplay import play_game
from oxo.errors import MoveError, OxoError
from oxo.mega import MegaState, parse_record
from oxo.mega.selfplay import selfplay

#: X to play move 31 of a game it wins with 36 (see test_mega_rules.X_WINS).
BEFORE_WIN = (
    "64 23 56 99 75 42 88 37 11 82 34 13 46 29 78 55 91 67 21 66 72 18 35 43 59 97 84 12 53 69"
)


def test_random_engine_is_seeded_and_legal() -> None:
    a, moves_a = play_game(MegaState(), RandomEngine(3), RandomEngine(4))
    b, _ = play_game(MegaState(), RandomEngine(3), RandomEngine(4))
    assert a.record == b.record and a.is_over and moves_a == a.move_count  # type: ignore[attr-defined]
    with pytest.raises(MoveError):
        RandomEngine(1).choose(a)


def test_mcts_is_reproducible_with_a_seed_and_iterations() -> None:
    state = MegaState.replay("55 44 13")
    moves = {MCTSEngine(iterations=300, seed=5).choose(state) for _ in range(2)}
    assert len(moves) == 1 and moves.pop() in state.legal_moves
    engine = MCTSEngine(iterations=300, seed=5)
    engine.choose(state)
    report = engine.last
    assert report is not None and report.nodes == 300
    assert set(report.to_dict()) == {
        "engine",
        "move",
        "seconds",
        "nodes",
        "depth",
        "value",
        "expectation",
    }


def test_mcts_takes_an_immediate_win() -> None:
    state = MegaState.replay(BEFORE_WIN)
    winning = [move for move in state.legal_moves if state.play(move).winner == "x"]
    assert winning and sorted(state.winning_moves()) == sorted(winning)
    engine = MCTSEngine(iterations=2000, seed=1)
    assert engine.choose(state) in winning
    assert engine.last is not None and engine.last.value == "x"


def test_mcts_never_hands_over_a_win_in_one() -> None:
    """Every position of random games where some move keeps O from winning at once: hard picks such a move."""
    engine = MCTSEngine(iterations=200, seed=3)
    checked = 0
    for seed in range(6):
        final, _ = play_game(MegaState(), RandomEngine(seed), RandomEngine(seed + 50))
        moves = list(final.moves)  # type: ignore[attr-defined]
        for count in range(20, len(moves)):
            state = MegaState.replay(moves[:count])
            if state.is_over or state.winning_moves():
                continue
            safe = [m for m in state.legal_moves if not state.play(m).winning_moves()]
            if safe and len(safe) < len(state.legal_moves):
                assert engine.choose(state) in safe
                checked += 1
    assert checked > 0


def test_mcts_with_a_time_budget_stops() -> None:
    engine = MCTSEngine(seconds=0.05, seed=2)
    move = engine.choose(MegaState())
    assert 0 <= move < 81 and engine.last is not None and engine.last.seconds < 2


def test_mcts_handles_a_single_legal_move() -> None:
    engine = MCTSEngine(iterations=3000, seed=2)
    engine.choose(MegaState())
    assert engine.last is not None and engine.last.nodes == 3000
    rule8 = MegaState.replay(
        "11 22 33 44 55 66 77 88 99 12 23 34 45 56 67 78 81 91 13 24 35 46 57 68 79 82"
    )
    assert len(rule8.legal_moves) >= 1
    assert engine.choose(rule8) in rule8.legal_moves


def test_errors() -> None:
    with pytest.raises(OxoError):
        make_engine("human", MegaState())
    with pytest.raises(OxoError):
        MCTSEngine(seconds=0)
    with pytest.raises(OxoError):
        MCTSEngine(iterations=0)
    with pytest.raises(MoveError):
        MCTSEngine(iterations=10).choose(MegaState.replay(BEFORE_WIN + " 36"))
    with pytest.raises(OxoError):
        selfplay(0)
    with pytest.raises(OxoError):
        selfplay(1, "mcts", "random", engine="python")
    assert parse_record(BEFORE_WIN)


@pytest.mark.slow
def test_hard_beats_random_as_either_colour() -> None:
    """A small, deterministic version of the 200-game check of docs/mega.md (1,000 simulations a move)."""
    as_x = selfplay(12, "hard", "random", iterations=1000, seed=1)
    as_o = selfplay(12, "random", "hard", iterations=1000, seed=2)
    assert as_x.x_wins >= 11, as_x.to_dict()
    assert as_o.o_wins >= 11, as_o.to_dict()
