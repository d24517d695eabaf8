"""Reachable positions per ply, with and without symmetric duplicates (seed 001's table).

A position is *reachable* when it occurs in some game played from the empty board, players
alternating and play stopping at a win. Three methods give the same table (``auto`` picks one):

* ``"search"`` (:mod:`oxo.counting.reference`): walk the game tree ply by ply, keeping every
  position and its canonical form. Obviously correct, slow; the tests' reference.
* ``"lines"`` (:mod:`oxo.counting.lines`): inclusion–exclusion over sets of lines; its cost depends
  on the number of lines, not cells, so it reaches 6×6 and 7×7 with k = side.
* ``"frontier"`` (:mod:`oxo.counting.frontier`): keep each ply's classes on disk, sharded by a
  hash of their canonical form, within a memory limit and resumable; for boards beyond the other
  methods (Qubic 4×4×4, 6×7 with k = 4), as far as time allows.
* ``"pairs"`` (:mod:`oxo.counting.pairs`): count without visiting positions. A position with X's
  cells X and O's cells O is reachable exactly when either |X| = |O| + 1, O has no line and X's lines
  (if any) share a cell, or |X| = |O|, X has no line and O's lines (if any) share a cell. (The last
  mover's common cell is the last move; everything before it is line-free, so any order of the
  earlier marks is a game.) Classes come from Burnside's lemma: the average over the symmetry group
  of the number of reachable positions each symmetry fixes, which are counted the same way with the
  symmetry's cycles of cells in place of single cells.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from oxo.counting.budget import Estimate
from oxo.counting.executors import Executor
from oxo.errors import OptionError
from oxo.geometry import Geometry, burnside_classes, symmetry_cycles

Method = Literal["auto", "lines", "pairs", "search", "frontier"]
METHODS: tuple[str, ...] = ("auto", "lines", "pairs", "search", "frontier")

#: ``auto`` counts by pairs up to this many cells and walks the frontier on disk beyond.
AUTO_PAIRS_CELLS = 27

#: Seconds per set of cells visited by the pair counter on this project's machine (two workers).
PAIRS_SECONDS_PER_SUBSET = 2e-6
#: Seconds per set of lines visited by the lines method (7x7: 2^16 sets in about 3 s).
LINES_SECONDS_PER_SET = 5e-5

#: ``auto`` uses inclusion–exclusion over lines up to this many lines (and fewer lines than cells),
#: and pair counting otherwise.
AUTO_LINES = 16

#: Above this many cells (per shard) the pair counter splits its work into shards.
SHARD_CELLS = 20


#: A count was asked for with an unknown method or on a board the method cannot handle (one of the kinds of error of :mod:`oxo.errors`).
CountingError = OptionError


@dataclass(frozen=True)
class PlyCount:
    """Reachable positions after ``ply`` marks, and their number up to symmetry; ``finished``, the
    positions where the game has ended, where a count gives it (gravity boards, uttt)."""

    ply: int
    positions: int
    classes: int
    finished: int | None = None
    #: Which method gave this ply, where a count mixes them ("sparse" or "frontier").
    method: str | None = None

    def to_dict(self) -> dict[str, int | str]:
        out: dict[str, int | str] = {
            "ply": self.ply,
            "positions": self.positions,
            "classes": self.classes,
        }
        if self.finished is not None:
            out["finished"] = self.finished
        if self.method is not None:
            out["method"] = self.method
        return out


class PlyTotals:
    """The totals of a table of ply rows (``plies``, each with ``positions`` and ``classes``): the
    count tables here and the terminal tables of :mod:`oxo.terminal`."""

    plies: Sequence[Any]

    @property
    def total_positions(self) -> int:
        return sum(row.positions for row in self.plies)

    @property
    def total_classes(self) -> int:
        return sum(row.classes for row in self.plies)


class PerPlyCounts:
    """What counts kept as per-ply tuples (``positions``, ``classes``, ``finished``, from ply 0)
    share: their rows, totals and the totals' JSON (gravity boards and uttt)."""

    positions: tuple[int, ...]
    classes: tuple[int, ...]
    finished: tuple[int, ...]
    #: False when the count stopped before the end of the game.
    complete: bool

    @property
    def plies(self) -> tuple[PlyCount, ...]:
        """One row per ply counted, from ply 0."""
        return tuple(
            PlyCount(ply, *row)
            for ply, row in enumerate(zip(self.positions, self.classes, self.finished, strict=True))
        )

    @property
    def total(self) -> int:
        return sum(self.positions)

    @property
    def total_classes(self) -> int:
        return sum(self.classes)

    def plies_dict(self, method: str) -> dict[str, object]:
        """The keys that end the ``--json`` of every such count: each ply's row, the ``total``
        (positions, classes and finished positions of every ply), the ``method`` and whether the
        count is ``complete``."""
        return {
            "plies": [row.to_dict() for row in self.plies],
            "total": {
                "positions": self.total,
                "classes": self.total_classes,
                "finished": sum(self.finished),
            },
            "method": method,
            "complete": self.complete,
        }


