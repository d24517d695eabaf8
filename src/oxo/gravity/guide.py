"""The rules of a gravity board in plain words (Connect Four on 6 rows by 7 columns with 4 in a
row), said by ``rules`` in ``oxo play`` and by ``oxo show``'s readers: the numbers come from the
board, so the words fit any size."""

from __future__ import annotations

import textwrap

from oxo.gravity.board import GravityBoard


def rules_text(board: GravityBoard, width: int = 80) -> str:
    """The rules of ``board`` in a paragraph, and how moves and positions are written, wrapped to
    ``width`` columns."""
    rows, cols, k = board.rows, board.cols, board.k
    name = "Connect Four" if (rows, cols, k) == (6, 7, 4) else f"This gravity board ({board.spec})"
    rules = (
        f"{name}: two players, X and O, take turns, X first. A move drops a mark into one of the "
        f"{cols} columns: it falls to the lowest empty cell of that column, and a full column "
        f"takes no more marks. The first to have {k} marks in a line (across, up and down, or "
        f"diagonally) wins. When all {rows * cols} cells are full and nobody has a line, the game "
        "is a draw."
    )
    notation = (
        f"A move is a column number, 1 to {cols} from the left. A position is written as the "
        f"columns played in order ({_example(board)}), or as its rows, the top one first, with "
        "'/' between them."
    )
    return "\n\n".join(textwrap.fill(text, width) for text in (rules, notation)) + "\n"


def _example(board: GravityBoard) -> str:
    """A record of the board in words: four moves around the centre column (4453 on Connect
    Four) where the board has room for them, else the first column."""
    centre = (board.cols + 1) // 2
    if board.cols < 3 or board.rows < 2 or board.cols > 9:
        return "1: X in column 1"
    return (
        f"{centre}{centre}{centre + 1}{centre - 1}: X in column {centre}, O on top of it in "
        f"column {centre}, X in column {centre + 1}, O in column {centre - 1}"
    )
