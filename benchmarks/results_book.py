"""Write oxo's proof book (``src/oxo/book/book.json``) from the project's records and certificates.

Run:  python benchmarks/results_book.py            (print the book)
      python benchmarks/results_book.py --write    (write src/oxo/book/book.json)
      python benchmarks/results_book.py --check    (exit 1 when the file differs from what the
                                                    records give: the test suite does the same)

One row per proved board, each figure read, none typed:

- the boards of ``results/solved.json`` with a value (``benchmarks/results_solved.py``): value,
  published value and source, method, positions, wall time, machine (and the date of a row that
  was re-measured); the ply the game ends at for boards of at most 16 cells (the exact solver);
- the long runs kept in ``results/runs/`` (``oxo solve BOARD --proof DIR --status`` reads the
  same): value, run time, positions, the date of the last session, and each certificate as the
  run's own check reported it;
- the boards no one has published the value of, that the runs kept in ``results/runs/`` are
  settling ("open"): how far each run has got, as of its last session;
- Connect Four's record (``results/solve-6x7-k4-gravity.json``, ``benchmarks/bench_connect4.py``);
- each certificate from its file: entries, size, SHA-256 of the file and of the text it holds,
  positions checked and moves (``oxo verify``'s checker, unless a run or
  ``results/book-certificates.json`` recorded its check of the same bytes).

The command of each row proves the value again from scratch, from an empty folder, with the
defaults (``benchmarks/book_reproduce.py`` runs them).
"""

from __future__ import annotations

import argparse
import functools
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

ROOT = Path(__file__).resolve().parent.parent
BOOK = ROOT / "src" / "oxo" / "book" / "book.json"
PACKAGE = ROOT / "src" / "oxo" / "book" / "certificates"
REPOSITORY = ROOT / "results" / "certificates"
GRAVITY = ROOT / "src" / "oxo" / "gravity" / "certificates"
RUNS = ROOT / "results" / "runs"
MADE = ROOT / "results" / "book-certificates.json"
#: Boards played from the certificate of the same board turned a quarter (rows and columns swapped).
TURNED = {"4x9,k=4": "9x4,k=4", "4x10,k=4": "10x4,k=4"}
#: Certificates over the repository's 50 MB (Qubic's, 4x4x4x4's): rebuilt from the kept run.
REBUILT = {
    "4x4x4-k4-x-win.jsonl.gz": "oxo book 4x4x4 --index --all",
    "4x4x4x4-k4-x-win.jsonl.gz": "oxo book 4x4x4x4 --index --all",
}
#: The options the long runs were proved with, where a person chose them (docs/big-proofs.md).
CHOSEN = {
    "8x8,k=5": "the session that settled it ran with --split 1 --slice 1200 --no-early-split "
    "--no-root-search --first-question o, chosen by hand (docs/big-proofs.md)",
    "4x4x4x4": "its sessions ran with --workers 2 --slice 300 --no-root-search, chosen by hand, "
    "and the run's rules changed between sessions as they were found to pay (docs/boxes.md)",
}


def command(geometry) -> str:
    """``oxo solve 7x7 --k 5 --proof DIR``: the command that proves a board from an empty folder."""
    k = "" if geometry.k == geometry.default_k else f" --k {geometry.k}"
    return f"oxo solve {geometry.spec_shape}{k} --proof DIR"


#: Checks made in this run, by the SHA-256 of the file checked (10x4's serves 4x10 too).
_CHECKED: dict[str, dict] = {}


def _oxo_check(name: str) -> tuple[str, dict] | None:
    """The SHA-256 of the file ``name`` that results/certificate-checks.json records
    (``benchmarks/bench_check.py --record``) and oxo's last check of it, when that check accepted
    it; None without one."""
    checks = json.loads((ROOT / "results" / "certificate-checks.json").read_text(encoding="utf-8"))
    record = checks.get(name, {})
    ours = [check for check in record.get("checks", []) if check["checker"].startswith("oxo")]
    return (record["sha256"], ours[-1]) if ours and ours[-1]["valid"] else None


