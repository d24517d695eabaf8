"""Strategy certificates (oxo-strategy/1): writing, reading, checking, and ``oxo verify``.

Certificates are built here by hand or from the exact solver (side's best moves, every reply), and
the checker is held to a slow reference over :class:`Position` objects that maps moves between
orientations by trying symmetries instead of going through canonical forms.
"""

from __future__ import annotations

import gzip
import itertools
import json
import random
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import example, given, settings
from hypothesis import strategies as st

from checkers import checker_verdict, run_checker
from oxo.errors import (
    CertificateEntryError,
    CertificateError,
    CertificateFileError,
    CertificateHeaderError,
    CertificateSyntaxError,
    OxoError,
)
from oxo.geometry import Geometry, mask_cells
from oxo.position import Position
from oxo.proofs.certificate import (
    Certificate,
    MoveEntry,
    PairingEntry,
    StrategyHeader,
    WalkStep,
    position_class,
    read_certificate,
    read_header,
    status_masks,
    status_string,
    verify_certificate,
    write_certificate,
)
from oxo.proofs.reference import ReferenceSearch

# -- helpers -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("board", ["3x3", "4x5,k=4", "7x7,k=5", "3x3x3"])
def test_every_image_at_once_gives_the_class_and_the_first_symmetry_to_it(board: str) -> None:
    """The checker's images of a position under all the symmetries at once (one number) give the
    class key and the symmetry that the images taken one symmetry at a time give."""
    from oxo.proofs.certificate import _Images

    geometry = Geometry.parse(board)
    symmetries = geometry.symmetries
    images = _Images(symmetries, geometry.size)
    rng = random.Random(7)
    for _ in range(300):
        cells = rng.sample(range(geometry.size), rng.randint(0, geometry.size))
        cut = rng.randint(0, len(cells))
        x = sum(1 << c for c in cells[:cut])
        o = sum(1 << c for c in cells[cut:])
        each = [(s.apply_mask(x) << geometry.size | s.apply_mask(o)) for s in symmetries]
        key = min(each)
        assert images.canonical(x, o) == (key, each.index(key))


@given(
    st.integers(1, 130).flatmap(
        lambda n: st.tuples(st.just(n), st.integers(0, 2**n - 1), st.integers(0, 2**n - 1))
    )
)
@example((4001, 3 << 3990, 5 << 3990))  # the cell-by-cell way (boards past 4,000 cells)
@settings(max_examples=50)
def test_a_status_string_spells_each_cell_and_reads_back(case: tuple[int, int, int]) -> None:
    """Cell by cell, X's mark where both bits are set; read back to the masks (disjoint ones)."""
    size, x, o = case
    text = status_string(x, o, size)
    assert text == "".join("1" if x >> c & 1 else "2" if o >> c & 1 else "0" for c in range(size))
    assert status_masks(text) == (x, o & ~x)


@cache
def _solution(board: str):  # type: ignore[no-untyped-def]
    from oxo.solve import solve

    return solve(Geometry.parse(board))


def strategy_entries(
    board: str, side: str, *, skip_immediate_wins: bool = False
) -> list[MoveEntry]:
    """One entry per class of position where ``side`` is to move, reached by side's best moves and
    every reply from the empty board (the first best move of the exact solution)."""
    solution = _solution(board)
    geometry = Geometry.parse(board)
    entries: dict[tuple[int, int], MoveEntry] = {}
    seen: set[tuple[int, int]] = set()
    stack = [Position.empty(geometry)]
    while stack:
        position = stack.pop()
        if position.key in seen or position.is_terminal:
            continue
        seen.add(position.key)
        if position.to_move == side:
            if skip_immediate_wins and position.winning_moves(side):
                continue
            move = solution.best_moves(position)[0]
            entries[position.key] = MoveEntry(position.to_status_string(), move)
            stack.append(position.play(move))
        else:
            stack.extend(position.play(cell) for cell in position.legal_moves)
    return list(entries.values())


def certificate(board: str, side: str, guarantee: str, entries) -> Certificate:  # type: ignore[no-untyped-def]
    return Certificate(StrategyHeader.for_board(board, side, guarantee), tuple(entries))  # type: ignore[arg-type]


def write(path: Path, board: str, side: str, guarantee: str, entries) -> Path:  # type: ignore[no-untyped-def]
    write_certificate(path, StrategyHeader.for_board(board, side, guarantee), entries)  # type: ignore[arg-type]
    return path


def write_raw(path: Path, lines: list[object] | list[str]) -> Path:
    text = "".join((line if isinstance(line, str) else json.dumps(line)) + "\n" for line in lines)
    path.write_bytes(gzip.compress(text.encode()))
    return path


def header_dict(
    board: str = "3x3", k: int = 3, side: str = "x", guarantee: str = "no-loss"
) -> dict[str, object]:
    dims = [int(side) for side in board.split("x")]
    return {
        "format": "oxo-strategy/1",
        "board": board,
        "dims": dims,
        "k": k,
        "side": side,
        "guarantee": guarantee,
    }


