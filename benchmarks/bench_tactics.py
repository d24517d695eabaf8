"""Benchmark of oxo's gomoku tactics (oxo.tactics) on a public suite: quintet's VCF and VCT cases.

Run:  python benchmarks/bench_tactics.py              (every case: about 10 minutes on one core)
      python benchmarks/bench_tactics.py --quick      (the cases the source tags quick, 200,000 nodes)
      python benchmarks/bench_tactics.py --only vcf   (the cases whose name holds a word)
      python benchmarks/bench_tactics.py --markdown   (the tables as Markdown, for docs/gomoku.md)
      python benchmarks/bench_tactics.py --games 20   (also: hard with the tactics against hard
                                                       without, 15x15 five in a row, colours alternating)

The cases (tests/data/quintet/cases.txt, which says where they come from and how they were chosen)
give a 15x15 position, the side that attacks, the search (a win by continuous fours, VCF, or by
fours and threes, VCT), a limit on the attacker's moves and the expected result: a winning line
("proven") or none within the limit ("disproven"). Each case is searched once with that limit (one
move more: the source counts the attacker's moves up to the one that makes the win certain, oxo up
to the five) and a budget of --nodes positions:

* expected proven: "solved" when a win is found and oxo.tactics.check confirms it by playing it out
  against every defence with the plain rules; "wrong" when a win found fails that check, or when a
  VCF search runs to its end and says there is none (a VCF search is complete); "not found" when a
  VCT search runs to its end without a win (its threats are not every threat there is: it proves
  nothing); "out of budget" when the nodes run out;
* expected disproven: "agrees" when no win is found ("searched to the end" is a proof for VCF);
  "wrong" when a win is claimed that fails the check, or a VCF win is found (a renju disproof for
  White is a free-style disproof); a VCT win that passes the check is listed apart ("win the source
  did not see": quintet's threats are not every threat either).

Nodes are positions visited (the wins by fours searched inside VCT included); seconds are the CPU
time of the search (time.process_time; the machine is shared), the check not included. Each case
runs in this process, one after the other; peak memory is this process's, reported at the end.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from oxo import tactics  # noqa: E402
from oxo.engines import make_engine  # noqa: E402
from oxo.engines.selfplay import play_game  # noqa: E402
from oxo.geometry import Geometry  # noqa: E402
from oxo.position import Position  # noqa: E402
from oxo.registry import find_game  # noqa: E402

CASES = ROOT / "tests" / "data" / "quintet" / "cases.txt"
BOARD = Geometry.parse("15x15", 5)


@dataclass(frozen=True)
class Case:
    """One case of the suite, in oxo's terms (attacker ``x`` is the source's Black, ``o``)."""

    name: str
    source: str
    mode: str
    attacker: str
    limit: int
    threat_limit: int
    tags: tuple[str, ...]
    expect: str
    position: Position

    @property
    def proven(self) -> bool:
        return self.expect != "disproven"

    @property
    def line(self) -> tuple[int, ...]:
        """The source's winning line as cells (empty for a disproof)."""
        if not self.proven or self.expect == "proven":
            return ()
        return tuple(tactics.parse_point(BOARD, point) for point in self.expect.split(","))

    @property
    def group(self) -> str:
        """Which of the chosen kinds the case is (see the cases file)."""
        if self.attacker == "x" and self.proven:
            return "Black wins"
        if self.attacker == "o" and not self.proven:
            return "White has no win"
        if self.attacker == "o" and self.mode == "vcf":
            return "White wins by fours"
        return "not chosen"


def read_cases(path: Path = CASES) -> list[Case]:
    """The cases of the suite file."""
    cases = []
    for block in path.read_text().split("\n\n"):
        lines = [line for line in block.splitlines() if line and not line.startswith("#")]
        if not lines:
            continue
        at = lines.index("board:")
        fields = dict(line.split(": ", 1) for line in lines[:at])
        rows = ["".join(row.split()) for row in lines[at + 1 :]]
        x = o = 0
        for cell, mark in enumerate("".join(rows)):
            if mark == "o":  # the source's Black: oxo's X
                x |= 1 << cell
            elif mark == "x":
                o |= 1 << cell
        cases.append(
            Case(
                fields["case"],
                fields["from"],
                fields["mode"],
                "x" if fields["attacker"] == "o" else "o",
                int(fields["limit"]),
                int(fields.get("threat_limit", "0")),
                tuple(fields.get("tags", "").split()),
                fields["expect"],
                Position(BOARD, x, o),
            )
        )
    return cases


