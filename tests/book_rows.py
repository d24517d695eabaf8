"""A certificate file as a row of oxo's proof book (``oxo.book.BookCertificate``), for tests that
play from certificates they make themselves: checked first, with its size and SHA-256."""

from __future__ import annotations

from pathlib import Path

from oxo.book import BookCertificate
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
