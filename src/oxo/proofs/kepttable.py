"""A search's transposition table kept in a file between processes, one format for both compiled
searches (:mod:`oxo.proofs.dfpn`, :mod:`oxo.proofs.wide`): NumPy's ``.npz`` with the table's
arrays and an ``identity`` (JSON) that names what the keys mean (board, question, options,
hashing) and holds the SHA-256 of the arrays. Written atomically; read back only when the
identity matches and the digest is the arrays', so a damaged or foreign file is ignored.

The arrays other than the positions' keys are deflated (zip's own compression, at its fastest
level, which ``numpy.load`` reads as it reads a stored member): their numbers are small and few, and
a proof run's table of 2^25 positions takes some 280 MB of disk instead of 840, so that a disk of
a given size keeps three times as many positions' tables for their next jobs. The keys, hashes
that look random, are stored as they are: deflating them would cost seconds and save a sixth."""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
import zlib

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


#: The arrays written as they are (hashes: deflating them gains little).
STORED = frozenset({"key"})


def write_table(
    path: str | os.PathLike[str],
    identity: dict[str, object],
    arrays: dict[str, np.ndarray],
    names: tuple[str, ...],
) -> None:
    """Write ``arrays`` (those of ``names``) with ``identity`` and their digest, atomically: an
    ``.npz`` whose members but the keys (:data:`STORED`) are deflated."""
    header = json.dumps({**identity, "sha256": arrays_digest(arrays, names)})
    members = [("identity", np.array(header))] + [(name, arrays[name]) for name in names]
    with (
        atomic_writer(path) as handle,
        zipfile.ZipFile(handle, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as archive,
    ):
        for name, array in members:
            # a name takes the archive's compression; a ZipInfo, its own (stored)
            member: str | zipfile.ZipInfo = f"{name}.npy"
            if name in STORED:
                member = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
                member.compress_type = zipfile.ZIP_STORED
            with archive.open(member, "w", force_zip64=True) as out:
                np.lib.format.write_array(out, np.asarray(array), allow_pickle=False)


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
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, zlib.error):
        return None
    digest = kept.pop("sha256", None) if isinstance(kept, dict) else None
    if kept != identity or digest != arrays_digest(arrays, names):
        return None
    length = len(arrays[names[0]])
    if any(len(arrays[n]) != length or arrays[n].dtype != dtypes[n] for n in names):
        return None
    return arrays
