"""Gravity boards: a mark drops to the lowest empty cell of its column (6 rows × 7 columns, k=4 is
Connect Four), as an immutable game state that implements :class:`oxo.game.GameState`.

Moves are columns, numbered from 0 inside the library and from 1 where people read or type them
(``format_move`` / ``parse_move``). The board is a bitboard with the column-height trick: column
``c`` holds bits ``c*(rows+1)`` (bottom) to ``c*(rows+1)+rows-1`` (top), and the bit above the top
stays empty, so that no line of marks can run from one column into the next.

Positions are written either as the columns played, from 1 (``4453``; with spaces or commas between
them on boards of ten columns or more), or as the rows from top to bottom separated by ``/`` with
``x``, ``o`` and ``.`` (``......./......./......./......./......./...xo..``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from oxo.errors import BoardSpecError, MoveError, PositionError
from oxo.game import Outcome, Player

#: Largest number of cells of a gravity board (as for the classic boards: 19x19).
MAX_CELLS = 361

_SPEC = re.compile(r"^\s*(\d+)\s*x\s*(\d+)\s*((?:,\s*(?:k\s*=\s*\d+|gravity)\s*)*)$", re.IGNORECASE)
_SPEC_FORMS = "ROWSxCOLUMNS such as 6x7, optionally with ',k=K' (6x7,k=4 is Connect Four)"


def is_connect_four(spec: str) -> bool:
    """Whether ``spec`` is Connect Four's name (``connect4`` or ``connect-four``)."""
    return spec.strip().lower() in ("connect4", "connect-four")


@dataclass(frozen=True)
class GravityBoard:
    """The shape of a gravity board (``rows`` × ``cols``) and ``k``, the marks in a row that win."""

    rows: int
    cols: int
    k: int

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise BoardSpecError(
                f"a gravity board needs at least one row and one column, got {self.rows}x{self.cols}"
            )
        if self.rows * self.cols > MAX_CELLS:
            raise BoardSpecError(
                f"a gravity board has at most {MAX_CELLS} cells, {self.rows}x{self.cols} has {self.rows * self.cols}"
            )
        if not 1 <= self.k <= max(self.rows, self.cols):
            raise BoardSpecError(
                f"k must be between 1 and the longest side ({max(self.rows, self.cols)}) on {self.rows}x{self.cols}, got {self.k}"
            )

    @staticmethod
    def parse(spec: str, k: int | None = None) -> GravityBoard:
        """A board from ``"6x7"``, ``"6x7,k=4"`` or ``"6x7,k=4,gravity"`` (rows first), or the name
        ``"connect4"``; ``k`` given here overrides the spec's; by default it is the shortest side, as
        on the classic boards."""
        if not isinstance(spec, str):
            raise BoardSpecError(f"a gravity board is written as {_SPEC_FORMS}")
        if is_connect_four(spec):
            if k is not None:
                raise BoardSpecError(
                    "Connect Four is 6x7 with k=4; for another k write '6x7,k=5,gravity'"
                )
            return GravityBoard(6, 7, 4)
        match = _SPEC.match(spec)
        if match is None:
            raise BoardSpecError(f"{spec!r} is not a gravity board; write {_SPEC_FORMS}")
        rows, cols = int(match.group(1)), int(match.group(2))
        found = re.search(r"k\s*=\s*(\d+)", match.group(3), re.IGNORECASE)
        if k is None and found is not None:
            k = int(found.group(1))
        return GravityBoard(rows, cols, min(rows, cols) if k is None else k)

    @property
    def size(self) -> int:
        """Number of cells."""
        return self.rows * self.cols

    @property
    def stride(self) -> int:
        """Bits per column: the rows plus the empty bit above the top."""
        return self.rows + 1

    @property
    def spec(self) -> str:
        """A spec that parses back to this board, ``gravity`` included: ``6x7,k=4,gravity``."""
        return f"{self.rows}x{self.cols},k={self.k},gravity"

    @property
    def name(self) -> str:
        """How people call the board: ``Connect Four`` for 6x7 with k=4."""
        if (self.rows, self.cols, self.k) == (6, 7, 4):
            return "Connect Four (6x7, 4 in a row, gravity)"
        return f"{self.rows}x{self.cols} gravity board, {self.k} in a row"

    @cached_property
    def bottom(self) -> int:
        """The bottom cell of every column."""
        return sum(1 << (c * self.stride) for c in range(self.cols))

    @cached_property
    def full(self) -> int:
        """Every cell of the board."""
        return self.bottom * ((1 << self.rows) - 1)

    def column_mask(self, col: int) -> int:
        """The cells of column ``col``."""
        return ((1 << self.rows) - 1) << (col * self.stride)

    def bit(self, row: int, col: int) -> int:
        """The cell at ``row`` (0 at the bottom) of column ``col``, as a one-bit mask."""
        return 1 << (col * self.stride + row)

    @cached_property
    def directions(self) -> tuple[int, ...]:
        """Bit distances between neighbours along a line: up, across, and the two diagonals."""
        return (1, self.stride, self.stride - 1, self.stride + 1)

    def has_line(self, marks: int) -> bool:
        """Whether ``marks`` hold ``k`` in a row in some direction."""
        for step in self.directions:
            run = marks
            for i in range(1, self.k):
                run &= marks >> (i * step)
                if not run:
                    break
            if run:
                return True
        return False

    def lines_through(self, marks: int) -> tuple[tuple[int, ...], ...]:
        """Every line of ``k`` marks in ``marks``, each as its cells (bit indices)."""
        found = []
        for step in self.directions:
            run = marks
            for i in range(1, self.k):
                run &= marks >> (i * step)
            while run:
                low = run & -run
                start = low.bit_length() - 1
                found.append(tuple(start + i * step for i in range(self.k)))
                run ^= low
        return tuple(found)

    def cell_name(self, bit: int) -> str:
        """A cell as people say it: column (from 1) and row (from 1 at the bottom)."""
        col, row = divmod(bit, self.stride)
        return f"column {col + 1} row {row + 1}"


