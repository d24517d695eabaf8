"""A certificate rewritten with rules: the same strategy, without the moves a rule gives.

:func:`compact_certificate` checks a certificate under a header that names rules (and, if asked,
symmetries beyond the board's own), keeps the entries the walk plays (a rule's move is never looked
up, and an entry the walk does not reach is dropped), writes them with that header and checks the
written file. The written certificate proves what the source proves: its checker plays the same
strategy where an entry gives the move, and the rules elsewhere (:mod:`oxo.proofs.rules`).
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from dataclasses import dataclass

from oxo.errors import CertificateError
from oxo.fileio import digests
from oxo.proofs.certificate import (
    Entry,
    StrategyHeader,
    VerifyProgress,
    VerifyResult,
    open_certificate,
    read_header,
    verify_certificate,
)
from oxo.proofs.rules import Rules

#: A section of the source that keeps this many entries or fewer joins section 0.
SMALL_SECTION = 16


@dataclass(frozen=True)
class CompactResult:
    """What :func:`compact_certificate` did: the source's check under the rules, the written
    file's check, and the written file's size (bytes, SHA-256 of the file and of its text)."""

    source: VerifyResult
    written: VerifyResult
    entries: int
    sections: int
    bytes: int
    sha256: str
    text_sha256: str

    def to_dict(self) -> dict[str, object]:
        return {
            "source": self.source.to_dict(),
            "written": self.written.to_dict(),
            "entries": self.entries,
            "sections": self.sections,
            "bytes": self.bytes,
            "sha256": self.sha256,
            "text_sha256": self.text_sha256,
        }


def compact_certificate(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    rules: Rules,
    symmetries: Sequence[Sequence[int]] | None = None,
    *,
    on_progress: VerifyProgress | None = None,
) -> CompactResult:
    """Write ``target``: the certificate ``source`` with ``rules`` (and ``symmetries``) in its
    header and only the entries its walk then plays; both files are checked. Raises
    :class:`CertificateError` when the source does not hold under the rules (it then proves
    nothing to compact) or the written file does not (a fault of this function)."""
    extra = None if symmetries is None else tuple(tuple(perm) for perm in symmetries)
    used: dict[int, list[Entry]] = {}

    def reheader(header: StrategyHeader) -> StrategyHeader:
        return dataclasses.replace(header, rules=rules, symmetries=extra)

    checked = verify_certificate(
        source,
        on_progress=on_progress,
        reheader=reheader,
        on_used=lambda section, entry: used.setdefault(section, []).append(entry),
    )
    if not checked.valid:
        raise CertificateError(
            f"{source} does not hold under the rules ({rules}): {checked.failure} at position "
            f"{checked.failure_position}"
        )
    header = read_header(source)
    kept: list[tuple[str | None, list[Entry]]] = [(None, used.get(0, []))]
    for number, (root, _) in enumerate(header.sections or (), start=0):
        if number == 0 or number not in used:
            continue
        entries = used[number]
        if len(entries) <= SMALL_SECTION:
            kept[0][1].extend(entries)
        else:
            kept.append((root, entries))
    sections = None if len(kept) == 1 else tuple((root, len(part)) for root, part in kept)
    written_header = dataclasses.replace(header, sections=sections, rules=rules, symmetries=extra)
    with open_certificate(target, written_header) as writer:
        for _, part in kept:
            for entry in part:
                writer.write(entry)
    written = verify_certificate(target, on_progress=on_progress)
    if not written.valid:
        raise CertificateError(
            f"the rewritten certificate {target} does not hold: {written.failure} at position "
            f"{written.failure_position}"
        )
    size = digests(target)
    return CompactResult(
        source=checked,
        written=written,
        entries=writer.count,
        sections=0 if sections is None else len(sections),
        bytes=os.path.getsize(target),
        sha256=str(size["sha256"]),
        text_sha256=str(size["sha256_uncompressed"]),
    )
