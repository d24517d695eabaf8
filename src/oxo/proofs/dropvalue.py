"""The exact value of a position on a board with gravity of at most 64 cells (Score Four, Connect
Four and their relatives): whether the side to move wins, draws or loses with best play.

This is the road of Connect Four's solvers, for boxes of any shape: depth-first alpha-beta over
the win, draw and loss of the side to move, with

* a win at once for the mover ends the search of a position, two threats of the other side (cells
  where it would complete a line) playable at once lose it, one must be blocked;
* a move under a cell where the other side would complete a line (a move that makes that cell
  playable) is never tried while another move is left: it loses at once;
* moves tried in the order of the threats they make, those the mover could play next first;
* a transposition table keyed by both sides' marks exactly (a slot is replaced by the newest
  position; a value is kept with whether it is exact, a lower or an upper bound).

It answers what the proof-number search of boxes (:mod:`oxo.proofs.wide`) does not settle, the
quiet positions where neither side forces a line by threats, but it proves no more than a value:
it writes no certificate. The hot loop is compiled with numba (:func:`_negamax`); the columns run
along the first axis of the geometry, as everywhere in oxo (:meth:`oxo.geometry.Geometry.playable`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from oxo.errors import OutOfReachError, PositionError
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.proofs.kernel import lowest, popcount

#: The search's answer when it ran out of its positions (never a value: values are -1, 0, 1).
_STOPPED = 3


class DropSolver:
    """Exact values of positions on one board with gravity (``geometry.gravity``, at most 64 cells).

    ``table_bits``: the transposition table holds 2**table_bits positions (18 bytes each). The
    table is kept from one question to the next on the same board."""

    def __init__(self, geometry: Geometry, table_bits: int = 22) -> None:
        if not geometry.gravity:
            raise PositionError(
                f"{geometry.spec} has no gravity: this search is for gravity boards"
            )
        if geometry.size > 64:
            raise OutOfReachError(
                f"{geometry.spec} has {geometry.size} cells: this search holds at most 64"
            )
        self.geometry = geometry
        self._lines = np.array(list(geometry.lines), dtype=np.uint64)
        layer = geometry.size // geometry.shape[0]
        self._layer = np.uint64(layer)
        self._bottom = np.uint64(((1 << layer) - 1) << (geometry.size - layer))
        self._full = np.uint64((1 << geometry.size) - 1)
        self._mask = np.uint64((1 << table_bits) - 1)
        self._mine = np.zeros(1 << table_bits, dtype=np.uint64)
        self._theirs = np.zeros(1 << table_bits, dtype=np.uint64)
        self._value = np.zeros(1 << table_bits, dtype=np.int8)
        self._flag = np.full(1 << table_bits, -1, dtype=np.int8)  # -1: an empty slot
        # positions searched in all, the limit of this question
        self._counts = np.zeros(2, dtype=np.int64)

    @property
    def nodes(self) -> int:
        """Positions searched so far, over every question asked of this solver."""
        return int(self._counts[0])

    def value(self, position: Position, max_nodes: int | None = None) -> int | None:
        """1 when the side to move in ``position`` wins with best play, 0 a draw, -1 a loss; None
        when ``max_nodes`` more positions did not settle it. A finished game is answered from its
        end: the side to move there has lost (the other completed a line) or drawn (a full
        board)."""
        if position.geometry != self.geometry:
            raise PositionError(
                f"a position of {position.geometry.spec}, asked of a solver of {self.geometry.spec}"
            )
        if position.winner is not None:
            return -1
        if position.is_full:
            return 0
        if position.to_move is None:
            raise PositionError(
                f"{position.to_status_string()} cannot occur in a game (oxo check says why)"
            )
        if position.to_move == "x":
            mover, other = position.x, position.o
        else:
            mover, other = position.o, position.x
        self._counts[1] = -1 if max_nodes is None else self._counts[0] + max_nodes
        found = _negamax(
            np.uint64(mover),
            np.uint64(other),
            -1,
            1,
            self._lines,
            self._layer,
            self._bottom,
            self._full,
            self._mask,
            self._mine,
            self._theirs,
            self._value,
            self._flag,
            self._counts,
        )
        return None if abs(found) == _STOPPED else int(found)


@njit(cache=True)
def _threats(mine: np.uint64, theirs: np.uint64, lines: np.ndarray) -> np.uint64:
    """The cells (empty or not yet playable) where ``mine`` would complete a line."""
    out = np.uint64(0)
    one = np.uint64(1)
    for i in range(lines.shape[0]):
        line = lines[i]
        if line & theirs:
            continue
        rest = line & ~mine
        if rest != 0 and (rest & (rest - one)) == 0:
            out |= rest
    return out


@njit(cache=True)
def _negamax(
    mine: np.uint64,
    theirs: np.uint64,
    alpha: int,
    beta: int,
    lines: np.ndarray,
    layer: np.uint64,
    bottom: np.uint64,
    full: np.uint64,
    mask: np.uint64,
    tmine: np.ndarray,
    ttheirs: np.ndarray,
    tvalue: np.ndarray,
    tflag: np.ndarray,
    counts: np.ndarray,
) -> int:
    """The value for the side to move (marks ``mine``) within the window (alpha, beta) of -1..1,
    or +-_STOPPED when the positions ran out."""
    counts[0] += 1
    if counts[1] >= 0 and counts[0] > counts[1]:
        return _STOPPED
    one = np.uint64(1)
    taken = mine | theirs
    moves = full & ~taken & (bottom | (taken >> layer))
    if moves == 0:
        return 0
    if _threats(mine, theirs, lines) & moves:
        return 1
    danger = _threats(theirs, mine, lines)
    forced = danger & moves
    if forced:
        if forced & (forced - one):
            return -1
        moves = forced
    moves &= ~(danger << layer)  # a move under the other side's threat loses at once
    if moves == 0:
        return -1
    h = (mine * np.uint64(0x9E3779B97F4A7C15)) ^ (theirs * np.uint64(0xC2B2AE3D27D4EB4F))
    h ^= h >> np.uint64(31)
    slot = np.int64(h & mask)
    if tflag[slot] >= 0 and tmine[slot] == mine and ttheirs[slot] == theirs:
        kept = int(tvalue[slot])
        kind = tflag[slot]
        if kind == 0:
            return kept
        if kind == 1:  # a lower bound
            if kept >= beta:
                return kept
            alpha = max(alpha, kept)
        else:  # an upper bound
            if kept <= alpha:
                return kept
            beta = min(beta, kept)
    cells = np.empty(64, dtype=np.int64)
    scores = np.empty(64, dtype=np.int64)
    n = 0
    left = moves
    while left:
        low = left & (~left + one)
        left ^= low
        cell = lowest(low)
        after = taken | low
        made = _threats(mine | low, theirs, lines) & ~after
        playable_next = full & ~after & (bottom | (after >> layer))
        score = 16 * popcount(made) + 64 * popcount(made & playable_next)
        j = n
        while j > 0 and scores[j - 1] < score:  # insertion, highest score first
            cells[j] = cells[j - 1]
            scores[j] = scores[j - 1]
            j -= 1
        cells[j] = cell
        scores[j] = score
        n += 1
    start = alpha
    best = -2
    for i in range(n):
        low = one << np.uint64(cells[i])
        found = -_negamax(
            theirs,
            mine | low,
            -beta,
            -alpha,
            lines,
            layer,
            bottom,
            full,
            mask,
            tmine,
            ttheirs,
            tvalue,
            tflag,
            counts,
        )
        if found == -_STOPPED or found == _STOPPED:
            return _STOPPED
        if found > best:
            best = found
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    tmine[slot] = mine
    ttheirs[slot] = theirs
    tvalue[slot] = best
    tflag[slot] = 1 if best >= beta else (2 if best <= start else 0)
    return best
