"""The exact value of a position on a board with gravity of at most 64 cells (Score Four, Connect
Four and their relatives): whether the side to move wins, draws or loses with best play, and how
soon (its score: the sooner a win, the higher), with the best moves for perfect play.

This is the road of Connect Four's solvers, for boxes of any shape: depth-first alpha-beta over
the score of the side to move, with

* a win at once for the mover ends the search of a position, two threats of the other side (cells
  where it would complete a line) playable at once lose it, one must be blocked;
* a move under a cell where the other side would complete a line (a move that makes that cell
  playable) is never tried while another move is left: it loses at once;
* the scores a position can still reach (no win sooner than the mover's next move, no loss sooner
  than the other side's second) narrow the window;
* moves tried in the order of the threats they make, those the mover could play next first;
* a transposition table keyed by both sides' marks exactly (a slot is replaced by the newest
  position; a score is kept with whether it is exact, a lower or an upper bound).

A win, draw or loss is one search of the window around a draw; the exact score narrows down by
searches of null windows. It answers what the proof-number search of boxes
(:mod:`oxo.proofs.wide`) does not settle, the quiet positions where neither side forces a line by
threats, but it proves no more than a value: it writes no certificate. The hot loop is compiled
with numba (:func:`_negamax`); the columns run along the first axis of the geometry, as
everywhere in oxo (:meth:`oxo.geometry.Geometry.playable`).
"""

from __future__ import annotations

import numpy as np

from oxo.compiled import without_refcounts
from oxo.errors import OutOfReachError, PositionError
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.proofs.kernel import lowest, popcount
from oxo.solve import Value, score_value

#: The search's answer when it ran out of its positions (never a score: scores are -64..64).
_STOPPED = 1000
#: The table of perfect play's solver (:func:`drop_solution`): 2**18 positions, 4.7 MB.
SOLUTION_TABLE_BITS = 18


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
        # each depth's moves in the order they are tried, and their scores (the search's scratch)
        self._order = np.zeros((geometry.size + 1, 128), dtype=np.int64)

    @property
    def nodes(self) -> int:
        """Positions searched so far, over every question asked of this solver."""
        return int(self._counts[0])

    def value(self, position: Position, max_nodes: int | None = None) -> int | None:
        """1 when the side to move in ``position`` wins with best play, 0 a draw, -1 a loss; None
        when ``max_nodes`` more positions did not settle it. A finished game is answered from its
        end: the side to move there has lost (the other completed a line) or drawn (a full
        board)."""
        found = self.window(position, -1, 1, max_nodes)
        if found is None:
            return None
        return (found > 0) - (found < 0)  # outside the window a bound, but of the right sign

    def score(self, position: Position, max_nodes: int | None = None) -> int | None:
        """The exact score of ``position`` for the side to move: ``cells + 1 - P`` when it wins
        and the game, played best by both sides (the winner as soon as it can, the loser as late),
        ends with P marks on the board; the negative of that when it loses; 0 a draw. None when
        ``max_nodes`` more positions did not settle it. A finished game scores from its end (0,
        or negative: the side to move has lost). It narrows the score down by searches of a null
        window, as Connect Four's solvers do, each one's table kept for the next."""
        low, high = -self.geometry.size, self.geometry.size
        budget = None if max_nodes is None else self.nodes + max_nodes
        while low < high:
            middle = (low + high) // 2
            # the windows nearer a draw first: the searches of small scores are the cheap ones
            if middle <= 0 and int(low / 2) < middle:
                middle = int(low / 2)
            elif middle >= 0 and int(high / 2) > middle:
                middle = int(high / 2)
            rest = None if budget is None else max(budget - self.nodes, 0)
            found = self.window(position, middle, middle + 1, rest)
            if found is None:
                return None
            if found <= middle:
                high = found
            else:
                low = found
        return low

    def window(
        self, position: Position, alpha: int, beta: int, max_nodes: int | None = None
    ) -> int | None:
        """The score of ``position`` for the side to move if it lies strictly between ``alpha``
        and ``beta``; else a bound on it: at most ``alpha`` an upper bound, at least ``beta`` a
        lower one (a search that fails soft: :func:`_negamax`). None when ``max_nodes`` positions
        did not settle it."""
        if position.geometry != self.geometry:
            raise PositionError(
                f"a position of {position.geometry.spec}, asked of a solver of {self.geometry.spec}"
            )
        if position.winner is not None:
            return -(self.geometry.size + 1 - position.ply)
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
            alpha,
            beta,
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
            self._order,
        )
        return None if abs(found) == _STOPPED else int(found)


