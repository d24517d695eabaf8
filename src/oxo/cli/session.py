"""One terminal game loop for every game: ``oxo play GAME``, ``oxo mega play`` and ``oxo uttt play``.

:func:`terminal_game` runs a game between people and computer players on any game of the registry.
Everything the loop does is the same for every game: whose turn it is, reading a line, the
commands (``help``, ``moves``, ``undo``, ``rules`` where the game has a rules text, ``quit``),
taking moves back, stopping cleanly when piped input ends. What differs from game to game — how the
board is drawn, how a typed move is read, the words around them — is a :class:`View`:
:class:`BoardView` for classic boards and cubes, :class:`GravityView` for gravity boards,
:class:`DropView` for boxes with gravity (Score Four),
:class:`GridsView` for mega and ultimate tic-tac-toe. :func:`view_of` picks one from a
:class:`oxo.registry.Game`.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any, Unpack

import click

from oxo.cli.common import echo_lines
from oxo.errors import IllegalMoveError, MoveError, OxoError
from oxo.registry import Game

if TYPE_CHECKING:
    from oxo.engines import Engine
    from oxo.engines.base import Budget
    from oxo.game import GameState

#: Words that stop the game, show the help, list the legal moves, take moves back, print the rules.
QUIT = ("q", "quit", "exit")
HELP = ("h", "help", "?")
MOVES = ("m", "moves", "legal")
UNDO = ("u", "undo")
RULES = ("r", "rules")

#: Boards with more cells than this (three-digit cell numbers) are drawn with numbers on the edges.
EDGE_CELLS = 100
#: Columns the layers of a cube may take side by side, and the spaces between two layers.
WIDTH = 80
LAYER_GAP = 4

#: Keys of a numeric keypad (7 8 9 on the top row) and the 3x3 cell each stands for.
NUMPAD = {7: 0, 8: 1, 9: 2, 4: 3, 5: 4, 6: 5, 1: 6, 2: 7, 3: 8}


def _moves(count: int) -> str:
    return f"{count} move" if count == 1 else f"{count} moves"


def _side(state: GameState) -> int:
    """0 when X is to move, 1 when O is."""
    return 0 if state.to_move == "x" else 1


class View:
    """How one game looks and reads in the terminal. The defaults are the words of a game against
    the computer on a single board (classic and gravity boards); :class:`GridsView` has its own."""

    #: Whether the board is drawn before every turn (else only before a person's turn, or every
    #: turn when no person plays).
    draws_every_turn = True

    def __init__(self, game: Game) -> None:
        self.game = game

    def intro(self, kinds: Sequence[str]) -> str | None:
        """The line printed before the first move, ``None`` for none."""
        return None

    def draw(self, state: GameState, *, legal: bool) -> None:
        """Print the board (``legal``: a person is about to move)."""
        click.echo()
        click.echo(self.picture(state))

    def picture(self, state: GameState) -> str:
        return state.text()

    def label(self, state: GameState, move: int) -> str:
        """A move as the person types it."""
        return state.format_move(move)

    def read(self, state: GameState, text: str) -> GameState:
        """The state after the typed move; an :class:`OxoError` saying why it cannot be played."""
        return state.play(state.parse_move(text))

    def prompt(self, side: int) -> str:
        return f"your move ({'XO'[side]}): "

    def echo_input(self, text: str) -> str:
        """How piped input is shown after the prompt, so the transcript reads like a session."""
        return text

    def announce(self, engine: Engine, before: GameState, move: int) -> str:
        return f"computer ({'XO'[_side(before)]}) plays {self.label(before, move)}"

    def refused(self, error: OxoError) -> str:
        return f"illegal move: {error}"

    def input_ended(self, state: GameState) -> None:
        click.echo("\ninput ended; game abandoned")

    def stopped(self, state: GameState) -> str:
        return "game abandoned"

    def help_lines(self, rules: bool) -> list[str]:
        commands = "'moves' lists the legal moves, 'undo' takes back your last move (and the computer's reply)"
        return [
            f"type a move: {self.move_words()}",
            commands
            + (", 'rules' prints the rules" if rules else "")
            + ", 'help' shows this, 'quit' stops",
        ]

    def move_words(self) -> str:
        return self.game.move_help

    def finish(self, final: GameState, kinds: Sequence[str]) -> None:
        """Print the end of a game played to its end: the board and who won."""
        click.echo()
        click.echo(self.picture(final))
        winner = final.outcome
        if winner is None or winner == "draw":
            click.echo("draw: the board is full")
            return
        human = "xo"[kinds.index("human")] if "human" in kinds else None
        who = "you win" if winner == human else "the computer wins"
        click.echo(f"{winner.upper()} wins with {self.line_words(final)}: {who}")

    def line_words(self, final: GameState) -> str:
        raise NotImplementedError

    def after(self, final: GameState, save: str | None) -> None:
        """What follows the game, played out or stopped (the record, for games that have one)."""


class BoardView(View):
    """A classic board or cube: empty cells show what to type; ``keypad`` (3x3 only) makes keys
    1..9 stand for the cells, ``phone`` with 1 2 3 on top or ``numpad`` with 7 8 9 on top."""

    def __init__(self, game: Game, keypad: str | None = None) -> None:
        super().__init__(game)
        self.keypad = keypad
        #: Gomoku boards also take and show points as ``oxo analyze`` writes them (``h8``).
        self.points = game.gomoku and len(game.geometry.shape) == 2  # type: ignore[attr-defined]  # a BoardGame has a geometry

    def point(self, state: GameState, cell: int) -> str:
        """A cell as a point (``h8``: column letter, row from the bottom), on gomoku boards."""
        from oxo.tactics import point_name

        return point_name(state.geometry, cell)  # type: ignore[attr-defined]  # a Position has a geometry

    def announce(self, engine: Engine, before: GameState, move: int) -> str:
        said = super().announce(engine, before, move)
        return f"{said} ({self.point(before, move)})" if self.points else said

    def intro(self, kinds: Sequence[str]) -> str | None:
        geometry = self.game.geometry  # type: ignore[attr-defined]  # a BoardGame has a geometry
        side = kinds.index("human")
        level = kinds[1 - side]
        return (
            f"{geometry.spec_shape} board, {geometry.k} in a row wins. You are {'XO'[side]}; "
            f"the computer plays {self.game.describe_level(level, self.game.start())}. "
            "Type help for the commands."
        )

    def label(self, state: GameState, move: int) -> str:
        if self.keypad == "phone":
            return str(move + 1)
        if self.keypad == "numpad":
            return str(next(key for key, cell in NUMPAD.items() if cell == move))
        return str(move)

    def picture(self, state: GameState) -> str:
        """The grid with X and O, and each empty cell showing what to type to play there. The layers
        of a cube are labelled and laid side by side when they fit in :data:`WIDTH` columns. Cell
        numbers of three digits would hide the marks: such boards show ``.`` for an empty cell and
        numbers on the edges only (:meth:`edge_picture`)."""
        geometry = state.geometry  # type: ignore[attr-defined]  # a Position has a geometry
        statuses = state.statuses  # type: ignore[attr-defined]  # a Position has statuses
        if geometry.dimensions > 3:  # a grid of layers, each empty cell showing its number
            from oxo.position import panels

            labels = [(".XO"[s] if s else self.label(state, c)) for c, s in enumerate(statuses)]
            return panels(geometry, labels)
        if geometry.size > EDGE_CELLS:
            return self.edge_picture(state)
        labels = [(".XO"[s] if s else self.label(state, cell)) for cell, s in enumerate(statuses)]
        width = max(len(label) for label in labels)
        rows, cols = geometry.shape[-2:]
        layers = [
            [
                "  " + " ".join(label.rjust(width) for label in labels[start : start + cols])
                for start in range(first, first + rows * cols, cols)
            ]
            for first in range(0, geometry.size, rows * cols)
        ]
        if len(layers) == 1:
            return "\n".join(layers[0])
        block = len(layers[0][0])
        for number, layer in enumerate(layers, start=1):
            layer.insert(0, f"  layer {number}".ljust(block))
        if len(layers) * block + (len(layers) - 1) * LAYER_GAP <= WIDTH:
            return "\n".join(
                (" " * LAYER_GAP).join(lines).rstrip() for lines in zip(*layers, strict=True)
            )
        return "\n\n".join("\n".join(line.rstrip() for line in layer) for layer in layers)

    def edge_picture(self, state: GameState) -> str:
        """A big board: ``.`` for an empty cell, X and O, the number of each row's first cell on
        the left and the column's offset on top (a cell's number is the two added)."""
        geometry = state.geometry  # type: ignore[attr-defined]  # a Position has a geometry
        statuses = state.statuses  # type: ignore[attr-defined]  # a Position has statuses
        rows, cols = geometry.shape[-2:]
        width = len(str(cols - 1))
        left = len(str(geometry.size - cols))
        top = " " * (left + 2) + " ".join(str(col).rjust(width) for col in range(cols))
        out = []
        for first in range(0, geometry.size, rows * cols):
            if len(geometry.shape) == 3:
                out += ["" if first else None, f"layer {first // (rows * cols) + 1}"]
            out.append(top)
            for start in range(first, first + rows * cols, cols):
                marks = " ".join(".XO"[s].rjust(width) for s in statuses[start : start + cols])
                row = f"  {rows - (start - first) // cols}" if self.points else ""
                out.append(f"{start:>{left}}  {marks}{row}")
        if self.points:  # the letters of the points under the columns
            letters = [self.point(state, cell)[0] for cell in range(cols)]
            out.append(" " * (left + 2) + " ".join(letter.rjust(width) for letter in letters))
        out.append("a cell's number: the number left of its row + the one on top of its column")
        if self.points:
            out.append("a point: the letter under its column, the number right of its row (h8)")
        return "\n".join(line for line in out if line is not None)

    def read(self, state: GameState, text: str) -> GameState:
        """The cell meant by a typed move, or a :class:`MoveError` saying why it cannot be played."""
        size = self.game.size
        word = text.strip()
        if self.points and not word.isdigit():  # a point such as h8
            cell = self.game.parse_move(state, word)
            if cell not in state.legal_moves:
                raise MoveError(f"{word} (cell {cell}) is already taken")
            return state.play(cell)
        if not (word.isascii() and word.isdigit()):
            accepted = "a key 1..9" if self.keypad else f"a cell ID 0..{size - 1}"
            if self.points:
                accepted += " or a point such as h8"
            raise MoveError(f"{word!r} is not a move; type {accepted}, or q to quit")
        number = int(word)
        if self.keypad == "phone":
            if not 1 <= number <= 9:
                raise MoveError(
                    f"key {number} is not on the keypad; keys are 1..9 (1 2 3 on the top row)"
                )
            cell = number - 1
        elif self.keypad == "numpad":
            if number not in NUMPAD:
                raise MoveError(
                    f"key {number} is not on the keypad; keys are 1..9 (7 8 9 on the top row)"
                )
            cell = NUMPAD[number]
        else:
            cell = number
            if cell >= size:
                raise MoveError(f"cell {cell} is not on the board; cells are 0..{size - 1}")
        if cell not in state.legal_moves:
            raise MoveError(f"{'key ' + word if self.keypad else 'cell ' + word} is already taken")
        return state.play(cell)

    def move_words(self) -> str:
        if self.keypad == "phone":
            return "a key 1..9, 1 2 3 on the top row (each empty cell shows its key)"
        if self.keypad == "numpad":
            return "a key 1..9, 7 8 9 on the top row (each empty cell shows its key)"
        geometry = self.game.geometry  # type: ignore[attr-defined]  # a BoardGame has a geometry
        layers = ", layer by layer" if len(geometry.shape) == 3 else ""
        return (
            f"a cell number 0..{geometry.size - 1}, counting in reading order from the top "
            f"left{layers}; "
            + (
                "a cell's number is the number left of its row + the one on top of its column"
                if geometry.size > EDGE_CELLS
                else "each empty cell shows its number"
            )
            + (
                "; or a point as oxo analyze writes it: the column's letter, then the row counted "
                "from 1 at the bottom (h8)"
                if self.points
                else ""
            )
        )

    def line_words(self, final: GameState) -> str:
        winner = final.outcome
        cells = next(c for player, c in final.complete_lines if player == winner)  # type: ignore[attr-defined]  # a Position has lines
        named = ", ".join(self.label(final, cell) for cell in cells)
        return f"keys {named}" if self.keypad else f"the line {named}"


class GravityView(View):
    """A gravity board: a move is a column, the mark drops to the lowest empty cell."""

    def intro(self, kinds: Sequence[str]) -> str | None:
        board = self.game.board  # type: ignore[attr-defined]  # a GravityGame has a board
        side = kinds.index("human")
        return (
            f"{board.name}: marks drop to the bottom of their column. You are {'XO'[side]}; "
            f"the computer plays {_gravity_level(kinds[1 - side])}. "
            f"Type a column number (1..{board.cols}), help for the commands, q quits."
        )

    def announce(self, engine: Engine, before: GameState, move: int) -> str:
        return f"computer ({'XO'[_side(before)]}) plays column {before.format_move(move)}"

    def move_words(self) -> str:
        cols = self.game.board.cols  # type: ignore[attr-defined]  # a GravityGame has a board
        return f"a column number, 1..{cols} from the left; your mark drops to the lowest empty cell"

    def line_words(self, final: GameState) -> str:
        cells = final.winning_line() or ()  # type: ignore[attr-defined]  # a GravityState knows its line
        return ", ".join(self.game.board.cell_name(bit) for bit in cells)  # type: ignore[attr-defined]  # a GravityGame has a board


class DropView(View):
    """A box with gravity (Score Four): a move is a column number, the mark drops to the lowest
    empty cell; the board is drawn level by level with the column numbers beside it."""

    def intro(self, kinds: Sequence[str]) -> str | None:
        geometry = self.game.geometry  # type: ignore[attr-defined]  # a board game has a geometry
        side = kinds.index("human")
        level = kinds[1 - side]
        return (
            f"{self.game.title}: {geometry.k} in a row wins, marks drop to the lowest empty cell "
            f"of their column. You are {'XO'[side]}; the computer plays "
            f"{self.game.describe_level(level, self.game.start())}. Type a column number "
            f"(1..{geometry.column_count}), help for the commands, q quits."
        )

    def announce(self, engine: Engine, before: GameState, move: int) -> str:
        return f"computer ({'XO'[_side(before)]}) plays column {before.format_move(move)}"

    def line_words(self, final: GameState) -> str:
        geometry = self.game.geometry  # type: ignore[attr-defined]  # a board game has a geometry
        winner = final.outcome
        cells = next(c for player, c in final.complete_lines if player == winner)  # type: ignore[attr-defined]  # a Position has lines
        return ", ".join(
            f"column {final.format_move(cell)} level {geometry.height - geometry.coords(cell)[0]}"
            for cell in cells
        )


def _gravity_level(level: str) -> str:
    return {
        "perfect": "perfect (proven best columns from the exact solver)",
        "best": "best (the exact solver when it finishes in time, else hard)",
        "hard": "hard (Monte Carlo tree search)",
        "medium": "medium (a short tree search)",
        "easy": "easy (wins and blocks in one, otherwise random)",
        "random": "random moves",
    }.get(level, level)


class GridsView(View):
    """Mega and ultimate tic-tac-toe: moves ``GC``, the board drawn by the game's ``render`` module
    (in colour on a terminal), status lines under it, and the record printed at the end."""

    draws_every_turn = False

    def __init__(self, game: Game, render: ModuleType, help_lines: Sequence[str]) -> None:
        super().__init__(game)
        self.render = render
        self._help = list(help_lines)
        self._words = "moves/undo/rules/help/quit" if game.rules else "moves/undo/help/quit"

    def draw(self, state: GameState, *, legal: bool) -> None:
        from oxo.cli.grids import show_board

        click.echo()
        show_board(self.render, state)
        echo_lines(self.render.status_lines(state, legal=legal))

    def read(self, state: GameState, text: str) -> GameState:
        return state.play(text.lower())  # type: ignore[arg-type]  # these games read GC text themselves

    def prompt(self, side: int) -> str:
        return f"{'xo'[side]}, your move (GC, or {self._words}): "

    def echo_input(self, text: str) -> str:
        return text.lower()

    def announce(self, engine: Engine, before: GameState, move: int) -> str:
        report = engine.last
        detail = ""
        if report is not None and report.nodes > 1 and report.expectation is not None:
            detail = (
                f" (played out {report.nodes:,} random games in {report.seconds:.2f} s; "
                f"it rates its chances at {report.expectation:.0%}, 100% a sure win)"
            )
        return f"{'xo'[_side(before)]} ({engine.name}) plays {before.format_move(move)}{detail}"

    def refused(self, error: OxoError) -> str:
        if isinstance(error, IllegalMoveError):
            return f"illegal: {error}; try again"
        return f"{error}; try again"

    def input_ended(self, state: GameState) -> None:
        click.echo()
        count = state.move_count  # type: ignore[attr-defined]  # these games count their moves
        click.echo(f"input ended; game stopped after {_moves(count)}", err=True)

    def stopped(self, state: GameState) -> str:
        return f"game stopped after {_moves(state.move_count)}"  # type: ignore[attr-defined]  # these games count their moves

    def help_lines(self, rules: bool) -> list[str]:
        return self._help

    def finish(self, final: GameState, kinds: Sequence[str]) -> None:
        from oxo.cli.grids import show_board

        click.echo()
        show_board(self.render, final, highlight=False)
        for line in self.render.status_lines(final, legal=False):
            click.echo(line)

    def after(self, final: GameState, save: str | None) -> None:
        record = final.record  # type: ignore[attr-defined]  # these games keep a record
        click.echo(f"record: {record}")
        if save:
            from oxo.fileio import write_atomic

            write_atomic(save, record + "\n")


def view_of(game: Game, *, keypad: str | None = None) -> View:
    """The terminal view of ``game`` (``keypad`` on a 3x3 classic board only)."""
    if game.family == "board":
        if game.geometry.gravity:  # type: ignore[attr-defined]  # a board game has a geometry
            return DropView(game)
        return BoardView(game, keypad)
    if game.family == "gravity":
        return GravityView(game)
    if game.family == "mega":
        from oxo.mega import render as mega_render

        return GridsView(game, mega_render, MEGA_HELP)
    from oxo.uttt import render as uttt_render

    return GridsView(game, uttt_render, UTTT_HELP)


MEGA_HELP = (
    "type a move as two digits GC: the inner grid G, then the cell C, both 1..9 in reading order",
    "on the board a digit is a cell where you may play (its cell number); the grid number is on the frame above;",
    "x and o are marks, the last move in capitals (X or O); . is a cell where no move is allowed now",
    "'moves' lists the legal moves, 'undo' takes back your last move, 'quit' stops",
    "'rules' prints the rules in plain words with a worked example (also: oxo mega rules)",
)
UTTT_HELP = (
    "type a move as two digits GC: the small grid G, then the cell C, both 1..9 in reading order;",
    "the cell you play sends your opponent to that grid. On the board a digit is a cell where",
    "you may play (its cell number); the grid number is on the frame above; x and o are marks,",
    "the last move in capitals (X or O); . is a cell where no move is allowed now",
    "'moves' lists the legal moves, 'undo' takes back your last move, 'quit' stops",
    "'rules' prints the rules in plain words (also: oxo uttt rules)",
)


def terminal_game(
    view: View,
    kinds: Sequence[str],
    engines: Sequence[Engine | None],
    *,
    save: str | None = None,
    before_move: Callable[[GameState], None] | None = None,
) -> GameState:
    """A game of ``view.game`` in the terminal, ``kinds`` saying who plays X and O (``"human"`` or a
    level) and ``engines`` the computer players (``None`` for a person). People type moves, or
    help/moves/undo/quit (and rules where the game has a rules text); 'undo' takes back moves up to
    and including the last one a person typed. Piped input is shown as if typed, and the game stops
    cleanly when it ends. ``before_move`` is given each position a computer is about to play in
    (to offer what its level needs there). Returns the last state."""
    game = view.game
    rules = game.rules_text() if game.rules else None
    intro = view.intro(kinds)
    if intro is not None:
        echo_lines([intro])  # a long sentence: broken between words in a pipe too
    history: list[Any] = [game.start()]
    movers: list[int] = []
    stdin = sys.stdin
    humans = any(engine is None for engine in engines)
    show = True
    stopped = False
    while True:
        while not history[-1].is_over:
            state = history[-1]
            side = _side(state)
            engine = engines[side]
            if show and (view.draws_every_turn or engine is None or not humans):
                view.draw(state, legal=engine is None)
            show = True
            if engine is not None:
                if before_move is not None:
                    before_move(state)
                move = engine.choose(state)
                history.append(state.play(move))
                movers.append(side)
                click.echo(view.announce(engine, state, move))
                continue
            click.echo(view.prompt(side), nl=False)
            sys.stdout.flush()
            line = stdin.readline()
            if not line:
                view.input_ended(state)
                stopped = True
                break
            text = line.strip()
            if not stdin.isatty():
                click.echo(view.echo_input(text))
            word = text.lower()
            show = False
            if not word:
                continue
            if word in QUIT:
                click.echo(view.stopped(state))
                stopped = True
                break
            if word in HELP:
                for help_line in view.help_lines(rules is not None):
                    click.echo(help_line)
            elif rules is not None and word in RULES:
                click.echo(rules)
            elif word in MOVES:
                click.echo(" ".join(view.label(state, m) for m in state.legal_moves))
            elif word in UNDO:
                if _take_back(history, movers, engines):
                    show = True
                else:
                    click.echo("nothing to undo")
            else:
                try:
                    history.append(view.read(state, text))
                except OxoError as error:
                    click.echo(view.refused(error))
                    continue
                movers.append(side)
                show = True
        if stopped:
            break
        view.finish(history[-1], kinds)
        # A person at a terminal may take the end back or play again (piped input ends here, so a
        # script's transcript is the game alone).
        if not (humans and stdin.isatty()):
            break
        again = _after_the_end(stdin)
        if again in UNDO and _take_back(history, movers, engines):
            show = True
            continue
        if again in NEW:
            history[:] = [game.start()]
            movers.clear()
            show = True
            click.echo()
            continue
        break
    final = history[-1]
    view.after(final, save)
    return final


#: Words that start a new game once one has ended.
NEW = ("n", "new")


def _after_the_end(stdin: Any) -> str:
    """What a person wants once the game has ended: ``undo``, ``new``, or anything else to stop
    (Enter, ``q``, the end of input)."""
    click.echo(
        "game over: 'undo' takes back your last move, 'new' starts a new game, Enter stops: ",
        nl=False,
    )
    sys.stdout.flush()
    return stdin.readline().strip().lower()


def _take_back(history: list[Any], movers: list[int], engines: Sequence[Engine | None]) -> bool:
    """Take back the moves up to and including the last one a person typed (and the computer's
    replies after it); ``False`` when a person has typed none."""
    last = max((n for n, mover in enumerate(movers) if engines[mover] is None), default=None)
    if last is None:
        return False
    del history[last + 1 :]
    del movers[last:]
    return True


def play(
    game: Game,
    kinds: Sequence[str],
    *,
    keypad: str | None = None,
    save: str | None = None,
    before_move: Callable[[GameState], None] | None = None,
    **limits: Unpack[Budget],
) -> GameState:
    """A game of ``game`` in the terminal between people and computer levels (``kinds``: ``"human"``
    or a level for X, then for O): the computer players made, then :func:`terminal_game`. On the games of
    nine grids each computer gets its own seed (``seed`` and ``seed + 1``) and thinks 1 s per move
    unless told otherwise. ``before_move`` as in :func:`terminal_game`."""
    nine_grids = game.family in ("mega", "uttt")
    if nine_grids and limits.get("seconds") is None and limits.get("iterations") is None:
        from oxo.engines import DEFAULT_SECONDS

        limits["seconds"] = DEFAULT_SECONDS
    seed = limits.get("seed")
    start = game.start()
    engines: list[Engine | None] = []
    for side, kind in enumerate(kinds):
        if seed is not None and nine_grids:
            limits["seed"] = seed + side
        engines.append(None if kind == "human" else game.make_engine(kind, start, **limits))
    return terminal_game(
        view_of(game, keypad=keypad), kinds, engines, save=save, before_move=before_move
    )
