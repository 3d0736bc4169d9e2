"""Benchmark: what checking every answer against the published schema costs a whole run.

    .venv/bin/python benchmarks/bench_shape.py [--runs 5] [--sample] [--before OTHER/.venv/bin/python]

Times ``turub check --quiet`` (the default: the reference engine in-process, whose answers
are trusted and not checked) and, with ``--sample``, ``turub check --quiet --sample`` (the
JavaScript sample over the protocol: every answer and the handshake checked), each as a
whole process, with the schema's checks on (as shipped) and off (the compiled validators
replaced by ones that accept anything, in that process only), the two alternating run by
run in the same command so that a shared machine's pace drifts alike for both.  Prints the
medians (wall and CPU, the child's user + system) and the ratio on/off.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

#: Runs ``turub check`` in this process with the schema's validators accepting anything.
UNCHECKED = ("import turub.conformance.programs.messages as m; "
             "m._validator = lambda definition: (lambda value: value); "
             "import sys; from turub.tools.cli import main; sys.exit(main(sys.argv[1:]))")


def timed(command: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one run of ``command``."""
    before, started = os.times(), time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    wall, after = time.perf_counter() - started, os.times()
    return wall, (after.children_user - before.children_user + after.children_system - before.children_system)


def compare(name: str, args: list[str], runs: int, before: str | None) -> None:
    commands = {"on": [sys.executable, "-m", "turub.tools.cli", *args],
                "off": [sys.executable, "-c", UNCHECKED, *args]}
    if before:
        commands["before"] = [before, "-m", "turub.tools.cli", *args]
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in commands}
    for command in commands.values():
        timed(command)  # warm-up: caches, the sample's install path
    for _ in range(runs):
        for label, command in commands.items():
            times[label].append(timed(command))
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in times.items()}
    print(f"{name} ({runs} runs each, alternating), medians:")
    for label in commands:
        print(f"  {label:6}: {med[label][0]:.2f} s wall, {med[label][1]:.2f} s CPU; against off: "
              f"{med[label][0] / med['off'][0]:.3f} wall, {med[label][1] / med['off'][1]:.3f} CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sample", action="store_true", help="also the JavaScript sample over the protocol")
    parser.add_argument("--before", metavar="PYTHON", help="also time the kit installed in another "
                        "environment (e.g. the main branch's .venv/bin/python), in the same runs")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    compare("turub check (default)", ["check", "--quiet"], args.runs, args.before)
    if args.sample:
        compare("turub check --sample", ["check", "--quiet", "--sample"], args.runs, args.before)


if __name__ == "__main__":
    main()
