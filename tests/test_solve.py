"""The retrograde solver against plain memoised minimax and against OEIS A317573, A317574 and A317576."""

from __future__ import annotations

import functools
import json
import random

import pytest

from oxo.cli import main
from oxo.counting import count_positions
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.solve import (
    Solution,
    Value,
    forced_win_value,
    reference_value,
    score_value,
    solve,
    value_score,
)

# OEIS A317573: n X n tic-tac-toe positions up to rotation and reflection with k tokens which allow a
# winning strategy for X (positions already won included), rows n = 3 and n = 4 (k = 0..n^2).
A317573 = {
    3: [0, 0, 7, 9, 85, 67, 139, 70, 23, 12],
    4: [0, 0, 0, 0, 0, 0, 1100, 280, 26771, 11535, 91567, 36362, 78138, 26146, 12900, 3774, 0],
}
# OEIS A317574: the same for O.
A317574 = {
    3: [0, 0, 0, 8, 5, 72, 38, 56, 23, 0],
    4: [0, 0, 0, 0, 0, 0, 0, 2476, 642, 31841, 11251, 66364, 21718, 29258, 8496, 1335, 371],
}
# OEIS A317576: positions up to rotation and reflection with k tokens which end a game.
A317576 = {
    3: [0, 0, 0, 0, 0, 21, 21, 58, 23, 15],
    4: [0, 0, 0, 0, 0, 0, 0, 280, 642, 4942, 6770, 20286, 16042, 20998, 7970, 3774, 1059],
}

REFERENCE_BOARDS = [
    "3x3",
    "3x3,k=2",
    "2x4",
    pytest.param("3x4", marks=pytest.mark.slow),
    "2x3",
    "1x4,k=2",
    "2x2",
]


def all_positions(space):  # type: ignore[no-untyped-def]
    for depth, level in enumerate(space.levels):
        for row in range(len(level)):
            yield space.position(depth, row)


@pytest.mark.parametrize("spec", REFERENCE_BOARDS)
def test_every_value_matches_reference_minimax(spec: str) -> None:
    geometry = Geometry.parse(spec)
    solution = solve(geometry)
    memo: dict[tuple[int, int], int] = {}
    checked = 0
    for position in all_positions(solution.space):
        assert solution.value(position) == reference_value(position, memo), (
            position.to_status_string()
        )
        checked += 1
    assert checked == sum(row.positions for row in count_positions(geometry).plies)


@functools.cache
def solved(spec: str) -> Solution:
    """A whole board solved once for the tests that read it (4x4's takes seconds)."""
    return solve(Geometry.parse(spec))


def check_oeis(side: int) -> None:
    table = solved(f"{side}x{side}").ply_table()
    assert [row.x_classes for row in table.plies] == A317573[side]
    assert [row.o_classes for row in table.plies] == A317574[side]
    assert [row.terminal_classes for row in table.plies] == A317576[side]
    classes = [row.classes for row in count_positions(Geometry.parse(f"{side}x{side}")).plies]
    assert [
        row.x_classes + row.o_classes + row.draw_classes for row in table.plies
    ] == classes  # A317575


def test_oeis_3x3() -> None:
    check_oeis(3)


@pytest.mark.slow
def test_oeis_4x4() -> None:
    check_oeis(4)


def test_known_values() -> None:
    # Ordinary tic-tac-toe is a draw; with k=2 X wins with its second mark (ply 3).
    assert solve(Geometry.parse("3x3")).value() == reference_value(
        Position.empty(Geometry.parse("3x3"))
    )
    assert solve(Geometry.parse("3x3")).value().outcome == "draw"
    assert solve(Geometry.parse("3x3,k=2")).value() == Value("x", 3)


@pytest.mark.slow
@pytest.mark.parametrize("k", [3, 4])
def test_4x4_tables_are_complete(k: int) -> None:
    geometry = Geometry.parse("4x4", k)
    solution = solved(geometry.spec)
    table = solution.ply_table()
    counted = count_positions(geometry).plies
    assert [row.positions for row in table.plies] == [row.positions for row in counted]
    # Values of random positions agree with the slow minimax run from each of them.
    rng = random.Random(k)
    for _ in range(20):
        position = Position.empty(geometry)
        for _ in range(rng.randrange(9, 13)):
            if position.is_terminal:
                break
            position = position.play(rng.choice(position.legal_moves))
        assert solution.value(position) == reference_value(position)


