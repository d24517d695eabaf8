"""Patashnik's dictionary of strategic moves for Qubic, read, and walked with his rules.

Oren Patashnik proved in 1976-77 that the first player wins Qubic (4x4x4, four in a row; "Qubic:
4x4x4 Tic-Tac-Toe", Mathematics Magazine 53(4), 1980, 202-216) with a dictionary of 2,929
*strategic* moves of X; Ken Thompson put it in its present form in 1978. The project keeps a copy,
with its notice, in ``data/qubic-patashnik.dictionary``. X plays by four rules, in this order:

1. win at once if possible;
2. else block O's three in a row (a line with three marks of O and an empty cell; with two such
   cells X cannot block both, and the position fails);
3. else the dictionary's move, if the position is in the dictionary up to the board's 192
   automorphisms (the maps of cells that carry lines onto lines);
4. else a forced win, which must exist: a chain of threats that O must answer, ending in two
   threats at once (:class:`oxo.proofs.rules.ChainSearch`, searched to no bound in effect).

:class:`DictionaryWalker` plays these rules against every reply of O, from the empty board or from
any position, and says whether they always win (the dictionary is *complete*) or where they first
fail, with the moves that lead there. Each class of positions (under the 192 automorphisms) is
walked once. A position where rule 4 applies is a leaf: the chain wins against every defence by
its definition, so the walk does not go on below it.

The notation: each line is a position, a space and a cell (0-63). A position is a string of ``x``
(X's marks), ``o`` (O's marks) and numbers (that many empty cells), cell by cell from cell 0;
empty cells after the last mark are left out; the first line (`` 0``) is the empty board. Cells
are numbered layer by layer, rows top to bottom, cells left to right, as oxo numbers a 4x4x4
board's cells.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from oxo.errors import DictionaryError
from oxo.geometry import Geometry, Symmetry, mask_cells
from oxo.proofs.certificate import MoveEntry, StrategyHeader, status_string, write_certificate
from oxo.proofs.rules import ChainSearch, Rules, threats
from oxo.proofs.symmetry import Classes, canonical, extra_generators

#: The line that ends the dictionary's notice; the moves follow it.
SEPARATOR = "-----"


@dataclass(frozen=True)
class StrategicMove:
    """One line of a dictionary: X's ``move`` in the position ``text`` (X's marks ``x``, O's ``o``),
    line ``number`` of the file."""

    number: int
    text: str
    x: int
    o: int
    move: int


def parse_position(text: str, size: int) -> tuple[int, int]:
    """X's and O's marks (bitmasks) of a position in the dictionary's notation on ``size`` cells;
    raises :class:`DictionaryError`."""
    x = o = 0
    cell = 0
    index = 0
    while index < len(text):
        char = text[index]
        if char in "xo":
            if cell >= size:
                raise DictionaryError(f"position {text!r} has more than {size} cells")
            if char == "x":
                x |= 1 << cell
            else:
                o |= 1 << cell
            cell += 1
            index += 1
        elif char.isdigit():
            end = index
            while end < len(text) and text[end].isdigit():
                end += 1
            cell += int(text[index:end])
            index = end
        else:
            raise DictionaryError(
                f"position {text!r}: {char!r} is not x, o or a number of empty cells"
            )
    if cell > size:
        raise DictionaryError(f"position {text!r} has more than {size} cells")
    if x.bit_count() != o.bit_count():
        raise DictionaryError(
            f"position {text!r} has {x.bit_count()} marks of X and {o.bit_count()} of O: a "
            "position of the dictionary has X to move"
        )
    return x, o


def read_dictionary(path: str | Path, size: int = 64) -> tuple[StrategicMove, ...]:
    """The strategic moves of a dictionary file (after its notice, which ends with a line of
    dashes); raises :class:`DictionaryError` naming the line at fault."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise DictionaryError(f"{path}: cannot read the dictionary ({error})") from None
    lines = text.splitlines()
    start = next(
        (number for number, line in enumerate(lines, start=1) if line.startswith(SEPARATOR)), None
    )
    if start is None:
        raise DictionaryError(f"{path}: no line of dashes ends the notice: not a dictionary")
    moves = []
    for number, line in enumerate(lines[start:], start=start + 1):
        if not line.strip():
            continue
        parts = line.split()
        if len(parts) == 1 and line.startswith(" "):
            parts = ["", parts[0]]  # the empty board
        if len(parts) != 2 or not parts[1].isdigit():
            raise DictionaryError(f"{path}: line {number}: not a position and a move: {line!r}")
        try:
            x, o = parse_position(parts[0], size)
        except DictionaryError as error:
            raise DictionaryError(f"{path}: line {number}: {error}") from None
        move = int(parts[1])
        if move >= size or (x | o) >> move & 1:
            raise DictionaryError(f"{path}: line {number}: move {move} is not an empty cell")
        moves.append(StrategicMove(number, parts[0], x, o, move))
    return tuple(moves)


