"""Run a piece of work in a fresh process and report its wall time and peak resident memory."""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import textwrap
from pathlib import Path


def measure(
    code: str,
    *,
    label: str,
    setup: str = "",
    python: str = sys.executable,
    env: dict[str, str] | None = None,
) -> dict[str, object]:
    """Run ``setup`` then ``code`` (Python source that may set ``result``) in a child process.

    The child reports the wall time of ``code`` only (imports go in ``setup``), its processor time
    (``cpu_seconds``, set-up included: what a loaded machine does not inflate) and its peak RSS from
    getrusage, so start-up is excluded from the time but counted in memory, as a user would see it;
    ``worker_peak_mib`` is the largest peak among the worker processes it started (0 if none),
    ``worker_cpu_seconds`` their processor time (of those that ended).
    ``python`` may name another interpreter (one with OpenSpiel installed, say); ``env`` adds
    environment variables. Both pieces of source are dedented, so they may be indented literals.
    """
    wrapper = textwrap.dedent(
        """
        import json, resource, sys, time
        exec(compile(sys.argv[2], "<setup>", "exec"))
        started = time.perf_counter()
        result = None
        exec(compile(sys.argv[1], "<bench>", "exec"))
        seconds = time.perf_counter() - started
        usage = resource.getrusage(resource.RUSAGE_SELF)
        peak_kib = usage.ru_maxrss
        workers = resource.getrusage(resource.RUSAGE_CHILDREN)
        print(json.dumps({"seconds": seconds, "peak_mib": peak_kib / 1024, "worker_peak_mib": workers.ru_maxrss / 1024,
                          "cpu_seconds": usage.ru_utime + usage.ru_stime,
                          "worker_cpu_seconds": workers.ru_utime + workers.ru_stime, "result": result}))
        """
    )
    done = subprocess.run(
        [python, "-c", wrapper, textwrap.dedent(code), textwrap.dedent(setup)],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
    )
    if done.returncode != 0:
        raise SystemExit(f"{label}: failed\n{done.stderr}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    report["label"] = label
    return report


def measure_command(argv: list[str], *, label: str) -> dict[str, object]:
    """Wall time and peak RSS of a whole command, start-up included (what a user waits for)."""
    wrapper = textwrap.dedent(
        """
        import json, resource, subprocess, sys, time
        started = time.perf_counter()
        subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL)
        seconds = time.perf_counter() - started
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(json.dumps({"seconds": seconds, "peak_mib": peak_kib / 1024}))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", wrapper, *argv], capture_output=True, text=True, check=True
    )
    report = json.loads(done.stdout.strip())
    report["label"] = label
    return report


def export(ref: str) -> Path:
    """The source tree of git commit ``ref`` (``git archive``), in a folder of the temporary
    directory named by the commit, kept between runs so numba's cache there stays warm."""
    import subprocess
    import tempfile

    root = Path(__file__).resolve().parent.parent
    sha = subprocess.run(
        ["git", "rev-parse", "--verify", f"{ref}^{{commit}}"],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    folder = Path(tempfile.gettempdir()) / f"oxo-baseline-{sha[:12]}"
    if not (folder / "exported").exists():
        folder.mkdir(parents=True, exist_ok=True)
        # Streamed from git to tar: held in this process, the archive (hundreds of MB with the
        # certificates) would raise its peak memory, which every child started later inherits
        # in getrusage's figure for the children.
        archive = subprocess.Popen(
            ["git", "archive", "--format=tar", sha], cwd=root, stdout=subprocess.PIPE
        )
        assert archive.stdout is not None
        unpacked = subprocess.run(["tar", "-x", "-C", str(folder)], stdin=archive.stdout)
        archive.stdout.close()
        if archive.wait() != 0 or unpacked.returncode != 0:
            raise SystemExit(f"could not export {ref} ({sha[:12]}) to {folder}")
        (folder / "exported").write_text(sha + "\n")
    return folder


def commit(short: bool = False) -> str:
    """The git commit of this checkout (empty when it is not one), recorded with each result."""
    args = ["git", "rev-parse", *(["--short"] if short else []), "HEAD"]
    try:
        done = subprocess.run(
            args, cwd=Path(__file__).parent, capture_output=True, text=True, timeout=10
        )
    except OSError:
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def machine() -> str:
    import os

    try:
        with open("/proc/cpuinfo") as handle:
            model = next(
                (line.split(":", 1)[1].strip() for line in handle if line.startswith("model name")),
                "?",
            )
    except OSError:
        model = platform.processor() or "?"
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    load = os.getloadavg()[0]
    return f"{os.cpu_count()} cores ({model}), {memory:.0f} GiB, Python {platform.python_version()}, load {load:.1f} now"


def print_record(rows: list[dict[str, object]]) -> None:
    """Print a script's ``--json`` record: its rows, this process's peak, the commit and machine."""
    import resource

    peak = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    record = {"rows": rows, "peak_mib": peak, "commit": commit(short=True), "machine": machine()}
    print(json.dumps(record, indent=1))


def print_rows(rows: list[dict[str, object]]) -> None:
    print(f"{'measurement':<52} {'wall s':>9} {'peak MiB':>9} {'worker MiB':>10}")
    for row in rows:
        print(
            f"{row['label']:<52} {row['seconds']:>9.3f} {row['peak_mib']:>9.0f} {row.get('worker_peak_mib', 0):>10.0f}"
        )


def replace_section(
    path: Path,
    markers: tuple[str, str],
    block: str,
    *,
    required: bool = True,
    insert_before: str | None = None,
) -> None:
    """Put ``block`` (which starts with ``markers[0]`` and ends with ``markers[1]``) in place of the
    page's marked section, and write the page atomically; re-read just before, since other scripts
    write other sections of the same page.

    A page without the section is an error when ``required``; otherwise the block goes before the
    first ``insert_before`` (when the page has it) or at the end."""
    from oxo.fileio import write_atomic

    start, end = markers
    if not (block.startswith(start) and block.endswith(end)):
        raise ValueError(f"the block must run from {start} to {end}")
    page = path.read_text()
    if start in page and end in page:
        page = page[: page.index(start)] + block + page[page.index(end) + len(end) :]
    elif required:
        raise SystemExit(f"{path} has no {start} ... {end} section")
    elif insert_before is not None and insert_before in page:
        at = page.index(insert_before)
        page = page[:at] + block + "\n\n" + page[at:]
    else:
        page = page.rstrip("\n") + "\n\n" + block + "\n"
    write_atomic(path, page)
