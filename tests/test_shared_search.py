"""The compiled tree search that mega and ultimate tic-tac-toe share (``oxo.compiled.make_tree_search``)
does what each game's own copy did before: seeded searches give the same visits and values at the
root, the same simulations and tree size, and seeded engine games the same moves (ultimate
tic-tac-toe's plain search, ``oxo.uttt.search.PLAIN``: its ``hard`` has a solver and more since).

The reference, ``tests/data/search_reference.json``, was written by
``benchmarks/record_search_reference.py`` running the code of the commit before the shared search
(facf1d7); iteration budgets only, so nothing here depends on the machine's speed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from numba_cache import twice_with_one_cache
from oxo.engines import MCTSEngine
from oxo.engines.base import Clock
from oxo.mega import MegaState
from oxo.mega.search import CompiledSearch as MegaSearch
from oxo.uttt import UtttState
from oxo.uttt.search import PLAIN
from oxo.uttt.search import CompiledSearch as UtttSearch

REFERENCE = json.loads(
    (Path(__file__).parent / "data" / "search_reference.json").read_text(encoding="utf-8")
)
GAMES: dict[str, tuple[Any, Any]] = {
    "mega": (MegaState, MegaSearch),
    "uttt": (UtttState, partial(UtttSearch, **PLAIN)),
}
#: The engine settings that run each game's plain search (ultimate tic-tac-toe's ``hard`` has more).
ENGINE_SETTINGS: dict[str, dict[str, Any]] = {
    "mega": {},
    "uttt": {
        "exploration": PLAIN["exploration"],
        "options": {k: v for k, v in PLAIN.items() if k != "exploration"},
    },
}


def _entry(game: str) -> dict[str, Any]:
    return next(entry for entry in REFERENCE if entry["game"] == game)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_seeded_searches_match_the_reference(game: str) -> None:
    state_class, search_class = GAMES[game]
    searches = _entry(game)["searches"]
    assert len(searches) >= 10
    for recorded in searches:
        state = state_class.replay(recorded["moves"])
        stats, done, nodes = search_class(seed=recorded["seed"]).run(
            state, Clock(None), recorded["iterations"]
        )
        assert done == recorded["simulations"]
        assert nodes == recorded["nodes"]
        assert [[m, v, w] for m, v, w, _ in stats] == recorded["stats"], recorded["moves"]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_seeded_engine_game_matches_the_reference(game: str) -> None:
    state_class, _ = GAMES[game]
    settings = ENGINE_SETTINGS[game]
    x = MCTSEngine(iterations=1500, seed=11, **settings)
    o = MCTSEngine(iterations=800, seed=12, **settings)
    state, moves = state_class(), []
    while not state.is_over:
        move = (x if state.to_move == "x" else o).choose(state)
        moves.append(move)
        state = state.play(move)
    assert moves == _entry(game)["engine_game"]


def test_each_game_gets_its_own_machine_code() -> None:
    """Both games' searches come from one factory, yet each runs its own rules."""
    from oxo.mega import compiled as mega
    from oxo.uttt import compiled as uttt

    assert mega.mcts_iterations is not uttt.mcts_iterations
    assert mega.mcts_iterations.py_func.__code__ is uttt.mcts_iterations.py_func.__code__


def _cache_key_text(game: str) -> str:
    import importlib

    compiled = importlib.import_module(f"oxo.{game}.compiled")
    compiled.warm_up()
    search = compiled.mcts_iterations
    key = search._cache._index_key(search.signatures[0], search.targetctx.codegen())
    return repr(key)


