"""Benchmark: a clean build of the specification site with warnings as errors (nitpicky).

    .venv/bin/python benchmarks/bench_docs.py [--repeat 3]

Each run builds ``docs/`` from scratch into a new temporary folder, as CI does, and the best
and worst wall times are printed.  The target set for the site is under 60 seconds.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def build_once() -> float:
    with tempfile.TemporaryDirectory() as out:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "sphinx", "-W", "-n", "-q", "-b", "html",
                        str(ROOT / "docs"), out], check=True, cwd=ROOT)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    times = [build_once() for _ in range(parser.parse_args().repeat)]
    print(f"clean site build: best {min(times):.1f} s, worst {max(times):.1f} s over "
          f"{len(times)} runs (target < 60 s: {'met' if max(times) < 60 else 'NOT met'})")


if __name__ == "__main__":
    main()
