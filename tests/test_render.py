"""SVG drawings: every drawing is well-formed XML, and what it shows is read back and compared with the
library's own answers (marks, legal moves, complete lines, big markers, the current string, counts)."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from oxo.cli import main
from oxo.counting import count_positions
from oxo.geometry import Geometry
from oxo.mega import MegaState
from oxo.mega.notation import format_move
from oxo.position import Position
from oxo.render import classic_svg, count_chart_svg, mega_svg
from oxo.render.svg import COLORS

NS = "{http://www.w3.org/2000/svg}"

#: A seeded random mega game whose string 6 turns abnormal at move 61 (test_mega_rules.ABNORMAL_MID_STRING).
ABNORMAL_MID_STRING = (
    "39 93 71 17 56 68 44 82 25 34 59 96 13 61 85 22 77 48 94 81 43 65 29 38 12 57 76 47 66 79 35 "
    "21 18 53 92 84 89 46 62 75 37 54 23 91 16 24 87 31 52 73 45 19 98 64 36 95 67 41 74 88 27"
)


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def find(root: ET.Element, css_class: str, tag: str | None = None) -> list[ET.Element]:
    return [
        e for e in root.iter() if css_class in classes(e) and (tag is None or e.tag == f"{NS}{tag}")
    ]


def cell_boxes(
    root: ET.Element, attribute: str = "data-cell"
) -> dict[str, tuple[float, float, float, float]]:
    return {
        e.get(attribute): (
            float(e.get("x")),
            float(e.get("y")),
            float(e.get("width")),
            float(e.get("height")),
        )  # type: ignore[misc, arg-type]
        for e in root.iter(f"{NS}rect")
        if e.get(attribute) is not None and "cell" in classes(e)
    }


def marks_by_cell(
    root: ET.Element, boxes: dict[str, tuple[float, float, float, float]]
) -> dict[str, str]:
    """Which mark (x or o) is drawn inside each cell's box, read from the drawing's geometry."""
    found: dict[str, str] = {}
    big = {id(inner) for marker in find(root, "big-marker") for inner in marker.iter()}
    for element in find(root, "mark"):
        if id(element) in big:
            continue
        if "x" in classes(element):
            lines = list(element.iter(f"{NS}line"))
            cx = (float(lines[0].get("x1")) + float(lines[0].get("x2"))) / 2  # type: ignore[arg-type]
            cy = (float(lines[0].get("y1")) + float(lines[0].get("y2"))) / 2  # type: ignore[arg-type]
            player = "x"
        else:
            cx, cy, player = float(element.get("cx")), float(element.get("cy")), "o"  # type: ignore[arg-type]
        inside = [key for key, (x, y, w, h) in boxes.items() if x < cx < x + w and y < cy < y + h]
        assert len(inside) == 1, f"a mark at ({cx}, {cy}) lies in {len(inside)} cells"
        assert inside[0] not in found, f"two marks in cell {inside[0]}"
        found[inside[0]] = player
    return found


def random_position(geometry: Geometry, rng: random.Random) -> Position:
    position = Position.empty(geometry)
    for _ in range(rng.randrange(geometry.size + 1)):
        if not position.legal_moves:
            break
        position = position.play(rng.choice(position.legal_moves))
    return position


# -- classic boards -----------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["3x3", "4x4", "3x5", "4x4,k=3", "3x3x3", "2x2x2"])
def test_classic_drawing_shows_the_position(spec: str) -> None:
    geometry = Geometry.parse(spec)
    rng = random.Random(spec)
    for _ in range(15):
        position = random_position(geometry, rng)
        root = parse(classic_svg(position, legal=True))
        boxes = cell_boxes(root)
        assert sorted(map(int, boxes)) == list(range(geometry.size))
        drawn = marks_by_cell(root, boxes)
        expected = {str(c): "xo"[s - 1] for c, s in enumerate(position.statuses) if s}
        assert drawn == expected
        legal = {int(e.get("data-cell")) for e in find(root, "legal", "rect")}  # type: ignore[arg-type]
        assert legal == set(position.legal_moves)
        # one thick stroke per complete line, in the owner's colour
        strokes = [e for e in find(root, "line", "polyline")]
        assert len(strokes) == len(position.complete_lines)


def test_classic_cells_do_not_overlap_and_3d_layers_sit_side_by_side() -> None:
    geometry = Geometry.parse("3x3x3")
    root = parse(classic_svg(Position.empty(geometry)))
    boxes = cell_boxes(root)
    for cell, (x, y, w, h) in boxes.items():
        layer, row, col = geometry.coords(int(cell))
        for other, (x2, y2, w2, h2) in boxes.items():
            if other != cell:
                assert x + w <= x2 or x2 + w2 <= x or y + h <= y2 or y2 + h2 <= y
        # same row and column: further right on a later layer; same layer: reading order
        assert boxes[str(geometry.cell_at((0, row, col)))][0] <= x
    labels = [e.text for e in root.iter(f"{NS}text")]
    assert labels == ["layer 1", "layer 2", "layer 3"]
    assert float(root.get("width")) > 3 * float(root.get("height")) - 60  # type: ignore[arg-type]


def test_classic_values_labels_last_move_and_extra_lines() -> None:
    position = Position.from_string("x...o....")
    values = {1: "loss", 2: "draw", 5: "win"}
    root = parse(
        classic_svg(
            position,
            values=values,
            last=4,
            labels=True,
            lines=[((0, 4, 8), "#999")],
            caption="a & b",
        )
    )
    assert {
        int(e.get("data-cell")): e.get("data-value")
        for e in root.iter(f"{NS}rect")
        if e.get("data-value")
    } == values  # type: ignore[arg-type]
    assert sorted(e.text for e in find(root, "value", "text")) == ["draw", "loss", "win"]  # type: ignore[type-var]
    assert len(find(root, "last")) == 1
    dashed = [e for e in find(root, "line", "polyline") if e.get("stroke-dasharray")]
    assert len(dashed) == 1
    texts = [e.text for e in root.iter(f"{NS}text")]
    assert [str(c) for c in range(9)] == texts[:9] and "a & b" in texts


# -- mega ---------------------------------------------------------------------------------------------


def states_to_check() -> list[MegaState]:
    """States along seeded random games, including ones with covered grids, an abnormal current string,
    rule 8 about to apply, and finished games."""
    chosen = [MegaState()]
    rng = random.Random(7)
    flags = {"abnormal": 0, "rule8": 0, "covered": 0, "over": 0}
    for _ in range(40):
        state = MegaState()
        while not state.is_over:
            state.push(rng.choice(state.legal_moves))
            take = rng.random() < 0.04
            if state.current_string.abnormal and flags["abnormal"] < 4:
                flags["abnormal"] += 1
                take = True
            if not state.is_over and state.rule8_applies() and flags["rule8"] < 3:
                flags["rule8"] += 1
                take = True
            if state.covered and flags["covered"] < 3:
                flags["covered"] += 1
                take = True
            if take:
                chosen.append(state.copy())
        if flags["over"] < 4:
            flags["over"] += 1
            chosen.append(state.copy())
    # Abnormal strings are rare in random games (most end first): add a game where one occurs
    # (the record of test_mega_rules.ABNORMAL_MID_STRING, checked there).
    record = ABNORMAL_MID_STRING.split()
    for end in (len(record) - 1, len(record)):
        chosen.append(MegaState.replay(record[:end]))
    assert (
        chosen[-2].rule8_applies()
        and chosen[-1].current_string.abnormal
        and chosen[-1].abnormal_strings
    )
    assert flags["covered"] and flags["over"]
    return chosen


@pytest.fixture(scope="module")
def mega_states() -> list[MegaState]:
    return states_to_check()


def test_mega_drawing_matches_the_rules_engine(mega_states: list[MegaState]) -> None:
    for state in mega_states:
        root = parse(mega_svg(state))
        boxes = cell_boxes(root, "data-move")
        assert sorted(boxes) == sorted(format_move(m) for m in range(81))
        expected = {
            format_move(9 * (g - 1) + c - 1): state.cell(g, c)
            for g in range(1, 10)
            for c in range(1, 10)
        }
        assert marks_by_cell(root, boxes) == {move: mark for move, mark in expected.items() if mark}
        legal = {e.get("data-move") for e in find(root, "legal", "rect")}
        assert legal == {format_move(m) for m in state.legal_moves}
        big = {
            int(e.get("data-grid")): ({"x", "o"} & classes(e)).pop()
            for e in find(root, "big-marker")
        }  # type: ignore[arg-type]
        assert big == state.covered
        string = state.current_string
        played = {int(e.get("data-grid")) for e in find(root, "played", "rect")}  # type: ignore[arg-type]
        assert played == set(string.grids) - set(state.covered)
        used = {e.get("data-move") for e in find(root, "used", "rect")}
        assert used == {
            format_move(9 * (g - 1) + c - 1)
            for g in range(1, 10)
            for c in string.positions
            if g not in state.covered
            and state.cell(g, c) is None
            and 9 * (g - 1) + c - 1 not in state.legal_moves
        }
        frame = find(root, "frame")[0]
        assert ("abnormal" in classes(frame)) == string.abnormal
        captions = [e.text or "" for e in find(root, "caption")]
        assert ("abnormal" in captions[1]) == string.abnormal
        assert any(c.startswith("Abnormal strings") for c in captions) == bool(
            state.abnormal_strings
        )
        last = find(root, "last")
        assert len(last) == (1 if state.moves else 0)


def test_mega_drawing_of_a_finished_game_says_who_won(mega_states: list[MegaState]) -> None:
    finished = [state for state in mega_states if state.is_over]
    assert finished
    for state in finished:
        root = parse(mega_svg(state))
        first = find(root, "caption")[0].text or ""
        winner = state.winner
        assert (
            first.startswith("Draw")
            if winner == "draw"
            else first.startswith(f"{winner.upper()} wins")
        )  # type: ignore[union-attr]
        assert not find(root, "legal")
        strokes = find(root, "line", "polyline")
        if winner == "draw":
            assert not strokes
        else:
            assert strokes and {e.get("stroke") for e in strokes} == {COLORS[winner]}  # type: ignore[index]


# -- charts -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["3x3", "4x4", "2x2"])
def test_count_chart_draws_every_count(spec: str) -> None:
    table = count_positions(Geometry.parse(spec))
    root = parse(count_chart_svg(table))
    bars = find(root, "bar", "rect")
    assert len(bars) == 2 * len(table.plies)
    shown = {}
    for bar in bars:
        kind = "positions" if "positions" in classes(bar) else "classes"
        title = bar.find(f"{NS}title").text  # type: ignore[union-attr]
        number = int(re.search(r": ([\d,]+) ", title).group(1).replace(",", ""))  # type: ignore[union-attr, arg-type]
        shown[(int(bar.get("data-ply")), kind)] = (number, float(bar.get("height")))  # type: ignore[arg-type]
    for row in table.plies:
        assert shown[(row.ply, "positions")][0] == row.positions
        assert shown[(row.ply, "classes")][0] == row.classes
    # on a log scale a larger count has a taller bar
    pairs = sorted(shown.values())
    for (a, ha), (b, hb) in zip(pairs, pairs[1:]):
        assert ha <= hb + 1e-9 or a == b


# -- the CLI ------------------------------------------------------------------------------------------


def test_show_writes_the_same_svg(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    target = tmp_path / "board.svg"
    assert main(["show", "xxx/oo./...", "--svg", str(target)]) == 0
    assert "X has won" in capsys.readouterr().out
    text = target.read_text()
    assert text == classic_svg(Position.from_string("xxx/oo./..."), labels=True) + "\n"
    root = parse(text)
    assert len(find(root, "line", "polyline")) == 1
    assert main(["show", "x........", "--svg", str(tmp_path / "missing" / "b.svg")]) == 2
    assert "cannot write" in capsys.readouterr().err
