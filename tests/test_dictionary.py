"""Patashnik's dictionary of Qubic (oxo.proofs.dictionary): read as its notice describes it, and
walked with his rules, a slice of the game at a time, against a plain walk written from the rules."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from checkers import checker_verdict
from oxo.errors import DictionaryError
from oxo.geometry import Geometry, Symmetry
from oxo.position import Position
from oxo.proofs import dictionary
from oxo.proofs.certificate import status_masks
from oxo.proofs.dictionary import DictionaryWalker, parse_position, read_dictionary
from oxo.proofs.rules import ChainSearch, threats
from oxo.proofs.symmetry import search_symmetries

ROOT = Path(__file__).resolve().parents[1]
DICTIONARY = ROOT / "data" / "qubic-patashnik.dictionary"
QUBIC = Geometry.parse("4x4x4")


@pytest.fixture(scope="module")
def moves():  # type: ignore[no-untyped-def]  # the dictionary's lines
    return read_dictionary(DICTIONARY)


#: The slices walked below start five moves of X in: the lines with fewer marks cannot be met.
MARKS = 5


@pytest.fixture(scope="module")
def deep(moves):  # type: ignore[no-untyped-def]  # the lines a slice can meet
    return [m for m in moves if m.x.bit_count() >= MARKS]


@pytest.fixture(scope="module")
def walker(deep) -> DictionaryWalker:  # type: ignore[no-untyped-def]
    return DictionaryWalker(QUBIC, deep)


@pytest.fixture(scope="module")
def book(deep) -> dict[tuple[int, int], tuple[int, int]]:  # type: ignore[no-untyped-def]
    """Every image of every line a slice can meet under the 192 automorphisms: position -> (move,
    line)."""
    images: dict[tuple[int, int], tuple[int, int]] = {}
    for perm in search_symmetries(QUBIC):
        symmetry = Symmetry("s", perm)
        for move in deep:
            image = (symmetry.apply_mask(move.x), symmetry.apply_mask(move.o))
            images.setdefault(image, (perm[move.move], move.number))
    return images


def test_the_dictionary_has_the_lines_its_notice_promises(moves) -> None:  # type: ignore[no-untyped-def]
    notice = DICTIONARY.read_text(encoding="utf-8").split("\n-----")[0]
    promised = re.search(r"there are (\d+) lines", notice)
    assert promised is not None and len(moves) == int(promised[1]) == 2929
    assert moves[0].text == "" and moves[0].x == moves[0].o == 0  # the empty board first
    assert all(m.x.bit_count() == m.o.bit_count() for m in moves)


def test_every_line_is_a_strategic_move(moves, walker) -> None:  # type: ignore[no-untyped-def]
    """Line by line, what makes a move *strategic* in Patashnik's sense: X's move is an empty cell,
    the game is not over and no earlier rule gives the move (X has nothing to complete, O nothing
    X must block); no two lines are one position up to the 192 automorphisms; and (on a slice, every
    25th line: the whole takes some 15 s) X has no forced win there, so a certificate's rules,
    which put the forced chain before the entries, play his line too."""
    failing = [
        m.number
        for m in moves
        if (m.x | m.o) >> m.move & 1
        or threats(QUBIC.lines, m.x, m.o)
        or threats(QUBIC.lines, m.o, m.x)
        or any(line & m.x == line or line & m.o == line for line in QUBIC.lines)
    ]
    assert failing == []
    whole = DictionaryWalker(QUBIC, moves, symmetries=walker.symmetries)
    assert len(whole.dictionary) == len(moves)  # one line per class
    search = ChainSearch(QUBIC.lines)
    assert not any(search.exists(m.x, m.o, 32) for m in moves[::25])


def test_the_notation_reads_the_notice_example_as_its_drawing() -> None:
    notice = DICTIONARY.read_text(encoding="utf-8").split("\n-----")[0]
    example = re.search(r"\n\t(\S+) (\d+)\n", notice)
    assert example is not None
    # The drawing below the example: four boards side by side, a row of each per line.
    drawing = notice[notice.index("This represents the position") :].splitlines()[1:5]
    cells = [row.split() for row in drawing]
    x = o = 0
    blank = None
    for row, marks in enumerate(cells):
        assert len(marks) == 16
        for index, mark in enumerate(marks):
            board, column = divmod(index, 4)
            cell = 16 * board + 4 * row + column  # the notice's numbering, boards left to right
            x |= (mark == "x") << cell
            o |= (mark == "o") << cell
            if mark == "_":
                blank = cell
    assert parse_position(example[1], 64) == (x, o)
    assert blank == int(example[2])  # the move, drawn as an underscore


def test_bad_lines_are_named(tmp_path: Path) -> None:
    for line, message in (
        ("xo1q 3", "'q' is not x, o or a number"),
        ("xx1o 3", "2 marks of X and 1 of O"),
        ("xo 0", "move 0 is not an empty cell"),
        ("xo61xo 3", "more than 64 cells"),
        ("xo", "not a position and a move"),
    ):
        path = tmp_path / "d.txt"
        path.write_text(f"notice\n-----\n 0\n{line}\n")
        with pytest.raises(DictionaryError, match="line 4") as error:
            read_dictionary(path)
        assert message in str(error.value)
    (tmp_path / "n.txt").write_text(" 0\n")
    with pytest.raises(DictionaryError, match="no line of dashes"):
        read_dictionary(tmp_path / "n.txt")


def plain_walk(book, x: int, o: int) -> tuple[bool, int, set[int], int]:  # type: ignore[no-untyped-def]
    """Patashnik's rules written out over Position objects: (complete, classes where X needed the
    dictionary or a forced win, dictionary lines used, forced wins). A position is in the
    dictionary when it is an image of a line under one of the 192 automorphisms (``book``); the
    forced win by the chain search (held to its definition in tests/test_rules.py)."""
    chains = ChainSearch(QUBIC.lines)
    seen: dict[Position, bool] = {}
    used: set[int] = set()
    forced = [0]

    def x_moves(position: Position) -> bool:
        if position.winning_moves("x"):
            return True
        blocks = position.winning_moves("o")
        if len(blocks) > 1:
            return False
        if blocks:
            return o_moves(position.play(blocks[0]))
        key = position.canonical
        if key in seen:
            return seen[key]
        found = book.get((position.x, position.o))
        if found is not None:
            used.add(found[1])
            seen[key] = result = o_moves(position.play(found[0]))
            return result
        result = chains.exists(position.x, position.o, 32)
        forced[0] += result
        seen[key] = result
        return result

    o_seen: dict[Position, bool] = {}

    def o_moves(position: Position) -> bool:
        key = position.canonical
        if key not in o_seen:
            o_seen[key] = all(
                not child.winner and x_moves(child)
                for child in (position.play(cell) for cell in position.legal_moves)
            )
        return o_seen[key]

    start = Position.from_statuses(
        QUBIC, [1 if x >> c & 1 else 2 if o >> c & 1 else 0 for c in range(64)]
    )
    complete = x_moves(start)
    return complete, len(seen), used, forced[0]


@pytest.mark.parametrize("line", [2862, 1064])
def test_a_slice_of_the_walk_agrees_with_a_plain_walk(moves, walker, book, line: int) -> None:  # type: ignore[no-untyped-def]
    root = next(m for m in moves if m.number == line)
    walk = walker.walk(root.x, root.o)
    assert walk.complete and walk.failure is None
    complete, positions, used, forced = plain_walk(book, root.x, root.o)
    # Position.canonical knows the 48 rotations and reflections only, so the plain walk may count
    # a class of the 192 more than once; the lines used and the verdict are the same.
    assert complete and set(walk.used) == used and line in used
    assert walk.positions <= positions and walk.forced_wins <= forced
    assert walk.longest_chain >= 1
    search = ChainSearch(QUBIC.lines)
    assert not search.exists(root.x, root.o, 32)  # a dictionary line is needed: no forced win


def test_a_gap_in_the_dictionary_is_found_with_the_line_that_leads_there(deep, walker) -> None:  # type: ignore[no-untyped-def]
    root = next(m for m in deep if m.number == 1064)
    walk = walker.walk(root.x, root.o)
    assert walk.complete and len(walk.used) > 1
    missing = walk.used[-1] if walk.used[-1] != 1064 else walk.used[0]
    walker.dictionary = {key: kept for key, kept in walker.dictionary.items() if kept[1] != missing}
    try:
        broken = walker.walk(root.x, root.o)
    finally:
        walker.__init__(QUBIC, deep)  # type: ignore[misc]  # the fixture's walker, whole again
    assert not broken.complete and broken.failure is not None
    assert broken.failure.startswith("no rule gives X a move")
    assert broken.failure_position is not None and broken.failure_line is not None
    # The line leads from the root to the position named, X and O by turns.
    x, o = root.x, root.o
    for ply, cell in enumerate(broken.failure_line):
        assert not (x | o) >> cell & 1
        if ply % 2 == 0:
            x |= 1 << cell
        else:
            o |= 1 << cell
    assert (x, o) == status_masks(broken.failure_position)
    # There X has no threat, O none, the position is missing line `missing`'s class.
    assert not threats(QUBIC.lines, x, o) and not threats(QUBIC.lines, o, x)


def test_the_walk_played_out_counts_a_complete_dictionary(deep, walker) -> None:  # type: ignore[no-untyped-def]
    root = next(m for m in deep if m.number == 2296)
    short = walker.walk(root.x, root.o)
    walker.expand = True
    try:
        full = walker.walk(root.x, root.o)
    finally:
        walker.expand = False
    assert full.complete and full.expanded is not None and short.expanded is None
    assert full.expanded["dictionary"] == len(full.used) == len(short.used)
    assert sum(full.expanded.values()) == full.positions > short.positions
    assert full.expanded["chain"] >= short.forced_wins


def test_progress_counts_every_class_of_x_in_turn(deep) -> None:  # type: ignore[no-untyped-def]
    """Progress is reported as each class with X to move is added, so none is passed over (a line
    of the dictionary is counted before the walk goes below it)."""
    seen: list[int] = []
    walker = DictionaryWalker(QUBIC, deep, on_progress=lambda x, o, used: seen.append(x), every=1)
    root = next(m for m in deep if m.number == 2862)
    walk = walker.walk(root.x, root.o)
    assert walk.complete and walk.positions > 1
    assert seen == list(range(1, walk.positions + 1))


def test_a_stopped_walk_goes_on_from_its_state_file(deep, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A walk stopped halfway (its state saved at every step) and started again with the same file
    ends with the verdict and the counts of a walk never stopped; a finished walk's file answers at
    once; another walk's file is refused."""
    root = next(m for m in deep if m.number == 2296)
    whole = DictionaryWalker(QUBIC, deep).walk(root.x, root.o)
    state = tmp_path / "walk.state"
    # A save at every step: written without the atomic writer's fsync, which would take seconds.
    monkeypatch.setattr(dictionary, "write_atomic", lambda path, data: Path(path).write_bytes(data))

    class Stop(Exception):
        pass

    def stop(positions: int, replies: int, used: int) -> None:
        if positions == whole.positions // 2:
            raise Stop

    with pytest.raises(Stop):
        DictionaryWalker(QUBIC, deep, on_progress=stop, every=1).walk(
            root.x, root.o, state=state, save_every=0.0
        )
    assert state.exists()
    again = DictionaryWalker(QUBIC, deep).walk(root.x, root.o, state=state)
    assert again == whole
    assert DictionaryWalker(QUBIC, deep).walk(root.x, root.o, state=state) == whole
    other = next(m for m in deep if m.number == 2862)
    with pytest.raises(DictionaryError, match="another walk"):
        DictionaryWalker(QUBIC, deep).walk(other.x, other.o, state=state)


