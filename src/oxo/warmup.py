"""Compile oxo's searches into machine code ahead of time (``oxo compile``).

oxo's fast searches are compiled by numba the first time each runs, once after install, and kept in
numba's cache beside the sources; later runs load them in well under a second. The first proof
search, Connect Four solve or ultimate tic-tac-toe game therefore waits a minute or more for the
compiler. :func:`compile_searches` does that work at a time of the user's choosing: each search
family runs once on a tiny board, spread over worker processes (the families share nothing, so
they compile side by side). The continuous-integration script runs it beside the linters so that
no test pays for compiling. It also writes Python's own compiled form of oxo's modules (the
``__pycache__`` files an ordinary install writes, but a run from a source folder with
``PYTHONDONTWRITEBYTECODE`` set never does): ``oxo --help`` then takes 0.5 s of processor time
instead of 0.7.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from oxo.progress import SILENT, ProgressSink


def _proofs() -> None:
    """The proof search of boards of at most 64 cells, and the strategy read back from it."""
    from oxo.geometry import Geometry
    from oxo.proofs.dfpn import ProofSearch

    # Small boards are settled by a plain search before the compiled one starts: ask it directly.
    for spec in ("4x4", "5x4,k=4"):
        geometry = Geometry.parse(spec)
        for attacker in ("x", "o"):
            search = ProofSearch(geometry, attacker, table_bytes=1 << 16)
            search.threat_plan(0b1, 0b10)
            search.pairing(0b1, 0b10)
            if search.solve():
                search.strategy()


def _proof_runs() -> None:
    """Proofs with certificates and split runs, and the checkers' search for forced chains."""
    from oxo.geometry import Geometry
    from oxo.proofs.runs import RunOptions
    from oxo.proofs.solver import prove_board

    with tempfile.TemporaryDirectory(prefix="oxo-compile-") as folder:
        for spec, split in (("4x4,k=3", False), ("3x3x3", False), ("4x4", True)):
            run = RunOptions(workers=1, probe_seconds=0, slice_nodes=30) if split else None
            prove_board(Geometry.parse(spec), seconds=None, proof_dir=Path(folder) / spec, run=run)
    _chains()


def _chains() -> None:
    """The forced-chain search and the classes a checker of certificates with rules uses."""
    from oxo.geometry import Geometry
    from oxo.proofs.chainkernel import CompiledChainSearch, CompiledClasses

    geometry = Geometry.parse("3x3x3")
    chains = CompiledChainSearch(geometry.line_cells, geometry.size, table_bits=8)
    chains.exists(0b11, 0b100000, 4)
    chains.first_move(0b11, 0b100000, 4)
    perms = [symmetry.perm for symmetry in geometry.symmetries]
    CompiledClasses(perms, geometry.size).canonical(0b11, 0b100000)
    # Boards past 64 cells (4x4x4x4's certificates) take the kernels over words of masks.
    wide = Geometry.parse("9x9,k=4")
    chains = CompiledChainSearch(wide.line_cells, wide.size, table_bits=8)
    chains.exists(0b111, 1 << 80, 4)
    chains.first_move(0b111, 1 << 80, 4)
    perms = [symmetry.perm for symmetry in wide.symmetries]
    CompiledClasses(perms, wide.size).canonical(0b11, 1 << 80)


def _wide_proofs() -> None:
    """The proof search of larger boards and of boxes with gravity, and the exact values of
    boxes with gravity."""
    from oxo.geometry import Geometry
    from oxo.position import Position
    from oxo.proofs.dropvalue import DropSolver
    from oxo.proofs.solver import prove_board
    from oxo.proofs.wide import WideSearch

    with tempfile.TemporaryDirectory(prefix="oxo-compile-") as folder:
        prove_board(Geometry.parse("2x3x3,k=3,gravity"), seconds=None, proof_dir=Path(folder) / "g")
        # A table small enough to be cleared, then kept: the pieces that read a whole table.
        small = WideSearch(Geometry.parse("9x9,k=4"), "x", table_bytes=1 << 12)
        small.solve_until(0, 0, None, 300)
        small.save_table(Path(folder) / "table.npz")
    boxed = Geometry.parse("2x2x3,k=3,gravity")  # the exact values of boxes with gravity
    DropSolver(boxed, table_bits=10).value(Position.empty(boxed))


