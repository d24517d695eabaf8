"""Rows of oxo's proof book for tests: a certificate file as a row (``oxo.book.BookCertificate``),
for tests that play from certificates they make themselves (checked first, with its size and
SHA-256); and an open board's row as the book had it while its run went on."""

from __future__ import annotations

import json
from pathlib import Path

from oxo.book import BookCertificate, OpenBoard
from oxo.fileio import digests
from oxo.proofs.certificate import verify_certificate


def checked_row(path: Path, board: str) -> BookCertificate:
    """The book's row of the certificate at ``path`` (written for ``board``, such as ``6x5``),
    after oxo's checker accepts it."""
    check = verify_certificate(path)
    assert check.valid, str(check)
    sums = digests(path)
    return BookCertificate(
        file=path.name,
        board=board,
        side=check.side,
        guarantee=check.guarantee,
        format="oxo-strategy/1",
        entries=check.entries,
        bytes=int(str(sums["bytes"])),
        sha256=str(sums["sha256"]),
        sha256_text=str(sums["sha256_uncompressed"]),
        shipped="repository",
        positions=check.positions_checked,
    )


def open_4x4x4x4() -> OpenBoard:
    """4x4x4x4's open row as the book had it once its run settled the board and before the run
    checked the board's certificate (2026-12-04, 67 sessions), without its openings (the proved
    row has them now): the example of an open board that the tests vary
    (tests/data/open-4x4x4x4.json)."""
    path = Path(__file__).with_name("data") / "open-4x4x4x4.json"
    return OpenBoard.from_dict(json.loads(path.read_text(encoding="utf-8")))
