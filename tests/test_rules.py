"""Certificates with rules (oxo.proofs.rules): the forced-chain search held to its definition, the
lemma that makes its verdict enough (a chain played move by move wins against every defence), the
header's rules and symmetries, and both checkers on rules certificates, whole and broken."""

from __future__ import annotations

import gzip
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from checkers import checker_verdict
from oxo.errors import CertificateHeaderError
from oxo.geometry import Geometry, mask_cells
from oxo.position import Position
from oxo.proofs.certificate import (
    Certificate,
    MoveEntry,
    StrategyHeader,
    read_certificate,
    status_masks,
    verify_certificate,
    write_certificate,
)
from oxo.proofs.compact import compact_certificate
from oxo.proofs.rules import (
    ChainSearch,
    Rules,
    chain_witness,
    least_depth,
    rule_move,
    threats,
)
from oxo.proofs.symmetry import canonical, extra_generators, search_symmetries

BOARDS = ["4x4,k=3", "5x5,k=4", "3x3x3", "4x4x4", "6x6,k=5", "3x5,k=3"]


# -- the chain search and its definition ------------------------------------------------------------


def chain_by_definition(geometry: Geometry, own: int, other: int, depth: int) -> bool:
    """The chain rule written out plainly, over sets of cells: S to move (marks ``own``), T's marks
    ``other``."""
    if depth < 1:
        return False
    lines = [set(cells) for cells in geometry.line_cells]
    mine = set(mask_cells(own))
    theirs = set(mask_cells(other))
    empty = set(geometry.cells) - mine - theirs

    def threatened(player: set[int], opponent: set[int]) -> set[int]:
        return {
            cell
            for cell in empty - player - opponent
            for line in lines
            if cell in line and not line & opponent and line - player == {cell}
        }

    danger = threatened(theirs, mine)
    if len(danger) >= 2:
        return False
    for move in sorted(danger or empty):
        made = threatened(mine | {move}, theirs)
        if len(made) >= 2:
            return True
        if len(made) == 1 and depth >= 2:
            (block,) = made
            if chain_by_definition(geometry, own | 1 << move, other | 1 << block, depth - 1):
                return True
    return False


def random_position(geometry: Geometry, rng: random.Random) -> tuple[int, int] | None:
    """Marks of S (to move) and T, placed at random, with no line complete and no threat of S."""
    cells = list(geometry.cells)
    rng.shuffle(cells)
    count = rng.randrange(2, min(9, geometry.size // 2))
    own = sum(1 << cell for cell in cells[:count])
    other = sum(1 << cell for cell in cells[count : 2 * count - rng.randrange(2)])
    lines = geometry.lines
    if any(own & line == line or other & line == line for line in lines):
        return None
    if threats(lines, own, other):
        return None
    return own, other


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(BOARDS), st.integers(0, 10**9))
def test_the_chain_search_is_its_definition(board: str, seed: int) -> None:
    geometry = Geometry.parse(board)
    rng = random.Random(seed)
    position = random_position(geometry, rng)
    if position is None:
        return
    search = ChainSearch(geometry.lines)
    for depth in (1, 2, 3):
        assert search.exists(*position, depth) == chain_by_definition(geometry, *position, depth)
    # One move deeper, and the moves that start a chain, where the definition stays cheap.
    if geometry.size <= 27:
        expected = chain_by_definition(geometry, *position, 4)
        assert search.exists(*position, 4) == expected
        assert bool(search.moves(*position, 4)) == expected


def follow(moves: list[int], blocks: list[int] | None = None):  # type: ignore[no-untyped-def]
    """A line of play for :func:`chain_witness`: S's moves in turn, the i-th (i >= 1) only after T
    took ``blocks[i - 1]`` when blocks are given (else after any reply)."""
    state = {"step": 0}

    def path(taken: int) -> int | None:
        step = state["step"]
        if step >= len(moves) or (step and blocks is not None and blocks[step - 1] != taken):
            return None
        state["step"] = step + 1
        return moves[step]

    return path


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(BOARDS), st.integers(0, 10**9))
def test_a_line_of_play_the_witness_accepts_is_a_chain(board: str, seed: int) -> None:
    """Sound: whatever line of play it is given (the chain search's own first moves, or cells at
    random), where the witness says yes, a chain within its bound exists by the definition; and
    the chain search's own moves, played out against the forced blocks, are accepted."""
    geometry = Geometry.parse(board)
    rng = random.Random(seed)
    position = random_position(geometry, rng)
    if position is None:
        return
    own, other = position
    search = ChainSearch(geometry.lines)
    empty = [cell for cell in geometry.cells if not (own | other) >> cell & 1]
    for depth in (1, 2, 3):
        guessed = rng.sample(empty, min(len(empty), depth))
        if chain_witness(geometry.lines, own, other, follow(guessed), depth):
            assert chain_by_definition(geometry, own, other, depth)
    # The chain search's least first move, then its forced block, and so on: a chain it finds is
    # one the witness accepts along that line.
    depth = 3
    if not search.exists(own, other, depth):
        return
    moves, blocks, s, t = [], [], own, other
    for left in range(depth, 0, -1):
        move = search.first_move(s, t, left)
        assert move is not None
        moves.append(move)
        s |= 1 << move
        made = threats(geometry.lines, s, t)
        if made & (made - 1):
            break
        blocks.append(made.bit_length() - 1)
        t |= made
    assert chain_witness(geometry.lines, own, other, follow(moves, blocks), depth)
    # One move fewer than the line needs is not enough.
    if len(moves) > 1:
        assert not chain_witness(geometry.lines, own, other, follow(moves, blocks), len(moves) - 1)


