"""Connect Four's certificates and the rules of certificates with rules: do they apply, and what
would they save?

    python benchmarks/gravity_rules.py [CERTIFICATE...] [--no-confirm] [--json]

Connect Four's certificates (format ``oxo-gravity-strategy/1``, ``oxo.gravity.certificate``) store
the side's column in every position of a tree down to ply 10 and leave the positions there (the
*leaves*) to the solver; the format already needs no entry where the side wins at once. The rules
of docs/proofs.md ("Certificates with rules") are defined on *cells*: a threat is an empty cell
that completes a line, the block takes it, and two threats of the opponent lose. Under gravity a
cell may be taken only at the foot of its column, so the definitions do not carry over (the format
page leaves rules out of boards with gravity). This script measures both sides of that answer on
the shipped certificates:

1. **As defined.** The certificate's own walk (as ``oxo verify`` makes it), counting the
   positions of the side where an opponent's threat cell (in the rules' sense) is not playable, so
   that the block rule cannot take it, and those where the opponent has two or more such cells,
   which the block rule calls lost although the certificate goes on from them.
2. **Adapted.** The walk again with the rules read with *playable* threats (a threat is a column
   whose next mark completes a line): win at once, else a forced chain of playable threats
   (settles the position, a leaf too), else a leaf, else the block of the opponent's only playable
   threat, else the entry. It counts the entries and leaves that walk uses and writes them as a
   file (gzip JSON lines, the same writer settings) in a temporary folder for its bytes. Every
   position a chain settles is confirmed by the solver (``GravitySolver.holds``) unless
   ``--no-confirm``.
"""

from __future__ import annotations

import argparse
import gzip
import json
import resource
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import commit, machine, print_record  # noqa: E402
from oxo.game import Player  # noqa: E402
from oxo.gravity.board import GravityState  # noqa: E402
from oxo.gravity.certificate import (  # noqa: E402
    GravityCertificate,
    lookup,
    mirror_state,
    read_gravity_certificate,
)
from oxo.gravity.solver import GravitySolver  # noqa: E402

SHIPPED = Path(__file__).resolve().parent.parent / "src" / "oxo" / "gravity" / "certificates"


def other(player: Player) -> Player:
    return "o" if player == "x" else "x"


def side_of(cert: GravityCertificate) -> Player:
    """The certificate's side (the reader admits only "x" and "o")."""
    return "x" if cert.side == "x" else "o"


def threat_cells(state: GravityState, player: Player) -> int:
    """The rules' threats as defined: empty cells, playable or not, that complete a line."""
    board = state.board
    marks = state.x if player == "x" else state.o
    free = board.full & ~state.mask
    return sum(
        1 for i in range(free.bit_length()) if free >> i & 1 and board.has_line(marks | 1 << i)
    )


class Chains:
    """Forced chains of playable threats, memoised: ``side`` to move, with no playable win of its
    own, wins by moves that each leave a playable threat (the opponent's block forced), ending in
    two playable threats at once (or a playable win after a block)."""

    def __init__(self, side: Player) -> None:
        self.side = side
        self.memo: dict[tuple[int, int], bool] = {}

    def wins(self, state: GravityState) -> bool:
        if state.key in self.memo:
            return self.memo[state.key]
        side, opponent = self.side, other(self.side)
        self.memo[state.key] = False  # a position met again inside its own chain does not win
        found = False
        for col in state.legal_moves:
            after = state.play(col)
            if after.is_over or after.winning_moves(opponent):
                continue  # the opponent wins at once (an unblocked threat, or one above col)
            threats = after.winning_moves(side)
            if len(threats) >= 2:
                found = True
            elif len(threats) == 1:
                found = self._after_block(after.play(threats[0]))
            if found:
                break
        self.memo[state.key] = found
        return found

    def _after_block(self, state: GravityState) -> bool:
        """The side to move after the opponent's forced block."""
        side, opponent = self.side, other(self.side)
        if state.is_over:
            return False
        if state.winning_moves(side):
            return True
        theirs = state.winning_moves(opponent)
        if len(theirs) >= 2:
            return False
        if len(theirs) == 1:  # the side must block; the chain goes on only if that is a threat
            after = state.play(theirs[0])
            if after.is_over or after.winning_moves(opponent):
                return False
            threats = after.winning_moves(side)
            if len(threats) >= 2:
                return True
            return len(threats) == 1 and self._after_block(after.play(threats[0]))
        return self.wins(state)


def column(cert: GravityCertificate, state: GravityState) -> int | None:
    found = lookup(cert.moves, state)  # type: ignore[arg-type]
    if found is None:
        return None
    col, mirrored = found
    assert isinstance(col, int)
    return cert.board.cols - 1 - col if mirrored else col


def as_defined(cert: GravityCertificate) -> Counter[str]:
    """The certificate's own walk, counting where the rules as defined (threats as cells) fail."""
    side = side_of(cert)
    opponent = other(side)
    seen: set[tuple[int, int]] = set()
    counts: Counter[str] = Counter()
    stack = [GravityState(cert.board)]
    while stack:
        state = stack.pop()
        if state.key in seen:
            continue
        seen.add(state.key)
        if state.is_over or lookup(cert.leaves, state) is not None:  # type: ignore[arg-type]
            continue
        if state.to_move != side:
            stack.extend(state.play(c) for c in state.legal_moves)
            continue
        if state.winning_moves(side):
            continue
        counts["positions of the side walked (mirror images apart)"] += 1
        cells, playable = threat_cells(state, opponent), len(state.winning_moves(opponent))
        if cells > playable:
            counts["an opponent's threat cell not playable"] += 1
        if cells >= 2 and playable < 2:
            counts["two or more threat cells (the block rule refuses), yet the claim holds"] += 1
        col = column(cert, state)
        if col is not None:
            stack.append(state.play(col))
    return counts


