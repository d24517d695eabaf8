"""Games as move sequences, and counting games exactly without walking them.

A *game* is the sequence of cells played from the empty board, players alternating (X first), up
to a terminal position: a line for the player who just moved, or a full board (seed 000). This
module reads and writes games (cell IDs ``0 4 8 2 6``; on 3×3 also seed 004's keypad keys 1..9),
checks them move by move, transforms a whole game by a symmetry of the board and gives its
canonical form (the least of its transforms, compared move by move).

Counting (:func:`count_games`), three figures per length and outcome:

* **games** by inclusion–exclusion over sets of lines (:mod:`oxo.counting.gamelines`, boards with
  few lines whatever their size: n×n with k = n up to 10×10), or by pair counting: a game won by X at ply p ends at a reachable terminal position
  (X, O) whose last move is a cell common to all of X's lines; every earlier position is line-free,
  so the earlier marks come in any order. The games ending at (X, O) number
  ``common(X) · (|X|-1)! · |O|!`` (likewise for O, and ``|X|! · |O|!`` for a full board without a
  line). :func:`oxo.counting.pairs.count_pairs` sums ``common(X)`` over all such pairs per ply.
* **classes of whole games** by Burnside's lemma: a symmetry fixes a game exactly when it fixes
  every cell the game plays, so the games it fixes are the games on its fixed cells.
* **universal games** (symmetry applied move by move, see :mod:`oxo.notation`): root-to-end paths
  where the moves out of a position are its legal moves up to the position's stabilizer, counted
  level by level over canonical positions (:func:`count_paths`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

import numpy as np

from oxo.counting.budget import Estimate
from oxo.errors import MoveError, OptionError, OutOfReachError
from oxo.geometry import Geometry, Symmetry
from oxo.position import Position
from oxo.records import record

Numbering = Literal["id", "keypad"]
NUMBERINGS: tuple[str, ...] = ("id", "keypad")
Outcome = Literal["x", "o", "draw"]

#: Games are counted by pair counting over 2^N sets of cells: 5×5 takes about a minute, 3×3×3 about ten.
GAMES_MAX_CELLS = 27

#: Universal games are counted level by level over canonical positions; beyond this many cells
#: the levels hold too many positions (5×5 has ~10^11 reachable classes) and the count is left out.
UNIVERSAL_MAX_CELLS = 16

_SEPARATORS = re.compile(r"[\s,;]+")


# -- games as values ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """A sequence of moves (cell IDs) from the empty board, legal at every step.

    The game may be unfinished; :attr:`is_over` tells whether it reached a terminal position.
    """

    geometry: Geometry
    moves: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "moves", tuple(self.moves))
        # Replaying checks every move (MoveError on the first illegal one) and fills ``positions``.
        self.__dict__["positions"] = _replay(self.geometry, self.moves)

    # -- notations ---------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str, geometry: Geometry, numbering: Numbering = "id") -> Game:
        """Read a game such as ``"0 4 8 2 6"`` (also ``0,4,8,2,6``, or ``04826`` when every cell ID is one digit).

        With ``numbering="keypad"`` (3×3 only) the moves are seed 004's keys: ``1 2 3`` on the top row
        to ``7 8 9`` on the bottom, so ``"1 5 9 3 7"`` is the game ``0 4 8 2 6``.
        """
        return cls(geometry, parse_moves(text, geometry, numbering))

    def to_text(self, numbering: Numbering = "id") -> str:
        """The moves separated by spaces, as cell IDs or as keypad keys."""
        return format_moves(self.moves, self.geometry, numbering)

    def __str__(self) -> str:
        return self.to_text()

    # -- play --------------------------------------------------------------------------------

    @cached_property
    def positions(self) -> tuple[Position, ...]:
        """The position before the first move, after each move, and so on: ``len(moves) + 1`` of them."""
        return _replay(self.geometry, self.moves)

    @property
    def final(self) -> Position:
        return self.positions[-1]

    @property
    def length(self) -> int:
        return len(self.moves)

    @property
    def is_over(self) -> bool:
        return self.final.is_terminal

    @property
    def outcome(self) -> Outcome | None:
        """``"x"`` or ``"o"`` for a win, ``"draw"`` for a full board without a line, ``None`` while unfinished."""
        final = self.final
        if final.winner:
            return final.winner
        return "draw" if final.is_full else None

    # -- symmetry ----------------------------------------------------------------------------

    def transform(self, symmetry: Symmetry | str) -> Game:
        """The whole game seen under a symmetry: every move mapped by the same symmetry."""
        if isinstance(symmetry, str):
            symmetry = self.geometry.symmetry(symmetry)
        return Game(self.geometry, tuple(symmetry.perm[move] for move in self.moves))

    def transforms(self) -> Iterator[tuple[Symmetry, Game]]:
        for symmetry in self.geometry.symmetries:
            yield symmetry, self.transform(symmetry)

    @cached_property
    def canonical(self) -> Game:
        """The representative of the game's class: its least transform, moves compared in order."""
        return min((game for _, game in self.transforms()), key=lambda game: game.moves)

    def equivalent(self, other: Game) -> bool:
        """Whether one game is the other seen under a single symmetry of the board."""
        return self.geometry == other.geometry and self.canonical == other.canonical

    def transform_from(self, ply: int, symmetry: Symmetry | str) -> Game:
        """The game with the moves after ``ply`` mapped by a symmetry that leaves the position at ``ply`` unchanged.

        This is seed 000's transformation of part of a game, made safe: the earlier moves stay, and
        because the symmetry fixes the position reached so far, the rest of the game remains legal
        and every later position stays equivalent. Any other symmetry is refused.
        """
        if isinstance(symmetry, str):
            symmetry = self.geometry.symmetry(symmetry)
        if not 0 <= ply <= self.length:
            raise MoveError(
                f"ply {ply} is not in a game of {self.length} moves: use 0..{self.length}"
            )
        position = self.positions[ply]
        if position.transform(symmetry) != position:
            fixing = ", ".join(s.name for s in position.stabilizer)
            raise MoveError(
                f"{symmetry.name} changes the position after move {ply}, so it cannot be applied to the rest of the "
                f"game alone; symmetries that fix it: {fixing}"
            )
        head, tail = self.moves[:ply], self.moves[ply:]
        return Game(self.geometry, head + tuple(symmetry.perm[move] for move in tail))


