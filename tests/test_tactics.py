"""oxo.tactics: forced wins by fours (VCF) and by fours and threes (VCT), checked against slow,
plain references on small boards, played out move by move, and scored on quintet's public cases."""

from __future__ import annotations

import json
import random
import sys
from functools import cache
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from oxo import tactics
from oxo.errors import MoveError, PositionError
from oxo.geometry import Geometry, completing_cells, mask_cells
from oxo.position import Position
from oxo.registry import find_game
from oxo.tactics import Proof, check, find_vcf, find_vct, line_proof

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from bench_tactics import Case, line_holds, read_cases  # noqa: E402

# -- the references: plain searches over every move, no incremental board -----------------------------


def _completions(lines: tuple[int, ...], own: int, other: int) -> int:
    """The empty cells where ``own`` completes a line."""
    return completing_cells(lines, own, other) & ~(own | other)


def _complete(lines: tuple[int, ...], marks: int) -> bool:
    return any(marks & line == line for line in lines)


def reference_wins(geometry: Geometry, own: int, other: int, moves: int, fours_only: bool) -> bool:
    """Whether the side to move (``own``) wins within ``moves`` of its moves against every defence:
    plain minimax over every move of the attacker (only those that leave a line to complete, with
    ``fours_only``) and every reply of the defender. Two facts cut it short, each plain: a reply
    that leaves the attacker a line to complete loses at once, and a defender's mark never gives
    the attacker a line to complete."""
    lines, full = geometry.lines, geometry.full_mask

    @cache
    def wins(own: int, other: int, left: int) -> bool:
        if _completions(lines, own, other):
            return True
        if left <= 1:
            return False
        empty = full & ~(own | other)
        for move in mask_cells(empty):
            mine = own | 1 << move
            if _completions(lines, other, mine):
                continue  # the defender completes a line in reply
            threats = _completions(lines, mine, other)
            if fours_only and not threats:
                continue
            replies = empty & ~(1 << move)
            if not replies:
                continue  # the board is full: a draw
            if threats:
                if threats & (threats - 1):
                    return True  # two cells to complete: one reply cannot take both
                replies &= threats  # any other reply loses at once
            elif left - 1 <= 1:
                continue  # no line to complete now, and a reply gives none
            if all(wins(mine, other | 1 << reply, left - 1) for reply in mask_cells(replies)):
                return True
        return False

    return wins(own, other, moves)


