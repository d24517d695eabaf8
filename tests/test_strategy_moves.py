"""``benchmarks/strategy_moves.py`` (the moves of a certificate's strategy by kind, to set beside
Patashnik's count of stored moves) against a plain recount: classes by trying every symmetry, the
kinds by looking at every line, wins by threats by the threat search written in Python."""

from __future__ import annotations

import gzip
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from oxo.proofs.certificate import StrategyHeader, status_masks
from oxo.proofs.threats import ThreatSearch

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from strategy_moves import KINDS, sort_moves  # noqa: E402

SHIPPED = (
    Path(__file__).resolve().parent.parent / "results" / "certificates" / "10x4-k4-x-win.jsonl.gz"
)


def recount(path: Path, budget: int) -> tuple[int, Counter[str]]:
    """The same figures as ``sort_moves``, the slow way (on a flat board: its own symmetries)."""
    with gzip.open(path, "rt") as handle:
        header = StrategyHeader.from_dict(json.loads(handle.readline()))
        entries = [json.loads(line) for line in handle if line.strip()]
    geometry = header.geometry
    lines = geometry.line_cells
    threats = ThreatSearch(
        geometry.lines, geometry.lines_through, geometry.full_mask, threes=False, budget=budget
    )

    def short_one(mine: int, theirs: int) -> set[int]:
        return {
            cell
            for line in lines
            if not any(theirs >> c & 1 for c in line)
            and sum(mine >> c & 1 for c in line) == len(line) - 1
            for cell in line
            if not mine >> cell & 1
        }

    seen = set()
    kinds: Counter[str] = Counter()
    for entry in entries:
        x, o = status_masks(entry["position"])
        key = min((s.apply_mask(x), s.apply_mask(o)) for s in geometry.symmetries)
        if key in seen:
            continue
        seen.add(key)
        own, other = (x, o) if header.side == "x" else (o, x)
        if entry["move"] in short_one(own, other):
            kinds["win"] += 1
        elif short_one(other, own):
            kinds["block"] += 1
        elif threats.find(own, other) is not None:
            kinds["threats"] += 1
        else:
            kinds["stored"] += 1
    return len(seen), kinds


@pytest.fixture(scope="module")
def part(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The header and the first 1,500 entries of the shipped 10x4 certificate (the count does not
    walk the strategy, so a part of it is a fair input)."""
    path = tmp_path_factory.mktemp("moves") / "part.jsonl.gz"
    with gzip.open(SHIPPED, "rt") as source, gzip.open(path, "wt") as out:
        for number, line in enumerate(source):
            if number > 1500:
                break
            out.write(line)
    return path


def test_the_counts_agree_with_a_plain_recount(part: Path) -> None:
    record = sort_moves(part, budget=2000)
    positions, kinds = recount(part, budget=2000)
    assert record["positions"] == positions
    assert record["moves"] == {kind: kinds[kind] for kind in KINDS}
    assert record["entries"] == 1500
    # The part has every kind but wins (the certificate leaves a line's last cell to the checker).
    assert kinds["block"] and kinds["threats"] and kinds["stored"]


def test_a_larger_budget_finds_no_fewer_wins_by_threats(part: Path) -> None:
    small = sort_moves(part, budget=5)["moves"]
    large = sort_moves(part, budget=2000)["moves"]
    assert isinstance(small, dict) and isinstance(large, dict)
    assert small["threats"] <= large["threats"]
    assert small["threats"] + small["stored"] == large["threats"] + large["stored"]
