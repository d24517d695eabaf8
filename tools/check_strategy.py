#!/usr/bin/env python3
"""Check an oxo-strategy/1 certificate without oxo: the standard library of Python 3.10 or later.

    python3 tools/check_strategy.py FILE [--whole] [--jobs N] [--json]
                                    [--resume RECORD [--max-sections N] [--max-seconds S]]

Written from the format's description (the top of src/oxo/proofs/certificate.py and
docs/proofs.md), not from oxo's checker, so that a certificate accepted by both is accepted by two
programs that share no code. The certificate claims that one side ("side") wins ("win") or never
loses ("no-loss") an m x n board (or a box of up to 5 sides, such as 4x4x4x4) with k in a row,
with or without gravity ("gravity": true: a mark drops to the lowest empty cell of its column),
whatever the opponent does; this program plays the side's moves from the certificate and every
opponent reply, from the empty board, or from the position the header names ("start": the claim is
then about the game that goes on from there).

A header may name rules ("rules": {"block": true, "chain": D}) that give the side's moves the
entries leave out, and symmetries beyond the box's own ("symmetries": cell permutations that carry
lines onto lines); see the format's description. A file whose header lists "sections" is checked a
section at a time, holding one section's entries in memory (--whole reads every entry into one
table instead); --jobs N walks N sections at once, each in a process of its own, with the same
verdict. A check of a big file can be done in parts: --resume RECORD keeps the sections judged
to hold in the file RECORD (named with the certificate's SHA-256 and this program's), and a later
call with the same RECORD judges only the others (the top section, 0, is walked every time: it
says where the other sections' walks begin); --max-sections N and --max-seconds S end a call early.
Exit status: 0 the certificate holds, 1 it does not (the first failing position is printed), 2 the
file is not a well-formed certificate (or the record cannot be used), 3 a check stopped by
--max-sections or --max-seconds with sections still to judge, none failing so far.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import itertools
import json
import os
import signal
import sys
import tempfile
import threading
import time
import zlib
from collections.abc import Callable, Generator, Iterator

try:  # the processor time and memory of worker processes: not on every system
    import resource
except ImportError:  # pragma: no cover  # Windows
    resource = None  # type: ignore[assignment]

FORMAT = "oxo-strategy/1"
MAX_GROUP = 10_000


class Malformed(Exception):
    """The file is not a well-formed certificate."""


# -- the board -------------------------------------------------------------------------------------


class Board:
    """Cells in reading order (first coordinate slowest), lines of k cells, symmetries of the box.
    With gravity the columns run along the first coordinate: the cell under cell c is c + layer
    (one layer: the product of the other sides), and the last layer is the bottom."""

    def __init__(
        self, dims: list[int], k: int, extra: list[list[int]] | None = None, gravity: bool = False
    ) -> None:
        self.dims = dims
        self.k = k
        self.gravity = gravity
        self.coords = list(itertools.product(*(range(d) for d in dims)))
        self.size = len(self.coords)
        self.index = {c: i for i, c in enumerate(self.coords)}
        self.full = (1 << self.size) - 1
        self.layer = self.size // dims[0]
        self.bottom = self.full ^ ((1 << (self.size - self.layer)) - 1)
        self.lines = self._lines()
        self.through = [[m for m in self.lines if m >> cell & 1] for cell in range(self.size)]
        # The lines as sets of line numbers (bit i stands for self.lines[i]): every line, and the
        # lines through each cell. The chain rule counts marks on all lines at once with them.
        self.all_lines = (1 << len(self.lines)) - 1
        self.line_sets = [
            sum(1 << i for i, m in enumerate(self.lines) if m >> cell & 1)
            for cell in range(self.size)
        ]
        self.planes = max(k, 1).bit_length()  # bits of a count of marks on a line (at most k)
        self.perms = self._perms()
        if extra:
            self.perms = self._generated(self.perms, extra)
        # For each symmetry, the image of each cell as a one-bit mask.
        self.cell_bits = [[1 << target for target in perm] for perm in self.perms]
        # Every symmetry's image of a cell at once: ``side_by_side[c]`` holds, for each symmetry s,
        # the one-bit mask of s's image of c in a field of ``self.width`` bytes, symmetry 0's field
        # the highest. The images of a set of cells add up field by field without carries (one
        # symmetry takes distinct cells to distinct cells), and the bytes of the sum, big end
        # first, are the fields in symmetry order, each field's bytes comparing as its number does.
        self.width = (self.size + 7) // 8
        count = len(self.perms)
        self.side_by_side = []
        for c in range(self.size):
            raw = bytearray(count * self.width)
            for s, perm in enumerate(self.perms):
                target = perm[c]
                raw[(s + 1) * self.width - 1 - target // 8] |= 1 << target % 8
            self.side_by_side.append(int.from_bytes(raw, "big"))

    def _lines(self) -> list[int]:
        found: list[int] = []
        steps = [
            s
            for s in itertools.product((-1, 0, 1), repeat=len(self.dims))
            if any(s) and next(v for v in s if v) > 0
        ]
        for step in steps:
            for start in self.coords:
                cells = []
                for i in range(self.k):
                    c = tuple(a + i * b for a, b in zip(start, step))
                    if c not in self.index:
                        break
                    cells.append(self.index[c])
                else:
                    mask = sum(1 << c for c in cells)
                    if mask not in found:
                        found.append(mask)
        return found

    def _perms(self) -> list[list[int]]:
        """Every map that permutes axes of equal length and mirrors any of them, as cell maps."""
        n = len(self.dims)
        out = []
        for axes in itertools.permutations(range(n)):
            if any(self.dims[a] != self.dims[i] for i, a in enumerate(axes)):
                continue
            for flips in itertools.product((False, True), repeat=n):
                perm = []
                for c in self.coords:
                    image = tuple(
                        self.dims[i] - 1 - c[axes[i]] if flips[i] else c[axes[i]] for i in range(n)
                    )
                    perm.append(self.index[image])
                if self.gravity and any(
                    self.coords[p][0] != c[0] for c, p in zip(self.coords, perm)
                ):
                    continue  # with gravity a symmetry keeps every cell at its height
                if perm not in out:
                    out.append(perm)
        return out

    def _generated(self, own: list[list[int]], extra: list[list[int]]) -> list[list[int]]:
        """The group generated by the box's symmetries and the header's: every product, until no
        new permutation appears (at most MAX_GROUP of them)."""
        line_set = set(self.lines)
        for number, perm in enumerate(extra):
            if sorted(perm) != list(range(self.size)):
                raise Malformed(f"symmetry {number} is not a permutation of the cells")
            for m in self.lines:
                image = 0
                for c in range(self.size):
                    if m >> c & 1:
                        image |= 1 << perm[c]
                if image not in line_set:
                    raise Malformed(f"symmetry {number} does not carry lines onto lines")
        group = [tuple(p) for p in own]
        known = set(group)
        queue = list(group)
        while queue:
            element = queue.pop()
            for generator in extra:
                product = tuple(generator[element[c]] for c in range(self.size))
                if product not in known:
                    if len(known) >= MAX_GROUP:
                        raise Malformed(
                            f"the symmetries generate more than {MAX_GROUP} permutations"
                        )
                    known.add(product)
                    group.append(product)
                    queue.append(product)
        return [list(p) for p in group]

    def playable(self, taken: int) -> int:
        """The empty cells a mark may go to: all of them, or with gravity those on the bottom layer
        or with their cell under them taken."""
        empty = self.full & ~taken
        if not self.gravity:
            return empty
        return empty & (taken >> self.layer | self.bottom)

    def floating(self, taken: int) -> bool:
        """With gravity: whether some mark stands above an empty cell."""
        return self.gravity and bool(taken & ~self.bottom & ~(taken >> self.layer))

    def canon(self, x: int, o: int) -> tuple[tuple[int, int], int]:
        """The least (X image, O image) over the symmetries, and the first symmetry giving it.

        X's images under all the symmetries are made at once (``side_by_side``) and the least
        found among them; O's image is made only for the symmetries that give that least X."""
        width, count = self.width, len(self.perms)
        images = sum(map(self.side_by_side.__getitem__, self.cells_of(x))).to_bytes(
            count * width, "big"
        )
        fields = [images[i : i + width] for i in range(0, count * width, width)]
        least = min(fields)
        xi = int.from_bytes(least, "big")
        os_ = self.cells_of(o)
        best: tuple[int, int] | None = None
        which = 0
        for s, field in enumerate(fields):
            if field == least:
                oi = sum(map(self.cell_bits[s].__getitem__, os_))
                if best is None or oi < best[1]:
                    best, which = (xi, oi), s
        assert best is not None
        return best, which

    @staticmethod
    def cells_of(mask: int) -> list[int]:
        """The cells of a mask, lowest first."""
        out = []
        while mask:
            low = mask & -mask
            out.append(low.bit_length() - 1)
            mask ^= low
        return out