@pytest.mark.parametrize(
    "spec,marks", [("3x3", 2), ("4x4", 8), ("4x5,k=4", 11), ("5x5,k=4", 15), ("3x3x3", 14)]
)
def test_rooted_solutions_match_reference(spec: str, marks: int) -> None:
    rng = random.Random(11)
    geometry = Geometry.parse(spec)
    done = 0
    while done < 3:
        position = Position.empty(geometry)
        for _ in range(marks):
            if position.is_terminal:
                break
            position = position.play(rng.choice(position.legal_moves))
        if position.ply != marks or position.is_terminal:
            continue
        solution = solve(position)
        memo: dict[tuple[int, int], int] = {}
        assert solution.value() == reference_value(position, memo)
        for cell, value in solution.move_values().items():
            assert value == reference_value(position.play(cell), memo)
        done += 1


def test_best_moves_keep_the_value() -> None:
    solution = solve(Geometry.parse("3x3"))
    for position in list(all_positions(solution.space))[::17]:
        if position.is_terminal:
            assert solution.best_moves(position) == ()
            continue
        target = value_score(solution.value(position), position.ply, 9)
        scores = {
            cell: value_score(v, position.ply + 1, 9)
            for cell, v in solution.move_values(position).items()
        }
        best = solution.best_moves(position)
        assert best and all(scores[cell] == target for cell in best)
        pick = max if position.to_move == "x" else min
        assert pick(scores.values()) == target
        assert set(best) == {cell for cell, s in scores.items() if s == target}


def test_rooted_and_full_solutions_agree() -> None:
    geometry = Geometry.parse("3x4")
    full = solve(geometry)
    rng = random.Random(5)
    for _ in range(10):
        position = Position.empty(geometry)
        for _ in range(rng.randrange(0, 8)):
            if position.is_terminal:
                break
            position = position.play(rng.choice(position.legal_moves))
        assert solve(position).value() == full.value(position)


def test_score_round_trip_and_text() -> None:
    for size in (9, 16):
        for ply in range(size + 1):
            for value in (
                Value(None, size - ply),
                Value("x", 0),
                Value("o", 0),
                Value("x", size - ply),
            ):
                assert score_value(value_score(value, ply, size), ply, size) == value
    assert str(Value("x", 3)) == "X wins in 3 plies"
    assert str(Value("o", 1)) == "O wins in 1 ply"
    assert str(Value("x", 0)) == "X has won"
    assert str(Value(None, 4)) == "draw (board full in 4 plies)"


def test_unreachable_position_is_an_error() -> None:
    solution = solve(Position.from_string("x...o...."))
    with pytest.raises(ValueError, match="not reachable"):
        solution.value(Position.from_string("xo......."))


# -- CLI --------------------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_solve_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "3x3", "--json")
    data = json.loads(out)
    assert code == 0 and data["board"] == "3x3" and data["k"] == 3 and data["value"] == "draw"
    assert [row["x_classes"] for row in data["plies"]] == A317573[3]
    assert [row["o_classes"] for row in data["plies"]] == A317574[3]
    counted = count_positions(Geometry.parse("3x3")).plies
    assert [row["x"] + row["o"] + row["draw"] for row in data["plies"]] == [
        row.positions for row in counted
    ]


def test_cli_solve_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "3x4")
    assert code == 0
    assert out.splitlines()[0].startswith("3x4 board, k=3: X wins")
    total = out.splitlines()[-1].split()
    assert total[:3] == ["total", "(plies", "0-12)"]  # the plies it sums
    assert total[3] == "66,708"  # thousands separators in tables
    assert sum(int(n.replace(",", "")) for n in total[3:6]) == 111973


