"""The compiled (numba) Monte Carlo tree search of ultimate tic-tac-toe, as the search backend
that :class:`oxo.engines.mcts.MCTSEngine` runs for its states (``UtttState.compiled_search``).

The tree lives in flat arrays (see :func:`oxo.uttt.compiled.mcts_iterations`) that grow up to
:data:`MAX_NODES`; past that the search keeps simulating from its leaves without growing. The
random stream is seeded once, so with an iteration budget a seeded game repeats move for move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import numpy as np

    from oxo.uttt.rules import UtttState

#: Simulations run between clock checks, and the most tree nodes kept (about 16 bytes each).
CHUNK = 256
MAX_NODES = 1 << 22
#: At most 81 children per expansion.
FAN_OUT = 82


class _Clock(Protocol):
    def expired(self) -> bool: ...


class CompiledSearch:
    """UCT with uniformly random playouts in compiled code; one instance serves a whole game."""

    def __init__(
        self, seed: int | None = None, exploration: float = 0.7, expand_after: int = 2
    ) -> None:
        from oxo.uttt import compiled

        compiled.warm_up()
        self._compiled = compiled
        self.exploration = float(exploration)
        self.expand_after = int(expand_after)
        self._rng = compiled.make_rng(seed)
        self._arrays: tuple[np.ndarray, ...] | None = None

    def _tree(self, nodes: int) -> tuple[np.ndarray, ...]:
        import numpy as np

        if self._arrays is None or self._arrays[0].shape[0] < nodes:
            self._arrays = (
                np.empty(nodes, dtype=np.int32),  # first child
                np.empty(nodes, dtype=np.int16),  # number of children
                np.empty(nodes, dtype=np.int8),  # move
                np.empty(nodes, dtype=np.int8),  # mover
                np.empty(nodes, dtype=np.int32),  # visits
                np.empty(nodes, dtype=np.float32),  # summed results
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

    def run(
        self, state: UtttState, clock: _Clock, iterations: int | None
    ) -> tuple[list[tuple[int, int, float]], int, int]:
        """Search from ``state`` until ``clock`` expires or ``iterations`` simulations ran.

        Returns each root move with its visits and summed result (for the side to move), the
        simulations run and the tree's size.
        """
        import numpy as np

        c = self._compiled
        root = c.state_from(state)
        budget = iterations if iterations is not None else 1 << 62
        arrays = self._tree(min(MAX_NODES, FAN_OUT * min(budget, 4 * CHUNK) + FAN_OUT))
        first, nchild, move, mover, visits, value = arrays
        first[0], nchild[0], visits[0], value[0], mover[0] = -1, 0, 0, 0.0, 1 - state.player
        meta = np.array([1], dtype=np.int64)
        done = 0
        while done < budget:
            chunk = min(CHUNK, budget - done)
            want = int(meta[0]) + FAN_OUT * chunk
            if want > arrays[0].shape[0] and arrays[0].shape[0] < MAX_NODES:
                arrays = self._grow(
                    arrays, int(meta[0]), min(MAX_NODES, max(want, 2 * arrays[0].shape[0]))
                )
                self._arrays = arrays
                first, nchild, move, mover, visits, value = arrays
            done += c.mcts_iterations(
                root,
                chunk,
                self._rng,
                first,
                nchild,
                move,
                mover,
                visits,
                value,
                meta,
                self.exploration,
                self.expand_after,
            )
            if clock.expired():
                break
        f, k = int(first[0]), int(nchild[0])
        stats = (
            [(int(move[i]), int(visits[i]), float(value[i])) for i in range(f, f + k)]
            if f >= 0
            else []
        )
        return stats, done, int(meta[0])
