"""Engines over the game interface: each checked against the slow exact reference on small boards, and
for the tactics no level above random may get wrong (take a win in one, block a win in one)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oxo import engines
from oxo.engines import (
    LEVELS,
    AlphaBetaEngine,
    BestEngine,
    Engine,
    MCTSEngine,
    RandomEngine,
    TacticalEngine,
)
from oxo.engines.selfplay import play_game, selfplay
from oxo.errors import MoveError, OptionError, OutOfReachError
from oxo.game import GameState
from oxo.geometry import Geometry
from oxo.position import Position
from oxo.registry import game_of, new_game
from oxo.solve import reference_value, solution_within, solve
from positions import random_position


def make_engine(level: str, state: GameState, **options: Any) -> Engine:
    """The engine of ``level`` as the games build it: :func:`oxo.engines.make_engine` handed the
    game's exact solver by the registry (engines know no solver of their own)."""
    return game_of(state).make_engine(level, state, **options)


def describe_level(level: str, state: GameState) -> str:
    return game_of(state).describe_level(level, state)


def PerfectEngine(seed: int) -> engines.PerfectEngine:  # noqa: N802  # the engine, with its solver
    return engines.PerfectEngine(seed, solver=solution_within)


def keeps_value(position: Position, move: int) -> bool:
    """Whether ``move`` keeps the best result for the side to move (by the slow reference, whose
    answers about the position serve the one after the move)."""
    memo: dict[tuple[int, int], int] = {}
    best = reference_value(position, memo).outcome
    after = reference_value(position.play(move), memo).outcome
    mover = position.to_move
    rank = {mover: 2, "draw": 1}
    return rank.get(after, 0) == rank.get(best, 0)


# -- random, easy, perfect ------------------------------------------------------------------------


def test_random_engine_is_legal_and_reproducible() -> None:
    start = new_game("3x3")
    games = [play_game(start, RandomEngine(s), RandomEngine(s + 100))[0] for s in range(20)]
    again = [play_game(start, RandomEngine(s), RandomEngine(s + 100))[0] for s in range(20)]
    assert games == again and all(g.is_over for g in games)
    assert len({g.key for g in games}) > 5
    with pytest.raises(MoveError):
        RandomEngine(0).choose(games[0])


def test_tactical_engine_wins_and_blocks_in_one() -> None:
    win = Position.from_string("xx./oo./...")  # X to move: 2 wins
    assert all(TacticalEngine(s).choose(win) == 2 for s in range(10))
    block = Position.from_string("xx./o../..o")  # O to move must block 2
    assert all(TacticalEngine(s).choose(block) == 2 for s in range(10))


def test_perfect_never_loses_on_3x3_and_wins_a_won_board() -> None:
    start = new_game("3x3")
    for seed in range(6):
        assert play_game(start, PerfectEngine(seed), RandomEngine(seed))[0].outcome != "o"
        assert play_game(start, RandomEngine(seed), PerfectEngine(seed))[0].outcome != "x"
    assert play_game(start, PerfectEngine(1), PerfectEngine(2))[0].outcome == "draw"
    won = new_game("3x4")  # X wins with best play
    for seed in range(4):
        assert play_game(won, PerfectEngine(seed), RandomEngine(seed))[0].outcome == "x"


def test_perfect_takes_the_quickest_win() -> None:
    position = Position.from_string("xx./oo./...")
    engine = PerfectEngine(0)
    assert engine.choose(position) == 2 and engine.last is not None and engine.last.value == "x"


def test_perfect_is_refused_out_of_reach_and_best_says_what_it_uses() -> None:
    # 6x6 with k=4: neither the exact solver nor a proof of oxo's reaches the empty board.
    with pytest.raises(OutOfReachError, match="hard"):
        make_engine("perfect", new_game("6x6,k=4"))
    with pytest.raises(OutOfReachError):
        make_engine("perfect", new_game("mega"))
    best = make_engine("best", new_game("6x6,k=4"))
    assert isinstance(best, BestEngine) and best.using(new_game("6x6,k=4")) == "hard"
    assert best.using(random_position("6x6,k=4", 20, 1)) == "perfect"
    assert "hard" in describe_level("best", new_game("6x6,k=4")) and "perfect" in describe_level(
        "best", new_game("3x3")
    )
    assert "Monte Carlo" in describe_level("hard", new_game("mega"))
    # 5x5 with k=4 is in oxo's proof book: perfect and best play its certificates there.
    proved = make_engine("best", new_game("5x5,k=4"))
    assert isinstance(proved, BestEngine) and proved.using(new_game("5x5,k=4")) == "perfect"
    assert "certificate" in describe_level("perfect", new_game("5x5,k=4"))


