"""Each proof book row's command, run from an empty folder with the defaults: does it prove the value?

Run:  python benchmarks/book_reproduce.py                 (every row up to 10x4 and 4x10: an hour
                                                          or more on 2 cores)
      python benchmarks/book_reproduce.py --only 7x7,k=5 --only 3x3
      python benchmarks/book_reproduce.py --json

For each row of ``src/oxo/book/book.json`` except the long runs (Qubic, 8x8 with k = 5: hours;
docs/big-proofs.md) and Connect Four (``--gravity`` adds it), the row's ``command`` runs in a fresh
process with ``DIR`` an empty temporary folder and nothing else changed. A proof run that is not
settled within the default ``--time`` exits 3 and keeps its work in the folder, and the same command
continues it: the script runs it again, as a user would, up to ``--sessions`` times. A row passes when
the command's value is the book's. Printed: board, the book's value, the value reached, sessions,
wall and processor time (all sessions, workers included) and the largest session's peak memory.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import machine  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "src" / "oxo" / "book" / "book.json"
#: Rows proved by runs of hours: left to docs/big-proofs.md.
LONG = ("4x4x4", "8x8,k=5")


def rows(only: list[str], gravity: bool) -> list[dict]:
    data = json.loads(BOOK.read_text(encoding="utf-8"))["boards"]
    unknown = [board for board in only if board not in {row["board"] for row in data}]
    if unknown:  # an empty selection would pass without running anything
        names = ", ".join(row["board"] for row in data)
        raise SystemExit(f"not a board of the book: {', '.join(unknown)} (the book's: {names})")
    chosen = []
    for row in data:
        if only:
            if row["board"] in only:
                chosen.append(row)
            continue
        if row["board"] in LONG or (row["gravity"] and not gravity):
            continue
        chosen.append(row)
    return chosen


def reproduce(row: dict, sessions: int) -> dict:
    oxo = str(Path(sys.executable).with_name("oxo"))
    with tempfile.TemporaryDirectory(prefix="oxo-reproduce-") as scratch:
        folder = Path(scratch) / "DIR"
        argv = [oxo, *shlex.split(row["command"])[1:]]
        argv = [str(folder) if part == "DIR" else part for part in argv] + ["--json", "-q"]
        started = time.perf_counter()
        value = "unknown"
        done = 0
        cpu = 0.0
        peak = 0.0
        while done < sessions:
            done += 1
            code, out, err, usage = run(argv, Path(scratch))
            cpu += usage.ru_utime + usage.ru_stime
            peak = max(peak, usage.ru_maxrss / 1024)
            if code not in (0, 3):
                raise SystemExit(f"{row['board']}: {row['command']} failed: {err}")
            value = json.loads(out)["value"]
            if code == 0:
                break
        seconds = time.perf_counter() - started
    return {
        "board": row["board"],
        "command": row["command"],
        "book": row["value"],
        "value": value,
        "same": value == row["value"],
        "sessions": done,
        "seconds": round(seconds, 1),
        "cpu_seconds": round(cpu, 1),
        "peak_mib": round(peak, 1),
    }


def run(argv: list[str], scratch: Path) -> tuple[int, str, str, resource.struct_rusage]:
    """One session: its exit code, output, errors and resources. ``os.wait4`` reports the
    session's processor time and peak memory with those of the worker processes it waited for."""
    out_path, err_path = scratch / "stdout", scratch / "stderr"
    with out_path.open("w") as out, err_path.open("w") as err:
        process = subprocess.Popen(argv, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)
        process.returncode = os.waitstatus_to_exitcode(status)
    return process.returncode, out_path.read_text(), err_path.read_text(), usage


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], help="a board as the book names it")
    parser.add_argument("--gravity", action="store_true", help="Connect Four's row too")
    parser.add_argument("--sessions", type=int, default=6, help="runs of a command at most")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    results = []
    print(f"machine: {machine()}", flush=True)
    print(
        f"{'board':<16} {'book':>5} {'value':>7} {'sessions':>8} {'wall s':>8} {'CPU s':>8} "
        f"{'peak MiB':>8}  command",
        flush=True,
    )
    for row in rows(args.only, args.gravity):
        result = reproduce(row, args.sessions)
        results.append(result)
        print(
            f"{result['board']:<16} {result['book']:>5} {result['value']:>7} "
            f"{result['sessions']:>8} {result['seconds']:>8.1f} {result['cpu_seconds']:>8.1f} "
            f"{result['peak_mib']:>8.1f}  {result['command']}",
            flush=True,
        )
    failed = [result["board"] for result in results if not result["same"]]
    print("every value reproduced" if not failed else f"not reproduced: {', '.join(failed)}")
    if args.json:
        print(json.dumps({"machine": machine(), "rows": results}, indent=1))
    raise SystemExit(1 if failed else 0)


if __name__ == "__main__":
    main()
