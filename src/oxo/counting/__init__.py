"""Reachable positions per ply, with and without symmetric duplicates (seed 001's table).

A position is *reachable* when it occurs in some game played from the empty board, players
alternating and play stopping at a win. Two methods give the same table:

* ``"search"`` (:mod:`oxo.counting.reference`): walk the game tree ply by ply, keeping every
  position and its canonical form. Obviously correct, slow; the tests' reference.
* ``"pairs"`` (:mod:`oxo.counting.pairs`): count without visiting positions. A position with X's
  cells X and O's cells O is reachable exactly when either |X| = |O| + 1, O has no line and X's lines
  (if any) share a cell, or |X| = |O|, X has no line and O's lines (if any) share a cell. (The last
  mover's common cell is the last move; everything before it is line-free, so any order of the
  earlier marks is a game.) Classes come from Burnside's lemma: the average over the symmetry group
  of the number of reachable positions each symmetry fixes, which are counted the same way with the
  symmetry's cycles of cells in place of single cells.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from oxo.errors import OxoError
from oxo.geometry import Geometry, Symmetry

Method = Literal["auto", "pairs", "search"]
METHODS: tuple[str, ...] = ("auto", "pairs", "search")

#: Above this many cells (per shard) the pair counter splits its work into shards.
SHARD_CELLS = 20


class CountingError(OxoError):
    """A count was asked for with an unknown method or on a board the method cannot handle."""


@dataclass(frozen=True)
class PlyCount:
    """Reachable positions after ``ply`` marks, and their number up to symmetry."""

    ply: int
    positions: int
    classes: int

    def to_dict(self) -> dict[str, int]:
        return {"ply": self.ply, "positions": self.positions, "classes": self.classes}


@dataclass(frozen=True)
class CountTable:
    """Seed 001's table for one board: reachable positions and symmetry classes per ply."""

    geometry: Geometry
    plies: tuple[PlyCount, ...]
    method: str

    @property
    def total_positions(self) -> int:
        return sum(row.positions for row in self.plies)

    @property
    def total_classes(self) -> int:
        return sum(row.classes for row in self.plies)

    def to_dict(self) -> dict[str, object]:
        return {
            "board": self.geometry.spec_shape,
            "k": self.geometry.k,
            "plies": [row.to_dict() for row in self.plies],
            "total": {"positions": self.total_positions, "classes": self.total_classes},
        }


def count_positions(
    geometry: Geometry,
    method: Method = "auto",
    *,
    on_progress: Callable[[float], None] | None = None,
) -> CountTable:
    """Reachable positions and symmetry classes per ply for a board.

    ``on_progress`` is called with fractions of the work done (for a progress bar).
    """
    if method not in METHODS:
        raise CountingError(f"unknown counting method {method!r}; use one of {', '.join(METHODS)}")
    if method == "search":
        from oxo.counting.reference import count_by_search

        positions, classes = count_by_search(geometry)
        used = "search"
    else:
        positions, classes = count_by_pairs(geometry, on_progress=on_progress)
        used = "pairs"
    rows = tuple(PlyCount(ply, positions[ply], classes[ply]) for ply in range(geometry.size + 1))
    return CountTable(geometry, rows, used)


def symmetry_cycles(symmetry: Symmetry) -> list[int]:
    """The cycles of a symmetry's cell permutation, as bitmasks, ordered by their least cell."""
    seen = 0
    cycles = []
    for start in range(len(symmetry.perm)):
        if seen >> start & 1:
            continue
        cycle, cell = 0, start
        while not cycle >> cell & 1:
            cycle |= 1 << cell
            cell = symmetry.perm[cell]
        seen |= cycle
        cycles.append(cycle)
    return cycles


def count_by_pairs(
    geometry: Geometry,
    *,
    on_progress: Callable[[float], None] | None = None,
) -> tuple[list[int], list[int]]:
    """Positions and classes per ply (index = ply), by pair counting and Burnside's lemma."""
    from oxo.counting.pairs import LinePredicates, count_pairs

    predicates = LinePredicates(geometry.lines, geometry.full_mask)
    symmetries = geometry.symmetries
    block_sets = [symmetry_cycles(symmetry) for symmetry in symmetries]
    splits = [max(0, len(blocks) - SHARD_CELLS) for blocks in block_sets]
    total_shards = sum(2 * (1 << split) for split in splits)
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if on_progress is not None:
            on_progress(done / total_shards)

    fixed_by_symmetry = []
    for blocks, split in zip(block_sets, splits, strict=True):
        x_last = count_pairs(blocks, predicates.shared, predicates.free, 1, split=split, on_shard=step)
        o_last = count_pairs(blocks, predicates.free, predicates.shared, 0, split=split, on_shard=step)
        fixed_by_symmetry.append([int(a) + int(b) for a, b in zip(x_last, o_last, strict=True)])
    positions = fixed_by_symmetry[0]  # the identity fixes everything
    classes = []
    order = len(symmetries)
    for ply in range(geometry.size + 1):
        burnside_sum = sum(fixed[ply] for fixed in fixed_by_symmetry)
        if burnside_sum % order:
            raise AssertionError(f"Burnside's sum {burnside_sum} at ply {ply} is not divisible by {order}")
        classes.append(burnside_sum // order)
    return positions, classes
