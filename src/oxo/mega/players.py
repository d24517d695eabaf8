"""Computer players of mega tic-tac-toe: uniformly random, and Monte Carlo tree search (UCT).

A player is anything with ``name`` and ``choose(state) -> move index``. Both players here are
reproducible from a seed: the random player draws from its own :class:`random.Random`, and the
search from its own xoshiro128+ stream, so with an *iteration* budget a seeded game repeats move
for move. With a *time* budget the seed still fixes the random stream, but how many simulations
fit in the time depends on the machine, so the moves may differ between runs.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from oxo.errors import OxoError
from oxo.mega.rules import MegaState

if TYPE_CHECKING:
    import numpy as np

#: Time per move of the search when none is given (the "stronger setting" is a longer time).
DEFAULT_SECONDS = 1.0
#: Simulations run between clock checks, and the most tree nodes kept (about 16 bytes each).
CHUNK = 256
MAX_NODES = 1 << 22


class Player(Protocol):
    """What plays a side: a name for messages and a move choice for a position."""

    name: str

    def choose(self, state: MegaState) -> int: ...


class RandomPlayer:
    """Plays a legal move drawn uniformly among all legal moves (the engine's baseline)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def choose(self, state: MegaState) -> int:
        moves = state.legal_moves()
        if not moves:
            raise OxoError("the game is over: there is no move to choose")
        return moves[int(self._rng.random() * len(moves))]


@dataclass(frozen=True)
class SearchReport:
    """What the last search did: simulations, seconds, tree size, chosen move and its statistics."""

    simulations: int
    seconds: float
    nodes: int
    move: int
    visits: int
    win_rate: float
    """Mean result of the chosen move for the side to move (1 win, 0.5 draw, 0 loss)."""

    def to_dict(self) -> dict[str, object]:
        from oxo.mega.notation import format_move

        return {
            "simulations": self.simulations,
            "seconds": round(self.seconds, 4),
            "nodes": self.nodes,
            "move": format_move(self.move),
            "visits": self.visits,
            "win_rate": round(self.win_rate, 4),
        }


class MCTSPlayer:
    """Monte Carlo tree search (UCT with random playouts), compiled with numba.

    Give ``seconds`` per move or ``iterations`` (simulations) per move; with both, the search
    stops at whichever comes first. ``exploration`` is the UCT constant. The tree lives in flat
    arrays that grow up to :data:`MAX_NODES`; past that the search keeps simulating from its
    leaves without growing. The move played is the most visited child of the root.
    """

    name = "mcts"

    def __init__(
        self,
        seconds: float | None = None,
        iterations: int | None = None,
        seed: int | None = None,
        exploration: float = 0.7,
        expand_after: int = 2,
    ) -> None:
        if seconds is None and iterations is None:
            seconds = DEFAULT_SECONDS
        if seconds is not None and not seconds > 0:
            raise OxoError(f"search time must be positive seconds, got {seconds}")
        if iterations is not None and iterations < 1:
            raise OxoError(f"search iterations must be at least 1, got {iterations}")
        from oxo.mega import compiled

        compiled.warm_up()
        self._compiled = compiled
        self.seconds = seconds
        self.iterations = iterations
        self.exploration = float(exploration)
        self.expand_after = int(expand_after)
        self._rng = compiled.make_rng(seed)
        self._arrays: tuple[np.ndarray, ...] | None = None
        self.last: SearchReport | None = None

    def _tree(self, nodes: int) -> tuple[np.ndarray, ...]:
        import numpy as np

        if self._arrays is None or self._arrays[0].shape[0] < nodes:
            self._arrays = (
                np.empty(nodes, dtype=np.int32),  # first child
                np.empty(nodes, dtype=np.int16),  # number of children
                np.empty(nodes, dtype=np.int8),  # move
                np.empty(nodes, dtype=np.int8),  # mover
                np.empty(nodes, dtype=np.int32),  # visits
                np.empty(nodes, dtype=np.float32),  # value
            )
        return self._arrays

    @staticmethod
    def _grow(arrays: tuple[np.ndarray, ...], used: int, nodes: int) -> tuple[np.ndarray, ...]:
        import numpy as np

        grown = []
        for array in arrays:
            bigger = np.empty(nodes, dtype=array.dtype)
            bigger[:used] = array[:used]
            grown.append(bigger)
        return tuple(grown)

    def choose(self, state: MegaState) -> int:
        """Search from ``state`` within the budget and return the chosen move index."""
        import numpy as np

        c = self._compiled
        if state.is_over:
            raise OxoError("the game is over: there is no move to choose")
        legal = state.legal_moves()
        started = time.perf_counter()
        if len(legal) == 1:
            self.last = SearchReport(0, 0.0, 1, legal[0], 0, float("nan"))
            return legal[0]
        root = c.state_from(state)
        budget = self.iterations if self.iterations is not None else 1 << 62
        first_size = min(MAX_NODES, 82 * min(budget, 4 * CHUNK) + 82)
        arrays = self._tree(first_size)
        first, nchild, move, mover, visits, value = arrays
        first[0], nchild[0], visits[0], value[0], mover[0] = -1, 0, 0, 0.0, 1 - state.player
        meta = np.array([1], dtype=np.int64)
        done = 0
        while done < budget:
            chunk = min(CHUNK, budget - done)
            want = int(meta[0]) + 82 * chunk
            if want > arrays[0].shape[0] and arrays[0].shape[0] < MAX_NODES:
                arrays = self._grow(arrays, int(meta[0]), min(MAX_NODES, max(want, 2 * arrays[0].shape[0])))
                self._arrays = arrays
                first, nchild, move, mover, visits, value = arrays
            done += c.mcts_iterations(
                root, chunk, self._rng, first, nchild, move, mover, visits, value, meta, self.exploration, self.expand_after
            )
            if self.seconds is not None and time.perf_counter() - started >= self.seconds:
                break
        f, k = int(first[0]), int(nchild[0])
        children = range(f, f + k)
        best = max(children, key=lambda i: (int(visits[i]), float(value[i]) / max(1, int(visits[i]))))
        seconds = time.perf_counter() - started
        self.last = SearchReport(done, seconds, int(meta[0]), int(move[best]), int(visits[best]), float(value[best]) / max(1, int(visits[best])))
        return int(move[best])


def make_player(kind: str, *, seconds: float | None = None, iterations: int | None = None, seed: int | None = None) -> Player:
    """A computer player by name: ``random`` or ``mcts`` (``human`` is the CLI's business)."""
    if kind == "random":
        return RandomPlayer(seed)
    if kind == "mcts":
        return MCTSPlayer(seconds=seconds, iterations=iterations, seed=seed)
    raise OxoError(f"unknown player {kind!r}; choose random or mcts")
