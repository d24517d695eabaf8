"""Dead lines, exact winnability against plain recursion, and seed 004's questions and examples."""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Callable, Iterator

import pytest

from oxo.analysis import (
    SEED_EXAMPLES,
    SEED_QUESTIONS,
    Winnability,
    can_win,
    dead_line_count,
    deadend_report,
    from_seed_board,
    line_report,
    reference_can_win,
    seed_rule_unwinnable,
    winnability,
)
from oxo.cli import main
from oxo.errors import PositionError
from oxo.geometry import Geometry
from oxo.position import Position


@pytest.fixture(scope="module")
def exact_pass() -> Iterator[Callable[[str], Winnability]]:
    """The exact pass's answers for a whole board by its name, made once while this file's tests
    run in a process (4x4 with k = 3's takes 1.6 s and is read by two tests) and let go after
    them (4x4 with k = 3's holds over 200 MB)."""
    made = functools.cache(lambda spec: winnability(Geometry.parse(spec)))
    yield made
    made.cache_clear()


def all_positions(space):  # type: ignore[no-untyped-def]
    for depth, level in enumerate(space.levels):
        for row in range(len(level)):
            yield space.position(depth, row)


@pytest.mark.parametrize("spec", ["3x3", "3x3,k=2", "2x4", "3x4", "2x3", "2x2"])
def test_winnability_matches_reference(spec: str, exact_pass: Callable[[str], Winnability]) -> None:
    win = exact_pass(spec)
    memo: dict[tuple[int, int], tuple[bool, bool]] = {}
    for position in all_positions(win.space):
        assert win.can_win(position) == reference_can_win(position, memo), (
            position.to_status_string()
        )


def test_rooted_winnability_matches_full() -> None:
    win = winnability(Geometry.parse("3x3"))
    for position in list(all_positions(win.space))[::41]:
        assert can_win(position) == win.can_win(position)


def test_line_report() -> None:
    position = Position.from_string("xo./.x./..o")
    report = line_report(position)
    geometry = position.geometry
    for line in geometry.line_cells:
        marks = {position.statuses[c] for c in line}
        assert (line in report.dead) == ({1, 2} <= marks)
        assert (line in report.open_for_x) == (2 not in marks)
        assert (line in report.open_for_o) == (1 not in marks)
    assert len(report.dead) == dead_line_count(position) == 3
    assert report.empty == (2, 3, 5, 6, 7)


def reference_report(geometry: Geometry) -> tuple[Counter, int, int, dict[int, int]]:
    """The dead-end table, rule disagreements and question counts by brute force over Position objects.

    Plain memoised recursion (``reference_can_win``) from the empty board plays every move of every
    reachable position and keeps each position it meets in its memo: the memo's keys are the
    reachable positions, so the table is read from them (a walk of its own, ply by ply, beside the
    recursion played every move a second time)."""
    table: Counter = Counter()
    lines = len(geometry.lines)
    memo: dict[tuple[int, int], tuple[bool, bool]] = {}
    reference_can_win(Position.empty(geometry), memo)
    wrong_unwinnable = wrong_winnable = 0
    questions = Counter()
    for (x, o), can in memo.items():
        position = Position(geometry, x, o)
        if position.is_terminal:
            continue
        dead = dead_line_count(position)
        empty = len(position.empty_cells)
        winnable = any(can)
        table[(dead, empty, winnable)] += 1
        rule = seed_rule_unwinnable(dead, empty, lines)
        wrong_unwinnable += rule and winnable
        wrong_winnable += not rule and not winnable
        questions[1] += dead == lines - 1 and empty == 1
        questions[2] += dead == lines - 1 and empty >= 3
        questions[3] += empty == 2 and dead < lines - 1
        questions[4] += dead == lines
        questions[5] += dead == lines - 1 and empty == 2 and winnable
    return table, wrong_unwinnable, wrong_winnable, questions


