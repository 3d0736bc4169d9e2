"""Benchmark: a long conformance run, and the kit's peak memory (a benchmark, not a test).

    .venv/bin/python benchmarks/bench_load.py [--cases 200000] [--megabyte-answers N]

Runs ``--cases`` cases (committed vectors plus generated ones, the scale chosen to reach the
count; no differential play nor properties) against the JavaScript sample (or, without
Node.js, the reference engine behind the protocol through the adapter shim), writes the
JSON and JUnit reports to temporary files, and prints the time, the cases per second and
the kit's peak resident memory (``ru_maxrss`` of this process: the program under test is a
child and not counted).  The kit judges each answer as it arrives and spools results to
disk past a few thousand, so its memory must stay flat in the number of cases.

``--megabyte-answers N`` instead runs N cases against a program whose every answer is a line
of about 1 MiB (a list of 170,000 strings, the worst case for parsed size): the kit must
stay under 150 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import sys
import tempfile
import time

from turub.conformance.cases import generated_counts
from turub.conformance.kit import CheckOptions, run_check, vector_cases
from turub.conformance.protocol import ProtocolTarget
from turub.conformance.report import finish, write_json, write_junit
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
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(target, options: CheckOptions) -> tuple[dict, float]:
    started = time.perf_counter()
    report = finish(run_check(target, options, progress_stream=sys.stderr))
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "r.json"), "w", encoding="utf-8") as f:
            write_json(report, f)
        with open(os.path.join(tmp, "r.xml"), "w", encoding="utf-8") as f:
            write_junit(report, f)
        size = os.path.getsize(os.path.join(tmp, "r.json"))
    report["_json_bytes"] = size
    return report, time.perf_counter() - started


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--cases", type=int, default=200_000)
    p.add_argument("--megabyte-answers", type=int, default=0, metavar="N")
    a = p.parse_args()
    before = peak_mb()
    if a.megabyte_answers:
        target = ProtocolTarget([sys.executable, "-c", MEGABYTE], timeout=30)
        scale = a.megabyte_answers / generated_counts(1.0)["trick_winner"]
        options = CheckOptions(vectors=False, scale=scale, examples=0, properties=0)
        what = f"{a.megabyte_answers} answers of about 1 MiB each"
    else:
        command = sample_command() or [sys.executable, "-P", "-m", "turub.conformance.shim",
                                       "turub.conformance.adapter:ReferenceImplementation"]
        target = ProtocolTarget(command, timeout=30, trusted=not sample_command())
        per_scale = sum(generated_counts(1.0).values())
        scale = max(0.0, (a.cases - len(vector_cases(Rules()))) / per_scale)
        options = CheckOptions(scale=scale, examples=0, properties=0)
        what = f"{os.path.basename(command[-1])}, scale {scale:.1f}"
    report, elapsed = run(target, options)
    s = report["summary"]
    print(f"{what}: {s['cases']:,} cases ({s['passed']:,} passed, {s['failed']:,} failed, "
          f"{s['unsupported']:,} unsupported) in {elapsed:.1f} s ({s['cases'] / elapsed:,.0f} cases/s), "
          f"verdict {report['verdict']}")
    print(f"peak memory of the kit: {peak_mb():.0f} MB (before the run: {before:.0f} MB); "
          f"JSON report {report['_json_bytes'] / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