def find_pairing(geometry: Geometry, own: int, occupied: int) -> list[tuple[int, int]] | None:
    """A pairing for the side with marks ``own``: disjoint empty pairs, a whole pair in every line
    without a mark of the side (backtracking over the lines)."""
    lines = sorted(
        (line for line in geometry.lines if not line & own),
        key=lambda line: (line & ~occupied).bit_count(),
    )
    chosen: list[tuple[int, int]] = []

    def extend(i: int, used: int) -> bool:
        if i == len(lines):
            return True
        line = lines[i]
        if any(line >> a & 1 and line >> b & 1 for a, b in chosen):
            return extend(i + 1, used)
        free = [cell for cell in geometry.cells if (line & ~occupied & ~used) >> cell & 1]
        for a, b in itertools.combinations(free, 2):
            chosen.append((a, b))
            if extend(i + 1, used | 1 << a | 1 << b):
                return True
            chosen.pop()
        return False

    return list(chosen) if extend(0, 0) else None


def pairing_holds(
    geometry: Geometry, own: int, occupied: int, pairs: list[tuple[int, int]]
) -> bool:
    """The pairing condition, written out plainly."""
    cells = [cell for pair in pairs for cell in pair]
    if len(set(cells)) != len(cells) or any(occupied >> cell & 1 for cell in cells):
        return False
    return all(
        line & own or any(line >> a & 1 and line >> b & 1 for a, b in pairs)
        for line in geometry.lines
    )


def reference_valid(cert: Certificate) -> bool:
    """The slow reference checker (move entries only): Position objects, moves mapped by finding a
    symmetry that carries the entry's position onto the position reached."""
    header = cert.header
    geometry = header.geometry
    side, opponent = header.side, header.opponent
    by_class: dict[Position, list[MoveEntry]] = {}
    for entry in cert.entries:
        assert isinstance(entry, MoveEntry)
        by_class.setdefault(
            Position.from_statuses(geometry, [int(c) for c in entry.position]).canonical, []
        ).append(entry)
    memo: dict[Position, bool] = {}

    def ok(position: Position) -> bool:
        if position.canonical in memo:
            return memo[position.canonical]
        if position.winner == opponent:
            result = False
        elif position.winner == side:
            result = True
        elif position.is_full:
            result = header.guarantee == "no-loss"
        elif header.guarantee == "no-loss" and all(
            line & (position.x if side == "x" else position.o) for line in geometry.lines
        ):
            result = True
        elif position.to_move == side:
            if position.winning_moves(side):
                result = True
            else:
                moves = []
                for entry in by_class.get(position.canonical, []):
                    written = Position.from_statuses(geometry, [int(c) for c in entry.position])
                    for symmetry in geometry.symmetries:
                        if written.transform(symmetry) == position:
                            moves.append(symmetry(entry.move))
                            break
                result = any(
                    cell in position.empty_cells and ok(position.play(cell)) for cell in moves
                )
        else:
            result = all(ok(position.play(cell)) for cell in position.legal_moves)
        memo[position.canonical] = result
        return result

    return ok(Position.empty(geometry))


def transformed(
    entry: MoveEntry | PairingEntry, geometry: Geometry, symmetry_name: str
) -> MoveEntry | PairingEntry:
    symmetry = geometry.symmetry(symmetry_name)
    position = Position.from_statuses(geometry, [int(c) for c in entry.position]).transform(
        symmetry
    )
    if isinstance(entry, MoveEntry):
        return MoveEntry(position.to_status_string(), symmetry(entry.move))
    return PairingEntry(
        position.to_status_string(), tuple((symmetry(a), symmetry(b)) for a, b in entry.pairing)
    )


#: O's pairing on the empty 5x5 board, k=5: 12 disjoint pairs, one whole in each of the 12 lines.
PAIRING_5X5 = (
    (0, 1),
    (5, 6),
    (10, 11),
    (17, 18),
    (22, 23),
    (15, 20),
    (16, 21),
    (2, 7),
    (3, 13),
    (9, 14),
    (4, 8),
    (12, 24),
)


# -- valid certificates -----------------------------------------------------------------------------


def test_3x3_draw_is_two_no_loss_certificates(tmp_path: Path) -> None:
    for side in ("x", "o"):
        entries = strategy_entries("3x3", side)
        path = write(tmp_path / f"3x3-{side}.gz", "3x3", side, "no-loss", entries)
        result = verify_certificate(path)
        assert result.valid, result
        assert (result.side, result.guarantee, result.board, result.k) == (
            side,
            "no-loss",
            "3x3",
            3,
        )
        assert result.entries == len(entries)
        assert result.positions_checked >= result.strategy_moves > 0
        assert result.failure is None and result.failure_position is None
        assert str(result).startswith(f"valid: {side.upper()} does not lose")
    # A drawn board has no win certificate: X's drawing strategy claimed as a win fails.
    result = verify_certificate(
        write(tmp_path / "win.gz", "3x3", "x", "win", strategy_entries("3x3", "x"))
    )
    assert not result.valid and "full without a line of X" in (result.failure or "")
    assert result.failure_position is not None and "0" not in result.failure_position


