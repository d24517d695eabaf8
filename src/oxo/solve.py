"""Perfect play: the game value of every reachable position, by retrograde analysis over the state space.

Values are computed level by level from the last one back to the root (the game graph is acyclic
and every move adds one mark), each level in one vectorised pass: the score of a position is read
off its terminal state, or is the best of its children's scores, which are gathered from a dense
int8 array addressed by base-3 index (see :mod:`oxo.space`).

A score says who wins and when: ``+(N + 1 - t)`` when X wins with a line at ply ``t``,
``-(N + 1 - t)`` when O does, ``0`` for a draw (N = cells on the board). X maximises, O minimises,
so a winner takes the quickest win and a loser the slowest loss, and a drawn game runs to the full
board. :func:`reference_value` is the slow, obviously correct negamax over :class:`Position` objects
that the tests hold the fast solver to.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np

from oxo.errors import OutOfReachError, PositionError
from oxo.geometry import Geometry, burnside_average, completing_cells
from oxo.position import Player, Position
from oxo.records import Record
from oxo.space import MAX_EMPTY, StateSpace, build_space, check_playable, permute_masks

Outcome = Literal["x", "o", "draw"]


@dataclass(frozen=True)
class Value:
    """The result of a position with best play: the winner (None for a draw) and plies until the game ends."""

    winner: Player | None
    plies: int

    @property
    def outcome(self) -> Outcome:
        return self.winner or "draw"

    def __str__(self) -> str:
        if self.winner is None:
            return "draw" if self.plies == 0 else f"draw (board full in {self.plies} plies)"
        if self.plies == 0:
            return f"{self.winner.upper()} has won"
        return f"{self.winner.upper()} wins in {self.plies} {'ply' if self.plies == 1 else 'plies'}"

    def to_dict(self) -> dict[str, object]:
        return {"value": self.outcome, "plies": self.plies}


def score_value(score: int, ply: int, size: int) -> Value:
    """The :class:`Value` of a score (see the module docstring) for a position after ``ply`` marks."""
    if score > 0:
        return Value("x", size + 1 - score - ply)
    if score < 0:
        return Value("o", size + 1 + score - ply)
    return Value(None, size - ply)


def value_score(value: Value, ply: int, size: int) -> int:
    """The score of a value for a position after ``ply`` marks (inverse of :func:`score_value`)."""
    if value.winner is None:
        return 0
    magnitude = size + 1 - (ply + value.plies)
    return magnitude if value.winner == "x" else -magnitude


@dataclass(frozen=True)
class PlyValues(Record):
    """How many reachable positions after ``ply`` marks are won for X, won for O or drawn with best play
    (positions already won included), how many end the game, and how many symmetry classes of each."""

    ply: int
    x: int
    o: int
    draw: int
    x_classes: int | None
    o_classes: int | None
    draw_classes: int | None
    terminal: int
    terminal_classes: int | None

    @property
    def positions(self) -> int:
        return self.x + self.o + self.draw


@dataclass(frozen=True)
class SolveTable:
    """The value of a board's empty position and, per ply, the values of all reachable positions."""

    geometry: Geometry
    value: Value
    plies: tuple[PlyValues, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            **self.geometry.board_keys(),
            "value": self.value.outcome,
            "plies_to_end": self.value.plies,
            "plies": [row.to_dict() for row in self.plies],
        }


