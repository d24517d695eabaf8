"""The certificates of the openings oxo's long runs have settled, written and checked.

Run:  python benchmarks/results_openings.py            (say which are written, which are not)
      python benchmarks/results_openings.py --write    (write and check the missing ones)
      python benchmarks/results_openings.py --write --tool   (the checker without oxo too)
      python benchmarks/results_openings.py --tool   (check written ones the checker without oxo
                                                      has not checked yet)

A run of a board no one has published the value of (results/runs/) settles positions a few moves in
long before the board: on 4x4x4x4, O's replies to X's first move after which X wins. Each such
opening (oxo.proofs.runs.proved_openings) gets a certificate of its own, whose walk begins at the
position (the header's "start"), merged from the run's pieces into results/certificates/ under
the name the book gives it (4x4x4x4-k4-x-win-after-0-3.jsonl.gz). A file already there is kept:
a settled position stays settled, so its certificate does not change. Each new one is checked by
oxo's checker (and with --tool by tools/check_strategy.py, which shares no code with oxo), and the
check is recorded in results/certificate-checks.json, as benchmarks/bench_check.py --record does;
with --tool, a certificate written earlier whose record has no check by the checker without oxo
(of these very bytes) gets that check now. The test suite (tests/test_results_certificates.py)
wants both checks recorded for every certificate kept there, so use --write --tool.
benchmarks/results_book.py lists in the book the openings whose certificate has such a record.
The run may be going on meanwhile: its state is read as last saved, never written. A run that has
settled its board is left out: the run's own command writes and checks the board's certificate
(the certificates of its openings written before stay, and the book lists them).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from oxo.proofs.runs import ProvedOpening

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import measure  # noqa: E402
from bench_check import OXO, OXO_LABEL, RECORD, TOOL, TOOL_LABEL, kept_checks, record  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RUNS = ROOT / "results" / "runs"
CERTIFICATES = ROOT / "results" / "certificates"


def openings() -> list[tuple[Path, ProvedOpening, Path]]:
    """(run folder, opening, certificate path) of every settled opening of every kept run of a
    board not settled yet."""
    from oxo.proofs.runs import load_state, proved_openings, state_geometry

    found = []
    for folder in sorted(path.parent.parent for path in RUNS.glob("*/run/state.json")):
        state = load_state(folder)
        if state.get("done") or settled_root(folder):  # the run's own certificates cover it
            continue
        geometry = state_geometry(state)
        for opening in proved_openings(folder):
            found.append((folder, opening, CERTIFICATES / opening.certificate_name(geometry)))
    return found


def settled_root(folder: Path) -> bool:
    """Whether the run kept in ``folder`` has settled its board (its value known, or a question
    answered yes: that side wins): the run's own command writes and checks the board's
    certificate (on 4x4x4x4 the opening X on 0 is the whole proof, some hundreds of MB, not one
    for the repository). A question answered no settles nothing alone: the other is asked."""
    from oxo.proofs.runs import run_status

    status = run_status(folder)
    return status.value is not None or status.won_by is not None


def recorded_checkers(path: Path) -> set[str]:
    """The checkers results/certificate-checks.json records for ``path``'s present bytes."""
    import json

    from oxo.fileio import digests

    kept = json.loads(RECORD.read_text(encoding="utf-8")) if RECORD.exists() else {}
    return set(kept_checks(kept, path.name, digests(path)))


def check(path: Path, labels: list[str]) -> None:
    """Run the checkers named by ``labels`` on ``path`` and record them; a certificate that fails
    a check is removed (it is rewritten from the run on the next --write)."""
    where = path.relative_to(ROOT)
    tool = str(ROOT / "tools" / "check_strategy.py")
    sources = {
        OXO_LABEL: OXO.format(path=str(path)),
        TOOL_LABEL: TOOL.format(tool=tool, path=str(path), jobs=""),  # one process
    }
    rows = [measure(sources[label], label=label) for label in labels]
    for row in rows:
        result = row["result"]
        print(f"  {row['label']}: valid {result['valid']}, {row['seconds']:.1f} s")  # type: ignore[index]
        if not result["valid"]:  # type: ignore[index]
            path.unlink()
            raise SystemExit(f"{where} does not check: removed")
    record(path, rows)


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
            missing = args.tool and TOOL_LABEL not in recorded_checkers(path)
            print(
                f"{where}: written" + ("; checking with the checker without oxo" if missing else "")
            )
            if missing:
                check(path, [TOOL_LABEL])
            continue
        if not args.write:
            print(f"{where}: not written yet")
            continue
        entries = write_opening_certificate(folder, opening, path)
        print(f"{where}: {entries:,} entries, {path.stat().st_size:,} bytes; checking")
        check(path, [OXO_LABEL, TOOL_LABEL] if args.tool else [OXO_LABEL])


if __name__ == "__main__":
    main()
