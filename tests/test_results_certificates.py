"""The certificates shipped under results/certificates/ pass the checker that does not import oxo,
and say what their names say (board, k, whose strategy, what it guarantees)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted((ROOT / "results" / "certificates").glob("*.jsonl.gz"))


def test_there_are_certificates_to_check() -> None:
    assert SHIPPED


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.name)
def test_a_shipped_certificate_is_accepted_by_the_standalone_checker(path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "check_strategy.py"), "--json", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    verdict = json.loads(done.stdout)
    assert done.returncode == 0 and verdict["valid"], done.stdout
    board, k, side, *guarantee = path.name.removesuffix(".jsonl.gz").split("-")
    assert (verdict["board"], f"k{verdict['k']}", verdict["side"]) == (board, k, side)
    assert verdict["guarantee"] == "-".join(guarantee)
