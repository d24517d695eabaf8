"""The CLI of the core: count, show, classes, and the error path (one line, exit status 2)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from oxo.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_count_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", "3x3", "2x2")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == [
        "ply",
        "3x3",
        "positions",
        "3x3",
        "classes",
        "2x2",
        "positions",
        "2x2",
        "classes",
    ]
    # the plies the total sums (each board's own: 3x3's 0-9, 2x2's 0-4), separators in tables
    assert lines[-1].split() == ["total", "(plies", "0-9)", "5,478", "765", "29", "6"]
    assert lines[2].split() == ["1", "9", "3", "4", "1"]


def test_count_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", "3x3", "--json")
    data = json.loads(out)["boards"][0]  # one board or several: always {"boards": [...]}
    assert code == 0 and data["board"] == "3x3" and data["k"] == 3
    assert [row["positions"] for row in data["plies"]] == [
        1,
        9,
        72,
        252,
        756,
        1260,
        1520,
        1140,
        390,
        78,
    ]
    assert data["total"] == {"positions": 5478, "classes": 765}
    code, out, _ = run(capsys, "count", "3x3", "4x4,k=3", "--json", "--method", "pairs")
    data = json.loads(out)["boards"]
    assert [d["board"] for d in data] == ["3x3", "4x4"] and data[1]["k"] == 3


def test_count_search_method_and_k(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "count", "3x3", "--k", "2", "--method", "search", "--json")
    assert code == 0 and json.loads(out)["boards"][0]["k"] == 2


def test_show(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "xxx/oo./...", "--json")
    data = json.loads(out)
    assert code == 0 and data["winner"] == "x" and data["turn"] is None
    assert data["complete_lines"] == [{"player": "x", "cells": [0, 1, 2]}]
    assert data["stabilizer"] == ["identity"] and data["class_size"] == 8
    code, out, _ = run(capsys, "show", "000010000")
    assert code == 0 and "O to move" in out and "class size:     1 of 8" in out


def test_classes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "classes", "3x3", "--json")
    data = json.loads(out)
    assert {c["name"] for c in data["cell_classes"]} == {"corner", "middle", "center"}
    assert {c["name"] for c in data["line_classes"]} == {"diagonal", "middle", "side"}
    code, out, _ = run(capsys, "classes", "3x3x3")
    assert code == 0 and "48 symmetries" in out


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["count", "4x"], "bad board spec"),
        (["count", "3x3", "--k", "7"], "k=7"),
        (["count", "3x3", "--k", "0"], "--k"),
        (["count"], "Missing argument"),
        (["count", "3x3", "--method", "magic"], "magic"),
        (["show", "12x"], "cannot tell the board"),
        (["show", "1200", "--board", "3x3"], "has 4 cells"),
        (["show", "12a000000"], "unknown character"),
        (["classes", "three"], "bad board spec"),
        (["nonsense"], "No such command"),
        (["cout", "3x3"], "No such command 'cout'; did you mean count?"),
        (["slove", "3x3"], "did you mean solve"),
        (["check", "--", "--json"], "unknown character"),  # after "--" it is a position
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], words: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("oxo: error: ") and words in err


def test_json_before_the_operands_marker_gives_json_errors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run(capsys, "check", "--json", "--", "12a000000")
    assert code == 2 and err.startswith("oxo: error: ") and "unknown character" in err
    assert json.loads(out)["code"] == 2


def test_console_script_exit_status() -> None:
    result = subprocess.run(
        [sys.executable, "-c", "from oxo.cli import run; run()", "count", "9"],
        capture_output=True,
        text=True,
    )
    assert (
        result.returncode == 2
        and "Traceback" not in result.stderr
        and result.stderr.count("\n") == 1
    )


def test_topics_name_exactly_the_commands_of_each_module() -> None:
    import importlib

    from oxo.cli import TOPICS

    for topic, names in TOPICS.items():
        module = importlib.import_module(f"oxo.cli.{topic}")
        assert tuple(command.name for command in module.COMMANDS) == names


def test_a_command_loads_only_its_own_topic() -> None:
    code = (
        "import sys\nfrom oxo.cli import main\nmain(['count', '3x3', '--json'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('oxo.cli.')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    # oxo.cli.limits holds the options of long commands, shared like oxo.cli.common and
    # oxo.cli.options.
    assert result.stdout.splitlines()[-1] == (
        "['oxo.cli.common', 'oxo.cli.core', 'oxo.cli.limits', 'oxo.cli.options']"
    )


# -- files written by the command line ------------------------------------------------------------


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002])
def test_written_files_get_normal_permissions(tmp_path, umask: int) -> None:  # type: ignore[no-untyped-def]
    """--svg, --save, --proof and every other output go through write_atomic: 0644 minus the umask."""
    import os
    import stat

    from oxo.fileio import write_atomic

    old = os.umask(umask)
    try:
        write_atomic(tmp_path / "a.txt", "text\n")
        write_atomic(tmp_path / "b.bin", b"\x00")
        assert main(["show", "xo./.x./...", "--svg", str(tmp_path / "p.svg")]) == 0
    finally:
        os.umask(old)
    for name in ("a.txt", "b.bin", "p.svg"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o644 & ~umask, name
    assert (tmp_path / "a.txt").read_text() == "text\n"
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary file left


def test_proof_certificates_get_normal_permissions(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import os
    import stat

    old = os.umask(0o022)
    try:
        code = main(["solve", "3x4", "--k", "3", "--proof", str(tmp_path / "proofs"), "--quiet"])
    finally:
        os.umask(old)
    files = [p for p in (tmp_path / "proofs").iterdir() if p.is_file()]
    assert code == 0 and files
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o644 for p in files)


# -- cubes: symmetry names and positions recognised by their length ---------------------------------


def _apply_name(name: str, coords: dict[str, int], side: int) -> tuple[int, int, int]:
    """The image (x, y, z) of a cell under a symmetry named like ``(y,-z,x)``: read independently."""
    if name == "identity":
        return coords["x"], coords["y"], coords["z"]
    parts = name.strip("()").split(",")
    image = [side - 1 - coords[p[1]] if p.startswith("-") else coords[p] for p in parts]
    return image[0], image[1], image[2]


@pytest.mark.parametrize("spec", ["2x2x2", "3x3x3"])
def test_cube_symmetries_have_distinct_names_that_say_what_they_do(spec: str) -> None:
    from oxo.geometry import Geometry

    geometry = Geometry.parse(spec)
    side = geometry.shape[0]
    names = [symmetry.name for symmetry in geometry.symmetries]
    assert len(names) == len(set(names)) == 48 and names[0] == "identity"
    assert "(x,y,z)" not in names and "(z,y,x)" in names  # the identity has one name only
    for symmetry in geometry.symmetries:
        for cell in range(geometry.size):
            z, rest = divmod(cell, side * side)
            y, x = divmod(rest, side)
            x2, y2, z2 = _apply_name(symmetry.name, {"x": x, "y": y, "z": z}, side)
            assert symmetry.perm[cell] == (z2 * side + y2) * side + x2, (symmetry.name, cell)


def test_a_cube_position_is_recognised_by_its_length(capsys: pytest.CaptureFixture[str]) -> None:
    from oxo.position import Position

    assert Position.from_string("x" + "." * 26).geometry.shape == (3, 3, 3)
    assert Position.from_string("." * 8).geometry.shape == (2, 2, 2)
    assert Position.from_string("." * 16).geometry.shape == (4, 4)
    code, out, err = run(capsys, "show", "x" + "." * 26)
    assert code == 0 and "48 symmetries" in out
    code, out, err = run(capsys, "classes", "3x3x3")
    assert code == 0 and "(y,x,z) swaps x and y" in out and "(z,y,x)" in out
    code, _, err = run(capsys, "show", "." * 64)  # 8x8 and 4x4x4 both fit: say so
    assert code == 2 and "8x8" in err and "4x4x4" in err and err.count("\n") == 1
    assert run(capsys, "show", "." * 64, "--board", "4x4x4")[0] == 0
    code, _, err = run(capsys, "show", "." * 12)
    assert code == 2 and "3x4" in err and "--board" in err
    # the board read is said (issue 30, item 12)
    code, out, _ = run(capsys, "show", "x.o/...")
    assert code == 0 and "board:          2x3, 2 in a row (read from the text" in out
    code, out, _ = run(capsys, "show", "x........", "--board", "3x3", "--k", "2")
    assert code == 0 and "board:          3x3, 2 in a row\n" in out


# -- the polish of issue 45, item 6 -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "said"),
    [
        ("x...o....", "last move: cell 4"),
        ("xx.oo....", "last move: one of cells 3, 4 (the position does not tell which)"),
    ],
)
def test_check_names_the_last_move(
    capsys: pytest.CaptureFixture[str], position: str, said: str
) -> None:
    from oxo.legality import check_position
    from oxo.position import Position

    code, out, _ = run(capsys, "check", position)
    assert code == 0 and said in out.splitlines()
    cells = check_position(Position.from_string(position)).last_moves  # the library's answer
    assert ("one of" in said) == (len(cells) > 1)


def test_show_writes_complete_lines_as_cells(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "show", "xxxx/oooo/x.../o...", "--board", "4x4")
    assert code == 0 and "complete lines: X: cells 0, 1, 2, 3; O: cells 4, 5, 6, 7" in out


def test_show_of_ultimate_says_where_to_play_and_what_the_board_shows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from oxo.registry import find_game

    code, out, _ = run(capsys, "show", "55 51 15", "--board", "uttt")
    state = find_game("uttt").parse_position("55 51 15")
    assert code == 0 and state.target == 4  # type: ignore[attr-defined]  # a UtttState
    assert "status:  O to move, in grid 5 (the last move, 15, sends O there)" in out
    assert "last:    15, in capitals on the board" in out
    board = out.split("\n\n")[0]
    assert board.count("X") == 1 and "x" in board  # the last move alone in capitals
    assert "key:     x and o are marks, the last move in capitals" in out
    assert "a move:  two digits GC" in out and "\nmoves:" not in out
    code, out, _ = run(capsys, "show", "uttt")
    assert "status:  X to move\n" in out and "last:" not in out  # nothing played yet


@pytest.mark.parametrize(
    "args",
    [
        ["analyze", "3x5", "--k", "4"],
        ["classes", "3x3x3"],
        ["mega", "replay", "55 19"],
        ["uttt", "replay", ""],
        ["show", "55", "--board", "uttt"],
        ["check", "xxx/ooo/..."],
    ],
    ids=" ".join,
)
def test_long_lists_are_broken_in_piped_output_too(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    """A report's lists (every move's value, the symmetries, the legal moves) are broken between
    words to 80 columns in a file or a pipe too, as on a terminal (issue 45, item 6); the words
    are those of the unbroken lines."""
    from oxo.cli import common

    code, out, _ = run(capsys, *args)
    assert code in (0, 1) and max(map(len, out.splitlines())) <= 80, out
    wide = common.PIPE_WIDTH
    try:
        common.PIPE_WIDTH = 10_000  # nothing broken: the same words, in the same order
        code, whole, _ = run(capsys, *args)
    finally:
        common.PIPE_WIDTH = wide
    assert whole.split() == out.split() and max(map(len, whole.splitlines())) > 80
