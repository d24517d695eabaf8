"""oxo's proof book: the rows against the records they are written from, the certificates against
their SHA-256, the index against the checker's walk, and perfect play from the certificates
against every defence (on boards the exact solver settles whole, with it as the referee), with the
pairings found both ways (remembered during a game, and searched for from a position alone), and
never from a missing, truncated or altered file."""

from __future__ import annotations

import gzip
import json
import sys
from pathlib import Path

import pytest

import oxo.book as book
from book_rows import open_4x4x4x4
from checkers import checker_verdict
from oxo.book import (
    BookEntry,
    OpenBoard,
    book_entry,
    checked_certificate,
    open_board,
    open_boards,
    openings_row,
    proved_boards,
)
from oxo.book.index import build_index, index_folder, load_index
from oxo.book.play import BoardBook, StrategyPlayer, board_book, certificate_geometry, proven_value
from oxo.engines import RandomEngine
from oxo.engines.selfplay import play_game
from oxo.errors import CertificateUnavailableError
from oxo.fileio import digests
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.proofs.certificate import verify_certificate
from oxo.registry import find_game
from oxo.solve import solution_within

ROOT = Path(__file__).resolve().parents[1]
#: The boards whose certificates are small enough for the fast suite.
SMALL = ("3x3", "4x4", "3x3x3", "5x5,k=4", "7x7,k=5", "10x4,k=4")


def entry(name: str) -> BookEntry:
    """The book's row of a board written as a user writes it (``10x4,k=4`` is named ``10x4``)."""
    found = book_entry(find_game(name).name)
    assert found is not None, name
    return found


# -- the rows ----------------------------------------------------------------------------------------


def test_every_row_agrees_with_the_published_value_and_names_its_command() -> None:
    rows = proved_boards()
    names = [row.board for row in rows]
    for wanted in ("3x3", "7x7,k=5", "9x4", "4x9", "10x4", "4x10", "8x8,k=5"):
        assert wanted in names
    assert "4x4x4" in names and "6x7,k=4,gravity" in names
    for row in rows:
        # the same value as published, or a first: a board no one had published the value of
        assert row.value == row.published or row.published == "none", row.board
        assert row.value in ("x", "o", "draw")
        assert row.command.startswith("oxo solve ") and "--proof DIR" in row.command
        assert row.certificates, row.board
        wanted = {
            "x": {("x", "win")},
            "o": {("o", "win")},
            "draw": {("x", "no-loss"), ("o", "no-loss")},
        }
        if not row.gravity:
            sides = {(c.side, c.guarantee) for c in row.certificates}
            assert sides == wanted[row.value], row.board
        assert find_game(row.board).name == row.board


def test_the_rows_come_from_the_records() -> None:
    """Each row's value and figures are those of its record (results/solved.json, the kept runs,
    Connect Four's record): written by benchmarks/results_book.py, never typed."""
    solved = {
        row["spec"]: row
        for row in json.loads((ROOT / "results" / "solved.json").read_text())["boards"]
    }
    for row in proved_boards():
        if row.board in solved and solved[row.board]["value"] != "unknown":
            record = solved[row.board]
            assert (row.value, row.positions, row.seconds) == (
                record["value"],
                record["nodes"],
                record["wall_seconds"],
            )
    gravity = json.loads((ROOT / "results" / "solve-6x7-k4-gravity.json").read_text())
    c4 = entry("6x7,k=4,gravity")
    assert (c4.value, c4.ending_ply, c4.positions) == (gravity["value"], 41, gravity["nodes"])
    from oxo.proofs.runs import run_status

    qubic = run_status(ROOT / "results" / "runs" / "4x4x4")
    assert entry("4x4x4").value == qubic.value == "x"
    assert entry("4x4x4").positions == sum(q.positions for q in qubic.questions)
    assert entry("3x3").ending_ply == 9 and entry("4x4,k=3").ending_ply is not None


def test_every_certificate_here_is_the_one_the_book_names() -> None:
    """Every certificate file that ships (all but Qubic's) has the book's size and SHA-256, of
    the file and of the text it holds."""
    for row in proved_boards():
        for certificate in row.certificates:
            path = book.find_certificate(certificate)
            if certificate.shipped == "rebuilt":  # Qubic's, 4x4x4x4's: from the kept run
                assert certificate.make == f"oxo book {row.board_args} --index --all"
                assert certificate.run is not None
                assert (ROOT / certificate.run / "run" / "state.json").is_file()
                continue
            assert path is not None, certificate.file
            sums = digests(path)
            assert sums["bytes"] == certificate.bytes, certificate.file
            assert sums["sha256"] == certificate.sha256, certificate.file
            assert sums["sha256_uncompressed"] == certificate.sha256_text, certificate.file
            assert checked_certificate(certificate) == path


@pytest.mark.parametrize(
    "name", ["3x3", "4x4", "3x3x3", "5x5,k=4", pytest.param("7x7,k=5", marks=pytest.mark.slow)]
)
def test_a_small_shipped_certificate_passes_both_checkers(name: str) -> None:
    for certificate in entry(name).certificates:
        path = checked_certificate(certificate)
        result = verify_certificate(path)
        assert result.valid and result.entries == certificate.entries
        assert result.positions_checked == certificate.positions
        assert checker_verdict(path)[1]["valid"] is True


