"""Benchmark of the Connect Four solver (``oxo.gravity.solver``).

Run:  python benchmarks/bench_connect4.py                  (positions by ply band, about a minute)
      python benchmarks/bench_connect4.py --per-band 50    (more positions)
      python benchmarks/bench_connect4.py --small          (empty boards smaller than 6x7, with their values)
      nice python benchmarks/bench_connect4.py --empty     (prove the empty board: long)

Positions: random play from the empty 6x7 board to a ply in each band (positions already over are
drawn again), each solved exactly (value and distance) from an empty transposition table; the
table shows mean and largest time and nodes per position. The last row compares the solver with
the plain minimax of ``oxo.gravity.reference`` on the empty 4x5 board with k=3 (the ratio is
minimax time over solver time).

``--empty`` proves the value of the empty board in two null-window searches: "X scores at least 1"
(the first player wins), then "X scores at most 1" (so the win comes with X's 21st mark, at ply
41, and no sooner), printing time and nodes after each. Wall time excludes numba's compilation;
peak memory is the process's (getrusage).
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import time

import numpy as np

from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.solver import GravitySolver, _negamax, value_from_score

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


def bench_empty(table_size: int, slice_nodes: int = 100_000_000) -> None:
    board = GravityBoard(6, 7, 4)
    solver = GravitySolver(board, table_size)
    solver.solve(GravityState.from_string("4444443333332222221"))  # compile outside the timings
    solver.clear()
    params, order, tt_key, tt_val, tt_flag, move_buf, score_buf, scratch = solver._arrays
    started = time.perf_counter()
    total = 0
    print(f"empty 6x7 board, transposition table of {table_size:,} entries", flush=True)
    for alpha, question in (
        (0, "X scores at least 1 (X wins)"),
        (1, "X scores at most 1 (not before ply 41)"),
    ):
        tick = time.perf_counter()
        nodes = 0
        while True:  # in slices, to report progress; the table keeps finished subtrees
            counter = np.array([0, slice_nodes, 0], dtype=np.int64)
            result = int(
                _negamax(
                    0,
                    0,
                    0,
                    alpha,
                    alpha + 1,
                    params,
                    order,
                    tt_key,
                    tt_val,
                    tt_flag,
                    move_buf,
                    score_buf,
                    scratch,
                    counter,
                )
            )
            nodes += int(counter[0])
            if not counter[2]:
                break
            print(
                f"  {question}: still searching after {time.perf_counter() - tick:.0f} s, {nodes:,} nodes",
                flush=True,
            )
        total += nodes
        answer = result > alpha if alpha == 0 else result <= alpha
        print(
            f"{question}: {'yes' if answer else 'no'} (search returned {result}) in "
            f"{time.perf_counter() - tick:.1f} s, {nodes:,} nodes; peak memory {_peak_mib():.0f} MiB",
            flush=True,
        )
        if alpha == 0 and not answer:
            break
    else:
        print(f"value: {value_from_score(1, 0, board.size, 'x')}", flush=True)
    print(f"total {time.perf_counter() - started:.1f} s, {total:,} nodes", flush=True)


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


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--per-band", type=int, default=20)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--empty", action="store_true", help="prove the empty board instead")
    parser.add_argument("--small", action="store_true", help="values of smaller empty boards")
    parser.add_argument("--seconds", type=float, default=300.0, help="limit per board with --small")
    parser.add_argument(
        "--table", type=int, default=(1 << 25) + 1, help="table entries for --empty"
    )
    args = parser.parse_args()
    if args.empty:
        bench_empty(args.table)
    elif args.small:
        bench_small(args.seconds)
    else:
        bench_positions(args.per_band, args.seed)


if __name__ == "__main__":
    main()
