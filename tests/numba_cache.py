"""Whether numba's disk cache finds a compiled function again: a snippet run in two fresh
processes that share one cache folder, as two commands of a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def twice_with_one_cache(code: str, cache: Path, path: str | None = None) -> list[list[str]]:
    """The words ``code`` prints in each of two fresh processes that share the numba cache folder
    ``cache`` (``path``: a PYTHONPATH for them)."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    if path is not None:
        env["PYTHONPATH"] = path
    return [
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
        ).stdout.split()
        for _ in range(2)
    ]
