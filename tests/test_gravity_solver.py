"""The compiled core of the gravity solver: the table's packed words, mirror images sharing entries,
searches watched from a thread and stopped, bounds for either player, several solvers sharing one
table, and the parallel start (``skew``), each checked against plain minimax or a plain search."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from tests.test_gravity import random_state

from oxo.errors import OutOfReachError
from oxo.gravity import bitboard, search
from oxo.gravity import solver as core
from oxo.gravity import table as tt
from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.reference import Memo, _layers, minimax
from oxo.gravity.solver import GravitySolver

C4 = GravityBoard(6, 7, 4)

#: Minimax's answers per board, shared by this module's tests (on 4x4,k=4 the whole walk costs half
#: a second; each test asking again would walk it again).
_ANSWERS: dict[GravityBoard, Memo] = {}


def answers(board: GravityBoard) -> Memo:
    """The memo of :func:`minimax` on ``board``, kept for the session."""
    return _ANSWERS.setdefault(board, {})


def _mirror_state(state: GravityState) -> GravityState:
    """The left-right mirror image, read back from the rows written backwards."""
    mirrored = "/".join(row[::-1] for row in state.to_rows().split("/"))
    return GravityState.from_string(mirrored, state.board)


def test_bucket_bits_round_down_to_a_power_of_two() -> None:
    assert tt.bucket_bits(1 << 22) == 21
    assert tt.bucket_bits((1 << 22) + 5) == 21
    assert tt.bucket_bits((1 << 22) - 1) == 20
    assert tt.bucket_bits(10, least_bits=12) == 12
    # Connect Four's keys have 49 bits, a word keeps 46 of the tag: 256 buckets at least (the
    # floor); 5 rows of 12 columns have 72 bits: 2 ** 26 buckets.
    assert tt.tag_room(C4) == 8
    assert tt.tag_room(GravityBoard.parse("8x7,k=4")) == 63 - 46
    assert tt.tag_room(GravityBoard.parse("5x12,k=4")) == 72 - 46


def test_keys_split_into_bucket_and_tag_and_back() -> None:
    """A key's bucket and tag give the key back (so a word keeps only the tag), and keys that
    differ only in their high bits spread over the buckets."""
    rng = random.Random(5)
    bits = 10
    for _ in range(2000):
        key = rng.randrange(1 << 49)
        bucket, tag = tt._split(key, bits)
        assert 0 <= bucket < 1 << bits and tag == key >> bits
        low = (bucket ^ ((tag * tt._MIX) >> 28)) & ((1 << bits) - 1)
        assert (tag << bits) | low == key
    high_only = {tt._split(n << 30, bits)[0] for n in range(4096)}
    assert len(high_only) > 950  # of 1,024 buckets (4,096 keys thrown at random: 1,005)


def test_mirror_images_share_a_key() -> None:
    rng = random.Random(7)
    solver = GravitySolver(C4, 1 << 12)
    params = solver._arrays[0]
    for _ in range(200):
        state = random_state(C4, rng.randint(0, 30), rng)
        other = _mirror_state(state)
        key = state.x + state.mask if state.to_move == "x" else state.o + state.mask
        mine = other.x if other.to_move == "x" else other.o
        assert bitboard._mirror(key, params) == mine + other.mask
        assert bitboard._mirror(bitboard._mirror(key, params), params) == key
        # Mirror images get the same table key while few marks are down, their own key after.
        a = tt._table_key(key - state.mask, state.mask, state.ply, params)
        b = tt._table_key(mine, other.mask, other.ply, params)
        if state.ply <= solver.symmetric_plies:
            assert a == b == min(key, mine + other.mask)
        else:
            assert (a, b) == (key, mine + other.mask)


def test_table_words_pack_and_unpack() -> None:
    table = np.zeros(2 << 10, dtype=np.int64)
    rng = random.Random(3)
    for _ in range(500):
        key = rng.randrange(1 << 49)
        score = rng.randint(-21, 21)
        lower = rng.randint(0, 1)
        column = rng.randint(-1, 6)
        tt._store(table, key, 10, score, lower, rng.randint(0, 63), column)
        word = tt._probe(table, key, 10)
        assert word != 0
        assert ((word >> 1) & 127) - 64 == score and word & 1 == lower
        assert ((word >> tt._COLUMN_SHIFT) & 15) - 1 == column
    # A key never stored is not found (its bucket may hold others).
    assert tt._probe(np.zeros(2 << 10, dtype=np.int64), 12345, 10) == 0


@pytest.mark.parametrize("spec", ["4x4,k=3", "3x4,k=3", "4x4,k=4"])
def test_searches_in_a_thread_equal_searches_here(spec: str) -> None:
    """With a deadline the search runs in a thread, watched; without, here: the same answers."""
    board = GravityBoard.parse(spec)
    here = GravitySolver(board, 1 << 14)
    watched = GravitySolver(board, 1 << 14)
    rng = random.Random(5)
    for _ in range(20):
        state = random_state(board, rng.randint(0, 6), rng)
        assert watched.solve(state, seconds=1e9) == here.solve(state)
    assert watched.nodes == here.nodes
    assert (here.solve(GravityState(board)).outcome, here.solve(GravityState(board)).end_ply) == (
        minimax(GravityState(board), answers(board))
    )


def test_a_deadline_stops_the_search_and_keeps_the_table_true() -> None:
    board = GravityBoard.parse("6x6,k=4")
    solver = GravitySolver(board, 1 << 16)
    with pytest.raises(OutOfReachError, match="give it more time"):
        solver.solve(GravityState(board), seconds=0.2)
    # Every bound the stopped search stored is true: a later question still gets the right answer.
    state = GravityState.from_string("4455", board)
    assert solver.solve(state) == GravitySolver(board, 1 << 16).solve(state)


def test_a_saved_table_resumes_a_stopped_question(tmp_path: Path) -> None:
    """A question past its time limit answers nothing; a table saved and loaded into a fresh
    solver gives the same answers as the saved solver's (minimax's) at a fraction of the
    positions; a table saved for another board or size, or changed on disk, is refused."""
    assert GravitySolver(C4, 1 << 16).window(GravityState(C4), 0, seconds=0.0) is None
    board = GravityBoard.parse("4x4,k=4")
    root = GravityState(board)
    solver = GravitySolver(board, 1 << 14)
    first = solver.window(root, 0)
    assert first is not None and (first > 0) == (minimax(root, answers(board))[0] == "x")
    path = tmp_path / "table.bin"
    solver.save_table(path)
    resumed = GravitySolver(board, 1 << 14)
    resumed.load_table(path)
    assert resumed.window(root, 0) == first and resumed.nodes < solver.nodes // 10
    with pytest.raises(ValueError, match="written for"):
        GravitySolver(GravityBoard.parse("4x5,k=4"), 1 << 14).load_table(path)
    with pytest.raises(ValueError, match="written for"):
        GravitySolver(board, 1 << 15).load_table(path)
    data = bytearray(path.read_bytes())
    data[8 * int(np.flatnonzero(solver._arrays[2])[0])] ^= 2
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="SHA-256"):
        resumed.load_table(path)


def test_a_table_saved_after_ctrl_c_matches_its_digest(tmp_path: Path) -> None:
    """Ctrl-C while the search runs in its thread: the table is saved once the search has ended.
    Thread.join interrupted by Ctrl-C marked the still-running search's thread as ended, and
    Connect Four 13x4's table was saved while the search still wrote to it (its SHA-256 did not
    match when the run was resumed). Also a second Ctrl-C while the first one's stop is waited
    for: the wait goes on, then raises it."""
    import hashlib
    import json
    import signal
    import threading

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    board = GravityBoard.parse("4x13,k=4")
    solver = GravitySolver(board, 1 << 16, on_status=lambda line: None)
    previous = signal.signal(signal.SIGALRM, interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.5)
        with pytest.raises(KeyboardInterrupt):
            solver.window(GravityState(board), 0, 60)
        path = tmp_path / "table.bin"
        solver.save_table(path)
        header = json.loads((tmp_path / "table.bin.json").read_text(encoding="utf-8"))
        assert hashlib.sha256(path.read_bytes()).hexdigest() == header["sha256"]
        searched = threading.Event()
        threading.Timer(0.3, searched.set).start()
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        with pytest.raises(KeyboardInterrupt):
            core._wait_through_interrupts(searched)
        assert searched.is_set()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    core._wait_through_interrupts(None)  # no search ran: nothing to wait for


def test_a_stop_request_ends_the_compiled_search() -> None:
    solver = GravitySolver(C4, 1 << 16)
    counter = np.zeros(3, dtype=np.int64)
    counter[search._C_STOP] = 1
    search._negamax(0, 0, 0, 0, 1, *solver._arrays, counter)
    assert counter[search._C_STOPPED] == 1 and counter[search._C_NODES] <= 4096


def test_progress_reports_say_what_is_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core, "_REPORT_EVERY", 0.0)
    monkeypatch.setattr(core, "_POLL", 0.001)
    lines: list[str] = []
    board = GravityBoard.parse("6x5,k=4")
    solver = GravitySolver(board, 1 << 14, on_status=lines.append)
    value = solver.solve(GravityState(board))
    assert value.outcome == "draw"
    assert lines and all(line.startswith("searching: does the side to move") for line in lines)


@pytest.mark.parametrize(
    "spec",
    # 4x5,k=3's walk (300,000 positions) alone takes about a second: with the heavy boards
    ["4x4,k=3", "3x4,k=3", pytest.param("4x5,k=3", marks=pytest.mark.slow), "4x4,k=4"],
)
def test_bounds_for_either_player_agree_with_minimax(spec: str) -> None:
    board = GravityBoard.parse(spec)
    solver = GravitySolver(board, 1 << 14)
    rng = random.Random(17)
    memo = answers(board)  # minimax's answers, shared by the states
    for _ in range(25):
        state = GravityState(board)
        for _ in range(rng.randint(0, board.size)):
            if state.is_over:
                break
            state = state.play(rng.choice(state.legal_moves))
        outcome, end = minimax(state, memo) if not state.is_over else (state.outcome, state.ply)
        for player in ("x", "o"):
            if outcome == "draw":
                score = 0
            else:
                score = (board.size + 2 - end) // 2
                score = score if outcome == player else -score
            for threshold in range(-3, 4):
                assert solver.holds(state, player, True, threshold) == (score >= threshold)
                assert solver.holds(state, player, False, threshold) == (score <= threshold)


def test_solvers_sharing_one_table_agree_with_minimax() -> None:
    # 4x4,k=4: 134,000 positions in a table of 4,096 buckets, so the solvers meet in most of them
    board = GravityBoard.parse("4x4,k=4")
    table = np.zeros(2 << 12, dtype=np.int64)
    first = GravitySolver(board, table=table)
    second = GravitySolver(board, table=table, symmetric_plies=0)
    rng = random.Random(11)
    memo = answers(board)
    for _ in range(30):
        state = random_state(board, rng.randint(0, 10), rng)
        want = minimax(state, memo)
        for solver in (first, second):
            value = solver.solve(state)
            assert (value.outcome, value.end_ply) == want


@pytest.mark.parametrize("skew", [1, 2, 5])
def test_a_skewed_start_changes_the_order_not_the_values(skew: int) -> None:
    """The moves rotated at the split ply, with what the search keeps of each (its threats, its
    bound, its key), on one word and on two: the values stay minimax's (rotating the moves
    alone, without the rest, changed the value of 9 positions in 120 here)."""
    board = GravityBoard.parse("4x4,k=3")
    memo = answers(board)
    rng = random.Random(skew)
    for lo_cols in (None, 2):
        skewed = GravitySolver(board, 1 << 14, lo_cols=lo_cols)
        params = skewed._arrays[0]
        params[bitboard._SKEW] = skew
        for _ in range(40):
            state = random_state(board, rng.randint(0, board.size - 8), rng)
            if state.is_over:
                continue
            params[bitboard._SPLIT_PLY] = state.ply + rng.randint(0, 2)
            skewed.clear()
            value = skewed.solve(state)
            assert (value.outcome, value.end_ply) == minimax(state, memo), state.to_rows()


def test_a_table_too_small_for_the_board_is_refused() -> None:
    with pytest.raises(ValueError, match="needs at least"):
        GravitySolver(GravityBoard.parse("8x7,k=4"), table=np.zeros(64, dtype=np.int64))


@pytest.mark.slow
def test_the_first_moves_beside_the_centre_draw_as_published() -> None:
    """Allis (1988) and later solvers: only the centre wins for the first player; the two columns
    beside it draw; the other four lose. The solver asks who wins in null-window searches
    (``holds``): a draw is a score of at least 0 and at most 0, and the table answers the mirror
    image (column 5) at no cost. Column 3 is the one asked here (12 s of CPU): the centre's win is
    X's shipped certificate (checked by test_gravity_proof, found by ``oxo solve`` in
    test_walkthrough), and O's wins after the other four columns cost 14 to 33 s each (the full
    analysis, distances included, eight minutes), more than the suite's time allows; O's wins are
    held to minimax on random Connect Four positions from ply 28 on."""
    solver = GravitySolver(C4)
    start = GravityState(C4)
    for column in (3, 5):
        child = start.play(column - 1)
        assert solver.holds(child, "x", True, 0), f"X loses after {column}"
        assert solver.holds(child, "x", False, 0), f"X wins after {column}"


@pytest.mark.parametrize(
    "spec",
    # 4x5, 5x4 and 5x5 with k=4 (1 to 2 s of CPU each, minimax's walk below the positions) with
    # the heavy boards; the fast part keeps even and odd rows, k=3 and k=4
    [
        "4x4,k=3",
        "3x4,k=3",
        pytest.param("4x5,k=4", marks=pytest.mark.slow),
        pytest.param("5x4,k=4", marks=pytest.mark.slow),
        "4x4,k=4",
        pytest.param("5x5,k=4", marks=pytest.mark.slow),
    ],
)
def test_follow_up_bounds_never_exceed_the_true_score(spec: str) -> None:
    """Allis's claimeven as a static bound (``search._follow_up``): wherever it gives one, plain
    minimax's score of the side to move is no higher; on boards with an even and an odd number of
    rows, and positions of every kind: columns with an even number of empty cells only, or odd
    ones too, bounds of a draw and of a loss (so that the check has something to check)."""
    board = GravityBoard.parse(spec)
    params = GravitySolver(board, 1 << 10)._arrays[0]
    claim_rows = bitboard._claim_rows(params)
    scratch = np.zeros((2, board.k), dtype=np.int64)
    rng = random.Random(29)
    memo: Memo = {}
    kinds = {(odd, loss): 0 for odd in (False, True) for loss in (False, True)}
    for _ in range(1500):
        state = random_state(board, rng.randint(0, board.size - 1), rng)
        if state.winning_moves():
            continue  # the search never asks there: the side to move wins at once
        bound = _check_follow_up(state, board, params, claim_rows, scratch, memo)
        if bound is None:
            continue
        odd = any(
            bin(state.mask & board.column_mask(c)).count("1") % 2 != board.rows % 2
            for c in range(board.cols)
        )
        kinds[odd, bound < 0] += 1
    for side in (False, True):  # without and with odd columns; draw and loss bounds
        assert kinds[side, False] + kinds[side, True] >= 3, kinds
        assert kinds[False, side] + kinds[True, side] >= 3, kinds


def _check_follow_up(
    state: GravityState,
    board: GravityBoard,
    params: np.ndarray,
    claim_rows: np.ndarray,
    scratch: np.ndarray,
    memo: Memo,
) -> int | None:
    """The follow-up bound of ``state`` checked against plain minimax (the score never exceeds
    it); None where the bound says nothing."""
    mine = state.x if state.to_move == "x" else state.o
    threats = bitboard._winning_cells(mine ^ state.mask, state.mask, params, scratch)
    bound = search._follow_up(mine, state.mask, threats, claim_rows, params)
    if bound == search._NO_BOUND:
        return None
    outcome, end = minimax(state, memo)
    score = 0 if outcome == "draw" else (board.size + 2 - end) // 2
    if outcome not in ("draw", state.to_move):
        score = -score
    assert score <= bound, (state.to_rows(), score, bound)
    return int(bound)


@pytest.mark.parametrize("spec", ["4x3,k=3", "3x4,k=3", "4x4,k=3"])
def test_follow_up_bounds_hold_on_every_position_of_small_boards(spec: str) -> None:
    """The same check on every reachable position of boards small enough to walk whole, so that
    no kind of position is left to chance (random positions missed a bound that gave the side to
    move too few of the cells of the columns with an odd number of empty cells)."""
    board = GravityBoard.parse(spec)
    params = GravitySolver(board, 1 << 10)._arrays[0]
    claim_rows = bitboard._claim_rows(params)
    scratch = np.zeros((2, board.k), dtype=np.int64)
    memo: Memo = {}
    checked = 0
    for layer in _layers(board):
        for state in layer:
            if state.is_over or state.winning_moves():
                continue
            if _check_follow_up(state, board, params, claim_rows, scratch, memo) is not None:
                checked += 1
    assert checked >= 100
