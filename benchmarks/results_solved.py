"""Solve the boards the field argues about, write and check their certificates, and write docs/solved.md.

Run:  python benchmarks/results_solved.py              (every board; about an hour on 2 cores)
      python benchmarks/results_solved.py --quick      (the boards that settle in under a minute)
      python benchmarks/results_solved.py --only 5x5,k=4 --only 6x5,k=4
      python benchmarks/results_solved.py --only 6x5,k=4 --update
                                                       (re-measure those rows only and rewrite them in
                                                        docs/solved.md and results/solved.json, the page
                                                        saying which rows were re-measured, when and how)

Each board is proved by ``oxo.proofs.solver.prove_board`` in a fresh process (wall time and peak memory
as a user sees them), with the certificates written to a temporary folder and checked again here by
``oxo verify``'s checker. The table in docs/solved.md and results/solved.json are rewritten from the
figures measured in this run, beside the published values (whose sources are listed in the page).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import machine, measure  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

#: (board, published value, where it is published, time limit in seconds, quick?)
BOARDS: list[tuple[str, str, str, float, bool]] = [
    ("3x3", "draw", "folklore", 600, True),
    ("3x4,k=3", "x", "m,n,k results [1]", 600, True),
    ("4x4,k=3", "x", "m,n,k results [1]", 600, True),
    ("4x4", "draw", "m,n,k results [1]", 600, True),
    ("3x3x3", "x", "folklore (the centre wins)", 600, True),
    ("4x5,k=4", "draw", "m,n,k results [1]", 600, True),
    ("5x5,k=4", "draw", "m,n,k results [1]", 600, True),
    ("6x5,k=4", "x", "m,n,k results [1]", 600, True),
    ("5x5", "draw", "m,n,k results [1]", 600, True),
    ("6x6,k=5", "draw", "m,n,k results [1]", 600, True),
    ("7x4,k=4", "draw", "m,n,k results [1]", 600, False),
    ("8x4,k=4", "draw", "m,n,k results [1]", 600, False),
    ("9x4,k=4", "x", "m,n,k results [1]; Charatsidis 2017 [4]", 600, False),
    ("4x9,k=4", "x", "m,n,k results [1]; Charatsidis 2017 [4]", 600, False),
    ("10x4,k=4", "x", "m,n,k results [1]; Charatsidis 2017 [4]", 1800, False),
    ("4x10,k=4", "x", "m,n,k results [1]; Charatsidis 2017 [4]", 1800, False),
    (
        "7x7,k=5",
        "draw",
        "m,n,k results [1]; Hsu et al. 2020 [5], a C++ solver with relevance zones and pairings [2]",
        180,
        False,
    ),
    ("8x8,k=5", "draw", "Hsu et al. 2020, 17.4 hours [5]", 180, False),
    ("4x4x4", "x", "Patashnik 1980; Allis & Schoo 1992 [3]", 180, False),
]

CODE = """
import gzip, os, resource
from oxo.geometry import Geometry
from oxo.proofs.solver import prove_board
from oxo.proofs.certificate import verify_certificate
found = prove_board(Geometry.parse(BOARD), seconds=LIMIT, proof_dir=FOLDER)
checks = [verify_certificate(path) for path in found.proofs]
usage = resource.getrusage(resource.RUSAGE_SELF)
result = {
    **found.to_dict(),
    "cpu_seconds": round(usage.ru_utime + usage.ru_stime, 2),
    "certificates": [
        {"file": os.path.basename(path), "bytes": os.path.getsize(path), "entries": check.entries,
         "valid": check.valid, "guarantee": check.guarantee, "side": check.side}
        for path, check in zip(found.proofs, checks)
    ],
}
"""


def run_board(spec: str, limit: float, env: dict[str, str] | None = None) -> dict[str, object]:
    """Prove one board in a fresh process (``env`` adds environment variables, such as a
    PYTHONPATH naming other code) and return its figures."""
    folder = Path(tempfile.mkdtemp(prefix="oxo-proof-")) / "proof"
    code = (
        CODE.replace("BOARD", repr(spec))
        .replace("LIMIT", repr(limit))
        .replace("FOLDER", repr(str(folder)))
    )
    report = measure(code, label=spec, env=env)
    data = dict(report["result"])  # type: ignore[arg-type]
    data["wall_seconds"] = round(float(report["seconds"]), 2)  # type: ignore[arg-type]
    data["peak_mib"] = round(float(report["peak_mib"]), 1)  # type: ignore[arg-type]
    return data


#: The values in words.
WORDS = {"x": "X wins", "o": "O wins", "draw": "draw", "unknown": "unknown"}


def table(rows: list[dict[str, object]]) -> list[str]:
    words = WORDS
    out = [
        "| board | k | oxo's value | published | nodes | seconds | peak MiB | certificates (entries, bytes) |",
        "| --- | ---: | --- | --- | ---: | ---: | ---: | --- |",
    ]
    for row in rows:
        certs = (
            ", ".join(
                f"{c['side']} {c['guarantee']}: {c['entries']:,}, {c['bytes']:,}"
                for c in row["certificates"]  # type: ignore[attr-defined]
            )
            or "none"
        )
        agree = "" if row["value"] in ("unknown", row["published"]) else " **(disagrees)**"
        out.append(
            f"| {row['board']} | {row['k']} | {words[str(row['value'])]}{agree} | {words[str(row['published'])]} ({row['source']}) "
            f"| {row['nodes']:,} | {row['wall_seconds']} | {row['peak_mib']} | {certs} |"
        )
    return out


def page(rows: list[dict[str, object]], host: str, note: str = "") -> str:
    lines = [
        "# Solved boards",
        "",
        "The value of the empty board with best play on each board below, proved by `oxo solve` (proof-number",
        "search with pairing strategies and threat-space search, see `src/oxo/proofs/` and docs/proofs.md) and",
        "handed out as certificates: strategy files",
        "that `oxo verify FILE`, or any program that reads the documented format, can check move by move",
        "against every defence. A win needs one certificate (the winner's strategy); a draw needs two (each",
        "side's strategy that never loses). Every certificate below was checked again after it was written.",
        "",
        "Generated by `python benchmarks/results_solved.py` (each board in a fresh process; wall time and peak",
        f"memory as a user sees them) on {host}. {_limits(rows)} A board marked unknown was not",
        "settled within its limit and its row says how far the search got.",
        *(
            [
                "",
                note + " Wall times under a load are longer than on an idle machine; "
                "`python benchmarks/bench_solve.py --proofs --baseline REF` compares the CPU time "
                "with an earlier commit in one run (figures in docs/performance.md).",
            ]
            if note
            else []
        ),
        "",
        *table(rows),
        "",
        _unsettled(rows),
        "",
        "Reproduce one row: `oxo solve 5x5 --k 4 --proof DIR`, then `oxo verify DIR/5x5-k4-x-no-loss.jsonl.gz` "
        "(or, without oxo, `python3 tools/check_strategy.py DIR/5x5-k4-x-no-loss.jsonl.gz`). A stopped "
        "`oxo solve ... --proof DIR` continues where it stopped when run again (docs/proofs.md).",
        "",
        "Sources of the published values:",
        "",
        "1. The m,n,k-game results collected on Wikipedia's *m,n,k-game* page (k = 4 boards after",
        "   Uiterwijk and van den Herik; 5×5, 6×6 and 7×7 with k = 5 are draws).",
        "2. A published C++ m,n,k solver proves 7×7 with k = 5 a draw in about 2.5 s using relevance zones and",
        "   pairing strategies; a public brute-force solver needs 396 s and 510 M nodes for 5×5 with k = 5.",
        "3. O. Patashnik, *Qubic: 4×4×4 tic-tac-toe*, Mathematics Magazine 53 (1980); L. V. Allis and",
        "   P. N. A. Schoo, *Qubic solved again* (1992), with proof-number search.",
        "4. K. Charatsidis, *Solving m,n,k-games*, Maastricht University (2017): 9×4 and 10×4 with k = 4",
        "   are first-player wins (alpha-beta with a pairing algorithm and threat-search heuristics).",
        "5. W.-Y. Hsu, C.-L. Ko, J.-C. Chen, T.-H. Wei, C.-H. Hsueh and I-C. Wu, *On solving the",
        "   7,7,5-game and the 8,8,5-game*, Theoretical Computer Science 815 (2020): both draws, 7×7 in",
        "   about 2.5 s and 8×8 in 17.4 hours, with relevance zones.",
        "6. J. Beck, *Combinatorial Games: Tic-Tac-Toe Theory*, Cambridge University Press (2008):",
        "   on explicit winning strategies: known only for 3×3×3 and Qubic.",
        "7. Score Four (4×4×4 with gravity): the c43d project of TUM's computational science group",
        "   (https://tum-csc.github.io/c43d) ran a parallel solver on a cluster and calls it still unsolved.",
        "",
    ]
    return "\n".join(lines) + _kept_sections()


def _limits(rows: list[dict[str, object]]) -> str:
    """The time limits of the run, in words, from the rows."""
    by_limit: dict[float, list[str]] = {}
    for row in rows:
        by_limit.setdefault(float(row.get("limit", 600)), []).append(_name(row))  # type: ignore[arg-type]
    if len(by_limit) == 1:
        return f"Each board has {next(iter(by_limit)):g} s."
    common = max(by_limit, key=lambda limit: len(by_limit[limit]))
    others = "; ".join(
        f"{', '.join(names)}: {limit:g} s" for limit, names in by_limit.items() if limit != common
    )
    return f"Each board has {common:g} s, except {others}."


def _name(row: dict[str, object]) -> str:
    return f"{row['board']} with k = {row['k']}"


def _unsettled(rows: list[dict[str, object]]) -> str:
    """A sentence on the boards left unknown, from their rows."""
    open_rows = [row for row in rows if row["value"] == "unknown"]
    if not open_rows:
        return "Every board above is settled."
    parts = [
        f"{_name(row)} ({float(row.get('wall_seconds', 0)):,.0f} s, {int(row['nodes']):,} positions "  # type: ignore[call-overload]
        f"without a proof; published: {WORDS[str(row['published'])]})"
        for row in open_rows
    ]
    return (
        "Not settled within the limit: "
        + "; ".join(parts)
        + ". `oxo solve BOARD --proof DIR` keeps a run in DIR that continues where it stopped "
        "(the boards proved by long runs are in their own section below)."
    )


def _kept_sections() -> str:
    """The sections of the page other scripts write, as they stand: the boards proved by long runs
    (results_runs.py), the gravity boards (bench_connect4.py) and the proof book
    (results_book.py)."""
    path = ROOT / "docs" / "solved.md"
    old = path.read_text() if path.exists() else ""
    out = ""
    for name in ("runs", "gravity", "book"):
        start, end = f"<!-- {name} -->", f"<!-- /{name} -->"
        if start in old:
            out += "\n" + old[old.index(start) : old.index(end) + len(end)] + "\n"
    return out


def _update(rows: list[dict[str, object]], host: str, output: str, json_path: str) -> None:
    """Replace the rows of the boards just measured in the JSON record and rewrite the page from it."""
    import datetime

    from oxo.fileio import write_atomic

    with open(json_path) as handle:
        record = json.load(handle)
    fresh = {str(row["spec"]): row for row in rows}
    merged = [fresh.pop(str(old["spec"]), old) for old in record["boards"]]
    merged.extend(fresh.values())
    notes = list(record.get("updates", []))
    today = datetime.date.today().isoformat()
    measured = host
    notes.append(
        f"Re-measured on {today} (`results_solved.py --only ... --update`), on {measured}: "
        f"{', '.join(str(row['spec']) for row in rows)}."
    )
    record["boards"], record["updates"] = merged, notes
    # The page's words on the machine of the full run (they may say more than the JSON's machine).
    host = str(record["machine"])
    if os.path.exists(output):
        old = open(output).read()
        start, end = "memory as a user sees them) on ", ". Each board has"
        if start in old and end in old:
            host = " ".join(old[old.index(start) + len(start) : old.index(end)].split())
    write_atomic(output, page(merged, host, " ".join(notes)))
    write_atomic(json_path, json.dumps(record, indent=1) + "\n")
    print(
        f"rewrote the rows of {', '.join(str(row['spec']) for row in rows)} in {output} and {json_path}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="only the boards that settle in under a minute"
    )
    parser.add_argument(
        "--only", action="append", default=[], metavar="BOARD", help="only this board (repeatable)"
    )
    parser.add_argument(
        "--update",
        action="store_true",
        help="with --only: rewrite those rows in the page and the JSON, keeping the others",
    )
    parser.add_argument("--output", default=str(ROOT / "docs" / "solved.md"))
    parser.add_argument("--json", default=str(ROOT / "results" / "solved.json"))
    args = parser.parse_args()
    from oxo.fileio import write_atomic

    chosen = [
        b for b in BOARDS if (not args.quick or b[4]) and (not args.only or b[0] in args.only)
    ]
    host = machine()
    print(host, flush=True)
    rows = []
    for spec, published, source, limit, _ in chosen:
        row = run_board(spec, limit)
        row.update(published=published, source=source, spec=spec, limit=limit)
        rows.append(row)
        print(table([row])[-1], flush=True)
        if row["value"] not in ("unknown", published):
            raise SystemExit(f"{spec}: oxo says {row['value']}, the published value is {published}")
        if not all(c["valid"] for c in row["certificates"]):  # type: ignore[attr-defined]
            raise SystemExit(f"{spec}: a certificate does not check")
    if args.update and args.only:
        _update(rows, host, args.output, args.json)
        return
    if args.only or args.quick:
        print(
            "(a partial run: docs/solved.md and results/solved.json are rewritten only by a full run)"
        )
        return
    write_atomic(args.output, page(rows, host))
    os.makedirs(os.path.dirname(args.json), exist_ok=True)
    write_atomic(args.json, json.dumps({"machine": host, "boards": rows}, indent=1) + "\n")
    print(f"wrote {args.output} and {args.json}")


if __name__ == "__main__":
    main()
