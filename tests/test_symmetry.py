"""The symmetries a proof search uses, and the classes of positions they make."""

from __future__ import annotations

import random

import pytest

from oxo.geometry import Geometry
from oxo.proofs.symmetry import Classes, search_symmetries


def test_search_symmetries_carry_lines_onto_lines() -> None:
    """Qubic's 192 (and 4x4's 32) permutations are a group of line automorphisms that contains the
    board's own symmetries first; boards whose lines are shorter than a side get their own only."""
    expected = {"4x4x4": 192, "4x4": 32, "5x5,k=5": 32, "3x3x3": 48, "7x7,k=5": 8, "3x3": 8}
    for spec, size in expected.items():
        geometry = Geometry.parse(spec)
        perms = search_symmetries(geometry)
        assert len(perms) == len(set(perms)) == size
        assert perms[: len(geometry.symmetries)] == [s.perm for s in geometry.symmetries]
        lines = set(geometry.lines)
        for perm in perms:
            images = {
                sum(1 << perm[c] for c in range(geometry.size) if line >> c & 1) for line in lines
            }
            assert images == lines
        composed = {tuple(a[b[c]] for c in range(geometry.size)) for a in perms for b in perms}
        assert composed == set(perms)  # closed: a group


@pytest.mark.parametrize("spec", ["3x3", "4x5,k=4", "3x3x3"])
def test_without_more_symmetries_the_classes_are_the_boards_own(spec: str) -> None:
    geometry = Geometry.parse(spec)
    classes = Classes(geometry)
    assert len(classes) == classes.rigid  # no symmetry beyond the board's own
    rng = random.Random(spec)
    for _ in range(30):
        cells = rng.sample(range(geometry.size), rng.randrange(geometry.size // 2))
        x = sum(1 << c for c in cells[::2])
        o = sum(1 << c for c in cells[1::2])
        least = min((s.apply_mask(x), s.apply_mask(o)) for s in geometry.symmetries)
        assert classes.key(x, o) == classes.rigid_key(x, o) == least[0] << geometry.size | least[1]


@pytest.mark.parametrize("spec", ["4x4", "4x4x4"])
def test_a_corner_and_an_inner_cell_are_one_class_that_the_boards_symmetries_split(
    spec: str,
) -> None:
    geometry = Geometry.parse(spec)
    classes = Classes(geometry)
    corner = 0
    inner = geometry.cell_at((1,) * len(geometry.shape))
    assert len(classes) > classes.rigid  # symmetries the board's own do not give
    assert classes.key(1 << corner, 0) == classes.key(1 << inner, 0)
    assert classes.rigid_key(1 << corner, 0) != classes.rigid_key(1 << inner, 0)
    with pytest.raises(ValueError):
        classes.carrying((1 << corner, 1 << 2), (1 << inner, 0))
    perm = classes.carrying((1 << corner, 0), (1 << inner, 0))
    assert perm[corner] == inner
    lines = set(geometry.lines)
    assert {sum(1 << perm[c] for c in range(geometry.size) if line >> c & 1) for line in lines} == (
        lines
    )
