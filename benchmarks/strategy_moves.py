"""The moves of a certificate's strategy by kind: which of them a rule gives, and which must be stored.

    python benchmarks/strategy_moves.py CERTIFICATE [--budget N] [--json]

Patashnik's proof that X wins Qubic (1980) stored 2,929 "strategic" moves of X and left the rest to
rules his program applied at once: complete a line when possible, block the opponent's line when it
lacks one cell, and play a sequence of threats (each leaving a line one mark short, which the
opponent must block) when one wins. This script sorts the moves of a certificate's strategy the same
way, so that its size compares with his. It reads the certificate as a stream and counts each
position where the strategy's side is to move once, up to the search's symmetries of the board (on
Qubic its 192: the 48 rotations and reflections and the maps that send lines to lines without being
rigid motions), in the first of these kinds that applies:

- ``win``: the certificate's move completes a line;
- ``block``: the opponent has a line one mark short, and the move takes its empty cell;
- ``threats``: the side has a win by a sequence of threats (found by oxo's threat search with fours
  only, within ``--budget`` positions; a larger budget can only find more);
- ``stored``: none of these, the moves a rule does not give: Patashnik's "strategic" moves.

Classes are told apart by 64-bit hashes (the search's table keys), so two classes could in principle
share one; at ten million classes the chance is under one in a hundred thousand. Boards of at most
64 cells (the compiled search's).
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import commit, machine  # noqa: E402
from oxo.geometry import completing_cells  # noqa: E402
from oxo.proofs.certificate import StrategyHeader, status_masks  # noqa: E402
from oxo.proofs.dfpn import ProofSearch  # noqa: E402

KINDS = ("win", "block", "threats", "stored")


def sort_moves(path: Path, budget: int, every: float = 30.0) -> dict[str, object]:
    """The counts of the strategy's moves by kind (see the module's docstring)."""
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        header = StrategyHeader.from_dict(json.loads(handle.readline()))
        geometry = header.geometry
        if geometry.size > 64:
            raise SystemExit(
                f"{path}: a board of {geometry.size} cells; this count takes at most 64"
            )
        side = header.side
        search = ProofSearch(
            geometry, side, threes=False, threat_budget=budget, table_bytes=1 << 20
        )
        lines = geometry.lines
        counts = dict.fromkeys(KINDS, 0)
        seen: set[int] = set()
        entries = pairings = 0
        started = last = time.perf_counter()
        for text in handle:
            if not text.strip():
                continue
            entries += 1
            entry = json.loads(text)
            if "move" not in entry:
                pairings += 1
                continue
            x, o = status_masks(entry["position"])
            key = search.key(x, o)
            if key in seen:
                continue
            seen.add(key)
            own, other = (x, o) if side == "x" else (o, x)
            move = 1 << entry["move"]
            if completing_cells(lines, own, other) & move:
                counts["win"] += 1
            elif completing_cells(lines, other, own):
                counts["block"] += 1
            elif search.threat_plan(x, o) is not None:
                counts["threats"] += 1
            else:
                counts["stored"] += 1
            if time.perf_counter() - last > every:
                last = time.perf_counter()
                print(
                    f"  {entries:,} entries read, {len(seen):,} positions, "
                    f"{counts['stored']:,} stored so far ({last - started:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
    return {
        "certificate": str(path),
        "board": f"{geometry.spec_shape} (k={geometry.k})",
        "side": side,
        "guarantee": header.guarantee,
        "entries": entries,
        "pairing_entries": pairings,
        "positions": len(seen),
        "moves": counts,
        "threat_budget": budget,
        "seconds": round(time.perf_counter() - started, 1),
        "peak_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024),
        "commit": commit(short=True),
        "machine": machine(),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("certificate", type=Path)
    parser.add_argument(
        "--budget", type=int, default=2000, help="positions a threat search may visit (2000)"
    )
    parser.add_argument("--json", action="store_true", help="print the record as JSON")
    args = parser.parse_args()
    record = sort_moves(args.certificate, args.budget)
    if args.json:
        print(json.dumps(record, indent=1))
        return
    moves = record["moves"]
    assert isinstance(moves, dict)
    side = str(record["side"]).upper()
    print(
        f"{record['certificate']}: {record['board']}, {side}'s strategy ({record['guarantee']}), "
        f"{record['entries']:,} entries"
    )
    print(f"positions with {side} to move, up to symmetry: {record['positions']:,}")
    words = {
        "win": "the move completes a line",
        "block": "the move blocks a line of the opponent",
        "threats": f"a win by threats is found (fours only, budget {record['threat_budget']})",
        "stored": "none of these: the moves to store",
    }
    for kind in KINDS:
        print(f"  {moves[kind]:>12,}  {words[kind]}")
    print(f"{record['seconds']} s, peak {record['peak_mib']} MiB, commit {record['commit']}")
    print(record["machine"])


if __name__ == "__main__":
    main()
