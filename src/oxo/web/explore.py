"""The explorer's answers about one position, and the per-ply count chart, as JSON-ready dicts with SVG drawings.

Everything is computed by the library: symmetry classes from :class:`~oxo.position.Position`, cell and
alignment classes from :class:`~oxo.geometry.Geometry`, dead lines from :func:`oxo.analysis.line_report`,
winnability from :func:`oxo.analysis.winnability`, values and best moves from :mod:`oxo.solve`, counts
from :func:`oxo.counting.count_positions`. This module only gathers and draws them.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from oxo.analysis import Winnability, line_report, winnability
from oxo.cache import BoundedCache
from oxo.counting import AUTO_LINES, CountTable, count_positions
from oxo.errors import OxoError
from oxo.geometry import Geometry
from oxo.position import Position, position_status
from oxo.render.svg import classic_svg, count_chart_svg
from oxo.reports import analyze
from oxo.solve import Solution
from oxo.space import MAX_EMPTY, check_playable
from oxo.web.sessions import MAX_EXPLORE_CELLS, SolutionCache, WebInputError, value_entry

#: Rooted state spaces (for boards too big to solve whole) are built for at most this many empty cells.
MAX_ROOTED_EMPTY = 14
#: Counts are computed for boards the line method handles (at most AUTO_LINES lines) up to this many cells,
#: and for any board up to MAX_PAIRS_CELLS cells; beyond that a count can take minutes.
MAX_LINES_CELLS = 36
MAX_PAIRS_CELLS = 20

#: Background colours of cell classes, in class order.
CLASS_COLORS = (
    "#ffe0b2",
    "#c8e6c9",
    "#bbdefb",
    "#f8bbd0",
    "#d1c4e9",
    "#fff59d",
    "#b2dfdb",
    "#ffccbc",
    "#cfd8dc",
    "#dcedc8",
)


def _cell_size(geometry: Geometry, small: bool = False) -> float:
    side = max(geometry.shape[-2:])
    if geometry.dimensions == 3:
        return 22.0 if small else 34.0
    return max(14.0, min(56.0 if not small else 30.0, (240.0 if not small else 110.0) / side))


def explore(position: Position, solutions: SolutionCache) -> dict[str, Any]:
    """Everything the explorer shows about a position (see docs/api.md for the fields)."""
    geometry = position.geometry
    if geometry.size > MAX_EXPLORE_CELLS:
        raise WebInputError(
            f"the explorer draws boards of at most {MAX_EXPLORE_CELLS} cells; {geometry.spec} has {geometry.size}"
        )
    report = line_report(position)
    dead = [list(line) for line in report.dead]
    cell = _cell_size(geometry)
    small = _cell_size(geometry, small=True)

    images: OrderedDict[str, list[str]] = OrderedDict()
    for symmetry, image in position.transforms():
        images.setdefault(image.to_status_string(), []).append(symmetry.name)
    transforms = [
        {
            "position": text,
            "symmetries": names,
            "canonical": text == position.canonical.to_status_string(),
            "svg": classic_svg(Position.from_string(text, geometry), cell=small),
        }
        for text, names in images.items()
    ]
    fills = {}
    cell_classes = []
    for number, cell_class in enumerate(geometry.cell_classes):
        color = CLASS_COLORS[number % len(CLASS_COLORS)]
        fills.update({c: color for c in cell_class.cells})
        cell_classes.append(
            {"name": cell_class.name, "cells": list(cell_class.cells), "color": color}
        )
    status = position_status(position).text
    canonical = position.canonical
    return {
        "board": geometry.spec,
        "shape": list(geometry.shape),
        "k": geometry.k,
        "position": position.to_status_string(),
        "letters": position.to_letters(rows=True),
        "ply": position.ply,
        "turn": position.turn,
        "to_move": position.to_move,
        "winner": position.winner,
        "status": status,
        "svg": classic_svg(
            position,
            cell=cell,
            labels=True,
            legal=True,
            lines=[(line, "#9e9e9e") for line in report.dead],
        ),
        "symmetries": len(geometry.symmetries),
        "transforms": transforms,
        "canonical": {
            "position": canonical.to_status_string(),
            "svg": classic_svg(canonical, cell=small),
        },
        "stabilizer": [symmetry.name for symmetry in position.stabilizer],
        "class_size": position.class_size,
        "cell_classes": cell_classes,
        "cell_classes_svg": classic_svg(
            Position.empty(geometry), cell=small, fills=fills, labels=True
        ),
        "line_classes": [
            {
                "name": lc.name,
                "lines": [list(line) for line in lc.lines],
                "svg": classic_svg(
                    Position.empty(geometry),
                    cell=small * 0.8,
                    lines=[(line, "#6a1b9a") for line in lc.lines],
                ),
            }
            for lc in geometry.line_classes
        ],
        "lines": len(geometry.lines),
        "dead_lines": dead,
        "open_for_x": len(report.open_for_x),
        "open_for_o": len(report.open_for_o),
        **_game_analysis(position, solutions),
    }


def _game_analysis(position: Position, solutions: SolutionCache) -> dict[str, Any]:
    """Winnability, value and best moves (from :func:`oxo.reports.analyze`) when the position can occur in a
    game and its state space fits."""
    try:
        check_playable(position)
    except OxoError as error:
        reason = str(error)
        return {"winnability": {"error": reason}, "solution": {"error": reason}}
    geometry = position.geometry
    solution, win = None, None
    if geometry.size <= MAX_EMPTY and not geometry.gravity:
        full = solutions.get(geometry)
        if position in full.space:
            solution, win = full, _winnability_in(full)
    empty = len(position.empty_cells)
    if solution is None and empty > MAX_ROOTED_EMPTY:
        reason = (
            f"{empty} empty cells on a {geometry.size}-cell board is too many to search here "
            f"(boards of at most {MAX_EMPTY} cells, or at most {MAX_ROOTED_EMPTY} empty cells)"
        )
        return {"winnability": {"error": reason}, "solution": {"error": reason}}
    analysis = analyze(position, solution=solution, win=win)
    value = analysis.value
    assert value is not None  # in the solver's reach: checked above
    moves = analysis.moves or ()
    return {
        "winnability": {
            "x_can_win": analysis.x_can_win,
            "o_can_win": analysis.o_can_win,
            "winnable": analysis.winnable,
        },
        "solution": {
            "value": value.outcome,
            "plies": value.plies,
            "text": str(value),
            "best_moves": list(analysis.best_moves),
            "move_values": {
                str(move.cell): value_entry(move.for_mover.result, move.value.plies + 1)
                for move in moves
            },
            "svg": classic_svg(
                position,
                cell=_cell_size(geometry),
                values={move.cell: move.for_mover.result for move in moves} if moves else None,
            ),
        },
    }


_WINNABILITY: BoundedCache[Geometry, Winnability] = BoundedCache(3)


def _winnability_in(solution: Solution) -> Winnability:
    """Winnability over a whole-board solution's space (computed once per board, shared)."""
    geometry = solution.space.geometry
    table = _WINNABILITY.get_or_compute(
        geometry, lambda: winnability(geometry, space=solution.space)
    )
    if table.space is not solution.space:  # the board was solved again since
        table = _WINNABILITY.put(geometry, winnability(geometry, space=solution.space))
    return table


# -- counts -------------------------------------------------------------------------------------------

_COUNTS: BoundedCache[Geometry, CountTable] = BoundedCache(16)


def check_countable(geometry: Geometry) -> None:
    """Raise :class:`WebInputError` for boards whose count would take too long for a web request."""
    if len(geometry.lines) <= AUTO_LINES and geometry.size <= MAX_LINES_CELLS:
        return
    if geometry.size <= MAX_PAIRS_CELLS:
        return
    raise WebInputError(
        f"counting {geometry.spec} ({geometry.size} cells, {len(geometry.lines)} lines) takes too long for the page: "
        f"it counts boards of at most {MAX_PAIRS_CELLS} cells, or at most {MAX_LINES_CELLS} cells with at most "
        f"{AUTO_LINES} lines; use 'oxo count {geometry.spec}'"
    )


def count_chart(geometry: Geometry) -> dict[str, Any]:
    """``oxo count``'s table for a board and its chart (cached per board)."""
    check_countable(geometry)
    table = _COUNTS.get_or_compute(geometry, lambda: count_positions(geometry, executor="serial"))
    return {
        **table.to_dict(),
        "board": geometry.spec,
        "method": table.method,
        "svg": count_chart_svg(table),
    }
