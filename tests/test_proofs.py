"""The proof-number search and pairing strategies, against the exact per-ply solver on every small board,
with every certificate checked by the independent checker; the boards the field argues about are slow."""

from __future__ import annotations

import functools
import itertools
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oxo.cli import main
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.proofs import kernel
from oxo.proofs.certificate import verify_certificate
from oxo.proofs.dfpn import CUBE_THREAT_BUDGET, THREAT_BUDGET, ProofSearch
from oxo.proofs.pairing import find_pairing, is_pairing
from oxo.proofs.solver import prove_board
from oxo.solve import Solution, solve
from positions import random_position

SMALL_BOARDS = [
    pytest.param(shape, k, marks=[pytest.mark.slow] if shape in ("2x8", "4x4") and k != 3 else [])
    for shape in [
        "1x1",
        "1x3",
        "2x2",
        "2x3",
        "3x3",
        "2x4",
        "3x4",
        "4x4",
        "2x5",
        "3x5",
        "2x6",
        "2x2x2",
        "2x7",
        "2x8",
        "1x9",
    ]
    for k in range(1, max(map(int, shape.split("x"))) + 1)
]


@functools.cache
def solved(geometry: Geometry) -> Solution:
    """The per-ply solver's table of a whole board, made once for the tests that read it (4x4's
    takes 2 s)."""
    return solve(geometry)


def exact_value(geometry: Geometry) -> str:
    return solved(geometry).value().outcome


@pytest.mark.parametrize(("shape", "k"), SMALL_BOARDS)
def test_values_match_the_per_ply_solver_and_certificates_check(
    shape: str, k: int, tmp_path: Path
) -> None:
    geometry = Geometry.parse(shape, k)
    result = prove_board(geometry, seconds=None, proof_dir=tmp_path / "proof")
    assert result.value == exact_value(geometry)
    assert len(result.proofs) == (2 if result.value == "draw" else 1)
    for path in result.proofs:
        check = verify_certificate(path)
        assert check.valid, str(check)
        assert check.guarantee == ("no-loss" if result.value == "draw" else "win")


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    spec=st.sampled_from(["3x3", "4x4,k=3", "3x4", "4x4"]),
    plies=st.integers(0, 8),
)
def test_search_from_any_position_matches_minimax(seed: int, spec: str, plies: int) -> None:
    """Either start of a fresh position's proof numbers (``kernel.INIT_*``, which only steer the
    search), with the threat budget of flat boards or of cubes, gives the value of the per-ply
    solver, itself checked against minimax."""
    position = random_position(spec, plies, seed)
    truth = solved(position.geometry).value(position).outcome  # (random positions are reachable)
    for attacker in ("x", "o"):
        for start, budget in (
            (kernel.INIT_ONE, THREAT_BUDGET),
            (kernel.INIT_MOBILITY, THREAT_BUDGET),
            (kernel.INIT_MOBILITY, CUBE_THREAT_BUDGET),
        ):
            search = ProofSearch(
                position.geometry,
                attacker,
                pn_init=start,
                threat_budget=budget,
                table_bytes=1 << 16,  # the default table (gigabytes) costs more than these searches
            )
            found = search.solve(position.x, position.o)
            assert found == (truth == attacker), (start, budget, attacker)