@dataclass(frozen=True)
class CountTable(PlyTotals):
    """Seed 001's table for one board: reachable positions and symmetry classes per ply."""

    geometry: Geometry
    plies: tuple[PlyCount, ...]
    method: str
    #: False when a frontier count stopped before the end of the game (``plies`` is shorter).
    complete: bool = True
    #: What else to know about a count that stopped early (how to go further), in plain words.
    note: str = ""

    def to_dict(self) -> dict[str, object]:
        return {
            **self.geometry.board_keys(),
            "plies": [row.to_dict() for row in self.plies],
            "total": {"positions": self.total_positions, "classes": self.total_classes},
            "method": self.method,
            "complete": self.complete,
            **({"note": self.note} if self.note else {}),
        }

    def _repr_html_(self) -> str:
        """The table and its per-ply chart, for notebooks (see :mod:`oxo.render.html`)."""
        from oxo.render.html import count_table_html

        return count_table_html(self)


def count_positions(
    geometry: Geometry,
    method: Method = "auto",
    *,
    executor: Executor = "auto",
    workers: int | None = None,
    scheduler: str | None = None,
    on_progress: Callable[[float], None] | None = None,
) -> CountTable:
    """Reachable positions and symmetry classes per ply for a board.

    Large boards are split into shards run by ``executor`` (see :mod:`oxo.counting.executors`);
    ``on_progress`` is called with the fraction of the work done (for a progress bar).
    """
    geometry.refuse_gravity("the classic boards' position counter")
    if method not in METHODS:
        raise CountingError(f"unknown counting method {method!r}; use one of {', '.join(METHODS)}")
    used = choose_method(geometry, method)
    if used == "frontier":
        raise CountingError(
            "the frontier method keeps its plies in a folder: call oxo.counting.frontier.count_frontier"
        )
    if used == "search":
        from oxo.counting.reference import count_by_search

        positions, classes = count_by_search(geometry)
    elif used == "lines":
        from oxo.counting.lines import MAX_LINES, count_by_lines

        if len(geometry.lines) > MAX_LINES:
            raise CountingError(
                f"the lines method takes boards with at most {MAX_LINES} lines; {geometry.spec} has "
                f"{len(geometry.lines)}: use --method pairs"
            )
        positions, classes = count_by_lines(geometry, on_progress=on_progress)
    else:
        positions, classes = count_by_pairs(
            geometry,
            executor=executor,
            workers=workers,
            scheduler=scheduler,
            on_progress=on_progress,
        )
    rows = tuple(PlyCount(ply, positions[ply], classes[ply]) for ply in range(geometry.size + 1))
    return CountTable(geometry, rows, used)


