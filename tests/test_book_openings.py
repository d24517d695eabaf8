"""Perfect play on a board no one has proved, from the certificates of the openings its run has
settled (``oxo.book.play.OpeningsBook``): the openings of a 6x5 (k = 4) run made here, each
certificate written from the run and found in oxo's cache, X played from them against many
defences (each game won, every move of X from a certificate), and no move where no certificate
reaches, with the reason; on 4x4x4x4 the book's own openings, through the registry and the
command line."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from book_rows import checked_row
from oxo.book import BookOpening, OpenBoard, OpenQuestion, openings_row
from oxo.book.play import OpeningsBook, board_book, prepare_opening
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.proofs.certificate import status_masks
from oxo.proofs.runs import RunOptions, proved_openings, write_opening_certificate
from oxo.proofs.solver import prove_board
from oxo.registry import find_game
from oxo.reports import analyze
from positions import blocking, blocking_x

SPEC = "6x5,k=4"


def _settled_openings(base: Path, spec: str, board_args: str, split_plies: int) -> OpenBoard:
    """The openings a split run of ``spec`` settled, as an open board of the book would list
    them; their certificates written into ``base / "cache" / "certificates"``."""
    geometry = Geometry.parse(spec)
    options = RunOptions(workers=1, probe_seconds=0, slice_nodes=200, split_plies=split_plies)
    result = prove_board(geometry, seconds=None, proof_dir=base / "run", run=options)
    folder = Path(result.proofs[0]).parent
    certificates = base / "cache" / "certificates"
    certificates.mkdir(parents=True)
    rows = []
    for opening in proved_openings(folder):
        path = certificates / opening.certificate_name(geometry)
        write_opening_certificate(folder, opening, path)
        certificate = checked_row(path, geometry.spec_shape)
        assert (certificate.side, certificate.guarantee) == (opening.side, opening.guarantee)
        rows.append(
            BookOpening(
                opening.moves, opening.position, opening.side, opening.guarantee, certificate
            )
        )
    return OpenBoard(
        board=spec,
        shape=geometry.shape,
        k=geometry.k,
        gravity=False,
        published="none",
        board_args=board_args,
        run=str(folder),
        command="",
        sessions=1,
        date="2026-11-30",
        seconds=0.0,
        worker_seconds=0.0,
        positions=0,
        jobs=0,
        questions=(OpenQuestion("x", len(rows), 0, 0, 0, 0, (), (), ()),),
        openings=tuple(rows),
    )


@pytest.fixture(scope="module")
def six_by_five(tmp_path_factory: pytest.TempPathFactory) -> tuple[OpenBoard, Path]:
    """The openings a split run of 6x5 (k = 4) settled (X wins), and the cache folder whose
    ``certificates`` holds their files."""
    base = tmp_path_factory.mktemp("openings")
    board = _settled_openings(base, SPEC, "6x5 --k 4", split_plies=2)
    assert any(row.side == "x" and row.guarantee == "win" for row in board.openings)
    return board, base / "cache"


@pytest.fixture(scope="module")
def four_by_four(tmp_path_factory: pytest.TempPathFactory) -> tuple[OpenBoard, Path]:
    """The openings a split run of 4x4 (a draw) settled, one move in: after X on the corner 0,
    neither side loses; and the cache folder of their certificates."""
    base = tmp_path_factory.mktemp("openings-4x4")
    board = _settled_openings(base, "4x4", "4x4", split_plies=1)
    assert {(o.moves, o.side) for o in board.openings} >= {((0,), "x"), ((0,), "o")}
    return board, base / "cache"


def _start(opening: BookOpening, geometry: Geometry, turn: int) -> Position:
    """The opening's position, or its image under the ``turn``-th symmetry of the board."""
    symmetry = geometry.symmetries[turn % len(geometry.symmetries)]
    x, o = status_masks(opening.position)
    return Position(geometry, symmetry.apply_mask(x), symmetry.apply_mask(o))