def line_holds(case: Case) -> bool:
    """Whether the source's winning line is a forced win by fours with the free-style rules: each
    move of the attacker a four (its reply the one the line gives), then the five."""
    line = list(case.line)
    if len(line) % 2 == 0:
        return False
    # the line ends with the move that makes the win certain: the attacker then completes a line
    # whatever the defender does, which check confirms with a proof whose last move is that move
    proof = tactics.Proof(line[-1])
    for index in range(len(line) - 3, -1, -2):
        proof = tactics.Proof(line[index], ((line[index + 1], proof),))
    return tactics.check(case.position, case.attacker, proof)  # type: ignore[arg-type]  # "x" or "o"


@dataclass(frozen=True)
class Outcome:
    case: Case
    result: str
    nodes: int
    seconds: float
    moves: int | None
    line: tuple[str, ...]


def run(case: Case, nodes: int) -> Outcome:
    """Search one case and judge the answer (see the module docstring)."""
    started = time.process_time()
    attacker = case.attacker
    limit = case.limit + 1
    if case.mode == "vcf":
        found = tactics.find_vcf(case.position, attacker, max_moves=limit, nodes=nodes)  # type: ignore[arg-type]  # "x" or "o"
    else:
        found = tactics.find_vct(
            case.position,
            attacker,  # type: ignore[arg-type]  # "x" or "o"
            max_moves=limit,
            threat_moves=case.threat_limit + 1,
            nodes=nodes,
        )
    seconds = time.process_time() - started
    checked = found.proof is not None and tactics.check(case.position, attacker, found.proof)  # type: ignore[arg-type]  # "x" or "o"
    if found.proof is not None and not checked:
        result = "wrong"
    elif case.proven:
        if checked:
            result = "solved"
        elif not found.exhausted:
            result = "out of budget"
        else:
            result = "wrong" if case.mode == "vcf" else "not found"
    elif checked:
        result = "wrong" if case.mode == "vcf" else "win the source did not see"
    else:
        result = "agrees" if found.exhausted else "out of budget"
    return Outcome(
        case,
        result,
        found.nodes,
        seconds,
        found.attacker_moves,
        found.points,
    )


def machine() -> str:
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    return (
        f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, load average {load}"
    )


def tables(outcomes: list[Outcome], markdown: bool) -> str:
    """The summary by kind of case and search, then every case."""
    out = []
    groups: dict[tuple[str, str], list[Outcome]] = {}
    for outcome in outcomes:
        groups.setdefault((outcome.case.group, outcome.case.mode), []).append(outcome)
    head = [
        "cases",
        "search",
        "n",
        "solved/agrees",
        "wrong",
        "not found",
        "out of budget",
        "nodes",
        "CPU s",
        "nodes/s",
    ]
    rows = []
    for (group, mode), items in sorted(groups.items()):
        good = sum(o.result in ("solved", "agrees") for o in items)
        rows.append(
            [
                group,
                mode.upper(),
                str(len(items)),
                str(good),
                str(sum(o.result == "wrong" for o in items)),
                str(sum(o.result in ("not found", "win the source did not see") for o in items)),
                str(sum(o.result == "out of budget" for o in items)),
                f"{sum(o.nodes for o in items):,}",
                f"{sum(o.seconds for o in items):.1f}",
                f"{sum(o.nodes for o in items) / max(1e-9, sum(o.seconds for o in items)):,.0f}",
            ]
        )
    out.append(_table(head, rows, markdown))
    out.append("")
    head = ["case", "search", "limit", "expected", "result", "moves", "nodes", "CPU s"]
    rows = [
        [
            o.case.name,
            o.case.mode.upper(),
            str(o.case.limit),
            "win" if o.case.proven else "none",
            o.result,
            "" if o.moves is None else str(o.moves),
            f"{o.nodes:,}",
            f"{o.seconds:.2f}",
        ]
        for o in outcomes
    ]
    out.append(_table(head, rows, markdown))
    return "\n".join(out)


