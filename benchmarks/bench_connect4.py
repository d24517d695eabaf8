"""Benchmark of the Connect Four solver (``oxo.gravity.solver``).

Run:  python benchmarks/bench_connect4.py                  (positions by ply band, about a minute)
      python benchmarks/bench_connect4.py --per-band 50    (more positions)
      python benchmarks/bench_connect4.py --small          (empty boards smaller than 6x7, with their values)
      python benchmarks/bench_connect4.py --empty --write  (prove the empty board: a few minutes)
      python benchmarks/bench_connect4.py --analyze 4,6,8  (every column's value, early positions)
      python benchmarks/bench_connect4.py --one-core 8388608  (the empty board's score on one core)
      python benchmarks/bench_connect4.py --one-core 4194304 --lo-cols 3  (the same, on two words)

Positions: random play from the empty 6x7 board to a ply in each band (positions already over are
drawn again), each solved exactly (value and distance) from an empty transposition table; the
table shows mean and largest time and nodes per position. The last row compares the solver with
the plain minimax of ``oxo.gravity.reference`` on the empty 4x5 board with k=3 (the ratio is
minimax time over solver time).

``--empty`` proves the value of the empty board (the first player wins with its 21st mark, at
ply 41) on ``--workers`` processes sharing one transposition table, then writes the two certificates
of that value (X wins by ply 41; X does not win before ply 41) with their trees stopping at
``--leaf-ply``, and checks 5 leaves of each again; with ``--write`` the certificates go into the
package (``oxo/gravity/certificates``) and the run into ``results/solve-6x7-k4-gravity.json``.
Wall time excludes numba's compilation; peak memory is the largest of the processes (getrusage;
the shared table counts once).

``--analyze PLIES``: for each ply listed, ``--per-band`` random positions (not over) analysed as
``oxo analyze --gravity`` does (every column's exact value and distance, with the command's table
of 8 M words, cleared before each position), against solving the position's value alone from a
cleared table; the ratio is analysis time over value time.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.solver import GravitySolver

sys.path.insert(0, str(Path(__file__).parent))
from _measure import commit, machine, replace_section  # noqa: E402

BANDS = ((14, 17), (18, 21), (22, 25), (26, 29), (30, 41))


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def random_position(board: GravityBoard, ply: int, rng: random.Random) -> GravityState:
    """A position reached by random play at ``ply`` that is not over yet."""
    while True:
        state = GravityState(board)
        for _ in range(ply):
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves))
        if not state.is_over:
            return state


def bench_positions(per_band: int, seed: int) -> None:
    board = GravityBoard(6, 7, 4)
    solver = GravitySolver(board)
    solver.solve(GravityState.from_string("4444443333332222221"))  # compile outside the timings
    rng = random.Random(seed)
    print(f"Connect Four positions from random play, {per_band} per band, seed {seed}")
    print(
        f"{'plies':>7} {'mean s':>9} {'max s':>8} {'mean nodes':>12} {'max nodes':>11}  outcomes (x/o/draw)"
    )
    started = time.perf_counter()
    for low, high in BANDS:
        times, nodes, outcomes = [], [], {"x": 0, "o": 0, "draw": 0}
        for _ in range(per_band):
            state = random_position(board, rng.randint(low, high), rng)
            solver.clear()
            before = solver.nodes
            tick = time.perf_counter()
            value = solver.solve(state)
            times.append(time.perf_counter() - tick)
            nodes.append(solver.nodes - before)
            outcomes[value.outcome] += 1
        print(
            f"{low:>3}-{high:<3} {statistics.mean(times):>9.4f} {max(times):>8.3f} "
            f"{statistics.mean(nodes):>12,.0f} {max(nodes):>11,}  "
            f"{outcomes['x']}/{outcomes['o']}/{outcomes['draw']}"
        )
    print(f"wall {time.perf_counter() - started:.1f} s, peak memory {_peak_mib():.0f} MiB")

    from oxo.gravity.reference import minimax

    small = GravityBoard(4, 5, 3)
    small_solver = GravitySolver(small, 1 << 16 | 1)
    small_solver.solve(GravityState(small).play(0))
    tick = time.perf_counter()
    fast = small_solver.solve(GravityState(small))
    fast_seconds = time.perf_counter() - tick
    tick = time.perf_counter()
    slow = minimax(GravityState(small))
    slow_seconds = time.perf_counter() - tick
    assert (fast.outcome, fast.end_ply) == slow
    print(
        f"empty 4x5 k=3 ({fast}): solver {fast_seconds:.4f} s, plain minimax {slow_seconds:.2f} s, "
        f"ratio {slow_seconds / max(fast_seconds, 1e-9):,.0f}"
    )


def bench_analyze(plies: list[int], per_ply: int, seed: int) -> None:
    board = GravityBoard(6, 7, 4)
    solver = GravitySolver(board)  # the table of oxo analyze: DEFAULT_TABLE words
    solver.solve(GravityState.from_string("4444443333332222221"))  # compile outside the timings
    rng = random.Random(seed)
    print(f"Connect Four: every column's value of random positions, {per_ply} per ply, seed {seed}")
    print(f"{'ply':>4} {'analysis s':>11} {'nodes':>13} {'value s':>9} {'ratio':>6}  value")
    started = time.perf_counter()
    for ply in plies:
        for _ in range(per_ply):
            state = random_position(board, ply, rng)
            solver.clear()
            before = solver.nodes
            tick = time.perf_counter()
            analysis = solver.analyze(state)
            spent = time.perf_counter() - tick
            nodes = solver.nodes - before
            solver.clear()
            tick = time.perf_counter()
            value = solver.solve(state)
            alone = time.perf_counter() - tick
            assert (value.outcome, value.end_ply) == (
                analysis.value.outcome,
                analysis.value.end_ply,
            )
            print(
                f"{ply:>4} {spent:>11.1f} {nodes:>13,} {alone:>9.1f} "
                f"{spent / max(alone, 1e-9):>6.1f}  {analysis.value}",
                flush=True,
            )
    print(f"wall {time.perf_counter() - started:.1f} s, peak memory {_peak_mib():.0f} MiB")


def bench_empty(
    workers: int, table_words: int, leaf_ply: int, write: bool, compare: bool = False
) -> None:
    """Prove the empty 6x7 board (value and ending ply) on ``workers`` processes, write its two
    certificates, and record the run in results/solve-6x7-k4-gravity.json; with ``compare``, the
    same search on one process too, and the ratio of the wall times."""
    from oxo import __version__
    from oxo.fileio import write_atomic
    from oxo.gravity.proof import CERTIFICATES, prove, verify_gravity_certificate

    board = GravityBoard(6, 7, 4)
    GravitySolver(board, 1 << 12).solve(GravityState.from_string("4444443333332222221"))  # compile
    out = CERTIFICATES if write else Path(tempfile.mkdtemp(prefix="oxo-c4-"))
    print(
        f"empty 6x7 board: {workers} worker(s) sharing a table of {table_words:,} words "
        f"({8 * table_words / 2**30:.1f} GiB); certificates with leaves at ply {leaf_ply} in {out}",
        flush=True,
    )
    run = prove(
        board,
        out,
        workers=workers,
        table_words=table_words,
        leaf_ply=leaf_ply,
        on_status=lambda text: print(f"  {time.strftime('%H:%M:%S')} {text}", flush=True),
    )
    print(
        f"value: {run.value}; search {run.seconds:.1f} s, {run.nodes:,} positions, "
        f"peak memory {run.peak_mib:,.0f} MiB",
        flush=True,
    )
    if compare:  # the same search on one process, for the ratio
        single = prove(board, workers=1, table_words=table_words)
        print(
            f"one worker: {single.seconds:.1f} s, {single.nodes:,} positions; "
            f"ratio of wall times (one worker / {workers}) {single.seconds / run.seconds:.2f}",
            flush=True,
        )
    checks = []
    for path in run.certificates:
        result = verify_gravity_certificate(path, leaves=5, seed=2026)
        print(f"  {path.name}: {result}", flush=True)
        checks.append(result.to_dict())
    record = {
        "command": f"python benchmarks/bench_connect4.py --empty --workers {workers} "
        f"--table {table_words} --leaf-ply {leaf_ply}" + (" --write" if write else ""),
        "version": __version__,
        "commit": commit(),
        "machine": machine(),
        **run.to_dict(),
        "certificates": [path.name for path in run.certificates],
        "checks": checks,
    }
    if write:
        write_atomic(RECORD, json.dumps(record, indent=1) + "\n")
        print(f"recorded in {RECORD}", flush=True)
        solved_section()


ROOT = Path(__file__).resolve().parent.parent
RECORD = ROOT / "results" / "solve-6x7-k4-gravity.json"
SECTION = ("<!-- gravity -->", "<!-- /gravity -->")


def solved_section() -> None:
    """Rewrite the gravity section of docs/solved.md from the recorded proof run."""
    record = json.loads(RECORD.read_text())
    leaves = ", ".join(
        f"{check['claim']}: {check['leaves']:,} leaves" for check in record["checks"]
    )
    text = "\n".join(
        [
            SECTION[0],
            "## Gravity boards",
            "",
            "Connect Four (6 rows × 7 columns, k = 4, marks drop down their column) is proved by an exact",
            "alpha-beta search over bitboards (`src/oxo/gravity/`) and handed out as two certificates that",
            "ship with oxo (`src/oxo/gravity/certificates/`): X's strategy that wins by ply 41 at the latest,",
            "and O's that holds X off until ply 41. Together they pin the value: **X wins, and with best",
            "play the game ends at ply 41** (X's 21st mark), as Allis (1988) and Allen (1988) found and",
            "public solvers confirm. Each certificate's tree runs to ply "
            f"{record['command'].split('--leaf-ply ')[1].split()[0]}; its leaves ({leaves}) are positions",
            "the solver settles in a fraction of a second, and `oxo verify FILE --leaves all` solves every",
            "one of them again (`tests/test_gravity_proof.py` solves a few at random each run).",
            "",
            "| board | k | oxo's value | published | nodes | seconds | peak MiB | workers |",
            "| --- | ---: | --- | --- | ---: | ---: | ---: | ---: |",
            f"| 6x7, gravity | 4 | X wins, game ends at ply {record['end_ply']} | X wins at ply 41 (Allis 1988) "
            f"| {record['nodes']:,} | {record['seconds']} | {record['peak_mib']:,} | {record['workers']} |",
            "",
            f"Run on {record['started'][:10]} with `{record['command']}` (commit {record['commit'][:10]},",
            f"{record['machine']}); the record is `results/solve-6x7-k4-gravity.json`.",
            SECTION[1],
        ]
    )
    page = ROOT / "docs" / "solved.md"
    replace_section(page, SECTION, text, required=False)
    print(f"wrote the gravity section of {page}")


def bench_small(seconds: float) -> None:
    """The value of the empty board of smaller gravity boards with k=4 (and k=3 on 4x4, 4x5)."""
    from oxo.errors import OutOfReachError
    from oxo.gravity.counting import count_positions

    print(
        f"{'board':>10} {'value of the empty board':<46} {'seconds':>8} {'nodes':>14} {'positions':>12}"
    )
    for spec in (
        "4x4,k=3",
        "4x5,k=3",
        "4x4,k=4",
        "5x4,k=4",
        "4x5,k=4",
        "5x5,k=4",
        "6x5,k=4",
        "5x6,k=4",
        "6x6,k=4",
    ):
        board = GravityBoard.parse(spec)
        solver = GravitySolver(board)
        tick = time.perf_counter()
        try:
            text = str(solver.solve(GravityState(board), seconds=seconds))
        except OutOfReachError:
            text = f"not settled within {seconds:g} s"
        spent = time.perf_counter() - tick
        total = ""
        if board.size <= 20:
            total = f"{count_positions(board).total:,}"
        print(f"{spec:>10} {text:<46} {spent:>8.1f} {solver.nodes:>14,} {total:>12}", flush=True)


def bench_one_core(words: list[int], lo_cols: int | None = None) -> None:
    """The empty board's exact score on one core, with each table size in ``words`` in turn (a fresh
    solver each): positions, processor and wall seconds, and the process's peak memory so far.
    With ``lo_cols`` the search over two words (``oxo.gravity.wide``), that many columns in the
    first, which visits the same positions: its cost against the one-word search."""
    board = GravityBoard(6, 7, 4)
    print(machine())
    for size in words:
        solver = GravitySolver(board, size, lo_cols=lo_cols)
        solver.score(GravityState.from_string("4444", board))  # compiled before the clock
        solver.clear()
        solver.nodes = 0
        wall, cpu = time.perf_counter(), time.process_time()
        score = solver.score(GravityState(board))
        print(
            f"table {size:,} words ({size * 8 / 2**20:.0f} MiB): score {score}, "
            f"{solver.nodes:,} positions, {time.process_time() - cpu:.1f} processor s, "
            f"{time.perf_counter() - wall:.1f} s wall, peak {_peak_mib():.0f} MiB",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--per-band", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--empty", action="store_true", help="prove the empty board instead")
    parser.add_argument("--small", action="store_true", help="values of smaller empty boards")
    parser.add_argument(
        "--analyze", default=None, metavar="PLIES", help="every column's value at these plies (4,6)"
    )
    parser.add_argument("--seconds", type=float, default=300.0, help="limit per board with --small")
    parser.add_argument(
        "--table", type=int, default=1 << 28, help="table words (8 bytes each) for --empty"
    )
    parser.add_argument("--workers", type=int, default=2, help="processes for --empty")
    parser.add_argument(
        "--lo-cols",
        type=int,
        default=None,
        help="with --one-core: search over two words, this many columns in the first",
    )
    parser.add_argument(
        "--leaf-ply", type=int, default=10, help="where --empty's certificates stop"
    )
    parser.add_argument(
        "--write",
        action="store_true",
        help="--empty: write the certificates into the package and the run into results/",
    )
    parser.add_argument(
        "--compare", action="store_true", help="--empty: the same search on one process too"
    )
    parser.add_argument(
        "--one-core",
        default=None,
        metavar="WORDS",
        help="the empty board's score on one core with these table sizes (words, comma-separated)",
    )
    parser.add_argument(
        "--solved-section",
        action="store_true",
        help="only rewrite docs/solved.md's gravity section from the recorded run",
    )
    args = parser.parse_args()
    if args.solved_section:
        solved_section()
    elif args.one_core:
        bench_one_core([int(w) for w in args.one_core.split(",")], args.lo_cols)
    elif args.empty:
        bench_empty(args.workers, args.table, args.leaf_ply, args.write, args.compare)
    elif args.small:
        bench_small(args.seconds)
    elif args.analyze:
        bench_analyze([int(p) for p in args.analyze.split(",")], args.per_band, args.seed)
    else:
        bench_positions(args.per_band, args.seed)


if __name__ == "__main__":
    main()
