"""The explorer's strategy map: ``oxo map``'s library call plus the drawing, as the page shows it.

The map of one side (:func:`oxo.strategy_map.strategy_map`) is drawn by
:func:`oxo.render.strategy.strategy_svg` as nested grids; the page zooms and pans that drawing. The
page draws at most :data:`MAX_MAP_BOARDS` boards (O's map on 3x3 is 680; O's on 3x4 is over 3,000
and several megabytes), larger maps are out of reach here and the answer says to use ``oxo map``.
"""

from __future__ import annotations

from typing import Any

from oxo.errors import OutOfReachError
from oxo.game import Player
from oxo.geometry import Geometry
from oxo.render.strategy import strategy_svg
from oxo.solve import Solution
from oxo.space import MAX_EMPTY
from oxo.strategy_map import StrategyMap, strategy_map
from oxo.web.sessions import WebInputError

#: Most boards a map drawn on the page holds.
MAX_MAP_BOARDS = 2_000


def map_answer(
    geometry: Geometry, side: Player, solution: Solution | None = None
) -> dict[str, Any]:
    """The map of ``side`` on ``geometry``: its figures (``oxo map --json``'s, without the table of
    every move), a few lines for people, and ``svg``, the drawing. ``solution`` is the board's
    solved space when the caller has it. Raises :class:`OutOfReachError` beyond the solver or
    beyond :data:`MAX_MAP_BOARDS` boards, :class:`WebInputError` for boards that are not flat."""
    if geometry.size > MAX_EMPTY:
        solution = None  # strategy_map says why it is out of reach
    elif geometry.dimensions != 2:
        raise WebInputError(
            f"board: strategy maps are drawn for flat boards only, not {geometry.spec}; "
            f"oxo map {geometry.spec} --as {side} gives its figures"
        )
    strategy = strategy_map(geometry, side, solution=solution)
    try:
        svg = strategy_svg(strategy, max_boards=MAX_MAP_BOARDS)
    except OutOfReachError as error:
        raise OutOfReachError(
            f"{str(error).rstrip('.')} on this page; draw it with the command line: "
            f"oxo map {geometry.spec} --as {side} --svg map.svg"
        ) from None
    data = strategy.to_dict()
    data.pop("moves", None)
    data["lines"] = summary(strategy)
    data["svg"] = svg
    return data


def summary(strategy: StrategyMap) -> list[str]:
    """The map in a few plain lines: the value, how much it covers, how its games end."""
    side = strategy.side.upper()
    opponent = "O" if strategy.side == "x" else "X"
    winner = strategy.value.winner
    result = "a draw" if winner is None else f"a win for {winner.upper()}"
    outcomes = strategy.outcomes
    lines = [
        f"Best play gives {result}. {side} following this map never does worse, whatever {opponent} plays.",
        f"{strategy.positions:,} positions where {side} moves ({strategy.classes:,} up to symmetry); "
        f"the drawing below shows {strategy.boards:,} boards, one per position on the way.",
        f"Games that follow the map end: {side} wins {outcomes['win']:,}, draws {outcomes['draw']:,}, "
        f"{opponent} wins {outcomes['loss']:,}.",
    ]
    if strategy.root.move is not None:
        lines.append(
            f"{side} opens in cell {strategy.root.move} (the tinted cell of the outer board)."
        )
    else:
        lines.append(
            f"{opponent} moves first: each cell of the outer board holds {side}'s answer to that move."
        )
    return lines
