"""Gravity boards (Connect Four and relatives): rules, notation, the exact solver against plain minimax,
and the rules against OpenSpiel's connect_four."""

from __future__ import annotations

import random

import numpy as np
import pytest

from oxo.errors import BoardSpecError, MoveError, OutOfReachError, PositionError
from oxo.game import GameState, Outcome
from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.reference import Memo, minimax
from oxo.gravity.solver import GravitySolver, solvable, solve, supports, value_from_score
from oxo.registry import new_game

C4 = GravityBoard(6, 7, 4)


def random_state(board: GravityBoard, plies: int, rng: random.Random) -> GravityState:
    """A position reached by random play after ``plies`` moves, not over yet (games that end
    sooner are played again).

    The games are played on the two bitboards, not with states: near a full board most games end
    early and are played again, thousands of times (4x5 with k=3: 470,000 moves for 150
    positions). The moves and the random choices are the states' own (the open columns from the
    left, a game over at a line or a full board): ``test_the_fast_random_games_are_the_states_games``
    holds the two to the same positions."""
    full = board.full
    # per column: its top cell's bit, its bottom cell, its cells
    columns = [
        (
            c * board.stride + board.rows - 1,
            board.column_mask(c) & board.bottom,
            board.column_mask(c),
        )
        for c in range(board.cols)
    ]
    while True:
        marks = [0, 0]  # X's and O's
        for ply in range(plies):
            mask = marks[0] | marks[1]
            if mask == full or (ply and board.has_line(marks[(ply - 1) % 2])):
                break
            col = rng.choice([c for c, (top, _, _) in enumerate(columns) if not mask >> top & 1])
            _, bottom, cells = columns[col]
            marks[ply % 2] |= (mask + bottom) & cells
        state = GravityState(board, marks[0], marks[1])
        if not state.is_over:
            return state


def slow_random_state(board: GravityBoard, plies: int, rng: random.Random) -> GravityState:
    """:func:`random_state` with the game states' own moves (the obvious form, for the test)."""
    while True:
        state = GravityState(board)
        for _ in range(plies):
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves))
        if not state.is_over:
            return state


@pytest.mark.parametrize(
    ("spec", "most"),
    [("3x3,k=3", 8), ("3x4,k=3", 11), ("4x4,k=3", 15), ("4x5,k=4", 19), ("6x7,k=4", 24)],
)
def test_the_fast_random_games_are_the_states_games(spec: str, most: int) -> None:
    """Games of every length up to ``most`` (the board less one cell; 24 plies on Connect Four,
    where the plain form still finds such a game quickly): games that end at a line or a full
    board sooner are played again."""
    board = GravityBoard.parse(spec)
    for plies in range(most + 1):
        fast, slow = random.Random(plies), random.Random(plies)
        assert random_state(board, plies, fast) == slow_random_state(board, plies, slow)
        assert fast.random() == slow.random()  # the same random choices were made


# -- rules and notation ----------------------------------------------------------------------------


def test_marks_drop_to_the_bottom_of_their_column() -> None:
    state = GravityState(C4).play(3).play(3).play(4)
    assert state.cell(0, 3) == "x" and state.cell(1, 3) == "o" and state.cell(0, 4) == "x"
    assert state.to_rows().split("/")[-2:] == ["...o...", "...xx.."]
    assert state.to_move == "o" and state.ply == 3
    assert isinstance(state, GameState)


def test_a_full_column_is_not_a_move() -> None:
    state = GravityState.from_string("444444")
    assert 3 not in state.legal_moves and len(state.legal_moves) == 6
    with pytest.raises(MoveError, match="full"):
        state.play(3)
    with pytest.raises(MoveError):
        state.play(7)


@pytest.mark.parametrize(
    ("moves", "winner"),
    [("1212121", "x"), ("4455667", "x"), ("7171717", "x"), ("1121314", "x"), ("2121315", None)],
)
def test_lines_across_and_up(moves: str, winner: str | None) -> None:
    assert GravityState.from_string(moves).winner == winner


