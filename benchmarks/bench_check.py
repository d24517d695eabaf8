"""The certificate checkers: oxo's (``oxo verify``) and the one without oxo (tools/check_strategy.py),
against the checker without oxo of an earlier commit.

Run:  python benchmarks/bench_check.py                      (10x4 with k = 4's shipped certificate)
      python benchmarks/bench_check.py FILE --baseline 6697292
      python benchmarks/bench_check.py FILE --no-baseline
      python benchmarks/bench_check.py FILE --no-baseline --only oxo --record
      python benchmarks/bench_check.py FILE --before 1afb383 --repeats 2
      python benchmarks/bench_check.py FILE --baseline d036756 --only tool --jobs 2

With --record the checks (their verdicts, times and peak memory, with the file's size and digests,
its board, side and guarantee, the commit and the machine) are kept under the file's name in
results/certificate-checks.json, which the test suite reads for a shipped certificate whose check
takes longer than the suite may (tests/test_results_certificates.py compares the digests), and
benchmarks/results_book.py for the figures of the proof book's rows (oxo's checker records the
entries, moves and sections it counted).
--only runs one of this commit's checkers (oxo: oxo verify's; tool: tools/check_strategy.py); a
second --record run adds its check to the first's. --before COMMIT measures oxo's checker of an
earlier commit (its source exported, numba's cache kept between runs) and this commit's, in turn,
--repeats times each, and nothing else (the ratio is to the earlier commit's first turn).
--jobs N adds a row: this commit's checker without oxo walking N sections at once, each in a
process of its own (its processor time is that of all its processes).

Each checker runs in a fresh process on the same file; the table gives the wall time, the
processor time (what a loaded machine does not inflate), the peak memory, the verdict and the positions it checked, and the ratio of the earlier checker's time to
each one's (above 1 is faster). The positions differ between commits when what counts as checked
changed (since 2026-11-27 a position the board alone decides is not looked up, so not counted).
"""

from __future__ import annotations

import argparse
import datetime
import gzip
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import commit, export, machine, measure  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DEFAULT = ROOT / "results" / "certificates" / "10x4-k4-x-win.jsonl.gz"
RECORD = ROOT / "results" / "certificate-checks.json"
#: The names the record keeps each checker's check under.
OXO_LABEL = "oxo verify's checker, now"
TOOL_LABEL = "checker without oxo, now"

OXO = """
from oxo.proofs.certificate import verify_certificate
check = verify_certificate({path!r})
result = {{"valid": check.valid, "positions": check.positions_checked, "entries": check.entries,
          "moves": check.strategy_moves, "sections": check.sections}}
"""

