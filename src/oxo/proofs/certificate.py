"""Strategy certificates: a file that proves a side wins (or does not lose) a board, and a checker for it.

The format (``oxo-strategy/1``) is meant to be checked by tools outside oxo too. A certificate is
gzip-compressed UTF-8 JSON lines. Line 1 is the header::

    {"format": "oxo-strategy/1", "board": "5x5", "dims": [5, 5], "k": 4, "side": "x", "guarantee": "win"}

``board`` is the shape (``"5x5"``, ``"3x3x3"``, ``"4x4x4x4"``), ``dims`` the same as a list (2 to 5
sides), ``k`` how many marks in a row win, ``side`` whose strategy this is (``"x"`` moves first,
``"o"`` second) and ``guarantee`` ``"win"`` (every game ends with a line of ``side``) or
``"no-loss"`` (no game ends with a line of the opponent). A player may mark any empty cell, unless
the header holds ``"gravity": true`` (see *Gravity* below). Three more keys are optional, ``rules``
and ``symmetries`` (below; a header with gravity holds neither) and ``start`` (*Start* below); other
header keys are ignored.
Every other line is one entry:

* ``{"position": "<status string>", "move": <cell>}``: the move ``side`` plays in that position,
  where ``side`` is to move. A status string has one ``0`` (empty), ``1`` (X) or ``2`` (O) per cell
  in reading order (layer by layer, rows top to bottom, cells left to right); cells are numbered
  the same way from 0.
* ``{"position": "<status string>", "pairing": [[a, b], ...]}`` (``no-loss`` only), at a position
  where the opponent is to move: from there ``side`` answers every opponent move in a pair with the
  other cell of the pair. It holds when the pairs are disjoint, the cells of every pair are empty
  and every line without a mark of ``side`` contains both cells of some pair: the opponent can then
  never fill such a line, and a line holding a mark of ``side`` is lost to the opponent for good.

A position may be written in any orientation (its move or pairs in the same orientation): the
checker looks entries up by their class under the board's symmetries. Blank lines are skipped.

The checker (:func:`verify_certificate`) walks from the empty board, plays ``side``'s moves and
*every* reply of the opponent, and accepts a node when:

* the game is over: ``side`` has a line (either guarantee); the board is full without a line of the
  opponent (``no-loss``). A line of the opponent fails, as does a full board without a line of
  ``side`` for ``win``;
* (``no-loss``) every line holds a mark of ``side``: the opponent can no longer make a line;
* ``side`` is to move and can complete a line at once (no entry needed: the checker plays it), or
  one of the moves the certificate gives for the position's class is an empty cell whose child is
  accepted (a class given more than once is accepted when one of its moves works); a class without
  an entry fails as a *missing position*;
* the opponent is to move and a pairing given for the class holds, or else every empty cell is a
  reply whose child is accepted.

A node's result depends only on its position, so results are memoised by class. A won value of a
board needs one ``win`` certificate; a draw needs two ``no-loss`` certificates, one per side.

**Start** (optional). ``"start": "<status string>"`` makes the certificate a proof about that
position rather than the board: ``side`` wins (or does not lose) the game that goes on from it. The
walk begins at the start position instead of the empty board (in a sectioned file, the walk of
section 0; see *Sections*), and everything else above holds as written. The header is malformed
unless the position can occur in a game that is not over: X has as many marks as O or one more
(X is to move when they are equal), neither side has a line, an empty cell is left, and, with
gravity, no mark floats above an empty cell. A checker that does not know the key walks from the
empty board, where such a file has no entry, and refuses it: it never accepts what the full
reading refuses.

The board's *lines* are every run of ``k`` cells in a straight line along a row, a column, a layer's
pillar or any diagonal (steps of -1, 0 or 1 along each axis, not all 0). Its *symmetries* are the
maps that permute axes of equal length and mirror any axes (``c -> n - 1 - c``): the 8 of a square,
the 4 of an oblong rectangle, the 48 of a cube, the 384 of a 4x4x4x4 hypercube (2^d d! on a cube of d
sides). Two positions are in one *class* when a symmetry
carries one onto the other.

**Gravity** (optional; ``"gravity": true``, as on ``4x4x4`` for Score Four). The cells are stacked in
*columns* along the first axis: the cell under cell c is c + C, where C = dims[1] x ... x
dims[-1] (the cells of one layer), and the last C cells in reading order (the last layer) are the
bottom of the columns. A mark may go only to the lowest empty cell of a column: an empty cell
that is on the bottom layer or whose cell under it is taken. That is what *empty cell* means
above, wherever a move is made: the side's moves must be such cells (a move to another cell fails
the check), the opponent's replies are every such cell, and the side completes a line at once
only through such a cell. The symmetries are those of the box that leave every cell at its height
(the first coordinate unchanged): the 8 of Score Four's square base. Pairings are not allowed: a
partner cell need not be one a mark may go to. A position whose marks float above an empty cell
cannot occur: a root such as a section's must have none.

**Sections** (optional; written by long split runs, see :mod:`oxo.proofs.runs`). The header may
hold ``"sections": [[null, n0], ["<status string>", n1], ...]``: the entries, in file order, fall
into consecutive sections of n0, n1, ... entries (the counts add up to the number of entries). A
checker that ignores the key reads the file as above. A checker may instead check a sectioned
file in pieces, holding one section in memory at a time:

* section 0 (root ``null``) is walked from the empty board (or the header's ``start``) with its
  own entries only, and a position of the class of another section's root is not searched further:
  it stands for that section;
* each other section whose root the first walk reached is walked from its root (checked in full:
  no line of the opponent already, legal mark counts) with its own entries only;
* the certificate holds when the first walk accepts and every section it reached accepts.

What this accepts, the whole reading accepts too (a walk with fewer entries accepts less), so the
pieces are never a weaker check. oxo writes every section as a complete strategy from its root,
so both readings agree on its files. (One difference: a broken section the first walk reaches fails
the check in pieces even where another section happens to cover the same positions.)

**Rules** (optional). The header may hold ``"rules": {"block": true, "chain": D}`` (either key
may be left out; ``"block": false`` and ``"chain": 0`` turn a rule off). A key other than these two
makes the header malformed: a checker must not guess what a rule it does not know allows. With
rules, the side's move is left out of the entries where a rule gives it. A *threat* of a player is
an empty cell c such that some line holds k - 1 marks of that player and c: marking c completes the
line. Where ``side`` is to move and the game is not over (as above: no line, the board not full,
and for ``no-loss`` some line without a mark of ``side``), the first of these that applies decides:

1. (always on, as without rules) ``side`` has a threat: accepted (it completes the line);
2. (``block``) the opponent has a threat: with two or more threat cells the position fails (the
   opponent completes a line whatever ``side`` does); with exactly one, ``side`` marks it and the
   position is accepted when the position after that move is;
3. (``chain``) ``side`` has a *forced chain of at most D moves* (below): accepted;
4. the entries: as without rules (a class without an entry fails as a *missing position*).

The rules come before the position is looked up, so an entry for a position a rule decides is
never used. ``side``, S, to move with no threat of its own, has a **forced chain of at most d
moves** against the opponent T when d >= 1 and

* T has at most one threat, and
* some *candidate* m (T's threat if T has one, else any empty cell) leaves S, once m is marked,
  either two threat cells or more, or exactly one threat cell n such that d >= 2 and S has a forced
  chain of at most d - 1 moves in the position where T has also marked n.

Why rule 3 may accept without walking on: if S has a forced chain of at most d moves, S wins
against every defence by marking, at each turn, a candidate as in the definition. After m, T has
no threat (its only one, if any, was m), so no reply of T completes a line of T's. With two threat
cells, T's reply leaves one, which S completes. With one, n, every reply but n leaves it to S; after
n, S has no threat (n was its only one) and a forced chain of at most d - 1 moves, and the same
argument goes on with one move fewer; a chain of one move ends with two threats.

The verdict does not depend on any order of cells: rule 3 asks whether a chain exists, a yes or no
that any search trying every candidate to the bound answers alike, and rules 1 and 2 give one move
each; so two checkers that follow this description reach the same verdict on every file. The
definitions use nothing but the lines, so positions of one class get one verdict. Which cell a
player marks where rule 3 applies is the player's choice; oxo's (:func:`oxo.proofs.rules.rule_move`)
is the least cell that is a candidate as in the definition, and a player that applies the rules
again at its next turn keeps winning (after T's block rule 2 or 3 applies again: the position has a
chain of at most d - 1 moves, so of at most D).

**Symmetries** (optional). ``"symmetries": [[p0, p1, ...], ...]`` lists permutations of the cells
(``p[c]`` is the image of cell c), each of which must carry every line onto a line (else the header
is malformed). Two positions are then in one class when a permutation of the group generated by the
board's own symmetries and these carries one onto the other (the checker closes the set under
composition; a group of more than 10,000 permutations makes the header malformed). A permutation
that carries lines onto lines carries the game onto itself, so positions of one class have the same
verdict. On Qubic (4x4x4, k = 4) two permutations bring the 48 rotations and reflections to 192:
one turns the cube inside out (it exchanges the values 0 and 1, and 2 and 3, of every coordinate at
once), the other exchanges the values 1 and 2 of every coordinate.

A checker that knows neither key reads such a file as a certificate without rules and with the
board's own symmetries: it finds positions without entries and refuses it; it never accepts a file
the full reading refuses (a rule only ever gives a move that every other move of the side loses
to, or settles a position the side wins).

The checker uses nothing from oxo but the board's lines and symmetries (:class:`oxo.geometry.Geometry`)
and the rules (:mod:`oxo.proofs.rules`; with the chain rule, on boards of more than 32 cells, its chain
search and classes are their compiled twins in :mod:`oxo.proofs.chainkernel`, held to the plain
ones in the tests); ``tools/check_strategy.py`` in oxo's source is a checker
that uses nothing from oxo at all.
"""

