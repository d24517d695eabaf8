"""Boards and charts as standalone SVG text: classic m×n (and n×n×n) boards, mega boards, count charts.

Every drawing is a complete ``<svg>`` element with its colours inline, so the same string can be
written to a file (``oxo show --svg``) or dropped into the web page. Clickable parts carry data
attributes the page listens to: ``data-cell`` (a classic cell ID) and ``data-move`` (a mega move in
``GC`` notation); cells where the player to move may play have the class ``legal``.

* :func:`classic_svg` draws a position: marks, complete lines, optional move values (win / draw /
  loss for the player to move), cell fills, extra lines (e.g. dead ones) and cell IDs. A 3D board
  is drawn as its layers side by side.
* :func:`mega_svg` draws a mega tic-tac-toe state: the nine inner grids, big markers over covered
  grids, the legal moves, the current string (grids played in it tinted, cell positions used by it
  dotted), an abnormal current string framed, and a caption with the string and abnormal strings.
* :func:`count_chart_svg` draws per-ply counts (positions and symmetry classes) on a log scale.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from oxo import ninegrids, palette
from oxo.geometry import mask_cells
from oxo.position import Position

if TYPE_CHECKING:
    from oxo.counting import CountTable
    from oxo.mega.rules import MegaState

#: Colours of the drawings (also used by the page's legend).
COLORS: dict[str, str] = {
    **palette.COLORS,
    "win": "#2e7d32",
    "draw": "#616161",
    "loss": "#c62828",
    "played": "#fff1c4",
    "used": "#9e9e9e",
    "abnormal": "#e65100",
    "covered_x": "#fbe3e1",
    "covered_o": "#dde8fa",
    "label": "#8a8a8a",
    "positions": "#546e7a",
    "classes": "#ff8f00",
}

VALUE_TEXT: dict[str, str] = {"win": "win", "draw": "draw", "loss": "loss"}
_VALUE_FILL: dict[str, str] = {"win": "#e3f3e4", "draw": "#f0f0f0", "loss": "#fbe4e4"}
_FONT = "font-family=\"system-ui, -apple-system, 'Segoe UI', sans-serif\""


def _num(value: float) -> str:
    """A coordinate without needless decimals."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text != "-0" else "0"


def _open(width: float, height: float, css_class: str, label: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class={quoteattr(css_class)} viewBox="0 0 {_num(width)} {_num(height)}" '
        f'width="{_num(width)}" height="{_num(height)}" role="img" aria-label={quoteattr(label)}>'
        f"<title>{escape(label)}</title>"
    )


def _mark(
    player: str,
    cx: float,
    cy: float,
    size: float,
    *,
    width: float | None = None,
    opacity: float = 1.0,
) -> str:
    """An X (two strokes) or an O (a circle) centred on (cx, cy) fitting a square of side ``size``."""
    stroke = width if width is not None else max(2.0, size * 0.12)
    r = size * 0.32
    color = COLORS[player]
    extra = f' opacity="{_num(opacity)}"' if opacity < 1 else ""
    if player == "x":
        return (
            f'<g class="mark x" stroke="{color}" stroke-width="{_num(stroke)}" stroke-linecap="round"{extra}>'
            f'<line x1="{_num(cx - r)}" y1="{_num(cy - r)}" x2="{_num(cx + r)}" y2="{_num(cy + r)}"/>'
            f'<line x1="{_num(cx - r)}" y1="{_num(cy + r)}" x2="{_num(cx + r)}" y2="{_num(cy - r)}"/></g>'
        )
    return (
        f'<circle class="mark o" cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}" fill="none" stroke="{color}" '
        f'stroke-width="{_num(stroke)}"{extra}/>'
    )


# -- classic boards -----------------------------------------------------------------------------------