def brute_force_pairing(lines: tuple[int, ...], defender: int, attacker: int, full: int) -> bool:
    """Whether any pairing exists, by trying every set of disjoint pairs of empty cells (tiny boards only)."""
    empty = [c for c in range(full.bit_length()) if not (defender | attacker) >> c & 1]
    candidates = list(itertools.combinations(empty, 2))
    for size in range(0, len(empty) // 2 + 1):
        for pairs in itertools.combinations(candidates, size):
            cells = [c for pair in pairs for c in pair]
            if len(set(cells)) == len(cells) and is_pairing(
                lines, defender, attacker, full, list(pairs)
            ):
                return True
    return False


@pytest.mark.parametrize("spec", ["2x2", "2x3", "3x3", "2x4", "3x3,k=2"])
def test_pairing_search_agrees_with_brute_force(spec: str) -> None:
    geometry = Geometry.parse(spec)
    full = geometry.full_mask
    for defender_cells in range(0, 3):
        for defender in itertools.combinations(range(geometry.size), defender_cells):
            mask = sum(1 << c for c in defender)
            found = find_pairing(geometry.lines, mask, 0, full, budget=10**6)
            assert (found is not None) == brute_force_pairing(geometry.lines, mask, 0, full), (
                spec,
                defender,
            )
            if found is not None:
                assert is_pairing(geometry.lines, mask, 0, full, found)


def test_known_pairings() -> None:
    five = Geometry.parse("5x5", 5)
    pairs = find_pairing(five.lines, 0, 0, five.full_mask)
    assert (
        pairs is not None
        and len(pairs) == 12
        and is_pairing(five.lines, 0, 0, five.full_mask, pairs)
    )
    four = Geometry.parse("4x4")  # 10 lines, 8 pairs at most, a pair covers one line: no pairing
    assert find_pairing(four.lines, 0, 0, four.full_mask, budget=10**6) is None
    assert not is_pairing(four.lines, 0, 0, four.full_mask, [(0, 1), (1, 2)])


def test_cli_solve_writes_checked_certificates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "p"
    assert main(["solve", "4x5", "--k", "4", "--proof", str(folder), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["value"] == "draw" and len(data["proofs"]) == 2 and data["nodes"] > 0
    for path in data["proofs"]:
        assert main(["verify", path]) == 0
    assert "valid" in capsys.readouterr().out
    # The folder of a finished run of the same board answers again (the run continues: nothing
    # is left to do); a folder of another board's run, or of anything else, is refused.
    before = {path: Path(path).read_bytes() for path in data["proofs"]}
    assert main(["solve", "4x5", "--k", "4", "--proof", str(folder), "--json"]) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["value"] == "draw" and again["proofs"] == data["proofs"]
    assert again["run"]["resumed"] and again["run"]["sessions"] == 2
    assert {path: Path(path).read_bytes() for path in data["proofs"]} == before
    assert main(["solve", "5x4", "--k", "4", "--proof", str(folder)]) == 2
    assert "holds a proof run of 4x5 (k=4), not of 5x4 (k=4)" in capsys.readouterr().err
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine\n")
    assert main(["solve", "4x5", "--k", "4", "--proof", str(other)]) == 2
    assert "holds other files and no proof run" in capsys.readouterr().err
    assert (other / "notes.txt").read_text() == "mine\n" and len(list(other.iterdir())) == 1
    assert main(["solve", "3x4", "--proof", str(tmp_path / "small"), "--json"]) == 0
    small = json.loads(capsys.readouterr().out)
    assert small["value"] == "x" and small["plies"] and len(small["proofs"]) == 1


def test_cli_solve_out_of_reach_exits_3(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "15x15", "--k", "5", "--time", "0.5"]) == 3
    out = capsys.readouterr().out
    assert "value unknown" in out and "what to try" in out and "X's first moves" in out
    assert main(["solve", "15x15", "--k", "5", "--time", "0.5", "--json"]) == 3
    data = json.loads(capsys.readouterr().out)
    assert data["value"] == "unknown"
    first = data["searches"][0]["first_moves"]
    # One first move per class of mirror images of 15x15: the 36 cells of one eighth of the board.
    assert sum(len(moves) for moves in first.values()) == 36


def test_statistics_count_what_the_search_did(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "5x4", "--k", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for search in data["searches"]:
        stats = search["statistics"]
        assert stats["nodes"] == search["nodes"] > 0
        assert stats["pairings_found"] <= stats["pairing_searches"]
        assert stats["threat_wins"] <= stats["threat_searches"]
        assert stats["table_entries"] > 0


@pytest.mark.parametrize(
    ("spec", "max_nodes"), [("4x4,k=3", None), ("4x4", None), ("3x5,k=3", 64), ("4x5,k=4", 64)]
)
def test_first_moves_are_one_per_class_and_agree_with_the_exact_values(
    spec: str, max_nodes: int | None
) -> None:
    """The first moves a search reports (finished or stopped early): one per class of mirror images,
    and each one it calls settled has that value by the per-ply solver."""
    geometry = Geometry.parse(spec)
    search = ProofSearch(geometry, "x", threats=False, max_nodes=max_nodes)
    search.solve()
    known = search.first_moves()
    classes = {
        min(symmetry.perm[cell] for symmetry in geometry.symmetries)
        for cell in range(geometry.size)
    }
    assert sum(len(moves) for moves in known.values()) == len(classes)
    if geometry.size <= 16:
        table = solved(geometry)
        for move in known["win"]:
            assert table.value(Position(geometry, 1 << move, 0)).outcome == "x"
        for move in known["no win"]:
            assert table.value(Position(geometry, 1 << move, 0)).outcome != "x"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spec", "value"),
    [
        ("3x3x3", "x"),
        ("5x5,k=4", "draw"),
        ("6x5,k=4", "x"),
        ("5x5,k=5", "draw"),
        ("6x6,k=5", "draw"),
        ("7x4,k=4", "draw"),
        ("7x7,k=5", "draw"),
    ],
)
def test_boards_the_field_argues_about(spec: str, value: str, tmp_path: Path) -> None:
    result = prove_board(Geometry.parse(spec), seconds=900, proof_dir=tmp_path / "proof")
    assert result.value == value
    for path in result.proofs:
        assert verify_certificate(path).valid


def test_a_search_stopped_goes_on_from_the_table_it_kept(tmp_path: Path) -> None:
    """A search cut at half its positions keeps its table on disk; a new search of the same question
    reads it back and settles the board in about the other half (a fresh one needs all), with a
    strategy the checker accepts. A table of another question, or altered, is ignored."""
    from oxo.proofs.solver import write_strategy

    geometry = Geometry.parse("6x5,k=4")  # X wins: about 4,000 positions
    fresh = ProofSearch(geometry, "x")
    assert fresh.solve() is True
    cut = ProofSearch(geometry, "x", max_nodes=fresh.nodes // 2)
    assert cut.solve() is None
    path = tmp_path / "table.npz"
    kept = cut.save_table(path)
    assert kept > 0
    again = ProofSearch(geometry, "x")
    assert again.load_table(path) == kept
    assert again.solve() is True
    assert again.nodes < fresh.nodes * 3 // 4
    certificate = write_strategy(tmp_path, geometry, "x", "win", again.strategy())
    assert verify_certificate(certificate).valid
    assert ProofSearch(geometry, "o").load_table(path) == 0  # another question
    assert ProofSearch(Geometry.parse("5x6,k=4"), "x").load_table(path) == 0  # another board
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    altered = tmp_path / "altered.npz"
    altered.write_bytes(bytes(data))
    assert ProofSearch(geometry, "x").load_table(altered) == 0
    assert ProofSearch(geometry, "x").load_table(tmp_path / "missing.npz") == 0


def test_reading_a_strategy_does_not_sink_into_the_first_move_tried() -> None:
    """A position met reading a fragment of Qubic's run (16 marks, X to move), whose table had let
    it go: X's first move in the search's order is not settled within 300,000 positions, its
    second is proved in a few thousand. The move the strategy records is found by searching the
    moves in rounds of shares that double (``StrategyReader.keeping_move``), not the first to the
    end: a move that wins, within a small part of what the first alone would take; its position
    proved."""
    geometry = Geometry.parse("4x4x4")
    x, o = 140737490489485, 4535523215410
    search = ProofSearch(geometry, "x", table_bytes=1 << 24)
    status, moves = search.expand(x, o)
    assert status == 0 and len(moves) > 2
    first = ProofSearch(geometry, "x", table_bytes=1 << 24)
    assert first.solve_until(x | 1 << moves[0], o, None, 100_000) is None  # the sink
    kept = search.keeping_move([(move, (x | 1 << move, o)) for move in moves], 1)
    assert kept is not None
    move, child = kept
    assert move != moves[0] and child == (x | 1 << move, o)
    assert search.value_of(*child) == 1 and search.nodes < 100_000
    losing = next(m for m in moves if search.value_of(x | 1 << m, o) == -1 or m == moves[3])
    assert (
        search.keeping_move([(losing, (x | 1 << losing, o))], 1) is None
    )  # X does not win after it
