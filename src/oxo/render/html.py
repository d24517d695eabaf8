"""Small HTML tables for notebooks: a count table, a solved board, an analysis.

Each function returns one self-contained ``<div>`` (inline styles only, numbers with thousands
separators, an SVG drawing where one helps) for the ``_repr_html_`` of the library's results.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from oxo.book import BookEntry
    from oxo.counting import CountTable
    from oxo.geometry import Geometry
    from oxo.proofs.solver import ProofResult
    from oxo.reports import Analysis
    from oxo.solve import SolveTable

_TABLE = 'style="border-collapse:collapse;font-variant-numeric:tabular-nums"'
_CELL = 'style="text-align:right;padding:1px 10px"'


def _table(headers: list[str], rows: list[list[str]], caption: str) -> str:
    head = "".join(f"<th {_CELL}>{escape(h)}</th>" for h in headers)
    body = "".join(
        "<tr>" + "".join(f"<td {_CELL}>{escape(cell)}</td>" for cell in row) + "</tr>"
        for row in rows
    )
    return (
        f"<table {_TABLE}><caption style='text-align:left'>{escape(caption)}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    )


def _n(value: int | None) -> str:
    return "" if value is None else f"{value:,}"


def count_table_html(table: CountTable) -> str:
    """Reachable positions and classes per ply, with the per-ply chart beside the table."""
    from oxo.render.svg import count_chart_svg

    rows = [[str(row.ply), _n(row.positions), _n(row.classes)] for row in table.plies]
    rows.append(["total", _n(table.total_positions), _n(table.total_classes)])
    caption = f"{table.geometry.spec}: reachable positions per ply"
    return (
        '<div style="display:flex;gap:16px;align-items:flex-start">'
        + _table(["ply", "positions", "classes"], rows, caption)
        + count_chart_svg(table)
        + "</div>"
    )


def solved_html(
    geometry: Geometry,
    value: str,
    table: SolveTable | None,
    proof: ProofResult | None,
    book: BookEntry | None = None,
) -> str:
    """The value of a board and, for boards of up to 16 cells, its per-ply table of values (the
    parts of :class:`oxo.api.Solved`, so that drawings need not know the API above them); a value
    read from oxo's proof book (``book``, neither table nor proof) with its certificates."""
    words = {"x": "X wins", "o": "O wins", "draw": "draw", "unknown": "not known within the limit"}
    caption = f"{geometry.spec}: {words.get(value, value)} with best play"
    if table is None and proof is None:
        assert book is not None
        rows = [[c.file, c.claim, _n(c.entries), c.sha256[:16] + "…"] for c in book.certificates]
        caption += f", proved by oxo ({book.command} proves it again)"
        return (
            "<div>"
            + _table(["certificate", "proves", "entries", "SHA-256"], rows, caption)
            + "</div>"
        )
    if table is None:
        assert proof is not None
        answers = {True: "yes", False: "no", None: "not settled"}
        rows = [
            [f"can {s.attacker.upper()} force a line?", answers[s.result], _n(s.nodes)]
            for s in proof.searches
        ]
        return "<div>" + _table(["question", "answer", "positions"], rows, caption) + "</div>"
    rows = [
        [str(row.ply), _n(row.x), _n(row.o), _n(row.draw), _n(row.terminal)] for row in table.plies
    ]
    return (
        "<div>" + _table(["ply", "X wins", "O wins", "draw", "game over"], rows, caption) + "</div>"
    )


def analysis_html(analysis: Analysis) -> str:
    """The position drawn with each move's value for the side to move, beside the analysis in words."""
    from oxo.render.svg import classic_svg

    position = analysis.position
    values = {move.cell: move.for_mover.result for move in analysis.moves or ()}
    drawing = classic_svg(
        position,
        labels=True,
        values=values or None,
        lines=[(line, "#9e9e9e") for line in analysis.lines.dead],
    )
    text = escape("\n".join(analysis.text_lines()))
    return (
        '<div style="display:flex;gap:16px;align-items:flex-start">'
        f'{drawing}<pre style="margin:0;white-space:pre-wrap">{text}</pre></div>'
    )