def classic_svg(
    position: Position,
    *,
    cell: float = 48,
    legal: bool = False,
    last: int | None = None,
    values: Mapping[int, str] | None = None,
    fills: Mapping[int, str] | None = None,
    lines: Iterable[tuple[Iterable[int], str]] = (),
    labels: bool = False,
    caption: str | None = None,
    layers_per_row: int | None = None,
) -> str:
    """A position as SVG: marks, complete lines in the winner's colour, and optional annotations.

    ``legal`` marks the cells the player to move may take (class ``legal``, tinted); ``last`` outlines
    a cell; ``values`` maps empty cells to ``"win"``, ``"draw"`` or ``"loss"`` (for the player to
    move), written in the cell; ``fills`` gives cells a background colour; ``lines`` are extra
    ``(cells, colour)`` strokes drawn thin and dashed; ``labels`` writes each cell's ID in its corner;
    ``caption`` is a line of text under the board. A 3D board is drawn as its layers side by side,
    ``layers_per_row`` of them in a row (default: all; in four dimensions and more, the layers of
    one cube: a 4x4x4x4 board is a 4x4 grid of 4x4 layers). With gravity the layers are the levels,
    the top one first (as in reading order).
    """
    geometry = position.geometry
    rows, cols = geometry.shape[-2], geometry.shape[-1]
    layers = geometry.size // (rows * cols)
    if layers_per_row is None and geometry.dimensions > 3:
        layers_per_row = geometry.shape[-3]
    per_row = layers if layers_per_row is None else max(1, min(layers_per_row, layers))
    layer_rows = -(-layers // per_row)
    margin = 6.0
    gap = cell * 0.5 if layers > 1 else 0.0
    title = 16.0 if layers > 1 else 0.0
    width = 2 * margin + per_row * cols * cell + (per_row - 1) * gap
    height = (
        2 * margin
        + layer_rows * (title + rows * cell)
        + (layer_rows - 1) * gap
        + (20.0 if caption else 0.0)
    )
    values = values or {}
    fills = fills or {}
    playable = set(position.legal_moves) if legal else set()
    statuses = position.statuses

    def corner(layer: int) -> tuple[float, float]:
        """The top left of a layer's grid."""
        across, down = layer % per_row, layer // per_row
        return margin + across * (cols * cell + gap), margin + title + down * (
            title + rows * cell + gap
        )

    def origin(c: int) -> tuple[float, float]:
        coords = geometry.coords(c)
        lx, ly = corner(c // (rows * cols))
        return lx + coords[-1] * cell, ly + coords[-2] * cell

    def layer_title(layer: int) -> str:
        if geometry.gravity:
            level = layers - layer
            return "top" if level == layers else "bottom" if level == 1 else f"level {level}"
        if geometry.dimensions > 3:
            first = layer * rows * cols
            return f"cells {first}-{first + rows * cols - 1}"
        return f"layer {layer + 1}"

    def centre(c: int) -> tuple[float, float]:
        x, y = origin(c)
        return x + cell / 2, y + cell / 2

    turn = position.to_move
    label = f"{geometry.spec} board, position {position.to_status_string()}" + (
        f", {turn.upper()} to move" if turn else ""
    )
    out = [_open(width, height, f"oxo-board classic b{geometry.spec_shape}", label)]
    out.append(f'<rect x="0" y="0" width="{_num(width)}" height="{_num(height)}" fill="none"/>')
    for layer in range(layers):
        lx, ly = corner(layer)
        if layers > 1:
            out.append(
                f'<text x="{_num(lx + cols * cell / 2)}" y="{_num(ly - 4)}" text-anchor="middle" font-size="11" '
                f'fill="{COLORS["label"]}" {_FONT}>{layer_title(layer)}</text>'
            )
    for c in geometry.cells:
        x, y = origin(c)
        classes = ["cell"]
        fill = COLORS["board"]
        if c in fills:
            fill = fills[c]
        if c in values:
            classes.append(f"value-{values[c]}")
            fill = _VALUE_FILL.get(values[c], fill)
        if c in playable:
            classes.append("legal")
            if c not in fills and c not in values:
                fill = COLORS["legal"]
        if statuses[c] == 0:
            classes.append("empty")
        value_attr = f' data-value="{escape(values[c])}"' if c in values else ""
        out.append(
            f'<rect class="{" ".join(classes)}" data-cell="{c}"{value_attr} x="{_num(x)}" y="{_num(y)}" '
            f'width="{_num(cell)}" height="{_num(cell)}" fill="{fill}" stroke="{COLORS["grid"]}" stroke-width="1.5"/>'
        )
    if labels:
        for c in geometry.cells:
            x, y = origin(c)
            out.append(
                f'<text x="{_num(x + 3)}" y="{_num(y + 11)}" font-size="9" fill="{COLORS["label"]}" {_FONT} '
                f'pointer-events="none">{c}</text>'
            )
    if last is not None and 0 <= last < geometry.size:
        x, y = origin(last)
        out.append(
            f'<rect class="last" x="{_num(x + 2)}" y="{_num(y + 2)}" width="{_num(cell - 4)}" height="{_num(cell - 4)}" '
            f'fill="none" stroke="{COLORS["last"]}" stroke-width="3" pointer-events="none"/>'
        )
    for c, status in enumerate(statuses):
        if status:
            cx, cy = centre(c)
            out.append(f'<g pointer-events="none">{_mark("xo"[status - 1], cx, cy, cell)}</g>')
    for c, value in values.items():
        if statuses[c] == 0:
            cx, cy = centre(c)
            out.append(
                f'<text class="value" x="{_num(cx)}" y="{_num(cy + 4)}" text-anchor="middle" font-size="{_num(cell * 0.26)}" '
                f'font-weight="600" fill="{COLORS.get(value, COLORS["label"])}" {_FONT} pointer-events="none">'
                f"{escape(VALUE_TEXT.get(value, value))}</text>"
            )
    for cells, color in lines:
        out.append(_polyline([centre(c) for c in cells], color, max(1.5, cell * 0.05), dashed=True))
    for player, cells in position.complete_lines:
        out.append(
            _polyline(
                [centre(c) for c in cells], COLORS[player], max(3.0, cell * 0.12), opacity=0.55
            )
        )
    if caption:
        out.append(
            f'<text x="{_num(margin)}" y="{_num(height - 6)}" font-size="12" fill="#333" {_FONT}>{escape(caption)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def _polyline(
    points: list[tuple[float, float]],
    color: str,
    width: float,
    *,
    dashed: bool = False,
    opacity: float = 1.0,
) -> str:
    if not points:
        return ""
    if len(points) == 1:
        x, y = points[0]
        return f'<circle cx="{_num(x)}" cy="{_num(y)}" r="{_num(width * 2)}" fill="{color}" opacity="{_num(opacity)}" pointer-events="none"/>'
    coords = " ".join(f"{_num(x)},{_num(y)}" for x, y in points)
    dash = f' stroke-dasharray="{_num(width * 3)} {_num(width * 2)}"' if dashed else ""
    return (
        f'<polyline class="line" points="{coords}" fill="none" stroke="{color}" stroke-width="{_num(width)}" '
        f'stroke-linecap="round" stroke-linejoin="round" opacity="{_num(opacity)}"{dash} pointer-events="none"/>'
    )


# -- mega tic-tac-toe ---------------------------------------------------------------------------------

#: The three grids of each straight on the outer 3×3 board (grids 1..9), for the winning stroke.
_OUTER_LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(cell + 1 for cell in mask_cells(line)) for line in ninegrids.LINES
)


def mega_svg(
    state: MegaState, *, cell: float = 34, legal: bool = True, caption: bool = True
) -> str:
    """A mega tic-tac-toe state as SVG.

    Legal moves (when ``legal``) are tinted green and carry ``data-move``; the inner grids already
    played in the current string are tinted amber and the cell positions it used are dotted in every
    open grid; a covered grid shows its big marker; the last move is outlined; an abnormal current
    string gets an orange frame. With ``caption``, lines under the board say whose turn it is, the
    current string and the abnormal strings so far.
    """
    from oxo.mega.notation import format_move

    margin, gap = 8.0, 8.0
    block = 3 * cell
    board = 3 * block + 2 * gap
    string = state.current_string
    caption_lines = _mega_caption(state) if caption else []
    width = board + 2 * margin
    height = board + 2 * margin + 17 * len(caption_lines)
    legal_moves = set(state.legal_moves) if legal else set()
    played_grids = set(string.grids)
    used_positions = set(string.positions)
    covered = state.covered
    last = state.moves[-1] if state.moves else None
    winner = state.winner
    turn = state.to_move
    label = f"mega tic-tac-toe after {state.move_count} moves" + (
        f", {turn.upper()} to move" if turn else ""
    )

    def grid_origin(grid: int) -> tuple[float, float]:
        row, col = divmod(grid - 1, 3)
        return margin + col * (block + gap), margin + row * (block + gap)

    out = [_open(width, height, "oxo-board mega", label)]
    frame = COLORS["abnormal"] if string.abnormal and winner is None else COLORS["grid"]
    dash = ' stroke-dasharray="8 4"' if string.abnormal and winner is None else ""
    out.append(
        f'<rect class="frame{" abnormal" if string.abnormal else ""}" x="{_num(margin / 2)}" y="{_num(margin / 2)}" '
        f'width="{_num(board + margin)}" height="{_num(board + margin)}" rx="6" fill="#fafafa" stroke="{frame}" '
        f'stroke-width="{3 if string.abnormal else 1}"{dash}/>'
    )
    for grid in range(1, 10):
        gx, gy = grid_origin(grid)
        owner = covered.get(grid)
        classes = ["grid"]
        fill = COLORS["board"]
        if owner:
            classes.append(f"covered-{owner}")
            fill = COLORS[f"covered_{owner}"]
        elif grid in played_grids:
            classes.append("played")
            fill = COLORS["played"]
        out.append(
            f'<rect class="{" ".join(classes)}" data-grid="{grid}" x="{_num(gx)}" y="{_num(gy)}" width="{_num(block)}" '
            f'height="{_num(block)}" fill="{fill}" stroke="{COLORS["grid"]}" stroke-width="2"/>'
        )
        for c in range(1, 10):
            move = 9 * (grid - 1) + c - 1
            r, q = divmod(c - 1, 3)
            x, y = gx + q * cell, gy + r * cell
            mark = state.cell(grid, c)
            cls = ["cell"]
            cell_fill = "none"
            if move in legal_moves:
                cls.append("legal")
                cell_fill = COLORS["legal"]
            elif mark is None and owner is None and c in used_positions:
                cls.append("used")
            out.append(
                f'<rect class="{" ".join(cls)}" data-move="{format_move(move)}" x="{_num(x)}" y="{_num(y)}" '
                f'width="{_num(cell)}" height="{_num(cell)}" fill="{cell_fill}" stroke="#bdbdbd" stroke-width="0.75"/>'
            )
            if "used" in cls:
                out.append(
                    f'<circle class="used-dot" cx="{_num(x + cell / 2)}" cy="{_num(y + cell / 2)}" r="{_num(cell * 0.08)}" '
                    f'fill="{COLORS["used"]}" pointer-events="none"/>'
                )
            if move in legal_moves:
                out.append(
                    f'<rect x="{_num(x + 1.5)}" y="{_num(y + 1.5)}" width="{_num(cell - 3)}" height="{_num(cell - 3)}" '
                    f'fill="none" stroke="{COLORS["legal_stroke"]}" stroke-width="1.2" pointer-events="none"/>'
                )
            if mark is not None:
                out.append(
                    f'<g pointer-events="none">{_mark(mark, x + cell / 2, y + cell / 2, cell, opacity=0.35 if owner else 1.0)}</g>'
                )
            if move == last:
                out.append(
                    f'<rect class="last" x="{_num(x + 2)}" y="{_num(y + 2)}" width="{_num(cell - 4)}" height="{_num(cell - 4)}" '
                    f'fill="none" stroke="{COLORS["last"]}" stroke-width="3" pointer-events="none"/>'
                )
        out.append(
            f'<text x="{_num(gx + 2)}" y="{_num(gy + 9)}" font-size="8" fill="{COLORS["label"]}" {_FONT} '
            f'pointer-events="none">{grid}</text>'
        )
        if owner:
            out.append(
                f'<g class="big-marker {owner}" data-grid="{grid}" pointer-events="none">'
                f"{_mark(owner, gx + block / 2, gy + block / 2, block * 1.05, width=block * 0.11, opacity=0.9)}</g>"
            )
    if winner in ("x", "o"):
        owned = {grid for grid, owner in covered.items() if owner == winner}
        for straight in _OUTER_LINES:
            if owned.issuperset(straight):
                points = []
                for grid in straight:
                    gx, gy = grid_origin(grid)
                    points.append((gx + block / 2, gy + block / 2))
                out.append(_polyline(points, COLORS[winner], cell * 0.3, opacity=0.6))
    for number, text in enumerate(caption_lines):
        color = COLORS["abnormal"] if "abnormal" in text and number == 1 else "#333"
        out.append(
            f'<text class="caption" x="{_num(margin)}" y="{_num(board + 2 * margin + 13 + 17 * number)}" font-size="12.5" '
            f'fill="{color}" {_FONT}>{escape(text)}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def _mega_caption(state: MegaState) -> list[str]:
    from oxo.mega.notation import format_move

    winner = state.winner
    if winner == "draw":
        first = f"Draw: no move is possible after {state.move_count} moves"
    elif winner:
        first = f"{winner.upper()} wins with three big markers in a row ({state.move_count} moves)"
    else:
        first = f"{state.to_move.upper()} to move (move {state.move_count + 1})"  # type: ignore[union-attr]  # no winner yet, so someone is to move
    string = state.current_string
    played = " ".join(format_move(m) for m in string.played) or "no move yet"
    second = f"String {string.index + 1}: length {string.length}, played {played}"
    if string.abnormal:
        second += " — abnormal (rule 8)"
    elif winner is None and state.rule8_applies():
        second += " — next move ignores rule 6 (rule 8)"
    lines = [first, second]
    if state.abnormal_strings:
        lines.append("Abnormal strings: " + ", ".join(str(i + 1) for i in state.abnormal_strings))
    return lines


# -- charts -------------------------------------------------------------------------------------------


def count_chart_svg(table: CountTable, *, bar: float = 11, height: float = 220) -> str:
    """Reachable positions and symmetry classes per ply as paired bars on a log scale (exact counts in tooltips)."""
    plies = table.plies
    top_value = max([row.positions for row in plies] + [1])
    decades = max(1, math.ceil(math.log10(top_value)) if top_value > 1 else 1)
    left, right, top, bottom = 54.0, 10.0, 28.0, 34.0
    slot = 2 * bar + 6
    plot_w = slot * len(plies)
    width = left + plot_w + right
    total_h = top + height + bottom

    def y_of(value: int) -> float:
        if value <= 0:
            return top + height
        return top + height - height * math.log10(value) / decades

    label = f"reachable positions and classes per ply, {table.geometry.spec} board"
    out = [_open(width, total_h, "oxo-chart count", label)]
    out.append(
        f'<text x="{_num(left)}" y="14" font-size="12" fill="#333" {_FONT}>{escape(table.geometry.spec)}: '
        f"{table.total_positions:,} positions, {table.total_classes:,} classes (log scale)</text>"
    )
    for d in range(decades + 1):
        y = top + height - height * d / decades
        out.append(
            f'<line x1="{_num(left)}" y1="{_num(y)}" x2="{_num(left + plot_w)}" y2="{_num(y)}" stroke="#e0e0e0"/>'
        )
        out.append(
            f'<text x="{_num(left - 4)}" y="{_num(y + 4)}" text-anchor="end" font-size="10" fill="#555" {_FONT}>'
            f"{_tick(d)}</text>"
        )
    for i, row in enumerate(plies):
        x0 = left + i * slot + 3
        for j, (kind, value) in enumerate((("positions", row.positions), ("classes", row.classes))):
            y = y_of(value)
            h = max(top + height - y, 1.5 if value > 0 else 0)
            out.append(
                f'<rect class="bar {kind}" data-ply="{row.ply}" x="{_num(x0 + j * bar)}" y="{_num(top + height - h)}" '
                f'width="{_num(bar)}" height="{_num(h)}" fill="{COLORS[kind]}"><title>ply {row.ply}: {value:,} {kind}</title></rect>'
            )
        out.append(
            f'<text x="{_num(x0 + bar)}" y="{_num(top + height + 13)}" text-anchor="middle" font-size="10" fill="#555" {_FONT}>'
            f"{row.ply}</text>"
        )
    out.append(
        f'<line x1="{_num(left)}" y1="{_num(top + height)}" x2="{_num(left + plot_w)}" y2="{_num(top + height)}" stroke="#555"/>'
    )
    legend_y = top + height + 28
    out.append(
        f'<text x="{_num(left)}" y="{_num(legend_y)}" font-size="10" fill="#555" {_FONT}>ply</text>'
    )
    for j, kind in enumerate(("positions", "classes")):
        lx = left + 40 + j * 90
        out.append(
            f'<rect x="{_num(lx)}" y="{_num(legend_y - 9)}" width="10" height="10" fill="{COLORS[kind]}"/>'
        )
        out.append(
            f'<text x="{_num(lx + 14)}" y="{_num(legend_y)}" font-size="10" fill="#333" {_FONT}>{kind}</text>'
        )
    out.append("</svg>")
    return "".join(out)


def _tick(decade: int) -> str:
    value = 10**decade
    if value >= 1_000_000:
        return f"{value // 1_000_000}M" if value < 1_000_000_000 else f"1e{decade}"
    if value >= 1000:
        return f"{value // 1000}k"
    return str(value)