def test_the_witness_refuses_a_line_that_breaks_the_definition() -> None:
    """On 5x5 (k = 4), the first random positions (seeded) with a chain of exactly two moves, and
    with a threat of T: the chain's line is accepted within two moves, not within one; a first
    move that makes no threat, an occupied cell, a line that stops, a wrong block and, where T has
    a threat, a forcing move elsewhere are each refused."""
    geometry = Geometry.parse("5x5,k=4")
    lines = geometry.lines
    search = ChainSearch(lines)
    rng = random.Random(5)
    two = their = None
    while two is None or their is None:
        position = random_position(geometry, rng)
        if position is None:
            continue
        own, other = position
        danger = threats(lines, other, own)
        if danger and not danger & (danger - 1) and their is None:
            forcing = [c for c in geometry.cells if threats(lines, own | 1 << c, other)]
            if any(1 << c != danger and not (own | other) >> c & 1 for c in forcing):
                their = (own, other, danger.bit_length() - 1, forcing)
        if two is None and not danger and search.length(own, other, 4) == 2:
            two = position
    own, other = two
    first = search.first_move(own, other, 2)
    assert first is not None
    made = threats(lines, own | 1 << first, other)
    assert made and not made & (made - 1)
    block = made.bit_length() - 1
    second = search.first_move(own | 1 << first, other | made, 1)
    assert second is not None
    assert chain_witness(lines, own, other, follow([first, second], [block]), 2)
    assert not chain_witness(lines, own, other, follow([first, second], [block]), 1)
    assert not chain_witness(lines, own, other, follow([first]), 2)  # the line stops
    assert not chain_witness(lines, own, other, follow([first, second], [block + 1]), 2)
    quiet = next(
        c
        for c in geometry.cells
        if not (own | other) >> c & 1 and not threats(lines, own | 1 << c, other)
    )
    assert not chain_witness(lines, own, other, follow([quiet, second], [block]), 2)
    taken = (other & -other).bit_length() - 1
    assert not chain_witness(lines, own, other, follow([taken, second], [block]), 2)
    own, other, danger_cell, forcing = their
    elsewhere = next(c for c in forcing if c != danger_cell and not (own | other) >> c & 1)
    assert not chain_witness(lines, own, other, follow([elsewhere]), 3)
    # S with a line to complete at once: accepted whatever the line (the win rule comes first).
    win = next(
        c
        for c in geometry.cells
        if threats(lines, own | 1 << c, other) and c != danger_cell and not (own | other) >> c & 1
    )
    s2 = own | 1 << win
    assert threats(lines, s2, other)
    assert chain_witness(lines, s2, other, follow([]), 1)


