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
question at a time (:data:`SPLIT_RUNS`: start-up alone, then the vectors, the generated cases,
differential play, the property suites), each question's figure the difference from the run
before it (``--split-rounds`` rounds, medians), then the reports' writing and the second
process; and, from one sampled run, each stage's CPU shared between Hypothesis, the cyclic
garbage collector and the project's own code.  ``--before DIR`` also times an older copy of
the package (DIR/turub, first on ``PYTHONPATH``) alternating with this one, pair by pair.  The children run with byte-code compiled: ``PYTHONDONTWRITEBYTECODE``
is dropped from their environment and the project's modules are compiled first, as an
installed wheel has them (compiling them again at every start costs about 0.2 s).
The naive loop of ``bench_simulate.py`` (4,000 random deals, its CPU time) is timed in the
same run as a measure of the machine's pace: a shared machine's speed varies from hour to
hour, and the check's time as a multiple of the loop's holds far better than the seconds.
``--sample`` times ``turub check --sample`` (the bundled JavaScript sample over the
protocol, when Node.js is installed) as well.  ``--quick`` puts ``turub check --quick`` in
place of the default check everywhere (the script's smoke run in ``tests/test_benchmarks_run.py``:
its figures are not the target's).  pyperf runs each timing in its own worker
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
    "start-up, imports and the verdict": ["--no-vectors", "--no-generated", "--examples", "0", "--properties", "0"],
    "vectors (committed and directed cases)": ["--no-generated", "--examples", "0", "--properties", "0"],
    "generated cases": ["--examples", "0", "--properties", "0"],
    "differential play (Hypothesis imported)": ["--properties", "0"],
    "property suites": [],
}


def _cpu(command: list[str], env: dict[str, str] | None = None) -> float:
    """CPU seconds of one run of ``command`` and of the processes it waited for, which
    checks nothing at all (exit status 4) or passes (0)."""
    before = os.times()
    done = subprocess.run(command, stdout=subprocess.DEVNULL, env=env)
    after = os.times()
    if done.returncode not in (0, 4):
        raise SystemExit(f"{' '.join(command)}: exit status {done.returncode}")
    return after.children_user - before.children_user + after.children_system - before.children_system


def split(check: list[str], rounds: int) -> dict[str, float]:
    """The default check's CPU per question, from whole processes (``--one-process``): the
    medians over ``rounds`` of the runs of :data:`SPLIT_RUNS`, run in turn, each figure the
    difference from the run before it; then the reports (``--json`` and ``--junit`` written
    to a temporary folder) and the second process (the default check, which forks one for
    the property suites, less the same check in one process).  Start-up counts the
    interpreter, the imports, the handshake, the verdict and the text summary; vectors the
    committed and directed cases (read or worked out, asked, judged); differential play
    imports Hypothesis (about 0.15 s), which the property suites then share."""
    import tempfile
    runs: dict[str, list[float]] = {name: [] for name in [*SPLIT_RUNS, "reports", "two processes"]}
    with tempfile.TemporaryDirectory() as folder:
        reports = ["--json", os.path.join(folder, "r.json"), "--junit", os.path.join(folder, "r.xml")]
        for _ in range(rounds):
            for name, options in SPLIT_RUNS.items():
                runs[name].append(_cpu([*check, "--one-process", *options]))
            runs["reports"].append(_cpu([*check, "--one-process", *reports]))
            runs["two processes"].append(_cpu(check))
    medians = {name: statistics.median(v) for name, v in runs.items()}
    steps = list(SPLIT_RUNS)
    parts = {name: medians[name] - (medians[steps[i - 1]] if i else 0.0) for i, name in enumerate(steps)}
    parts["report writing (--json, --junit)"] = medians["reports"] - medians["property suites"]
    parts["the second process (the fork, its own collections)"] = medians["two processes"] - medians["property suites"]
    return parts


#: Run in a child: one ``--one-process`` check sampled every millisecond of its CPU
#: (``SIGPROF``; the kernel's tick may make it every few), each sample put down to the stage
#: it came from and to whose code was running: Hypothesis's (its engine and strategies) or
#: the project's (the kit, the oracles, the reference engine, the standard library they
#: call); the collector's CPU is timed apart (``gc.callbacks``: a collection defers the signal).
PROFILE_CHILD = r"""
import collections, gc, json, runpy, signal, sys, time
out, sys.argv = sys.argv[1], ["turub", *sys.argv[2:]]
PROJECT = ("/turub/", "/reference/", "/conformance/", "/properties/")
STAGES = {"_ask_cases": "cases", "_differential": "differential play", "_properties": "property suites"}
TICK = 0.001
counts, spent, began = collections.Counter(), collections.Counter(), [0.0]
def place(frame):
    stage, whose = "start-up, imports and the verdict", None
    while frame is not None:
        name, path = frame.f_code.co_name, frame.f_code.co_filename
        if whose is None and "/hypothesis/" in path:
            whose = "Hypothesis"
        elif whose is None and any(part in path for part in PROJECT):
            whose = "project"
        stage = STAGES.get(name, stage)
        frame = frame.f_back
    return stage, whose or "project"
def sample(signum, frame):
    counts[place(frame)] += 1
def collected(phase, info):  # a collection defers the signal: its CPU is counted here
    if phase == "start":
        began[0] = time.process_time()
    else:
        spent[place(sys._getframe())[0]] += time.process_time() - began[0]
gc.callbacks.append(collected)
signal.signal(signal.SIGPROF, sample)
signal.setitimer(signal.ITIMER_PROF, TICK, TICK)
try:
    runpy.run_module("turub.tools.cli", run_name="__main__")
except SystemExit:
    pass
signal.setitimer(signal.ITIMER_PROF, 0, 0)
with open(out, "w") as f:
    json.dump({"cpu": time.process_time(), "samples": [[stage, whose, n] for (stage, whose), n in counts.items()],
               "collector": spent}, f)
"""


