"""Single proof searches on 4x4x4x4 and Score Four: how big a settled position is, and how the proof
number of an unsettled one grows (the figures of docs/boxes.md, "How far the proofs have got").

Run:  python benchmarks/box_searches.py                  (each search to its budget of positions)
      python benchmarks/box_searches.py --only four-plies --nodes 100000

Each search is one :class:`oxo.proofs.wide.WideSearch` in this process, from a named position:

* ``four-plies``: 4x4x4x4 after four plies of both sides playing among the six most promising
  cells (``Position.candidate_moves``, a seeded choice): can X force a line? When it settles, the
  strategy is read off and its entries counted (a certificate of that position would hold them);
* ``two-plies``: 4x4x4x4 after X on a corner (cell 0) and O on the inner cell next to it on the
  long diagonal (cell 85);
* ``score-four``: Score Four's empty board;
* ``four-ply-count``: no search, a count: with X on a corner (cell 0) and, after each of O's
  replies (one per class under the search's 1536 symmetries), X on the engines' most promising
  cell, the four-ply positions a proof that X wins must settle, one per class of O's second reply
  (a lower bound on the proof's leaves four plies in, for the estimate of the run's length);
* ``four-ply-sample``: the first ``--sample N`` of those four-ply positions shuffled with
  ``--seed``, each searched within ``--nodes``: how many positions one of the proof's leaves costs
  (``--sample 4 --seed 1 --nodes 5000`` and ``--sample 2 --seed 2 --nodes 40000``: the figures of
  docs/boxes.md); when all settle, the mean and what the 2,389 positions would take at it
  (``--sample 10 --seed 11 --nodes 2000000``: the estimate of docs/boxes.md).
* ``replays``: the same draw searched twice, side by side in fresh processes: with the plan
  replayed after each reply of O (the default) and with a search for continuous fours after every
  reply instead (``WideSearch(replays=False)``, as before 2026-11-29): positions settled, positions
  searched, wall and processor time, peak memory, and the ratio (``--sample 10 --seed 11 --nodes
  20000``: the figures of docs/boxes.md).
* ``chain-rule``: the same draw, each position that settles read as a strategy with its wins by
  continuous fours left to the certificates' chain rule and played out: entries, bytes and the
  check from the position, side by side (``--sample 10 --seed 11 --nodes 20000``); the check with
  the rule both with the compiled chain search and classes and with the plain ones, and the first
  ``--played-checks`` strategies played out (minutes each). The first check's chain searches are
  asked again of the checker without oxo (``tools/check_strategy.py``), and with
  ``--checker-before REV`` of that git revision's checker too, side by side.
* ``rate``: how fast the search goes: the same draw, each position searched for ``--nodes``
  positions in a fresh process, ``--repeats`` times, and with ``--before REV`` that git revision's
  search too, the two taking turns: positions a second of processor and of wall time, peak memory,
  the ratio of the medians (``--sample 3 --seed 3 --nodes 15000 --before REV``: docs/performance.md);
  ``--same-path``: each search in one stretch, so that both visit the same positions; ``--at
  NAME``: one named position instead of the draw (``bottleneck``, ``score-four``, ``9x8-k5``).
* ``failed-fours``: what the record of positions without a win by continuous fours, kept from
  one search for such a win to the next (:func:`oxo.proofs.widekernel.vcf`), gains: the same draw,
  each position searched within ``--nodes`` in a fresh process, ``--repeats`` times, with each
  record size of ``--failed-log2`` (slots, powers of two) and with ``--before REV`` that git
  revision's search, taking turns: positions settled, positions searched, positions of the
  searches for continuous fours per position, processor seconds, peak memory, and the medians
  (``--sample 24 --seed 5 --nodes 40000 --failed-log2 14,16,17 --before 0e4e7cd --repeats 2``:
  docs/performance.md).
* ``rated-threats``: what rating only the attacker's first moves gains: the same draw as
  ``failed-fours``, searched in the same way with each number of threats of ``--rated`` (the
  attacker's moves, the most promising first, are tried for a threat until that many are found;
  0: every move, as before 2026-12-01) and with ``--before REV`` (``--sample 24 --seed 5 --nodes
  40000 --rated 0,3,5,8 --repeats 2``, then ``--nodes 200000 --rated 5,8,12``, ``--rated 16,24``
  and ``--rated 8,12,0``, one turn each: docs/performance.md). ``--from-run``: positions the
  4x4x4x4 run settled four plies in instead (``--positions``, 0 the cheapest; ``--from-run
  --positions 1105,1125,1145,1160,1175,1190,1205,1220 --nodes 2000000 --rated 3,12 --repeats 1``:
  docs/performance.md), or as many as ``--run-plies`` says; the positions each search took are
  printed too.
* ``answers``: how good the attacker's answers at one of the run's positions are: the position
  reached by ``--path`` (cells of the run's moves from the empty board, default ``0,7,103,3``,
  X to move) and, for each cell of ``--answers`` (default: the first three moves of the search's
  order there and the moves the run split), the position after it searched in a fresh table
  within ``--nodes``, then the defender's replies counted as the table holds them: won by X,
  not, open (and the open ones' proof numbers summed) (``--nodes 1500000 --answers
  11,15,51,207,169 --state-from c9def7b``: docs/boxes.md).
* ``book-values``: how fast the proof book answers the value of each settled opening of 4x4x4x4
  and ``--sample N`` of its images, in a fresh process, with ``--before REV`` side by side (``--sample
  4 --before REV --repeats 2``: docs/performance.md).
* ``table-size``: how the positions a search needs grow as its table shrinks: one 4x4x4x4
  position four plies in (``--cells``, in the order played; by default one the run settled, X on
  0 and 243, O on 5 and 162), searched in a fresh process with each table of ``--tables`` MiB
  within ``--nodes``, back to the root every 1,000 positions so that only the table changes the
  path (the largest table is searched twice: the same count): positions, processor time, peak
  memory, and the positions against those of the largest table (``--tables 1024,256,64 --nodes
  2000000``: docs/boxes.md).
* ``kept-size``: how much a search stopped and taken up again gains from keeping more of its
  table: the position of ``table-size``, searched in stretches of ``--every`` positions, each in a
  new search with a table of the first of ``--tables`` MiB that reads back what the one before it
  kept (:meth:`oxo.proofs.wide.WideSearch.save_table`, at most each of ``--kept`` positions), as a
  proof run's job is from one slice to the next; each in a fresh process, within ``--nodes``:
  positions, stretches, processor time (``--tables 256 --kept 2097152,8388608 --every 100000
  --nodes 3000000``: docs/performance.md).
* ``table-clear``: what a full table costs to clear and to keep, at the size of the run's: a
  table of 2^``--slots-log2`` slots in a fresh process, filled with random entries to 76 % (the
  search clears at 70 %), cleared (:func:`oxo.proofs.widekernel.table_collect`), then kept on disk
  (:meth:`~oxo.proofs.wide.WideSearch.save_table`): seconds of each and the process's peak after
  each (``--slots-log2 28``: docs/performance.md).
* ``lottery``: how much the positions a search needs depend on the search's own choices: the
  positions four plies in that the 4x4x4x4 run kept in ``results/runs/4x4x4x4`` settled, ``--sample
  N`` of them spread from the cheapest to the dearest (by the positions the run spent), each
  searched from a fresh table with each epsilon of the 1+epsilon trick in ``--epsilons`` and each
  number of positions between returns to the root in ``--restarts`` (0: none), repeatable
  searches within ``--nodes``: the positions each took, and the spread (``--sample 5 --nodes
  1000000 --epsilons 100,250 --state-from 53805c6``: docs/boxes.md); ``--positions I,J``
  searches those (0 the cheapest), ``--state-from REV`` the run's settled positions as of REV.
* ``siblings``: what trying a settled sibling's strategy first on each reply of O gains (Kawano's
  simulation, :func:`oxo.proofs.widekernel.simulate`): the run's settled positions drawn as for
  ``lottery``, each searched with the tries and without in fresh processes, side by side, within
  ``--nodes`` and with 1,000 positions between returns to the root (repeatable): positions, wall
  and processor time, peak memory, the ratios (``--sample 12 --nodes 3000000 --state-from
  9f3e445``: docs/boxes.md).
* ``winning-move``: where a settled position's search goes: the run's settled positions drawn as
  for ``lottery``, each searched as ``siblings`` does, then the position after the winning move
  it found searched alone (``--positions 4,37 --nodes 1200000 --state-from 9f3e445``:
  docs/boxes.md).
* ``hinted``: what trying first the move that won a position's proven siblings gains (as the
  run's jobs do, ``Job.hints``): the run's settled positions drawn as for ``lottery``, each given
  the hint the run would give it were it open, searched with the hint tried first and without,
  in fresh processes, side by side, as ``siblings`` does.
* ``drop-rate``: how fast the exact search of boards with gravity goes: Score Four positions
  drawn as for ``score-four-depths`` (``--plies``), each valued within ``--nodes`` positions in a
  fresh process, side by side with ``--before REV`` as ``rate`` (``--plies 36 --sample 6 --seed 2
  --nodes 3000000 --before REV``: docs/performance.md).
* ``score-four-depths``: how deep a position of Score Four must be before the search settles it:
  for each number of plies in ``--plies``, ``--sample N`` positions (the first two moves drawn
  among the six most promising cells with ``--seed``, the rest played by the engine at level hard
  searching 4 plies deep, so that neither side throws the game away), each searched within
  ``--nodes`` for both questions (can X force a line? can O?); with ``--exact-nodes N`` each is
  also valued by alpha-beta (:mod:`oxo.proofs.dropvalue`: win, draw or loss, no certificate)
  within N positions.
* ``score-four-perfect``: what perfect play costs near the end of a game of Score Four: positions
  drawn as for ``score-four-depths``, each valued (win, draw or loss), scored (how soon) and given
  a perfect move (the score and every best move), each with a fresh table: positions, wall time,
  the score's cost over the value's (``--plies 48,40,32 --sample 6 --seed 1``: docs/boxes.md).

For each: the answer (yes, no, or not settled), positions searched, processor seconds, and the
root's proof and disproof numbers every ``--every`` positions (the proof number is a lower bound on
the positions still to settle for a yes).
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import commit, export, machine, measure  # noqa: E402

if TYPE_CHECKING:
    from oxo.position import Position


def position(name: str):  # type: ignore[no-untyped-def]
    from oxo.geometry import Geometry
    from oxo.position import Position

    if name == "score-four":
        return Position.empty(Geometry.parse("4x4x4,gravity"))
    if name == "9x8-k5":
        return Position.empty(Geometry.parse("9x8", k=5))
    geometry = Geometry.parse("4x4x4x4")
    if name == "two-plies":
        return Position.from_moves(geometry, [0, 85])
    if name == "bottleneck":  # where the 4x4x4x4 run waits (docs/boxes.md): X on 0, 3; O on 1, 85
        return Position.from_moves(geometry, [0, 1, 3, 85])
    rng = random.Random(0)
    found = Position.empty(geometry)
    for _ in range(4):
        found = found.play(rng.choice(found.candidate_moves()[:8]))
    return found


def four_ply_count(quiet: bool = False) -> list[tuple[int, int]]:
    """Print, for each of O's replies to X on cell 0, X's answer and O's second replies (classes);
    return the four-ply positions (X's cells, O's cells)."""
    from oxo.geometry import Geometry
    from oxo.position import Position

    geometry = Geometry.parse("4x4x4x4")
    symmetries = geometry.line_symmetries

    def classes(x: int, o: int) -> list[int]:
        fixing = [s for s in symmetries if s.apply_mask(x) == x and s.apply_mask(o) == o]
        seen: set[int] = set()
        out = []
        for cell in range(geometry.size):
            if not (x | o) >> cell & 1:
                key = min(s.apply_mask(1 << cell) for s in fixing)
                if key not in seen:
                    seen.add(key)
                    out.append(cell)
        return out

    found = []
    replies = classes(1, 0)
    for reply in replies:
        answer = Position(geometry, 1, 1 << reply).candidate_moves()[0]
        seconds = classes(1 | 1 << answer, 1 << reply)
        found += [(1 | 1 << answer, 1 << reply | 1 << second) for second in seconds]
        if not quiet:
            print(f"four-ply-count: X 0, O {reply}, X {answer}: {len(seconds)} replies of O")
    print(
        f"four-ply-count: {len(replies)} replies of O to X on cell 0, "
        f"{len(found):,} four-ply positions to settle"
    )
    return found


def four_ply_sample(count: int, seed: int, nodes: int) -> None:
    """Search ``count`` of the four-ply positions of :func:`four_ply_count`, drawn at random."""
    from oxo.geometry import Geometry
    from oxo.proofs.wide import WideSearch

    geometry = Geometry.parse("4x4x4x4")
    total = four_ply_count(quiet=True)
    drawn = list(total)
    random.Random(seed).shuffle(drawn)
    settled: list[tuple[int, float]] = []
    for x, o in drawn[:count]:
        search = WideSearch(geometry, "x", table_bytes=1 << 28)
        began = time.process_time()
        answer = search.solve_until(x, o, None, nodes)
        if answer is not None:
            settled.append((search.nodes, time.process_time() - began))
        words = {True: "X wins", False: "X cannot win", None: "not settled"}[answer]
        cells = [
            f"{side} {cell}"
            for side, mask in (("X", x), ("O", o))
            for cell in range(256)
            if mask >> cell & 1
        ]
        print(
            f"four-ply-sample: {', '.join(cells)}: {words} after {search.nodes:,} positions, "
            f"{time.process_time() - began:.0f} s of processor time",
            flush=True,
        )
    if settled and len(settled) == count:
        positions = sum(n for n, _ in settled) / count
        seconds = sum(t for _, t in settled) / count
        print(
            f"four-ply-sample: all {count} settled; a position takes {positions:,.0f} positions "
            f"and {seconds:.0f} s of processor time on the mean; the {len(total):,} four-ply "
            f"positions at that mean: {positions * len(total) / 1e6:,.0f} million positions, "
            f"{seconds * len(total) / 3600:.0f} hours of one core"
        )
    elif settled:
        print(f"four-ply-sample: {len(settled)} of {count} settled within {nodes:,} positions")


def sample_setup(
    count: int, seed: int, at: str | None = None, chosen: list[tuple[int, int]] | None = None
) -> str:
    """The set-up of a fresh process that searches the four-ply sample (:func:`four_ply_sample`),
    the position named ``at`` (:func:`position`), or the 4x4x4x4 positions ``chosen`` (x, o): the
    positions as ``drawn``, the board as ``geometry``, the search compiled."""
    if chosen is not None:
        drawn, spec = chosen, "4x4x4x4"
    elif at is None:
        drawn = four_ply_count(quiet=True)
        random.Random(seed).shuffle(drawn)
        spec = "4x4x4x4"
    else:
        start = position(at)
        drawn, spec = [(start.x, start.o)], str(start.geometry)
    return f"""
        import time
        from oxo.geometry import Geometry
        from oxo.proofs.wide import WideSearch
        geometry = Geometry.parse({spec!r})
        drawn = {drawn[:count]!r}
        WideSearch(geometry, "x", table_bytes=1 << 20).solve_until(*drawn[0], None, 100)  # compile
        """


def replays(count: int, seed: int, nodes: int) -> None:
    """The four-ply sample searched with and without replayed plans (:func:`four_ply_sample`)."""
    setup = sample_setup(count, seed)
    rows = []
    for label, replay in (("replayed plans", True), ("a search after every reply", False)):
        code = f"""
            settled = searched = 0
            for x, o in drawn:
                search = WideSearch(geometry, "x", table_bytes=1 << 28, replays={replay})
                settled += search.solve_until(x, o, None, {nodes}) is not None
                searched += search.nodes
            result = [settled, searched]
            """
        rows.append(measure(code, setup=setup, label=label))
    base = rows[1]
    for row in rows:
        settled, searched = row["result"]  # type: ignore[misc]
        wall, cpu = float(row["seconds"]), float(row["cpu_seconds"])  # type: ignore[arg-type]
        print(
            f"replays: {row['label']}: {settled} of {count} settled within {nodes:,} positions "
            f"each; {searched:,} positions, {wall:.1f} s wall, {cpu:.1f} s processor, "
            f"{float(row['peak_mib']):.0f} MiB peak; {float(base['seconds']) / wall:.2f}x the "  # type: ignore[arg-type]
            f"wall speed, {float(base['cpu_seconds']) / cpu:.2f}x the processor speed of the "  # type: ignore[arg-type]
            "search after every reply",
            flush=True,
        )


def _checker_module(before: str | None = None):  # type: ignore[no-untyped-def]
    """``tools/check_strategy.py`` loaded as a module: the work tree's, or ``before``'s (a git
    revision) for a side-by-side measure."""
    import importlib.util
    import subprocess
    import tempfile
    from pathlib import Path

    tool = Path(__file__).resolve().parents[1] / "tools" / "check_strategy.py"
    with tempfile.TemporaryDirectory() as folder:  # the older checker's copy, gone once loaded
        if before is not None:
            text = subprocess.run(
                ["git", "show", f"{before}:tools/check_strategy.py"],
                cwd=tool.parent,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            tool = Path(folder) / "check_strategy.py"
            tool.write_text(text)
        spec = importlib.util.spec_from_file_location(f"check_strategy_{before or 'now'}", tool)
        assert spec is not None and spec.loader is not None
        checker = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(checker)
    return checker


def standalone_chains(
    certificate: object, root: tuple[int, int], before: str | None = None
) -> None:
    """The chain searches oxo's check of ``certificate`` from ``root`` asks for, asked again of the
    checker without oxo (``tools/check_strategy.py``, its ``has_chain``): the same verdicts, and
    the seconds of each (that checker walks a file from the empty board only, so its search is
    timed on the positions oxo's walk met); with ``before`` (a git revision), that revision's
    checker too, on the same searches, one after the other."""

    from oxo.proofs import chainkernel
    from oxo.proofs.certificate import verify_certificate

    asked: list[tuple[int, int, int, bool]] = []
    exists = chainkernel.CompiledChainSearch.exists

    def recorded(self: chainkernel.CompiledChainSearch, own: int, other: int, depth: int) -> bool:
        found = exists(self, own, other, depth)
        asked.append((own, other, depth, found))
        return found

    chainkernel.CompiledChainSearch.exists = recorded  # type: ignore[method-assign]
    try:
        began = time.perf_counter()
        verify_certificate(certificate, root=root)  # type: ignore[arg-type]
        ours = time.perf_counter() - began
    finally:
        chainkernel.CompiledChainSearch.exists = exists  # type: ignore[method-assign]

    def timed(checker) -> float:  # type: ignore[no-untyped-def]
        board = checker.Board([4, 4, 4, 4], 4)
        began = time.perf_counter()
        for own, other, depth, found in asked:
            assert checker.has_chain(board, own, other, depth, {}) == found
        return time.perf_counter() - began

    theirs = timed(_checker_module())
    print(
        f"chain-rule: the checker without oxo, on the {len(asked):,} chain searches of the first "
        f"check: {theirs:.1f} s (oxo's whole check {ours:.1f} s), every verdict equal",
        flush=True,
    )
    if before is not None:
        old = timed(_checker_module(before))
        print(
            f"chain-rule: the checker of {before} on the same searches: {old:.1f} s, every verdict "
            f"equal ({old / max(theirs, 1e-9):.1f}x the time of the work tree's)",
            flush=True,
        )


def rate(
    count: int,
    seed: int,
    nodes: int,
    before: str | None,
    repeats: int,
    same_path: bool = False,
    at: str | None = None,
) -> None:
    """The proof search's speed on the four-ply sample (:func:`four_ply_sample`), or on the
    position named ``at`` (:func:`position`): each position searched for ``nodes`` positions
    (:func:`side_by_side`). With ``same_path`` each search goes
    in one stretch, never back to the root (the compiled search's own entry, ``_run``, which every
    revision has): both checkouts visit the same positions when a change leaves the path as it was,
    where the searches of ``solve`` return to the root after as many positions as take a quarter
    second, so that two speeds take two paths."""
    setup = sample_setup(count, seed, at)
    step = (
        f"search._run(x, o, {nodes})" if same_path else f"search.solve_until(x, o, None, {nodes})"
    )
    code = f"""
        searched = 0
        began = time.process_time()
        for x, o in drawn:
            search = WideSearch(geometry, "x", table_bytes=1 << 28)
            {step}
            searched += search.nodes
        result = [searched, time.process_time() - began]
        """
    side_by_side("rate", setup, code, before, repeats)


def failed_fours(
    count: int,
    seed: int,
    nodes: int,
    sizes: list[int],
    before: str | None,
    repeats: int,
    chosen: list[tuple[int, int]] | None = None,
) -> None:
    """The four-ply sample settled with each size of the record of positions without a win by
    continuous fours (2^size slots, ``widekernel.FAILED_SLOTS``) and with ``before``'s search
    (:func:`settle_sample`)."""
    variants = [(f"2^{size} slots", f"wk.FAILED_SLOTS = 1 << {size}", "") for size in sizes]
    settle_sample("failed-fours", count, seed, nodes, variants, before, repeats, chosen)


def rated_threats(
    count: int,
    seed: int,
    nodes: int,
    limits: list[int],
    before: str | None,
    repeats: int,
    chosen: list[tuple[int, int]] | None = None,
) -> None:
    """The four-ply sample settled with each number of threats the attacker's moves are rated
    for (``WideSearch(rated_threats=N)``, 0: every move rated, as before 2026-12-01) and with
    ``before``'s search (:func:`settle_sample`)."""
    variants = [
        (f"{limit} threats" if limit else "every move", "", f", rated_threats={limit or 1 << 30}")
        for limit in limits
    ]
    settle_sample("rated-threats", count, seed, nodes, variants, before, repeats, chosen)


def settle_sample(
    name: str,
    count: int,
    seed: int,
    nodes: int,
    variants: list[tuple[str, str, str]],
    before: str | None,
    repeats: int,
    chosen: list[tuple[int, int]] | None = None,
) -> None:
    """The four-ply sample (:func:`four_ply_sample`), or the positions ``chosen`` (x, o; then
    ``count`` is their number), searched within ``nodes`` positions each, in a fresh process for
    each variant (label, a statement run first, more arguments of
    ``WideSearch``) and with ``before``'s search, taking turns: positions settled, positions
    searched (and each search's), positions of the searches for continuous fours per position,
    processor seconds, peak memory, and the median seconds of each."""
    import statistics

    root = Path(__file__).resolve().parents[1]
    setup = sample_setup(count, seed, chosen=chosen)
    here = {"PYTHONPATH": str(root / "src")}
    sides = [(label, here, patch, arguments) for label, patch, arguments in variants]
    if before:
        sides.append((before, {"PYTHONPATH": str(export(before) / "src")}, "", ""))
    code = """
        from oxo.proofs import widekernel as wk
        {patch}
        settled = searched = fours = 0
        each = []
        began = time.process_time()
        for x, o in drawn:
            search = WideSearch(geometry, "x", table_bytes=1 << 28{arguments})
            done = search.solve_until(x, o, None, {nodes}) is not None
            settled += done
            searched += search.nodes
            each.append(search.nodes if done else -1)
            fours += search.statistics()["threat_positions"]
        result = [settled, searched, fours, time.process_time() - began, each]
        """
    seconds: dict[str, list[float]] = {side[0]: [] for side in sides}
    for turn in range(repeats):
        for label, env, patch, arguments in sides:
            source = code.format(patch=patch, arguments=arguments, nodes=nodes)
            row = measure(source, setup=setup, label=label, env=env)
            settled, searched, fours, cpu, each = row["result"]  # type: ignore[misc]
            seconds[label].append(cpu)
            print(
                f"{name}: {label}, turn {turn + 1}: {settled} of {count} settled, "
                f"{searched:,} positions, {fours / searched:,.0f} positions of searches for "
                f"continuous fours a position, {cpu:.1f} s of processor time, "
                f"{float(row['peak_mib']):.0f} MiB peak; each: "  # type: ignore[arg-type]
                + ", ".join(f"{n:,}" if n >= 0 else "not settled" for n in each),
                flush=True,
            )
    medians = {label: statistics.median(values) for label, values in seconds.items()}
    print(
        f"{name}: median processor seconds: "
        + "; ".join(f"{label} {value:.1f}" for label, value in medians.items())
    )


def position_setup(cells: list[int]) -> str:
    """The setup of a fresh process that searches the 4x4x4x4 position of ``cells`` (in the order
    played) as ``start``: the search compiled and loaded before the clock starts."""
    return f"""
        import time
        from oxo.geometry import Geometry
        from oxo.position import Position
        from oxo.proofs.wide import WideSearch
        geometry = Geometry.parse("4x4x4x4")
        start = Position.from_moves(geometry, {cells!r})
        WideSearch(geometry, "x", table_bytes=1 << 20).solve_until(start.x, start.o, None, 100)
        """


def table_size(cells: list[int], tables: list[int], nodes: int) -> None:
    """Search the 4x4x4x4 position of ``cells`` (in the order played) in a fresh process with a
    table of each of ``tables`` MiB, within ``nodes`` positions (``table-size`` in the module's text)."""
    setup = position_setup(cells)
    rows: list[tuple[int, object, int]] = []
    # Returns to the root every 1,000 positions, not after a quarter second as a search does: so
    # the path depends on the table alone, not on the machine's load (the largest table is
    # searched again last, to show it: the same count).
    largest = max(tables)
    for mib in [*sorted(tables, reverse=True), largest]:
        code = f"""
            search = WideSearch(
                geometry, "x", table_bytes={mib} << 20, max_nodes={nodes}, slice_nodes=1000
            )
            began = time.process_time()
            answer = search.solve(start.x, start.o)
            result = [answer, search.nodes, time.process_time() - began]
            """
        row = measure(code, setup=setup, label=f"{mib} MiB")
        answer, searched, cpu = row["result"]  # type: ignore[misc]
        rows.append((mib, answer, searched))
        base = rows[0][2] if rows[0][1] is not None else None
        if len(rows) == len(tables) + 1 and searched != rows[0][2]:
            raise SystemExit(f"table-size: {searched:,} positions again, not {rows[0][2]:,}")
        shown = f"{searched:,} positions" if answer is not None else f"not within {nodes:,}"
        ratio = f", {searched / base:.1f}x the first" if base and answer is not None else ""
        print(
            f"table-size: X {cells[0::2]}, O {cells[1::2]}, table {mib} MiB: {shown}{ratio}, "
            f"{cpu:.0f} s of processor time, {float(row['peak_mib']):.0f} MiB peak",  # type: ignore[arg-type]
            flush=True,
        )


def kept_size(cells: list[int], mib: int, kept: list[int], every: int, nodes: int) -> None:
    """Search the 4x4x4x4 position of ``cells`` in stretches of ``every`` positions, each a new
    search that reads back the table the last one kept (at most each of ``kept`` positions), in
    a fresh process per limit, within ``nodes`` (``kept-size`` in the module's text)."""
    setup = position_setup(cells)
    for limit in kept:
        code = f"""
            import tempfile
            from pathlib import Path
            began = time.process_time()
            searched = stretches = 0
            answer = None
            with tempfile.TemporaryDirectory() as folder:
                path = Path(folder) / "table.npz"
                while searched < {nodes} and answer is None:
                    search = WideSearch(
                        geometry, "x", table_bytes={mib} << 20,
                        max_nodes=min({every}, {nodes} - searched), slice_nodes=1000,
                    )
                    search.load_table(path)
                    answer = search.solve(start.x, start.o)
                    searched += search.nodes
                    stretches += 1
                    if answer is None:
                        search.save_table(path, limit={limit})
            result = [answer, searched, stretches, time.process_time() - began]
            """
        row = measure(code, setup=setup, label=f"kept {limit:,}")
        answer, searched, stretches, cpu = row["result"]  # type: ignore[misc]
        shown = f"{searched:,} positions" if answer is not None else f"not within {nodes:,}"
        print(
            f"kept-size: X {cells[0::2]}, O {cells[1::2]}, table {mib} MiB, at most {limit:,} "
            f"kept: {shown} in {stretches} stretches of {every:,}, {cpu:.0f} s of processor time",
            flush=True,
        )


def table_clear(slots_log2: int) -> None:
    """Fill a table of ``2**slots_log2`` slots with random entries, clear it, keep it on disk, in
    a fresh process (``table-clear`` in the module's text)."""
    from oxo.proofs.wide import SLOT_BYTES

    setup = f"""
        import resource, tempfile, time
        from pathlib import Path
        import numpy as np
        from oxo.geometry import Geometry
        from oxo.proofs import widekernel as wk
        from oxo.proofs.wide import SLOT_BYTES, WideSearch
        search = WideSearch(Geometry.parse("4x4x4x4"), "x", table_bytes=SLOT_BYTES << {slots_log2})
        """
    code = """
        def peak():
            return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
        slots = len(search.table[0])
        rng = np.random.default_rng(1)
        wanted, chunk = int(slots * 0.76), 1 << 24
        for start in range(0, wanted, chunk):
            count = min(chunk, wanted - start)
            wk.table_fill(
                (*search.table, search.stats),
                rng.integers(1, 2**63, count, dtype=np.uint64),
                rng.integers(0, 3, count).astype(np.int32),
                np.ones(count, np.int32),
                rng.integers(0, 3, count).astype(np.int64),
                np.zeros(count, np.uint8),
            )
        filled, after_fill = int(search.stats[wk.ST_ENTRIES]), peak()
        began = time.perf_counter()
        search._collect()
        cleared, clear_s, after_clear = int(search.stats[wk.ST_ENTRIES]), time.perf_counter() - began, peak()
        with tempfile.TemporaryDirectory() as folder:
            began = time.perf_counter()
            kept = search.save_table(Path(folder) / "table.npz")
            keep_s = time.perf_counter() - began
        result = [slots, filled, after_fill, cleared, clear_s, after_clear, kept, keep_s, peak()]
        """
    row = measure(code, setup=setup, label=f"2^{slots_log2} slots")
    slots, filled, after_fill, cleared, clear_s, after_clear, kept, keep_s, after_keep = row[
        "result"
    ]  # type: ignore[misc]
    print(
        f"table-clear: {slots:,} slots ({slots * SLOT_BYTES / 2**30:.1f} GiB), {filled:,} entries, "
        f"peak {after_fill:,} MiB; cleared to {cleared:,} in {clear_s:.1f} s, peak "
        f"{after_clear:,} MiB; {kept:,} kept on disk in {keep_s:.1f} s, peak {after_keep:,} MiB",
        flush=True,
    )


def book_values(count: int, before: str | None, repeats: int) -> None:
    """How fast oxo's proof book answers the value of 4x4x4x4 positions (``proven_value``, which
    ``oxo analyze``, the page and the level perfect ask at every position): each settled opening
    and ``count`` of its images under the maps that keep lines lines, in a fresh process
    (:func:`side_by_side`; "positions a second" are answers a second, the first included)."""
    setup = """
        import time
        from oxo.book import open_board
        from oxo.book.play import proven_value
        from oxo.geometry import Geometry
        from oxo.position import Position
        """
    code = f"""
        began = time.process_time()
        answered = 0
        board = open_board("4x4x4x4")
        geometry = Geometry(board.shape, board.k, board.gravity)
        maps = geometry.line_symmetries
        for opening in board.openings:
            x = sum(1 << cell for cell in opening.moves[0::2])
            o = sum(1 << cell for cell in opening.moves[1::2])
            for symmetry in maps[:: max(1, len(maps) // {count})][:{count}]:
                found = proven_value(Position(geometry, symmetry.apply_mask(x), symmetry.apply_mask(o)))
                assert found is not None and found.bound == opening.value_words
                answered += 1
        result = [answered, time.process_time() - began]
        """
    side_by_side("book-values", setup, code, before, repeats)


def drop_rate(
    plies: list[int], count: int, seed: int, nodes: int, before: str | None, repeats: int
) -> None:
    """The exact search's speed (:mod:`oxo.proofs.dropvalue`) on Score Four positions drawn as for
    ``score-four-depths``: each valued (win, draw or loss) within ``nodes`` positions with a fresh
    table (:func:`side_by_side`)."""
    found = [
        (start.x, start.o) for depth in plies for start in engine_positions(depth, count, seed)
    ]
    setup = f"""
        import time
        from oxo.geometry import Geometry
        from oxo.position import Position
        from oxo.proofs.dropvalue import DropSolver
        geometry = Geometry.parse("4x4x4,gravity")
        drawn = [Position(geometry, x, o) for x, o in {found!r}]
        DropSolver(geometry, table_bits=10).value(drawn[0], 100)  # compile
        """
    code = f"""
        searched = 0
        began = time.process_time()
        for start in drawn:
            solver = DropSolver(geometry, table_bits=22)
            solver.value(start, {nodes})
            searched += solver.nodes
        result = [searched, time.process_time() - began]
        """
    side_by_side("drop-rate", setup, code, before, repeats)


def run_state(revision: str | None = None) -> dict[str, Any]:
    """The 4x4x4x4 run's state kept in the repository (:mod:`oxo.proofs.runs`), or with
    ``revision`` as it was at that git revision (it grows as the run goes on)."""
    import json
    import subprocess

    from oxo.proofs.runs import load_state

    root = Path(__file__).resolve().parent.parent
    if revision:
        path = f"{revision}:results/runs/4x4x4x4/run/state.json"
        text = subprocess.run(
            ["git", "show", path], cwd=root, check=True, capture_output=True, text=True
        ).stdout
        return json.loads(text)  # type: ignore[no-any-return]
    return load_state(root / "results" / "runs" / "4x4x4x4")


def run_settled(plies: int = 4, revision: str | None = None) -> list[tuple[int, int, int]]:
    """The positions ``plies`` plies in that the 4x4x4x4 run kept in the repository settled, as
    (x, o, positions the run spent on them), cheapest first (rows of the run's state: key, x, o,
    value, ..., positions, jobs, children; see :mod:`oxo.proofs.runs`); with ``revision``, the
    run's state at that git revision."""
    found = []
    for row in run_state(revision)["questions"]["x"]["nodes"]:
        _, x, o, value, _, _, _, nodes, _, children = row[:10]
        xs, os_ = int(x, 16), int(o, 16)
        if value and children is None and (xs | os_).bit_count() == plies:
            found.append((xs, os_, nodes))
    return sorted(found, key=lambda item: item[2])


#: The set-up of a fresh process that searches 4x4x4x4 (:func:`measure`): the geometry and the
#: search, compiled on a tiny search so that the compiling is not timed.
WIDE_SETUP = """
    from oxo.geometry import Geometry
    from oxo.proofs.wide import WideSearch
    geometry = Geometry.parse("4x4x4x4")
    WideSearch(geometry, "x", table_bytes=1 << 20).solve_until(0, 1, None, 100)  # compile
    """


def outcome(answer: object, searched: int, nodes: int) -> tuple[int, str]:
    """A bounded search's cost and its words: the positions it took where it settled its
    position (``answer`` not None), else the bound ``nodes`` (``not within ...``)."""
    if answer is None:
        return nodes, f"not within {nodes:,}"
    return searched, f"{searched:,} positions"


def draw(settled: list[tuple[int, int, int]], count: int, positions: list[int] | None) -> list[int]:
    """Which of the run's settled positions (cheapest first, :func:`run_settled`) a measure takes:
    ``positions`` where given, else ``count`` spread evenly from the cheapest to the dearest."""
    if positions:
        return list(positions)
    return sorted({round(i * (len(settled) - 1) / max(1, count - 1)) for i in range(count)})


def lottery(
    count: int,
    nodes: int,
    epsilons: list[int],
    restarts: list[int],
    positions: list[int] | None = None,
    revision: str | None = None,
) -> None:
    from oxo.geometry import Geometry
    from oxo.proofs.wide import WideSearch

    geometry = Geometry.parse("4x4x4x4")
    settled = run_settled(revision=revision)
    picks = draw(settled, count, positions)
    print(f"lottery: {len(settled)} positions four plies in settled by the run, {len(picks)} drawn")
    WideSearch(geometry, "x", table_bytes=1 << 20).solve_until(*settled[0][:2], None, 100)
    totals: dict[tuple[int, int], list[int]] = {}
    for index in picks:
        x, o, spent = settled[index]
        costs = []
        for epsilon in epsilons:
            for restart in restarts:
                search = WideSearch(
                    geometry,
                    "x",
                    table_bytes=1 << 31,
                    max_nodes=nodes,
                    epsilon=epsilon,
                    slice_nodes=restart or nodes,
                )
                began = time.process_time()
                answer = search.solve(x, o)
                seconds = time.process_time() - began
                cost = search.nodes if answer is not None else nodes
                costs.append(cost)
                totals.setdefault((epsilon, restart), []).append(cost)
                shown = f"{cost:,}" if answer is not None else f"over {nodes:,}"
                print(
                    f"lottery: position {index} (the run: {spent:,}), epsilon {epsilon}, "
                    f"{'restarts every ' + format(restart, ',') if restart else 'no restart'}: "
                    f"{shown} positions, {seconds:.1f} s",
                    flush=True,
                )
        done = [cost for cost in costs if cost < nodes]
        if len(done) == len(costs):
            spread = f"the dearest setting took {max(done) / min(done):.1f}x the cheapest"
        else:
            spread = f"{len(costs) - len(done)} of {len(costs)} settings not settled within"
        print(f"lottery: position {index}: {spread}")
    for (epsilon, restart), costs in totals.items():
        print(
            f"lottery: epsilon {epsilon}, restarts {restart or 'none'}: {sum(costs):,} positions "
            f"in all, median {sorted(costs)[len(costs) // 2]:,}"
        )


def siblings(
    count: int,
    nodes: int,
    positions: list[int] | None = None,
    revision: str | None = None,
    slices: int = 1000,
) -> None:
    """The run's settled positions four plies in (as :func:`lottery` draws them), each searched
    twice in a fresh process, side by side: with a settled sibling's strategy tried first on each
    reply of O (the default, :func:`oxo.proofs.widekernel.simulate`) and without (``sim_budget=0``),
    both with ``slices`` positions between returns to the root (repeatable): positions, wall and
    processor time, peak memory, the tries and what they settled, and the ratios."""
    settled = run_settled(revision=revision)
    picks = draw(settled, count, positions)
    print(
        f"siblings: {len(settled)} positions four plies in settled by the run, {len(picks)} drawn"
    )
    setup = WIDE_SETUP
    sums = {"tried": [0, 0.0, 0.0], "not tried": [0, 0.0, 0.0]}
    for index in picks:
        x, o, spent = settled[index]
        for label, budget in (("tried", "None"), ("not tried", "0")):
            options = f"table_bytes=1 << 31, max_nodes={nodes}, slice_nodes={slices}"
            if budget != "None":
                options += f", sim_budget={budget}"
            code = f"""
                search = WideSearch(geometry, "x", {options})
                answer = search.solve({x}, {o})
                s = search.statistics()
                result = [answer, search.nodes, s["sibling_strategies_tried"],
                          s["sibling_strategies_won"], s["sibling_strategy_positions"]]
                """
            row = measure(code, setup=setup, label=label)
            answer, searched, tried, won, walked = row["result"]  # type: ignore[misc]
            wall, cpu = float(row["seconds"]), float(row["cpu_seconds"])  # type: ignore[arg-type]
            cost, shown = outcome(answer, searched, nodes)
            sums[label][0] += cost
            sums[label][1] += wall
            sums[label][2] += cpu
            print(
                f"siblings: position {index} (the run: {spent:,}), {label}: {shown}, {wall:.1f} s "
                f"wall, {cpu:.1f} s processor, {float(row['peak_mib']):.0f} MiB peak; "  # type: ignore[arg-type]
                f"{won:,} of {tried:,} tries settled a reply ({walked:,} positions)",
                flush=True,
            )
    tried, plain = sums["tried"], sums["not tried"]
    print(
        f"siblings: in all, tried: {tried[0]:,} positions, {tried[1]:.0f} s wall, {tried[2]:.0f} s "
        f"processor; not tried: {plain[0]:,} positions, {plain[1]:.0f} s wall, {plain[2]:.0f} s "
        f"processor; {plain[0] / max(1, tried[0]):.2f} times the positions without the tries "
        f"as with them, {plain[2] / max(1e-9, tried[2]):.2f} times the processor time"
    )


def hinted(
    count: int,
    nodes: int,
    positions: list[int] | None = None,
    revision: str | None = None,
    slices: int = 1000,
) -> None:
    """What trying first the move that won a position's proven siblings gains (``Job.hints``, as
    the run's jobs do): the run's settled positions four plies in (drawn as for :func:`lottery`),
    each given the hint the run would give it were it still open (:meth:`oxo.proofs.runs.Tree.
    hints`, from the state as of ``revision``), and searched twice in a fresh process, side by
    side: the position after the hinted move first, for at most the positions a job gives it
    (:data:`oxo.proofs.workers.HINT_NODES`), then the position; and the position alone. Both
    repeatable (``slices`` positions between returns to the root), within ``nodes``."""
    from oxo.geometry import Geometry
    from oxo.proofs.runs import Tree
    from oxo.proofs.workers import HINT_NODES

    geometry = Geometry.parse("4x4x4x4")
    folder = Path(__file__).resolve().parent.parent / "results" / "runs" / "4x4x4x4" / "run"
    tree = Tree.from_dict(geometry, "x", folder, run_state(revision)["questions"]["x"])
    settled = run_settled(revision=revision)
    picks = draw(settled, count, positions)
    print(f"hinted: {len(settled)} positions four plies in settled by the run, {len(picks)} drawn")
    setup = WIDE_SETUP
    sums = {"hinted": [0, 0.0], "alone": [0, 0.0]}
    for index in picks:
        x, o, spent = settled[index]
        node = tree.nodes[tree.classes.key(x, o)]
        value, node.value = node.value, 0  # as if still open
        hints = tree.hints(tree.classes.key(x, o), tree.values())
        node.value = value
        if not hints:
            print(f"hinted: position {index}: no proven sibling, no hint")
            continue
        (move,) = hints
        results = {}
        for label in ("hinted", "alone"):
            first = ""
            if label == "hinted":
                first = f"tried = search.solve_until({x | 1 << move}, {o}, None, {HINT_NODES})"
            code = f"""
                search = WideSearch(
                    geometry, "x", table_bytes=1 << 31, max_nodes={nodes}, slice_nodes={slices}
                )
                tried = None
                {first}
                answer = search.solve({x}, {o})
                result = [answer, search.nodes, tried]
                """
            row = measure(code, setup=setup, label=label)
            answer, searched, tried = row["result"]  # type: ignore[misc]
            cost, shown = outcome(answer, searched, nodes)
            cpu = float(row["cpu_seconds"])  # type: ignore[arg-type]
            sums[label][0] += cost
            sums[label][1] += cpu
            results[label] = shown + (
                f" (the hint {'won' if tried else 'did not win'})" if label == "hinted" else ""
            )
            results[label] += f", {cpu:.0f} s processor, {float(row['peak_mib']):.0f} MiB peak"  # type: ignore[arg-type]
        print(
            f"hinted: position {index} (the run: {spent:,}), hint {move}: with it "
            f"{results['hinted']}; alone {results['alone']}",
            flush=True,
        )
    with_, alone = sums["hinted"], sums["alone"]
    print(
        f"hinted: in all, with the hint {with_[0]:,} positions, {with_[1]:.0f} s processor; alone "
        f"{alone[0]:,} positions, {alone[1]:.0f} s processor; "
        f"{alone[0] / max(1, with_[0]):.2f} times the positions alone as with the hint"
    )


def winning_move(
    count: int, nodes: int, positions: list[int] | None = None, revision: str | None = None
) -> None:
    """Where a settled position's search goes: the run's settled positions (drawn as for
    :func:`lottery`) each searched as in :func:`siblings` (with the tries), then the position
    after the winning move it found searched alone from a fresh table: the positions the other
    first moves of X took are the difference."""
    from oxo.geometry import Geometry
    from oxo.proofs.wide import WideSearch

    geometry = Geometry.parse("4x4x4x4")
    settled = run_settled(revision=revision)
    picks = draw(settled, count, positions)
    for index in picks:
        x, o, spent = settled[index]
        search = WideSearch(geometry, "x", table_bytes=1 << 31, max_nodes=nodes, slice_nodes=1000)
        if not search.solve(x, o):
            print(f"winning-move: position {index}: not settled within {nodes:,}")
            continue
        _, moves = search.expand(x, o)
        move = next(m for m in moves if search.value_of(x | 1 << m, o) > 0)
        alone = WideSearch(geometry, "x", table_bytes=1 << 31, max_nodes=nodes, slice_nodes=1000)
        assert alone.solve(x | 1 << move, o)
        print(
            f"winning-move: position {index} (the run: {spent:,}): {search.nodes:,} positions; "
            f"X's winning move (cell {move}) alone {alone.nodes:,} "
            f"({alone.nodes / search.nodes:.0%}), the other first moves the rest",
            flush=True,
        )


def side_by_side(name: str, setup: str, code: str, before: str | None, repeats: int) -> None:
    """``code`` (which sets ``result`` to positions searched and processor seconds) in a fresh
    process, ``repeats`` times, and with ``before`` the same in a copy of that git revision's
    ``src``, the two taking turns (timings on a shared machine drift): positions a second of
    processor time (which the other processes of a loaded machine do not inflate) and of wall
    time, peak memory, and the ratio of the medians."""
    import statistics

    root = Path(__file__).resolve().parents[1]
    sides: list[tuple[str, dict[str, str]]] = [("this checkout", {"PYTHONPATH": str(root / "src")})]
    if before:
        sides.append((before, {"PYTHONPATH": str(export(before) / "src")}))
    speeds: dict[str, list[float]] = {label: [] for label, _ in sides}
    for turn in range(repeats):
        for label, env in sides:
            row = measure(code, setup=setup, label=label, env=env)
            searched, cpu = row["result"]  # type: ignore[misc]
            wall = float(row["seconds"])  # type: ignore[arg-type]
            speeds[label].append(searched / cpu)
            print(
                f"{name}: {label}, turn {turn + 1}: {searched:,} positions, {cpu:.1f} s of "
                f"processor time ({searched / cpu:,.0f} a second), {wall:.1f} s wall "
                f"({searched / wall:,.0f} a second), {float(row['peak_mib']):.0f} MiB peak",  # type: ignore[arg-type]
                flush=True,
            )
    medians = {label: statistics.median(values) for label, values in speeds.items()}
    line = f"{name}: median, this checkout: {medians['this checkout']:,.0f} positions a second"
    if before:
        ratio = medians["this checkout"] / medians[before]
        line += f"; {before}: {medians[before]:,.0f}; {ratio:.2f}x the speed of {before}"
    print(line)


def chain_rule(
    count: int, seed: int, nodes: int, played_checks: int = 1, before: str | None = None
) -> None:
    """The four-ply sample (:func:`four_ply_sample`), each position that settles within ``nodes``
    read as a strategy twice, side by side: with its wins by continuous fours left to the chain
    rule (the default for a win on a board without gravity) and played out; for each, the entries,
    their bytes (gzip JSON lines, as in a certificate), and oxo's check from the position (as a
    section of a certificate is checked): positions, forced chains the rule settled, seconds. The
    check of a strategy played out takes minutes (some 100 positions a second): only the first
    ``played_checks`` are checked both ways."""
    rule_seconds = 0.0
    import gzip
    import json

    from oxo.geometry import Geometry
    from oxo.proofs.certificate import Certificate, StrategyHeader, verify_certificate
    from oxo.proofs.merge import certificate_lines
    from oxo.proofs.rules import Rules
    from oxo.proofs.wide import WideSearch

    geometry = Geometry.parse("4x4x4x4")
    drawn = four_ply_count(quiet=True)
    random.Random(seed).shuffle(drawn)
    totals: dict[str, list[float]] = {"rule": [0, 0, 0.0], "played": [0, 0, 0.0]}
    checked_played = 0
    compiled_checks = [0.0, 0.0]  # the checks with the rule: compiled, plain
    standalone_done = False
    for x, o in drawn[:count]:
        search = WideSearch(geometry, "x", table_bytes=1 << 28)
        if not search.solve_until(x, o, None, nodes):
            print(f"chain-rule: not settled within {nodes:,} positions", flush=True)
            continue
        for label, rules in (("rule", search.rules), ("played", Rules())):
            search.rules = rules
            began = time.perf_counter()
            entries = search.strategy(x, o)
            read = time.perf_counter() - began
            lines = list(certificate_lines(geometry, entries))
            size = len(gzip.compress("".join(json.dumps(line) + "\n" for line in lines).encode()))
            header = StrategyHeader(geometry.shape, geometry.k, "x", "win", rules=rules)
            totals[label][0] += len(entries)
            totals[label][1] += size
            said = (
                f"chain-rule: {label:6}: {len(entries):7,} entries, {size:9,} bytes, read in "
                f"{read:5.1f} s"
            )
            if label == "played" and checked_played >= played_checks:
                print(f"{said}; not checked", flush=True)
                continue
            certificate = Certificate(header, tuple(lines))  # type: ignore[arg-type]
            began = time.perf_counter()
            check = verify_certificate(certificate, root=(x, o))
            seconds = time.perf_counter() - began
            assert check.valid, str(check)
            if label == "rule":
                rule_seconds = seconds
                # The same check with the plain chain search and classes (Python, no numba).
                began = time.perf_counter()
                plain = verify_certificate(certificate, root=(x, o), compiled=False)
                plain_seconds = time.perf_counter() - began
                assert (plain.valid, plain.rule_chains) == (True, check.rule_chains)
                compiled_checks[0] += seconds
                compiled_checks[1] += plain_seconds
                said += f"; plain check {plain_seconds:5.1f} s"
                if not standalone_done:
                    standalone_done = True
                    standalone_chains(certificate, (x, o), before)
            else:
                checked_played += 1
                totals["played"][2] += seconds
                totals["rule"][2] += rule_seconds
            print(
                f"{said}; checked: {check.positions_checked:7,} positions, "
                f"{check.rule_chains:6,} forced chains, {seconds:6.1f} s",
                flush=True,
            )
    (ruled, ruled_bytes, ruled_s), (played, played_bytes, played_s) = (
        totals["rule"],
        totals["played"],
    )
    if ruled:
        print(
            f"chain-rule: in all, with the rule {ruled:,} entries and {ruled_bytes:,} bytes, "
            f"played out {played:,} entries ({played / ruled:.0f}x) and {played_bytes:,} bytes "
            f"({played_bytes / ruled_bytes:.0f}x)"
            + (
                f"; the {checked_played} checked both ways: {ruled_s:.1f} s with the rule, "
                f"{played_s:.1f} s played out ({played_s / max(ruled_s, 1e-9):.0f}x)"
                if checked_played
                else ""
            )
        )
        fast, slow = compiled_checks
        print(
            f"chain-rule: the checks with the rule, compiled chain search and classes {fast:.1f} s, "
            f"plain {slow:.1f} s ({slow / max(fast, 1e-9):.1f}x)"
        )


def engine_positions(depth: int, count: int, seed: int) -> Iterator[Position]:
    """Score Four positions ``depth`` plies in, the game still going, ``count`` of them at most
    (20 games a position tried): the first two moves drawn among the six most promising cells
    with ``seed``, the rest played by the engine at level hard searching 4 plies deep."""
    from oxo import api
    from oxo.geometry import Geometry
    from oxo.position import Position

    geometry = Geometry.parse("4x4x4,gravity")
    rng = random.Random(seed * 1000 + depth)
    found, tries = 0, 0
    while found < count and tries < 20 * count:
        tries += 1
        start = Position.empty(geometry)
        for ply in range(depth):
            if start.is_over:
                break
            if ply < 2:
                cell = rng.choice(start.candidate_moves()[:6])
            else:
                cell = api.move(start, "hard", depth=4, seed=rng.randrange(1 << 30)).move
            start = start.play(cell)
        if start.is_over:
            continue  # a game that ended before: drawn again
        found += 1
        yield start


def score_four_perfect(plies: list[int], count: int, seed: int) -> None:
    """What perfect play costs on Score Four near the end: for positions ``plies`` moves in (as
    ``score-four-depths`` draws them), the win, draw or loss alone, the exact score (how soon), and
    a perfect move (the score and every best move, :class:`oxo.proofs.dropvalue.DropSolution`),
    each with a fresh table; positions, wall seconds, and the exact score's cost over the value's."""
    from oxo.proofs.dropvalue import DropSolver, drop_solution

    for depth in plies:
        worst = 0.0
        for start in engine_positions(depth, count, seed):
            words = []
            began = time.perf_counter()
            solver = DropSolver(start.geometry, table_bits=22)
            value = solver.value(start)
            value_seconds, value_nodes = time.perf_counter() - began, solver.nodes
            began = time.perf_counter()
            solver = DropSolver(start.geometry, table_bits=22)
            score = solver.score(start)
            score_seconds = time.perf_counter() - began
            words.append(
                f"value {value} ({value_nodes:,} positions, {value_seconds:.2f} s), score {score} "
                f"({solver.nodes:,}, {score_seconds:.2f} s, "
                f"{score_seconds / max(value_seconds, 1e-6):.1f}x)"
            )
            began = time.perf_counter()
            solution = drop_solution(start, start.geometry.size)
            assert solution is not None
            best = solution.best_moves(start)
            move_seconds = time.perf_counter() - began
            worst = max(worst, move_seconds)
            words.append(
                f"a perfect move: {len(best)} best of {len(start.legal_moves)} "
                f"({solution.solver.nodes:,} positions, {move_seconds:.2f} s)"
            )
            print(
                f"score-four-perfect: ply {depth}, {start.to_status_string()}: " + "; ".join(words),
                flush=True,
            )
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
        print(
            f"score-four-perfect: ply {depth} ({64 - depth} cells left): a perfect move in at most "
            f"{worst:.2f} s; peak memory of the process so far {peak:,.0f} MiB"
        )


def score_four_depths(
    plies: list[int], count: int, seed: int, nodes: int, exact_nodes: int = 0
) -> None:
    """Score Four positions ``plies`` moves in, both questions searched (:data:`__doc__`); with
    ``exact_nodes``, each also valued by alpha-beta (:mod:`oxo.proofs.dropvalue`) within that many
    positions, its value held to the questions' answers where they settled."""
    from oxo.geometry import Geometry
    from oxo.proofs.dropvalue import DropSolver
    from oxo.proofs.wide import WideSearch

    geometry = Geometry.parse("4x4x4,gravity")
    for depth in plies:
        settled: dict[str, list[int]] = {"x": [], "o": [], "exact": []}
        found = 0
        for start in engine_positions(depth, count, seed):
            found += 1
            words = []
            answers = {}
            for attacker in ("x", "o"):
                search = WideSearch(geometry, attacker, table_bytes=1 << 28)
                began = time.process_time()
                answer = answers[attacker] = search.solve_until(start.x, start.o, None, nodes)
                spent = time.process_time() - began
                if answer is not None:
                    settled[attacker].append(search.nodes)
                said = {True: "yes", False: "no", None: "not settled"}[answer]
                words.append(
                    f"can {attacker.upper()} force a line? {said} ({search.nodes:,} positions, "
                    f"{spent:.1f} s)"
                )
            if exact_nodes:
                solver = DropSolver(geometry, table_bits=24)
                began = time.process_time()
                value = solver.value(start, max_nodes=exact_nodes)
                spent = time.process_time() - began
                mover = start.to_move
                other = "o" if mover == "x" else "x"
                winner = mover if value == 1 else other if value == -1 else None
                if value is not None:
                    settled["exact"].append(solver.nodes)
                    for attacker, answer in answers.items():  # the two searches agree with it
                        assert answer is None or answer == (winner == attacker), (attacker, value)
                said = (
                    "not settled"
                    if value is None
                    else ("a draw" if winner is None else f"{winner.upper()} wins")
                )
                words.append(f"by alpha-beta: {said} ({solver.nodes:,} positions, {spent:.1f} s)")
            print(
                f"score-four-depths: ply {depth}, {start.to_status_string()}: " + "; ".join(words),
                flush=True,
            )
        if exact_nodes:
            done = settled["exact"]
            mean = f", {sum(done) / len(done):,.0f} positions on the mean" if done else ""
            print(
                f"score-four-depths: ply {depth}: valued by alpha-beta in {len(done)} of {found} "
                f"positions within {exact_nodes:,}{mean}"
            )
        for attacker in ("x", "o"):
            done = settled[attacker]
            mean = f", {sum(done) / len(done):,.0f} positions on the mean" if done else ""
            print(
                f"score-four-depths: ply {depth}: can {attacker.upper()} force a line? settled in "
                f"{len(done)} of {found} positions within {nodes:,}{mean}"
            )


def answers(path: list[int], cells: list[int] | None, nodes: int, revision: str | None) -> None:
    """The attacker's answers at the run's position reached by ``path`` (X to move), each searched
    alone within ``nodes`` in a fresh table, and the defender's replies after it as that table
    holds them (see the module's docstring)."""
    from oxo.geometry import Geometry
    from oxo.proofs.runs import Tree
    from oxo.proofs.wide import WideSearch

    geometry = Geometry.parse("4x4x4x4")
    folder = Path(__file__).resolve().parent.parent / "results" / "runs" / "4x4x4x4" / "run"
    tree = Tree.from_dict(geometry, "x", folder, run_state(revision)["questions"]["x"])
    key = tree.root
    for move in path:
        key = next(child for cell, child in tree.nodes[key].children or [] if cell == move)
    node = tree.nodes[key]
    assert tree.attacker_to_move(node), "the path must end where X is to move"
    order = [cell for cell, _ in node.children or []]
    split = [cell for cell, child in node.children or [] if tree.nodes[child].children is not None]
    chosen = cells or list(dict.fromkeys([*order[:3], *split]))
    print(
        f"answers: X on {', '.join(map(str, path[0::2]))}, O on {', '.join(map(str, path[1::2]))}; "
        f"the search's order there {', '.join(map(str, order[:6]))}, ...; split: "
        f"{', '.join(map(str, split)) or 'none'}"
    )
    for cell in chosen:
        x, o = node.x | 1 << cell, node.o
        search = WideSearch(geometry, "x", table_bytes=1 << 31, max_nodes=nodes)
        began = time.process_time()
        answer = search.solve(x, o)
        won = lost = 0
        open_pn = []
        for reply in range(geometry.size):
            if (x | o) >> reply & 1:
                continue
            value = search.value_of(x, o | 1 << reply)
            won += value > 0
            lost += value < 0
            if not value:
                open_pn.append(search.numbers_of(x, o | 1 << reply)[0])
        _, shown = outcome(answer, search.nodes, nodes)
        verdict = {True: "X wins", False: "X does not win", None: "open"}[answer]
        print(
            f"answers: X on {cell}: {verdict} ({shown}, {time.process_time() - began:.0f} s of "
            f"processor time); O's replies won by X {won}, not {lost}, open {len(open_pn)} "
            f"(their proof numbers {sum(open_pn):,})",
            flush=True,
        )


def numbers(text: str) -> list[int]:
    """A list of whole numbers written with commas (``--plies 16,24``): argparse's type."""
    return [int(part) for part in text.split(",")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--only",
        action="append",
        choices=[
            "four-plies",
            "two-plies",
            "score-four",
            "four-ply-count",
            "four-ply-sample",
            "replays",
            "chain-rule",
            "score-four-depths",
            "score-four-perfect",
            "rate",
            "drop-rate",
            "book-values",
            "lottery",
            "siblings",
            "winning-move",
            "hinted",
            "table-size",
            "kept-size",
            "table-clear",
            "failed-fours",
            "rated-threats",
            "answers",
        ],
    )
    parser.add_argument(
        "--same-path",
        action="store_true",
        help="rate: each search in one stretch, so that both checkouts visit the same positions",
    )
    parser.add_argument(
        "--at",
        choices=["two-plies", "bottleneck", "score-four", "9x8-k5"],
        help="rate: search this position, not the four-ply sample (bottleneck: X on 0 and 3, O on "
        "1 and 85, where the 4x4x4x4 run waits; 9x8-k5: 9x8's empty board with k = 5)",
    )
    parser.add_argument(
        "--epsilons",
        type=numbers,
        default="100,250,400",
        help="lottery: the epsilons, in thousandths",
    )
    parser.add_argument(
        "--state-from",
        metavar="REV",
        help="lottery, siblings, winning-move, hinted, answers, --from-run: the run's state as "
        "of this revision",
    )
    parser.add_argument(
        "--positions",
        type=numbers,
        help="lottery, siblings, winning-move, hinted, --from-run: these of the run's settled "
        "positions (0: cheapest)",
    )
    parser.add_argument(
        "--restarts",
        type=numbers,
        default="1000,0",
        help="lottery: positions between returns to the root (0: none), with commas",
    )
    parser.add_argument(
        "--before",
        metavar="REV",
        help="rate, drop-rate, failed-fours, rated-threats: also time the search of this git "
        "revision, taking turns",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=3,
        help="rate, drop-rate, failed-fours, rated-threats: turns of each checkout",
    )
    parser.add_argument(
        "--checker-before",
        metavar="REV",
        help="chain-rule: also time the checker without oxo of this git revision, side by side",
    )
    parser.add_argument(
        "--exact-nodes",
        type=int,
        default=0,
        help="score-four-depths: also value each position by alpha-beta within this many",
    )
    parser.add_argument(
        "--plies",
        type=numbers,
        default="8,16,24,32",
        help="score-four-depths: the numbers of plies, with commas",
    )
    parser.add_argument(
        "--cells",
        type=lambda text: [int(cell) for cell in text.split(",")],
        default=[0, 5, 243, 162],
        help="table-size: the position, its cells in the order played (X first), comma-separated",
    )
    parser.add_argument(
        "--tables",
        type=lambda text: [int(mib) for mib in text.split(",")],
        default=[1024, 256, 64],
        help="table-size: the tables to search with, in MiB, comma-separated",
    )
    parser.add_argument(
        "--kept",
        type=numbers,
        default="2097152,8388608",
        help="kept-size: the most positions a kept table holds, comma-separated",
    )
    parser.add_argument(
        "--slots-log2", type=int, default=28, help="table-clear: the table's slots, a power of two"
    )
    parser.add_argument(
        "--failed-log2",
        type=numbers,
        default="16",
        help="failed-fours: the sizes of the record, in slots (powers of two), comma-separated",
    )
    parser.add_argument(
        "--rated",
        type=numbers,
        default="0,5",
        help="rated-threats: the numbers of threats, comma-separated (0: every move rated)",
    )
    parser.add_argument(
        "--from-run",
        action="store_true",
        help="failed-fours, rated-threats: positions the 4x4x4x4 run settled four plies in "
        "(--sample of them, cheapest to dearest, or --positions; --state-from; --run-plies) "
        "instead of the random four-ply sample",
    )
    parser.add_argument(
        "--run-plies",
        type=int,
        default=4,
        help="--from-run: how many marks the run's settled positions have (default 4)",
    )
    parser.add_argument(
        "--path",
        type=numbers,
        default=[0, 7, 103, 3],
        help="answers: the run's moves from the empty board to a position of X's",
    )
    parser.add_argument("--answers", type=numbers, help="answers: X's moves there to search")
    parser.add_argument("--sample", type=int, default=4, help="four-ply positions to search")
    parser.add_argument("--seed", type=int, default=2, help="the draw of four-ply-sample")
    parser.add_argument("--nodes", type=int, default=60_000, help="positions each search may take")
    parser.add_argument(
        "--every",
        type=int,
        default=20_000,
        help="positions between two reports (kept-size: in one stretch)",
    )
    parser.add_argument(
        "--played-checks",
        type=int,
        default=1,
        help="chain-rule: strategies played out to check (minutes each)",
    )
    args = parser.parse_args()
    from oxo.proofs.wide import WideSearch

    print(f"machine: {machine()}; commit {commit(short=True) or '?'}")
    chosen = None
    if args.from_run:
        settled = run_settled(plies=args.run_plies, revision=args.state_from)
        picked = draw(settled, args.sample, args.positions)
        chosen = [settled[i][:2] for i in picked]
        args.sample = len(chosen)
        print(
            "the run's settled positions "
            + ", ".join(f"{i} ({settled[i][2]:,} positions in the run)" for i in picked)
        )
    for name in args.only or ["four-plies", "two-plies", "score-four", "four-ply-count"]:
        if name == "four-ply-count":
            four_ply_count()
            continue
        if name == "four-ply-sample":
            four_ply_sample(args.sample, args.seed, args.nodes)
            continue
        if name == "replays":
            replays(args.sample, args.seed, args.nodes)
            continue
        if name == "rate":
            rate(
                *(args.sample, args.seed, args.nodes, args.before, args.repeats),
                *(args.same_path, args.at),
            )
            continue
        if name == "failed-fours":
            failed_fours(
                *(args.sample, args.seed, args.nodes, args.failed_log2, args.before, args.repeats),
                chosen,
            )
            continue
        if name == "rated-threats":
            rated_threats(
                *(args.sample, args.seed, args.nodes, args.rated, args.before, args.repeats),
                chosen,
            )
            continue
        if name == "book-values":
            book_values(args.sample, args.before, args.repeats)
            continue
        if name == "drop-rate":
            plies = args.plies
            drop_rate(plies, args.sample, args.seed, args.nodes, args.before, args.repeats)
            continue
        if name == "lottery":
            lottery(
                args.sample,
                args.nodes,
                args.epsilons,
                args.restarts,
                args.positions,
                args.state_from,
            )
            continue
        if name == "winning-move":
            winning_move(args.sample, args.nodes, args.positions, args.state_from)
            continue
        if name == "siblings":
            siblings(args.sample, args.nodes, args.positions, args.state_from)
            continue
        if name == "table-size":
            table_size(args.cells, args.tables, args.nodes)
            continue
        if name == "table-clear":
            table_clear(args.slots_log2)
            continue
        if name == "kept-size":
            kept_size(args.cells, args.tables[0], args.kept, args.every, args.nodes)
            continue
        if name == "answers":
            answers(args.path, args.answers, args.nodes, args.state_from)
            continue
        if name == "hinted":
            hinted(args.sample, args.nodes, args.positions, args.state_from)
            continue
        if name == "chain-rule":
            chain_rule(args.sample, args.seed, args.nodes, args.played_checks, args.checker_before)
            continue
        if name == "score-four-depths":
            plies = args.plies
            score_four_depths(plies, args.sample, args.seed, args.nodes, args.exact_nodes)
            continue
        if name == "score-four-perfect":
            plies = args.plies
            score_four_perfect(plies, args.sample, args.seed)
            continue
        start = position(name)
        search = WideSearch(start.geometry, "x", table_bytes=1 << 30)
        began = time.process_time()
        answer = None
        while search.nodes < args.nodes:
            answer = search.solve_until(
                start.x, start.o, None, min(args.nodes, search.nodes + args.every)
            )
            pn, dn = search.numbers_of(start.x, start.o)
            print(
                f"{name}: {search.nodes:,} positions, {time.process_time() - began:.0f} s of "
                f"processor time, root pn {pn:,} dn {dn:,}",
                flush=True,
            )
            if answer is not None:
                break
        words = {True: "yes", False: "no", None: "not settled"}[answer]
        print(f"{name}: {start.to_letters(rows=True)}: can X force a line? {words}")
        if answer is not None:
            entries = search.strategy(start.x, start.o)
            print(f"{name}: the strategy has {len(entries):,} entries")


if __name__ == "__main__":
    main()
