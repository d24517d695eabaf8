"""Board geometry: cells, lines (alignments) and the symmetry group of a box of any dimension.

A :class:`Geometry` is built once from a spec such as ``"3x3"``, ``"4x4"`` with ``k=3``, ``"3x5"``,
``"3x3x3"``, ``"4x4x4x4"`` or ``"4x4x4,gravity"`` and derives everything else: cell IDs in reading
order (seed 000), every line of ``k`` cells in every direction as a bitmask, the board's symmetries
as cell permutations, and the classes of cells and of lines under those symmetries. Nothing is
special-cased for 3×3, for three dimensions or for gravity.

*Gravity* is a parameter of the shape: with it, the cells are stacked in *columns* along the first
axis (the rows of a flat board, the layers of a box; index 0 is the top, as the top row is row 0 in
reading order), and a mark drops to the lowest empty cell of its column. So ``6x7,k=4,gravity`` is
Connect Four (7 columns of 6), ``4x4x4,gravity`` is Score Four (16 columns of 4). Gravity keeps the
lines and keeps only the symmetries that leave every cell at its height.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from oxo.errors import BoardSpecError, UnsupportedError

#: Largest number of cells a geometry may have (19x19, the biggest board gomoku is played on).
MAX_CELLS = 361
#: Most axes a box may have (a 5-cube has 2^5 * 5! = 3840 symmetries).
MAX_DIMENSIONS = 5

_SPEC_FORMS = (
    "MxN (e.g. 3x3, 4x4, 3x5), a box of up to 5 sides (3x3x3, 4x4x4x4), optionally with ',k=K' "
    "and ',gravity', or mnk(m=M,n=N,k=K)"
)


@dataclass(frozen=True)
class Symmetry:
    """One symmetry of a board: a permutation of its cells, with a name.

    ``perm[c]`` is the cell that cell ``c`` is carried to. On square boards the names are seed
    000's: ``identity``, ``rot90``/``rot180``/``rot270`` (counterclockwise rotations) and
    ``mirror0``/``mirror45``/``mirror90``/``mirror135`` (reflections in a mirror line at that angle,
    measured counterclockwise from the horizontal).
    """

    name: str
    perm: tuple[int, ...]

    def __call__(self, cell: int) -> int:
        return self.perm[cell]

    @cached_property
    def inverse_perm(self) -> tuple[int, ...]:
        """``inverse_perm[c]`` is the cell carried to ``c``."""
        inverse = [0] * len(self.perm)
        for source, target in enumerate(self.perm):
            inverse[target] = source
        return tuple(inverse)

    @cached_property
    def _bytes(self) -> int:
        return (len(self.perm) + 7) // 8

    @cached_property
    def _byte_tables(self) -> tuple[tuple[int, ...], ...]:
        # For each group of 8 cells, the image of every subset of it: masks map in a few lookups.
        tables = []
        for base in range(0, len(self.perm), 8):
            width = min(8, len(self.perm) - base)
            table = [0] * (1 << width)
            for subset in range(1, 1 << width):
                low = subset & -subset
                table[subset] = table[subset ^ low] | 1 << self.perm[base + low.bit_length() - 1]
            tables.append(tuple(table))
        return tuple(tables)

    def apply_mask(self, mask: int) -> int:
        """The image of a set of cells given as a bitmask.

        A mask is carried either cell by cell or, with tables of every byte's images (256 entries
        for each 8 cells), a byte at a time. The tables are built once the masks seen so far would
        have paid for them: each call adds what the tables would have saved on it (in half
        lookups: three per cell carried, less two per byte looked up), and the tables are built
        when that tally reaches what they cost (three per entry). A symmetry asked a few times (a
        run's status on 4x4x4x4, with its thousands of symmetries), or only about sparse masks,
        never pays for them."""
        state = self.__dict__  # frozen: the tally lives beside cached_property's values
        if "_byte_tables" not in state:
            size = self._bytes
            saved = state.get("_saved", 0) + 3 * mask.bit_count() - 2 * size
            state["_saved"] = saved if saved > 0 else 0
            if saved < 3 * (size << 8):
                image, perm = 0, self.perm
                while mask:
                    low = mask & -mask
                    image |= 1 << perm[low.bit_length() - 1]
                    mask ^= low
                return image
        image = 0
        for table in self._byte_tables:
            image |= table[mask & 0xFF]
            mask >>= 8
        return image

    @property
    def is_identity(self) -> bool:
        return all(source == target for source, target in enumerate(self.perm))

    @cached_property
    def inverse(self) -> Symmetry:
        """The symmetry that undoes this one (named ``NAME⁻¹``; the identity is its own)."""
        if self.is_identity:
            return self
        return Symmetry(f"{self.name}⁻¹", self.inverse_perm)


@dataclass(frozen=True)
class CellClass:
    """A class of cells that the board's symmetries carry onto each other (an orbit)."""

    name: str
    cells: tuple[int, ...]


@dataclass(frozen=True)
class LineClass:
    """A class of lines (alignments) that the board's symmetries carry onto each other."""

    name: str
    lines: tuple[tuple[int, ...], ...]


@dataclass(frozen=True)
class Geometry:
    """The shape of a board and everything derived from it.

    ``shape`` is ``(rows, columns)`` for a flat board, ``(layers, rows, columns)`` for a box, and
    one more axis in front for each further dimension (``(blocks, layers, rows, columns)``);
    ``k`` is how many marks in a row win; ``gravity`` makes marks drop along the first axis (see the
    module's text). Cells are numbered 0..N-1 in reading order (the last axis fastest: each row left
    to right, rows top to bottom, layer by layer).
    """

    shape: tuple[int, ...]
    k: int
    gravity: bool = False
    _lines: tuple[int, ...] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "shape", tuple(self.shape))
        if not 2 <= len(self.shape) <= MAX_DIMENSIONS or any(side < 1 for side in self.shape):
            raise BoardSpecError(
                f"a board has 2 to {MAX_DIMENSIONS} sides of at least 1 cell, got {self.shape}; "
                f"use {_SPEC_FORMS}"
            )
        size = 1
        for side in self.shape:
            size *= side
        if size > MAX_CELLS:
            raise BoardSpecError(
                f"a board of {size} cells is too large: at most {MAX_CELLS} cells are supported"
            )
        if not 1 <= self.k <= max(self.shape):
            raise BoardSpecError(
                f"k={self.k} does not fit a {self.spec_shape} board: k must be between 1 and {max(self.shape)}"
            )
        object.__setattr__(self, "_lines", _make_lines(self.shape, self.k))

    # -- construction -------------------------------------------------------------------------

    @staticmethod
    def parse(spec: str, k: int | None = None, gravity: bool = False) -> Geometry:
        """Build a geometry from a spec such as ``"4x4"``, ``"4x4,k=3"``, ``"3x3x3"``, ``"4x4x4x4"``,
        ``"4x4x4,gravity"`` or ``"mnk(m=4,n=4,k=3)"``.

        ``k`` given here overrides one in the spec; by default it is the shortest side. ``gravity``
        adds gravity to a spec without it.
        """
        text = spec.strip().lower() if isinstance(spec, str) else spec
        geometry = _parse(text, k)
        if gravity and not geometry.gravity:
            return Geometry(geometry.shape, geometry.k, True)
        return geometry

    # -- naming --------------------------------------------------------------------------------

    @property
    def spec_shape(self) -> str:
        """The shape alone, as in ``4x4``."""
        return "x".join(str(side) for side in self.shape)

    def board_keys(self) -> dict[str, object]:
        """The board as the first keys of a ``--json`` result: its shape and k (``{"board": "4x4",
        "k": 3}``, and ``"gravity": true`` with gravity), so that every result names its board alike."""
        keys: dict[str, object] = {"board": self.spec_shape, "k": self.k}
        if self.gravity:
            keys["gravity"] = True
        return keys

    @property
    def default_k(self) -> int:
        return min(self.shape)

    @property
    def spec(self) -> str:
        """A spec that parses back to this geometry: the shape, plus ``,k=K`` when k is not the
        default, plus ``,gravity`` with gravity (a flat gravity board always names its k, as
        ``6x7,k=4,gravity``)."""
        if self.gravity:
            if self.dimensions == 2 or self.k != self.default_k:
                return f"{self.spec_shape},k={self.k},gravity"
            return f"{self.spec_shape},gravity"
        return self.spec_shape if self.k == self.default_k else f"{self.spec_shape},k={self.k}"

    def __str__(self) -> str:
        return self.spec

    # -- cells ---------------------------------------------------------------------------------

    @property
    def dimensions(self) -> int:
        return len(self.shape)

    @cached_property
    def size(self) -> int:
        """The number of cells, N."""
        size = 1
        for side in self.shape:
            size *= side
        return size

    @property
    def cells(self) -> range:
        return range(self.size)

    @property
    def full_mask(self) -> int:
        return (1 << self.size) - 1

    def coords(self, cell: int) -> tuple[int, ...]:
        """The coordinates of a cell, most significant first: ``(row, column)`` or ``(layer, row, column)``."""
        if not 0 <= cell < self.size:
            raise BoardSpecError(
                f"cell {cell} is not on a {self.spec_shape} board: cells are 0..{self.size - 1}"
            )
        out = []
        for side in reversed(self.shape):
            cell, rest = divmod(cell, side)
            out.append(rest)
        return tuple(reversed(out))

    def cell_at(self, coords: Sequence[int]) -> int:
        """The cell ID at the given coordinates (the inverse of :meth:`coords`)."""
        cell = 0
        for coordinate, side in zip(coords, self.shape, strict=True):
            if not 0 <= coordinate < side:
                raise BoardSpecError(f"coordinates {coords} are off a {self.spec_shape} board")
            cell = cell * side + coordinate
        return cell

    # -- lines ---------------------------------------------------------------------------------

    @property
    def lines(self) -> tuple[int, ...]:
        """Every line of k cells (horizontal, vertical, diagonal, and in 3D the space diagonals), as bitmasks."""
        return self._lines

    @cached_property
    def line_cells(self) -> tuple[tuple[int, ...], ...]:
        """The lines as sorted tuples of cell IDs, in the order of :attr:`lines`."""
        return tuple(mask_cells(line) for line in self._lines)

    @cached_property
    def win_table(self) -> tuple[bool, ...]:
        """``win_table[mask]``: whether the set of cells ``mask`` holds a complete line, for every
        mask (boards of at most 16 cells; the grids of mega and ultimate tic-tac-toe look wins up here)."""
        if self.size > 16:
            raise BoardSpecError(
                f"a win table lists every set of cells: at most 16 cells, not {self.size}"
            )
        return tuple(
            any(mask & line == line for line in self._lines) for mask in range(1 << self.size)
        )

    @cached_property
    def lines_through(self) -> tuple[tuple[int, ...], ...]:
        """For each cell, the lines (as bitmasks) that contain it."""
        return tuple(
            tuple(line for line in self._lines if line >> cell & 1) for cell in range(self.size)
        )

    @cached_property
    def cell_line_numbers(self) -> tuple[int, ...]:
        """For each cell, the lines through it as a set of line numbers (bit i: ``lines[i]``),
        what :class:`LineCounts` adds up."""
        return tuple(
            sum(1 << number for number, line in enumerate(self._lines) if line >> cell & 1)
            for cell in range(self.size)
        )

    def neighbourhood(self, radius: int) -> tuple[int, ...]:
        """For each cell, the mask of the cells at most ``radius`` steps away in every direction
        (the cell itself excluded): where engines look for moves on boards too big to try every cell."""
        return _neighbourhoods(self.shape, radius)

    # -- gravity -------------------------------------------------------------------------------

    @property
    def height(self) -> int:
        """Cells in a column: the first side (with gravity; a column without gravity is the same)."""
        return self.shape[0]

    @property
    def footprint(self) -> tuple[int, ...]:
        """The shape of the columns' feet: every side but the first (``(4, 4)`` on Score Four)."""
        return self.shape[1:]

    @cached_property
    def column_count(self) -> int:
        """How many columns the board has (7 on Connect Four, 16 on Score Four)."""
        return self.size // self.shape[0]

    @cached_property
    def bottom_mask(self) -> int:
        """The lowest cell of every column (the last layer in reading order)."""
        return ((1 << self.column_count) - 1) << (self.size - self.column_count)

    def column_of(self, cell: int) -> int:
        """The column a cell stands in, numbered from 0 in reading order of the footprint."""
        return cell % self.column_count

    def column_cells(self, column: int) -> tuple[int, ...]:
        """The cells of a column from the bottom up."""
        count = self.column_count
        return tuple(range(self.size - count + column, -1, -count))

    def playable(self, occupied: int) -> int:
        """The cells a mark may go to when ``occupied`` holds the marks: every empty cell without
        gravity; with it, the lowest empty cell of each column that is not full."""
        empty = self.full_mask & ~occupied
        if not self.gravity:
            return empty
        return empty & (occupied >> self.column_count | self.bottom_mask)

    def floating(self, occupied: int) -> int:
        """The marks of ``occupied`` above an empty cell of their column (none without gravity): no
        game of a gravity board has them."""
        if not self.gravity:
            return 0
        return occupied & ~self.bottom_mask & ~(occupied >> self.column_count)

    def refuse_gravity(self, what: str) -> None:
        """Raise :class:`UnsupportedError` on a board with gravity: ``what`` (a question of the
        classic boards, which lets a mark go to any empty cell) would answer another game."""
        if self.gravity:
            raise UnsupportedError(
                f"{what} lets a mark go to any empty cell, so it does not answer {self.spec}, "
                "where marks drop down their column; oxo play, selfplay, move and show work on it"
            )

    def column_name(self, column: int) -> str:
        """A column as people write it: its number from 1, in reading order of the footprint."""
        return str(column + 1)

    def move_name(self, cell: int) -> str:
        """A move to ``cell`` as people type it: the cell's number; with gravity, its column's."""
        return self.column_name(self.column_of(cell)) if self.gravity else str(cell)

    def mark_words(self, side: str, cell: int) -> str:
        """A mark in words, ``X on 48``; with gravity, where people see it, ``X in column 1``."""
        if self.gravity:
            return f"{side} in column {self.move_name(cell)}"
        return f"{side} on {cell}"

    @property
    def moves_numbered(self) -> str:
        """How :meth:`move_name` numbers the moves, in words."""
        if not self.gravity:
            return "cells from 0 in reading order"
        if len(self.shape) == 2:
            return "columns from 1, left to right"
        return "columns from 1 in reading order, seen from the top"

    # -- symmetry ------------------------------------------------------------------------------

    @cached_property
    def symmetries(self) -> tuple[Symmetry, ...]:
        """The symmetry group of the board as cell permutations; the identity comes first. With
        gravity only those that keep every cell at its height (the footprint's own)."""
        found = _make_symmetries(self.shape)
        if not self.gravity:
            return found
        layer = self.column_count
        return tuple(
            symmetry
            for symmetry in found
            if all(target // layer == cell // layer for cell, target in enumerate(symmetry.perm))
        )

    @cached_property
    def inside_out(self) -> tuple[Symmetry, ...]:
        """The maps that carry every line onto a line without being symmetries of the box: on an
        n^d box with k = n (3 <= n <= 6, no gravity), a permutation of the values 0..n-1 applied to
        every coordinate at once, such as Qubic's swap of the inner and the outer layers. Those
        that the box's symmetries do not already give, named ``inside-out(1,0,3,2)`` by the values'
        images; none on other boards."""
        return _shared(self, "inside_out")

    def _inside_out(self) -> tuple[Symmetry, ...]:
        """:attr:`inside_out` worked out (:func:`_shared` keeps it for the board's kind)."""
        shape = self.shape
        n = shape[0]
        if self.gravity or not (all(side == n for side in shape) and self.k == n and 3 <= n <= 6):
            return ()
        lines = set(self._lines)
        own = {symmetry.perm for symmetry in self.symmetries}
        found = []
        for values in itertools.permutations(range(n)):
            perm = tuple(
                self.cell_at([values[c] for c in self.coords(cell)]) for cell in self.cells
            )
            if perm in own:
                continue
            symmetry = Symmetry(f"inside-out({','.join(map(str, values))})", perm)
            if {symmetry.apply_mask(line) for line in lines} == lines:
                found.append(symmetry)
        return tuple(found)

    @cached_property
    def line_symmetries(self) -> tuple[Symmetry, ...]:
        """Every map the board's symmetries and :attr:`inside_out` generate: cell permutations that
        carry lines onto lines (192 on Qubic, 1536 on 4x4x4x4), the board's own symmetries first.
        Positions they carry onto each other have the same value, though a checker that knows only
        the board's symmetries sees them as different."""
        return _shared(self, "line_symmetries")

    def _line_symmetries(self) -> tuple[Symmetry, ...]:
        """:attr:`line_symmetries` worked out (:func:`_shared` keeps it for the board's kind)."""
        group = list(self.symmetries)
        seen = {symmetry.perm for symmetry in group}
        for extra in self.inside_out:
            for symmetry in list(group):
                composed = tuple(extra.perm[symmetry.perm[cell]] for cell in self.cells)
                if composed not in seen:
                    seen.add(composed)
                    group.append(Symmetry(f"s{len(group)}", composed))
        return tuple(group)

    @cached_property
    def line_frames(self) -> tuple[Symmetry, ...]:
        """One map of each class of :attr:`line_symmetries` that the board's own symmetries do not
        tell apart (the left cosets ``f∘G`` of the board's group G): the identity first, then
        inside-out maps (4 on 4x4x4x4 and on Qubic; the identity alone where :attr:`inside_out` is
        empty). A position p holds the image of a position q under some line symmetry exactly when,
        for one frame f, the position f⁻¹(p) holds an image of q under the board's own symmetries:
        a question about the classes of the board's own symmetries (a certificate's index, say) is
        asked of every line symmetry by asking it once in each frame."""
        return _shared(self, "line_frames")

    def _line_frames(self) -> tuple[Symmetry, ...]:
        """:attr:`line_frames` worked out (:func:`_shared` keeps it for the board's kind)."""
        own = {symmetry.perm for symmetry in self.symmetries}
        frames: list[Symmetry] = []
        for candidate in self.symmetries[:1] + self.inside_out + self.line_symmetries:
            # f⁻¹∘candidate in G for a frame f found already: the candidate's class is known
            if all(
                tuple(frame.inverse_perm[target] for target in candidate.perm) not in own
                for frame in frames
            ):
                frames.append(candidate)
            if len(frames) * len(own) == len(self.line_symmetries):
                break
        return tuple(frames)

    def symmetry(self, name: str) -> Symmetry:
        """The symmetry with the given name."""
        for symmetry in self.symmetries:
            if symmetry.name == name:
                return symmetry
        names = ", ".join(symmetry.name for symmetry in self.symmetries)
        raise BoardSpecError(
            f"no symmetry named {name!r} on a {self.spec_shape} board; known: {names}"
        )

    @cached_property
    def cell_classes(self) -> tuple[CellClass, ...]:
        """The orbits of cells under the symmetry group, named (corner, middle, center, ...) from their place."""
        orbits = _orbits(
            range(self.size), lambda symmetry, cell: symmetry.perm[cell], self.symmetries
        )
        names = [self._cell_class_kind(orbit) for orbit in orbits]
        return tuple(
            CellClass(name, orbit) for name, orbit in zip(_disambiguate(names), orbits, strict=True)
        )

    @cached_property
    def line_classes(self) -> tuple[LineClass, ...]:
        """The orbits of lines under the symmetry group, named (diagonal, middle, side, ...) from their place."""
        index = {line: i for i, line in enumerate(self._lines)}
        orbits = _orbits(
            range(len(self._lines)),
            lambda symmetry, i: index[symmetry.apply_mask(self._lines[i])],
            self.symmetries,
        )
        names = [self._line_class_kind(orbit[0]) for orbit in orbits]
        return tuple(
            LineClass(name, tuple(self.line_cells[i] for i in orbit))
            for name, orbit in zip(_disambiguate(names), orbits, strict=True)
        )

    def cell_class_of(self, cell: int) -> CellClass:
        for cell_class in self.cell_classes:
            if cell in cell_class.cells:
                return cell_class
        raise BoardSpecError(
            f"cell {cell} is not on a {self.spec_shape} board: cells are 0..{self.size - 1}"
        )

    def _cell_class_kind(self, orbit: tuple[int, ...]) -> str:
        coords = self.coords(orbit[0])
        on_edge = [c in (0, side - 1) for c, side in zip(coords, self.shape, strict=True)]
        if len(orbit) == 1 and all(
            2 * c == side - 1 for c, side in zip(coords, self.shape, strict=True)
        ):
            return "center"
        if all(on_edge):
            return "corner"
        if any(on_edge):
            # On a flat board a border cell that is not a corner is a "middle" cell (seed 000);
            # in a box it lies on an edge (all coordinates extreme but one) or a face (but two),
            # and in four dimensions and more on a 3-face (but three), ...
            if self.dimensions == 2:
                return "middle"
            free = self.dimensions - sum(on_edge)
            return "edge" if free == 1 else "face" if free == 2 else f"{free}-face"
        return "inner"

    def _line_class_kind(self, index: int) -> str:
        cells = self.line_cells[index]
        first, second = (
            self.coords(cells[0]),
            self.coords(cells[1]) if len(cells) > 1 else self.coords(cells[0]),
        )
        moving = sum(a != b for a, b in zip(first, second, strict=True))
        if moving >= 2:
            return "diagonal" if moving == 2 else "space-diagonal"
        # A straight line: "middle" when it passes through the board's centre, "side" on the border.
        fixed = [(c, side) for c, b, side in zip(first, second, self.shape, strict=True) if c == b]
        if all(2 * c == side - 1 for c, side in fixed):
            return "middle"
        if any(c in (0, side - 1) for c, side in fixed):
            return "side"
        return "inner"


# -- helpers --------------------------------------------------------------------------------------


def _shared(geometry: Geometry, name: str) -> tuple[Symmetry, ...]:
    """The group property ``name`` of ``geometry`` (:attr:`Geometry.inside_out`,
    :attr:`~Geometry.line_symmetries`, :attr:`~Geometry.line_frames`), worked out once for every
    geometry of the same shape, k and gravity: each of them takes a quarter second on 4x4x4x4, and
    a geometry is built again from a book's or a certificate's fields wherever one is read."""
    return _shared_groups(geometry.shape, geometry.k, geometry.gravity, name)


@lru_cache(maxsize=64)
def _shared_groups(
    shape: tuple[int, ...], k: int, gravity: bool, name: str
) -> tuple[Symmetry, ...]:
    found: tuple[Symmetry, ...] = getattr(Geometry(shape, k, gravity), f"_{name}")()
    return found


@lru_cache(maxsize=32)
def _neighbourhoods(shape: tuple[int, ...], radius: int) -> tuple[int, ...]:
    cells = list(itertools.product(*(range(side) for side in shape)))
    index = {coords: i for i, coords in enumerate(cells)}
    masks = []
    for coords in cells:
        mask = 0
        for offset in itertools.product(range(-radius, radius + 1), repeat=len(shape)):
            other = tuple(c + d for c, d in zip(coords, offset, strict=True))
            if other != coords and other in index:
                mask |= 1 << index[other]
        masks.append(mask)
    return tuple(masks)


def completing_cells(lines: Iterable[int], own: int, other: int) -> int:
    """The empty cells where ``own`` would complete a line at once, as a mask: the one cell missing
    from each line (a bitmask) that holds ``own``'s marks but one and none of ``other``'s."""
    cells = 0
    for line in lines:
        if not line & other:
            rest = line & ~own
            if rest and not rest & (rest - 1):
                cells |= rest
    return cells


class LineCounts:
    """How many of one side's marks each line of a geometry holds, for every line at once: the
    lines as the bits of an int (bit i: ``geometry.lines[i]``), the counts in bit planes
    (``planes[j]``: the lines whose count has bit j set) and ``touched``, the lines that hold any
    of the marks. A walk adds a mark with :meth:`plus`, a few operations on those ints instead of
    a pass over the lines; :meth:`completing` then answers :func:`completing_cells`."""

    __slots__ = ("geometry", "marks", "planes", "touched")

    def __init__(self, geometry: Geometry, marks: int = 0) -> None:
        self.geometry = geometry
        self.marks = 0
        self.planes = [0] * geometry.k.bit_length()  # a count is at most k
        self.touched = 0
        for cell in mask_cells(marks):
            self._add(cell)

    def plus(self, cell: int) -> LineCounts:
        """The counts with a mark on ``cell`` too (an empty cell of this side's)."""
        out = LineCounts.__new__(LineCounts)
        out.geometry, out.marks, out.planes, out.touched = (
            self.geometry,
            self.marks,
            self.planes.copy(),
            self.touched,
        )
        out._add(cell)
        return out

    def _add(self, cell: int) -> None:
        carry = self.geometry.cell_line_numbers[cell]
        self.marks |= 1 << cell
        self.touched |= carry
        planes = self.planes
        for bit, plane in enumerate(planes):  # add one to each of these lines' counts
            planes[bit], carry = plane ^ carry, plane & carry
            if not carry:
                break

    def holding(self, count: int) -> int:
        """The lines (bits of line numbers) that hold exactly ``count`` of the marks."""
        if count < 0 or count >> len(self.planes):
            return 0
        lines = (1 << len(self.geometry.lines)) - 1
        for bit, plane in enumerate(self.planes):
            lines &= plane if count >> bit & 1 else ~plane
        return lines

    def completing(self, other: LineCounts) -> int:
        """The cells where these marks complete a line at once, as a mask: the missing cell of
        each line that holds k - 1 of them and none of ``other``'s marks."""
        numbers = self.holding(self.geometry.k - 1) & ~other.touched
        lines = self.geometry.lines
        cells = 0
        while numbers:
            low = numbers & -numbers
            numbers ^= low
            cells |= lines[low.bit_length() - 1]
        return cells & ~self.marks


def play(x: int, o: int, cell: int) -> tuple[int, int]:
    """The position (X's cells, O's cells as bitmasks) after the side to move marks ``cell``: X
    when both have as many marks, O otherwise."""
    bit = 1 << cell
    return (x | bit, o) if x.bit_count() == o.bit_count() else (x, o | bit)


def mask_cells(mask: int) -> tuple[int, ...]:
    """The cell IDs in a bitmask, in increasing order."""
    cells = []
    while mask:
        low = mask & -mask
        cells.append(low.bit_length() - 1)
        mask ^= low
    return tuple(cells)


def symmetry_cycles(symmetry: Symmetry) -> list[int]:
    """The cycles of a symmetry's cell permutation, as bitmasks, ordered by their least cell.

    A set of cells is fixed by the symmetry exactly when it is a union of its cycles, which is how
    the counters count the positions a symmetry fixes.
    """
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


def burnside_average(fixed_sum: int, order: int, what: str = "") -> int:
    """The number of classes from the sum, over a group of ``order`` symmetries, of the points each
    fixes (Burnside's lemma: the classes are their average). A sum the order does not divide means
    a counting bug, so it raises ``AssertionError`` naming ``what`` was counted."""
    classes, remainder = divmod(fixed_sum, order)
    if remainder:
        raise AssertionError(
            f"Burnside's sum {fixed_sum}{' for ' + what if what else ''} is not divisible by {order}"
        )
    return classes


def burnside_classes(fixed_by_symmetry: Sequence[Sequence[int]], order: int) -> list[int]:
    """Classes per index (a ply, say) from each symmetry's fixed-point counts at that index."""
    return [
        burnside_average(sum(fixed[i] for fixed in fixed_by_symmetry), order, f"index {i}")
        for i in range(len(fixed_by_symmetry[0]))
    ]


def _directions(dimensions: int) -> list[tuple[int, ...]]:
    """One direction of each line through the origin: nonzero steps whose first nonzero entry is positive."""
    out = []
    for step in itertools.product((-1, 0, 1), repeat=dimensions):
        nonzero = [s for s in step if s]
        if nonzero and nonzero[0] > 0:
            out.append(step)
    # Reading order of the seed: along rows first, then columns, then diagonals.
    out.sort(key=lambda step: (sum(map(abs, step)), [-abs(s) for s in reversed(step)], step))
    return out


@lru_cache(maxsize=64)
def _make_lines(shape: tuple[int, ...], k: int) -> tuple[int, ...]:
    strides = [1] * len(shape)
    for axis in range(len(shape) - 2, -1, -1):
        strides[axis] = strides[axis + 1] * shape[axis + 1]
    lines: list[int] = []
    seen: set[int] = set()
    for step in _directions(len(shape)):
        for start in itertools.product(*(range(side) for side in shape)):
            end = [s + (k - 1) * d for s, d in zip(start, step, strict=True)]
            if not all(0 <= e < side for e, side in zip(end, shape, strict=True)):
                continue
            mask = 0
            for i in range(k):
                mask |= 1 << sum(
                    (s + i * d) * stride for s, d, stride in zip(start, step, strides, strict=True)
                )
            if mask not in seen:  # k = 1 makes every direction give the same one-cell line
                seen.add(mask)
                lines.append(mask)
    return tuple(lines)


#: The eight symmetries of the square as 2×2 matrices acting on (x, y), x to the right and y up.
#: Rows of the matrix give x' and y'; names follow seed 000.
_SQUARE_SYMMETRIES: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {
    "identity": ((1, 0), (0, 1)),
    "rot90": ((0, -1), (1, 0)),
    "rot180": ((-1, 0), (0, -1)),
    "rot270": ((0, 1), (-1, 0)),
    "mirror0": ((1, 0), (0, -1)),
    "mirror45": ((0, 1), (1, 0)),
    "mirror90": ((-1, 0), (0, 1)),
    "mirror135": ((0, -1), (-1, 0)),
}


@lru_cache(maxsize=32)
def _make_symmetries(shape: tuple[int, ...]) -> tuple[Symmetry, ...]:
    """The isometries that map the board onto itself, as cell permutations, identity first."""
    found = _flat_symmetries(shape[0], shape[1]) if len(shape) == 2 else _box_symmetries(shape)
    # On degenerate boards (1×n, 1×1) several isometries move cells alike: keep the first name of each.
    distinct: dict[tuple[int, ...], Symmetry] = {}
    for symmetry in found:
        distinct.setdefault(symmetry.perm, symmetry)
    return tuple(distinct.values())


def _flat_symmetries(rows: int, cols: int) -> tuple[Symmetry, ...]:
    # Doubled coordinates about the centre keep everything integral: X = 2c - (cols-1), Y = (rows-1) - 2r.
    out = []
    for name, ((a, b), (c, d)) in _SQUARE_SYMMETRIES.items():
        perm = []
        for r in range(rows):
            for col in range(cols):
                x, y = 2 * col - (cols - 1), (rows - 1) - 2 * r
                x2, y2 = a * x + b * y, c * x + d * y
                col2, r2 = (x2 + cols - 1) // 2, (rows - 1 - y2) // 2
                if not (0 <= col2 < cols and 0 <= r2 < rows):
                    break
                perm.append(r2 * cols + col2)
            else:
                continue
            break
        else:
            out.append(Symmetry(name, tuple(perm)))
    return tuple(out)


def _box_symmetries(shape: tuple[int, ...]) -> tuple[Symmetry, ...]:
    """Signed permutations of the axes that fit the box, named ``identity`` and otherwise by where the
    new x, y and z (w and v in four and five dimensions) come from: ``(x,-z,y)`` keeps x, takes y
    from the mirrored z and z from y."""
    dims = len(shape)
    cells = list(itertools.product(*(range(side) for side in shape)))
    index = {coords: i for i, coords in enumerate(cells)}
    letters = "vwzyx"[-dims:]
    keyed: list[tuple[bool, str, Symmetry]] = []
    for axes in itertools.permutations(range(dims)):
        if any(shape[a] != shape[i] for i, a in enumerate(axes)):
            continue
        for signs in itertools.product((1, -1), repeat=dims):
            perm = []
            for coords in cells:
                image = tuple(
                    coords[axes[i]] if signs[i] == 1 else shape[i] - 1 - coords[axes[i]]
                    for i in range(dims)
                )
                perm.append(index[image])
            # The old key, in coordinate order (z, y, x), keeps the group's order as it always was
            # (symmetries are referred to by position in the group, so the order must not move).
            order = ",".join(("" if signs[i] == 1 else "-") + letters[axes[i]] for i in range(dims))
            # The name: for x, then y, then z, the coordinate it is taken from ("-" for the mirror
            # image side - 1 - c), so the identity reads (x,y,z) and every name is distinct.
            name = (
                "("
                + ",".join(
                    ("" if signs[i] == 1 else "-") + letters[axes[i]] for i in reversed(range(dims))
                )
                + ")"
            )
            is_identity = signs == (1,) * dims and axes == tuple(range(dims))
            keyed.append(
                (not is_identity, order, Symmetry("identity" if is_identity else name, tuple(perm)))
            )
    keyed.sort(key=lambda item: (item[0], item[1]))
    return tuple(symmetry for _, _, symmetry in keyed)


def _orbits(
    items: Iterable[int], act: Callable[[Symmetry, int], int], symmetries: Sequence[Symmetry]
) -> list[tuple[int, ...]]:
    seen: set[int] = set()
    orbits = []
    for item in items:
        if item in seen:
            continue
        orbit = sorted({act(symmetry, item) for symmetry in symmetries})
        seen.update(orbit)
        orbits.append(tuple(orbit))
    return orbits


def _disambiguate(names: list[str]) -> list[str]:
    totals = {name: names.count(name) for name in names}
    counters: dict[str, int] = {}
    out = []
    for name in names:
        if totals[name] == 1:
            out.append(name)
        else:
            counters[name] = counters.get(name, 0) + 1
            out.append(f"{name}-{counters[name]}")
    return out


_SHAPE_RE = re.compile(r"^(\d+(?:\s*[x×*]\s*\d+)+)((?:\s*[,:;/ ]\s*(?:k\s*=?\s*\d+|gravity))*)$")
_SIDE_RE = re.compile(r"\d+")
_OPTION_RE = re.compile(r"k\s*=?\s*(\d+)|(gravity)")
_MNK_RE = re.compile(r"^mnk\((.*)\)$")


@lru_cache(maxsize=64)
def _parse(spec: str, k: int | None) -> Geometry:
    if not isinstance(spec, str) or not spec:  # untyped callers may pass anything
        raise BoardSpecError(f"empty board spec; use {_SPEC_FORMS}")
    match = _MNK_RE.match(spec)
    if match:
        params: dict[str, int] = {}
        for part in match.group(1).split(","):
            key, _, value = part.partition("=")
            if key.strip() not in ("m", "n", "k") or not value.strip().isdigit():
                raise BoardSpecError(f"bad board spec {spec!r}; use {_SPEC_FORMS}")
            params[key.strip()] = int(value)
        if "m" not in params or "n" not in params:
            raise BoardSpecError(
                f"bad board spec {spec!r}: mnk(...) needs m and n; use {_SPEC_FORMS}"
            )
        shape: tuple[int, ...] = (params["n"], params["m"])  # OpenSpiel: m columns, n rows
        spec_k = params.get("k")
        gravity = False
    else:
        match = _SHAPE_RE.match(spec)
        if not match:
            raise BoardSpecError(f"bad board spec {spec!r}; use {_SPEC_FORMS}")
        shape = tuple(int(side) for side in _SIDE_RE.findall(match.group(1)))
        if len(shape) > MAX_DIMENSIONS:
            raise BoardSpecError(
                f"bad board spec {spec!r}: a board has at most {MAX_DIMENSIONS} sides"
            )
        ks = [int(found) for found, _ in _OPTION_RE.findall(match.group(2)) if found]
        gravity = any(word for _, word in _OPTION_RE.findall(match.group(2)))
        if len(ks) > 1:
            raise BoardSpecError(f"bad board spec {spec!r}: k is given twice")
        spec_k = ks[0] if ks else None
    if any(side < 1 for side in shape):
        raise BoardSpecError(f"bad board spec {spec!r}: every side needs at least 1 cell")
    chosen = k if k is not None else spec_k if spec_k is not None else min(shape)
    return Geometry(shape, chosen, gravity)