def test_diagonal_wins_and_no_wrap_between_columns() -> None:
    # X builds the rising diagonal from column 1 row 1 to column 4 row 4.
    state = GravityState.from_string("1223343447")
    assert state.winner is None and state.winning_moves() == (3,)
    assert state.play(3).winner == "x"
    falling = GravityState.from_string("7665545441")
    assert falling.winner is None and falling.play(3).winner == "x"
    # Four marks of X stacked across the top of one column and the bottom of the next: no line.
    board = GravityBoard(4, 3, 4)
    assert not board.has_line(board.bit(2, 0) | board.bit(3, 0) | board.bit(0, 1) | board.bit(1, 1))


def test_winning_moves_and_outcome() -> None:
    state = GravityState.from_string("121212")
    assert state.winning_moves() == (0,)
    assert state.winning_moves("o") == (1,)
    after = state.play(0)
    assert (
        after.outcome == "x" and after.is_over and after.legal_moves == () and after.to_move is None
    )
    assert after.winning_line() is not None and len(after.winning_line() or ()) == 4


def test_notations_round_trip() -> None:
    rng = random.Random(3)
    for _ in range(30):
        state = random_state(C4, rng.randint(0, 30), rng)
        assert GravityState.from_string(state.to_rows()) == GravityState(
            GravityBoard(6, 7, 6), state.x, state.o
        )
        assert GravityState.from_string(state.to_rows(), C4) == state
    assert GravityState.from_string("4 4 5 3") == GravityState.from_string("4453")
    assert GravityState.from_string("1,10", GravityBoard(4, 10, 4)).ply == 2


def test_text_shows_the_column_numbers() -> None:
    text = GravityState.from_string("44").text()
    assert text.splitlines()[-1].split() == [str(c) for c in range(1, 8)]
    assert text.splitlines()[-2].split()[3] == "X"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("...x/..../..../....", "above an empty cell"),
        ("..../..../..../xx..", "as many as O"),
        ("8", "not on the board"),
        ("4a", "not a gravity position"),
        ("1111111", "cannot be played"),
        ("..../..../oooo/xxxx", "both"),
    ],
)
def test_impossible_positions_are_refused(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        GravityState.from_string(text)


def test_board_specs() -> None:
    assert GravityBoard.parse("6x7,k=4,gravity") == C4
    assert GravityBoard.parse("6x7", 4) == C4
    assert GravityBoard.parse("6x7").k == 6
    assert new_game("6x7,k=4,gravity") == GravityState(C4)
    assert new_game("5x4", 4, gravity=True) == GravityState(GravityBoard(5, 4, 4))
    for bad in ("6x", "0x7", "6x7,k=9", "2x2x2x2x2x2,gravity"):
        with pytest.raises(BoardSpecError):
            new_game(bad if "gravity" in bad else bad + ",gravity")


# -- the solver against plain minimax ----------------------------------------------------------------


def _minimax_of_states(
    state: GravityState, memo: dict[GravityState, tuple[Outcome, int]]
) -> tuple[Outcome, int]:
    """Plain minimax through the game states' own rules (``play``, ``is_over``, ``outcome``): what
    ``oxo.gravity.reference.minimax`` computes on the bitboards, for the test below."""
    if state.is_over:
        assert state.outcome is not None
        return state.outcome, state.ply
    if state not in memo:
        values = [_minimax_of_states(state.play(col), memo) for col in state.legal_moves]
        # The mover's order: wins (sooner better) > draws > losses (later better).
        memo[state] = max(
            values,
            key=lambda v: (
                2_000 - v[1] if v[0] == state.to_move else 1_000 if v[0] == "draw" else v[1]
            ),
        )
    return memo[state]


@pytest.mark.parametrize("spec", ["3x3,k=3", "2x5,k=3", "3x4,k=3", "4x3,k=3", "3x4,k=4"])
def test_the_reference_minimax_follows_the_rules_of_the_game_states(spec: str) -> None:
    """The yardstick below plays on the two bitboards with the rules spelled out (cheaper than a
    game state per position): on every reachable position of these boards it gives what plain
    minimax through ``GravityState.play`` and ``outcome`` gives."""
    from oxo.gravity.reference import _layers

    board = GravityBoard.parse(spec)
    memo: Memo = {}
    theirs: dict[GravityState, tuple[Outcome, int]] = {}
    outcomes = set()
    for layer in _layers(board):
        for state in layer:
            assert minimax(state, memo) == _minimax_of_states(state, theirs), state.to_rows()
            outcomes.add(minimax(state, memo)[0])
    assert outcomes == {"x", "o", "draw"}


def _check_against_minimax(board: GravityBoard, games: int, seed: int) -> int:
    """Solve every position of random games (and each column of each) with both; the count checked."""
    solver = GravitySolver(board, 1 << 16 | 1)
    rng = random.Random(seed)
    memo: Memo = {}
    checked = 0
    for _ in range(games):
        state = GravityState(board)
        while not state.is_over:
            value = solver.solve(state)
            assert (value.outcome, value.end_ply) == minimax(state, memo), state.to_rows()
            analysis = solver.analyze(state)
            assert (analysis.value.outcome, analysis.value.end_ply) == (
                value.outcome,
                value.end_ply,
            )
            for column in analysis.columns:
                assert (column.value.outcome, column.value.end_ply) == minimax(
                    state.play(column.column), memo
                ), (state.to_rows(), column)
            best = {
                c
                for c in state.legal_moves
                if minimax(state.play(c), memo) == (value.outcome, value.end_ply)
            }
            assert set(analysis.best_columns) == best
            checked += 1
            state = state.play(rng.choice(state.legal_moves))
    return checked


@pytest.mark.parametrize("spec", ["3x4,k=3", "4x4,k=3", "3x3,k=2", "2x5,k=3", "4x3,k=3"])
def test_solver_matches_minimax_on_small_boards(spec: str) -> None:
    assert _check_against_minimax(GravityBoard.parse(spec), games=8, seed=len(spec)) > 0


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["5x4,k=4", "4x5,k=3", "4x4,k=4"])
def test_solver_matches_minimax_on_larger_boards(spec: str) -> None:
    assert _check_against_minimax(GravityBoard.parse(spec), games=20, seed=7) > 0


