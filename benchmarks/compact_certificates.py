"""Certificates rewritten with rules: the same strategies without the moves a rule gives.

    python benchmarks/compact_certificates.py CERTIFICATE... --out DIR [--chain D] [--improve [--extra N]] [--json]

Each certificate is checked under a header that names the rules (block the opponent's only
threat; forced chains of at most D moves of the side, D = half the board's cells by default: no
bound in effect) and the symmetries the search knows beyond the board's own (Qubic's 192), and the
entries the walk then plays are written to DIR under the same name with ".rules" before
".jsonl.gz" (oxo.proofs.compact); the written file is checked again. With --improve, a win
certificate is then rewritten with fewer stored moves: where the side's stored move has more
stored moves below it, a move after which the rules alone win against every reply replaces it
(oxo.proofs.compact.improve_certificate); --extra N lets a replacing move leave up to N replies (up
to symmetry) that each need one new stored move, when that stores fewer. The table gives, per file, the entries, moves of the side
and bytes before and after, and the blocks and chains the rules gave. Check the written files
without oxo with python3 tools/check_strategy.py FILE.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import commit, machine, print_record  # noqa: E402
from oxo.fileio import digests  # noqa: E402
from oxo.proofs.certificate import read_header  # noqa: E402
from oxo.proofs.compact import compact_certificate, improve_certificate  # noqa: E402
from oxo.proofs.rules import Rules  # noqa: E402
from oxo.proofs.symmetry import extra_generators  # noqa: E402


def rules_name(path: Path) -> str:
    """The name of a certificate's form with rules: ``10x4-k4-x-win.rules.jsonl.gz``."""
    return path.name.removesuffix(".jsonl.gz") + ".rules.jsonl.gz"


def compact(
    path: Path, out: Path, chain: int | None, improve: bool, extra: int
) -> dict[str, object]:
    header = read_header(path)
    geometry = header.geometry
    rules = Rules(block=True, chain=chain if chain is not None else (geometry.size + 1) // 2)
    target = out / rules_name(path)
    started = time.perf_counter()
    cpu = time.process_time()
    done = compact_certificate(path, target, rules, extra_generators(geometry) or None)
    written = done.written
    improved = None
    if improve and header.guarantee == "win":
        better = improve_certificate(target, target, extra=extra)
        improved = {
            "before": better.before,
            "after": better.after,
            "replaced": better.replaced,
            "extra": extra,
        }
        written = better.written
    size = digests(target)
    return {
        "source": str(path),
        "written": str(target),
        "rules": rules.to_dict(),
        "entries_before": done.source.entries,
        "entries": written.entries,
        "moves": written.strategy_moves,
        "blocks": written.rule_blocks,
        "chains": written.rule_chains,
        "positions": written.positions_checked,
        "sections": written.sections,
        "improved": improved,
        "bytes_before": path.stat().st_size,
        "bytes": size["bytes"],
        "sha256": size["sha256"],
        "text_sha256": size["sha256_uncompressed"],
        "seconds": round(time.perf_counter() - started, 1),
        "cpu_seconds": round(time.process_time() - cpu, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("certificates", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, required=True, help="the folder to write to")
    parser.add_argument("--chain", type=int, help="the chain rule's bound (default: cells / 2)")
    parser.add_argument(
        "--improve", action="store_true", help="win certificates: fewer stored moves, see above"
    )
    parser.add_argument(
        "--extra",
        type=int,
        default=0,
        help="with --improve: new stored moves a replacement may add",
    )
    parser.add_argument("--json", action="store_true", help="print the records as JSON")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    rows = []
    for path in args.certificates:
        rows.append(compact(path, args.out, args.chain, args.improve, args.extra))
        if not args.json:
            row = rows[-1]
            print(
                f"{path.name}: {row['entries_before']:,} entries, {row['bytes_before']:,} bytes -> "
                f"{row['entries']:,} entries, {row['bytes']:,} bytes ({row['moves']:,} moves "
                f"stored, {row['blocks']:,} blocks and {row['chains']:,} forced chains by the "
                f"rules; {row['seconds']} s, {row['cpu_seconds']} s of processor time)",
                flush=True,
            )
    peak = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    if args.json:
        print_record(rows)
        return
    print(f"peak {peak} MiB, commit {commit(short=True)}")
    print(machine())


if __name__ == "__main__":
    main()
