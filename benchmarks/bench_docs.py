"""Benchmark (pyperf): building the specification site with warnings as errors (nitpicky).

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_docs.py [pyperf options, e.g. --fast, -o docs.json]

Two timings, each the CPU time (user + system) of the ``sphinx -W -n -b html`` process, which
a busy machine disturbs far less than wall time (the wall times are printed at the end):

* ``clean site build``: ``docs/`` from scratch into a new temporary folder, as CI does;
* ``one-page rebuild``: after one clean build into a folder (not timed), one page's file
  (``spec/pack.md``) is touched and the site is built again into the same folder, as a writer
  does while editing, three times per value.  Only that page may be read again: the run
  fails if more are.

Targets: under 60 s for a clean build, about a second for a one-page rebuild.  pyperf runs
each timing in fresh worker processes (``--processes``, default 3, one value each).
"""

from __future__ import annotations

import atexit
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pyperf

ROOT = Path(__file__).resolve().parent.parent
TOUCHED = ROOT / "spec/pack.md"
REBUILDS_PER_VALUE = 3


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build(out: str, quiet: bool = True) -> tuple[float, str]:
    """CPU seconds of one build of the site into ``out``, and its output."""
    cpu = _cpu()
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-n", *(["-q"] if quiet else []),
                          "-b", "html", str(ROOT / "docs"), out + "/html", "-d", out + "/doctrees"],
                         check=True, cwd=ROOT, capture_output=True, text=True)
    return _cpu() - cpu, run.stdout


def clean_build(loops: int) -> float:
    total = 0.0
    for _ in range(loops):
        with tempfile.TemporaryDirectory() as out:
            total += build(out)[0]
    return total


_BUILT: list[str] = []  # one clean build per worker process, reused by every rebuild


def one_page_rebuild(loops: int) -> float:
    if not _BUILT:
        out = tempfile.mkdtemp(prefix="bench-docs-")
        atexit.register(shutil.rmtree, out, True)
        build(out)
        _BUILT.append(out)
    total = 0.0
    for _ in range(loops * REBUILDS_PER_VALUE):
        os.utime(TOUCHED)
        cpu, log = build(_BUILT[0], quiet=False)
        read = re.findall(r"^reading sources\.\.\. .*$", log, re.M)
        if len(read) != 1:
            sys.exit(f"a one-page rebuild read {len(read)} pages: {read}")
        total += cpu
    return total


def main() -> None:
    runner = pyperf.Runner(processes=3, values=1, warmups=0, loops=1)
    runner.metadata["description"] = "sphinx -W -n -b html of the specification site (CPU time)"
    started = time.perf_counter()
    clean = runner.bench_time_func("clean site build", clean_build)
    rebuild = runner.bench_time_func("one-page rebuild", one_page_rebuild,
                                     inner_loops=REBUILDS_PER_VALUE)
    if clean is None or rebuild is None or runner.args.worker:  # a worker process
        return
    print(f"\nclean site build: {clean.median():.1f} s CPU (median; target < 60 s: "
          f"{'met' if clean.median() < 60 else 'NOT met'})")
    print(f"one-page rebuild (spec/pack.md touched, 1 page read): {rebuild.median():.2f} s CPU "
          "(median; target about 1 s)")
    print(f"whole benchmark {time.perf_counter() - started:.0f} s wall; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (load stretches wall time, CPU time "
          "far less)")


if __name__ == "__main__":
    main()
