"""The certificates of the openings oxo's long runs have settled, written and checked.

Run:  python benchmarks/results_openings.py            (say which are written, which are not)
      python benchmarks/results_openings.py --write    (write and check the missing ones)
      python benchmarks/results_openings.py --write --tool   (the checker without oxo too)

A run of a board no one has published the value of (results/runs/) settles positions a few moves in
long before the board: on 4x4x4x4, O's replies to X's first move after which X wins. Each such
opening (oxo.proofs.runs.proved_openings) gets a certificate of its own, whose walk begins at the
position (the header's "start"), merged from the run's pieces into results/certificates/ under
the name the book gives it (4x4x4x4-k4-x-win-after-0-3.jsonl.gz). A file already there is kept:
a settled position stays settled, so its certificate does not change. Each new one is checked by
oxo's checker (and with --tool by tools/check_strategy.py, which shares no code with oxo), and the
check is recorded in results/certificate-checks.json, as benchmarks/bench_check.py --record does;
benchmarks/results_book.py lists in the book the openings whose certificate has such a record.
The run may be going on meanwhile: its state is read as last saved, never written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import measure  # noqa: E402
from bench_check import OXO, TOOL, record  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RUNS = ROOT / "results" / "runs"
CERTIFICATES = ROOT / "results" / "certificates"


def openings() -> list[tuple[Path, object, Path]]:
    """(run folder, opening, certificate path) of every settled opening of every kept run of a
    board not settled yet."""
    from oxo.proofs.runs import load_state, proved_openings, state_geometry

    found = []
    for folder in sorted(path.parent.parent for path in RUNS.glob("*/run/state.json")):
        state = load_state(folder)
        if state.get("done"):  # a board the run proved: its own certificates cover its openings
            continue
        geometry = state_geometry(state)
        for opening in proved_openings(folder):
            found.append((folder, opening, CERTIFICATES / opening.certificate_name(geometry)))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write and check the missing ones")
    parser.add_argument(
        "--tool", action="store_true", help="check with the checker without oxo too"
    )
    args = parser.parse_args()
    from oxo.proofs.runs import write_opening_certificate

    for folder, opening, path in openings():
        where = path.relative_to(ROOT)
        if path.exists():
            print(f"{where}: written")
            continue
        if not args.write:
            print(f"{where}: not written yet")
            continue
        entries = write_opening_certificate(folder, opening, path)  # type: ignore[arg-type]
        print(f"{where}: {entries:,} entries, {path.stat().st_size:,} bytes; checking")
        rows = [measure(OXO.format(path=str(path)), label="oxo verify's checker, now")]
        if args.tool:
            tool = str(ROOT / "tools" / "check_strategy.py")
            rows.append(
                measure(TOOL.format(tool=tool, path=str(path)), label="checker without oxo, now")
            )
        for row in rows:
            result = row["result"]
            print(f"  {row['label']}: valid {result['valid']}, {row['seconds']:.1f} s")  # type: ignore[index]
            if not result["valid"]:  # type: ignore[index]
                path.unlink()
                raise SystemExit(f"{where} does not check: removed")
        record(path, rows)


if __name__ == "__main__":
    main()
