"""The top-level API (``import oxo``): each function against the slow references and against the
command line's ``--json`` (same keys, same answers), notebook display, and the README's example."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import oxo
from oxo.analysis import reference_can_win
from oxo.cli import main
from oxo.counting.reference import count_by_search
from oxo.geometry import Geometry
from oxo.legality import check_position
from oxo.position import Position
from oxo.solve import reference_value

ROOT = Path(__file__).resolve().parent.parent


def cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, object]]:
    code = main([*args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_board_is_a_value() -> None:
    board = oxo.Board("4x4", k=3)
    assert board == oxo.Board("4x4,k=3") == oxo.Board(Geometry.parse("4x4", 3))
    assert hash(board) == hash(oxo.Board("4x4,k=3")) and board != oxo.Board("4x4")
    assert (board.spec, board.shape, board.k, board.cells) == ("4x4,k=3", (4, 4), 3, 16)
    assert len(board.lines) == len(Geometry.parse("4x4", 3).lines)
    assert all(len(line) == 3 for line in board.lines)
    with pytest.raises(AttributeError):
        board.geometry = Geometry.parse("3x3")  # type: ignore[misc]
    with pytest.raises(oxo.OxoError):
        oxo.Board("4x4", k=9)
    with pytest.raises(ValueError):
        oxo.Board("nonsense")
    assert board.empty() == Position.empty(board.geometry)
    assert board.position("x" + "." * 15).x == 1


@pytest.mark.parametrize("spec", ["3x3", "2x4,k=2", "3x4"])
def test_count_matches_the_tree_walk(capsys: pytest.CaptureFixture[str], spec: str) -> None:
    table = oxo.Board(spec).count()
    positions, classes = count_by_search(Geometry.parse(spec))
    assert [row.positions for row in table.plies] == list(positions)
    assert [row.classes for row in table.plies] == list(classes)
    assert oxo.count(spec).to_dict() == table.to_dict()
    code, data = cli_json(capsys, "count", spec)
    assert code == 0
    cli = data["boards"][0] if "boards" in data else data  # type: ignore[index]
    assert cli == json.loads(json.dumps(table.to_dict()))


@pytest.mark.parametrize(
    ("spec", "plies"),
    [("4x4,k=3,gravity", None), ("connect4", 5), ("uttt", 3)],
)
def test_count_takes_gravity_boards_and_uttt(
    capsys: pytest.CaptureFixture[str], spec: str, plies: int | None
) -> None:
    """The library's count of the other games is the command's JSON, and each is its own walk's."""
    from oxo.gravity.board import GravityBoard
    from oxo.gravity.counting import count_positions as count_gravity
    from oxo.uttt.counting import count_positions as count_uttt

    table = oxo.count(spec, plies=plies)
    if spec == "uttt":
        assert plies is not None
        assert table.to_dict() == count_uttt(plies).to_dict()
    else:
        assert table.to_dict() == count_gravity(GravityBoard.parse(spec), plies).to_dict()
    code, data = cli_json(capsys, "count", spec, *(["--plies", str(plies)] if plies else []))
    assert code == 0 and data["boards"][0] == json.loads(json.dumps(table.to_dict()))  # type: ignore[index]


def test_count_asks_for_plies_where_the_whole_game_is_out_of_reach() -> None:
    with pytest.raises(oxo.OutOfReachError, match="plies=N"):
        oxo.count("uttt")
    with pytest.raises(oxo.OutOfReachError, match="plies=N"):
        oxo.count("connect4")
    with pytest.raises(oxo.OxoError, match="plies=N stops"):
        oxo.count("3x3", plies=2)


@pytest.mark.parametrize("spec", ["3x3", pytest.param("3x4", marks=pytest.mark.slow), "2x4,k=2"])
def test_solve_matches_the_reference_and_the_cli(
    capsys: pytest.CaptureFixture[str], spec: str
) -> None:
    solved = oxo.solve(spec)
    expected = reference_value(Position.empty(Geometry.parse(spec)))
    assert solved.known and solved.value == expected.outcome and solved.plies == expected.plies
    code, data = cli_json(capsys, "solve", spec)
    mine = solved.to_dict()
    assert code == 0 and set(data) == set(mine)
    for key in set(mine) - {"seconds"}:
        assert data[key] == json.loads(json.dumps(mine[key])), key
    assert "<table" in solved._repr_html_()


