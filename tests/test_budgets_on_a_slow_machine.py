"""No wall-clock budget of the kit's own turns a correct program red or incomplete (#30).

The property suites had a fixed 30-second budget: on a loaded machine a correct program
checked with ``--quick`` ended ``INCOMPLETE``, exit 4.  Their searches are sized by
examples; a time budget is an option (``--properties-budget``) with no limit of its own by
default, and a row one cuts says which option raises it.  The slow machine is a clock that
runs a thousand times faster than the work (each look at it ten seconds later): no real
waiting, and every search is as slow as any machine can make it.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time

import pytest

import turub.conformance.questions.properties as properties
from turub.tools.cli import main

from pace import generous, spinning

PROPERTIES_ONLY = ["--no-vectors", "--no-generated", "--examples", "0", "--properties", "5",
                   "--one-process", "--json", "-", "--quiet"]


class SlowMachine:
    """The run's clock (``run_clock``) as the property suites see it on a very slow machine."""

    def __init__(self) -> None:
        self.looks = 0

    def now(self) -> float:
        self.looks += 1
        return time.monotonic() + 10.0 * self.looks


def check(*argv: str) -> tuple[int, dict, str]:
    out = io.StringIO()
    status = main(["check", *argv], out)
    return status, json.loads(out.getvalue()), out.getvalue()


def test_a_correct_program_on_a_slow_machine_conforms(monkeypatch):
    monkeypatch.setattr(properties, "run_clock", SlowMachine())
    status, report, _ = check(*PROPERTIES_ONLY, "--time-limit", "86400")
    rows = [c for c in report["cases"] if c["kind"] == "property"]
    assert len(rows) > 20 and {c["status"] for c in rows} <= {"passed", "unsupported"}, \
        [c["detail"] for c in rows if c["status"] not in ("passed", "unsupported")][:3]
    assert (report["verdict"], status) == ("CONFORMS", 0)


def test_a_budget_given_cuts_and_says_which_option_raises_it(monkeypatch):
    monkeypatch.setattr(properties, "run_clock", SlowMachine())
    status, report, _ = check(*PROPERTIES_ONLY, "--properties-budget", "30", "--time-limit", "86400")
    cut = [c for c in report["cases"] if c["kind"] == "property" and c["status"] == "not-run"]
    assert cut and all("--properties-budget raises it" in c["detail"] for c in cut)
    assert (report["verdict"], status) == ("INCOMPLETE", 4)
    # A cut row's keys in the order reports have written them since the budget was an option.
    assert {tuple(c) for c in cut} == {("id", "kind", "op", "clauses", "status", "time", "detail")}


def test_a_run_cut_by_the_whole_run_limit_says_time_limit_raises_it(monkeypatch):
    monkeypatch.setattr(properties, "run_clock", SlowMachine())
    status, report, _ = check(*PROPERTIES_ONLY, "--properties-budget", "1000", "--time-limit", "60")
    cut = [c for c in report["cases"] if c["kind"] == "property" and c["status"] == "not-run"]
    assert cut and all("--time-limit raises it" in c["detail"] for c in cut)
    assert (report["verdict"], status) == ("INCOMPLETE", 4)


@pytest.mark.parametrize("value", ["-1", "nan", "inf"])
def test_a_bad_properties_budget_is_one_line_and_exit_2(value, capsys):
    status = main(["check", *PROPERTIES_ONLY, "--properties-budget", value], io.StringIO())
    err = capsys.readouterr().err
    assert status == 2 and "--properties-budget" in err and len(err.strip().splitlines()) == 1, err


BUSY_LOOPS = 11  # beside them, on the same CPU, the run gets about a twelfth of it


@pytest.mark.skipif(not os.path.exists("/proc/self/schedstat") or not hasattr(os, "sched_setaffinity"),
                    reason="no scheduler statistics to tell the run's time from the machine's (Linux only)")
def test_time_the_machine_keeps_the_run_waiting_does_not_count_against_the_time_limit(tmp_path):
    """The whole-run limit counts the run's time, not the machine's (``run_clock``): pinned to
    one CPU beside busy loops, a correct program's run lasts several times its --time-limit
    by the wall clock and still conforms; what it waited for the CPU is not the run's."""
    cpu = min(os.sched_getaffinity(0))
    loops = spinning(BUSY_LOOPS, {cpu})
    # the kit pins itself (and so the program it starts) once its code is imported: its
    # interpreter's start is no part of the run, and beside the loops it would take seconds
    pinned_kit = ("import os, sys; from turub.tools.cli import main; import turub.conformance.commands.cli; "
                  f"os.sched_setaffinity(0, {{{cpu}}}); sys.exit(main(sys.argv[1:]))")
    try:
        run = subprocess.run([sys.executable, "-c", pinned_kit, "check", "--scale", "3", "--examples", "0",
                              "--properties", "0", "--one-process", "--time-limit", "1.5", "--json", "-",
                              "--quiet"], capture_output=True, text=True, timeout=generous(60), cwd=tmp_path)
    finally:
        for loop in loops:
            loop.kill()
            loop.wait()
    report = json.loads(run.stdout)
    assert (report["verdict"], run.returncode, report["cut"]) == ("CONFORMS", 0, False), run.stderr[-2000:]
    # (about half a second of the run's own on a quiet machine: three times within the limit)
    assert report["duration"] > 1.5, "the busy loops did not hold the run past its limit: nothing was tested"
