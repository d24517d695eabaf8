"""Compute the position tables of the boards beyond 4×4 and write them into docs/results.md.

Run:  python benchmarks/results_count.py [--boards 5x5 6x6 ...] [--quick]
      python benchmarks/results_count.py --games 6x6 7x7 8x8 9x9 10x10
      python benchmarks/results_count.py --frontier 4x4x4:6 6x7,k=4:7 [--folder DIR]
Each board is counted in a fresh process (so its time and peak memory are its own); the section
between `<!-- counting:begin -->` and `<!-- counting:end -->` of docs/results.md is replaced.
``--games`` runs ``oxo games BOARD --json`` and ``--frontier`` runs ``oxo count BOARD --plies N
--yes --json`` (BOARD:N), each writing ``results/<command>-<board>.json`` (the command, oxo's
version, the commit, the time, wall seconds, peak memory of the command and its workers, and the
answer) and their own sections of docs/results.md (`games` and `frontier`). A frontier count
continues from the plies already in its folder (default: results/work, not committed).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import commit, machine, measure, replace_section  # noqa: E402
from oxo.fileio import write_atomic  # noqa: E402

BOARDS = ["3x3", "4x4", "4x4,k=3", "4x5,k=4", "5x5", "5x5,k=4", "3x3x3", "6x6", "7x7"]
QUICK = ["3x3", "4x4", "4x4,k=3", "5x5", "6x6"]
ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "docs" / "results.md"
DATA = ROOT / "results"


def count_in_fresh_process(spec: str) -> dict[str, object]:
    code = (
        f"table = count_positions(Geometry.parse({spec!r}))\n"
        "result = {'method': table.method, 'plies': [[r.positions, r.classes] for r in table.plies]}"
    )
    setup = "from oxo.geometry import Geometry\nfrom oxo.counting import count_positions"
    return measure(code, setup=setup, label=spec)


def section(rows: list[tuple[str, dict[str, object]]]) -> str:
    out = [
        "## Reachable positions per ply, beyond seed 001's table",
        "",
        f"Written by `python benchmarks/results_count.py` on {time.strftime('%Y-%m-%d')}; machine: {machine()}.",
        "Positions: reachable positions after that many marks (play stops at a win); classes: up to the",
        "board's symmetries. Times are wall time of the count alone, in a fresh process using both cores.",
        "",
        "| board | k | method | seconds | peak MiB (main / largest worker) | positions | classes |",
        "| --- | --- | --- | ---: | ---: | ---: | ---: |",
    ]
    from oxo.geometry import Geometry

    for spec, report in rows:
        geometry = Geometry.parse(spec)
        plies = report["result"]["plies"]  # type: ignore[index]
        out.append(
            f"| {geometry.spec_shape} | {geometry.k} | {report['result']['method']} | {report['seconds']:.2f} | "  # type: ignore[index]
            f"{report['peak_mib']:.0f} / {report['worker_peak_mib']:.0f} | {sum(p[0] for p in plies)} | "
            f"{sum(p[1] for p in plies)} |"
        )
    for spec, report in rows:
        geometry = Geometry.parse(spec)
        out += [
            "",
            f"### {geometry.spec_shape}, k={geometry.k}",
            "",
            "| ply | positions | classes |",
            "| ---: | ---: | ---: |",
        ]
        for ply, (positions, classes) in enumerate(report["result"]["plies"]):  # type: ignore[index]
            out.append(f"| {ply} | {positions} | {classes} |")
    return "\n".join(out)


def run_command(argv: list[str]) -> dict[str, object]:
    """Run an oxo command in a fresh process: its JSON answer, wall time and peak memory (the
    command and its workers), with what produced it."""
    import json
    import subprocess

    wrapper = (
        "import json, resource, subprocess, sys, time\n"
        "started = time.perf_counter()\n"
        "done = subprocess.run(sys.argv[1:], capture_output=True, text=True)\n"
        "seconds = time.perf_counter() - started\n"
        "peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(json.dumps({'seconds': seconds, 'peak_mib': peak, 'code': done.returncode,\n"
        "                  'out': done.stdout, 'err': done.stderr[-2000:]}))\n"
    )
    oxo = str(Path(sys.executable).with_name("oxo"))
    started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    done = subprocess.run(
        [sys.executable, "-c", wrapper, oxo, *argv], capture_output=True, text=True, check=True
    )
    report = json.loads(done.stdout)
    if report["code"] != 0:
        raise SystemExit(f"oxo {' '.join(argv)} failed ({report['code']}):\n{report['err']}")
    from importlib.metadata import version

    return {
        "command": "oxo " + " ".join(argv),
        "version": version("oxo"),
        "commit": commit(short=True),
        "computed_at": started,
        "machine": machine(),
        "seconds": round(report["seconds"], 2),
        "peak_mib": round(report["peak_mib"]),
        "result": json.loads(report["out"]),
    }


def save(name: str, record: dict[str, object]) -> Path:
    import json

    DATA.mkdir(exist_ok=True)
    path = DATA / f"{name}.json"
    write_atomic(path, json.dumps(record, indent=1) + "\n")
    return path


def write_named_section(name: str, text: str) -> None:
    """Put ``text`` between ``<!-- NAME:begin -->`` and ``<!-- NAME:end -->`` of docs/results.md
    (the pair is added at the end of the page when it has none)."""
    begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
    replace_section(RESULTS, (begin, end), f"{begin}\n{text}\n{end}", required=False)


def games_section(records: list[dict[str, object]]) -> str:
    out = [
        "## Games on n×n boards with k = n (every game, by length and outcome)",
        "",
        "Written by `python benchmarks/results_count.py --games ...`; each board's JSON (the command,",
        "version, commit and time that produced it) is in `results/games-<board>.json`. Counted by",
        "inclusion–exclusion over sets of lines (`docs/counting.md`); 6×6 and 7×7 equal OEIS A061526,",
        "whose figures stop at 7×7. Classes: games up to a symmetry of the whole game.",
        "",
        "| board | seconds | peak MiB | games | X wins | O wins | draws | classes |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for record in records:
        r = record["result"]
        out.append(
            f"| {r['board']} | {record['seconds']} | {record['peak_mib']} | {r['games']:,} | "  # type: ignore[index]
            f"{r['x_wins']:,} | {r['o_wins']:,} | {r['draws']:,} | {r['games_classes']:,} |"  # type: ignore[index]
        )
    for record in records:
        r = record["result"]
        out += [
            "",
            f"### {r['board']}, k={r['k']}: `{record['command']}`",  # type: ignore[index]
            "",
            "| length | games | X wins | O wins | draws | classes |",
            "| ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for row in r["by_length"]:  # type: ignore[index]
            out.append(
                f"| {row['length']} | {row['games']:,} | {row['x_wins']:,} | {row['o_wins']:,} | "
                f"{row['draws']:,} | {row['classes']['games']:,} |"
            )
    return "\n".join(out)


def frontier_section(records: list[dict[str, object]]) -> str:
    from oxo.counting.frontier import free_positions
    from oxo.geometry import Geometry

    out = [
        "## Positions per ply by the frontier method (boards beyond the other counters)",
        "",
        "Written by `python benchmarks/results_count.py --frontier ...`; JSON in",
        "`results/count-<board>.json`. Each ply's classes are kept on disk in shards, within the",
        'memory limit; peak memory is that of the command and its workers. "check": up to ply',
        "2k - 1 no line can be complete before the last move, so every position with the right",
        "numbers of marks occurs; those plies are compared with that count (a multinomial, and",
        "Burnside's lemma over the symmetries' cycles for the classes), computed independently.",
    ]
    for record in records:
        r = record["result"]["boards"][0]  # type: ignore[index]
        geometry = Geometry.parse(r["board"], r["k"])
        out += [
            "",
            f"### {r['board']}, k={r['k']}: `{record['command']}`",
            "",
            f"{record['seconds']} s, peak {record['peak_mib']} MiB (the part not already in the "
            f"folder); {record['machine']}; computed {record['computed_at']}.",
            "",
            "| ply | positions | classes | check |",
            "| ---: | ---: | ---: | --- |",
        ]
        for row in r["plies"]:
            check = ""
            if row["ply"] <= 2 * geometry.k - 1:
                same = free_positions(geometry, row["ply"]) == (row["positions"], row["classes"])
                check = "equal" if same else "DIFFERENT"
            out.append(f"| {row['ply']} | {row['positions']:,} | {row['classes']:,} | {check} |")
        out += ["", *going_further(geometry, r["plies"][-1]["ply"])]
    return "\n".join(out)


def going_further(geometry, reached: int) -> list[str]:  # type: ignore[no-untyped-def]
    """What the next plies would cost, from the estimate the command prints (upper bounds)."""
    from oxo.counting.budget import format_bytes
    from oxo.counting.frontier import estimate_frontier
    from oxo.phrases import duration

    ahead = [p for p in estimate_frontier(geometry, reached + 2) if p.ply > reached]
    if not ahead:
        return []
    parts = [
        f"ply {p.ply} (at most {p.classes_at_most:,} classes) about {duration(p.seconds)} "
        f"on two cores and {format_bytes(p.disk)} on disk"
        for p in ahead
    ]
    return [
        f"Going further: {'; '.join(parts)} (the estimate `oxo count` prints). Run "
        f"`oxo count {geometry.spec} --plies {ahead[-1].ply} --method frontier --yes --folder DIR` on a machine with "
        "the disk; Ctrl-C stops it and the same command continues from the last complete ply, and "
        "`--scheduler ADDRESS` spreads it over a Dask cluster that shares DIR."
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--boards", nargs="+", default=None, help="boards to count (default: all of them)"
    )
    parser.add_argument("--quick", action="store_true", help=f"only {' '.join(QUICK)}")
    parser.add_argument("--games", nargs="+", default=None, metavar="BOARD")
    parser.add_argument("--frontier", nargs="+", default=None, metavar="BOARD:PLIES")
    parser.add_argument("--folder", default=str(DATA / "work"), help="frontier counts' folders")
    parser.add_argument("--sparse", default=None, metavar="BOARD:PLY")
    parser.add_argument(
        "--sections-only",
        action="store_true",
        help="rewrite the frontier section from the saved results/count-*.json, counting nothing",
    )
    args = parser.parse_args()
    if args.sparse:
        import json

        from oxo.counting.sparse import count_at
        from oxo.geometry import Geometry

        spec, last = args.sparse.rsplit(":", 1)
        geometry = Geometry.parse(spec)
        started = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        rows, begun = [], time.perf_counter()
        for ply in range(int(last) + 1):
            positions, classes = count_at(geometry, ply)
            rows.append({"ply": ply, "positions": positions, "classes": classes})
        seconds = time.perf_counter() - begun
        frontier = {}
        saved = DATA / f"count-{spec.replace(',', '-')}.json"
        if saved.exists():
            for row in json.loads(saved.read_text())["result"]["boards"][0]["plies"]:
                frontier[row["ply"]] = (row["positions"], row["classes"])
        record = {
            "command": f"python benchmarks/results_count.py --sparse {args.sparse}",
            "computed_at": started,
            "machine": machine(),
            "seconds": round(seconds, 1),
            "result": {"board": geometry.spec_shape, "k": geometry.k, "plies": rows},
        }
        save(f"sparse-{spec.replace(',', '-')}", record)
        out = [
            f"## {geometry.spec_shape}, k={geometry.k}: positions per ply by inclusion–exclusion over small sets of lines",
            "",
            f"Written by `{record['command']}` in {seconds:.0f} s ({machine()}); JSON in",
            f"`results/sparse-{spec.replace(',', '-')}.json`. Only the sets of lines whose cells fit in one",
            "player's marks count, so the first plies of a board with many lines are cheap",
            '(`oxo.counting.sparse`, `docs/counting.md`). "frontier": the same ply by the frontier count,',
            "which visits the positions.",
            "",
            "| ply | positions | classes | frontier |",
            "| ---: | ---: | ---: | --- |",
        ]
        for row in rows:
            check = ""
            if row["ply"] in frontier:
                same = frontier[row["ply"]] == (row["positions"], row["classes"])
                check = "equal" if same else "DIFFERENT"
            out.append(f"| {row['ply']} | {row['positions']:,} | {row['classes']:,} | {check} |")
        write_named_section("sparse", "\n".join(out))
        return
    if args.sections_only:
        import json

        saved = [json.loads(path.read_text()) for path in sorted(DATA.glob("count-*.json"))]
        write_named_section("frontier", frontier_section(saved))
        return
    if args.games or args.frontier:
        if args.games:
            records = []
            for spec in args.games:
                record = run_command(["games", spec, "--json", "--quiet", "--yes"])
                print(f"{spec}: {record['seconds']} s, {record['peak_mib']} MiB", flush=True)
                save(f"games-{spec}", record)
                records.append(record)
            write_named_section("games", games_section(records))
        if args.frontier:
            for item in args.frontier:
                spec, plies = item.rsplit(":", 1)
                folder = str(Path(args.folder) / spec.replace(",", "-"))
                argv = ["count", spec, "--plies", plies, "--yes", "--json", "--quiet"]
                record = run_command([*argv, "--folder", folder])
                record["command"] = "oxo " + " ".join(argv)
                print(f"{spec}: {record['seconds']} s, {record['peak_mib']} MiB", flush=True)
                save(f"count-{spec.replace(',', '-')}", record)
            # The section shows every saved frontier count, the ones just made and the earlier ones.
            import json

            records = [json.loads(path.read_text()) for path in sorted(DATA.glob("count-*.json"))]
            write_named_section("frontier", frontier_section(records))
        return
    boards = args.boards or (QUICK if args.quick else BOARDS)
    rows = []
    for spec in boards:
        report = count_in_fresh_process(spec)
        print(
            f"{spec:<10} {report['seconds']:9.2f} s {report['peak_mib']:8.0f} MiB, workers {report['worker_peak_mib']:.0f} MiB",
            flush=True,
        )
        rows.append((spec, report))
    write_named_section("counting", section(rows))


if __name__ == "__main__":
    main()
