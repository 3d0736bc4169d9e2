"""Benchmark (pyperf): ``turub simulate`` under a variant that carries house rules, against
the standard game, whole processes, CPU time (issue 20: within 2x; only the overridden
decisions pay).

Three timings, each the CPU time (user + system) of one child process:

* ``standard``: ``python -m turub.cli simulate --deals N --seed S``;
* ``trick rule``: the same under ``tests/variants/kinds.py:club-nell`` (a house rule deciding
  every trick: the nine of trumps wins);
* ``play rule``: the same under ``tests/variants/club.py:club`` (a house rule asked at every
  play: a void player must trump).

The figures are the ratios of the medians, variant / standard; the target is at most 2.
A rule asked at every one of a deal's 144 plays costs its own time 144 times a deal: with a
rule as cheap as ``club.must-trump`` that alone is about the time of a standard deal.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_variant_simulate.py [--deals 2000] [--seed 1] [pyperf options]
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

import pyperf
from processes import child_cpu  # benchmarks/processes.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
TARGET = 2.0
VARIANTS = {"trick rule": str(ROOT / "tests" / "variants" / "kinds.py") + ":club-nell",
            "play rule": str(ROOT / "tests" / "variants" / "club.py") + ":club"}


def main() -> None:
    runner = pyperf.Runner(processes=4, values=2, warmups=1, loops=1,
                           add_cmdline_args=lambda cmd, args: cmd.extend(
                               ["--deals", str(args.deals), "--seed", str(args.seed)]))
    runner.argparser.add_argument("--deals", type=int, default=2000,
                                  help="deals per process (default: %(default)s)")
    runner.argparser.add_argument("--seed", type=int, default=1,
                                  help="seed of every process (default: %(default)s)")
    args = runner.parse_args()
    runner.metadata["description"] = "turub simulate under house rules against the standard game"
    simulate = [sys.executable, "-m", "turub.cli", "simulate", "--deals", str(args.deals),
                "--seed", str(args.seed)]
    standard = runner.bench_time_func("standard (process)", child_cpu, simulate)
    timed = {name: runner.bench_time_func(f"{name} (process)", child_cpu, [*simulate, "--variant", v])
             for name, v in VARIANTS.items()}
    if standard is None or any(t is None for t in timed.values()) or runner.args.worker:
        return  # a worker process
    print(f"\n{args.deals} deals, seed {args.seed}; {platform.machine()}, {os.cpu_count()} cores, "
          f"{platform.python_implementation()} {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    for name, bench in timed.items():
        ratio = bench.median() / standard.median()
        print(f"{name} / standard (CPU, medians): {bench.median():.3f} s / {standard.median():.3f} s "
              f"= {ratio:.2f}; target at most {TARGET:.0f}: {'met' if ratio <= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
