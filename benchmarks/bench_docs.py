"""Benchmark: building the specification site with warnings as errors (nitpicky).

    .venv/bin/python benchmarks/bench_docs.py [--repeat 3]

Two figures:

* a **clean build**: ``docs/`` from scratch into a new temporary folder, as CI does;
* a **one-page rebuild**: after a clean build into a folder, one page's file is touched
  (``spec/pack.md``) and the site is built again into the same folder, as a writer does
  while editing.  Only that page should be read again; the run fails if more are.

The best and worst wall times of each are printed.  Targets: under 60 s for a clean build,
about a second for a one-page rebuild.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOUCHED = ROOT / "spec/pack.md"


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build(out: str, quiet: bool = True) -> tuple[float, float, str]:
    """Wall time, CPU time (user + system, of the build process) and its output."""
    start, cpu = time.perf_counter(), _cpu()
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-n", *(["-q"] if quiet else []),
                          "-b", "html", str(ROOT / "docs"), out + "/html", "-d", out + "/doctrees"],
                         check=True, cwd=ROOT, capture_output=True, text=True)
    return time.perf_counter() - start, _cpu() - cpu, run.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    clean, rebuild, clean_cpu, rebuild_cpu = [], [], [], []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as out:
            seconds, cpu, _ = build(out)
            clean.append(seconds)
            clean_cpu.append(cpu)
            os.utime(TOUCHED)
            seconds, cpu, log = build(out, quiet=False)
            read = re.findall(r"^reading sources\.\.\. .*$", log, re.M)
            if len(read) != 1:
                sys.exit(f"a one-page rebuild read {len(read)} pages: {read}")
            rebuild.append(seconds)
            rebuild_cpu.append(cpu)
    print(f"clean site build: best {min(clean):.1f} s, worst {max(clean):.1f} s over "
          f"{len(clean)} runs (CPU {min(clean_cpu):.1f} s; target < 60 s: "
          f"{'met' if max(clean) < 60 else 'NOT met'})")
    print(f"one-page rebuild (spec/pack.md touched, 1 page read): best {min(rebuild):.2f} s, "
          f"worst {max(rebuild):.2f} s over {len(rebuild)} runs (CPU {min(rebuild_cpu):.2f} s; "
          "target about 1 s)")
    print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores "
          "(a loaded machine stretches the wall times; the CPU times much less)")


if __name__ == "__main__":
    main()