@dataclass(frozen=True)
class DictionaryWalk:
    """The verdict of :meth:`DictionaryWalker.walk`.

    ``complete``: X's rules win against every defence from the root. ``positions``: the classes of
    positions with X to move that needed the dictionary or a forced win (rules 3 and 4); ``replies``:
    the classes with O to move, every reply walked; ``wins`` and ``blocks``: the times X won at once
    and blocked (rules 1 and 2; a position is not looked up for these, so one met twice counts
    twice); ``used``: the dictionary's lines the walk played (line numbers, in the file's order);
    ``forced_wins``: the classes settled by rule 4; ``longest_chain``: the most moves of X that one
    of them needs (the length of its shortest chain, the greatest over them). On failure,
    ``failure`` says why, ``failure_position`` is the position (a status string, as met) and
    ``failure_line`` the cells played from the root to reach it.
    """

    complete: bool
    positions: int
    replies: int
    wins: int
    blocks: int
    used: tuple[int, ...]
    unused: int
    forced_wins: int
    longest_chain: int
    failure: str | None = None
    failure_position: str | None = None
    failure_line: tuple[int, ...] | None = None
    #: With the forced wins played out (``expand``): the classes of positions where X moved, by
    #: the rule that gave the move (``dictionary``, ``block``, ``chain``): the lines a dictionary
    #: would need with no rule but the win at once. (``forced_wins`` then counts every class where
    #: a chain gave the move, not only the first of each chain.)
    expanded: dict[str, int] | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "complete": self.complete,
            "positions": self.positions,
            "replies": self.replies,
            "wins": self.wins,
            "blocks": self.blocks,
            "dictionary_lines_used": len(self.used),
            "dictionary_lines_unused": self.unused,
            "forced_wins": self.forced_wins,
            "longest_chain": self.longest_chain,
            "failure": self.failure,
            "failure_position": self.failure_position,
            "failure_line": None if self.failure_line is None else list(self.failure_line),
            "expanded": self.expanded,
        }


class _Failed(Exception):
    """The walk met a position where the rules leave X without a win (control flow only)."""


