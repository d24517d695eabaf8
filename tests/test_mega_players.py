"""Mega tic-tac-toe players: the random player and Monte Carlo tree search (iteration budgets only,
so every result here is deterministic and independent of the machine's speed)."""

from __future__ import annotations

import pytest

from oxo.errors import OxoError
from oxo.mega import MegaState, parse_record
from oxo.mega.players import MCTSPlayer, RandomPlayer, make_player
from oxo.mega.selfplay import play_game, selfplay

#: X to play move 31 of a game it wins with 36 (see test_mega_rules.X_WINS).
BEFORE_WIN = "64 23 56 99 75 42 88 37 11 82 34 13 46 29 78 55 91 67 21 66 72 18 35 43 59 97 84 12 53 69"


def test_random_player_is_seeded_and_legal() -> None:
    a = play_game(RandomPlayer(3), RandomPlayer(4))
    b = play_game(RandomPlayer(3), RandomPlayer(4))
    assert a.record == b.record and a.is_over
    with pytest.raises(OxoError):
        RandomPlayer(1).choose(a)


def test_mcts_is_reproducible_with_a_seed_and_iterations() -> None:
    state = MegaState.replay("55 44 13")
    moves = {MCTSPlayer(iterations=300, seed=5).choose(state) for _ in range(2)}
    assert len(moves) == 1 and moves.pop() in state.legal_moves()
    player = MCTSPlayer(iterations=300, seed=5)
    player.choose(state)
    report = player.last
    assert report is not None and report.simulations == 300 and report.nodes > 1
    assert set(report.to_dict()) == {"simulations", "seconds", "nodes", "move", "visits", "win_rate"}


def test_mcts_takes_an_immediate_win() -> None:
    state = MegaState.replay(BEFORE_WIN)
    winning = []
    for move in state.legal_moves():
        state.play(move)
        if state.winner == "x":
            winning.append(move)
        state.undo()
    assert winning
    assert MCTSPlayer(iterations=2000, seed=1).choose(state) in winning


def test_mcts_with_a_time_budget_stops() -> None:
    player = MCTSPlayer(seconds=0.05, seed=2)
    move = player.choose(MegaState())
    assert 0 <= move < 81 and player.last is not None and player.last.seconds < 2


def test_mcts_grows_its_tree_and_handles_a_single_legal_move() -> None:
    player = MCTSPlayer(iterations=3000, seed=2)
    player.choose(MegaState())
    assert player.last is not None and player.last.nodes > 82 * 4
    rule8 = MegaState.replay("11 22 33 44 55 66 77 88 99 12 23 34 45 56 67 78 81 91 " "13 24 35 46 57 68 79 82")
    assert len(rule8.legal_moves()) >= 1
    assert player.choose(rule8) in rule8.legal_moves()


def test_player_errors() -> None:
    with pytest.raises(OxoError):
        make_player("human")
    with pytest.raises(OxoError):
        MCTSPlayer(seconds=0)
    with pytest.raises(OxoError):
        MCTSPlayer(iterations=0)
    with pytest.raises(OxoError):
        MCTSPlayer(iterations=10).choose(MegaState.replay(BEFORE_WIN + " 36"))
    with pytest.raises(OxoError):
        selfplay(0)
    with pytest.raises(OxoError):
        selfplay(1, "mcts", "random", engine="python")
    assert parse_record(BEFORE_WIN)


@pytest.mark.slow
def test_mcts_beats_random_as_either_colour() -> None:
    """A small, deterministic version of the 200-game check of docs/mega.md (1,000 simulations a move)."""
    as_x = selfplay(12, "mcts", "random", iterations=1000, seed=1)
    as_o = selfplay(12, "random", "mcts", iterations=1000, seed=2)
    assert as_x.x_wins >= 11, as_x.to_dict()
    assert as_o.o_wins >= 11, as_o.to_dict()