@pytest.mark.parametrize(
    "spec", ["3x3", "2x4", "3x3,k=2", pytest.param("3x4", marks=pytest.mark.slow)]
)
def test_deadend_report_matches_brute_force(spec: str) -> None:
    geometry = Geometry.parse(spec)
    report = deadend_report(geometry)
    table, wrong_unwinnable, wrong_winnable, questions = reference_report(geometry)
    fast = Counter()
    for row in report.rows:
        if row.winnable:
            fast[(row.dead_lines, row.empty, True)] = row.winnable
        if row.unwinnable:
            fast[(row.dead_lines, row.empty, False)] = row.unwinnable
    assert fast == table
    assert report.rule_says_unwinnable_but_winnable == wrong_unwinnable
    assert report.rule_says_winnable_but_unwinnable == wrong_winnable
    assert report.rule_disagreements == wrong_unwinnable + wrong_winnable
    lines = len(geometry.lines)
    for question in report.questions:
        assert question.count == questions[question.number]
        assert question.answer == (question.count > 0)
        assert (question.example is None) == (not question.answer)
        if question.example:
            position = Position.from_string(question.example, geometry)
            dead, empty = dead_line_count(position), len(position.empty_cells)
            assert not position.is_terminal
            assert {
                1: dead == lines - 1 and empty == 1,
                2: dead == lines - 1 and empty >= 3,
                3: empty == 2 and dead < lines - 1,
                4: dead == lines and empty >= 1,
                5: dead == lines - 1 and empty == 2 and any(reference_can_win(position)),
            }[question.number]
    for example in report.examples_wrongly_unwinnable:
        position = Position.from_string(example, geometry)
        assert seed_rule_unwinnable(dead_line_count(position), len(position.empty_cells), lines)
        assert any(reference_can_win(position))
    for example in report.examples_wrongly_winnable:
        position = Position.from_string(example, geometry)
        assert not seed_rule_unwinnable(dead_line_count(position), len(position.empty_cells), lines)
        assert not any(reference_can_win(position))


@pytest.mark.slow
def test_deadend_report_4x4_k3_is_consistent(exact_pass: Callable[[str], Winnability]) -> None:
    geometry = Geometry.parse("4x4", 3)
    win = exact_pass("4x4,k=3")
    report = deadend_report(geometry, win=win)
    in_play = sum(int((~win.space.terminal(d)).sum()) for d in range(len(win.space.levels)))
    assert report.positions == in_play
    for question in report.questions:
        if question.example:
            position = Position.from_string(question.example, geometry)
            assert not position.is_terminal and win.can_win(position) == reference_can_win(position)


def test_seed_examples() -> None:
    # Seed 004 draws most boards with O for player 1 (who moves first); from_seed_board swaps the letters.
    for label, drawing, first, stated_dead in SEED_EXAMPLES:
        position = from_seed_board(drawing, first)
        if stated_dead is not None:
            assert dead_line_count(position) == stated_dead, label
        assert position.turn is not None, label
    definite = from_seed_board("OOX/XXO/OXO")
    assert definite.to_letters(rows=True) == "xxo/oox/xox"
    assert definite.x_count == 5 and definite.is_full and definite.winner is None
    # "Addressing 1": player 1 wins by marking the only blank space; player 2 cannot win.
    for drawing in ("OO•/OXX/XOX", "XOX/O•O/XXO"):
        position = from_seed_board(drawing)
        assert position.to_move == "x" and len(position.empty_cells) == 1
        assert position.play(position.empty_cells[0]).winner == "x"
        assert can_win(position) == (True, False)
    # "Addressing 4": eight dead lines with a space left, so nobody can win.
    assert can_win(from_seed_board("OXX/XOO/•OX")) == (False, False)
    # "Addressing 3": six dead lines, two spaces; the seed says two lines are still open.
    position = from_seed_board("OOX/X•O/•OX")
    report = line_report(position)
    open_lines = [line for line in position.geometry.line_cells if line not in report.dead]
    assert open_lines == [
        (1, 4, 7),
        (2, 4, 6),
    ]  # the centre column and the diagonal from the top right
    # "Early unwinnable" is drawn with X first: read with O first its mark counts are impossible.
    assert from_seed_board("OXO/•X•/XOX").turn is None
    assert from_seed_board("OXO/•X•/XOX", first="X").turn == "o"
    with pytest.raises(PositionError):
        from_seed_board("O••/•••/•••", first="Z")


def test_seed_questions_text() -> None:
    assert len(SEED_QUESTIONS) == 5
    assert seed_rule_unwinnable(8, 3, 8) and seed_rule_unwinnable(7, 2, 8)
    assert not seed_rule_unwinnable(7, 1, 8) and not seed_rule_unwinnable(6, 2, 8)


# -- CLI --------------------------------------------------------------------------------------------


