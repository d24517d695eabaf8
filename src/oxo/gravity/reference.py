"""Slow, obviously correct versions of the gravity algorithms, the yardsticks of the tests: plain
minimax (no pruning, no move ordering, no tricks: every column of every position, each position
once) on the two bitboards of a :class:`~oxo.gravity.board.GravityState`, and a walk of every
reachable position over game states. Small boards only."""

from __future__ import annotations

from collections.abc import Iterator

from oxo.game import Outcome, Player
from oxo.gravity.board import GravityBoard, GravityState

#: Answers of :func:`minimax` kept from one call to the next, keyed by position (the marks of X and
#: of O, ``GravityState.key``).
Memo = dict[tuple[int, int], tuple[Outcome, int]]


def minimax(state: GravityState, memo: Memo | None = None) -> tuple[Outcome, int]:
    """The outcome with best play and the ply at which the game ends: each side takes the quickest
    win, else a draw, else the slowest loss (a draw ends on the full board). ``memo`` may carry the
    answers from one call to the next on the same board."""
    if state.is_over:
        outcome = state.outcome
        assert outcome is not None
        return outcome, state.ply
    board = state.board
    # Each column's cells and its bottom cell.
    columns = tuple((board.column_mask(c), board.bit(0, c)) for c in range(board.cols))
    memo = {} if memo is None else memo
    if state.key in memo:
        return memo[state.key]
    return _minimax(board, columns, state.x, state.o, memo)


def _minimax(
    board: GravityBoard,
    columns: tuple[tuple[int, int], ...],
    x: int,
    o: int,
    memo: Memo,
) -> tuple[Outcome, int]:
    """:func:`minimax` of the unfinished position where X holds the cells ``x`` and O the cells
    ``o`` (not in ``memo`` yet), on the two bitboards themselves (a :class:`GravityState` per
    position cost four times as much): the rules of :meth:`GravityState.play` and
    :attr:`GravityState.outcome` spelled out, a mark lands on the lowest empty cell of its column,
    the mover wins with k in a row, the game is drawn when the board is full. ``memo`` keeps only
    positions where the game goes on: a move to one of them needs no look for a line."""
    mask = x | o
    ply = mask.bit_count()
    mover: Player = "x" if ply % 2 == 0 else "o"
    best: tuple[int, Outcome, int] | None = None
    for column, bottom in columns:
        cell = (mask + bottom) & column  # the lowest empty cell of the column; 0 if it is full
        if not cell:
            continue
        after_x, after_o = (x | cell, o) if mover == "x" else (x, o | cell)
        outcome: Outcome
        if (after_x, after_o) in memo:  # met before: a position where the game goes on
            outcome, end = memo[(after_x, after_o)]
        elif board.has_line(after_x if mover == "x" else after_o):
            outcome, end = mover, ply + 1
        elif mask | cell == board.full:
            outcome, end = "draw", ply + 1
        else:
            outcome, end = _minimax(board, columns, after_x, after_o, memo)
        # Rank for the mover: wins (sooner better) > draws > losses (later better).
        if outcome == mover:
            rank = 2_000 - end
        elif outcome == "draw":
            rank = 1_000
        else:
            rank = end
        if best is None or rank > best[0]:
            best = (rank, outcome, end)
    assert best is not None
    memo[(x, o)] = (best[1], best[2])  # only positions where the game goes on
    return best[1], best[2]


def positions_per_ply(board: GravityBoard) -> list[int]:
    """How many distinct positions each ply holds, walking every game (finished positions counted,
    not continued)."""
    return list(_walk(board, classes=False)[0])


def mirror_classes_per_ply(board: GravityBoard) -> list[int]:
    """How many positions each ply holds up to the left-right mirror, walking every game: each
    position is written row by row and counted once with its mirror image (each row reversed)."""
    found = _walk(board, classes=True)[1]
    assert found is not None
    return list(found)


#: What walks found, by board: positions per ply, and mirror classes per ply when asked for (the
#: tests ask for the same boards in several files; a walk of 4x4 with k=4 takes seconds).
_WALKED: dict[GravityBoard, tuple[tuple[int, ...], tuple[int, ...] | None]] = {}


def _walk(board: GravityBoard, classes: bool) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """Positions per ply and, with ``classes``, mirror classes per ply, from one walk."""
    known = _WALKED.get(board)
    if known is not None and (known[1] is not None or not classes):
        return known

    def canonical(state: GravityState) -> str:
        rows = state.to_rows()
        return min(rows, "/".join(row[::-1] for row in rows.split("/")))

    positions, mirrored = [], []
    for layer in _layers(board):
        positions.append(len(layer))
        if classes:
            mirrored.append(len({canonical(state) for state in layer}))
    _WALKED[board] = tuple(positions), tuple(mirrored) if classes else None
    return _WALKED[board]


def _layers(board: GravityBoard) -> Iterator[set[GravityState]]:
    """The distinct positions of each ply, from the empty board until no game goes on (one ply
    in memory at a time)."""
    layer = {GravityState(board)}
    while layer:
        yield layer
        layer = {
            state.play(col) for state in layer if not state.is_over for col in state.legal_moves
        }
