"""The exact values of gravity positions (oxo.proofs.dropvalue), held to plain minimax."""

from __future__ import annotations

import random

import pytest

from oxo.engines.exact import in_reach
from oxo.errors import OutOfReachError, PositionError
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.proofs.dropvalue import DropSolver, drop_solution
from oxo.registry import find_game
from oxo.solve import Value


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


def minimax_score(position: Position, memo: dict[tuple[int, int], int]) -> int:
    """The score for the side to move by trying every legal move (slow, obviously right): a game
    won with P marks on the board scores cells + 1 - P for the winner, minus that for the loser,
    a draw 0."""
    key = position.x, position.o
    if key not in memo:
        size = position.geometry.size
        if position.winner is not None:
            memo[key] = position.ply - size - 1  # the side that just moved completed a line
        elif position.is_full:
            memo[key] = 0
        else:
            memo[key] = max(
                -minimax_score(position.play(move), memo) for move in position.legal_moves
            )
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


@pytest.mark.parametrize(
    ("spec", "plies"),
    [
        ("3x4,k=3,gravity", 0),
        ("4x3,k=3,gravity", 0),
        ("2x3x3,k=3,gravity", 7),
        ("3x3x3,k=3,gravity", 14),
        ("4x4x4,gravity", 52),
    ],
)
def test_scores_as_minimax_finds_them(spec: str, plies: int) -> None:
    """How soon a game ends with best play, to the ply, on small boards from the empty one and on
    Score Four with 12 cells left; wins, losses and draws among them, of several lengths."""
    geometry = Geometry.parse(spec)
    solver = DropSolver(geometry, table_bits=10)  # a small table: slots are replaced
    memo: dict[tuple[int, int], int] = {}
    if plies:
        positions = random_positions(geometry, plies, 12, seed=plies)
    else:  # the empty board and positions on the way of any game
        positions = random_positions(geometry, geometry.size // 3, 12, seed=1, quiet=False)
        positions.append(Position.empty(geometry))
    scores = set()
    for position in positions:
        score = minimax_score(position, memo)
        assert solver.score(position) == score, position.to_status_string()
        assert solver.value(position) == (score > 0) - (score < 0)
        scores.add(score)
    assert len(scores) >= 3


def test_a_score_stopped_is_none_and_a_window_gives_bounds() -> None:
    geometry = Geometry.parse("4x4x4,gravity")
    for position in random_positions(geometry, 44, 20, seed=5):
        whole = DropSolver(geometry)
        exact = whole.score(position)
        if whole.nodes > 100:
            break
    assert whole.nodes > 100 and exact is not None
    solver = DropSolver(geometry, table_bits=14)
    assert solver.score(position, max_nodes=3) is None
    above = solver.window(position, exact, exact + 1)  # the score is at most the window's floor
    below = solver.window(position, exact - 1, exact)  # and at least its ceiling
    assert above is not None and below is not None and below >= exact >= above
    assert solver.window(position, exact - 1, exact + 1) == exact
    assert solver.score(position) == exact


def test_perfect_play_on_score_four_near_the_end() -> None:
    """The solution the registry hands the engines: every best move is one that keeps the score
    minimax gives, the value names the winner and the plies to the end, and the perfect level
    plays one of those moves; beyond the limit of empty cells it is out of reach."""
    game = find_game("scorefour")
    solver = game.exact_solver()
    assert solver is not None
    memo: dict[tuple[int, int], int] = {}
    geometry = Geometry.parse("4x4x4,gravity")
    seen, at_once = set(), 0
    quiet = random_positions(geometry, 52, 6, seed=11)
    any_game = random_positions(geometry, 52, 8, seed=12, quiet=False)  # wins at once among them
    for position in quiet + any_game:
        solution = solver(position, 12)
        assert solution is not None and position in solution
        score = minimax_score(position, memo)
        children = {}
        for move in position.legal_moves:
            child = position.play(move)
            children[move] = -minimax_score(child, memo)
        assert set(solution.best_moves(position)) == {
            move for move, found in children.items() if found == score
        }
        value = solution.value(position)
        left = geometry.size - position.ply
        if score == 0:
            assert value == Value(None, left)
        else:
            winner = position.to_move if score > 0 else "o" if position.to_move == "x" else "x"
            assert value == Value(winner, geometry.size + 1 - abs(score) - position.ply)
        seen.add(value.outcome)
        at_once += value.winner == position.to_move and value.plies == 1
        engine = game.make_engine("perfect", position, seed=3)
        assert children[engine.choose(position)] == score
    assert len(seen) >= 2 and at_once >= 1
    assert solver(Position.empty(geometry), 16) is None
    assert solver(Position.empty(Geometry.parse("3x3")), 16) is None  # no gravity: not its board
    reach = drop_solution.reach
    with pytest.raises(OutOfReachError, match=f"at most {reach} empty cells and this one has 64"):
        game.make_engine("perfect", game.start())
    deep = random_positions(geometry, 64 - reach, 1, seed=4)[0]  # as many empty cells as it reaches
    assert in_reach(deep, solver) and not in_reach(deep, None)  # None: a game without a solver
    earlier = random_positions(geometry, 63 - reach, 1, seed=4)[0]
    assert not in_reach(earlier, solver)
    with pytest.raises(OutOfReachError, match=f"at most {reach} empty cells and this one has"):
        game.make_engine("perfect", earlier)
    assert game.make_engine("perfect", deep).choose(deep) in deep.legal_moves
    # hard plays from the exact solution two cells short of its reach, as on classic boards
    for plies, exact in ((66 - reach, True), (65 - reach, False)):
        position = random_positions(geometry, plies, 1, seed=6)[0]
        hard = game.make_engine("hard", position, seconds=0.05, seed=1)
        move = hard.choose(position)
        report = hard.last
        assert report is not None and (report.depth is None) == exact  # no search: the solution's
        if exact:
            found = solver(position, reach)
            assert found is not None and move in found.best_moves(position)
            assert report.value == found.value(position).outcome
    assert f"perfect once at most {reach} cells are empty" in game.describe_level("best", earlier)
    with pytest.raises(OutOfReachError, match="no exact solver"):
        find_game("4x4x4x4,gravity").make_engine("perfect", find_game("4x4x4x4,gravity").start())
    assert "perfect" not in find_game("4x4x4x4,gravity").levels


def test_a_finished_game_has_its_value() -> None:
    geometry = Geometry.parse("2x2x3,k=3,gravity")
    won = Position.from_moves(geometry, [6, 9, 7, 10, 8])  # X's bottom row of three
    solution = drop_solution(won, 16)
    assert solution is not None and solution.value(won) == Value("x", 0)
