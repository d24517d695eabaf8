"""The colours every drawing shares: the marks, the grid, legal moves and the last move look the same
on classic boards (:mod:`oxo.render`), on ultimate tic-tac-toe's nine grids (:mod:`oxo.uttt.svg`)
and in the web page's legend. Each drawing adds its own colours to these."""

from __future__ import annotations

#: Colour of each element, as CSS hex.
COLORS: dict[str, str] = {
    "x": "#c62828",
    "o": "#1565c0",
    "grid": "#444444",
    "board": "#ffffff",
    "legal": "#e3f6e3",
    "legal_stroke": "#2e7d32",
    "last": "#f9a825",
}
