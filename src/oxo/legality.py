"""Legality: can a position occur in a real game, and if not, every reason why (seed 003).

X moves first, players alternate and play stops at the first complete line. A position is *legal*
(reachable) exactly when the mark counts fit (#X - #O is 0 or 1) and, unless the board is empty,
some mark of the player who moved last can be taken back to leave a board where nobody has a line:
that mark was the last move, and every earlier board was line-free, so any order of the earlier
marks is a game. This is the same definition as the position counter's (:mod:`oxo.counting`), and
the tests check it against a walk of the game tree.

With gravity (``4x4x4,gravity``: Score Four) a mark drops to the lowest empty cell of its column,
so no mark may float above an empty cell, the last move is the top mark of a column, and the
earlier marks need an order too: the marks must come off the columns' tops one at a time, the two
players' in turn, down to the empty board. Taking marks off a board without a line never makes one,
so only the last move must leave a board without a line; whether the rest can be taken off in turn
is searched (each set of column heights once), within :data:`ORDER_BUDGET` sets.

The win test itself is the innermost loop of everything, so :class:`WinChecker` tests a set of cells
for a complete line with a few shifts and ANDs per line direction, in the manner of seed 004: a line
is a start cell plus a fixed step in cell IDs, and only the cells that start a line need checking.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from oxo.geometry import Geometry, mask_cells
from oxo.position import Player, Position

_SIDES: tuple[Player, Player] = ("x", "o")

ReasonCode = Literal[
    "mark_counts",
    "both_aligned",
    "winner_count",
    "disjoint_lines",
    "stopped_earlier",
    "floating",
    "no_order",
]
#: Sets of column heights the search for an order of play (with gravity) may visit.
ORDER_BUDGET = 200_000
Status = Literal["x_to_move", "o_to_move", "x_won", "o_won", "draw"]


# -- fast win check ------------------------------------------------------------------------------


@dataclass(frozen=True)
class LineRun:
    """All lines of a geometry that step through cell IDs by ``step``: one per set bit of ``starts``.

    The line starting at cell ``c`` is ``c, c + step, ..., c + (k-1)·step``. Different board
    directions may share a step (on an n×2 board the anti-diagonal steps by 1 like a row); that is
    harmless, because a start cell and a step fix the line's cells.
    """

    step: int
    starts: int

    @property
    def start_cells(self) -> tuple[int, ...]:
        return mask_cells(self.starts)


@dataclass(frozen=True)
class WinChecker:
    """Tests sets of cells (bitmasks) for complete lines with shifts and ANDs, one run per line step."""

    k: int
    runs: tuple[LineRun, ...]
    full_mask: int

    @staticmethod
    def for_geometry(geometry: Geometry) -> WinChecker:
        """The checker for a geometry's lines (cached per geometry)."""
        return _checker(geometry)

    def line_starts(self, mask: int) -> list[tuple[int, int]]:
        """``(start cell bitmask, step)`` for every run: the start cells whose line ``mask`` contains."""
        out = []
        for run in self.runs:
            hits = mask & run.starts
            shifted = mask
            for _ in range(self.k - 1):
                if not hits:
                    break
                shifted >>= run.step
                hits &= shifted
            if hits:
                out.append((hits, run.step))
        return out

    def has_line(self, mask: int) -> bool:
        """Whether ``mask`` contains a complete line."""
        if self.k == 1:
            return mask != 0
        k_minus_1 = self.k - 1
        for run in self.runs:
            hits = mask & run.starts
            step = run.step
            shifted = mask
            for _ in range(k_minus_1):
                if not hits:
                    break
                shifted >>= step
                hits &= shifted
            if hits:
                return True
        return False

    def lines_in(self, mask: int) -> tuple[int, ...]:
        """The complete lines inside ``mask``, as bitmasks."""
        if self.k == 1:
            return tuple(1 << cell for cell in mask_cells(mask))
        lines = []
        for hits, step in self.line_starts(mask):
            for start in mask_cells(hits):
                lines.append(sum(1 << (start + i * step) for i in range(self.k)))
        return tuple(lines)


