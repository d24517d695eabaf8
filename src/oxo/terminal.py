"""Terminal positions: the reachable positions where the game has ended, per ply, by outcome (seed 003).

A terminal position is reachable (see :mod:`oxo.legality`) and over: X has won, O has won, or the
board is full with no line (a draw). Three methods count them, each also up to symmetry:

* ``"pairs"``: the pair counter of :mod:`oxo.counting.pairs`, no position visited. X wins at ply p
  are the disjoint pairs (X, O) with |X| - |O| = 1, X containing a line and all X's lines sharing a
  cell, and O line-free; O wins likewise with |X| = |O|; draws are the full boards with both sets
  line-free. Classes by Burnside's lemma over each symmetry's cycles. Every ply at once; for boards
  up to about 25 cells.
* ``"csp"``: the constraint-satisfaction search of :mod:`oxo.winsearch`, one ply at a time, for big
  boards (5×5, 3×3×3, Qubic) at the plies where terminal positions are still few enough.
* ``"search"``: the reference. Walk the game tree from the empty board and collect the positions
  where play stops. Slow and obviously right.

:func:`terminal_positions` streams the positions themselves (from the search), ply by ply.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from oxo.counting import SHARD_CELLS, PlyTotals
from oxo.counting.budget import Estimate
from oxo.counting.pairs import LinePredicates, block_masks, count_pairs
from oxo.errors import OptionError, OutOfReachError
from oxo.geometry import Geometry, burnside_average, symmetry_cycles
from oxo.position import Player, Position
from oxo.winsearch import Outcome, count_terminal_ply, search_terminal

Method = Literal["auto", "pairs", "csp", "search"]
METHODS: tuple[str, ...] = ("auto", "pairs", "csp", "search")

#: Largest board (cells) on which "auto" counts every ply with the pair counter.
PAIRS_MAX_CELLS = 25

#: Each outcome of a search and the winner it means (``None``: a draw).
_OUTCOMES: tuple[tuple[Outcome, Player | None], ...] = (("x", "x"), ("o", "o"), ("draw", None))

_KEYS = ("x_wins", "o_wins", "draws", "x_wins_classes", "o_wins_classes", "draws_classes")


@dataclass(frozen=True)
class TerminalPly:
    """Terminal positions after ``ply`` marks, by outcome, and their numbers up to symmetry."""

    ply: int
    x_wins: int
    o_wins: int
    draws: int
    x_wins_classes: int
    o_wins_classes: int
    draws_classes: int

    @property
    def positions(self) -> int:
        return self.x_wins + self.o_wins + self.draws

    @property
    def classes(self) -> int:
        return self.x_wins_classes + self.o_wins_classes + self.draws_classes

    def counts(self) -> dict[str, int]:
        return {key: getattr(self, key) for key in _KEYS}

    def to_dict(self) -> dict[str, int]:
        return {"ply": self.ply, **self.counts()}


@dataclass(frozen=True)
class TerminalTable(PlyTotals):
    """Terminal positions per ply for one board (only the plies asked for), with the method used."""

    geometry: Geometry
    plies: tuple[TerminalPly, ...]
    method: str

    @property
    def total(self) -> dict[str, int]:
        """Each count summed over the plies in the table."""
        return {key: sum(getattr(row, key) for row in self.plies) for key in _KEYS}

    def to_dict(self) -> dict[str, object]:
        return {
            **self.geometry.board_keys(),
            "plies": [row.to_dict() for row in self.plies],
            "total": self.total,
        }


@dataclass(frozen=True)
class TerminalPosition:
    """One terminal position and how the game ended (``winner`` is ``None`` for a draw)."""

    position: Position
    winner: Player | None

    @property
    def ply(self) -> int:
        return self.position.ply

    def to_line(self) -> str:
        """``<status string> <x|o|draw>``, the ``--list`` notation."""
        return f"{self.position.to_status_string()} {self.winner or 'draw'}"

    def to_dict(self) -> dict[str, object]:
        return {
            "position": self.position.to_status_string(),
            "ply": self.ply,
            "winner": self.winner,
        }


# -- entry points ---------------------------------------------------------------------------------


def parse_plies(text: str, geometry: Geometry) -> tuple[int, ...]:
    """Plies from ``"7"``, ``"0-7"`` or ``"3,5,7"`` (each between 0 and the number of cells)."""
    accepted = f"a ply (0..{geometry.size}), a range such as 0-7, or a comma-separated list"
    plies: list[int] = []
    for part in str(text).replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise OptionError(f"bad ply {text!r}: use {accepted}")
        first, last = int(low), int(high) if dash else int(low)
        if first > last or last > geometry.size:
            raise OptionError(f"bad ply {text!r} for a {geometry.size}-cell board: use {accepted}")
        plies.extend(range(first, last + 1))
    return tuple(sorted(set(plies)))


def count_terminal(
    geometry: Geometry,
    method: Method = "auto",
    *,
    plies: Iterable[int] | None = None,
    on_progress: Callable[[float], None] | None = None,
) -> TerminalTable:
    """Terminal positions by ply and outcome, with their symmetry classes.

    ``plies`` (default: every ply) restricts the table; the ``"csp"`` method counts only those.
    ``"auto"`` uses the pair counter up to :data:`PAIRS_MAX_CELLS` cells when every ply is wanted
    (or on boards of at most 16 cells), and the search otherwise.
    """
    geometry.refuse_gravity("the terminal-position counter")
    if method not in METHODS:
        raise OptionError(f"unknown method {method!r}; use one of {', '.join(METHODS)}")
    wanted = tuple(range(geometry.size + 1)) if plies is None else tuple(sorted(set(plies)))
    for ply in wanted:
        if not 0 <= ply <= geometry.size:
            raise OptionError(
                f"ply {ply} is not on a {geometry.size}-cell board: plies are 0..{geometry.size}"
            )
    if method == "auto":
        if geometry.size <= 16 or (plies is None and geometry.size <= PAIRS_MAX_CELLS):
            method = "pairs"
        elif plies is None:
            raise OutOfReachError(
                f"a {geometry.size}-cell board is too large to count every ply: give plies (e.g. --ply 0-7) "
                "to use the constraint search, or --method pairs to try anyway"
            )
        else:
            method = "csp"
    if method == "pairs":
        rows = _rows_from_fixed(geometry, _fixed_by_pairs(geometry, on_progress), wanted)
    elif method == "csp":
        rows = _rows_from_fixed(geometry, _fixed_by_csp(geometry, wanted, on_progress), wanted)
    else:
        rows = _rows_by_search(geometry, wanted)
    return TerminalTable(geometry, rows, method)


def estimate_terminal(
    geometry: Geometry, method: str = "auto", plies: Iterable[int] | None = None
) -> Estimate:
    """Time and memory a terminal count is predicted to take (the pair counter's; the constraint
    search's cost depends on the position's lines and is not predicted)."""
    from oxo.counting.budget import MiB

    every_ply = plies is None
    if method == "auto":
        small = geometry.size <= 16 or (every_ply and geometry.size <= PAIRS_MAX_CELLS)
        method = "pairs" if small else "csp"
    if method == "pairs":
        subsets = sum(2 ** len(symmetry_cycles(s)) for s in geometry.symmetries)
        per_shard = 350 * MiB if geometry.size > SHARD_CELLS else 60 * MiB
        return Estimate(3 * subsets * 1e-6, 100 * MiB + per_shard)
    if method == "search":
        states = 3.0 ** min(geometry.size, 60)
        return Estimate(states * 2e-6, int(min(states * 100, 2.0**62)))
    return Estimate(0.0, 100 * MiB)


def terminal_positions(
    geometry: Geometry, plies: Iterable[int] | None = None
) -> Iterator[TerminalPosition]:
    """Stream the terminal positions, ply by ply; within a ply X wins, then O wins, then draws.

    Positions come from the constraint search, so big boards start at once; nothing is stored.
    """
    wanted = tuple(range(geometry.size + 1)) if plies is None else tuple(sorted(set(plies)))
    for ply in wanted:
        for outcome, winner in _OUTCOMES:
            for x, o in search_terminal(geometry, ply, outcome):
                yield TerminalPosition(Position(geometry, x, o), winner)


# -- pair counting ----------------------------------------------------------------------------------

# fixed[s][outcome][ply]: positions of that outcome and ply fixed by symmetry s (s = 0 is the identity).
_Fixed = list[dict[str, list[int]]]


def _fixed_by_pairs(geometry: Geometry, on_progress: Callable[[float], None] | None) -> _Fixed:
    predicates = LinePredicates(geometry.lines, geometry.full_mask)
    block_sets = [symmetry_cycles(symmetry) for symmetry in geometry.symmetries]
    fixed: _Fixed = []
    for done, blocks in enumerate(block_sets):
        split = max(0, len(blocks) - SHARD_CELLS)
        x_wins = count_pairs(blocks, predicates.winning, predicates.free, 1, split=split)
        o_wins = count_pairs(blocks, predicates.free, predicates.winning, 0, split=split)
        draws = [0] * (geometry.size + 1)
        draws[geometry.size] = _full_draws(blocks, predicates, geometry)
        fixed.append({"x": [int(v) for v in x_wins], "o": [int(v) for v in o_wins], "draw": draws})
        if on_progress is not None:
            on_progress((done + 1) / len(block_sets))
    return fixed


def _full_draws(blocks: Sequence[int], predicates: LinePredicates, geometry: Geometry) -> int:
    """Full boards made of blocks where X has ceil(N/2) cells and neither player a line, by scanning X's sets."""
    x_cells = (geometry.size + 1) // 2
    dtype = np.uint64 if geometry.size >= 63 else np.int64
    low_blocks, high_blocks = list(blocks[:SHARD_CELLS]), list(blocks[SHARD_CELLS:])
    low_masks, low_sizes = block_masks(low_blocks, dtype)
    high_masks, high_sizes = block_masks(high_blocks, dtype)
    full = dtype(geometry.full_mask)
    total = 0
    for high, high_size in zip(high_masks, high_sizes, strict=True):
        keep = np.nonzero(low_sizes + high_size == x_cells)[0]
        if not len(keep):
            continue
        x = low_masks[keep] | high
        total += int(np.count_nonzero(predicates.free(x) & predicates.free(full ^ x)))
    return total