def test_solver_matches_minimax_late_in_connect_four() -> None:
    rng = random.Random(2026)
    solver = GravitySolver(C4, 1 << 18 | 1)
    for _ in range(12):
        state = random_state(C4, rng.randint(30, 33), rng)
        value = solver.solve(state)
        assert (value.outcome, value.end_ply) == minimax(state), state.to_rows()


@pytest.mark.slow
def test_solver_matches_minimax_on_many_connect_four_endgames() -> None:
    rng = random.Random(11)
    solver = GravitySolver(C4, 1 << 20 | 1)
    for _ in range(200):
        state = random_state(C4, rng.randint(28, 34), rng)
        value = solver.solve(state)
        assert (value.outcome, value.end_ply) == minimax(state), state.to_rows()


def test_weak_and_strong_agree() -> None:
    rng = random.Random(5)
    solver = GravitySolver(C4, 1 << 18 | 1)
    for _ in range(10):
        state = random_state(C4, rng.randint(16, 24), rng)
        assert solver.solve(state, weak=True).outcome == solver.solve(state).outcome


def test_scores_and_distances() -> None:
    # On 6x7 a win with the mover's next mark at ply 0 would score 21; the empty board scores +1.
    assert value_from_score(1, 0, 42, "x").end_ply == 41
    assert value_from_score(21, 0, 42, "x").end_ply == 1
    assert value_from_score(-1, 1, 42, "o").outcome == "x"
    assert value_from_score(-1, 1, 42, "o").end_ply == 41
    won = GravityState.from_string("1212121")
    assert solve(won).outcome == "x" and solve(won).plies == 0


def test_time_limit_says_what_is_known() -> None:
    with pytest.raises(OutOfReachError, match="--time"):
        solve(GravityState(C4), seconds=0.2)
    # 9x7 needs 70 bits: two words hold it (oxo.gravity.wide); 19x19 needs 380.
    assert supports(C4) and not supports(GravityBoard(9, 7, 4))
    assert solvable(GravityBoard(9, 7, 4)) and not solvable(GravityBoard(19, 19, 5))
    with pytest.raises(OutOfReachError):
        GravitySolver(GravityBoard(19, 19, 5))


def test_perfect_engine_on_a_small_board_never_loses_to_random() -> None:
    from oxo.engines import make_engine
    from oxo.engines.selfplay import play_game
    from oxo.gravity.engine import make_gravity_engine

    board = GravityBoard(4, 4, 3)  # a first-player win
    start = GravityState(board)
    for seed in range(4):
        perfect = make_gravity_engine("perfect", start, seconds=30, seed=seed)
        final, _ = play_game(start, perfect, make_engine("random", start, seed=seed))
        assert final.outcome == "x"