def test_solve_beyond_16_cells_uses_the_proof_search() -> None:
    solved = oxo.Board("3x3x3").solve(seconds=60, again=True)
    assert solved.proof is not None and solved.table is None and not solved.from_book
    assert solved.value == "x" and solved.to_dict()["value"] == "x"
    booked = oxo.Board("3x3x3").solve()  # a proved board: read from oxo's proof book
    assert booked.from_book and booked.value == "x" and booked.book is not None
    assert booked.to_dict()["book"]["command"] == "oxo solve 3x3x3 --proof DIR"


def test_check_is_oxo_check(capsys: pytest.CaptureFixture[str]) -> None:
    for text in ("xxx/oo./...", "xxx/ooo/...", "xo./.../...", "oo......."):
        verdict = oxo.check(text)
        assert verdict == check_position(Position.parse(text)) == oxo.check(Position.parse(text))
        code, data = cli_json(capsys, "check", text)
        assert code == (0 if verdict.legal else 1) and data == json.loads(
            json.dumps(verdict.to_dict())
        )


def test_analyze_a_position_or_a_board(capsys: pytest.CaptureFixture[str]) -> None:
    position = oxo.Position.parse("xo./.x./..o")
    report = oxo.analyze("xo./.x./..o")
    assert report == oxo.analyze(position)
    assert report.value == reference_value(position)
    assert (report.x_can_win, report.o_can_win) == reference_can_win(position)
    empty = oxo.Board("3x3").analyze()
    assert empty.position == Position.empty(Geometry.parse("3x3"))
    assert empty.value == reference_value(empty.position)
    big = oxo.analyze("9x9,k=5", seconds=0.2)  # gomoku: forced wins searched, none on 9x9
    assert big.value is None and big.out_of_reach and big.lines.dead == ()
    assert len(big.lines.open_for_x) == len(Geometry.parse("9x9,k=5").lines)
    code, data = cli_json(capsys, "analyze", "9x9", "--k", "5", "--time", "0.2")
    assert code == 3 and data["value"] is None and data["out_of_reach"] == big.out_of_reach
    assert data["open_for_x"] == [list(line) for line in big.lines.open_for_x]
    proved = oxo.analyze("5x5")  # in oxo's proof book: a draw
    assert proved.value is None and proved.outcome == "draw" and proved.proven is not None
    code, data = cli_json(capsys, "analyze", "5x5")
    assert code == 0 and data["value"] == "draw" and data["plies_to_end"] is None


def test_deadends_on_boards_and_positions(capsys: pytest.CaptureFixture[str]) -> None:
    report = oxo.Board("3x3").deadends()
    code, data = cli_json(capsys, "deadends", "3x3")
    assert code == 0 and data == json.loads(json.dumps(report.to_dict()))
    with pytest.raises(oxo.OutOfReachError):
        oxo.deadends("5x5")
    code, data = cli_json(capsys, "deadends", "5x5")
    assert (
        code == 3 and data["dead_lines"] == [] and data["winnable"] is True and data["out_of_reach"]
    )
    code, data = cli_json(capsys, "deadends", "xo./.x./..o")
    position = Position.parse("xo./.x./..o")
    assert code == 0 and data["winnable"] == any(reference_can_win(position))
    assert data["dead_lines"] == [list(line) for line in oxo.analyze(position).lines.dead]


def test_move_is_oxo_move(capsys: pytest.CaptureFixture[str]) -> None:
    position = oxo.Position.parse("xo./.x./..o")
    reply = oxo.move(position, level="perfect", seed=1)
    best = [
        c
        for c in position.legal_moves
        if reference_value(position.play(c)).winner == "x"
        and reference_value(position.play(c)).plies == reference_value(position).plies - 1
    ]
    assert reply.move in best and reply.value == "x" and reply.after == position.play(reply.move)
    code, data = cli_json(capsys, "move", "xo./.x./..o", "--level", "perfect", "--seed", "1")
    mine = reply.to_dict()
    assert code == 0 and set(data) == set(mine)
    assert {k: v for k, v in data.items() if k != "seconds"} == {
        k: v for k, v in mine.items() if k != "seconds"
    }
    with pytest.raises(oxo.MoveError):
        oxo.move("xxx/oo./...")
    with pytest.raises(oxo.OutOfReachError):
        oxo.move("." * 36, level="perfect")  # 6x6: not a board oxo has proved


def test_describe_is_oxo_show(capsys: pytest.CaptureFixture[str]) -> None:
    report = oxo.describe(Position.parse("xo./.x./..o"))
    code, data = cli_json(capsys, "show", "xo./.x./..o")
    assert code == 0 and data == json.loads(json.dumps(report.to_dict()))


