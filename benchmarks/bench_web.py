"""Load test of ``oxo serve``: requests per second with keep-alive clients, answer times of cheap
requests while the computer thinks, and the server's memory over many requests.

Run:  python benchmarks/bench_web.py            (about a minute and a half)
      python benchmarks/bench_web.py --quick    (fewer requests; the memory row then covers 2,000)

The server runs as ``oxo serve --port 0`` in a child process; clients are separate processes (4 of
them), each with one keep-alive HTTP connection, as browsers tabs would be. Rows:

1. ``GET /api/info`` requests per second, 4 clients, for 5 s (target: at least 500/s), and the
   ratio to the 22 requests/s that a client got before TCP_NODELAY (46 ms per request, issue 15);
2. answer times (median, p99, worst) of cheap requests (``/api/info`` and reading the game) from 4
   clients with no search running, then while a 5 s computer move (hard, 15x15) runs (target: p99
   under 20 ms), and the ratio of the two p99s;
3. the server's resident memory before and after 10,000 mixed requests (new games, moves, computer
   moves at level random, reads, explorer positions, info) from 4 clients, with its peak (target:
   under 300 MB), and the worker processes' memory beside it.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _measure import machine  # noqa: E402

HEADERS = {"Content-Type": "application/json"}
BEFORE_NODELAY = 1 / 0.046  # requests/s of one keep-alive client before the fix (46 ms each)


class Client:
    """One keep-alive connection."""

    def __init__(self, base: str) -> None:
        host, port = base.removeprefix("http://").rsplit(":", 1)
        self.connection = http.client.HTTPConnection(host, int(port), timeout=120)

    def call(self, method: str, path: str, body: object = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body)
        self.connection.request(method, path, body=data, headers=HEADERS)
        response = self.connection.getresponse()
        return response.status, json.loads(response.read())


def _info_loop(base: str, seconds: float, out: Any) -> None:
    client = Client(base)
    count, end = 0, time.perf_counter() + seconds
    while time.perf_counter() < end:
        status, _ = client.call("GET", "/api/info")
        assert status == 200
        count += 1
    out.put(count)


def _cheap_loop(base: str, game_id: str, seconds: float, out: Any) -> None:
    client = Client(base)
    times, end, i = [], time.perf_counter() + seconds, 0
    while time.perf_counter() < end:
        path = "/api/info" if i % 2 else f"/api/games/{game_id}"
        started = time.perf_counter()
        status, answer = client.call("GET", path)
        times.append(time.perf_counter() - started)
        assert status == 200
        i += 1
    out.put(times)


def _mixed_loop(base: str, requests: int, seed: int, out: Any) -> None:
    client = Client(base)
    positions = ["x...o....", "xo.......", "x.o.x.o..", "....x....", "xx.oo....", "x...o...x"]
    done = 0
    statuses: dict[int, int] = {}
    while done < requests:
        status, game = client.call(
            "POST",
            "/api/games",
            {"board": "3x3", "players": {"x": "human", "o": "random"}, "seed": seed},
        )
        statuses[status] = statuses.get(status, 0) + 1
        done += 1
        while not game["over"] and done < requests:
            if game["computer_to_move"]:
                status, game = client.call("POST", f"/api/games/{game['id']}/ai", {})
            else:
                status, game = client.call(
                    "POST", f"/api/games/{game['id']}/move", {"move": game["legal"][0]}
                )
            statuses[status] = statuses.get(status, 0) + 1
            done += 1
            for path in (
                f"/api/games/{game['id']}",
                "/api/info",
                f"/api/explore?position={positions[done % len(positions)]}",
            ):
                if done < requests:
                    status, _ = client.call("GET", path)
                    statuses[status] = statuses.get(status, 0) + 1
                    done += 1
    out.put(statuses)


def _parallel(target: Any, args_list: list[tuple[Any, ...]]) -> list[Any]:
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    workers = [context.Process(target=target, args=(*args, out)) for args in args_list]
    for worker in workers:
        worker.start()
    results = [out.get() for _ in workers]
    for worker in workers:
        worker.join()
    return results


def _memory(pid: int) -> tuple[float, float]:
    """Resident and peak resident memory of a process, in MiB."""
    fields = dict(
        line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
    )
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text().split()
        found.extend(int(child) for child in text)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer requests")
    args = parser.parse_args()
    oxo = str(Path(sys.executable).with_name("oxo"))
    started = time.perf_counter()
    server = subprocess.Popen([oxo, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
    rows: list[tuple[str, str, str]] = []
    try:
        line = server.stdout.readline()  # type: ignore[union-attr]
        base = line.split("serving on ", 1)[1].split()[0].rstrip("/")
        while True:
            try:
                Client(base).call("GET", "/api/info")
                break
            except OSError:
                time.sleep(0.02)
        rows.append(
            (
                "oxo serve: start until the first answer",
                f"{time.perf_counter() - started:.2f} s",
                "",
            )
        )
        time.sleep(4)  # the worker processes load their engines in the background

        seconds = 5.0
        counts = _parallel(_info_loop, [(base, seconds)] * 4)
        rate = sum(counts) / seconds
        rows.append(
            (
                "GET /api/info, 4 keep-alive clients, 5 s",
                f"{rate:,.0f} requests/s",
                f"target >= 500; {rate / BEFORE_NODELAY:.0f}x the 22/s of one client before TCP_NODELAY",
            )
        )

        client = Client(base)
        _, game = client.call(
            "POST",
            "/api/games",
            {"board": "15x15", "k": 5, "players": {"x": "hard", "o": "human"}, "seconds": 5},
        )
        quiet = sorted(
            t for result in _parallel(_cheap_loop, [(base, game["id"], 4.0)] * 4) for t in result
        )
        quiet_p99 = quiet[int(0.99 * (len(quiet) - 1))]
        rows.append(
            (
                f"the same cheap requests with no computer move ({len(quiet):,})",
                f"p50 {1000 * statistics.median(quiet):.1f} / p99 {1000 * quiet_p99:.1f} / worst {1000 * quiet[-1]:.1f} ms",
                "the machine's own noise",
            )
        )
        thinking = multiprocessing.get_context("spawn").Process(
            target=_ai_once, args=(base, game["id"])
        )
        thinking.start()
        time.sleep(0.5)
        results = _parallel(_cheap_loop, [(base, game["id"], 4.0)] * 4)
        thinking.join()
        times = sorted(t for result in results for t in result)
        p99 = times[int(0.99 * (len(times) - 1))]
        rows.append(
            (
                f"cheap requests during a 5 s computer move ({len(times):,}, 4 clients)",
                f"p50 {1000 * statistics.median(times):.1f} / p99 {1000 * p99:.1f} / worst {1000 * times[-1]:.1f} ms",
                f"target p99 < 20 ms; p99 {p99 / quiet_p99:.1f}x the quiet p99",
            )
        )

        total = 2_000 if args.quick else 10_000
        before, _ = _memory(server.pid)
        began = time.perf_counter()
        statuses: dict[int, int] = {}
        for result in _parallel(_mixed_loop, [(base, total // 4, seed) for seed in range(4)]):
            for status, count in result.items():
                statuses[status] = statuses.get(status, 0) + count
        wall = time.perf_counter() - began
        after, peak = _memory(server.pid)
        workers = [_memory(pid)[0] for pid in _children(server.pid)]
        rows.append(
            (
                f"{total:,} mixed requests, 4 clients ({wall:.1f} s, {total / wall:,.0f}/s)",
                f"RSS {before:.0f} -> {after:.0f} MiB, peak {peak:.0f} MiB",
                f"target < 300 MB; answers {dict(sorted(statuses.items()))}; "
                f"{len(workers)} worker processes {' + '.join(f'{w:.0f}' for w in workers)} MiB",
            )
        )
    finally:
        server.terminate()
        server.wait(timeout=15)
    print(f"machine: {machine()}")
    print(f"{'measurement':<62} {'figure':>40}  note")
    for label, value, note in rows:
        print(f"{label:<62} {value:>40}  {note}")


def _ai_once(base: str, game_id: str) -> None:
    status, answer = Client(base).call("POST", f"/api/games/{game_id}/ai", {})
    assert status == 200 and len(answer["moves"]) == 1, answer


if __name__ == "__main__":
    main()
