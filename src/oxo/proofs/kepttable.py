"""A search's transposition table kept in a file between processes, one format for both compiled
searches (:mod:`oxo.proofs.dfpn`, :mod:`oxo.proofs.wide`): NumPy's ``.npz`` with the table's
arrays and an ``identity`` (JSON) that names what the keys mean (board, question, options,
hashing) and holds the SHA-256 of the arrays. Written atomically; read back only when the
identity matches and the digest is the arrays', so a damaged or foreign file is ignored."""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
from typing import Any

import numpy as np

from oxo.fileio import atomic_writer
from oxo.geometry import Geometry


def table_identity(
    table_format: str, geometry: Geometry, attacker_is_x: bool, options: list[int], hashing: bytes
) -> dict[str, object]:
    """What a kept table must match to be read back: its format, the board, the question, the
    search's options, and the SHA-256 of the hashing of positions (``hashing``: the keys mean
    nothing under another)."""
    return {
        "format": table_format,
        "dims": list(geometry.shape),
        "k": geometry.k,
        "gravity": geometry.gravity,
        "attacker": "x" if attacker_is_x else "o",
        "options": options,
        "hashing": hashlib.sha256(hashing).hexdigest(),
    }


def arrays_digest(arrays: dict[str, np.ndarray], names: tuple[str, ...]) -> str:
    """SHA-256 of the arrays ``names`` of ``arrays``, in that order."""
    digest = hashlib.sha256()
    for name in names:
        digest.update(np.ascontiguousarray(arrays[name]).tobytes())
    return digest.hexdigest()


def write_table(
    path: str | os.PathLike[str],
    identity: dict[str, object],
    arrays: dict[str, np.ndarray],
    names: tuple[str, ...],
) -> None:
    """Write ``arrays`` (those of ``names``) with ``identity`` and their digest, atomically."""
    header = json.dumps({**identity, "sha256": arrays_digest(arrays, names)})
    payload: dict[str, Any] = {name: arrays[name] for name in names}
    with atomic_writer(path) as handle:
        np.savez(handle, identity=np.array(header), **payload)


def read_table(
    path: str | os.PathLike[str],
    identity: dict[str, object],
    dtypes: dict[str, np.dtype],
) -> dict[str, np.ndarray] | None:
    """The arrays (named as ``dtypes``' keys, in its order) kept in ``path``, or None when the
    file is missing or damaged, its identity is not ``identity``, its digest is not its arrays',
    or the arrays are not all of one length and of the dtypes given."""
    names = tuple(dtypes)
    try:
        with np.load(path, allow_pickle=False) as data:
            kept = json.loads(str(data["identity"]))
            arrays = {name: data[name] for name in names}
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile):
        return None
    digest = kept.pop("sha256", None) if isinstance(kept, dict) else None
    if kept != identity or digest != arrays_digest(arrays, names):
        return None
    length = len(arrays[names[0]])
    if any(len(arrays[n]) != length or arrays[n].dtype != dtypes[n] for n in names):
        return None
    return arrays
