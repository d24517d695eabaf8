"""Mega tic-tac-toe rules engine: each of the nine rules on a hand-built position, and properties.

The records here were written by hand (rules 1-8) or taken from seeded random games (rule 9
and the draw), and are replayed through the engine, which checks every move.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oxo.errors import MoveError, OxoError
from oxo.mega import (
    IllegalMoveError,
    MegaState,
    MoveSyntaxError,
    format_move,
    format_record,
    parse_move,
    parse_record,
)
from positions import STRAIGHTS

#: String 0 puts one mark in each grid, at the cell with the grid's own number.
DIAGONAL = "11 22 33 44 55 66 77 88 99"
#: String 1 then uses positions 2..8 and 1 in grids 1..8; grid 9 is left with position 9 only, where
#: 99 is taken: no move keeps rule 6, so move 18 falls back on rule 8.
RULE8 = DIAGONAL + " 12 23 34 45 56 67 78 81"
#: X gets 11, 12, 13: a straight in grid 1 at move 19, covered at once (rule 7).
RULE7 = DIAGONAL + " 23 12 31 45 54 67 76 89 98 13"
#: A seeded random game that X wins with three big markers in a row at move 31.
X_WINS = (
    "64 23 56 99 75 42 88 37 11 82 34 13 46 29 78 55 91 67 21 66 72 18 35 43 59 97 84 12 53 69 36"
)
#: A seeded random game that ends drawn after 44 moves (every grid covered, no three in a row).
DRAWN = (
    "76 12 43 28 95 61 39 57 84 77 91 46 82 59 13 65 34 26 81 78 93 54 36 22 17 69 45 74 87 25 31 56 "
    "92 48 19 52 37 15 73 44 16 53 47 71"
)
#: A seeded random game whose string 6 turns abnormal at move 61 with two moves still to come.
ABNORMAL_MID_STRING = (
    "39 93 71 17 56 68 44 82 25 34 59 96 13 61 85 22 77 48 94 81 43 65 29 38 12 57 76 47 66 79 35 "
    "21 18 53 92 84 89 46 62 75 37 54 23 91 16 24 87 31 52 73 45 19 98 64 36 95 67 41 74 88 27"
)


def moves(*text: str) -> list[str]:
    return [format_move(m) for m in parse_record(" ".join(text))]


def legal(state: MegaState) -> list[str]:
    return [format_move(m) for m in state.legal_moves]


def illegal(record: str, move: str) -> IllegalMoveError:
    state = MegaState.replay(record)
    with pytest.raises(IllegalMoveError) as caught:
        state.push(move)
    return caught.value


# -- notation ----------------------------------------------------------------------------------


def test_notation_round_trip() -> None:
    assert parse_move("55") == 40 and format_move(40) == "55"
    assert parse_move("11") == 0 and parse_move("99") == 80 and parse_move(" 37 ") == 24
    assert [format_move(m) for m in range(81)] == [
        f"{g}{c}" for g in range(1, 10) for c in range(1, 10)
    ]
    assert parse_record("1. 55, 51  2. 15") == [40, 36, 4]
    assert parse_record("") == []
    assert format_record([40, 36]) == "55 51"


@pytest.mark.parametrize("bad", ["", "5", "555", "05", "50", "a1", "x", "5 5", "-1"])
def test_malformed_moves_raise_oxo_errors(bad: str) -> None:
    with pytest.raises(MoveSyntaxError) as caught:
        parse_move(bad)
    assert isinstance(caught.value, OxoError) and isinstance(caught.value, MoveError)
    assert "GC" in str(caught.value)


def test_malformed_record_names_the_move_number() -> None:
    with pytest.raises(MoveSyntaxError, match="move 3 of the record"):
        MegaState.replay("55 51 0")
    with pytest.raises(MoveSyntaxError):
        parse_move(81)
    with pytest.raises(MoveSyntaxError):
        parse_move(True)  # type: ignore[arg-type]


# -- the nine rules ----------------------------------------------------------------------------


def test_rule1_x_first_and_alternating_across_strings() -> None:
    state = MegaState()
    assert state.to_move == "x" and len(state.legal_moves) == 81
    state.push("55")
    assert state.cell(5, 5) == "x" and state.to_move == "o"
    state = MegaState.replay(DIAGONAL + " 12")
    # a string of nine moves is odd, so string 1 starts with O and X plays its second move
    assert [state.cell(g, g) for g in range(1, 10)] == ["x", "o"] * 4 + ["x"]
    assert state.cell(1, 2) == "o" and state.to_move == "x"
    state.check_invariants()


def test_rule2_and_rule4_a_played_cell_is_taken() -> None:
    state = MegaState.replay(DIAGONAL)
    assert "11" not in legal(state) and "12" in legal(
        state
    )  # grid 1 and position 1 are free in string 1
    error = illegal(DIAGONAL, "11")
    assert error.rule == 2 and error.number == 10 and error.move == parse_move("11")
    assert "already taken" in str(error) and "move 10 (11)" in str(error)


def test_rule3_empty_counts_differ_by_at_most_one() -> None:
    state = MegaState()
    for move in parse_record(RULE7 + " 24 35"):
        state.push(move)
        counts = state.empty_counts()
        assert max(counts.values()) - min(counts.values()) <= 1
        if state.current_string.played == ():  # at a string boundary all uncovered grids are even
            assert len(set(counts.values())) == 1
    assert state.empty_counts() == {
        2: 6,
        3: 6,
        4: 7,
        5: 7,
        6: 7,
        7: 7,
        8: 7,
        9: 7,
    }  # grid 1 is covered


def test_rule3_is_asserted_as_an_invariant() -> None:
    state = MegaState.replay("55")
    state._marks[1] |= (
        0b11 << 9
    )  # two O marks smuggled into grid 2: 7 empty cells against 9 in grid 3
    with pytest.raises(AssertionError, match="rule 3"):
        state.push("11")  # every move re-checks rule 3


def test_rule5_one_move_per_grid_per_string() -> None:
    error = illegal("11", "12")
    assert error.rule == 5 and error.number == 2 and "grid 1 was already played" in error.reason
    state = MegaState.replay("11")
    assert not any(move.startswith("1") for move in legal(state))
    # the string is nine moves long: move 10 may go back to grid 1
    state = MegaState.replay(DIAGONAL)
    assert (
        state.current_string.index == 1
        and state.current_string.length == 9
        and state.current_string.played == ()
    )
    assert "12" in legal(state)


def test_rule6_one_move_per_cell_position_per_string() -> None:
    error = illegal("11", "21")
    assert error.rule == 6 and "position 1" in error.reason
    state = MegaState.replay("11 22")
    assert not any(move[1] in "12" for move in legal(state))
    assert len(legal(state)) == 7 * 7
    assert state.current_string.positions == (1, 2) and state.current_string.grids == (1, 2)


def test_rule7_three_in_a_row_covers_the_grid() -> None:
    before = MegaState.replay(RULE7.rsplit(" ", 1)[0])
    assert before.covered == {}
    state = MegaState.replay(RULE7)
    assert state.covered == {1: "x"}
    error = illegal(RULE7, "14")
    assert error.rule == 7 and "covered by a big marker of x" in error.reason
    assert not any(move.startswith("1") for move in legal(state))
    # the string that was running keeps its length 9; the next one is one shorter
    assert state.current_string.length == 9
    rest = "24 35 46 57 68 79 81 92"
    state = MegaState.replay(RULE7 + " " + rest)
    assert state.current_string.index == 3 and state.current_string.length == 8
    state.check_invariants()


def test_rule8_no_rule6_move_so_rule6_is_ignored() -> None:
    state = MegaState.replay(RULE8)
    string = state.current_string
    assert (
        string.remaining == 1 and string.positions == tuple(range(1, 9)) and state.cell(9, 9) == "x"
    )
    assert state.rule8_applies()
    assert legal(state) == ["91", "92", "93", "94", "95", "96", "97", "98"]  # rule 5 still holds
    assert illegal(RULE8, "13").rule == 5
    assert illegal(RULE8, "99").rule == 2
    state.push("91")
    assert state.abnormal_strings == (1,)
    assert state.current_string.index == 2 and not state.current_string.abnormal
    state.check_invariants()


def test_rule8_abnormal_string_in_the_middle() -> None:
    record = ABNORMAL_MID_STRING.split()
    before = MegaState.replay(record[:-1])
    assert before.rule8_applies() and not before.current_string.abnormal
    state = MegaState.replay(record)
    string = state.current_string
    assert string.abnormal and string.index == 6 and string.remaining == 2
    assert state.summary().to_dict()["string"]["abnormal"] is True
    # once no move keeps rule 6, none will until the string ends
    assert state.rule8_applies()
    state.check_invariants()


def test_rule9_three_big_markers_win() -> None:
    state = MegaState.replay(X_WINS)
    assert (
        state.winner == "x" and state.to_move is None and state.is_over and state.legal_moves == ()
    )
    owners = state.covered
    assert any(all(owners.get(g + 1) == "x" for g in line) for line in STRAIGHTS)
    error = illegal(X_WINS, "51")
    assert error.rule == 9 and error.number == 32
    state.pop()
    assert state.winner is None and state.to_move == "x" and "36" in legal(state)
    state.check_invariants()


def test_draw_when_no_move_is_possible() -> None:
    state = MegaState.replay(DRAWN)
    assert state.winner == "draw" and state.to_move is None and state.legal_moves == ()
    assert len(state.covered) == 9 and state.current_string.length == 0
    assert illegal(DRAWN, "11").rule == 7
    state.check_invariants()


# -- replay, undo, summary ---------------------------------------------------------------------


def test_replay_reports_the_illegal_move_number_and_rule() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        MegaState.replay("55 44 13 42")
    error = caught.value
    assert (error.number, format_move(error.move), error.rule) == (4, "42", 5)
    assert str(error).startswith("move 4 (42) is illegal:") and "(rule 5:" in str(error)


def test_undo_restores_every_earlier_state() -> None:
    record = parse_record(X_WINS)
    state = MegaState()
    snapshots = [state.copy()]
    for move in record:
        state.push(move)
        snapshots.append(state.copy())
    for snapshot in reversed(snapshots[:-1]):
        state.pop()
        assert state == snapshot
    with pytest.raises(MoveError):
        state.pop()


def test_summary_json_shape() -> None:
    data = MegaState.replay(RULE7).summary().to_dict()
    assert list(data) == ["to_move", "winner", "legal", "covered", "string", "moves"]
    assert data["to_move"] == "o" and data["winner"] is None and data["moves"] == 19
    assert data["covered"] == {"1": "x"}
    assert data["string"] == {
        "number": 3,
        "index": 2,
        "length": 9,
        "played": ["13"],
        "abnormal": False,
    }
    assert data["legal"] == sorted(data["legal"]) and len(data["legal"]) == 50
    json.dumps(data)
    done = MegaState.replay(X_WINS).summary().to_dict()
    assert done["to_move"] is None and done["winner"] == "x" and done["legal"] == []
    assert MegaState.replay(DRAWN).summary().to_dict()["winner"] == "draw"


# -- an independent slow reference and random games ----------------------------------------------


def reference_legal(history: list[int]) -> list[int]:
    """Legal moves after ``history`` by the rules as written, with dicts and sets (no bit tricks)."""
    cells: dict[tuple[int, int], int] = {}
    covered: dict[int, int] = {}
    grids: set[int] = set()
    positions: set[int] = set()
    length, count, won = 9, 0, False
    for number, move in enumerate(history):
        g, c = divmod(move, 9)
        player = number % 2
        cells[g, c] = player
        if g not in covered and any(
            all(cells.get((g, x)) == player for x in line) for line in STRAIGHTS
        ):
            covered[g] = player
            won = won or any(all(covered.get(x) == player for x in line) for line in STRAIGHTS)
        grids.add(g)
        positions.add(c)
        count += 1
        if count == length:
            grids, positions, count, length = set(), set(), 0, 9 - len(covered)
    if won:
        return []
    options = [
        9 * g + c
        for g in range(9)
        if g not in covered and g not in grids
        for c in range(9)
        if (g, c) not in cells
    ]
    return [m for m in options if m % 9 not in positions] or options


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10**6), min_size=0, max_size=81))
def test_random_games_keep_every_invariant_and_replay_exactly(choices: list[int]) -> None:
    state = MegaState()
    snapshots = []
    for choice in choices:
        expected = reference_legal(list(state.moves))
        assert list(state.legal_moves) == expected
        if not expected:
            break
        move = expected[choice % len(expected)]
        assert state.why_illegal(move) is None
        snapshots.append(state.copy())
        state.push(move)
        state.check_invariants()
    assert state.is_over == (not reference_legal(list(state.moves)))
    again = MegaState.replay(state.record)
    assert again == state and again.summary() == state.summary()
    for move in range(81):
        reason = state.why_illegal(move)
        assert (reason is None) == (move in state.legal_moves)
    for snapshot in reversed(snapshots):
        state.pop()
        assert state == snapshot
