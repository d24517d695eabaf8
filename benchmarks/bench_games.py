"""Benchmark of games, the universal notation and full boards.

Run:  python benchmarks/bench_games.py                 (about half a minute)
      python benchmarks/bench_games.py --full          (adds the 5x5 game count, about a minute more)
      python benchmarks/bench_games.py --openspiel /tmp/osvenv/bin/python
                                                       (adds OpenSpiel walking every 3x3 history)
Each measurement runs in a fresh process and prints wall time and peak resident memory; "whole
process" rows time the command as a user runs it, start-up included.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import machine, measure, print_rows  # noqa: E402

SETUP = "from oxo.geometry import Geometry\nfrom oxo.games import count_games, count_paths"

#: Walk every game one by one, the tests' reference: what counting without walking is compared with.
WALK = """
def walk(geometry):
    lines, full, size = geometry.lines, geometry.full_mask, geometry.size
    games = 0
    def visit(x, o, ply):
        nonlocal games
        if any(x & l == l or o & l == l for l in lines) or x | o == full:
            games += 1
            return
        for cell in range(size):
            bit = 1 << cell
            if not (x | o) & bit:
                if ply % 2 == 0:
                    visit(x | bit, o, ply + 1)
                else:
                    visit(x, o | bit, ply + 1)
    visit(0, 0, 0)
    return games
"""

#: OpenSpiel's tic_tac_toe, every history walked by applying and undoing actions.
OPENSPIEL = """
import pyspiel
game = pyspiel.load_game("tic_tac_toe")
def walk(state):
    if state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += walk(child)
    return total
"""


def measure_process(argv: list[str], *, label: str) -> dict[str, object]:
    """Wall time, CPU time (user + system) and peak RSS of a whole command, start-up included.

    CPU time is printed beside the wall time because the machine is shared: under load the wall time
    of a short command is mostly waiting for a core.
    """
    wrapper = textwrap.dedent(
        """
        import json, resource, subprocess, sys, time
        started = time.perf_counter()
        subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
        seconds = time.perf_counter() - started
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        print(json.dumps({"seconds": seconds, "cpu": usage.ru_utime + usage.ru_stime, "peak_mib": usage.ru_maxrss / 1024}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", wrapper, *argv], capture_output=True, text=True, check=True
    )
    report = json.loads(done.stdout.strip())
    report["label"] = label
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--full", action="store_true", help="also count the games of 5x5 (about a minute)"
    )
    parser.add_argument(
        "--openspiel", metavar="PYTHON", default=None, help="an interpreter that can import pyspiel"
    )
    args = parser.parse_args()
    oxo = shutil.which("oxo") or str(Path(sys.executable).with_name("oxo"))
    rows = []
    results: dict[str, object] = {}

    processes = []
    for command in (
        ["--version"],
        ["games", "3x3"],
        ["games", "4x4"],
        ["notation", "game", "0 4 8 2 6 1 7"],
        ["fullboards", "3x3"],
        ["fullboards", "--games", "xxx/oox/xoo"],
    ):
        processes.append(measure_process([oxo, *command], label=f"`oxo {' '.join(command)}`"))

    def timed(code: str, label: str, setup: str = SETUP) -> None:
        row = measure(code, setup=setup, label=label)
        rows.append(row)
        results[label] = row["result"]

    timed(
        "c = count_games(Geometry.parse('3x3')); result = [c.games.total, c.classes.total, c.universal.total]",
        "count_games 3x3: games, classes, universal",
    )
    timed(
        "result = walk(Geometry.parse('3x3'))",
        "walk every 3x3 game one by one (reference)",
        SETUP + "\n" + WALK,
    )
    if args.openspiel:
        row = measure(
            "result = walk(game.new_initial_state())",
            setup=OPENSPIEL,
            python=args.openspiel,
            label="OpenSpiel tic_tac_toe: walk every history",
        )
        rows.append(row)
        results[row["label"]] = row["result"]
    timed(
        "c = count_games(Geometry.parse('4x4'), universal=False); result = [c.games.total, c.classes.total]",
        "count_games 4x4: games by pairs, classes by Burnside",
    )
    timed(
        "result = sum(r.total for r in count_paths(Geometry.parse('4x4')))",
        "universal games 4x4, level by level over classes",
    )
    timed(
        "g = Geometry.parse('4x4'); result = sum(r.total for r in count_paths(g, g.symmetries[:1]))",
        "every 4x4 game, level by level over positions (check)",
    )
    if args.full:
        timed(
            "c = count_games(Geometry.parse('5x5'), universal=False); result = [str(c.games.total), str(c.classes.total)]",
            "count_games 5x5: games by pairs, classes by Burnside",
        )
    timed(
        "result = seed_ambiguities(Geometry.parse('3x3')).to_dict()",
        "notation: where the seed's letters are ambiguous, 3x3",
        "from oxo.geometry import Geometry\nfrom oxo.notation import seed_ambiguities",
    )
    for spec in ("4x4", "5x5", "3x3x3"):
        timed(
            f"c = count_full_boards(Geometry.parse('{spec}')); result = [c.full_boards, c.full_board_classes]",
            f"count_full_boards {spec}",
            "from oxo.geometry import Geometry\nfrom oxo.fullboards import count_full_boards",
        )

    print(f"machine: {machine()}, load average {os.getloadavg()[0]:.1f} at the end")
    print(f"{'whole process (start-up included)':<52} {'wall s':>9} {'CPU s':>9} {'peak MiB':>9}")
    for row in processes:
        print(
            f"{row['label']:<52} {row['seconds']:>9.3f} {row['cpu']:>9.3f} {row['peak_mib']:>9.0f}"
        )
    print()
    print_rows(rows)
    print()
    for label, result in results.items():
        print(f"{label}: {result}")


if __name__ == "__main__":
    main()
