"""Slow, obviously correct versions of the gravity algorithms, the yardsticks of the tests: plain
minimax over :class:`~oxo.gravity.board.GravityState` (no pruning, no bitboard tricks) and a walk
of every reachable position. Small boards only."""

from __future__ import annotations

from collections.abc import Iterator

from oxo.game import Outcome
from oxo.gravity.board import GravityBoard, GravityState


def minimax(
    state: GravityState, memo: dict[GravityState, tuple[Outcome, int]] | None = None
) -> tuple[Outcome, int]:
    """The outcome with best play and the ply at which the game ends: each side takes the quickest
    win, else a draw, else the slowest loss (a draw ends on the full board). ``memo`` may carry the
    answers from one call to the next on the same board."""
    return _minimax(state, {} if memo is None else memo)


def _minimax(
    state: GravityState, memo: dict[GravityState, tuple[Outcome, int]]
) -> tuple[Outcome, int]:
    if state in memo:
        return memo[state]
    if state.is_over:
        outcome = state.outcome
        assert outcome is not None
        return outcome, state.ply
    mover = state.to_move
    best: tuple[int, Outcome, int] | None = None
    for col in state.legal_moves:
        outcome, end = _minimax(state.play(col), memo)
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
    memo[state] = (best[1], best[2])
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