# -- reading ---------------------------------------------------------------------------------------


def read_lines(path: str) -> Iterator[tuple[int, bytes]]:
    """(line number, text) of every non-blank line, the text unparsed: a section's entries are
    parsed where they are judged, and a section judged before (``--resume``) is only counted."""
    number = 0
    try:
        with gzip.open(path, "rb") as handle:
            for number, text in enumerate(handle, start=1):
                if text.strip():
                    yield number, text
    except (OSError, EOFError, zlib.error) as error:
        raise Malformed(f"cannot read the gzip data (after line {number}): {error}") from None


def parsed(number: int, text: bytes) -> object:
    """One line's JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise Malformed(f"line {number}: not JSON ({error.msg})") from None
    except UnicodeDecodeError:
        raise Malformed(f"line {number}: not UTF-8 text") from None


def is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def parse_header(data: object):
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise Malformed(f"line 1 is not an {FORMAT} header")
    for key in ("board", "dims", "k", "side", "guarantee"):
        if key not in data:
            raise Malformed(f"the header lacks {key}")
    dims, k = data["dims"], data["k"]
    if (
        not isinstance(dims, list)
        or not 2 <= len(dims) <= 5
        or not all(is_int(d) and d >= 1 for d in dims)
    ):
        raise Malformed(f"bad dims {dims!r}")
    if data["board"] != "x".join(map(str, dims)):
        raise Malformed(f"board {data['board']!r} does not match dims {dims}")
    if not is_int(k) or k < 1 or k > max(dims):
        raise Malformed(f"bad k {k!r}")
    if data["side"] not in ("x", "o") or data["guarantee"] not in ("win", "no-loss"):
        raise Malformed("side must be x or o, guarantee win or no-loss")
    rules = data.get("rules", {})
    if not isinstance(rules, dict) or set(rules) - {"block", "chain"}:
        raise Malformed(
            f"rules must be an object with the keys block and chain only, got {rules!r}"
        )
    if not isinstance(rules.get("block", False), bool):
        raise Malformed("the block rule is true or false")
    chain = rules.get("chain", 0)
    if not is_int(chain) or chain < 0:
        raise Malformed("the chain rule's bound is a whole number")
    size = 1
    for d in dims:
        size *= d
    extra = data.get("symmetries")
    if extra is not None and (
        not isinstance(extra, list)
        or not all(
            isinstance(p, list) and len(p) == size and all(is_int(c) for c in p) for p in extra
        )
    ):
        raise Malformed("symmetries must be a list of permutations of the cells")
    if not isinstance(data.get("gravity", False), bool):
        raise Malformed(f"gravity must be true or false, got {data['gravity']!r}")
    if data.get("gravity", False) and ("rules" in data or extra is not None):
        raise Malformed("rules and symmetries are not defined on a board with gravity")
    return data


def position(board: Board, text: object, where: str) -> tuple[int, int]:
    if not isinstance(text, str) or len(text) != board.size or set(text) - set("012"):
        raise Malformed(f"{where}: bad position {text!r}")
    x = sum(1 << i for i, ch in enumerate(text) if ch == "1")
    o = sum(1 << i for i, ch in enumerate(text) if ch == "2")
    if bin(x).count("1") - bin(o).count("1") not in (0, 1):
        raise Malformed(f"{where}: impossible mark counts in {text}")
    return x, o


def cell(board: Board, value: object, where: str) -> int:
    if not is_int(value) or not 0 <= value < board.size:
        raise Malformed(f"{where}: {value!r} is not a cell")
    return value


class Strategy:
    """The entries of (part of) a certificate, by class: moves, and pairings; and the header's
    rules (``block``: take the opponent's one threat; ``chain``: the bound of forced chains)."""

    def __init__(
        self, board: Board, side: str, no_loss: bool, block: bool = False, chain: int = 0
    ) -> None:
        self.board, self.side, self.no_loss = board, side, no_loss
        self.block, self.chain = block, chain
        self.moves: dict[tuple[int, int], set[int]] = {}
        self.pairings: dict[tuple[int, int], list[list[tuple[int, int]]]] = {}

    def add(self, data: object, where: str) -> None:
        board = self.board
        if not isinstance(data, dict):
            raise Malformed(f"{where}: an entry must be a JSON object")
        keys = set(data)
        if keys not in ({"position", "move"}, {"position", "pairing"}):
            raise Malformed(f"{where}: unexpected keys {sorted(keys)}")
        x, o = position(board, data["position"], where)
        mover = "x" if bin(x).count("1") == bin(o).count("1") else "o"
        key, s = board.canon(x, o)
        perm = board.perms[s]
        if "move" in keys:
            if mover != self.side:
                raise Malformed(f"{where}: a move entry where the opponent is to move")
            self.moves.setdefault(key, set()).add(perm[cell(board, data["move"], where)])
            return
        if not self.no_loss:
            raise Malformed(f"{where}: a pairing in a win certificate")
        if board.gravity:
            raise Malformed(f"{where}: a pairing with gravity")
        if mover == self.side:
            raise Malformed(f"{where}: a pairing where the side is to move")
        pairs = data["pairing"]
        if not isinstance(pairs, list):
            raise Malformed(f"{where}: a pairing is a list of pairs")
        mapped = []
        for pair in pairs:
            if not isinstance(pair, list) or len(pair) != 2:
                raise Malformed(f"{where}: {pair!r} is not a pair")
            a, b = (perm[cell(board, c, where)] for c in pair)
            mapped.append((a, b))
        self.pairings.setdefault(key, []).append(mapped)


# -- the rules -------------------------------------------------------------------------------------


def has_chain(board: Board, mine: int, theirs: int, depth: int, failed: dict) -> bool:
    """The chain rule: whether the side (marks ``mine``, to move, no line to complete at once) has
    a forced chain of at most ``depth`` moves against the opponent's marks ``theirs``. The opponent
    must have at most one threat; the side plays that cell if there is one, else any empty cell;
    the move must leave the side a threat: two or more cells and the chain ends (one of them stays
    open), exactly one and the opponent takes it, after which the side needs a chain one move
    shorter. ``failed`` remembers, per position, the longest bound already found to fail.

    Only a cell of a line of the side's that lacks two marks (and holds none of the opponent's)
    can leave a threat, so those are the moves tried (among them the one blocking cell, if any).
    The marks on the lines are counted for all lines at once (:class:`Tally`), and each move of
    the chain adds its cell's lines to the counts."""
    return _chain(board, Tally(board, mine), Tally(board, theirs), depth, failed) is not None


class Tally:
    """The marks ``marks`` of one side, with how many of them each line holds, for all lines at
    once: ``planes[j]`` is the set of lines (bit i: ``board.lines[i]``) whose count has bit j set;
    ``touched`` the set of lines holding at least one of them."""

    __slots__ = ("board", "marks", "planes", "touched")

    def __init__(self, board: Board, marks: int = 0) -> None:
        self.board = board
        self.marks = 0
        self.planes = [0] * board.planes
        self.touched = 0
        while marks:
            low = marks & -marks
            marks ^= low
            self._add(low)

    def plus(self, cell_bit: int) -> Tally:
        """A copy with one more mark (``cell_bit``: the cell as a one-bit mask): as :meth:`_add`
        on a copy, written out here because the chain rule makes millions of them."""
        lines = self.board.line_sets[cell_bit.bit_length() - 1]
        planes = self.planes[:]
        grown = Tally.__new__(Tally)
        grown.board, grown.marks, grown.planes = self.board, self.marks | cell_bit, planes
        grown.touched = self.touched | lines
        for j, plane in enumerate(planes):  # one more on each of these lines: a ripple carry
            planes[j], lines = plane ^ lines, plane & lines
            if not lines:
                break
        return grown

    def _add(self, cell_bit: int) -> None:
        lines = self.board.line_sets[cell_bit.bit_length() - 1]
        self.marks |= cell_bit
        self.touched |= lines
        for j in range(len(self.planes)):  # one more on each of these lines: a ripple carry
            self.planes[j], lines = self.planes[j] ^ lines, self.planes[j] & lines
            if not lines:
                break

    def holding(self, count: int) -> int:
        """The set of lines that hold exactly ``count`` of the marks."""
        if count < 0:
            return 0
        out = self.board.all_lines
        for j, plane in enumerate(self.planes):
            out &= plane if count >> j & 1 else ~plane
        return out

    def threats(self, other: Tally) -> int:
        """The cells where these marks would complete a line at once (the lines they lack one
        mark of, holding none of the ``other`` side's)."""
        return self.cells(self.holding(self.board.k - 1) & ~other.touched)

    def cells(self, line_set: int) -> int:
        """The cells of the lines in ``line_set`` that are not among these marks, as one mask."""
        out = 0
        while line_set:
            low = line_set & -line_set
            line_set ^= low
            out |= self.board.lines[low.bit_length() - 1] & ~self.marks
        return out


def _chain(
    board: Board, mine: Tally, theirs: Tally, depth: int, failed: dict, hint: tuple[int, ...] = ()
) -> tuple[int, ...] | None:
    """:func:`has_chain` with both sides' marks tallied: the side's moves of a chain found, or
    None. The moves of ``hint`` (a chain found before) are tried first, as long as each is one of
    the moves tried: the order of the tries changes how soon a chain is found, not whether."""
    key = (mine.marks, theirs.marks)
    if depth < 1 or failed.get(key, 0) >= depth:
        return None
    # The opponent's threats (``danger``: cells of its lines short of one mark, none of the side's).
    danger = theirs.threats(mine)
    if danger & (danger - 1):
        return None
    # The lines the side's move can make a threat on: short of two marks, none of theirs.
    two_short = mine.holding(board.k - 2) & ~theirs.touched
    if hint:  # the hint's move first, if it is one of the moves tried
        low = 1 << hint[0]
        threats = mine.cells(board.line_sets[hint[0]] & two_short) & ~low
        if threats and (not danger or danger == low) and not (mine.marks | theirs.marks) & low:
            if threats & (threats - 1):
                return hint[:1]
            found = _chain(board, mine.plus(low), theirs.plus(threats), depth - 1, failed, hint[1:])
            if found is not None:
                return (hint[0], *found)
    # Each such line has two empty cells: a move on either makes a threat on the other. ``made``:
    # for each such cell (as a one-bit mask), the threats a move there makes.
    made: dict[int, int] = {}
    lines = two_short
    while lines:
        low = lines & -lines
        lines ^= low
        empty = board.lines[low.bit_length() - 1] & ~mine.marks
        one = empty & -empty
        other = empty ^ one
        made[one] = made.get(one, 0) | other
        made[other] = made.get(other, 0) | one
    # The moves tried: the one blocking cell if the opponent has a threat, else every such cell.
    tries = ([danger] if danger in made else []) if danger else sorted(made)
    singles = []
    for low in tries:
        threats = made[low]
        if threats & (threats - 1):
            return (low.bit_length() - 1,)  # two threats: the opponent can take only one
        singles.append((low, threats))
    if depth > 1:
        for low, threats in singles:
            found = _chain(board, mine.plus(low), theirs.plus(threats), depth - 1, failed)
            if found is not None:
                return (low.bit_length() - 1, *found)
    failed[key] = depth
    return None


# -- the walk --------------------------------------------------------------------------------------


class Walker:
    """Plays the strategy against every reply. ``ends``: classes answered elsewhere (sections)."""

    def __init__(self, strategy: Strategy, ends: set[tuple[int, int]] | None = None) -> None:
        self.s = strategy
        self.b = strategy.board
        self.side_is_x = strategy.side == "x"
        self.ends = ends or set()
        self.met: dict[tuple[int, int], tuple[int, int, list[int]]] = {}
        self.done: dict[tuple[int, int], str | None] = {}
        self.path: list[int] = []
        self.played = 0
        self.blocks = 0
        self.chains = 0
        # X's and O's marks of the position being judged, tallied on the lines (step keeps them)
        self.tx = self.to = Tally(self.b, 0)
        self.hint: tuple[int, ...] = ()  # the side's moves of the last forced chain found

    def start(self, x: int, o: int) -> str | None:
        key, _ = self.b.canon(x, o)
        if key in self.ends:
            self.met.setdefault(key, (x, o, list(self.path)))
            return None
        mine, theirs = (x, o) if self.side_is_x else (o, x)
        if self.b.floating(x | o):
            return self.why("a mark floats above an empty cell", x, o)
        if any(theirs & m == m for m in self.b.lines):
            return self.why("the opponent already has a line", x, o)
        if any(mine & m == m for m in self.b.lines):
            return None
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 6 * self.b.size + 500))
        self.tx, self.to = Tally(self.b, x), Tally(self.b, o)
        try:
            return self.node(x, o, None)
        finally:
            sys.setrecursionlimit(old)

    def why(self, reason: str, x: int, o: int) -> str:
        text = "".join(
            "1" if x >> i & 1 else "2" if o >> i & 1 else "0" for i in range(self.b.size)
        )
        return f"{reason} at position {text} (moves from the empty board: {' '.join(map(str, self.path)) or 'none'})"

    def node(self, x: int, o: int, last: int | None) -> str | None:
        over, answer = self.at_once(x, o, last)
        if over:  # decided by the board alone: no need to look the position up
            return answer
        over, answer = self.by_rule(x, o)
        if over:  # decided by the board and the header's rules
            return answer
        key, s = self.b.canon(x, o)
        if key in self.done:
            return self.done[key]
        if last is not None and key in self.ends:
            self.met.setdefault(key, (x, o, list(self.path)))
            return None
        self.done[key] = answer = self.judge(x, o, key, s)
        return answer

    def at_once(self, x: int, o: int, last: int | None) -> tuple[bool, str | None]:
        """(True, verdict) when the board alone decides the position: a line completed by the last
        move, a full board, no line left to the opponent (no-loss), or a line the side completes
        with its move; (False, None) when the strategy must be followed."""
        b = self.b
        mine, theirs = (x, o) if self.side_is_x else (o, x)
        if last is not None:
            for m in b.through[last]:
                if theirs & m == m:
                    return True, self.why("the opponent completes a line", x, o)
                if mine & m == m:
                    return True, None
        if x | o == b.full:
            if self.s.no_loss:
                return True, None
            return True, self.why("a full board without a line of the side", x, o)
        if self.s.no_loss and all(m & mine for m in b.lines):
            return True, None
        to_move_x = bin(x).count("1") == bin(o).count("1")
        if to_move_x == self.side_is_x:
            own, other = self.tallies()
            if own.threats(other) & b.playable(x | o):
                return True, None
        return False, None

    def tallies(self) -> tuple[Tally, Tally]:
        """The side's marks and the opponent's, tallied on the lines."""
        return (self.tx, self.to) if self.side_is_x else (self.to, self.tx)

    def by_rule(self, x: int, o: int) -> tuple[bool, str | None]:
        """(True, verdict) when the header's rules decide the position: the side to move (with no
        line to complete at once) must block the opponent's one threat, or loses to two of them
        (block rule), or has a forced chain (chain rule: the side wins by playing it)."""
        st = self.s
        if not (st.block or st.chain):
            return False, None
        if (bin(x).count("1") == bin(o).count("1")) != self.side_is_x:
            return False, None
        own, other = self.tallies()
        danger = other.threats(own)
        if st.block and danger:
            if danger & (danger - 1):
                return True, self.why("the opponent threatens two cells, one can be blocked", x, o)
            self.blocks += 1
            return True, self.step(x, o, danger.bit_length() - 1)
        if st.chain:
            found = _chain(self.b, own, other, st.chain, {}, self.hint)
            if found is not None:
                self.chains += 1
                self.hint = found  # siblings often have the same chain: it is tried first there
                return True, None
        return False, None

    def judge(self, x: int, o: int, key: tuple[int, int], s: int) -> str | None:
        """The verdict on a position the board alone does not decide."""
        b = self.b
        mine = x if self.side_is_x else o
        taken = x | o
        free = b.playable(taken)
        to_move_x = bin(x).count("1") == bin(o).count("1")
        if to_move_x == self.side_is_x:
            choices = self.s.moves.get(key)
            if not choices:
                return self.why("no move for this position", x, o)
            self.played += 1
            back = {v: i for i, v in enumerate(b.perms[s])}
            first = None
            for canonical in sorted(choices):
                move = back[canonical]
                if taken >> move & 1:
                    problem = self.why(f"move {move} is not empty", x, o)
                elif not free >> move & 1:
                    problem = self.why(
                        f"move {move} is not the lowest empty cell of its column", x, o
                    )
                else:
                    problem = self.step(x, o, move)
                if problem is None:
                    return None
                first = first or problem
            return first
        back = {v: i for i, v in enumerate(b.perms[s])}
        bad_pairing = None
        for pairing in self.s.pairings.get(key, []):
            pairs = [(back[a], back[c]) for a, c in pairing]
            problem = self.pairing_problem(pairs, mine, taken)
            if problem is None:
                return None
            bad_pairing = bad_pairing or self.why(f"bad pairing ({problem})", x, o)
        for reply in range(b.size):
            if free >> reply & 1:
                problem = self.step(x, o, reply)
                if problem is not None:
                    return bad_pairing or problem
        return None

    def pairing_problem(self, pairs: list[tuple[int, int]], mine: int, taken: int) -> str | None:
        used = 0
        masks = []
        for a, c in pairs:
            both = 1 << a | 1 << c
            if a == c or both & taken or both & used:
                return f"pair ({a}, {c}) is not two free cells of their own"
            used |= both
            masks.append(both)
        for m in self.b.lines:
            if not m & mine and not any(m & p == p for p in masks):
                return "a line of the opponent holds no whole pair"
        return None

    def step(self, x: int, o: int, move: int) -> str | None:
        self.path.append(move)
        before = self.tx, self.to
        try:
            if bin(x).count("1") == bin(o).count("1"):
                self.tx = self.tx.plus(1 << move)
                return self.node(x | 1 << move, o, move)
            self.to = self.to.plus(1 << move)
            return self.node(x, o | 1 << move, move)
        finally:
            self.path.pop()
            self.tx, self.to = before