from __future__ import annotations

import gzip
import json
import os
import sys
import zlib
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, BinaryIO, Literal, TypeGuard

from oxo.errors import (
    CertificateEntryError,
    CertificateFileError,
    CertificateHeaderError,
    CertificateSyntaxError,
    OxoError,
)
from oxo.fileio import atomic_writer
from oxo.geometry import Geometry, LineCounts, Symmetry, mask_cells
from oxo.phrases import listing
from oxo.proofs.rules import ChainSearch, Rules
from oxo.records import Record, attributes

if TYPE_CHECKING:
    from oxo.proofs.chainkernel import CompiledChainSearch, CompiledClasses

FORMAT = "oxo-strategy/1"
#: About how many positions the checker checks per second on this project's machine (2 cores, AMD
#: EPYC; Qubic's 17.3 million in about 50 minutes, docs/big-proofs.md): for estimates.
CHECK_RATE = 5000.0
#: The most symmetries a header's ``symmetries`` may generate with the board's own.
MAX_GROUP = 10_000
SIDES = ("x", "o")
GUARANTEES = ("win", "no-loss")

Side = Literal["x", "o"]
Guarantee = Literal["win", "no-loss"]


# -- the data --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class StrategyHeader:
    """The first line of a certificate: the board (``dims`` and ``k``), whose strategy, what it guarantees."""

    dims: tuple[int, ...]
    k: int
    side: Side
    guarantee: Guarantee
    geometry: Geometry = field(init=False, repr=False, compare=False)
    #: The sections of a certificate written in pieces: (root status string, or None for the walk
    #: from the empty board, then the number of entries), in file order; None for a plain file.
    sections: tuple[tuple[str | None, int], ...] | None = None
    #: The rules that give the side's moves left out of the entries (:mod:`oxo.proofs.rules`).
    rules: Rules = Rules()
    #: Symmetries beyond the board's own, as cell permutations (``perm[c]`` is the image of cell
    #: c), each carrying lines onto lines; None when the header names none.
    symmetries: tuple[tuple[int, ...], ...] | None = None
    #: Marks drop to the lowest empty cell of their column (columns along the first axis).
    gravity: bool = False
    #: The position the walk begins at (a status string; None: the empty board): the certificate
    #: proves its claim about the game from there.
    start: str | None = None

    def __post_init__(self) -> None:
        dims = self.dims
        if (
            not isinstance(dims, (tuple, list))
            or not 2 <= len(dims) <= 5
            or not all(_is_int(side) and side >= 1 for side in dims)
        ):
            raise CertificateHeaderError(
                f"dims must be a list of 2 to 5 positive integers, got {dims!r}"
            )
        object.__setattr__(self, "dims", tuple(dims))
        if not _is_int(self.k):
            raise CertificateHeaderError(f"k must be an integer, got {self.k!r}")
        if self.side not in SIDES:
            raise CertificateHeaderError(f'side must be "x" or "o", got {self.side!r}')
        if self.guarantee not in GUARANTEES:
            raise CertificateHeaderError(
                f'guarantee must be "win" or "no-loss", got {self.guarantee!r}'
            )
        if not isinstance(self.gravity, bool):
            raise CertificateHeaderError(f"gravity must be true or false, got {self.gravity!r}")
        try:
            geometry = Geometry(self.dims, self.k, self.gravity)
        except OxoError as error:
            raise CertificateHeaderError(f"not a board: {error}") from None
        object.__setattr__(self, "geometry", geometry)
        if self.sections is not None:
            object.__setattr__(self, "sections", self._checked_sections(self.sections))
        if not isinstance(self.rules, Rules):
            raise CertificateHeaderError(f"rules must be a Rules value, got {self.rules!r}")
        if self.symmetries is not None:
            object.__setattr__(self, "symmetries", self._checked_symmetries(self.symmetries))
        if self.gravity and (self.rules.any or self.symmetries is not None):
            raise CertificateHeaderError(
                "rules and symmetries are not defined on a board with gravity"
            )
        if self.start is not None:
            self._check_start(self.start)

    def _check_start(self, start: object) -> None:
        """The header's ``start``, checked: a position of a game that is not over."""
        try:
            x, o = _checked_position(start, self, "the start")
        except CertificateEntryError as error:
            raise CertificateHeaderError(str(error)) from None
        geometry = self.geometry  # the mark counts are checked with the status string
        for mark, marks in (("X", x), ("O", o)):
            line = next((line for line in geometry.lines if marks & line == line), None)
            if line is not None:
                cells = "-".join(map(str, mask_cells(line)))
                raise CertificateHeaderError(
                    f"the start is a finished game: {mark} has the line {cells}"
                )
        if x | o == geometry.full_mask:
            raise CertificateHeaderError("the start is a finished game: the board is full")
        if geometry.floating(x | o):
            raise CertificateHeaderError(
                "the start cannot occur: a mark floats above an empty cell"
            )

    @property
    def start_masks(self) -> tuple[int, int]:
        """X's and O's cells (bitmasks) at the position the walk begins at."""
        return (0, 0) if self.start is None else status_masks(self.start)

    def _checked_symmetries(self, symmetries: object) -> tuple[tuple[int, ...], ...]:
        """The header's ``symmetries``, checked: permutations of the cells carrying lines onto lines."""
        size = self.geometry.size
        if not isinstance(symmetries, (list, tuple)):
            raise CertificateHeaderError(
                f"symmetries must be a list of permutations of the {size} cells"
            )
        lines = set(self.geometry.lines)
        out = []
        for number, perm in enumerate(symmetries):
            if (
                not isinstance(perm, (list, tuple))
                or len(perm) != size
                or not all(_is_int(cell) for cell in perm)
                or sorted(perm) != list(range(size))
            ):
                raise CertificateHeaderError(
                    f"symmetry {number} is not a permutation of the cells 0..{size - 1}"
                )
            images = {_image(perm, line) for line in lines}
            if images != lines:
                line = next(line for line in sorted(lines) if _image(perm, line) not in lines)
                cells = "-".join(map(str, mask_cells(line)))
                raise CertificateHeaderError(
                    f"symmetry {number} does not carry lines onto lines: the line {cells} goes "
                    f"to cells {'-'.join(map(str, mask_cells(_image(perm, line))))}"
                )
            out.append(tuple(perm))
        return tuple(out)

    @cached_property
    def group(self) -> tuple[Symmetry, ...]:
        """The symmetries that make two positions one class: the board's own (the identity first)
        and, with ``symmetries`` in the header, the group they generate with them."""
        own = self.geometry.symmetries
        if not self.symmetries:
            return own
        perms = [symmetry.perm for symmetry in own]
        seen = set(perms)
        generators = list(self.symmetries) + perms
        index = 0
        while index < len(perms):  # closure: every product of a known element and a generator
            for generator in generators:
                product = tuple(generator[cell] for cell in perms[index])
                if product not in seen:
                    if len(perms) >= MAX_GROUP:
                        raise CertificateHeaderError(
                            f"the symmetries generate more than {MAX_GROUP:,} permutations"
                        )
                    seen.add(product)
                    perms.append(product)
            index += 1
        return own + tuple(
            Symmetry(f"s{number}", perm) for number, perm in enumerate(perms) if number >= len(own)
        )

    def _checked_sections(self, sections: object) -> tuple[tuple[str | None, int], ...]:
        """The ``sections`` of the header, checked: pairs of a root and a count, the first root null."""
        if not isinstance(sections, (list, tuple)) or not sections:
            raise CertificateHeaderError(
                "sections must be a non-empty list of [root, number of entries] pairs"
            )
        out: list[tuple[str | None, int]] = []
        for number, item in enumerate(sections):
            if not isinstance(item, (list, tuple)) or len(item) != 2:
                raise CertificateHeaderError(
                    f"section {number} must be a pair [root, number of entries], got {item!r}"
                )
            root, count = item
            if not _is_int(count) or count < 0:
                raise CertificateHeaderError(
                    f"section {number}: the number of entries must be a whole number, got {count!r}"
                )
            if number == 0:
                if root is not None:
                    raise CertificateHeaderError(
                        "section 0 is the walk from the empty board (or the start): its root "
                        "must be null"
                    )
            else:
                try:
                    _checked_position(root, self, f"section {number}'s root")
                except CertificateEntryError as error:
                    raise CertificateHeaderError(str(error)) from None
            out.append((root, count))
        return tuple(out)

    @classmethod
    def for_board(
        cls,
        board: str | Geometry,
        side: Side,
        guarantee: Guarantee,
        rules: Rules | None = None,
        symmetries: Sequence[Sequence[int]] | None = None,
    ) -> StrategyHeader:
        """The header for a board given as a geometry or a spec such as ``"5x5,k=4"``, with rules
        and symmetries beyond the board's own when given."""
        geometry = board if isinstance(board, Geometry) else Geometry.parse(board)
        extra = None if symmetries is None else tuple(tuple(perm) for perm in symmetries)
        return cls(
            geometry.shape,
            geometry.k,
            side,
            guarantee,
            None,
            rules or Rules(),
            extra,
            geometry.gravity,
        )

    @property
    def board(self) -> str:
        """The shape as in the header: ``"5x5"``, ``"3x3x3"``."""
        return "x".join(str(side) for side in self.dims)

    @property
    def opponent(self) -> Side:
        return "o" if self.side == "x" else "x"

    def to_dict(self) -> dict[str, object]:
        return {
            "format": FORMAT,
            "board": self.board,
            "dims": list(self.dims),
            "k": self.k,
            "side": self.side,
            "guarantee": self.guarantee,
            **({} if self.sections is None else {"sections": [list(s) for s in self.sections]}),
            **({"rules": self.rules.to_dict()} if self.rules.any else {}),
            **(
                {}
                if self.symmetries is None
                else {"symmetries": [list(perm) for perm in self.symmetries]}
            ),
            **({"gravity": True} if self.gravity else {}),
            **({} if self.start is None else {"start": self.start}),
        }

    @classmethod
    def from_dict(cls, data: object) -> StrategyHeader:
        """Read a header line (already parsed from JSON); raises :class:`CertificateHeaderError`."""
        if not isinstance(data, dict):
            raise CertificateHeaderError("the first line must be the header, a JSON object")
        if data.get("format") != FORMAT:
            found = data.get("format")
            shown = "no format" if found is None else f"format {found!r}"
            raise CertificateHeaderError(f"not an {FORMAT} certificate: the header has {shown}")
        missing = [key for key in ("board", "dims", "k", "side", "guarantee") if key not in data]
        if missing:
            raise CertificateHeaderError(f"the header lacks {', '.join(missing)}")
        rules = Rules.from_dict(data["rules"]) if "rules" in data else Rules()
        header = cls(
            data["dims"],
            data["k"],
            data["side"],
            data["guarantee"],
            data.get("sections"),
            rules,
            data.get("symmetries"),
            data.get("gravity", False),
            data.get("start"),
        )
        if data["board"] != header.board:
            raise CertificateHeaderError(
                f"board {data['board']!r} does not match dims {list(header.dims)} (expected {header.board!r})"
            )
        return header


