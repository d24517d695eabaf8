"""The compiled forced-chain search and classes (oxo.proofs.chainkernel), held to the plain ones
(oxo.proofs.rules.ChainSearch, oxo.proofs.symmetry.canonical) on random positions."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
    from checkers import load_checker

    tool = load_checker()
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


@pytest.mark.parametrize("board", ["4x4x4x4", "3x3x3x3", "9x9,k=2", "9x9,k=5"])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_the_wide_boards_lines_to_scan_follow_the_moves(board: str, data: st.DataObject) -> None:
    """The set of lines a wide board's scan looks at (chainkernel._hot_update) is, after a load
    (from another position held) and after marks played and taken back, the lines where S is two short with no mark of T's
    or T one short with none of S's; and the scan over them lists the cells where S threatens
    in increasing order, as a scan of every line finds them."""
    geometry = Geometry.parse(board)
    board_ = chainkernel._WideBoard(np.array(geometry.line_cells, dtype=np.int64), geometry.size)
    k = geometry.k
    cells = data.draw(st.permutations(range(geometry.size)))
    marks = data.draw(st.integers(0, min(24, geometry.size)))
    own = sum(1 << c for c in cells[: marks // 2])
    other = sum(1 << c for c in cells[marks // 2 : marks])
    # Another position held first: the load takes its marks back (a cell may change sides).
    before = data.draw(st.permutations(range(geometry.size)))
    held = data.draw(st.integers(0, min(24, geometry.size)))
    board_.load(
        sum(1 << c for c in before[: held // 2]), sum(1 << c for c in before[held // 2 : held])
    )
    board_.load(own, other)
    assert int.from_bytes(board_.words_of[0].tobytes(), "little") == own
    assert [int(v) for v in board_.owners] == [
        1 if own >> c & 1 else 2 if other >> c & 1 else 0 for c in range(geometry.size)
    ]
    hashed = 0
    for c in range(geometry.size):
        for side, marks_ in enumerate((own, other)):
            if marks_ >> c & 1:
                hashed ^= int(board_.zobrist[side, c])
    assert int(board_.hashed[0]) == hashed
    played = data.draw(st.lists(st.sampled_from(cells[marks:]), unique=True, max_size=6))

    def flip(cell: int, side: int, step: int) -> None:
        b = board_
        arrays = (b.through, b.counts, b.owners, b.words_of, b.zobrist, b.hashed, b.hot)
        chainkernel._wide_flip(*arrays, k, cell, side, step)

    for number, cell in enumerate(played):  # S and T in turn, then all taken back but one
        flip(cell, number % 2, 1)
    for number, cell in reversed(list(enumerate(played))[1:]):
        flip(cell, number % 2, -1)
    if played:
        own |= 1 << played[0]
    mine = [bin(own & line).count("1") for line in geometry.lines]
    theirs = [bin(other & line).count("1") for line in geometry.lines]
    expected = {
        line
        for line in range(len(geometry.lines))
        if (theirs[line] == 0 and mine[line] == k - 2)
        or (mine[line] == 0 and theirs[line] == k - 1)
    }
    count = int(board_.hot[0, -1])
    held = [int(line) for line in board_.hot[0, :count]]
    assert sorted(held) == sorted(expected) and len(held) == len(expected)
    assert all(board_.hot[1, line] == place for place, line in enumerate(held))
    firsts, several, listed = chainkernel._scan_rows(1, geometry.size)
    for _ in range(2):  # the second scan clears the first's answers
        chainkernel._wide_scan(
            board_.cells, board_.counts, board_.owners, board_.hot, firsts[0], several[0], listed[0]
        )
    threatening = {
        cell
        for line, cells_ in zip(geometry.lines, geometry.line_cells, strict=True)
        if not other & line and bin(own & line).count("1") == k - 2
        for cell in cells_
        if not own >> cell & 1
    }
    assert [int(c) for c in listed[0][: listed[0][-1]]] == sorted(threatening)
    assert {c for c in range(geometry.size) if firsts[0][c] >= 0} == threatening
