"""Reports (oxo.reports): the state sentence, a value seen by one side and the analysis, each checked
against slow, obviously correct versions; and the one-place rule: the command line and the web page
show exactly the library's sentence and analysis."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterator

import pytest
from starlette.testclient import TestClient

from oxo.analysis import can_win_by_lines, line_report, reference_can_win
from oxo.cli import main
from oxo.cli.common import PIPE_WIDTH
from oxo.cli.fit import fit_line
from oxo.geometry import Geometry
from oxo.position import Position, position_status
from oxo.reports import SideValue, analyze, describe
from oxo.solve import Value, reference_value
from servers import page_client


def all_boards(spec: str) -> list[Position]:
    """Every assignment of marks to the cells of a small board (legal or not)."""
    geometry = Geometry.parse(spec)
    return [
        Position.from_statuses(geometry, statuses)
        for statuses in itertools.product((0, 1, 2), repeat=geometry.size)
    ]


def slow_code(position: Position) -> str:
    """The state of a position from cell statuses and line cells only."""
    statuses = position.statuses
    xs, os_ = statuses.count(1), statuses.count(2)
    if xs - os_ not in (0, 1):
        return "impossible"
    cells = [
        [c for c in range(position.geometry.size) if line >> c & 1]
        for line in position.geometry.lines
    ]
    x_line = any(all(statuses[c] == 1 for c in line) for line in cells)
    o_line = any(all(statuses[c] == 2 for c in line) for line in cells)
    if x_line and o_line:
        return "both_lines"
    if x_line or o_line:
        return "won"
    if 0 not in statuses:
        return "full"
    return "to_move"


@pytest.mark.parametrize("spec", ["3x3", "2x3,k=2"])
def test_status_codes_match_a_slow_classification(spec: str) -> None:
    for position in all_boards(spec):
        status = position_status(position)
        assert status.code == slow_code(position), position.to_status_string()
        if status.code == "to_move":
            assert status.turn == position.turn and status.text.startswith(
                f"{position.turn.upper()} to move"
            )
        if status.code == "won":
            assert (
                status.winner == position.winner
                and status.text == f"{position.winner.upper()} has won"
            )
        assert status.to_dict()["text"] == str(status) == position.status().text


@pytest.mark.parametrize("winner,plies", [("x", 3), ("o", 1), (None, 4), ("x", 0), (None, 0)])
def test_side_value_reads_the_same_from_both_sides(winner: str | None, plies: int) -> None:
    value = Value(winner, plies)  # type: ignore[arg-type]
    x, o = SideValue.of(value, "x"), SideValue.of(value, "o")
    if winner is None:
        assert x.result == o.result == "draw"
    else:
        assert {x.result, o.result} == {"win", "loss"}
        assert (x.result == "win") == (winner == "x")
    assert x.plies == o.plies == plies
    text = str(x)
    assert "X" in text or text == "drawn"
    if winner is not None and plies:
        assert str(plies) in text
    if winner == "x" and plies:
        assert text == f"win in {plies} plies for X"


def test_analysis_matches_the_slow_references() -> None:
    rng = random.Random(7)
    geometries = [Geometry.parse("3x3"), Geometry.parse("3x4"), Geometry.parse("4x4,k=3")]
    for geometry in geometries:
        for _ in range(6):
            position = Position.empty(geometry)
            for _ in range(rng.randrange(geometry.size - 8, geometry.size)):
                if position.is_terminal:
                    break
                position = position.play(rng.choice(position.legal_moves))
            report = analyze(position)
            expected = reference_value(position)
            assert report.value == expected
            assert (report.x_can_win, report.o_can_win) == reference_can_win(position)
            moves = {move.cell: move for move in report.moves or ()}
            assert set(moves) == set(position.legal_moves)
            for cell, move in moves.items():
                assert move.value == reference_value(position.play(cell))
                assert move.for_mover == SideValue.of(move.value, position.to_move)  # type: ignore[arg-type]
            best = [
                c
                for c, m in moves.items()
                if m.value.winner == expected.winner and m.value.plies == expected.plies - 1
            ]
            assert list(report.best_moves) == best
            assert report.lines == line_report(position)
            data = report.to_dict()
            assert data["value"] == expected.outcome and data["plies_to_end"] == expected.plies


def test_each_move_is_valued_from_the_position_itself() -> None:
    """oxo analyze's moves, grouped by value (issue 45, item 6): every legal move once, each
    group's value counted from the position as its own value is (the best group is the position's
    value and holds the best moves), groups ordered from best to worst for the mover (by the slow
    reference)."""
    rng = random.Random(11)
    for spec in ("3x3", "3x4", "4x4,k=3"):
        geometry = Geometry.parse(spec)
        for _ in range(8):
            position = Position.empty(geometry)
            for _ in range(rng.randrange(geometry.size - 9, geometry.size - 1)):
                if position.is_terminal:
                    break
                position = position.play(rng.choice(position.legal_moves))
            if position.is_terminal:
                continue
            report = analyze(position)
            groups = report.move_groups()
            cells = [cell for _, group in groups for cell in group]
            assert sorted(cells) == sorted(position.legal_moves)
            for value, group in groups:
                for cell in group:
                    after = reference_value(position.play(cell))
                    assert value == Value(after.winner, after.plies + 1)
            assert groups[0] == (report.value, report.best_moves)
            mover = position.to_move
            seen = [SideValue.of(value, mover) for value, _ in groups]  # type: ignore[arg-type]
            rank = {"win": 0, "draw": 1, "loss": 2}
            keys = [(rank[s.result], s.plies if s.result == "win" else -s.plies) for s in seen]
            assert keys == sorted(keys) and len(set(keys)) == len(keys)
            text = "\n".join(report.text_lines())
            assert text.count("each move:") == 1 and "\nmoves:" not in text


def test_analysis_beyond_the_solver_keeps_what_is_cheap() -> None:
    position = Position.parse("x" + "." * 23 + "o")
    report = analyze(position)
    assert report.value is None and report.moves is None and report.best_moves == ()
    assert "too many" in (report.out_of_reach or "") and "16" in (report.out_of_reach or "")
    assert report.lines == line_report(position)
    assert (report.x_can_win, report.o_can_win) == (
        can_win_by_lines(position, "x"),
        can_win_by_lines(position, "o"),
    )
    assert (
        report.to_dict()["value"] is None
        and report.to_dict()["out_of_reach"] == report.out_of_reach
    )


def test_the_empty_board_of_a_board_being_proved_points_at_its_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Beyond the solver, the empty board's hint names 'oxo solve' for what oxo's proof run of the
    board has settled (the book's figures), or, for a board no run is settling, its search."""
    from dataclasses import replace

    import oxo.reports as reports
    from book_rows import open_4x4x4x4
    from oxo.book import book_entry, open_board

    opened = open_board("9x8,k=5")
    assert opened is not None
    hint = analyze(Position.empty(Geometry.parse("9x8,k=5"))).out_of_reach or ""
    assert "'oxo solve 9x8 --k 5', which says how far oxo's proof run of it has got" in hint
    assert "10 minutes" not in hint
    # a run that has settled positions and openings (4x4x4x4's, as its row stood while open)
    proved = book_entry("4x4x4x4")
    assert proved is not None and proved.openings
    four = replace(open_4x4x4x4(), openings=proved.openings)
    monkeypatch.setattr(reports, "open_board", lambda name: four if name == "4x4x4x4" else None)
    hint = reports._empty_board_hint(Geometry.parse("4x4x4x4"))
    assert f"({four.settled:,} positions settled, {len(four.openings)} openings" in hint
    assert "'oxo book 4x4x4x4'" in hint and "10 minutes" not in hint
    monkeypatch.undo()
    hint = analyze(Position.empty(Geometry.parse("5x5x5"))).out_of_reach or ""
    assert "'oxo solve 5x5x5', which searches the empty board for up to 10 minutes" in hint