# -- constraint search --------------------------------------------------------------------------------


def _fixed_by_csp(
    geometry: Geometry, plies: Sequence[int], on_progress: Callable[[float], None] | None
) -> _Fixed:
    block_sets = [symmetry_cycles(symmetry) for symmetry in geometry.symmetries]
    fixed: _Fixed = []
    steps = len(block_sets) * max(1, len(plies))
    done = 0
    for blocks in block_sets:
        counts: dict[str, list[int]] = {
            outcome: [0] * (geometry.size + 1) for outcome in ("x", "o", "draw")
        }
        for ply in plies:
            for outcome in ("x", "o", "draw"):
                counts[outcome][ply] = count_terminal_ply(geometry, ply, outcome, blocks=blocks)
            done += 1
            if on_progress is not None:
                on_progress(done / steps)
        fixed.append(counts)
    return fixed


def _rows_from_fixed(
    geometry: Geometry, fixed: _Fixed, plies: Sequence[int]
) -> tuple[TerminalPly, ...]:
    order = len(fixed)
    rows = []
    for ply in plies:
        values = {}
        for outcome, key in (("x", "x_wins"), ("o", "o_wins"), ("draw", "draws")):
            burnside_sum = sum(counts[outcome][ply] for counts in fixed)
            values[key] = fixed[0][outcome][ply]
            values[f"{key}_classes"] = burnside_average(burnside_sum, order, f"{key} at ply {ply}")
        rows.append(TerminalPly(ply, **values))
    return tuple(rows)