def test_3x4_x_wins(tmp_path: Path) -> None:
    assert _solution("3x4").value().winner == "x"
    entries = strategy_entries("3x4", "x")
    result = verify_certificate(write(tmp_path / "3x4.gz", "3x4", "x", "win", entries))
    assert result.valid
    assert str(result) == (
        f"valid: X wins — the strategy for X on 3x4 (k=3) wins against every defence; "
        f"{result.positions_checked} positions checked, {result.strategy_moves} moves of X from "
        f"{len(entries)} entries"
    )
    assert 0 < result.strategy_moves <= len(entries)
    data = result.to_dict()
    assert (
        data["valid"] is True
        and data["board"] == "3x4"
        and data["k"] == 3
        and data["failure"] is None
    )
    assert data["positions_checked"] == result.positions_checked and data["entries"] == len(entries)


def test_no_entry_needed_where_side_wins_at_once() -> None:
    full = strategy_entries("3x4", "x")
    lean = strategy_entries("3x4", "x", skip_immediate_wins=True)
    assert len(lean) < len(full)
    assert verify_certificate(certificate("3x4", "x", "win", lean)).valid


def test_a_strategy_in_memory_is_walked_from_the_root_given(tmp_path: Path) -> None:
    """3x3: X on a corner, O on the edge beside it, X to move and winning. The strategy the plain
    search reads from there is accepted when walked from that position, refused from the empty
    board (it holds no entry there); a file is walked from the empty board only."""
    geometry = Geometry.parse("3x3")
    search = ReferenceSearch(geometry, "x")
    x, o = 1 << 0, 1 << 1
    assert search.solve(x, o) is True
    lines = tuple(
        MoveEntry(status_string(entry.x, entry.o, 9), entry.move)
        for entry in search.strategy(x, o)
        if entry.move is not None
    )
    whole = Certificate(StrategyHeader((3, 3), 3, "x", "win"), lines)
    assert verify_certificate(whole, root=(x, o)).valid
    assert not verify_certificate(whole).valid
    path = write(tmp_path / "from-root.gz", "3x3", "x", "win", list(lines))
    with pytest.raises(ValueError, match="header's start"):
        verify_certificate(path, root=(x, o))


def test_a_file_with_a_start_is_walked_from_it(tmp_path: Path) -> None:
    """The header's ``start``: the same 3x3 strategy from X on a corner and O on the edge beside
    it is accepted from there, read back with its start, and said to be about that position; the
    same entries without the start (a checker that ignores the key reads them so) are refused, as
    is another start (O on the cell X's strategy plays next)."""
    geometry = Geometry.parse("3x3")
    search = ReferenceSearch(geometry, "x")
    x, o = 1 << 0, 1 << 1
    lines = [
        MoveEntry(status_string(entry.x, entry.o, 9), entry.move)
        for entry in search.strategy(x, o)
        if entry.move is not None
    ]
    start = status_string(x, o, 9)
    header = replace(StrategyHeader.for_board("3x3", "x", "win"), start=start)
    path = tmp_path / "from-start.gz"
    write_certificate(path, header, lines)
    assert read_header(path).start == start == "120000000"
    result = verify_certificate(path)
    assert result.valid and result.start == start and result.to_dict()["start"] == start
    assert "3x3 (k=3) from the position with X on 0 and O on 1 wins" in result.claim
    assert verify_certificate(read_certificate(path)).valid  # in memory: from the header's start
    assert verify_certificate(path, whole=True).valid
    plain = write(tmp_path / "no-start.gz", "3x3", "x", "win", lines)
    assert not verify_certificate(plain).valid
    # The checker without oxo, written from the format page, agrees on both.
    status, verdict = checker_verdict(path)
    assert status == 0 and verdict["start"] == start
    assert "from the position with X on 0 and O on 1;" in run_checker(path).stdout
    assert checker_verdict(plain)[0] == 1
    first = next(line for line in lines if line.position == start)
    assert first.move == 3
    # O on 3 instead (X on 5): a start the entries do not cover.
    other = status_string(x | 1 << 5, o | 1 << 3, 9)
    write_certificate(tmp_path / "other.gz", replace(header, start=other), lines)
    refused = verify_certificate(tmp_path / "other.gz")
    assert not refused.valid and refused.failure_position == other


@pytest.mark.parametrize(
    ("start", "words"),
    [
        ("12000000", "need 9 characters"),
        ("220000000", "X has 0 marks and O 2"),
        ("111220000", "X has the line 0-1-2"),
        ("112221121", "the board is full"),
    ],
)
def test_a_start_that_cannot_be_walked_from_is_refused(
    start: str, words: str, tmp_path: Path
) -> None:
    header = {**header_dict(side="x", guarantee="win"), "start": start}
    with pytest.raises(CertificateHeaderError, match=words):
        StrategyHeader.from_dict(header)
    done = run_checker(write_raw(tmp_path / "bad-start.gz", [header]))
    assert done.returncode == 2 and "start" in done.stderr


def test_a_start_under_gravity_cannot_float() -> None:
    header = StrategyHeader.for_board("4x4,gravity", "x", "win")
    below = status_string(1 << 12, 0, 16)  # the bottom layer is the last four cells
    assert replace(header, start=below).start == below
    with pytest.raises(CertificateHeaderError, match="floats"):
        replace(header, start=status_string(1 << 0, 0, 16))


