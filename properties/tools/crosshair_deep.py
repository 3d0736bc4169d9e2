"""The deep CrossHair run: every rule contract, with a time budget per condition.

Runs ``crosshair check --analysis_kind=PEP316 --report_all`` on the kernels' contracts
(:mod:`turub.properties.contracts`) and on the public rule functions, and prints one line
per condition: ``confirmed`` (CrossHair explored every path: a bounded proof), ``searched``
(it ran out of budget without finding a counterexample) or ``FAILED`` (a counterexample).
Exits non-zero if any condition fails or any kernel condition is not confirmed.

Usage, from the project's root::

    .venv/bin/python properties/tools/crosshair_deep.py                # about 15 minutes
    .venv/bin/python properties/tools/crosshair_deep.py --kernels-only  # about 1 minute
    .venv/bin/python properties/tools/crosshair_deep.py --kernel-timeout 60 --engine-timeout 30
"""

from __future__ import annotations

import argparse
import linecache
import re
import subprocess
from pathlib import Path
import sys
import time

KERNELS = ["turub.properties.contracts"]
ENGINE = ["turub.rules.trick_winner", "turub.rules.legal_plays", "turub.rules.deal_result",
          "turub.rules.next_dealer", "turub.contest.contest_step"]
LINE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+): (?P<level>info|error|warning): (?P<text>.*)$",
                  re.MULTILINE)
STATUS = {"Confirmed over all paths.": "confirmed", "Not confirmed.": "searched",
          "Unable to meet precondition.": "starved"}


def check(targets: list[str], timeout: float) -> list[tuple[str, int, str, str]]:
    done = subprocess.run(
        [sys.executable, "-m", "crosshair", "check", "--analysis_kind=PEP316", "--report_all",
         "--extra_plugin", str(Path(__file__).resolve().parents[1] / "crosshair_plugin.py"),
         f"--per_condition_timeout={timeout}", *targets], capture_output=True, text=True)
    return [(m["file"], int(m["line"]), m["level"], m["text"])
            for m in LINE.finditer(done.stdout + done.stderr)]


def show(reports: list[tuple[str, int, str, str]]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for file, line, level, text in reports:
        status = "FAILED" if level == "error" else STATUS.get(text, text)
        counts[status] = counts.get(status, 0) + 1
        condition = linecache.getline(file, line).strip()
        where = f"{file.rsplit('/', 2)[-2]}/{file.rsplit('/', 1)[-1]}:{line}"
        print(f"{status:>10}  {where:<28} {condition}")
        if level == "error":
            print(f"{'':>12}{text}")
    return counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernel-timeout", type=float, default=30)
    parser.add_argument("--engine-timeout", type=float, default=30)
    parser.add_argument("--kernels-only", action="store_true")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    print("The kernels (turub.properties.contracts): each condition must be confirmed")
    kernels = show(check(KERNELS, args.kernel_timeout))
    engine: dict[str, int] = {}
    if not args.kernels_only:
        print("\nThe engine's rule functions: searched, confirmed where CrossHair can exhaust them")
        engine = show(check(ENGINE, args.engine_timeout))
    print(f"\nkernels: {kernels}; engine: {engine}; {time.perf_counter() - start:.0f} s")
    kernels_ok = set(kernels) == {"confirmed"}
    return 0 if kernels_ok and "FAILED" not in engine else 1


if __name__ == "__main__":
    raise SystemExit(main())