def parse_moves(text: str, geometry: Geometry, numbering: Numbering = "id") -> tuple[int, ...]:
    """Cell IDs from a game's text (see :meth:`Game.parse`), checked to be on the board; legality is :class:`Game`'s."""
    if numbering not in NUMBERINGS:
        raise MoveError(f"unknown move numbering {numbering!r}; use one of {', '.join(NUMBERINGS)}")
    if not isinstance(text, str):
        raise MoveError(f"a game is text such as '0 4 8 2 6', got {type(text).__name__}")
    keypad = numbering == "keypad"
    if keypad and geometry.shape != (3, 3):
        raise MoveError(
            f"keypad numbering (keys 1..9) exists only on a 3x3 board; on {geometry.spec_shape} use cell IDs "
            f"0..{geometry.size - 1}"
        )
    accepted = (
        "keys 1..9 (1 2 3 on the top row, 7 8 9 on the bottom)"
        if keypad
        else f"cell IDs 0..{geometry.size - 1} in reading order"
    )
    raw = text.strip()
    if not raw:
        raise MoveError(
            f"empty game: write the cells played in order, e.g. '0 4 8 2 6' ({accepted})"
        )
    tokens = [token for token in _SEPARATORS.split(raw) if token]
    one_digit = 9 if keypad else geometry.size - 1
    if len(tokens) == 1 and len(tokens[0]) > 1 and tokens[0].isdigit() and one_digit <= 9:
        tokens = list(tokens[0])  # "04826": every cell is one digit on this board
    moves = []
    for index, token in enumerate(tokens, start=1):
        if not token.isdigit():
            raise MoveError(
                f"move {index} {token!r} in {raw!r} is not a number: use {accepted}, separated by spaces or commas"
            )
        value = int(token)
        low, high = (1, 9) if keypad else (0, geometry.size - 1)
        if not low <= value <= high:
            raise MoveError(
                f"move {index} is {value}, which is not on a {geometry.spec_shape} board: use {accepted}"
            )
        moves.append(value - 1 if keypad else value)
    return tuple(moves)


