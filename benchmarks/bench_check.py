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
The closing lines give the check's CPU time as a multiple of the naive loop's (the issue's
target: at most 0.8), ``--sample``'s CPU as a multiple of the in-process check's (target: at
most 1.15), and the split per question: the CPU of whole ``--one-process`` runs that add one
question at a time (:data:`SPLIT_RUNS`: start-up alone, then the cases, differential play, the
property suites), each question's figure the difference from the run before it
(``--split-rounds`` rounds, medians).  The children run with byte-code compiled: ``PYTHONDONTWRITEBYTECODE``
is dropped from their environment and the project's modules are compiled first, as an
installed wheel has them (compiling them again at every start costs about 0.2 s).
The naive loop of ``bench_simulate.py`` (4,000 random deals, its CPU time) is timed in the
same run as a measure of the machine's pace: a shared machine's speed varies from hour to
hour, and the check's time as a multiple of the loop's holds far better than the seconds.
``--sample`` times ``turub check --sample`` (the bundled JavaScript sample over the
protocol, when Node.js is installed) as well.  pyperf runs each timing in its own worker
processes (``--processes``, default 3, two values each after one warm-up); its own options
apply (``--fast``, ``--rigorous``).
"""

from __future__ import annotations

import compileall
import os
import platform
import statistics
import subprocess
import sys
from pathlib import Path

import pyperf
from processes import child_cpu, child_wall  # benchmarks/processes.py, beside this script

TARGET = 2.0  # seconds, wall, the default check of the reference
NAIVE_TARGET = 0.8  # the default check's CPU, at most this multiple of the naive loop's (#33)
SAMPLE_TARGET = 1.15  # `--sample`'s CPU, at most this multiple of the in-process check's (#33)
ROOT = Path(__file__).resolve().parent.parent


def compiled_children() -> None:
    """The children start as an installed wheel does: the project's modules compiled once,
    and written byte-code read (``PYTHONDONTWRITEBYTECODE`` dropped; pyperf passes the
    environment on to its workers, and they to the checks)."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    for folder in ("reference", "conformance", "properties"):
        compileall.compile_dir(str(ROOT / folder), quiet=1)


#: The runs the split per question is taken from (with ``--quiet --one-process``): what each
#: adds to the one before it is the CPU of that question.
SPLIT_RUNS = {
    "start-up, imports and the report": ["--no-vectors", "--no-generated", "--examples", "0", "--properties", "0"],
    "cases": ["--examples", "0", "--properties", "0"],
    "differential play": ["--properties", "0"],
    "property suites": [],
}


def _cpu(command: list[str]) -> float:
    """CPU seconds of one run of ``command``, which checks nothing at all (exit status 4) or
    passes (0)."""
    before = os.times()
    done = subprocess.run(command, stdout=subprocess.DEVNULL)
    after = os.times()
    if done.returncode not in (0, 4):
        raise SystemExit(f"{' '.join(command)}: exit status {done.returncode}")
    return after.children_user - before.children_user + after.children_system - before.children_system


def split(check: list[str], rounds: int) -> dict[str, float]:
    """The default check's CPU per question, from whole processes (``--one-process``): the
    medians over ``rounds`` of the runs of :data:`SPLIT_RUNS`, run in turn, each figure the
    difference from the run before it.  Start-up counts the interpreter, the imports, the
    handshake, the verdict and the report; the cases their planning (vectors read, directed
    and generated cases worked out by the reference), asking and judging; differential play
    imports Hypothesis (about 0.15 s), which the property suites then share."""
    runs: dict[str, list[float]] = {name: [] for name in SPLIT_RUNS}
    for _ in range(rounds):
        for name, options in SPLIT_RUNS.items():
            runs[name].append(_cpu([*check, "--one-process", *options]))
    medians = [statistics.median(v) for v in runs.values()]
    return {name: now - before for name, now, before in zip(SPLIT_RUNS, medians, [0.0, *medians])}


def main() -> None:
    runner = pyperf.Runner(processes=3, values=2, warmups=1, loops=1,
                           add_cmdline_args=lambda cmd, args: cmd.extend(
                               (["--sample"] if args.sample else []) + (["--one-process"] if args.one_process else [])
                               + ["--split-rounds", str(args.split_rounds)]))
    runner.argparser.add_argument("--sample", action="store_true",
                                  help="also time `turub check --sample` (the JavaScript sample)")
    runner.argparser.add_argument("--one-process", action="store_true",
                                  help="also time `turub check --one-process` (no second process)")
    runner.argparser.add_argument("--split-rounds", type=int, default=3,
                                  help="rounds of the runs the split per question is taken from")
    args = runner.parse_args()
    if not runner.args.worker:
        compiled_children()
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
    sample = sample_cpu = None
    if args.sample:
        sample_cpu = runner.bench_time_func("turub check --sample (process, CPU)", child_cpu, [*check, "--sample"])
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
    if sample is not None and sample_cpu is not None:
        ratio = sample_cpu.median() / cpu.median()
        print(f"turub check --sample (medians): {sample_cpu.median():.2f} s CPU, {sample.median():.2f} s wall; "
              f"its CPU is {ratio:.2f}× the in-process check's (target at most {SAMPLE_TARGET}: "
              f"{'met' if ratio <= SAMPLE_TARGET else 'NOT met'})")
    if pace is not None:
        ratio = cpu.median() / pace.median()
        print(f"the machine's pace: the naive loop's 4,000 deals in {pace.median():.2f} s CPU (median); "
              f"turub check's CPU is {ratio:.2f}× that (target at most {NAIVE_TARGET}: "
              f"{'met' if ratio <= NAIVE_TARGET else 'NOT met'}), its wall time {wall.median() / pace.median():.2f}×")
    parts = split(check, args.split_rounds)
    print(f"split per question (CPU, --one-process, medians of {args.split_rounds} rounds): "
          + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in parts.items())
          + f"; in all {sum(parts.values()):.2f} s")


if __name__ == "__main__":
    main()
