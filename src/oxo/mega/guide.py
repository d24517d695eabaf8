"""The rules of mega tic-tac-toe in plain words, with a worked example, for newcomers.

``oxo mega rules`` prints :func:`rules_text`; the web page shows the same words (:func:`rules_sections`).
The worked example is not typed in: it replays :data:`EXAMPLE_RECORD` through the rules engine and
describes what the engine did (which move ended a string, which move had to ignore rule 6, which
move placed a big marker), so the words cannot drift from the rules as implemented.
:func:`full_text` is the complete reference (``docs/mega.md``), shipped inside the package so an
installed copy can print it (``oxo mega rules --full``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

from oxo.mega.notation import format_move, parse_record
from oxo.mega.render import board_text
from oxo.mega.rules import MegaState
from oxo.phrases import listing

#: A real game opening (19 moves) that shows a whole string, an abnormal string and a big marker.
EXAMPLE_RECORD = "66 57 78 89 22 43 14 35 91 28 36 55 47 73 11 92 64 85 17"

INTRO = (
    "Mega tic-tac-toe is played on nine small tic-tac-toe grids arranged in a big 3x3 grid (81 "
    "cells). X moves first, then the players alternate. Three of your marks in a row inside a "
    "small grid win that grid: it is covered with your big marker and nobody plays there again. "
    "Three big markers in a row win the game."
)

MOVES = (
    "A move is written GC: the small grid G, then the cell C inside it, both numbered 1 to 9 in "
    "reading order (1 2 3 / 4 5 6 / 7 8 9). So 55 is the centre of the centre grid and 19 is the "
    "bottom-right cell of the top-left grid. A game record is moves separated by spaces."
)

STRINGS = (
    "The moves of a game come in strings. The first string is moves 1 to 9; each later string "
    "starts with the move after the previous string ends. A string is as long as the number of "
    "small grids not yet covered when it starts (9, then one less for every big marker placed "
    "before it starts). Within one string: (a) every move goes to a different small grid, so the "
    "string visits each uncovered grid exactly once; (b) no two moves use the same cell number C "
    "(once 11 is played, no other move of that string may end in 1: not 21, 31, ...)."
)

ABNORMAL = (
    "Sometimes no move keeps both (a) and (b): the grids the string has still to visit have empty "
    "cells only at cell numbers the string has already used. Then the player may ignore (b), but "
    "never (a), and the string is called abnormal. The move still counts toward the string's length."
)

ENDING = (
    "The game is won by the first player with three big markers in a row (across, down or "
    "diagonally on the big grid). If no move is possible and nobody has won, it is a draw."
)

NOT_ULTIMATE = (
    "Mega tic-tac-toe is not ultimate tic-tac-toe, although both use nine small grids. In "
    "ultimate tic-tac-toe the cell you play sends your opponent to the small grid in the same "
    "place (play the top-right cell of any grid and your opponent must play in the top-right "
    "grid). In mega tic-tac-toe nothing sends anybody anywhere: the strings decide, and they bind "
    "both players together (each string must visit every uncovered grid once, without repeating a "
    "cell number), whoever's turn it is. oxo plays ultimate tic-tac-toe too: see 'oxo uttt rules'."
)

MORE = (
    "oxo mega play starts a game against the computer (type 'help' during the game), "
    'oxo mega replay "RECORD" checks a record move by move and shows the board, and '
    "oxo mega rules --full prints the complete reference with every rule as the program applies it."
)


@dataclass(frozen=True)
class ExampleFacts:
    """What happened in the worked example, read off the rules engine."""

    record: tuple[str, ...]
    first_string: tuple[str, ...]
    second_string: tuple[str, ...]
    abnormal_move: int
    """Number (from 1) of the move that had to ignore rule 6."""
    abnormal_grid: int
    used_positions: tuple[int, ...]
    """Cell numbers the second string had used before that move."""
    grid_empty_cells: tuple[int, ...]
    """The empty cells of that grid then."""
    cover_move: int
    cover_grid: int
    cover_owner: str
    cover_cells: tuple[int, ...]
    cover_string: int
    """Number (from 1) of the string the covering move belongs to."""
    cover_string_length: int
    next_length: int
    """Length of the first string to start after the big marker."""
    final: MegaState


@cache
def example_facts(record: str = EXAMPLE_RECORD) -> ExampleFacts:
    """Replay ``record`` and note the first abnormal move and the first big marker."""
    moves = [format_move(m) for m in parse_record(record)]
    state = MegaState()
    strings: list[list[str]] = [[]]
    abnormal: tuple[int, int, tuple[int, ...], tuple[int, ...]] | None = None
    cover: tuple[int, int, str, tuple[int, ...], int, int] | None = None
    for number, move in enumerate(moves, start=1):
        before = state.current_string
        if abnormal is None and state.rule8_applies():
            grid = int(move[0])
            empty = tuple(c for c in range(1, 10) if state.cell(grid, c) is None)
            abnormal = (number, grid, before.positions, empty)
        covered = dict(state.covered)
        state.push(move)
        if before.index >= len(strings):
            strings.append([])
        strings[before.index].append(move)
        if cover is None and len(state.covered) > len(covered):
            grid = int(move[0])
            owner = state.covered[grid]
            cells = tuple(c for c in range(1, 10) if state.cell(grid, c) == owner)
            cover = (number, grid, owner, cells, before.index + 1, before.length)
    if abnormal is None or cover is None or len(strings) < 2:
        raise ValueError(f"the example record {record!r} shows no abnormal string or no big marker")
    return ExampleFacts(
        record=tuple(moves),
        first_string=tuple(strings[0]),
        second_string=tuple(strings[1]),
        abnormal_move=abnormal[0],
        abnormal_grid=abnormal[1],
        used_positions=abnormal[2],
        grid_empty_cells=abnormal[3],
        cover_move=cover[0],
        cover_grid=cover[1],
        cover_owner=cover[2],
        cover_cells=cover[3],
        cover_string=cover[4],
        cover_string_length=cover[5],
        next_length=9 - len(state.covered),
        final=state,
    )


def example_text(record: str = EXAMPLE_RECORD) -> str:
    """The worked example: a real opening, explained move by move where something happens."""
    facts = example_facts(record)
    first = " ".join(facts.first_string)
    second = " ".join(facts.second_string)
    grids = {move[0] for move in facts.first_string}
    cells = {move[1] for move in facts.first_string}
    player = "x" if facts.abnormal_move % 2 else "o"
    lines = [
        f"The record is: {' '.join(facts.record)}",
        "",
        f"String 1 is moves 1 to {len(facts.first_string)}: {first}. It uses {len(grids)} "
        f"different grids and {len(cells)} different cell numbers, as (a) and (b) require.",
        "",
        f"String 2 is moves {len(facts.first_string) + 1} to "
        f"{len(facts.first_string) + len(facts.second_string)}: {second}. Before move "
        f"{facts.abnormal_move} ({player} to play), the only grid string 2 had not visited was grid "
        f"{facts.abnormal_grid}; its empty cells were {listing(facts.grid_empty_cells)}, and string 2 "
        f"had already used cell numbers {listing(facts.used_positions)}. No move kept both (a) "
        f"and (b), so {player} ignored (b) and played {facts.record[facts.abnormal_move - 1]}: "
        "string 2 is abnormal.",
        "",
        f"Move {facts.cover_move}: {facts.cover_owner} plays "
        f"{facts.record[facts.cover_move - 1]}, which makes three {facts.cover_owner} marks in a "
        f"row in grid {facts.cover_grid} (cells {listing(facts.cover_cells)}): grid "
        f"{facts.cover_grid} is covered by {facts.cover_owner}'s big marker. This move belongs to "
        f"string {facts.cover_string}, which still visits the other uncovered grids "
        f"({facts.cover_string_length} moves in all); string {facts.cover_string + 1} will be "
        f"{facts.next_length} moves long.",
        "",
        f"The board after move {facts.final.move_count} (x and o are marks, the last move in "
        "capitals; a digit is a cell where the player to move may play, with the grid number on "
        "the frame above it; . is an empty cell where no move is allowed now):",
        "",
        board_text(facts.final),
    ]
    return "\n".join(lines)


def rules_sections() -> list[tuple[str, str]]:
    """The rules as (title, text) sections, for the command line and the web page alike."""
    return [
        ("Mega tic-tac-toe", INTRO),
        ("Moves", MOVES),
        ("Strings", STRINGS),
        ("Abnormal strings", ABNORMAL),
        ("Big markers and winning", ENDING),
        ("Not ultimate tic-tac-toe", NOT_ULTIMATE),
        ("Worked example", example_text()),
        ("More", MORE),
    ]


def _wrap(text: str, width: int) -> str:
    import textwrap

    if "\n" in text:  # preformatted (the example): wrap each paragraph, keep the board as it is
        return "\n".join(
            textwrap.fill(line, width) if not line.startswith(("+", "|")) and line else line
            for line in text.split("\n")
        )
    return textwrap.fill(text, width)


def rules_text(width: int = 78) -> str:
    """The rules in plain words with the worked example, wrapped to ``width`` columns."""
    parts = []
    for title, text in rules_sections():
        parts.append(f"{title}\n{'-' * len(title)}\n{_wrap(text, width)}")
    return "\n\n".join(parts) + "\n"


def full_text() -> str:
    """The complete reference (``docs/mega.md``), read from the package's data."""
    return resources.files("oxo.mega").joinpath("mega.md").read_text(encoding="utf-8")