# -- the check -------------------------------------------------------------------------------------


class RecordError(Exception):
    """A record given with --resume that cannot be used (unreadable, or about another file)."""


#: How often a record (--resume) is written while sections are judged, in seconds.
SAVE_EVERY = 30.0

Figures = list  # entries, positions, moves, blocks, chains of one section judged to hold


class Record:
    """The sections of one certificate judged to hold so far, each with its figures.

    With a file (``--resume``), kept there between calls: the file names the certificate by its
    SHA-256 and this checker by its own, and a later call judges only the sections not in it, so
    that a check too long for one sitting is done in parts. Without one, held in memory only."""

    FORMAT = "oxo-strategy-check/1"

    def __init__(self, path: str | None, certificate: str, sections: int, jobs: int = 1) -> None:
        self.path, self.sections = path, sections
        self.judged: dict[int, Figures] = {}
        # Each call's date, wall and processor seconds (its worker processes' too), peak memory,
        # processes and sections judged: this call's is the last, brought up to date at each save.
        self.calls: list[dict[str, object]] = []
        self.call: dict[str, object] = {
            "began": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "jobs": jobs,
        }
        self.began = time.monotonic()
        self.before = 0  # sections judged before this call
        # The check's verdict (failure: None when it holds) and figures, once it has one.
        self.verdict: dict[str, object] | None = None
        self.saved = time.monotonic()
        self.on_save: Callable[[], None] | None = None
        if path is None:
            self.certificate = self.checker = ""
            return
        self.certificate, self.checker = sha256_of(certificate), sha256_of(__file__)
        if not os.path.exists(path):
            return
        try:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
            raise RecordError(f"cannot read the record {path}: {error}") from None
        if not isinstance(data, dict) or data.get("format") != self.FORMAT:
            raise RecordError(f"{path} is not a record of this checker ({self.FORMAT})")
        if data.get("certificate_sha256") != self.certificate:
            raise RecordError(
                f"{path} is the record of another file (its SHA-256 differs from this one's): "
                "give another record file, or remove it to start afresh"
            )
        if data.get("checker_sha256") != self.checker:
            raise RecordError(
                f"{path} was made by another version of this checker (its SHA-256 differs): "
                "remove it to start afresh"
            )
        calls = data.get("calls", [])
        if not isinstance(calls, list) or not all(isinstance(c, dict) for c in calls):
            raise RecordError(f"{path}: calls must be a list of objects")
        self.calls = calls
        judged = data.get("judged")
        if data.get("sections") != sections or not isinstance(judged, dict):
            raise RecordError(f"{path} does not list the sections of this file")
        for number, figures in judged.items():
            if (
                not number.isdigit()
                or not 1 <= int(number) < sections
                or not isinstance(figures, list)
                or len(figures) != 5
                or not all(is_int(v) and v >= 0 for v in figures)
            ):
                raise RecordError(f"{path}: bad entry for section {number!r}")
            self.judged[int(number)] = figures
        self.before = len(self.judged)

    def add(self, number: int, figures: Figures) -> None:
        """Section ``number`` holds, with these figures; written to the file now and then, with
        a line on how far the check has come (:attr:`on_save`)."""
        self.judged[number] = list(figures)
        if self.path is not None and time.monotonic() - self.saved >= SAVE_EVERY:
            self.save()
            if self.on_save is not None:
                self.on_save()

    def updated_call(self) -> dict[str, object]:
        """This call's figures so far (a worker's only once it has ended)."""
        self.call.update(seconds=round(time.monotonic() - self.began, 1))
        if resource is not None:
            own = resource.getrusage(resource.RUSAGE_SELF)
            workers = resource.getrusage(resource.RUSAGE_CHILDREN)
            self.call.update(
                cpu_seconds=round(sum(u.ru_utime + u.ru_stime for u in (own, workers)), 1),
                peak_mib=round(max(own.ru_maxrss, workers.ru_maxrss) / 1024),
            )
        self.call.update(sections=len(self.judged) - self.before)
        return self.call

    def save(self) -> None:
        """The record written to its file whole, or not at all (a new file moved into place)."""
        if self.path is None:
            return
        data = {
            "format": self.FORMAT,
            "certificate_sha256": self.certificate,
            "checker_sha256": self.checker,
            "sections": self.sections,
            "calls": [*self.calls, self.updated_call()],
            "judged": {str(n): self.judged[n] for n in sorted(self.judged)},
            **({"verdict": self.verdict} if self.verdict is not None else {}),
        }
        folder = os.path.dirname(os.path.abspath(self.path))
        handle = tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=folder, prefix=".record.", suffix=".tmp", delete=False
        )
        try:
            with handle:
                json.dump(data, handle, separators=(",", ":"))
                handle.flush()
                os.fsync(handle.fileno())
            mask = os.umask(0)
            os.umask(mask)
            os.chmod(handle.name, 0o666 & ~mask)  # as a file made by open, not 0600
            os.replace(handle.name, self.path)
        except BaseException:
            if os.path.exists(handle.name):
                os.unlink(handle.name)
            raise
        self.saved = time.monotonic()


