"""Text drawing of an ultimate tic-tac-toe position: the nine small grids, won grids, legal moves.

It only reads a :class:`~oxo.uttt.rules.UtttState`, which lays its board out as lines of (text,
style) tokens (``UtttState.board_tokens``, also its ``text()``), printed as plain ASCII (files,
pipes, tests) or as a :class:`rich.text.Text` with colours on a terminal
(:func:`oxo.ninegrids.board_text`, :func:`oxo.ninegrids.board_rich`). In the drawing

* ``x`` / ``o`` are marks, the last move in capitals (``X`` / ``O``);
* a digit is an empty cell where the side to move may play: its cell number C, so with the grid
  number G on the frame above it the move ``GC`` can be read off the board;
* ``.`` is an empty cell where no move is allowed now;
* a won grid shows its winner's big mark instead of its cells.
"""

from __future__ import annotations

from oxo.ninegrids import STYLES, Token, board_rich, board_text
from oxo.uttt.notation import format_move
from oxo.uttt.rules import UtttState

__all__ = ["STYLES", "Token", "board_rich", "board_text", "status_lines"]


def status_lines(state: UtttState, *, legal: bool = True) -> list[str]:
    """Whose turn or who won, where the next move must go, the won grids and (optionally) the legal moves."""
    lines = []
    outcome = state.outcome
    if outcome == "draw":
        lines.append(
            f"draw: every grid is won or full and nobody has three in a row ({state.move_count} moves)"
        )
    elif outcome is not None:
        lines.append(
            f"winner: {outcome} (three won grids in a row, after {state.move_count} moves)"
        )
    else:
        lines.append(f"to move: {state.to_move} (move {state.move_count + 1})")
        target = state.target
        if target is not None:
            lines.append(f"must play in grid {target + 1}")
        elif state.move_count:
            lines.append("may play in any grid that is neither won nor full")
    won = [(g + 1, state.grid_owner(g)) for g in range(9)]
    taken = [f"grid {g} {owner}" for g, owner in won if owner in ("x", "o")]
    if taken:
        lines.append("won grids: " + ", ".join(taken))
    full = [str(g) for g, owner in won if owner == "draw"]
    if full:
        lines.append("full grids without a winner: " + ", ".join(full))
    if legal and outcome is None:
        moves = [format_move(m) for m in state.legal_moves]
        lines.append(f"legal moves ({len(moves)}): {' '.join(moves)}")
    return lines