def play_the_chain_out(
    search: ChainSearch, geometry: Geometry, own: int, other: int, bound: int
) -> bool:
    """S plays :meth:`ChainSearch.first_move` at each turn; T every reply. True when S completes a
    line in every game and T never does (the lemma behind the chain rule's verdict)."""
    lines = geometry.lines
    move = search.first_move(own, other, bound)
    if move is None:
        return False
    own |= 1 << move
    for reply in mask_cells(geometry.full_mask & ~(own | other)):
        after = other | 1 << reply
        if any(after & line == line for line in lines):
            return False  # T completed a line
        if threats(lines, own, after):
            continue  # S completes a line next
        if not search.exists(own, after, bound):
            return False
        if not play_the_chain_out(search, geometry, own, after, bound):
            return False
    return True


@pytest.mark.parametrize("board", BOARDS)
def test_a_chain_played_move_by_move_wins_against_every_defence(board: str) -> None:
    geometry = Geometry.parse(board)
    search = ChainSearch(geometry.lines)
    rng = random.Random(board)
    found = 0
    for _ in range(400):
        position = random_position(geometry, rng)
        if position is None or not search.exists(*position, 6):
            continue
        found += 1
        assert play_the_chain_out(search, geometry, *position, 6)
        length = search.length(*position, 6)
        assert length is not None and search.exists(*position, length)
        assert length == 1 or not search.exists(*position, length - 1)
        if found == 8:
            break
    assert found > 0


@pytest.mark.parametrize("board", ["4x4,k=3", "4x4x4", "5x5,k=4"])
def test_the_verdict_depends_on_no_order_of_cells_or_lines(board: str) -> None:
    geometry = Geometry.parse(board)
    rng = random.Random(7)
    perms = search_symmetries(geometry)
    shuffled = list(geometry.lines)
    rng.shuffle(shuffled)
    plain, other_order = ChainSearch(geometry.lines), ChainSearch(shuffled)
    outcomes = set()
    for _ in range(150):
        position = random_position(geometry, rng)
        if position is None:
            continue
        perm = rng.choice(perms)
        image = tuple(sum(1 << perm[cell] for cell in mask_cells(marks)) for marks in position)
        verdict = plain.exists(*position, 8)
        assert other_order.exists(*position, 8) == verdict == plain.exists(*image, 8)
        outcomes.add(verdict)
    assert outcomes == {True, False}


def test_the_move_the_rules_give() -> None:
    geometry = Geometry.parse("4x4,k=3")
    header = StrategyHeader.for_board(geometry, "x", "win", Rules(block=True, chain=8))
    search = ChainSearch(geometry.lines)

    def at(status: str, header: StrategyHeader = header) -> int | None:
        return rule_move(header, *status_masks(status))

    assert at("1100220000000000") == 2  # X completes 0-1-2
    assert at("0021100000200000") == 6  # X blocks O's column 2-6-10
    # No threat on either side: the least cell that starts a chain (of two moves here).
    chain = "2000000210010000"
    x, o = status_masks(chain)
    assert search.length(x, o, 8) == 2 and search.moves(x, o, 8)[0] == at(chain) == 1
    assert at("0001102000202001") is None  # O threatens two cells: lost
    assert at("0200200010201001") is None  # nothing forced: the entry's move
    assert at("0" * 16) is None
    plain = StrategyHeader.for_board(geometry, "x", "win")
    assert at("0021100000200000", plain) is None  # no block rule named
    assert at("1100220000000000", plain) == 2  # the win is always a rule
    o_side = StrategyHeader.for_board(geometry, "o", "no-loss", Rules(block=True))
    assert at("1100200000000010", o_side) == 2  # O blocks 0-1-2


# -- the header -------------------------------------------------------------------------------------