def inside(check_args: list[str]) -> str:
    """Where a ``--one-process`` check's CPU goes inside, from one sampled run
    (:data:`PROFILE_CHILD`): each stage's seconds, and in each Hypothesis's, the collector's
    and the project's.  The samples share out the CPU the collector did not take."""
    import json
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "samples.json")
        subprocess.run([sys.executable, "-c", PROFILE_CHILD, path, *check_args, "--one-process"],
                       stdout=subprocess.DEVNULL, check=False)
        with open(path) as f:
            got = json.load(f)
    collector: dict[str, float] = got["collector"]
    per_sample = (got["cpu"] - sum(collector.values())) / max(1, sum(n for _, _, n in got["samples"]))
    stages: dict[str, dict[str, float]] = {stage: {"collector": t} for stage, t in collector.items()}
    for stage, whose, n in got["samples"]:
        stages.setdefault(stage, {}).setdefault(whose, 0.0)
        stages[stage][whose] += n * per_sample
    lines = [f"  in all {got['cpu']:.2f} s"]
    for stage, by in sorted(stages.items(), key=lambda kv: -sum(kv[1].values())):
        lines.append(f"  {stage}: {sum(by.values()):.2f} s (Hypothesis {by.get('Hypothesis', 0):.2f} s, "
                     f"the collector {by.get('collector', 0):.2f} s, the project {by.get('project', 0):.2f} s)")
    return "\n".join(lines)


def before_and_after(check: list[str], before: str, rounds: int) -> str:
    """The default check's CPU with the package of ``before`` (a folder holding an older copy
    named ``turub``, put first on ``PYTHONPATH``) and with this one, alternating, ``rounds``
    pairs: the medians and each pair's ratio."""
    old_env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [before, os.environ.get("PYTHONPATH")]))}
    pairs = [(_cpu(check, old_env), _cpu(check)) for _ in range(rounds)]
    old, new = statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs)
    return (f"before ({before}) and after, alternating, {rounds} pairs (CPU, medians): {old:.2f} s and {new:.2f} s, "
            f"{new / old:.2f}; each pair: {', '.join(f'{b / a:.2f}' for a, b in pairs)}")


def main() -> None:
    runner = pyperf.Runner(processes=3, values=2, warmups=1, loops=1,
                           add_cmdline_args=lambda cmd, args: cmd.extend(
                               (["--sample"] if args.sample else []) + (["--one-process"] if args.one_process else [])
                               + ["--split-rounds", str(args.split_rounds)] + (["--quick"] if args.quick else [])
                               + (["--before", args.before, "--pairs", str(args.pairs)] if args.before else [])))
    runner.argparser.add_argument("--sample", action="store_true",
                                  help="also time `turub check --sample` (the JavaScript sample)")
    runner.argparser.add_argument("--one-process", action="store_true",
                                  help="also time `turub check --one-process` (no second process)")
    runner.argparser.add_argument("--quick", action="store_true",
                                  help="time `turub check --quick` in place of the default check (every "
                                       "timing and the split; a smoke run of this script, not the target's figures)")
    runner.argparser.add_argument("--split-rounds", type=int, default=3,
                                  help="rounds of the runs the split per question is taken from")
    runner.argparser.add_argument("--before", metavar="DIR",
                                  help="also time, alternating with this package, an older copy: DIR holds it "
                                       "as a folder named turub (put first on PYTHONPATH)")
    runner.argparser.add_argument("--pairs", type=int, default=6, help="pairs of runs with --before")
    args = runner.parse_args()
    if not runner.args.worker:
        compiled_children()
    runner.metadata["description"] = "turub check, default options, whole process (target: 2 s wall)"
    check = [sys.executable, "-m", "turub.tools.cli", "check", "--quiet", *(["--quick"] if args.quick else [])]
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
          + ", ".join(f"{name} {seconds:.2f} s" for name, seconds in parts.items()))
    print("inside one --one-process check (its CPU sampled):\n" + inside(check[3:]))
    if args.before:
        print(before_and_after(check, args.before, args.pairs))


if __name__ == "__main__":
    main()
