"""Benchmark of a proof run's kept tables on disk: the layout before (every array stored, as
``numpy.savez`` writes it) against the one now (the numbers deflated, the keys stored:
:mod:`oxo.proofs.kepttable`), side by side on the same table.

Run:  python benchmarks/bench_kept_tables.py                 (a kept table of the 4x4x4x4 run)
      python benchmarks/bench_kept_tables.py --table FILE    (any kept table)
      python benchmarks/bench_kept_tables.py --nodes 200000  (without one: a search makes it)

A proof run keeps each open leaf's table (up to 2^25 positions) for the leaf's next job and
deletes the oldest when the disk runs short, so the size of a table is how many leaves a disk
keeps. For each layout, in a fresh process: the wall time to write the table and to read it back
(``read_table``, its SHA-256 checked), peak memory, the file's size, and the ratio to the layout
before. Without a kept table on this machine, one is made by a search of 4x4x4x4 from the empty
board, ``--nodes`` positions in a table of 2^24 slots.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import commit, machine, measure  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RUN = ROOT / "results" / "runs" / "4x4x4x4" / "run"

SETUP = """
import json, os
import numpy as np
from oxo.proofs import kepttable
"""

#: Read the table to write (in the set-up: the time counted is the writing's).
READ_SOURCE = """
with np.load({source!r}) as data:
    identity = json.loads(str(data["identity"]))
    names = [name for name in data.files if name != "identity"]
    arrays = {{name: data[name] for name in names}}
identity.pop("sha256")
"""

WRITE = {
    "before": """
header = json.dumps({{**identity, "sha256": kepttable.arrays_digest(arrays, tuple(names))}})
with open({target!r}, "wb") as handle:
    np.savez(handle, identity=np.array(header), **arrays)
    handle.flush()
    os.fsync(handle.fileno())
""",
    "now": """
kepttable.write_table({target!r}, identity, arrays, tuple(names))
""",
}

#: What the reading must match (in the set-up: the time counted is ``read_table``'s).
READ_HEADER = """
with np.load({target!r}) as data:
    identity = json.loads(str(data["identity"]))
    dtypes = {{name: data[name].dtype for name in data.files if name != "identity"}}
identity.pop("sha256")
"""

READ = """
arrays = kepttable.read_table({target!r}, identity, dtypes)
assert arrays is not None, "not read back"
result = len(arrays["key"])
"""


def made_table(folder: Path, nodes: int) -> Path:
    """A kept table of a search of 4x4x4x4 from the empty board, ``nodes`` positions."""
    target = folder / "made.npz"
    code = f"""
from oxo.geometry import Geometry
from oxo.proofs.wide import SLOT_BYTES, WideSearch
search = WideSearch(
    Geometry.parse("4x4x4x4"), "x", table_bytes=(1 << 24) * SLOT_BYTES, max_nodes={nodes}
)
search.solve()
result = search.save_table({str(target)!r})
"""
    report = measure(code, label="make", setup="", env={"PYTHONPATH": str(ROOT / "src")})
    print(f"made a table of {report['result']:,} positions ({report['seconds']:.0f} s)")
    return target


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", type=Path, help="a kept table (job-*.npz of a proof run)")
    parser.add_argument("--nodes", type=int, default=200_000, help="positions, to make one")
    args = parser.parse_args()
    env = {"PYTHONPATH": str(ROOT / "src")}
    print(machine())
    print(f"commit {commit()}")
    with tempfile.TemporaryDirectory(dir=ROOT / "benchmarks") as scratch:
        folder = Path(scratch)
        source = args.table
        if source is None:
            kept = (
                sorted(RUN.glob("job-*.npz"), key=lambda p: p.stat().st_size)
                if RUN.exists()
                else []
            )
            source = kept[-1] if kept else made_table(folder, args.nodes)
        print(f"table: {source} ({source.stat().st_size:,} bytes)")
        rows = []
        for layout in ("before", "now"):
            target = str(folder / f"{layout}.npz")
            wrote = measure(
                WRITE[layout].format(target=target),
                label=layout,
                setup=SETUP + READ_SOURCE.format(source=str(source)),
                env=env,
            )
            read = measure(
                READ.format(target=target),
                label=layout,
                setup=SETUP + READ_HEADER.format(target=target),
                env=env,
            )
            rows.append((layout, Path(target).stat().st_size, wrote, read))
        base = rows[0][1]
        print(
            f"{'layout':<8}{'positions':>12}{'MB on disk':>12}{'write s':>9}{'read s':>8}"
            f"{'peak MiB':>10}{'size ratio':>12}"
        )
        for layout, size, wrote, read in rows:
            peak = max(float(wrote["peak_mib"]), float(read["peak_mib"]))
            print(
                f"{layout:<8}{read['result']:>12,}{size / 1e6:>12.1f}{wrote['seconds']:>9.2f}"
                f"{read['seconds']:>8.2f}{peak:>10.0f}{size / base:>11.2f}x"
            )


if __name__ == "__main__":
    main()
