"""A gravity board (Connect Four) as standalone SVG, for notebooks, files and the web page.

The cell where a mark would land in each open column has the class ``legal`` and carries
``data-move`` (the column as people write it, from 1), like the other games' drawings, so a page can
make it clickable. Each column, full or not, is also one transparent rectangle from the top of the
frame to its number (class ``column``, with ``open`` while a mark can drop there, and
``data-column``, the column as people write it), drawn under the holes, which let a pointer through:
a page can make the whole column one button, reached column by column from the keyboard. The column
numbers stand under the board. Colours are inline, so the string stands on its own.
"""

from __future__ import annotations

from xml.sax.saxutils import quoteattr

from oxo.gravity.board import GravityState

COLORS: dict[str, str] = {
    "x": "#c62828",
    "o": "#1565c0",
    "frame": "#2f4f8f",
    "hole": "#ffffff",
    "legal": "#e3f6e3",
    "legal_stroke": "#2e7d32",
    "label": "#555555",
}
_FONT = "font-family=\"system-ui, -apple-system, 'Segoe UI', sans-serif\""


def gravity_svg(state: GravityState, cell: int = 44) -> str:
    """``state`` drawn as an upright frame of round holes, top row first, columns numbered from 1."""
    rows, cols = state.board.rows, state.board.cols
    pad = cell // 6
    width = cols * cell + 2 * pad
    height = rows * cell + 2 * pad + cell // 2
    radius = cell * 0.4
    legal = set(state.legal_moves) if not state.is_over else set()
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" '
        f'aria-label="{rows} by {cols} gravity board, {state.ply} marks">',
        f'<rect x="0" y="0" width="{width}" height="{rows * cell + 2 * pad}" rx="{pad}" '
        f'fill="{COLORS["frame"]}"/>',
    ]
    for col in range(cols):
        drop = state.drop_cell(col) if col in legal else None
        kind = "column open" if col in legal else "column"
        parts.append(
            f'<rect class="{kind}" data-column={quoteattr(state.format_move(col))} '
            f'x="{pad + col * cell:g}" y="0" width="{cell:g}" height="{height:g}" '
            f'fill="#ffffff" fill-opacity="0"/>'
        )
        for row in range(rows):
            cx = pad + col * cell + cell / 2
            cy = pad + (rows - 1 - row) * cell + cell / 2
            mark = state.cell(row, col)
            if mark in ("x", "o"):
                parts.append(
                    f'<circle class="mark {mark}" cx="{cx:g}" cy="{cy:g}" r="{radius:g}" '
                    f'fill="{COLORS[mark]}" pointer-events="none"/>'
                )
            elif drop and state.board.bit(row, col) == drop:
                move = quoteattr(state.format_move(col))
                parts.append(
                    f'<circle class="legal" data-move={move} cx="{cx:g}" cy="{cy:g}" '
                    f'r="{radius:g}" fill="{COLORS["legal"]}" stroke="{COLORS["legal_stroke"]}" '
                    f'stroke-width="2"><title>column {col + 1}</title></circle>'
                )
            else:
                parts.append(
                    f'<circle cx="{cx:g}" cy="{cy:g}" r="{radius:g}" fill="{COLORS["hole"]}" '
                    'pointer-events="none"/>'
                )
        parts.append(
            f'<text x="{pad + col * cell + cell / 2:g}" y="{rows * cell + 2 * pad + cell * 0.4:g}" '
            f'text-anchor="middle" font-size="{cell // 3}" fill="{COLORS["label"]}" {_FONT} '
            f'pointer-events="none" aria-hidden="true">'
            f"{col + 1}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)
