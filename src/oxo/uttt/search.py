"""The compiled (numba) Monte Carlo tree search of ultimate tic-tac-toe, as the search backend
that :class:`oxo.engines.mcts.MCTSEngine` runs for its states (``UtttState.compiled_search``).

The tree lives in flat arrays (see :func:`oxo.uttt.compiled.mcts_iterations`) that grow up to
:data:`MAX_NODES`; past that the search keeps simulating from its leaves without growing. The
random stream is seeded once, so with an iteration budget a seeded game repeats move for move.
"""

from __future__ import annotations

from oxo import ninegrids
from oxo.ninegrids import CHUNK, MAX_NODES

__all__ = ["CHUNK", "MAX_NODES", "CompiledSearch"]


class CompiledSearch(ninegrids.CompiledSearch):
    """The shared driver (:class:`oxo.ninegrids.CompiledSearch`) over ultimate tic-tac-toe's compiled kernel."""

    def __init__(
        self, seed: int | None = None, exploration: float = 0.7, expand_after: int = 2
    ) -> None:
        from oxo.uttt import compiled

        super().__init__(compiled, seed, exploration, expand_after)
