"""The checker without oxo (``tools/check_strategy.py``, standard library only), run as its users
run it: in a process of its own, on a certificate file."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

TOOL = Path(__file__).resolve().parents[1] / "tools" / "check_strategy.py"


def load_checker() -> ModuleType:
    """The checker's module, loaded from its file (it is not a package of its own), for tests of
    its pieces."""
    spec = importlib.util.spec_from_file_location("check_strategy_tool", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_checker(path: str | Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The checker's run on ``path`` with ``args``: exit status (0 accepted, 1 refused, 2 a file it
    cannot read), output and errors."""
    return subprocess.run(
        [sys.executable, str(TOOL), str(path), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=900,  # a checker that hangs fails the test
    )


def checker_verdict(path: str | Path, *args: str) -> tuple[int, dict[str, Any]]:
    """The checker's exit status and its verdict (``--json``) on ``path``; a run that ends in
    neither verdict (a traceback, say) fails the test with its errors."""
    done = run_checker(path, "--json", *args)
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return done.returncode, dict(json.loads(done.stdout))
