"""oxo: exact answers about tic-tac-toe and its relatives.

The public API, in one import (see the README's "As a library" and ``docs/api.md``)::

    import oxo

    board = oxo.Board("4x4", k=3)
    board.count().total_positions              # reachable positions
    position = oxo.Position.parse("xo./.x./..o")
    position.status().text                     # "X to move (move 5)"
    oxo.check(position).legal, oxo.analyze(position).value
    oxo.solve("3x3").value                     # "draw"
    oxo.move(position, level="perfect").move
    game = oxo.mega.Game()
    oxo.find_game("connect4").start()          # any game by name (oxo.new_game for short)

Names load on first use, so ``import oxo`` stays cheap for the command line.
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING, Any

from oxo.errors import BoardSpecError, MoveError, OutOfReachError, OxoError, PositionError

if TYPE_CHECKING:
    from oxo import mega
    from oxo.analysis import DeadEndReport
    from oxo.api import (
        Board,
        MoveResult,
        Solved,
        analyze,
        check,
        count,
        deadends,
        describe,
        move,
        open_boards,
        prepare_opening,
        prepare_proof,
        proof,
        proved_boards,
        solve,
    )
    from oxo.counting import CountTable
    from oxo.legality import Legality
    from oxo.position import Position, Status
    from oxo.registry import Game, find_game, new_game
    from oxo.reports import Analysis, PositionReport, SideValue

__version__ = "0.1.0"

#: Where each lazily loaded public name lives.
_LAZY: dict[str, str] = {
    "Board": "oxo.api",
    "MoveResult": "oxo.api",
    "Solved": "oxo.api",
    "analyze": "oxo.api",
    "check": "oxo.api",
    "count": "oxo.api",
    "deadends": "oxo.api",
    "describe": "oxo.api",
    "move": "oxo.api",
    "solve": "oxo.api",
    "proof": "oxo.api",
    "proved_boards": "oxo.api",
    "open_boards": "oxo.api",
    "prepare_opening": "oxo.api",
    "prepare_proof": "oxo.api",
    "Position": "oxo.position",
    "Analysis": "oxo.reports",
    "PositionReport": "oxo.reports",
    "SideValue": "oxo.reports",
    "Status": "oxo.position",
    "CountTable": "oxo.counting",
    "DeadEndReport": "oxo.analysis",
    "Legality": "oxo.legality",
    "Game": "oxo.registry",
    "find_game": "oxo.registry",
    "new_game": "oxo.registry",
}

__all__ = [
    "Analysis",
    "Board",
    "BoardSpecError",
    "CountTable",
    "DeadEndReport",
    "Game",
    "Legality",
    "MoveError",
    "MoveResult",
    "OutOfReachError",
    "OxoError",
    "Position",
    "PositionError",
    "PositionReport",
    "SideValue",
    "Solved",
    "Status",
    "__version__",
    "analyze",
    "check",
    "count",
    "deadends",
    "describe",
    "find_game",
    "mega",
    "move",
    "new_game",
    "open_boards",
    "prepare_opening",
    "prepare_proof",
    "proof",
    "proved_boards",
    "solve",
]


class _Package(types.ModuleType):
    """The ``oxo`` package, keeping ``oxo.solve`` the function of the public API.

    Python sets a package's attribute to a submodule the first time the submodule loads; the module
    ``oxo.solve`` (the retrograde solver) would then hide the function :func:`oxo.api.solve`. Code that
    needs the module imports it by name (``from oxo.solve import Solution``), which is unaffected.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _FUNCTIONS and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


#: Public functions named like a submodule.
_FUNCTIONS = frozenset({"solve"})


def __getattr__(name: str) -> Any:
    """Load a public name (or the ``mega`` package) the first time it is used."""
    if name == "mega":
        return importlib.import_module("oxo.mega")
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'oxo' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


sys.modules[__name__].__class__ = _Package
if isinstance(globals().get("solve"), types.ModuleType):  # oxo.solve loaded before this line ran
    del globals()["solve"]