def test_the_engines_play_exactly_only_with_the_solver_they_are_handed() -> None:
    """Engines know no game: without a solver perfect is out of reach even on 3x3, and hard
    searches instead of reading the solution; the registry hands each game's solver over."""
    start = new_game("3x3")
    with pytest.raises(OutOfReachError):
        engines.make_engine("perfect", start)
    assert "perfect" not in engines.describe_level("best", start)
    asked: list[int] = []

    def solver(state: Any, limit: int) -> Any:
        asked.append(limit)
        return solution_within(state, limit)

    perfect = engines.make_engine("perfect", start, solver=solver, seed=1)
    assert perfect.choose(start) in start.legal_moves and asked == [16]
    position = random_position("3x3", 4, 1)
    searched = engines.make_engine("hard", position, seconds=0.05, seed=1)
    searched.choose(position)
    assert searched.last is not None and searched.last.nodes > 0  # a search, not the solution
    assert game_of(start).exact_solver() is solution_within
    assert game_of(new_game("mega")).exact_solver() is None


def test_level_errors() -> None:
    state = new_game("3x3")
    with pytest.raises(OptionError, match="unknown level"):
        make_engine("genius", state)
    with pytest.raises(OptionError):
        make_engine("hard", state, seconds=0)
    with pytest.raises(OptionError):
        make_engine("hard", state, depth=0)
    assert make_engine("mcts", new_game("mega")).name == "hard"
    for level in LEVELS:
        engine = make_engine(level, state, seconds=0.05, seed=1)
        assert engine.choose(state) in state.legal_moves


# -- alpha-beta and MCTS against the slow reference -------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    spec=st.sampled_from(["3x3", "4x4,k=3", "3x4"]),
    plies=st.integers(3, 9),
)
def test_alphabeta_full_depth_proves_what_the_reference_says(
    seed: int, spec: str, plies: int
) -> None:
    position = random_position(spec, plies, seed)
    if position.is_over or len(position.empty_cells) > 10:
        return
    engine = AlphaBetaEngine(
        seconds=None, depth=len(position.empty_cells), seed=seed, exact_limit=0
    )
    report = engine.search(position)
    truth = reference_value(position).outcome
    if truth != "draw":
        assert report.value == truth  # a full-depth search proves every win and loss
    else:
        assert report.value is None
    assert keeps_value(position, report.move)


@settings(max_examples=20, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    spec=st.sampled_from(["3x3", "4x4,k=3"]),
    plies=st.integers(4, 9),
)
def test_mcts_proofs_are_right_and_it_never_blunders_in_one(
    seed: int, spec: str, plies: int
) -> None:
    position = random_position(spec, plies, seed)
    if position.is_over or len(position.empty_cells) > 10:
        return
    engine = MCTSEngine(iterations=400, seed=seed)
    report = engine.search(position)
    truth = reference_value(position).outcome
    if report.value is not None:
        assert report.value == truth
    wins = position.winning_moves()
    if wins:
        assert report.move in wins
    after = position.play(report.move)
    safe = [m for m in position.legal_moves if not position.play(m).winning_moves()]
    if safe:
        assert after.is_over or not after.winning_moves()


@pytest.mark.parametrize("spec", ["5x5,k=4", "3x3x3", "4x4x4", "15x15,k=5"])
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_hard_never_misses_a_win_nor_allows_one(spec: str, seed: int) -> None:
    rng = random.Random(seed)
    position = random_position(spec, rng.randrange(4, 16), seed)
    if position.is_over:
        return
    engine = make_engine("hard", position, seconds=0.05, seed=seed)
    move = engine.choose(position)
    wins = position.winning_moves()
    if wins:
        assert move in wins
        return
    safe = [m for m in position.candidate_moves() if not position.play(m).winning_moves()]
    if safe:
        after = position.play(move)
        assert after.is_over or not after.winning_moves()


def test_alphabeta_root_never_takes_a_bound_for_a_tie() -> None:
    """A move searched after the best one comes back as a bound; it must not count as a tie of the best."""
    position = Position.from_string("1202101002120020200101211", Geometry.parse("5x5", 4))
    solution = solve(position)
    winning = {m for m, v in solution.move_values(position).items() if v.winner == "o"}
    for seed in range(5):
        engine = AlphaBetaEngine(seconds=None, depth=4, seed=seed, exact_limit=0)
        assert engine.choose(position) in winning
        assert engine.last is not None and engine.last.value == "o"


def test_gomoku_completes_an_open_four_and_blocks_a_four() -> None:
    g = Geometry.parse("15x15", 5)
    at = lambda r, c: g.cell_at((r, c))  # noqa: E731
    # X has an open four on row 7 (columns 4..7); O is scattered. X to move completes five.
    x = [at(7, c) for c in range(4, 8)]
    o = [at(0, 0), at(14, 14), at(0, 14), at(14, 0)]
    position = Position(g, sum(1 << c for c in x), sum(1 << c for c in o))
    move = make_engine("hard", position, seconds=0.2, seed=0).choose(position)
    assert move in (at(7, 3), at(7, 8))
    # O to move faces X's four (columns 4..7 of row 7, one end open): O must block the open end.
    o = [at(7, 3), at(0, 0), at(14, 14)]
    position = Position(g, sum(1 << c for c in x), sum(1 << c for c in o))
    assert position.to_move == "o"
    move = make_engine("hard", position, seconds=0.2, seed=0).choose(position)
    assert move == at(7, 8)