def count_by_frontier(
    geometry: Geometry,
    folder: str,
    *,
    max_ply: int | None = None,
    memory: int = 2 * 2**30,
    executor: Executor = "auto",
    workers: int | None = None,
    scheduler: str | None = None,
    on_ply: Callable[[PlyCount], None] | None = None,
    on_progress: Callable[[float], None] | None = None,
) -> CountTable:
    """Positions and classes per ply by walking the frontier on disk in ``folder`` (resumable), up to
    ``max_ply`` (default: until every game has ended); see :mod:`oxo.counting.frontier`."""
    geometry.refuse_gravity("the classic boards' position counter")
    from oxo.counting.frontier import count_frontier

    rows = count_frontier(
        geometry,
        folder,
        max_ply=max_ply,
        memory=memory,
        executor=executor,
        workers=workers,
        scheduler=scheduler,
        on_ply=None
        if on_ply is None
        else lambda r: on_ply(PlyCount(r.ply, r.positions, r.classes)),
        on_progress=on_progress,
    )
    plies = [PlyCount(r.ply, r.positions, r.classes) for r in rows]
    last = rows[-1]
    ended = last.classes == last.finished_classes
    complete = ended or last.ply == geometry.size
    if ended:  # every game is over: the later plies are empty
        plies += [PlyCount(ply, 0, 0) for ply in range(last.ply + 1, geometry.size + 1)]
    return CountTable(geometry, tuple(plies), "frontier", complete)


#: Beside a frontier count, the sparse method gives the first plies when they take at most this long.
SPARSE_BESIDE_FRONTIER_SECONDS = 10.0


@dataclass(frozen=True)
class PlyPlan:
    """How plies 0 to ``last`` of a board beyond the formulas are counted: plies 0 to
    ``sparse_last`` by inclusion–exclusion over small sets of lines (:mod:`oxo.counting.sparse`,
    no position visited; -1 for none), the rest by the frontier count, which visits positions."""

    last: int
    sparse_last: int
    #: The sparse method's predicted seconds for each ply it reaches (beyond ``sparse_last`` too).
    estimates: tuple[float, ...]

    @property
    def frontier(self) -> bool:
        """Whether the frontier count is needed (some asked ply is beyond the sparse method)."""
        return self.sparse_last < self.last

    @property
    def sparse_seconds(self) -> float:
        """The sparse method's predicted seconds for its plies."""
        return sum(self.estimates[: self.sparse_last + 1])

    def within(self, seconds: float) -> tuple[int, float]:
        """(the last ply, the predicted seconds): the most plies the sparse method gives within
        ``seconds``, as far as the plan looked (-1 when not even the empty board)."""
        spent, reach = 0.0, -1
        for ply, cost in enumerate(self.estimates):
            if spent + cost > seconds:
                break
            spent += cost
            reach = ply
        return reach, spent


def plan_plies(geometry: Geometry, last: int, *, within: float) -> PlyPlan:
    """Plies 0 to ``last`` by the sparse method when it gives them all within ``within`` seconds
    (pass the frontier count's own estimate, or more, so that the faster method wins); else the
    plies it gives within :data:`SPARSE_BESIDE_FRONTIER_SECONDS` and the frontier count beyond."""
    from oxo.counting.sparse import estimate_sparse

    last = min(last, geometry.size)
    seconds = tuple(estimate_sparse(geometry, last, within=within))
    if len(seconds) == last + 1:
        return PlyPlan(last, last, seconds)
    plan = PlyPlan(last, -1, seconds)
    return PlyPlan(last, plan.within(SPARSE_BESIDE_FRONTIER_SECONDS)[0], seconds)


def count_by_sparse(
    geometry: Geometry,
    last: int,
    *,
    on_ply: Callable[[PlyCount], None] | None = None,
    on_progress: Callable[[float], None] | None = None,
    weights: Sequence[float] = (),
) -> list[PlyCount]:
    """Positions and classes of plies 0 to ``last`` by inclusion–exclusion over the sets of lines
    that fit in one player's marks (:mod:`oxo.counting.sparse`); each row says ``method="sparse"``.
    Exact on every ply; its cost grows quickly with the marks (see :func:`plan_plies`, whose
    seconds per ply, given as ``weights``, make ``on_progress`` even)."""
    geometry.refuse_gravity("the classic boards' position counter")
    from oxo.counting.sparse import count_at

    last = min(last, geometry.size)
    weights = list(weights[: last + 1])
    weights += [weights[-1] if weights else 1.0] * (last + 1 - len(weights))
    total = sum(weights) or 1.0
    rows = []
    done = 0.0
    for ply in range(last + 1):
        positions, classes = count_at(geometry, ply)
        row = PlyCount(ply, positions, classes, method="sparse")
        rows.append(row)
        done += weights[ply]
        if on_ply is not None:
            on_ply(row)
        if on_progress is not None:
            on_progress(done / total)
    return rows