@dataclass(frozen=True, eq=False)
class Solution:
    """Scores of every position reachable from the space's root, in a dense int8 array by base-3 index."""

    space: StateSpace
    scores: np.ndarray

    @property
    def root(self) -> Position:
        return self.space.root

    def __contains__(self, position: object) -> bool:
        """Whether the position is reachable from the root (so this solution knows its value)."""
        return position in self.space

    def level_scores(self, depth: int) -> np.ndarray:
        """The scores of the positions of one level, in the level's order."""
        scores: np.ndarray = self.scores[self.space.levels[depth].index]
        return scores

    def _score(self, position: Position) -> int:
        found = self.space.locate(position)
        if found is None:
            raise PositionError(
                f"position {position.to_status_string()} is not reachable from {self.root.to_status_string()}"
            )
        depth, row = found
        return int(self.scores[self.space.levels[depth].index[row]])

    def value(self, position: Position | None = None) -> Value:
        """The value of a position reachable from the root (by default the root itself)."""
        position = self.root if position is None else position
        return score_value(self._score(position), position.ply, position.geometry.size)

    def move_values(self, position: Position | None = None) -> dict[int, Value]:
        """The value of the position after each legal move (cell ID → value)."""
        position = self.root if position is None else position
        self._score(position)  # reachable, or an error
        return {cell: self.value(position.play(cell)) for cell in position.legal_moves}

    def best_moves(self, position: Position | None = None) -> tuple[int, ...]:
        """The legal moves that keep the position's value (the quickest win, or the slowest loss)."""
        position = self.root if position is None else position
        target = self._score(position)
        size = position.geometry.size
        return tuple(
            cell
            for cell, value in self.move_values(position).items()
            if value_score(value, position.ply + 1, size) == target
        )

    def ply_table(self) -> SolveTable:
        """Positions (and, from the empty board, symmetry classes by Burnside's lemma) won for X / won for O /
        drawn with best play, and terminal, per ply."""
        space = self.space
        geometry = space.geometry
        with_classes = space.root.ply == 0
        symmetries = geometry.symmetries if with_classes else ()
        rows = []
        for depth, level in enumerate(space.levels):
            scores = self.level_scores(depth)
            kinds = (scores > 0, scores < 0, scores == 0, space.terminal(depth))
            counts = [int(kind.sum()) for kind in kinds]
            classes: list[int | None] = [None] * len(kinds)
            if with_classes:
                sums = [0] * len(kinds)
                for symmetry in symmetries:
                    if symmetry.is_identity:
                        fixed = np.ones(len(level), dtype=bool)
                    else:
                        fixed = permute_masks(level.x, symmetry.perm) == level.x
                        fixed &= permute_masks(level.o, symmetry.perm) == level.o
                    for i, kind in enumerate(kinds):
                        sums[i] += int((fixed & kind).sum())
                order = len(symmetries)
                classes = [burnside_average(c, order, f"ply {level.ply}") for c in sums]
            x, o, draw, terminal = counts
            x_classes, o_classes, draw_classes, terminal_classes = classes
            rows.append(
                PlyValues(
                    level.ply,
                    x,
                    o,
                    draw,
                    x_classes,
                    o_classes,
                    draw_classes,
                    terminal,
                    terminal_classes,
                )
            )
        return SolveTable(geometry, self.value(), tuple(rows))


def solve(
    start: Geometry | Position,
    *,
    space: StateSpace | None = None,
    on_progress: Callable[[float], None] | None = None,
) -> Solution:
    """Solve every position reachable from ``start`` (a board's empty position or a given position).

    A prebuilt ``space`` of the same root may be passed to share it with other analyses.
    """
    (start if isinstance(start, Geometry) else start.geometry).refuse_gravity("the exact solver")
    if space is None:
        space = build_space(
            start, on_progress=(lambda f: on_progress(f / 2)) if on_progress else None
        )
    size = space.geometry.size
    scale = size + 1
    scores = np.zeros(space.dense_size, dtype=np.int8)
    last = space.empty_count
    for depth in range(last, -1, -1):
        level = space.levels[depth]
        if not len(level):
            continue
        mover = space.mover(depth)
        terminal = space.terminal(depth)
        level_scores = np.zeros(len(level), dtype=np.int8)
        # A won level: the last mover (not the one to move now) has the line.
        sign = -1 if mover == "x" else 1
        level_scores[level.won] = sign * (scale - level.ply)
        if depth < last:
            best = np.full(len(level), -128 if mover == "x" else 127, dtype=np.int8)
            pick = np.maximum if mover == "x" else np.minimum
            for cell in range(last):
                rows, child = space.children(depth, cell)
                best[rows] = pick(best[rows], scores[child])
            live = ~terminal
            level_scores[live] = best[live]
        scores[level.index] = level_scores
        if on_progress is not None:
            on_progress(0.5 + 0.5 * (last - depth + 1) / (last + 1))
    return Solution(space, scores)


def solution_within(position: Position, max_empty: int | None = None) -> Solution | None:
    """Every position reachable from ``position`` solved exactly, or ``None`` when it has more empty
    cells than ``max_empty`` (default, and at most: :data:`~oxo.space.MAX_EMPTY`, 16).

    This is the classic boards' exact solver as the engines' perfect play asks for it
    (:data:`oxo.engines.ExactSolver`); the registry hands it to them."""
    if position.geometry.gravity:  # the classic solver lets a mark go to any empty cell
        return None
    limit = MAX_EMPTY if max_empty is None else min(max_empty, MAX_EMPTY)
    if len(position.empty_cells) > limit:
        return None
    return solve(position)


def reference_value(position: Position, memo: dict[tuple[int, int], int] | None = None) -> Value:
    """The value of a position by plain memoised minimax over the marks (slow; for tests).

    It follows the rules in a few lines of its own, apart from the fast solvers: X moves when the
    counts are equal; a game ends when the player who just moved has a line, or the board is full.
    ``memo`` (positions to scores) may be shared between calls on the same board."""
    check_playable(position)
    memo = {} if memo is None else memo
    geometry = position.geometry
    score = _reference_score(position.x, position.o, memo, geometry.lines, geometry.full_mask)
    return score_value(score, position.ply, geometry.size)


