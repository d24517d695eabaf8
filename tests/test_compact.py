"""Certificates rewritten with rules (oxo.proofs.compact): the same claim from fewer entries, accepted
by both checkers, and win certificates with fewer stored moves still."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from checkers import checker_verdict
from oxo.errors import CertificateError
from oxo.geometry import Geometry
from oxo.proofs.certificate import (
    MoveEntry,
    StrategyHeader,
    read_certificate,
    read_header,
    status_masks,
    status_string,
    verify_certificate,
    write_certificate,
)
from oxo.proofs.compact import RulesWalk, compact_certificate, improve_certificate
from oxo.proofs.rules import Rules
from oxo.proofs.solver import prove_board
from oxo.proofs.symmetry import canonical
from test_rules import chain_by_definition, named, rewrite


def tool_accepts(path: Path) -> dict[str, object]:
    code, verdict = checker_verdict(path)
    assert code == 0, verdict
    return verdict


@pytest.fixture(scope="module")
def proofs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The certificates of a few boards as oxo's prover writes them (every move stored)."""
    folder = tmp_path_factory.mktemp("proofs")
    paths = []
    for spec in ("3x4,k=3", "4x4,k=3", "5x5,k=4"):
        result = prove_board(Geometry.parse(spec), seconds=None, proof_dir=folder / spec)
        paths.extend(Path(path) for path in result.proofs)
    return paths


def classes(path: Path) -> set[tuple[int, object]]:
    """The entries of a certificate as (class, move or pairing in the class's orientation)."""
    certificate = read_certificate(path)
    header = certificate.header
    out: set[tuple[int, object]] = set()
    for entry in certificate.entries:
        x, o = status_masks(entry.position)
        key, symmetry = canonical(header.group, header.geometry.size, x, o)
        if isinstance(entry, MoveEntry):
            out.add((key, symmetry.perm[entry.move]))
        else:
            out.add(
                (
                    key,
                    frozenset(frozenset(symmetry.perm[c] for c in pair) for pair in entry.pairing),
                )
            )
    return out


def test_a_compact_certificate_proves_the_same_from_fewer_entries(
    proofs: list[Path], tmp_path: Path
) -> None:
    shrunk = 0
    for source in proofs:
        before = verify_certificate(source)
        target = tmp_path / source.name
        rules = Rules(block=True, chain=8)
        done = compact_certificate(source, target, rules)
        after = verify_certificate(target)
        assert before.valid and after.valid and done.written == after
        assert (after.side, after.guarantee, after.board) == (
            before.side,
            before.guarantee,
            before.board,
        )
        assert after.entries <= before.entries and after.rules == rules.to_dict()
        assert read_header(target).rules == rules
        theirs = tool_accepts(target)
        assert (theirs["moves"], theirs["blocks"], theirs["chains"]) == (
            after.strategy_moves,
            after.rule_blocks,
            after.rule_chains,
        )
        shrunk += after.entries < before.entries
        # Every entry kept is one of the source's, in some orientation.
        assert classes(target) <= classes(source)
    assert shrunk >= 3


def test_the_rules_alone_may_prove_a_board_from_one_entry(tmp_path: Path) -> None:
    # On 4x4 with k = 3 X's first move needs an entry; after it, every reply leaves X a chain.
    source = tmp_path / "plain.gz"
    result = prove_board(Geometry.parse("4x4,k=3"), seconds=None, proof_dir=tmp_path / "p")
    (win,) = [Path(path) for path in result.proofs]
    compact_certificate(win, source, Rules(block=True, chain=8))
    entries = read_certificate(source).entries
    assert len(entries) == 1 and entries[0].position == "0" * 16
    assert verify_certificate(source).rule_chains > 0


def test_a_certificate_of_a_position_keeps_its_start_when_compacted(tmp_path: Path) -> None:
    """4x4 (k = 3) from X on 5 and O on 0, X to move: the strategy the plain search reads from
    there, written with the header's start, compacted with rules and then with fewer stored
    moves (the walk that finds them begins at the start too); each file keeps the start and both
    checkers accept it."""
    from dataclasses import replace

    from oxo.proofs.reference import ReferenceSearch

    geometry = Geometry.parse("4x4,k=3")
    x, o = 1 << 5, 1 << 0
    search = ReferenceSearch(geometry, "x")
    assert search.solve(x, o) is True
    entries = [
        MoveEntry(status_string(e.x, e.o, 16), e.move)
        for e in search.strategy(x, o)
        if e.move is not None
    ]
    start = status_string(x, o, 16)
    source = tmp_path / "from-start.gz"
    write_certificate(
        source, replace(StrategyHeader.for_board(geometry, "x", "win"), start=start), entries
    )
    compact, better = tmp_path / "compact.gz", tmp_path / "better.gz"
    compact_certificate(source, compact, Rules(block=True, chain=1))
    improve_certificate(compact, better)
    for path in (source, compact, better):
        check = verify_certificate(path)
        assert check.valid and check.start == start, (path, check)
        assert tool_accepts(path)["start"] == start