def test_rules_in_the_header_round_trip_and_unknown_rules_are_refused() -> None:
    header = StrategyHeader.for_board("4x4x4", "x", "win", Rules(block=True, chain=32))
    data = header.to_dict()
    assert data["rules"] == {"block": True, "chain": 32}
    assert StrategyHeader.from_dict(data) == header
    assert "rules" not in StrategyHeader.for_board("3x3", "x", "win").to_dict()
    for rules, message in (
        ({"block": True, "pairs": 1}, "unknown rule pairs"),
        ({"block": "yes"}, "true or false"),
        ({"chain": -1}, "whole number"),
        ({"chain": 2.5}, "whole number"),
        ([1, 2], "must be an object"),
    ):
        with pytest.raises(CertificateHeaderError, match=message):
            StrategyHeader.from_dict({**data, "rules": rules})


def test_symmetries_in_the_header() -> None:
    qubic = Geometry.parse("4x4x4")
    extra = extra_generators(qubic)
    header = StrategyHeader.for_board(qubic, "x", "win", None, extra)
    assert len(header.group) == len(search_symmetries(qubic)) == 192
    assert header.group[: len(qubic.symmetries)] == qubic.symmetries
    assert StrategyHeader.from_dict(header.to_dict()) == header
    swap = list(range(64))
    swap[0], swap[1] = 1, 0  # a corner and an edge cell: not a map of lines onto lines
    with pytest.raises(CertificateHeaderError, match="does not carry lines onto lines"):
        StrategyHeader.for_board(qubic, "x", "win", None, [swap])
    with pytest.raises(CertificateHeaderError, match="not a permutation"):
        StrategyHeader.for_board(qubic, "x", "win", None, [[0] * 64])
    assert len(StrategyHeader.for_board("3x3", "x", "win", None, []).group) == 8


# -- the checkers ----------------------------------------------------------------------------------


def reference_valid(cert: Certificate) -> bool:
    """A slow checker from the format page: Position objects, the rules applied as written, and a
    forced chain played out move by move (:meth:`ChainSearch.first_move`) against every reply
    instead of being accepted on the search's word."""
    header = cert.header
    geometry = header.geometry
    side, opponent = header.side, header.opponent
    rules = header.rules
    search = ChainSearch(geometry.lines)
    # Every image of every entry under the symmetries: position -> the moves it is given.
    images: dict[tuple[int, int], list[int]] = {}
    for entry in cert.entries:
        assert isinstance(entry, MoveEntry)
        marks = status_masks(entry.position)
        for symmetry in header.group:
            image = (symmetry.apply_mask(marks[0]), symmetry.apply_mask(marks[1]))
            images.setdefault(image, []).append(symmetry(entry.move))

    def stored(x: int, o: int) -> list[int]:
        return images.get((x, o), [])

    memo: dict[tuple[int, int, bool], bool] = {}

    def ok(position: Position, chain: bool = False) -> bool:
        key = (position.x, position.o, chain)
        if key not in memo:
            memo[key] = judged(position, chain)
        return memo[key]

    def judged(position: Position, chain: bool) -> bool:
        if position.winner is not None:
            return position.winner == side
        if position.is_full:
            return header.guarantee == "no-loss"
        if position.to_move != side:
            return all(ok(position.play(cell), chain) for cell in position.legal_moves)
        if position.winning_moves(side):
            return True
        x, o = position.x, position.o
        own, other = (x, o) if side == "x" else (o, x)
        danger = threats(geometry.lines, other, own)
        if rules.block and danger:
            return not danger & (danger - 1) and ok(position.play(mask_cells(danger)[0]), chain)
        if chain or (rules.chain and search.exists(own, other, rules.chain)):
            move = search.first_move(own, other, rules.chain)
            return move is not None and ok(position.play(move), True)
        return any(
            cell in position.empty_cells and ok(position.play(cell)) for cell in stored(x, o)
        )

    assert opponent != side
    return ok(Position.empty(geometry))


