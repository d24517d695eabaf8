"""Monte Carlo tree search (UCT) with a solver, over any game.

Each simulation walks down the tree by the UCT rule, adds one node, plays the game out to the end
and counts the result for every node on the way (1 win, 0.5 draw, 0 loss for the side that moved
into it). On top of plain UCT:

* **solver**: a node whose mover has a child proven won is proven lost for the side that moved into it,
  and a node all of whose children are proven lost for their movers is proven won; proofs travel up
  the tree, and a proven win at the root is played at once;
* **tactics before any rollout**: a node whose side to move can win at once has that move as its only
  child; in games where threatened cells must be blocked (``blocks_are_forced``) only the blocks are tried;
* **rollouts that prefer winning and blocking moves**: a playout takes a win in one when it has one,
  blocks the opponent's win in one when it can, and otherwise moves at random.

Games with a compiled search (``compiled_search(seed, exploration, **options)``, mega and ultimate
tic-tac-toe) run that search instead of this pure-Python one, with the game's own settings unless
``exploration`` or ``options`` say otherwise; the engine keeps the root tactics and picks the move.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import Any

from oxo.engines import base
from oxo.engines.base import Clock, SearchReport, blocking_moves, legal_or_raise, safe_moves
from oxo.errors import OxoError
from oxo.game import GameState, Outcome, Player, other


class _Node:
    __slots__ = (
        "state",
        "move",
        "mover",
        "parent",
        "children",
        "untried",
        "visits",
        "value",
        "proven",
    )

    def __init__(
        self, state: GameState, move: int | None, mover: Player | None, parent: _Node | None
    ) -> None:
        self.state = state
        self.move = move
        self.mover = mover  # who made the move into this node
        self.parent = parent
        self.children: list[_Node] = []
        self.untried: list[int] | None = None
        self.visits = 0
        self.value = 0.0
        # +1: proven won for ``mover``, -1: proven lost for ``mover``, 0: not proven.
        self.proven = 0
        outcome = state.outcome
        if outcome is not None and mover is not None:
            self.proven = 1 if outcome == mover else -1 if outcome != "draw" else 0


def _tactical_moves(state: GameState) -> list[int]:
    """The moves the tree tries from a state: a win in one alone, the forced blocks, or every move."""
    wins = state.winning_moves()
    if wins:
        return [wins[0]]
    if getattr(state, "blocks_are_forced", False):
        blocks = blocking_moves(state)
        if blocks:
            return list(blocks)
    return list(state.legal_moves)


def rollout(state: GameState, rng: random.Random) -> str:
    """Play ``state`` out to the end with the tactical random policy; return the outcome."""
    while True:
        outcome = state.outcome
        if outcome is not None:
            return outcome
        wins = state.winning_moves()
        if wins:
            return state.to_move  # type: ignore[return-value]  # not over: someone is to move
        moves = blocking_moves(state) or state.legal_moves
        state = state.play(moves[int(rng.random() * len(moves))])


def _pick_compiled(
    stats: list[tuple[int, int, float, int]], allowed: set[int]
) -> tuple[int, int, float, int]:
    """The root move to play from a compiled search's statistics (move, visits, summed value,
    proof): among the ``allowed`` moves when any is there, a move proven to win; else the most
    visited (ties: the better average) among those not proven to lose, or among all when every
    one is."""
    choices = [s for s in stats if s[0] in allowed] or stats
    won = [s for s in choices if s[3] == 3]
    if won:
        return max(won, key=lambda s: s[1])
    alive = [s for s in choices if s[3] != 1] or choices
    return max(alive, key=lambda s: (s[1], s[2] / max(1, s[1])))


class MCTSEngine:
    """UCT with a solver and tactical rollouts, within ``seconds`` or ``iterations`` simulations per move.

    ``exploration`` is the UCT constant (``None``: the game's compiled search's own, else 0.7);
    ``options`` go to a game's compiled search (:mod:`oxo.uttt.search` lists ultimate
    tic-tac-toe's). The move played is a proven win if one was found, else the
    most visited child among those not proven to lose (and never one that lets the opponent win at once
    when another move does not).
    """

    name = "mcts"

    def __init__(
        self,
        seconds: float | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        exploration: float | None = None,
        name: str | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        if seconds is None and iterations is None:
            seconds = 1.0
        if seconds is not None and not seconds > 0:
            raise OxoError(f"search time must be positive seconds, got {seconds}")
        if iterations is not None and iterations < 1:
            raise OxoError(f"search iterations must be at least 1, got {iterations}")
        self.seconds = seconds
        self.iterations = iterations
        self.exploration = None if exploration is None else float(exploration)
        self.options = dict(options or {})
        self.seed = seed
        self._rng = random.Random(seed)
        self._compiled: Any = None
        self.name = name or self.name
        self.last: SearchReport | None = None

    def choose(self, state: GameState) -> int:
        return self.search(state).move

    def search(self, state: GameState) -> SearchReport:
        """Search ``state`` within the budget and report the chosen move. A game's compiled search
        is built (compiled or loaded, the first time) before the clock starts: the time reported
        and the budget are the search's own."""
        if self._compiled is None and getattr(state, "compiled_search", None) is not None:
            self._compiled = state.compiled_search(self.seed, self.exploration, **self.options)  # type: ignore[attr-defined]  # optional ability, present when chosen
        clock = Clock(self.seconds)
        legal_or_raise(state)
        won = base.win_at_once(self.name, state, clock)
        if won is not None:
            self.last = won
            return self.last
        tactical = _tactical_moves(state)
        safe = safe_moves(state, tactical)
        if len(safe) == 1:
            move = safe[0]
            self.last = SearchReport.of_move(
                self.name,
                state,
                move,
                clock,
                nodes=1,
                expectation=float("nan"),
            )
            return self.last
        if getattr(state, "compiled_search", None) is not None:
            return self._compiled_search(state, safe, clock)
        return self._python_search(state, safe, clock)

    # -- compiled search (games that bring their own) ----------------------------------------------------

    def _compiled_search(
        self, state: GameState, safe: tuple[int, ...], clock: Clock
    ) -> SearchReport:
        if self._compiled is None:
            self._compiled = state.compiled_search(self.seed, self.exploration, **self.options)  # type: ignore[attr-defined]  # optional ability, present when chosen
        stats, simulations, nodes = self._compiled.run(state, clock, self.iterations)
        move, visits, value, proof = _pick_compiled(stats, set(safe))
        proven: Outcome | None = None
        if proof == 3 or (stats and all(s[3] for s in stats)):
            # a proven win, or every move proven (the move chosen is then the best of them)
            mover = state.to_move
            assert mover is not None  # a searched position is not over
            proven = {1: other(mover), 2: "draw", 3: mover}[proof]
        self.last = SearchReport.of_move(
            self.name,
            state,
            move,
            clock,
            nodes=simulations,
            value=proven,
            expectation=value / max(1, visits),
        )
        return self.last

    # -- pure-Python search ------------------------------------------------------------------------

    def _python_search(self, state: GameState, safe: tuple[int, ...], clock: Clock) -> SearchReport:
        root = _Node(state, None, other(state.to_move), None)  # type: ignore[arg-type]  # not over: a player is to move
        root.untried = list(safe)
        self._rng.shuffle(root.untried)
        budget = self.iterations if self.iterations is not None else 1 << 62
        done = 0
        while done < budget and root.proven == 0:
            self._simulate(root)
            done += 1
            if clock.expired():
                break
        move, child = self._pick(root)
        value = None
        if child.proven == 1:
            value = child.mover
        elif root.proven != 0 and root.mover is not None:
            value = root.mover if root.proven == 1 else other(root.mover)
        self.last = SearchReport.of_move(
            self.name,
            state,
            move,
            clock,
            nodes=done,
            value=value,
            expectation=child.value / child.visits if child.visits else float("nan"),
        )
        return self.last

    @staticmethod
    def _pick(root: _Node) -> tuple[int, _Node]:
        children = root.children
        won = [c for c in children if c.proven == 1]
        if won:
            best = won[0]
        else:
            alive = [c for c in children if c.proven != -1] or children
            best = max(alive, key=lambda c: (c.visits, c.value / max(1, c.visits)))
        assert best.move is not None
        return best.move, best

    def _simulate(self, root: _Node) -> None:
        node = root
        # selection
        while node.proven == 0 and not node.untried and node.children:
            node = self._select(node)
        # expansion
        if node.proven == 0 and node.state.outcome is None:
            if node.untried is None:
                node.untried = _tactical_moves(node.state)
                self._rng.shuffle(node.untried)
            if node.untried:
                move = node.untried.pop()
                child = _Node(node.state.play(move), move, node.state.to_move, node)
                node.children.append(child)
                node = child
        # simulation
        if node.proven == 1:
            outcome: str = node.mover  # type: ignore[assignment]  # a proven node has a mover
        elif node.proven == -1:
            outcome = other(node.mover)  # type: ignore[arg-type]  # a proven node has a mover
        else:
            outcome = rollout(node.state, self._rng)
        # backpropagation, with proofs
        walk: _Node | None = node
        while walk is not None:
            walk.visits += 1
            if outcome == "draw":
                walk.value += 0.5
            elif outcome == walk.mover:
                walk.value += 1.0
            parent = walk.parent
            if parent is not None and parent.proven == 0:
                if walk.proven == 1:
                    parent.proven = -1  # the side to move at ``parent`` wins by moving to ``walk``
                elif (
                    walk.proven == -1
                    and not parent.untried
                    and all(c.proven == -1 for c in parent.children)
                ):
                    parent.proven = 1  # every move of the side to move at ``parent`` loses
            walk = parent

    def _select(self, node: _Node) -> _Node:
        log_n = math.log(node.visits)
        exploration = 0.7 if self.exploration is None else self.exploration
        best, best_score = node.children[0], -1.0
        for child in node.children:
            if child.proven == -1:
                continue
            if child.visits == 0:
                return child
            score = child.value / child.visits + exploration * math.sqrt(log_n / child.visits)
            if score > best_score:
                best, best_score = child, score
        return best
