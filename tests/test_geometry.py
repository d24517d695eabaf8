"""Geometry: cells, lines, the symmetry group and the classes it induces."""

from __future__ import annotations

import itertools
import math
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oxo.errors import BoardSpecError, OxoError
from oxo.geometry import Geometry, LineCounts, Symmetry, completing_cells, play

BOARDS = ["1x1", "2x2", "3x3", "4x4", "4x4,k=3", "3x5", "3x4", "2x5,k=2", "3x3x3", "2x2x2", "4x4x4"]


def compose(first: tuple[int, ...], then: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(then[first[cell]] for cell in range(len(first)))


@pytest.mark.parametrize("spec", BOARDS)
def test_symmetries_form_a_group(spec: str) -> None:
    geometry = Geometry.parse(spec)
    perms = {symmetry.perm for symmetry in geometry.symmetries}
    identity = tuple(range(geometry.size))
    assert geometry.symmetries[0].perm == identity and geometry.symmetries[0].name == "identity"
    assert len(perms) == len(geometry.symmetries), "symmetries are distinct"
    for a, b in itertools.product(perms, repeat=2):
        assert compose(a, b) in perms, "closure"
    for symmetry in geometry.symmetries:
        assert compose(symmetry.perm, symmetry.inverse_perm) == identity
        assert symmetry.inverse_perm in perms, "inverses"
    assert len({s.name for s in geometry.symmetries}) == len(perms), "names are distinct"


@pytest.mark.parametrize(
    ("spec", "order"),
    [("3x3", 8), ("4x4", 8), ("3x5", 4), ("1x4", 2), ("3x3x3", 48), ("2x3x3", 16), ("1x1", 1)],
)
def test_group_order(spec: str, order: int) -> None:
    assert len(Geometry.parse(spec).symmetries) == order


@pytest.mark.parametrize("spec", BOARDS)
def test_symmetries_carry_lines_onto_lines(spec: str) -> None:
    geometry = Geometry.parse(spec)
    lines = set(geometry.lines)
    for symmetry in geometry.symmetries:
        assert {symmetry.apply_mask(line) for line in lines} == lines


@settings(max_examples=30, deadline=None)
@given(st.permutations(range(21)), st.lists(st.integers(0, (1 << 21) - 1), min_size=1, max_size=8))
def test_a_mask_has_one_image_before_and_after_the_byte_tables(
    perm: list[int], masks: list[int]
) -> None:
    """A symmetry carries a mask cell by cell until its tally says byte tables pay, then by the
    tables: the same image either way, the image of each cell of the mask. Full masks of 21 cells
    (3 bytes) save 3 * 21 - 2 * 3 half lookups a call, so the tables (3 * 3 * 256) come within
    ceil(2304 / 57) calls."""
    symmetry = Symmetry("s", tuple(perm))
    plain = [sum(1 << perm[c] for c in range(21) if mask >> c & 1) for mask in masks]
    early = [symmetry.apply_mask(mask) for mask in masks]
    full = (1 << 21) - 1
    calls = 0
    while "_byte_tables" not in symmetry.__dict__:
        assert symmetry.apply_mask(full) == full
        calls += 1
    assert calls <= math.ceil(3 * 3 * 256 / (3 * 21 - 2 * 3))
    assert early == plain == [symmetry.apply_mask(mask) for mask in masks]


def test_sparse_masks_never_build_the_byte_tables() -> None:
    """Masks of at most 2 cells per 3 bytes would not gain from tables: however many, on
    4x4x4x4 (256 cells, 32 bytes, 384 symmetries) they are carried cell by cell."""
    geometry = Geometry.parse("4x4x4x4")
    symmetry = geometry.symmetries[len(geometry.symmetries) // 2]
    rng = random.Random(7)
    for _ in range(5000):
        cells = rng.sample(range(256), rng.randint(0, 21))
        mask = sum(1 << cell for cell in cells)
        assert symmetry.apply_mask(mask) == sum(1 << symmetry.perm[cell] for cell in cells)
    assert "_byte_tables" not in symmetry.__dict__


def test_named_transforms_of_3x3() -> None:
    geometry = Geometry.parse("3x3")
    # Cell 1 is top middle. Counterclockwise rotation by 90 degrees takes the top row to the left column.
    expected = {
        "identity": (0, 1, 2, 3, 4, 5, 6, 7, 8),
        "rot90": (6, 3, 0, 7, 4, 1, 8, 5, 2),
        "rot180": (8, 7, 6, 5, 4, 3, 2, 1, 0),
        "rot270": (2, 5, 8, 1, 4, 7, 0, 3, 6),
        "mirror0": (6, 7, 8, 3, 4, 5, 0, 1, 2),  # horizontal mirror line: top and bottom swap
        "mirror45": (8, 5, 2, 7, 4, 1, 6, 3, 0),  # the line through cells 6, 4, 2 stays put
        "mirror90": (2, 1, 0, 5, 4, 3, 8, 7, 6),  # vertical mirror line: left and right swap
        "mirror135": (0, 3, 6, 1, 4, 7, 2, 5, 8),  # the line through cells 0, 4, 8 stays put
    }
    assert {s.name: s.perm for s in geometry.symmetries} == expected
    # Seed 000: the three main transformations generate the rest.
    rot90, mirror0, mirror45 = (geometry.symmetry(n).perm for n in ("rot90", "mirror0", "mirror45"))
    generated = {tuple(range(9))}
    while True:
        bigger = generated | {compose(p, g) for p in generated for g in (rot90, mirror0)}
        if bigger == generated:
            break
        generated = bigger
    assert generated == set(expected.values())
    assert mirror45 in generated


def test_rectangle_keeps_only_its_own_symmetries() -> None:
    names = [s.name for s in Geometry.parse("3x5").symmetries]
    assert names == ["identity", "rot180", "mirror0", "mirror90"]


def test_cells_in_reading_order() -> None:
    geometry = Geometry.parse("3x4")
    assert [geometry.coords(c) for c in (0, 3, 4, 11)] == [(0, 0), (0, 3), (1, 0), (2, 3)]
    assert all(geometry.cell_at(geometry.coords(c)) == c for c in geometry.cells)
    cube = Geometry.parse("3x3x3")
    assert cube.coords(13) == (1, 1, 1)


def test_3x3_classes_are_the_seeds() -> None:
    geometry = Geometry.parse("3x3")
    cells = {c.name: c.cells for c in geometry.cell_classes}
    assert cells == {"corner": (0, 2, 6, 8), "middle": (1, 3, 5, 7), "center": (4,)}
    lines = {c.name: set(c.lines) for c in geometry.line_classes}
    assert lines == {
        "diagonal": {(0, 4, 8), (2, 4, 6)},
        "middle": {(3, 4, 5), (1, 4, 7)},
        "side": {(0, 1, 2), (6, 7, 8), (0, 3, 6), (2, 5, 8)},
    }


@pytest.mark.parametrize("spec", BOARDS)
def test_classes_partition_cells_and_lines(spec: str) -> None:
    geometry = Geometry.parse(spec)
    cells = sorted(c for cell_class in geometry.cell_classes for c in cell_class.cells)
    assert cells == list(geometry.cells)
    lines = sorted(line for line_class in geometry.line_classes for line in line_class.lines)
    assert lines == sorted(geometry.line_cells)
    assert len({c.name for c in geometry.cell_classes}) == len(geometry.cell_classes)


def count_lines_by_brute_force(shape: tuple[int, ...], k: int) -> int:
    """Lines as sets of k collinear, equally spaced adjacent cells: pick a start and a step in {-1,0,1}^d."""
    found = set()
    for start in itertools.product(*(range(s) for s in shape)):
        for step in itertools.product((-1, 0, 1), repeat=len(shape)):
            if not any(step):
                continue
            cells = [tuple(a + i * d for a, d in zip(start, step)) for i in range(k)]
            if all(all(0 <= c < s for c, s in zip(cell, shape)) for cell in cells):
                found.add(frozenset(cells))
    return len(found)


@pytest.mark.parametrize(
    "spec",
    [
        "3x3",
        "4x4",
        "4x4,k=3",
        "5x5,k=4",
        "3x5",
        "2x6,k=2",
        "3x3x3",
        "4x4x4",
        "3x3x3,k=2",
        "1x5,k=3",
    ],
)
def test_line_generator_matches_brute_force(spec: str) -> None:
    geometry = Geometry.parse(spec)
    assert len(geometry.lines) == count_lines_by_brute_force(geometry.shape, geometry.k)
    assert all(line.bit_count() == geometry.k for line in geometry.lines)


def test_known_line_counts() -> None:
    assert len(Geometry.parse("3x3").lines) == 8
    assert len(Geometry.parse("3x3x3").lines) == 49
    assert len(Geometry.parse("4x4x4").lines) == 76  # Qubic


@pytest.mark.parametrize(
    ("spec", "shape", "k"),
    [
        ("3x3", (3, 3), 3),
        ("4X4", (4, 4), 4),
        ("4x4,k=3", (4, 4), 3),
        ("3x5", (3, 5), 3),
        ("3x3x3", (3, 3, 3), 3),
        ("mnk(m=5,n=4,k=4)", (4, 5), 4),
        (" 4 x 4 ", (4, 4), 4),
    ],
)
def test_parse(spec: str, shape: tuple[int, ...], k: int) -> None:
    geometry = Geometry.parse(spec)
    assert (geometry.shape, geometry.k) == (shape, k)
    assert Geometry.parse(geometry.spec) == geometry


@pytest.mark.parametrize(
    "spec",
    [
        "",
        "4",
        "4x",
        "x4",
        "2x2x2x2x2x2",
        "0x3",
        "3x3,k=4",
        "abc",
        "mnk(m=3)",
        "3x3,k=0",
        "200x200",
        "4x4,k=3,k=2",
        "4x4,gravit",
        "5x5x5x5",
    ],
)
def test_bad_specs_raise_a_clear_error(spec: str) -> None:
    with pytest.raises(BoardSpecError) as info:
        Geometry.parse(spec)
    assert isinstance(info.value, OxoError) and isinstance(info.value, ValueError)
    assert "\n" not in str(info.value)


def test_k_argument_overrides_and_is_checked() -> None:
    assert Geometry.parse("4x4", k=3).k == 3
    with pytest.raises(BoardSpecError, match="k=5"):
        Geometry.parse("4x4", k=5)


# -- the bit toolkit shared by the counters: symmetry cycles and Burnside's lemma ----------------------


@pytest.mark.parametrize("spec", ["3x3", "4x4", "3x5", "3x3x3"])
def test_symmetry_cycles_are_the_orbits_of_each_cell(spec: str) -> None:
    from oxo.geometry import mask_cells, symmetry_cycles

    geometry = Geometry.parse(spec)
    for symmetry in geometry.symmetries:
        cycles = symmetry_cycles(symmetry)
        assert sum(cycles) == geometry.full_mask  # disjoint and covering
        assert [mask_cells(c)[0] for c in cycles] == sorted(mask_cells(c)[0] for c in cycles)
        for cycle in cycles:
            orbit, cell = set(), mask_cells(cycle)[0]
            while cell not in orbit:  # the slow way: follow the permutation
                orbit.add(cell)
                cell = symmetry.perm[cell]
            assert set(mask_cells(cycle)) == orbit


def test_burnside_classes_of_cells_and_positions() -> None:
    from oxo.geometry import burnside_average, burnside_classes, symmetry_cycles

    geometry = Geometry.parse("3x3")
    order = len(geometry.symmetries)
    # One mark on the board (ply 1): a symmetry fixes the cells that are cycles of length one.
    fixed = [
        [1, sum(1 for c in symmetry_cycles(s) if c.bit_count() == 1)] for s in geometry.symmetries
    ]
    assert burnside_classes(fixed, order) == [1, len(geometry.cell_classes)] == [1, 3]
    with pytest.raises(AssertionError, match="not divisible by 8"):
        burnside_average(9, 8, "nine")


@pytest.mark.parametrize("spec", ["3x3", "4x4,k=3", "2x2x2"])
def test_win_table_agrees_with_the_shift_checker(spec: str) -> None:
    from oxo.legality import has_line

    geometry = Geometry.parse(spec)
    table = geometry.win_table
    assert len(table) == 1 << geometry.size
    assert [has_line(geometry, mask) for mask in range(len(table))] == list(table)
    with pytest.raises(BoardSpecError):
        _ = Geometry.parse("5x5").win_table


@pytest.mark.parametrize("spec", ["3x3", "4x4", "3x3x3", "5x4,k=3"])
def test_completing_cells_matches_a_cell_by_cell_check(spec: str) -> None:
    """Each cell completing_cells names is one a mark there would finish a line with, and no other."""
    import random

    geometry = Geometry.parse(spec)
    rng = random.Random(spec)
    for _ in range(200):
        owners = [rng.choice("xo.") for _ in range(geometry.size)]
        own = sum(1 << c for c, v in enumerate(owners) if v == "x")
        other = sum(1 << c for c, v in enumerate(owners) if v == "o")
        slow = 0
        for cell in range(geometry.size):
            if owners[cell] == ".":
                after = own | 1 << cell
                if any(line >> cell & 1 and line & after == line for line in geometry.lines):
                    slow |= 1 << cell
        assert completing_cells(geometry.lines, own, other) == slow


def test_board_keys_name_the_shape_and_k_first() -> None:
    assert list(Geometry.parse("4x4,k=3").board_keys().items()) == [("board", "4x4"), ("k", 3)]
    assert Geometry.parse("3x3x3").board_keys() == {"board": "3x3x3", "k": 3}


def test_play_marks_the_cell_for_the_side_to_move() -> None:
    assert play(0, 0, 4) == (1 << 4, 0)  # X moves first
    assert play(1 << 4, 0, 0) == (1 << 4, 1)  # then O
    assert play(1 << 4, 1, 8) == (1 << 4 | 1 << 8, 1)


# -- any dimension, and gravity --------------------------------------------------------------------


def grid_automorphisms(shape: tuple[int, ...], keep_height: bool) -> int:
    """How many permutations of the cells keep the grid graph (cells one step apart along one axis
    are neighbours), and with ``keep_height`` every cell's first coordinate: counted by trying every
    image cell by cell, depth first, with no group theory."""
    cells = list(itertools.product(*(range(side) for side in shape)))
    index = {c: i for i, c in enumerate(cells)}
    neighbours = [set() for _ in cells]
    for c in cells:
        for axis in range(len(shape)):
            d = list(c)
            d[axis] += 1
            if tuple(d) in index:
                neighbours[index[c]].add(index[tuple(d)])
                neighbours[index[tuple(d)]].add(index[c])
    order = []  # breadth first, so that each cell after the first has a placed neighbour
    for start in range(len(cells)):
        if start in order:
            continue
        queue = [start]
        while queue:
            cell = queue.pop(0)
            if cell not in order:
                order.append(cell)
                queue += sorted(neighbours[cell] - set(order))
    image = [-1] * len(cells)
    used = [False] * len(cells)

    def extend(depth: int) -> int:
        if depth == len(order):
            return 1
        cell = order[depth]
        found = 0
        for target in range(len(cells)):
            if used[target] or len(neighbours[target]) != len(neighbours[cell]):
                continue
            if keep_height and cells[target][0] != cells[cell][0]:
                continue
            if any(image[n] >= 0 and image[n] not in neighbours[target] for n in neighbours[cell]):
                continue
            image[cell], used[target] = target, True
            found += extend(depth + 1)
            image[cell], used[target] = -1, False
        return found

    return extend(0)


@pytest.mark.parametrize(
    "spec",
    [
        "2x2x2x2",
        "3x3x3",
        "2x3x3",
        "3x3x3,gravity",
        "4x4x4,gravity",
        "6x7,k=4,gravity",
        "3x3,gravity",
        "2x2x2x2,gravity",
        "3x4",
        "2x3x4x4,k=2",
    ],
)
def test_symmetry_counts_match_a_brute_force_search(spec: str) -> None:
    """The symmetries are exactly the maps of the grid that keep neighbours neighbours (and, with
    gravity, every cell at its height), found without the formula."""
    geometry = Geometry.parse(spec)
    assert len(geometry.symmetries) == grid_automorphisms(geometry.shape, geometry.gravity)


@pytest.mark.parametrize(("d", "n"), [(2, 3), (3, 2), (4, 2), (4, 3), (4, 4), (5, 2)])
def test_a_cube_has_the_hyperoctahedral_group(d: int, n: int) -> None:
    geometry = Geometry.parse("x".join([str(n)] * d))
    assert len(geometry.symmetries) == 2**d * math.factorial(d)
    assert len({s.name for s in geometry.symmetries}) == len(geometry.symmetries)


def test_4x4x4x4_has_520_lines_and_its_symmetries_keep_them() -> None:
    geometry = Geometry.parse("4x4x4x4")
    assert (geometry.size, len(geometry.lines), geometry.k) == (256, 520, 4)
    assert len(geometry.lines) == count_lines_by_brute_force(geometry.shape, 4)
    assert len(geometry.lines) == (6**4 - 4**4) // 2  # ((n+2)^d - n^d) / 2, Beck's count
    lines = {frozenset(cells) for cells in geometry.line_cells}
    for symmetry in geometry.symmetries + geometry.inside_out:  # generators of line_symmetries
        assert {frozenset(symmetry.perm[c] for c in line) for line in lines} == lines


def line_automorphisms(geometry: Geometry) -> int:
    """How many permutations of the cells carry lines onto lines: cell by cell, depth first, a cell
    placed only where every pair and every line of placed cells stays a pair on a line and a line."""
    size = geometry.size
    lines = [set(cells) for cells in geometry.line_cells]
    shares = [[False] * size for _ in range(size)]
    for line in lines:
        for a in line:
            for b in line:
                shares[a][b] = True
    line_set = {frozenset(line) for line in lines}
    image = [-1] * size
    used = [False] * size

    def extend(cell: int) -> int:
        if cell == size:
            return 1
        found = 0
        for target in range(size):
            if used[target]:
                continue
            if any(shares[cell][c] != shares[target][image[c]] for c in range(cell)):
                continue
            image[cell], used[target] = target, True
            if all(
                frozenset(image[c] for c in line) in line_set for line in lines if max(line) == cell
            ):
                found += extend(cell + 1)
            image[cell], used[target] = -1, False
        return found

    return extend(0)


@pytest.mark.parametrize(
    ("spec", "count"),
    [
        ("3x3", 8),
        ("4x4", 32),
        ("3x3x3", 48),
        ("4x4,k=3", 8),
        pytest.param("4x4x4", 192, marks=pytest.mark.slow),
    ],
)
def test_inside_out_maps_complete_the_line_automorphisms(spec: str, count: int) -> None:
    """The board's symmetries and its inside-out maps generate every permutation of the cells that
    carries lines onto lines (a brute-force search finds no other)."""
    geometry = Geometry.parse(spec)
    assert len(geometry.line_symmetries) == line_automorphisms(geometry) == count


def test_the_line_groups_are_worked_out_once_for_every_geometry_alike() -> None:
    """Two geometries of one shape, k and gravity, however built, share their inside-out maps,
    line symmetries and frames (each a quarter second's work on 4x4x4x4); other boards do not."""
    parsed = Geometry.parse("4x4x4")
    built = Geometry((4, 4, 4), 4)
    for name in ("inside_out", "line_symmetries", "line_frames"):
        assert getattr(built, name) is getattr(parsed, name)
    assert Geometry((4, 4, 4), 3).line_symmetries is not parsed.line_symmetries
    assert Geometry((4, 4, 4), 3).inside_out == ()


def test_4x4x4x4_line_symmetries() -> None:
    geometry = Geometry.parse("4x4x4x4")
    assert len(geometry.symmetries) == 384 and len(geometry.line_symmetries) == 1536
    assert [s.name for s in geometry.inside_out] == [
        "inside-out(0,2,1,3)",
        "inside-out(1,0,3,2)",
        "inside-out(1,3,0,2)",
        "inside-out(2,0,3,1)",
        "inside-out(2,3,0,1)",
        "inside-out(3,1,2,0)",
    ]
    assert Geometry.parse("4x4x4,gravity").inside_out == ()


@pytest.mark.parametrize("spec", ["3x3", "4x4", "5x5", "3x3x3", "4x4x4", "4x4x4x4", "6x5,k=4"])
def test_line_frames_split_the_line_symmetries_into_the_boards_classes(spec: str) -> None:
    """Every map that keeps lines lines is one frame after one of the board's own symmetries
    (f∘g), in exactly one way: the frames are one of each left coset, the identity first."""
    geometry = Geometry.parse(spec)
    own = {s.perm for s in geometry.symmetries}
    frames = geometry.line_frames
    assert frames[0].is_identity
    assert len(frames) * len(own) == len(geometry.line_symmetries)
    for s in geometry.line_symmetries[:: max(1, len(geometry.line_symmetries) // 50)]:
        holding = [f for f in frames if tuple(f.inverse.perm[t] for t in s.perm) in own]
        assert len(holding) == 1, s.name
    for frame in frames:
        assert tuple(frame.perm[t] for t in frame.inverse.perm) == tuple(geometry.cells)


@pytest.mark.parametrize(
    ("spec", "shape", "k", "gravity", "canonical"),
    [
        ("4x4x4x4", (4, 4, 4, 4), 4, False, "4x4x4x4"),
        ("4x4x4,gravity", (4, 4, 4), 4, True, "4x4x4,gravity"),
        ("4x4x4, k=3, gravity", (4, 4, 4), 3, True, "4x4x4,k=3,gravity"),
        ("6x7,gravity,k=4", (6, 7), 4, True, "6x7,k=4,gravity"),
        ("6x7,k=4,gravity", (6, 7), 4, True, "6x7,k=4,gravity"),
        ("3x3,gravity", (3, 3), 3, True, "3x3,k=3,gravity"),
        ("2x2x2x2x2", (2, 2, 2, 2, 2), 2, False, "2x2x2x2x2"),
    ],
)
def test_parse_any_dimension_and_gravity(
    spec: str, shape: tuple[int, ...], k: int, gravity: bool, canonical: str
) -> None:
    geometry = Geometry.parse(spec)
    assert (geometry.shape, geometry.k, geometry.gravity, geometry.spec) == (
        shape,
        k,
        gravity,
        canonical,
    )
    assert Geometry.parse(geometry.spec) == geometry
    assert Geometry.parse(re.sub(r",?\s*gravity", "", spec), gravity=True) == Geometry(
        shape, k, True
    )


@pytest.mark.parametrize("spec", ["6x7,k=4,gravity", "4x4x4,gravity", "3x2x2x3,gravity"])
def test_playable_cells_are_the_lowest_empty_cell_of_each_column(spec: str) -> None:
    import random

    geometry = Geometry.parse(spec)
    rng = random.Random(spec)
    columns = [geometry.column_cells(c) for c in range(geometry.column_count)]
    assert sorted(c for column in columns for c in column) == list(geometry.cells)
    for column in columns:  # a column stands on the bottom layer and rises one layer at a time
        heights = [geometry.coords(cell)[0] for cell in column]
        assert heights == list(range(geometry.height - 1, -1, -1))
        assert len({geometry.coords(cell)[1:] for cell in column}) == 1
    for _ in range(100):
        filled = [rng.randrange(geometry.height + 1) for _ in columns]
        occupied = sum(1 << cell for column, n in zip(columns, filled) for cell in column[:n])
        slow = sum(1 << column[n] for column, n in zip(columns, filled) if n < len(column))
        assert geometry.playable(occupied) == slow
        assert Geometry(geometry.shape, geometry.k).playable(occupied) == (
            geometry.full_mask & ~occupied
        )


def test_a_move_is_named_by_its_cell_or_with_gravity_by_its_column() -> None:
    """Every cell of a column names the same move with gravity (the column's number from 1, in
    reading order of the footprint, as people type it), and the words say which is meant."""
    score_four = Geometry.parse("4x4x4,gravity")
    for column in range(score_four.column_count):
        names = {score_four.move_name(cell) for cell in score_four.column_cells(column)}
        assert names == {str(column + 1)}
    assert score_four.mark_words("X", 48) == "X in column 1"
    assert score_four.moves_numbered == "columns from 1 in reading order, seen from the top"
    connect_four = Geometry.parse("6x7,k=4,gravity")
    assert connect_four.move_name(38) == "4" and connect_four.move_name(3) == "4"
    assert connect_four.moves_numbered == "columns from 1, left to right"
    hypercube = Geometry.parse("4x4x4x4")
    assert hypercube.move_name(103) == "103" and hypercube.mark_words("O", 7) == "O on 7"
    assert hypercube.moves_numbered == "cells from 0 in reading order"


def test_board_keys_name_gravity() -> None:
    assert Geometry.parse("4x4x4,gravity").board_keys() == {
        "board": "4x4x4",
        "k": 4,
        "gravity": True,
    }


@settings(max_examples=150, deadline=None)
@given(
    spec=st.sampled_from(["3x3", "4x4,k=3", "7x6,k=4", "3x3x3", "4x4x4x4", "9x9,k=5", "2x2x2x2"]),
    seed=st.integers(0, 2**32 - 1),
    marks=st.integers(0, 40),
)
def test_line_counts_answer_what_a_pass_over_the_lines_does(
    spec: str, seed: int, marks: int
) -> None:
    """The counts of marks on every line at once (:class:`LineCounts`), built at once or a mark
    at a time, give the cells completing a line that a pass over the lines finds, for both sides,
    and the lines holding each count."""
    import random

    geometry = Geometry.parse(spec)
    rng = random.Random(seed)
    cells = rng.sample(range(geometry.size), min(marks, geometry.size))
    x = sum(1 << c for c in cells[0::2])
    o = sum(1 << c for c in cells[1::2])
    counted_x = LineCounts(geometry, x)
    counted_o = LineCounts(geometry)
    for cell in cells[1::2]:
        counted_o = counted_o.plus(cell)
    assert counted_o.marks == o and counted_o.planes == LineCounts(geometry, o).planes
    assert counted_x.completing(counted_o) == completing_cells(geometry.lines, x, o)
    assert counted_o.completing(counted_x) == completing_cells(geometry.lines, o, x)
    for count in range(-1, geometry.k + 2):
        expected = sum(
            1 << number
            for number, line in enumerate(geometry.lines)
            if (line & x).bit_count() == count
        )
        assert counted_x.holding(count) == expected, count
    touched = sum(1 << n for n, line in enumerate(geometry.lines) if line & x)
    assert counted_x.touched == touched
