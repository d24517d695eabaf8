"""Dead lines, open lines and exact winnability, and seed 004's dead-line rule put to the test.

A line is *dead* when both players have a mark in it: nobody can complete it any more. Seed 004
guesses that a 3×3 board is unwinnable exactly when it has eight dead lines, or seven dead lines and
two empty cells, and asks five questions about such boards. Here a position is *still winnable*
when some continuation of legal play (players alternating, but free to move anywhere, even helping
each other) ends with a winner. That is decided exactly for every reachable position by one
backward pass over the state space (a memo indexed by base-3 index, see :mod:`oxo.space`), and
:func:`reference_can_win` is the slow recursive version the tests compare it with.

On any board the rule is read with L = the number of lines in place of 8: unwinnable when all L
lines are dead, or L - 1 are dead and two cells are empty. (The seed's closing pseudocode says
"counter B equals 8 or counter B equals 8 and counter A equals 2"; its prose means 7 in the second
test, which is what is checked here.)

The seed draws most of its example boards with ``O`` for player 1 (who moves first) and ``X`` for
player 2, the other way round from oxo; :func:`from_seed_board` swaps the letters. A few (the
"turn 3" and "turn 4" boards, whose legend says X is player 1, and the "early unwinnable" board,
which has more X than O marks) are drawn with X first; :data:`SEED_EXAMPLES` records which.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from oxo.errors import PositionError
from oxo.geometry import Geometry, mask_cells
from oxo.position import Player, Position
from oxo.records import Record, record
from oxo.space import StateSpace, build_space, check_playable

# -- lines of one position ---------------------------------------------------------------------------


@dataclass(frozen=True)
class LineReport:
    """The lines of a position sorted by what can still happen in them (lines as tuples of cell IDs)."""

    position: Position
    dead: tuple[tuple[int, ...], ...]
    open_for_x: tuple[tuple[int, ...], ...]
    open_for_o: tuple[tuple[int, ...], ...]

    @property
    def empty(self) -> tuple[int, ...]:
        return self.position.empty_cells

    def to_dict(self) -> dict[str, object]:
        return {
            "dead_lines": [list(line) for line in self.dead],
            "open_for_x": [list(line) for line in self.open_for_x],
            "open_for_o": [list(line) for line in self.open_for_o],
            "empty_cells": list(self.empty),
        }


def line_report(position: Position) -> LineReport:
    """Dead lines (both marks in them) and the lines each player could still complete (no enemy mark)."""
    lines = position.geometry.lines
    return LineReport(
        position,
        tuple(mask_cells(line) for line in lines if line & position.x and line & position.o),
        tuple(mask_cells(line) for line in lines if not line & position.o),
        tuple(mask_cells(line) for line in lines if not line & position.x),
    )


def dead_line_count(position: Position) -> int:
    """How many lines hold marks of both players."""
    return sum(1 for line in position.geometry.lines if line & position.x and line & position.o)


def seed_rule_unwinnable(dead_lines: int, empty_cells: int, line_count: int) -> bool:
    """Seed 004's guess: unwinnable when every line is dead, or all but one are and two cells are empty."""
    return dead_lines == line_count or (dead_lines == line_count - 1 and empty_cells == 2)


def from_seed_board(text: str, first: str = "O", geometry: Geometry | None = None) -> Position:
    """A board drawn as in seed 004 (rows of ``O``/``X``/``•`` separated by ``/`` or newlines) as an oxo position.

    Most of seed 004's boards use ``O`` for player 1 (who moves first), the other way round from
    oxo, so by default the letters are swapped; pass ``first="X"`` for the few drawn with X first.
    """
    if first.upper() not in ("O", "X"):
        raise PositionError(f"the first player of a drawn board is 'O' or 'X', got {first!r}")
    table: dict[str, str | int | None] = {"•": ".", "\n": "/"}
    if first.upper() == "O":
        table.update({"O": "x", "o": "x", "X": "o", "x": "o"})
    return Position.from_string(
        text.strip().translate(str.maketrans(table)).replace(" ", ""), geometry
    )