TOOL = """
import importlib.util
spec = importlib.util.spec_from_file_location("checker", {tool!r})
checker = importlib.util.module_from_spec(spec)
sys.modules["checker"] = checker  # its worker processes find their function by module name
spec.loader.exec_module(checker)
report = checker.check({path!r}{jobs})
result = {{"valid": report["failure"] is None, "positions": report["positions"]}}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(DEFAULT), help="a certificate")
    parser.add_argument(
        "--baseline", default="6697292", help="the commit whose checker without oxo to compare"
    )
    parser.add_argument("--no-baseline", action="store_true", help="only this commit's checkers")
    parser.add_argument("--only", choices=("oxo", "tool"), help="one of this commit's checkers")
    parser.add_argument(
        "--record", action="store_true", help="keep the checks in results/certificate-checks.json"
    )
    parser.add_argument(
        "--before", metavar="COMMIT", help="oxo's checker of an earlier commit beside this one's"
    )
    parser.add_argument("--repeats", type=int, default=1, help="turns of each, with --before")
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="also the checker without oxo in N processes",
    )
    args = parser.parse_args()
    if args.before and args.record:
        parser.error("--record keeps this commit's checks: not with --before")
    path = str(Path(args.file).resolve())
    print(f"checking {path} ({os.path.getsize(path):,} bytes)")
    print(f"machine: {machine()}; commit {commit(short=True) or '?'}")
    rows = []
    if args.before:
        earlier = {"PYTHONPATH": str(export(args.before) / "src")}
        for _ in range(args.repeats):
            rows.append(
                measure(OXO.format(path=path), label=f"oxo's checker at {args.before}", env=earlier)
            )
            rows.append(measure(OXO.format(path=path), label=OXO_LABEL))
    with tempfile.TemporaryDirectory() as scratch:
        if not args.no_baseline and not args.before:
            old = Path(scratch) / "check_strategy_old.py"
            source = subprocess.run(
                ["git", "show", f"{args.baseline}:tools/check_strategy.py"],
                cwd=ROOT,
                capture_output=True,
                text=True,
                check=True,
            ).stdout
            old.write_text(source)
            rows.append(
                measure(
                    TOOL.format(tool=str(old), path=path, jobs=""),
                    label=f"checker without oxo at {args.baseline}",
                )
            )
        tool = str(ROOT / "tools" / "check_strategy.py")
        if args.only != "oxo" and not args.before:
            rows.append(measure(TOOL.format(tool=tool, path=path, jobs=""), label=TOOL_LABEL))
            if args.jobs > 1:
                rows.append(
                    measure(
                        TOOL.format(tool=tool, path=path, jobs=f", jobs={args.jobs}"),
                        label=f"{TOOL_LABEL}, {args.jobs} jobs",
                    )
                )
        if args.only != "tool" and not args.before:
            rows.append(measure(OXO.format(path=path), label=OXO_LABEL))
    # the ratios are to the first checker run: of wall time, and of processor time (what a
    # loaded machine does not inflate)
    for row in rows:  # the processor time of the worker processes too
        row["cpu_seconds"] = float(row["cpu_seconds"]) + float(row.get("worker_cpu_seconds", 0))  # type: ignore[arg-type]
    base, base_cpu = rows[0]["seconds"], rows[0]["cpu_seconds"]
    print(
        f"{'checker':<32} {'wall s':>7} {'cpu s':>7} {'peak MiB':>8} {'valid':>5} "
        f"{'positions':>9} {'ratio':>5} {'cpu':>5}"
    )
    for row in rows:
        result = row["result"]
        print(
            f"{row['label']:<32} {row['seconds']:>7.1f} {row['cpu_seconds']:>7.1f} "
            f"{row['peak_mib']:>8.0f} {str(result['valid']):>5} {result['positions']:>9,} "  # type: ignore[index]
            f"{base / row['seconds']:>5.2f} {base_cpu / row['cpu_seconds']:>5.2f}"  # type: ignore[operator]
        )
    if args.before:
        import statistics

        then = statistics.median(float(r["cpu_seconds"]) for r in rows[::2])  # type: ignore[arg-type]
        now = statistics.median(float(r["cpu_seconds"]) for r in rows[1::2])  # type: ignore[arg-type]
        print(
            f"median processor time: {args.before} {then:.1f} s, now {now:.1f} s "
            f"({then / now:.2f}x the speed)"
        )
    if len({row["result"]["valid"] for row in rows}) != 1:  # type: ignore[index]
        raise SystemExit("the checkers disagree")
    if args.record:
        record(Path(path), rows)


def kept_checks(
    kept: dict[str, Any], name: str, sums: dict[str, object]
) -> dict[str, dict[str, Any]]:
    """The checks ``kept`` (results/certificate-checks.json, read) holds of the certificate
    ``name`` whose digests are ``sums``, by checker; none when they were of other bytes."""
    entry = kept.get(name, {})
    if any(entry.get(key) != value for key, value in sums.items()):
        return {}  # checks of other bytes: they say nothing of this file
    return {str(check["checker"]): check for check in entry.get("checks", [])}


def record(path: Path, rows: list[dict[str, object]]) -> None:
    """Keep the checks of ``path`` in results/certificate-checks.json (see the module's text)."""
    from oxo.fileio import digests, write_atomic

    with gzip.open(path, "rt", encoding="utf-8") as text:
        header = json.loads(text.readline())
    kept = json.loads(RECORD.read_text(encoding="utf-8")) if RECORD.exists() else {}
    sums = digests(path)
    checks = kept_checks(kept, path.name, sums)
    for row in rows:
        result = row["result"]
        assert isinstance(result, dict)
        checks[str(row["label"])] = {
            "checker": row["label"],
            "valid": result["valid"],
            "positions": result["positions"],
            "seconds": round(float(row["seconds"]), 1),  # type: ignore[arg-type]
            "cpu_seconds": round(float(row["cpu_seconds"]), 1),  # type: ignore[arg-type]
            "peak_mib": round(float(row["peak_mib"])),  # type: ignore[arg-type]
            "commit": commit(short=True),
            "machine": machine(),
            "date": datetime.date.today().isoformat(),
            # oxo's checker also counts the entries, the moves it took from them and the sections
            **{key: result[key] for key in ("entries", "moves", "sections") if key in result},
        }
    kept[path.name] = {
        "board": header["board"],
        "k": header["k"],
        "side": header["side"],
        "guarantee": header["guarantee"],
        "valid": all(check["valid"] for check in checks.values()),
        **sums,
        "checks": sorted(checks.values(), key=lambda check: str(check["checker"])),
    }
    write_atomic(RECORD, json.dumps(kept, indent=1, sort_keys=True) + "\n")
    print(f"recorded in {RECORD.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
