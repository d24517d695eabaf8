"""The compiled (numba) Monte Carlo tree search of ultimate tic-tac-toe, as the search backend
that :class:`oxo.engines.mcts.MCTSEngine` runs for its states (``UtttState.compiled_search``).

The tree lives in flat arrays (see :func:`oxo.compiled.make_tree_search`) that grow up to
:data:`MAX_NODES`; past that the search keeps simulating from its leaves without growing. The
random stream is seeded once, so with an iteration budget a seeded game repeats move for move.

:data:`HARD` is the configuration ``hard`` plays with; :data:`PLAIN` is the plain UCT search
``hard`` ran before it (kept, simulation for simulation, as the opponent of the strength benchmark).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from oxo import ninegrids
from oxo.ninegrids import CHUNK, MAX_NODES

if TYPE_CHECKING:
    from oxo.ninegrids import CompiledKernel

__all__ = ["CHUNK", "HARD", "MAX_NODES", "PLAIN", "CompiledSearch"]

#: ``hard``'s search: UCT constant, solver, decisive-move check at new nodes, playout policy,
#: first-play urgency, tree reuse (see :class:`oxo.ninegrids.CompiledSearch`).
HARD: dict[str, Any] = {
    "exploration": 0.5,
    "solver": True,
    "decisive": True,
    "playout": "decisive",
    "fpu": -1.0,
    "reuse": True,
}
#: The plain UCT search with uniformly random playouts (``hard`` up to issue 29).
PLAIN: dict[str, Any] = {
    "exploration": 0.7,
    "solver": False,
    "decisive": False,
    "playout": "random",
    "fpu": -1.0,
    "reuse": False,
}


class CompiledSearch(ninegrids.CompiledSearch):
    """The shared driver (:class:`oxo.ninegrids.CompiledSearch`) over ultimate tic-tac-toe's
    compiled kernel; settings not given are :data:`HARD`'s."""

    def __init__(
        self,
        seed: int | None = None,
        exploration: float | None = None,
        expand_after: int = 2,
        **options: Any,
    ) -> None:
        from oxo.uttt import compiled

        unknown = set(options) - set(HARD)
        if unknown:
            from oxo.errors import OptionError

            raise OptionError(
                f"unknown search option {', '.join(sorted(unknown))}; the options are "
                f"{', '.join(sorted(HARD))}"
            )
        settings = {**HARD, **options}
        if settings["playout"] not in compiled.PLAYOUTS:
            from oxo.errors import OptionError

            raise OptionError(
                f"unknown playout {settings['playout']!r}; use one of {', '.join(compiled.PLAYOUTS)}"
            )
        if exploration is not None:
            settings["exploration"] = exploration
        kernel = {k: settings[k] for k in ("solver", "decisive", "playout")}
        if kernel == {"solver": False, "decisive": False, "playout": "random"}:
            kernel = {}
        super().__init__(
            seed,
            settings["exploration"],
            expand_after,
            fpu=settings["fpu"],
            reuse=settings["reuse"],
            **kernel,
        )

    @staticmethod
    def _kernel() -> CompiledKernel:
        from oxo.uttt import compiled

        return compiled
