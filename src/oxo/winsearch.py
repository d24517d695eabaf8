"""Constraint-satisfaction search for terminal positions on boards too big to list (seed 003, section 4).

A terminal position at ply ``p`` is built cell by cell, with backtracking:

* **X wins** (odd ``p``): X's ``(p+1)/2`` cells must contain a line, all X's lines must share a cell
  (the last move), and O's ``(p-1)/2`` cells must contain no line;
* **O wins** (even ``p``): the same with the roles swapped and ``p/2`` cells each;
* **draws** (``p`` = every cell): X's and O's cells both line-free.

The winner's cells are placed first, one at a time in increasing cell order. A partial board is
dropped as soon as it cannot become a win any more: the winner's complete lines share no cell, the
marks left cannot fill any line still open (a line is closed once a cell on it was passed over), or
too few cells remain for the marks left. The loser's cells follow, and a partial board is dropped as
soon as the loser completes a line (a second winner). Draws drop a partial board when either player
has completed a line.

Listing walks every solution. Counting walks the winner's cells the same way, but counts the loser's
completions without listing them: the loser must pick ``l`` cells that contain none of the lines
still open to it, which inclusion–exclusion over those lines counts in closed form; when too many
families of lines overlap within ``l`` cells, the search branches on one more cell and tries again.
With single-cell blocks the families are listed once per ply, each with its term, and a winner set's
count is the sum of the terms of the families that avoid its cells (one vectorised filter).

Everything works on *blocks* of cells placed together: single cells for plain counts, or the cycles of
one symmetry, which count the positions that symmetry fixes (for Burnside's lemma).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import Literal

import numpy as np

from oxo.errors import OptionError
from oxo.geometry import Geometry

Outcome = Literal["x", "o", "draw"]
OUTCOMES: tuple[Outcome, ...] = ("x", "o", "draw")

#: Families of lines inclusion–exclusion may visit before the loser's count branches on a cell instead.
IE_BUDGET = 4000

#: Families of lines the shared inclusion–exclusion table of one ply may hold (else each winner set is counted alone).
TABLE_BUDGET = 200_000


@dataclass(frozen=True)
class _Blocks:
    """Cells grouped into blocks placed together, with the lines meeting each block."""

    masks: tuple[int, ...]
    sizes: tuple[int, ...]
    lines: tuple[int, ...]
    #: For each block, the indices of the lines that meet it, as a bitset over line indices.
    meeting: tuple[int, ...]
    #: ``room[b]``: the cells in blocks b, b+1, ...
    room: tuple[int, ...]
    #: ``after[b]``: the cells of blocks b, b+1, ... as a mask.
    after: tuple[int, ...]
    full_mask: int
    #: ``block_of[c]``: the block holding cell c.
    block_of: tuple[int, ...]
    #: Whether block b is exactly cell b (the plain, symmetry-free search): bitsets over blocks are cell masks.
    cellwise: bool

    @staticmethod
    def build(lines: Sequence[int], blocks: Sequence[int], full_mask: int) -> _Blocks:
        masks = tuple(int(block) for block in blocks)
        sizes = tuple(block.bit_count() for block in masks)
        meeting = tuple(
            sum(1 << i for i, line in enumerate(lines) if line & block) for block in masks
        )
        room, after = [0] * (len(masks) + 1), [0] * (len(masks) + 1)
        for b in range(len(masks) - 1, -1, -1):
            room[b] = room[b + 1] + sizes[b]
            after[b] = after[b + 1] | masks[b]
        block_of = [0] * full_mask.bit_length()
        for b, block in enumerate(masks):
            for cell in range(block.bit_length()):
                if block >> cell & 1:
                    block_of[cell] = b
        cellwise = all(block == 1 << b for b, block in enumerate(masks))
        return _Blocks(
            masks,
            sizes,
            tuple(lines),
            meeting,
            tuple(room),
            tuple(after),
            full_mask,
            tuple(block_of),
            cellwise,
        )


def _bits(bitset: int) -> Iterator[int]:
    while bitset:
        low = bitset & -bitset
        yield low.bit_length() - 1
        bitset ^= low


# -- the winner's cells ---------------------------------------------------------------------------


def _winner_sets(data: _Blocks, cells: int) -> Iterator[int]:
    """Every union of blocks with ``cells`` cells that contains a line, all of whose lines share a cell."""
    lines = data.lines
    masks, sizes, meeting, room = data.masks, data.sizes, data.meeting, data.room
    count = len(masks)
    all_lines = (1 << len(lines)) - 1

    def can_still_win(chosen: int, left: int, alive: int) -> bool:
        for index in _bits(alive):
            if (lines[index] & ~chosen).bit_count() <= left:
                return True
        return False

    def extend(
        start: int, chosen: int, left: int, alive: int, common: int, has: bool
    ) -> Iterator[int]:
        # ``alive``: lines meeting no passed-over block; ``common``: AND of the complete lines.
        for block in range(start, count):
            if room[block] < left:
                return
            if not has and not can_still_win(chosen, left, alive):
                return  # passing over more blocks only closes more lines
            size = sizes[block]
            if size <= left:
                grown = chosen | masks[block]
                new_common, new_has = common, has
                for index in _bits(meeting[block] & alive):
                    line = lines[index]
                    if line & grown == line:
                        new_common &= line
                        new_has = True
                if not (new_has and new_common == 0):
                    if size == left:
                        if new_has:
                            yield grown
                    else:
                        yield from extend(block + 1, grown, left - size, alive, new_common, new_has)
            alive &= ~meeting[block]

    if cells == 0:
        return
    yield from extend(0, 0, cells, all_lines, data.full_mask, False)


# -- the loser's cells ----------------------------------------------------------------------------


def _line_free_sets(data: _Blocks, taken: int, cells: int) -> Iterator[int]:
    """Every union of blocks outside ``taken`` with ``cells`` cells and no complete line."""
    lines = data.lines
    masks, sizes, meeting, room, after = data.masks, data.sizes, data.meeting, data.room, data.after
    count = len(masks)

    def extend(start: int, chosen: int, left: int) -> Iterator[int]:
        for block in range(start, count):
            if (room[block] - (after[block] & taken).bit_count()) < left:
                return
            mask = masks[block]
            size = sizes[block]
            if mask & taken or size > left:
                continue
            grown = chosen | mask
            if any(lines[index] & grown == lines[index] for index in _bits(meeting[block])):
                continue
            if size == left:
                yield grown
            else:
                yield from extend(block + 1, grown, left - size)

    if cells == 0:
        yield 0
        return
    yield from extend(0, 0, cells)


@lru_cache(maxsize=65536)
def _ways(size_counts: tuple[tuple[int, int], ...], target: int) -> int:
    """Unions of blocks with ``target`` cells, from ``count`` blocks of each ``size``: a coefficient of ∏(1+t^size)^count."""
    if not size_counts:
        return 1 if target == 0 else 0
    (size, number), rest = size_counts[0], size_counts[1:]
    return sum(
        comb(number, used) * _ways(rest, target - used * size)
        for used in range(min(number, target // size) + 1)
    )


class _TooMany(Exception):
    pass


def _count_line_free(data: _Blocks, available: int, chosen: int, left: int) -> int:
    """Unions ``U`` of blocks inside ``available`` (a bitset over blocks) with ``left`` cells, ``chosen | U`` line-free."""
    masks, sizes, block_of, cellwise = data.masks, data.sizes, data.block_of, data.cellwise
    threats: list[int] = []  # each: the bitset of blocks that would complete a line
    if cellwise:
        available_cells = available
    else:
        available_cells = 0
        for block in _bits(available):
            available_cells |= masks[block]
    for line in data.lines:
        needed = line & ~chosen
        if needed & ~available_cells:
            continue  # the line has a cell outside reach: it can never complete
        if needed == 0:
            return 0
        if cellwise:
            if needed.bit_count() <= left:
                threats.append(needed)
            continue
        need_blocks = 0
        for cell in _bits(needed):
            need_blocks |= 1 << block_of[cell]
        if sum(sizes[block] for block in _bits(need_blocks)) <= left:
            threats.append(need_blocks)
    if not threats:
        return _ways(_size_counts(data, available), left)
    try:
        return _inclusion_exclusion(data, available, threats, left)
    except _TooMany:
        pass
    # Branch on a block that the most threats need: in, or out.
    tally: dict[int, int] = {}
    for threat in threats:
        for block in _bits(threat):
            tally[block] = tally.get(block, 0) + 1
    block = max(tally, key=lambda b: (tally[b], -b))
    rest = available & ~(1 << block)
    total = _count_line_free(data, rest, chosen, left)
    if sizes[block] <= left:
        grown = chosen | masks[block]
        if not any(line & grown == line for line in data.lines if line & masks[block]):
            total += _count_line_free(data, rest, grown, left - sizes[block])
    return total


def _size_counts(data: _Blocks, blocks: int) -> tuple[tuple[int, int], ...]:
    tally: dict[int, int] = {}
    for block in _bits(blocks):
        tally[data.sizes[block]] = tally.get(data.sizes[block], 0) + 1
    return tuple(sorted(tally.items()))


def _inclusion_exclusion(data: _Blocks, available: int, threats: list[int], left: int) -> int:
    sizes = data.sizes
    threat_cells = [sum(sizes[b] for b in _bits(threat)) for threat in threats]
    uniform = all(size == 1 for size in sizes)
    free_count = available.bit_count()
    visits = 0
    total = 0

    def union_cells(blocks: int) -> int:
        return blocks.bit_count() if uniform else sum(sizes[b] for b in _bits(blocks))

    def visit(start: int, union: int, union_size: int, sign: int) -> None:
        nonlocal visits, total
        visits += 1
        if visits > IE_BUDGET:
            raise _TooMany
        if uniform:
            total += sign * comb(free_count - union_size, left - union_size)
        else:
            total += sign * _ways(_size_counts(data, available & ~union), left - union_size)
        for index in range(start, len(threats)):
            grown = union | threats[index]
            grown_size = (
                union_size + threat_cells[index]
                if not union & threats[index]
                else union_cells(grown)
            )
            if grown_size <= left:
                visit(index + 1, grown, grown_size, -sign)

    visit(0, 0, 0, 1)
    return total


def _family_table(
    data: _Blocks, left: int, free_cells: int
) -> tuple[np.ndarray, np.ndarray] | None:
    """Inclusion–exclusion shared by every winner set of a ply (single-cell blocks, at most 64 cells).

    Every family of lines whose union U has at most ``left`` cells, with its term
    ``(-1)^|family| · C(free_cells - |U|, left - |U|)``. For a winner set W the loser's count is the sum
    of the terms of the families with U disjoint from W: those are exactly the families of lines
    open to the loser, and the loser has ``free_cells`` cells to choose from whatever W is.
    ``None`` when the table would be too big or its sums could overflow 64 bits.
    """
    if not data.cellwise or data.full_mask.bit_length() > 64:
        return None
    lines = data.lines
    unions: list[int] = []
    weights: list[int] = []

    def visit(start: int, union: int, size: int, sign: int) -> None:
        unions.append(union)
        weights.append(sign * comb(free_cells - size, left - size))
        if len(unions) > TABLE_BUDGET:
            raise _TooMany
        for index in range(start, len(lines)):
            grown = union | lines[index]
            grown_size = grown.bit_count()
            if grown_size <= left:
                visit(index + 1, grown, grown_size, -sign)

    try:
        visit(0, 0, 0, 1)
    except _TooMany:
        return None
    if max(abs(weight) for weight in weights) * len(weights) >= 2**62:
        return None
    return np.array(unions, dtype=np.uint64), np.array(weights, dtype=np.int64)


# -- draws ------------------------------------------------------------------------------------------


def _draws(data: _Blocks, x_cells: int) -> Iterator[int]:
    """X's cells of every full board where neither player has a line (O has every other cell)."""
    lines = data.lines
    masks, sizes, meeting, room = data.masks, data.sizes, data.meeting, data.room
    count = len(masks)
    full = data.full_mask

    def o_line_free(o_cells: int, block: int) -> bool:
        return not any(lines[index] & o_cells == lines[index] for index in _bits(meeting[block]))

    def extend(start: int, chosen: int, passed: int, left: int) -> Iterator[int]:
        # ``passed``: cells of blocks before ``start`` left to O.
        for block in range(start, count):
            if room[block] < left:
                return
            mask, size = masks[block], sizes[block]
            if size <= left:
                grown = chosen | mask
                if not any(lines[index] & grown == lines[index] for index in _bits(meeting[block])):
                    if size == left:
                        o_cells = full & ~grown
                        if not any(line & o_cells == line for line in lines):
                            yield grown
                    else:
                        yield from extend(block + 1, grown, passed, left - size)
            passed |= mask
            if not o_line_free(passed, block):
                return

    yield from extend(0, 0, 0, x_cells)