# -- the files: used only when their SHA-256 matches -------------------------------------------------


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Certificates looked for in an empty folder of this test only (and a cache of its own)."""
    folder = tmp_path / "certificates"
    folder.mkdir()
    monkeypatch.setattr(book, "certificate_folders", lambda: (folder,))
    monkeypatch.setenv("OXO_CACHE", str(tmp_path / "cache"))
    return folder


def test_a_missing_certificate_says_so_and_perfect_falls_back_to_hard(elsewhere: Path) -> None:
    row = entry("7x7,k=5")
    certificate = row.certificate_of("x")
    assert certificate is not None
    with pytest.raises(CertificateUnavailableError, match="not on this machine"):
        checked_certificate(certificate)
    game = find_game("7x7,k=5")
    engine = game.make_engine("perfect", game.start(), seconds=0.05, seed=1)
    move = engine.choose(game.start())
    assert move in game.start().legal_moves
    assert engine.last is not None
    assert engine.last.engine.startswith("hard (perfect falls back:")
    assert "not on this machine" in engine.last.engine


@pytest.mark.parametrize("damage", ["truncated", "altered"])
def test_a_damaged_certificate_is_never_played_from(elsewhere: Path, damage: str) -> None:
    row = entry("7x7,k=5")
    certificate = row.certificate_of("o")
    assert certificate is not None
    original = book.PACKAGE_CERTIFICATES / certificate.file
    data = original.read_bytes()
    if damage == "truncated":
        data = data[: len(data) // 2]
    else:  # the same gzip framing, one move changed in the text
        text = gzip.decompress(data).decode()
        head, _, rest = text.partition('"move":')
        digit = rest[0]
        text = head + '"move":' + ("1" if digit != "1" else "2") + rest[1:]
        data = gzip.compress(text.encode(), mtime=0)
    (elsewhere / certificate.file).write_bytes(data)
    with pytest.raises(CertificateUnavailableError, match="SHA-256"):
        checked_certificate(certificate)
    with pytest.raises(CertificateUnavailableError, match="not played from"):
        build_index(certificate)
    assert not index_folder(certificate).exists()
    after = Position.empty(Geometry.parse("7x7,k=5")).play(24)
    advice = BoardBook(row).advise(after)
    assert advice.move is None and "SHA-256" in advice.note


def test_an_index_is_not_played_from_once_its_certificate_is_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The index was built from the right file; the file must still be there and whole."""
    monkeypatch.setenv("OXO_CACHE", str(tmp_path / "cache"))
    row = entry("3x3")
    certificate = row.certificate_of("x")
    assert certificate is not None
    build_index(certificate)
    assert load_index(certificate) is not None
    monkeypatch.setattr(book, "certificate_folders", lambda: (tmp_path / "nowhere",))
    advice = BoardBook(row).advise(Position.empty(Geometry.parse("3x3")))
    assert advice.move is None and "not on this machine" in advice.note


# -- the index: what the checker's walk plays ------------------------------------------------------


# 10x4's index (its walk alone is 10 s of CPU) is built and played from by the perfect-play tests.
@pytest.mark.parametrize("name", [name for name in SMALL if name != "10x4,k=4"])
def test_the_index_holds_the_walks_moves(name: str) -> None:
    """One move per class the walk played from (no class twice), every one the move of an entry of
    the certificate for that class; the positions the walk checked as the book says."""
    row = entry(name)
    for certificate in row.certificates:
        index = build_index(certificate)
        assert index.meta["positions_checked"] == certificate.positions
        assert len(index) <= certificate.moves
        keys = list(zip(index.keys_x.tolist(), index.keys_o.tolist(), strict=True))
        assert len(set(keys)) == len(keys) and keys == sorted(keys)
        assert load_index(certificate) is not None


