"""``oxo compile`` (:mod:`oxo.warmup`): every family runs once, its time is reported, and the command
prints each family and the whole (or JSON). The real compile runs in ``.ci/run`` before the tests."""

from __future__ import annotations

import json

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
    }
    assert main(["compile", "--workers", "0"]) == 2