def test_the_shipped_certificate_is_the_dictionary_unchanged(moves) -> None:  # type: ignore[no-untyped-def]
    """results/certificates/4x4x4-k4-x-win.rules.jsonl.gz holds Patashnik's lines, in the file's
    order, positions and moves unchanged (his notice asks for the moves unchanged), under the
    block and chain rules and the symmetries that make the board's 192 (its full check is recorded
    in results/certificate-checks.json: it takes longer than the suite may)."""
    from oxo.proofs.certificate import MoveEntry, read_certificate, status_string
    from oxo.proofs.rules import Rules
    from oxo.proofs.symmetry import extra_generators

    shipped = read_certificate(ROOT / "results" / "certificates" / "4x4x4-k4-x-win.rules.jsonl.gz")
    header = shipped.header
    assert (header.side, header.guarantee) == ("x", "win")
    assert header.rules == Rules(block=True, chain=32)
    assert header.symmetries == tuple(tuple(perm) for perm in extra_generators(QUBIC))
    assert len(header.group) == 192
    assert [(e.position, e.move) for e in shipped.entries if isinstance(e, MoveEntry)] == [
        (status_string(m.x, m.o, 64), m.move) for m in moves
    ]


def corrupted_copies(moves, folder: Path) -> list[Path]:  # type: ignore[no-untyped-def]
    """Copies of Qubic's certificate with rules, broken: the line that X needs after O's first
    reply (a corner, then the cell next to it) taken out, and the empty board's move changed to a
    cell the dictionary does not go on from."""
    import gzip

    from oxo.proofs.certificate import status_string

    shipped = ROOT / "results" / "certificates" / "4x4x4-k4-x-win.rules.jsonl.gz"
    with gzip.open(shipped, "rt", encoding="utf-8") as text:
        rows = text.read().splitlines()
    walker = DictionaryWalker(QUBIC, moves)
    key, _ = walker.canonical(1, 2)  # X in cell 0, O in cell 1: the first line looked up
    needed = walker.dictionary[key][1]
    needed_text = status_string(*next((m.x, m.o) for m in moves if m.number == needed), 64)
    gap = [row for row in rows if needed_text not in row]
    moved = [rows[0], rows[1].replace('"move":0', '"move":5'), *rows[2:]]
    assert len(gap) == len(rows) - 1 and moved != rows
    paths = []
    for name, body in (("gap", gap), ("moved", moved)):
        path = folder / f"{name}.jsonl.gz"
        with gzip.open(path, "wt", encoding="utf-8") as out:
            out.write("\n".join(body) + "\n")
        paths.append(path)
    return paths


def test_a_corrupted_copy_of_the_shipped_certificate_is_refused_where_it_breaks(
    moves,  # type: ignore[no-untyped-def]  # the dictionary's lines
    tmp_path: Path,
) -> None:
    """oxo's checker (with the compiled chain search and classes on Qubic) refuses the broken
    copies, naming the position with no entry."""
    from oxo.proofs.certificate import verify_certificate

    for path in corrupted_copies(moves, tmp_path):
        result = verify_certificate(path)
        assert not result.valid and result.failure is not None
        assert "missing position" in result.failure and result.failure_position is not None


@pytest.mark.slow
def test_the_checker_without_oxo_refuses_the_corrupted_copies_at_the_same_position(
    moves,  # type: ignore[no-untyped-def]  # the dictionary's lines
    tmp_path: Path,
) -> None:
    """tools/check_strategy.py names the position oxo's checker names (5 s a copy: the checker
    builds the 192 symmetries in plain Python)."""

    from oxo.proofs.certificate import verify_certificate

    for path in corrupted_copies(moves, tmp_path):
        position = verify_certificate(path).failure_position
        code, verdict = checker_verdict(path)
        assert code == 1 and not verdict["valid"], verdict
        assert position is not None and f"at position {position} " in verdict["failure"]
