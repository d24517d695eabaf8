"""Certificates of gravity boards: the claims in words, proofs written by the solver and walked by
the rules-only checker (against plain minimax on small boards), leaves solved again, tampered
certificates refused, the command line (`oxo solve --gravity --proof`, `oxo verify`), and the
certificates of Connect Four that ship with oxo."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest

from oxo.cli import main
from oxo.errors import CertificateError, OutOfReachError
from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.proof import (
    FORMAT,
    claim_text,
    is_gravity_certificate,
    prove,
    read_gravity_certificate,
    shipped_certificates,
    verify_gravity_certificate,
)
from oxo.gravity.reference import minimax
from oxo.gravity.solver import value_from_score

C4 = GravityBoard(6, 7, 4)


def test_claims_in_words() -> None:
    assert claim_text(C4, "x", 1) == "X wins, by ply 41 at the latest"
    assert claim_text(C4, "o", -1) == "X does not win before ply 41"
    assert claim_text(C4, "x", 0) == "X does not lose"
    assert claim_text(C4, "o", 0) == "O does not lose"
    assert claim_text(C4, "x", 21) == "X wins, by ply 1 at the latest"
    assert claim_text(C4, "o", 3) == "O wins, by ply 38 at the latest"
    # The words agree with the value a score means: X scoring 1 wins at ply 41.
    assert value_from_score(1, 0, C4.size, "x").end_ply == 41


def _lines(path: Path) -> list[dict[str, object]]:
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _write(path: Path, lines: list[dict[str, object]]) -> None:
    text = "".join(json.dumps(line) + "\n" for line in lines)
    path.write_bytes(gzip.compress(text.encode()))


def published(board: GravityBoard) -> tuple[str, int]:
    """The value of an empty k=4 board in the published table (Tromp's, as
    ``benchmarks/results_gravity_sizes.py`` holds it): the winner and the ply the game ends."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import results_gravity_sizes as sizes

    winner, end = sizes.PUBLISHED[board.cols, board.rows]
    return {"first": "x", "second": "o", "draw": "draw"}[winner], end


@pytest.mark.parametrize(
    "spec",
    # k=4: minimax, the yardstick, would take seconds on 4x4 (test_gravity_solver holds 4x4,k=4's
    # solver to it) and a minute on 4x5; their values are the published ones
    ["4x4,k=3", "3x4,k=3", "4x4,k=4", pytest.param("4x5,k=4", marks=pytest.mark.slow)],
)
def test_proofs_of_small_boards_agree_with_minimax_and_check(spec: str, tmp_path: Path) -> None:
    board = GravityBoard.parse(spec)
    want = published(board) if board.k == 4 else minimax(GravityState(board))
    for workers in (1, 2):
        run = prove(board, tmp_path / str(workers), workers=workers, table_words=1 << 14)
        assert (run.value.outcome, run.value.end_ply) == want, workers
        assert len(run.certificates) == 2 and run.leaves == (0, 0)  # whole games: no leaf
        for path in run.certificates:
            assert is_gravity_certificate(path)
            result = verify_gravity_certificate(path)
            assert result.valid and result.leaves == 0, str(result)
        assert run.to_dict()["nodes"] == run.nodes > 0


def test_leaves_are_solved_again(tmp_path: Path) -> None:
    board = GravityBoard.parse("5x5,k=4")
    run = prove(board, tmp_path, workers=1, table_words=1 << 16, leaf_ply=6)
    assert run.value.outcome == "draw"
    for path in run.certificates:
        every = verify_gravity_certificate(path, leaves=None)
        assert every.valid and every.leaves > 0 and every.leaves_checked == every.leaves
        some = verify_gravity_certificate(path, leaves=3, seed=1)
        assert some.valid and some.leaves_checked == 3
        assert "left to the solver run" in str(some)


