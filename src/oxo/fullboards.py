"""Full boards (seed 000): every cell filled, X with ceil(N/2) marks and O with floor(N/2), wins or not.

If the players went on playing regardless of wins they would always end on a full board. A full
board may have no alignment, one, or several, owned by X, by O or by both. This module counts the
full boards of a board by number of alignments and owners, also up to symmetry (Burnside's lemma
over each symmetry's cycles of cells), and lists the games hidden in one full board: the reachable
winning positions obtained by emptying some of its squares, each with the number of move orders
(games) that end there.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from oxo.errors import OutOfReachError, PositionError
from oxo.geometry import Geometry, burnside_average, mask_cells, symmetry_cycles
from oxo.position import Player, Position
from oxo.records import Record

Owners = Literal["none", "x", "o", "both"]
OWNERS: tuple[str, ...] = ("none", "x", "o", "both")

#: Full boards are counted by going through the unions of cells (of symmetry cycles); 2^27 is the most.
MAX_CELLS = 27

#: Unions of blocks are made in chunks of at most 2^CHUNK_BITS, to keep memory flat.
CHUNK_BITS = 20


@dataclass(frozen=True)
class AlignmentRow(Record):
    """Full boards with a given number of alignments and owners, and their number up to symmetry."""

    alignments: int
    owners: Owners
    boards: int
    classes: int


@dataclass(frozen=True)
class FullBoardCount:
    """Every full board of a board, by alignments and owners."""

    geometry: Geometry
    rows: tuple[AlignmentRow, ...]

    @property
    def full_boards(self) -> int:
        return sum(row.boards for row in self.rows)

    @property
    def full_board_classes(self) -> int:
        return sum(row.classes for row in self.rows)

    def to_dict(self) -> dict[str, object]:
        return {
            **self.geometry.board_keys(),
            "full_boards": self.full_boards,
            "full_board_classes": self.full_board_classes,
            "by_alignments": [row.to_dict() for row in self.rows],
        }


def owners_of(x_lines: int, o_lines: int) -> Owners:
    """Who owns the alignments of a board with that many lines for each player."""
    return ("none", "x", "o", "both")[(x_lines > 0) + 2 * (o_lines > 0)]


def count_full_boards(geometry: Geometry) -> FullBoardCount:
    """Full boards by number of alignments and owners, with their classes under the board's symmetries."""
    if geometry.size > MAX_CELLS:
        raise OutOfReachError(
            f"full boards are counted on boards of at most {MAX_CELLS} cells; {geometry.spec} has {geometry.size}"
        )
    x_size = (geometry.size + 1) // 2
    order = len(geometry.symmetries)
    per_symmetry = [
        _tally(geometry, symmetry_cycles(symmetry), x_size) for symmetry in geometry.symmetries
    ]
    boards = per_symmetry[0]
    rows = []
    for key in sorted(boards, key=lambda key: (key[0], OWNERS.index(key[1]))):
        fixed_sum = sum(tally.get(key, 0) for tally in per_symmetry)
        classes = burnside_average(fixed_sum, order, str(key))
        rows.append(AlignmentRow(key[0], key[1], boards[key], classes))
    return FullBoardCount(geometry, tuple(rows))


