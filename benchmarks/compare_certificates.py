"""Two certificates of one board and side, entry by entry: what the second keeps of the first.

    python benchmarks/compare_certificates.py FIRST SECOND [--json]

Each entry is taken as its class of positions (under the symmetries of the second file's header,
the board's own and any it lists) with the move or pairing in the class's orientation. The counts:
the second's entries that are the first's unchanged, those at a position of the first with
another move, and those at positions the first does not hold. For Qubic, oxo's certificate with
fewer stored moves against Patashnik's dictionary (docs/big-proofs.md):

    python benchmarks/compare_certificates.py results/certificates/4x4x4-k4-x-win.rules.jsonl.gz \\
        results/certificates/4x4x4-k4-x-win.oxo.rules.jsonl.gz
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from oxo.errors import CertificateError  # noqa: E402
from oxo.geometry import Symmetry  # noqa: E402
from oxo.proofs.certificate import MoveEntry, read_certificate, status_masks  # noqa: E402
from oxo.proofs.symmetry import canonical  # noqa: E402


def entries(path: Path, group: tuple[Symmetry, ...]) -> dict[int, object]:
    """Class key -> the move (or the pairing's pairs) in the class's orientation."""
    certificate = read_certificate(path)
    size = certificate.header.geometry.size
    out: dict[int, object] = {}
    for entry in certificate.entries:
        x, o = status_masks(entry.position)
        key, symmetry = canonical(group, size, x, o)
        if isinstance(entry, MoveEntry):
            out.setdefault(key, symmetry.perm[entry.move])
        else:
            out.setdefault(
                key,
                frozenset(frozenset(symmetry.perm[c] for c in pair) for pair in entry.pairing),
            )
    return out


def compare(first: Path, second: Path) -> dict[str, object]:
    header = read_certificate(second).header
    other = read_certificate(first).header
    if (other.geometry.spec, other.side) != (header.geometry.spec, header.side):
        raise CertificateError(f"{first} and {second}: not one board and side")
    ours = entries(second, header.group)
    theirs = entries(first, header.group)
    same = sum(1 for key, move in ours.items() if theirs.get(key) == move)
    shared = sum(1 for key in ours if key in theirs)
    return {
        "first": str(first),
        "second": str(second),
        "first_entries": len(theirs),
        "second_entries": len(ours),
        "unchanged": same,
        "other_move": shared - same,
        "new_positions": len(ours) - shared,
        "first_only": len(theirs) - shared,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    parser.add_argument("--json", action="store_true", help="print the counts as JSON")
    args = parser.parse_args()
    row = compare(args.first, args.second)
    if args.json:
        print(json.dumps(row, indent=1))
        return
    print(f"{args.second.name}: {row['second_entries']:,} entries; of them")
    print(f"  {row['unchanged']:,} are {args.first.name}'s unchanged,")
    print(f"  {row['other_move']:,} at its positions with another move,")
    print(f"  {row['new_positions']:,} at positions it does not hold")
    print(f"  ({row['first_only']:,} of its {row['first_entries']:,} entries are not kept)")


if __name__ == "__main__":
    main()