def test_describe_is_oxo_show() -> None:
    position = Position.parse("xxx/oo./...")
    data = describe(position).to_dict()
    assert data["winner"] == "x" and data["status"] == "X has won"
    assert data["stabilizer"] == [s.name for s in position.stabilizer]
    assert data["class_size"] == len(position.geometry.symmetries) // len(position.stabilizer)


# -- one place: the CLI and the web page show the library's reports ------------------------------------

POSITIONS = [
    "xo./.x./..o",
    "x...o....",
    "xxx/oo./...",
    "xx.......",
    "xxx/ooo/...",
    "xoxoxooxo",
    "x...o..../.........",
    "x..o/..../....",
    ".........",
]


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with page_client(raise_server_exceptions=True) as test_client:
        yield test_client


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


@pytest.mark.parametrize("text", POSITIONS)
def test_state_sentence_is_built_once(
    capsys: pytest.CaptureFixture[str], client: TestClient, text: str
) -> None:
    position = Position.parse(text)
    sentence = position_status(position).text
    code, out = _cli(capsys, "show", text, "--json")
    assert code == 0 and json.loads(out)["status"] == sentence
    code, out = _cli(capsys, "show", text)
    assert f"{fit_line(f'status:         {sentence}', PIPE_WIDTH)}\n" in out
    # the report's own lines, broken to 80 columns as any piped list is (oxo.cli.common.echo_lines)
    lines = [fit_line(line, PIPE_WIDTH) for line in describe(position).text_lines()]
    assert out.endswith("\n".join(lines) + "\n")
    data = client.get("/api/explore", params={"position": text}).json()
    assert data["status"] == sentence


@pytest.mark.parametrize(
    "text",
    [
        t
        for t in POSITIONS
        if Position.parse(t).turn is not None
        and not (Position.parse(t).x_lines and Position.parse(t).o_lines)
    ],
)
def test_analysis_is_built_once(
    capsys: pytest.CaptureFixture[str], client: TestClient, text: str
) -> None:
    position = Position.parse(text)
    report = analyze(position)
    code, out = _cli(capsys, "analyze", text, "--json")
    assert code == (0 if report.value is not None else 3)
    assert json.loads(out) == json.loads(json.dumps(report.to_dict()))
    code, out = _cli(capsys, "analyze", text)
    assert out == position.to_grid() + "\n\n" + "\n".join(report.text_lines()) + "\n"
    web = client.get("/api/explore", params={"position": text}).json()
    assert web["status"] == report.status.text
    if (
        report.value is None or "error" in web["solution"]
    ):  # the page searches at most 14 empty cells
        assert report.value is not None or "error" in web["solution"]
        return
    assert web["winnability"] == {
        "x_can_win": report.x_can_win,
        "o_can_win": report.o_can_win,
        "winnable": report.winnable,
    }
    solution = web["solution"]
    assert (solution["value"], solution["plies"], solution["text"]) == (
        report.value.outcome,
        report.value.plies,
        str(report.value),
    )
    assert solution["best_moves"] == list(report.best_moves)
    assert {int(cell): entry["value"] for cell, entry in solution["move_values"].items()} == {
        move.cell: move.for_mover.result for move in report.moves or ()
    }