def random_position(spec: str, stones: int, seed: int, spread: int = 2) -> Position:
    """A position of ``stones`` marks played in turn near each other (a mark within ``spread``
    steps of one already there, the first near the centre), the game not over when it ends."""
    geometry = Geometry.parse(spec)
    rng = random.Random(seed)
    position = Position.empty(geometry)
    near = geometry.neighbourhood(spread)
    centre = geometry.cell_at(tuple(side // 2 for side in geometry.shape))
    for _ in range(stones):
        occupied = position.x | position.o
        zone = near[centre] | 1 << centre
        for cell in mask_cells(occupied):
            zone |= near[cell]
        cells = mask_cells(zone & ~occupied)
        if not cells:
            break
        after = position.play(rng.choice(cells))
        if after.is_over:
            break
        position = after
    return position


def sides(position: Position, attacker: str) -> tuple[int, int]:
    return (position.x, position.o) if attacker == "x" else (position.o, position.x)


def plays_out(position: Position, attacker: str, line: tuple[int, ...]) -> None:
    """Play a win by fours move by move with Position's own rules: every move legal, and at each
    turn of the defender every reply but the line's loses at once (the attacker then has a line to
    complete and the defender none), the last move completing a line of the attacker."""
    state = Position(position.geometry, position.x, position.o)
    turn = attacker
    own_is_x = attacker == "x"
    for index, move in enumerate(line):
        assert state.empty_mask >> move & 1, (index, move)
        bit = 1 << move
        if (index % 2 == 0) == own_is_x:
            state = Position(state.geometry, state.x | bit, state.o)
        else:
            state = Position(state.geometry, state.x, state.o | bit)
        if index % 2 == 0 and index < len(line) - 1:
            own, other = sides(state, attacker)
            lines = state.geometry.lines
            assert not _completions(lines, other, own), "the defender would complete a line"
            for reply in mask_cells(state.empty_mask):
                if reply != line[index + 1]:
                    assert _completions(lines, own, other | 1 << reply), (index, reply)
        turn = "o" if turn == "x" else "x"
    assert state.winner == attacker


# -- small boards: the searches against the references --------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    spec=st.sampled_from(["7x7,k=5", "8x8,k=5", "9x9,k=5"]),
    stones=st.integers(6, 22),
)
def test_vcf_matches_the_plain_search_over_every_four(seed: int, spec: str, stones: int) -> None:
    position = random_position(spec, stones, seed)
    for attacker in ("x", "o"):
        own, other = sides(position, attacker)
        for moves in (1, 2, 3, 4):
            found = find_vcf(position, attacker, max_moves=moves, nodes=None)  # type: ignore[arg-type]  # a side
            assert found.exhausted
            expected = reference_wins(position.geometry, own, other, moves, fours_only=True)
            assert found.found == expected, (position.to_letters(rows=True), attacker, moves)
            if found.proof is not None:
                assert found.proof.attacker_moves <= moves
                assert check(position, attacker, found.proof)  # type: ignore[arg-type]  # a side
                plays_out(position, attacker, found.line)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    spec=st.sampled_from(["7x7,k=5", "8x8,k=5"]),
    stones=st.integers(6, 18),
    threat_moves=st.sampled_from([2, 3]),
)
def test_short_wins_by_threats_match_minimax_over_every_move(
    seed: int, spec: str, stones: int, threat_moves: int
) -> None:
    """Within three moves of the attacker a forced win is always made of fours and threats (a
    first move that is no threat would leave the defender a free move, and a defender's mark never
    helps the attacker), so the threat search finds exactly what full minimax finds."""
    position = random_position(spec, stones, seed)
    for attacker in ("x", "o"):
        own, other = sides(position, attacker)
        for moves in (2, 3):
            found = find_vct(
                position,
                attacker,  # type: ignore[arg-type]  # a side
                max_moves=moves,
                threat_moves=threat_moves,
                nodes=None,
            )
            expected = reference_wins(position.geometry, own, other, moves, fours_only=False)
            assert found.found == expected, (position.to_letters(rows=True), attacker, moves)
            if found.proof is not None:
                assert found.proof.attacker_moves <= moves
                assert check(position, attacker, found.proof)  # type: ignore[arg-type]  # a side


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), stones=st.integers(10, 40))
def test_every_win_found_on_a_big_board_passes_the_check(seed: int, stones: int) -> None:
    position = random_position("15x15,k=5", stones, seed)
    for attacker in ("x", "o"):
        found = tactics.forced_win(position, attacker, seconds=None, nodes=3000, checked=False)  # type: ignore[arg-type]  # a side
        if found.proof is None:
            continue
        assert check(position, attacker, found.proof)  # type: ignore[arg-type]  # a side
        if found.by_fours:
            plays_out(position, attacker, found.line)
        # the main line is legal, alternating from the attacker, and ends with its five
        state = Position(position.geometry, position.x, position.o)
        for index, move in enumerate(found.line):
            mark = attacker if index % 2 == 0 else ("o" if attacker == "x" else "x")
            bit = 1 << move
            assert state.empty_mask & bit
            state = (
                Position(state.geometry, state.x | bit, state.o)
                if mark == "x"
                else Position(state.geometry, state.x, state.o | bit)
            )
        assert state.winner == attacker


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), stones=st.integers(8, 30))
def test_a_reply_off_the_relevant_cells_leaves_the_win_by_fours_standing(
    seed: int, stones: int
) -> None:
    """The defences a threat search looks at: after any other move of the defender (played as if
    it moved now), the attacker's line of fours still wins, played out against every defence."""
    position = random_position("11x11,k=5", stones, seed)
    rng = random.Random(seed)
    for attacker in ("x", "o"):
        found = find_vcf(position, attacker, nodes=None)  # type: ignore[arg-type]  # a side
        if found.proof is None or len(found.line) < 3:
            continue
        relevant = set(tactics.relevant_cells(position, attacker, found.line))  # type: ignore[arg-type]  # a side
        assert relevant <= set(position.empty_cells)
        others = [cell for cell in position.empty_cells if cell not in relevant]
        for cell in rng.sample(others, min(6, len(others))):
            bit = 1 << cell
            after = (
                Position(position.geometry, position.x, position.o | bit)
                if attacker == "x"
                else Position(position.geometry, position.x | bit, position.o)
            )
            assert check(after, attacker, line_proof(found.line)), (cell, found.line)  # type: ignore[arg-type]  # a side


