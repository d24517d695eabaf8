"""Alpha-beta search (negamax) with iterative deepening and a transposition table, over any game that
offers a static evaluation (``evaluate()``, the worth of a state for the side to move in (-1, 1)).

Scores are from the side to move: a win found ``n`` plies ahead scores ``WIN - n`` (so the quickest
win is preferred and the slowest loss), a draw 0, anything else the evaluation times ``EVAL_SCALE``.
Each node first looks for a win in one; in games where a threatened cell must be blocked at once
(``blocks_are_forced``), a node whose opponent threatens to win searches only the blocks, and two
threats with no win of its own are a loss. The table is keyed by the state's ``key`` (the symmetry
class on classic boards). Near the end of a game whose exact solver it was given is in reach, the
engine plays from the exact solution instead of searching.
"""

from __future__ import annotations

import random

from oxo.engines import base
from oxo.engines.base import (
    Clock,
    SearchReport,
    Tactics,
    blocking_moves,
    legal_or_raise,
    safe_moves,
)
from oxo.engines.exact import ExactCache, ExactSolver, proven_move
from oxo.game import GameState, Outcome, other

WIN = 1_000_000
EVAL_SCALE = 1000.0
#: Proven scores are beyond this (a win or loss within fewer than WIN - PROVEN plies).
PROVEN = WIN - 10_000
#: Empty cells up to which ``hard`` plays from the exact solution (solving 14 empty cells takes ~0.1 s).
EXACT_LIMIT = 14
_EXACT, _LOWER, _UPPER = 0, 1, 2
#: How far below the best root score the next root moves are searched, so that ties are exact.
_TIE = 1e-6
#: The share of a move's thinking time given to the game's tactics search, when it has one.
TACTICS_SHARE = 0.4
#: Seconds of the tactics search when the engine searches to a fixed depth instead of a time.
TACTICS_SECONDS = 0.2


class _Timeout(Exception):
    pass