def test_solve_is_the_function_even_after_the_module_loads() -> None:
    from oxo.solve import Solution  # noqa: F401  (loads the module oxo.solve)

    assert callable(oxo.solve) and oxo.solve.__module__ == "oxo.api"


def test_mega_game() -> None:
    game = oxo.mega.Game()
    assert game == oxo.mega.MegaState() and game.to_move == "x" and len(game.legal_moves) == 81
    after = game.play("55")
    assert after.to_move == "o" and game.move_count == 0
    svg = after._repr_svg_()
    assert svg.startswith("<svg") and "</svg>" in svg


def test_notebook_display() -> None:
    position = oxo.Position.parse("xo./.x./..o")
    svg = position._repr_svg_()
    assert svg.startswith("<svg") and svg.count('data-cell="') == 9
    assert eval(repr(position), {"Position": oxo.Position}) == position

    class Printer:
        def __init__(self) -> None:
            self.parts: list[str] = []

        def text(self, part: str) -> None:
            self.parts.append(part)

    printer = Printer()
    position._repr_pretty_(printer, False)
    assert "".join(printer.parts) == position.to_grid() + "\n" + position.status().text
    table_html = oxo.Board("3x3").count()._repr_html_()
    assert all(f"{row.positions:,}" in table_html for row in oxo.Board("3x3").count().plies)
    assert "<svg" in oxo.analyze(position)._repr_html_()
    assert oxo.Board("3x3")._repr_svg_().startswith("<svg")


def readme_example() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text[text.index("## As a library") :]
    found = re.search(r"```python\n(.*?)```", section, re.S)
    assert found is not None
    return found.group(1)


def test_readme_example_runs_verbatim() -> None:
    code = readme_example()
    assert "from oxo." not in code and "import oxo\n" in code  # only the top-level API
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    table = oxo.Board("4x4", k=3).count()
    assert lines[0] == f"{table.total_positions} {table.total_classes}"
    position = oxo.Position.parse("xo./.x./..o")
    assert lines[1] == position.status().text and lines[2] == str(oxo.check(position).legal)
    assert (
        lines[4]
        == oxo.solve("3x3").value
        == reference_value(Position.empty(Geometry.parse("3x3"))).outcome
    )


def test_the_exact_limit_is_the_solvers() -> None:
    from oxo.api import MAX_EMPTY
    from oxo.space import MAX_EMPTY as SPACE_LIMIT

    assert MAX_EMPTY == SPACE_LIMIT


def test_import_oxo_loads_no_solver() -> None:
    code = "import sys, oxo, oxo.api; print(sorted(m for m in sys.modules if m in ('oxo.solve', 'numpy', 'oxo.analysis')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_a_board_is_parsed_once_and_its_parsed_value_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Text is parsed once, at the API's own edge; a game found already (``oxo.find_game``) or a
    geometry is taken as it is, without its text being read again; another game is refused by
    name."""
    from oxo.errors import UnsupportedError
    from oxo.gravity.board import GravityBoard

    assert oxo.Board(oxo.find_game("4x4,k=3")) == oxo.Board("4x4", k=3)
    assert oxo.Board("qubic") == oxo.Board("4x4x4")
    with pytest.raises(UnsupportedError, match="Connect Four is not a board of m,n,k"):
        oxo.Board(oxo.find_game("connect4"))
    expected = oxo.solve("3x3").value
    parse_geometry, parse_gravity = Geometry.parse, GravityBoard.parse
    calls: list[object] = []

    def geometry(*args: object, **kwargs: object) -> Geometry:
        calls.append(args[0])
        return parse_geometry(*args, **kwargs)  # type: ignore[arg-type]  # passed through

    def gravity(*args: object, **kwargs: object) -> GravityBoard:
        calls.append(args[0])
        return parse_gravity(*args, **kwargs)  # type: ignore[arg-type]  # passed through

    monkeypatch.setattr(Geometry, "parse", staticmethod(geometry))
    monkeypatch.setattr(GravityBoard, "parse", staticmethod(gravity))
    assert oxo.solve("3x3").value == expected and calls == ["3x3"]
    calls.clear()
    game = oxo.find_game("connect4")
    assert calls == ["connect4"]
    calls.clear()
    counts = oxo.count(game, plies=2)
    assert counts.plies[2].positions == 49 and calls == []  # 7 columns, then 7 replies
    assert oxo.analyze(oxo.find_game("3x3")).outcome == expected and calls == ["3x3"]
