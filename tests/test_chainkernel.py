"""The compiled forced-chain search and classes (oxo.proofs.chainkernel), held to the plain ones
(oxo.proofs.rules.ChainSearch, oxo.proofs.symmetry.canonical) on random positions."""

from __future__ import annotations

import random

import pytest

from oxo.geometry import Geometry
from oxo.proofs import chainkernel
from oxo.proofs.chainkernel import CompiledChainSearch, CompiledClasses
from oxo.proofs.rules import ChainSearch, threats
from oxo.proofs.symmetry import Classes, canonical


def positions(geometry: Geometry, count: int, seed: int) -> list[tuple[int, int]]:
    """Random positions with X to move, the game not over and no line X completes at once."""
    rng = random.Random(seed)
    out: list[tuple[int, int]] = []
    while len(out) < count:
        marks = rng.randint(2, min(12, geometry.size // 2 - 1))
        cells = rng.sample(range(geometry.size), 2 * marks)
        x = sum(1 << c for c in cells[:marks])
        o = sum(1 << c for c in cells[marks:])
        lines = geometry.lines
        if any(line & x == line or line & o == line for line in lines) or threats(lines, x, o):
            continue
        out.append((x, o))
    return out


@pytest.mark.parametrize(
    ("board", "count", "budget"),
    [
        ("4x4x4", 60, 20_000),
        ("4x4x4", 30, 10),
        ("6x6,k=4", 120, 20_000),
        ("5x5,k=4", 80, 20_000),
        ("9x9,k=4", 80, 20_000),
        ("3x3x3x3", 60, 20_000),
        ("4x4x4x4", 60, 20_000),
        ("4x4x4x4", 20, 10),
    ],
)
def test_the_compiled_chain_search_answers_as_the_plain_one(
    board: str, count: int, budget: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same verdicts, lengths and moves; with a budget of 10 positions, every deep search
    gives up and the shorter bounds are searched first (the answer does not change)."""
    monkeypatch.setattr(chainkernel, "BUDGET", budget)
    geometry = Geometry.parse(board)
    plain = ChainSearch(geometry.lines)
    # A small table, so that slots are replaced: a verdict lost is searched again, never wrong.
    compiled = CompiledChainSearch(geometry.line_cells, geometry.size, table_bits=6)
    found = 0
    for x, o in positions(geometry, count, seed=len(board)):
        for depth in (1, 2, 3, 6, 32):
            verdict = plain.exists(x, o, depth)
            assert compiled.exists(x, o, depth) == verdict, (x, o, depth)
            found += verdict
        assert compiled.length(x, o, 32) == plain.length(x, o, 32)
        assert compiled.first_move(x, o, 32) == plain.first_move(x, o, 32)
        assert compiled.moves(x, o, 4) == plain.moves(x, o, 4)
    assert found > 0 and compiled.nodes > 0  # chains were met, not only their absence


def test_a_deep_search_astray_finds_the_short_chain() -> None:
    """A position met in Patashnik's walk: X has a chain of six moves, and a depth-first search to
    32 moves in the order of the cells goes down forcing lines that fail for minutes (before the
    budget and the shorter bounds)."""
    geometry = Geometry.parse("4x4x4")
    x, o = 10378826816252022785, 2314850208570146824
    plain = ChainSearch(geometry.lines)
    compiled = CompiledChainSearch(geometry.line_cells, geometry.size)
    assert plain.exists(x, o, 32) and compiled.exists(x, o, 32)
    assert compiled.nodes < 1_000_000
    assert plain.length(x, o, 32) == compiled.length(x, o, 32) == 6


@pytest.mark.parametrize(("board", "count"), [("4x4x4", 192), ("4x4x4x4", 1536), ("9x9,k=4", 8)])
def test_the_compiled_classes_give_the_plain_key_and_symmetry(board: str, count: int) -> None:
    """On boards of at most 64 cells and beyond (masks of several words)."""
    geometry = Geometry.parse(board)
    symmetries = Classes(geometry).symmetries
    assert len(symmetries) == count
    compiled = CompiledClasses([s.perm for s in symmetries], geometry.size)
    rng = random.Random(7)
    for _ in range(200):
        marks = rng.randint(0, 10)
        cells = rng.sample(range(geometry.size), 2 * marks)
        x = sum(1 << c for c in cells[:marks])
        o = sum(1 << c for c in cells[marks:])
        key, symmetry = canonical(symmetries, geometry.size, x, o)
        assert compiled.canonical(x, o) == (key, symmetries.index(symmetry))


@pytest.mark.parametrize(
    ("board", "dims", "k"), [("4x4x4x4", [4, 4, 4, 4], 4), ("9x9,k=4", [9, 9], 4)]
)
def test_the_checker_without_oxo_finds_the_chains_the_plain_search_finds(
    board: str, dims: list[int], k: int
) -> None:
    """The chain rule of ``tools/check_strategy.py`` (standard library only, its lines built from
    the format page) gives the plain search's verdict on random positions, at every bound."""
    import importlib.util

    from checkers import TOOL

    spec = importlib.util.spec_from_file_location("check_strategy_tool", TOOL)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    geometry = Geometry.parse(board)
    checker = tool.Board(dims, k)
    assert sorted(checker.lines) == sorted(geometry.lines)
    plain = ChainSearch(geometry.lines)
    found = 0
    for x, o in positions(geometry, 40, seed=7):
        for depth in (1, 2, 3, 6, 32):
            verdict = plain.exists(x, o, depth)
            assert tool.has_chain(checker, x, o, depth, {}) == verdict, (x, o, depth)
            found += verdict
    assert found > 0
