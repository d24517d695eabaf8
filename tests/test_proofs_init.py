"""Initial proof and disproof numbers (``kernel.INIT_*``) only steer the search: every way of starting
a fresh position's numbers gives certificates that check (and the values of the exact per-ply
solver: ``test_proofs.test_search_from_any_position_matches_minimax``); and they do steer it (the
searches differ), so the comparison is not between one search."""

from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import pytest

from oxo.geometry import Geometry
from oxo.proofs import kernel
from oxo.proofs.certificate import verify_certificate
from oxo.proofs.dfpn import ProofSearch
from oxo.proofs.solver import write_strategy
from oxo.proofs.workers import Job, run_job

MODES = [kernel.INIT_ONE, kernel.INIT_MOBILITY]
SMALL = 1 << 20


@pytest.mark.parametrize("mode", MODES[1:])
@pytest.mark.parametrize(
    ("spec", "attacker", "value"), [("4x5,k=4", "x", False), ("3x3x3", "x", True)]
)
def test_certificates_check_and_the_search_is_steered(
    mode: int, spec: str, attacker: str, value: bool
) -> None:
    geometry = Geometry.parse(spec)
    plain = ProofSearch(geometry, attacker, table_bytes=SMALL, threats=False)
    steered = ProofSearch(geometry, attacker, table_bytes=SMALL, threats=False, pn_init=mode)
    assert plain.solve() is value and steered.solve() is value
    side = attacker if value else "o" if attacker == "x" else "x"
    with tempfile.TemporaryDirectory() as folder:
        path = write_strategy(
            Path(folder), geometry, side, "win" if value else "no-loss", steered.strategy()
        )
        assert verify_certificate(path).valid
    if spec == "4x5,k=4":  # a search long enough for the start to show
        assert steered.nodes != plain.nodes


def test_a_forcing_move_starts_cheapest_to_prove() -> None:
    """The attacker's move that makes a threat leaves the defender one move: with the mobility
    start its child's proof number is 1, the others' the number of empty cells left."""
    geometry = Geometry.parse("3x3")
    lines = np.array(geometry.lines, dtype=np.uint64)
    search = ProofSearch(geometry, "x", table_bytes=SMALL)
    s, d = np.uint64(0b000_000_001), np.uint64(0b000_010_000)  # X on 0, O on 4
    empty = np.uint64(geometry.full_mask) & ~(s | d)
    moves = np.array([1, 8, 5] + [0] * 61, np.int64)
    out = np.zeros((64, 2), np.int64)
    kernel.initial_numbers(lines, search.thr, search.thrn, s, d, empty, moves, 3, out)
    # X on 1 threatens 2 (one reply), X on 8 threatens nothing (the diagonal holds O), nor X on 5.
    assert out[:3].tolist() == [[1, 1], [6, 1], [6, 1]]


def test_a_position_never_searched_reports_the_numbers_it_starts_from() -> None:
    """A split run ranks the children its job's search never reached by the numbers the search
    would start them from: with the mobility start, a quiet move of the attacker leaves the
    defender every empty cell (not 1, which would make it look the cheapest to prove), a threat
    one; with 1 and 1, and where the attacker is to move, 1 and 1."""
    geometry = Geometry.parse("4x4x4")
    steered = ProofSearch(geometry, "x", table_bytes=SMALL, pn_init=kernel.INIT_MOBILITY)
    plain = ProofSearch(geometry, "x", table_bytes=SMALL)
    quiet = (1 << 0, 0)  # X on a corner, O to move
    threat = (0b111, 1 << 16 | 1 << 17)  # X threatens cell 3
    x_to_move = (1 << 0, 1 << 5)
    assert steered.numbers_of(*quiet) == (63, 1)
    assert steered.numbers_of(*threat) == (1, 1)
    assert steered.numbers_of(*x_to_move) == (1, 1)
    assert plain.numbers_of(*quiet) == (1, 1)
    # A job split after a few positions: X's first moves the search never reached come back with
    # the defender's mobility, the one it reached with what it found.
    result = run_job(Job((4, 4, 4), 4, "x", 0, 0, max_nodes=3, table_bytes=SMALL))
    assert result.value == 0 and result.children is not None
    numbers = [(child.pn, child.dn) for child in result.children]
    # One first move of each class the search's 192 symmetries make: a corner (an inner cell
    # alike) and an edge (a face cell alike).
    assert len(numbers) == 2 and (63, 1) in numbers and any(n != (63, 1) for n in numbers)
