"""A strategy map drawn as nested grids (SVG), in the spirit of the famous tic-tac-toe poster.

Each board of the map (a :class:`~oxo.strategy_map.StrategyNode`) is a grid with the marks already
played; the side's move is drawn large on a tinted cell, and every cell where the opponent may reply
holds the board that follows that reply, drawn inside the cell at the cell's scale (one third on
3x3), recursively, down to the end of every game. A board where the game ends shows the winning
line. Each board is a ``<g class="map-board">`` with ``data-position`` (the status string) and
``data-move`` (the side's move, when it has one), so a page can zoom into it.
"""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from oxo.errors import OutOfReachError, OxoError
from oxo.render.svg import COLORS, _mark, _num, _open, _polyline
from oxo.strategy_map import StrategyMap, StrategyNode

#: Most boards :func:`strategy_svg` draws (the 3x3 maps draw 91 for X and 680 for O).
MAX_BOARDS = 20_000
#: Side of the outer board in SVG units when none is given.
DEFAULT_SIZE = 900.0
_MOVE_FILL = "#fff1c4"


def strategy_svg(
    strategy: StrategyMap, *, size: float = DEFAULT_SIZE, max_boards: int = MAX_BOARDS
) -> str:
    """The whole map as one standalone ``<svg>``: the outer board ``size`` units across (the longer
    side), every board nested in it. Raises :class:`OutOfReachError` beyond ``max_boards`` boards."""
    if strategy.boards > max_boards:
        raise OutOfReachError(
            f"the map of {strategy.side.upper()} on {strategy.geometry.spec} has {strategy.boards:,} "
            f"boards, more than the {max_boards:,} a drawing holds; its text summary is available"
        )
    geometry = strategy.geometry
    if geometry.dimensions != 2:
        raise OxoError(
            f"strategy maps are drawn for flat boards only, not {geometry.spec}; leave out --svg "
            "for the summary"
        )
    rows, cols = geometry.shape
    cell = size / max(rows, cols)
    width, height = cols * cell, rows * cell
    caption = 22.0
    label = (
        f"Strategy map for {strategy.side.upper()} on {geometry.spec}: "
        f"{'draw' if strategy.value.winner is None else strategy.value.winner.upper() + ' wins'} "
        f"with best play; {strategy.positions} positions"
    )
    margin = 4.0
    out = [_open(width + 2 * margin, height + 2 * margin + caption, "oxo-strategy-map", label)]
    out.append(
        f'<rect x="0" y="0" width="{_num(width + 2 * margin)}" height="{_num(height + 2 * margin + caption)}" '
        f'fill="{COLORS["board"]}"/>'
    )
    _board(out, strategy.root, margin, margin, cell)
    out.append(
        f'<text x="{_num(margin)}" y="{_num(height + 2 * margin + caption - 7)}" font-size="13" '
        f'fill="#333" font-family="system-ui, sans-serif">{label}</text>'
    )
    out.append("</svg>")
    return "".join(out)


def _board(out: list[str], node: StrategyNode, x0: float, y0: float, cell: float) -> None:
    """Append one board (top left at ``x0, y0``, cells ``cell`` wide) and, in its cells, the boards
    that follow each reply."""
    position = node.position
    geometry = position.geometry
    rows, cols = geometry.shape
    width, height = cols * cell, rows * cell
    stroke = max(0.05, cell * 0.012)
    move_attr = f' data-move="{node.move}"' if node.move is not None else ""
    out.append(
        f'<g class="map-board" data-position={quoteattr(position.to_status_string())}{move_attr}>'
    )
    if node.move is not None:
        mx, my = _origin(geometry.coords(node.move), x0, y0, cell)
        out.append(
            f'<rect class="map-move" x="{_num(mx)}" y="{_num(my)}" width="{_num(cell)}" height="{_num(cell)}" '
            f'fill="{_MOVE_FILL}"/>'
        )
    grid = [
        f'<rect x="{_num(x0)}" y="{_num(y0)}" width="{_num(width)}" height="{_num(height)}" fill="none" '
        f'stroke="{COLORS["grid"]}" stroke-width="{_num(stroke)}"/>'
    ]
    for r in range(1, rows):
        y = y0 + r * cell
        grid.append(f"M{_num(x0)} {_num(y)}H{_num(x0 + width)}")
    for c in range(1, cols):
        x = x0 + c * cell
        grid.append(f"M{_num(x)} {_num(y0)}V{_num(y0 + height)}")
    out.append(grid[0])
    if len(grid) > 1:
        out.append(
            f'<path d="{"".join(grid[1:])}" fill="none" stroke="{COLORS["grid"]}" stroke-width="{_num(stroke)}"/>'
        )
    after = node.after
    pad = cell * 0.08
    for c, status in enumerate(after.statuses):
        if status:
            player = "xo"[status - 1]
            cx, cy = _origin(geometry.coords(c), x0, y0, cell)
            out.append(
                _mark(
                    player,
                    cx + cell / 2,
                    cy + cell / 2,
                    cell,
                    width=cell * (0.14 if c == node.move else 0.1),
                    opacity=1.0 if c == node.move else 0.5,
                )
            )
    for _player, cells in after.complete_lines:
        points = [
            (px + cell / 2, py + cell / 2)
            for px, py in (_origin(geometry.coords(c), x0, y0, cell) for c in cells)
        ]
        out.append(_polyline(points, COLORS["win"], cell * 0.12, opacity=0.6))
    inner = (cell - 2 * pad) / max(rows, cols)
    for reply, child in node.replies:
        cx, cy = _origin(geometry.coords(reply), x0, y0, cell)
        offset_x = pad + (cell - 2 * pad - cols * inner) / 2
        offset_y = pad + (cell - 2 * pad - rows * inner) / 2
        _board(out, child, cx + offset_x, cy + offset_y, inner)
    out.append("</g>")


def _origin(coords: tuple[int, ...], x0: float, y0: float, cell: float) -> tuple[float, float]:
    return x0 + coords[-1] * cell, y0 + coords[-2] * cell
