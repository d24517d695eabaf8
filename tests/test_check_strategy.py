"""The pieces of the checker without oxo (``tools/check_strategy.py``) that its speed rests on, held
to plain versions of the same definitions: the least image of a position over the symmetries, and
the forced-chain rule whatever chain it is told to try first. (Its verdicts on whole certificates,
against oxo's checker, are in the tests of the proofs and the proof runs.)"""

from __future__ import annotations

import random

import pytest

from checkers import load_checker

tool = load_checker()


def marks(rng: random.Random, size: int, count: int) -> tuple[int, int]:
    """X's and O's marks: ``count`` cells drawn at random, X's the first half (one more if odd)."""
    cells = rng.sample(range(size), count)
    half = (count + 1) // 2
    return sum(1 << c for c in cells[:half]), sum(1 << c for c in cells[half:])


def plain_canon(board: object, x: int, o: int) -> tuple[tuple[int, int], int]:
    """The least (X image, O image) over the symmetries, each image made cell by cell, and the
    first symmetry that gives it."""
    best, which = None, 0
    for s, perm in enumerate(board.perms):  # type: ignore[attr-defined]  # the tool's Board
        image = (
            sum(1 << perm[c] for c in range(len(perm)) if x >> c & 1),
            sum(1 << perm[c] for c in range(len(perm)) if o >> c & 1),
        )
        if best is None or image < best:
            best, which = image, s
    assert best is not None
    return best, which


@pytest.mark.parametrize(
    ("dims", "k", "gravity"),
    [
        ([3, 3], 3, False),
        ([4, 5], 4, False),
        ([4, 4, 4], 4, False),
        ([2, 3, 3], 3, True),
        ([4, 4, 4, 4], 4, False),
        ([2, 2, 2, 2, 2], 2, False),
    ],
)
def test_the_least_image_over_the_symmetries_is_the_plain_one(
    dims: list[int], k: int, gravity: bool
) -> None:
    board = tool.Board(dims, k, None, gravity)
    rng = random.Random(3)
    for _ in range(60):
        x, o = marks(rng, board.size, rng.randint(0, board.size))
        assert board.canon(x, o) == plain_canon(board, x, o)


def test_the_least_image_with_the_headers_symmetries_is_the_plain_one() -> None:
    """With a symmetry the box does not have (Qubic's swap of its inner and outer layers on every
    axis, which carries lines onto lines), the group grows and the least image follows it."""
    swap = [0, 2, 1, 3]  # per coordinate: the inside-out map
    cells = [(a, b, c) for a in range(4) for b in range(4) for c in range(4)]
    inside_out = [cells.index((swap[a], swap[b], swap[c])) for a, b, c in cells]
    board = tool.Board([4, 4, 4], 4, [inside_out])
    assert len(board.perms) == 2 * len(tool.Board([4, 4, 4], 4).perms)
    rng = random.Random(4)
    for _ in range(60):
        x, o = marks(rng, 64, rng.randint(0, 64))
        assert board.canon(x, o) == plain_canon(board, x, o)


@pytest.mark.parametrize(("dims", "k"), [([4, 4, 4], 4), ([4, 4, 4, 4], 4), ([9, 9], 5)])
def test_a_chain_told_first_changes_nothing_but_the_order(dims: list[int], k: int) -> None:
    """The chain rule's verdict is the same told any moves to try first (cells of X's, of O's,
    empty ones, or a chain found before), and what it answers is a chain: played out move by move,
    each move blocks the opponent's one threat if there is one, and makes one threat (which the
    opponent takes) or, the last one, two."""
    board = tool.Board(dims, k)
    rng = random.Random(5)
    found = 0
    for _ in range(120):
        x, o = marks(rng, board.size, 2 * rng.randint(2, 14))
        if any(x & m == m or o & m == m for m in board.lines):
            continue
        mine, theirs = tool.Tally(board, x), tool.Tally(board, o)
        if mine.threats(theirs):
            continue  # X completes a line at once: not a position the rule is asked about
        plain = tool._chain(board, mine, theirs, 32, {})
        hints = [tuple(rng.sample(range(board.size), 5)) for _ in range(3)]
        hints += [tuple(c for c in range(board.size) if x >> c & 1)[:4]]
        if plain is not None:
            hints.append(plain)
            found += 1
        for hint in hints:
            chain = tool._chain(board, mine, theirs, 32, {}, hint)
            assert (chain is None) == (plain is None), (x, o, hint)
            if chain is not None:
                assert_a_chain(board, x, o, chain)
    assert found > 10


def wins_at_once(lines: list[int], own: int, other: int) -> set[int]:
    """The cells where ``own`` would complete a line: its one empty cell, no mark of ``other``."""
    cells = set()
    for line in lines:
        empty = line & ~own
        if not line & other and empty and not empty & (empty - 1):
            cells.add(empty.bit_length() - 1)
    return cells


def assert_a_chain(board: object, x: int, o: int, chain: tuple[int, ...]) -> None:
    """``chain`` (X's moves) played out on ``x``, ``o`` by the definition, cell by cell."""
    lines = board.lines  # type: ignore[attr-defined]  # the tool's Board
    for step, cell in enumerate(chain):
        danger = wins_at_once(lines, o, x)
        assert len(danger) <= 1 and danger <= {cell}  # O's one threat, if any, is blocked
        assert not (x | o) >> cell & 1
        x |= 1 << cell
        made = wins_at_once(lines, x, o)
        if step == len(chain) - 1:
            assert len(made) >= 2  # O can block only one
        else:
            assert len(made) == 1  # O must take it
            o |= 1 << made.pop()