def _table(head: list[str], rows: list[list[str]], markdown: bool) -> str:
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "| " + " | ".join("---" for _ in head) + " |"]
        lines += ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join(lines)
    widths = [max(len(row[i]) for row in [head, *rows]) for i in range(len(head))]
    return "\n".join(
        "  ".join(
            cell.rjust(width) if i else cell.ljust(width)
            for i, (cell, width) in enumerate(zip(row, widths, strict=True))
        )
        for row in [head, *rows]
    )


def strength(games: int, seconds: float) -> str:
    """``hard`` as shipped on 15x15 five in a row (with the tactics) against the same search without
    them, colours alternating; each side thinks ``seconds`` a move."""
    game = find_game("15x15,k=5")
    start = game.start()
    points = 0.0
    wins = losses = draws = 0
    moves = 0
    cpu = time.process_time()
    for number in range(games):
        with_tactics = game.make_engine("hard", start, seconds=seconds, seed=number)
        without = make_engine("hard", start, seconds=seconds, seed=10_000 + number)
        tactics_is_x = number % 2 == 0
        x, o = (with_tactics, without) if tactics_is_x else (without, with_tactics)
        final, played = play_game(start, x, o)
        moves += played
        mine = "x" if tactics_is_x else "o"
        if final.outcome == mine:
            wins += 1
            points += 1
        elif final.outcome == "draw":
            draws += 1
            points += 0.5
        else:
            losses += 1
        print(
            f"game {number + 1}: {final.outcome} ({'X' if tactics_is_x else 'O'} has the tactics), {played} moves",
            file=sys.stderr,
        )
    return (
        f"hard with the tactics against hard without, 15x15 five in a row, {seconds:g} s a move, "
        f"{games} games, colours alternating: {wins} wins, {draws} draws, {losses} losses "
        f"({points / games:.0%} of the points), {moves / games:.1f} moves a game, "
        f"CPU {time.process_time() - cpu:.0f} s"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--nodes", type=int, default=1_000_000, help="positions per case (default 1,000,000)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="the quick cases only, 200,000 nodes each"
    )
    parser.add_argument("--only", default="", help="the cases whose name holds this text")
    parser.add_argument("--markdown", action="store_true", help="Markdown tables")
    parser.add_argument(
        "--games", type=int, default=0, help="games of hard with against without the tactics"
    )
    parser.add_argument("--time", type=float, default=0.5, help="seconds a move in those games")
    args = parser.parse_args(argv)
    nodes = 200_000 if args.quick and args.nodes == 1_000_000 else args.nodes
    started = time.perf_counter()
    cpu = time.process_time()
    outcomes = []
    for case in read_cases():
        if args.only not in case.name or (args.quick and "quick" not in case.tags):
            continue
        if case.group == "not chosen":
            continue
        if case.group == "White wins by fours" and not line_holds(case):
            print(
                f"{case.name}: left out: its line is no forced win with the free-style rules",
                file=sys.stderr,
            )
            continue
        outcome = run(case, nodes)
        outcomes.append(outcome)
        print(
            f"{case.name}: {outcome.result}, {outcome.nodes:,} nodes, {outcome.seconds:.2f} s",
            file=sys.stderr,
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"quintet's cases, {nodes:,} nodes a case at most ({machine()})")
    print()
    print(tables(outcomes, args.markdown))
    print()
    print(
        f"wall {time.perf_counter() - started:.1f} s, CPU {time.process_time() - cpu:.1f} s, peak memory {peak:.0f} MiB"
    )
    if args.games:
        print()
        print(strength(args.games, args.time))
    return 1 if any(o.result == "wrong" for o in outcomes) else 0


if __name__ == "__main__":
    raise SystemExit(main())
