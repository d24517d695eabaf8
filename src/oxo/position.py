"""Positions: an immutable board state as two bitboards, with its text notations and symmetries.

A position is any assignment of statuses to cells (0 empty, 1 first player X, 2 second player O);
whether it can occur in a real game is :mod:`oxo.legality`'s question (``oxo.check``), its value
:mod:`oxo.solve`'s. Here: the rules (whose turn, who has won, the moves), the state in a sentence
(:meth:`Position.status`) and the notations. Notations in and out:

* status string (seed 000): ``120000000``;
* letters (seed 001): ``xo.......``; ``X``/``O`` and ``-``/``_`` are read too;
* either of those with rows separated by ``/`` (``xo./.../...``), layers by ``//`` in 3D, and
  each further axis by one more slash (``///`` between the cubes of a 4D board);
* a pretty grid for people (:meth:`Position.to_grid`).

A board with gravity (``4x4x4,gravity``: Score Four) is the same kind of position with one more
rule: a mark goes to the lowest empty cell of a column (:meth:`Geometry.playable`). Its moves are
still cells inside the library; people write them as column numbers (:meth:`Position.format_move`).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Literal

from oxo.errors import MoveError, PositionError
from oxo.geometry import Geometry, Symmetry, completing_cells, mask_cells
from oxo.phrases import counted

Player = Literal["x", "o"]
Outcome = Literal["x", "o", "draw"]
StatusCode = Literal["impossible", "floating", "both_lines", "won", "full", "to_move"]

#: Weight of a line that holds c marks of one player and none of the other, by c (beyond: the last).
_LINE_WEIGHTS = (0, 1, 6, 40, 250, 1600, 10000)
#: Boards with more cells than this offer engines only the cells near the marks already played.
_NEAR_ONLY_ABOVE = 64

_READ = {"0": 0, ".": 0, "-": 0, "_": 0, "1": 1, "x": 1, "2": 2, "o": 2}
_ACCEPTED = "0/./-/_ for empty, 1/x for the first player, 2/o for the second, '/' between rows"


@dataclass(frozen=True)
class Position:
    """A board state: the geometry and the cells of each player as bitmasks (bit c = cell c)."""

    geometry: Geometry
    x: int = 0
    o: int = 0

    #: The opponent may mark any empty cell, so a cell where it would win must be blocked at once.
    blocks_are_forced: ClassVar[bool] = True

    def __post_init__(self) -> None:
        full = self.geometry.full_mask
        if self.x & self.o or (self.x | self.o) & ~full:
            raise PositionError(
                "a cell cannot hold both marks, and every mark must be on the board"
            )

    # -- construction --------------------------------------------------------------------------

    @classmethod
    def empty(cls, geometry: Geometry) -> Position:
        return cls(geometry, 0, 0)

    @classmethod
    def from_string(cls, text: str, geometry: Geometry | None = None) -> Position:
        """Read a position in any of the module's notations.

        Without a geometry, the board is guessed from the text: rows separated by ``/`` (layers by
        ``//``) give the shape; otherwise the length must be a square (``9`` → 3×3, ``16`` → 4×4) or
        a cube (``27`` → 3×3×3), and when it is both (``64``: 8×8 or 4×4×4) the error names them.
        """
        if not isinstance(text, str):
            raise PositionError(f"a position is text, got {type(text).__name__}")
        raw = text.strip().lower().replace(" ", "")
        if not raw:
            raise PositionError(f"empty position; write one status per cell ({_ACCEPTED})")
        bad = sorted({ch for ch in raw if ch not in _READ and ch != "/"})
        if bad:
            shown = ", ".join(repr(ch) for ch in bad)
            raise PositionError(
                f"unknown character {shown} in position {text.strip()!r}; use {_ACCEPTED}"
            )
        if geometry is None:
            geometry = _guess_geometry(raw, text)
        if "/" in raw:
            _check_rows(raw, geometry, text)
        statuses = raw.replace("/", "")
        if len(statuses) != geometry.size:
            raise PositionError(
                f"position {text.strip()!r} has {len(statuses)} cells but a {geometry.spec_shape} board has "
                f"{geometry.size}"
            )
        x = o = 0
        for cell, ch in enumerate(statuses):
            status = _READ[ch]
            if status == 1:
                x |= 1 << cell
            elif status == 2:
                o |= 1 << cell
        return cls(geometry, x, o)

    @classmethod
    def parse(
        cls, text: str, board: str | Geometry | None = None, *, k: int | None = None
    ) -> Position:
        """A position from its text, on ``board`` (``"3x3"``, ``"4x4,k=3"``; guessed from the text if None)."""
        geometry = Geometry.parse(board, k) if isinstance(board, str) else board
        position = cls.from_string(text, geometry)
        if board is None and k is not None:
            position = cls(Geometry.parse(position.geometry.spec_shape, k), position.x, position.o)
        return position

    @classmethod
    def from_statuses(cls, geometry: Geometry, statuses: list[int] | tuple[int, ...]) -> Position:
        """Build a position from one status (0, 1 or 2) per cell."""
        if len(statuses) != geometry.size or any(s not in (0, 1, 2) for s in statuses):
            raise PositionError(f"need {geometry.size} statuses, each 0, 1 or 2")
        x = sum(1 << cell for cell, s in enumerate(statuses) if s == 1)
        o = sum(1 << cell for cell, s in enumerate(statuses) if s == 2)
        return cls(geometry, x, o)

    @classmethod
    def from_moves(cls, geometry: Geometry, moves: list[int] | tuple[int, ...]) -> Position:
        """The position after playing the given cells in turn from the empty board."""
        position = cls.empty(geometry)
        for move in moves:
            position = position.play(move)
        return position

    # -- notations out -------------------------------------------------------------------------

    @property
    def statuses(self) -> tuple[int, ...]:
        """One status per cell: 0 empty, 1 first player, 2 second player."""
        return tuple(
            1 if self.x >> c & 1 else 2 if self.o >> c & 1 else 0 for c in range(self.geometry.size)
        )

    def to_status_string(self, *, rows: bool = False) -> str:
        """Seed 000's notation, e.g. ``120000000``; with ``rows=True`` rows are separated by ``/``."""
        return self._join("".join(str(s) for s in self.statuses), rows)

    def to_letters(self, *, rows: bool = False) -> str:
        """Seed 001's notation with ``x``, ``o`` and ``.``, e.g. ``xo.......``."""
        return self._join("".join(".xo"[s] for s in self.statuses), rows)

    def to_grid(self, *, empty: str = ".") -> str:
        """A grid for people: one line per row, marks spaced out, layers separated by a blank line;
        with gravity or in four dimensions and more, the layers side by side (:func:`panels`), and
        with gravity the column numbers beside them."""
        symbols = (empty, "X", "O")
        geometry = self.geometry
        statuses = self.statuses
        if geometry.gravity or geometry.dimensions > 3:
            tokens = [symbols[s] for s in statuses]
            if not geometry.gravity or geometry.dimensions == 2:
                text = panels(geometry, tokens)
                if geometry.gravity:  # a flat gravity board: the column numbers underneath
                    width = len(geometry.column_name(geometry.column_count - 1))
                    names = [geometry.column_name(c) for c in range(geometry.column_count)]
                    if width > 1:
                        text = panels(geometry, [t.rjust(width) for t in tokens])
                    text += "\n" + " ".join(name.rjust(width) for name in names)
                return text
            return gravity_panels(geometry, tokens)
        cols = geometry.shape[-1]
        lines = []
        rows_per_layer = geometry.shape[-2]
        for row_index, start in enumerate(range(0, geometry.size, cols)):
            if row_index and row_index % rows_per_layer == 0:
                lines.append("")
            lines.append(" ".join(symbols[s] for s in statuses[start : start + cols]))
        return "\n".join(lines)

    def _join(self, flat: str, rows: bool) -> str:
        if not rows:
            return flat
        return join_axes(flat, self.geometry.shape)

    def __str__(self) -> str:
        return self.to_status_string()

    # -- state ---------------------------------------------------------------------------------

    @property
    def x_count(self) -> int:
        return self.x.bit_count()

    @property
    def o_count(self) -> int:
        return self.o.bit_count()

    @property
    def ply(self) -> int:
        """The number of marks on the board."""
        return (self.x | self.o).bit_count()

    @property
    def empty_mask(self) -> int:
        return self.geometry.full_mask & ~(self.x | self.o)

    @property
    def empty_cells(self) -> tuple[int, ...]:
        return mask_cells(self.empty_mask)

    @property
    def is_full(self) -> bool:
        return self.empty_mask == 0

    @cached_property
    def x_lines(self) -> tuple[int, ...]:
        """The complete lines of the first player, as bitmasks."""
        return tuple(line for line in self.geometry.lines if self.x & line == line)

    @cached_property
    def o_lines(self) -> tuple[int, ...]:
        """The complete lines of the second player, as bitmasks."""
        return tuple(line for line in self.geometry.lines if self.o & line == line)

    @property
    def complete_lines(self) -> tuple[tuple[Player, tuple[int, ...]], ...]:
        """Every complete line with its owner, as cell IDs."""
        return tuple(("x", mask_cells(line)) for line in self.x_lines) + tuple(
            ("o", mask_cells(line)) for line in self.o_lines
        )

    @property
    def winner(self) -> Player | None:
        """Who has a complete line; ``None`` when nobody has (or, on an impossible board, both have)."""
        if self.x_lines and not self.o_lines:
            return "x"
        if self.o_lines and not self.x_lines:
            return "o"
        return None

    @property
    def is_terminal(self) -> bool:
        """Whether play has stopped: somebody has a line or the board is full."""
        return bool(self.x_lines or self.o_lines) or self.is_full

    @property
    def turn(self) -> Player | None:
        """Who moves next by the mark counts (X first); ``None`` when the counts are impossible."""
        difference = self.x_count - self.o_count
        return "x" if difference == 0 else "o" if difference == 1 else None

    @property
    def to_move(self) -> Player | None:
        """Who moves next in a game still going; ``None`` when it is over, the counts are impossible
        or (with gravity) a mark floats above an empty cell."""
        if self.is_terminal or self.floating:
            return None
        return self.turn

    @property
    def floating(self) -> int:
        """With gravity, the marks above an empty cell of their column (no game has them), as a
        mask; 0 without gravity."""
        return self.geometry.floating(self.x | self.o)

    @property
    def legal_moves(self) -> tuple[int, ...]:
        """The empty cells (with gravity: the lowest empty cell of each column), while the game is
        still going; otherwise none."""
        if not self.to_move:
            return ()
        if self.geometry.gravity:  # by column, as people number them
            return tuple(sorted(mask_cells(self.playable_mask), key=self.geometry.column_of))
        return self.empty_cells

    @property
    def playable_mask(self) -> int:
        """The cells a mark may go to now, as a mask (every empty cell without gravity)."""
        return self.geometry.playable(self.x | self.o)

    def play(self, cell: int) -> Position:
        """The position after the player to move marks ``cell``."""
        player = self.to_move
        if player is None:
            reason = (
                "the game is over"
                if self.is_terminal
                else "a mark floats above an empty cell"
                if self.floating
                else "the mark counts are impossible"
            )
            raise MoveError(f"cannot play cell {cell}: {reason}")
        if (
            isinstance(cell, bool)
            or not isinstance(cell, int)
            or not 0 <= cell < self.geometry.size
        ):
            raise MoveError(
                f"cell {cell!r} is not on a {self.geometry.spec_shape} board: cells are 0..{self.geometry.size - 1}"
            )
        bit = 1 << cell
        if (self.x | self.o) & bit:
            raise MoveError(f"cell {cell} is already taken")
        if self.geometry.gravity and not self.playable_mask & bit:
            column = self.geometry.column_name(self.geometry.column_of(cell))
            raise MoveError(
                f"cell {cell} is not the lowest empty cell of its column (column {column}): "
                "a mark drops to the lowest empty cell"
            )
        if player == "x":
            return Position(self.geometry, self.x | bit, self.o)
        return Position(self.geometry, self.x, self.o | bit)

    # -- the game interface (oxo.game.GameState) ----------------------------------------------

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (the same as :attr:`is_terminal`)."""
        return self.is_terminal

    @property
    def outcome(self) -> Outcome | None:
        """``"x"`` or ``"o"`` once a side has a line, ``"draw"`` on a full board without one, else ``None``."""
        if self.winner is not None:
            return self.winner
        return "draw" if self.is_terminal else None

    @cached_property
    def key(self) -> tuple[int, int]:
        """The same pair of masks for every position of the symmetry class: a transposition-table key."""
        return min((s.apply_mask(self.x), s.apply_mask(self.o)) for s in self.geometry.symmetries)

    def winning_moves(self, player: Player | None = None) -> tuple[int, ...]:
        """The empty cells where ``player`` (default: the side to move) would complete a line at once."""
        side = player or self.turn
        if side is None or self.is_terminal:
            return ()
        own, other = (self.x, self.o) if side == "x" else (self.o, self.x)
        cells = completing_cells(self.geometry.lines, own, other)
        if self.geometry.gravity:
            cells &= self.playable_mask
        return mask_cells(cells)

    def evaluate(self) -> float:
        """A guess of the position's worth for the side to move, in (-1, 1), from the lines still open:
        each line with marks of one side only counts for that side, more the fuller it is."""
        mover = self.turn
        if mover is None:
            return 0.0
        x_score = o_score = 0
        weights = _LINE_WEIGHTS
        top = len(weights) - 1
        for line in self.geometry.lines:
            mine, theirs = self.x & line, self.o & line
            if mine and theirs:
                continue
            if mine:
                x_score += weights[min(mine.bit_count(), top)]
            elif theirs:
                o_score += weights[min(theirs.bit_count(), top)]
        score = x_score - o_score if mover == "x" else o_score - x_score
        return score / (abs(score) + 50.0)

    def candidate_moves(self) -> tuple[int, ...]:
        """The legal moves worth searching, most promising first: on boards of up to 64 cells every
        empty cell, beyond that the empty cells within two steps of a mark; ordered by how much the
        open lines through a cell hold for either side."""
        moves = self.legal_moves
        if not moves:
            return ()
        geometry = self.geometry
        occupied = self.x | self.o
        if geometry.size > _NEAR_ONLY_ABOVE and not geometry.gravity:
            if not occupied:
                return (geometry.cell_at(tuple(side // 2 for side in geometry.shape)),)
            near = geometry.neighbourhood(2)
            mask = 0
            for cell in mask_cells(occupied):
                mask |= near[cell]
            moves = mask_cells(mask & ~occupied)
        through = geometry.lines_through
        x, o = self.x, self.o
        weights = _LINE_WEIGHTS
        top = len(weights) - 1

        def promise(cell: int) -> int:
            total = 0
            for line in through[cell]:
                mine, theirs = x & line, o & line
                if mine and theirs:
                    continue
                total += 1 + weights[min((mine | theirs).bit_count(), top)]
            return total

        return tuple(sorted(moves, key=promise, reverse=True))

    def text(self) -> str:
        """The grid for people (see :meth:`to_grid`)."""
        return self.to_grid()

    def format_move(self, move: int) -> str:
        """A move as people type it: the cell ID; with gravity, the column's number (from 1)."""
        return self.geometry.move_name(move)

    def parse_move(self, text: str | int) -> int:
        """The cell ID of a typed move; raises :class:`MoveError` unless it names a cell of the board.
        With gravity a move is a column number (from 1), and the cell the lowest empty one of it."""
        word = str(text).strip()
        geometry = self.geometry
        if geometry.gravity:
            columns = geometry.column_count
            if not (word.isascii() and word.isdigit()) or not 1 <= int(word) <= columns:
                raise MoveError(
                    f"{word!r} is not a column of the {geometry.spec_shape} board: columns are "
                    f"1..{columns}"
                )
            column = int(word) - 1
            drop = self.playable_mask & sum(1 << c for c in geometry.column_cells(column))
            if not drop:
                raise MoveError(f"column {word} is full")
            return drop.bit_length() - 1
        if not (word.isascii() and word.isdigit()) or int(word) >= geometry.size:
            raise MoveError(
                f"{word!r} is not a cell of a {geometry.spec_shape} board: cells are 0..{geometry.size - 1}"
            )
        return int(word)

    # -- symmetry ------------------------------------------------------------------------------

    def transform(self, symmetry: Symmetry | str) -> Position:
        """The position seen under a symmetry (a :class:`Symmetry` or its name)."""
        if isinstance(symmetry, str):
            symmetry = self.geometry.symmetry(symmetry)
        return Position(self.geometry, symmetry.apply_mask(self.x), symmetry.apply_mask(self.o))

    def transforms(self) -> Iterator[tuple[Symmetry, Position]]:
        """Every symmetry of the board with the image of this position under it."""
        for symmetry in self.geometry.symmetries:
            yield symmetry, self.transform(symmetry)

    @cached_property
    def canonical(self) -> Position:
        """The representative of this position's symmetry class: the image with the least status string."""
        return min((image for _, image in self.transforms()), key=Position.to_status_string)

    @property
    def stabilizer(self) -> tuple[Symmetry, ...]:
        """The symmetries that leave this position unchanged."""
        return tuple(symmetry for symmetry, image in self.transforms() if image == self)

    @property
    def class_size(self) -> int:
        """How many distinct positions the symmetries make of this one (orbit size = |G| / |stabilizer|)."""
        return len(self.geometry.symmetries) // len(self.stabilizer)

    def equivalent(self, other: Position) -> bool:
        """Whether the two positions are the same up to symmetry."""
        return self.geometry == other.geometry and self.canonical == other.canonical

    # -- status and display ------------------------------------------------------------------------
    #
    # The questions about a position (can it occur, its value, its analysis) live above it and are
    # asked through oxo.check, oxo.analyze, oxo.solve and oxo.move (see docs/architecture.md).

    def status(self) -> Status:
        """The state of the position as a code and a sentence ("X to move (move 3)", "O has won")."""
        return position_status(self)

    def __repr__(self) -> str:
        return f"Position.parse({self.to_letters(rows=True)!r}, {self.geometry.spec!r})"

    def _repr_svg_(self) -> str:
        from oxo.render.svg import classic_svg

        side = max(self.geometry.shape[-2:])
        return classic_svg(self, labels=True, cell=max(14.0, min(48.0, 320.0 / side)))

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(f"{self.to_grid()}\n{self.status().text}")


@dataclass(frozen=True)
class Status:
    """The state of a position: a short code, a sentence for people, whose turn and who has won."""

    code: StatusCode
    text: str
    turn: Player | None
    winner: Player | None

    def __str__(self) -> str:
        return self.text

    def to_dict(self) -> dict[str, object]:
        return {"status": self.code, "text": self.text, "turn": self.turn, "winner": self.winner}


def position_status(position: Position) -> Status:
    """What state ``position`` is in, in one sentence (the one place this sentence is written)."""
    turn, winner = position.turn, position.winner
    if turn is None:
        return Status(
            "impossible",
            "impossible mark counts (X moves first, so X has as many marks as O or one more)",
            None,
            None,
        )
    if position.floating:
        cell = mask_cells(position.floating)[0]
        return Status(
            "floating",
            f"cell {cell} holds a mark above an empty cell: with gravity a mark drops to the "
            "lowest empty cell of its column",
            None,
            None,
        )
    if position.x_lines and position.o_lines:
        return Status(
            "both_lines", "both players have a line: no game reaches this position", turn, None
        )
    if winner is not None:
        return Status("won", f"{winner.upper()} has won", None, winner)
    if position.is_full:
        return Status("full", "draw: the board is full", None, None)
    return Status("to_move", f"{turn.upper()} to move (move {position.ply + 1})", turn, None)


#: Columns a text drawing may take; spaces between two panels (layers) side by side.
TEXT_WIDTH = 80
PANEL_GAP = 3


def _side_by_side(blocks: list[list[str]], gap: int = PANEL_GAP) -> list[str]:
    """Blocks of lines laid left to right, each padded to its widest line."""
    height = max(len(block) for block in blocks)
    widths = [max(len(line) for line in block) for block in blocks]
    out = []
    for row in range(height):
        parts = [
            (block[row] if row < len(block) else "").ljust(width)
            for block, width in zip(blocks, widths, strict=True)
        ]
        out.append((" " * gap).join(parts).rstrip())
    return out


def panels(geometry: Geometry, tokens: list[str], *, titled: bool = True) -> str:
    """Per-cell texts laid out as a board: rows of the last two axes; in three dimensions and more
    each layer a panel, the panels of the third axis from the end side by side (with the cell
    numbers they hold above each, ``cells 16-31``), the fourth axis from the end in bands one under
    the other, the fifth in groups of bands. Layers that do not fit :data:`TEXT_WIDTH` side by side
    go one under the other."""
    width = max(len(token) for token in tokens)
    shape = geometry.shape
    rows, cols = shape[-2:]
    per_panel = rows * cols

    span = cols * (width + 1) - 1
    if titled and len(shape) > 2:  # every panel as wide as the widest title, so that they align
        span = max(span, len(f"cells {geometry.size - per_panel}-{geometry.size - 1}"))

    def panel(first: int) -> list[str]:
        lines = [
            " ".join(token.rjust(width) for token in tokens[start : start + cols]).ljust(span)
            for start in range(first, first + per_panel, cols)
        ]
        if titled and len(shape) > 2:
            lines.insert(0, f"cells {first}-{first + per_panel - 1}".ljust(span))
        return lines

    if len(shape) == 2:
        return "\n".join(panel(0))
    per_band = shape[-3] * per_panel
    bands = []
    for band in range(0, geometry.size, per_band):
        blocks = [panel(first) for first in range(band, band + per_band, per_panel)]
        laid = _side_by_side(blocks)
        if max(len(line) for line in laid) > TEXT_WIDTH:
            laid = [line for block in blocks for line in [*block, ""]][:-1]
        bands.append("\n".join(laid))
    if len(shape) == 3:
        return bands[0]
    per_group = len(bands) // (geometry.size // (shape[-4] * per_band)) if len(shape) > 4 else 0
    if not per_group:
        return "\n\n".join(bands)
    return "\n\n\n".join(
        "\n\n".join(bands[i : i + per_group]) for i in range(0, len(bands), per_group)
    )


def gravity_panels(geometry: Geometry, tokens: list[str]) -> str:
    """A gravity box drawn level by level, the top level first (as in reading order), each level a
    drawing of the footprint, and beside them (or under them) the column numbers to type."""
    foot = Geometry(geometry.footprint, min(geometry.k, max(geometry.footprint)))
    count = geometry.column_count
    names = [geometry.column_name(c) for c in range(count)]
    width = max(len(name) for name in names)
    height = geometry.height
    levels = []
    for layer in range(height):
        level = height - layer
        title = "top" if level == height else "bottom" if level == 1 else f"level {level}"
        part = [t.rjust(width) for t in tokens[layer * count : (layer + 1) * count]]
        levels.append([title, *panels(foot, part, titled=False).splitlines()])
    legend = ["columns", *panels(foot, names, titled=False).splitlines()]
    laid = _side_by_side([*levels, legend])
    if max(len(line) for line in laid) <= TEXT_WIDTH:
        return "\n".join(laid)
    return "\n\n".join("\n".join(block) for block in [*levels, legend])


def join_axes(flat: str, shape: tuple[int, ...]) -> str:
    """A status string with its axes shown: ``/`` between rows, ``//`` between layers, one more
    slash for each further axis (``///`` between the cubes of a 4D board)."""
    texts = [flat[i : i + shape[-1]] for i in range(0, len(flat), shape[-1])]
    for depth, side in enumerate(reversed(shape[:-1]), start=1):
        sep = "/" * depth
        texts = [sep.join(texts[i : i + side]) for i in range(0, len(texts), side)]
    return texts[0]


def _guess_geometry(raw: str, text: str) -> Geometry:
    if "//" in raw:
        depth = max(len(run) for run in _slash_runs(raw))
        shape: tuple[int, ...] = _shape_of(raw, depth)
        return _meant(shape, raw, text)
    if "/" in raw:
        rows = raw.split("/")
        shape = (len(rows), len(rows[0]))
        if not rows[0]:
            raise PositionError(f"empty row in position {text.strip()!r}")
        return _meant(shape, raw, text)
    cells = len(raw)
    side = round(cells**0.5)
    edge = round(cells ** (1 / 3))
    fits: list[tuple[int, ...]] = [(side, side)] if side * side == cells else []
    if edge * edge * edge == cells and edge >= 2:
        fits.append((edge, edge, edge))
    if len(fits) == 1:
        return Geometry(fits[0], min(fits[0]))
    candidates = fits or [
        (rows, cells // rows)
        for rows in range(2, cells)
        if cells % rows == 0
        and 2 <= cells // rows
        and max(rows, cells // rows) <= 3 * min(rows, cells // rows)
    ]
    candidates.sort(key=lambda shape: (max(shape) / min(shape), shape))
    named = " or ".join("x".join(map(str, shape)) for shape in candidates[:6])
    hint = f" (it fits {named})" if candidates else ""
    example = "x".join(map(str, candidates[0])) if candidates else "3x5"
    raise PositionError(
        f"cannot tell the board of a {cells}-cell position {text.strip()!r}{hint}: give the board "
        f"(e.g. --board {example}) or separate rows with '/' (and layers with '//')"
    )


def _slash_runs(raw: str) -> list[str]:
    """The runs of slashes in a position's text."""
    runs, current = [], ""
    for ch in raw:
        if ch == "/":
            current += ch
        elif current:
            runs.append(current)
            current = ""
    return runs + [current] if current else runs


def _shape_of(raw: str, depth: int) -> tuple[int, ...]:
    """The sides a text with runs of up to ``depth`` slashes shows, read from its first block of
    each depth (the other blocks are checked against the board once it is known)."""
    sides = []
    part = raw
    for level in range(depth, 0, -1):
        pieces = _split_exact(part, level)
        sides.append(len(pieces))
        part = pieces[0]
    sides.append(len(part))
    return tuple(sides)


def _split_exact(text: str, level: int) -> list[str]:
    """``text`` split at runs of exactly ``level`` slashes (longer runs stay inside the pieces)."""
    pieces, start, i = [], 0, 0
    while i < len(text):
        if text[i] == "/":
            j = i
            while j < len(text) and text[j] == "/":
                j += 1
            if j - i == level:
                pieces.append(text[start:i])
                start = j
            i = j
        else:
            i += 1
    pieces.append(text[start:])
    return pieces


def _meant(shape: tuple[int, ...], raw: str, text: str) -> Geometry:
    """The board the slashes of a position give, refused when a side is one cell long: there one
    mark would make a line (k = 1), which nobody means; the message says what was read."""
    if min(shape) >= 2:
        return Geometry(shape, min(shape))
    cells = len(raw.replace("/", ""))
    if len(shape) > 3:
        read = f"a {'x'.join(map(str, shape))} box"
    elif len(shape) == 3:
        read = f"{shape[0]} layers of {counted(shape[1], 'row')} of {shape[2]} cells"
    else:
        read = f"{counted(shape[0], 'row')} of {counted(shape[1], 'cell')}"
    side, edge = round(cells**0.5), round(cells ** (1 / 3))
    fits = [f"{side}x{side}"] if side >= 2 and side * side == cells else []
    fits += [f"{edge}x{edge}x{edge}"] if edge >= 2 and edge**3 == cells else []
    hint = (
        f"; or leave the slashes out and give the board (--board {' or --board '.join(fits)})"
        if fits
        else ""
    )
    raise PositionError(
        f"position {text.strip()!r} reads as {read}, a board where one mark would make a line; "
        f"separate rows with '/' and layers with '//' (x../.o./...//.../.../...){hint}"
    )


def _check_rows(raw: str, geometry: Geometry, text: str) -> None:
    cols = geometry.shape[-1]
    rows = [row for row in raw.split("/") if row]
    if any(len(row) != cols for row in rows):
        raise PositionError(
            f"every row of {text.strip()!r} must have {cols} cells on a {geometry.spec_shape} board"
        )