@lru_cache(maxsize=64)
def _checker(geometry: Geometry) -> WinChecker:
    starts: dict[int, int] = {}
    for cells in geometry.line_cells:
        if len(cells) < 2:
            continue
        step = cells[1] - cells[0]
        if any(b - a != step for a, b in zip(cells, cells[1:])):
            raise AssertionError(
                f"line {cells} of {geometry.spec} is not evenly spaced in cell IDs"
            )
        starts[step] = starts.get(step, 0) | 1 << cells[0]
    runs = tuple(LineRun(step, mask) for step, mask in sorted(starts.items()))
    return WinChecker(geometry.k, runs, geometry.full_mask)


def has_line(geometry: Geometry, mask: int) -> bool:
    """Whether a set of cells (bitmask) contains a complete line of the geometry."""
    return WinChecker.for_geometry(geometry).has_line(mask)


# -- legality ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Reason:
    """One reason a position cannot occur in a game: a stable code, the player concerned, and a sentence."""

    code: ReasonCode
    message: str
    player: Player | None = None

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "player": self.player, "message": self.message}


@dataclass(frozen=True)
class Legality:
    """The verdict on one position: legal, or every reason it is not.

    For a legal position ``status`` says who moves next or how the game ended, and ``last_moves``
    lists the cells that could have been the last move (empty for the empty board).
    """

    position: Position
    reasons: tuple[Reason, ...]
    last_moves: tuple[int, ...]

    @property
    def legal(self) -> bool:
        return not self.reasons

    @property
    def status(self) -> Status | None:
        """``x_to_move``, ``o_to_move``, ``x_won``, ``o_won`` or ``draw``; ``None`` when illegal."""
        if self.reasons:
            return None
        position = self.position
        winner = position.winner
        if winner is not None:
            return "x_won" if winner == "x" else "o_won"
        if position.is_full:
            return "draw"
        return "x_to_move" if position.turn == "x" else "o_to_move"

    @property
    def is_terminal(self) -> bool:
        """Legal, and the game is over (a win or a full board)."""
        return self.status in ("x_won", "o_won", "draw")

    def to_dict(self) -> dict[str, object]:
        return {
            **self.position.geometry.board_keys(),
            "position": self.position.to_status_string(),
            "legal": self.legal,
            "status": self.status,
            "last_moves": list(self.last_moves),
            "reasons": [reason.to_dict() for reason in self.reasons],
        }


def _common_cells(lines: tuple[int, ...], full: int) -> int:
    common = full
    for line in lines:
        common &= line
    return common


