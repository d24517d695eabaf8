"""The universal notation of seed 000: moves named from the taken cells' point of view.

Seed 000 observes that transforming only part of a game (a symmetry applied from some move on) can
be meaningful, and that cell IDs cannot show it. Its remedy, made precise here:

* **Point-of-view letters.** Each kind of cell looks at the board under a symmetry that fixes it:
  the center under the 90° rotation, a middle cell under the reflection in the 0° mirror line, a
  corner under the reflection in the 45° mirror line. The cells it cannot tell apart get one letter;
  letters are never reused between views. In general (any board) the view of a cell is the set of
  orbits of the other cells under the cell's stabilizer, which on 3×3 is exactly the seed's
  symmetry; the view of every other cell of the same kind is carried over by a symmetry (the seed's
  "rotated to match"), which gives the same letters whichever symmetry is used.
* **Universal move.** A move is named by the letters each taken cell gives it: X's cells' letters
  in capitals, O's cells' in lower case, each sorted (the seed's "combining the information given
  by each cell"); the first move, with no taken cell, by its cell kind (``corner``). The letters
  depend only on the position and the move up to symmetry. Where two moves that are not equivalent
  under the position's stabilizer get the same letters (the seed's scheme is ambiguous there; see
  :func:`seed_ambiguities`), the one whose image on the canonical board is the later cell gets a
  prime ``'``. So names are equal exactly when the moves are the same up to symmetry.
* **Universal game.** The sequence of universal moves. Two games have the same universal form
  exactly when, ply by ply, their positions are equivalent (checked exhaustively in the tests), so
  transforming any part of a game by a symmetry of the position where that part starts
  (:meth:`oxo.games.Game.transform_from`) leaves it unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from oxo.errors import MoveError
from oxo.games import Game
from oxo.geometry import Geometry
from oxo.position import Player, Position
from oxo.records import attributes

#: The symmetry seed 000 gives each kind of cell to look at the board with, in order of preference:
#: a kind of cell takes the first of these that fixes one of its cells, and its least such cell.
SEED_VIEW_SYMMETRIES: tuple[str, ...] = ("rot90", "mirror0", "mirror45")

PRIME = "'"


def letter_name(index: int) -> str:
    """Letters for views: A..Z, then AA, AB, ... (like spreadsheet columns)."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


@dataclass(frozen=True)
class View:
    """How one kind of cell sees the others: one letter per class of cells it cannot tell apart.

    ``cell`` is the cell the letters are given for; ``symmetry`` is the seed's symmetry for this kind
    of cell when one of them fixes ``cell`` (else ``None``); ``group`` lists the symmetries fixing
    ``cell``, whose orbits are the letters; ``letters[c]`` is cell c's letter (``""`` for ``cell``).
    """

    geometry: Geometry
    cell_class: str
    cell: int
    symmetry: str | None
    group: tuple[str, ...]
    letters: tuple[str, ...]

    @property
    def classes(self) -> tuple[tuple[str, tuple[int, ...]], ...]:
        """Each letter with the cells it names, in letter order."""
        seen: dict[str, list[int]] = {}
        for cell, letter in enumerate(self.letters):
            if letter:
                seen.setdefault(letter, []).append(cell)
        return tuple((letter, tuple(cells)) for letter, cells in seen.items())

    def to_grid(self, viewer: str = "*") -> str:
        """The letters as a text grid, the viewing cell marked ``*``."""
        width = max(len(letter) for letter in self.letters)
        cells = [(letter or viewer).rjust(width) for letter in self.letters]
        cols = self.geometry.shape[-1]
        rows_per_layer = self.geometry.shape[-2]
        lines = []
        for row, start in enumerate(range(0, self.geometry.size, cols)):
            if row and row % rows_per_layer == 0:
                lines.append("")
            lines.append(" ".join(cells[start : start + cols]))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, object]:
        return {
            **attributes(self, "cell_class cell symmetry"),
            "group": list(self.group),
            "letters": [{"letter": letter, "cells": list(cells)} for letter, cells in self.classes],
        }