def duration(seconds: float) -> str:
    """A time in words: ``2 h 05 min``, ``7 min``, ``40 s``."""
    if seconds >= 3600:
        return f"{int(seconds // 3600)} h {int(seconds % 3600 // 60):02d} min"
    if seconds >= 60:
        return f"{round(seconds / 60)} min"
    return f"{round(seconds)} s"


def sha256_of(path: str) -> str:
    """The SHA-256 of a file's bytes, in hexadecimal."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


class Budget:
    """When a check given a record stops, its sections not all judged: after ``sections`` more
    sections, or once ``seconds`` have passed (None: no bound)."""

    def __init__(self, sections: int | None = None, seconds: float | None = None) -> None:
        self.sections, self.seconds = sections, seconds
        self.began = time.monotonic()
        self.judged = 0

    def spent(self) -> bool:
        """One more section judged: whether the check stops here."""
        self.judged += 1
        if self.sections is not None and self.judged >= self.sections:
            return True
        return self.seconds is not None and time.monotonic() - self.began >= self.seconds


def check(
    path: str,
    whole: bool = False,
    jobs: int = 1,
    record: str | None = None,
    budget: Budget | None = None,
) -> dict[str, object]:
    """The verdict on the certificate at ``path``: its claim, figures and ``failure`` (None when
    it holds). ``whole``: every entry in one table; ``jobs``: sections walked in that many
    processes; ``record``: a file that keeps the sections judged to hold between calls (then
    ``budget`` may stop the check early: the report says ``unfinished``). Raises
    :class:`Malformed` for a file that is not a well-formed certificate, :class:`RecordError`
    for a record that cannot be used."""
    lines = read_lines(path)
    first = next(lines, None)
    if first is None:
        raise Malformed("the file is empty")
    header = parse_header(parsed(*first))
    board = Board(
        header["dims"], header["k"], header.get("symmetries"), header.get("gravity", False) is True
    )
    side, no_loss = header["side"], header["guarantee"] == "no-loss"
    rules = header.get("rules", {})
    block, chain = rules.get("block", False), rules.get("chain", 0)
    sections = header.get("sections")
    begin = start_of(board, header.get("start"))
    roots = []
    if sections is not None:  # checked in either reading: a header that has them has them right
        if (
            not isinstance(sections, list)
            or not sections
            or not all(
                isinstance(item, list) and len(item) == 2 and is_int(item[1]) and item[1] >= 0
                for item in sections
            )
        ):
            raise Malformed("sections must be a list of [root, count] pairs")
        if sections[0][0] is not None:
            raise Malformed("section 0 must have the root null")
        for number, (root, _) in enumerate(sections[1:], start=1):
            roots.append(board.canon(*position(board, root, f"section {number}"))[0])
    report: dict[str, object] = {
        "board": header["board"],
        **({"gravity": True} if board.gravity else {}),
        "k": header["k"],
        "side": side,
        "guarantee": header["guarantee"],
        **({} if "start" not in header else {"start": header["start"]}),
    }
    if record is not None and (sections is None or whole):
        raise RecordError("a record (--resume) is for a certificate read in sections")
    if sections is None or whole:
        strategy = Strategy(board, side, no_loss, block, chain)
        count = 0
        for number, text in lines:
            strategy.add(parsed(number, text), f"line {number}")
            count += 1
        walker = Walker(strategy)
        failure = walker.start(*begin)
        report.update(entries=count, positions=len(walker.done), moves=walker.played, sections=0)
        report.update(blocks=walker.blocks, chains=walker.chains)
        report["failure"] = failure
        return report
    kept = Record(record, path, len(sections), jobs)
    if record is not None:
        sizes = [size for _, size in sections]
        before = sum(sizes[n] for n in kept.judged)  # entries of the sections judged before
        total = sum(sizes[1:])

        def progress() -> None:
            done = sum(sizes[n] for n in kept.judged)
            rate = (done - before) / max(time.monotonic() - kept.began, 1e-9)
            left = f", about {duration((total - done) / rate)} left" if rate > 0 else ""
            print(
                f"judged {1 + len(kept.judged)} of {len(sections)} sections "
                f"({done:,} of {total:,} entries beyond the top){left}; kept in {record}",
                file=sys.stderr,
                flush=True,
            )

        kept.on_save = progress
    settings = (side, no_loss, block, chain)
    top = Walker(Strategy(board, *settings), set(roots))
    part = take(lines, sections[0][1])
    for number, text in part:
        top.s.add(parsed(number, text), f"line {number}")
    failure = top.start(*begin)
    figures = [len(part), len(top.done), top.played, top.blocks, top.chains]
    count = len(part)  # the entries read
    late: list[Malformed] = []  # an error in reading, raised once the sections before it are judged

    def tasks() -> Iterator[tuple[int, list, tuple | None]]:
        """Each further section not judged before: its number, its entries, and where its walk
        begins (None: it is not walked, only read): its root as met by the top's walk, if no
        walk has failed."""
        nonlocal count
        try:
            for number, (_, size) in enumerate(sections[1:], start=1):
                part = take(lines, size)
                count += size
                if number in kept.judged:
                    continue
                begins = None if failure is not None else top.met.get(roots[number - 1])
                yield number, part, begins
            if next(lines, None) is not None:
                raise Malformed("more entries than the sections hold")
        except Malformed as error:
            late.append(error)

    unfinished = False
    verdicts = each_section(board, header, settings, tasks(), jobs)
    try:
        for number, verdict in verdicts:
            if isinstance(verdict, Malformed):
                raise verdict
            if failure is not None:
                continue  # the sections after the first that fails are only read
            if verdict[5] is None:
                kept.add(number, list(verdict[:5]))
            else:  # the figures of the walks up to the first that fails, that one's too
                figures = [a + b for a, b in zip(figures, verdict[:5])]
                failure = verdict[5]
            left = len(kept.judged) < len(sections) - 1
            if budget is not None and failure is None and budget.spent() and left:
                unfinished = True
                break
    finally:  # Ctrl-C, too: what was judged is kept
        verdicts.close()
        kept.save()
    if late and not unfinished:
        raise late[0]
    for judged in kept.judged.values():
        figures = [a + b for a, b in zip(figures, judged)]
    report.update(entries=count, positions=figures[1], moves=figures[2], sections=len(sections))
    report.update(blocks=figures[3], chains=figures[4])
    if record is not None:
        report.update(judged=1 + len(kept.judged), sha256=kept.certificate)
    if unfinished:
        report["unfinished"] = True
    report["failure"] = failure
    if record is not None and not unfinished:  # the verdict, kept with the sections judged
        kept.verdict = {key: report[key] for key in VERDICT_KEYS}
        kept.save()
    return report


#: What a record keeps of the verdict, once every section is judged or one fails.
VERDICT_KEYS = ("failure", "entries", "positions", "moves", "blocks", "chains", "sections")


def take(lines: Iterator[tuple[int, bytes]], size: int) -> list[tuple[int, bytes]]:
    """The next ``size`` entries (line number, text) of the file."""
    part = list(itertools.islice(lines, size))
    if len(part) < size:
        raise Malformed("the file ends before the sections' entries do")
    return part


Verdict = tuple[int, int, int, int, int, "str | None"]


def walk_section(
    board: Board, settings: tuple, part: list[tuple[int, bytes]], begins: tuple | None
) -> Verdict | Malformed:
    """One section: its entries read (``part``) and, if ``begins`` (X's marks, O's, the moves
    that lead there), its strategy walked from its root. The verdict: entries, positions, moves,
    blocks, chains, failure (None if it holds); or the error that makes the file malformed."""
    strategy = Strategy(board, *settings)
    try:
        for number, text in part:
            strategy.add(parsed(number, text), f"line {number}")
    except Malformed as error:
        return error
    if begins is None:
        return len(part), 0, 0, 0, 0, None
    x, o, way = begins
    walker = Walker(strategy)
    walker.path = list(way)
    failure = walker.start(x, o)
    return len(part), len(walker.done), walker.played, walker.blocks, walker.chains, failure


#: With --jobs, how many entries may be read ahead of the section awaited (some 500 MB of memory):
#: more than the largest sections of 4x4x4x4's certificate (400,000 to 610,000 entries), so that
#: the other process walks while one of them is judged (with 200,000, only one process did).
ENTRIES_AHEAD = 1_500_000

_shared: dict[str, object] = {}  # what a worker process holds for every section it is given


def _worker_start(header: dict, settings: tuple) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the main process's to handle
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the pool ends its workers with it
    _shared["board"] = Board(
        header["dims"], header["k"], header.get("symmetries"), header.get("gravity", False) is True
    )
    _shared["settings"] = settings


def _worker_walk(task: tuple[int, list, tuple | None]) -> tuple[int, Verdict | Malformed]:
    number, part, begins = task
    return number, walk_section(_shared["board"], _shared["settings"], part, begins)  # type: ignore[arg-type]


def each_section(
    board: Board, header: dict, settings: tuple, tasks: Iterator[tuple], jobs: int
) -> Generator[tuple[int, Verdict | Malformed], None, None]:
    """The sections' numbers and verdicts (``tasks``), in order: here one after another, or with
    ``jobs`` > 1 in that many processes, reading ahead of the section awaited as long as the
    sections read and not yet judged hold at most :data:`ENTRIES_AHEAD` entries (or are one)."""
    if jobs <= 1:
        for number, part, begins in tasks:
            yield number, walk_section(board, settings, part, begins)
        return
    import collections
    import multiprocessing

    ahead = threading.Condition()
    sizes: collections.deque[int] = collections.deque()  # entries of the sections read, in order
    stop = False

    def paced() -> Iterator[tuple]:
        for task in tasks:
            with ahead:
                while sizes and sum(sizes) + len(task[1]) > ENTRIES_AHEAD and not stop:
                    ahead.wait()
                if stop:
                    return
                sizes.append(len(task[1]))
            yield task

    pool = multiprocessing.Pool(jobs, _worker_start, (header, settings))
    try:
        for verdict in pool.imap(_worker_walk, paced()):
            with ahead:
                sizes.popleft()
                ahead.notify()
            yield verdict
        pool.close()  # every section judged: the workers end after their last one
        pool.join()
    finally:  # a verdict that ends the check, Ctrl-C, or a budget spent: the reading stops too
        with ahead:
            stop = True
            ahead.notify()
        _end_pool(pool)


def _end_pool(pool: object) -> None:
    """End the pool's processes, waiting at most 10 s for the pool's own ending: a worker ended in
    the middle of sending a verdict leaves the lock of the verdicts' pipe taken, and the pool's
    ending then waits forever for its thread that sends on that pipe (by then the workers are
    ended; a daemon thread left waiting does not keep the program from ending)."""
    ender = threading.Thread(target=pool.terminate, daemon=True)  # type: ignore[attr-defined]
    ender.start()
    ender.join(timeout=10)
    if ender.is_alive():
        for process in pool._pool:  # type: ignore[attr-defined]  # the pool's worker processes
            if process.exitcode is None:
                process.kill()


def start_of(board: Board, text: object) -> tuple[int, int]:
    """X's and O's cells where the walk begins: the header's start (a game not over), or none."""
    if text is None:
        return 0, 0
    x, o = position(board, text, "the start")
    if any(x & m == m or o & m == m for m in board.lines):
        raise Malformed("the start is a finished game: a side has a line")
    if x | o == (1 << board.size) - 1:
        raise Malformed("the start is a finished game: no empty cell is left")
    if board.floating(x | o):
        raise Malformed("the start has a mark above an empty cell")
    return x, o