@dataclass(frozen=True, slots=True)
class MoveEntry(Record):
    """``side`` plays ``move`` in ``position`` (a status string, ``side`` to move)."""

    position: str
    move: int


@dataclass(frozen=True, slots=True)
class PairingEntry:
    """From ``position`` (a status string, the opponent to move) ``side`` answers by the pairs."""

    position: str
    pairing: tuple[tuple[int, int], ...]

    def to_dict(self) -> dict[str, object]:
        return {"position": self.position, "pairing": [list(pair) for pair in self.pairing]}


Entry = MoveEntry | PairingEntry


@dataclass(frozen=True)
class Certificate:
    """A whole certificate in memory: the header and the entries in file order."""

    header: StrategyHeader
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class VerifyResult:
    """The checker's verdict on a certificate.

    ``failure`` says why the first failing position fails and ``failure_position`` is that position
    (a status string, in the orientation the walk from the empty board reached it), ``failure_path``
    the cells played from the empty board to reach it. ``positions_checked`` counts the classes of
    positions the walk visited (summed over the sections of a sectioned file, where a class met in
    two sections counts twice), ``strategy_moves`` those where the side played a move the
    certificate gives (not counting the moves that complete a line at once), and ``sections`` the
    sections of a sectioned file (0 for a plain one). With rules in the header, ``rules`` names them
    (the header's ``rules`` object) and ``rule_blocks`` and ``rule_chains`` count the positions
    where the side blocked by the block rule and those the chain rule settled (each time the walk
    met one: they are decided by the board and the rules, without a look-up).
    """

    valid: bool
    side: Side
    guarantee: Guarantee
    board: str
    k: int
    positions_checked: int
    entries: int
    failure: str | None = None
    failure_position: str | None = None
    failure_path: tuple[int, ...] | None = None
    strategy_moves: int = 0
    sections: int = 0
    rules: dict[str, object] | None = None
    rule_blocks: int = 0
    rule_chains: int = 0
    #: The board has gravity (a mark drops to the lowest empty cell of its column).
    gravity: bool = False
    #: The position the walk began at (the header's ``start``), None for the empty board.
    start: str | None = None

    @property
    def claim(self) -> str:
        """What a valid certificate proves, in words."""
        side = self.side.upper()
        board = f"{self.board} (k={self.k}{', gravity' if self.gravity else ''})"
        if self.start is not None:
            x, o = status_masks(self.start)
            marks = [
                f"{mark} on {', '.join(map(str, mask_cells(cells)))}"
                for mark, cells in (("X", x), ("O", o))
                if cells
            ]
            board += f" from the position with {listing(marks) or 'no mark'}"
        if self.guarantee == "win":
            return f"{side} wins — the strategy for {side} on {board} wins against every defence"
        return f"{side} does not lose — the strategy for {side} on {board} draws or wins against every defence"

    def __str__(self) -> str:
        if self.valid:
            size = (
                f"{self.positions_checked:,} positions checked, {self.strategy_moves:,} moves of "
                f"{self.side.upper()} from {self.entries:,} entries"
            )
            if self.sections:
                size += f" in {self.sections:,} sections"
            if self.rules is not None:
                size += (
                    f"; by the rules: {self.rule_blocks:,} blocks, {self.rule_chains:,} forced "
                    f"chains"
                )
            return f"valid: {self.claim}; {size}"
        return f"invalid: {self.failure} at position {self.failure_position}"

    def to_dict(self) -> dict[str, object]:
        return {
            **attributes(
                self,
                "valid board k side guarantee positions_checked entries strategy_moves sections "
                "rules rule_blocks rule_chains failure failure_position",
            ),
            "failure_path": None if self.failure_path is None else list(self.failure_path),
            **({"gravity": True} if self.gravity else {}),
            **({} if self.start is None else {"start": self.start}),
        }