def solver_entries(board: str, side: str) -> list[MoveEntry]:
    """The exact solver's first best move in every position of the side that its strategy meets."""
    from oxo.solve import solve

    geometry = Geometry.parse(board)
    solution = solve(geometry)
    entries: dict[object, MoveEntry] = {}
    stack = [Position.empty(geometry)]
    seen = set()
    while stack:
        position = stack.pop()
        if position.key in seen or position.is_terminal:
            continue
        seen.add(position.key)
        if position.to_move == side:
            move = solution.best_moves(position)[0]
            entries[position.key] = MoveEntry(position.to_status_string(), move)
            stack.append(position.play(move))
        else:
            stack.extend(position.play(cell) for cell in position.legal_moves)
    return list(entries.values())


@pytest.mark.parametrize(
    ("board", "side", "guarantee"),
    [("3x4,k=3", "x", "win"), ("3x3", "o", "no-loss"), ("4x4,k=3", "x", "win")],
)
def test_the_checker_with_rules_agrees_with_the_reference_on_damaged_strategies(
    board: str, side: str, guarantee: str
) -> None:
    rng = random.Random(board + side)
    entries = solver_entries(board, side)
    outcomes = set()
    for rules in (Rules(), Rules(block=True), Rules(block=True, chain=4), Rules(chain=1)):
        header = StrategyHeader.for_board(board, side, guarantee, rules)  # type: ignore[arg-type]
        cert = Certificate(header, tuple(entries))
        assert reference_valid(cert) and verify_certificate(cert).valid
        for _ in range(12):
            damaged = list(entries)
            for _ in range(rng.choice((1, 2, 4))):
                i = rng.randrange(len(damaged))
                position = damaged[i].position
                empty = [cell for cell, status in enumerate(position) if status == "0"]
                if rng.random() < 0.3:
                    del damaged[i]
                else:
                    damaged[i] = MoveEntry(position, rng.choice(empty))
            cert = Certificate(header, tuple(damaged))
            expected = reference_valid(cert)
            assert verify_certificate(cert).valid == expected
            outcomes.add(expected)
    assert outcomes == {True, False}


def tool(path: Path) -> dict[str, object]:
    return checker_verdict(path)[1]


def rewrite(source: Path, target: Path, change) -> Path:  # type: ignore[no-untyped-def]  # a test helper
    with gzip.open(source, "rt") as handle:
        lines = [json.loads(line) for line in handle]
    with gzip.open(target, "wt") as handle:
        for line in change(lines):
            handle.write(json.dumps(line) + "\n")
    return target