# -- the check itself -----------------------------------------------------------------------------------


def test_the_check_refuses_what_does_not_win() -> None:
    geometry = Geometry.parse("9x9,k=5")
    at = lambda row, col: geometry.cell_at((row, col))  # noqa: E731
    x = sum(1 << at(4, col) for col in (2, 3, 4))  # X: three in the middle row, both ends open
    o = (1 << at(0, 0)) | (1 << at(8, 8))
    position = Position(geometry, x, o)
    found = find_vct(position, "x", max_moves=3, nodes=None)
    assert found.proof is not None and check(position, "x", found.proof)
    assert found.by_fours  # an open three becomes an open four: a win by fours
    # two twos crossing at (4, 4): X's move there makes two open threes, a win by threats only
    cross = sum(1 << at(row, col) for row, col in ((4, 2), (4, 3), (2, 4), (3, 4)))
    double = Position(geometry, cross, o)
    assert not find_vcf(double, "x", nodes=None).found
    threats = find_vct(double, "x", max_moves=3, nodes=None)
    assert threats.proof is not None and not threats.by_fours
    assert threats.line[0] == at(4, 4) and check(double, "x", threats.proof)
    assert (
        not check(
            double,
            "x",
            Proof(threats.proof.move, threats.proof.replies[1:], threats.proof.fallback),
        )
        or len(threats.proof.replies) == 0
    )
    # X making an open four (col 5): O blocks one end, X completes the other
    open_four = Proof(at(4, 5), ((at(4, 6), tactics.five(at(4, 1))),))
    assert check(position, "x", open_four)
    # a four that the defender blocks does not win on its own
    blocked = Proof(at(4, 5), ((at(4, 1), tactics.five(at(4, 6))),))
    assert check(position, "x", blocked)  # after (4,1) the other end is still open: still a win
    one_end = Position(geometry, x, o | 1 << at(4, 1))
    assert not check(one_end, "o", tactics.five(at(4, 5)))  # not O's line
    assert not check(one_end, "x", Proof(at(4, 5), ((at(4, 6), tactics.five(at(4, 7))),)))
    # a proof that plays on a taken cell, or leaves a reply unanswered, fails
    assert not check(position, "x", tactics.five(at(4, 2)))
    assert not check(position, "x", Proof(at(7, 7)))
    assert not check(position, "x", Proof(at(4, 5), ((at(4, 6), tactics.five(at(4, 6))),)))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), stones=st.integers(8, 24))
# Found by CI: a line whose last move leaves two cells to complete (a double four) wins in full,
# and the fallback check used to say it did not.
@example(seed=3949, stones=16)
def test_the_check_plays_a_fallback_line_after_a_reply_as_a_full_replay_would(
    seed: int, stones: int
) -> None:
    """The check plays a threat's fallback line after each of the defender's other replies by
    looking again only at the lines through that reply; the same line played out in full, with
    the plain rules, after the same reply, gives the same answer (right or wrong lines alike)."""
    position = random_position("11x11,k=5", stones, seed)
    rng = random.Random(seed)
    geometry = position.geometry
    through = tuple(
        tuple(geometry.lines[i] for i in indices) for indices in tactics._lines_through(geometry)
    )
    checker = tactics._Checker(geometry.lines, through, geometry.full_mask)
    for attacker in ("x", "o"):
        own, other = sides(position, attacker)
        found = find_vcf(position, attacker, nodes=None)  # type: ignore[arg-type]  # a side
        if found.proof is None or len(found.line) < 3:
            continue
        line = found.line
        # the attacker's first move of the line played as a threat, the rest as its fallback
        cells = list(range(geometry.size))
        wrong_end = line[:-1] + (rng.choice(cells),)
        wrong_middle = line[:1] + (rng.choice(cells),) + line[2:]
        for variant in (line, wrong_end, wrong_middle):
            fallback = tactics._Line(checker, own, other, variant)
            for reply in rng.sample(position.empty_cells, min(25, len(position.empty_cells))):
                plain = checker.proof(own, other | 1 << reply, line_proof(variant))
                assert fallback.wins_after(reply) == plain, (variant, reply)


