"""The certificates shipped under results/certificates/ pass the checker that does not import oxo,
and say what their names say (board, k, whose strategy, what it guarantees).

A certificate too big to check within the test suite's time (8x8 with k = 5: X's no-loss, 1.4 MB,
about 35 s; O's, 41 MB, about 10 minutes) is instead compared byte for byte, by its SHA-256, with the file its proof run wrote and
checked (the digest and the check's verdict are in the run's state under results/runs/); set
OXO_CHECK_ALL_CERTIFICATES=1 to run the checker over it too."""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import pytest

from checkers import checker_verdict
from oxo.fileio import digests
from oxo.proofs.runs import run_status

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = sorted((ROOT / "results" / "certificates").glob("*.jsonl.gz"))
#: Certificates up to this size are checked in full by the slow tests, unless a check of theirs is
#: recorded (10x4's, 220 KB: 12 s of processor time for each checker, recorded by
#: ``benchmarks/bench_check.py --record``; the suite checks 9x4's and 7x4's, of the same kind, in
#: full); the bigger ones by their digest, which keeps the whole suite within its time.
FULL_CHECK_BYTES = 1 << 20
EVERY = os.environ.get("OXO_CHECK_ALL_CERTIFICATES") == "1"


def _name_says(path: Path) -> tuple[str, str, str, str]:
    """Board, ``k<k>``, side and guarantee from a name such as ``10x4-k4-x-win.jsonl.gz`` (a
    certificate with rules: ``10x4-k4-x-win.rules.jsonl.gz``; another of the same board and side
    names its maker before: ``4x4x4-k4-x-win.oxo.rules.jsonl.gz``; a certificate of a position a
    few moves in ends in the moves: ``4x4x4x4-k4-x-win-after-0-3.jsonl.gz``)."""
    stem = path.name.split(".")[0].partition("-after-")[0]
    board, k, side, *guarantee = stem.split("-")
    return board, k, side, "-".join(guarantee)


def _moves_named(path: Path) -> tuple[int, ...] | None:
    """The moves a name ending ``-after-0-3`` gives (X first), None for a board's certificate."""
    stem = path.name.split(".")[0]
    return tuple(map(int, stem.split("-after-")[1].split("-"))) if "-after-" in stem else None


@pytest.mark.parametrize(
    "path", [path for path in SHIPPED if _moves_named(path)], ids=lambda path: path.name
)
def test_a_certificate_of_a_position_begins_where_its_name_says(path: Path) -> None:
    """Its header's start is the position its name's moves reach, X first."""
    moves = _moves_named(path)
    assert moves is not None
    with gzip.open(path, "rt") as text:
        start = json.loads(text.readline())["start"]
    marks = ["0"] * len(start)
    for number, cell in enumerate(moves):
        marks[cell] = "12"[number % 2]
    assert start == "".join(marks)


#: Certificates whose check takes longer than the suite may (Qubic's with Patashnik's dictionary
#: and the chain rule: the checkers play a forced chain at each of some 300,000 positions; 10x4's
#: without rules, whose 89,236 positions two smaller ones of the suite stand for), or whose
#: recorded check spares the suite a few seconds (10x4's with rules: 3 s without oxo), with the
#: checks run on them and the file's digests, as ``benchmarks/bench_check.py --record`` and the
#: commands in docs/big-proofs.md recorded them.
CHECKED = ROOT / "results" / "certificate-checks.json"


def _recorded(name: str) -> list[dict[str, object]]:
    """What the proof runs kept in results/runs/ recorded of the certificates named ``name`` they
    wrote and checked (as ``--status`` reads it), and the check of results/certificate-checks.json:
    each check's verdict, with the file's size and SHA-256. Two runs of one board (the proof and a
    run again from nothing with the defaults) write certificates of the same name, each its own
    strategy: a shipped one is the one whose digests it has."""
    found = [
        check
        for state in sorted((ROOT / "results" / "runs").glob("*/run/state.json"))
        if (check := run_status(state.parent.parent).checks.get(name)) is not None
    ]
    checked = _checked().get(name)
    return found + ([checked] if checked is not None else [])


def _checked() -> dict[str, dict[str, object]]:
    """The checks of results/certificate-checks.json."""
    return json.loads(CHECKED.read_text(encoding="utf-8")) if CHECKED.exists() else {}


def _slow_to_check(path: Path) -> bool:
    return path.stat().st_size > FULL_CHECK_BYTES or path.name in _checked()


def test_there_are_certificates_to_check() -> None:
    assert SHIPPED


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.name)
def test_a_shipped_certificate_is_accepted_by_the_standalone_checker(path: Path) -> None:
    if _slow_to_check(path) and not EVERY:
        pytest.skip("too long for the suite: its digest is compared with its check's, below")
    code, verdict = checker_verdict(path)
    assert code == 0 and verdict["valid"], verdict
    board, k, side, guarantee = _name_says(path)
    assert (verdict["board"], f"k{verdict['k']}", verdict["side"]) == (board, k, side)
    assert verdict["guarantee"] == guarantee
    with gzip.open(path, "rt") as text:  # a name with ".rules" is a certificate with rules
        assert path.name.endswith(".rules.jsonl.gz") == ("rules" in json.loads(text.readline()))


@pytest.mark.parametrize(
    "path",
    [path for path in SHIPPED if _slow_to_check(path)],
    ids=lambda path: path.name,
)
def test_a_big_certificate_is_the_one_its_run_wrote_and_checked(path: Path) -> None:
    kept = digests(path)  # size, SHA-256 of the file and of the text it holds
    records = _recorded(path.name)
    assert records, f"no run under results/runs/ and no check recorded {path.name}"
    record = next((r for r in records if {key: r.get(key) for key in kept} == kept), None)
    assert record is not None, f"no recorded check of {path.name} has its digests {kept}"
    assert record["valid"] is True
    board, k, side, guarantee = _name_says(path)
    assert (record["board"], f"k{record['k']}", record["side"]) == (board, k, side)
    assert record["guarantee"] == guarantee
    with gzip.open(path, "rt") as text:  # the header says the same
        header = json.loads(text.readline())
    assert (header["board"], header["k"], header["side"], header["guarantee"]) == (
        board,
        int(k[1:]),
        side,
        guarantee,
    )


@pytest.mark.parametrize("name", sorted(_checked()), ids=str)
def test_a_recorded_check_includes_the_checker_without_oxo(name: str) -> None:
    """A certificate is a claim a stranger can check: the checks results/certificate-checks.json
    keeps for a file (of its present bytes) include one by tools/check_strategy.py, which shares no
    code with oxo, and every one accepted it (``benchmarks/results_openings.py --tool`` adds the
    missing check to a certificate written without it)."""
    record = _checked()[name]
    path = ROOT / "results" / "certificates" / name
    assert path.exists(), f"{name} is recorded but not shipped"
    assert {key: record.get(key) for key in digests(path)} == digests(path)
    checks = {str(check["checker"]): check for check in record["checks"]}  # type: ignore[union-attr]
    assert "checker without oxo, now" in checks, f"{name}: only {sorted(checks)}"
    assert all(check["valid"] is True for check in checks.values())
