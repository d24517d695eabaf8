"""Text drawing of a mega tic-tac-toe position: the 9×9 board with big markers, legal moves shown.

Kept apart from the rules: it only reads a :class:`~oxo.mega.rules.MegaState`, which lays its
board out as lines of (text, style) tokens (``MegaState.board_tokens``, also its ``text()``),
printed either as plain ASCII (files, pipes, tests) or as a :class:`rich.text.Text` with colours on
a terminal (:func:`oxo.ninegrids.board_text`, :func:`oxo.ninegrids.board_rich`). In the drawing

* ``x`` / ``o`` are marks, the last move in capitals (``X`` / ``O``);
* a digit is an empty cell where the player to move may play: its cell number, so with the grid
  number on the frame above it the move ``GC`` can be read off the board;
* ``.`` is an empty cell where no move is allowed now;
* a covered inner grid shows its big marker (a three-line X or O) instead of its cells.
"""

from __future__ import annotations

from oxo.mega.notation import format_move
from oxo.mega.rules import MegaState
from oxo.ninegrids import STYLES, Token, board_rich, board_text

__all__ = ["STYLES", "Token", "board_rich", "board_text", "status_lines"]


def status_lines(state: MegaState, *, legal: bool = True) -> list[str]:
    """Whose turn or who won, the current string, big markers and (optionally) the legal moves."""
    lines = []
    winner = state.winner
    if winner == "draw":
        lines.append(f"draw: no move is possible after {state.move_count} moves")
    elif winner is not None:
        lines.append(
            f"winner: {winner} (three big markers in a row, after {state.move_count} moves)"
        )
    else:
        lines.append(f"to move: {state.to_move} (move {state.move_count + 1})")
    lines.append(string_line(state))
    covered = state.covered
    if covered:
        lines.append(
            "big markers: " + ", ".join(f"grid {grid} {owner}" for grid, owner in covered.items())
        )
    if state.abnormal_strings:
        lines.append(
            "abnormal strings (rule 8 used): "
            + ", ".join(str(i + 1) for i in state.abnormal_strings)
        )
    if legal and winner is None:
        moves = [format_move(m) for m in state.legal_moves]
        rule8 = " (rule 8: no move keeps rule 6)" if state.rule8_applies() else ""
        lines.append(f"legal moves ({len(moves)}){rule8}: {' '.join(moves)}")
    return lines


def string_line(state: MegaState) -> str:
    """The current string in words, numbered from 1 like moves: its length, its moves so far, what is left.

    For example ``string 3 of the game (9 moves long): 1 move so far (17), 8 to go``.
    """
    string = state.current_string
    count = len(string.played)
    if count:
        moves = " ".join(format_move(m) for m in string.played)
        so_far = f"{count} move{'' if count == 1 else 's'} so far ({moves})"
    else:
        so_far = "no move yet"
    abnormal = ", abnormal (rule 8 used)" if string.abnormal else ""
    return (
        f"string {string.index + 1} of the game ({string.length} moves long): "
        f"{so_far}, {string.remaining} to go{abnormal}"
    )
