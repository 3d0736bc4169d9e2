"""Attribution, measured (not a test): each one-rule-wrong implementation of
``tests/broken/independent.py`` through the default check, and what the kit blames.

    .venv/bin/python benchmarks/bench_attribution.py [--quick] [--seed 1 2 3] [--checks] [--examples N]

Prints one row per bug: the clause it breaks, the most blamed clause, the failed clause rows,
the failures, and whether the diagnosis named it first; then the median of failed rows and
the correct implementation's failures under every option set.  ``--quick`` leaves out
differential play and the property suites.  ``--checks`` adds, under each bug, the
differential and property checks that failed (the catch matrix: compare two budgets with
``--examples``), and ``--examples N`` sets differential play's budget (default 300).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import time
from pathlib import Path

from turub.conformance.questions.cases import OPTION_SETS
from turub.conformance.diagnosis.blame import failed_rows, top_blamed
from turub.conformance.commands.check import CheckOptions, run_check
from turub.conformance.reports.report import finish
from turub.conformance.programs.targets import PythonTarget

_spec = importlib.util.spec_from_file_location(
    "independent", Path(__file__).resolve().parents[1] / "tests" / "broken" / "independent.py")
I = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(I)
SHOWS_UNDER = {"always-clockwise": "counterclockwise", "per-deal-ignored": "stake-per-deal",
               "turn-always-clockwise": "counterclockwise", "per-deal-draw-keeps-winner": "stake-per-deal",
               "known-result-ignored": "early-close-known", "documented-ignored": "signals-documented",
               "previous-ignored": "opponent-previous"}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--seed", type=int, nargs="+", default=[1])
    p.add_argument("--checks", action="store_true", help="list the differential and property checks that failed")
    p.add_argument("--examples", type=int, default=300, help="differential play's budget")
    a = p.parse_args()
    extra = dict(examples=0, properties=0) if a.quick else dict(properties=25, examples=a.examples)
    extra["second_process"] = True  # the property suites beside the rest, where the machine allows
    rows = []
    print(f"{'bug':28} {'breaks':28} {'top blamed':28} rows fails  ok")
    for bug, (clause, _) in I.BUGS.items():
        for seed in a.seed:
            rules = OPTION_SETS[SHOWS_UNDER.get(bug, "standard")]
            r = finish(run_check(PythonTarget(I.Independent(bug)), CheckOptions(rules=rules, seed=seed, **extra)))
            top, failed = top_blamed(r), failed_rows(r)
            rows.append(len(failed))
            print(f"{bug:28} {clause:28} {str(top):28} {len(failed):4} {r['summary']['failed']:5}  "
                  f"{'yes' if top == clause else 'NO'}", flush=True)
            if a.checks:
                caught = sorted(c["id"] for c in r["cases"]
                                if c["status"] == "failed" and c["kind"] in ("differential", "property"))
                print(f"    caught by: {', '.join(caught) or 'the cases only'}", flush=True)
    print(f"median failed rows per bug: {statistics.median(rows)}; max {max(rows)}")
    for name, rules in OPTION_SETS.items():
        for seed in a.seed:
            started = time.perf_counter()
            r = finish(run_check(PythonTarget(I.Independent()), CheckOptions(rules=rules, seed=seed, **extra)))
            print(f"correct implementation, {name}, seed {seed}: {r['summary']['failed']} failures "
                  f"in {r['summary']['cases']} cases ({time.perf_counter() - started:.1f} s)")


if __name__ == "__main__":
    main()
