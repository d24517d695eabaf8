"""A kept table's file (:mod:`oxo.proofs.kepttable`): what is written is what is read back, the
numbers deflated and the keys stored, a file of the layout before still read, anything damaged or
foreign ignored."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pytest

from oxo.geometry import Geometry
from oxo.proofs.kepttable import STORED, read_table, table_identity, write_table

NAMES = ("key", "pn", "dn", "work", "flags")


def _table(entries: int, seed: int = 1) -> dict[str, np.ndarray]:
    """A table as a search leaves it: random 64-bit keys, small numbers, mostly zero flags."""
    rng = np.random.default_rng(seed)
    return {
        "key": rng.integers(1, 2**63, entries, dtype=np.uint64),
        "pn": rng.integers(0, 300, entries).astype(np.int32),
        "dn": rng.integers(1, 80, entries).astype(np.int32),
        "work": np.where(rng.random(entries) < 0.8, 0, rng.integers(1, 900, entries)),
        "flags": np.where(rng.random(entries) < 0.99, 0, 4).astype(np.uint8),
    }


def _identity(attacker_is_x: bool = True) -> dict[str, object]:
    return table_identity("test-table/1", Geometry.parse("4x4x4"), attacker_is_x, [1, 2], b"zob")


def _dtypes(arrays: dict[str, np.ndarray]) -> dict[str, np.dtype]:
    return {name: arrays[name].dtype for name in NAMES}


def test_a_table_reads_back_as_written_with_its_numbers_deflated(tmp_path: Path) -> None:
    arrays = _table(200_000)
    path = tmp_path / "t.npz"
    write_table(path, _identity(), arrays, NAMES)
    back = read_table(path, _identity(), _dtypes(arrays))
    assert back is not None and list(back) == list(NAMES)
    for name in NAMES:
        assert back[name].dtype == arrays[name].dtype
        assert np.array_equal(back[name], arrays[name])
    with zipfile.ZipFile(path) as archive:
        kinds = {info.filename: info.compress_type for info in archive.infolist()}
    assert kinds["key.npy"] == zipfile.ZIP_STORED and "key" in STORED
    assert all(kinds[f"{name}.npy"] == zipfile.ZIP_DEFLATED for name in NAMES if name != "key")
    raw = sum(array.nbytes for array in arrays.values())
    keys = arrays["key"].nbytes
    # the keys as they are, the rest to well under a third of its size
    assert path.stat().st_size < keys + (raw - keys) // 3


def test_a_table_written_before_its_numbers_were_deflated_still_reads(tmp_path: Path) -> None:
    """A run's kept tables outlive an upgrade: the plain ``numpy.savez`` layout of before."""
    arrays = _table(5_000, seed=2)
    identity = _identity()
    write_table(tmp_path / "new.npz", identity, arrays, NAMES)
    with np.load(tmp_path / "new.npz") as data:
        header = str(data["identity"])
    old = tmp_path / "old.npz"
    np.savez(old, identity=np.array(header), **arrays)
    back = read_table(old, identity, _dtypes(arrays))
    assert back is not None and np.array_equal(back["pn"], arrays["pn"])


def test_a_foreign_or_damaged_table_is_ignored(tmp_path: Path) -> None:
    arrays = _table(20_000, seed=3)
    path = tmp_path / "t.npz"
    write_table(path, _identity(), arrays, NAMES)
    dtypes = _dtypes(arrays)
    assert read_table(path, _identity(attacker_is_x=False), dtypes) is None
    assert read_table(tmp_path / "missing.npz", _identity(), dtypes) is None
    assert read_table(path, _identity(), {**dtypes, "pn": np.dtype(np.int64)}) is None
    with zipfile.ZipFile(path) as archive:
        spans = {
            info.filename: (info.header_offset, info.compress_size) for info in archive.infolist()
        }
    data = path.read_bytes()
    # a byte flipped in the middle of a stored member and of a deflated one, and a cut file
    for member in ("key.npy", "dn.npy"):
        offset, size = spans[member]
        damaged = bytearray(data)
        damaged[offset + 100 + size // 2] ^= 0xFF
        (tmp_path / "d.npz").write_bytes(bytes(damaged))
        assert read_table(tmp_path / "d.npz", _identity(), dtypes) is None, member
    (tmp_path / "cut.npz").write_bytes(data[: len(data) // 2])
    assert read_table(tmp_path / "cut.npz", _identity(), dtypes) is None


@pytest.mark.parametrize("field", ["sha256", "k"])
def test_a_table_whose_header_was_changed_is_ignored(tmp_path: Path, field: str) -> None:
    arrays = _table(1_000, seed=4)
    path = tmp_path / "t.npz"
    write_table(path, _identity(), arrays, NAMES)
    with np.load(path) as data:
        header = json.loads(str(data["identity"]))
        rest = {name: data[name] for name in NAMES}
    header[field] = "0" * 64 if field == "sha256" else 5
    np.savez(path, identity=np.array(json.dumps(header)), **rest)
    assert read_table(path, _identity(), _dtypes(arrays)) is None