def _recorded_check(name: str, sha256: str) -> dict | None:
    """oxo's check of these very bytes, with what it counted; None without one."""
    found = _oxo_check(name)
    if found is None or found[0] != sha256 or "entries" not in found[1]:
        return None
    check = found[1]
    return {
        "sha256": sha256,
        "entries": check["entries"],
        "positions_checked": check["positions"],
        "moves": check["moves"],
        "sections": check["sections"],
        "cpu_seconds": check.get("cpu_seconds"),
    }


@functools.cache
def _digests(path: Path) -> dict:
    """A file's digests, read once per run of this script (several sections ask for the same
    certificate's, each a full read of up to 90 MB)."""
    from oxo.fileio import digests

    return digests(path)


def certificate(path: Path, shipped: str, known: dict | None = None, **extra) -> dict:
    """A certificate's row from its file (and a check recorded for the same bytes, if any)."""
    from oxo.proofs.certificate import verify_certificate

    sums = _digests(path)
    known = known if known is not None else _recorded_check(path.name, sums["sha256"])
    if known is not None and known.get("sha256") == sums["sha256"]:
        checked = {
            "entries": known["entries"],
            "positions": known.get("positions_checked", 0),
            "moves": known.get("strategy_moves", known.get("moves", 0)),
            "sections": known.get("sections", 0) or 0,
        }
    elif sums["sha256"] in _CHECKED:  # the same bytes under a second name (a board turned)
        checked = _CHECKED[sums["sha256"]]
    else:
        check = verify_certificate(path)
        if not check.valid:
            raise SystemExit(f"{path} does not check: {check}")
        checked = _CHECKED[sums["sha256"]] = {
            "entries": check.entries,
            "positions": check.positions_checked,
            "moves": check.strategy_moves,
            "sections": check.sections,
        }
    header = _header(path)
    board = header.get("board") if header["format"] == "oxo-strategy/1" else None
    return {
        "file": path.name,
        "board": board or str(header.get("board")),
        "side": header["side"],
        "guarantee": header.get("guarantee") or _gravity_guarantee(header),
        "format": header["format"],
        "entries": checked["entries"],
        "bytes": sums["bytes"],
        "sha256": sums["sha256"],
        "sha256_text": sums["sha256_uncompressed"],
        "shipped": shipped,
        "positions": checked["positions"],
        "moves": checked["moves"],
        "sections": checked["sections"],
        "turned": False,
        "make": None,
        "run": None,
        "check_seconds": None,
        **extra,
    }


def _header(path: Path) -> dict:
    import gzip

    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return json.loads(handle.readline())


def _gravity_guarantee(header: dict) -> str:
    """A gravity certificate's bound in words (its header's own claim)."""
    return str(header.get("claim", f"score at least {header.get('score_at_least')}"))


def _gravity_entries(path: Path) -> dict:
    from oxo.gravity.certificate import read_gravity_certificate

    cert = read_gravity_certificate(path)
    return {"entries": len(cert.moves), "positions_checked": 0, "moves": len(cert.moves)}


def _update_of(spec: str, updates: list[str]) -> tuple[str | None, str | None]:
    """The date and machine of the last re-measurement that names the board, if any."""
    date = machine = None
    for text in updates:
        named = text.rsplit(" now: ", 1)[-1].rstrip(".")
        if spec in [part.strip() for part in named.split(",")] or f"{spec}," in named + ",":
            found = re.search(r"Re-measured on (\d{4}-\d\d-\d\d)", text)
            where = re.search(r", on (.*? now)", text)
            date = found.group(1) if found else date
            machine = where.group(1) if where else machine
    return date, machine


def references() -> dict[str, str]:
    """The numbered sources of docs/solved.md ("Sources of the published values"), by number."""
    lines = (ROOT / "docs" / "solved.md").read_text(encoding="utf-8").splitlines()
    start = lines.index("Sources of the published values:")
    found: dict[str, str] = {}
    number = None
    for line in lines[start + 1 :]:
        if line.startswith("<!--") or line.startswith("#"):
            break
        head = re.match(r"(\d+)\. (.*)", line)
        if head:
            number = head.group(1)
            found[number] = head.group(2).strip()
        elif number is not None and line.startswith("   "):
            found[number] += " " + line.strip()
    return {key: text.replace("*", "") for key, text in found.items()}


