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

from collections.abc import Sequence

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


def extra_generators(geometry: Geometry) -> list[tuple[int, ...]]:
    """A few of :func:`search_symmetries` beyond the board's own that generate them all with the
    board's symmetries (none on most boards; two on Qubic): what a certificate's header lists so
    that its checker knows the search's classes (``symmetries``, :mod:`oxo.proofs.certificate`)."""
    group = search_symmetries(geometry)
    own = len(geometry.symmetries)
    known = set(group[:own])
    chosen: list[tuple[int, ...]] = []
    for perm in group[own:]:
        if perm in known:
            continue
        chosen.append(perm)
        elements = list(known)
        queue = list(elements)
        generators = [symmetry.perm for symmetry in geometry.symmetries] + chosen
        while queue:  # the closure of what is known under every generator
            element = queue.pop()
            for generator in generators:
                product = tuple(generator[cell] for cell in element)
                if product not in known:
                    known.add(product)
                    queue.append(product)
        if len(known) == len(group):
            break
    return chosen


def canonical(symmetries: Sequence[Symmetry], size: int, x: int, o: int) -> tuple[int, Symmetry]:
    """The key of the class of the position (x, o) under ``symmetries`` (``X << size | O`` of its
    least image, X's marks compared first) and a symmetry that carries the position there."""
    images = [symmetry.apply_mask(x) for symmetry in symmetries]
    least = min(images)
    best_o = -1
    best = symmetries[0]
    for symmetry, image in zip(symmetries, images, strict=True):
        if image == least:
            image_o = symmetry.apply_mask(o)
            if best_o < 0 or image_o < best_o:
                best_o, best = image_o, symmetry
    return least << size | best_o, best
