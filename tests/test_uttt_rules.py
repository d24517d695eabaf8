"""Ultimate tic-tac-toe rules, notation and playouts, checked against a plain dict-and-tuple reference."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oxo.errors import MoveError, OxoError
from oxo.game import GameState, other
from oxo.registry import new_game
from oxo.uttt import (
    IllegalMoveError,
    MoveSyntaxError,
    UtttState,
    format_move,
    format_record,
    parse_move,
    parse_record,
)
from oxo.uttt.render import board_text, status_lines
from positions import STRAIGHTS

# -- the reference: the rules written out the slow, obvious way ----------------------------------


class Reference:
    """Ultimate tic-tac-toe on a dict of cells, every question answered by looking at all of them."""

    def __init__(self) -> None:
        self.board: dict[tuple[int, int], str] = {}
        self.last: tuple[int, int] | None = None
        self.turn = "x"

    def grid_winner(self, g: int) -> str | None:
        for line in STRAIGHTS:
            marks = {self.board.get((g, c)) for c in line}
            if len(marks) == 1 and None not in marks:
                return marks.pop()
        return None

    def grid_full(self, g: int) -> bool:
        return all((g, c) in self.board for c in range(9))

    def grid_closed(self, g: int) -> bool:
        return self.grid_winner(g) is not None or self.grid_full(g)

    def winner(self) -> str | None:
        for line in STRAIGHTS:
            owners = {self.grid_winner(g) for g in line}
            if len(owners) == 1 and None not in owners:
                return owners.pop()
        if all(self.grid_closed(g) for g in range(9)):
            return "draw"
        return None

    def legal(self) -> list[int]:
        if self.winner() is not None:
            return []
        if self.last is not None and not self.grid_closed(self.last[1]):
            grids = [self.last[1]]
        else:
            grids = [g for g in range(9) if not self.grid_closed(g)]
        return sorted(9 * g + c for g in grids for c in range(9) if (g, c) not in self.board)

    def play(self, move: int) -> None:
        assert move in self.legal()
        g, c = divmod(move, 9)
        self.board[(g, c)] = self.turn
        self.last = (g, c)
        self.turn = "o" if self.turn == "x" else "x"


def random_record(rng: random.Random) -> list[int]:
    state = UtttState()
    moves = []
    while not state.is_over:
        move = rng.choice(state.legal_moves)
        moves.append(move)
        state = state.play(move)
    return moves


# -- notation ------------------------------------------------------------------------------------


def test_notation_round_trips_and_numbers_grids_then_cells() -> None:
    assert parse_move("55") == 40 and parse_move("11") == 0 and parse_move("99") == 80
    assert parse_move("37") == 9 * 2 + 6
    assert all(parse_move(format_move(m)) == m for m in range(81))
    assert parse_record("1. 55 2. 51, 15") == [40, 36, 4]
    assert format_record([40, 36, 4]) == "55 51 15"


@pytest.mark.parametrize("bad", ["5", "555", "05", "50", "a5", "", 81, -1, True, 5.0])
def test_malformed_moves_are_bad_input(bad: object) -> None:
    with pytest.raises(MoveSyntaxError) as error:
        parse_move(bad)  # type: ignore[arg-type]
    assert isinstance(error.value, OxoError) and isinstance(error.value, ValueError)


def test_a_malformed_record_names_the_move() -> None:
    with pytest.raises(MoveSyntaxError, match="move 2 of the record"):
        UtttState.replay("55 5x 15")


# -- each rule -------------------------------------------------------------------------------------


def test_the_first_move_goes_anywhere_and_the_cell_sends_the_opponent() -> None:
    start = UtttState()
    assert isinstance(start, GameState) and isinstance(new_game("uttt"), UtttState)
    assert start.legal_moves == tuple(range(81)) and start.to_move == "x"
    after = start.play("37")
    assert after.to_move == "o" and after.target == 6
    assert after.legal_moves == tuple(range(54, 63))
    again = after.play("71")  # sent back to grid 1, whose cells are all empty
    assert again.legal_moves == tuple(range(9)) and again.target == 0


def test_illegal_moves_say_why() -> None:
    state = UtttState.replay("55 54")
    with pytest.raises(IllegalMoveError, match="must go to grid 4") as error:
        state.play("56")
    assert error.value.number == 3 and error.value.rule == 3 and isinstance(error.value, MoveError)
    with pytest.raises(IllegalMoveError, match="already taken") as taken:
        UtttState.replay("55 55")
    assert taken.value.rule == 2 and taken.value.move == 40
    with pytest.raises(IllegalMoveError, match="move 2 .44.*must go to grid 5"):
        UtttState.replay("55 44")
    assert state.why_illegal("41") is None and state.why_illegal("11") is not None


def find_state(predicate: Callable[[UtttState], bool], seeds: int = 4000) -> UtttState:
    """The first state of seeded random games that satisfies ``predicate`` (fails if none does)."""
    for seed in range(seeds):
        rng = random.Random(seed)
        state = UtttState()
        while not state.is_over:
            if predicate(state):
                return state
            state = state.play(rng.choice(state.legal_moves))
        if predicate(state):
            return state
    raise AssertionError("no random game reached the situation")


def test_a_won_grid_is_closed_even_with_empty_cells() -> None:
    def won_with_room(s: UtttState) -> bool:
        won = s.won_grids[0] | s.won_grids[1]
        empty = ~(s.x_marks | s.o_marks)
        return not s.is_over and any(won >> g & 1 and (empty >> (9 * g)) & 511 for g in range(9))

    state = find_state(won_with_room)
    won = state.won_grids[0] | state.won_grids[1]
    assert all(not won >> (m // 9) & 1 for m in state.legal_moves)
    grid = next(g for g in range(9) if won >> g & 1)
    empty_cell = next(
        9 * grid + c for c in range(9) if not (state.x_marks | state.o_marks) >> (9 * grid + c) & 1
    )
    with pytest.raises(IllegalMoveError, match="already won"):
        state.play(empty_cell)


def test_sent_to_a_closed_grid_the_mover_plays_in_any_open_grid() -> None:
    def sent_to_closed(s: UtttState) -> bool:
        return s.move_count > 0 and not s.is_over and bool(s.closed_grids >> (s.moves[-1] % 9) & 1)

    state = find_state(sent_to_closed)
    assert state.target is None
    expected = tuple(
        m
        for m in range(81)
        if not state.closed_grids >> (m // 9) & 1 and not (state.x_marks | state.o_marks) >> m & 1
    )
    assert state.legal_moves == expected and len({m // 9 for m in expected}) > 1


def test_a_full_grid_without_a_line_counts_for_nobody() -> None:
    def drawn_grid(s: UtttState) -> bool:
        return any(s.grid_owner(g) == "draw" for g in range(9))

    state = find_state(drawn_grid)
    grid = next(g for g in range(9) if state.grid_owner(g) == "draw")
    assert not (state.won_grids[0] | state.won_grids[1]) >> grid & 1
    assert state.closed_grids >> grid & 1


def test_games_end_in_wins_and_in_draws_with_every_grid_closed() -> None:
    draw = find_state(lambda s: s.outcome == "draw")
    assert draw.closed_grids == 511 and draw.legal_moves == () and draw.to_move is None
    win = find_state(lambda s: s.outcome in ("x", "o"))
    assert win.winning_moves() == () and win.legal_moves == ()
    with pytest.raises(IllegalMoveError, match="game is over"):
        win.play(next(m for m in range(81) if not (win.x_marks | win.o_marks) >> m & 1))


# -- every move of random games against the reference ---------------------------------------------


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_games_agree_with_the_reference(seed: int) -> None:
    rng = random.Random(seed)
    state, reference = UtttState(), Reference()
    moves: list[int] = []
    while True:
        assert list(state.legal_moves) == reference.legal()
        assert state.outcome == reference.winner()
        for g in range(9):
            owner = reference.grid_winner(g) or ("draw" if reference.grid_full(g) else None)
            assert state.grid_owner(g) == owner
        wins = {m for m in state.legal_moves if state.play(m).outcome == state.to_move}
        assert set(state.winning_moves()) == wins
        if state.is_over:
            break
        move = rng.choice(state.legal_moves)
        moves.append(move)
        state = state.play(move)
        reference.play(move)
    assert UtttState.replay(format_record(moves)) == state
    assert state.record == format_record(moves)


def test_winning_moves_of_the_side_not_to_move_ignore_where_it_is_sent() -> None:
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        state = UtttState()
        while not state.is_over:
            mover = state.to_move
            assert mover is not None
            opponent = other(mover)
            threats = set(state.winning_moves(opponent))
            # Reference: hand the move to the opponent (same marks, free choice) and look.
            expected = set()
            for m in range(81):
                g = m // 9
                if state.closed_grids >> g & 1 or (state.x_marks | state.o_marks) >> m & 1:
                    continue
                marks = state.o_marks if opponent == "o" else state.x_marks
                grid = (marks >> (9 * g)) & 511 | 1 << (m % 9)
                lines_in_grid = any(all(grid >> c & 1 for c in line) for line in STRAIGHTS)
                won = state.won_grids[0 if opponent == "x" else 1] | 1 << g
                if lines_in_grid and any(all(won >> h & 1 for h in line) for line in STRAIGHTS):
                    expected.add(m)
            assert threats == expected
            checked += bool(threats)
            state = state.play(rng.choice(state.legal_moves))
    assert checked > 0


def test_summary_and_drawing() -> None:
    state = UtttState.replay("55 51 15 59")
    data = state.summary().to_dict()
    assert data["to_move"] == "x" and data["grid"] == 9 and data["moves"] == 4
    assert data["legal"] == [f"9{c}" for c in range(1, 10)]
    text = board_text(state)
    assert text.count("x") + text.count("X") == 2 and "O" in text  # the last move in capitals
    assert "must play in grid 9" in status_lines(state)


# -- compiled playouts ------------------------------------------------------------------------------


def test_compiled_random_games_replay_through_the_rules() -> None:
    from oxo.uttt import compiled

    rng = compiled.make_rng(11)
    record = np.empty(81, dtype=np.int64)
    outcomes = {"x": 0, "o": 0, "draw": 0}
    for _ in range(300):
        n = compiled.random_game_record(rng, record)
        state = UtttState.replay([int(m) for m in record[:n]])
        assert state.is_over
        final = compiled.new_state()
        for m in record[:n]:
            compiled.apply_move(final, int(m))
        expected = compiled.state_from(state)
        expected[compiled.TARGET] = final[compiled.TARGET]  # no grid to play in once it is over
        assert list(final) == list(expected)
        outcomes[state.outcome or "draw"] += 1
    assert all(outcomes.values())


def test_compiled_and_uncompiled_code_make_the_same_moves() -> None:
    from oxo.uttt import compiled

    fast = compiled.make_rng(3)
    slow = compiled.make_rng(3)
    a = np.empty(81, dtype=np.int64)
    b = np.empty(81, dtype=np.int64)
    for _ in range(5):
        n = compiled.random_game_record(fast, a)
        m = compiled.random_game_record.py_func(slow, b)
        assert n == m and list(a[:n]) == list(b[:m])


def test_compiled_legal_moves_match_the_rules() -> None:
    from oxo.uttt import compiled

    rng = random.Random(8)
    out = np.empty(81, dtype=np.int64)
    for _ in range(40):
        state = UtttState()
        while True:
            n = compiled.legal_moves(compiled.state_from(state), out)
            assert tuple(int(m) for m in out[:n]) == state.legal_moves
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves))


def test_random_outcome_shares_agree_between_compiled_and_python_games() -> None:
    from oxo.uttt import compiled

    games = 1500
    rng = random.Random(2)
    python = {"x": 0, "o": 0, "draw": 0}
    for _ in range(games):
        state = UtttState.replay(random_record(rng))
        python[state.outcome or "draw"] += 1
    draws, x, o, _ = compiled.random_games(200_000, compiled.make_rng(4))
    shares = {"draw": draws / 200_000, "x": x / 200_000, "o": o / 200_000}
    # About 1.3 points is one standard error of a share over 1,500 games: allow four.
    for outcome, count in python.items():
        assert abs(count / games - shares[outcome]) < 0.05, (outcome, count, shares)


def test_svg_marks_the_legal_moves_and_the_won_grids() -> None:
    import xml.etree.ElementTree as ET

    from oxo.uttt.svg import uttt_svg

    ns = "{http://www.w3.org/2000/svg}"
    for record in ("", "55 51 15", "21 12 23 32 22"):
        state = UtttState.replay(record)
        root = ET.fromstring(state._repr_svg_())
        cells = [e for e in root.iter(f"{ns}rect") if "cell" in e.get("class", "").split()]
        assert len(cells) == 81
        legal = [e.get("data-move") for e in cells if "legal" in e.get("class", "").split()]
        assert legal == [format_move(m) for m in state.legal_moves]
        won = {e.get("data-grid") for e in root.iter(f"{ns}g") if "big-mark" in e.get("class", "")}
        assert won == {str(g + 1) for g in range(9) if state.grid_owner(g) in ("x", "o")}
    final = find_state(lambda s: s.outcome in ("x", "o"))
    drawing = uttt_svg(final, legal=False)
    assert "winning-line" in drawing and "three won grids in a row" in drawing
    assert 'class="cell legal"' not in uttt_svg(UtttState(), legal=False)


def test_svg_draws_one_mark_per_move() -> None:
    import xml.etree.ElementTree as ET

    state = find_state(lambda s: s.move_count >= 30)
    root = ET.fromstring(state._repr_svg_())
    marks = [e for e in root.iter() if "mark" in e.get("class", "").split()]
    assert len(marks) == state.move_count
    assert sum("x" in e.get("class", "").split() for e in marks) == (state.move_count + 1) // 2