def _tally(geometry: Geometry, blocks: Sequence[int], x_size: int) -> dict[tuple[int, Owners], int]:
    """Full boards whose X cells are a union of ``blocks`` with ``x_size`` cells, by (alignments, owners)."""
    dtype = np.uint64
    full = dtype(geometry.full_mask)
    lines = [dtype(line) for line in geometry.lines]
    tally: dict[tuple[int, Owners], int] = {}
    for masks, sizes in _unions(blocks, dtype):
        x = masks[sizes == x_size]
        if not len(x):
            continue
        o = full & ~x
        x_lines = np.zeros(len(x), dtype=np.int64)
        o_lines = np.zeros(len(x), dtype=np.int64)
        for line in lines:
            x_lines += (x & line) == line
            o_lines += (o & line) == line
        owner_index = (x_lines > 0).astype(np.int64) + 2 * (o_lines > 0)
        codes = (x_lines + o_lines) * 4 + owner_index
        values, counts = np.unique(codes, return_counts=True)
        for value, count in zip(values.tolist(), counts.tolist(), strict=True):
            key = (value // 4, OWNERS[value % 4])
            tally[key] = tally.get(key, 0) + count
    return tally


def _unions(blocks: Sequence[int], dtype: type) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Every union of blocks with its number of cells, in chunks of at most 2^CHUNK_BITS."""
    low, high = list(blocks[:CHUNK_BITS]), list(blocks[CHUNK_BITS:])
    low_masks: np.ndarray = np.zeros(1, dtype=dtype)
    low_sizes = np.zeros(1, dtype=np.int64)
    for block in low:
        low_masks = np.concatenate([low_masks, low_masks | dtype(block)])
        low_sizes = np.concatenate([low_sizes, low_sizes + int(block).bit_count()])
    for choice in range(1 << len(high)):
        mask = size = 0
        for index, block in enumerate(high):
            if choice >> index & 1:
                mask |= block
                size += int(block).bit_count()
        yield low_masks | dtype(mask), low_sizes + size


# -- the games inside one full board ------------------------------------------------------------


@dataclass(frozen=True)
class ContainedGame:
    """A game end found in a full board: a reachable terminal position made by emptying squares of it."""

    position: Position
    winner: Literal["x", "o"] | None
    lines: tuple[tuple[int, ...], ...]
    move_orders: int

    @property
    def length(self) -> int:
        return self.position.ply

    def to_dict(self) -> dict[str, object]:
        return {
            "position": self.position.to_status_string(),
            "length": self.length,
            "winner": self.winner,
            "lines": [list(line) for line in self.lines],
            "move_orders": self.move_orders,
        }


@dataclass(frozen=True)
class FullBoardGames:
    """The game ends contained in one full board, shortest first."""

    board: Position
    games: tuple[ContainedGame, ...]

    @property
    def move_orders(self) -> int:
        return sum(game.move_orders for game in self.games)

    def to_dict(self) -> dict[str, object]:
        board = self.board
        return {
            **board.geometry.board_keys(),
            "position": board.to_status_string(),
            "alignments": len(board.x_lines) + len(board.o_lines),
            "owners": owners_of(len(board.x_lines), len(board.o_lines)),
            "positions": len(self.games),
            "move_orders": self.move_orders,
            "games": [game.to_dict() for game in self.games],
        }


def games_in_full_board(board: Position) -> FullBoardGames:
    """The reachable terminal positions obtained by emptying squares of a full board, with their move orders.

    A winner's part must have its lines all through one cell (the last move) and the loser's part
    no line; the number of games ending there is ``common cells · (winner's marks - 1)! · loser's marks!``.
    A full board without any line is itself the end of its draws (``|X|! · |O|!`` orders).
    """
    geometry = board.geometry
    x_size = (geometry.size + 1) // 2
    if not board.is_full:
        raise PositionError(
            f"{board.to_status_string()} is not a full board: {len(board.empty_cells)} squares are empty"
        )
    if board.x_count != x_size:
        raise PositionError(
            f"a full {geometry.spec_shape} board has {x_size} X and {geometry.size - x_size} O, "
            f"but {board.to_status_string()} has {board.x_count} X"
        )
    if geometry.size > MAX_CELLS:
        raise OutOfReachError(
            f"full boards are supported up to {MAX_CELLS} cells; {geometry.spec} has {geometry.size}"
        )
    x_parts = _parts(geometry, board.x)
    o_parts = _parts(geometry, board.o)
    found = []
    sides: tuple[tuple[Player, _Parts, _Parts], ...] = (
        ("x", x_parts, o_parts),
        ("o", o_parts, x_parts),
    )
    for mover, mover_parts, other_parts in sides:
        lead = 1 if mover == "x" else 0  # the winner has one mark more when X, as many when O
        for size, winners in mover_parts.winning.items():
            losers = other_parts.free.get(size - lead, [])
            for win_mask, common in winners:
                for lose_mask in losers:
                    x, o = (win_mask, lose_mask) if mover == "x" else (lose_mask, win_mask)
                    orders = common * math.factorial(size - 1) * math.factorial(size - lead)
                    found.append(_contained(geometry, x, o, mover, orders))
    if not board.x_lines and not board.o_lines:
        orders = math.factorial(board.x_count) * math.factorial(board.o_count)
        found.append(ContainedGame(board, None, (), orders))
    found.sort(key=lambda game: (game.length, game.position.to_status_string()))
    return FullBoardGames(board, tuple(found))


@dataclass(frozen=True)
class _Parts:
    winning: dict[
        int, list[tuple[int, int]]
    ]  # size -> (subset, number of cells common to its lines)
    free: dict[int, list[int]]  # size -> line-free subsets


def _parts(geometry: Geometry, cells: int) -> _Parts:
    members = mask_cells(cells)
    winning: dict[int, list[tuple[int, int]]] = {}
    free: dict[int, list[int]] = {}
    for choice in range(1 << len(members)):
        subset = 0
        for index, cell in enumerate(members):
            if choice >> index & 1:
                subset |= 1 << cell
        common, has_line = geometry.full_mask, False
        for line in geometry.lines:
            if subset & line == line:
                has_line = True
                common &= line
        size = subset.bit_count()
        if not has_line:
            free.setdefault(size, []).append(subset)
        elif common:
            winning.setdefault(size, []).append((subset, common.bit_count()))
    return _Parts(winning, free)


def _contained(
    geometry: Geometry, x: int, o: int, winner: Literal["x", "o"], orders: int
) -> ContainedGame:
    position = Position(geometry, x, o)
    lines = position.x_lines if winner == "x" else position.o_lines
    return ContainedGame(position, winner, tuple(mask_cells(line) for line in lines), orders)