def cited(source: str) -> list[list[str]]:
    """The references a source text cites (``[3]``), in full."""
    known = references()
    return [[number, known[number]] for number in re.findall(r"\[(\d+)\]", source)]


def small_boards(made: list[dict]) -> list[dict]:
    """The rows of results/solved.json's boards with a value."""
    from oxo.geometry import Geometry
    from oxo.solve import solve

    solved = json.loads((ROOT / "results" / "solved.json").read_text(encoding="utf-8"))
    rows = []
    records = {item["file"]: item for item in made}
    for row in solved["boards"]:
        if row["value"] not in ("x", "o", "draw"):
            continue
        geometry = Geometry.parse(row["spec"])
        date, machine = _update_of(row["spec"], solved.get("updates", []))
        ending = solve(geometry).ply_table().value.plies if geometry.size <= 16 else None
        certificates = []
        source = TURNED.get(row["spec"], row["spec"])
        shape = Geometry.parse(source)
        for side, guarantee in _wanted(row["value"]):
            name = f"{shape.spec_shape}-k{shape.k}-{side}-{guarantee}.jsonl.gz"
            for folder, shipped in ((PACKAGE, "package"), (REPOSITORY, "repository")):
                if (folder / name).exists():
                    certificates.append(
                        certificate(
                            folder / name,
                            shipped,
                            records.get(name),
                            turned=source != row["spec"],
                        )
                    )
                    break
            else:
                raise SystemExit(
                    f"{row['spec']}: no certificate {name}; run benchmarks/book_certificates.py"
                )
        rows.append(
            {
                "board": geometry.spec,
                "shape": list(geometry.shape),
                "k": geometry.k,
                "gravity": False,
                "value": row["value"],
                "ending_ply": ending,
                "published": row["published"],
                "source": row["source"],
                "method": row["method"],
                "machine": machine or solved["machine"],
                "date": date,
                "seconds": row["wall_seconds"],
                "positions": row["nodes"],
                "command": command(geometry),
                "certificates": certificates,
                "note": "",
                "references": cited(row["source"]),
            }
        )
    return rows


def _wanted(value: str) -> list[tuple[str, str]]:
    return {"x": [("x", "win")], "o": [("o", "win")], "draw": [("x", "no-loss"), ("o", "no-loss")]}[
        value
    ]


def compact_certificates(geometry) -> list[dict]:
    """The shipped certificates with rules of a board proved by a long run (Qubic's: Patashnik's
    dictionary, then oxo's with fewer stored moves), before a certificate that must be rebuilt and
    after the run's own when it ships: the book plays from the first certificate of a side. A
    check recorded in results/certificate-checks.json (``benchmarks/bench_check.py --record``)
    for the same bytes stands for checking it again here."""
    import gzip

    rows = []
    found = REPOSITORY.glob(f"{geometry.spec_shape}-k{geometry.k}-*.rules.jsonl.gz")
    # The one named after the board alone first (Qubic's: Patashnik's), then those that name their
    # maker (``4x4x4-k4-x-win.oxo.rules.jsonl.gz``).
    for path in sorted(found, key=lambda path: (path.name.count("."), path.name)):
        found = _oxo_check(path.name)
        known = None
        if found is not None:
            with gzip.open(path, "rt", encoding="utf-8") as handle:
                header = json.loads(handle.readline())
                lines = [json.loads(line) for line in handle]  # an entry a line
            known = {
                "sha256": found[0],
                "entries": len(lines),
                "positions_checked": found[1]["positions"],
                # The side's stored moves (a no-loss strategy's pairings are entries too).
                "strategy_moves": sum(1 for line in lines if "move" in line),
                "sections": len(header.get("sections") or ()),
            }
        seconds = found[1]["cpu_seconds"] if found is not None else None
        rows.append(certificate(path, "repository", known, check_seconds=seconds))
    return rows


