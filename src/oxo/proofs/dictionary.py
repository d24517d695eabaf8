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
its definition, so the walk does not go on below it. The walk keeps its own stack (no recursion),
so it can be saved to a state file between two steps and go on from it in another process; its
forced chains and classes are compiled (:mod:`oxo.proofs.chainkernel`). From the empty board it
is complete: 306,813 classes with X to move, every line used (docs/big-proofs.md).

The notation: each line is a position, a space and a cell (0-63). A position is a string of ``x``
(X's marks), ``o`` (O's marks) and numbers (that many empty cells), cell by cell from cell 0;
empty cells after the last mark are left out; the first line (`` 0``) is the empty board. Cells
are numbered layer by layer, rows top to bottom, cells left to right, as oxo numbers a 4x4x4
board's cells.
"""

from __future__ import annotations

import hashlib
import io
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from oxo.errors import DictionaryError
from oxo.fileio import write_atomic
from oxo.geometry import Geometry, Symmetry, mask_cells
from oxo.proofs.certificate import MoveEntry, StrategyHeader, status_string, write_certificate
from oxo.proofs.chainkernel import CompiledChainSearch, CompiledClasses
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
    #: Processor time of the walk, over every run of it that a state file joined (seconds).
    cpu_seconds: float = field(default=0.0, compare=False)

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
            "walk_cpu_seconds": round(self.cpu_seconds, 1),
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
    dictionary that needs no rule but the win at once. With ``compiled`` (on boards of at most 64
    cells) the forced chains and the classes are worked out by :mod:`oxo.proofs.chainkernel` (the
    same answers, many times faster; the chain search's verdicts kept across positions).
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
        compiled: bool = True,
    ) -> None:
        self.geometry = geometry
        self.lines = geometry.lines
        self.full = geometry.full_mask
        self.size = geometry.size
        self.symmetries = tuple(symmetries or Classes(geometry).symmetries)
        self.bound = bound if bound is not None else (geometry.size + 1) // 2
        self.chains: ChainSearch | CompiledChainSearch
        self._classes: CompiledClasses | None = None
        if compiled and self.size <= 64 and len({len(c) for c in geometry.line_cells}) == 1:
            self.chains = CompiledChainSearch(geometry.line_cells, self.size)
            self._classes = CompiledClasses([s.perm for s in self.symmetries], self.size)
        else:
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
        if self._classes is not None:
            key, index = self._classes.canonical(x, o)
            return key, self.symmetries[index]
        return canonical(self.symmetries, self.size, x, o)

    def walk(
        self,
        x: int = 0,
        o: int = 0,
        *,
        state: str | Path | None = None,
        save_every: float = 300.0,
    ) -> DictionaryWalk:
        """Walk from the position (X to move, the game not over) with X's rules against every
        defence.

        With ``state`` (a file), the walk is saved there about every ``save_every`` seconds and
        when it ends (written atomically), and a walk started again with the same file goes on
        from the last save (refused, with :class:`DictionaryError`, if the file is of another
        walk: another root, dictionary, bound or ``expand``)."""
        self._x_done: dict[int, int] = {}
        self._o_done: set[int] = set()
        self._used: set[int] = set()
        self._wins = self._blocks = self._forced = 0
        self._longest = 0
        #: The positions with O to move whose replies are being walked, outermost first: [X's
        #: marks, O's, X's move that led there, the replies not yet tried (a mask), the reply
        #: being tried (-1 before the first)].
        self._frames: list[list[int]] = []
        self._failure: tuple[str, int, int, tuple[int, ...]] | None = None
        self._cpu_before = 0.0
        self._cpu_start = time.process_time()
        path = None if state is None else Path(state)
        identity = self._identity(x, o)
        resumed = path is not None and path.exists()
        if resumed:
            assert path is not None
            self._load(path, identity)
        try:
            if not resumed:
                self._x_to_move(x, o)
            saved = time.monotonic()
            while self._frames:
                if path is not None and time.monotonic() - saved >= save_every:
                    self._save(path, identity)
                    saved = time.monotonic()
                self._step()
        except _Failed:
            self._frames = []
        if path is not None:
            self._save(path, identity)
        return self._verdict()

    def _step(self) -> None:
        """Try the next reply of the innermost position with O to move (or leave it, all tried)."""
        frame = self._frames[-1]
        fx, fo, _, remaining, _ = frame
        if not remaining:
            self._frames.pop()
            return
        low = remaining & -remaining
        frame[3] = remaining ^ low
        reply = low.bit_length() - 1
        frame[4] = reply
        after = fo | low
        if any(line & after == line for line in self.geometry.lines_through[reply]):
            raise self._fail("O completes a line", fx, after)
        self._x_to_move(fx, after)

    def _line(self) -> list[int]:
        """The cells played from the root to the position being looked at."""
        line = []
        for frame in self._frames:
            line.append(frame[2])
            if frame[4] >= 0:
                line.append(frame[4])
        return line

    def _verdict(self) -> DictionaryWalk:
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
                kind: sum(1 for value in self._x_done.values() if value == code)
                for code, kind in enumerate(KINDS)
            },
            cpu_seconds=self._cpu_before + time.process_time() - self._cpu_start,
        )

    def _fail(self, reason: str, x: int, o: int, last: int | None = None) -> _Failed:
        line = self._line() + ([] if last is None else [last])
        self._failure = (reason, x, o, tuple(line))
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
                self._x_done[key] = BLOCK
                self._report()
            self._o_to_move(x | theirs, o, theirs.bit_length() - 1)
            return
        key, symmetry = self.canonical(x, o)
        if key in self._x_done:
            return
        entry = self.dictionary.get(key)
        if entry is not None:
            self._x_done[key] = DICTIONARY
            self._report()
            self._used.add(entry[1])
            move = symmetry.inverse_perm[entry[0]]
            self._o_to_move(x | 1 << move, o, move)
        elif self.chains.exists(x, o, self.bound):
            self._x_done[key] = CHAIN
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
        """Queue the position (O to move, after X's move ``last``) for its replies, once a class."""
        key, _ = self.canonical(x, o)
        if key in self._o_done:
            return
        self._o_done.add(key)
        empty = self.full & ~(x | o)
        if not empty:
            raise self._fail("the board is full without a line of X", x, o, last)
        self._frames.append([x, o, last, empty, -1])

    def _report(self) -> None:
        """Progress, when the classes with X to move reach a multiple of ``every`` (called as each
        class is added, before the walk goes below it, so no multiple is passed over)."""
        if self.on_progress is not None and len(self._x_done) % self.every == 0:
            self.on_progress(len(self._x_done), len(self._o_done), len(self._used))

    # -- the state file ------------------------------------------------------------------------

    def _identity(self, x: int, o: int) -> dict[str, object]:
        """What a state file must match to be this walk's."""
        lines = hashlib.sha256(repr(sorted(self.dictionary.items())).encode()).hexdigest()
        return {
            "format": STATE_FORMAT,
            "root": status_string(x, o, self.size),
            "dictionary": lines,
            "bound": self.bound,
            "expand": self.expand,
            "symmetries": len(self.symmetries),
        }

    def _save(self, path: Path, identity: dict[str, object]) -> None:
        """Write the walk as it stands (between two steps) to ``path``, atomically."""
        meta = {
            **identity,
            "used": sorted(self._used),
            "counts": [self._wins, self._blocks, self._forced, self._longest],
            "cpu_seconds": self._cpu_before + time.process_time() - self._cpu_start,
            "frames": self._frames,
            "failure": None if self._failure is None else list(self._failure),
        }
        x_keys = list(self._x_done)
        buffer = io.BytesIO()
        np.savez(
            buffer,
            meta=np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8),
            x_keys=_key_array(x_keys, self.size),
            x_kinds=np.fromiter(self._x_done.values(), dtype=np.uint8, count=len(x_keys)),
            o_keys=_key_array(list(self._o_done), self.size),
        )
        write_atomic(path, buffer.getvalue())

    def _load(self, path: Path, identity: dict[str, object]) -> None:
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(data["meta"].tobytes())
                x_keys = _key_list(data["x_keys"], self.size)
                x_kinds = data["x_kinds"].tolist()
                o_keys = _key_list(data["o_keys"], self.size)
        except (OSError, ValueError, KeyError) as error:
            raise DictionaryError(f"{path}: not a walk's state file ({error})") from None
        other = {key: meta.get(key) for key in identity}
        if other != identity:
            raise DictionaryError(
                f"{path} is the state of another walk ({other}), not of this one ({identity})"
            )
        self._x_done = dict(zip(x_keys, x_kinds, strict=True))
        self._o_done = set(o_keys)
        self._used = set(meta["used"])
        self._wins, self._blocks, self._forced, self._longest = meta["counts"]
        self._cpu_before = float(meta.get("cpu_seconds", 0.0))
        self._frames = [list(frame) for frame in meta["frames"]]
        failure = meta["failure"]
        if failure is not None:
            self._failure = (failure[0], failure[1], failure[2], tuple(failure[3]))


#: The kinds of classes with X to move, as a state file stores them.
KINDS = ("dictionary", "block", "chain")
DICTIONARY, BLOCK, CHAIN = range(3)
#: The version of a walk's state file.
STATE_FORMAT = "oxo-dictionary-walk/1"


def _key_array(keys: list[int], size: int) -> np.ndarray:
    """Class keys (``X << size | O``, at most 128 bits) as rows of two ``uint64``."""
    out = np.zeros((len(keys), 2), dtype=np.uint64)
    if keys:
        low = (1 << size) - 1
        out[:, 0] = np.array([key >> size for key in keys], dtype=np.uint64)
        out[:, 1] = np.array([key & low for key in keys], dtype=np.uint64)
    return out


def _key_list(array: np.ndarray, size: int) -> list[int]:
    return [high << size | low for high, low in array.tolist()]


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