@dataclass(frozen=True)
class GravityState:
    """A position of a gravity board: who has which cells. A value: :meth:`play` returns a new state.

    ``x`` and ``o`` are bitboards in the layout of :class:`GravityBoard`.
    """

    board: GravityBoard
    x: int = 0
    o: int = 0

    # -- building ----------------------------------------------------------------------------------

    @staticmethod
    def empty(board: GravityBoard | str) -> GravityState:
        """The empty board (``board`` as a :class:`GravityBoard` or a spec such as ``"6x7,k=4"``)."""
        return GravityState(GravityBoard.parse(board) if isinstance(board, str) else board)

    @staticmethod
    def from_moves(board: GravityBoard, moves: list[int] | tuple[int, ...]) -> GravityState:
        """The state after ``moves`` (columns from 0) played from the empty board."""
        state = GravityState(board)
        for number, col in enumerate(moves, start=1):
            try:
                state = state.play(col)
            except MoveError as error:
                raise MoveError(f"move {number} ({col + 1}): {error}") from None
        return state

    @staticmethod
    def from_string(text: str, board: GravityBoard | None = None) -> GravityState:
        """A position from the columns played (from 1: ``4453``, or ``4 4 5 3``) or from its rows, top
        row first, separated by ``/`` (``x``, ``o``, ``.``; also ``1``, ``2``, ``0``). The board is
        6x7 with k=4 for a list of columns unless given, and read from the rows otherwise."""
        if not isinstance(text, str):
            raise PositionError(
                "a gravity position is text: the columns played (4453) or rows with '/'"
            )
        words = text.strip().lower()
        if "/" in words:
            return _from_rows(words, board)
        return _from_columns(words, board or GravityBoard(6, 7, 4))

    # -- the game interface ------------------------------------------------------------------------

    @property
    def mask(self) -> int:
        """Every occupied cell."""
        return self.x | self.o

    @property
    def ply(self) -> int:
        """Marks on the board."""
        return self.mask.bit_count()

    @cached_property
    def winner(self) -> Player | None:
        """The side with ``k`` in a row, if any."""
        if self.board.has_line(self.x):
            return "x"
        if self.board.has_line(self.o):
            return "o"
        return None

    @property
    def is_full(self) -> bool:
        return self.mask == self.board.full

    @property
    def is_over(self) -> bool:
        return self.winner is not None or self.is_full

    @property
    def outcome(self) -> Outcome | None:
        if self.winner is not None:
            return self.winner
        return "draw" if self.is_full else None

    @property
    def to_move(self) -> Player | None:
        if self.is_over:
            return None
        return "x" if self.ply % 2 == 0 else "o"

    @cached_property
    def legal_moves(self) -> tuple[int, ...]:
        """The columns that are not full (none once the game is over)."""
        if self.is_over:
            return ()
        top = self.board.rows - 1
        return tuple(
            c for c in range(self.board.cols) if not self.mask >> (c * self.board.stride + top) & 1
        )

    def drop_cell(self, col: int) -> int:
        """The one-bit mask of the cell a mark played in ``col`` lands on (0 when the column is full)."""
        column = self.board.column_mask(col)
        return (self.mask + (self.board.bottom & column)) & column

    def play(self, move: int) -> GravityState:
        """The state after the side to move drops a mark in column ``move`` (from 0)."""
        if isinstance(move, bool) or not isinstance(move, int):
            raise MoveError(f"a move is a column number, got {move!r}")
        if self.is_over:
            raise MoveError("the game is over: there is no move")
        if not 0 <= move < self.board.cols:
            raise MoveError(
                f"column {move + 1} is not on the board; columns are 1..{self.board.cols}"
            )
        cell = self.drop_cell(move)
        if not cell:
            raise MoveError(f"column {move + 1} is full")
        if self.ply % 2 == 0:
            return GravityState(self.board, self.x | cell, self.o)
        return GravityState(self.board, self.x, self.o | cell)

    @property
    def key(self) -> tuple[int, int]:
        """The two bitboards: equal for equal positions, whatever the order of the moves."""
        return (self.x, self.o)

    def winning_moves(self, player: Player | None = None) -> tuple[int, ...]:
        """Columns where ``player`` (default: the side to move) would complete a line at once."""
        if self.is_over:
            return ()
        side = player or self.to_move
        marks = self.x if side == "x" else self.o
        return tuple(c for c in self.legal_moves if self.board.has_line(marks | self.drop_cell(c)))

    @property
    def empty_cells(self) -> tuple[int, ...]:
        """The empty cells (bit indices), so engines know how much of the game is left."""
        free = self.board.full & ~self.mask
        return tuple(i for i in range(free.bit_length()) if free >> i & 1)

    # -- text ---------------------------------------------------------------------------------------

    def cell(self, row: int, col: int) -> str:
        """``"x"``, ``"o"`` or ``"."`` at ``row`` (0 at the bottom) of column ``col``."""
        bit = self.board.bit(row, col)
        return "x" if self.x & bit else "o" if self.o & bit else "."

    def to_rows(self) -> str:
        """The rows from top to bottom, separated by ``/`` (a notation :meth:`from_string` reads)."""
        return "/".join(
            "".join(self.cell(row, col) for col in range(self.board.cols))
            for row in reversed(range(self.board.rows))
        )

    def text(self) -> str:
        """The board for people: top row first, the column numbers underneath."""
        width = len(str(self.board.cols))
        lines = [
            " ".join(
                self.cell(row, col).upper().replace(".", "·").rjust(width)
                for col in range(self.board.cols)
            )
            for row in reversed(range(self.board.rows))
        ]
        lines.append(" ".join(str(col + 1).rjust(width) for col in range(self.board.cols)))
        return "\n".join(lines)

    def _repr_svg_(self) -> str:
        """The board drawn for notebooks and the web page (:mod:`oxo.gravity.svg`)."""
        from oxo.gravity.svg import gravity_svg

        return gravity_svg(self)

    def format_move(self, move: int) -> str:
        """A column as people write it, from 1."""
        return str(move + 1)

    def parse_move(self, text: str) -> int:
        """A column from how people write it (from 1)."""
        word = str(text).strip()
        if not (word.isascii() and word.isdigit()):
            raise MoveError(f"{word!r} is not a column; type a column number 1..{self.board.cols}")
        col = int(word) - 1
        if not 0 <= col < self.board.cols:
            raise MoveError(f"column {word} is not on the board; columns are 1..{self.board.cols}")
        return col

    def winning_line(self) -> tuple[int, ...] | None:
        """The cells (bit indices) of a completed line of the winner, if any."""
        if self.winner is None:
            return None
        marks = self.x if self.winner == "x" else self.o
        return self.board.lines_through(marks)[0]

    def to_dict(self) -> dict[str, object]:
        return {
            "board": f"{self.board.rows}x{self.board.cols}",
            "k": self.board.k,
            "gravity": True,
            "position": self.to_rows(),
            "ply": self.ply,
            "turn": self.to_move,
            "winner": self.winner,
            "legal_moves": [self.format_move(c) for c in self.legal_moves],
        }


