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
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOUCHED = ROOT / "spec/pack.md"


def build(out: str, quiet: bool = True) -> tuple[float, str]:
    start = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "-n", *(["-q"] if quiet else []),
                          "-b", "html", str(ROOT / "docs"), out + "/html", "-d", out + "/doctrees"],
                         check=True, cwd=ROOT, capture_output=True, text=True)
    return time.perf_counter() - start, run.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    repeat = parser.parse_args().repeat
    clean, rebuild = [], []
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as out:
            seconds, _ = build(out)
            clean.append(seconds)
            os.utime(TOUCHED)
            seconds, log = build(out, quiet=False)
            read = re.findall(r"^reading sources\.\.\. .*$", log, re.M)
            if len(read) != 1:
                sys.exit(f"a one-page rebuild read {len(read)} pages: {read}")
            rebuild.append(seconds)
    print(f"clean site build: best {min(clean):.1f} s, worst {max(clean):.1f} s over "
          f"{len(clean)} runs (target < 60 s: {'met' if max(clean) < 60 else 'NOT met'})")
    print(f"one-page rebuild (spec/pack.md touched, 1 page read): best {min(rebuild):.2f} s, "
          f"worst {max(rebuild):.2f} s over {len(rebuild)} runs (target about 1 s)")


if __name__ == "__main__":
    main()
