"""The compiled (numba) Monte Carlo tree search of mega tic-tac-toe, as a search backend that
:class:`oxo.engines.mcts.MCTSEngine` runs for mega states (``MegaState.compiled_search``).

The tree lives in flat arrays (see :func:`oxo.mega.compiled.mcts_iterations`) that grow up to
:data:`MAX_NODES`; past that the search keeps simulating from its leaves without growing. The random
stream is xoshiro128+ seeded once, so with an iteration budget a seeded game repeats move for move.
"""

from __future__ import annotations

from typing import Any

from oxo import ninegrids
from oxo.ninegrids import CHUNK, MAX_NODES

__all__ = ["CHUNK", "MAX_NODES", "CompiledSearch"]


class CompiledSearch(ninegrids.CompiledSearch):
    """The shared driver (:class:`oxo.ninegrids.CompiledSearch`) over mega tic-tac-toe's compiled kernel."""

    def __init__(
        self,
        seed: int | None = None,
        exploration: float | None = None,
        expand_after: int = 2,
        **options: Any,
    ) -> None:
        from oxo.mega import compiled

        super().__init__(
            compiled, seed, 0.7 if exploration is None else exploration, expand_after, **options
        )
