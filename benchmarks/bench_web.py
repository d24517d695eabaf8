"""Benchmark of ``oxo serve``: start-up, API answer times, the first solve of a 16-cell board, and the
mega AI's time per move against its budget, measured on a real server over HTTP.

Run:  python benchmarks/bench_web.py            (about a minute)
      python benchmarks/bench_web.py --quick    (fewer AI moves)
The server runs as ``oxo serve --port 0`` in a child process; each row is the wall time of the
request(s) as a client sees it (median and worst of the repeats), and the last row the server's peak
resident memory (VmHWM) after all of them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import machine  # noqa: E402


def call(base: str, method: str, path: str, body: object | None = None) -> tuple[float, dict]:  # type: ignore[type-arg]
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        base + path, data=data, method=method, headers={"Content-Type": "application/json"}
    )
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            answer = json.loads(response.read())
    except urllib.error.HTTPError as error:
        raise SystemExit(
            f"{method} {path} answered {error.code}: {error.read().decode()}"
        ) from None
    return time.perf_counter() - started, answer


def timed(
    rows: list[tuple[str, str, str]], label: str, seconds: list[float], note: str = ""
) -> None:
    rows.append((label, f"{statistics.median(seconds):.3f} / {max(seconds):.3f}", note))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer AI moves")
    args = parser.parse_args()
    oxo = str(Path(sys.executable).with_name("oxo"))
    started = time.perf_counter()
    server = subprocess.Popen([oxo, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()  # type: ignore[union-attr]
        base = line.split("serving on ", 1)[1].split()[0].rstrip("/")
        while True:
            try:
                urllib.request.urlopen(base + "/api/info", timeout=5).read()
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.02)
        up = time.perf_counter() - started
        rows: list[tuple[str, str, str]] = [
            ("oxo serve: start until the first answer", f"{up:.3f}", "")
        ]

        page = [call(base, "GET", path)[0] for path in ("/api/info",) for _ in range(20)]
        timed(rows, "GET /api/info (20 requests)", page)

        moves, ai = [], []
        for seed in range(10):
            _, game = call(
                base,
                "POST",
                "/api/games?values=1",
                {"board": "3x3", "players": {"x": "human", "o": "perfect"}, "seed": seed},
            )
            while not game["over"]:
                if game["computer_to_move"]:
                    seconds, game = call(base, "POST", f"/api/games/{game['id']}/ai?values=1")
                    ai.append(seconds)
                else:
                    seconds, game = call(
                        base,
                        "POST",
                        f"/api/games/{game['id']}/move?values=1",
                        {"move": game["legal"][seed % len(game["legal"])]},
                    )
                    moves.append(seconds)
        timed(rows, f"classic 3x3, a person's move with values ({len(moves)})", moves)
        timed(rows, f"classic 3x3, the perfect player's move ({len(ai)})", ai)

        first, game = call(
            base,
            "POST",
            "/api/games?values=1",
            {"board": "4x4", "players": {"x": "human", "o": "perfect"}},
        )
        rows.append(("classic 4x4, first game with values (solves the board)", f"{first:.3f}", ""))
        later = [
            call(
                base,
                "POST",
                "/api/games?values=1",
                {"board": "4x4", "players": {"x": "human", "o": "perfect"}},
            )[0]
            for _ in range(5)
        ]
        timed(rows, "classic 4x4, later new games with values (5)", later)

        explore = [call(base, "GET", "/api/explore?position=x...o...x")[0] for _ in range(10)]
        timed(rows, "explore x...o...x on 3x3 (10)", explore)
        explore4 = [
            call(base, "GET", "/api/explore?position=x.../.o../..../....")[0] for _ in range(5)
        ]
        timed(rows, "explore a 4x4 position (5, board already solved)", explore4)
        count_first = call(base, "GET", "/api/count?board=4x4")[0]
        rows.append(("count 4x4, first request", f"{count_first:.3f}", ""))

        per_budget = 4 if args.quick else 12
        for budget in (0.2, 1.0):
            _, game = call(
                base,
                "POST",
                "/api/games",
                {
                    "kind": "mega",
                    "players": {"x": "hard", "o": "hard"},
                    "seconds": budget,
                    "seed": 1,
                },
            )
            walls, searched, sims = [], [], []
            for _ in range(per_budget):
                if game["over"]:
                    break
                wall, game = call(base, "POST", f"/api/games/{game['id']}/ai")
                walls.append(wall)
                search = game["last_search"]
                searched.append(search["seconds"])
                sims.append(search["nodes"] / max(search["seconds"], 1e-9))
            timed(
                rows,
                f"mega AI move at {budget} s budget ({len(walls)} moves)",
                walls,
                f"search {statistics.median(searched):.3f} / {max(searched):.3f} s, {statistics.median(sims):,.0f} simulations/s",
            )
        status = Path(f"/proc/{server.pid}/status").read_text()
        peak = (
            next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM"))
            / 1024
        )
        rows.append(("server peak resident memory after all of the above", f"{peak:.0f} MiB", ""))
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"machine: {machine()}")
    print(f"{'measurement':<58} {'wall s (median / worst)':>24}  note")
    for label, value, note in rows:
        print(f"{label:<58} {value:>24}  {note}")


if __name__ == "__main__":
    main()
