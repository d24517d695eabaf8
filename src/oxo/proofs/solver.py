"""The value of a board's empty position by proof-number search, with certificates anyone can check.

Two questions settle a board: can X force a line? If so X wins, and the proof is X's winning
strategy. If not, the disproof is O's strategy that never loses; then: can O force a line? If not,
the disproof is X's strategy that never loses, and together the two make a draw. Each strategy is
written as a certificate (:mod:`oxo.proofs.certificate`) and checked by the independent checker
before it is reported.

Without a folder for the certificates, one search answers each question in memory. With one, the
proof is a run (:mod:`oxo.proofs.runs`): split into jobs over worker processes or a Dask cluster,
kept in the folder so that it continues after any stop, its certificates merged from the jobs'.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

from oxo.errors import Stopped
from oxo.geometry import Geometry
from oxo.proofs.certificate import (
    Guarantee,
    Side,
    StrategyHeader,
    verify_certificate,
    write_certificate,
)
from oxo.proofs.merge import certificate_lines
from oxo.proofs.results import (
    METHOD,
    ProofResult,
    SearchSummary,
    Value,
    certificate_name,
    method_of,
)
from oxo.proofs.rules import Rules
from oxo.proofs.runs import RunOptions, run_proof
from oxo.proofs.search import make_search
from oxo.proofs.strategy import Entry, StrategyReader

__all__ = [
    "DEFAULT_SECONDS",
    "METHOD",
    "method_of",
    "ProofResult",
    "RunOptions",
    "SearchSummary",
    "Value",
    "certificate_name",
    "prove_board",
    "write_strategy",
]

#: Default time limit of a whole proof, in seconds.
DEFAULT_SECONDS = 600.0


def write_strategy(
    folder: Path,
    geometry: Geometry,
    side: Side,
    guarantee: Guarantee,
    entries: list[Entry],
    rules: Rules | None = None,
) -> str:
    """Write one strategy as a certificate, check it with the independent checker, return its path.
    ``rules``: those its search left moves to (:attr:`oxo.proofs.strategy.StrategyReader.rules`,
    for a win)."""
    header = StrategyHeader.for_board(geometry, side, guarantee, rules)
    path = folder / certificate_name(geometry, side, guarantee)
    write_certificate(path, header, certificate_lines(geometry, entries))
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
    run: RunOptions | None = None,
    on_status: Callable[[str], None] | None = None,
) -> ProofResult:
    """The value of ``geometry``'s empty board within ``seconds`` (``"unknown"`` past it).

    With ``proof_dir`` (a new or empty folder, or the folder of an earlier run of this board, which
    continues) the proof is a run with the ``run`` options (default: one search per question, in
    this process, :meth:`RunOptions.one_search`), reporting to ``on_status``, and the certificates
    are written there; without, one search per question, reporting to ``on_progress`` (question,
    positions searched, table size, seconds)."""
    if proof_dir is not None:
        options = run or RunOptions.one_search()
        return run_proof(geometry, proof_dir, seconds=seconds, options=options, on_status=on_status)
    started = time.perf_counter()
    summaries: list[SearchSummary] = []

    def ask(attacker: str) -> bool | None:
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
        search: StrategyReader | None = None
        try:
            search = make_search(geometry, attacker, seconds=left, on_progress=report)
            result = search.solve()
        except KeyboardInterrupt:
            # Ctrl-C: what the searches had settled goes up with the stop, for the caller to say.
            summaries.append(_stopped_summary(attacker, search, time.perf_counter() - begun))
            partial = ProofResult(
                geometry, "unknown", tuple(summaries), time.perf_counter() - started, (), seconds
            )
            raise Stopped(partial) from None
        summaries.append(
            SearchSummary(
                attacker,
                result,
                search.nodes,
                time.perf_counter() - begun,
                None,
                search.statistics(),
                search.first_moves() if result is None else None,
            )
        )
        return result

    value: Value
    x_wins = ask("x")
    if x_wins is None:
        value = "unknown"
    elif x_wins:
        value = "x"
    else:
        o_wins = ask("o")
        value = "unknown" if o_wins is None else "o" if o_wins else "draw"
    return ProofResult(
        geometry, value, tuple(summaries), time.perf_counter() - started, (), seconds
    )


def _stopped_summary(attacker: str, search: StrategyReader | None, seconds: float) -> SearchSummary:
    """The summary of a search Ctrl-C stopped: unsettled, with the first moves it had settled when
    its table can still be read (a stop in the middle of growing it leaves them unknown)."""
    if search is None:  # stopped while the search was being built
        return SearchSummary(attacker, None, 0, seconds, None)
    try:
        first: dict[str, list[int]] | None = search.first_moves()
    except Exception:  # the table was left half-rebuilt by the stop: its news is lost
        first = None
    return SearchSummary(attacker, None, search.nodes, seconds, None, {}, first)
