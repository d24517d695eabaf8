"""Text drawing of an ultimate tic-tac-toe position: the nine small grids, won grids, legal moves.

It only reads a :class:`~oxo.uttt.rules.UtttState`. The board is lines of (text, style) tokens,
printed as plain ASCII (files, pipes, tests) or as a :class:`rich.text.Text` with colours on a
terminal. In the drawing

* ``x`` / ``o`` are marks, the last move in capitals (``X`` / ``O``);
* a digit is an empty cell where the side to move may play: its cell number C, so with the grid
  number G on the frame above it the move ``GC`` can be read off the board;
* ``.`` is an empty cell where no move is allowed now;
* a won grid shows its winner's big mark instead of its cells.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from oxo import ninegrids
from oxo.ninegrids import STYLES, Token
from oxo.uttt.notation import format_move
from oxo.uttt.rules import UtttState

if TYPE_CHECKING:
    from rich.text import Text

__all__ = ["STYLES", "Token", "board_rich", "board_text", "board_tokens", "status_lines"]


def board_tokens(state: UtttState, *, highlight: bool = True) -> list[list[Token]]:
    """The board as lines of (text, style) tokens; legal moves shown as cell digits if ``highlight``."""
    x, o = state.x_marks, state.o_marks

    def owner(grid: int) -> str | None:
        won = state.grid_owner(grid)
        return won if won in ("x", "o") else None

    return ninegrids.board_tokens(
        lambda move: "x" if x >> move & 1 else "o" if o >> move & 1 else None,
        owner,
        set(state.legal_moves) if highlight else set(),
        state.last_move,
    )


def board_text(state: UtttState, *, highlight: bool = True) -> str:
    """The board as plain ASCII lines."""
    return ninegrids.tokens_text(board_tokens(state, highlight=highlight))


def board_rich(state: UtttState, *, highlight: bool = True) -> Text:
    """The board as a rich ``Text`` with colours (marks, won grids, legal moves, last move)."""
    return ninegrids.tokens_rich(board_tokens(state, highlight=highlight))


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