# -- reading and writing ---------------------------------------------------------------------------


class CertificateWriter:
    """Writes a certificate entry by entry into an open binary file (gzip JSON lines), so that a
    certificate bigger than memory can be written; use :func:`open_certificate` to get one.

    Each entry is checked as the reader would check it, so a written file always reads back; with
    sections in the header, :meth:`close` checks that the entries add up to the counts given."""

    def __init__(self, handle: BinaryIO, header: StrategyHeader) -> None:
        self.header = header
        self.count = 0
        self._gzip = gzip.GzipFile(filename="", mode="wb", fileobj=handle, compresslevel=6, mtime=0)
        self._batch = [_json_line(header.to_dict())]

    def write(self, entry: Entry | Mapping[str, Any]) -> None:
        """One entry: a :class:`MoveEntry` / :class:`PairingEntry`, or a mapping with the JSON keys."""
        self.count += 1
        checked = _entry_from_object(entry, self.header, f"entry {self.count}")
        self._batch.append(_json_line(checked.to_dict()))
        if len(self._batch) >= 4096:  # zlib is slow on many small writes
            self._flush()

    def _flush(self) -> None:
        self._gzip.write(b"".join(self._batch))
        self._batch.clear()

    def close(self) -> None:
        """Finish the gzip stream; raise :class:`ValueError` when the sections' counts do not add up."""
        self._flush()
        self._gzip.close()
        if self.header.sections is not None:
            promised = sum(count for _, count in self.header.sections)
            if promised != self.count:
                raise ValueError(
                    f"the header's sections hold {promised} entries, but {self.count} were written"
                )


@contextmanager
def open_certificate(
    path: str | os.PathLike[str], header: StrategyHeader
) -> Iterator[CertificateWriter]:
    """A :class:`CertificateWriter` for ``path``, written atomically: the file appears (or replaces
    the old one) only when the block ends without an error."""
    with atomic_writer(path) as handle:
        writer = CertificateWriter(handle, header)
        yield writer
        writer.close()


def write_certificate(
    path: str | os.PathLike[str],
    header: StrategyHeader,
    entries: Iterable[Entry | Mapping[str, Any]],
) -> int:
    """Write a certificate (gzip JSON lines) atomically; return the number of entries written.

    Entries are :class:`MoveEntry` / :class:`PairingEntry` objects or mappings with the JSON keys;
    each is checked as the reader would check it, so a written file always reads back.
    """
    with open_certificate(path, header) as writer:
        for entry in entries:
            writer.write(entry)
    return writer.count


def read_header(path: str | os.PathLike[str]) -> StrategyHeader:
    """The header of a certificate file (its first line); raises a :class:`CertificateError`."""
    lines = _read_lines(path)
    try:
        return _read_header(path, lines)
    finally:
        lines.close()


def read_certificate(path: str | os.PathLike[str]) -> Certificate:
    """Read a whole certificate into memory; raises a :class:`CertificateError` naming the line at fault."""
    lines = _read_lines(path)
    header = _read_header(path, lines)
    entries = tuple(
        _entry_from_json(data, header, f"{path}: line {number}") for number, data in lines
    )
    return Certificate(header, entries)


_ENCODER = json.JSONEncoder(separators=(",", ":"))


def _json_line(data: object) -> bytes:
    return (_ENCODER.encode(data) + "\n").encode("utf-8")


def _read_lines(path: str | os.PathLike[str]) -> Generator[tuple[int, object]]:
    """The non-blank lines of a certificate with their numbers, each parsed from JSON."""
    number = 0
    try:
        with gzip.open(path, "rt", encoding="utf-8", newline="\n") as handle:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    data = json.loads(line)
                except json.JSONDecodeError as error:
                    raise CertificateSyntaxError(
                        f"{path}: line {number}: not JSON ({error.msg})"
                    ) from None
                yield number, data
    except gzip.BadGzipFile:
        raise CertificateFileError(
            f"{path}: not a gzip file (a certificate is gzip-compressed JSON lines)"
        ) from None
    except (EOFError, zlib.error) as error:
        raise CertificateFileError(
            f"{path}: the gzip data is truncated or corrupt after line {number} ({error})"
        ) from None
    except UnicodeDecodeError:
        raise CertificateFileError(f"{path}: line {number + 1} is not UTF-8 text") from None
    except OSError as error:
        raise CertificateFileError(
            f"{path}: cannot read the file ({error.strerror or error})"
        ) from None


def _read_header(
    path: str | os.PathLike[str], lines: Iterator[tuple[int, object]]
) -> StrategyHeader:
    first = next(lines, None)
    if first is None:
        raise CertificateHeaderError(f"{path}: the certificate is empty: no header line")
    try:
        return StrategyHeader.from_dict(first[1])
    except CertificateHeaderError as error:
        raise CertificateHeaderError(f"{path}: line {first[0]}: {error}") from None