class DropSolution:
    """Values and best moves of the positions of one board with gravity, for perfect play
    (:class:`oxo.engines.exact.PerfectEngine`): the quickest win, the slowest loss, or a move that
    keeps the draw, from :meth:`DropSolver.score`. It holds the positions with at most ``limit``
    empty cells (:class:`DropSolutions` picks a limit it answers in a moment)."""

    def __init__(self, solver: DropSolver, limit: int) -> None:
        self.solver = solver
        self.limit = limit

    def __contains__(self, state: object) -> bool:
        return (
            isinstance(state, Position)
            and state.geometry == self.solver.geometry
            and len(state.empty_cells) <= self.limit
        )

    def _score(self, position: Position) -> int:
        found = self.solver.score(position)
        assert found is not None, "a search without a limit of positions always ends"
        return found

    def value(self, state: Position) -> Value:
        """The result of ``state`` with best play: the winner and the plies to the end."""
        if state.winner is not None:
            return Value(state.winner, 0)
        score = self._score(state)  # for the side to move; score_value wants X's
        return score_value(
            -score if state.to_move == "o" else score, state.ply, state.geometry.size
        )

    def best_moves(self, state: Position) -> tuple[int, ...]:
        """The moves of ``state`` (cells) that keep its value at its best: each child's score is
        asked with a window around the best one only, so the others cost little."""
        best = self._score(state)
        found = []
        for move in state.legal_moves:
            child = state.play(move)
            if child.is_over:  # a line completed, the quickest win, or the last cell filled
                found.append(move)
                continue
            seen = self.solver.window(child, -best - 1, -best + 1)
            if seen == -best:
                found.append(move)
        return tuple(found)


class DropSolutions:
    """Perfect play's exact solver for boards with gravity of at most 64 cells
    (:data:`oxo.engines.ExactSolver`): ``solutions(state, limit)`` is a :class:`DropSolution` for a
    position of such a board with at most ``limit`` empty cells (default :attr:`reach`), None for
    any other position. Each solution has a solver (and table) of its own: an engine keeps its
    solution for a whole game, and no two engines share a table."""

    #: The empty cells perfect play asks it about (:func:`oxo.engines.exact.solver_reach`): on
    #: Score Four a perfect move with 24 left took at most 0.07 s of the 26 positions of the
    #: benchmark, with 28 left up to 13 s, with 32 up to minutes (docs/boxes.md).
    reach = 24

    def __call__(self, state: object, limit: int | None = None) -> DropSolution | None:
        if not isinstance(state, Position):
            return None
        geometry = state.geometry
        limit = self.reach if limit is None else limit
        if not geometry.gravity or geometry.size > 64 or len(state.empty_cells) > limit:
            return None
        return DropSolution(DropSolver(geometry, table_bits=SOLUTION_TABLE_BITS), limit)


#: The exact solver the registry hands the engines for boxes with gravity.
drop_solution = DropSolutions()


@without_refcounts
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


@without_refcounts
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
    order: np.ndarray,
) -> int:
    """The score for the side to move (marks ``mine``), fail-soft within the window (alpha, beta):
    a result at most alpha is an upper bound, at least beta a lower bound, between them exact; or
    +-_STOPPED when the positions ran out. A game won with P marks on the board scores
    cells + 1 - P for the winner (its negative for the loser), a draw 0: the sooner the win, the
    higher."""
    counts[0] += 1
    if counts[1] >= 0 and counts[0] > counts[1]:
        return _STOPPED
    one = np.uint64(1)
    taken = mine | theirs
    left = popcount(full & ~taken)  # empty cells
    moves = full & ~taken & (bottom | (taken >> layer))
    if moves == 0:
        return 0
    if _threats(mine, theirs, lines) & moves:
        return left  # a win at once
    danger = _threats(theirs, mine, lines)
    forced = danger & moves
    if forced:
        if forced & (forced - one):
            return 1 - left  # two threats: the other side wins at its next move
        moves = forced
    moves &= ~(danger << layer)  # a move under the other side's threat loses at once
    if moves == 0:
        return 1 - left
    # Every move left keeps the other side from a win at once, and the mover has none: the mover
    # wins at its next move at best, the other side at its second at worst (a draw where the
    # board fills first).
    high = max(left - 2, 0)
    low = min(3 - left, 0)
    if high <= alpha:
        return high
    if low >= beta:
        return low
    beta = min(beta, high)
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
    # The moves in the order they are tried (``order``'s row of this depth: cells, then scores).
    row = order[popcount(taken)]
    n = 0
    rest = moves
    while rest:
        low_bit = rest & (~rest + one)
        rest ^= low_bit
        cell = lowest(low_bit)
        after = taken | low_bit
        made = _threats(mine | low_bit, theirs, lines) & ~after
        playable_next = full & ~after & (bottom | (after >> layer))
        score = 16 * popcount(made) + 64 * popcount(made & playable_next)
        j = n
        while j > 0 and row[64 + j - 1] < score:  # insertion, highest score first
            row[j] = row[j - 1]
            row[64 + j] = row[64 + j - 1]
            j -= 1
        row[j] = cell
        row[64 + j] = score
        n += 1
    start = alpha
    best = -_STOPPED
    for i in range(n):
        bit = one << np.uint64(row[i])
        found = -_negamax(
            theirs,
            mine | bit,
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
            order,
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