class AlphaBetaEngine:
    """Negamax with alpha-beta pruning, iterative deepening within ``seconds`` (or to ``depth`` plies),
    a transposition table, and exact play once the game's ``solver`` (when it has one, see
    :data:`~oxo.engines.exact.ExactSolver`) is in reach (``exact_limit`` empty cells).

    ``tactics``, when given (the registry gives gomoku boards their forcing-move search), runs first
    with a share of the time: a forced win it finds is played at once, and when the opponent has
    one the search looks only at the moves that stop it."""

    name = "alphabeta"

    def __init__(
        self,
        seconds: float | None = 1.0,
        depth: int | None = None,
        seed: int | None = None,
        exact_limit: int = EXACT_LIMIT,
        name: str | None = None,
        solver: ExactSolver | None = None,
        tactics: Tactics | None = None,
    ) -> None:
        if seconds is None and depth is None:
            seconds = 1.0
        self.seconds = seconds
        self.depth = depth
        self._rng = random.Random(seed)
        self._exact = (
            ExactCache(solver, exact_limit) if exact_limit > 0 and solver is not None else None
        )
        self.name = name or self.name
        self.last: SearchReport | None = None
        self._table: dict[object, tuple[int, int, float, int | None]] = {}
        self._nodes = 0
        self._clock = Clock(None)
        self._pruned = False
        self._tactics = tactics
        self._defences: tuple[int, ...] = ()

    # -- the move ---------------------------------------------------------------------------------

    def choose(self, state: GameState) -> int:
        return self.search(state).move

    def search(self, state: GameState) -> SearchReport:
        """Search ``state`` within the budget; the report holds the move and what was proven."""
        clock = Clock(self.seconds)
        legal_or_raise(state)
        if self._exact is not None:
            solution = self._exact.get(state)
            if solution is not None:
                self.last = proven_move(self.name, state, solution, self._rng, clock)
                return self.last
        won = base.win_at_once(self.name, state, clock, depth=1)
        if won is not None:
            self.last = won
            return self.last
        self._defences = ()
        if self._tactics is not None:
            budget = TACTICS_SECONDS if self.seconds is None else self.seconds * TACTICS_SHARE
            advice = self._tactics(state, budget)
            if advice is not None and advice.move is not None:
                self.last = SearchReport.of_move(
                    self.name,
                    state,
                    advice.move,
                    clock,
                    nodes=advice.nodes,
                    value=advice.value,
                )
                return self.last
            if advice is not None:
                self._defences = advice.defences
        self._clock = clock
        self._nodes = 0
        self._pruned = False
        moves = list(self._root_moves(state))
        if len(self._table) > 2_000_000:
            self._table.clear()
        scores: dict[int, float] = {}
        best_move, best_score, reached = moves[0], -float(WIN), 0
        max_depth = self.depth if self.depth is not None else len(state.legal_moves)
        for depth in range(1, max_depth + 1):
            try:
                depth_scores = self._root(state, moves, depth)
            except _Timeout:
                break
            scores = depth_scores
            reached = depth
            top = max(scores.values())
            ties = [m for m in moves if scores[m] == top]
            best_move, best_score = ties[int(self._rng.random() * len(ties))], top
            moves.sort(key=lambda m: scores[m], reverse=True)
            if abs(top) >= PROVEN or clock.expired():
                break
        value = self._proven(state, best_score)
        expectation = (
            0.5 + 0.5 * max(-1.0, min(1.0, best_score / EVAL_SCALE))
            if abs(best_score) < PROVEN
            else None
        )
        self.last = SearchReport.of_move(
            self.name,
            state,
            best_move,
            clock,
            nodes=self._nodes,
            depth=reached,
            value=value,
            expectation=expectation,
        )
        return self.last

    def _root_moves(self, state: GameState) -> tuple[int, ...]:
        """The moves worth searching at the root: never one that lets the opponent win at once when
        another exists."""
        if getattr(state, "blocks_are_forced", False):
            blocks = blocking_moves(state)
            if blocks:
                return blocks
        candidates = getattr(state, "candidate_moves", None)
        moves = candidates() if candidates is not None else state.legal_moves
        if self._defences:
            # the opponent has a forced win that only these moves stop (the others lose to it)
            kept = [m for m in moves if m in self._defences]
            moves = tuple(kept) if kept else self._defences
        if len(moves) < len(state.legal_moves):
            self._pruned = True  # moves left out: a win or loss found is no longer a proof
        return safe_moves(state, moves)

    def _proven(self, state: GameState, score: float) -> Outcome | None:
        if self._pruned or abs(score) < PROVEN:
            return None
        mover = state.to_move
        assert mover is not None
        return mover if score > 0 else other(mover)

    # -- the search -------------------------------------------------------------------------------

    def _root(self, state: GameState, moves: list[int], depth: int) -> dict[int, float]:
        """Each root move's score. A move searched after the best so far gets a window just below that
        best, so a score equal to it is exact (a true tie) and a worse move comes back strictly lower."""
        scores: dict[int, float] = {}
        alpha = -float(WIN)
        for move in moves:
            score = -self._negamax(state.play(move), depth - 1, -float(WIN), -(alpha - _TIE), 1)
            scores[move] = score
            alpha = max(alpha, score)
        return scores

    def _negamax(self, state: GameState, depth: int, alpha: float, beta: float, ply: int) -> float:
        self._nodes += 1
        if self._nodes & 63 == 0 and self._clock.expired():
            raise _Timeout
        outcome = state.outcome
        if outcome is not None:
            return 0.0 if outcome == "draw" else -float(WIN - ply)
        if state.winning_moves():
            return float(WIN - ply - 1)
        forced = getattr(state, "blocks_are_forced", False)
        blocks: tuple[int, ...] = blocking_moves(state) if forced else ()
        if len(blocks) > 1:
            return -float(
                WIN - ply - 2
            )  # two threats and no win of our own: one of them gets through
        if depth <= 0 and not blocks:
            evaluate = getattr(state, "evaluate", None)
            return EVAL_SCALE * evaluate() if evaluate is not None else 0.0
        key = state.key
        entry = self._table.get(key)
        tt_move = None
        if entry is not None:
            entry_depth, flag, stored, tt_move = entry
            score = (
                stored - ply if stored > PROVEN else stored + ply if stored < -PROVEN else stored
            )
            if entry_depth >= depth:
                if (
                    flag == _EXACT
                    or (flag == _LOWER and score >= beta)
                    or (flag == _UPPER and score <= alpha)
                ):
                    return score
        if blocks:
            moves: tuple[int, ...] = blocks
            depth += 1  # a forced reply costs no depth: threat sequences are followed to the end
        else:
            candidates = getattr(state, "candidate_moves", None)
            moves = candidates() if candidates is not None else state.legal_moves
            if candidates is not None and len(moves) < len(state.legal_moves):
                self._pruned = True
            if tt_move is not None and tt_move in moves:
                moves = (tt_move, *(m for m in moves if m != tt_move))
        original_alpha = alpha
        best, best_move = -float(WIN), None
        for move in moves:
            score = -self._negamax(state.play(move), depth - 1, -beta, -alpha, ply + 1)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        flag = _UPPER if best <= original_alpha else _LOWER if best >= beta else _EXACT
        stored = best + ply if best > PROVEN else best - ply if best < -PROVEN else best
        self._table[key] = (depth, flag, stored, best_move)
        return best
