"""The boards proved (or being proved) by long proof runs: the section of docs/solved.md written from
the runs kept in results/runs/.

Run:  python benchmarks/results_runs.py            (print the section)
      python benchmarks/results_runs.py --write    (and put it between the markers of docs/solved.md)

Every figure comes from the runs' own state (``oxo solve BOARD --proof DIR --status`` reads the
same): the value, the sessions, the run and worker time, the positions searched, the jobs, and for a
finished run each certificate as the run's own check reported it (entries, positions checked, moves
of the side) with its size and SHA-256 as the run recorded them when it wrote the certificate.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _measure import replace_section  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RUNS = ROOT / "results" / "runs"
DOC = ROOT / "docs" / "solved.md"
MARKERS = ("<!-- runs -->", "<!-- /runs -->")
#: What the field published for the boards kept in results/runs/ (the sources are the page's list).
PUBLISHED = {
    ("4x4x4", 4, False): "X wins (Patashnik 1980; Allis & Schoo 1992 [3])",
    ("8x8", 5, False): "draw (Hsu et al. 2020, 17.4 hours [5])",
    ("9x8", 5, False): "none (with k = 5 below 15x15 none past 8x8 [5])",
    ("4x4x4x4", 4, False): "none (no value or strategy published [6])",
    ("4x4x4", 4, True): "none (open: attacked on a cluster without finishing [7])",
}
WORDS = {"x": "X wins", "o": "O wins", "draw": "draw", None: "not settled yet"}


def record_of(folder: Path, name: str) -> Path:
    """Where the check without oxo of a run's certificate too big for one sitting keeps what it
    has judged (``tools/check_strategy.py --resume``): beside the run's state, in the repository."""
    return folder / name.replace(".jsonl.gz", ".check-without-oxo.json")


def without_oxo(folder: Path, name: str, check: dict) -> str:
    """The words on a certificate's check without oxo done in parts (its record, if the folder
    has one of the bytes the run's ``check`` recorded): its verdict and figures, or how far it
    has come. The processor time is at least the calls' (a call stopped by killing its worker
    processes records its own only)."""
    path = record_of(folder, name)
    if not path.exists():
        return ""
    from oxo.phrases import counted, duration

    data = json.loads(path.read_text(encoding="utf-8"))
    if data["certificate_sha256"] != check.get("sha256"):
        return ""  # a record of other bytes says nothing of this file
    calls = data["calls"]
    spent = sum(float(call.get("cpu_seconds", 0)) for call in calls)
    parts = f"in {counted(len(calls), 'call')}, at least {duration(spent)} of processor time"
    command = f"`python3 tools/check_strategy.py FILE --jobs 2 --resume {path.relative_to(ROOT)}`"
    verdict = data.get("verdict")
    if verdict is None:
        return (
            f" The check without oxo, in parts ({command}): {1 + len(data['judged']):,} of "
            f"{data['sections']:,} sections judged to hold so far ({parts})."
        )
    if verdict["failure"] is not None:
        return f" The check without oxo ({command}) refuses it: {verdict['failure']}."
    return (
        f" Checked without oxo, in parts ({command}, {parts}): valid; "
        f"{verdict['positions']:,} positions, {verdict['moves']:,} moves of "
        f"{str(check.get('side', '?')).upper()}, {verdict['chains']:,} forced chains."
    )