def adapted(
    cert: GravityCertificate,
) -> tuple[Counter[str], list[dict[str, object]], list[GravityState]]:
    """The walk with the rules read with playable threats: counts, the entries and leaves it uses
    (as lines of the file), and the positions a chain settled."""
    side = side_of(cert)
    opponent = other(side)
    chains = Chains(side)
    seen: set[tuple[int, int]] = set()
    used: dict[tuple[int, int], dict[str, object]] = {}
    settled: list[GravityState] = []
    counts: Counter[str] = Counter()
    stack = [GravityState(cert.board)]

    def keep(state: GravityState, line: dict[str, object]) -> None:
        used.setdefault(min(state.key, mirror_state(state).key), line)

    while stack:
        state = stack.pop()
        if state.key in seen:
            continue
        seen.add(state.key)
        if state.is_over:
            continue
        leaf = lookup(cert.leaves, state) is not None  # type: ignore[arg-type]
        if state.to_move != side:
            if leaf:
                keep(state, {"position": state.to_rows(), "leaf": True})
            else:
                stack.extend(state.play(c) for c in state.legal_moves)
            continue
        if state.winning_moves(side):
            continue
        theirs = state.winning_moves(opponent)
        if len(theirs) >= 2:
            raise SystemExit(f"{state.to_rows()}: the side has lost, the certificate is wrong")
        if chains.wins(state):
            counts["chain at a leaf" if leaf else "chain"] += 1
            settled.append(state)
            continue
        if leaf:
            keep(state, {"position": state.to_rows(), "leaf": True})
            continue
        col = column(cert, state)
        if len(theirs) == 1:
            counts["block"] += 1
            if col is not None and col != theirs[0]:
                raise SystemExit(f"{state.to_rows()}: the entry does not block the only threat")
            stack.append(state.play(theirs[0]))
            continue
        if col is None:
            raise SystemExit(f"{state.to_rows()}: no entry and no rule")
        keep(state, {"position": state.to_rows(), "move": col + 1})
        stack.append(state.play(col))
    lines = sorted(used.values(), key=lambda line: ("leaf" in line, str(line["position"])))
    return counts, lines, settled


def measure(path: Path, confirm: bool, folder: Path) -> dict[str, object]:
    started = time.process_time()
    cert = read_gravity_certificate(path)
    defined = as_defined(cert)
    counts, lines, settled = adapted(cert)
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        header = json.loads(handle.readline())
    header["rules"] = {"win": True, "chain": True, "block": True, "threats": "playable"}
    text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in [header, *lines])
    written = folder / path.name.replace(".jsonl.gz", ".rules.jsonl.gz")
    written.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    confirmed = None
    if confirm:
        solver = GravitySolver(cert.board)
        wrong = [s for s in settled if not solver.holds(s, cert.side, True, cert.at_least)]
        if wrong:
            raise SystemExit(f"{wrong[0].to_rows()}: a chain the solver does not confirm")
        confirmed = len(settled)
    return {
        "certificate": path.name,
        "claim": cert.claim,
        "moves": len(cert.moves),
        "leaves": len(cert.leaves),
        "bytes": path.stat().st_size,
        "as_defined": dict(defined),
        "adapted": dict(counts),
        "adapted_moves": sum(1 for line in lines if "move" in line),
        "adapted_leaves": sum(1 for line in lines if "leaf" in line),
        "adapted_bytes": written.stat().st_size,
        "chains_confirmed_by_solver": confirmed,
        "cpu_seconds": round(time.process_time() - started, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("certificates", nargs="*", type=Path)
    parser.add_argument(
        "--no-confirm", action="store_true", help="do not solve the chains' positions again"
    )
    parser.add_argument("--json", action="store_true", help="print the records as JSON")
    args = parser.parse_args()
    paths = args.certificates or sorted(SHIPPED.glob("*.jsonl.gz"))
    with tempfile.TemporaryDirectory() as folder:
        rows = [measure(path, not args.no_confirm, Path(folder)) for path in paths]
    peak = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    if args.json:
        print_record(rows)
        return
    for row in rows:
        print(
            f"{row['certificate']} ({row['claim']}): {row['moves']:,} moves, {row['leaves']:,} "
            f"leaves, {row['bytes']:,} bytes"
        )
        defined: dict[str, int] = row["as_defined"]  # type: ignore[assignment]
        for what, n in defined.items():
            print(f"  as defined: {what}: {n:,}")
        rules: dict[str, int] = row["adapted"]  # type: ignore[assignment]
        print(
            f"  adapted (playable threats): {row['adapted_moves']:,} moves, "
            f"{row['adapted_leaves']:,} leaves, {row['adapted_bytes']:,} bytes; "
            + ", ".join(f"{what} {n:,}" for what, n in rules.items())
        )
        if row["chains_confirmed_by_solver"] is not None:
            print(f"  the solver confirms all {row['chains_confirmed_by_solver']:,} chains")
        print(f"  {row['cpu_seconds']} s of processor time")
    print(f"peak {peak} MiB, commit {commit(short=True)}")
    print(machine())


if __name__ == "__main__":
    main()