def test_lines_of_fours_and_their_proofs() -> None:
    proof = line_proof((1, 2, 3, 4, 5))
    assert proof == Proof(1, ((2, Proof(3, ((4, tactics.five(5)),))),))
    assert proof.principal() == (1, 2, 3, 4, 5) and proof.attacker_moves == 3 and proof.all_fours()
    with pytest.raises(ValueError):
        line_proof((1, 2))
    assert json.dumps(proof.to_dict())


def test_points_name_cells_as_players_do() -> None:
    geometry = Geometry.parse("15x15,k=5")
    assert tactics.point_name(geometry, geometry.cell_at((7, 7))) == "h8"
    assert tactics.point_name(geometry, 0) == "a15"
    assert tactics.point_name(geometry, 224) == "o1"
    for cell in (0, 17, 112, 224):
        assert tactics.parse_point(geometry, tactics.point_name(geometry, cell)) == cell
        assert tactics.parse_point(geometry, str(cell)) == cell
    assert tactics.parse_point(geometry, "H8") == 112
    for bad in ("p1", "a16", "a0", "225", "h"):
        with pytest.raises(MoveError):
            tactics.parse_point(geometry, bad)
    assert tactics.point_name(Geometry.parse("3x3x3"), 5) == "5"


def test_a_finished_game_or_an_unknown_attacker_is_refused() -> None:
    geometry = Geometry.parse("7x7,k=5")
    won = Position(geometry, sum(1 << cell for cell in range(5)), 0b1111 << 7)
    with pytest.raises(PositionError):
        find_vcf(won)
    impossible = Position(geometry, 0, 0b11)
    with pytest.raises(PositionError):
        find_vct(impossible)
    assert not find_vct(impossible, "x").found


# -- quintet's cases ----------------------------------------------------------------------------------


def cases(*names: str) -> list[Case]:
    chosen = {case.name: case for case in read_cases()}
    return [chosen[name] for name in names]


def test_the_suite_is_read_and_chosen_as_its_file_says() -> None:
    every = read_cases()
    groups = [case.group for case in every]
    assert groups.count("Black wins") == 39
    assert groups.count("White has no win") == 19
    assert groups.count("White wins by fours") == 1
    assert all(case.position.geometry.spec == "15x15,k=5" for case in every)
    (white,) = cases("vcf_white")
    assert not line_holds(white)  # Black may block at K11 in free-style: the case is left out
    for case in every:
        if case.line:
            assert all(case.position.empty_mask >> cell & 1 for cell in case.line[:1])


@pytest.mark.parametrize(
    "case", cases("vcf_black", "vcf_counter", "vcf_long"), ids=lambda c: c.name
)
def test_the_quick_vcf_cases_are_solved(case: Case) -> None:
    found = find_vcf(case.position, case.attacker, max_moves=case.limit + 1)  # type: ignore[arg-type]  # a side
    assert found.proof is not None
    assert check(case.position, case.attacker, found.proof)  # type: ignore[arg-type]  # a side
    plays_out(case.position, case.attacker, found.line)
    assert line_holds(case)  # the source's own line wins with the free-style rules too


def test_a_vcf_case_one_move_short_has_no_win_by_fours() -> None:
    (case,) = cases("vcf_white_short")
    found = find_vcf(case.position, case.attacker, max_moves=case.limit + 1, nodes=None)  # type: ignore[arg-type]  # a side
    assert found.exhausted and not found.found
    assert "no win by continuous fours within" in found.summary()


QUICK_VCT = (
    "vct_black",
    "vct_forbidden_breaker",
    "vct_game_black_l03_1",
    "vct_game_black_l03_2",
    "vct_game_black_l03_3",
    "vct_game_black_l05_1",
    "vct_game_black_l06_1",
    "vct_game_black_l07_1",
    "vct_game_black_l07_2",
)


@pytest.mark.parametrize("case", cases(*QUICK_VCT), ids=lambda c: c.name)
def test_quick_vct_cases_are_solved_and_checked(case: Case) -> None:
    found = find_vct(
        case.position,
        case.attacker,  # type: ignore[arg-type]  # a side
        max_moves=case.limit + 1,
        threat_moves=case.threat_limit + 1,
        nodes=50_000,
    )
    assert found.proof is not None
    assert found.proof.attacker_moves <= case.limit + 1
    assert check(case.position, case.attacker, found.proof)  # type: ignore[arg-type]  # a side


