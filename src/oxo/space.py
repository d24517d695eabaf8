"""The reachable state space below a position, as numpy arrays, ply by ply.

A :class:`StateSpace` holds every position that legal play can reach from a *root* position (the
empty board, or any position being analysed), one :class:`Level` per number of marks added. Only the
root's empty cells can change, so a position of the space is stored by *local* bitmasks over those
cells (local bit ``i`` is the root's ``i``-th empty cell) and identified by its base-3 *index*
``sum(status_i * 3**i)`` (status 1 for X, 2 for O). The index addresses dense arrays of ``3**E``
entries (E = the root's empty cells), which is how the solver and the winnability analysis look up
the children of every position in one vectorised gather: the child that marks local cell ``i`` has
index ``parent + (1 or 2) * 3**i``.

Limits: the root may have at most :data:`MAX_EMPTY` = 16 empty cells (3**16 = 43 million entries;
one byte each, plus one bit-flag array of the same length while building). So every board of up to
16 cells (4×4, 3×5, 2×8, ...) can be built from its empty board, and larger boards from positions
with at most 16 empty cells. Lines are checked in local terms: a line can only be completed by X if
the root has no O in it, and then only its cells still empty at the root matter.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from oxo.errors import OutOfReachError, PositionError
from oxo.geometry import Geometry, mask_cells
from oxo.position import Player, Position

#: Most empty cells a root may have: dense arrays have 3**MAX_EMPTY entries.
MAX_EMPTY = 16

_CHUNK = 8  # base-3 digits (and bits) handled per table lookup


@dataclass(frozen=True, eq=False)
class Level:
    """The reachable positions with a given number of marks, sorted by their base-3 index.

    ``x`` and ``o`` are local bitmasks (uint32); ``won`` says the player who made the last move has
    a complete line (for the root level: somebody already has one).
    """

    ply: int
    index: np.ndarray
    x: np.ndarray
    o: np.ndarray
    won: np.ndarray

    def __len__(self) -> int:
        return int(self.index.size)


@dataclass(frozen=True, eq=False)
class StateSpace:
    """Every position reachable from ``root`` by legal play (play stops at a win or a full board)."""

    root: Position
    cells: tuple[int, ...]
    levels: tuple[Level, ...]

    # -- sizes ---------------------------------------------------------------------------------

    @property
    def geometry(self) -> Geometry:
        return self.root.geometry

    @property
    def empty_count(self) -> int:
        """E, the number of cells empty at the root (the dense arrays have 3**E entries)."""
        return len(self.cells)

    @property
    def dense_size(self) -> int:
        return int(3**self.empty_count)

    @property
    def total(self) -> int:
        """The number of positions in the space, root included."""
        return sum(len(level) for level in self.levels)

    def counts(self) -> list[int]:
        """Positions per level (level q holds the positions with q marks more than the root)."""
        return [len(level) for level in self.levels]

    # -- who moves -----------------------------------------------------------------------------

    def mover(self, depth: int) -> Player:
        """Who moves in the positions of level ``depth`` (if their game is not over)."""
        first = self.root.turn
        assert first is not None
        return first if depth % 2 == 0 else ("o" if first == "x" else "x")

    def terminal(self, depth: int) -> np.ndarray:
        """Which positions of a level end the game (a line for the last mover, or a full board)."""
        level = self.levels[depth]
        if depth == self.empty_count:
            return np.ones(len(level), dtype=bool)
        return level.won.copy()

    # -- lookup --------------------------------------------------------------------------------

    @cached_property
    def powers(self) -> np.ndarray:
        """``3**i`` for each local cell, as int64."""
        return np.array([3**i for i in range(self.empty_count)], dtype=np.int64)

    def children(self, depth: int, local_cell: int) -> tuple[np.ndarray, np.ndarray]:
        """For the non-terminal positions of a level with ``local_cell`` empty: their rows and the index of the child
        in which the mover marks that cell."""
        level = self.levels[depth]
        live = ~self.terminal(depth) & (((level.x | level.o) >> local_cell) & 1 == 0)
        rows = np.flatnonzero(live)
        weight = 1 if self.mover(depth) == "x" else 2
        return rows, level.index[rows] + weight * self.powers[local_cell]

    def local_index(self, position: Position) -> tuple[int, int] | None:
        """``(depth, base-3 index)`` of a position of the root's board, or None if it does not extend the root."""
        root = self.root
        if position.geometry != root.geometry:
            return None
        if position.x & root.x != root.x or position.o & root.o != root.o:
            return None
        index = 0
        for i, cell in enumerate(self.cells):
            if position.x >> cell & 1:
                index += 3**i
            elif position.o >> cell & 1:
                index += 2 * 3**i
        return position.ply - root.ply, index

    def locate(self, position: Position) -> tuple[int, int] | None:
        """``(depth, row)`` of a position in the space, or None when it is not reachable from the root."""
        found = self.local_index(position)
        if found is None:
            return None
        depth, index = found
        if not 0 <= depth < len(self.levels):
            return None
        level = self.levels[depth]
        row = int(np.searchsorted(level.index, index))
        if row < len(level) and int(level.index[row]) == index:
            return depth, row
        return None

    def __contains__(self, position: object) -> bool:
        return isinstance(position, Position) and self.locate(position) is not None

    def position(self, depth: int, row: int) -> Position:
        """The position stored at a row of a level."""
        level = self.levels[depth]
        return self.position_of(int(level.x[row]), int(level.o[row]))

    def position_of(self, local_x: int, local_o: int) -> Position:
        """The position with the given local masks added to the root."""
        x, o = self.root.x, self.root.o
        for i, cell in enumerate(self.cells):
            if local_x >> i & 1:
                x |= 1 << cell
            elif local_o >> i & 1:
                o |= 1 << cell
        return Position(self.geometry, x, o)

    def global_masks(self, depth: int) -> tuple[np.ndarray, np.ndarray]:
        """The whole-board bitmasks (uint64) of a level's positions; only for boards of at most 64 cells."""
        if self.geometry.size > 64:
            raise OutOfReachError(
                f"whole-board masks need at most 64 cells, the board has {self.geometry.size}"
            )
        level = self.levels[depth]
        tables = _bit_tables(self.cells)
        return (
            _remap(level.x, tables).astype(np.uint64) | np.uint64(self.root.x),
            _remap(level.o, tables).astype(np.uint64) | np.uint64(self.root.o),
        )