# -- public entry points ----------------------------------------------------------------------------


def _shape(size: int, ply: int, outcome: Outcome) -> tuple[int, int]:
    """(winner's cells, loser's cells) for an outcome at a ply, or an OptionError."""
    if not 0 <= ply <= size:
        raise OptionError(f"ply {ply} is not on a {size}-cell board: plies are 0..{size}")
    if outcome == "x":
        return (ply + 1) // 2, ply // 2
    if outcome == "o":
        return ply // 2, ply // 2
    if outcome == "draw":
        return (ply + 1) // 2, ply // 2
    raise OptionError(f"unknown outcome {outcome!r}; use x, o or draw")


def _applies(size: int, ply: int, outcome: Outcome) -> bool:
    if outcome == "x":
        return ply % 2 == 1
    if outcome == "o":
        return ply % 2 == 0 and ply > 0
    return ply == size


def search_terminal(
    geometry: Geometry, ply: int, outcome: Outcome, *, blocks: Sequence[int] | None = None
) -> Iterator[tuple[int, int]]:
    """Every terminal position with ``ply`` marks and the given outcome, as ``(x, o)`` bitmasks.

    ``blocks`` (default: single cells) groups cells that must hold the same mark, e.g. a symmetry's
    cycles, to list the positions that symmetry fixes. Order: the winner's cells in increasing order,
    then the loser's.
    """
    wins, losses = _shape(geometry.size, ply, outcome)
    if not _applies(geometry.size, ply, outcome):
        return
    data = _Blocks.build(
        geometry.lines, blocks or [1 << c for c in geometry.cells], geometry.full_mask
    )
    if outcome == "draw":
        for x in _draws(data, wins):
            yield x, geometry.full_mask & ~x
        return
    for winner in _winner_sets(data, wins):
        for loser in _line_free_sets(data, winner, losses):
            yield (winner, loser) if outcome == "x" else (loser, winner)


def count_terminal_ply(
    geometry: Geometry,
    ply: int,
    outcome: Outcome,
    *,
    blocks: Sequence[int] | None = None,
) -> int:
    """How many terminal positions :func:`search_terminal` would list, without listing the loser's cells."""
    wins, losses = _shape(geometry.size, ply, outcome)
    if not _applies(geometry.size, ply, outcome):
        return 0
    data = _Blocks.build(
        geometry.lines, blocks or [1 << c for c in geometry.cells], geometry.full_mask
    )
    if outcome == "draw":
        return sum(1 for _ in _draws(data, wins))
    everything = (1 << len(data.masks)) - 1
    total = 0
    table = _family_table(data, losses, geometry.size - wins)
    if table is not None:
        unions, weights = table
        for winner in _winner_sets(data, wins):
            total += int(weights[(unions & np.uint64(winner)) == 0].sum())
        return total
    for winner in _winner_sets(data, wins):
        if data.cellwise:
            available = everything & ~winner
        else:
            available = everything
            for cell in _bits(winner):
                available &= ~(1 << data.block_of[cell])
        total += _count_line_free(data, available, 0, losses)
    return total