def test_x_wins_from_every_settled_opening_it_wins(
    six_by_five: tuple[OpenBoard, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    board, cache = six_by_five
    monkeypatch.setenv("OXO_CACHE", str(cache))
    geometry = Geometry.parse(SPEC)
    rng = random.Random(30)
    wins = [opening for opening in board.openings if opening.guarantee == "win"]
    assert wins
    for number, opening in enumerate(wins):
        for game in range(6):
            book = OpeningsBook(board, build=True)
            position = _start(opening, geometry, 3 * number + game)
            while not position.is_terminal:
                if position.to_move == opening.side:
                    advice = book.advise(position)
                    assert advice.move is not None, advice.note
                    assert advice.value == opening.side and opening.certificate.file in advice.note
                    cell = advice.move
                else:  # half the games the other side blocks where it can, the others at random
                    cell = blocking_x(position) if game % 2 else None
                    if cell is None:
                        cell = rng.choice(list(position.empty_cells))
                position = position.play(cell)
            assert position.winner == opening.side, (opening.moves, game)


def test_no_move_where_no_certificate_reaches_and_it_says_why(
    six_by_five: tuple[OpenBoard, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No move at the empty board (no opening below it), nor off the certificate (X's own move
    elsewhere led there), nor while the index is not built and may not be: each note says why,
    the last with the command that builds it."""
    board, cache = six_by_five
    geometry = Geometry.parse(SPEC)
    monkeypatch.setenv("OXO_CACHE", str(cache))
    book = OpeningsBook(board, build=True)
    empty = Position.empty(geometry)
    advice = book.advise(empty)  # no settled opening is below the empty board
    assert advice.move is None and "no position oxo's run has settled for X" in advice.note
    opening = next(o for o in board.openings if o.side == "x")
    x, o = status_masks(opening.position)
    start = Position(geometry, x, o)
    if start.to_move != "x":
        start = start.play(next(iter(start.empty_cells)))
    chosen = book.advise(start).move
    assert chosen is not None
    # off the certificate: X's own move elsewhere, and a reply, led here
    stray = next(c for c in start.empty_cells if c != chosen and not start.play(c).is_terminal)
    after = start.play(stray)
    off = after.play(next(c for c in after.empty_cells if blocking_x(after) in (None, c)))
    found = book.advise(off)
    assert found.move is None and "off X's certificates" in found.note, found
    # without its index, and not allowed to build one: the command that builds it
    monkeypatch.setenv("OXO_CACHE", str(tmp_path / "empty-cache"))
    (tmp_path / "empty-cache" / "certificates").mkdir(parents=True)
    for row in board.openings:
        source = cache / "certificates" / row.certificate.file
        (tmp_path / "empty-cache" / "certificates" / row.certificate.file).write_bytes(
            source.read_bytes()
        )
    unbuilt = OpeningsBook(board, build=False)
    below = _start(opening, geometry, 0)
    if below.to_move != "x":
        below = below.play(next(iter(below.empty_cells)))
    note = unbuilt.advise(below).note
    assert "needs an index" in note and "oxo book 6x5 --k 4 --index --opening " in note, note
    deeper = below.play(min(below.empty_cells))  # below the opening: the index would tell
    assert "needs an index" in (unbuilt.unknown_note(deeper) or "")
    named = note.split("--opening ")[1].split()[0]  # the opening whose certificate it needs
    assert board.opening_named(named) is not None and "without --opening" in note
    from oxo.cli.book import _make_opening_indexes

    _make_opening_indexes(board, "x", quiet=True)  # what 'oxo book BOARD --index' does
    assert prepare_opening(board, opening) is not None  # its player, from the index just built
    assert OpeningsBook(board, build=False).advise(below).move is not None


@pytest.mark.usefixtures("no_quick_index")
def test_the_registry_gives_4x4x4x4_the_book_of_its_openings() -> None:
    """4x4x4x4's book is the openings its run settled first (its own certificate is too big to
    ship, and not rebuilt here; a proved board's otherwise stays a BoardBook; a board with
    neither has none): perfect falls back to hard with the reason where no index is built."""
    opened = openings_row("4x4x4x4")
    assert opened is not None and opened.openings
    book = find_game("4x4x4x4").proof_book()
    assert isinstance(book, OpeningsBook)
    assert f"{len(opened.openings)} openings" in book.summary
    assert board_book("9x9,k=5") is None
    start = Position.empty(Geometry.parse("4x4x4x4"))
    assert book.advise(start).move is None  # nothing is settled at the empty board
    opening = opened.openings[0]
    x, o = status_masks(opening.position)
    position = Position(start.geometry, x, o)
    engine = find_game("4x4x4x4").make_engine("perfect", position, seconds=0.05, seed=1)
    assert engine.choose(position) in position.empty_cells  # this test's cache: no index
    assert engine.last is not None and "perfect falls back" in engine.last.engine
    assert "needs an index" in engine.last.engine and "oxo book 4x4x4x4 --index" in (
        engine.last.engine
    )


def test_index_on_an_open_board_builds_its_openings(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``oxo book 4x4x4x4 --index`` builds the index of each settled opening's certificate
    (``--side o``: none yet, said with exit 2; ``--opening 0-3``: that one's only, a name that
    is no settled opening refused by name)."""
    import oxo.cli.book as cli_book
    from oxo.cli import main

    opened = openings_row("4x4x4x4")
    assert opened is not None
    built: list[str] = []
    monkeypatch.setattr(
        cli_book, "_build", lambda certificate, quiet, make: built.append(certificate.file)
    )
    assert main(["book", "4x4x4x4", "--index"]) == 0
    assert built == [opening.certificate.file for opening in opened.openings]
    capsys.readouterr()
    assert main(["book", "4x4x4x4", "--index", "--side", "o", "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert "settled no opening for O yet" in error
    built.clear()
    chosen = opened.openings[-1]
    assert main(["book", "4x4x4x4", "--index", "--opening", chosen.name]) == 0
    assert built == [chosen.certificate.file]  # that one only
    capsys.readouterr()
    for args, words in (
        (["4x4x4x4", "--index", "--opening", "0-2"], "--opening: '0-2' is not a settled opening"),
        (["4x4x4x4", "--opening", chosen.name], "go with --index"),
        (["3x3x3", "--index", "--opening", "0-3"], "--opening goes with a board whose run"),
    ):
        assert main(["book", *args, "--json"]) == 2
        assert words in json.loads(capsys.readouterr().out)["error"]
    assert len(built) == 1


def test_a_position_below_a_settled_opening_has_its_value(
    six_by_five: tuple[OpenBoard, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What ``oxo analyze`` says (``proven_value``): a position below a settled opening that its
    certificate covers (indexed) has the certificate's value; one it does not cover, none."""
    import oxo.book.play as play

    board, cache = six_by_five
    monkeypatch.setenv("OXO_CACHE", str(cache))
    # 6x5 (k = 4) is in the book, proved: here it stands for a board being proved
    monkeypatch.setattr(play, "openings_row", lambda name: board if name == SPEC else None)
    monkeypatch.setattr(play, "book_entry", lambda name: None)
    geometry = Geometry.parse(SPEC)
    opening = next(o for o in board.openings if o.guarantee == "win")
    start = _start(opening, geometry, 5)
    book = OpeningsBook(board, build=True)
    if start.to_move != opening.side:
        start = start.play(max(start.empty_cells))
    covered = start.play(book.advise(start).move)  # type: ignore[arg-type]  # a move: asserted below
    for position in (start, covered):
        value = play.proven_value(position, build=False)
        assert value is not None and value.outcome == opening.side, position
        assert opening.certificate.file in value.by
    assert play.proven_value(Position.empty(geometry), build=False) is None
    chosen = book.advise(start).move
    stray = next(c for c in start.empty_cells if c != chosen and not start.play(c).is_terminal)
    after = start.play(stray)
    off = after.play(next(c for c in after.empty_cells if blocking_x(after) in (None, c)))
    assert book.advise(off).move is None
    assert play.proven_value(off, build=False) is None
    # what is known instead, said by 'oxo analyze': the opening's value, and that the position
    # is off its certificate's strategy; none below a covered position or the opening itself
    note = play.unknown_note(off)
    assert note is not None and opening.certificate.file in note, note
    assert f"({opening.value_words}), but this position is off the strategy" in note
    assert all(play.unknown_note(p) is None for p in (start, covered, Position.empty(geometry)))
    looks = []
    frames_under = OpeningsBook.frames_under
    monkeypatch.setattr(
        OpeningsBook, "frames_under", lambda self, p: looks.append(p) or frames_under(self, p)
    )
    out_of_reach = analyze(off, max_empty=0).out_of_reach or ""
    assert out_of_reach.endswith(f"; {note}"), out_of_reach
    assert looks == [off]  # the value and the note from one look for the openings under it
    assert play.book_answer(off, build=False) == play.BookAnswer(None, note)
    assert play.book_answer(covered, build=False).note is None


@pytest.mark.usefixtures("no_quick_index")
def test_perfect_on_a_terminal_offers_to_index_the_opening_it_needs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """'oxo move POSITION --level perfect' on a terminal, where a settled opening of 4x4x4x4 leads
    to the position and its index is not built: asked once, built when accepted; not asked at
    the empty board, at the level best, or off a terminal."""
    from types import SimpleNamespace

    import click

    import oxo.cli.book as cli_book
    from oxo.cli.book import prepare_perfect

    opened = openings_row("4x4x4x4")
    assert opened is not None
    opening = opened.openings[0]
    game = find_game("4x4x4x4")
    empty = Position.empty(Geometry.parse("4x4x4x4"))
    position = Position(empty.geometry, *status_masks(opening.position))
    built: list[str] = []
    asked: list[str] = []
    answers = iter([True, False])
    monkeypatch.setattr(cli_book, "_build", lambda c, quiet, make: built.append(c.file))
    monkeypatch.setattr(click, "confirm", lambda text, err: asked.append(text) or next(answers))
    terminal = SimpleNamespace(isatty=lambda: True)
    monkeypatch.setattr(cli_book, "sys", SimpleNamespace(stdin=terminal, stderr=terminal))
    prepare_perfect(game, ["x"], position=position)
    assert built == [opening.certificate.file]
    assert opening.certificate.file in asked[0] and max(map(len, asked[0].splitlines())) <= 71
    prepare_perfect(game, ["x"], position=position)  # declined: nothing built
    assert len(built) == 1 and len(asked) == 2
    prepare_perfect(game, ["x"], position=empty)  # no settled opening leads there
    prepare_perfect(game, ["x"], position=position, level="best")
    prepare_perfect(game, ["o"], position=position)  # no opening settled for O
    assert len(asked) == 2
    piped = SimpleNamespace(isatty=lambda: False)
    monkeypatch.setattr(cli_book, "sys", SimpleNamespace(stdin=piped, stderr=piped))
    prepare_perfect(game, ["x"], position=position)
    assert len(asked) == 2


def test_an_inside_out_image_of_an_opening_is_played_in_its_frame(
    four_by_four: tuple[OpenBoard, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """On 4x4 the inside-out map (1,0,3,2) carries the corner 0 to the middle cell 5 and every
    line onto a line, which no rotation or reflection does: the openings settled after X on 0
    are found under X on 5 in that map's frame, and each side plays its certificate from there
    (neither loses a game, every move from the book, the note naming the map); the position's
    value is the opening's."""
    import oxo.book.play as play

    board, cache = four_by_four
    monkeypatch.setenv("OXO_CACHE", str(cache))
    geometry = Geometry.parse("4x4")
    assert all(s.perm[0] != 5 for s in geometry.symmetries)
    start = Position(geometry, 1 << 5, 0)
    book = OpeningsBook(board, build=True)
    found = {(m.opening.moves, m.opening.side, m.frame.name) for m in book.frames_under(start)}
    assert ((0,), "o", "inside-out(1,0,3,2)") in found or ((0,), "o", "inside-out(2,3,0,1)") in (
        found
    ), found
    rng = random.Random(44)
    for side in ("o", "x"):
        for game in range(6):
            book = OpeningsBook(board, build=True)
            position = start
            while not position.is_terminal:
                if position.to_move == side:
                    advice = book.advise(position)
                    assert advice.move is not None, advice.note
                    assert "renamed by inside-out" in advice.note or position != start
                    cell = advice.move
                else:  # half the games the other side blocks where it can, the others at random
                    cell = blocking(position, side) if game % 2 else None
                    if cell is None:
                        cell = rng.choice(list(position.empty_cells))
                position = position.play(cell)
            assert position.winner in (None, side), (side, game)
    monkeypatch.setattr(play, "openings_row", lambda name: board if name == "4x4" else None)
    monkeypatch.setattr(play, "book_entry", lambda name: None)
    value = play.proven_value(start, build=False)
    assert value is not None and value.bound in ("X does not lose", "O does not lose")
    assert "renamed by inside-out" in value.by


@pytest.mark.usefixtures("no_quick_index")
def test_perfect_in_a_terminal_game_offers_each_openings_index_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """'oxo play 4x4x4x4 --level perfect' on a terminal: when the game reaches a settled opening
    whose index is not built, the computer's side is offered it (once a game, declined here);
    no offer before, at the level hard, or on a proved board."""
    from types import SimpleNamespace

    import click

    import oxo.cli.book as cli_book
    import oxo.cli.session as session
    from oxo.cli import main

    opened = openings_row("4x4x4x4")
    assert opened is not None
    opening = opened.openings[0]
    hooks: list[object] = []
    monkeypatch.setattr(session, "play", lambda game, kinds, **kw: hooks.append(kw["before_move"]))
    asked: list[str] = []
    monkeypatch.setattr(click, "confirm", lambda text, err: asked.append(text) or False)
    built: list[str] = []
    monkeypatch.setattr(cli_book, "_build", lambda c, quiet, make: built.append(c.file))
    terminal = SimpleNamespace(isatty=lambda: True)
    monkeypatch.setattr(cli_book, "sys", SimpleNamespace(stdin=terminal, stderr=terminal))
    assert main(["play", "4x4x4x4", "--level", "perfect", "--as", "o"]) == 0
    offer = hooks[-1]
    assert callable(offer)
    empty = Position.empty(Geometry.parse("4x4x4x4"))
    offer(empty)  # nothing settled leads to the empty board
    assert asked == []
    position = Position(empty.geometry, *status_masks(opening.position))
    offer(position)
    assert len(asked) == 1 and opening.certificate.file in asked[0]
    deeper = position.play(max(position.empty_cells)).play(min(position.empty_cells))
    offer(deeper)  # the same certificate: not asked again in this game
    assert len(asked) == 1 and built == []
    for args in (["4x4x4x4", "--level", "hard"], ["3x3", "--level", "perfect"]):
        assert main(["play", *args]) == 0
        assert hooks[-1] is None