def long_runs() -> list[dict]:
    """The rows of the boards proved by the runs kept in results/runs/."""
    from oxo.geometry import Geometry
    from oxo.proofs.results import METHOD
    from oxo.proofs.runs import load_state, run_status

    solved = json.loads((ROOT / "results" / "solved.json").read_text(encoding="utf-8"))
    published = {row["spec"]: row for row in solved["boards"]}
    rows = []
    proved: set[str] = set()
    for folder in sorted(path.parent.parent for path in RUNS.glob("*/run/state.json")):
        status = run_status(folder)
        if status.value not in ("x", "o", "draw"):
            continue
        state = load_state(folder)
        geometry = Geometry(tuple(state["dims"]), state["k"])
        # One row a board: its proof's run ("8x8-k5"), not a run of it again from an empty folder
        # with the defaults ("8x8-k5-defaults", docs/big-proofs.md), whose certificates have the
        # same names and are not shipped.
        if geometry.spec in proved:
            continue
        proved.add(geometry.spec)
        certificates = compact_certificates(geometry)
        for name in sorted(status.proofs, key=lambda name: "-x-" not in name):
            known = status.checks.get(name, {})
            if (REPOSITORY / name).exists():
                certificates.append(certificate(REPOSITORY / name, "repository", known))
            elif name in REBUILT:
                certificates.append(
                    {
                        "file": name,
                        "board": geometry.spec_shape,
                        "side": known["side"],
                        "guarantee": known["guarantee"],
                        "format": "oxo-strategy/1",
                        "entries": known["entries"],
                        "bytes": known["bytes"],
                        "sha256": known["sha256"],
                        "sha256_text": known["sha256_uncompressed"],
                        "shipped": "rebuilt",
                        "positions": known["positions_checked"],
                        "moves": known["strategy_moves"],
                        "sections": known.get("sections", 0),
                        "turned": False,
                        "make": REBUILT[name],
                        "run": str(folder.relative_to(ROOT)),
                        "check_seconds": known.get("check_seconds")
                        or certificate_session_seconds(state),
                    }
                )
            else:
                raise SystemExit(f"{folder}: the certificate {name} is neither shipped nor rebuilt")
        # A side is played from its first certificate: the run's own where it ships (8x8's: no
        # forced chains to search at each move), else one with rules before a rebuilt one (Qubic).
        order = {"repository": 1, "rebuilt": 2}
        certificates.sort(
            key=lambda row: (
                0
                if row["shipped"] == "repository" and not row["file"].endswith(".rules.jsonl.gz")
                else order[row["shipped"]]
            )
        )
        last = max(session["started"] for session in state["sessions"])
        row = published.get(geometry.spec) or first_published(status)
        rows.append(
            {
                "board": geometry.spec,
                "shape": list(geometry.shape),
                "k": geometry.k,
                "gravity": False,
                "value": status.value,
                "ending_ply": None,
                "published": row["published"],
                "source": row["source"],
                "method": f"{METHOD}, as a proof run of {status.sessions} sessions "
                f"({sum(q.jobs for q in status.questions):,} jobs; "
                f"{sum(q.cpu for q in status.questions) / 3600:.1f} h of worker time)",
                "machine": f"this project's machine, {status.workers} worker processes (the "
                "run's state does not record the machine: docs/big-proofs.md describes it)",
                "date": time.strftime("%Y-%m-%d", time.gmtime(last)),
                "seconds": round(sum(q.wall for q in status.questions), 1),
                "positions": sum(q.positions for q in status.questions),
                "command": command(geometry),
                "certificates": certificates,
                "note": CHOSEN.get(geometry.spec, ""),
                "references": cited(row["source"]),
                # a board whose certificate does not ship keeps the openings its run settled
                # first, with theirs, for play and answers before it is rebuilt
                **(
                    {"openings": openings}
                    if any(c["shipped"] == "rebuilt" for c in certificates)
                    and (openings := openings_of(folder, geometry))
                    else {}
                ),
            }
        )
    return rows


def certificate_session_seconds(state: dict) -> float | None:
    """For a run that recorded no time for its certificate's check (before 2026-12-04): the
    seconds of its last session when that one searched nothing, only merged and checked the
    certificate (an upper bound of the check, for the estimate of the index's build); else
    None."""
    last = state["sessions"][-1]
    if last.get("nodes") == 0 and last.get("end") == "settled":
        return round(float(last["seconds"]), 1)
    return None


