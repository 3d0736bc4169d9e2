"""Benchmark: ``turub simulate`` as a whole process against the naive loop, side by side.

Runs ``turub simulate --deals N --seed S`` and ``naive_deals.py --deals N --seed S`` (random
deals played by a naive loop over plain tuples that validates nothing) as separate processes,
alternately, ``--rounds`` times each, and reports for each the best and the median of the
processes' CPU time (user + system; on a loaded machine CPU time is far steadier than wall
time, which is printed too) and the ratio simulate / naive.  The target is at most 2/3: the
engine, validating every play and keeping the score sheet, in two thirds of the naive loop's
time.  The whole process counts: start-up, imports, the report.

    .venv/bin/python benchmarks/bench_simulate.py [--deals 4000] [--seed 1] [--rounds 7]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent


def run(command: list[str]) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of one process running ``command``."""
    before = os.times()
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = os.times()
    return (after.children_user - before.children_user
            + after.children_system - before.children_system), wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    deals = ["--deals", str(args.deals), "--seed", str(args.seed)]
    commands = {
        "turub simulate": [sys.executable, "-m", "turub.cli", "simulate", *deals],
        "naive loop": [sys.executable, str(HERE / "naive_deals.py"), *deals],
    }
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(args.rounds):
        for name, command in commands.items():
            times[name].append(run(command))
    print(f"{args.deals} deals, seed {args.seed}, {args.rounds} rounds; "
          f"{platform.machine()}, {os.cpu_count()} cores, "
          f"{platform.python_implementation()} {platform.python_version()}")
    best = {}
    for name, runs in times.items():
        cpu = [c for c, _ in runs]
        wall = [w for _, w in runs]
        best[name] = (min(cpu), statistics.median(cpu), min(wall), statistics.median(wall))
        print(f"  {name:<15} CPU best {best[name][0]:.3f} s, median {best[name][1]:.3f} s; "
              f"wall best {best[name][2]:.3f} s, median {best[name][3]:.3f} s")
    sim, naive = best["turub simulate"], best["naive loop"]
    print(f"  simulate / naive: CPU {sim[0] / naive[0]:.2f} (best), {sim[1] / naive[1]:.2f} (median); "
          f"wall {sim[2] / naive[2]:.2f} (best), {sim[3] / naive[3]:.2f} (median); target at most 0.67")


if __name__ == "__main__":
    main()