@lru_cache(maxsize=32)
def views(geometry: Geometry) -> tuple[View, ...]:
    """The point-of-view letters of every kind of cell, derived from the geometry (center first, then outwards)."""
    symmetries = geometry.symmetries
    named = {symmetry.name: symmetry for symmetry in symmetries}
    chosen = []
    for cell_class in geometry.cell_classes:
        cell, seed_symmetry = cell_class.cells[0], None
        for name in SEED_VIEW_SYMMETRIES:
            symmetry = named.get(name)
            fixed = [c for c in cell_class.cells if symmetry is not None and symmetry.perm[c] == c]
            if fixed:
                cell, seed_symmetry = fixed[0], name
                break
        chosen.append((_distance_from_centre(geometry, cell), cell_class.name, cell, seed_symmetry))
    chosen.sort(key=lambda item: item[0])
    out = []
    next_letter = 0
    for _, class_name, cell, seed_symmetry in chosen:
        group = [symmetry for symmetry in symmetries if symmetry.perm[cell] == cell]
        letters = [""] * geometry.size
        for other in range(geometry.size):
            if other == cell or letters[other]:
                continue
            name = letter_name(next_letter)
            next_letter += 1
            for symmetry in group:
                letters[symmetry.perm[other]] = name
        out.append(
            View(
                geometry,
                class_name,
                cell,
                seed_symmetry,
                tuple(s.name for s in group),
                tuple(letters),
            )
        )
    return tuple(out)


@lru_cache(maxsize=32)
def _letter_table(geometry: Geometry) -> tuple[tuple[str, ...], ...]:
    """``table[viewer][cell]``: the letter ``viewer`` gives ``cell``, for every pair of cells."""
    table: list[tuple[str, ...] | None] = [None] * geometry.size
    for view in views(geometry):
        for symmetry in geometry.symmetries:
            viewer = symmetry.perm[view.cell]
            if table[viewer] is None:
                moved = [""] * geometry.size
                for cell, letter in enumerate(view.letters):
                    moved[symmetry.perm[cell]] = letter
                table[viewer] = tuple(moved)
    return tuple(row for row in table if row is not None)


def letter(geometry: Geometry, viewer: int, cell: int) -> str:
    """The letter the cell ``viewer`` gives the cell ``cell`` (the same whichever symmetry carries the view over)."""
    for value in (viewer, cell):
        if not 0 <= value < geometry.size:
            raise MoveError(
                f"cell {value} is not on a {geometry.spec_shape} board: cells are 0..{geometry.size - 1}"
            )
    if viewer == cell:
        raise MoveError(f"a cell has no letter for itself (cell {cell})")
    return _letter_table(geometry)[viewer][cell]


# -- universal moves --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Report:
    """What one taken cell says about a move: its owner and the letter it gives the move's cell."""

    cell: int
    owner: Player
    letter: str


@dataclass(frozen=True)
class UniversalMove:
    """A move named independently of symmetry.

    ``token`` is the universal name; ``seed_name`` the letters alone (the seed's combination);
    ``rank`` how many primes were needed because other inequivalent moves share those letters
    (``alternatives`` counts them, this one included); ``orbit`` the cells equivalent to the move in
    this position; ``canonical_cell`` the move's least image on the canonical board.
    """

    cell: int
    token: str
    seed_name: str
    reports: tuple[Report, ...]
    rank: int
    alternatives: int
    orbit: tuple[int, ...]
    canonical_cell: int

    @property
    def seed_is_ambiguous(self) -> bool:
        return self.alternatives > 1


def universal_move(position: Position, cell: int) -> UniversalMove:
    """The universal name of playing ``cell`` in ``position``."""
    for move in _position_moves(position):
        if move.cell == cell:
            return move
    if position.to_move is None:
        raise MoveError(
            f"no move can be played in {position.to_status_string()}: the game is over or impossible"
        )
    raise MoveError(
        f"cell {cell} cannot be played in {position.to_status_string()}: legal cells are {list(position.legal_moves)}"
    )


def universal_moves(position: Position) -> tuple[UniversalMove, ...]:
    """Every legal move of the position with its universal name, by cell."""
    return _position_moves(position)


def universal_game(game: Game) -> tuple[UniversalMove, ...]:
    """The game's moves named universally, one per ply."""
    return tuple(
        universal_move(position, move) for position, move in zip(game.positions, game.moves)
    )


def universal_form(game: Game) -> tuple[str, ...]:
    """The game's universal form: the tokens of its moves."""
    return tuple(move.token for move in universal_game(game))


def format_universal(tokens: tuple[str, ...] | list[str]) -> str:
    """A universal form as text: tokens separated by spaces."""
    return " ".join(tokens)