def test_3d_board_hand_written(tmp_path: Path) -> None:
    # On 2x2x2 with k=2 any two cells make a line: X's second mark wins whatever O does.
    for move in range(8):
        path = write(tmp_path / "cube.gz", "2x2x2", "x", "win", [MoveEntry("00000000", move)])
        result = verify_certificate(path)
        assert result.valid and result.board == "2x2x2" and result.k == 2
    header = json.loads(gzip.decompress(path.read_bytes()).decode().splitlines()[0])
    assert header == {
        "format": "oxo-strategy/1",
        "board": "2x2x2",
        "dims": [2, 2, 2],
        "k": 2,
        "side": "x",
        "guarantee": "win",
    }


def test_round_trip_and_file_format(tmp_path: Path) -> None:
    entries = strategy_entries("3x3", "o")
    path = tmp_path / "o.gz"
    assert write_certificate(path, StrategyHeader.for_board("3x3", "o", "no-loss"), entries) == len(
        entries
    )
    lines = gzip.decompress(path.read_bytes()).decode().splitlines()
    assert json.loads(lines[0]) == header_dict(side="o")
    assert list(json.loads(lines[0])) == ["format", "board", "dims", "k", "side", "guarantee"]
    first = json.loads(lines[1])
    assert set(first) == {"position", "move"} and first == {
        "position": entries[0].position,
        "move": entries[0].move,
    }
    back = read_certificate(path)
    assert back.header == StrategyHeader((3, 3), 3, "o", "no-loss") and back.header.board == "3x3"
    assert back.entries == tuple(entries)
    # Entries may also be given as mappings; nothing is left behind but the file.
    write_certificate(path, back.header, [entry.to_dict() for entry in entries])
    assert read_certificate(path).entries == tuple(entries)
    assert [p.name for p in tmp_path.iterdir()] == ["o.gz"]


def test_the_walk_tells_its_observer_each_entry_it_accepted() -> None:
    """The observer hears each class the walk accepted once (of the entries' classes, those the
    walk needs: the board settles the others), with its key as :func:`position_class` gives it,
    the move in the class's orientation and as met; the entries it heard make a certificate that
    holds alone."""
    entries = strategy_entries("3x3", "o")
    cert = certificate("3x3", "o", "no-loss", [*entries, *entries[:3]])  # three given twice
    steps: list[WalkStep] = []
    assert verify_certificate(cert, observer=steps.append).valid
    classify = position_class(cert.header)
    keys = [step.key for step in steps]
    assert len(keys) == len(set(keys)) > 0
    assert set(keys) <= {classify(*status_masks(entry.position))[0] for entry in entries}
    for step in steps:
        key, symmetry = classify(step.x, step.o)
        assert step.section == 0 and key == step.key
        assert step.canonical == symmetry.perm[step.played]  # type: ignore[index]  # a move here
    told = certificate("3x3", "o", "no-loss", [step.entry for step in steps])
    assert verify_certificate(told).valid


def test_any_orientation_verifies(tmp_path: Path) -> None:
    geometry = Geometry.parse("3x3")
    names = [symmetry.name for symmetry in geometry.symmetries]
    rng = random.Random(7)
    for side in ("x", "o"):
        entries = strategy_entries("3x3", side)
        turned = [transformed(entry, geometry, rng.choice(names)) for entry in entries]
        assert sum(a != b for a, b in zip(entries, turned, strict=True)) > len(entries) // 2
        assert verify_certificate(write(tmp_path / "t.gz", "3x3", side, "no-loss", turned)).valid
        # One symmetry for the whole file, too.
        for name in names:
            assert verify_certificate(
                certificate(
                    "3x3", side, "no-loss", [transformed(e, geometry, name) for e in entries]
                )
            ).valid
    rect = Geometry.parse("3x4")
    entries = strategy_entries("3x4", "x")
    for symmetry in rect.symmetries:
        turned = [transformed(entry, rect, symmetry.name) for entry in entries]
        assert verify_certificate(certificate("3x4", "x", "win", turned)).valid


def test_pairing_on_the_empty_5x5_board_k5() -> None:
    geometry = Geometry.parse("5x5,k=5")
    assert pairing_holds(geometry, 0, 0, list(PAIRING_5X5))
    found = find_pairing(geometry, 0, 0)
    assert found is not None and pairing_holds(geometry, 0, 0, found)
    result = verify_certificate(
        certificate("5x5,k=5", "o", "no-loss", [PairingEntry("0" * 25, PAIRING_5X5)])
    )
    assert result.valid and result.positions_checked == 1 and result.entries == 1
    # In another orientation (the pairs turned with the position) it still holds.
    turned = transformed(PairingEntry("0" * 25, PAIRING_5X5), geometry, "rot90")
    assert verify_certificate(certificate("5x5,k=5", "o", "no-loss", [turned])).valid


