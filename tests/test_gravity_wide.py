"""The two-word search of :mod:`oxo.gravity.wide` (boards past 63 bits): its shifts against Python's
on whole integers, its pieces against the one-word search's on the same positions, its values
against plain minimax on small boards split over the two words, the same positions searched as
the one-word search on boards both hold, and a 13-column board that only it holds."""

from __future__ import annotations

import random

import numpy as np
import pytest
from tests.test_gravity import random_state

from oxo.gravity import bitboard, search, wide
from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.reference import Memo, minimax
from oxo.gravity.solver import GravitySolver, solvable
from oxo.gravity.table import _split


def early_state(board: GravityBoard, plies: int, rng: random.Random) -> GravityState:
    """A position of random play, not over: ``plies`` moves in, or the last before the game ended
    (drawing whole games again until one lasts, as :func:`random_state` does, takes seconds on
    6x7 when ``plies`` is near the end)."""
    state = GravityState(board)
    for _ in range(plies):
        following = state.play(rng.choice(state.legal_moves))
        if following.is_over:
            break
        state = following
    return state


#: Boards and where they are split (columns in the low word), the high word holding the rest.
SPLITS = [
    ("4x4,k=3", 1),
    ("4x4,k=3", 2),
    ("3x4,k=3", 3),
    ("4x4,k=4", 2),
]


def test_boards_past_one_word_are_held_by_two() -> None:
    for spec in ("4x13,k=4", "4x14,k=4", "5x12,k=4", "6x10,k=4"):
        board = GravityBoard.parse(spec)
        assert not bitboard.supports(board) and wide.supports_wide(board) and solvable(board)
    assert wide.lo_columns(GravityBoard.parse("5x12,k=4")) == 10  # 60 bits, then 2 columns
    assert not solvable(GravityBoard.parse("19x19,k=5"))
    with pytest.raises(ValueError, match="cannot be split"):
        wide.wide_params(GravityBoard.parse("4x4,k=3"), 10, 0, lo_cols=0)


@pytest.mark.parametrize("lo_bits", [5, 20, 60])
def test_shifts_across_the_two_words_equal_shifts_of_the_whole(lo_bits: int) -> None:
    rng = random.Random(lo_bits)
    for _ in range(500):
        whole = rng.getrandbits(lo_bits + 40)
        lo, hi = wide.split_words(whole, lo_bits)
        s = rng.randint(1, 40)
        ul, uh = wide._up(lo, hi, s, lo_bits)
        dl, dh = wide._down(lo, hi, s, lo_bits)
        # The high word may keep bits past 63 of the whole: compare what both keep.
        keep = (1 << (lo_bits + 40)) - 1
        assert (ul | ((uh << lo_bits) & ~((1 << lo_bits) - 1))) & keep == (whole << s) & keep
        assert dl | (dh << lo_bits) == whole >> s


@pytest.mark.parametrize(
    ("spec", "lo_cols"),
    [
        *SPLITS,
        ("6x7,k=4", 3),
        pytest.param("5x4,k=4", 1, marks=pytest.mark.slow),
        pytest.param("4x5,k=3", 2, marks=pytest.mark.slow),
    ],
)
def test_pieces_equal_those_of_the_one_word_search(spec: str, lo_cols: int) -> None:
    """Winning cells, lines, the moves worth searching, the follow-up bound and the cell a mark
    lands on, from both searches on the same random positions."""
    board = GravityBoard.parse(spec)
    one = GravitySolver(board, 1 << 12)._arrays[0]
    two = GravitySolver(board, 1 << 12, lo_cols=lo_cols)._arrays[0]
    lo_bits = int(two[wide._LO_BITS])
    scratch = np.zeros((4, 64), dtype=np.int64)
    claim_rows = bitboard._claim_rows(one)

    def words(bits: int) -> tuple[int, int]:
        return wide.split_words(bits, lo_bits)

    def whole(pair: tuple[int, int]) -> int:
        return pair[0] | (pair[1] << lo_bits)

    rng = random.Random(lo_cols)
    bounds = 0
    for _ in range(150):
        state = random_state(board, rng.randint(0, board.size - 1), rng)
        if state.is_over:
            continue
        mine = state.x if state.to_move == "x" else state.o
        theirs = mine ^ state.mask
        threats = bitboard._winning_cells(theirs, state.mask, one, scratch)
        assert whole(wide._winning_cells(*words(theirs), *words(state.mask), two, scratch)) == (
            threats
        )
        for cells in (mine, theirs, theirs | (board.full & ~state.mask)):
            assert wide._has_line(*words(cells), two) == bitboard._has_line(cells, one)
        moves, value, known = search._settle(state.mask, state.ply, threats, one)
        got = wide._settle(*words(state.mask), state.ply, *words(threats), two)
        assert (whole(got[:2]), got[2], got[3]) == (moves, value, known)
        bound = search._follow_up(mine, state.mask, threats, claim_rows, one)
        assert wide._follow_up(*words(mine), *words(state.mask), *words(threats), two) == bound
        bounds += bound != search._NO_BOUND
        for col in range(board.cols):
            assert whole(wide._cell(*words(state.mask), col, two)) == state.drop_cell(col)
    assert bounds >= 1  # the bound was met and compared (on 4x5 with k=3 it is rare)


