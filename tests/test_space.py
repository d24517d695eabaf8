"""The state space: level sizes against the position counter, rooted spaces against a plain search, lookups."""

from __future__ import annotations

import random

import numpy as np
import pytest

from oxo.counting import count_positions
from oxo.errors import OutOfReachError, PositionError
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.space import MAX_EMPTY, build_space, check_playable, permute_masks

# Every m×n board with m <= n <= 4 and every k, 4×4 apart (slow).
SMALL = [
    f"{m}x{n},k={k}"
    for n in range(1, 5)
    for m in range(1, n + 1)
    for k in range(1, n + 1)
    if (m, n) != (4, 4)
]


def reachable_by_search(root: Position) -> list[set[tuple[int, int]]]:
    """Positions reachable from ``root``, per number of marks added, by breadth-first search over Position objects."""
    levels = [{(root.x, root.o)}]
    frontier = [root]
    while frontier:
        following = {}
        for position in frontier:
            for cell in position.legal_moves:
                child = position.play(cell)
                following[(child.x, child.o)] = child
        if following:
            levels.append(set(following))
        frontier = list(following.values())
    return levels


def space_sets(space) -> list[set[tuple[int, int]]]:  # type: ignore[no-untyped-def]
    out = []
    for depth, level in enumerate(space.levels):
        out.append({(p.x, p.o) for p in (space.position(depth, row) for row in range(len(level)))})
    return out


@pytest.mark.parametrize("spec", SMALL)
def test_levels_match_position_counter(spec: str) -> None:
    geometry = Geometry.parse(spec)
    space = build_space(geometry)
    assert space.counts() == [row.positions for row in count_positions(geometry).plies]


@pytest.mark.slow
@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_levels_match_position_counter_4x4(k: int) -> None:
    # Held to the pair counter for every k: with k = 1 the 16 lines are single cells, and the lines
    # method sums over 2^16 sets of them (7 s against 0.2 s; ``auto`` picks pairs there too since
    # it weighs lines against cells); the two counters are held to each other in test_counting
    # (2x2 with k = 1 among them).
    geometry = Geometry.parse("4x4", k)
    assert build_space(geometry).counts() == [
        row.positions for row in count_positions(geometry, "pairs").plies
    ]


@pytest.mark.parametrize("spec", ["3x3", "2x4", "3x3,k=2", "2x3,k=2"])
def test_space_holds_exactly_the_reachable_positions(spec: str) -> None:
    root = Position.empty(Geometry.parse(spec))
    space = build_space(root)
    by_search = reachable_by_search(root)
    found = space_sets(space)
    assert [s for s in found if s] == by_search


def random_position(geometry: Geometry, marks: int, rng: random.Random) -> Position:
    """A random position reached by random play, backing off if the game ends early."""
    while True:
        position = Position.empty(geometry)
        for _ in range(marks):
            if position.is_terminal:
                break
            position = position.play(rng.choice(position.legal_moves))
        if position.ply == marks and not position.is_terminal:
            return position


@pytest.mark.parametrize(
    "spec,marks", [("3x3", 3), ("3x4", 5), ("4x5,k=4", 12), ("5x5,k=4", 17), ("3x5", 7)]
)
def test_rooted_space_matches_search(spec: str, marks: int) -> None:
    rng = random.Random(7)
    geometry = Geometry.parse(spec)
    for _ in range(3):
        root = random_position(geometry, marks, rng)
        space = build_space(root)
        assert [s for s in space_sets(space) if s] == reachable_by_search(root)
        assert space.locate(root) == (0, 0)


def test_locate_and_position_round_trip() -> None:
    space = build_space(Geometry.parse("3x3"))
    for depth, level in enumerate(space.levels):
        assert np.all(np.diff(level.index) > 0)  # sorted, no duplicates
        for row in range(0, len(level), 37):
            position = space.position(depth, row)
            assert space.locate(position) == (depth, row)
            assert position in space
    assert Position.from_string("xxx/ooo/oxx") not in space  # both players have a line
    assert Position.from_string("xxx/oo./..o") not in space  # play went on after a win
    assert space.locate(Position.empty(Geometry.parse("4x4"))) is None


def test_children_are_in_the_next_level() -> None:
    space = build_space(Geometry.parse("3x3"))
    for depth in range(space.empty_count):
        following = set(space.levels[depth + 1].index.tolist())
        reached: set[int] = set()
        for cell in range(space.empty_count):
            rows, children = space.children(depth, cell)
            reached.update(children.tolist())
            for row, child in list(zip(rows.tolist(), children.tolist(), strict=True))[:5]:
                parent = space.position(depth, row)
                assert space.local_index(parent.play(cell)) == (depth + 1, child)
        assert reached == following


def test_global_masks_and_terminal_flags() -> None:
    root = Position.from_string("x.o/.x./...")
    space = build_space(root)
    for depth in range(len(space.levels)):
        x, o = space.global_masks(depth)
        terminal = space.terminal(depth)
        for row in range(len(space.levels[depth])):
            position = space.position(depth, row)
            assert (int(x[row]), int(o[row])) == (position.x, position.o)
            assert bool(terminal[row]) == position.is_terminal


def test_permute_masks_agrees_with_symmetry() -> None:
    geometry = Geometry.parse("4x4")
    rng = np.random.default_rng(3)
    masks = rng.integers(0, 1 << 16, size=200, dtype=np.uint64)
    for symmetry in geometry.symmetries:
        images = permute_masks(masks, symmetry.perm)
        assert images.tolist() == [symmetry.apply_mask(int(m)) for m in masks]


def test_limits_and_bad_roots() -> None:
    with pytest.raises(OutOfReachError, match="at most 16"):
        build_space(Geometry.parse("5x5"))
    assert MAX_EMPTY == 16
    with pytest.raises(PositionError, match="X moves first"):
        build_space(Position.from_string("oo......."))
    with pytest.raises(PositionError, match="both players"):
        check_playable(Position.from_string("xxxooo..."))
    with pytest.raises(PositionError, match="did not make the last move"):
        check_playable(Position.from_string("ooo.xx.xx"))


def test_finished_root() -> None:
    space = build_space(Position.from_string("xxxoo...."))
    assert space.counts() == [1, 0, 0, 0, 0]
    assert space.terminal(0).tolist() == [True]
    full = build_space(Position.from_string("xoxxoooxx"))
    assert full.counts() == [1] and full.empty_count == 0