def test_a_build_stopped_by_ctrl_c_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OXO_CACHE", str(tmp_path / "cache"))
    certificate = entry("5x5,k=4").certificate_of("o")
    assert certificate is not None

    def stop(checked: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_index(certificate, on_progress=stop)
    assert not index_folder(certificate).exists()
    assert [
        p.name for p in index_folder(certificate).parent.iterdir() if not p.name.endswith(".lock")
    ] == []
    assert build_index(certificate) is not None  # and the next build works


# -- playing from the certificates: never worse than the certificate says ------------------------


def _exact_value(position: Position) -> str:
    solution = solution_within(position, 16)
    assert solution is not None
    return str(solution.value(position).outcome)


@pytest.mark.parametrize("name", ["3x3", "3x4,k=3", "4x4,k=3"])  # 4x4 (k=4): many minutes
def test_every_move_keeps_the_proven_value_against_every_defence(name: str) -> None:
    """The slow, obvious referee: on boards the exact solver settles whole, walk every game where
    the certified side plays the book's moves and the opponent anything; every position the side
    moves in keeps its value (never a loss; a win where the certificate proves one). Each move
    comes from a player that remembers nothing (the pairings found from the position alone)."""
    row = entry(name)
    geometry = Geometry.parse(name)
    start = Position.empty(geometry)
    solution = solution_within(start, 16)
    assert solution is not None
    for side in row.playable_sides:
        player = BoardBook(row).player(side)
        assert isinstance(player, StrategyPlayer)
        claim = row.certificate_of(side)
        assert claim is not None
        seen: set[tuple[int, int]] = set()
        stack = [start]
        while stack:
            position = stack.pop()
            if position.is_terminal or (position.x, position.o) in seen:
                continue
            seen.add((position.x, position.o))
            if position.to_move == side:
                fresh = StrategyPlayer(player.index, geometry, side, claim.guarantee)
                move = fresh.move(position)
                assert move is not None, position
                after = position.play(move)
                value = solution.value(after).outcome
                assert value != ("o" if side == "x" else "x"), (position, move)
                if claim.guarantee == "win":
                    assert value == side, (position, move)
                stack.append(after)
            else:
                stack.extend(position.play(cell) for cell in position.empty_cells)
        assert len(seen) > 1


def test_pairings_are_found_remembered_and_searched_for() -> None:
    """X's 3x3 certificate is the centre and then a pairing. During a game the player remembers
    the pairing; a fresh player, given the position alone, finds it below the position; both
    answer each corner with the opposite corner."""
    row = entry("3x3")
    geometry = Geometry.parse("3x3")
    game_book = BoardBook(row)
    start = Position.empty(geometry)
    first = game_book.advise(start)
    assert first.move == 4
    player = game_book.player("x")
    assert player is not None and player.remembered is not None  # type: ignore[attr-defined]
    position = start.play(4).play(0)
    answer = game_book.advise(position)
    assert answer.move is not None and "pairing" in answer.note
    fresh = board_book("3x3")
    assert fresh is not None
    alone = fresh.advise(position)
    assert alone.move is not None and "pairing" in alone.note
    for move in (answer.move, alone.move):
        assert _exact_value(position.play(move)) in ("x", "draw")
    # Deeper: two more plies on, the fresh player still finds its way from the position alone.
    deeper = position.play(answer.move)
    reply = next(c for c in deeper.empty_cells if _exact_value(deeper.play(c)) != "x")
    deeper = deeper.play(reply)
    later = board_book("3x3")
    assert later is not None
    found = later.advise(deeper)
    assert found.move is not None and "pairing" in found.note
    assert _exact_value(deeper.play(found.move)) != "o"


def test_the_pairing_search_reaches_deep_positions_on_5x5() -> None:
    """On 5x5 with k=4 O's certificate answers many positions by pairs: in random games against
    O's book, every position O is asked about from scratch (a fresh player, no memory) gets a
    move, and the game never ends in a loss for O."""
    row = entry("5x5,k=4")
    geometry = Geometry.parse("5x5,k=4")
    pairings = 0
    for seed in range(30):
        engine_book = BoardBook(row)
        position = Position.empty(geometry)
        rng = RandomEngine(seed)
        while not position.is_terminal:
            if position.to_move == "x":
                position = position.play(rng.choose(position))
                continue
            fresh = BoardBook(row).advise(position)
            kept = engine_book.advise(position)
            assert fresh.move is not None and kept.move is not None, position
            pairings += "pairing" in fresh.note
            position = position.play(kept.move)
        assert position.winner != "x"
    assert pairings > 0


def test_off_the_certificate_says_so_and_plays_hard() -> None:
    """A position X's winning certificate never lets happen (X's own first move elsewhere, on a
    cell no symmetry carries to the certificate's): the book says it is off the certificate, and
    perfect plays hard, saying why."""
    game = find_game("6x5,k=4")
    row = entry("6x5,k=4")
    start = game.start()
    assert isinstance(start, Position)
    first = BoardBook(row).advise(start).move
    assert first is not None
    alike = {symmetry.perm[first] for symmetry in start.geometry.symmetries}
    wrong = next(cell for cell in start.legal_moves if cell not in alike)
    position = start.play(wrong).play(next(c for c in start.legal_moves if c != wrong))
    advice = BoardBook(row).advise(position)
    assert advice.move is None and "off X's certificate" in advice.note
    engine = game.make_engine("perfect", start, seconds=0.05, seed=2)
    engine.choose(position)
    assert engine.last is not None and engine.last.engine.startswith("hard (perfect falls back")
    assert "off X's certificate" in engine.last.engine


def test_no_certificate_for_the_losing_side() -> None:
    row = entry("10x4,k=4")
    game = find_game("10x4,k=4")
    position = game.start().play(0)
    advice = BoardBook(row).advise(position)
    assert advice.move is None and "no certificate for O" in advice.note


def test_a_tall_board_plays_from_its_wide_turns_certificate() -> None:
    """4x9 has no certificate of its own: it plays 9x4's turned a quarter, and X wins (4x10
    plays 10x4's alike; its index takes twice as long to build)."""
    row = entry("4x9,k=4")
    certificate = row.certificate_of("x")
    assert certificate is not None and certificate.turned and certificate.board == "9x4"
    assert certificate_geometry(row, certificate).shape == (9, 4)
    tall = entry("4x10,k=4").certificate_of("x")
    assert tall is not None and tall.turned and tall.board == "10x4"
    game = find_game("4x9,k=4")
    x = game.make_engine("perfect", game.start(), seed=3)
    o = RandomEngine(3)
    final, _ = play_game(game.start(), x, o)
    assert final.outcome == "x"


@pytest.mark.parametrize("name", ["7x7,k=5", "10x4,k=4"])
def test_perfect_from_the_registry_never_loses_to_random(name: str) -> None:
    game = find_game(name)
    row = entry(name)
    for side in row.playable_sides:
        for seed in range(3):
            ours = game.make_engine("perfect", game.start(), seconds=0.05, seed=seed)
            theirs = RandomEngine(seed)
            engines = (ours, theirs) if side == "x" else (theirs, ours)
            final, _ = play_game(game.start(), *engines)
            if row.value == side:
                assert final.outcome == side
            else:
                assert final.outcome in (side, "draw")
            assert ours.note is None, ours.note  # type: ignore[attr-defined]


def test_ten_by_four_x_perfect_beats_hard() -> None:
    game = find_game("10x4,k=4")
    x = game.make_engine("perfect", game.start(), seconds=0.1, seed=4)
    o = game.make_engine("hard", game.start(), seconds=0.1, seed=4)
    final, _ = play_game(game.start(), x, o)
    assert final.outcome == "x"


def test_best_plays_from_the_book_where_it_covers() -> None:
    game = find_game("7x7,k=5")
    engine = game.make_engine("best", game.start(), seconds=0.05, seed=5)
    move = engine.choose(game.start())
    assert move in game.start().legal_moves
    assert engine.last is not None and "proof book" in engine.last.engine
    assert engine.using(game.start()) == "perfect"  # type: ignore[attr-defined]
    assert "certificate" in game.describe_level("perfect", game.start())


# -- what the certificates prove about a position --------------------------------------------------


def test_proven_values() -> None:
    empty = Position.empty(Geometry.parse("4x4x4"))
    value = proven_value(empty)
    assert value is not None and value.outcome == "x"
    geometry = Geometry.parse("10x4,k=4")
    start = Position.empty(geometry)
    first = BoardBook(entry("10x4,k=4")).advise(start).move
    assert first is not None
    after = start.play(first)  # O to move, every reply covered by X's certificate
    value = proven_value(after)
    assert value is not None and value.outcome == "x" and "10x4-k4-x-win" in value.by
    assert proven_value(Position.empty(Geometry.parse("9x9,k=5"))) is None


def test_the_cache_folder_follows_the_environment(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from oxo.cache import cache_folder, cache_root

    monkeypatch.delenv("OXO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root() == tmp_path / "xdg" / "oxo"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_root() == tmp_path / "home" / ".cache" / "oxo"
    monkeypatch.setenv("OXO_CACHE", str(tmp_path / "mine"))
    assert (
        cache_folder("book") == tmp_path / "mine" / "book" and (tmp_path / "mine" / "book").is_dir()
    )


def test_a_row_round_trips_through_json() -> None:
    for row in proved_boards():
        assert BookEntry.from_dict(json.loads(json.dumps(row.to_dict()))) == row
    for opened in open_boards():
        assert OpenBoard.from_dict(json.loads(json.dumps(opened.to_dict()))) == opened


def test_the_open_boards_are_the_runs_as_their_state_says() -> None:
    """The open rows say what each run kept in results/runs/ says of itself (its status, read
    here from the state as it is in the checkout): no figure typed in or left stale."""
    from oxo.proofs.runs import run_status

    rows = {row.run: row for row in open_boards()}
    assert {find_game(name).name for name in ("scorefour", "9x8,k=5")} == {
        row.board for row in rows.values()
    }
    for where, row in rows.items():
        status = run_status(ROOT / where)
        assert status.value is None and row.sessions == status.sessions, where
        assert row.positions == sum(q.positions for q in status.questions)
        assert [q.attacker for q in row.questions] == [q.attacker for q in status.questions]
        for mine, theirs in zip(row.questions, status.questions, strict=True):
            assert (mine.proved, mine.disproved, mine.open_jobs) == (
                theirs.proved,
                theirs.disproved,
                theirs.open_jobs,
            )
            assert list(mine.open_after) == theirs.first_moves["open"]
            assert [r[0] for r in mine.replies] == [r.move for r in theirs.replies]
            assert mine.waits == tuple(w for r in theirs.replies for w in r.waits)
            assert mine.waits_after == next((r.move for r in theirs.replies if r.waits), None)
            assert mine.followed_to_prove == theirs.followed_to_prove
        assert row.paces == status.paces
        estimate = status.pace_estimate()
        assert row.pace_estimate_seconds == (None if estimate is None else round(estimate))
        assert row.command.startswith("oxo solve ") and f"--proof {where}" in row.command
        assert open_board(row.board) == row and book_entry(row.board) is None
    for proved in ("4x4x4", "4x4x4x4"):  # proved: not open
        assert open_board(find_game(proved).name) is None and book_entry(proved) is not None


def test_an_open_boards_settled_openings_are_in_the_book_with_their_certificates() -> None:
    """Each opening of an open row is one its run has settled (read again from the state), with a
    certificate in results/certificates whose SHA-256 is the book's, whose walk begins at the
    opening (the header's start) and whose recorded check accepted these very bytes; its value is
    what oxo says of the position and of its images under the maps that keep lines lines (the
    inside-out ones too), and of no other position: a reply no certificate covers is not known."""
    from oxo.proofs.runs import proved_openings

    checks = json.loads((ROOT / "results" / "certificate-checks.json").read_text("utf-8"))
    rows: list[OpenBoard | BookEntry] = [*open_boards(), *proved_boards()]
    listed = [(row, opening) for row in rows for opening in row.openings]
    assert any(row.board == "4x4x4x4" for row, _ in listed)

    def run_of(row: OpenBoard | BookEntry) -> str:
        """The folder of the run that settled the row's openings (a proved row's rebuilt one)."""
        if isinstance(row, OpenBoard):
            return row.run
        return next(c.run for c in row.certificates if c.run is not None)

    settled = {  # each run's state read once
        run: {(o.position, o.side, o.guarantee) for o in proved_openings(ROOT / run, every=True)}
        for run in {run_of(row) for row, _ in listed}
    }
    for row, opening in listed:
        assert (opening.position, opening.side, opening.guarantee) in settled[run_of(row)]
        path = checked_certificate(opening.certificate)
        assert path.parent == ROOT / "results" / "certificates"
        with gzip.open(path, "rt") as text:
            assert json.loads(text.readline())["start"] == opening.position
        record = checks[path.name]
        assert record["sha256"] == opening.certificate.sha256 and record["valid"] is True
        geometry = Geometry(row.shape, row.k, row.gravity)
        x = sum(1 << cell for cell in opening.moves[0::2])
        o = sum(1 << cell for cell in opening.moves[1::2])
        maps = geometry.line_symmetries  # the inside-out maps among them (4x4x4x4's 1,536)
        for symmetry in maps[:: max(1, len(maps) // 7)] + geometry.line_frames:
            image = Position(geometry, symmetry.apply_mask(x), symmetry.apply_mask(o))
            found = proven_value(image)
            assert found is not None and found.bound == opening.value_words
            assert opening.certificate.file in found.by
        assert row.opening_at(x, o) == opening
    four = openings_row("4x4x4x4")
    assert four is not None and four.openings and four == book_entry("4x4x4x4")
    geometry = Geometry.parse("4x4x4x4")
    replies = {o.moves[1] for o in four.openings if o.moves[0] == 0}
    keeping = [s for s in geometry.line_symmetries if s.perm[0] == 0]  # X's cell stays
    # O's replies to X on 0 that no map keeping X's cell and the lines carries onto a settled one
    open_ = [m for m in range(1, 256) if not any(s.perm[m] in replies for s in keeping)]
    assert open_
    for m in open_[:3]:
        assert four.opening_at(1, 1 << m) is None
        assert proven_value(Position(geometry, 1, 1 << m)) is None


# -- the command line ------------------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    from oxo.cli import main

    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    "args", [["10x4", "--k", "4"], ["7x7", "--k", "5"], ["4x4x4"], ["9x4", "--k", "4"]]
)
def test_solve_answers_a_proved_board_from_the_book(
    capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    code, out, _ = run(capsys, "solve", *args, "--json")
    data = json.loads(out)
    assert code == 0 and data["from_book"] and data["value"] in ("x", "draw")
    assert {"board", "k", "value", "method", "nodes", "seconds", "proofs", "searches"} <= set(data)
    assert data["book"]["certificates"] and data["book"]["command"].endswith("--proof DIR")
    code, out, _ = run(capsys, "solve", *args)
    assert code == 0 and "proved by oxo" in out and "--again" in out
    assert "oxo verify FILE" in out or "--index" in out
    assert max(len(line) for line in out.splitlines()) <= 80


def test_oxo_book_lists_and_shows(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "book")
    assert code == 0 and "4x4x4" in out and "published" in out and "6x7, gravity" in out
    code, out, _ = run(capsys, "book", "--json")
    assert code == 0 and len(json.loads(out)["boards"]) == len(proved_boards())
    code, out, _ = run(capsys, "book", "4x4x4")
    assert code == 0 and "oxo book 4x4x4 --index --all" in out and "b7c0241e8a97" in out
    assert "Patashnik" in out
    code, out, err = run(capsys, "book", "3x3", "--index")
    assert code == 0 and "index built" in err
    code, out, _ = run(capsys, "book", "3x3", "--json")
    assert code == 0 and all(item["indexed"] for item in json.loads(out)["here"])
    code, _, err = run(capsys, "book", "6x6")
    assert code == 2 and "has not proved" in err


def test_the_book_of_an_open_board_says_what_each_open_reply_waits_on() -> None:
    """Below the replies to the first move the run works on, 'oxo book' lists what each open reply
    waits on, as the run's status says it, within 80 columns; another move's replies list none."""
    from dataclasses import replace

    from oxo.cli.book import open_lines
    from oxo.proofs.results import Waiting

    opened = open_4x4x4x4()
    still_open = replace(  # (as the run stood while it was open)
        opened.questions[0],
        open_jobs=3090,
        fewest_to_prove=1,
        fewest_to_disprove=411,
        replies=((0, 20, 0, 1), (1, 0, 0, 45), (5, 0, 0, 33)),
    )
    opened = replace(opened, questions=(still_open,))
    first, *others = opened.questions[0].replies
    waits = (
        Waiting(7, (0, 103), (7,), False, 253, 98, 120, 1),
        Waiting(85, (0, 3), (1, 85), True, 76, 0, 0, 1),
        Waiting(86, (0, 3), (1, 85), True, 76, 0, 0, 1, same_as=85),
    )
    question = replace(opened.questions[0], waits_after=first[0], waits=waits)
    lines = open_lines(replace(opened, questions=(question,)))
    text = " ".join(" ".join(lines).split())
    for wait in waits:
        assert f"- {wait.words('x')}" in text
    assert "O on 7 waits on X on 0 and 103, O on 7, O to move: 98 of its 253 replies" in text
    assert "O on 86 waits on the same position as O on 85" in text
    assert max(map(len, lines)) <= 80
    assert text.index("O on 85 waits") < text.index(f"replies to X on {others[0][0]}")
    assert Waiting.from_dict(waits[2].to_dict()) == waits[2]
    aside = Waiting(3, (0, 103), (3, 7), True, 252, 0, 2, 5, aside=((11, 58, 251),))
    assert aside.words("x").endswith(
        "X to move: split after 5 jobs of its own, 2 of its 252 moves searched, none won by X "
        "yet; X on 11 set aside, 58 of the 251 replies to it settled"
    )
    assert Waiting.from_dict(aside.to_dict()) == aside
    # What a wait's own open replies wait on, one level further, indented under it.
    deeper = Waiting(3, (0, 11, 103), (3, 7), False, 251, 45, 60, 1)
    nested = (replace(waits[0], below=(deeper,)),)
    question = replace(opened.questions[0], waits_after=first[0], waits=nested)
    lines = open_lines(replace(opened, questions=(question,)))
    (at,) = [i for i, line in enumerate(lines) if "O on 3 waits on" in line]
    assert lines[at].startswith(" " * 15 + "- ") and max(map(len, lines)) <= 80
    assert "- O on 7 waits on" in lines[at - 2] or "- O on 7 waits on" in lines[at - 1]
    assert Waiting.from_dict(nested[0].to_dict()) == nested[0]


def test_the_book_of_a_board_its_run_settled_says_so_before_the_certificate_is_checked() -> None:
    """A run whose root is settled (no job left, the attacker wins after a first move) but whose
    certificate is not merged and checked yet: its question answers yes, and 'oxo book' says the
    value as the run's, the certificate still to come, and the command that makes it, in 80
    columns; an open question answers 0."""
    from dataclasses import replace

    from oxo.cli.book import open_lines

    opened = open_4x4x4x4()
    settled = replace(
        opened.questions[0], open_jobs=0, fewest_to_prove=0, fewest_to_disprove=0, wins_after=(0,)
    )
    assert settled.answer == 1 and replace(opened, questions=(settled,)).winner == "X"
    assert replace(settled, fewest_to_prove=1, fewest_to_disprove=5).answer == 0
    lines = open_lines(replace(opened, questions=(settled,)))
    text = " ".join(" ".join(lines).split())
    assert "X wins, as oxo's long run settled it" in text and "value not known" not in text
    assert "can X force a line? yes, settled by the run (certificate not checked yet)" in text
    assert f"merges from the run's pieces and checks: {opened.command}" in text
    assert max(map(len, lines)) <= 80
    lines = open_lines(replace(opened, questions=(replace(settled, fewest_to_prove=1),)))
    assert "can X force a line? not settled yet" in lines and "value not known yet" in lines[0]


def test_the_book_of_an_open_board_says_what_is_left_along_the_moves_the_run_follows() -> None:
    """'To go' gives the jobs to prove it along the moves the run follows beside the fewest in
    principle where they differ, and the pace of the counted sessions with the time those jobs
    take at it, within 80 columns; a row without them (written before) reads as before."""
    from dataclasses import replace

    from oxo.cli.book import open_lines

    opened = open_4x4x4x4()
    question = replace(opened.questions[0], fewest_to_prove=1, followed_to_prove=209)
    row = replace(
        opened, questions=(question,), paces=(60, 61, 16200.0, 9), pace_estimate_seconds=376200.0
    )
    lines = open_lines(row)
    text = " ".join(" ".join(lines).split())
    assert "at least 209 of them to prove that X can along the moves the run follows" in text
    assert "(1 if X's other moves settled in their first jobs)" in text
    assert (
        "pace: 9 positions settled in sessions 60 to 61 (4.5 h of run time): at that pace the "
        "209 still to settle along the moves the run follows take about 4.4 days more" in text
    )
    assert max(map(len, lines)) <= 80
    assert OpenBoard.from_dict(json.loads(json.dumps(row.to_dict()))) == row
    before = replace(row, questions=(replace(question, followed_to_prove=None),), paces=None)
    text = " ".join(" ".join(open_lines(before)).split())
    assert f"at least 1 of them to prove that X can, {question.fewest_to_disprove:,} to" in text
    assert "along the moves" not in text and "pace:" not in text


def test_the_book_of_score_four_names_the_moves_by_their_columns() -> None:
    """On a board with gravity the first moves and the replies below them are columns, as people
    type them, not cells: Score Four's run begins with the bottom layer's cells 48 to 63."""
    from oxo.cli.book import open_lines

    opened = open_board(find_game("scorefour").name)
    assert opened is not None
    question = opened.questions[0]
    text = " ".join(" ".join(open_lines(opened)).split())
    columns = ", ".join(str(cell - 48 + 1) for cell in question.open_after)
    assert all(48 <= cell < 64 for cell in question.open_after)
    assert f"(columns from 1 in reading order, seen from the top): open after {columns}" in text
    for move, *_ in question.replies:
        assert f"replies to X in column {move - 48 + 1}:" in text
    assert "X on 4" not in text
    # What an open reply waits on, by the columns' stacks from the bottom up (cell 32 is column
    # 1's second cell, on X's 48; 49 is column 2's first).
    from dataclasses import replace

    from oxo.proofs.results import Waiting

    below = Waiting(49, (48, 53), (32, 49), True, 15, 0, 0, 2)
    twin = Waiting(50, (48, 53), (32, 49), True, 15, 0, 0, 2, same_as=49)
    waits = (Waiting(32, (48, 53), (32,), False, 15, 9, 12, 3, below=(below, twin)),)
    asked = replace(question, waits_after=question.replies[0][0], waits=waits)
    text = " ".join(" ".join(open_lines(replace(opened, questions=(asked,)))).split())
    assert (
        "- O in column 1 waits on X O in column 1 and X in column 6 (from the bottom up), O to "
        "move: 9 of its 15 replies settled" in text
    )
    assert (
        "- O in column 2 waits on X O in column 1, O in column 2 and X in column 6 (from the "
        "bottom up), X to move: split after 2 jobs of its own, its 15 moves not searched yet"
        in text
    )
    assert "- O in column 3 waits on the same position as O in column 2" in text


def test_an_open_board_is_answered_with_what_its_run_has_settled(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """'oxo solve 9x8 --k 5' without --time says at once (no search: a proof takes days) what no
    one has published and how far oxo's run has got, exit 3; with --time it searches, and says
    the same after its "unknown"; 'oxo book' lists the open boards and shows each."""
    opened = open_board("9x8,k=5")
    assert opened is not None
    code, out, _ = run(capsys, "solve", "9x8", "--k", "5")
    assert code == 3 and "value unknown" in out and "not searched here" in out
    assert opened.command.split(" --proof")[0] in out.replace("\n", " ")
    assert f"{opened.positions:,} positions searched" in " ".join(out.split())
    assert "positions searched" not in out.split("run so far")[0]
    assert max(len(line) for line in out.splitlines()) <= 80
    code, out, _ = run(capsys, "solve", "scorefour", "--json")
    data = json.loads(out)
    assert code == 3 and data["value"] == "unknown" and data["searched"] is False
    assert OpenBoard.from_dict(data["open"]) == open_board(find_game("scorefour").name)
    code, out, _ = run(capsys, "solve", "9x8", "--k", "5", "--time", "1", "--quiet")
    assert code == 3 and "within the time limit" in out and "what is known:" in out
    code, out, _ = run(capsys, "solve", "9x8", "--k", "5", "--time", "1", "--quiet", "--json")
    assert code == 3 and json.loads(out)["open"]["run"] == "results/runs/9x8-k5"
    code, out, _ = run(capsys, "book")
    assert code == 0 and "Still open" in out and "Score Four" in out
    code, out, _ = run(capsys, "book", "--json")
    assert code == 0 and len(json.loads(out)["open"]) == len(open_boards())
    code, out, _ = run(capsys, "book", "9x8", "--k", "5")
    assert code == 3 and f"{opened.settled:,}" in out and "[5]" in out


def test_a_proved_board_keeps_the_openings_its_run_settled_first(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """4x4x4x4, proved by its run, its certificate too big to ship: 'oxo solve' answers from the
    book, and 'oxo book' shows the board's certificate (rebuilt from the run) and the openings
    the run settled first, each with a certificate that ships, played from until it is."""
    proved = book_entry("4x4x4x4")
    assert proved is not None and proved.value == "x" and proved.openings
    (certificate,) = proved.certificates
    assert certificate.shipped == "rebuilt" and book.find_certificate(certificate) is None
    code, out, _ = run(capsys, "solve", "4x4x4x4", "--json")
    assert code == 0 and json.loads(out)["value"] == "x"
    code, out, _ = run(capsys, "book", "4x4x4x4")
    words = " ".join(out.split())
    assert code == 0 and "[6]" in words and "X wins with best play" in words
    assert "oxo book 4x4x4x4 --index --all" in words and max(map(len, out.splitlines())) <= 80
    # how many openings perfect indexes itself, those whose index is estimated under the limit
    from oxo.book.play import OpeningsBook, from_openings, moves_words, quick_to_index

    assert from_openings(proved) and isinstance(board_book("4x4x4x4"), OpeningsBook)
    quick = sum(quick_to_index(opening.certificate) for opening in proved.openings)
    itself = "perfect indexes one itself when a game first reaches it if that takes under"
    assert (f"{itself} 60 s ({quick} of {len(proved.openings)})" in words) == (quick > 0)
    # the inside-out images are said proved too, with an example the book answers
    example = OpeningsBook(proved).renamed_example()
    assert example is not None
    opening, moves = example
    assert f"({moves_words(moves)} is {moves_words(opening.moves)} renamed)" in words
    geometry = Geometry.parse("4x4x4x4")
    assert all(s.perm[opening.moves[0]] != moves[0] for s in geometry.symmetries)
    image = Position(geometry, sum(1 << m for m in moves[0::2]), sum(1 << m for m in moves[1::2]))
    found = proven_value(image)
    assert found is not None and found.bound == opening.value_words and "renamed" in found.by
    # the empty board: the board's own value, from the book's row
    empty = proven_value(Position(geometry, 0, 0))
    assert empty is not None and empty.outcome == "x"
    code, out, _ = run(capsys, "book", "4x4x4x4", "--json")
    data = json.loads(out)
    assert code == 0 and data["value"] == "x" and len(data["openings"]) == len(proved.openings)


@pytest.mark.usefixtures("no_quick_index")
def test_analyze_and_move_give_a_settled_openings_value_from_its_certificate(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """'oxo analyze' and 'oxo move' on a position of 4x4x4x4 that oxo's run has settled (an image
    of it under the board's symmetries, written in the notation): the value, and the certificate
    that proves it."""
    opened = openings_row("4x4x4x4")  # proved: its certificate is not here, its openings are
    assert opened is not None and opened.openings
    opening = opened.openings[-1]
    geometry = Geometry.parse("4x4x4x4")
    turn = geometry.symmetries[len(geometry.symmetries) // 2]
    marks = ["."] * geometry.size
    for number, cell in enumerate(opening.moves):
        marks[turn.perm[cell]] = "xo"[number % 2]
    code, out, _ = run(capsys, "analyze", "".join(marks), "--board", "4x4x4x4", "--json")
    data = json.loads(out)
    assert code == 0 and data["value"] == opening.side, data
    assert opening.certificate.file in json.dumps(data)
    # 'oxo move' says the same, and that the value is the certificate's, not its search's
    code, out, _ = run(capsys, "move", "".join(marks), "--board", "4x4x4x4", "--depth", "1")
    words = " ".join(out.split())
    assert code == 0 and f"value with best play: {opening.value_words}" in words
    assert f"proved by: the certificate {opening.certificate.file}" in words
    assert "move found by: hard" in words and max(map(len, out.splitlines())) <= 80


def test_index_makes_the_certificate_each_side_plays_from(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--index`` builds what perfect plays from, the first certificate of each side; ``--all``
    every one (Qubic's rebuilt 57 MB certificate too); ``--side`` one side's."""
    import oxo.cli.book as cli_book

    built: list[str] = []
    monkeypatch.setattr(cli_book, "_build", lambda c, quiet, make: built.append(c.file))
    qubic = entry("4x4x4")
    x_files = [c.file for c in qubic.certificates if c.side == "x"]
    assert len(x_files) >= 2  # the compact ones first, the run's own after
    assert run(capsys, "book", "4x4x4", "--index", "--side", "x")[0] == 0
    assert built == x_files[:1]
    built.clear()
    assert run(capsys, "book", "4x4x4", "--index", "--all")[0] == 0
    assert built == [c.file for c in qubic.certificates if c.format in cli_book_formats()]
    built.clear()
    assert run(capsys, "book", "3x3", "--index")[0] == 0
    assert sorted(built) == sorted(c.file for c in entry("3x3").certificates)
    code, _, err = run(capsys, "book", "3x3", "--all")
    assert code == 2 and "--side, --opening and --all go with --index" in err


def cli_book_formats() -> frozenset[str]:
    from oxo.book.play import FORMATS

    return frozenset(FORMATS)


def test_perfect_moves_from_the_book_on_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "move", "7x7", "--k", "5", "--level", "perfect")
    assert code == 0 and "proof book" in out
    code, out, _ = run(capsys, "move", "10x4", "--k", "4", "--level", "perfect", "--json")
    assert code == 0 and json.loads(out)["value"] == "x"


def test_perfect_on_qubic_before_its_index_plays_hard_and_says_how_to_build_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OXO_CACHE", str(tmp_path / "cache"))  # no certificate rebuilt here
    code, out, err = run(capsys, "move", "4x4x4", "--level", "perfect", "--time", "0.1")
    assert code == 0 and "move:" in out
    assert "oxo book 4x4x4 --index" in " ".join((err + out).split())  # lines broken at 80
    assert "hard (perfect falls back" in out


def test_analyze_and_show_say_what_the_book_proves(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "3x3x3")
    assert code == 0 and "value:          X wins" in out and "proof book" in out
    code, out, _ = run(capsys, "analyze", "4x4x4", "--json")
    assert code == 0 and json.loads(out)["value"] == "x"
    code, out, _ = run(capsys, "show", "3x3x3")
    assert code == 0 and "proved:         X wins" in out


def test_the_summary_a_page_needs() -> None:
    from oxo.book.play import proof_summary

    qubic = proof_summary("4x4x4")
    assert qubic is not None and qubic["value"] == "x"
    sides = qubic["sides"]
    assert isinstance(sides, dict) and set(sides) == {"x"}
    assert sides["x"]["make"] in (None, "oxo book 4x4x4 --index")
    draw = proof_summary("8x8,k=5")
    assert draw is not None and set(draw["sides"]) == {"x", "o"}  # type: ignore[arg-type]
    assert proof_summary("6x6") is None


def test_a_certificate_with_rules_plays_the_rule_move_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import types

    asked: list[tuple[int, int]] = []

    def rule_move(header: object, x: int, o: int) -> int | None:
        asked.append((x, o))
        return 8 if x == 0 else None  # a rule at the empty board only

    monkeypatch.setitem(sys.modules, "oxo.proofs.rules", types.SimpleNamespace(rule_move=rule_move))
    player = BoardBook(entry("3x3")).player("x")
    assert isinstance(player, StrategyPlayer) and player.rules_header is None
    empty = Position.empty(Geometry.parse("3x3"))
    plain = player.move(empty)
    assert player.how == "certificate" and not asked  # no rules named: never asked
    player.rules_header = object()  # as a header naming rules is kept
    assert player.move(empty) == 8 and player.how == "rule"
    after = empty.play(plain).play(next(iter(empty.play(plain).legal_moves)))
    assert player.move(after) is not None and player.how != "rule" and len(asked) == 2


def test_the_library_api_for_a_page() -> None:
    import oxo

    boards = oxo.proved_boards()
    names = [board["board"] for board in boards]
    assert names == [row.board for row in proved_boards()]
    assert {"4x4x4", "8x8,k=5", "10x4", "9x4", "7x7,k=5", "6x7,k=4,gravity"} <= set(names)
    qubic = oxo.proof("qubic")
    assert qubic is not None and qubic["board"] == "4x4x4" and qubic["value"] == "x"
    assert oxo.proof("8x8", 5) == oxo.proof("8x8,k=5") and oxo.proof("6x6") is None
    connect4 = oxo.proof("connect4")
    assert connect4 is not None and connect4["sides"]["x"]["ready"]  # type: ignore[index]
    assert oxo.prepare_proof("7x7", 5, side="x") == ["x"]
    sides = oxo.proof("7x7", 5)["sides"]  # type: ignore[index]
    assert sides["x"]["ready"] and sides["x"]["indexed"]
    with pytest.raises(oxo.OxoError, match="oxo book"):
        oxo.prepare_proof("6x6")
    opened = oxo.open_boards()
    assert [row["board"] for row in opened] == [row.board for row in open_boards()]
    assert "4x4x4x4" not in [row["board"] for row in opened]
    four = oxo.proof("4x4x4x4")
    assert four is not None and four["value"] == "x"


def test_a_move_says_what_the_book_proves_where_its_search_does_not() -> None:
    import oxo
    from oxo.api import position_of

    empty = position_of("." * 49, "7x7,k=5")
    chosen = oxo.move(empty, "perfect")
    assert chosen.value == "draw" and chosen.to_dict()["value"] == "draw"
    assert chosen.value_words == "draw" and chosen.proven is not None
    later = empty.play(chosen.move).play(next(iter(empty.play(chosen.move).legal_moves)))
    reply = oxo.move(later, "perfect")
    assert reply.proven is not None and "proof book" in reply.proven.by
    # only X's certificate covers it: what is proved, not "not proven"
    assert reply.value is None and reply.value_words == "X does not lose (who wins is not known)"
    free = oxo.move(position_of("." * 36, "6x6,k=4"), "hard", seconds=0.05)
    assert free.proven is None and free.value_words == "not proven"


def test_a_value_from_the_book_draws_itself_in_a_notebook() -> None:
    import oxo

    solved = oxo.solve("4x4x4")
    assert solved.from_book and "proved by oxo" in solved._repr_html_()


# -- the slow part: the whole book against its records, bigger certificates and boards -------------


def test_the_solved_page_s_book_section_is_what_the_book_gives() -> None:
    """docs/solved.md's section on the proof book is benchmarks/results_book.py's, from the book
    file as it ships: no row or paragraph typed in or left stale."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import results_book
    finally:
        sys.path.pop(0)
    data = json.loads(book.BOOK_FILE.read_text(encoding="utf-8"))
    page = (ROOT / "docs" / "solved.md").read_text(encoding="utf-8")
    assert results_book.section(data) in page


@pytest.mark.slow
def test_the_book_file_is_what_the_records_give() -> None:
    """benchmarks/results_book.py writes the book from the records and the certificate files:
    the file that ships is exactly what it gives now (nothing typed, nothing stale)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import results_book
    finally:
        sys.path.pop(0)
    assert results_book.text(results_book.book()) == book.BOOK_FILE.read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["7x4", "9x4", "6x5,k=4", "4x5,k=4", "6x6,k=5", "5x5"])
def test_the_other_shipped_certificates_pass_the_standalone_checker(name: str) -> None:
    for certificate in entry(name).certificates:
        path = checked_certificate(certificate)
        _, verdict = checker_verdict(path)
        assert verdict["valid"] is True and verdict["entries"] == certificate.entries