def first_published(status) -> dict[str, str]:  # type: ignore[no-untyped-def]  # a RunStatus
    """The published value and its source for a board whose value no one had published before
    its run settled it (results/solved.json has no row of it): ``none``, and the page's words."""
    from results_runs import PUBLISHED

    words = PUBLISHED[(status.board, status.k, status.gravity)]
    found = re.fullmatch(r"none \((.*)\)", words)
    if found is None:
        raise SystemExit(f"{status.board}: no published value recorded, and none said to be none")
    return {
        "published": "none",
        "source": found.group(1).replace("published", "had been published"),
    }


#: How the open boards' runs are continued, where the sessions used options of their own
#: (docs/boxes.md): the run's folder is the repository's.
RUN_OPTIONS = {"4x4x4x4": " --workers 2 --slice 300 --no-root-search"}


def open_runs() -> list[dict]:
    """The rows of the boards whose value no one has published, that the runs kept in
    results/runs/ are settling: how far each has got, as of its last session."""
    from oxo.proofs.runs import INF, load_state, run_status, state_geometry
    from oxo.registry import find_game
    from results_runs import PUBLISHED

    rows = []
    for folder in sorted(path.parent.parent for path in RUNS.glob("*/run/state.json")):
        status = run_status(folder)
        state = load_state(folder)
        geometry = state_geometry(state)
        published = PUBLISHED.get((status.board, status.k, status.gravity), "")
        if status.value is not None or not published.startswith("none"):
            continue
        where = folder.relative_to(ROOT)
        if geometry.gravity:  # the name people know it by: scorefour
            words = find_game(geometry.spec).short_name  # type: ignore[attr-defined]
        else:
            words = geometry.spec_shape + (
                "" if geometry.k == geometry.default_k else f" --k {geometry.k}"
            )
        options = RUN_OPTIONS.get(geometry.spec, "")
        questions = [
            {
                "attacker": q.attacker,
                "proved": q.proved,
                "disproved": q.disproved,
                "open_jobs": q.open_jobs,
                "fewest_to_prove": q.fewest_to_prove,
                "fewest_to_disprove": q.fewest_to_disprove,
                "followed_to_prove": q.followed_to_prove if q.followed_to_prove < INF else None,
                "wins_after": q.first_moves["win"],
                "no_win_after": q.first_moves["no win"],
                "open_after": q.first_moves["open"],
                "replies": [[r.move, r.win, r.no_win, r.open] for r in q.replies],
                "waits_after": next((r.move for r in q.replies if r.waits), None),
                "waits": [w.to_dict() for r in q.replies for w in r.waits],
            }
            for q in status.questions
        ]
        last = max(session["started"] for session in state["sessions"])
        rows.append(
            {
                "board": geometry.spec,
                "shape": list(geometry.shape),
                "k": geometry.k,
                "gravity": geometry.gravity,
                "published": published,
                "board_args": words,
                "run": str(where),
                "command": f"oxo solve {words} --proof {where}{options}",
                "sessions": status.sessions,
                "date": time.strftime("%Y-%m-%d", time.gmtime(last)),
                "seconds": round(sum(q.wall for q in status.questions), 1),
                "worker_seconds": round(sum(q.cpu for q in status.questions), 1),
                "positions": sum(q.positions for q in status.questions),
                "jobs": sum(q.jobs for q in status.questions),
                "questions": questions,
                "estimate_all_seconds": None
                if status.estimate_all is None
                else round(status.estimate_all),
                "references": cited(published),
                "openings": openings_of(folder, geometry),
                "paces": None if status.paces is None else list(status.paces),
                "pace_estimate_seconds": None
                if (estimate := status.pace_estimate()) is None
                else round(estimate),
            }
        )
    return rows


def openings_of(folder: Path, geometry) -> list[dict]:
    """The rows of a run's settled openings whose certificate is in results/certificates with a
    recorded check of oxo's (benchmarks/results_openings.py writes and checks them); those below
    a settled opening too (written before it was settled)."""
    from oxo.proofs.runs import proved_openings

    rows = []
    for opening in proved_openings(folder, every=True):
        path = REPOSITORY / opening.certificate_name(geometry)
        known = _recorded_check(path.name, _digests(path)["sha256"]) if path.exists() else None
        if known is None:
            continue
        rows.append(
            {
                "moves": list(opening.moves),
                "position": opening.position,
                "side": opening.side,
                "guarantee": opening.guarantee,
                "certificate": certificate(
                    path, "repository", known, check_seconds=known["cpu_seconds"]
                ),
            }
        )
    return rows


