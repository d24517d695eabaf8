"""Strategy certificates: a file that proves a side wins (or does not lose) a board, and a checker for it.

The format (``oxo-strategy/1``) is meant to be checked by tools outside oxo too. A certificate is
gzip-compressed UTF-8 JSON lines. Line 1 is the header::

    {"format": "oxo-strategy/1", "board": "5x5", "dims": [5, 5], "k": 4, "side": "x", "guarantee": "win"}

``board`` is the shape (``"5x5"``, ``"3x3x3"``), ``dims`` the same as a list, ``k`` how many marks in
a row win, ``side`` whose strategy this is (``"x"`` moves first, ``"o"`` second) and ``guarantee``
``"win"`` (every game ends with a line of ``side``) or ``"no-loss"`` (no game ends with a line of
the opponent). The board has no gravity: a player may mark any empty cell. Other header keys are
ignored. Every other line is one entry:

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
The checker uses nothing from oxo but the board's lines and symmetries (:class:`oxo.geometry.Geometry`).
"""

from __future__ import annotations

import gzip
import io
import json
import os
import sys
import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, TypeGuard

from oxo.errors import (
    CertificateEntryError,
    CertificateFileError,
    CertificateHeaderError,
    CertificateSyntaxError,
    OxoError,
)
from oxo.fileio import write_atomic
from oxo.geometry import Geometry, Symmetry, mask_cells