def test_cli_analyze(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "xo./.x./..o", "--json")
    data = json.loads(out)
    position = Position.from_string("xo./.x./..o")
    expected = reference_value(position)
    assert (
        code == 0 and data["value"] == expected.outcome and data["plies_to_end"] == expected.plies
    )
    assert data["turn"] == "x" and data["forced_draw"] is False
    for move in data["moves"]:
        value = reference_value(position.play(move["cell"]))
        assert (move["value"], move["plies"]) == (value.outcome, value.plies)
    assert data["best_moves"] == [
        m["cell"] for m in data["moves"] if m["value"] == "x" and m["plies"] == expected.plies - 1
    ]
    code, out, _ = run(capsys, "analyze", "x...o....")
    assert code == 0 and "forced draw:    yes" in out and "dead lines:     1 of 8: 048" in out


def test_cli_solve_3x3x3(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "solve", "3x3x3", "--again", "--json")
    data = json.loads(out)
    assert (
        code == 0
        and data["value"] == "x"
        and forced_win_value(Position.empty(Geometry.parse("3x3x3"))) is not None
    )
    assert {"board", "k", "value", "method", "nodes", "seconds", "proofs"} <= set(data) and data[
        "proofs"
    ] == []
    code, out, _ = run(capsys, "solve", "3x3x3", "--json")  # from oxo's proof book
    booked = json.loads(out)
    assert code == 0 and booked["value"] == "x" and booked["from_book"]
    assert {"board", "k", "value", "method", "nodes", "seconds", "proofs"} <= set(booked)
    assert booked["proofs"][0].endswith("3x3x3-k3-x-win.jsonl.gz")


def test_the_method_named_is_the_search_that_ran(capsys: pytest.CaptureFixture[str]) -> None:
    """3x3x3 goes to the search with pairing strategies, 9x9 (k = 4) to the one over line counts
    (past 64 cells), which uses none: each answer names its own, as text and as JSON."""
    from oxo.proofs.results import METHOD, WIDE_METHOD

    code, out, _ = run(capsys, "solve", "3x3x3", "--again", "--json")
    assert code == 0 and json.loads(out)["method"] == METHOD
    code, out, _ = run(capsys, "solve", "9x9", "--k", "4", "--json")
    assert code == 0 and json.loads(out)["method"] == WIDE_METHOD
    code, out, _ = run(capsys, "solve", "9x9", "--k", "4")
    words = " ".join(out.split())  # the line is broken at 80 columns in a pipe
    assert code == 0 and f"method: {WIDE_METHOD};" in words and "pairing" not in words


def test_cli_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "solve", "5x5", "--k", "9")
    assert code == 2 and err.startswith("oxo: error:") and len(err.splitlines()) == 1
    code, _, err = run(capsys, "analyze", "." * 81, "--k", "5", "--time", "0.2")
    assert code == 3 and "at most 16" in err
    code, _, err = run(capsys, "analyze", "oo.......")
    assert code == 2 and "X moves first" in err


@pytest.mark.parametrize("spec,step", [("3x3", 1), ("3x3,k=2", 1), ("3x4", 29), ("2x2x2", 1)])
def test_forcing_search_matches_the_solver(spec: str, step: int) -> None:
    solution = solve(Geometry.parse(spec))
    for position in list(all_positions(solution.space))[::step]:
        value = solution.value(position)
        found = forced_win_value(position)
        if position.is_terminal:
            assert found == value
        elif value.winner == position.to_move:
            assert found == value, position.to_status_string()
        else:
            assert found is None, position.to_status_string()


def test_forcing_search_on_3x3x3() -> None:
    # Too many cells for a dense space; the forcing search finds X's quickest win. The slow minimax confirms
    # the same value from positions a few marks in.
    geometry = Geometry.parse("3x3x3")
    assert forced_win_value(Position.empty(geometry), max_plies=5) is None
    assert forced_win_value(Position.empty(geometry)) == Value("x", 7)
    rng = random.Random(2)
    checked = 0
    while checked < 5:
        position = Position.empty(geometry)
        for _ in range(16):
            if position.is_terminal:
                break
            position = position.play(rng.choice(position.legal_moves))
        if position.is_terminal or position.ply != 16:
            continue
        value = reference_value(position)
        found = forced_win_value(position)
        assert found == (value if value.winner == position.to_move else None)
        checked += 1