def section() -> str:
    from oxo.game import other
    from oxo.phrases import duration
    from oxo.proofs.results import sessions_span
    from oxo.proofs.runs import INF, run_status

    rows = []
    notes = []
    for folder in sorted(path.parent.parent for path in RUNS.glob("*/run/state.json")):
        status = run_status(folder)
        where = folder.relative_to(ROOT)
        cpu = sum(q.cpu for q in status.questions)
        wall = sum(q.wall for q in status.questions)
        positions = sum(q.positions for q in status.questions)
        jobs = sum(q.jobs for q in status.questions)
        published = PUBLISHED.get((status.board, status.k, status.gravity), "")
        board = f"{status.board} (gravity)" if status.gravity else status.board
        value = WORDS[status.value]
        if status.value is None and status.won_by:  # the value, its certificate still to come
            value = f"{status.won_by.upper()} wins (certificate not checked yet)"
        elif status.value is None:  # a question answered "no" already: the other side cannot lose
            value += "".join(
                f"; {other(q.attacker).upper()} cannot lose"
                for q in status.questions
                if q.value == -1
            )
        rows.append(
            f"| {board} | {status.k} | {value} | {published} | "
            f"{status.sessions} | {duration(wall)} | {duration(cpu)} | "
            f"{positions:,} | {jobs:,} | `{where}` |"
        )
        for name in status.proofs:
            check = status.checks.get(name, {})
            facts = [
                f"{int(check.get('entries', 0)):,} entries",
                f"{int(check.get('positions_checked', 0)):,} positions checked",
                f"{int(check.get('strategy_moves', 0)):,} moves of "
                f"{str(check.get('side', '?')).upper()}",
            ]
            if "sha256" in check:
                facts.append(f"{int(check['bytes']):,} bytes, SHA-256 `{check['sha256']}`")
                facts.append(f"SHA-256 of the text it holds `{check['sha256_uncompressed']}`")
            notes.append(
                f"- {board} (k = {status.k}), `{where.name}`: `{name}`: "
                + "; ".join(facts)
                + "."
                + without_oxo(folder, name, check)
            )
        if status.value is None:
            geometry = status.geometry
            estimate = status.pace_estimate()
            pace = ""
            if estimate is not None and status.paces is not None:
                first, last, seconds, settled = status.paces
                pace = (
                    f" At the pace of {sessions_span(first, last)} ({settled:,} positions settled in "
                    f"{duration(seconds)} of run time) those take about {duration(estimate)}, "
                    "more where a job splits a position into more."
                )
            for q in status.questions:
                if q.value == 1:
                    notes.append(
                        f"- {board} (k = {status.k}), `{where.name}`: can {q.attacker.upper()} "
                        "force a line? yes; its certificate is to be merged and checked by the "
                        "run's command (the same command again)."
                    )
                if not q.value:
                    notes.append(
                        f"- {board} (k = {status.k}), can {q.attacker.upper()} force a "
                        f"line? open: {q.open_jobs:,} open jobs, at least "
                        + (
                            f"{q.fewest_to_prove:,} of them to prove it"
                            if q.followed_to_prove in (q.fewest_to_prove, INF)
                            else f"{q.followed_to_prove:,} of them to prove it along the moves "
                            f"the run follows ({q.fewest_to_prove:,} if "
                            f"{q.attacker.upper()}'s other moves settled in their first jobs)"
                        )
                        + f" and {q.fewest_to_disprove:,} to disprove it."
                        + pace
                        + "".join(
                            f" O's {r.win + r.no_win + r.open:,} replies to "
                            f"{geometry.mark_words('X', r.move)}: "
                            f"{q.attacker.upper()} wins after {r.win:,}, does not after "
                            f"{r.no_win:,}, {r.open:,} open; "
                            + "; ".join(wait.words(q.attacker, geometry) for wait in r.waits)
                            + "."
                            for r in q.replies
                            if r.waits
                        )
                    )
    lines = [
        MARKERS[0],
        "## Boards proved by long runs",
        "",
        "Boards beyond the limits above are proved by proof runs that last hours, stop and go on "
        "across sessions, and end in a certificate merged from the jobs' pieces (docs/proofs.md, "
        "docs/big-proofs.md). Their state is kept in `results/runs/`; written by "
        "`python benchmarks/results_runs.py --write` from that state. Run time is the time the runs "
        "took; worker time adds up the time of every worker process (two on this machine); every start of the run's command is a session, restarts and the writing of a certificate included. "
        "A second run of a board proved already (its folder named `-defaults`) proves it again from "
        "an empty folder with the command's defaults only, to measure them (docs/performance.md). "
        "Until 2026-11-29 the search of boards past 64 cells could go round in place once its "
        "table was full, each round counted as a position: 4x4x4x4's count holds many such "
        'rounds (docs/performance.md, "The search past 64 cells went round in place").',
        "",
        "| board | k | value | published | sessions | run time | worker time | positions | jobs "
        "| kept in |",
        "| --- | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
        *rows,
        "",
        "Certificates and what is still open:",
        "",
        *notes,
        "",
        "A certificate too big for the repository is rebuilt from the kept run, byte for byte: copy "
        "the folder and run the same command on it, which merges the certificate again from the "
        "run's pieces and checks it (`cp -r results/runs/4x4x4 q && oxo solve 4x4x4 --proof q`), then "
        "check it without oxo (`python3 tools/check_strategy.py q/4x4x4-k4-x-win.jsonl.gz`) and "
        "compare its SHA-256 with the one above (the text's SHA-256 does not depend on the gzip "
        "library; the file's may).",
        MARKERS[1],
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--write", action="store_true", help="write the section into docs/solved.md"
    )
    args = parser.parse_args()
    text = section()
    print(text)
    if args.write:
        replace_section(DOC, MARKERS, text, required=False, insert_before="<!-- gravity -->")
        print(f"written to {DOC.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