def _from_columns(words: str, board: GravityBoard) -> GravityState:
    if words in ("", "-", "start", "empty"):
        return GravityState(board)
    if re.fullmatch(r"\d+", words):
        if board.cols > 9:
            raise PositionError(
                f"on a board of {board.cols} columns write the columns played with spaces or commas between them"
            )
        numbers = [int(ch) for ch in words]
    elif re.fullmatch(r"\d+(?:[\s,]+\d+)*", words):
        numbers = [int(part) for part in re.split(r"[\s,]+", words)]
    else:
        raise PositionError(
            f"{words!r} is not a gravity position; write the columns played from 1 (4453) or the rows "
            "top first with '/' (x, o, .)"
        )
    moves = []
    for number in numbers:
        if not 1 <= number <= board.cols:
            raise PositionError(f"column {number} is not on the board; columns are 1..{board.cols}")
        moves.append(number - 1)
    try:
        return GravityState.from_moves(board, moves)
    except MoveError as error:
        raise PositionError(f"the columns {words!r} cannot be played: {error}") from None


def _from_rows(words: str, board: GravityBoard | None) -> GravityState:
    rows = [row.strip() for row in words.split("/")]
    table = str.maketrans({"0": ".", "1": "x", "2": "o", "-": ".", "_": "."})
    rows = [row.translate(table) for row in rows]
    if any(set(row) - set("xo.") for row in rows):
        raise PositionError(
            "rows of a gravity position hold x, o and . (or 1, 2, 0), separated by '/'"
        )
    if len({len(row) for row in rows}) != 1 or not rows[0]:
        raise PositionError("every row of a gravity position must have the same number of cells")
    if board is None:
        board = GravityBoard(len(rows), len(rows[0]), min(len(rows), len(rows[0])))
    if (len(rows), len(rows[0])) != (board.rows, board.cols):
        raise PositionError(
            f"the position has {len(rows)} rows of {len(rows[0])} cells, the board {board.rows} of {board.cols}"
        )
    x = o = 0
    for index, row in enumerate(rows):
        height = board.rows - 1 - index
        for col, mark in enumerate(row):
            if mark == "x":
                x |= board.bit(height, col)
            elif mark == "o":
                o |= board.bit(height, col)
    state = GravityState(board, x, o)
    _check_reachable(state)
    return state


