"""A long, resumable solve of one empty gravity board on one core (Connect Four 13x4 and the like,
which take days): the null-window questions of :func:`oxo.gravity.solver.next_probe` asked one
after the other, the transposition table saved to the run's folder every ``--checkpoint`` seconds
and when the run is stopped (Ctrl-C or a plain ``kill``), so that the same command goes on from
there.

Run:  python benchmarks/run_gravity_long.py 4x13,k=4 DIR                  (13 columns of 4 rows)
      python benchmarks/run_gravity_long.py 4x13,k=4 DIR --words 134217728 --checkpoint 1800

DIR keeps ``state.json`` (what the answered questions proved: the score lies in ``[low, high]``;
positions, processor seconds and wall seconds so far, over every part of the run) and the table
(``table.bin`` and its header ``table.bin.json``, see ``GravitySolver.save_table``). The same
command on the same DIR resumes; a table that does not match its header's SHA-256 is refused and
the run starts from an empty table (the proved bounds in ``state.json`` stay). Each line of output
says where the run stands; when the score is known it prints the value and the ending ply.

What a resumed run loses: the search of the question open when it stopped is walked again from the
root, but every bound it had stored is in the table (some of the deepest may have been replaced).
No certificate is written here: the value comes from the solver alone (``oxo solve ... --gravity
--proof DIR`` writes certificates, in one sitting).
"""

from __future__ import annotations

import argparse
import json
import resource
import signal
import sys
import time
from pathlib import Path

from oxo.fileio import write_atomic
from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.solver import GravitySolver, _question, next_probe, solvable
from oxo.gravity.values import value_from_score


def _say(text: str) -> None:
    stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())
    print(f"{stamp} UTC  {text}", flush=True)


def _stop_on_term(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("board", help="ROWSxCOLS,k=K (gravity implied), e.g. 4x13,k=4")
    parser.add_argument("folder", type=Path)
    parser.add_argument("--words", type=int, default=1 << 27, help="table words (8 bytes each)")
    parser.add_argument("--checkpoint", type=float, default=1800.0, help="seconds between saves")
    args = parser.parse_args()
    board = GravityBoard.parse(args.board)
    if not solvable(board):
        print(f"error: the exact solver does not hold {board.name}", file=sys.stderr)
        return 2
    folder: Path = args.folder
    folder.mkdir(parents=True, exist_ok=True)
    state_path, table_path = folder / "state.json", folder / "table.bin"
    cells = board.size
    run = {
        "board": board.name,
        "low": -(cells // 2),
        "high": (cells + 1) // 2,
        "answers": [],
        "positions": 0,
        "cpu_seconds": 0.0,
        "wall_seconds": 0.0,
        "parts": 0,
    }
    if state_path.exists():
        run = json.loads(state_path.read_text(encoding="utf-8"))
        if run["board"] != board.name:
            print(f"error: {folder} keeps a run of {run['board']}", file=sys.stderr)
            return 2
    run["parts"] += 1
    last = [time.perf_counter()]

    def status(line: str) -> None:  # the solver's news every 5 s: one line in ten minutes here
        if time.perf_counter() - last[0] >= 600:
            last[0] = time.perf_counter()
            _say(line)

    solver = GravitySolver(board, args.words, on_status=status)
    if table_path.exists():
        try:
            solver.load_table(table_path)
            _say(f"resumed: the table of {table_path} loaded")
        except (ValueError, OSError) as error:
            _say(f"the saved table is not used ({error}); starting from an empty table")
    signal.signal(signal.SIGTERM, _stop_on_term)
    root = GravityState(board)
    cpu0, wall0, nodes0 = time.process_time(), time.perf_counter(), 0

    def save() -> None:
        nonlocal cpu0, wall0, nodes0
        cpu, wall = time.process_time(), time.perf_counter()
        run["positions"] += solver.nodes - nodes0
        run["cpu_seconds"] = round(run["cpu_seconds"] + cpu - cpu0, 1)
        run["wall_seconds"] = round(run["wall_seconds"] + wall - wall0, 1)
        cpu0, wall0, nodes0 = cpu, wall, solver.nodes
        solver.save_table(table_path)
        write_atomic(state_path, json.dumps(run, indent=1) + "\n")
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        rate = run["positions"] / max(run["cpu_seconds"], 1e-9)
        _say(
            f"saved: score in [{run['low']}, {run['high']}], {run['positions']:,} positions, "
            f"{run['cpu_seconds']:,.0f} processor s ({rate / 1e6:.2f} M a second), "
            f"{run['wall_seconds']:,.0f} s wall, peak {peak:,.0f} MiB"
        )

    _say(
        f"{board.name}: score in [{run['low']}, {run['high']}], table {args.words:,} words "
        f"({args.words * 8 / 2**20:,.0f} MiB), part {run['parts']}"
    )
    try:
        while run["low"] < run["high"]:
            med = next_probe(run["low"], run["high"])
            r = solver.window(root, med, args.checkpoint)
            if r is None:
                save()
                continue
            answer = "yes" if r > med else "no"
            run["answers"].append(f"{_question(med, 0, cells)} {answer}")
            if r <= med:
                run["high"] = r
            else:
                run["low"] = r
            _say(f"{_question(med, 0, cells)} {answer}")
            save()
    except KeyboardInterrupt:
        _say("stopped: saving the table")
        save()
        return 130
    value = value_from_score(run["low"], 0, cells, "x")
    winner = {"x": "the first player wins", "o": "the second player wins"}.get(
        value.outcome, "a draw"
    )
    _say(f"{board.name}: {winner}, the game ending at ply {value.end_ply} (score {run['low']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