class DictionaryWalker:
    """Plays Patashnik's four rules for X against every defence (see the module's description).

    ``moves`` are the dictionary's lines; ``bound`` the most moves of a forced chain (default: half
    the board's cells, no bound in effect); ``symmetries`` the cell permutations that make two
    positions one class (default: the search's, 192 on Qubic). ``on_progress`` is called with the
    classes walked so far (X to move, then O) about every ``every`` of them. With ``expand``, a
    forced win is played out (X takes the least cell that starts a chain, and blocks where O has a
    threat) against every reply, and every class where X moves is counted: the size of a
    dictionary that needs no rule but the win at once.
    """

    def __init__(
        self,
        geometry: Geometry,
        moves: Sequence[StrategicMove],
        *,
        bound: int | None = None,
        symmetries: Sequence[Symmetry] | None = None,
        on_progress: Callable[[int, int, int], None] | None = None,
        every: int = 10_000,
        expand: bool = False,
    ) -> None:
        self.geometry = geometry
        self.lines = geometry.lines
        self.full = geometry.full_mask
        self.size = geometry.size
        self.symmetries = tuple(symmetries or Classes(geometry).symmetries)
        self.bound = bound if bound is not None else (geometry.size + 1) // 2
        self.chains = ChainSearch(self.lines)
        self.on_progress = on_progress
        self.every = every
        self.expand = expand
        #: Class key -> (X's move in the class's canonical orientation, line number).
        self.dictionary: dict[int, tuple[int, int]] = {}
        self.lines_read = len(moves)
        for move in moves:
            key, symmetry = self.canonical(move.x, move.o)
            self.dictionary.setdefault(key, (symmetry.perm[move.move], move.number))

    def canonical(self, x: int, o: int) -> tuple[int, Symmetry]:
        """The class's key and a symmetry carrying the position onto its least image."""
        return canonical(self.symmetries, self.size, x, o)

    def walk(self, x: int = 0, o: int = 0) -> DictionaryWalk:
        """Walk from the position (X to move, the game not over) with X's rules against every
        defence."""
        self._x_done: dict[int, str] = {}
        self._o_done: set[int] = set()
        self._used: set[int] = set()
        self._wins = self._blocks = self._forced = 0
        self._longest = 0
        self._path: list[int] = []
        self._failure: tuple[str, int, int, tuple[int, ...]] | None = None
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 8 * self.size + 1000))
        try:
            self._x_to_move(x, o)
        except _Failed:
            pass
        finally:
            sys.setrecursionlimit(limit)
        failure = self._failure
        return DictionaryWalk(
            complete=failure is None,
            positions=len(self._x_done),
            replies=len(self._o_done),
            wins=self._wins,
            blocks=self._blocks,
            used=tuple(sorted(self._used)),
            unused=self.lines_read - len(self._used),
            forced_wins=self._forced,
            longest_chain=self._longest,
            failure=None if failure is None else failure[0],
            failure_position=None
            if failure is None
            else status_string(failure[1], failure[2], self.size),
            failure_line=None if failure is None else failure[3],
            expanded=None
            if not self.expand
            else {
                kind: sum(1 for value in self._x_done.values() if value == kind)
                for kind in ("dictionary", "block", "chain")
            },
        )

    def _fail(self, reason: str, x: int, o: int) -> _Failed:
        self._failure = (reason, x, o, tuple(self._path))
        return _Failed()

    def _x_to_move(self, x: int, o: int) -> None:
        lines = self.lines
        if threats(lines, x, o):
            self._wins += 1
            return
        theirs = threats(lines, o, x)
        if theirs:
            if theirs & (theirs - 1):
                cells = ", ".join(map(str, mask_cells(theirs)))
                raise self._fail(f"O threatens two cells ({cells}): X can block only one", x, o)
            self._blocks += 1
            if self.expand:  # a line of a dictionary without the block rule
                key, _ = self.canonical(x, o)
                if key in self._x_done:
                    return
                self._x_done[key] = "block"
                self._report()
            self._o_to_move(x | theirs, o, theirs.bit_length() - 1)
            return
        key, symmetry = self.canonical(x, o)
        if key in self._x_done:
            return
        entry = self.dictionary.get(key)
        if entry is not None:
            self._x_done[key] = "dictionary"
            self._report()
            self._used.add(entry[1])
            move = symmetry.inverse_perm[entry[0]]
            self._o_to_move(x | 1 << move, o, move)
        elif self.chains.exists(x, o, self.bound):
            self._x_done[key] = "chain"
            self._report()
            self._forced += 1
            # The longest shortest chain so far: a chain within it needs no exact length.
            if not self.chains.exists(x, o, self._longest):
                self._longest = self.chains.length(x, o, self.bound) or self.bound
            if self.expand:
                start = self.chains.first_move(x, o, self.bound)
                assert start is not None, "a chain exists"
                self._o_to_move(x | 1 << start, o, start)
        else:
            raise self._fail(
                "no rule gives X a move: no win at once, nothing to block, not in the dictionary "
                "and no forced win",
                x,
                o,
            )

    def _o_to_move(self, x: int, o: int, last: int) -> None:
        self._path.append(last)
        try:
            key, _ = self.canonical(x, o)
            if key in self._o_done:
                return
            self._o_done.add(key)
            if not ~(x | o) & self.full:
                raise self._fail("the board is full without a line of X", x, o)
            for reply in mask_cells(self.full & ~(x | o)):
                self._path.append(reply)
                try:
                    after = o | 1 << reply
                    if any(line & after == line for line in self.geometry.lines_through[reply]):
                        raise self._fail("O completes a line", x, after)
                    self._x_to_move(x, after)
                finally:
                    self._path.pop()
        finally:
            self._path.pop()

    def _report(self) -> None:
        """Progress, when the classes with X to move reach a multiple of ``every`` (called as each
        class is added, before the walk goes below it, so no multiple is passed over)."""
        if self.on_progress is not None and len(self._x_done) % self.every == 0:
            self.on_progress(len(self._x_done), len(self._o_done), len(self._used))


def dictionary_certificate(
    path: str | Path,
    geometry: Geometry,
    moves: Sequence[StrategicMove],
    rules: Rules,
) -> int:
    """Write ``moves`` (lines of a dictionary, each unchanged: its position and its move) as an
    ``oxo-strategy/1`` certificate of X's win with ``rules``, its header naming the symmetries the
    dictionary's classes need beyond the board's own; returns the entries written. The file proves
    X's win only if its checker accepts it (``oxo verify``)."""
    header = StrategyHeader.for_board(
        geometry, "x", "win", rules, extra_generators(geometry) or None
    )
    entries = [MoveEntry(status_string(m.x, m.o, geometry.size), m.move) for m in moves]
    return write_certificate(path, header, entries)