def test_cli_deadends_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["deadends", "3x3", "--json"])
    data = json.loads(capsys.readouterr().out)
    report = deadend_report(Geometry.parse("3x3"))
    assert code == 0 and data["board"] == "3x3" and data["k"] == 3
    assert data["table"] == [row.to_dict() for row in report.rows]
    assert [q["question"] for q in data["questions"]] == [1, 2, 3, 4, 5]
    assert all(isinstance(q["answer"], bool) for q in data["questions"])
    assert data["rule_disagreements"] == report.rule_disagreements
    table, wrong_unwinnable, wrong_winnable, _ = reference_report(Geometry.parse("3x3"))
    assert sum(row["winnable"] + row["unwinnable"] for row in data["table"]) == sum(table.values())
    assert data["rule_disagreements"] == wrong_unwinnable + wrong_winnable


def test_cli_deadends_text(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["deadends", "3x3"])
    out = capsys.readouterr().out
    assert code == 0
    assert "O for player 1" in out and "definite unwinnable" in out
    assert "The rule of thumb disagrees with the exact answer on" in out
    words = " ".join(out.split())  # an example board's line is broken after its digits
    assert ": 1 dead line," in words and ": 1 dead lines" not in words


def test_cli_deadends_lists_every_disagreement(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["deadends", "3x3", "--all", "--json"])
    data = json.loads(capsys.readouterr().out)
    wrong_unwinnable = data["rule_says_unwinnable_but_winnable"]
    wrong_winnable = data["rule_says_winnable_but_unwinnable"]
    assert code == 0
    assert len(wrong_unwinnable["examples"]) == wrong_unwinnable["count"]
    assert len(set(wrong_winnable["examples"])) == wrong_winnable["count"]
    for text in wrong_winnable["examples"]:
        position = Position.from_string(text)
        assert not position.is_terminal and not any(reference_can_win(position))
        assert not seed_rule_unwinnable(dead_line_count(position), len(position.empty_cells), 8)


# -- winnability from the lines alone (boards beyond the exact pass) ---------------------------------


@pytest.mark.parametrize(
    "spec", ["3x3", "3x4", "2x3,k=2", pytest.param("4x4,k=3", marks=pytest.mark.slow)]
)
def test_can_win_by_lines_never_contradicts_the_exact_answer(
    spec: str, exact_pass: Callable[[str], Winnability]
) -> None:
    from oxo.analysis import can_win_by_lines

    win = exact_pass(spec)
    space = win.space
    decided = 0
    for depth, level in enumerate(space.levels):
        for row in range(0, len(level), {"4x4,k=3": 4001, "3x4": 17}.get(spec, 1)):
            position = space.position(depth, row)
            exact = win.can_win(position)
            for side, answer in zip("xo", exact, strict=True):
                quick = can_win_by_lines(position, side)  # type: ignore[arg-type]
                assert quick in (None, answer), (position.to_status_string(), side)
                decided += quick is not None
    assert decided > 0


def test_can_win_by_lines_on_a_big_board() -> None:
    from oxo.analysis import can_win_by_lines

    empty = Position.empty(Geometry.parse("7x7,k=5"))
    assert can_win_by_lines(empty, "x") is True and can_win_by_lines(empty, "o") is True
    # O on both diagonals and in every row and column: X has no line left, whatever follows
    blocked = Position.from_string("oxxx/xoo./x.o./...o")
    assert can_win_by_lines(blocked, "x") is False
    assert can_win(blocked)[0] is False


def test_cli_deadends_of_one_position(capsys: pytest.CaptureFixture[str]) -> None:
    report = deadend_report(Geometry.parse("3x3"), examples=None)
    wrong = report.examples_wrongly_unwinnable + report.examples_wrongly_winnable
    right = ["xo./.x./..o", "x...o...."]
    assert wrong  # the rule is wrong somewhere on 3x3
    for text, verdict in [(t, "(right)") for t in right] + [(wrong[0], "(wrong)")]:
        position = Position.from_string(text)
        code = main(["deadends", text])
        out = capsys.readouterr().out
        assert (
            code == 0
            and f"the rule says:  {'unwinnable' if seed_rule_unwinnable(dead_line_count(position), len(position.empty_cells), 8) else 'winnable'} {verdict}"
            in out
        )
        code = main(["deadends", text, "--json"])
        data = json.loads(capsys.readouterr().out)
        assert data["winnable"] == any(reference_can_win(position))
        assert data["dead_lines"] == [list(line) for line in line_report(position).dead]
