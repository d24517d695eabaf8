"""The value of a board's empty position by proof-number search, with certificates anyone can check.

Two questions settle a board: can X force a line? If so X wins, and the proof is X's winning
strategy. If not, the disproof is O's strategy that never loses; then: can O force a line? If not,
the disproof is X's strategy that never loses, and together the two make a draw. Each strategy is
written as a certificate (:mod:`oxo.proofs.certificate`) and checked by the independent checker
before it is reported.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from oxo.errors import OxoError
from oxo.geometry import Geometry
from oxo.proofs.certificate import (
    Guarantee,
    MoveEntry,
    PairingEntry,
    Side,
    StrategyHeader,
    verify_certificate,
    write_certificate,
)
from oxo.proofs.dfpn import Entry, make_search

Value = Literal["x", "o", "draw", "unknown"]
METHOD = "proof-number search (df-pn) with pairing strategies and threat-space search"
#: Default time limit of a whole proof, in seconds.
DEFAULT_SECONDS = 600.0


@dataclass(frozen=True)
class SearchSummary:
    """One of the (at most two) searches of a proof: who attacked, what came out, at what cost."""

    attacker: str
    result: bool | None
    nodes: int
    seconds: float
    entries: int | None
    statistics: dict[str, int] = field(default_factory=dict)
    #: For a search that did not settle: X's first moves by what is known of them (see
    #: :meth:`ProofSearch.first_moves`), in the words of this search's attacker.
    first_moves: dict[str, list[int]] | None = None

    def to_dict(self) -> dict[str, object]:
        answer = {True: "wins", False: "cannot win", None: "unknown"}[self.result]
        out: dict[str, object] = {
            "question": f"can {self.attacker} force a line?",
            "answer": answer,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "strategy_entries": self.entries,
            "statistics": self.statistics,
        }
        if self.first_moves is not None:
            out["first_moves"] = {
                f"{self.attacker} wins after": self.first_moves["win"],
                f"{self.attacker} does not win after": self.first_moves["no win"],
                "open": self.first_moves["open"],
            }
        return out


@dataclass(frozen=True)
class ProofResult:
    """The value of a board's empty position with best play, how it was found and the certificates."""

    geometry: Geometry
    value: Value
    searches: tuple[SearchSummary, ...]
    seconds: float
    proofs: tuple[str, ...]
    limit: float | None

    @property
    def nodes(self) -> int:
        return sum(search.nodes for search in self.searches)

    def to_dict(self) -> dict[str, object]:
        return {
            "board": self.geometry.spec_shape,
            "k": self.geometry.k,
            "value": self.value,
            "method": METHOD,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 3),
            "proofs": list(self.proofs),
            "searches": [search.to_dict() for search in self.searches],
        }


def certificate_name(geometry: Geometry, side: str, guarantee: str) -> str:
    """The file name of a certificate: ``5x5-k4-x-no-loss.jsonl.gz``."""
    return f"{geometry.spec_shape}-k{geometry.k}-{side}-{guarantee}.jsonl.gz"


def prepare_proof_dir(path: str | os.PathLike[str]) -> Path:
    """Create the certificate folder, or accept an existing empty one; anything else is bad input."""
    folder = Path(path)
    if folder.exists():
        if not folder.is_dir():
            raise OxoError(f"--proof {str(folder)!r} is a file; give a new or empty folder")
        if any(folder.iterdir()):
            raise OxoError(
                f"--proof folder {str(folder)!r} is not empty; give a new or empty folder"
            )
    else:
        try:
            folder.mkdir(parents=True)
        except OSError as error:
            raise OxoError(f"cannot create the folder {str(folder)!r}: {error.strerror}") from None
    return folder


def status_string(x: int, o: int, size: int) -> str:
    """The status string of a position (``0`` empty, ``1`` X, ``2`` O per cell in reading order)."""
    xs = format(x, f"0{size}b")[::-1]
    os_ = format(o, f"0{size}b")[::-1]
    return "".join(
        "1" if a == "1" else "2" if b == "1" else "0" for a, b in zip(xs, os_, strict=True)
    )


def write_strategy(
    folder: Path, geometry: Geometry, side: Side, guarantee: Guarantee, entries: list[Entry]
) -> str:
    """Write one strategy as a certificate, check it with the independent checker, return its path."""
    header = StrategyHeader(geometry.shape, geometry.k, side, guarantee)
    lines: list[MoveEntry | PairingEntry] = []
    for entry in entries:
        status = status_string(entry.x, entry.o, geometry.size)
        if entry.pairing is not None:
            lines.append(PairingEntry(status, entry.pairing))
        else:
            assert entry.move is not None
            lines.append(MoveEntry(status, entry.move))
    path = folder / certificate_name(geometry, side, guarantee)
    write_certificate(path, header, lines)
    check = verify_certificate(path)
    if not check.valid:
        raise AssertionError(f"the certificate {path} fails its own check: {check}")
    return str(path)


def prove_board(
    geometry: Geometry,
    *,
    seconds: float | None = DEFAULT_SECONDS,
    proof_dir: str | os.PathLike[str] | None = None,
    on_progress: Callable[[str, int, int, float], None] | None = None,
) -> ProofResult:
    """The value of ``geometry``'s empty board within ``seconds`` (``"unknown"`` past it), with the
    certificates written to ``proof_dir`` (a new or empty folder) when given."""
    folder = prepare_proof_dir(proof_dir) if proof_dir is not None else None
    started = time.perf_counter()
    summaries: list[SearchSummary] = []
    strategies: list[tuple[Side, Guarantee, list[Entry]]] = []

    def run(attacker: Side) -> bool | None:
        left = None if seconds is None else max(0.0, seconds - (time.perf_counter() - started))
        begun = time.perf_counter()
        report = (
            None
            if on_progress is None
            else (
                lambda nodes, table: on_progress(
                    attacker, nodes, table, time.perf_counter() - started
                )
            )
        )
        search = make_search(geometry, attacker, seconds=left, on_progress=report)
        result = search.solve()
        entries = None
        if result is not None and folder is not None:
            strategy = search.strategy()
            entries = len(strategy)
            if result:
                strategies.append((attacker, "win", strategy))
            else:
                strategies.append(("o" if attacker == "x" else "x", "no-loss", strategy))
        summaries.append(
            SearchSummary(
                attacker,
                result,
                search.nodes,
                time.perf_counter() - begun,
                entries,
                search.statistics(),
                search.first_moves() if result is None else None,
            )
        )
        return result

    value: Value
    x_wins = run("x")
    if x_wins is None:
        value = "unknown"
    elif x_wins:
        value = "x"
    else:
        o_wins = run("o")
        value = "unknown" if o_wins is None else "o" if o_wins else "draw"
    proofs: list[str] = []
    if folder is not None and value != "unknown":
        keep = strategies if value == "draw" else [s for s in strategies if s[1] == "win"]
        proofs = [
            write_strategy(folder, geometry, side, guarantee, entries)
            for side, guarantee, entries in keep
        ]
    return ProofResult(
        geometry, value, tuple(summaries), time.perf_counter() - started, tuple(proofs), seconds
    )