def test_tampered_certificates_are_refused(tmp_path: Path) -> None:
    board = GravityBoard.parse("4x4,k=3")
    run = prove(board, tmp_path, workers=1, table_words=1 << 14)
    x_path = next(p for p in run.certificates if "-x-" in p.name)
    lines = _lines(x_path)
    header, entries = lines[0], lines[1:]
    # A missing position.
    _write(tmp_path / "missing.gz", [header, *entries[1:]])
    result = verify_gravity_certificate(tmp_path / "missing.gz")
    assert not result.valid and "missing position" in result.reason
    # A claim stronger than the truth (X wins at ply 9 at the earliest, not by ply 7).
    _write(tmp_path / "greedy.gz", [{**header, "score_at_least": 5}, *entries])
    assert not verify_gravity_certificate(tmp_path / "greedy.gz").valid
    # A column changed to one that does not keep the bound (X wins by ply 9 at the latest).
    bound = int(str(header["score_at_least"]))

    def keeps(state: GravityState) -> bool:
        outcome, end = minimax(state) if not state.is_over else (state.outcome, state.ply)
        return outcome == "x" and (board.size + 2 - end) // 2 >= bound

    def tampered() -> list[dict[str, object]] | None:
        for i, entry in enumerate(entries):
            state = GravityState.from_string(str(entry["position"]), board)
            for col in state.legal_moves:
                if not keeps(state.play(col)):
                    return [header, *entries[:i], {**entry, "move": col + 1}, *entries[i + 1 :]]
        return None

    bad = tampered()
    assert bad is not None
    _write(tmp_path / "bad.gz", bad)
    assert not verify_gravity_certificate(tmp_path / "bad.gz").valid
    # Not a certificate at all.
    (tmp_path / "text.gz").write_bytes(gzip.compress(b"hello\n"))
    with pytest.raises(CertificateError):
        read_gravity_certificate(tmp_path / "text.gz")
    _write(tmp_path / "header.gz", [{**header, "side": "z"}])
    with pytest.raises(CertificateError):
        read_gravity_certificate(tmp_path / "header.gz")
    assert header["format"] == FORMAT


def test_a_leaf_that_does_not_hold_is_found(tmp_path: Path) -> None:
    board = GravityBoard.parse("5x5,k=4")
    run = prove(board, tmp_path, workers=1, table_words=1 << 16, leaf_ply=4)
    path = run.certificates[0]
    lines = _lines(path)
    # Make X claim a win: the walk ends in leaves, and solving them shows the claim fails.
    _write(tmp_path / "win.gz", [{**lines[0], "score_at_least": 1}, *lines[1:]])
    assert verify_gravity_certificate(tmp_path / "win.gz", leaves=0).valid  # the walk alone passes
    result = verify_gravity_certificate(tmp_path / "win.gz", leaves=None)
    assert not result.valid and "does not confirm" in result.reason


def test_a_proof_out_of_time_says_so() -> None:
    with pytest.raises(OutOfReachError, match="give it more time"):
        prove(C4, workers=1, table_words=1 << 16, seconds=0.3)


def test_solve_and_verify_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "proofs"
    code = main(["solve", "4x5", "--k", "4", "--gravity", "--proof", str(out), "--quiet"])
    printed = capsys.readouterr().out
    assert code == 0, printed
    assert "draw" in printed and printed.count("certificate:") == 2
    paths = sorted(out.iterdir())
    for path in paths:
        assert main(["verify", str(path), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["valid"] is True
    assert main(["solve", "4x5", "--k", "4", "--gravity", "--proof", str(out)]) == 2
    assert "new or empty folder" in capsys.readouterr().err
    assert main(["verify", str(paths[0]), "--leaves", "some"]) == 2
    assert "--leaves" in capsys.readouterr().err
    lines = _lines(paths[0])
    _write(tmp_path / "broken.gz", [lines[0], *lines[2:]])
    assert main(["verify", str(tmp_path / "broken.gz")]) == 1
    assert "invalid" in capsys.readouterr().out


def test_the_shipped_connect_four_certificates() -> None:
    """Connect Four's certificates, written by oxo's own proof run: the walk by the rules passes,
    and a few leaves chosen at random are solved again here."""
    paths = shipped_certificates(C4)
    assert len(paths) == 2
    claims = set()
    for path in paths:
        result = verify_gravity_certificate(path, leaves=2, seed=2026)
        assert result.valid and result.leaves > 0 and result.leaves_checked == 2, str(result)
        claims.add(result.claim)
    assert claims == {"X wins, by ply 41 at the latest", "X does not win before ply 41"}


def test_the_proof_book_answers_connect_fours_opening() -> None:
    from oxo.gravity.proof import book_move

    empty = GravityState(C4)
    first = book_move(empty)
    assert first is not None and first.column == 3 and first.value == "x"  # the centre wins
    for reply in empty.play(3).legal_moves:  # every reply of O is answered
        after = empty.play(3).play(reply)
        move = book_move(after)
        assert move is not None and move.value == "x" and move.column in after.legal_moves
    for opening in empty.legal_moves:  # and O has a column against every first move of X
        move = book_move(empty.play(opening))
        assert move is not None and move.value is None
        assert move.claim == "X does not win before ply 41"
    assert book_move(GravityState(GravityBoard(5, 5, 4))) is None


@pytest.mark.slow
def test_perfect_plays_a_whole_game_of_connect_four_as_x() -> None:
    """The book for the opening, the solver after it: X wins against random replies."""
    import random

    from oxo.gravity.engine import make_gravity_engine

    state = GravityState(C4)
    engine = make_gravity_engine("perfect", state, seconds=60, seed=1)
    rng = random.Random(4)
    while not state.is_over:
        move = engine.choose(state) if state.to_move == "x" else rng.choice(state.legal_moves)
        state = state.play(move)
    assert state.outcome == "x"
