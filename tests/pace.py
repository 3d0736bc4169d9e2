"""The machine's pace, for the few tests that must bound a wait.

No test asserts that something took less than a fixed wall time: a loaded machine (a CI runner
beside other jobs, six busy loops on two cores) misses any such figure, and a test that fails
because the machine is slow is a false red for every contributor. What a test may bound is a
wait that would otherwise never end (a hung program the kit must stop, a run a time limit must
cut); it bounds it with ``generous(seconds)``: the figure on a quiet machine, times ``MARGIN``,
times the factor in the environment variable ``TURUB_TEST_PACE`` (default 1; set it higher on a
runner slower still). What a test checks about time otherwise is what the kit reports (a row cut,
a timeout counted once, the requests answered before a cut), never how long it took.
"""
from __future__ import annotations

import math
import os

MARGIN = 10.0  # a load of 8 on 2 cores runs a test about 4 times slower than a quiet machine


def factor() -> float:
    """TURUB_TEST_PACE: a finite number >= 1 (anything else is 1)."""
    try:
        value = float(os.environ.get("TURUB_TEST_PACE", "1"))
    except ValueError:
        return 1.0
    return value if math.isfinite(value) and value >= 1 else 1.0


def generous(seconds: float) -> float:
    """A bound for a wait that takes about ``seconds`` on a quiet machine, on any machine."""
    return seconds * MARGIN * factor()


def spinning(count: int, cpus: set[int] | None = None, *, new_session: bool = False) -> list:
    """``count`` busy loops (other work on the machine), each already looping when this
    returns: a loop says so on its standard output before it spins, so a test beside them
    never starts while their interpreters are still starting up (a machine as quiet as it
    was). ``cpus``: each is pinned to these CPUs once it loops (pinned from its start, each
    interpreter would start up beside the loops already there, a second wasted on two
    cores); ``new_session``: each in a session of its own, as another job's."""
    import os
    import subprocess
    import sys
    loops = [subprocess.Popen([sys.executable, "-c", "print(flush=True)\nwhile True: pass"],
                              stdout=subprocess.PIPE, start_new_session=new_session)
             for _ in range(count)]
    for loop in loops:
        loop.stdout.readline()  # (an empty line: it is looping)
        loop.stdout.close()
        if cpus is not None:
            os.sched_setaffinity(loop.pid, cpus)
    return loops