def check_position(position: Position) -> Legality:
    """Whether ``position`` can occur in a game from the empty board, and every reason it cannot.
    With gravity an order of play is searched; :class:`OutOfReachError` when the search passes
    :data:`ORDER_BUDGET` sets of column heights."""
    geometry = position.geometry
    checker = WinChecker.for_geometry(geometry)
    x, o = position.x, position.o
    x_lines, o_lines = checker.lines_in(x), checker.lines_in(o)
    x_count, o_count = x.bit_count(), o.bit_count()
    difference = x_count - o_count
    reasons: list[Reason] = []

    counts_fit = difference in (0, 1)
    if not counts_fit:
        reasons.append(
            Reason(
                "mark_counts",
                f"X has {x_count} marks and O has {o_count}: X moves first, so X has as many marks as O or one more",
            )
        )
    if x_lines and o_lines:
        reasons.append(
            Reason(
                "both_aligned", "both players have a complete line, but play stops at the first one"
            )
        )
    for player, lines, needed, rule in zip(
        _SIDES,
        (x_lines, o_lines),
        (1, 0),
        ("X can only win with one mark more than O", "O can only win with as many marks as X"),
    ):
        if lines and difference != needed:
            reasons.append(
                Reason("winner_count", f"{player.upper()} has a line but {rule}", player)
            )
    for player, lines in zip(_SIDES, (x_lines, o_lines)):
        if len(lines) > 1 and not _common_cells(lines, geometry.full_mask):
            shown = ", ".join("-".join(map(str, mask_cells(line))) for line in lines)
            reasons.append(
                Reason(
                    "disjoint_lines",
                    f"{player.upper()}'s lines {shown} share no cell, so no single last move made them all",
                    player,
                )
            )

    floating = geometry.floating(x | o)
    if floating:
        cells = ", ".join(map(str, mask_cells(floating)))
        reasons.append(
            Reason(
                "floating",
                (
                    f"cells {cells} hold marks"
                    if floating.bit_count() > 1
                    else f"cell {cells} holds a mark"
                )
                + " above an empty cell: with gravity a mark drops to the lowest empty cell of its column",
            )
        )
    last_moves: tuple[int, ...] = ()
    if counts_fit and position.ply:
        mover, other = (x, o) if difference == 1 else (o, x)
        if checker.has_line(other):
            candidates = 0
        else:
            mover_lines = x_lines if difference == 1 else o_lines
            # Taking back a mark must break every line of the mover: it lies on all of them.
            candidates = _common_cells(mover_lines, mover)
        if geometry.gravity and not floating:
            candidates = _orders(geometry, x, o, candidates & _tops(geometry, x | o))
        elif geometry.gravity:
            candidates = 0  # a floating mark, reported above
        last_moves = mask_cells(candidates)
        if not last_moves and geometry.gravity and not floating:
            reasons.append(
                Reason(
                    "no_order",
                    "with gravity no order of moves reaches it: the marks cannot be taken off the "
                    "tops of the columns one at a time, X's and O's in turn, down to the empty "
                    "board, without a line before the last move",
                )
            )
        elif not last_moves and not geometry.gravity:
            who = "X" if difference == 1 else "O"
            reasons.append(
                Reason(
                    "stopped_earlier",
                    f"{who} moved last, but the game was already over before any of {who}'s marks could have been placed",
                )
            )
    return Legality(position, tuple(reasons), last_moves if not reasons else ())


def _tops(geometry: Geometry, occupied: int) -> int:
    """The top mark of each column that has one (with gravity)."""
    return occupied & ~(occupied << geometry.column_count) & geometry.full_mask


def _orders(geometry: Geometry, x: int, o: int, last: int) -> int:
    """The cells of ``last`` (the last mover's marks it may have played last) after which the rest
    of the board (without a line: taking marks off never makes one) comes off the columns' tops in
    turn down to the empty board. Each position is searched once."""
    from oxo.errors import OutOfReachError

    failed: set[tuple[int, int]] = set()
    visited = [0]

    def peels(x: int, o: int) -> bool:
        if not x | o:
            return True
        if (x, o) in failed:
            return False
        visited[0] += 1
        if visited[0] > ORDER_BUDGET:
            raise OutOfReachError(
                f"no order of play was found within {ORDER_BUDGET:,} sets of column heights: the "
                "position may still be reachable; take some marks off to ask about a smaller one"
            )
        x_last = x.bit_count() > o.bit_count()
        mover = x if x_last else o
        for cell in mask_cells(_tops(geometry, x | o) & mover):
            bit = 1 << cell
            if peels(x & ~bit, o) if x_last else peels(x, o & ~bit):
                return True
        failed.add((x, o))
        return False

    x_last = x.bit_count() > o.bit_count()
    found = 0
    for cell in mask_cells(last):
        bit = 1 << cell
        if peels(x & ~bit, o) if x_last else peels(x, o & ~bit):
            found |= bit
    return found


def is_legal(position: Position) -> bool:
    """Whether ``position`` can occur in a game (the counter's definition of reachable)."""
    return check_position(position).legal
