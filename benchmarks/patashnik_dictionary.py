"""Patashnik's dictionary of Qubic, walked with his four rules against every defence: complete or not.

    python benchmarks/patashnik_dictionary.py [--dictionary FILE] [--state FILE] [--certificate OUT]
        [--complete] [--json]

X plays by Patashnik's rules (win at once; else block O's three in a row; else the dictionary's
move, the position looked up under the board's 192 automorphisms; else a forced win, a chain of
threats ending in two at once, which must exist), O plays every reply, from the empty board
(oxo.proofs.dictionary). The verdict is "complete" (the rules and the dictionary win every game)
or the first position where they leave X without a win, with the moves that lead there. It also
counts the positions walked (one per class under the 192 automorphisms), the dictionary's lines
used and never used, the forced wins that end the walk and the longest of them, and the positions
of the dictionary where X has a forced chain (where a certificate's rules, which put the chain
before the entries, would play otherwise than Patashnik's program).

With --state FILE the walk is saved to FILE every few minutes and when it ends; the same command
run again goes on from the last save (a stopped walk is not started over; a finished one answers
at once). The forced chains and the classes are compiled (oxo.proofs.chainkernel).

With --complete the walk is made again with every forced win played out (X takes the least cell
that starts a chain, blocks where O threatens) against every reply, and the classes where X moves
are counted: the size of a complete dictionary, one that needs no rule but the win at once.

With --certificate OUT the lines the walk used are written, unchanged, as an oxo-strategy/1
certificate of X's win with rules (block, and forced chains to no bound in effect); with --check
oxo's checker then checks it here (it plays the rules again: under a minute of processor time; or
check it apart with oxo verify OUT, and without oxo with python3 tools/check_strategy.py OUT, about
nine minutes).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import commit, machine  # noqa: E402
from oxo.fileio import digests  # noqa: E402
from oxo.geometry import Geometry  # noqa: E402
from oxo.proofs.certificate import verify_certificate  # noqa: E402
from oxo.proofs.dictionary import (  # noqa: E402
    DictionaryWalker,
    dictionary_certificate,
    read_dictionary,
)
from oxo.proofs.rules import Rules  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
DICTIONARY = ROOT / "data" / "qubic-patashnik.dictionary"


def run(
    dictionary: Path,
    certificate: Path | None,
    complete: bool,
    state: Path | None = None,
    check: bool = False,
) -> dict[str, object]:
    geometry = Geometry.parse("4x4x4")
    moves = read_dictionary(dictionary)
    started = time.perf_counter()
    cpu = time.process_time()

    def progress(positions: int, replies: int, used: int) -> None:
        print(
            f"  {positions:,} positions of X, {replies:,} of O, {used:,} lines used "
            f"({time.perf_counter() - started:.0f} s)",
            file=sys.stderr,
            flush=True,
        )

    walker = DictionaryWalker(geometry, moves, on_progress=progress)
    walk = walker.walk(state=state)
    record: dict[str, object] = {
        "dictionary": str(dictionary),
        "lines": len(moves),
        "chain_bound": walker.bound,
        **walk.to_dict(),
        "seconds": round(time.perf_counter() - started, 1),
        "cpu_seconds": round(time.process_time() - cpu, 1),
    }
    print(  # the verdict as soon as it is known: the counts and the check below take longer
        f"  walk done: {'complete' if walk.complete else 'NOT complete: ' + str(walk.failure)}; "
        f"{walk.positions:,} positions of X, {walk.replies:,} of O, {len(walk.used):,} lines used "
        f"({record['seconds']} s, {record['cpu_seconds']} s of processor time)",
        file=sys.stderr,
        flush=True,
    )
    # A certificate's rules put the forced chain before the entries; on a position of the
    # dictionary with a chain the two orders would differ.
    record["lines_with_a_chain"] = sum(
        walker.chains.exists(move.x, move.o, walker.bound) for move in moves
    )
    if certificate is not None and walk.complete:
        used = set(walk.used)
        entries = dictionary_certificate(
            certificate,
            geometry,
            [move for move in moves if move.number in used],
            Rules(block=True, chain=walker.bound),
        )
        written: dict[str, object] = {
            "path": str(certificate),
            "entries": entries,
            **digests(certificate),
        }
        record["certificate"] = written
        if check:
            written["check"] = verify_certificate(certificate).to_dict()
    if complete and walk.complete:
        again = time.perf_counter()
        expanded = DictionaryWalker(geometry, moves, on_progress=progress, expand=True).walk(
            state=None if state is None else state.with_name(state.name + ".complete")
        )
        record["complete_dictionary"] = {
            **(expanded.expanded or {}),
            "lines": expanded.positions,
            "replies": expanded.replies,
            "seconds": round(time.perf_counter() - again, 1),
        }
    record["peak_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    record["commit"] = commit(short=True)
    record["machine"] = machine()
    return record


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dictionary", type=Path, default=DICTIONARY)
    parser.add_argument(
        "--state", type=Path, help="save the walk here, and go on from it if it is there"
    )
    parser.add_argument("--certificate", type=Path, help="write the used lines as a certificate")
    parser.add_argument(
        "--check", action="store_true", help="check the written certificate with oxo's checker"
    )
    parser.add_argument(
        "--complete", action="store_true", help="also count a complete dictionary's lines"
    )
    parser.add_argument("--json", action="store_true", help="print the record as JSON")
    args = parser.parse_args()
    record = run(args.dictionary, args.certificate, args.complete, args.state, args.check)
    if args.json:
        print(json.dumps(record, indent=1))
        return
    if record["complete"]:
        print(f"{record['dictionary']}: complete: X's rules win every game from the empty board")
    else:
        moves = record["failure_line"]
        line = " ".join(map(str, moves)) if isinstance(moves, (list, tuple)) else ""
        print(f"{record['dictionary']}: NOT complete: {record['failure']}")
        print(f"  at position {record['failure_position']}, after the moves {line}")
    print(
        f"  positions walked (one per class of the 192 automorphisms): {record['positions']:,} "
        f"with X to move (dictionary or forced win), {record['replies']:,} with O to move"
    )
    print(
        f"  dictionary lines used: {record['dictionary_lines_used']:,} of {record['lines']:,} "
        f"({record['dictionary_lines_unused']:,} never used)"
    )
    print(
        f"  forced wins ending the walk: {record['forced_wins']:,}, the longest {record['longest_chain']} "
        f"moves of X; blocks played: {record['blocks']:,}; wins at once: {record['wins']:,}"
    )
    print(f"  dictionary positions where X has a forced chain: {record['lines_with_a_chain']:,}")
    if "complete_dictionary" in record:
        full = record["complete_dictionary"]
        assert isinstance(full, dict)
        print(
            f"  a complete dictionary (no rule but the win at once): {full['lines']:,} lines: "
            f"{full['dictionary']:,} of Patashnik's, {full['block']:,} blocks, {full['chain']:,} "
            f"moves of forced chains ({full['seconds']} s)"
        )
    if "certificate" in record:
        cert = record["certificate"]
        assert isinstance(cert, dict)
        print(
            f"  certificate {cert['path']}: {cert['entries']:,} entries, {cert['bytes']:,} bytes"
            + (
                ""
                if "check" not in cert
                else f"; oxo verify: {'valid' if cert['check']['valid'] else 'INVALID'}"
            )
        )
    print(
        f"{record['seconds']} s ({record['cpu_seconds']} s of processor time), peak "
        f"{record['peak_mib']} MiB, commit {record['commit']}"
    )
    print(record["machine"])


if __name__ == "__main__":
    main()