@pytest.fixture(
    scope="module",
    params=[("3x4,k=3", "x", "win"), ("3x3", "o", "no-loss")],
)
def rules_certificate(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Path:
    """A strategy of the exact solver, written plainly, then rewritten with rules."""
    board, side, guarantee = request.param
    folder = tmp_path_factory.mktemp("rules")
    plain = folder / "plain.jsonl.gz"
    write_certificate(
        plain, StrategyHeader.for_board(board, side, guarantee), solver_entries(board, side)
    )
    compact = folder / "rules.jsonl.gz"
    compact_certificate(plain, compact, Rules(block=True, chain=8))
    return compact


def test_both_checkers_accept_a_rules_certificate(rules_certificate: Path) -> None:
    ours = verify_certificate(rules_certificate)
    theirs = tool(rules_certificate)
    assert ours.valid and theirs["valid"] is True
    assert ours.rules == {"block": True, "chain": 8}
    assert (theirs["positions"], theirs["moves"], theirs["entries"]) == (
        ours.positions_checked,
        ours.strategy_moves,
        ours.entries,
    )
    assert (theirs["blocks"], theirs["chains"]) == (ours.rule_blocks, ours.rule_chains)
    assert ours.rule_blocks + ours.rule_chains > 0 and "by the rules" in str(ours)


def named(path: Path) -> tuple[str | None, str | None]:
    """The failing position each checker names (None when it accepts)."""
    ours = verify_certificate(path)
    theirs = tool(path)
    failure = theirs["failure"]
    position = None
    if isinstance(failure, str):
        position = failure.split(" at position ")[1].split()[0]
    return ours.failure_position, position


def test_both_checkers_refuse_broken_rules_certificates_naming_the_position(
    rules_certificate: Path, tmp_path: Path
) -> None:
    with gzip.open(rules_certificate, "rt") as handle:
        count = sum(1 for _ in handle) - 1

    def a_move_changed(entry: int, cell: int):  # type: ignore[no-untyped-def]  # a test helper
        def change(lines: list[dict[str, object]]) -> list[dict[str, object]]:
            lines[1 + entry]["move"] = cell
            return lines

        return change

    # A stored move changed: the first change (entry by entry, cell by cell) that breaks it.
    broken = None
    for entry in range(count):
        with gzip.open(rules_certificate, "rt") as handle:
            position = json.loads(handle.readlines()[1 + entry])["position"]
        for cell in (i for i, c in enumerate(position) if c == "0"):
            path = rewrite(rules_certificate, tmp_path / "moved.gz", a_move_changed(entry, cell))
            if not verify_certificate(path).valid:
                broken = path
                break
        if broken is not None:
            break
    assert broken is not None
    ours, theirs = named(broken)
    assert ours is not None and ours == theirs

    def without_the_rules(lines: list[dict[str, object]]) -> list[dict[str, object]]:
        del lines[0]["rules"]  # the rules' moves are forced off: entries needed there
        return lines

    def without_chains(lines: list[dict[str, object]]) -> list[dict[str, object]]:
        lines[0]["rules"] = {"block": True}
        return lines

    def gap(lines: list[dict[str, object]]) -> list[dict[str, object]]:
        return [lines[0], *lines[2:]]

    refused = 0
    for change in (without_the_rules, without_chains, gap):
        path = rewrite(rules_certificate, tmp_path / f"{change.__name__}.gz", change)
        ours, theirs = named(path)
        assert ours == theirs, change.__name__
        refused += ours is not None
    assert refused >= 2  # a strategy with no chains (3x3) needs the block rule only


def test_a_player_with_the_rules_and_the_entries_wins_every_game(rules_certificate: Path) -> None:
    """What a proof book does with a rules certificate: the rules' move where they give one
    (:func:`rule_move`), else the stored move of the position's class, played against every
    defence, with no memory of earlier moves."""
    certificate = read_certificate(rules_certificate)
    header = certificate.header
    geometry = header.geometry
    size = geometry.size
    stored: dict[int, int] = {}
    for entry in certificate.entries:
        assert isinstance(entry, MoveEntry)
        key, symmetry = canonical(header.group, size, *status_masks(entry.position))
        stored.setdefault(key, symmetry.perm[entry.move])

    def move(x: int, o: int) -> int:
        given = rule_move(header, x, o)
        if given is not None:
            return given
        key, symmetry = canonical(header.group, size, x, o)
        return symmetry.inverse_perm[stored[key]]

    side = header.side
    games = 0

    def play(position: Position) -> None:
        nonlocal games
        if position.is_over:
            games += 1
            assert position.winner != header.opponent
            assert header.guarantee == "no-loss" or position.winner == side
            return
        if position.to_move == side:
            cell = move(position.x, position.o)
            assert cell in position.empty_cells
            play(position.play(cell))
        else:
            for cell in position.legal_moves:
                play(position.play(cell))

    play(Position.empty(geometry))
    assert games > 0


@given(st.integers(0, 40), st.integers(-2, 40))
def test_least_depth_is_the_first_depth_a_scan_finds(first: int, bound: int) -> None:
    """The bisection behind both chain searches' ``length`` against a scan of every depth, for a
    monotone question true from ``first`` on (0: at every depth)."""
    calls: list[int] = []

    def exists(depth: int) -> bool:
        calls.append(depth)
        return depth >= first

    scan = next((depth for depth in range(1, bound + 1) if exists(depth)), None)
    calls.clear()
    assert least_depth(exists, bound) == scan
    assert len(calls) <= max(1, bound).bit_length() + 1
