"""Connect Four's proof book: the columns of the certificates that ship with oxo (the opening as
oxo's proof run proved it), for the levels ``perfect`` and ``best``."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from oxo.game import Outcome
from oxo.gravity.board import GravityBoard, GravityState
from oxo.gravity.certificate import mirror_state, read_gravity_certificate

#: Where the certificates that ship with oxo live (written by ``benchmarks/bench_connect4.py --empty``).
CERTIFICATES = Path(__file__).with_name("certificates")


def shipped_certificates(board: GravityBoard) -> tuple[Path, ...]:
    """The certificates of ``board``'s empty position that ship with oxo (none for most boards)."""
    prefix = f"{board.rows}x{board.cols}-k{board.k}-gravity-"
    return tuple(sorted(CERTIFICATES.glob(prefix + "*.jsonl.gz")))


@dataclass(frozen=True)
class BookMove:
    """A column from a shipped certificate: it keeps the certificate's bound for the side to move
    (``claim``), and ``value`` is the proven result when the bound settles it (a win), else None."""

    column: int
    claim: str
    value: Outcome | None


@functools.cache
def _book(board: GravityBoard) -> dict[tuple[int, int], tuple[int, str, Outcome | None]]:
    """Every column of the certificates that ship for ``board``, keyed by position and mirror."""
    moves: dict[tuple[int, int], tuple[int, str, Outcome | None]] = {}
    for path in shipped_certificates(board):
        cert = read_gravity_certificate(path)
        value: Outcome | None = cert.side if cert.at_least >= 1 else None
        for key, col in cert.moves.items():
            moves[key] = (col, cert.claim, value)
    return moves


def book_move(state: GravityState) -> BookMove | None:
    """The column the shipped certificates give for ``state`` (the opening of Connect Four as oxo
    proved it), or None when the position is not in them."""
    if state.is_over:
        return None
    book = _book(state.board)
    if not book:
        return None
    found = book.get(state.key)
    mirrored = False
    if found is None:
        found = book.get(mirror_state(state).key)
        mirrored = True
    if found is None:
        return None
    col, claim, value = found
    return BookMove(state.board.cols - 1 - col if mirrored else col, claim, value)