def connect_four() -> list[dict]:
    """Connect Four's row, from its record and the certificates that ship with oxo."""
    record = json.loads(
        (ROOT / "results" / "solve-6x7-k4-gravity.json").read_text(encoding="utf-8")
    )
    certificates = [
        certificate(path, "gravity", {**_gravity_entries(path), **_sums(path)})
        for path in sorted(
            GRAVITY.glob("6x7-k4-gravity-*.jsonl.gz"), key=lambda path: "-x-" not in path.name
        )
    ]
    return [
        {
            "board": record["board"],
            "shape": [6, 7],
            "k": 4,
            "gravity": True,
            "value": record["value"],
            "ending_ply": record["end_ply"],
            "published": "x",
            "source": "Allis 1988; Allen 1988",
            "method": "exact alpha-beta search over bitboards; each certificate's tree runs to "
            "a ply where the solver settles its leaves again",
            "machine": record["machine"],
            "date": record["started"][:10],
            "seconds": record["seconds"],
            "positions": record["nodes"],
            "command": "oxo solve 6x7 --k 4 --gravity --proof DIR",
            "certificates": certificates,
            "note": f"the record's run: {record['command']}",
            "references": [],
        }
    ]


def _sums(path: Path) -> dict:
    return {"sha256": _digests(path)["sha256"]}


def book() -> dict:
    made = json.loads(MADE.read_text(encoding="utf-8")) if MADE.exists() else []
    return {
        "format": "oxo-book/1",
        "written_by": "python benchmarks/results_book.py --write",
        "boards": small_boards(made) + long_runs() + connect_four(),
        "open": open_runs(),
    }


def text(data: dict) -> str:
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


DOC = ROOT / "docs" / "solved.md"
MARKERS = ("<!-- book -->", "<!-- /book -->")


def opening_lines(data: dict) -> list[str]:
    """The part of the section on the openings the long runs have settled before their boards:
    the open boards', and those a proved board keeps while its own certificate does not ship."""
    from oxo.book import BookEntry, BookOpening

    rows = []
    for row in [*data["boards"], *data["open"]]:
        args = row.get("board_args") or BookEntry.from_dict(row).board_args
        for item in row.get("openings", []):
            opening = BookOpening.from_dict(item)
            certificate = opening.certificate
            rows.append(
                f"| {args} | {opening.moves_words} | {opening.value_words} | "
                f"`{certificate.file}` | {certificate.entries:,} | {certificate.bytes:,} | "
                f"`{certificate.sha256[:16]}` | {certificate.positions:,} |"
            )
    if not rows:
        return []
    return [
        "A long run settles positions a move or two in long before its board, and each such "
        "position has a certificate of its own whose walk begins there (the header's `start`), checked when it was written by oxo's "
        "checker and by the checker without oxo, `tools/check_strategy.py` (`python "
        "benchmarks/results_openings.py --write --tool`, both checks recorded in "
        "`results/certificate-checks.json`), and kept in `results/certificates/`. `oxo book BOARD` "
        "lists them and `oxo analyze` gives their value, and the level perfect plays from them; "
        "a proved board keeps them while its own certificate is too big to ship (4x4x4x4's, "
        "until it is rebuilt from the run). Cells are numbered from 0 in reading order.",
        "",
        "| board | after | proves | certificate | entries | bytes | SHA-256 (start) | positions checked |",
        "| --- | --- | --- | --- | ---: | ---: | --- | ---: |",
        *rows,
        "",
    ]


