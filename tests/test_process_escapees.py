"""Nothing left running (#19): helpers that change their pid quickly are stopped too.

A program under test (tests/escapees.py) starts helpers at the handshake that try to outlive
it: a fork-and-exit chain whose every link opens a session of its own, and a daemon (double
fork and ``setsid``) that ``exec``\\ s with an empty environment (no marker of the kit's) and
starts such a chain.  Both leave processes running on be8b54f (the kit looked for escapees in
one listing of ``/proc``, which a link born after it is not in).  When the kit is done with
the program (its goodbye, or an interrupted run's abort), none of them may be left running.
The helpers append to a file while they run, so the test sees whether anything still runs by
the file growing, without racing pids that come and go; they give up by themselves after a
while, so a failing run leaves nothing behind for long.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from turub.conformance.programs.protocol import ProtocolTarget

from pace import generous

PROG = Path(__file__).parent / "escapees.py"
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux's subreaper")


def beats(path: Path) -> int:
    return path.stat().st_size


@pytest.mark.parametrize("mode", ["chain", "daemon-chain"])
@pytest.mark.parametrize("ending", ["close", "abort"])
def test_helpers_that_change_their_pid_are_stopped_with_the_program(mode, ending, tmp_path):
    heartbeat = tmp_path / "heartbeat"
    heartbeat.touch()
    until = time.time() + generous(15)  # the helpers give up by themselves then
    target = ProtocolTarget([sys.executable, str(PROG), mode, str(heartbeat), str(until)], timeout=generous(0.5))
    assert target.start() is None
    end = time.monotonic() + generous(5)
    while beats(heartbeat) < 20 and time.monotonic() < end:  # the helpers are running
        time.sleep(0.01)
    assert beats(heartbeat) >= 20, "the helpers never started"
    getattr(target, ending)()
    time.sleep(0.05)  # a beat written while the kit was stopping them
    before = beats(heartbeat)
    time.sleep(0.5)
    assert beats(heartbeat) == before, f"something still runs {0.5} s after {ending}()"
