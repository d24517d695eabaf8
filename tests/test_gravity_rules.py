"""``benchmarks/gravity_rules.py`` (what the rules of certificates with rules would do on Connect
Four's certificates): its forced chains of playable threats against plain minimax on a small
gravity board, where every chain it finds must be a win of the side to move."""

from __future__ import annotations

import sys
from pathlib import Path

from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.reference import Memo, minimax

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
from gravity_rules import Chains, threat_cells  # noqa: E402


def test_every_forced_chain_of_playable_threats_is_a_win_by_minimax() -> None:
    board = GravityBoard(4, 4, 3)
    memo: Memo = {}
    chains = {"x": Chains("x"), "o": Chains("o")}
    found = checked = 0
    layer = {GravityState(board)}
    for _ in range(7):  # every position of plies 0 to 6
        after: set[GravityState] = set()
        for state in layer:
            side = state.to_move
            if side is None:
                continue
            after.update(state.play(c) for c in state.legal_moves)
            other = "o" if side == "x" else "x"
            if state.winning_moves(side) or len(state.winning_moves(other)) > 1:
                continue  # a rule before the chain settles these
            checked += 1
            if chains[side].wins(state):
                found += 1
                assert minimax(state, memo)[0] == side, state.to_rows()
        layer = after
    assert found > 50 and checked > found  # chains are found, and not everywhere


def test_threat_cells_need_not_be_playable() -> None:
    """X's three in a row on the second row, with both cells beside it over empty cells: two
    threats as the rules define them (which would lose for O at once), neither one X can take."""
    state = GravityState.from_string("...../...../.xxx./.ooo.", GravityBoard(4, 5, 4))
    assert threat_cells(state, "x") == 2
    assert state.winning_moves("x") == ()
