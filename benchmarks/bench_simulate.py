"""Benchmark (pyperf): ``turub simulate`` as a whole process against the naive loop's process.

Two timings, each the CPU time (user + system) of one child process, so that a busy machine
disturbs them far less than wall time:

* ``naive loop (process)``: ``naive_deals.py --deals N --seed S``, random deals played over
  plain tuples, nothing validated (the yardstick);
* ``turub simulate (process)``: ``python -m turub.tools.cli simulate --deals N --seed S``, every
  play validated and the score sheet kept.

The whole process counts: start-up, imports, the report.  The figure is the ratio of the
medians, simulate / naive; the target is at most 2/3.  pyperf runs each timing in its own
worker processes (``--processes``, default 4, two values each after one warm-up); its own
options apply (``--fast``, ``--rigorous``, ``-o FILE`` to keep the values for
``python -m pyperf compare_to``).

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_simulate.py [--deals 4000] [--seed 1] [pyperf options]
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

import pyperf
from processes import child_cpu  # benchmarks/processes.py, beside this script

HERE = Path(__file__).parent
TARGET = 2 / 3


def main() -> None:
    runner = pyperf.Runner(processes=4, values=2, warmups=1, loops=1,
                           add_cmdline_args=lambda cmd, args: cmd.extend(
                               ["--deals", str(args.deals), "--seed", str(args.seed)]))
    runner.argparser.add_argument("--deals", type=int, default=4000,
                                  help="deals per process (default: %(default)s)")
    runner.argparser.add_argument("--seed", type=int, default=1,
                                  help="seed of both processes (default: %(default)s)")
    args = runner.parse_args()
    runner.metadata["description"] = "turub simulate against the naive loop, whole processes, CPU time"
    deals = ["--deals", str(args.deals), "--seed", str(args.seed)]
    naive = runner.bench_time_func("naive loop (process)", child_cpu,
                                   [sys.executable, str(HERE / "naive_deals.py"), *deals])
    simulate = runner.bench_time_func("turub simulate (process)", child_cpu,
                                      [sys.executable, "-m", "turub.tools.cli", "simulate", *deals])
    if naive is None or simulate is None or runner.args.worker:  # a worker process
        return
    ratio = simulate.median() / naive.median()
    print(f"\n{args.deals} deals, seed {args.seed}; {platform.machine()}, {os.cpu_count()} cores, "
          f"{platform.python_implementation()} {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"simulate / naive (CPU, medians): {simulate.median():.3f} s / {naive.median():.3f} s "
          f"= {ratio:.2f}; target at most {TARGET:.2f}: {'met' if ratio <= TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