def _entry_from_json(data: object, header: StrategyHeader, where: str) -> Entry:
    if not isinstance(data, dict):
        raise CertificateEntryError(f"{where}: an entry must be a JSON object")
    keys = set(data)
    if keys == {"position", "move"}:
        return _checked_move(data["position"], data["move"], header, where)
    if keys == {"position", "pairing"}:
        return _checked_pairing(data["position"], data["pairing"], header, where)
    shown = ", ".join(sorted(map(str, keys))) or "none"
    raise CertificateEntryError(
        f"{where}: an entry has the keys position and move, or position and pairing; got {shown}"
    )


def _entry_from_object(
    entry: Entry | Mapping[str, Any], header: StrategyHeader, where: str
) -> Entry:
    if isinstance(entry, MoveEntry):
        return _checked_move(entry.position, entry.move, header, where)
    if isinstance(entry, PairingEntry):
        return _checked_pairing(entry.position, entry.pairing, header, where)
    if isinstance(entry, Mapping):
        return _entry_from_json(dict(entry), header, where)
    raise CertificateEntryError(f"{where}: not an entry: {entry!r}")


def _checked_position(text: object, header: StrategyHeader, where: str) -> tuple[int, int]:
    """The (X, O) masks of a status string, checked for length, characters and mark counts."""
    size = header.geometry.size
    if not isinstance(text, str) or len(text) != size or text.translate(_STATUS_DIGITS):
        shown = (
            repr(text) if not isinstance(text, str) or len(text) <= 80 else repr(text[:77] + "...")
        )
        raise CertificateEntryError(
            f"{where}: bad status string {shown}: need {size} characters 0, 1 or 2 (one per cell of {header.board})"
        )
    x, o = status_masks(text)
    if x.bit_count() - o.bit_count() not in (0, 1):
        raise CertificateEntryError(
            f"{where}: position {text} cannot occur: X has {x.bit_count()} marks and O {o.bit_count()} (X moves first)"
        )
    return x, o


def _checked_cell(value: object, header: StrategyHeader, where: str, what: str) -> int:
    size = header.geometry.size
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < size:
        raise CertificateEntryError(
            f"{where}: {what} {value!r} is not a cell of {header.board}: cells are 0..{size - 1}"
        )
    return value


def _checked_move(position: object, move: object, header: StrategyHeader, where: str) -> MoveEntry:
    x, o = _checked_position(position, header, where)
    cell = _checked_cell(move, header, where, "move")
    to_move = "x" if x.bit_count() == o.bit_count() else "o"
    if to_move != header.side:
        raise CertificateEntryError(
            f"{where}: a move entry at position {position}, where {to_move.upper()} is to move: "
            f"move entries are for positions where {header.side.upper()} (the certificate's side) is to move"
        )
    return MoveEntry(str(position), cell)  # position: a status string, checked above


def _checked_pairing(
    position: object, pairing: object, header: StrategyHeader, where: str
) -> PairingEntry:
    if header.guarantee != "no-loss":
        raise CertificateEntryError(
            f"{where}: pairing entries are allowed only in no-loss certificates"
        )
    if header.gravity:
        raise CertificateEntryError(
            f"{where}: pairing entries are not allowed with gravity (a partner cell need not be "
            "one a mark may go to)"
        )
    x, o = _checked_position(position, header, where)
    if not isinstance(pairing, (list, tuple)):
        raise CertificateEntryError(
            f"{where}: a pairing is a list of pairs of cells, got {pairing!r}"
        )
    size = header.geometry.size
    pairs = []
    for pair in pairing:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise CertificateEntryError(
                f"{where}: a pairing is a list of pairs of cells; {pair!r} is not a pair"
            )
        a, b = pair
        if type(a) is not int or type(b) is not int or not (0 <= a < size and 0 <= b < size):
            # the exact complaint (bool is an int to Python, not a cell)
            a = _checked_cell(a, header, where, "pairing cell")
            b = _checked_cell(b, header, where, "pairing cell")
        pairs.append((a, b))
    to_move = "x" if x.bit_count() == o.bit_count() else "o"
    if to_move == header.side:
        raise CertificateEntryError(
            f"{where}: a pairing entry at position {position}, where {to_move.upper()} is to move: "
            f"pairing entries are for positions where the opponent ({header.opponent.upper()}) is to move"
        )
    return PairingEntry(str(position), tuple(pairs))  # position: checked above


_STATUS_DIGITS = str.maketrans("", "", "012")
_X_BITS = str.maketrans("012", "010")
_O_BITS = str.maketrans("012", "001")


def status_masks(status: str) -> tuple[int, int]:
    """The (X, O) bitmasks of a checked status string (cell c is bit c)."""
    reversed_status = status[::-1]
    return int(reversed_status.translate(_X_BITS), 2), int(reversed_status.translate(_O_BITS), 2)


def status_string(x: int, o: int, size: int) -> str:
    """The status string of the position with X marks ``x`` and O marks ``o`` on ``size`` cells.

    Cell c is digit c from the left. Read in base ten, the binary digits of ``x`` plus twice those
    of ``o`` spell the digits at once (no carry: a cell holds one mark; X's wins where both are
    set), most significant first, so the number's digits are reversed. (Python turns numbers of
    at most 4,300 digits into text: larger boards go cell by cell.)"""
    if size > 4000:
        return "".join("1" if x >> c & 1 else "2" if o >> c & 1 else "0" for c in range(size))
    digits = str(int(format(x, "b")) + 2 * int(format(o & ~x, "b")))
    return digits.zfill(size)[::-1]


def _image(perm: Sequence[int], mask: int) -> int:
    """The image of a set of cells (a bitmask) under a permutation of the cells."""
    image = 0
    for cell in mask_cells(mask):
        image |= 1 << perm[cell]
    return image


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


# -- checking --------------------------------------------------------------------------------------

#: What :func:`verify_certificate` reports as it goes: entries read so far and the entries of the file
#: (from a sectioned header; 0 when unknown), positions checked so far.
VerifyProgress = Callable[[int, int, int], None]


#: A pairing: pairs of cells, the side answering one cell of a pair with the other.
Pairing = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class WalkStep:
    """One position where the checker's walk accepted the certificate: ``side`` to move, its move
    held; the opponent to move, one of its pairings did. A class told is accepted whatever else
    the walk finds: its result depends on it alone.

    ``key`` is the position's class (:func:`position_class`) and ``canonical`` the move or pairing
    in that class's orientation (what a player of the certificate keeps, :mod:`oxo.book`);
    ``x``/``o`` the position as met and ``played`` the move or pairing there (what a rewritten
    certificate keeps, :mod:`oxo.proofs.compact`); ``section`` the header's section the walk was
    checking (0 for a file without sections)."""

    section: int
    key: int
    canonical: int | Pairing
    x: int
    o: int
    size: int
    played: int | Pairing

    @property
    def entry(self) -> Entry:
        """The certificate's entry for the position as met (built when asked)."""
        position = status_string(self.x, self.o, self.size)
        if isinstance(self.played, int):
            return MoveEntry(position, self.played)
        return PairingEntry(position, self.played)


#: What observes the checker's walk: told each :class:`WalkStep` as the walk accepts it.
WalkObserver = Callable[[WalkStep], None]


def position_class(header: StrategyHeader) -> Callable[[int, int], tuple[int, Symmetry]]:
    """The checker's classes of positions on the certificate's board: given the X and O masks of
    a position, its class key (the least image ``x << size | o`` over the symmetries, X first) and
    a symmetry that carries the position onto that image (the keys of a :class:`WalkStep`).

    Plain Python, for a few positions at a time (a game's moves): the compiled classes of a walk
    would load numba first, a second of a game's first move on Qubic."""
    return _Checker(header, compiled=False).canonical