# -- the reference: walk the game tree --------------------------------------------------------------


def terminal_by_search(geometry: Geometry) -> dict[int, dict[str, set[tuple[int, int]]]]:
    """Every terminal position as ``(x, o)`` bitmasks, by ply and outcome, from a walk of the game tree.

    Plays every game from the empty board, level by level, keeping the positions where play stops.
    """
    lines = geometry.lines
    full = geometry.full_mask
    found: dict[int, dict[str, set[tuple[int, int]]]] = {}
    level = {(0, 0)}
    for ply in range(geometry.size + 1):
        ended: dict[str, set[tuple[int, int]]] = {"x": set(), "o": set(), "draw": set()}
        following = set()
        for x, o in level:
            x_won = any(x & line == line for line in lines)
            o_won = any(o & line == line for line in lines)
            if x_won or o_won or x | o == full:
                ended["x" if x_won else "o" if o_won else "draw"].add((x, o))
                continue
            free = full & ~(x | o)
            while free:
                bit = free & -free
                free ^= bit
                following.add((x | bit, o) if ply % 2 == 0 else (x, o | bit))
        found[ply] = ended
        level = following
    return found


def _rows_by_search(geometry: Geometry, plies: Sequence[int]) -> tuple[TerminalPly, ...]:
    found = terminal_by_search(geometry)
    symmetries = geometry.symmetries

    def classes(positions: set[tuple[int, int]]) -> int:
        return len(
            {min((s.apply_mask(x), s.apply_mask(o)) for s in symmetries) for x, o in positions}
        )

    rows = []
    for ply in plies:
        ended = found[ply]
        rows.append(
            TerminalPly(
                ply,
                len(ended["x"]),
                len(ended["o"]),
                len(ended["draw"]),
                classes(ended["x"]),
                classes(ended["o"]),
                classes(ended["draw"]),
            )
        )
    return tuple(rows)