def _check_reachable(state: GravityState) -> None:
    """Raise :class:`PositionError` unless the position could come up in a game."""
    board = state.board
    for col in range(board.cols):
        column = state.mask & board.column_mask(col)
        height = column >> (col * board.stride)
        if height & (height + 1):
            raise PositionError(
                f"column {col + 1} has a mark above an empty cell: marks drop to the lowest empty cell"
            )
    xs, os_ = state.x.bit_count(), state.o.bit_count()
    if xs not in (os_, os_ + 1):
        raise PositionError(
            f"X has {xs} marks and O {os_}: X moves first, so X has as many as O or one more"
        )
    x_line, o_line = board.has_line(state.x), board.has_line(state.o)
    if x_line and o_line:
        raise PositionError("both X and O have a line: the game stops at the first one")
    winner = "x" if x_line else "o" if o_line else None
    if winner is None:
        return
    if (winner == "x") != (xs == os_ + 1):
        raise PositionError(f"{winner.upper()} has a line but did not make the last move")
    marks = state.x if winner == "x" else state.o
    for col in range(board.cols):
        column = state.mask & board.column_mask(col)
        if not column:
            continue
        top = 1 << (column.bit_length() - 1)
        if marks & top and not board.has_line(marks & ~top):
            return
    raise PositionError(f"{winner.upper()}'s lines cannot all have been completed by one last move")