def test_the_cached_search_is_found_by_a_later_process() -> None:
    """numba keys cached code by what a closure holds; the key must not change from process to
    process (else every process compiles the search again) and must differ between the games, and
    a later process loads the search from the cache."""
    here = {game: _cache_key_text(game) for game in GAMES}
    assert here["mega"] != here["uttt"]
    code = (
        "from test_shared_search import _cache_key_text; print(_cache_key_text('uttt'))\n"
        "from oxo.uttt import compiled; print(sum(compiled.mcts_iterations.stats.cache_hits.values()))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parent,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")},
    )
    key, hits = done.stdout.strip().splitlines()
    assert key == here["uttt"]
    assert int(hits) == 1  # loaded from the cache this process (or an earlier one) wrote


@pytest.mark.parametrize("game", sorted(GAMES))
def test_compiled_search_matches_its_uncompiled_source(game: str) -> None:
    """The search's Python source, run by the interpreter over the same kernel, builds the same tree."""
    import importlib

    import numpy as np

    from oxo.compiled import search_params

    compiled = importlib.import_module(f"oxo.{game}.compiled")
    state_class, _ = GAMES[game]
    root = compiled.state_from(state_class.replay(_entry(game)["searches"][3]["moves"]))
    trees = []
    for run in (compiled.mcts_iterations, compiled.mcts_iterations.py_func):
        arrays = (
            np.full(4000, -1, dtype=np.int32),
            np.zeros(4000, dtype=np.int16),
            np.zeros(4000, dtype=np.int8),
            np.zeros(4000, dtype=np.int8),
            np.zeros(4000, dtype=np.int32),
            np.zeros(4000, dtype=np.float32),
            np.zeros(4000, dtype=np.int8),
        )
        meta = np.array([1], dtype=np.int64)
        rng = compiled.make_rng(9)
        assert run(root, 150, rng, *arrays, meta, search_params(0.7, 2)) == 150
        used = int(meta[0])
        assert used > 81
        trees.append([array[:used].tolist() for array in arrays] + [rng.tolist()])
    assert trees[0] == trees[1]


@pytest.mark.slow
def test_compiling_is_told_apart_from_loading(tmp_path: Path) -> None:
    """``is_cached`` reads numba's cache index with numba's own key: a function never compiled
    here is not cached, then is once called, and a later process finds it (issue 45, item 3)."""
    (tmp_path / "tiny.py").write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef inc(x):\n    return x + 1\n"
    )
    code = (
        "import tiny\nfrom oxo.compiled import is_cached\n"
        "before = is_cached(tiny.inc)\ntiny.inc(1)\nprint(before, is_cached(tiny.inc))"
    )
    src = str(Path(__file__).parents[1] / "src")
    runs = twice_with_one_cache(code, tmp_path / "c", f"{src}:{tmp_path}")
    assert runs == [["False", "True"], ["True", "True"]]


def test_the_clock_starts_after_the_compiled_search_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Building a game's compiled search (compiling it, the first time after install) is not
    thinking: the engine builds it before its clock starts, so the time it reports and its budget
    are the search's own (issue 45, item 3)."""
    from oxo.engines import mcts

    engine = MCTSEngine(iterations=20, seed=1)
    built_first: list[bool] = []

    class Watched(Clock):
        def __init__(self, seconds: float | None) -> None:
            built_first.append(engine._compiled is not None)
            super().__init__(seconds)

    monkeypatch.setattr(mcts, "Clock", Watched)
    engine.choose(MegaState())
    assert built_first == [True]


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_loaded_search_is_not_said_to_compile(game: str) -> None:
    """Once a game's search is built (compiled or loaded), numba's cache holds it under the key
    ``is_cached`` reads, the shared search's own key included: a later run says nothing."""
    from oxo.compiled import copy_subtree, is_cached, subtree_size
    from oxo.mega import compiled as mega
    from oxo.uttt import compiled as uttt
    from oxo.uttt.search import HARD

    if game == "mega":
        mega.warm_up()
        search = mega.mcts_iterations
    else:
        options = {name: HARD[name] for name in ("solver", "decisive", "playout")}
        uttt.warm_up(**options)
        search = uttt.tree_search(**options)
    assert is_cached(search, copy_subtree, subtree_size)
