"""Which proof search a question gets.

The compiled search (:mod:`oxo.proofs.dfpn`) is the fast one, but loading it (numba and its machine
code) costs about half a second and 150 MB, more than a whole proof of a small board takes. So a
question first goes to the plain search (:mod:`oxo.proofs.reference`) for at most what loading the
compiled one would cost (:data:`QUICK_SECONDS`); only what that does not settle loads the compiled
one. Which search answered depends on the machine's speed, never the value: both write the same kind
of strategy and the certificates are checked alike. Boards over 64 cells (the 4x4x4x4 hypercube)
go to the compiled search over line counts (:mod:`oxo.proofs.wide`).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from oxo.geometry import Geometry
from oxo.proofs.orient import Transposed, transposition, wide
from oxo.proofs.reference import ReferenceSearch
from oxo.proofs.results import goes_wide
from oxo.proofs.rules import Rules
from oxo.proofs.strategy import StrategyReader

#: Seconds the plain search gets before the compiled one is loaded (about what loading it costs).
QUICK_SECONDS = 0.4
#: A budget of positions under this goes to the compiled search whole: the plain search counts its
#: positions only every 64, the compiled one exactly.
QUICK_NODES = 600


def load_compiled_search() -> None:
    """Load the compiled search's machine code into this process (numba, then each of its entry
    points a proof job calls, from numba's cache), by proving 3x3 and reading its strategy: a
    worker started before its first job does this while the job is still being decided, so that
    the job's search starts at once (:class:`oxo.proofs.workers.ProcessExecutor`)."""
    from oxo.proofs.dfpn import ProofSearch

    search = ProofSearch(Geometry((3, 3), 3), "x", table_bytes=1 << 16)
    search.solve()
    search.strategy()
    search.expand(0b1, 0b10)


def certificate_rules(geometry: Geometry, guarantee: str) -> Rules:
    """The rules (:mod:`oxo.proofs.rules`) that a certificate of ``guarantee`` ("win" or
    "no-loss") written from this board's searches names: what the search that reads the strategy
    leaves to them. Only wins of the search over line counts leave anything out (its wins by
    continuous fours, to the chain rule, on boards without gravity); a no-loss strategy names no
    rule, which would only make its checker search for chains at every position of its side."""
    turned = wide(geometry)
    if turned is not None:
        return certificate_rules(turned, guarantee)
    if guarantee != "win" or not goes_wide(geometry):
        return Rules()
    from oxo.proofs.wide import certificate_rules as wide_rules  # loads numba

    return wide_rules(geometry)


def plain_search(geometry: Geometry, attacker: str) -> StrategyReader:
    """The plain search for "``attacker`` can force a line" on ``geometry``, not started (a tall
    board is searched on its side, as :func:`make_search` does): for a caller that runs it in
    pieces with ``solve_until``."""
    turned = wide(geometry)
    if turned is not None:
        return Transposed(plain_search(turned, attacker), transposition(geometry))
    return ReferenceSearch(geometry, attacker)


def make_search(
    geometry: Geometry,
    attacker: str,
    *,
    seconds: float | None = None,
    max_nodes: int | None = None,
    on_progress: Callable[[int, int], None] | None = None,
    position: tuple[int, int] = (0, 0),
    quick_nodes: int = QUICK_NODES,
    table_bytes: int | None = None,
) -> StrategyReader:
    """The proof search for "``attacker`` can force a line from ``position``" (X's and O's cells as
    bit masks) on ``geometry``, within ``seconds`` in all; ``table_bytes`` bounds the compiled
    search's table. The search returned may have settled the question already; its
    ``solve(*position)`` then answers at once. A tall board is searched on its side
    (:mod:`oxo.proofs.orient`), and read in its own orientation."""
    turned = wide(geometry)
    if turned is not None:
        turn = transposition(geometry)
        inner = make_search(
            turned,
            attacker,
            seconds=seconds,
            max_nodes=max_nodes,
            on_progress=on_progress,
            position=(turn.apply_mask(position[0]), turn.apply_mask(position[1])),
            quick_nodes=quick_nodes,
            table_bytes=table_bytes,
        )
        return Transposed(inner, turn)
    if goes_wide(geometry):
        from oxo.proofs.wide import WideSearch  # loads numba

        return WideSearch(
            geometry,
            attacker,
            seconds=seconds,
            max_nodes=max_nodes,
            on_progress=on_progress,
            table_bytes=table_bytes,
        )
    if quick_nodes > 0 and (max_nodes is None or max_nodes >= quick_nodes):
        started = time.perf_counter()
        quick_seconds = QUICK_SECONDS if seconds is None else min(seconds, QUICK_SECONDS)
        quick = ReferenceSearch(geometry, attacker, seconds=quick_seconds, max_nodes=max_nodes)
        if quick.solve(*position) is not None:
            return quick
        if seconds is not None:  # the time the quick search took is the compiled one's less
            seconds = max(0.0, seconds - (time.perf_counter() - started))
    from oxo.proofs import kernel  # loads numba: only for the proofs that need it
    from oxo.proofs.dfpn import CUBE_THREAT_BUDGET, THREAT_BUDGET, ProofSearch

    cube = len(geometry.shape) == 3
    return ProofSearch(
        geometry,
        attacker,
        seconds=seconds,
        max_nodes=max_nodes,
        on_progress=on_progress,
        table_bytes=table_bytes,
        # On cubes a fresh position's proof number starts from the defender's mobility: it halved
        # the positions of Qubic's positions four and six plies deep (benchmarks/bench_pn_init.py)
        # where it made flat boards' proofs up to 2.5 times longer. Cubes' threat searches get a
        # larger budget too (see CUBE_THREAT_BUDGET).
        pn_init=kernel.INIT_MOBILITY if cube else kernel.INIT_ONE,
        threat_budget=CUBE_THREAT_BUDGET if cube else THREAT_BUDGET,
    )