def test_a_source_that_does_not_hold_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "bad.gz"
    write_certificate(source, StrategyHeader.for_board("3x3", "x", "win"), [MoveEntry("0" * 9, 4)])
    with pytest.raises(CertificateError, match="does not hold under the rules"):
        compact_certificate(source, tmp_path / "out.gz", Rules(block=True, chain=4))


def test_fewer_stored_moves_where_the_rules_finish_the_game(
    proofs: list[Path], tmp_path: Path
) -> None:
    fewer = 0
    for source in proofs:
        if read_header(source).guarantee != "win":
            continue
        for chain, extra in ((0, 0), (0, 2), (1, 0), (8, 0)):  # short chains: more to spare
            compact = tmp_path / f"c-{source.name}"
            compact_certificate(source, compact, Rules(block=True, chain=chain))
            better = tmp_path / f"i-{source.name}"
            done = improve_certificate(compact, better, extra=extra)
            check = verify_certificate(better)
            assert (
                check.valid
                and done.written == check
                and check.rules == {"block": True, **({"chain": chain} if chain else {})}
            )
            assert done.after == check.strategy_moves <= done.before
            assert done.before == verify_certificate(compact).strategy_moves
            assert tool_accepts(better)["valid"] is True
            assert classes(better) - classes(compact) or done.replaced == 0
            fewer += done.after < done.before
    assert fewer >= 2


def test_an_improved_certificate_with_a_stored_move_taken_out_is_refused(
    proofs: list[Path], tmp_path: Path
) -> None:
    # Every entry an improved certificate keeps is one its walk plays: without the last of them
    # the walk meets a position with no rule and no entry, and both checkers name the same one.
    source = next(path for path in proofs if read_header(path).guarantee == "win")
    compact = tmp_path / "compact.gz"
    compact_certificate(source, compact, Rules(block=True, chain=1))
    better = tmp_path / "better.gz"
    done = improve_certificate(compact, better)
    assert done.after >= 2 and verify_certificate(better).valid
    broken = rewrite(better, tmp_path / "gap.gz", lambda lines: lines[:-1])
    ours, theirs = named(broken)
    assert ours is not None and ours == theirs


def closed_by_definition(geometry: Geometry, x: int, o: int, blocks: int) -> bool:
    """X to move: the rules alone win (a win at once, a forced chain, or a block after which every
    reply is again won by the rules alone, at most ``blocks`` blocks in a row), written plainly."""
    lines = [set(cells) for cells in geometry.line_cells]
    xs = {c for c in geometry.cells if x >> c & 1}
    os_ = {c for c in geometry.cells if o >> c & 1}
    empty = set(geometry.cells) - xs - os_
    if any(line <= os_ for line in lines):
        return False
    if any(len(line - xs) == 1 and not line & os_ for line in lines):
        return True
    danger = {c for line in lines if not line & xs and len(line - os_) == 1 for c in line - os_}
    if danger:
        if len(danger) > 1 or blocks == 0:
            return False
        (cell,) = danger
        rest = empty - {cell}
        return bool(rest) and all(
            closed_by_definition(geometry, x | 1 << cell, o | 1 << r, blocks - 1) for r in rest
        )
    return chain_by_definition(geometry, x, o, 8)


@pytest.mark.parametrize("spec", ["4x4,k=3", "5x4,k=4"])
def test_the_moves_the_rules_finish_are_those_of_the_definition(spec: str) -> None:
    geometry = Geometry.parse(spec)
    header = StrategyHeader.for_board(geometry, "x", "win", Rules(block=True, chain=8))
    walk = RulesWalk(header, {})
    rng = random.Random(spec)
    outcomes = set()
    for _ in range(40):
        cells = rng.sample(list(geometry.cells), 6)
        x = sum(1 << c for c in cells[:3])
        o = sum(1 << c for c in cells[3:])
        if any(m & x == m or m & o == m for m in geometry.lines):
            continue
        assert walk.closed(x, o) == closed_by_definition(geometry, x, o, 2)
        move = walk.closed_move(x, o)
        empty = [c for c in geometry.cells if not (x | o) >> c & 1]
        expected = [
            m
            for m in empty
            if len(empty) > 1
            and all(
                closed_by_definition(geometry, x | 1 << m, o | 1 << r, 2) for r in empty if r != m
            )
        ]
        assert (move is None) == (not expected) and (move is None or move in expected)
        outcomes.add(move is None)
    assert outcomes == {True, False}