def _gravity() -> None:
    """The exact solver of gravity boards (one machine word, and two for boards past 63 cells)."""
    from oxo.gravity.board import GravityBoard, GravityState
    from oxo.gravity.solver import GravitySolver

    board = GravityBoard.parse("4x4,k=3")
    start = GravityState(board)
    for lo_cols in (None, 2):
        solver = GravitySolver(board, 1 << 12, lo_cols=lo_cols)
        solver.solve(start)
        solver.holds(start.play(0), "x", True, 0)
        solver.table_column(start)


def _counts() -> None:
    """The per-ply counters: gravity boards, ultimate tic-tac-toe, and the frontier count."""
    from oxo.counting.frontier import count_frontier
    from oxo.geometry import Geometry
    from oxo.gravity.board import GravityBoard
    from oxo.gravity.counting import count_positions as gravity_counts
    from oxo.uttt.counting import count_positions as uttt_counts

    gravity_counts(GravityBoard.parse("4x4,k=3"), 4)
    uttt_counts(3)
    with tempfile.TemporaryDirectory(prefix="oxo-compile-") as folder:
        count_frontier(Geometry.parse("3x3"), folder, max_ply=3, executor="serial")


def _tree_searches() -> None:
    """The tree searches of ultimate and mega tic-tac-toe."""
    import numpy as np

    from oxo.mega import compiled as mega
    from oxo.uttt import compiled as uttt
    from oxo.uttt.search import HARD

    uttt.warm_up()
    uttt.warm_up(**{option: HARD[option] for option in ("solver", "decisive", "playout")})  # hard
    mega.warm_up()
    for game in (uttt, mega):  # random games, as the self-play of random players runs them
        game.random_games(1, game.make_rng(1))
        game.random_game_record(game.make_rng(1), np.zeros(128, dtype=np.int64))


def _bytecode() -> None:
    """Python's compiled form of every module of oxo (``__pycache__`` beside the sources), written
    even when ``PYTHONDONTWRITEBYTECODE`` is set: without it each process compiles the modules it
    imports again (about 0.2 s of the 0.4 s that ``import oxo.cli.solve`` takes, and as much in a
    proof run's worker). Python checks each file against its source, so a stale one is never used;
    where the sources cannot be written (a read-only install, which has its own) nothing is done."""
    import compileall

    import oxo

    compileall.compile_dir(Path(oxo.__file__).parent, quiet=2)


#: What compiles, by family, in the order the work is handed out (the longest first).
FAMILIES: dict[str, Callable[[], None]] = {
    "proof search": _proofs,
    "gravity solver": _gravity,
    "proof search of large boards": _wide_proofs,
    "proof runs and checkers": _proof_runs,
    "tree searches": _tree_searches,
    "counters": _counts,
    "Python bytecode": _bytecode,
}


@dataclass(frozen=True)
class Compiled:
    """What :func:`compile_searches` did: each family's seconds, and the wall time in all."""

    seconds: dict[str, float]
    wall: float

    def to_dict(self) -> dict[str, object]:
        families = {name: round(took, 2) for name, took in self.seconds.items()}
        return {"families": families, "wall": round(self.wall, 2)}


def _timed(name: str) -> tuple[str, float]:
    started = time.perf_counter()
    FAMILIES[name]()
    return name, time.perf_counter() - started


def compile_searches(workers: int | None = None, progress: ProgressSink = SILENT) -> Compiled:
    """Compile (or load from numba's cache) every search family, over ``workers`` processes
    (default: one per core, at most one per family; 1 compiles in this process). ``progress``
    advances by one family at a time, with a note naming each as it ends."""
    from concurrent.futures import ProcessPoolExecutor, as_completed
    from multiprocessing import get_context

    names = list(FAMILIES)
    count = min(len(names), workers or os.cpu_count() or 1)
    started = time.perf_counter()
    seconds: dict[str, float] = {}

    def done(name: str, took: float) -> None:
        seconds[name] = took
        progress.note(f"{name}: {took:.0f} s")
        progress.advance()

    if count <= 1:
        for name in names:
            done(*_timed(name))
    else:
        with ProcessPoolExecutor(count, mp_context=get_context("spawn")) as pool:
            for future in as_completed([pool.submit(_timed, name) for name in names]):
                done(*future.result())
    return Compiled({name: seconds[name] for name in names}, time.perf_counter() - started)
