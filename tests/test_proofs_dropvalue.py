"""The exact values of gravity positions (oxo.proofs.dropvalue), held to plain minimax."""

from __future__ import annotations

import random

import pytest

from oxo.errors import OutOfReachError, PositionError
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.proofs.dropvalue import DropSolver


def minimax(position: Position, memo: dict[tuple[int, int], int]) -> int:
    """1, 0 or -1 for the side to move, by trying every legal move (slow, obviously right)."""
    key = position.x, position.o
    if key not in memo:
        if position.winner is not None:
            memo[key] = -1  # the side that just moved completed a line
        elif position.is_full:
            memo[key] = 0
        else:
            memo[key] = max(-minimax(position.play(move), memo) for move in position.legal_moves)
    return memo[key]


def random_positions(
    geometry: Geometry, plies: int, count: int, seed: int, quiet: bool = True
) -> list[Position]:
    """Positions ``plies`` moves in, the game still going; ``quiet``: the side to move without a
    line to complete at once (such positions are settled before any search). With ``quiet`` the
    games are played so that they last: each side blocks the other's line when it can and never
    completes one of its own, else it moves at random."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = Position.empty(geometry)
        for _ in range(plies):
            if position.is_terminal:
                break
            moves = list(position.legal_moves)
            if quiet:
                mine = position.x if position.to_move == "x" else position.o
                theirs = position.o if position.to_move == "x" else position.x
                moves = [move for move in moves if not completes(geometry, mine, move)]
                blocks = [move for move in moves if completes(geometry, theirs, move)]
                moves = blocks or moves
                if not moves:
                    break
            position = position.play(rng.choice(moves))
        if position.is_terminal or position.ply < plies:
            continue
        if quiet and any(position.play(move).winner for move in position.legal_moves):
            continue
        found.append(position)
    return found


def completes(geometry: Geometry, marks: int, cell: int) -> bool:
    """Whether a mark on ``cell`` completes a line of ``marks``."""
    after = marks | 1 << cell
    return any(line >> cell & 1 and after & line == line for line in geometry.lines)


@pytest.mark.parametrize(
    "spec", ["2x2x3,k=3,gravity", "3x4,k=3,gravity", "2x2x2,gravity", "4x3,k=3,gravity"]
)
def test_small_boards_from_the_empty_board_and_every_position_on_the_way(spec: str) -> None:
    geometry = Geometry.parse(spec)
    solver = DropSolver(geometry, table_bits=10)  # a small table: slots are replaced
    memo: dict[tuple[int, int], int] = {}
    assert solver.value(Position.empty(geometry)) == minimax(Position.empty(geometry), memo)
    for position in random_positions(geometry, geometry.size // 3, 40, len(spec), quiet=False):
        assert solver.value(position) == minimax(position, memo), position.to_status_string()


@pytest.mark.parametrize(
    ("spec", "plies"), [("4x4x4,gravity", 56), ("2x3x3,k=3,gravity", 8), ("3x3x3,k=3,gravity", 18)]
)
def test_random_positions_of_boxes(spec: str, plies: int) -> None:
    """Score Four with a dozen cells left, and smaller boxes: every value as minimax's, of both
    kinds (a win, a loss or a draw for the side to move) among them."""
    geometry = Geometry.parse(spec)
    solver = DropSolver(geometry, table_bits=16)
    memo: dict[tuple[int, int], int] = {}
    seen = set()
    for position in random_positions(geometry, plies, 12, seed=plies):
        value = solver.value(position)
        assert value == minimax(position, memo), position.to_status_string()
        seen.add(value)
    assert len(seen) >= 2


def test_a_search_stopped_gives_no_value_and_leaves_the_table_right() -> None:
    """With too few positions the answer is None, never a guess; asked again without a limit, the
    same solver (its table holding the stopped search's bounds) gives the value a fresh one
    gives."""
    geometry = Geometry.parse("4x4x4,gravity")
    for position in random_positions(geometry, 50, 20, seed=3):
        whole = DropSolver(geometry, table_bits=14)
        value = whole.value(position)
        if whole.nodes > 50:
            break
    assert whole.nodes > 50
    solver = DropSolver(geometry, table_bits=14)
    assert solver.value(position, max_nodes=20) is None
    assert solver.value(position) == value  # as a solver with a fresh table found it


def test_finished_and_impossible_positions_and_other_boards() -> None:
    geometry = Geometry.parse("2x2x3,k=3,gravity")
    solver = DropSolver(geometry)
    won = Position.from_moves(geometry, [6, 9, 7, 10, 8])  # X's bottom row of three
    assert won.winner == "x" and solver.value(won) == -1  # O to move has lost
    with pytest.raises(PositionError, match="no gravity"):
        DropSolver(Geometry.parse("3x3"))
    with pytest.raises(OutOfReachError, match="at most 64"):
        DropSolver(Geometry.parse("4x4x5,gravity"))
    with pytest.raises(PositionError, match="asked of a solver of"):
        solver.value(Position.empty(Geometry.parse("2x2x2,gravity")))