def build_space(
    start: Geometry | Position,
    *,
    on_progress: Callable[[float], None] | None = None,
) -> StateSpace:
    """Every position reachable from ``start`` (a board's empty position, or a given position), level by level.

    Raises :class:`oxo.errors.OutOfReachError` when the root has more than :data:`MAX_EMPTY` empty cells and
    :class:`oxo.errors.PositionError` when the root is not a position of a game.
    """
    (start if isinstance(start, Geometry) else start.geometry).refuse_gravity("the state space")
    root = Position.empty(start) if isinstance(start, Geometry) else start
    check_playable(root)
    cells = root.empty_cells
    empty = len(cells)
    if empty > MAX_EMPTY:
        raise OutOfReachError(
            f"the position has {empty} empty cells; the table of every position that can follow it is built for at most {MAX_EMPTY} "
            f"(boards of up to {MAX_EMPTY} cells, or positions of larger boards with that many empty cells)"
        )
    x_lines, o_lines = _local_lines(root, cells)
    powers = np.array([3**i for i in range(empty)], dtype=np.int64)
    decoder = _Decoder(empty)
    root_won = bool(root.x_lines or root.o_lines)
    levels = [
        Level(
            root.ply,
            np.zeros(1, dtype=np.int64),
            np.zeros(1, dtype=np.uint32),
            np.zeros(1, dtype=np.uint32),
            np.array([root_won]),
        )
    ]
    flags = np.zeros(3**empty, dtype=bool) if empty else None
    mover: Player = root.turn  # type: ignore[assignment]  # check_playable above: the root has a turn
    for depth in range(empty):
        level = levels[-1]
        live = ~level.won
        weight = 1 if mover == "x" else 2
        occupied = level.x | level.o
        assert flags is not None
        for i in range(empty):
            free = live & ((occupied >> i) & 1 == 0)
            flags[level.index[free] + weight * powers[i]] = True
        index = np.flatnonzero(flags).astype(np.int64)
        flags[index] = False
        x, o = decoder.decode(index)
        lines = x_lines if mover == "x" else o_lines
        own = x if mover == "x" else o
        won = np.zeros(index.size, dtype=bool)
        for line in lines:
            won |= (own & np.uint32(line)) == np.uint32(line)
        levels.append(Level(root.ply + depth + 1, index, x, o, won))
        mover = "o" if mover == "x" else "x"
        if on_progress is not None:
            on_progress((depth + 1) / empty)
    return StateSpace(root, cells, tuple(levels))