# -- OpenSpiel's connect_four ------------------------------------------------------------------------


def _replay_against_openspiel(games: int, seed: int) -> None:
    pyspiel = pytest.importorskip(
        "pyspiel", reason="OpenSpiel (pip install open_spiel) is needed for the cross-check"
    )
    game = pyspiel.load_game("connect_four")
    rng = random.Random(seed)
    for _ in range(games):
        theirs = game.new_initial_state()
        ours = GravityState(C4)
        while True:
            assert theirs.is_terminal() == ours.is_over
            if ours.is_over:
                returns = theirs.returns()
                expected = {"x": [1.0, -1.0], "o": [-1.0, 1.0], "draw": [0.0, 0.0]}[
                    ours.outcome or ""
                ]
                assert list(returns) == expected
                break
            assert tuple(theirs.legal_actions()) == ours.legal_moves
            assert theirs.current_player() == (0 if ours.to_move == "x" else 1)
            move = rng.choice(ours.legal_moves)
            theirs.apply_action(move)
            ours = ours.play(move)


def test_rules_match_openspiel_on_50_games() -> None:
    _replay_against_openspiel(50, seed=1)


@pytest.mark.slow
def test_rules_match_openspiel_on_10000_games() -> None:
    _replay_against_openspiel(10_000, seed=2)


# -- positions per ply -----------------------------------------------------------------------------

#: OEIS A212693, "Number of legal 7 X 6 Connect-Four positions after n plies" (John Tromp, 2012;
#: the table copied from Edelkamp and Kissmann), plies 0 to 13.
A212693 = (
    1,
    7,
    49,
    238,
    1120,
    4263,
    16422,
    54859,
    184275,
    558186,
    1662623,
    4568683,
    12236101,
    30929111,
)


def walk_on_bitboards(board: GravityBoard, classes: bool) -> tuple[list[int], list[int]]:
    """Positions per ply of every game and, with ``classes``, their classes up to the left-right
    mirror: a plain walk like ``oxo.gravity.reference``'s, a ply at a time, on arrays of pairs of
    bitboards (the next mover's marks, the other side's; one 64-bit word a pair) instead of sets of
    game states, a hundred times faster; finished positions are counted at their ply and not
    continued. Held to the reference walk on the small boards below."""
    rows, cols, k = board.rows, board.cols, board.k
    height = rows + 1  # a spare bit above each column keeps lines and carries inside it
    bits = height * cols
    assert 2 * bits <= 64, "a pair of bitboards in one word"
    u = np.uint64
    column = (1 << rows) - 1
    full = u(sum(column << (c * height) for c in range(cols)))
    steps = (1, height, height + 1, height - 1)  # up, across and the two diagonals

    def won(marks: np.ndarray) -> np.ndarray:
        found = np.zeros(marks.shape, dtype=bool)
        for step in steps:  # k in a row along step: marks AND-ed with k - 1 shifted copies
            run = marks.copy()
            for i in range(1, k):
                run &= marks >> u(i * step)
            found |= run != 0
        return found

    def mirror(marks: np.ndarray) -> np.ndarray:
        flipped = np.zeros_like(marks)
        for c in range(cols):
            flipped |= ((marks >> u(c * height)) & u(column)) << u((cols - 1 - c) * height)
        return flipped

    mover, other = np.zeros(1, dtype=u), np.zeros(1, dtype=u)  # the empty board
    positions, mirrored = [1], [1]
    while mover.size:
        occupied = mover | other
        children = []
        for c in range(cols):  # each column's lowest free cell, where it has one
            cell = (occupied + u(1 << (c * height))) & u(column << (c * height))
            playable = cell != 0
            # the child: the other side moves next, the mover's marks gain the cell
            children.append(other[playable] << u(bits) | (mover[playable] | cell[playable]))
        pairs = np.unique(np.concatenate(children))
        if not pairs.size:
            break
        positions.append(int(pairs.size))
        mover, other = pairs >> u(bits), pairs & u((1 << bits) - 1)
        if classes:  # a class is counted once, by the smaller of a pair and its mirror image's
            images = mirror(mover) << u(bits) | mirror(other)
            mirrored.append(int(np.unique(np.minimum(pairs, images)).size))
        going_on = ~won(other) & (mover | other != full)
        mover, other = mover[going_on], other[going_on]
    return positions, mirrored


