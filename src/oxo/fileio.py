"""Output files written atomically: a reader sees the old file or the new one, never half of it."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO


def _umask() -> int:
    """The process's umask: from ``/proc`` on Linux (safe with threads), else by setting it and back."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


@contextmanager
def atomic_writer(path: str | os.PathLike[str]) -> Iterator[BinaryIO]:
    """A binary file to write ``path`` through, bit by bit: the data goes to a temporary file in the
    same folder, which replaces ``path`` (after an fsync) only when the block ends without an error.
    For output too big to hold in memory (a merged certificate, say).

    The file gets the permissions of any newly created file, 0644 minus the umask (a temporary file
    is created private, 0600, and would otherwise keep that).
    """
    target = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.fchmod(fd, 0o644 & ~_umask())
        with os.fdopen(fd, "wb") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename."""
    with atomic_writer(path) as handle:
        handle.write(data.encode("utf-8") if isinstance(data, str) else data)


def digests(path: str | os.PathLike[str]) -> dict[str, object]:
    """The size and SHA-256 of a file, and for a gzip file the SHA-256 of what it holds too (which
    does not depend on the compressor's version, where the file's own digest may)."""
    import gzip
    import hashlib

    with open(path, "rb") as handle:
        out: dict[str, object] = {
            "bytes": os.path.getsize(path),
            "sha256": hashlib.file_digest(handle, "sha256").hexdigest(),
        }
    if str(path).endswith(".gz"):
        with gzip.open(path, "rb") as inner:
            out["sha256_uncompressed"] = hashlib.file_digest(inner, "sha256").hexdigest()
    return out