def format_moves(moves: Sequence[int], geometry: Geometry, numbering: Numbering = "id") -> str:
    """Moves as text: cell IDs, or keypad keys (3×3 only), separated by spaces."""
    if numbering not in NUMBERINGS:
        raise MoveError(f"unknown move numbering {numbering!r}; use one of {', '.join(NUMBERINGS)}")
    if numbering == "keypad":
        if geometry.shape != (3, 3):
            raise MoveError(
                f"keypad numbering (keys 1..9) exists only on a 3x3 board, not {geometry.spec_shape}"
            )
        return " ".join(str(move + 1) for move in moves)
    return " ".join(str(move) for move in moves)


def _replay(geometry: Geometry, moves: tuple[int, ...]) -> tuple[Position, ...]:
    position = Position.empty(geometry)
    positions = [position]
    owner: dict[int, int] = {}
    for index, move in enumerate(moves, start=1):
        if not isinstance(move, int) or isinstance(move, bool) or not 0 <= move < geometry.size:
            raise MoveError(
                f"move {index} is {move!r}, which is not a cell of a {geometry.spec_shape} board: cells are 0..{geometry.size - 1}"
            )
        if move in owner:
            by = owner[move]
            raise MoveError(
                f"move {index} plays cell {move}, already taken by {'XO'[(by - 1) % 2]} at move {by}"
            )
        if position.is_terminal:
            ended = f"{position.winner.upper()} won" if position.winner else "the board is full"
            raise MoveError(
                f"move {index} (cell {move}) comes after the end of the game: {ended} at move {index - 1}"
            )
        owner[move] = index
        position = position.play(move)
        positions.append(position)
    return tuple(positions)


# -- counting ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OutcomeCount:
    """A number of games split by outcome."""

    x_wins: int = 0
    o_wins: int = 0
    draws: int = 0

    @property
    def total(self) -> int:
        return self.x_wins + self.o_wins + self.draws

    def __add__(self, other: OutcomeCount) -> OutcomeCount:
        return OutcomeCount(
            self.x_wins + other.x_wins, self.o_wins + other.o_wins, self.draws + other.draws
        )

    def to_dict(self) -> dict[str, int]:
        return {"games": self.total, **record(self)}


@dataclass(frozen=True)
class LengthRow:
    """Games of one length: all of them, their classes under whole-game symmetry, and universal games."""

    length: int
    games: OutcomeCount
    classes: OutcomeCount
    universal: OutcomeCount | None

    def to_dict(self) -> dict[str, object]:
        return {
            "length": self.length,
            **self.games.to_dict(),
            "classes": self.classes.to_dict(),
            "universal": None if self.universal is None else self.universal.to_dict(),
        }


@dataclass(frozen=True)
class GameCount:
    """Every game of a board, by length and outcome, with whole-game classes and universal games."""

    geometry: Geometry
    by_length: tuple[LengthRow, ...]

    @property
    def games(self) -> OutcomeCount:
        return sum((row.games for row in self.by_length), OutcomeCount())

    @property
    def classes(self) -> OutcomeCount:
        return sum((row.classes for row in self.by_length), OutcomeCount())

    @property
    def universal(self) -> OutcomeCount | None:
        if any(row.universal is None for row in self.by_length):
            return None
        return sum(
            (row.universal for row in self.by_length if row.universal is not None), OutcomeCount()
        )

    def to_dict(self) -> dict[str, object]:
        games, universal = self.games, self.universal
        return {
            **self.geometry.board_keys(),
            "games": games.total,
            "x_wins": games.x_wins,
            "o_wins": games.o_wins,
            "draws": games.draws,
            "games_classes": self.classes.total,
            "universal_games": None if universal is None else universal.total,
            "classes": self.classes.to_dict(),
            "universal": None if universal is None else universal.to_dict(),
            "by_length": [row.to_dict() for row in self.by_length if row.games.total],
        }