def test_4x4_draw_by_moves_and_pairings(tmp_path: Path) -> None:
    """4x4 (k=4) is a draw: X plays a corner and then pairs; O answers X's first move on a
    diagonal and then pairs (no pairing exists on the empty board: 10 lines need 20 cells)."""
    geometry = Geometry.parse("4x4")
    assert find_pairing(geometry, 0, 0) is None
    # X: corner, then a pairing at every O-to-move position reached, i.e. just one.
    pairs = find_pairing(geometry, 1, 1)
    assert pairs is not None and pairing_holds(geometry, 1, 1, pairs)
    x_entries = [MoveEntry("0" * 16, 0), PairingEntry("1" + "0" * 15, tuple(pairs))]
    x_result = verify_certificate(write(tmp_path / "x.gz", "4x4", "x", "no-loss", x_entries))
    assert x_result.valid and x_result.positions_checked == 2
    # O: one reply per class of X's first move, then a pairing.
    o_entries: list[MoveEntry | PairingEntry] = []
    for cell_class in geometry.cell_classes:
        x_cell = cell_class.cells[0]
        for o_cell in geometry.cells:
            if o_cell == x_cell:
                continue
            pairs = find_pairing(geometry, 1 << o_cell, 1 << x_cell | 1 << o_cell)
            if pairs is not None:
                break
        assert pairs is not None
        after_x = Position(geometry, 1 << x_cell, 0)
        o_entries.append(MoveEntry(after_x.to_status_string(), o_cell))
        o_entries.append(PairingEntry(after_x.play(o_cell).to_status_string(), tuple(pairs)))
    o_result = verify_certificate(write(tmp_path / "o.gz", "4x4", "o", "no-loss", o_entries))
    assert o_result.valid, o_result
    assert o_result.positions_checked == 1 + 2 * len(geometry.cell_classes)
    assert len(geometry.cell_classes) == 3


def test_a_class_given_twice_is_accepted_when_one_move_works() -> None:
    entries = strategy_entries("3x3", "o")
    index = next(i for i, e in enumerate(entries) if e.position == "000010000")
    good = entries[index]
    bad = MoveEntry(good.position, 1)  # an edge after X's centre loses
    assert good.move in (0, 2, 6, 8)
    for order in ([bad, good], [good, bad]):
        assert verify_certificate(
            certificate("3x3", "o", "no-loss", entries[:index] + order + entries[index + 1 :])
        ).valid


# -- rejections -------------------------------------------------------------------------------------


def test_a_losing_move_is_found() -> None:
    entries = strategy_entries("3x3", "o")
    index = next(i for i, e in enumerate(entries) if e.position == "000010000")
    entries[index] = MoveEntry("000010000", 1)  # O answers the centre on an edge: X wins
    result = verify_certificate(certificate("3x3", "o", "no-loss", entries))
    assert not result.valid and result.failure and result.failure_position and result.failure_path
    # The walk failed below the changed entry: X's centre, then O's edge (in some orientation).
    assert result.failure_path[:2] in {(4, 1), (4, 3), (4, 5), (4, 7)}
    assert (
        result.failure_position[4] == "1" and result.failure_position[result.failure_path[1]] == "2"
    )
    assert str(result) == f"invalid: {result.failure} at position {result.failure_position}"
    # At the root: X's first move on 3x4 changed to one that does not win.
    solution = _solution("3x4")
    empty = Position.empty(Geometry.parse("3x4"))
    losing = next(
        cell for cell, value in solution.move_values(empty).items() if value.winner != "x"
    )
    entries = [
        MoveEntry(e.position, losing) if e.position == "0" * 12 else e
        for e in strategy_entries("3x4", "x")
    ]
    result = verify_certificate(certificate("3x4", "x", "win", entries))
    assert not result.valid and result.failure_path and result.failure_path[0] == losing


def test_a_missing_position_is_named() -> None:
    entries = [e for e in strategy_entries("3x3", "o") if e.position != "000010000"]
    result = verify_certificate(certificate("3x3", "o", "no-loss", entries))
    assert not result.valid
    assert result.failure is not None and result.failure.startswith("missing position")
    assert result.failure_position == "000010000" and result.failure_path == (4,)
    assert str(result) == f"invalid: {result.failure} at position 000010000"
    entries = [e for e in strategy_entries("3x3", "x") if e.position != "0" * 9]
    result = verify_certificate(certificate("3x3", "x", "no-loss", entries))
    assert result.failure_position == "0" * 9 and result.failure_path == ()


def test_a_move_on_a_taken_cell_fails() -> None:
    entries = strategy_entries("3x3", "o")
    # X's corner opening, in whatever orientation the helper wrote it; O's move onto X's mark.
    index = next(
        i
        for i, e in enumerate(entries)
        if e.position.count("1") == 1 and e.position.index("1") in (0, 2, 6, 8)
    )
    corner = entries[index].position.index("1")
    entries[index] = MoveEntry(entries[index].position, corner)
    result = verify_certificate(certificate("3x3", "o", "no-loss", entries))
    assert not result.valid and "move 0 is not an empty cell" in (result.failure or "")
    assert result.failure_position == "100000000" and result.failure_path == (0,)


def test_bad_pairings_fail() -> None:
    empty = "0" * 25
    cases = {
        "more than one pair": ((0, 1), (1, 5), *PAIRING_5X5[1:]),
        "no whole pair": PAIRING_5X5[1:],
        "names one cell twice": ((0, 0), *PAIRING_5X5[1:]),
    }
    for reason, pairs in cases.items():
        result = verify_certificate(
            certificate("5x5,k=5", "o", "no-loss", [PairingEntry(empty, pairs)])
        )
        assert not result.valid and result.failure_position == empty
        assert (
            result.failure is not None
            and result.failure.startswith("invalid pairing")
            and reason in result.failure
        )
    # A pair on a taken cell (X has played cell 0, O replies at 12 and pairs from there).
    pairs = find_pairing(Geometry.parse("4x4"), 1, 1)
    assert pairs is not None
    bad = ((0, 15), *pairs[1:])
    result = verify_certificate(
        certificate(
            "4x4", "x", "no-loss", [MoveEntry("0" * 16, 0), PairingEntry("1" + "0" * 15, bad)]
        )
    )
    assert not result.valid and "cell 0 of the pair (0, 15) is not empty" in (result.failure or "")
    # A wrong pairing is not needed when every reply is covered by moves anyway.
    entries: list[MoveEntry | PairingEntry] = [
        *strategy_entries("3x3", "o"),
        PairingEntry("0" * 9, ((0, 1),)),
    ]
    assert verify_certificate(certificate("3x3", "o", "no-loss", entries)).valid


