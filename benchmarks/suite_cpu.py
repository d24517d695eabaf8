"""The test suite's cost, test by test, in CPU seconds: what the suite costs a 2-core machine even
when other work shares it (wall times then say more about the neighbours than about the tests).

As a pytest plugin it writes one JSON line per test: the CPU seconds of the test's process, of the
child processes it waited for, and of the processes still running below it (the web page's and the
counters' worker pools), and the wall seconds::

    PYTHONPATH=benchmarks .venv/bin/python -m pytest -p suite_cpu -n 2 -m "not slow" -q

then ``.venv/bin/python benchmarks/suite_cpu.py`` prints the total, the dearest tests and files,
and the load average (``SUITE_CPU`` names the folder of the lines, ``/tmp/oxo-suite-cpu`` unless
set; remove it between runs). A run's total CPU over the cores is the least wall time the suite can
take on an idle machine; the rest of a wall time is waiting (thinking times, timeouts, browsers).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import Any

FOLDER = Path(os.environ.get("SUITE_CPU", "/tmp/oxo-suite-cpu"))
_TICK = os.sysconf("SC_CLK_TCK")


def _below() -> dict[int, float]:
    """CPU seconds of every live process below this one, by process id (from /proc)."""
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        parents[int(entry.name)] = int(fields[1])
        cpu[int(entry.name)] = (int(fields[11]) + int(fields[12])) / _TICK
    me, found = os.getpid(), {}
    for pid, seconds in cpu.items():
        parent, steps = parents.get(pid), 0
        while parent and parent != me and steps < 64:
            parent, steps = parents.get(parent), steps + 1
        if parent == me:
            found[pid] = seconds
    return found


def _snapshot() -> tuple[float, float, dict[int, float]]:
    waited = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time(), waited.ru_utime + waited.ru_stime, _below()


def _wrap(item: Any) -> Iterator[None]:
    own0, waited0, below0 = _snapshot()
    started = time.perf_counter()
    yield
    own1, waited1, below1 = _snapshot()
    # a process that ended during the test is in the waited children's time from its start
    ended = sum(seconds for pid, seconds in below0.items() if pid not in below1)
    running = sum(seconds - below0.get(pid, 0.0) for pid, seconds in below1.items())
    line = {
        "test": item.nodeid,
        "own": round(own1 - own0, 3),
        "children": round(max(0.0, waited1 - waited0 - ended) + running, 3),
        "wall": round(time.perf_counter() - started, 3),
        "load": os.getloadavg()[0],
    }
    FOLDER.mkdir(parents=True, exist_ok=True)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(FOLDER / f"{worker}.jsonl", "a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")


try:  # as a plugin: pytest is there (the report needs no pytest)
    import pytest
except ImportError:  # pragma: no cover
    pytest = None  # type: ignore[assignment]  # the report alone

if pytest is not None:

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(item: Any, nextitem: Any) -> Any:
        """Each test, timed in CPU seconds (see the module's text)."""
        yield from _wrap(item)


def report(folder: Path = FOLDER, most: int = 25) -> str:
    """The total, the dearest tests and the dearest files of the lines in ``folder``."""
    rows = [json.loads(line) for path in folder.glob("*.jsonl") for line in path.open()]
    if not rows:
        return f"no lines in {folder}: run pytest with -p suite_cpu first"
    cost = {row["test"]: row["own"] + row["children"] for row in rows}
    files: dict[str, float] = defaultdict(float)
    for test, seconds in cost.items():
        files[test.split("::")[0]] += seconds
    loads = [row.get("load", 0.0) for row in rows]
    out = [
        f"{len(rows)} tests, {sum(cost.values()):,.0f} CPU s "
        f"(load average while they ran: {min(loads):.1f} to {max(loads):.1f})",
        "",
        "CPU s  test",
    ]
    out += [f"{seconds:6.1f} {test}" for test, seconds in sorted(cost.items(), key=lambda x: -x[1])]
    del out[3 + most :]
    out += ["", "CPU s  file"]
    out += [
        f"{seconds:6.1f} {name}" for name, seconds in sorted(files.items(), key=lambda x: -x[1])
    ]
    del out[3 + most + 2 + most :]
    return "\n".join(out)


if __name__ == "__main__":
    print(report(Path(sys.argv[1]) if len(sys.argv) > 1 else FOLDER))
