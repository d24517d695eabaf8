"""An ultimate tic-tac-toe position as standalone SVG (for notebooks, files and web pages).

Cells where the side to move may play have the class ``legal`` and carry ``data-move`` (the move in
``GC`` notation), like mega tic-tac-toe's drawing, so a page can make them clickable; every grid
carries ``data-grid`` (1..9). A won grid shows its winner's big mark, a full grid without a line is
greyed, the last move is outlined, and three won grids in a row are struck through. Colours are
inline, so the string stands on its own.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from oxo import palette
from oxo.ninegrids import LINES
from oxo.uttt.notation import format_move
from oxo.uttt.rules import UtttState

COLORS: dict[str, str] = {
    **palette.COLORS,
    "won_x": "#fbe3e1",
    "won_o": "#dde8fa",
    "full": "#eeeeee",
    "label": "#8a8a8a",
}
_FONT = "font-family=\"system-ui, -apple-system, 'Segoe UI', sans-serif\""


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return text if text != "-0" else "0"


def _mark(
    player: str, cx: float, cy: float, size: float, width: float, opacity: float, css: str = ""
) -> str:
    """An X (two strokes) or an O (a circle) centred on (cx, cy) in a square of side ``size``."""
    half = size * 0.3
    color = COLORS[player]
    style = (
        f'stroke="{color}" stroke-width="{_num(width)}" stroke-linecap="round" opacity="{opacity}"'
    )
    kind = f' class="{css} {player}"' if css else ""
    if player == "x":
        return (
            f"<g{kind} {style}>"
            f'<line x1="{_num(cx - half)}" y1="{_num(cy - half)}" x2="{_num(cx + half)}" y2="{_num(cy + half)}"/>'
            f'<line x1="{_num(cx - half)}" y1="{_num(cy + half)}" x2="{_num(cx + half)}" y2="{_num(cy - half)}"/></g>'
        )
    return f'<circle{kind} cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(half)}" fill="none" {style}/>'


def caption_lines(state: UtttState) -> list[str]:
    """Whose turn it is and where the next move goes, or how the game ended."""
    outcome = state.outcome
    if outcome == "draw":
        return [f"Draw: every grid is won or full ({state.move_count} moves)"]
    if outcome is not None:
        return [f"{outcome.upper()} wins with three won grids in a row ({state.move_count} moves)"]
    mover = (state.to_move or "x").upper()
    target = state.target
    where = (
        f"must play in grid {target + 1}"
        if target is not None
        else "may play in any grid that is neither won nor full"
    )
    return [f"{mover} to move (move {state.move_count + 1})", f"{mover} {where}"]


def uttt_svg(
    state: UtttState, *, cell: float = 34, legal: bool = True, caption: bool = True
) -> str:
    """The position as an ``<svg>`` element; legal moves (when ``legal``) tinted and clickable."""
    margin, gap = 8.0, 8.0
    block = 3 * cell
    board = 3 * block + 2 * gap
    lines = caption_lines(state) if caption else []
    width = board + 2 * margin
    height = board + 2 * margin + 17 * len(lines)
    legal_moves = set(state.legal_moves) if legal else set()
    last = state.last_move
    x_marks, o_marks = state.x_marks, state.o_marks
    turn = state.to_move
    label = f"ultimate tic-tac-toe after {state.move_count} moves" + (
        f", {turn.upper()} to move" if turn else ""
    )

    def origin(grid: int) -> tuple[float, float]:
        row, col = divmod(grid, 3)
        return margin + col * (block + gap), margin + row * (block + gap)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="oxo-board uttt" viewBox="0 0 {_num(width)} {_num(height)}" '
        f'width="{_num(width)}" height="{_num(height)}" role="img" aria-label={quoteattr(label)}>'
        f"<title>{escape(label)}</title>",
        f'<rect class="frame" x="{_num(margin / 2)}" y="{_num(margin / 2)}" width="{_num(board + margin)}" '
        f'height="{_num(board + margin)}" rx="6" fill="#fafafa" stroke="{COLORS["grid"]}" stroke-width="1"/>',
    ]
    for grid in range(9):
        gx, gy = origin(grid)
        owner = state.grid_owner(grid)
        fill = {"x": COLORS["won_x"], "o": COLORS["won_o"], "draw": COLORS["full"]}.get(
            owner or "", COLORS["board"]
        )
        kind = {"x": " won-x", "o": " won-o", "draw": " full"}.get(owner or "", "")
        out.append(
            f'<rect class="grid{kind}" data-grid="{grid + 1}" x="{_num(gx)}" y="{_num(gy)}" width="{_num(block)}" '
            f'height="{_num(block)}" fill="{fill}" stroke="{COLORS["grid"]}" stroke-width="2"/>'
        )
        for c in range(9):
            move = 9 * grid + c
            r, q = divmod(c, 3)
            x, y = gx + q * cell, gy + r * cell
            playable = move in legal_moves
            out.append(
                f'<rect class="cell{" legal" if playable else ""}" data-move="{format_move(move)}" x="{_num(x)}" '
                f'y="{_num(y)}" width="{_num(cell)}" height="{_num(cell)}" '
                f'fill="{COLORS["legal"] if playable else "none"}" stroke="#bdbdbd" stroke-width="0.75"/>'
            )
            if playable:
                out.append(
                    f'<rect x="{_num(x + 1.5)}" y="{_num(y + 1.5)}" width="{_num(cell - 3)}" height="{_num(cell - 3)}" '
                    f'fill="none" stroke="{COLORS["legal_stroke"]}" stroke-width="1.2" pointer-events="none"/>'
                )
            mark = "x" if x_marks >> move & 1 else "o" if o_marks >> move & 1 else None
            if mark is not None:
                dim = 0.35 if owner in ("x", "o") else 1.0
                out.append(
                    f'<g pointer-events="none">{_mark(mark, x + cell / 2, y + cell / 2, cell, cell * 0.09, dim, "mark")}</g>'
                )
            if move == last:
                out.append(
                    f'<rect class="last" x="{_num(x + 2)}" y="{_num(y + 2)}" width="{_num(cell - 4)}" '
                    f'height="{_num(cell - 4)}" fill="none" stroke="{COLORS["last"]}" stroke-width="3" pointer-events="none"/>'
                )
        out.append(
            f'<text x="{_num(gx + 2)}" y="{_num(gy + 9)}" font-size="8" fill="{COLORS["label"]}" {_FONT} '
            f'pointer-events="none">{grid + 1}</text>'
        )
        if owner in ("x", "o"):
            out.append(
                f'<g class="big-mark {owner}" data-grid="{grid + 1}" pointer-events="none">'
                f"{_mark(owner, gx + block / 2, gy + block / 2, block * 1.05, block * 0.11, 0.9)}</g>"
            )
    outcome = state.outcome
    if outcome in ("x", "o"):
        won = state.won_grids[0 if outcome == "x" else 1]
        for line in LINES:
            if won & line == line:
                grids = [g for g in range(9) if line >> g & 1]
                (ax, ay), (bx, by) = origin(grids[0]), origin(grids[-1])
                out.append(
                    f'<line class="winning-line" x1="{_num(ax + block / 2)}" y1="{_num(ay + block / 2)}" '
                    f'x2="{_num(bx + block / 2)}" y2="{_num(by + block / 2)}" stroke="{COLORS[outcome]}" '
                    f'stroke-width="{_num(cell * 0.3)}" stroke-linecap="round" opacity="0.6"/>'
                )
    for number, text in enumerate(lines):
        out.append(
            f'<text class="caption" x="{_num(margin)}" y="{_num(board + 2 * margin + 13 + 17 * number)}" '
            f'font-size="12.5" fill="#333" {_FONT}>{escape(text)}</text>'
        )
    out.append("</svg>")
    return "".join(out)
