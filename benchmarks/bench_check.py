"""Benchmark (pyperf): ``turub check`` with its default options, as a whole process.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_check.py                  # pyperf's report, then the figures
    .venv/bin/python benchmarks/bench_check.py -o check.json    # keep the values (pyperf compare_to)

Times ``python -m turub.tools.cli check --quiet`` (no arguments: the reference engine checked
in-process with the default options: the committed vectors, the generated cases of seed 1,
differential play with a budget of 300 deals and sittings, the property suites at 25
examples each), start-up, imports and the report included.  Two timings of the same child
processes:

* ``turub check (process, CPU)``: user + system time of the child and of the second process
  it forks for the property suites on two cores or more (``turub.conformance.programs.lane``), which
  a busy machine disturbs far less than wall time;
* ``turub check (process, wall)``: its elapsed time, the figure the target is about: at most
  2 seconds on the project's machine (2 cores).

``--one-process`` times ``turub check --one-process`` (every check in one process) as well.
The naive loop of ``bench_simulate.py`` (4,000 random deals, its CPU time) is timed in the
same run as a measure of the machine's pace: a shared machine's speed varies from hour to
hour, and the check's time as a multiple of the loop's holds far better than the seconds.
``--sample`` times ``turub check --sample`` (the bundled JavaScript sample over the
protocol, when Node.js is installed) as well.  pyperf runs each timing in its own worker
processes (``--processes``, default 3, two values each after one warm-up); its own options
apply (``--fast``, ``--rigorous``).
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

import pyperf
from processes import child_cpu, child_wall  # benchmarks/processes.py, beside this script

TARGET = 2.0  # seconds, wall, the default check of the reference


def main() -> None:
    runner = pyperf.Runner(processes=3, values=2, warmups=1, loops=1,
                           add_cmdline_args=lambda cmd, args: cmd.extend(
                               (["--sample"] if args.sample else []) + (["--one-process"] if args.one_process else [])))
    runner.argparser.add_argument("--sample", action="store_true",
                                  help="also time `turub check --sample` (the JavaScript sample)")
    runner.argparser.add_argument("--one-process", action="store_true",
                                  help="also time `turub check --one-process` (no second process)")
    args = runner.parse_args()
    runner.metadata["description"] = "turub check, default options, whole process (target: 2 s wall)"
    check = [sys.executable, "-m", "turub.tools.cli", "check", "--quiet"]
    cpu = runner.bench_time_func("turub check (process, CPU)", child_cpu, check)
    wall = runner.bench_time_func("turub check (process, wall)", child_wall, check)
    one = None
    if args.one_process:
        one_cpu = runner.bench_time_func("turub check --one-process (process, CPU)", child_cpu,
                                         [*check, "--one-process"])
        one = runner.bench_time_func("turub check --one-process (process, wall)", child_wall,
                                     [*check, "--one-process"])
    sample = None
    if args.sample:
        sample = runner.bench_time_func("turub check --sample (process, wall)", child_wall, [*check, "--sample"])
    # the machine's pace at the time: the naive loop of bench_simulate, 4,000 deals (its CPU)
    pace = runner.bench_time_func("naive loop, 4000 deals (process, CPU)", child_cpu,
                                  [sys.executable, str(Path(__file__).with_name("naive_deals.py")),
                                   "--deals", "4000"])
    if cpu is None or wall is None or runner.args.worker:  # a worker process
        return
    print(f"\n{platform.machine()}, {os.cpu_count()} cores, {platform.python_implementation()} "
          f"{platform.python_version()}, load average {os.getloadavg()[0]:.1f}")
    print(f"turub check (medians): {cpu.median():.2f} s CPU, {wall.median():.2f} s wall; target at most "
          f"{TARGET:.1f} s wall: {'met' if wall.median() <= TARGET else 'NOT met'}"
          f"{' (the machine is busy: see the CPU time)' if os.getloadavg()[0] > 1.5 else ''}")
    if one is not None and one_cpu is not None:
        print(f"turub check --one-process (medians): {one_cpu.median():.2f} s CPU, {one.median():.2f} s wall")
    if sample is not None:
        print(f"turub check --sample (median): {sample.median():.2f} s wall")
    if pace is not None:
        print(f"the machine's pace: the naive loop's 4,000 deals in {pace.median():.2f} s CPU (median); "
              f"turub check's wall time is {wall.median() / pace.median():.2f}× that")


if __name__ == "__main__":
    main()