# -- exact winnability ---------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Winnability:
    """For every position reachable from the space's root: can some continuation end with X winning, with O winning?

    ``x_can`` and ``o_can`` are dense boolean arrays indexed by base-3 index.
    """

    space: StateSpace
    x_can: np.ndarray
    o_can: np.ndarray

    def can_win(self, position: Position | None = None) -> tuple[bool, bool]:
        """(X can still win, O can still win) in some continuation of legal play."""
        position = self.space.root if position is None else position
        found = self.space.locate(position)
        if found is None:
            raise PositionError(
                f"position {position.to_status_string()} is not reachable from {self.space.root.to_status_string()}"
            )
        index = self.space.levels[found[0]].index[found[1]]
        return bool(self.x_can[index]), bool(self.o_can[index])

    def winnable(self, position: Position | None = None) -> bool:
        """Whether some continuation of legal play ends with a winner (a position already won counts)."""
        return any(self.can_win(position))

    def level_can_win(self, depth: int) -> tuple[np.ndarray, np.ndarray]:
        index = self.space.levels[depth].index
        return self.x_can[index], self.o_can[index]


def winnability(start: Geometry | Position, *, space: StateSpace | None = None) -> Winnability:
    """Exact winnability of every position reachable from ``start`` (one backward pass over the state space)."""
    space = build_space(start) if space is None else space
    x_can = np.zeros(space.dense_size, dtype=bool)
    o_can = np.zeros(space.dense_size, dtype=bool)
    last = space.empty_count
    for depth in range(last, -1, -1):
        level = space.levels[depth]
        if not len(level):
            continue
        last_mover_is_x = space.mover(depth) == "o"
        level_x = level.won & last_mover_is_x
        level_o = level.won & (not last_mover_is_x)
        if depth < last:
            for cell in range(last):
                rows, child = space.children(depth, cell)
                level_x[rows] |= x_can[child]
                level_o[rows] |= o_can[child]
        x_can[level.index] = level_x
        o_can[level.index] = level_o
    return Winnability(space, x_can, o_can)


def can_win(position: Position) -> tuple[bool, bool]:
    """(X can still win, O can still win) for one position, exploring only what follows it."""
    check_playable(position)
    return winnability(position).can_win(position)


def can_win_by_lines(position: Position, player: Player) -> bool | None:
    """Whether ``player`` can still win in some continuation of legal play, from the lines alone (cheap on
    any board): False when every line holds an enemy mark, True when a continuation is found in which
    ``player`` fills one open line while the other side plays elsewhere without completing a line of
    its own, None when this quick look cannot tell (:func:`can_win` decides exactly on small positions)."""
    winner = position.winner
    if position.is_terminal:
        return winner == player
    if position.turn is None:
        raise PositionError(
            f"position {position.to_status_string()} has impossible mark counts: X moves first"
        )
    own, other = (position.x, position.o) if player == "x" else (position.o, position.x)
    lines = position.geometry.lines
    open_lines = sorted(
        (line for line in lines if not line & other), key=lambda line: (line & ~own).bit_count()
    )
    if not open_lines:
        return False
    empty = position.empty_mask
    for line in open_lines:
        needed = (line & ~own).bit_count()
        # the other side plays between this side's moves: needed - 1 moves if this side moves next
        replies = needed - (1 if position.turn == player else 0)
        placed, spare = other, empty & ~line
        for cell in mask_cells(spare):
            if replies == 0:
                break
            bit = 1 << cell
            if any(line_ & bit and (placed | bit) & line_ == line_ for line_ in lines):
                continue
            placed |= bit
            replies -= 1
        if replies == 0:
            return True
    return None


