"""The symmetries a proof treats as one: the board's own and, on some boards, more.

A certificate's checker knows only the board's own symmetries (rotations and reflections). A
search may know more: on a box whose lines run from side to side (n x n, or n x n x n, with k = n,
such as Qubic's 4x4x4), one permutation of the coordinates' values 0..n-1 applied to every
coordinate at once can carry every line onto a line without being a rigid motion (on Qubic it
swaps the inner and the outer layers; it makes 192 symmetries of the 48). Positions such a
permutation carries onto each other have the same value, so a search and a split run keep one of
them, and a certificate gets the strategy of the other carried over (:class:`Classes`).
"""

from __future__ import annotations

from oxo.geometry import Geometry, Symmetry


def search_symmetries(geometry: Geometry) -> list[tuple[int, ...]]:
    """The cell permutations a search treats as the same position: the board's symmetries first
    (the identity first of all), then, on the boxes above, the permutations that map the lines onto
    lines without being rigid motions (:attr:`oxo.geometry.Geometry.line_symmetries`)."""
    return [symmetry.perm for symmetry in geometry.line_symmetries]


class Classes:
    """Classes of positions under the symmetries a search uses (:func:`search_symmetries`).

    :meth:`key` is the class's key, ``X << cells | O`` of its least image; on a board with no more
    symmetries than its own it is the key of the board's own classes."""

    def __init__(self, geometry: Geometry) -> None:
        self.geometry = geometry
        self.symmetries = [
            Symmetry(f"s{index}", perm) for index, perm in enumerate(search_symmetries(geometry))
        ]
        #: How many of them are the board's own (they come first).
        self.rigid = len(geometry.symmetries)

    def __len__(self) -> int:
        return len(self.symmetries)

    def key(self, x: int, o: int) -> int:
        """The key of the class of the position (x, o)."""
        return self._least(x, o, self.symmetries)

    def rigid_key(self, x: int, o: int) -> int:
        """The key of the position's class under the board's own symmetries (a checker's)."""
        return self._least(x, o, self.symmetries[: self.rigid])

    def _least(self, x: int, o: int, symmetries: list[Symmetry]) -> int:
        best = min((s.apply_mask(x), s.apply_mask(o)) for s in symmetries)
        return best[0] << self.geometry.size | best[1]

    def carrying(self, source: tuple[int, int], target: tuple[int, int]) -> tuple[int, ...]:
        """A permutation of the cells that carries the position ``source`` onto ``target`` (both
        (x, o)); ValueError when none does."""
        for symmetry in self.symmetries:
            if (symmetry.apply_mask(source[0]), symmetry.apply_mask(source[1])) == target:
                return symmetry.perm
        raise ValueError("the positions are not in one class")