def test_checker_agrees_with_the_reference_on_damaged_strategies() -> None:
    rng = random.Random(2024)
    for board, side, guarantee in (
        ("3x3", "o", "no-loss"),
        ("3x3", "x", "no-loss"),
        ("3x4", "x", "win"),
    ):
        entries = strategy_entries(board, side)
        cert = certificate(board, side, guarantee, entries)
        assert reference_valid(cert) and verify_certificate(cert).valid
        outcomes = set()
        for _ in range(25):
            damaged = list(entries)
            for _ in range(rng.choice((1, 1, 2))):
                i = rng.randrange(len(damaged))
                position = damaged[i].position
                empty = [cell for cell, status in enumerate(position) if status == "0"]
                choice = rng.random()
                if choice < 0.2:
                    del damaged[i]
                elif choice < 0.3:
                    damaged[i] = MoveEntry(
                        position, rng.randrange(len(position))
                    )  # maybe a taken cell
                else:
                    damaged[i] = MoveEntry(position, rng.choice(empty))
            cert = certificate(board, side, guarantee, damaged)
            expected = reference_valid(cert)
            assert verify_certificate(cert).valid == expected
            outcomes.add(expected)
        assert outcomes == {True, False}


# -- malformed files --------------------------------------------------------------------------------


def test_malformed_files_raise_clear_errors(tmp_path: Path) -> None:
    good_entry = {"position": "000000000", "move": 4}
    cases: list[tuple[list[object], type[CertificateError], str]] = [
        ([], CertificateHeaderError, "no header"),
        (
            [{**header_dict(), "format": "oxo-strategy/2"}, good_entry],
            CertificateHeaderError,
            "not an oxo-strategy/1",
        ),
        (
            [{k: v for k, v in header_dict().items() if k != "format"}],
            CertificateHeaderError,
            "no format",
        ),
        ([{**header_dict(), "board": "4x4"}], CertificateHeaderError, "does not match dims"),
        ([{**header_dict(), "dims": [3]}], CertificateHeaderError, "dims must be"),
        ([{**header_dict(), "k": 4}], CertificateHeaderError, "k=4 does not fit"),
        ([{**header_dict(), "side": "X"}], CertificateHeaderError, "side must be"),
        ([{**header_dict(), "guarantee": "draw"}], CertificateHeaderError, "guarantee must be"),
        (
            [{key: v for key, v in header_dict().items() if key != "k"}],
            CertificateHeaderError,
            "lacks k",
        ),
        ([[1, 2, 3]], CertificateHeaderError, "header"),
        (
            [header_dict(), {"position": "00000000", "move": 4}],
            CertificateEntryError,
            "bad status string",
        ),
        (
            [header_dict(), {"position": "0000x0000", "move": 4}],
            CertificateEntryError,
            "bad status string",
        ),
        ([header_dict(), {"position": 0, "move": 4}], CertificateEntryError, "bad status string"),
        (
            [header_dict(), {"position": "110000000", "move": 4}],
            CertificateEntryError,
            "cannot occur",
        ),
        (
            [header_dict(), {"position": "000000000", "move": 9}],
            CertificateEntryError,
            "move 9 is not a cell",
        ),
        (
            [header_dict(), {"position": "000000000", "move": -1}],
            CertificateEntryError,
            "not a cell",
        ),
        (
            [header_dict(), {"position": "000000000", "move": "4"}],
            CertificateEntryError,
            "not a cell",
        ),
        (
            [header_dict(), {"position": "000000000", "move": True}],
            CertificateEntryError,
            "not a cell",
        ),
        (
            [header_dict(), {"position": "100000000", "move": 4}],
            CertificateEntryError,
            "O is to move",
        ),
        ([header_dict(), {"position": "000000000", "moves": 4}], CertificateEntryError, "keys"),
        ([header_dict(), {**good_entry, "pairing": []}], CertificateEntryError, "keys"),
        ([header_dict(), [0, 4]], CertificateEntryError, "JSON object"),
        (
            [header_dict(guarantee="win"), {"position": "100000000", "pairing": [[0, 1]]}],
            CertificateEntryError,
            "only in no-loss",
        ),
        (
            [header_dict(), {"position": "100000000", "pairing": [[0, 1, 2]]}],
            CertificateEntryError,
            "not a pair",
        ),
        (
            [header_dict(), {"position": "100000000", "pairing": [[0, 10]]}],
            CertificateEntryError,
            "pairing cell 10",
        ),
        (
            [header_dict(), {"position": "100000000", "pairing": {"0": 1}}],
            CertificateEntryError,
            "list of pairs",
        ),
        (
            [header_dict(), {"position": "000000000", "pairing": [[0, 1]]}],
            CertificateEntryError,
            "opponent",
        ),
        ([header_dict(), good_entry, "{not json"], CertificateSyntaxError, "line 3: not JSON"),
    ]
    for number, (lines, error, words) in enumerate(cases):
        path = write_raw(tmp_path / f"case{number}.gz", lines)
        for read in (read_certificate, verify_certificate):
            with pytest.raises(error) as caught:
                read(path)
            message = str(caught.value)
            assert words in message and "\n" not in message and str(path) in message, (
                lines,
                message,
            )
            assert isinstance(caught.value, OxoError)
    # Entry errors name their line.
    with pytest.raises(CertificateEntryError, match=r"line 3: move 9"):
        read_certificate(
            write_raw(
                tmp_path / "l.gz", [header_dict(), good_entry, {"position": "000000000", "move": 9}]
            )
        )
    # Blank lines are skipped, unknown header keys ignored.
    path = write_raw(
        tmp_path / "blank.gz", [{**header_dict(), "comment": "hi"}, "", good_entry, "  "]
    )
    assert read_certificate(path).entries == (MoveEntry("000000000", 4),)