GameMethod = Literal["auto", "lines", "pairs"]
GAME_METHODS: tuple[str, ...] = ("auto", "lines", "pairs")

#: ``auto`` counts games by inclusion–exclusion over lines up to this many lines (10×10 has 22).
AUTO_GAME_LINES = 22


def choose_game_method(geometry: Geometry, method: str = "auto") -> str:
    """The method a game count of this board uses: ``lines`` (few lines, any size) or ``pairs``
    (few cells); raises :class:`OutOfReachError` when neither reaches the board."""
    from oxo.counting.gamelines import MAX_GAME_LINES

    if method not in GAME_METHODS:
        raise GameCountError(
            f"unknown game counting method {method!r}; use one of {', '.join(GAME_METHODS)}"
        )
    lines, cells = len(geometry.lines), geometry.size
    if method == "auto":
        if lines <= AUTO_GAME_LINES:
            return "lines"
        if cells <= GAMES_MAX_CELLS:
            return "pairs"
    elif method == "lines" and lines <= MAX_GAME_LINES:
        return "lines"
    elif method == "pairs" and cells <= GAMES_MAX_CELLS:
        return "pairs"
    raise OutOfReachError(
        f"the games of {geometry.spec} ({cells} cells, {lines} lines) are out of reach: games are "
        f"counted on boards with at most {MAX_GAME_LINES} lines (inclusion-exclusion over lines, e.g. "
        f"n x n with k = n up to 10x10) or at most {GAMES_MAX_CELLS} cells (pair counting, e.g. 5x5 "
        f"k=4); try 'oxo count {geometry.spec_shape} --k {geometry.k}' for positions per move instead"
    )


def estimate_games(geometry: Geometry, method: str = "auto") -> Estimate:
    """Time and memory a game count is predicted to take (rough, from this machine's rates)."""
    from oxo.counting.budget import MiB
    from oxo.counting.gamelines import games_memory_estimate

    used = choose_game_method(geometry, method)
    universal = 0.0 if geometry.size > UNIVERSAL_MAX_CELLS else 2.0**geometry.size * 2e-6
    if used == "lines":
        lines = len(geometry.lines)
        seconds = 2.0**lines * (geometry.size + 1) * 3e-8 + universal
        return Estimate(seconds, 100 * MiB + games_memory_estimate(lines, geometry.size))
    subsets = sum(
        2 ** sum(1 for cell, image in enumerate(s.perm) if image == cell)
        for s in geometry.symmetries
    )
    return Estimate(3 * subsets * 1e-6 + universal, 400 * MiB)


