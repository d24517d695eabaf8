"""``oxo compile`` (:mod:`oxo.warmup`): every family runs once, its time is reported, and the command
prints each family and the whole (or JSON). The real compile runs in ``.ci/run`` before the tests."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from oxo import warmup
from oxo.cli import main


@pytest.fixture
def families(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    ran: list[str] = []
    monkeypatch.setattr(
        warmup, "FAMILIES", {name: (lambda name=name: ran.append(name)) for name in ("a", "b")}
    )
    return ran


def test_every_family_runs_once_in_this_process(families: list[str]) -> None:
    notes: list[str] = []

    class Sink:
        def advance(self, amount: float = 1) -> None:
            notes.append("advance")

        def __call__(self, fraction: float) -> None:
            pass

        def note(self, text: str) -> None:
            notes.append(text)

    done = warmup.compile_searches(workers=1, progress=Sink())
    assert families == ["a", "b"]
    assert list(done.seconds) == ["a", "b"] and done.wall >= max(done.seconds.values()) >= 0
    assert notes[1::2] == ["advance", "advance"] and notes[0].startswith("a: ")


def test_the_command_names_each_family(
    families: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["compile", "--workers", "1", "--quiet"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out[:2]] == ["a", "b"]
    assert out[-1].startswith("all compiled searches are ready")
    assert main(["compile", "--workers", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["families"]) == {"a", "b"} and data["wall"] >= 0


def test_the_families_are_the_searches() -> None:
    assert set(warmup.FAMILIES) == {
        "proof search",
        "proof search of large boards",
        "proof runs and checkers",
        "gravity solver",
        "tree searches",
        "counters",
        "Python bytecode",
    }
    assert main(["compile", "--workers", "0"]) == 2


def test_the_bytecode_of_every_module_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Even with PYTHONDONTWRITEBYTECODE (sys.dont_write_bytecode), as this machine runs."""
    package = tmp_path / "oxo"
    (package / "inner").mkdir(parents=True)
    for name in ("__init__.py", "inner/__init__.py", "inner/mod.py"):
        (package / name).write_text("VALUE = 1\n", encoding="utf-8")
    monkeypatch.setattr("oxo.__file__", str(package / "__init__.py"))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    warmup.FAMILIES["Python bytecode"]()
    written = sorted(path.relative_to(package).as_posix() for path in package.rglob("*.pyc"))
    assert len(written) == 3 and all("__pycache__/" in path for path in written)
