"""The search options of ultimate tic-tac-toe's ``hard`` (``oxo.uttt.search``, built by
``oxo.compiled.make_tree_search`` over ``oxo.uttt.compiled``): the solver against exact minimax on
small endgames, the decisive-move check and the playouts against the rules, and tree reuse
(iteration budgets only, so nothing here depends on the machine's speed)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from oxo.engines import MCTSEngine
from oxo.engines.base import Clock
from oxo.errors import OptionError
from oxo.uttt import UtttState, compiled
from oxo.uttt.search import HARD, PLAIN, CompiledSearch

#: Endgames of seeded random games whose whole game tree has at most a few thousand positions:
#: three the side to move wins, three it loses, three drawn (the tests compute each value).
ENDGAMES = (
    "78 85 55 54 42 22 26 69 96 65 53 37 73 34 45 57 79 92 28 82 27 75 58 88 14 48 56 63 31 19 94 "
    "43 38 49 98 35 59 99 93 32 25 62 21 18 71 16 61 12 24 44 46 64 41 11 15 39 95 74",
    "84 47 75 56 65 53 39 95 51 11 15 57 78 86 67 77 79 98 82 29 91 13 34 43 37 76 66 69 93 33 38 "
    "81 19 92 25 58 83 85 59 26 64 49 48 88 87 74 44 41 16 14 45 54 42 24 21 12",
    "36 62 28 86 65 54 48 89 93 39 96 66 64 44 43 37 72 26 69 98 88 82 29 92 22 23 32 25 55 59 97 "
    "75 58 84 45 51 16 68 83 35 56 67 77 78 85 53 34 49 91 15 57 79 99 17 76 61 12 21 18 81 19 74 "
    "47 71 14",
    "64 41 14 46 69 91 16 61 13 37 72 22 25 59 97 74 47 75 58 89 92 29 99 93 36 66 65 52 28 83 35 "
    "55 51 11 18 86 62 27 79 95 53 38 34 42 23 96 67 78 57 77 73 98 71 19 94 43 56",
    "44 43 36 68 82 21 18 86 64 42 29 99 98 85 53 34 49 92 28 88 87 71 12 23 39 96 61 14 41 15 59 "
    "97 78 89 95 57 79 94 48 81 16 62 22 25 55 52 26 67 77 35 58 56 69 93 38 51 13 33 37 11 19",
    "88 86 63 36 64 45 57 75 51 19 95 58 83 32 26 61 11 12 29 97 71 15 59 94 41 13 33 35 52 22 24 "
    "43 39 91 18 84 42 25 54 49 23 34 48 87 74 46 68 89 16 66 69 77 79 14 62 76",
    "81 15 56 64 48 87 72 29 96 65 52 23 36 69 92 24 46 62 22 21 17 78 88 82 25 58 89 99 94 49 97 "
    "71 12 27 75 55 51 13 39 95 59 91 16 68 84 45 57 73 34 47 74 44 42 79 85 53 35",
    "25 59 94 45 55 53 32 29 96 68 87 77 72 23 35 54 47 79 93 34 49 99 98 83 33 39 95 52 21 12 22 "
    "27 71 13 37 74 44 46 69 19 26 65 57 75 51 18 89 63 66 62 28 85 56 84 43 58 81 11",
    "23 34 43 36 62 24 46 63 33 39 98 89 97 77 78 86 68 84 47 79 96 61 15 51 14 48 88 81 17 74 42 "
    "21 16 65 53 38 87 72 25 59 92 28 82 27 75 52 37 73 32 58 85 55 66 67 71 41 45",
)


def negamax(state: UtttState, memo: dict[UtttState, int]) -> int:
    """The exact value for the side to move (1 win, 0 draw, -1 loss), the slow obvious way."""
    if state not in memo:
        if state.is_over:
            memo[state] = 0 if state.outcome == "draw" else -1
        else:
            memo[state] = max(-negamax(state.play(m), memo) for m in state.legal_moves)
    return memo[state]


def random_positions(count: int, seed: int) -> list[UtttState]:
    """Positions (not over) of seeded random games, from every stage of the game."""
    rng = random.Random(seed)
    out: list[UtttState] = []
    while len(out) < count:
        state = UtttState()
        while not state.is_over:
            out.append(state)
            state = state.play(rng.choice(state.legal_moves))
    return out[:count]


def proven_nodes(
    search: CompiledSearch, root: UtttState, most: int = 300
) -> list[tuple[UtttState, int]]:
    """Proven nodes of the search's tree (every one, or ``most`` spread evenly over them) with
    their positions and proofs."""
    first, nchild, move, _, _, _, proof = search.tree()
    parent = np.full(len(first), -1, dtype=np.int64)
    for node in np.nonzero(first >= 0)[0]:
        parent[first[node] : first[node] + nchild[node]] = node
    proven = np.nonzero(proof)[0]
    if len(proven) > most:
        proven = proven[np.linspace(0, len(proven) - 1, most).astype(np.int64)]
    out = []
    for node in proven:
        path, walk = [], int(node)
        while walk > 0:
            path.append(int(move[walk]))
            walk = int(parent[walk])
        state = root
        for m in reversed(path):
            state = state.play(m)
        out.append((state, int(proof[node])))
    return out


@pytest.mark.parametrize("options", [{"solver": True}, {"solver": True, "decisive": True}])
@pytest.mark.parametrize("record", ENDGAMES)
def test_the_solver_proves_what_minimax_says(record: str, options: dict[str, Any]) -> None:
    """Searched to the end, the root is proven with its exact value, and every node the solver
    marked proven (for the side that moved into it: 1 loss, 2 draw, 3 win) holds the exact value."""
    root = UtttState.replay(record)
    memo: dict[UtttState, int] = {}
    exact = negamax(root, memo)
    search = CompiledSearch(seed=3, playout="random", **options)
    stats, done, _ = search.run(root, Clock(None), 100_000)
    proven = proven_nodes(search, root)
    assert proven
    for state, proof in proven:
        assert proof - 2 == -negamax(state, memo), state.record
    wins = [m for m, _, _, p in stats if p == 3]
    assert bool(wins) == (exact == 1)
    if done < 100_000:  # it stopped because the root was proven: a win, or every move proven
        assert wins or all(p for *_, p in stats)
    if exact != 0:  # a win is found, and so is the win against each move of a lost position
        assert done < 100_000


@pytest.mark.parametrize("record", ENDGAMES)
def test_hard_plays_and_reports_the_proven_value(record: str) -> None:
    root = UtttState.replay(record)
    memo: dict[UtttState, int] = {}
    exact = negamax(root, memo)
    engine = MCTSEngine(iterations=100_000, seed=5, options={"solver": True, "decisive": True})
    move = engine.choose(root)
    assert -negamax(root.play(move), memo) == exact  # a move that keeps the exact value
    assert engine.last is not None
    mover = root.to_move
    value = {1: mover, 0: "draw", -1: "o" if mover == "x" else "x"}[exact]
    assert engine.last.value in (None, value)
    if engine.last.nodes > 1 and exact != 0:  # searched, and a winning line was found
        assert engine.last.value == value


def test_the_plain_search_proves_nothing() -> None:
    search = CompiledSearch(seed=3, **PLAIN)
    stats, done, _ = search.run(UtttState.replay(ENDGAMES[0]), Clock(None), 3000)
    assert done == 3000 and not any(p for *_, p in stats)
    assert not search.tree()[6].any()


def test_winning_move_agrees_with_the_rules() -> None:
    found = 0
    for state in random_positions(3000, seed=1):
        st = compiled.state_from(state)
        wins = state.winning_moves()
        move = compiled.winning_move(st)
        assert (move >= 0) == bool(wins), state.record
        if wins:
            found += 1
            assert move in wins
        assert compiled.winning_move.py_func(st) == move
    assert found > 50


def test_losing_grids_are_where_the_opponent_wins_at_once() -> None:
    for state in random_positions(3000, seed=2):
        assert state.to_move is not None
        opponent = "o" if state.to_move == "x" else "x"
        grids = {m // 9 for m in state.winning_moves(opponent)}
        expected = sum(1 << g for g in grids)
        assert compiled.losing_grids(compiled.state_from(state)) == expected, state.record


def test_a_decisive_playout_takes_the_win_in_one() -> None:
    rng = compiled.make_rng(4)
    buf = np.empty(81, dtype=np.int64)
    checked = 0
    for state in random_positions(3000, seed=3):
        if not state.winning_moves():
            continue
        for playout in (
            compiled.decisive_playout,
            compiled.careful_playout,
            compiled.greedy_playout,
        ):
            st = compiled.state_from(state)
            assert playout(st, rng, buf) == state.player + 1
            assert st[compiled.MOVES] == state.move_count + 1
        checked += 1
    assert checked > 50


def test_decisive_playouts_match_their_uncompiled_source() -> None:
    buf = np.empty(81, dtype=np.int64)
    for playout in (compiled.decisive_playout, compiled.careful_playout, compiled.greedy_playout):
        for state in random_positions(40, seed=5):
            results = []
            for run in (playout, playout.py_func):
                st = compiled.state_from(state)
                rng = compiled.make_rng(6)
                results.append((run(st, rng, buf), st.tolist(), rng.tolist()))
            assert results[0] == results[1]


def test_grid_winning_move_wins_a_small_grid_when_one_can_be_won() -> None:
    rng = compiled.make_rng(9)
    found = 0
    for state in random_positions(2000, seed=10):
        st = compiled.state_from(state)
        mover = state.player
        grid_wins = [
            m
            for m in state.legal_moves
            if bin(state.play(m).won_grids[mover]).count("1")
            > bin(state.won_grids[mover]).count("1")
        ]
        move = compiled.grid_winning_move(st, rng)
        if grid_wins:
            found += 1
            assert move in grid_wins, state.record
        else:
            assert move == -1, state.record
    assert found > 100


def test_a_careful_move_does_not_hand_over_a_win_when_it_need_not() -> None:
    """Sent to a grid, the careful move never sends the opponent to a grid it wins the game from,
    nor to a free choice while it has such a grid, when another cell of the grid avoids both."""
    rng = compiled.make_rng(7)
    checked = 0
    for state in random_positions(4000, seed=8):
        st = compiled.state_from(state)
        bad = compiled.losing_grids(st)
        if not bad or state.target is None:
            continue
        avoid = bad | st[compiled.CLOSED]
        cells = [m % 9 for m in state.legal_moves]
        for _ in range(5):
            move = compiled.careful_move(st, rng)
            assert move in state.legal_moves
            if any(not avoid >> c & 1 for c in cells):
                assert not avoid >> (move % 9) & 1, state.record
        checked += 1
    assert checked > 20


def test_tree_reuse_keeps_the_subtree_of_the_moves_played() -> None:
    state = UtttState.replay("55 51 15 59 99 95")
    search = CompiledSearch(seed=2, reuse=True)
    search.run(state, Clock(None), 3000)
    first, nchild, move, _, visits, value, proof = (a.copy() for a in search.tree())
    a = max(range(first[0], first[0] + nchild[0]), key=lambda i: visits[i])
    b = max(range(first[a], first[a] + nchild[a]), key=lambda i: visits[i])
    assert first[b] >= 0
    after = state.play(int(move[a])).play(int(move[b]))
    stats, done, nodes = search.run(after, Clock(None), 0)
    assert done == 0 and search.reused == visits[b]
    kept = [
        (int(move[i]), int(visits[i]), float(value[i]), int(proof[i]))
        for i in range(first[b], first[b] + nchild[b])
    ]
    assert stats == kept

    def shape(arrays: tuple[np.ndarray, ...], node: int) -> Any:
        f, k, m, _, v, w, _ = arrays
        children = range(f[node], f[node] + k[node]) if f[node] >= 0 else range(0)
        return (int(m[node]), int(v[node]), float(w[node]), [shape(arrays, c) for c in children])

    old = (first, nchild, move, None, visits, value, proof)
    assert shape(search.tree(), 0)[1:] == shape(old, b)[1:]  # type: ignore[arg-type]
    stats, done, _ = search.run(after, Clock(None), 500)
    assert done == 500 and sum(v for _, v, *_ in stats) >= 500 + search.reused - 1
    # a position that does not follow the last one searched starts a fresh tree
    search.run(UtttState.replay("11"), Clock(None), 100)
    assert search.reused == 0


def test_unknown_options_are_refused() -> None:
    with pytest.raises(OptionError):
        CompiledSearch(seed=1, rave=True)
    with pytest.raises(OptionError):
        CompiledSearch(seed=1, playout="heavy")
    assert set(PLAIN) == set(HARD)
