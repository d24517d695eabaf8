"""Computer players and ``oxo play``: legal moves, perfect play never loses, the terminal game over a pipe."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from oxo.cli import main
from oxo.errors import MoveError, OxoError
from oxo.geometry import Geometry
from oxo.players import LEVELS, NoisyPlayer, PerfectPlayer, PlayerError, RandomPlayer, make_player
from oxo.position import Position
from oxo.solve import reference_value, solve


def play_game(x_player, o_player, geometry: Geometry) -> Position:  # type: ignore[no-untyped-def]
    position = Position.empty(geometry)
    while not position.is_terminal:
        player = x_player if position.to_move == "x" else o_player
        cell = player.choose(position)
        assert cell in position.legal_moves
        position = position.play(cell)
    return position


def test_random_player_is_legal_and_reproducible() -> None:
    geometry = Geometry.parse("3x3")
    games = [play_game(RandomPlayer(seed), RandomPlayer(seed + 100), geometry) for seed in range(30)]
    again = [play_game(RandomPlayer(seed), RandomPlayer(seed + 100), geometry) for seed in range(30)]
    assert games == again
    assert len({(g.x, g.o) for g in games}) > 10  # different seeds give different games


def test_perfect_player_never_loses_on_3x3() -> None:
    geometry = Geometry.parse("3x3")
    for seed in range(40):
        assert play_game(PerfectPlayer(seed), RandomPlayer(seed), geometry).winner != "o"
        assert play_game(RandomPlayer(seed), PerfectPlayer(seed), geometry).winner != "x"
    for seed in range(5):
        assert play_game(PerfectPlayer(seed), PerfectPlayer(seed + 1), geometry).winner is None


def test_perfect_player_wins_a_won_game() -> None:
    geometry = Geometry.parse("3x4")  # X wins with best play
    assert solve(geometry).value().winner == "x"
    for seed in range(10):
        assert play_game(PerfectPlayer(seed), RandomPlayer(seed), geometry).winner == "x"


def test_perfect_moves_keep_the_reference_value() -> None:
    position = Position.from_string("xo./.x./..o")
    player = PerfectPlayer(0)
    target = reference_value(position)
    for _ in range(10):
        child = position.play(player.choose(position))
        value = reference_value(child)
        assert value.winner == target.winner and value.plies == target.plies - 1


def test_perfect_player_on_a_large_board_late_in_the_game() -> None:
    # 5x5 has 25 cells: the player solves from the first position it is shown, once <= 16 cells are empty.
    geometry = Geometry.parse("5x5", 4)
    position = Position.from_moves(geometry, [0, 1, 2, 3, 5, 7, 6, 8, 10, 11])
    player = PerfectPlayer(1)
    cell = player.choose(position)
    assert cell in player.solution(position).best_moves(position)
    with pytest.raises(OxoError, match="at most 16"):
        PerfectPlayer(1).choose(Position.empty(geometry))


def test_levels() -> None:
    geometry = Geometry.parse("3x3")
    assert set(LEVELS) == {"random", "easy", "medium", "hard", "perfect"}
    for level in LEVELS:
        player = make_player(level, seed=3)
        assert player.name == level
        play_game(player, make_player(level, seed=4), geometry)
    with pytest.raises(PlayerError, match="unknown level"):
        make_player("genius")
    with pytest.raises(PlayerError):
        NoisyPlayer(1.5)
    with pytest.raises(MoveError):
        RandomPlayer(0).choose(Position.from_string("xxxoo...."))


def test_noisy_player_blunders_sometimes() -> None:
    # From the empty 3x3 board every move draws, so look one ply later: after a corner, only the centre keeps the draw.
    position = Position.from_string("x........")
    best = set(solve(position).best_moves())
    choices = [NoisyPlayer(0.5, seed).choose(position) for seed in range(60)]
    assert any(c in best for c in choices) and any(c not in best for c in choices)
    assert all(NoisyPlayer(0.0, seed).choose(position) in best for seed in range(20))


# -- oxo play -------------------------------------------------------------------------------------------


def run_play(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], typed: str, *args: str) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code = main(["play", *args])
    return code, capsys.readouterr().out


def test_play_reprompts_on_illegal_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_play(monkeypatch, capsys, "4\nfoo\n4\n9\n" + "".join(f"{c}\n" for c in range(9)), "--seed", "1")
    assert code == 0
    assert "'foo' is not a move" in out and "cell 4 is already taken" in out and "cell 9 is not on the board" in out
    assert "computer (O) plays" in out
    # The perfect computer never loses: the game ends in a draw or a win for it.
    assert out.rstrip().endswith(("draw: the board is full", "the computer wins"))


def test_play_ends_cleanly_on_eof(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_play(monkeypatch, capsys, "", "3x3")
    assert code == 0 and "input ended; game abandoned" in out
    code, out = run_play(monkeypatch, capsys, "q\n", "--as", "o", "--level", "random", "--seed", "2")
    assert code == 0 and "computer (X) plays" in out and "game abandoned" in out


def test_play_with_keypads(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run_play(monkeypatch, capsys, "5\n", "--keypad", "phone", "--seed", "0")
    assert code == 0 and "1 2 3" in out.splitlines()[2]
    assert "4 X 6" in out  # key 5 is the centre
    code, out = run_play(monkeypatch, capsys, "7\n0\n", "--keypad", "numpad", "--seed", "0")
    assert code == 0 and "X 8 9" in out and "key 0 is not on the keypad" in out
    code, out = run_play(monkeypatch, capsys, "", "4x4", "--keypad", "phone")
    assert code == 2


def test_play_through_a_pipe() -> None:
    moves = "".join(f"{c}\n" for c in range(16))
    done = subprocess.run(
        [sys.executable, "-c", "from oxo.cli import run; run()", "play", "--level", "random", "--seed", "5"],
        input=moves,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.rstrip().endswith(("draw: the board is full", "you win", "the computer wins"))