def section(data: dict) -> str:
    """The section of docs/solved.md on using the proofs: every certificate of the book."""
    from oxo.book import BookCertificate
    from oxo.book.index import estimate_seconds
    from oxo.phrases import duration

    where = {
        "package": "inside oxo",
        "repository": "`results/certificates/`",
        "gravity": "inside oxo",
        "rebuilt": "rebuilt from `results/runs/`",
    }
    rows = []
    for row in data["boards"]:
        for item in row["certificates"]:
            certificate = BookCertificate.from_dict(item)
            index = (
                duration(estimate_seconds(certificate))
                if certificate.format == "oxo-strategy/1"
                else "none needed"
            )
            turned = f" ({certificate.board}'s, turned)" if certificate.turned else ""
            rows.append(
                f"| {row['board'].split(',')[0]} | {row['k']} | {certificate.claim} | "
                f"`{certificate.file}`{turned} | {certificate.entries:,} | {certificate.bytes:,} | "
                f"`{certificate.sha256[:16]}` | {where[certificate.shipped]} | {index} |"
            )
    lines = [
        MARKERS[0],
        "## Using the proofs: oxo's proof book",
        "",
        "Every value above is in oxo's proof book (`src/oxo/book/book.json`, written by "
        "`python benchmarks/results_book.py --write` from the records of this page and from the "
        "certificate files themselves). `oxo book` lists it beside the published values; `oxo book "
        "BOARD` shows one proof in full: its sources, machine and time, the command that proves it "
        "again from an empty folder, and each certificate with its SHA-256 and the commands that "
        "check it (`oxo verify FILE`; without oxo, `python3 tools/check_strategy.py FILE`). `oxo "
        "solve BOARD` answers from the book at once (`--again` proves it here instead), and `oxo "
        "analyze` gives the value of every position a certificate covers. Each row's command, run "
        "in an empty folder with the defaults, proves the value again: `python "
        "benchmarks/book_reproduce.py` runs them (all but the long runs' and Connect Four's) and "
        "compares (docs/performance.md has its last run).",
        "",
        "The levels `perfect` and `best` play from the certificates wherever one covers the "
        "position for the side to move (`oxo play 8x8 --k 5 --level perfect`, `oxo move 4x4x4 "
        "--level perfect`): the move the certificate's checker plays there, so a proved win stays "
        "a win and a draw is never lost. A certificate is used only once its SHA-256 matches the "
        "book's (a missing, truncated or altered file says so, and perfect plays hard instead). A "
        "large certificate needs an index first, the moves its checker's walk plays, built once in "
        "oxo's cache (`$OXO_CACHE`, else `~/.cache/oxo`) by `oxo book BOARD --index` or by the "
        "first perfect move; after that a move takes well under a second. Qubic's own certificate "
        "is too big for the repository (`oxo book 4x4x4 --index --all` merges it again from the run kept "
        "in `results/runs/4x4x4`, the same bytes, then indexes it); perfect plays X from the 16 KB "
        "certificate with rules that comes first in its row, Patashnik's dictionary checked by "
        "machine (docs/big-proofs.md), whose index takes about a minute to build. The next row, "
        "12 KB, is oxo's rewriting of his dictionary with fewer stored moves. The index column "
        "below is the estimate of that one-time build on this machine (docs/performance.md has the "
        "measured times).",
        "",
        "| board | k | proves | certificate | entries | bytes | SHA-256 (start) | where | index, once |",
        "| --- | ---: | --- | --- | ---: | ---: | --- | --- | ---: |",
        *rows,
        "",
        *opening_lines(data),
        "On the web page (`oxo serve`) every board of the book can be played against its proof: "
        "the board menu lists them, and beside the board a box says what is proved, where each "
        "certificate is and the commands that check it, prepares a certificate's index (by itself "
        "before the computer's first move when it is quick, on a button when it is long, showing "
        'how far it is) and offers a new game against the proof (docs/api.md, "Playing against '
        'the proof").',
        MARKERS[1],
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write src/oxo/book/book.json")
    parser.add_argument("--check", action="store_true", help="compare with the file")
    args = parser.parse_args()
    out = text(book())
    if args.check:
        same = BOOK.exists() and BOOK.read_text(encoding="utf-8") == out
        print("the book is up to date" if same else f"{BOOK} differs from the records")
        raise SystemExit(0 if same else 1)
    if args.write:
        from _measure import replace_section
        from oxo.fileio import write_atomic

        write_atomic(BOOK, out)
        replace_section(DOC, MARKERS, section(json.loads(out)), required=False)
        print(f"wrote {BOOK.relative_to(ROOT)} and its section of {DOC.relative_to(ROOT)}")
        return
    print(out, end="")


if __name__ == "__main__":
    main()