def test_qubic_wins_and_blocks_in_one() -> None:
    g = Geometry.parse("4x4x4")
    win = Position(g, 0b0111, 1 << 60 | 1 << 40 | 1 << 50)  # X: cells 0, 1, 2; X to move takes 3
    assert win.to_move == "x"
    assert make_engine("hard", win, seconds=0.2, seed=0).choose(win) == 3
    block = Position(g, 0b0111 | 1 << 20, 1 << 60 | 1 << 40 | 1 << 50)  # O to move must take 3
    assert block.to_move == "o"
    assert make_engine("hard", block, seconds=0.2, seed=0).choose(block) == 3


def test_hard_uses_the_exact_solution_near_the_end() -> None:
    position = random_position("5x5,k=4", 13, 3)
    engine = make_engine("hard", position, seconds=0.5, seed=0)
    engine.choose(position)
    assert engine.last is not None and engine.last.value in ("x", "o", "draw")


def test_selfplay_counts_every_game() -> None:
    stats = selfplay(new_game("3x3"), "random", "random", 30, seed=4)
    assert stats.games == 30 == stats.x_wins + stats.o_wins + stats.draws
    assert stats.to_dict()["games"] == 30 and 5 <= stats.mean_moves <= 9
    again = selfplay(new_game("3x3"), "random", "random", 30, seed=4)
    assert (again.x_wins, again.o_wins, again.draws, again.total_moves) == (
        stats.x_wins,
        stats.o_wins,
        stats.draws,
        stats.total_moves,
    )


class _OutOfReachOnce:
    """An engine whose third move of the game it is given first is out of reach, then plays
    random moves: as perfect play that its exact solver cannot settle in time."""

    name = "perfect"
    last = None

    def __init__(self) -> None:
        self.calls = 0
        self.random = make_engine("random", new_game("3x3"), seed=5)

    def choose(self, state: GameState) -> int:
        self.calls += 1
        if self.calls == 2:
            raise OutOfReachError("its move was not solved within 0.1 s")
        return self.random.choose(state)


def test_a_game_out_of_reach_is_reported_and_the_run_goes_on() -> None:
    """A move out of reach ends its game, not the run (issue 45, item 5): the game is said, with
    the side, its level and the move, and left out of the counts."""
    x_engine = _OutOfReachOnce()

    def make(level: str, state: GameState, **limits: Any) -> Any:
        return x_engine if level == "perfect" else make_engine(level, state, **limits)

    stats = selfplay(new_game("3x3"), "perfect", "random", 4, seed=1, make=make)
    assert stats.games == 3 == stats.x_wins + stats.o_wins + stats.draws
    assert stats.unfinished == (
        "game 1: X (perfect) stopped at move 3: its move was not solved within 0.1 s",
    )
    assert stats.to_dict()["unfinished"] == list(stats.unfinished)
    assert stats.share("x") + stats.share("o") + stats.share("draw") == pytest.approx(1.0)


# -- strength (heavy: run by .ci/run) -------------------------------------------------------------


@pytest.mark.slow
def test_hard_beats_random_on_5x5_k4() -> None:
    start = new_game("5x5,k=4")
    as_x = selfplay(start, "hard", "random", 20, seconds=0.2, seed=1, make=make_engine)
    as_o = selfplay(start, "random", "hard", 20, seconds=0.2, seed=2, make=make_engine)
    assert as_x.x_wins >= 19, as_x.to_dict()
    assert as_o.o_wins >= 18, as_o.to_dict()


@pytest.mark.slow
def test_hard_wins_3x3x3_as_x() -> None:
    stats = selfplay(new_game("3x3x3"), "hard", "hard", 10, seconds=0.1, seed=3, make=make_engine)
    assert stats.x_wins >= 9, stats.to_dict()


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["5x5,k=4", "4x5,k=4", "6x5,k=4"])
def test_hard_keeps_the_value_of_endgames(spec: str) -> None:
    """On positions with at most 11 empty cells, hard (0.5 s) keeps the best value in at least 95 % of cases."""
    geometry = Geometry.parse(spec)
    kept = total = 0
    seed = 0
    while total < 20:
        seed += 1
        position = random_position(spec, geometry.size - 11, seed)
        if position.is_over or len(position.empty_cells) > 11:
            continue
        move = make_engine("hard", position, seconds=0.5, seed=seed).choose(position)
        kept += keeps_value(position, move)
        total += 1
    assert kept >= 0.95 * total, (kept, total)


@pytest.mark.parametrize("make", [lambda: AlphaBetaEngine(seed=1), lambda: MCTSEngine(seed=1)])
def test_a_win_in_one_is_reported_as_taken_at_once(make) -> None:
    """Both searches take a win in one before searching, and say so: one node, the mover's win."""
    rows = ["xxxx...", "oooo...", *["......."] * 5]
    state = Position.parse("/".join(rows), "7x7,k=5")
    engine = make()
    report = engine.search(state)
    assert report.move in state.winning_moves()
    assert (report.nodes, report.value) == (1, "x")
    assert report.depth == (1 if isinstance(engine, AlphaBetaEngine) else None)
