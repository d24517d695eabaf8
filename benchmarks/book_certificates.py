"""Make the small certificates that ship inside oxo for its proof book, and record how each was made.

Run:  python benchmarks/book_certificates.py                  (every board it makes; minutes)
      python benchmarks/book_certificates.py --only 7x7,k=5   (one board again)

The boards: those of ``results/solved.json`` with a proved value, except the ones whose certificates
ship elsewhere (``results/certificates/``: 10x4 with k = 4 and the long runs' 8x8 with k = 5; Qubic's
is rebuilt from its run) and the wide boards whose tall turn is in the list (4x9 plays from 9x4's
certificate turned a quarter, as 4x10 from 10x4's). Each board is proved by the command of its book
row (``oxo solve BOARD --k K --proof DIR``, defaults otherwise but a --time of two hours) in a
fresh process, in an empty temporary folder; its certificates are checked again by oxo's checker and by
``tools/check_strategy.py`` (no oxo), then copied into ``src/oxo/book/certificates/``.
``results/book-certificates.json`` records, per file, the command, the date, the machine, the commit,
the wall time, the size and the SHA-256 of the file and of the text it holds.
``python benchmarks/results_book.py --write`` then writes the book from it.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import commit, machine  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "src" / "oxo" / "book" / "certificates"
RECORD = ROOT / "results" / "book-certificates.json"
SHIPPED_ELSEWHERE = {"10x4,k=4", "8x8,k=5", "4x4x4"}
TURNED = {"4x9,k=4": "9x4,k=4", "4x10,k=4": "10x4,k=4"}


def boards() -> list[str]:
    """The boards of results/solved.json with a value, in its order, that this script makes."""
    rows = json.loads((ROOT / "results" / "solved.json").read_text(encoding="utf-8"))["boards"]
    return [
        row["spec"]
        for row in rows
        if row["value"] in ("x", "o", "draw")
        and row["spec"] not in SHIPPED_ELSEWHERE
        and row["spec"] not in TURNED
    ]


def command_of(spec: str) -> list[str]:
    """The book row's command for a board (``oxo solve 7x7 --k 5 --proof DIR``), as argv."""
    from oxo.geometry import Geometry

    geometry = Geometry.parse(spec)
    shape = geometry.spec_shape
    k = [] if geometry.k == geometry.default_k else ["--k", str(geometry.k)]
    return ["oxo", "solve", shape, *k, "--proof", "DIR"]


def make(spec: str) -> list[dict[str, object]]:
    """Prove ``spec`` with its command in an empty folder; check and copy its certificates."""
    from oxo.fileio import digests
    from oxo.proofs.certificate import verify_certificate

    argv = command_of(spec)
    oxo = str(Path(sys.executable).with_name("oxo"))
    with tempfile.TemporaryDirectory(prefix="oxo-book-") as scratch:
        folder = Path(scratch) / "proof"
        # A generous --time: on a busy machine the default 600 s may not be enough (the same
        # command, run again on the folder, would continue where it stopped).
        run = [oxo, *argv[1:-1], str(folder), "--time", "7200", "--json", "-q"]
        started = time.perf_counter()
        done = subprocess.run(run, capture_output=True, text=True)
        seconds = time.perf_counter() - started
        if done.returncode != 0:
            raise SystemExit(f"{spec}: {' '.join(argv)} failed ({done.returncode}): {done.stderr}")
        result = json.loads(done.stdout)
        made = []
        for proof in result["proofs"]:
            path = Path(proof)
            if not path.is_absolute():
                path = folder / path
            check = verify_certificate(path)
            if not check.valid:
                raise SystemExit(f"{spec}: {path.name} fails oxo's check: {check}")
            plain = subprocess.run(
                [sys.executable, str(ROOT / "tools" / "check_strategy.py"), "--json", str(path)],
                capture_output=True,
                text=True,
            )
            if plain.returncode != 0 or not json.loads(plain.stdout)["valid"]:
                raise SystemExit(f"{spec}: {path.name} fails the check without oxo: {plain.stdout}")
            TARGET.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, TARGET / path.name)
            made.append(
                {
                    "board": spec,
                    "file": path.name,
                    "command": " ".join(argv),
                    "value": result["value"],
                    "seconds": round(seconds, 2),
                    "date": time.strftime("%Y-%m-%d"),
                    "machine": machine(),
                    "commit": commit(short=True),
                    **digests(TARGET / path.name),
                    "entries": check.entries,
                    "positions_checked": check.positions_checked,
                    "moves": check.strategy_moves,
                }
            )
            print(f"{spec}: {path.name}: {check}", flush=True)
        return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", action="append", default=[], help="a board such as 7x7,k=5")
    args = parser.parse_args()
    wanted = boards()
    unknown = [spec for spec in args.only if spec not in wanted]
    if unknown:
        raise SystemExit(f"not a board this script makes: {', '.join(unknown)}; it makes {wanted}")
    todo = args.only or wanted
    record = json.loads(RECORD.read_text(encoding="utf-8")) if RECORD.exists() else []
    for spec in todo:
        made = make(spec)
        names = {item["file"] for item in made}
        record = [item for item in record if item["board"] != spec and item["file"] not in names]
        record += made
        order = {spec: number for number, spec in enumerate(wanted)}
        record.sort(key=lambda item: (order.get(str(item["board"]), 99), str(item["file"])))
        from oxo.fileio import write_atomic

        write_atomic(RECORD, json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