def test_unreadable_files(tmp_path: Path) -> None:
    plain = tmp_path / "plain.jsonl"
    plain.write_text(json.dumps(header_dict()) + "\n")
    with pytest.raises(CertificateFileError, match="not a gzip file"):
        read_certificate(plain)
    text = (
        json.dumps(header_dict())
        + "\n"
        + (json.dumps({"position": "0" * 9, "move": 4}) + "\n") * 200
    )
    data = gzip.compress(text.encode())
    truncated = tmp_path / "truncated.gz"
    truncated.write_bytes(data[: len(data) // 2])
    with pytest.raises(CertificateFileError, match="truncated or corrupt"):
        verify_certificate(truncated)
    binary = tmp_path / "binary.gz"
    binary.write_bytes(gzip.compress(b"\xff\xfe\x00garbage\n"))
    with pytest.raises(CertificateFileError, match="not UTF-8"):
        read_certificate(binary)
    with pytest.raises(CertificateFileError, match="cannot read"):
        read_certificate(tmp_path / "missing.gz")


def test_writer_refuses_bad_entries(tmp_path: Path) -> None:
    header = StrategyHeader.for_board("3x3", "x", "win")
    path = tmp_path / "w.gz"
    with pytest.raises(CertificateEntryError, match="entry 2: move 12"):
        write_certificate(path, header, [MoveEntry("000000000", 4), MoveEntry("120000000", 12)])
    with pytest.raises(CertificateEntryError, match="only in no-loss"):
        write_certificate(path, header, [PairingEntry("100000000", ((0, 1),))])
    assert not list(tmp_path.iterdir())
    with pytest.raises(CertificateHeaderError):
        StrategyHeader((3, 3), 3, "z", "win")  # type: ignore[arg-type]
    with pytest.raises(CertificateHeaderError, match="does not fit"):
        StrategyHeader((3, 3), 5, "x", "win")


# -- the command ------------------------------------------------------------------------------------


def test_verify_command(tmp_path: Path) -> None:
    from oxo.cli.verify import verify

    runner = CliRunner()
    good = write(tmp_path / "good.gz", "3x4", "x", "win", strategy_entries("3x4", "x"))
    result = runner.invoke(verify, [str(good)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(
        "valid: X wins — the strategy for X on 3x4 (k=3) wins against every defence; "
    )
    assert "positions checked" in result.output and "moves of X" in result.output
    result = runner.invoke(verify, [str(good), "--json"])
    data = json.loads(result.output)
    assert (
        result.exit_code == 0
        and data["valid"] is True
        and data["side"] == "x"
        and data["guarantee"] == "win"
    )

    bad = write(
        tmp_path / "bad.gz",
        "3x3",
        "o",
        "no-loss",
        [e for e in strategy_entries("3x3", "o") if e.position != "000010000"],
    )
    result = runner.invoke(verify, [str(bad)])
    assert result.exit_code == 1
    assert result.output.startswith("invalid: missing position") and " ".join(
        result.output.split()
    ).endswith("at position 000010000")
    result = runner.invoke(verify, [str(bad), "--json"])
    data = json.loads(result.output)
    assert (
        result.exit_code == 1 and data["valid"] is False and data["failure_position"] == "000010000"
    )
    assert data["failure_path"] == [4]


def test_verify_through_main(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import oxo.cli
    from oxo.cli import main

    monkeypatch.setitem(oxo.cli.TOPICS, "verify", ("verify",))  # until the command is registered
    good = write(tmp_path / "good.gz", "3x3", "x", "no-loss", strategy_entries("3x3", "x"))
    assert main(["verify", str(good)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("valid: X does not lose") and "every defence; 23 positions" in " ".join(
        out.split()
    )
    assert max(map(len, out.splitlines())) <= 80 and len(out.splitlines()) > 1
    bad = write(tmp_path / "bad.gz", "3x3", "x", "win", strategy_entries("3x3", "x"))
    assert main(["verify", str(bad)]) == 1
    assert capsys.readouterr().out.startswith("invalid: the board is full")
    malformed = write_raw(tmp_path / "malformed.gz", [{**header_dict(), "format": "nope"}])
    assert main(["verify", str(malformed)]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("oxo: error: ")
        and "not an oxo-strategy/1 certificate" in err
        and err.count("\n") == 1
    )
    plain = tmp_path / "plain.txt"
    plain.write_text("hello\n")
    assert main(["verify", str(plain)]) == 2
    assert "not a gzip file" in capsys.readouterr().err
    assert main(["verify", str(tmp_path / "missing.gz")]) == 2
    assert "cannot read" in capsys.readouterr().err


@settings(max_examples=60, deadline=None)
@given(
    spec=st.sampled_from(["3x3", "4x4", "5x5,k=4", "4x5,k=3", "3x3x3"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_pairing_check_agrees_with_its_definition(spec: str, seed: int) -> None:
    """The checker's pairing test (sets of lines as bits) against the plain reading of the rule:
    every line with no mark of the side holds both cells of some pair."""
    from oxo.proofs.certificate import _Checker

    geometry = Geometry.parse(spec)
    rng = random.Random(seed)
    cells = list(geometry.cells)
    rng.shuffle(cells)
    own = sum(1 << cell for cell in cells[: rng.randint(0, geometry.size // 2)])
    free = cells[own.bit_count() :]
    pairing = tuple(
        (free[i], free[i + 1]) for i in range(0, rng.randint(len(free) // 4, len(free) // 2) * 2, 2)
    )
    checker = _Checker(StrategyHeader(geometry.shape, geometry.k, "o", "no-loss"))
    problem = checker.pairing_problem(own, own, pairing)
    masks = [1 << a | 1 << b for a, b in pairing]
    open_lines = [
        line
        for line in geometry.lines
        if not line & own and not any(line & pair == pair for pair in masks)
    ]
    if not open_lines:
        assert problem is None
    else:
        first = "-".join(map(str, mask_cells(open_lines[0])))
        assert problem is not None and f"the line {first} holds" in problem


def test_a_4d_certificate_is_checked_by_both_checkers(tmp_path: Path) -> None:
    """dims of length 4: X wins 2x2x2x2 with k=2 at its second move (every two cells are a line),
    as a one-entry certificate both checkers accept, and a wrong move both refuse."""

    for move, valid in ((0, True), (None, False)):
        path = tmp_path / f"c{move}.jsonl.gz"
        header = StrategyHeader((2, 2, 2, 2), 2, "x", "win")
        entries = [] if move is None else [{"position": "0" * 16, "move": move}]
        write_certificate(path, header, entries)
        assert verify_certificate(path).valid is valid
        run = run_checker(path)
        assert run.returncode == (0 if valid else 1), run.stdout + run.stderr


def test_gravity_certificates_are_checked_with_gravitys_moves(tmp_path: Path) -> None:
    """A win of X on 2x2x2 with gravity and k=2 (every two cells make a line): the certificate's
    header says gravity, a move to a floating cell fails in both checkers, and X's win there is
    accepted by both; without the gravity key the same entries are checked as a board without
    gravity."""

    from oxo.geometry import Geometry

    geometry = Geometry.parse("2x2x2,k=2,gravity")
    header = StrategyHeader.for_board(geometry, "x", "win")
    assert header.gravity and header.to_dict()["gravity"] is True
    assert StrategyHeader.from_dict(header.to_dict()) == header
    for move, valid in ((4, True), (0, False)):  # cell 4 is on the bottom layer, cell 0 floats
        path = tmp_path / f"g{move}.jsonl.gz"
        write_certificate(path, header, [{"position": "0" * 8, "move": move}])
        checked = verify_certificate(path)
        assert checked.valid is valid, checked
        run = run_checker(path)
        assert run.returncode == (0 if valid else 1), run.stdout + run.stderr
        if not valid:
            assert "lowest empty cell" in str(checked) and "lowest empty cell" in run.stdout
    with pytest.raises(Exception, match="gravity must be"):
        StrategyHeader.from_dict({**header.to_dict(), "gravity": "yes"})


def test_rules_on_a_board_with_gravity_are_refused_by_both_checkers(tmp_path: Path) -> None:
    """The rules speak of cells (a threat cell is taken by the block), which gravity does not allow
    where a cell is not yet playable: a header with gravity that names rules is refused by oxo's
    checker and by the checker without oxo (docs/proofs.md, "Boards with gravity")."""
    from oxo.geometry import Geometry

    header = StrategyHeader.for_board(Geometry.parse("2x2x2,k=2,gravity"), "x", "win").to_dict()
    with pytest.raises(CertificateHeaderError, match="not defined on a board with gravity"):
        StrategyHeader.from_dict({**header, "rules": {"block": True, "chain": 4}})
    path = tmp_path / "gravity-rules.jsonl.gz"
    lines = [{**header, "rules": {"block": True, "chain": 4}}, {"position": "0" * 8, "move": 4}]
    path.write_bytes(gzip.compress("".join(json.dumps(line) + "\n" for line in lines).encode()))
    with pytest.raises(CertificateHeaderError, match="not defined on a board with gravity"):
        verify_certificate(path)
    run = run_checker(path)
    assert run.returncode == 2 and "not defined on a board with gravity" in run.stderr, run.stderr