FORMAT = "oxo-strategy/1"
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

    def __post_init__(self) -> None:
        dims = self.dims
        if (
            not isinstance(dims, (tuple, list))
            or len(dims) not in (2, 3)
            or not all(_is_int(side) and side >= 1 for side in dims)
        ):
            raise CertificateHeaderError(
                f"dims must be a list of 2 or 3 positive integers, got {dims!r}"
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
        try:
            geometry = Geometry(self.dims, self.k)
        except OxoError as error:
            raise CertificateHeaderError(f"not a board: {error}") from None
        object.__setattr__(self, "geometry", geometry)

    @classmethod
    def for_board(cls, board: str | Geometry, side: Side, guarantee: Guarantee) -> StrategyHeader:
        """The header for a board given as a geometry or a spec such as ``"5x5,k=4"``."""
        geometry = board if isinstance(board, Geometry) else Geometry.parse(board)
        return cls(geometry.shape, geometry.k, side, guarantee)

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
        header = cls(data["dims"], data["k"], data["side"], data["guarantee"])
        if data["board"] != header.board:
            raise CertificateHeaderError(
                f"board {data['board']!r} does not match dims {list(header.dims)} (expected {header.board!r})"
            )
        return header


@dataclass(frozen=True, slots=True)
class MoveEntry:
    """``side`` plays ``move`` in ``position`` (a status string, ``side`` to move)."""

    position: str
    move: int

    def to_dict(self) -> dict[str, object]:
        return {"position": self.position, "move": self.move}


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
    positions the walk visited.
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

    @property
    def claim(self) -> str:
        """What a valid certificate proves, in words."""
        side = self.side.upper()
        if self.guarantee == "win":
            return f"{side} wins — the strategy for {side} on {self.board} (k={self.k}) wins against every defence"
        return f"{side} does not lose — the strategy for {side} on {self.board} (k={self.k}) draws or wins against every defence"

    def __str__(self) -> str:
        if self.valid:
            return f"valid: {self.claim}; {self.positions_checked} positions checked"
        return f"invalid: {self.failure} at position {self.failure_position}"

    def to_dict(self) -> dict[str, object]:
        return {
            "valid": self.valid,
            "board": self.board,
            "k": self.k,
            "side": self.side,
            "guarantee": self.guarantee,
            "positions_checked": self.positions_checked,
            "entries": self.entries,
            "failure": self.failure,
            "failure_position": self.failure_position,
            "failure_path": None if self.failure_path is None else list(self.failure_path),
        }


# -- reading and writing ---------------------------------------------------------------------------


def write_certificate(
    path: str | os.PathLike[str],
    header: StrategyHeader,
    entries: Iterable[Entry | Mapping[str, Any]],
) -> int:
    """Write a certificate (gzip JSON lines) atomically; return the number of entries written.

    Entries are :class:`MoveEntry` / :class:`PairingEntry` objects or mappings with the JSON keys;
    each is checked as the reader would check it, so a written file always reads back. The file is
    compressed in memory as it is built and written through :func:`oxo.fileio.write_atomic`.
    """
    buffer = io.BytesIO()
    count = 0
    with gzip.GzipFile(
        filename="", mode="wb", fileobj=buffer, compresslevel=6, mtime=0
    ) as compressed:
        batch = [_json_line(header.to_dict())]
        for count, raw in enumerate(entries, start=1):
            entry = _entry_from_object(raw, header, f"entry {count}")
            batch.append(_json_line(entry.to_dict()))
            if len(batch) >= 4096:  # zlib is slow on many small writes
                compressed.write(b"".join(batch))
                batch.clear()
        compressed.write(b"".join(batch))
    write_atomic(path, buffer.getvalue())
    return count


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


def _read_lines(path: str | os.PathLike[str]) -> Iterator[tuple[int, object]]:
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
    x, o = _masks(text)
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
    x, o = _checked_position(position, header, where)
    if not isinstance(pairing, (list, tuple)):
        raise CertificateEntryError(
            f"{where}: a pairing is a list of pairs of cells, got {pairing!r}"
        )
    pairs = []
    for pair in pairing:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise CertificateEntryError(
                f"{where}: a pairing is a list of pairs of cells; {pair!r} is not a pair"
            )
        a, b = (_checked_cell(cell, header, where, "pairing cell") for cell in pair)
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


def _masks(status: str) -> tuple[int, int]:
    """The (X, O) bitmasks of a checked status string (cell c is bit c)."""
    reversed_status = status[::-1]
    return int(reversed_status.translate(_X_BITS), 2), int(reversed_status.translate(_O_BITS), 2)


def _status(x: int, o: int, size: int) -> str:
    return "".join("1" if x >> cell & 1 else "2" if o >> cell & 1 else "0" for cell in range(size))


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


# -- checking --------------------------------------------------------------------------------------


def verify_certificate(source: str | os.PathLike[str] | Certificate) -> VerifyResult:
    """Check a certificate (a file, streamed, or a :class:`Certificate`) by walking every defence.

    Raises a :class:`CertificateError` when the file is malformed; a well-formed certificate that
    does not prove its claim gives a result with ``valid=False`` and the first failing position.
    """
    if isinstance(source, Certificate):
        header = source.header
        checker = _Checker(header)
        for number, entry in enumerate(source.entries, start=1):
            checker.add(_entry_from_object(entry, header, f"entry {number}"))
    else:
        lines = _read_lines(source)
        header = _read_header(source, lines)
        checker = _Checker(header)
        for number, data in lines:
            checker.add(_entry_from_json(data, header, f"{source}: line {number}"))
    return checker.run()


@dataclass
class _Failure:
    reason: str
    position: str
    path: tuple[int, ...]


class _Checker:
    """The walk of :func:`verify_certificate` over plain bitmasks (bit c = cell c)."""

    def __init__(self, header: StrategyHeader) -> None:
        geometry = header.geometry
        self.header = header
        self.size = geometry.size
        self.full = geometry.full_mask
        self.lines = geometry.lines
        self.lines_through = geometry.lines_through
        self.symmetries: tuple[Symmetry, ...] = geometry.symmetries
        self.side_is_x = header.side == "x"
        self.no_loss = header.guarantee == "no-loss"
        # Canonical key → canonical move(s); canonical key → canonical pairings.
        self.moves: dict[int, int | list[int]] = {}
        self.pairings: dict[int, list[tuple[tuple[int, int], ...]]] = {}
        self.entries = 0
        # Canonical key → None (accepted) or the failure found below it.
        self.memo: dict[int, _Failure | None] = {}
        self.path: list[int] = []

    # The class of a position: the least (X, O) image over the symmetries, as one int X << N | O,
    # and the symmetry that carries the position there.
    def canonical(self, x: int, o: int) -> tuple[int, Symmetry]:
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
        x, o = _masks(entry.position)
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

    def run(self) -> VerifyResult:
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 4 * self.size + 1000))  # three frames per ply
        try:
            failure = self.check(0, 0, -1)
        finally:
            sys.setrecursionlimit(limit)
        header = self.header
        return VerifyResult(
            valid=failure is None,
            side=header.side,
            guarantee=header.guarantee,
            board=header.board,
            k=header.k,
            positions_checked=len(self.memo),
            entries=self.entries,
            failure=None if failure is None else failure.reason,
            failure_position=None if failure is None else failure.position,
            failure_path=None if failure is None else failure.path,
        )

    def fail(self, reason: str, x: int, o: int) -> _Failure:
        return _Failure(reason, _status(x, o, self.size), tuple(self.path))

    def check(self, x: int, o: int, last: int) -> _Failure | None:
        """None when the position (reached by the move ``last``, -1 at the root) is accepted, else why not."""
        key, symmetry = self.canonical(x, o)
        if key in self.memo:
            return self.memo[key]
        self.memo[key] = result = self.evaluate(
            x, o, last, key, symmetry
        )  # no cycles: every move adds a mark
        return result

    def evaluate(self, x: int, o: int, last: int, key: int, symmetry: Symmetry) -> _Failure | None:
        own, other = (x, o) if self.side_is_x else (o, x)
        side, opponent = self.header.side.upper(), self.header.opponent.upper()
        # Game over? Only the last move can have completed a line (its parent was still in play).
        if last >= 0:
            for line in self.lines_through[last]:
                if other & line == line:
                    return self.fail(
                        f"{opponent} completes the line {'-'.join(map(str, mask_cells(line)))}",
                        x,
                        o,
                    )
                if own & line == line:
                    return None
        occupied = x | o
        if occupied == self.full:
            return (
                None
                if self.no_loss
                else self.fail(
                    f"the board is full without a line of {side} (a draw, not a win)", x, o
                )
            )
        if self.no_loss and all(line & own for line in self.lines):
            return None  # every line holds a mark of side: the opponent can make no line
        side_to_move = (x.bit_count() == o.bit_count()) == self.side_is_x
        if side_to_move:
            for line in self.lines:
                if not line & other:
                    rest = line & ~own
                    if rest and rest & (rest - 1) == 0:
                        return None  # side completes this line at once
            known = self.moves.get(key)
            if known is None:
                return self.fail(
                    f"missing position ({side} to move, the certificate has no move for it)", x, o
                )
            first_failure = None
            for canonical_move in [known] if isinstance(known, int) else known:
                move = symmetry.inverse_perm[canonical_move]
                failure: _Failure | None
                if occupied >> move & 1:
                    failure = self.fail(f"the certificate's move {move} is not an empty cell", x, o)
                else:
                    failure = self.child(x, o, move)
                if failure is None:
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
                return None
            pairing_failure = pairing_failure or self.fail(f"invalid pairing: {problem}", x, o)
        for move in mask_cells(self.full & ~occupied):
            failure = self.child(x, o, move)
            if failure is not None:
                return pairing_failure or failure
        return None

    def child(self, x: int, o: int, move: int) -> _Failure | None:
        bit = 1 << move
        self.path.append(move)
        try:
            if x.bit_count() == o.bit_count():
                return self.check(x | bit, o, move)
            return self.check(x, o | bit, move)
        finally:
            self.path.pop()

    def pairing_problem(
        self, own: int, occupied: int, pairing: tuple[tuple[int, int], ...]
    ) -> str | None:
        """Why the pairs do not guarantee that the opponent makes no line, or None when they do."""
        used = 0
        masks = []
        for a, b in pairing:
            if a == b:
                return f"the pair ({a}, {b}) names one cell twice"
            for cell in (a, b):
                if occupied >> cell & 1:
                    return f"cell {cell} of the pair ({a}, {b}) is not empty"
                if used >> cell & 1:
                    return f"cell {cell} is in more than one pair"
                used |= 1 << cell
            masks.append(1 << a | 1 << b)
        side = self.header.side.upper()
        for line in self.lines:
            if not line & own and not any(line & pair == pair for pair in masks):
                cells = "-".join(map(str, mask_cells(line)))
                return f"the line {cells} holds no mark of {side} and no whole pair"
        return None