@pytest.mark.parametrize(
    "case",
    cases("vct_white_short", "vct_game_white_l03_1_short", "vct_game_white_l07_1_short"),
    ids=lambda c: c.name,
)
def test_cases_without_a_win_get_none(case: Case) -> None:
    found = find_vct(
        case.position,
        case.attacker,  # type: ignore[arg-type]  # a side
        max_moves=case.limit + 1,
        threat_moves=case.threat_limit + 1,
        nodes=50_000,
    )
    assert not found.found and found.exhausted
    assert "proves nothing" in found.summary()


# -- the engine and the analysis ----------------------------------------------------------------------


def test_hard_plays_a_forced_win_and_stops_the_opponents() -> None:
    (case,) = cases("vcf_black")
    game = find_game("15x15,k=5")
    assert game.gomoku and not find_game("5x5,k=4").gomoku
    position = Position(case.position.geometry, case.position.x, case.position.o)
    engine = game.make_engine("hard", position, seconds=2.0, seed=1)
    report = engine.search(position) if hasattr(engine, "search") else None  # type: ignore[attr-defined]  # AlphaBetaEngine
    assert report is not None and report.value == "x"
    after = position.play(report.move)
    assert find_vcf(after, "x", nodes=None).found  # the win by fours goes on
    # O to move against X's open three (h8 i8 j8): every move off the cells that matter loses
    geometry = position.geometry
    x = sum(1 << tactics.parse_point(geometry, point) for point in ("h8", "i8", "j8"))
    o = sum(1 << tactics.parse_point(geometry, point) for point in ("a1", "o15"))
    defending = Position(geometry, x, o)
    assert defending.to_move == "o"
    threat = find_vcf(defending, "x", nodes=None)
    assert threat.found and len(threat.line) == 3
    defences = set(tactics.relevant_cells(defending, "x", threat.line))
    advice = tactics.engine_advice(defending, 2.0)
    assert advice is not None and advice.move is None and advice.defences
    assert set(advice.defences) <= defences
    for cell in advice.defences:
        assert not find_vcf(defending.play(cell), "x", nodes=None).found
    move = game.make_engine("hard", defending, seconds=1.0, seed=1).choose(defending)
    assert move in advice.defences
    assert not find_vcf(defending.play(move), "x", nodes=None).found


def _with_turn(position: Position, turn: str) -> Position:
    """The same marks with ``turn`` to move: a mark of the other side moved to a far corner cell
    (away from the play), so that the counts give the turn."""
    if position.turn == turn:
        return position
    geometry = position.geometry
    corner = next(
        cell
        for cell in (geometry.size - 1, 0, geometry.shape[1] - 1)
        if position.empty_mask >> cell & 1
    )
    if turn == "o":  # X has one mark more: give X one more in a corner
        return Position(geometry, position.x | 1 << corner, position.o)
    return Position(geometry, position.x, position.o | 1 << corner)


def test_analyze_reports_the_forced_win_in_coordinates_and_cells() -> None:
    from oxo import api

    (case,) = cases("vcf_counter")
    position = _with_turn(case.position, "x")
    analysis = api.analyze(position, seconds=2.0)
    assert analysis.value is None and analysis.forced_win is not None
    assert analysis.forced_win.found and analysis.winner == "x"
    data = analysis.to_dict()
    assert data["forced_win"]["found"] and data["forced_win"]["points"][0] == "i8"
    assert data["forced_win"]["line"][0] == tactics.parse_point(position.geometry, "i8")
    text = "\n".join(analysis.text_lines())
    assert "forced win:     X wins by continuous fours" in text and "i8" in text
    small = api.analyze(Position.parse("x...o....", "3x3"))
    assert small.forced_win is None and "forced_win" in small.to_dict()


def test_oxo_analyze_shows_the_win_and_takes_time_on_gomoku_boards(capsys) -> None:
    from oxo.cli import main

    (case,) = cases("vcf_counter")
    text = _with_turn(case.position, "x").to_letters(rows=True)
    # A proven forced win is the value: one answer per question, exit 0.
    assert main(["analyze", text, "--k", "5", "--time", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["forced_win"]["found"] and data["forced_win"]["attacker"] == "x"
    assert data["value"] == "x" and data["proven"]["outcome"] == "x"
    assert main(["analyze", text, "--k", "5", "--time", "1"]) == 0
    captured = capsys.readouterr()
    assert "forced win:" in captured.out and "value:          X wins" in captured.out
    assert main(["analyze", "x...o....", "--time", "1"]) == 2
