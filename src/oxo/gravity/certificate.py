"""The certificate format of gravity boards (Connect Four and its relatives): a proof that a side's
score is at least some bound, its writer and its checker, which walks it with nothing but the rules
(the proof run that writes certificates is :mod:`oxo.gravity.proof`).

A certificate (``oxo-gravity-strategy/1``) is gzip-compressed UTF-8 JSON lines. Line 1 is the header::

    {"format": "oxo-gravity-strategy/1", "board": "6x7,k=4,gravity", "rows": 6, "cols": 7, "k": 4,
     "side": "x", "score_at_least": 1, "claim": "X wins, by ply 41 at the latest"}

Scores are the solver's (:mod:`oxo.gravity.solver`): a game won with the mark of ply ``p`` (the
``p``-th mark of the game) is worth ``(cells + 2 - p) // 2`` to the winner and the opposite to the
loser, a draw 0. So "X scores at least 1" says X wins; "O scores at least -1" says X does not win
before ply 41 on 6x7 (any later win of X, a draw or a win of O scores more for O). The two together
prove Connect Four's value: X wins, and with best play the game ends at ply 41.

Every other line is an entry, its position written as the rows from top to bottom separated by
``/`` with ``x``, ``o`` and ``.``:

* ``{"position": "...", "move": C}``: ``side`` is to move there and plays column ``C`` (from 1);
* ``{"position": "...", "leaf": true}``: the tree stops there; the claim for that position is left to
  a solver (``oxo verify FILE --leaves N`` solves N of them, or all).

A position may be written as its left-right mirror image (its column mirrored too). The checker
(:func:`verify_gravity_certificate`) walks from the empty board, plays ``side``'s columns and every
reply of the other side, and accepts a node when the game is over with ``side``'s score at least the
bound; or it is a leaf; or ``side`` is to move and wins at once with a score at least the bound (no
entry needed), or its entry's column is legal and leads to an accepted node; or the other side is
to move and every column leads to an accepted node. Results are memoised by position.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from oxo.errors import (
    CertificateEntryError,
    CertificateFileError,
    CertificateHeaderError,
    CertificateSyntaxError,
    PositionError,
)
from oxo.fileio import write_atomic
from oxo.game import Outcome
from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.solver import GravitySolver
from oxo.gravity.values import finished_score
from oxo.records import Record

#: The format named in a certificate's header.
FORMAT = "oxo-gravity-strategy/1"


def claim_text(board: GravityBoard, side: Outcome, at_least: int) -> str:
    """A bound on ``side``'s score in words ("X wins, by ply 41 at the latest")."""
    who = side.upper()
    other = "O" if side == "x" else "X"
    cells = board.size
    first = 1 if side == "x" else 2  # the plies of ``side``'s marks have this parity (1: odd)
    if at_least >= 1:
        # The latest ply p of side's marks with (cells + 2 - p) // 2 >= at_least.
        latest = max(p for p in range(first, cells + 1, 2) if (cells + 2 - p) // 2 >= at_least)
        return f"{who} wins, by ply {latest} at the latest"
    if at_least == 0:
        return f"{who} does not lose"
    plies = [p for p in range(3 - first, cells + 1, 2) if -((cells + 2 - p) // 2) < at_least]
    if not plies:
        return f"{who} scores at least {at_least}"
    return f"{other} does not win before ply {max(plies) + 2}"


def mirror_state(state: GravityState) -> GravityState:
    """The left-right mirror image of a position (its columns in reverse order)."""
    board = state.board
    x = o = 0
    for c in range(board.cols):
        shift_from, shift_to = c * board.stride, (board.cols - 1 - c) * board.stride
        column = (1 << board.stride) - 1
        x |= ((state.x >> shift_from) & column) << shift_to
        o |= ((state.o >> shift_from) & column) << shift_to
    return GravityState(board, x, o)


@dataclass(frozen=True)
class StrategyTree:
    """A side's strategy for a bound on its score, down to ``leaf_ply``: its column in each position
    where it is to move, and the positions left to a solver."""

    board: GravityBoard
    side: Outcome
    at_least: int
    moves: dict[tuple[int, int], tuple[GravityState, int]]
    leaves: dict[tuple[int, int], GravityState]

    @property
    def claim(self) -> str:
        return claim_text(self.board, self.side, self.at_least)

    def header(self) -> dict[str, object]:
        board = self.board
        return {
            "format": FORMAT,
            "board": f"{board.rows}x{board.cols},k={board.k},gravity",
            "rows": board.rows,
            "cols": board.cols,
            "k": board.k,
            "side": self.side,
            "score_at_least": self.at_least,
            "claim": self.claim,
        }

    def lines(self) -> Iterator[dict[str, object]]:
        yield self.header()
        for state, move in self.moves.values():
            yield {"position": state.to_rows(), "move": move + 1}
        for state in self.leaves.values():
            yield {"position": state.to_rows(), "leaf": True}

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the certificate (gzip JSON lines), atomically."""
        text = "".join(json.dumps(line, separators=(",", ":")) + "\n" for line in self.lines())
        write_atomic(path, gzip.compress(text.encode("utf-8"), mtime=0))


def canonical_key(state: GravityState) -> tuple[int, int]:
    """The key of a position or of its mirror image, whichever is smaller."""
    return min(state.key, mirror_state(state).key)


def certificate_name(board: GravityBoard, side: Outcome, at_least: int) -> str:
    """The file name of a certificate: ``6x7-k4-gravity-x-at-least-1.jsonl.gz``."""
    bound = f"{at_least}" if at_least >= 0 else f"minus-{-at_least}"
    return f"{board.rows}x{board.cols}-k{board.k}-gravity-{side}-at-least-{bound}.jsonl.gz"


@dataclass(frozen=True)
class GravityCertificate:
    """A certificate as read: its board, side, bound, columns and leaves (keyed by position)."""

    board: GravityBoard
    side: Outcome
    at_least: int
    moves: dict[tuple[int, int], int]
    leaves: dict[tuple[int, int], GravityState]

    @property
    def claim(self) -> str:
        return claim_text(self.board, self.side, self.at_least)


def is_gravity_certificate(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a gzip file whose first line names this module's format (any other
    file, readable or not, is left to the classic boards' checker to explain)."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            first = handle.readline(4096)
    except (OSError, EOFError, UnicodeDecodeError):
        return False
    try:
        header = json.loads(first)
    except json.JSONDecodeError:
        return False
    return isinstance(header, dict) and header.get("format") == FORMAT


def read_gravity_certificate(path: str | os.PathLike[str]) -> GravityCertificate:
    """Read a certificate; :class:`oxo.errors.CertificateError` (bad input) names what is wrong."""
    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except FileNotFoundError:
        raise CertificateFileError(f"no such file: {path}") from None
    except (OSError, EOFError, UnicodeDecodeError) as error:
        raise CertificateFileError(f"{path} is not a gzip-compressed text file: {error}") from None
    rows = [(n, line) for n, line in enumerate(lines, start=1) if line.strip()]
    if not rows:
        raise CertificateHeaderError(f"{path} is empty: the first line must be the header")
    parsed: list[tuple[int, Any]] = []
    for n, line in rows:
        try:
            parsed.append((n, json.loads(line)))
        except json.JSONDecodeError as error:
            raise CertificateSyntaxError(f"line {n}: not JSON ({error.msg})") from None
    header = parsed[0][1]
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise CertificateHeaderError(f'line 1: the header must have "format": "{FORMAT}"')
    try:
        board = GravityBoard(int(header["rows"]), int(header["cols"]), int(header["k"]))
        side = header["side"]
        at_least = header["score_at_least"]
    except (KeyError, TypeError, ValueError) as error:
        raise CertificateHeaderError(
            f"line 1: the header needs rows, cols, k, side and score_at_least ({error})"
        ) from None
    if side not in ("x", "o") or not isinstance(at_least, int) or isinstance(at_least, bool):
        raise CertificateHeaderError('line 1: side is "x" or "o" and score_at_least a whole number')
    moves: dict[tuple[int, int], int] = {}
    leaves: dict[tuple[int, int], GravityState] = {}
    for n, entry in parsed[1:]:
        if not isinstance(entry, dict) or not isinstance(entry.get("position"), str):
            raise CertificateEntryError(f'line {n}: an entry is an object with a "position"')
        try:
            state = GravityState.from_string(entry["position"], board)
        except PositionError as error:
            raise CertificateEntryError(f"line {n}: {error}") from None
        if entry.get("leaf") is True:
            leaves[state.key] = state
            continue
        move = entry.get("move")
        if not isinstance(move, int) or isinstance(move, bool) or not 1 <= move <= board.cols:
            raise CertificateEntryError(f'line {n}: "move" is a column from 1 to {board.cols}')
        moves[state.key] = move - 1
    return GravityCertificate(board, side, at_least, moves, leaves)


@dataclass(frozen=True)
class GravityVerifyResult(Record):
    """What the checker found: valid or not (and where it failed), the positions walked, the leaves
    reached and how many of them were solved again (and held)."""

    claim: str
    valid: bool
    positions: int
    leaves: int
    leaves_checked: int
    reason: str = ""
    failed_at: str = ""

    def __str__(self) -> str:
        if not self.valid:
            return f"invalid: {self.claim} fails at {self.failed_at}: {self.reason}"
        text = f"valid: {self.claim} ({self.positions:,} positions walked by the rules"
        if self.leaves == 0:
            return text + "; every game played to its end)"
        trusted = self.leaves - self.leaves_checked
        text += f", {self.leaves:,} leaves; {self.leaves_checked:,} solved again and held"
        if trusted:
            text += f"; {trusted:,} left to the solver run that wrote it: --leaves all checks them"
        return text + ")"


def lookup(table: dict[tuple[int, int], Any], state: GravityState) -> tuple[Any, bool] | None:
    """The entry of ``table`` for ``state`` or for its mirror image, and whether it was the
    mirror's; ``None`` when neither is there."""
    if state.key in table:
        return table[state.key], False
    mirrored = mirror_state(state)
    if mirrored.key in table:
        return table[mirrored.key], True
    return None


def verify_gravity_certificate(
    source: str | os.PathLike[str] | GravityCertificate,
    leaves: int | None = 0,
    seed: int = 0,
    solver: GravitySolver | None = None,
    on_status: Callable[[str], None] | None = None,
) -> GravityVerifyResult:
    """Walk a certificate with the rules (see the module docstring); then solve ``leaves`` of its
    leaves again, chosen at random with ``seed`` (``None``: all of them)."""
    cert = source if isinstance(source, GravityCertificate) else read_gravity_certificate(source)
    board, side, bound = cert.board, cert.side, cert.at_least
    accepted: set[tuple[int, int]] = set()
    reached: dict[tuple[int, int], GravityState] = {}

    def fail(state: GravityState, reason: str) -> GravityVerifyResult:
        return GravityVerifyResult(
            cert.claim, False, len(accepted), len(reached), 0, reason, state.to_rows()
        )

    stack = [GravityState(board)]
    while stack:
        state = stack.pop()
        if state.key in accepted:
            continue
        accepted.add(state.key)
        if state.is_over:
            if finished_score(state, side) < bound:
                return fail(
                    state,
                    f"the game ends {state.outcome or ''} at ply {state.ply}, short of the claim",
                )
            continue
        leaf = lookup(cert.leaves, state)
        if leaf is not None:
            reached[canonical_key(state)] = state  # a leaf and its mirror image: solved once
            continue
        if state.to_move == side:
            if state.winning_moves() and (board.size + 1 - state.ply) // 2 >= bound:
                continue
            found = lookup(cert.moves, state)
            if found is None:
                return fail(state, "missing position: the certificate gives no column here")
            col, mirrored = found
            if mirrored:
                col = board.cols - 1 - col
            if col not in state.legal_moves:
                return fail(state, f"column {col + 1} is full")
            stack.append(state.play(col))
        else:
            stack.extend(state.play(c) for c in state.legal_moves)
    chosen = list(reached.values())
    if leaves is not None:
        chosen.sort(key=lambda s: s.key)
        chosen = random.Random(seed).sample(chosen, min(leaves, len(chosen)))
    if chosen:
        solver = solver or GravitySolver(board)
        started = time.perf_counter()
        for number, state in enumerate(chosen, start=1):
            if not solver.holds(state, side, True, bound):
                return GravityVerifyResult(
                    cert.claim,
                    False,
                    len(accepted),
                    len(reached),
                    number - 1,
                    "the solver does not confirm this leaf",
                    state.to_rows(),
                )
            if on_status is not None:
                on_status(
                    f"leaf {number:,} of {len(chosen):,} holds ({time.perf_counter() - started:.0f} s)"
                )
    return GravityVerifyResult(cert.claim, True, len(accepted), len(reached), len(chosen))