def reference_can_win(
    position: Position, memo: dict[tuple[int, int], tuple[bool, bool]] | None = None
) -> tuple[bool, bool]:
    """The same as :func:`can_win`, by plain memoised recursion over :class:`Position` objects (slow; for tests)."""
    memo = {} if memo is None else memo
    key = (position.x, position.o)
    if key not in memo:
        winner = position.winner
        if winner is not None:
            memo[key] = (winner == "x", winner == "o")
        else:
            x_can = o_can = False
            for cell in position.legal_moves:
                child_x, child_o = reference_can_win(position.play(cell), memo)
                x_can, o_can = x_can or child_x, o_can or child_o
            memo[key] = (x_can, o_can)
    return memo[key]


# -- seed 004's questions ----------------------------------------------------------------------------

#: Seed 004's five questions, with L for the number of lines (8 on 3×3), and the seed's own answers.
SEED_QUESTIONS: tuple[tuple[str, str], ...] = (
    ("Is it possible to have L-1 dead lines and one empty cell?", "No"),
    ("Is it possible to have L-1 dead lines and three or more empty cells?", "Yes"),
    ("Is it possible to have two empty cells and fewer than L-1 dead lines?", "Yes"),
    ("Is it possible to have all L lines dead and still have empty cells?", "Yes"),
    (
        "Is it possible to have L-1 dead lines and two empty cells and still a winnable board?",
        "I don't think so?",
    ),
)

#: The example boards of seed 004 as drawn there, with the letter of the player who moved first
#: (O in most; X where the seed's legend says so or the mark counts allow nothing else) and the
#: number of dead lines the seed states for it (None where it states none).
SEED_EXAMPLES: tuple[tuple[str, str, str, int | None], ...] = (
    ("definite unwinnable", "OOX/XXO/OXO", "O", 8),
    ("early unwinnable", "OXO/•X•/XOX", "X", None),
    ("start of turn 3", "•OX/•••/•••", "X", 1),
    ("start of turn 4", "XOX/•••/•••", "X", 1),
    ("addressing 1, first", "OO•/OXX/XOX", "O", 5),
    ("addressing 1, second", "XOX/O•O/XXO", "O", 6),
    ("addressing 2", "O•X/X•O/O•X", "O", 7),
    ("addressing 3", "OOX/X•O/•OX", "O", 6),
    ("addressing 4", "OXX/XOO/•OX", "O", 8),
)


@dataclass(frozen=True)
class DeadEndRow(Record):
    """Reachable positions still in play (no winner, board not full) with so many dead lines and empty cells."""

    dead_lines: int
    empty: int
    winnable: int
    unwinnable: int


@dataclass(frozen=True)
class QuestionAnswer:
    """One of seed 004's questions answered exactly: yes/no, how many positions, and an example for a yes."""

    number: int
    question: str
    seed_answer: str
    answer: bool
    count: int
    example: str | None

    def to_dict(self) -> dict[str, object]:
        return record(self, {"number": "question", "question": "text", "count": "positions"})


@dataclass(frozen=True)
class DeadEndReport:
    """Seed 004's questions for one board, over every reachable position still in play."""

    geometry: Geometry
    rows: tuple[DeadEndRow, ...]
    questions: tuple[QuestionAnswer, ...]
    rule_says_unwinnable_but_winnable: int
    rule_says_winnable_but_unwinnable: int
    examples_wrongly_unwinnable: tuple[str, ...]
    examples_wrongly_winnable: tuple[str, ...]

    @property
    def line_count(self) -> int:
        return len(self.geometry.lines)

    @property
    def rule_disagreements(self) -> int:
        return self.rule_says_unwinnable_but_winnable + self.rule_says_winnable_but_unwinnable

    @property
    def positions(self) -> int:
        return sum(row.winnable + row.unwinnable for row in self.rows)

    @property
    def unwinnable(self) -> int:
        return sum(row.unwinnable for row in self.rows)

    def to_dict(self) -> dict[str, object]:
        return {
            **self.geometry.board_keys(),
            "lines": self.line_count,
            "positions_in_play": self.positions,
            "unwinnable_in_play": self.unwinnable,
            "table": [row.to_dict() for row in self.rows],
            "questions": [question.to_dict() for question in self.questions],
            "rule_disagreements": self.rule_disagreements,
            "rule_says_unwinnable_but_winnable": {
                "count": self.rule_says_unwinnable_but_winnable,
                "examples": list(self.examples_wrongly_unwinnable),
            },
            "rule_says_winnable_but_unwinnable": {
                "count": self.rule_says_winnable_but_unwinnable,
                "examples": list(self.examples_wrongly_winnable),
            },
        }