@pytest.mark.parametrize(
    "spec",
    # 4x4,k=4's walk (4 s of CPU) with the heavy boards; the k=3 boards walk the same code
    ["4x4,k=3", pytest.param("4x4,k=4", marks=pytest.mark.slow), "3x4,k=3", "4x3,k=3"]
    + ["2x3,k=2", "3x5,k=3"],
)
def test_counts_match_a_walk_of_every_game(spec: str) -> None:
    from oxo.gravity.counting import count_positions
    from oxo.gravity.reference import mirror_classes_per_ply, positions_per_ply

    board = GravityBoard.parse(spec)
    counts = count_positions(board)
    # classes first: that walk keeps the positions per ply too (asked first, positions alone walked
    # once without the classes, then again with them)
    assert counts.classes == tuple(mirror_classes_per_ply(board))
    assert counts.complete and counts.positions == tuple(positions_per_ply(board))
    assert counts.total == sum(counts.positions) and counts.finished[-1] <= counts.positions[-1]
    # the bitboard walk that the larger boards below are held to gives the reference walk's counts
    assert walk_on_bitboards(board, classes=True) == (
        positions_per_ply(board),
        mirror_classes_per_ply(board),
    )


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["5x4,k=4", "4x5,k=4", "5x4,k=3"])
def test_counts_match_a_walk_of_every_game_on_larger_boards(spec: str) -> None:
    """The reference walk over game states takes minutes here (97 CPU s on 4x5,k=4); the bitboard
    walk, held to it on the smaller boards above, walks every game the same way in a few seconds."""
    from oxo.gravity.counting import count_positions

    board = GravityBoard.parse(spec)
    counts = count_positions(board)
    positions, classes = walk_on_bitboards(board, classes=spec == "5x4,k=4")
    if (
        spec == "5x4,k=4"
    ):  # mirror classes too (from the same walk), and the table of docs/gravity.md
        assert counts.classes == tuple(classes)
        assert counts.total == 1_706_255
    assert counts.positions == tuple(positions)


def test_connect_four_counts_match_the_published_figures() -> None:
    from oxo.gravity.counting import count_positions

    counts = count_positions(C4, max_ply=9)
    assert counts.positions == A212693[:10] and not counts.complete


@pytest.mark.slow
def test_connect_four_counts_match_the_published_figures_to_ply_12() -> None:
    from oxo.gravity.counting import count_positions

    assert count_positions(C4, max_ply=12).positions == A212693[:13]


def test_the_rules_say_what_the_board_is() -> None:
    """Connect Four's rules paragraph (issue 45, item 6): its numbers are the board's, and the
    record it gives as an example lands where it says."""
    from oxo.gravity.guide import rules_text
    from oxo.registry import find_game

    game = find_game("connect4")
    text = rules_text(game.board)  # type: ignore[attr-defined]  # a GravityGame has a board
    assert game.rules and game.rules_text() == text
    words = " ".join(text.split())
    assert "one of the 7 columns" in words and "4 marks in a line" in words
    assert "all 42 cells are full" in words and max(map(len, text.splitlines())) <= 80
    state = GravityState.from_string("4453", game.board)  # type: ignore[attr-defined]
    rows = [row.replace("·", ".").split() for row in state.text().splitlines()[:-1]]
    assert rows[-1] == [".", ".", "O", "X", "X", ".", "."]  # the bottom row (numbers below it)
    assert rows[-2] == [".", ".", ".", "O", ".", ".", "."]  # O on top of X in column 4
    assert (
        "(4453: X in column 4, O on top of it in column 4, X in column 5, O in column 3)" in words
    )
    other = " ".join(rules_text(find_game("5x4,k=3,gravity").board).split())  # type: ignore[attr-defined]
    assert "This gravity board (5x4,k=3,gravity)" in other and "3 marks in a line" in other
    assert (
        "(2231: X in column 2, O on top of it in column 2, X in column 3, O in column 1)" in other
    )