def verify_certificate(
    source: str | os.PathLike[str] | Certificate,
    *,
    whole: bool = False,
    on_progress: VerifyProgress | None = None,
    observer: WalkObserver | None = None,
    reheader: Callable[[StrategyHeader], StrategyHeader] | None = None,
    root: tuple[int, int] | None = None,
    compiled: bool = True,
) -> VerifyResult:
    """Check a certificate (a file, streamed, or a :class:`Certificate`) by walking every defence.

    A file with sections in its header is checked a section at a time (memory for one section, not
    the whole file) unless ``whole``, which reads every entry into one index. Raises a
    :class:`CertificateError` when the file is malformed; a well-formed certificate that does not
    prove its claim gives a result with ``valid=False`` and the first failing position. An
    ``observer`` is told every move and pairing the walk played and found to hold
    (:class:`WalkStep`: in the class's orientation and as met, with the section checked).

    ``reheader`` checks the entries under another header made from the file's (other rules or
    symmetries, say). ``root`` (X's and O's cells as bitmasks): for a :class:`Certificate` in
    memory, the position its strategy is walked from, checked as a section's root is (a file is
    walked from its header's ``start``, or the empty board, as the format says); a strategy read
    from the middle of a game, such as a proof job's, is checked so. ``compiled=False`` keeps the
    plain chain search and classes where the compiled twins would be taken
    (:func:`compiled_chains_fit`; the same verdicts, for measures side by side).
    """
    report = on_progress or (lambda read, total, checked: None)
    change = reheader or (lambda header: header)
    if root is not None and not isinstance(source, Certificate):
        raise ValueError("a certificate file is walked from its header's start")
    if isinstance(source, Certificate):
        header = change(source.header)
        checker = _Checker(header, observer=observer, compiled=compiled)
        for number, entry in enumerate(source.entries, start=1):
            checker.add(_entry_from_object(entry, header, f"entry {number}"))
        return checker.result(checker.walk(*(root or header.start_masks)))
    lines = _read_lines(source)
    header = change(_read_header(source, lines))
    if header.sections is not None and not whole:
        return _verify_sections(source, header, lines, report, observer, compiled)
    checker = _Checker(header, observer=observer, compiled=compiled)
    for number, data in lines:
        checker.add(_entry_from_json(data, header, f"{source}: line {number}"))
        if number % 65536 == 0:
            report(checker.entries, 0, 0)
    report(checker.entries, 0, 0)
    checker.tick = lambda checked: report(checker.entries, 0, checked)
    return checker.result(checker.walk(*header.start_masks))


def _verify_sections(
    source: str | os.PathLike[str],
    header: StrategyHeader,
    lines: Iterator[tuple[int, object]],
    report: VerifyProgress,
    observer: WalkObserver | None = None,
    compiled: bool = True,
) -> VerifyResult:
    """Check a sectioned certificate one section at a time (see the module's description)."""
    assert header.sections is not None
    total = sum(count for _, count in header.sections)
    classes = _Checker(header, compiled=compiled)
    roots = []
    for root, _ in header.sections[1:]:
        assert root is not None, "checked with the header"
        roots.append(classes.canonical(*status_masks(root))[0])
    top = _Checker(header, stops=frozenset(roots), observer=observer, compiled=compiled)
    read = 0
    checked = 0
    moves = 0
    blocks = chains = 0
    failure: _Failure | None = None
    for number, (_, count) in enumerate(header.sections):
        checker = (
            top
            if number == 0
            else _Checker(header, observer=observer, section=number, compiled=compiled)
        )
        needed = number == 0 or roots[number - 1] in top.reached
        for _ in range(count):
            line = next(lines, None)
            if line is None:
                raise CertificateFileError(
                    f"{source}: the header's sections promise {total} entries, the file ends after {read}"
                )
            entry = _entry_from_json(line[1], header, f"{source}: line {line[0]}")
            read += 1
            if needed:
                checker.add(entry)
            if read % 65536 == 0:
                report(read, total, checked + len(checker.memo))
        if needed and failure is None:
            checker.tick = lambda now, before=checked, done=read: report(done, total, before + now)
            if number == 0:
                failure = top.walk(*header.start_masks)
            else:
                x, o, path = top.reached[roots[number - 1]]
                checker.path = list(path)
                failure = checker.walk(x, o)
            checked += len(checker.memo)
            moves += checker.strategy_moves
            blocks += checker.rule_blocks
            chains += checker.rule_chains
        report(read, total, checked)
    extra = next(lines, None)
    if extra is not None:
        raise CertificateFileError(
            f"{source}: line {extra[0]}: more entries than the header's sections promise ({total})"
        )
    return _verdict(header, failure, checked, read, moves, len(header.sections), (blocks, chains))


@dataclass
class _Failure:
    reason: str
    position: str
    path: tuple[int, ...]


def _verdict(
    header: StrategyHeader,
    failure: _Failure | None,
    positions_checked: int,
    entries: int,
    strategy_moves: int,
    sections: int = 0,
    rule_moves: tuple[int, int] = (0, 0),
) -> VerifyResult:
    """The checker's verdict on a certificate with ``header``: valid when no position failed;
    ``rule_moves`` the blocks and chains the rules gave."""
    return VerifyResult(
        valid=failure is None,
        side=header.side,
        guarantee=header.guarantee,
        board=header.board,
        k=header.k,
        positions_checked=positions_checked,
        entries=entries,
        failure=None if failure is None else failure.reason,
        failure_position=None if failure is None else failure.position,
        failure_path=None if failure is None else failure.path,
        strategy_moves=strategy_moves,
        sections=sections,
        rules=header.rules.to_dict() if header.rules.any else None,
        rule_blocks=rule_moves[0],
        rule_chains=rule_moves[1],
        gravity=header.gravity,
        start=header.start,
    )


def compiled_chains_fit(geometry: Geometry) -> bool:
    """Whether a walk with the chain rule takes the compiled twins of the chain search and of
    the classes (:mod:`oxo.proofs.chainkernel`): boards of more than 32 cells whose lines are all
    as long (Qubic's, 4x4x4x4's), where such a walk asks for a chain at every position of the
    side."""
    return geometry.size > 32 and len({len(cells) for cells in geometry.line_cells}) == 1


#: The most bits of one number holding every symmetry's image of a position (:class:`_Images`).
IMAGES_BITS = 4096


class _Images:
    """Every symmetry's image of a position at once, in one number: symmetry s's image of (x, o)
    as ``x' << size | o'`` in the bits from ``s * 2 * size`` up. Tables give each byte of X's
    marks and of O's the sum of their images under all the symmetries, so a position takes a few
    lookups whatever the number of symmetries, where carrying it under each in turn takes a few
    lookups per symmetry. Read back, the least image is the class's key (the least image of X's
    marks, then of O's), as :meth:`_Checker.canonical` defines it, and its symmetry the first that
    gives it."""

    def __init__(self, symmetries: Sequence[Symmetry], size: int) -> None:
        stride = 2 * size
        self.shifts = [index * stride for index in range(len(symmetries))]
        self.mask = (1 << stride) - 1
        self.tables: list[tuple[list[int], list[int]]] = []
        for base in range(0, size, 8):
            width = min(8, size - base)
            xs, os_ = [0] * (1 << width), [0] * (1 << width)
            for cell in range(width):
                one_o = sum(
                    1 << (shift + symmetry.perm[base + cell])
                    for shift, symmetry in zip(self.shifts, symmetries, strict=True)
                )
                one_x = one_o << size
                for subset in range(1 << cell, 1 << (cell + 1)):  # subsets whose top cell is cell
                    xs[subset] = xs[subset ^ 1 << cell] | one_x
                    os_[subset] = os_[subset ^ 1 << cell] | one_o
            self.tables.append((xs, os_))

    def canonical(self, x: int, o: int) -> tuple[int, int]:
        """(the class's key, the index of the first symmetry carrying (x, o) to it)."""
        packed = 0
        for xs, os_ in self.tables:
            packed |= xs[x & 0xFF] | os_[o & 0xFF]
            x >>= 8
            o >>= 8
        mask = self.mask
        images = [packed >> shift & mask for shift in self.shifts]
        key = min(images)
        return key, images.index(key)


