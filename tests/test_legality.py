"""Legality with reasons, the fast win check, and ``oxo check``: against a walk of the game tree."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from oxo.cli import main
from oxo.errors import OxoError
from oxo.geometry import Geometry
from oxo.legality import WinChecker, check_position, has_line, is_legal
from oxo.position import Position


def reachable(geometry: Geometry) -> set[tuple[int, int]]:
    """Every position of every game from the empty board (play stops at a line or a full board)."""
    lines, full = geometry.lines, geometry.full_mask
    seen = {(0, 0)}
    level = [(0, 0)]
    ply = 0
    while level:
        following = []
        for x, o in level:
            if any(x & line == line or o & line == line for line in lines) or x | o == full:
                continue
            for cell in geometry.cells:
                bit = 1 << cell
                if (x | o) & bit:
                    continue
                child = (x | bit, o) if ply % 2 == 0 else (x, o | bit)
                if child not in seen:
                    seen.add(child)
                    following.append(child)
        level = following
        ply += 1
    return seen


def every_position(geometry: Geometry):  # type: ignore[no-untyped-def]
    """Each of the 3^N boards once: every set of X's cells, with every subset of the rest as O's
    (from the masks: the statuses' form took twice as long on 3x4's 531,441 boards)."""
    full = geometry.full_mask
    for x in range(full + 1):
        rest = full & ~x
        o = rest
        while True:
            yield Position(geometry, x, o)
            if not o:
                break
            o = (o - 1) & rest


# -- seed 004: the line generator and the fast win check ------------------------------------------


def test_line_generator_gives_seed_004_lines_on_3x3() -> None:
    # Seed 004 numbers cells 1..9; a line starts on the top row or left column and steps by
    # 1 (from 1, 4, 7), 2 (from 3), 3 (from 1, 2, 3) or 4 (from 1).
    seed_starts = {1: (1, 4, 7), 2: (3,), 3: (1, 2, 3), 4: (1,)}
    seed_lines = {
        frozenset(start + i * step for i in range(3))
        for step, starts in seed_starts.items()
        for start in starts
    }
    geometry = Geometry.parse("3x3")
    generated = {frozenset(cell + 1 for cell in cells) for cells in geometry.line_cells}
    assert len(geometry.lines) == len(seed_lines) == 8
    assert generated == seed_lines
    checker = WinChecker.for_geometry(geometry)
    assert {run.step: tuple(c + 1 for c in run.start_cells) for run in checker.runs} == seed_starts
    # Only top-row or left-column cells start a line, as the seed observes.
    assert all(
        geometry.coords(cells[0])[0] == 0 or geometry.coords(cells[0])[1] == 0
        for cells in geometry.line_cells
    )


@pytest.mark.parametrize(
    "spec",
    [
        "3x3",
        "4x4",
        "4x4,k=3",
        "3x2,k=2",
        "2x5,k=2",
        "5x5",
        "3x3x3",
        "4x4x4",
        "2x2x2",
        "3x3,k=1",
        "1x6,k=3",
    ],
)
def test_win_checker_agrees_with_line_loop(spec: str) -> None:
    geometry = Geometry.parse(spec)
    checker = WinChecker.for_geometry(geometry)
    rng = random.Random(spec)
    masks = [0, geometry.full_mask, *geometry.lines] + [
        rng.getrandbits(geometry.size) for _ in range(3000)
    ]
    for mask in masks:
        expected = sorted(line for line in geometry.lines if mask & line == line)
        assert sorted(checker.lines_in(mask)) == expected
        assert checker.has_line(mask) == bool(expected) == has_line(geometry, mask)


# -- legality against the game tree -----------------------------------------------------------------


@pytest.mark.parametrize("spec", ["3x3", "2x4", "3x3,k=2", "2x2x2", "2x3", "2x2,k=1", "1x5,k=2"])
def test_legal_exactly_when_reachable(spec: str) -> None:
    geometry = Geometry.parse(spec)
    games = reachable(geometry)
    legal = set()
    for position in every_position(geometry):
        verdict = check_position(position)
        assert verdict.legal == (not verdict.reasons)
        if verdict.legal:
            legal.add((position.x, position.o))
    assert legal == games


@pytest.mark.slow
def test_legal_exactly_when_reachable_3x4() -> None:
    geometry = Geometry.parse("3x4")
    games = reachable(geometry)
    boards = list(every_position(geometry))
    assert len({(p.x, p.o) for p in boards}) == len(boards) == 3**geometry.size
    legal = {(p.x, p.o) for p in boards if is_legal(p)}
    assert legal == games


def test_3x3_legal_positions_match_the_counter() -> None:
    from oxo.counting import count_positions

    geometry = Geometry.parse("3x3")
    per_ply = [0] * 10
    for position in every_position(geometry):
        if is_legal(position):
            per_ply[position.ply] += 1
    assert per_ply == [row.positions for row in count_positions(geometry).plies]


def test_last_moves_undo_to_a_game_in_progress() -> None:
    geometry = Geometry.parse("3x3")
    games = reachable(geometry)
    for position in every_position(geometry):
        verdict = check_position(position)
        if not verdict.legal or not position.ply:
            continue
        mover = position.x if position.x_count > position.o_count else position.o
        for cell in verdict.last_moves:
            assert mover >> cell & 1
            before = Position(geometry, position.x & ~(1 << cell), position.o & ~(1 << cell))
            assert (before.x, before.o) in games and not before.is_terminal
            assert before.play(cell) == position
        # and no other mark could have been last
        others = [c for c in range(9) if mover >> c & 1 and c not in verdict.last_moves]
        for cell in others:
            before = Position(geometry, position.x & ~(1 << cell), position.o & ~(1 << cell))
            assert before.is_terminal


# -- reasons ----------------------------------------------------------------------------------------


def codes(text: str, board: str | None = None) -> list[tuple[str, str | None]]:
    geometry = Geometry.parse(board) if board else None
    return [
        (reason.code, reason.player)
        for reason in check_position(Position.from_string(text, geometry)).reasons
    ]


def test_reasons_each_kind() -> None:
    assert codes("xx./.../...") == [("mark_counts", None)]
    assert codes("xxx/.../...") == [("mark_counts", None), ("winner_count", "x")]
    assert codes("xxx/ooo/x..") == [
        ("both_aligned", None),
        ("winner_count", "o"),
        ("stopped_earlier", None),
    ]
    assert codes("xxx/oo./o..") == [("winner_count", "x"), ("stopped_earlier", None)]
    assert codes("ooo/xx./x.x") == [("winner_count", "o"), ("stopped_earlier", None)]
    # Two X lines with no common cell: no single last move made both.
    assert codes("xxx./oo.o/o.o./xxx.", "4x4,k=3") == [
        ("disjoint_lines", "x"),
        ("stopped_earlier", None),
    ]
    # Two crossing X lines share the last move: legal.
    assert codes("xxx/xoo/xoo") == []


def test_reason_messages_and_dict() -> None:
    verdict = check_position(Position.from_string("xxx/ooo/x.."))
    assert not verdict.legal and verdict.status is None and verdict.last_moves == ()
    assert all(reason.message and "\n" not in reason.message for reason in verdict.reasons)
    data = verdict.to_dict()
    assert data["legal"] is False and [r["code"] for r in data["reasons"]][0] == "both_aligned"
    json.dumps(data)


@pytest.mark.parametrize(
    ("text", "status", "last"),
    [
        ("...../...", None, None),
        (".........", "x_to_move", ()),
        ("x........", "o_to_move", (0,)),
        ("xxx/oo./...", "x_won", (0, 1, 2)),
        ("xx./ooo/x..", "o_won", (3, 4, 5)),
        ("xox/xoo/oxx", "draw", (0, 2, 3, 7, 8)),
    ],
)
def test_status_of_legal_positions(
    text: str, status: str | None, last: tuple[int, ...] | None
) -> None:
    if status is None:
        with pytest.raises(OxoError):
            Position.from_string(text)
        return
    verdict = check_position(Position.from_string(text))
    assert verdict.legal and verdict.status == status and verdict.last_moves == last
    assert verdict.is_terminal == (status in ("x_won", "o_won", "draw"))


# -- oxo check ---------------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "xxx/oo./...")
    assert code == 0 and "legal: X has won" in out
    code, out, _ = run(capsys, "check", "xxx/ooo/x..")
    assert code == 1 and "illegal" in out and "[both_aligned]" in out and "[stopped_earlier]" in out
    code, out, err = run(capsys, "check", "xxq")
    assert code == 2 and out == "" and err.startswith("oxo: error:") and err.count("\n") == 1
    code, out, err = run(capsys, "check", "xx.o", "--board", "3x5")
    assert code == 2 and "15" in err


def test_check_json_and_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "1112", "--board", "1x4", "--k", "2", "--json")
    data = json.loads(out)
    assert code == 1 and data["legal"] is False and data["board"] == "1x4" and data["k"] == 2
    assert [r["code"] for r in data["reasons"]] == ["mark_counts", "winner_count"]
    code, out, _ = run(capsys, "check", "x.o./..../..../....", "--k", "3", "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "x_to_move" and data["k"] == 3


_POSITION_TEXT = st.text(alphabet="xXoO.012_-/ 3a\t", max_size=40) | st.text(max_size=30)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=_POSITION_TEXT)
def test_fuzz_parser(text: str) -> None:
    try:
        position = Position.from_string(text)
    except OxoError as error:
        assert str(error) and "\n" not in str(error)
        return
    again = Position.from_string(position.to_status_string(rows=True))
    assert again == position


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=_POSITION_TEXT, board=st.sampled_from([None, "3x3", "4x4", "2x2x2", "1x5", "bogus"]))
def test_fuzz_check(capsys: pytest.CaptureFixture[str], text: str, board: str | None) -> None:
    args = ["check", "--", text] if board is None else ["check", "--board", board, "--", text]
    code, out, err = run(capsys, *args)
    assert code in (0, 1, 2)
    if code == 2:
        assert out == "" and err.startswith("oxo: error:") and err.count("\n") == 1
    else:
        assert err == "" and ("illegal" in out) == (code == 1)


# -- gravity -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["2x2x2,k=2,gravity", "3x3,k=3,gravity", "4x2,k=2,gravity"])
def test_with_gravity_the_legal_positions_are_those_a_game_reaches(spec: str) -> None:
    """Every assignment of marks to the cells: legal exactly when some game reaches it (a walk of
    every game with the positions' own rules, finished positions included)."""
    import itertools

    from oxo.geometry import Geometry

    geometry = Geometry.parse(spec)
    reached = {(0, 0)}
    level = {(0, 0)}
    while level:
        following = set()
        for x, o in level:
            position = Position(geometry, x, o)
            for move in position.legal_moves:
                child = position.play(move)
                following.add((child.x, child.o))
        reached |= following
        level = {pair for pair in following if not Position(geometry, *pair).is_over}
    for statuses in itertools.product((0, 1, 2), repeat=geometry.size):
        position = Position.from_statuses(geometry, statuses)
        verdict = check_position(position)
        assert verdict.legal == ((position.x, position.o) in reached), position.to_letters(
            rows=True
        )
        for cell in verdict.last_moves:  # a last move is the top mark of its column
            above = cell - geometry.column_count
            assert above < 0 or not (position.x | position.o) >> above & 1


def test_score_four_reasons() -> None:
    from oxo.geometry import Geometry

    geometry = Geometry.parse("4x4x4,gravity")
    floating = check_position(Position(geometry, 1, 0))  # X on top of an empty column
    assert [r.code for r in floating.reasons] == ["floating"]
    # O under X in one column and nothing else: O would have moved first
    wrong = check_position(Position(geometry, 1 << 32, 1 << 48))
    assert [r.code for r in wrong.reasons] == ["no_order"]
    fine = check_position(Position(geometry, 1 << 48, 1 << 32))
    assert fine.legal and fine.last_moves == (32,)