def marks_words(text: str) -> str:
    """A position's marks in words: ``X on 0, 4 and O on 1``."""
    parts = []
    for mark, digit in (("X", "1"), ("O", "2")):
        cells = [str(i) for i, ch in enumerate(text) if ch == digit]
        if cells:
            parts.append(f"{mark} on {', '.join(cells)}")
    return " and ".join(parts) or "no mark"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Check an oxo-strategy/1 certificate (no oxo needed)."
    )
    parser.add_argument("file")
    parser.add_argument(
        "--whole", action="store_true", help="read every entry into one table, sections or not"
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        metavar="N",
        help="walk the sections in N processes at once (default 1; 0: one per core)",
    )
    parser.add_argument(
        "--resume",
        metavar="RECORD",
        help="keep the sections judged to hold in the file RECORD and judge only the others: "
        "a check stopped (Ctrl-C, or the limits below) goes on where it stopped when run again",
    )
    parser.add_argument(
        "--max-sections",
        type=int,
        metavar="N",
        help="with --resume: stop after judging N more sections (exit status 3 if some are left)",
    )
    parser.add_argument(
        "--max-seconds",
        type=float,
        metavar="S",
        help="with --resume: stop once S seconds have passed (exit status 3 if sections are left)",
    )
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")
    args = parser.parse_args(argv)
    if args.jobs < 0:
        parser.error("--jobs: N is 0 (one process per core) or more")
    if args.resume is None and (args.max_sections is not None or args.max_seconds is not None):
        parser.error("--max-sections and --max-seconds need --resume (where the check goes on)")
    if args.max_sections is not None and args.max_sections < 1:
        parser.error("--max-sections: N is 1 or more")
    if args.max_seconds is not None and not args.max_seconds > 0:
        parser.error("--max-seconds: S is more than 0")
    jobs = args.jobs or os.cpu_count() or 1
    # Ctrl-C and a termination signal both stop the check, keeping what a record holds (a shell
    # starts a command put in the background with Ctrl-C ignored: it is taken back here).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    budget = Budget(args.max_sections, args.max_seconds) if args.resume is not None else None
    try:
        report = check(args.file, args.whole, jobs, args.resume, budget)
    except KeyboardInterrupt:
        if args.resume is not None:
            print(
                f"interrupted: the sections judged so far are kept in {args.resume}; "
                "the same command goes on from there",
                file=sys.stderr,
            )
        else:
            print("interrupted: nothing was decided", file=sys.stderr)
        return 130
    except (Malformed, RecordError) as error:
        if args.json:
            print(json.dumps({"valid": None, "error": str(error)}))
        elif isinstance(error, RecordError):
            print(f"cannot go on: {error}", file=sys.stderr)
        else:
            print(f"not a certificate: {args.file}: {error}", file=sys.stderr)
        return 2
    if report.get("unfinished"):
        report["valid"] = None
        if args.json:
            print(json.dumps(report))
        else:
            print(
                f"unfinished: {report['judged']} of {report['sections']} sections judged, "
                f"all holding so far ({report['positions']} positions); the same command "
                f"goes on from {args.resume}"
            )
        return 3
    valid = report["failure"] is None
    report["valid"] = valid
    if args.json:
        print(json.dumps(report))
    elif valid:
        claim = "wins" if report["guarantee"] == "win" else "does not lose"
        print(
            f"valid: {str(report['side']).upper()} {claim} on {report['board']} (k={report['k']}"
            f"{', gravity' if report.get('gravity') else ''})"
            + (
                f" from the position with {marks_words(str(report['start']))}"
                if "start" in report
                else ""
            )
            + "; "
            f"{report['positions']} positions, {report['moves']} moves of {str(report['side']).upper()}, "
            f"{report['entries']} entries"
            + (
                f"; by the rules: {report['blocks']} blocks, {report['chains']} forced chains"
                if report["blocks"] or report["chains"]
                else ""
            )
        )
    else:
        print(f"invalid: {report['failure']}")
    return 0 if valid else 1


if __name__ == "__main__":
    sys.exit(main())