@lru_cache(maxsize=8)
def _images_of(symmetries: tuple[Symmetry, ...], size: int) -> _Images:
    """The tables of :class:`_Images`, built once per board and process (a sectioned certificate
    has a walk per section)."""
    return _Images(symmetries, size)


class _Checker:
    """The walk of :func:`verify_certificate` over plain bitmasks (bit c = cell c).

    ``stops`` are classes (keys of :meth:`canonical`) where the walk does not go on: each stands for
    a section checked on its own, and :attr:`reached` records the first position of each met (in the
    orientation met, with the path from the walk's root)."""

    def __init__(
        self,
        header: StrategyHeader,
        stops: frozenset[int] = frozenset(),
        observer: WalkObserver | None = None,
        section: int = 0,
        compiled: bool = True,
    ) -> None:
        geometry = header.geometry
        self.header = header
        self.size = geometry.size
        self.full = geometry.full_mask
        self.lines = geometry.lines
        # Line i is bit i of a set of lines: the lines through each cell, so that a pairing is
        # checked with a few ORs (the lines through both cells of a pair hold the whole pair);
        # kept by the geometry, which a sectioned certificate's checkers share.
        self.line_sets = geometry.cell_line_numbers
        self.lines_through = geometry.lines_through
        self.symmetries: tuple[Symmetry, ...] = header.group
        self.rules = header.rules
        self.chains: ChainSearch | CompiledChainSearch | None = None
        self._classes: CompiledClasses | None = None
        self._images: _Images | None = None
        if 2 * self.size * len(self.symmetries) <= IMAGES_BITS:
            self._images = _images_of(self.symmetries, self.size)
        if header.rules.chain:
            self.chains = ChainSearch(self.lines)
            if compiled and compiled_chains_fit(geometry):
                # The compiled twins (the same answers, held to these in the tests): a certificate
                # with the chain rule asks for a chain at every position of the side. numba loads
                # only here.
                from oxo.proofs.chainkernel import CompiledChainSearch, CompiledClasses

                self.chains = CompiledChainSearch(geometry.line_cells, self.size)
                self._classes = CompiledClasses([s.perm for s in self.symmetries], self.size)
        self.geometry = geometry
        self.side_is_x = header.side == "x"
        self.no_loss = header.guarantee == "no-loss"
        # Canonical key → canonical move(s); canonical key → canonical pairings.
        self.moves: dict[int, int | list[int]] = {}
        self.pairings: dict[int, list[tuple[tuple[int, int], ...]]] = {}
        self.entries = 0
        # Canonical key → None (accepted) or the failure found below it.
        self.memo: dict[int, _Failure | None] = {}
        self.path: list[int] = []
        self.stops = stops
        self.reached: dict[int, tuple[int, int, tuple[int, ...]]] = {}
        #: Positions (classes) where the side played a move of the certificate.
        self.strategy_moves = 0
        #: Positions where the side blocked by the block rule, and positions the chain rule settled.
        self.rule_blocks = 0
        self.rule_chains = 0
        #: Called with the positions checked so far, every 65,536 of them.
        self.tick: Callable[[int], None] | None = None
        #: X's and O's marks of the position being checked, counted on every line at once
        #: (:meth:`walk` counts its root's, :meth:`child` adds each move's mark).
        self.x_counts = self.o_counts = LineCounts(geometry)
        #: Told each move (or pairing) the walk played and found to hold (a certificate of these
        #: entries alone holds too), in the header's section ``section``.
        self.observer = observer
        self.section = section

    # The class of a position: the least (X, O) image over the symmetries, as one int X << N | O,
    # and the symmetry that carries the position there.
    def canonical(self, x: int, o: int) -> tuple[int, Symmetry]:
        if self._classes is not None:
            key, index = self._classes.canonical(x, o)
            return key, self.symmetries[index]
        if self._images is not None:
            key, index = self._images.canonical(x, o)
            return key, self.symmetries[index]
        images = [symmetry.apply_mask(x) for symmetry in self.symmetries]
        least_x = min(images)
        best_o = -1
        best = self.symmetries[0]
        for symmetry, image in zip(self.symmetries, images, strict=True):
            if image == least_x:
                image_o = symmetry.apply_mask(o)
                if best_o < 0 or image_o < best_o:
                    best_o, best = image_o, symmetry
        return least_x << self.size | best_o, best

    def add(self, entry: Entry) -> None:
        self.entries += 1
        x, o = status_masks(entry.position)
        key, symmetry = self.canonical(x, o)
        if isinstance(entry, MoveEntry):
            move = symmetry.perm[entry.move]
            known = self.moves.get(key)
            if known is None:
                self.moves[key] = move
            elif isinstance(known, int):
                if known != move:
                    self.moves[key] = [known, move]
            elif move not in known:
                known.append(move)
        else:
            pairing = tuple((symmetry.perm[a], symmetry.perm[b]) for a, b in entry.pairing)
            self.pairings.setdefault(key, []).append(pairing)

    def walk(self, x: int, o: int) -> _Failure | None:
        """Check the position (x, o), the root of this walk (the empty board, or a section's root)."""
        key, symmetry = self.canonical(x, o)
        if key in self.stops:  # the empty board is itself a section's root
            self.reached.setdefault(key, (x, o, tuple(self.path)))
            return None
        if x.bit_count() - o.bit_count() not in (0, 1):
            return self.fail(
                f"the position cannot occur: X has {x.bit_count()} marks and O {o.bit_count()}",
                x,
                o,
            )
        if self.geometry.floating(x | o):
            return self.fail("the position cannot occur: a mark floats above an empty cell", x, o)
        own, other = (x, o) if self.side_is_x else (o, x)
        for line in self.lines:  # a root is checked in full: there is no last move to look at
            if other & line == line:
                cells = "-".join(map(str, mask_cells(line)))
                return self.fail(f"{self.header.opponent.upper()} completes the line {cells}", x, o)
        if any(own & line == line for line in self.lines):
            return None
        self.x_counts, self.o_counts = LineCounts(self.geometry, x), LineCounts(self.geometry, o)
        over, verdict = self.at_once(x, o, -1)
        if over:
            return verdict
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * self.size + 1000))  # three frames per ply
        try:
            ruled, verdict = self.by_rule(x, o)
            if ruled:
                return verdict
            self.memo[key] = result = self.evaluate(x, o, -1, key, symmetry)
            return result
        finally:
            sys.setrecursionlimit(limit)

    def result(self, failure: _Failure | None) -> VerifyResult:
        return _verdict(
            self.header,
            failure,
            len(self.memo),
            self.entries,
            self.strategy_moves,
            rule_moves=(self.rule_blocks, self.rule_chains),
        )

    def fail(self, reason: str, x: int, o: int) -> _Failure:
        return _Failure(reason, status_string(x, o, self.size), tuple(self.path))

    def check(self, x: int, o: int, last: int) -> _Failure | None:
        """None when the position (reached by the move ``last``) is accepted, else why not."""
        over, verdict = self.at_once(x, o, last)
        if over:  # decided by the board alone: no need to look the position up
            return verdict
        ruled, verdict = self.by_rule(x, o)
        if ruled:  # decided by the board and the header's rules
            return verdict
        key, symmetry = self.canonical(x, o)
        if key in self.memo:
            return self.memo[key]
        if key in self.stops:
            # Another section's root: that section answers for it.
            self.reached.setdefault(key, (x, o, tuple(self.path)))
            return None
        self.memo[key] = result = self.evaluate(
            x, o, last, key, symmetry
        )  # no cycles: every move adds a mark
        if len(self.memo) & 0xFFFF == 0 and self.tick is not None:
            self.tick(len(self.memo))
        return result

    def at_once(self, x: int, o: int, last: int) -> tuple[bool, _Failure | None]:
        """(True, verdict) when the board alone decides the position (reached by the move ``last``):
        a line the last move completed, a full board, no line left to the opponent (no-loss), or a
        line the side completes with its move; (False, None) when the strategy must be followed."""
        own, other = (x, o) if self.side_is_x else (o, x)
        # Game over? Only the last move can have completed a line (its parent was still in play).
        if last >= 0:
            for line in self.lines_through[last]:
                if other & line == line:
                    opponent = self.header.opponent.upper()
                    cells = "-".join(map(str, mask_cells(line)))
                    return True, self.fail(f"{opponent} completes the line {cells}", x, o)
                if own & line == line:
                    return True, None
        if x | o == self.full:
            if self.no_loss:
                return True, None
            side = self.header.side.upper()
            return True, self.fail(
                f"the board is full without a line of {side} (a draw, not a win)", x, o
            )
        if self.no_loss and all(line & own for line in self.lines):
            return True, None  # every line holds a mark of side: the opponent can make no line
        if (x.bit_count() == o.bit_count()) == self.side_is_x:
            playable = self.geometry.playable(x | o)  # every empty cell without gravity
            own_counts, other_counts = self.counts()
            if own_counts.completing(other_counts) & playable:
                return True, None  # side completes a line at once
        return False, None

    def counts(self) -> tuple[LineCounts, LineCounts]:
        """The side's marks and the opponent's, counted on every line."""
        return (self.x_counts, self.o_counts) if self.side_is_x else (self.o_counts, self.x_counts)

    def by_rule(self, x: int, o: int) -> tuple[bool, _Failure | None]:
        """(True, verdict) when a rule of the header decides the position (the side to move, no
        line to complete at once): the block of the opponent's only threat (the verdict is the
        block's), a loss to two threats of the opponent's (block rule), a forced chain (accepted:
        the side wins by playing it, see :class:`oxo.proofs.rules.ChainSearch`); (False, None)
        when the certificate's entry must give the move."""
        rules = self.rules
        if not rules.any or (x.bit_count() == o.bit_count()) != self.side_is_x:
            return False, None
        own, other = (x, o) if self.side_is_x else (o, x)
        own_counts, other_counts = self.counts()
        their = other_counts.completing(own_counts)  # the opponent's threats
        if rules.block and their:
            if their & (their - 1):
                cells = ", ".join(map(str, mask_cells(their)))
                opponent, side = self.header.opponent.upper(), self.header.side.upper()
                return True, self.fail(
                    f"{opponent} threatens to complete a line at {cells}: {side} can block only one",
                    x,
                    o,
                )
            self.rule_blocks += 1
            return True, self.child(x, o, their.bit_length() - 1)
        if self.chains is not None and self.chains.exists(own, other, rules.chain):
            self.rule_chains += 1
            return True, None
        return False, None

    def evaluate(self, x: int, o: int, last: int, key: int, symmetry: Symmetry) -> _Failure | None:
        """The verdict on a position the board alone does not decide (:meth:`at_once`)."""
        own = x if self.side_is_x else o
        side = self.header.side.upper()
        occupied = x | o
        playable = self.geometry.playable(occupied)  # every empty cell without gravity
        side_to_move = (x.bit_count() == o.bit_count()) == self.side_is_x
        if side_to_move:
            known = self.moves.get(key)
            if known is None:
                return self.fail(
                    f"missing position ({side} to move, the certificate has no move for it)", x, o
                )
            self.strategy_moves += 1
            first_failure = None
            for canonical_move in [known] if isinstance(known, int) else known:
                move = symmetry.inverse_perm[canonical_move]
                failure: _Failure | None
                if occupied >> move & 1:
                    failure = self.fail(f"the certificate's move {move} is not an empty cell", x, o)
                elif not playable >> move & 1:
                    failure = self.fail(
                        f"the certificate's move {move} is not the lowest empty cell of its column",
                        x,
                        o,
                    )
                else:
                    failure = self.child(x, o, move)
                if failure is None:
                    if self.observer is not None:
                        self.observer(
                            WalkStep(self.section, key, canonical_move, x, o, self.size, move)
                        )
                    return None
                first_failure = first_failure or failure
            return first_failure
        pairing_failure = None
        for canonical_pairing in self.pairings.get(key, ()):
            pairing = tuple(
                (symmetry.inverse_perm[a], symmetry.inverse_perm[b]) for a, b in canonical_pairing
            )
            problem = self.pairing_problem(own, occupied, pairing)
            if problem is None:
                if self.observer is not None:
                    self.observer(
                        WalkStep(self.section, key, canonical_pairing, x, o, self.size, pairing)
                    )
                return None
            pairing_failure = pairing_failure or self.fail(f"invalid pairing: {problem}", x, o)
        for move in mask_cells(playable):
            failure = self.child(x, o, move)
            if failure is not None:
                return pairing_failure or failure
        return None

    def child(self, x: int, o: int, move: int) -> _Failure | None:
        bit = 1 << move
        self.path.append(move)
        counted = self.x_counts, self.o_counts
        try:
            if x.bit_count() == o.bit_count():
                self.x_counts = self.x_counts.plus(move)
                return self.check(x | bit, o, move)
            self.o_counts = self.o_counts.plus(move)
            return self.check(x, o | bit, move)
        finally:
            self.path.pop()
            self.x_counts, self.o_counts = counted

    def pairing_problem(
        self, own: int, occupied: int, pairing: tuple[tuple[int, int], ...]
    ) -> str | None:
        """Why the pairs do not guarantee that the opponent makes no line, or None when they do."""
        used = 0
        for a, b in pairing:
            if a == b:
                return f"the pair ({a}, {b}) names one cell twice"
            for cell in (a, b):
                if occupied >> cell & 1:
                    return f"cell {cell} of the pair ({a}, {b}) is not empty"
                if used >> cell & 1:
                    return f"cell {cell} is in more than one pair"
                used |= 1 << cell
        through = self.line_sets
        covered = 0  # the lines that hold a mark of the side or a whole pair
        for cell in mask_cells(own):
            covered |= through[cell]
        for a, b in pairing:
            covered |= through[a] & through[b]
        uncovered = ~covered & ((1 << len(self.lines)) - 1)
        if uncovered:
            line = self.lines[(uncovered & -uncovered).bit_length() - 1]
            cells = "-".join(map(str, mask_cells(line)))
            return f"the line {cells} holds no mark of {self.header.side.upper()} and no whole pair"
        return None
