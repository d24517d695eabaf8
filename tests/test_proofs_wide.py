"""The proof search for boards of more than 64 cells (oxo.proofs.wide, compiled in
oxo.proofs.widekernel), held to the plain search on small boards: the same values, strategies the
certificate checker accepts, and wins by continuous fours played out right."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkers import checker_verdict
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.proofs import widekernel as wk
from oxo.proofs.certificate import (
    Certificate,
    MoveEntry,
    StrategyHeader,
    status_string,
    verify_certificate,
    write_certificate,
)
from oxo.proofs.merge import certificate_lines
from oxo.proofs.reference import ReferenceSearch
from oxo.proofs.rules import ChainSearch, Rules
from oxo.proofs.strategy import Entry
from oxo.proofs.threats import Plan
from oxo.proofs.wide import CHAIN_BOUND, RATED_THREATS, WideSearch


def random_positions(geometry: Geometry, rng: random.Random, draws: int) -> list[Position]:
    """Of ``draws`` random games of 2 to 6 plies, the positions where no line was made yet."""
    found = []
    for _ in range(draws):
        position = Position.empty(geometry)
        for _ in range(rng.randrange(2, 7)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves))
        if not position.is_over:
            found.append(position)
    return found


@pytest.mark.parametrize(
    ("spec", "attacker"),
    [("3x3", "x"), ("3x3", "o"), ("4x4,k=3", "x"), ("3x3x3", "x"), ("2x2x2x2,k=2", "x")],
)
def test_the_value_of_the_empty_board_is_the_plain_searchs(spec: str, attacker: str) -> None:
    geometry = Geometry.parse(spec)
    wide = WideSearch(geometry, attacker, table_bytes=1 << 20)
    assert wide.solve() == ReferenceSearch(geometry, attacker).solve()


@pytest.mark.parametrize("rated", [RATED_THREATS, 1])
@pytest.mark.parametrize("spec", ["4x4,k=3", "3x3x3", "5x5,k=4", "4x5,k=4"])
def test_positions_get_the_plain_searchs_values(spec: str, rated: int) -> None:
    """Random positions a few plies in (no line yet): each side's question answered alike where
    both searches settle it within their budgets (without pairings the wide search settles fewer
    draws: it may not know, but it never contradicts), with the attacker's moves rated until the
    default number of threats is found and until the first."""
    geometry = Geometry.parse(spec)
    compared = 0
    for position in random_positions(geometry, random.Random(spec), 12):
        for attacker in ("x", "o"):
            plain = ReferenceSearch(geometry, attacker, max_nodes=5_000).solve(
                position.x, position.o
            )
            if plain is None:
                continue
            wide = WideSearch(
                geometry, attacker, table_bytes=1 << 20, max_nodes=10_000, rated_threats=rated
            )
            answer = wide.solve(position.x, position.o)
            assert answer in (None, plain), position.to_letters(rows=True)
            compared += answer is not None
    assert compared >= 4


@pytest.mark.parametrize(("spec", "attacker"), [("4x4,k=3", "x"), ("3x3x3", "x"), ("3x3", "o")])
def test_its_strategies_are_accepted_by_the_checker(
    tmp_path: Path, spec: str, attacker: str
) -> None:
    geometry = Geometry.parse(spec)
    search = WideSearch(geometry, attacker, table_bytes=1 << 20)
    proven = search.solve()
    assert proven is not None
    side = attacker if proven else ("o" if attacker == "x" else "x")
    guarantee = "win" if proven else "no-loss"
    path = tmp_path / "strategy.jsonl.gz"
    rules = search.rules if proven else Rules()
    header = StrategyHeader(geometry.shape, geometry.k, side, guarantee, rules=rules)  # type: ignore[arg-type]
    write_certificate(path, header, certificate_lines(geometry, search.strategy()))
    assert verify_certificate(path).valid


def test_a_win_leaves_its_runs_of_fours_to_the_chain_rule(tmp_path: Path) -> None:
    """9x9 with k = 4, X wins: read with the chain rule the strategy holds a few dozen entries where
    the same search's strategy with its wins by fours played out holds thousands; the certificate
    whose header names the rule is accepted by oxo's checker (with its compiled chain search and
    classes, and with the plain ones: the same walk) and by the one without oxo, and
    refused when the header's bound is too short for the chains it leaves out (the strategies with
    wins played out are checked on small boards above: on this one the check takes 20 s). Every
    position the reader left to the rule has a chain by the exhaustive search (300 of them drawn)."""
    geometry = Geometry.parse("9x9,k=4")
    search = WideSearch(geometry, "x", table_bytes=1 << 26)
    assert search.solve() is True
    assert search.rules == Rules(chain=CHAIN_BOUND)
    left: list[tuple[int, int]] = []
    witness = search._is_chain

    def recorded(x: int, o: int, plan: Plan) -> bool:
        kept = witness(x, o, plan)
        if kept:
            left.append((x, o))
        return kept

    search._is_chain = recorded  # type: ignore[method-assign]
    ruled = search.strategy()
    search._is_chain = witness  # type: ignore[method-assign]
    search.rules = Rules()
    played = search.strategy()
    assert left and 10 * len(ruled) < len(played)
    chains = ChainSearch(geometry.lines)
    drawn = random.Random(9).sample(left, min(len(left), 300))
    assert all(chains.exists(x, o, CHAIN_BOUND) for x, o in drawn)

    def write(name: str, entries: list[Entry], rules: Rules) -> Path:
        path = tmp_path / name
        header = StrategyHeader(geometry.shape, geometry.k, "x", "win", rules=rules)
        write_certificate(path, header, certificate_lines(geometry, entries))
        return path

    with_rule = write("ruled.jsonl.gz", ruled, Rules(chain=CHAIN_BOUND))
    compiled = verify_certificate(with_rule)  # 81 cells: the kernels over words of masks
    plain = verify_certificate(with_rule, compiled=False)
    assert compiled.valid and compiled.rule_chains > 0
    assert (plain.valid, plain.positions_checked, plain.rule_chains) == (
        True,
        compiled.positions_checked,
        compiled.rule_chains,
    )
    assert checker_verdict(with_rule)[0] == 0
    assert not verify_certificate(write("short.jsonl.gz", ruled, Rules(chain=1))).valid


def test_a_small_table_is_cleared_and_the_search_still_settles() -> None:
    """9x9 with k = 4 in a table of 1 MB (32,768 positions): the search fills it again and
    again, lets its positions of least work go, and settles the board in some thousands of
    positions, as with a large table. Before 2026-11-29 a child settled and then replaced in the
    table looked new to its parent and was searched again without end: the same search had not
    settled the board after 200,000 positions."""
    geometry = Geometry.parse("9x9,k=4")
    search = WideSearch(geometry, "x", table_bytes=1 << 20)
    assert search.solve_until(0, 0, None, 100_000) is True
    assert search.collections > 0
    assert search.statistics()["table_collections"] == search.collections
    assert search.stats[wk.ST_ENTRIES] < len(search.table[0])


def test_a_win_by_continuous_fours_is_played_out() -> None:
    """On 4x4x4x4, both sides playing among the engines' six most promising cells: once the search
    finds X a win by continuous fours, the plan is a chain of fours and forced blocks, and playing
    it out (O answering each four where it must) leaves X a line to complete, or two."""
    geometry = Geometry.parse("4x4x4x4")
    search = WideSearch(geometry, "x", table_bytes=1 << 20)
    position = Position.empty(geometry)
    rng = random.Random(4)
    found = None
    while found is None and position.ply < 30:
        if position.to_move == "x":
            found = search.threat_plan(position.x, position.o)
            if found is not None:
                break
        position = position.play(rng.choice(position.candidate_moves()[:6]))
    assert found is not None
    _, _, plan = found
    while plan.replies:
        position = position.play(plan.move)
        block, plan = plan.replies[0]
        assert position.winning_moves("x") == (block,)  # a four: O must take that cell
        assert not position.winning_moves("o")
        position = position.play(block)
    position = position.play(plan.move)
    assert position.winner == "x" or len(position.winning_moves("x")) >= 2


@pytest.mark.parametrize("spec", ["4x4x4x4", "9x9,k=4", "4x4x4,gravity", "3x3x3"])
def test_the_tallies_are_the_lines_counted_again(spec: str) -> None:
    """After random boards loaded and marks placed and taken back, the tallies kept after the
    lines' counts (:func:`oxo.proofs.widekernel.new_counts`) are the lines counted again: per side,
    those it lacks one mark of, two, and those open to it."""
    geometry = Geometry.parse(spec)
    search = WideSearch(geometry, "x", table_bytes=1 << 16)
    rng = random.Random(2)
    lines, k = len(search.lines), search.k
    for _ in range(60):
        cells = rng.sample(range(geometry.size), geometry.size)
        owners = np.zeros(geometry.size, np.int8)
        marked = rng.randrange(geometry.size)
        for i, c in enumerate(cells[:marked]):
            owners[c] = 1 + i % 2
        wk.load(search.cell, search.cnt, search.thr, search.thrn, owners, k)
        placed = [(c, rng.randrange(2)) for c in cells[marked : marked + 6]]
        for c, side in placed:
            wk.place(search.cell, search.cnt, search.thr, search.thrn, c, side, k)
        for c, side in reversed(placed[2:]):
            wk.unplace(search.cell, search.cnt, search.thr, search.thrn, c, side, k)
        counts = search.cnt[:lines].astype(int)
        for side in (0, 1):
            own, other = counts[:, side], counts[:, 1 - side]
            expected = [
                int(((own == k - 1) & (other == 0)).sum()),
                int(((own == k - 2) & (other == 0)).sum()),
                int((other == 0).sum()),
            ]
            assert [int(search.cnt[lines + row, side]) for row in range(3)] == expected


@pytest.mark.parametrize("spec", ["4x4x4x4", "9x9,k=4", "4x4x4,gravity", "3x3x3x3x3,k=3"])
def test_the_moves_are_ordered_as_their_scores_say(spec: str) -> None:
    """``ordered_moves`` gives the cells a side may mark, highest score first and the lower cell
    first among equals, as a plain sort of the scores counted again here (each line through the
    cell open to one side adds 4 to the power of that side's marks in it); with gravity, only the
    lowest empty cell of a column, and not one under a cell where the other side completes a line."""
    geometry = Geometry.parse(spec)
    search = WideSearch(geometry, "x", table_bytes=1 << 16)
    rng = random.Random(5)
    lines = [tuple(int(c) for c in line) for line in search.lines]
    through = [[i for i, line in enumerate(lines) if c in line] for c in range(geometry.size)]
    k = search.k
    below = search.board[3]
    tried = 0
    for position in random_positions(geometry, rng, 80):
        search._load(position.x, position.o)
        owners = [int(v) for v in search.cell]  # 1 X, 2 O, 0 empty
        assert sum(v == 1 for v in owners) == position.x.bit_count()
        for side in (0, 1):
            count = wk.ordered_moves(
                *search.board[:7], side, search.moves, search.scores
            )  # fmt: skip
            marks = [[sum(owners[c] == who + 1 for c in line) for line in lines] for who in (0, 1)]
            expected = []
            for c in range(geometry.size):
                if owners[c] or (below[c] >= 0 and not owners[below[c]]):
                    continue
                above = search.board[4][c]
                if above >= 0 and any(
                    marks[1 - side][i] == k - 1 and marks[side][i] == 0 for i in through[above]
                ):
                    continue
                score = sum(
                    4 ** marks[side][i] * (marks[1 - side][i] == 0)
                    + 4 ** marks[1 - side][i] * (marks[side][i] == 0)
                    for i in through[c]
                )
                expected.append((-score, c))
            expected.sort()
            assert [int(m) for m in search.moves[:count]] == [c for _, c in expected]
            assert [int(v) for v in search.scores[:count]] == [-v for v, _ in expected]
            tried += count
    assert tried > 1000


@pytest.mark.parametrize("spec", ["4x4x4x4", "9x9,k=4"])
def test_a_win_by_continuous_fours_is_found_where_a_forced_chain_is(spec: str) -> None:
    """The compiled search for a win by continuous fours, given all the positions it wants,
    finds one exactly where the certificate's definition of a forced chain
    (:class:`oxo.proofs.rules.ChainSearch`, exhaustive) does: on random positions of the engines'
    most promising cells, either side to move."""
    geometry = Geometry.parse(spec)
    chains = ChainSearch([sum(1 << c for c in line) for line in geometry.line_cells])
    search = WideSearch(geometry, "x", table_bytes=1 << 16, vcf_budget=1 << 20)
    rng = random.Random(11)
    found = missed = 0
    for _ in range(100):
        position = Position.empty(geometry)
        for _ in range(rng.randrange(4, 24)):
            position = position.play(rng.choice(position.candidate_moves()[:10]))
            if position.is_over:
                break
        if position.is_over or position.winning_moves(position.to_move):
            continue
        side = 0 if position.to_move == "x" else 1
        own, other = (position.x, position.o) if side == 0 else (position.o, position.x)
        search._load(position.x, position.o)
        h = np.uint64(wk.position_hash(search.cell, search.zob))
        length = wk.vcf(search.board, side, 1 << 20, search.vs, search.plan, h)
        assert (length > 0) == chains.exists(own, other, geometry.size // 2), (
            position.x,
            position.o,
        )
        found += length > 0
        missed += length == 0
    assert found >= 5 and missed >= 5


@pytest.mark.parametrize("spec", ["4x4x4x4", "9x9,k=4", "4x4x4,gravity"])
def test_positions_without_a_win_by_fours_are_remembered_and_change_no_answer(spec: str) -> None:
    """The record of positions without a win by continuous fours, kept by one scratch from one
    search to the next, gives each search the answer and plan of a fresh scratch, for either side
    searched on the same positions (a record that forgot whose win it was would answer O's search
    with X's), and spares positions."""
    geometry = Geometry.parse(spec)
    search = WideSearch(geometry, "x", table_bytes=1 << 16, vcf_budget=1 << 20)
    rng = random.Random(5)
    kept = fresh = compared = found = 0
    for _ in range(25):
        position = Position.empty(geometry)
        for _ in range(rng.randrange(4, 20)):
            position = position.play(rng.choice(position.candidate_moves()[:8]))
            if position.is_over:
                break
            search._load(position.x, position.o)
            h = np.uint64(wk.position_hash(search.cell, search.zob))
            for side in (0, 1):
                length = wk.vcf(search.board, side, 1 << 20, search.vs, search.plan, h)
                kept += int(search.vs[9][0])
                plan = search.plan[:length].tolist()
                alone = wk.scratch(geometry.size, len(geometry.line_cells))
                expected = wk.vcf(search.board, side, 1 << 20, alone, search.plan, h)
                fresh += int(alone[9][0])
                assert (length, plan) == (expected, search.plan[:expected].tolist()), (
                    position.x,
                    position.o,
                    side,
                )
                compared += 1
                found += length > 0
    assert compared > 100 and 10 <= found < compared - 10
    assert kept < fresh


def test_the_attacker_s_moves_are_rated_until_enough_threats_are_found() -> None:
    """4x4x4x4, six plies in, X to move (no win by continuous fours at once, some fifty threats
    among its moves): after the first position of a search, X's moves start at 2 where a threat
    was found, and with ``rated_threats=2`` exactly two do; every other move starts at O's
    replies, unrated."""
    geometry = Geometry.parse("4x4x4x4")
    position = Position.from_moves(geometry, [170, 86, 102, 89, 90, 150])
    x, o = position.x, position.o
    replies = geometry.size - 7
    found = {}
    for rated in (2, 1 << 30):
        search = WideSearch(geometry, "x", table_bytes=1 << 20, rated_threats=rated)
        assert search.solve_until(x, o, None, 1) is None
        numbers = [search.numbers_of(x | 1 << c, o) for c in position.legal_moves]
        assert all(pn in (1, 2, replies) and dn == 1 for pn, dn in numbers), set(numbers)
        found[rated] = sum(pn == 2 for pn, _ in numbers)
    assert found[2] == 2 and found[1 << 30] > 2


def o_to_move(
    geometry: Geometry,
    rng: random.Random,
    pairs: int,
    moves: Callable[[Position], Sequence[int]],
) -> Position | None:
    """The position after ``2 * pairs + 1`` random moves drawn from ``moves`` (O to move), or None
    when the game ended on the way."""
    position = Position.empty(geometry)
    for _ in range(pairs * 2 + 1):
        position = position.play(rng.choice(moves(position)))
        if position.is_over:
            return None
    return position


def replayed_replies(geometry: Geometry, position: Position) -> list[tuple[int, bool, bool]]:
    """X to move in ``position`` pretended (O is): X's win by continuous fours as if O passed, and
    for each reply of O that completes nothing and leaves no line to complete at once, whether
    that plan replayed after it still wins (:func:`oxo.proofs.widekernel.replay`) and whether the
    reply is off the plan's lines (:func:`oxo.proofs.widekernel.off_plan`)."""
    search = WideSearch(geometry, "x", table_bytes=1 << 16, vcf_budget=1 << 20)
    search._load(position.x, position.o)
    cell, cnt, tmp = search.cell, search.cnt, np.zeros(4, np.int64)
    board = (search.lines, search.thr, search.thrn, search.below, search.above, cell, cnt)
    h = np.uint64(wk.position_hash(cell, search.zob))
    n = wk.vcf(search.board, 0, 1 << 20, search.vs, search.plan, h)
    if n == 0:
        return []
    standing = search.plan[:n].copy()
    touched = np.zeros(len(search.lines), np.int64)
    for cell_of_plan in standing:
        touched[search.thr[cell_of_plan, : search.thrn[cell_of_plan]]] = 1
    out = []
    for reply in position.legal_moves:
        wk.place(cell, cnt, search.thr, search.thrn, reply, 1, search.k)
        quiet = all(
            wk.threats_of(search.lines, cnt, cell, search.below, search.k, side, tmp) == 0
            for side in (0, 1)
        )
        if quiet:
            wins = bool(wk.replay(*board, search.k, 0, standing, n, search.vs[14]))
            apart = bool(
                wk.off_plan(search.thr, search.thrn, search.below, search.above, touched, reply)
            )
            out.append((reply, wins, apart))
        wk.unplace(cell, cnt, search.thr, search.thrn, reply, 1, search.k)
    return out


def test_a_plan_replayed_after_a_reply_wins_only_where_a_forced_chain_does() -> None:
    """4x4x4x4, random positions among the engines' most promising cells: where the plan X would
    have if O passed, replayed after a reply of O, says X wins, the certificate's own definition of
    a forced chain (:class:`oxo.proofs.rules.ChainSearch`, exhaustive) finds one; most quiet
    replies leave the plan standing, and replies on its cells do not."""
    geometry = Geometry.parse("4x4x4x4")
    chains = ChainSearch([sum(1 << c for c in line) for line in geometry.line_cells])
    rng = random.Random(7)
    stood = fell = apart = 0
    for _ in range(16):
        position = o_to_move(geometry, rng, rng.randrange(2, 7), lambda p: p.candidate_moves()[:8])
        if position is None:
            continue
        for reply, wins, off in replayed_replies(geometry, position):
            if wins:
                after = position.play(reply)
                assert chains.exists(after.x, after.o, geometry.size // 2), (position.x, reply)
                stood += 1
            else:
                fell += 1
            assert wins or not off  # a reply off the plan's lines never needs the replay
            apart += off
    assert stood > 4 * fell > 0
    assert stood > apart > stood // 10


def test_a_plan_replayed_under_gravity_wins_only_where_x_wins() -> None:
    """With gravity (4x5, k = 3; a reply there may also open the cell above it): where the
    replayed plan says X wins after a reply of O, plain minimax over the rules agrees."""
    geometry = Geometry.parse("4x5,k=3,gravity")
    x_wins = forcing(geometry, "x")
    rng = random.Random(3)
    stood = 0
    for _ in range(60):
        position = o_to_move(geometry, rng, rng.randrange(1, 4), lambda p: p.legal_moves)
        if position is None:
            continue
        for reply, wins, off in replayed_replies(geometry, position):
            assert not off  # with gravity no reply counts as off the plan
            if wins:
                after = position.play(reply)
                assert x_wins(after.x, after.o), (position.x, position.o, reply)
                stood += 1
    assert stood >= 5


def forces_a_line(geometry: Geometry, attacker: str) -> bool:
    """Whether ``attacker`` can force a line from the empty board (:func:`forcing`)."""
    return forcing(geometry, attacker)(0, 0)


def forcing(geometry: Geometry, attacker: str) -> Callable[[int, int], bool]:
    """Whether ``attacker`` can force a line from a position (X's and O's marks), by plain
    memoised minimax over the positions' own rules (gravity's moves included)."""
    memo: dict[tuple[int, int], bool] = {}

    def value(x: int, o: int) -> bool:
        if (x, o) not in memo:
            position = Position(geometry, x, o)
            if position.winner is not None or position.is_full:
                memo[x, o] = position.winner == attacker
            else:
                children = [position.play(move) for move in position.legal_moves]
                results = (value(child.x, child.o) for child in children)
                memo[x, o] = any(results) if position.to_move == attacker else all(results)
        return memo[x, o]

    return value


@pytest.mark.parametrize(
    "spec", ["3x4,k=3,gravity", "2x2x2,gravity", "2x2x3,k=3,gravity", "3x2x2,k=2,gravity"]
)
def test_with_gravity_the_values_are_plain_minimaxs(spec: str) -> None:
    geometry = Geometry.parse(spec)
    for attacker in ("x", "o"):
        search = WideSearch(geometry, attacker, table_bytes=1 << 20)
        assert search.solve() == forces_a_line(geometry, attacker), attacker


def test_a_gravity_strategy_is_accepted_by_the_checker(tmp_path: Path) -> None:
    """X wins 4x5 with k=3 and gravity; the strategy read off the search is a certificate with
    gravity in its header that the checker walks with gravity's moves."""
    geometry = Geometry.parse("4x5,k=3,gravity")
    search = WideSearch(geometry, "x", table_bytes=1 << 20)
    assert search.solve() is True
    path = tmp_path / "gravity.jsonl.gz"
    header = StrategyHeader.for_board(geometry, "x", "win")
    write_certificate(path, header, certificate_lines(geometry, search.strategy()))
    checked = verify_certificate(path)
    assert checked.valid and checked.gravity


def test_a_search_stopped_goes_on_from_the_table_it_kept(tmp_path: Path) -> None:
    """As the search of boards up to 64 cells does: a search cut at half its positions keeps its
    table on disk; a new search of the same question reads it back and settles the board in fewer
    positions than a fresh one, with a strategy the checker accepts. A table of another question
    or board, altered, or missing is ignored; a smaller table is filled with what fits."""
    geometry = Geometry.parse("6x5,k=4")  # X wins: about 1,200 positions
    fresh = WideSearch(geometry, "x", table_bytes=1 << 20)
    assert fresh.solve() is True
    cut = WideSearch(geometry, "x", table_bytes=1 << 20, max_nodes=fresh.nodes // 2)
    assert cut.solve() is None
    path = tmp_path / "table.npz"
    kept = cut.save_table(path)
    assert kept > 0
    again = WideSearch(geometry, "x", table_bytes=1 << 20)
    assert again.load_table(path) == kept
    assert again.solve() is True
    assert again.nodes < fresh.nodes * 3 // 4
    header = StrategyHeader.for_board(geometry, "x", "win", again.rules)
    certificate = tmp_path / "x.jsonl.gz"
    write_certificate(certificate, header, certificate_lines(geometry, again.strategy()))
    assert verify_certificate(certificate).valid
    assert WideSearch(geometry, "o", table_bytes=1 << 20).load_table(path) == 0
    assert WideSearch(Geometry.parse("5x6,k=4"), "x", table_bytes=1 << 20).load_table(path) == 0
    assert WideSearch(geometry, "x", table_bytes=1 << 20, sym_plies=2).load_table(path) == 0
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    altered = tmp_path / "altered.npz"
    altered.write_bytes(bytes(data))
    assert WideSearch(geometry, "x", table_bytes=1 << 20).load_table(altered) == 0
    assert WideSearch(geometry, "x", table_bytes=1 << 20).load_table(tmp_path / "none.npz") == 0
    small = WideSearch(geometry, "x", table_bytes=1 << 10)  # the least table: 1,024 slots
    assert kept > len(small.table[0]) and small.load_table(path) == kept
    assert small.statistics()["table_entries"] == len(small.table[0])  # full


def test_a_kept_table_holds_at_most_its_limit_of_the_positions_of_most_work(
    tmp_path: Path,
) -> None:
    """``save_table(limit=...)`` keeps that many positions, those of most work (a proof run keeps
    :data:`oxo.proofs.wide.KEPT_MAX`; the benchmark that compares limits passes others)."""
    geometry = Geometry.parse("6x5,k=4")
    cut = WideSearch(geometry, "x", table_bytes=1 << 20, max_nodes=600)
    assert cut.solve() is None
    works = np.sort(cut.table[3][cut.table[0] != 0])[::-1]
    assert len(works) > 50
    path = tmp_path / "table.npz"
    assert cut.save_table(path, limit=50) == 50
    back = WideSearch(geometry, "x", table_bytes=1 << 20)
    assert back.load_table(path) == 50
    assert np.sort(back.table[3][back.table[0] != 0])[::-1].tolist() == works[:50].tolist()


def test_fixed_slices_make_a_search_repeatable_and_epsilon_changes_only_the_path() -> None:
    """With a fixed number of positions between returns to the root a search visits the same
    positions each time (the benchmark that compares epsilons and restarts relies on it); epsilon
    and the slices change which positions it visits, never the value it proves."""
    geometry = Geometry.parse("6x5,k=4")  # X wins: about 1,200 positions
    counts = set()
    for epsilon, slices in [(250, 50), (250, 50), (0, 50), (1000, 50), (250, None)]:
        search = WideSearch(geometry, "x", table_bytes=1 << 20, epsilon=epsilon, slice_nodes=slices)
        assert search.solve() is True
        assert search.epsilon == epsilon
        if slices:
            counts.add((epsilon, search.nodes))
    assert len({nodes for epsilon, nodes in counts if epsilon == 250}) == 1
    assert len({nodes for _, nodes in counts}) > 1


@pytest.mark.parametrize(
    "letters",
    [
        "..x./.o.x/..../.o..//..../..../..../....//x.../..../..../....//..../..../..o./....",
        ".x../..../..../...x//..../..../..../....//..../..o./...o/....//..../.o../..x./....",
    ],
)
def test_a_sibling_s_strategy_tried_on_a_reply_settles_it_as_the_checker_accepts(
    letters: str,
) -> None:
    """Qubic, X to move and winning six plies in (positions drawn at random). Where O is to move,
    the search first tries the strategy that settled one of O's replies on another (Kawano's
    simulation: the sibling's moves, every position checked by its own rules); some replies are
    settled so here. The value is the search's without such tries, and the strategy read from
    the table, the replies settled so included, is accepted by the checker walked from the
    position."""
    geometry = Geometry.parse("4x4x4")
    position = Position.from_string(letters, geometry)
    x, o = position.x, position.o
    without = WideSearch(geometry, "x", table_bytes=1 << 24, slice_nodes=200, sim_budget=0)
    assert without.solve(x, o) is True
    assert without.statistics()["sibling_strategies_tried"] == 0
    search = WideSearch(geometry, "x", table_bytes=1 << 24, slice_nodes=200)
    assert search.solve(x, o) is True
    statistics = search.statistics()
    assert statistics["sibling_strategies_won"] > 0
    assert statistics["sibling_strategy_positions"] > 0
    entries = tuple(
        MoveEntry(status_string(entry.x, entry.o, geometry.size), entry.move)
        for entry in search.strategy(x, o)
        if entry.move is not None
    )
    header = StrategyHeader(geometry.shape, geometry.k, "x", "win", rules=search.rules)
    assert verify_certificate(Certificate(header, entries), root=(x, o)).valid


def test_with_sibling_strategies_tried_positions_keep_the_plain_searchs_values() -> None:
    """5x5 with k = 4, random positions a few plies in, each side's question: where the search
    settled replies by a sibling's strategy, its value is the plain search's (a try that took the
    defender's replies for granted, without walking them, answers that the attacker wins where it
    does not)."""
    geometry = Geometry.parse("5x5,k=4")
    compared = won = 0
    for position in random_positions(geometry, random.Random(1), 20):
        for attacker in ("x", "o"):
            search = WideSearch(
                geometry, attacker, table_bytes=1 << 22, max_nodes=20_000, slice_nodes=200
            )
            answer = search.solve(position.x, position.o)
            tried = search.statistics()["sibling_strategies_won"]
            won += tried
            if answer is None or not tried:
                continue
            plain = ReferenceSearch(geometry, attacker, max_nodes=50_000).solve(
                position.x, position.o
            )
            if plain is not None:
                assert answer == plain, (position.to_letters(rows=True), attacker)
                compared += 1
    assert won > 0 and compared >= 5


def filled_table(
    slots: int, entries: list[tuple[int, int, int, int]]
) -> tuple[tuple[np.ndarray, ...], dict[int, tuple[int, int, int, int]]]:
    """A table of the search (keys, pn, dn, work, flags and the statistics) with ``entries``
    (key, pn, dn, work) stored in turn, and what it holds, read back slot by slot."""
    table = (
        np.zeros(slots, np.uint64),
        np.zeros(slots, np.int32),
        np.zeros(slots, np.int32),
        np.zeros(slots, np.int64),
        np.zeros(slots, np.uint8),
        np.zeros(wk.STATS, np.int64),
    )
    for key, pn, dn, work in entries:
        wk.table_store(table, np.uint64(key), pn, dn, work, key % 16)
    held = {
        int(table[0][slot]): (
            int(table[1][slot]),
            int(table[2][slot]),
            int(table[3][slot]),
            int(table[4][slot]),
        )  # fmt: skip
        for slot in np.flatnonzero(table[0])
    }
    return table, held


def weight(pn: int, dn: int, work: int) -> int:
    """An entry's weight, written out: work, four times it plus 4 when settled; past 4,096, only
    its power of two counts (the kernel takes the first of those at the cut)."""
    value = work * 4 + 4 if pn == 0 or dn == 0 else work
    return value if value < 4096 else 4096 + value.bit_length() - 1


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(1, 2**64 - 1),
            st.sampled_from([0, 1, 2, 7]),
            st.sampled_from([0, 1, 5]),
            st.one_of(st.integers(0, 12), st.integers(4000, 70_000)),
        ),
        min_size=24,
        max_size=200,
        unique_by=lambda entry: entry[0],
    ),
    st.integers(0, 72),
    st.sampled_from([32, 64]),
)
def test_a_table_cleared_in_place_keeps_the_entries_of_most_weight_where_they_are_found(
    entries: list[tuple[int, int, int, int]], keep: int, slots: int
) -> None:
    """``table_collect`` keeps ``keep`` of the entries (all when there are no more), those of most
    weight (written out here: a sort of what the table held; of two weights past 4,096 of the same
    power of two, either), each with its numbers, work and flags and found by a look-up; the
    others are found no more. ``table_heaviest`` picks the same weights, and by work the entries
    of most work."""
    table, held = filled_table(slots, entries)
    weights = sorted((weight(*numbers[:3]) for numbers in held.values()), reverse=True)
    works = sorted((weight(1, 1, numbers[2]) for numbers in held.values()), reverse=True)
    picked = wk.table_heaviest(table, keep, False)
    assert (
        sorted((weight(*held[int(table[0][s])][:3]) for s in picked), reverse=True)
        == (weights[:keep])
    )
    by_work = wk.table_heaviest(table, keep, True)
    assert (
        sorted((weight(1, 1, held[int(table[0][s])][2]) for s in by_work), reverse=True)
        == (works[:keep])
    )
    wk.table_collect(table, keep)
    kept = {int(key) for key in table[0] if key}
    assert len(kept) == int(table[5][wk.ST_ENTRIES]) == min(keep, len(held))
    assert sorted((weight(*held[key][:3]) for key in kept), reverse=True) == weights[:keep]
    for key, numbers in held.items():
        slot = wk.table_find(table[0], np.uint64(key))
        if key in kept:
            assert slot >= 0
            found = (int(table[1][slot]), int(table[2][slot]), int(table[3][slot]))
            assert (*found, int(table[4][slot])) == numbers
        else:
            assert slot < 0
