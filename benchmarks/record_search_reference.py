"""Record what seeded compiled searches of mega and ultimate tic-tac-toe do, as the reference that
``tests/test_shared_search.py`` holds the current code to (the search's code may change shape; its
statistics may not).

Run it with the source to record on the path, for example the commit before the shared search::

    git archive facf1d7 | tar -x -C /tmp/base
    PYTHONPATH=/tmp/base/src python benchmarks/record_search_reference.py tests/data/search_reference.json

For each game it picks positions by seeded random play, runs the compiled search with an iteration
budget from several seeds and writes every root move's visits and summed value, the simulations and
the tree's size; then the moves of a seeded game between two search engines.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any


def positions(state_class: Any, plies: tuple[int, ...], seed: int) -> list[list[int]]:
    """Move lists reached by seeded random play, one per entry of ``plies``, that are not over."""
    rnd = random.Random(seed)
    out = []
    for count in plies:
        while True:
            state, moves = state_class(), []
            for _ in range(count):
                if state.is_over:
                    break
                move = rnd.choice(list(state.legal_moves))
                moves.append(move)
                state = state.play(move)
            if not state.is_over:
                out.append(moves)
                break
    return out


def record(name: str, state_class: Any, search_class: Any) -> dict[str, Any]:
    from oxo.engines import MCTSEngine
    from oxo.engines.base import Clock

    searches = []
    for moves in positions(state_class, (0, 6, 17, 30, 45), seed=7):
        state = state_class.replay(moves)
        for seed, iterations in ((1, 500), (2, 3000), (3, 20_000)):
            stats, done, nodes = search_class(seed=seed).run(state, Clock(None), iterations)
            searches.append(
                {
                    "moves": moves,
                    "seed": seed,
                    "iterations": iterations,
                    "stats": [[m, v, w] for m, v, w in stats],
                    "simulations": done,
                    "nodes": nodes,
                }
            )
    x, o = MCTSEngine(iterations=1500, seed=11), MCTSEngine(iterations=800, seed=12)
    state, game = state_class(), []
    while not state.is_over:
        move = (x if state.to_move == "x" else o).choose(state)
        game.append(move)
        state = state.play(move)
    return {"game": name, "searches": searches, "engine_game": game}


def main() -> None:
    from oxo.mega import MegaState
    from oxo.mega.search import CompiledSearch as MegaSearch
    from oxo.uttt import UtttState
    from oxo.uttt.search import CompiledSearch as UtttSearch

    out = [record("mega", MegaState, MegaSearch), record("uttt", UtttState, UtttSearch)]
    from oxo.fileio import write_atomic

    write_atomic(sys.argv[1], json.dumps(out, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