def parse_universal(text: str, geometry: Geometry) -> Game:
    """A game with the given universal form (the one that always plays the least cell of the named move)."""
    if not isinstance(text, str) or not text.strip():  # untyped callers may pass anything
        raise MoveError(
            "empty universal game: write tokens separated by spaces, e.g. 'corner K Ha'"
        )
    position = Position.empty(geometry)
    moves = []
    for index, token in enumerate(text.split(), start=1):
        options = _position_moves(position)
        if not options:
            raise MoveError(f"universal move {index} {token!r} comes after the end of the game")
        matches = [move.cell for move in options if move.token == token]
        if not matches:
            known = " ".join(sorted({move.token for move in options}))
            raise MoveError(
                f"universal move {index} {token!r} is not a move of position {position.to_status_string()}; moves there: {known}"
            )
        moves.append(min(matches))
        position = position.play(moves[-1])
    return Game(geometry, tuple(moves))


@lru_cache(maxsize=1 << 16)
def _position_moves(position: Position) -> tuple[UniversalMove, ...]:
    if position.to_move is None:
        return ()
    geometry = position.geometry
    table = _letter_table(geometry)
    stabilizer = position.stabilizer
    canonical = position.canonical
    to_canonical = [symmetry for symmetry, image in position.transforms() if image == canonical]
    taken: list[tuple[int, Player]] = [
        (cell, "x" if position.x >> cell & 1 else "o")
        for cell in range(geometry.size)
        if (position.x | position.o) >> cell & 1
    ]
    drafts = []
    for cell in position.legal_moves:
        orbit = tuple(sorted({symmetry.perm[cell] for symmetry in stabilizer}))
        canonical_cell = min(symmetry.perm[cell] for symmetry in to_canonical)
        reports = tuple(Report(t, owner, table[t][cell]) for t, owner in taken)
        seed_name = _seed_name(reports) if reports else geometry.cell_class_of(cell).name
        drafts.append((cell, seed_name, reports, orbit, canonical_cell))
    # Inequivalent moves sharing a seed name, ordered by their cell on the canonical board.
    sharing: dict[str, list[int]] = {}
    for _, seed_name, _, _, canonical_cell in drafts:
        cells = sharing.setdefault(seed_name, [])
        if canonical_cell not in cells:
            cells.append(canonical_cell)
    out = []
    for cell, seed_name, reports, orbit, canonical_cell in drafts:
        ranked = sorted(sharing[seed_name])
        rank = ranked.index(canonical_cell)
        out.append(
            UniversalMove(
                cell,
                seed_name + PRIME * rank,
                seed_name,
                reports,
                rank,
                len(ranked),
                orbit,
                canonical_cell,
            )
        )
    return tuple(out)


def _seed_name(reports: tuple[Report, ...]) -> str:
    order = lambda name: (len(name), name)  # noqa: E731
    x_letters = sorted((r.letter for r in reports if r.owner == "x"), key=order)
    o_letters = sorted((r.letter.lower() for r in reports if r.owner == "o"), key=order)
    parts = x_letters + o_letters
    return "".join(parts) if all(len(part) == 1 for part in parts) else ".".join(parts)


def _distance_from_centre(geometry: Geometry, cell: int) -> int:
    coords = geometry.coords(cell)
    return sum((2 * c - (side - 1)) ** 2 for c, side in zip(coords, geometry.shape, strict=True))


# -- where the seed's letters alone are not enough ------------------------------------------------------


@dataclass(frozen=True)
class SeedAmbiguity:
    """How often the seed's combination of letters fails to tell inequivalent moves apart.

    ``positions``: reachable positions with a move to make, up to symmetry; ``ambiguous``: those in
    which two inequivalent moves get the same letters; ``moves``: the inequivalent moves involved;
    ``example``: the first such position found (fewest marks first), if any.
    """

    geometry: Geometry
    positions: int
    ambiguous: int
    moves: int
    example: Position | None

    def to_dict(self) -> dict[str, object]:
        return {
            **attributes(self, "positions ambiguous moves"),
            "example": None if self.example is None else self.example.to_status_string(),
        }


def seed_ambiguities(geometry: Geometry) -> SeedAmbiguity:
    """Go through every reachable position up to symmetry and find where the letters alone are ambiguous."""
    level = {Position.empty(geometry)}
    positions = ambiguous = moves = 0
    example = None
    while level:
        following = set()
        for position in sorted(level, key=Position.to_status_string):
            named = _position_moves(position)
            if not named:
                continue
            positions += 1
            clashing = {
                (move.seed_name, move.canonical_cell) for move in named if move.alternatives > 1
            }
            if clashing:
                ambiguous += 1
                moves += len(clashing)
                example = example or position
            for move in named:
                if move.cell == move.orbit[0]:
                    following.add(position.play(move.cell).canonical)
        level = following
    return SeedAmbiguity(geometry, positions, ambiguous, moves, example)
