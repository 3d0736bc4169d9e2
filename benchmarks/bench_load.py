"""Benchmark (pyperf): a long conformance run, and the kit's peak memory.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_load.py [--cases 200000] [--megabyte-answers N] [pyperf options]

Runs ``--cases`` cases (committed vectors plus generated ones, the scale chosen to reach the
count; no differential play nor properties) against the JavaScript sample (or, without
Node.js, the reference engine behind the protocol through the adapter shim), writes the
JSON and JUnit reports to temporary files, and prints the time, the cases per second and
the kit's peak resident memory (VmHWM of this process on Linux: the program under test is a
child and not counted).  The kit judges each answer as it arrives and spools results to
disk past a few thousand, so its memory must stay flat in the number of cases.

``--megabyte-answers N`` instead runs N cases against a program whose every answer is a line
of about 1 MiB (a list of 170,000 strings, the worst case for parsed size): the kit must
stay under 150 MB.

pyperf runs it once (one worker process, one value, no warm-up: raise ``--processes`` or
``--values`` for more) and keeps the worker's peak memory in its metadata (``mem_max_rss``,
``python -m pyperf metadata FILE`` with ``-o FILE``).
"""

from __future__ import annotations

import os
import resource
import shutil
import sys
import tempfile
import time

import pyperf

from turub.conformance.questions.cases import generated_counts
from turub.conformance.commands.check import CheckOptions, run_check, vector_cases
from turub.conformance.programs.protocol import ProtocolTarget
from turub.conformance.reports.junit import write_junit
from turub.conformance.reports.report import finish, write_json
from turub.conformance.resources import sample_command
from turub import Rules

MEGABYTE = r"""
import json, sys
for raw in sys.stdin:
    msg = json.loads(raw)
    if msg["op"] == "hello":
        res = {"protocol": 1, "name": "megabyte", "version": "0", "operations": ["trick_winner"]}
    elif msg["op"] == "bye":
        res = None
    else:
        res = ["AC"] * 170_000
    sys.stdout.write(json.dumps({"id": msg["id"], "result": res}) + "\n")
    sys.stdout.flush()
    if msg["op"] == "bye":
        break
"""


def peak_mb() -> float:
    """This process's peak resident memory in MB: Linux's VmHWM (its own; ``ru_maxrss``
    carries over a parent's peak through fork and exec), else ``ru_maxrss``."""
    if sys.platform == "linux":
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(target, options: CheckOptions) -> dict:
    """The finished report of one check; both reports written to temporary files."""
    report = finish(run_check(target, options, progress_stream=sys.stderr))
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "r.json"), "w", encoding="utf-8") as f:
            write_json(report, f)
        with open(os.path.join(tmp, "r.xml"), "w", encoding="utf-8") as f:
            write_junit(report, f)
        report["_json_bytes"] = os.path.getsize(os.path.join(tmp, "r.json"))
    return report


def plan(cases: int, megabyte_answers: int):
    """(a fresh target, the options, what is run) for the command line's choice."""
    if megabyte_answers:
        target = ProtocolTarget([sys.executable, "-c", MEGABYTE], timeout=30)
        scale = megabyte_answers / generated_counts(1.0)["trick_winner"]
        return (target, CheckOptions(vectors=False, scale=scale, examples=0, properties=0),
                f"{megabyte_answers} answers of about 1 MiB each")
    command = sample_command() or [sys.executable, "-P", "-m", "turub.conformance.programs.shim",
                                   "turub.conformance.adapter:ReferenceImplementation"]
    target = ProtocolTarget(command, timeout=30, trusted=not sample_command())
    per_scale = sum(generated_counts(1.0).values())
    scale = max(0.0, (cases - len(vector_cases(Rules()))) / per_scale)
    return (target, CheckOptions(scale=scale, examples=0, properties=0),
            f"{os.path.basename(command[-1])}, scale {scale:.1f}")


def long_check(loops: int, cases: int, megabyte_answers: int) -> float:
    """Wall seconds of ``loops`` long checks; each check's summary on stderr."""
    total = 0.0
    for _ in range(loops):
        before = peak_mb()
        target, options, what = plan(cases, megabyte_answers)
        started = time.perf_counter()
        report = run(target, options)
        elapsed = time.perf_counter() - started
        total += elapsed
        s = report["summary"]
        print(f"{what}: {s['cases']:,} cases ({s['passed']:,} passed, {s['failed']:,} failed, "
              f"{s['unsupported']:,} unsupported) in {elapsed:.1f} s "
              f"({s['cases'] / elapsed:,.0f} cases/s), verdict {report['verdict']}; peak memory "
              f"of the kit {peak_mb():.0f} MB (before the run: {before:.0f} MB); JSON report "
              f"{report['_json_bytes'] / 1e6:.1f} MB", file=sys.stderr)
    return total


def main() -> None:
    runner = pyperf.Runner(processes=1, values=1, warmups=0, loops=1,
                           add_cmdline_args=lambda cmd, args: cmd.extend(
                               ["--cases", str(args.cases),
                                "--megabyte-answers", str(args.megabyte_answers)]))
    runner.argparser.add_argument("--cases", type=int, default=200_000,
                                  help="cases in the run (default: %(default)s)")
    runner.argparser.add_argument("--megabyte-answers", type=int, default=0, metavar="N",
                                  help="instead, N answers of about 1 MiB each (default: %(default)s: off)")
    args = runner.parse_args()
    runner.metadata["description"] = "a long conformance run and the kit's peak memory"
    bench = runner.bench_time_func("long check", long_check, args.cases, args.megabyte_answers)
    if bench is None or runner.args.worker:  # a worker process
        return
    peaks = [run.get_metadata().get("mem_max_rss") for run in bench.get_runs()]
    peaks = [p for p in peaks if p]
    if peaks:
        print(f"peak memory of the kit (the worker process; the program under test not counted): "
              f"{max(peaks) / 2**20:.0f} MB")


if __name__ == "__main__":
    main()