def test_keys_split_as_one_word_keys_do() -> None:
    """A two-word key gets the bucket and tag of the same key in one word (so a table means the
    same to both searches), mirror images share them while few marks are down, and keys of up to
    72 bits keep their tag within a word's 46 bits."""
    board = GravityBoard.parse("6x7,k=4")
    two = GravitySolver(board, 1 << 16, lo_cols=3)._arrays[0]
    one = GravitySolver(board, 1 << 16)._arrays[0]
    bits = int(one[bitboard._BUCKET_BITS])
    lo_bits = int(two[wide._LO_BITS])
    rng = random.Random(4)
    for _ in range(300):
        state = early_state(board, rng.randint(0, 41), rng)
        mine = state.x if state.to_move == "x" else state.o
        key = int(search._table_key(mine, state.mask, state.ply, one))
        bucket, tag, flip = wide._key(
            *wide.split_words(mine, lo_bits),
            *wide.split_words(state.mask, lo_bits),
            state.ply,
            two,
        )
        assert (bucket, tag) == _split(key, bits)
        assert bool(flip) == (key != mine + state.mask)
    big = GravityBoard.parse("5x12,k=4")
    params = wide.wide_params(big, 26, 0)
    seen: dict[tuple[int, int], int] = {}
    for _ in range(1000):
        kl, kh = rng.getrandbits(60), rng.getrandbits(12)
        bucket, tag, _ = wide._key(kl, kh, 0, 0, 99, params)
        assert 0 <= tag < 1 << 46 and 0 <= bucket < 1 << 26
        assert seen.setdefault((bucket, tag), kl | kh << 60) == kl | kh << 60


@pytest.mark.parametrize(("spec", "lo_cols"), SPLITS)
def test_values_agree_with_minimax(spec: str, lo_cols: int) -> None:
    """Exact values and yes/no bounds of random positions, from a solver split over two words."""
    board = GravityBoard.parse(spec)
    solver = GravitySolver(board, 1 << 14, lo_cols=lo_cols)
    assert solver.wide
    rng = random.Random(len(spec) + lo_cols)
    memo: Memo = {}
    for _ in range(60):
        state = random_state(board, rng.randint(0, board.size - 1), rng)
        outcome, end = minimax(state, memo)
        value = solver.solve(state)
        assert (value.outcome, value.end_ply) == (outcome, end), state.to_rows()
        if not state.is_over:
            assert solver.holds(state, "x", True, 0) == (outcome != "o")
            column = solver.table_column(state)
            assert column is None or column in state.legal_moves


@pytest.mark.slow
def test_values_agree_with_the_one_word_search_on_5x4() -> None:
    """5x4 (k=4) split after its first column: exact values and bounds of random positions equal
    the one-word search's (itself held to plain minimax on 5x4 in tests/test_gravity.py; minimax
    here took half a minute)."""
    board = GravityBoard.parse("5x4,k=4")
    two = GravitySolver(board, 1 << 14, lo_cols=1)
    one = GravitySolver(board, 1 << 14)
    assert two.wide and not one.wide
    rng = random.Random(9)
    for _ in range(60):
        state = random_state(board, rng.randint(0, board.size - 1), rng)
        assert two.solve(state) == one.solve(state), state.to_rows()
        if not state.is_over:
            assert two.holds(state, "x", True, 0) == one.holds(state, "x", True, 0)


def test_the_same_positions_as_the_one_word_search() -> None:
    """On a board both hold, both searches visit the same positions (the same order, the same
    table places), whichever columns the first word holds."""
    board = GravityBoard.parse("5x5,k=4")
    state = GravityState(board)
    plain = GravitySolver(board, 1 << 16)
    value = plain.solve(state)
    for lo_cols in (1, 2, 4):
        split = GravitySolver(board, 1 << 16, lo_cols=lo_cols)
        assert split.solve(state) == value
        assert split.nodes == plain.nodes


def test_a_board_of_thirteen_columns() -> None:
    """4 rows of 13 columns (65 bits with the spare row: past one word), positions near the end
    against plain minimax."""
    board = GravityBoard.parse("4x13,k=4")
    solver = GravitySolver(board, 1 << 20)
    assert solver.wide
    rng = random.Random(13)
    memo: Memo = {}
    checked = 0
    while checked < 12:
        state = random_state(board, rng.randint(40, 46), rng)
        if state.is_over:
            continue
        outcome, end = minimax(state, memo)
        value = solver.solve(state)
        assert (value.outcome, value.end_ply) == (outcome, end), state.to_rows()
        checked += 1
