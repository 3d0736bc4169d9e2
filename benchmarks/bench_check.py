"""Benchmark: the wall time of the default full check (a benchmark, not a test).

    .venv/bin/python benchmarks/bench_check.py [--repeat 3]

Times ``turub check --sample`` (the JavaScript sample over the protocol, or the reference
when Node.js is missing) with the default options: the committed vectors, the generated
cases of seed 1, differential play (300 drawn deals and 300 sittings) and the property suites
(25 examples each).  The target is
under 30 seconds.  Also times the reference engine checked in-process (``turub check``).
"""

from __future__ import annotations

import argparse
import time

from turub.conformance.cli import sample_command
from turub.conformance.kit import CheckOptions, reference_target, run_check
from turub.conformance.protocol import ProtocolTarget
from turub.conformance.report import finish


def once(make) -> tuple[float, dict]:
    started = time.perf_counter()
    report = finish(run_check(make(), CheckOptions(properties=25)))  # as `turub check` does
    return time.perf_counter() - started, report


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=3)
    a = p.parse_args()
    command = sample_command()
    targets = [("reference (in-process)", reference_target)]
    if command:
        targets.insert(0, ("JavaScript sample (protocol)", lambda: ProtocolTarget(command)))
    for label, make in targets:
        times = []
        for _ in range(a.repeat):
            seconds, report = once(make)
            times.append(seconds)
        s = report["summary"]
        print(f"{label}: {s['cases']} cases ({s['passed']} passed), best {min(times):.2f} s, "
              f"worst {max(times):.2f} s over {a.repeat} runs (target < 30 s: "
              f"{'met' if max(times) < 30 else 'NOT met'})")


if __name__ == "__main__":
    main()