def count_games(
    geometry: Geometry,
    *,
    universal: bool | None = None,
    method: str = "auto",
    on_progress: Callable[[float], None] | None = None,
) -> GameCount:
    """All games of a board by length and outcome, their classes under whole-game symmetry, and universal games.

    ``method`` is ``lines`` (inclusion–exclusion over sets of lines: boards with few lines, such as
    n×n with k = n up to 10×10), ``pairs`` (pair counting over sets of cells: at most
    :data:`GAMES_MAX_CELLS` cells) or ``auto``. ``universal=None`` counts universal games when the
    board has at most :data:`UNIVERSAL_MAX_CELLS` cells; ``True`` insists (and raises on larger
    boards), ``False`` leaves them out.
    """
    used = choose_game_method(geometry, method)
    if universal is None:
        universal = geometry.size <= UNIVERSAL_MAX_CELLS
    elif universal and geometry.size > UNIVERSAL_MAX_CELLS:
        raise OutOfReachError(
            f"universal games are counted on boards of at most {UNIVERSAL_MAX_CELLS} cells; "
            f"{geometry.spec} has {geometry.size}: leave out --universal"
        )
    symmetries = geometry.symmetries
    steps = len(symmetries) + (1 if universal else 0)
    report = on_progress or (lambda fraction: None)
    fixed_masks = [
        sum(1 << cell for cell, image in enumerate(symmetry.perm) if image == cell)
        for symmetry in symmetries
    ]
    burnside: list[list[OutcomeCount]]
    if used == "lines":
        from oxo.counting.gamelines import count_games_by_lines

        tables = count_games_by_lines(
            geometry.lines,
            geometry.full_mask,
            fixed_masks,
            on_progress=lambda f: report(f * len(symmetries) / steps),
        )
        burnside = [[OutcomeCount(*row) for row in table] for table in tables]
    else:
        burnside = []
        for done, mask in enumerate(fixed_masks, start=1):
            burnside.append(list(games_on_cells(geometry, mask)))
            report(done / steps)
    games = burnside[0]
    order = len(symmetries)
    classes = []
    for length in range(geometry.size + 1):
        sums = [
            sum(getattr(fixed[length], field) for fixed in burnside)
            for field in ("x_wins", "o_wins", "draws")
        ]
        if any(total % order for total in sums):
            raise AssertionError(
                f"Burnside's sums {sums} at length {length} are not divisible by {order}"
            )
        classes.append(OutcomeCount(*(total // order for total in sums)))
    paths: list[OutcomeCount] | None = None
    if universal:
        paths = count_paths(geometry, symmetries, on_progress=lambda f: report((order + f) / steps))
    report(1.0)
    rows = tuple(
        LengthRow(length, games[length], classes[length], None if paths is None else paths[length])
        for length in range(geometry.size + 1)
    )
    return GameCount(geometry, rows)


#: A game count was asked for with an unknown method (one of the kinds of error of :mod:`oxo.errors`).
GameCountError = OptionError


def games_on_cells(geometry: Geometry, cells: int) -> list[OutcomeCount]:
    """Games (by length) that play only the given cells, by pair counting; the board's lines and end rule apply.

    With every cell this is all the games; with the cells a symmetry fixes, the games it fixes.
    """
    from oxo.counting import SHARD_CELLS
    from oxo.counting.pairs import LinePredicates, count_pairs

    predicates = LinePredicates(geometry.lines, geometry.full_mask)
    blocks = [1 << cell for cell in range(geometry.size) if cells >> cell & 1]
    split = max(0, len(blocks) - SHARD_CELLS)
    x_last = count_pairs(blocks, predicates.last_moves, predicates.free, 1, split=split)
    o_last = count_pairs(blocks, predicates.free, predicates.last_moves, 0, split=split)
    full_board = cells == geometry.full_mask
    if full_board:
        filled = count_pairs(
            blocks, predicates.free, predicates.free, geometry.size % 2, split=split
        )
    out = []
    for length in range(geometry.size + 1):
        x_count, o_count = (length + 1) // 2, length // 2
        x_wins = o_wins = draws = 0
        if length % 2 == 1 and length < len(x_last):  # X made the last move
            x_wins = int(x_last[length]) * math.factorial(x_count - 1) * math.factorial(o_count)
        if length % 2 == 0 and 0 < length < len(o_last):
            o_wins = int(o_last[length]) * math.factorial(x_count) * math.factorial(o_count - 1)
        if full_board and length == geometry.size:
            draws = int(filled[length]) * math.factorial(x_count) * math.factorial(o_count)
        out.append(OutcomeCount(x_wins, o_wins, draws))
    return out


# -- counting paths level by level ------------------------------------------------------------------


def count_paths(
    geometry: Geometry,
    symmetries: Sequence[Symmetry] | None = None,
    *,
    children: Literal["orbits", "classes"] = "orbits",
    on_progress: Callable[[float], None] | None = None,
) -> list[OutcomeCount]:
    """Paths from the empty board to an end, by length and outcome, over positions up to ``symmetries``.

    Positions are kept one ply at a time as canonical keys with the number of paths reaching them.
    The moves out of a position are its legal moves up to the symmetries that fix it (``"orbits"``;
    with the full group these paths are the universal games, with the identity alone every game), or
    one move per distinct resulting class (``"classes"``; sequences of position classes). Exact in
    int64 up to :data:`UNIVERSAL_MAX_CELLS` cells.
    """
    if symmetries is None:
        symmetries = geometry.symmetries
    size, full = geometry.size, geometry.full_mask
    if size > UNIVERSAL_MAX_CELLS:
        raise GameCountError(
            f"counting paths position by position works on boards of at most {UNIVERSAL_MAX_CELLS} cells; "
            f"{geometry.spec} has {size}"
        )
    if children not in ("orbits", "classes"):
        raise GameCountError(f"unknown kind of children {children!r}; use orbits or classes")
    movers = [s for s in symmetries if not s.is_identity]
    tables = [_byte_tables(s, size) for s in movers]
    perms = [s.perm for s in movers]
    lines = np.array(geometry.lines, dtype=np.uint64)
    full64 = np.uint64(full)
    shift = np.uint64(size)

    def canonical(x: np.ndarray, o: np.ndarray) -> np.ndarray:
        best = x | (o << shift)
        for table in tables:
            np.minimum(best, _apply(table, x) | (_apply(table, o) << shift), out=best)
        return best

    def has_line(masks: np.ndarray) -> np.ndarray:
        found = np.zeros(masks.shape, dtype=bool)
        for line in lines:
            found |= (masks & line) == line
        return found

    keys = np.zeros(1, dtype=np.uint64)
    weights = np.ones(1, dtype=np.int64)
    out: list[OutcomeCount] = []
    for ply in range(size + 1):
        x, o = keys & full64, keys >> shift
        x_line, o_line = has_line(x), has_line(o)
        filled = (x | o) == full64
        draw = filled & ~x_line & ~o_line
        out.append(
            OutcomeCount(
                int(weights[x_line].sum()), int(weights[o_line].sum()), int(weights[draw].sum())
            )
        )
        live = ~(x_line | o_line | filled)
        if on_progress is not None:
            on_progress((ply + 1) / (size + 1))
        if not live.any():
            out.extend(OutcomeCount() for _ in range(ply + 1, size + 1))
            break
        x, o, weights = x[live], o[live], weights[live]
        taken = x | o
        fixes = (
            [(_apply(table, x) == x) & (_apply(table, o) == o) for table in tables]
            if children == "orbits"
            else []
        )
        columns: list[np.ndarray] = []
        column_weights: list[np.ndarray] = []
        parents: list[np.ndarray] = []
        for cell in range(size):
            bit = np.uint64(1 << cell)
            allowed = (taken & bit) == 0
            for perm, fixed in zip(perms, fixes):
                if (
                    perm[cell] < cell
                ):  # a cell with a smaller image under a fixing symmetry is not its orbit's first
                    allowed &= ~fixed
            rows = np.flatnonzero(allowed)
            if ply % 2 == 0:
                child = canonical(x[rows] | bit, o[rows])
            else:
                child = canonical(x[rows], o[rows] | bit)
            columns.append(child)
            column_weights.append(weights[rows])
            parents.append(rows)
        child_keys = np.concatenate(columns)
        child_weights = np.concatenate(column_weights)
        if children == "classes":
            # One move per distinct resulting class and parent: drop repeated (parent, class) pairs.
            parent = np.concatenate(parents).astype(np.uint64)
            pair = np.stack([parent, child_keys], axis=1)
            _, first = np.unique(pair, axis=0, return_index=True)
            child_keys, child_weights = child_keys[first], child_weights[first]
        order = np.argsort(child_keys, kind="stable")
        sorted_keys = child_keys[order]
        starts = np.flatnonzero(np.concatenate(([True], sorted_keys[1:] != sorted_keys[:-1])))
        keys = sorted_keys[starts]
        weights = np.add.reduceat(child_weights[order], starts)
    return out


def _byte_tables(symmetry: Symmetry, size: int) -> list[np.ndarray]:
    """For each group of 8 cells, the image of each of its 256 subsets under the symmetry."""
    tables = []
    for base in range(0, size, 8):
        table = np.zeros(256, dtype=np.uint64)
        for subset in range(1, 256):
            image = 0
            for offset in range(8):
                if subset >> offset & 1 and base + offset < size:
                    image |= 1 << symmetry.perm[base + offset]
            table[subset] = image
        tables.append(table)
    return tables


def _apply(tables: list[np.ndarray], masks: np.ndarray) -> np.ndarray:
    image = np.zeros(masks.shape, dtype=np.uint64)
    for index, table in enumerate(tables):
        image |= table[((masks >> np.uint64(8 * index)) & np.uint64(0xFF)).astype(np.intp)]
    return image