def _reference_score(
    x: int, o: int, memo: dict[tuple[int, int], int], lines: tuple[int, ...], full: int
) -> int:
    """The score of (x, o): (cells + 1 - ply at the end) for X's win, its negative for O's, 0 a draw."""
    key = (x, o)
    if key in memo:
        return memo[key]
    ply = (x | o).bit_count()
    x_moved_last = ply % 2 == 1
    last = x if x_moved_last else o
    if any(last & line == line for line in lines):
        score = (full.bit_count() + 1 - ply) * (1 if x_moved_last else -1)
    elif x | o == full:
        score = 0
    else:
        children = []
        free = full & ~(x | o)
        while free:
            cell = free & -free
            free ^= cell
            if x_moved_last:
                children.append(_reference_score(x, o | cell, memo, lines, full))
            else:
                children.append(_reference_score(x | cell, o, memo, lines, full))
        score = min(children) if x_moved_last else max(children)
    memo[key] = score
    return score


# -- boards too large for a dense state space: the value of one position by a forcing search ------------


def forced_win_value(
    position: Position, *, max_plies: int | None = None, max_nodes: int | None = None
) -> Value | None:
    """The value of a position when its player to move can force a win, else None, by iterative deepening.

    For positions too large for :func:`solve` (such as the empty 3×3×3 board). "Can the mover win
    within d plies?" is an AND-OR search with a memo over symmetry classes; the first d that
    succeeds is the quickest forced win, which is also the minimax value's length (the winner hurries,
    the loser stalls). It does not tell a draw from a loss, so it returns None when no forced win is
    found within ``max_plies`` (default: to the full board). With ``max_nodes`` it raises
    :class:`oxo.errors.OutOfReachError` after visiting that many positions.
    """
    check_playable(position)
    if position.is_terminal:
        return Value(position.winner, 0)
    geometry = position.geometry
    empty = len(position.empty_cells)
    limit = empty if max_plies is None else min(max_plies, empty)
    search = _ForcingSearch(geometry, max_nodes)
    mover = position.to_move
    own, other = (position.x, position.o) if mover == "x" else (position.o, position.x)
    for plies in range(1, limit + 1, 2):
        if search.wins_within(own, other, plies):
            return Value(mover, plies)
    return None


class _ForcingSearch:
    """Can the player to move (marks ``own``) complete a line within ``plies`` plies against any defence?"""

    def __init__(self, geometry: Geometry, max_nodes: int | None = None) -> None:
        self.max_nodes = max_nodes
        self.nodes = 0
        self.lines = geometry.lines
        self.full = geometry.full_mask
        self.symmetries = geometry.symmetries
        self.memo: dict[tuple[int, int, int], bool] = {}

    def threats(self, own: int, other: int) -> int:
        """The empty cells where ``own`` would complete a line at once, as a mask."""
        return completing_cells(self.lines, own, other)

    def key(self, own: int, other: int, plies: int) -> tuple[int, int, int]:
        best = min((s.apply_mask(own), s.apply_mask(other)) for s in self.symmetries)
        return best[0], best[1], plies

    def wins_within(self, own: int, other: int, plies: int) -> bool:
        if plies < 1:
            return False
        if self.threats(own, other):
            return True
        if plies < 3:
            return False
        key = self.key(own, other, plies)
        if key in self.memo:
            return self.memo[key]
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise OutOfReachError(f"the forcing search gave up after {self.max_nodes} positions")
        free = self.full & ~(own | other)
        forced = self.threats(other, own)
        if forced & (forced - 1):
            result = False  # two enemy threats and no win of our own: the enemy completes one
        else:
            candidates = forced if forced else free
            result = False
            while candidates and not result:
                bit = candidates & -candidates
                candidates ^= bit
                result = self._all_replies_lose(own | bit, other, plies - 1)
        self.memo[key] = result
        return result

    def _all_replies_lose(self, own: int, other: int, plies: int) -> bool:
        """After our move: every enemy reply still lets us win within ``plies - 1`` plies."""
        free = self.full & ~(own | other)
        if not free:
            return False
        if self.threats(other, own):
            return False  # the enemy wins at once
        ours = self.threats(own, other)
        if ours & (ours - 1):
            return plies >= 2  # two threats: the enemy can block only one
        replies = ours if ours else free
        while replies:
            bit = replies & -replies
            replies ^= bit
            if not self.wins_within(own, other | bit, plies - 1):
                return False
        return True
