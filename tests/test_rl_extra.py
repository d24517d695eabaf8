"""Without the rl extra, ``import oxo.rl`` says how to install it."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.parametrize("missing", ["pettingzoo", "gymnasium"])
def test_import_without_the_extra_says_how_to_get_it(missing: str) -> None:
    code = (
        "import sys\n"
        f"sys.modules[{missing!r}] = None  # as if it were not installed\n"
        "try:\n"
        "    import oxo.rl\n"
        "except ModuleNotFoundError as error:\n"
        "    print(error.name, '|', error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    name, message = done.stdout.strip().split(" | ")
    assert name == missing
    assert "pip install 'oxo[rl]'" in message and missing in message
