"""An interruption Python drops is never lost (the kit's handlers, :class:`turub.conformance.
programs.targets.KeptInterruption`).

A signal handler's exception raised while a garbage collector's callback runs (Hypothesis
installs one; so may user code) or a ``__del__`` is dropped by CPython ("Exception ignored
in ..."): before, a SIGINT landing there let ``turub check`` run on and exit 0, and the pytest
plugin's differential search ran on for its whole budget after Ctrl-C.  Each test makes the
kit's own process take the signal, or its whole-run time limit, inside such a callback
(``tests/faults/dropped_signal.py``, a variant file: user code in the kit's process) and
checks the documented outcome; the file records that the exception did come through the
callback, so the situation under test did arise.
"""
from __future__ import annotations

import gc
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pace import generous

from turub.conformance.adapter import ReferenceImplementation
from turub.conformance.programs.targets import (INTERRUPTION, Interrupted, PythonTarget, stop_when_dropped,
                                                when_dropped)

TURUB = shutil.which("turub", path=str(Path(sys.executable).parent)) or "turub"
DROPPED = Path(__file__).resolve().parent / "faults" / "dropped_signal.py"


def _check(tmp_path: Path, *options: str, variant: str = "dropped-signal",
           stage: str = "run") -> tuple[subprocess.Popen, Path]:
    marker = tmp_path / "marker"
    run = subprocess.Popen(
        [TURUB, "check", "--variant", f"{DROPPED}:{variant}", "--one-process", "--seed", "1",
         "--json", str(tmp_path / "report.json"), "--quiet", *options],
        cwd=tmp_path, env={**os.environ, "TURUB_DROPPED_SIGNAL": f"{stage}:{marker}"},
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    return run, marker


def _wait_for(marker: Path, text: str | None, run: subprocess.Popen) -> None:
    end = time.monotonic() + generous(10)
    while time.monotonic() < end and run.poll() is None:
        if marker.exists() and (text is None or marker.read_text() == text):
            return
        time.sleep(0.02)


def _ended(run: subprocess.Popen) -> tuple[int, str]:
    try:
        _, err = run.communicate(timeout=generous(6))
    except subprocess.TimeoutExpired:
        os.killpg(run.pid, signal.SIGKILL)
        run.communicate()
        pytest.fail("the run went on after its interruption was dropped")
    return run.returncode, err


@pytest.mark.parametrize("how, status", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_taken_in_a_gc_callback_still_interrupts_the_check(tmp_path, how, status):
    run, marker = _check(tmp_path)
    _wait_for(marker, "spinning", run)
    assert marker.read_text() == "spinning", "the callback never ran: nothing was tested"
    os.kill(run.pid, how)
    code, err = _ended(run)
    assert marker.read_text() == "Interrupted", "the signal did not come through the callback"
    assert code == status, (code, err[-1500:])
    assert "interrupted by" in err and "Traceback" not in err.replace("Exception ignored", "")
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["interrupted"], report.get("interrupted")


@pytest.mark.parametrize("stage", ["loading", "run"])
def test_a_time_limit_reached_in_a_gc_callback_still_stops_user_code_that_loops(tmp_path, stage):
    # the limit's exception dropped, then a house rule that loops without asking anything
    # (as the file loads, its rule is asked by the checks of user code): the alarm must come again
    run, marker = _check(tmp_path, "--time-limit", "2", variant="dropped-then-loops", stage=stage)
    code, err = _ended(run)
    assert marker.exists() and marker.read_text() not in ("", "spinning"), \
        "the limit did not come through the callback: nothing was tested"
    if stage == "loading":  # the documented usage error, naming the file
        assert code == 2 and "still loading after the whole-run time limit" in err, (code, err[-1500:])
        assert "dropped_signal.py" in err
        return
    assert code == 4, (code, err[-1500:])
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["cut"] and report["exit_status"] == 4, (report["cut"], report["verdict"])


def test_an_interruption_dropped_is_raised_at_the_next_request():
    # the record itself, in this process: kept only while the kit keeps dropped ones
    target = PythonTarget(ReferenceImplementation(), trusted=True)

    def interrupt(phase, info):
        raise Interrupted(signal.SIGINT)

    below = when_dropped(INTERRUPTION.keep)
    gc.callbacks.append(interrupt)
    try:
        gc.collect()
    finally:
        gc.callbacks.remove(interrupt)
        stop_when_dropped(below)
    try:
        with pytest.raises(Interrupted):
            target.call("deal_result", {"ns": 19, "ew": 17, "closed_early": False})
    finally:
        INTERRUPTION.clear()
    assert target.call("deal_result", {"ns": 19, "ew": 17, "closed_early": False}).kind == "result"
