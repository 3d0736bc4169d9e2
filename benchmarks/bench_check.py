"""Benchmark (pyperf): the wall time of the default full check, not a test.

    .venv/bin/python benchmarks/bench_check.py                  # both targets, pyperf's report
    .venv/bin/python benchmarks/bench_check.py -o check.json    # keep the values (pyperf compare_to)

Times what ``turub check --sample`` does with the default options (the committed vectors,
the generated cases of seed 1, differential play over 300 drawn deals and 300 sittings, the
property suites at 25 examples each): against the JavaScript sample over the protocol when
Node.js is installed, and against the reference engine in-process.  The target is under 30
seconds.  pyperf runs each in fresh worker processes (``--processes``, default 3, one value
each, after one warm-up) and reports the mean and standard deviation; ``--fast`` or
``--rigorous`` trade time for precision as usual.
"""

from __future__ import annotations

import time

import pyperf

from turub.conformance.kit import CheckOptions, reference_target, run_check
from turub.conformance.protocol import ProtocolTarget
from turub.conformance.report import finish
from turub.conformance.resources import sample_command


def timed(loops: int, make) -> float:
    """Seconds for ``loops`` full checks of a fresh target; a failed check is an error."""
    total = 0.0
    for _ in range(loops):
        started = time.perf_counter()
        report = finish(run_check(make(), CheckOptions(properties=25)))  # as `turub check` does
        total += time.perf_counter() - started
        if report["exit_status"] != 0:
            raise SystemExit(f"the check did not pass: {report['summary']}")
    return total


def main() -> None:
    runner = pyperf.Runner(processes=3, values=1, warmups=1, loops=1)
    runner.metadata["description"] = "turub check, default options (target < 30 s)"
    command = sample_command()
    if command:
        runner.bench_time_func("check: JavaScript sample (protocol)", timed,
                               lambda: ProtocolTarget(command))
    runner.bench_time_func("check: reference (in-process)", timed, reference_target)


if __name__ == "__main__":
    main()
