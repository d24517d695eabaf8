"""The compiled (numba) Monte Carlo tree search of mega tic-tac-toe, as a search backend that
:class:`oxo.engines.mcts.MCTSEngine` runs for mega states (``MegaState.compiled_search``).

The tree lives in flat arrays (see :func:`oxo.mega.compiled.mcts_iterations`) that grow up to
:data:`MAX_NODES`; past that the search keeps simulating from its leaves without growing. The random
stream is xoshiro128+ seeded once, so with an iteration budget a seeded game repeats move for move.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from oxo import ninegrids
from oxo.ninegrids import CHUNK, MAX_NODES

if TYPE_CHECKING:
    from oxo.ninegrids import CompiledKernel

__all__ = ["CHUNK", "MAX_NODES", "CompiledSearch"]


class CompiledSearch(ninegrids.CompiledSearch):
    """The shared driver (:class:`oxo.ninegrids.CompiledSearch`) over mega tic-tac-toe's compiled kernel."""

    @staticmethod
    def _kernel() -> CompiledKernel:
        from oxo.mega import compiled

        return compiled
