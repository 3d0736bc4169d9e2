"""The deep campaign across machines survives its own success (issue 24): HypoFuzz, in the
environment ``turub[deep]`` installs (``.venv-deep``, made by ``.ci/run``), fuzzes the
interface properties against a deliberately broken implementation; the failure it finds is
saved in the shared example database, a plain run that reads only that database replays
it, and every fuzzing worker is still alive when the campaign is stopped.

With HypoFuzz 25.11.1 and Hypothesis 6.157 or later, each worker died with an
``AttributeError`` the moment it found a failure and saved nothing: this test fails there.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from pace import generous

ROOT = Path(__file__).resolve().parent.parent
DEEP = Path(os.environ.get("TURUB_DEEP_VENV", ROOT / ".venv-deep"))
BROKEN = "tests/broken/adapters.py:NoFollowSuit"
#: two targets, one about following suit (which the broken implementation gets wrong)
TARGETS = "test_play__holding or test_tricks__second"
WORKERS = 2


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


#: what the plain run that replays the database prints for the failure HypoFuzz found
FOUND = "FAILED properties/fuzz_targets.py::test_test_play__holding"


def _replay(env: dict[str, str]) -> subprocess.CompletedProcess:
    """A plain run of the targets that replays only the shared database."""
    return subprocess.run([str(DEEP / "bin" / "python"), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           "properties/fuzz_targets.py", "-k", TARGETS],
                          cwd=ROOT, env={**env, "HYPOTHESIS_PROFILE": "replay"},
                          capture_output=True, text=True, timeout=generous(60))


def _stop(proc: subprocess.Popen) -> None:
    for sig in (signal.SIGINT, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(5)
            return
        except subprocess.TimeoutExpired:
            continue


@pytest.mark.skipif(not (DEEP / "bin" / "hypothesis").exists(),
                    reason=f"no deep-campaign environment at {DEEP} (.ci/run makes it: "
                           "python3 -m venv .venv-deep && .venv-deep/bin/pip install -e '.[deep]')")
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="counts workers through /proc")
def test_a_hypofuzz_campaign_saves_what_it_finds_and_loses_no_worker(tmp_path):
    env = {**os.environ, "TURUB_DATABASE": str(tmp_path / "db"), "HYPOTHESIS_PROFILE": "deep",
           "TURUB_IMPL": BROKEN}
    env.pop("CI", None)
    env.pop("TURUB_PROGRAM", None)
    log = (tmp_path / "fuzz.log").open("w")
    began = time.monotonic()
    fuzz = subprocess.Popen([str(DEEP / "bin" / "hypothesis"), "fuzz", "--no-dashboard",
                             "-n", str(WORKERS), "--", "properties/fuzz_targets.py", "-k", TARGETS],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        # until the failure is in the database (a few seconds on an idle core: collect, start
        # both workers, find the broken rule), looked at every 4 s by the plain run that
        # replays it; the limit is only for a campaign that never finds it (pace.generous)
        deadline, look = time.monotonic() + generous(60), began + 4
        while time.monotonic() < deadline and fuzz.poll() is None:
            time.sleep(2)
            if "Traceback" in (tmp_path / "fuzz.log").read_text():
                break
            if time.monotonic() > look:
                if FOUND in _replay(env).stdout:
                    time.sleep(3)  # a worker that dies of its own success dies by then
                    break
                look = time.monotonic() + 4
        alive = _children(fuzz.pid) if fuzz.poll() is None else []
        log.flush()
        output = (tmp_path / "fuzz.log").read_text()  # before the stop's own noise
    finally:
        _stop(fuzz)
        log.close()
    # no worker died: no traceback, and as many workers as asked for at the end
    assert "Traceback" not in output and "AttributeError" not in output, output[-3000:]
    assert len(alive) >= WORKERS, (alive, output[-2000:])
    # the failure is in the shared database: a plain run that replays only the database fails
    replay = _replay(env)
    assert FOUND in replay.stdout, replay.stdout[-3000:]
    assert "Falsifying example" in replay.stdout
