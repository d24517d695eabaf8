"""The rules of ultimate tic-tac-toe in plain words, and how it differs from mega tic-tac-toe.

``oxo uttt rules`` prints :func:`rules_text`. The example at the end is not typed in: it replays
:data:`EXAMPLE_RECORD` through the rules and says where each move sent the next player, so the
words cannot drift from the rules as implemented.
"""

from __future__ import annotations

import textwrap

from oxo.uttt.notation import format_move, parse_record
from oxo.uttt.render import board_text
from oxo.uttt.rules import RULES, UtttState

#: A short opening in which X wins grid 2 with a move that sends O to grid 2, so O may play anywhere.
EXAMPLE_RECORD = "21 12 23 32 22 58"

INTRO = (
    "Ultimate tic-tac-toe is played on nine small tic-tac-toe grids arranged in a big 3x3 grid "
    "(81 cells), with the rules most players, CodinGame and OpenSpiel use:"
)

MOVES = (
    "A move is written GC: the small grid G, then the cell C inside it, both numbered 1 to 9 in "
    "reading order (1 2 3 / 4 5 6 / 7 8 9), the same numbering as oxo's mega tic-tac-toe. So 55 "
    "is the centre of the centre grid, and after 37 the opponent must play in grid 7. A game "
    "record is moves separated by spaces."
)

NOT_MEGA = (
    "Ultimate tic-tac-toe is not oxo's mega tic-tac-toe (oxo mega rules), although both use nine "
    "small grids and the same move notation. In mega nothing sends a player to a grid: moves come "
    "in strings that must visit every uncovered grid once without repeating a cell number, a "
    "string may turn abnormal, and a full grid simply takes no more moves. In ultimate "
    "tic-tac-toe each move sends the opponent to one grid, a won grid is closed at once, and a "
    "full grid without a line counts for nobody."
)


def example_lines() -> list[str]:
    """The example game, move by move, with where each move sent the next player."""
    state = UtttState()
    closed: dict[str | None, str] = {"x": "won", "o": "won", "draw": "full"}
    lines = []
    for number, move in enumerate(parse_record(EXAMPLE_RECORD), start=1):
        mover = state.to_move
        state = state.play(move)
        cell = move % 9 + 1
        won = state.grid_owner(move // 9)
        note = f", winning grid {move // 9 + 1}" if won == mover else ""
        target = state.target
        sent = (
            f"sends {state.to_move} to grid {target + 1}"
            if target is not None
            else f"points to grid {cell}, which is {closed[state.grid_owner(cell - 1)]}, "
            f"so {state.to_move} may play in any grid that is neither won nor full"
        )
        lines.append(f"{number}. {mover} plays {format_move(move)}{note}; cell {cell} {sent}")
    lines.append("")
    lines.extend(board_text(state).splitlines())
    return lines


BOARD_KEY = (
    "On the board a digit is a cell where the side to move may play (its cell number; the grid "
    "number is on the frame above), '.' an empty cell where no move is allowed now, x and o marks "
    "with the last move in capitals, and a won grid shows its winner's mark."
)


def example_text() -> str:
    """The worked example: the record, then each move and where it sent the next player, then the board."""
    return "\n".join([f"Example: {EXAMPLE_RECORD}", *example_lines()])


def rules_sections() -> list[tuple[str, str]]:
    """The rules as (title, text) sections, for the command line and a web page alike."""
    rules = "\n".join(f"{number}. {rule}" for number, rule in enumerate(RULES, start=1))
    return [
        ("Ultimate tic-tac-toe", f"{INTRO}\n\n{rules}"),
        ("Moves", MOVES),
        ("Not mega tic-tac-toe", NOT_MEGA),
        ("Worked example", f"{example_text()}\n\n{BOARD_KEY}"),
    ]


def rules_text(width: int = 78) -> str:
    """The whole explanation, wrapped to ``width`` columns (the board and the example kept as they are)."""

    def wrap(text: str) -> str:
        out = []
        for line in text.split("\n"):
            if line.startswith(("+", "|")) or not line:
                out.append(line)
            else:
                head = line.split(" ", 1)[0]
                indent = " " * (len(head) + 1) if head[:-1].isdigit() and head.endswith(".") else ""
                out.append(textwrap.fill(line, width, subsequent_indent=indent))
        return "\n".join(out)

    parts = []
    for number, (title, text) in enumerate(rules_sections()):
        if number:
            parts += ["", title, "-" * len(title)]
        parts.append(wrap(text))
    return "\n".join(parts) + "\n"