def choose_method(geometry: Geometry, method: str = "auto") -> str:
    """The method ``auto`` stands for on this board (other methods are returned as they are)."""
    if method not in METHODS:
        raise CountingError(f"unknown counting method {method!r}; use one of {', '.join(METHODS)}")
    if method != "auto":
        return method
    # Inclusion-exclusion visits sets of lines, the pair counter sets of cells: with as many lines
    # as cells the pair counter is the cheaper (4x4 with k = 1, 16 lines of one cell: 3.3 s by
    # lines, 0.14 s by pairs).
    if len(geometry.lines) <= AUTO_LINES and len(geometry.lines) < geometry.size:
        return "lines"
    if geometry.size <= AUTO_PAIRS_CELLS:
        return "pairs"
    return "frontier"


def estimate_count(geometry: Geometry, method: str = "auto", *, workers: int = 2) -> Estimate:
    """Time and memory a position count is predicted to take (rough, from this machine's rates).

    The frontier method's cost depends on how far it goes: see
    :func:`oxo.counting.frontier.estimate_frontier`.
    """
    geometry.refuse_gravity("the classic boards' position counter")
    from oxo.counting.budget import Estimate, MiB

    method = choose_method(geometry, method)
    lines = len(geometry.lines)
    if method == "lines":
        sets = 2 ** min(lines, 62) * len(geometry.symmetries)
        return Estimate(sets * LINES_SECONDS_PER_SET / 8, 100 * MiB + 2**lines * 80, note="lines")
    if method == "search":
        states = 3.0 ** min(geometry.size, 60)
        return Estimate(states * 1e-6, int(min(states * 60, 2.0**62)))
    if method == "pairs":
        subsets = sum(2 ** len(symmetry_cycles(s)) for s in geometry.symmetries)
        seconds = subsets * PAIRS_SECONDS_PER_SUBSET * 2 / max(1, min(workers, 2))
        per_worker = 350 * MiB if geometry.size > SHARD_CELLS else 100 * MiB
        return Estimate(seconds, 100 * MiB + per_worker * max(1, workers), note="pair counting")
    return Estimate(float("inf"), 0, note="frontier: see the estimate per ply")


def count_by_pairs(
    geometry: Geometry,
    *,
    executor: Executor = "auto",
    workers: int | None = None,
    scheduler: str | None = None,
    on_progress: Callable[[float], None] | None = None,
) -> tuple[list[int], list[int]]:
    """Positions and classes per ply (index = ply), by pair counting and Burnside's lemma."""
    geometry.refuse_gravity("the classic boards' position counter")
    from oxo.counting.executors import run_shards
    from oxo.counting.pairs import LinePredicates, PairProblem

    predicates = LinePredicates(geometry.lines, geometry.full_mask)
    problems: list[tuple[int, PairProblem]] = []  # (symmetry index, problem)
    for index, symmetry in enumerate(geometry.symmetries):
        blocks = tuple(symmetry_cycles(symmetry))
        split = max(0, len(blocks) - SHARD_CELLS)
        problems.append((index, PairProblem(blocks, predicates.shared, predicates.free, 1, split)))
        problems.append((index, PairProblem(blocks, predicates.free, predicates.shared, 0, split)))
    shards = [(index, shard) for index, problem in problems for shard in problem.shards()]
    if executor == "auto" and not any(problem.effective_split for _, problem in problems):
        executor = "serial"  # every problem is one small shard: starting workers would cost more
    progress = _fraction_reporter(len(shards), on_progress)
    results = run_shards(
        [shard for _, shard in shards],
        executor,
        workers=workers,
        scheduler=scheduler,
        on_done=progress,
    )
    fixed_by_symmetry = [[0] * (geometry.size + 1) for _ in geometry.symmetries]
    for (index, _), counts in zip(shards, results, strict=True):
        for ply, count in enumerate(counts):
            fixed_by_symmetry[index][ply] += int(count)
    positions = fixed_by_symmetry[0]  # the identity fixes everything
    return positions, burnside_classes(fixed_by_symmetry, len(geometry.symmetries))


def _fraction_reporter(
    total: int, on_progress: Callable[[float], None] | None
) -> Callable[[], None]:
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if on_progress is not None:
            on_progress(done / total)

    return step