def check_playable(position: Position) -> None:
    """Raise :class:`PositionError` unless the position could occur in a game (mark counts, at most one winner)."""
    if position.turn is None:
        raise PositionError(
            f"position {position.to_status_string()} has {position.x_count} X and {position.o_count} O marks; "
            "X moves first, so X has as many marks as O or one more"
        )
    if position.floating:
        raise PositionError(f"position {position.to_status_string()}: {position.status().text}")
    if position.x_lines and position.o_lines:
        raise PositionError(
            f"position {position.to_status_string()} has lines for both players; no game reaches it"
        )
    if position.x_lines and position.turn == "x" or position.o_lines and position.turn == "o":
        winner = "X" if position.x_lines else "O"
        raise PositionError(
            f"position {position.to_status_string()}: {winner} has a line but did not make the last move; no game reaches it"
        )


# -- helpers ---------------------------------------------------------------------------------------


def _local_lines(root: Position, cells: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    local_bit = {cell: i for i, cell in enumerate(cells)}

    def local(mask: int) -> int:
        return sum(1 << local_bit[cell] for cell in mask_cells(mask))

    lines = root.geometry.lines
    x_lines = tuple(
        sorted({local(line & ~root.x) for line in lines if not line & root.o and line & ~root.x})
    )
    o_lines = tuple(
        sorted({local(line & ~root.o) for line in lines if not line & root.x and line & ~root.o})
    )
    return x_lines, o_lines


class _Decoder:
    """Base-3 index → (X mask, O mask), a chunk of 8 digits per table lookup."""

    def __init__(self, digits: int) -> None:
        self.digits = digits
        width = min(_CHUNK, max(digits, 1))
        size = 3**width
        x_table = np.zeros(size, dtype=np.uint32)
        o_table = np.zeros(size, dtype=np.uint32)
        values = np.arange(size, dtype=np.int64)
        for i in range(width):
            digit = values // 3**i % 3
            x_table |= (digit == 1).astype(np.uint32) << np.uint32(i)
            o_table |= (digit == 2).astype(np.uint32) << np.uint32(i)
        self.width, self.x_table, self.o_table = width, x_table, o_table

    def decode(self, index: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        x = np.zeros(index.size, dtype=np.uint32)
        o = np.zeros(index.size, dtype=np.uint32)
        rest = index
        base = 3**self.width
        for shift in range(0, self.digits, self.width):
            chunk = rest % base
            x |= self.x_table[chunk] << np.uint32(shift)
            o |= self.o_table[chunk] << np.uint32(shift)
            rest = rest // base
        return x, o


@lru_cache(maxsize=256)
def _bit_tables(targets: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """For each byte of a source mask, the image of every value of that byte when bit i goes to ``targets[i]``
    (uint32 tables when every target fits in 32 bits, uint64 otherwise)."""
    dtype = np.uint32 if max(targets, default=0) < 32 else np.uint64
    tables = []
    for base in range(0, len(targets), 8):
        width = min(8, len(targets) - base)
        table = np.zeros(1 << 8, dtype=dtype)
        for value in range(1 << width):
            image = 0
            for bit in range(width):
                if value >> bit & 1:
                    image |= 1 << targets[base + bit]
            table[value] = image
        tables.append(table)
    return tuple(tables)


def _remap(masks: np.ndarray, tables: tuple[np.ndarray, ...]) -> np.ndarray:
    """Move the bits of every mask as the tables of :func:`_bit_tables` say (result in the tables' dtype)."""
    dtype = tables[0].dtype if tables else np.uint64
    out = np.zeros(masks.size, dtype=dtype)
    for i, table in enumerate(tables):
        out |= table[(masks >> masks.dtype.type(8 * i)) & masks.dtype.type(0xFF)]
    return out


def permute_masks(masks: np.ndarray, perm: tuple[int, ...]) -> np.ndarray:
    """The image of each whole-board bitmask (unsigned ints, at most 64 cells) under a cell permutation."""
    return _remap(masks, _bit_tables(tuple(perm)))