def deadend_report(
    geometry: Geometry, *, examples: int | None = 3, win: Winnability | None = None
) -> DeadEndReport:
    """Tabulate every reachable position still in play by dead lines, empty cells and exact winnability,
    answer seed 004's questions and count where its rule is wrong (with ``examples`` positions of each
    kind of disagreement; None for all of them)."""
    geometry.refuse_gravity("the dead-end report")
    win = winnability(geometry) if win is None else win
    space = win.space
    if space.root.ply != 0:
        raise PositionError("a dead-end report starts from the empty board")
    lines = geometry.lines
    line_count = len(lines)
    size = geometry.size
    dead_parts, empty_parts, winnable_parts, where_parts = [], [], [], []
    for depth, level in enumerate(space.levels):
        in_play = ~space.terminal(depth)
        if not in_play.any():
            continue
        x = level.x[in_play]
        o = level.o[in_play]
        dead = np.zeros(x.size, dtype=np.int32)
        for line in lines:
            mask = np.uint32(line)
            dead += ((x & mask) != 0) & ((o & mask) != 0)
        x_can, o_can = win.level_can_win(depth)
        dead_parts.append(dead)
        empty_parts.append(np.full(x.size, size - level.ply, dtype=np.int32))
        winnable_parts.append((x_can | o_can)[in_play])
        where_parts.append(
            np.stack(
                [np.full(x.size, depth, dtype=np.int32), np.flatnonzero(in_play).astype(np.int32)],
                axis=1,
            )
        )
    if dead_parts:
        dead = np.concatenate(dead_parts)
        empty = np.concatenate(empty_parts)
        winnable = np.concatenate(winnable_parts)
        where = np.concatenate(where_parts)
    else:
        dead = empty = np.zeros(0, dtype=np.int32)
        winnable = np.zeros(0, dtype=bool)
        where = np.zeros((0, 2), dtype=np.int64)

    rows = []
    keys = dead.astype(np.int64) * (size + 1) + empty
    for key in np.unique(keys):
        chosen = keys == key
        n_winnable = int(winnable[chosen].sum())
        rows.append(
            DeadEndRow(
                int(key // (size + 1)),
                int(key % (size + 1)),
                n_winnable,
                int(chosen.sum()) - n_winnable,
            )
        )

    def example(selection: np.ndarray, limit: int | None) -> tuple[str, ...]:
        found = np.flatnonzero(selection)[:limit]
        return tuple(
            space.position(int(where[i, 0]), int(where[i, 1])).to_status_string() for i in found
        )

    selections = (
        (dead == line_count - 1) & (empty == 1),
        (dead == line_count - 1) & (empty >= 3),
        (empty == 2) & (dead < line_count - 1),
        (dead == line_count) & (empty >= 1),
        (dead == line_count - 1) & (empty == 2) & winnable,
    )
    questions = []
    for number, ((text, seed_answer), selection) in enumerate(
        zip(SEED_QUESTIONS, selections, strict=True), start=1
    ):
        count = int(selection.sum())
        found = example(selection, 1)
        questions.append(
            QuestionAnswer(number, text, seed_answer, count > 0, count, found[0] if found else None)
        )

    rule = (dead == line_count) | ((dead == line_count - 1) & (empty == 2))
    wrongly_unwinnable = rule & winnable
    wrongly_winnable = ~rule & ~winnable
    return DeadEndReport(
        geometry,
        tuple(rows),
        tuple(questions),
        int(wrongly_unwinnable.sum()),
        int(wrongly_winnable.sum()),
        example(wrongly_unwinnable, examples),
        example(wrongly_winnable, examples),
    )
