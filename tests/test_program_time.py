"""Time that is the program's, and every line judged (#30, classes 3 and 4).

A deadline counts only the time the program had: stop the kit (Ctrl-Z then ``fg``, a paused
VM, a suspended laptop) while it waits for the hello or for an answer, and the answer is in
the pipe when it goes on; it used to say ``COULD NOT START`` or ``timeout``.  And no line
the program writes is dropped unread: a second answer to ``hello`` that came in the same
read as the first used to vanish (and was a protocol violation only when it came in a read
of its own); lines written after the answer to ``bye`` were never read.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from turub.conformance.programs.protocol import ProtocolTarget

from pace import generous, spinning

TURUB = shutil.which("turub", path=str(Path(sys.executable).parent)) or "turub"
SHIM = [sys.executable, "-P", "-m", "turub.conformance.programs.shim",
        "turub.conformance.adapter:ReferenceImplementation"]

SLOW = str(Path(__file__).parent / "faults" / "adapters.py") + ":Slow"
HELLO = '{"id": %d, "result": {"protocol": 1, "name": "twice", "version": "0", "operations": ["trick_winner"]}}'


def program(tmp_path: Path, body: str) -> list[str]:
    """A small program: reads the hello, then runs ``body`` (``hid``, ``send``, ``answer``)."""
    path = tmp_path / "prog.py"
    path.write_text(textwrap.dedent("""
        import json, sys, time
        out = sys.stdout
        def send(*lines):
            out.write("".join(line + "\\n" for line in lines)); out.flush()
        def answer():
            msg = json.loads(sys.stdin.readline())
            result = None if msg["op"] == "bye" else 0
            send(json.dumps({"id": msg["id"], "result": result}))
            return msg
        hid = json.loads(sys.stdin.readline())["id"]
        HELLO = %r
    """ % HELLO) + textwrap.dedent(body))
    return [sys.executable, str(path)]


def run_target(argv: list[str]) -> ProtocolTarget:
    target = ProtocolTarget(argv, timeout=generous(3))
    try:
        assert target.start() is None
        answer = target.call("trick_winner", {"cards": ["AS", "6S", "7S", "8S"], "trump": "H"})
        assert answer.kind == "result", answer
    finally:
        target.close()
    return target


@pytest.mark.parametrize("body", [
    "send(HELLO % hid, HELLO % hid)\nanswer(); answer()",  # one write, one read
    "send(HELLO % hid); time.sleep(0.2); send(HELLO % hid)\nanswer(); answer()",  # a read of its own
    "send(HELLO % hid, HELLO % hid, HELLO % hid)\nanswer(); answer()",
], ids=["same-read", "own-read", "three"])
def test_a_second_hello_is_always_judged(tmp_path, body):
    argv = program(tmp_path, body)
    seen = {run_target(argv).noise["lines"] for _ in range(5)}
    assert seen == {body.count("HELLO % hid") - 1}, seen


@pytest.mark.parametrize("pause", ["", "time.sleep(0.3)"], ids=["same-read", "later"])
def test_a_line_after_the_answer_to_bye_is_judged(tmp_path, pause):
    argv = program(tmp_path, f"""
        send(HELLO % hid)
        answer(); answer()
        {pause}
        send('{{"id": 1, "result": "CONFORMS"}}')
    """)
    target = run_target(argv)
    assert target.noise["lines"] == 1, target.noise


def _children(pid: int) -> list[int]:
    found = []
    for tid in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{tid}/children") as f:
            found += [int(x) for x in f.read().split()]
    return found


def _awaiting_the_hello(kit: subprocess.Popen, until: float) -> None:
    """Return once the kit has started its program and waits for an answer (its main thread
    asleep), or at ``until``: stopped then, the kit is past the start of the handshake's
    clock, which a stop between the program's start and that clock would not test."""
    while time.monotonic() < until and kit.poll() is None:
        try:
            with open(f"/proc/{kit.pid}/stat", "rb") as f:
                asleep = f.read().rsplit(b")", 1)[1].split()[0] == b"S"
            if asleep and _children(kit.pid):
                return
        except OSError:
            return
        time.sleep(0.001)


def _pause(pid: int, seconds: float) -> None:
    os.kill(pid, signal.SIGSTOP)
    time.sleep(seconds)
    os.kill(pid, signal.SIGCONT)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_kit_stopped_and_resumed_still_finds_a_correct_program_conforms():
    """Stopped as soon as the kit waits for the hello (longer than the 2 s the handshake may take),
    and again mid-run, a tenth of a second after it goes on (the run asks its questions for
    about a third of a second; stopped longer than the 1 s each answer may take): the answers
    waited in the pipe, so the verdict is the program's, CONFORMS."""
    kit = subprocess.Popen([TURUB, "check", "--no-generated", "--examples", "0", "--properties", "0",
                            "--timeout", "1", "--quiet", "--json", "-", "--", *SHIM],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        _awaiting_the_hello(kit, time.monotonic() + generous(6))
        _pause(kit.pid, 2.5)  # around the hello
        time.sleep(0.1)
        _pause(kit.pid, 1.5)  # mid-run
        out, err = kit.communicate(timeout=generous(30))
    finally:
        kit.kill()
        kit.wait()
    assert "Traceback" not in err, err
    report = json.loads(out)
    assert report["verdict"] == "CONFORMS", ([c for c in report["cases"] if c["status"] != "passed"][:3],
                                             report.get("startup_failure"), err[-2000:])
    assert kit.returncode == 0


def _family(pid: int) -> list[int]:
    """``pid`` and every process below it (the kit is a child subreaper: all it started)."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        try:
            todo += _children(p)
        except OSError:
            continue
    return found


def _pause_all(pid: int, seconds: float) -> None:
    """Stop the kit and everything it started (a paused VM, a suspended laptop, a `kill -STOP`
    of the whole job), then let all go on: the program had none of that time either."""
    family = _family(pid)
    for p in family:
        try:
            os.kill(p, signal.SIGSTOP)
        except ProcessLookupError:
            pass
    time.sleep(seconds)
    for n, p in enumerate(family):  # the kit first: its deadlines, not the program, see the gap
        if n == 1:
            time.sleep(0.1)
        try:
            os.kill(p, signal.SIGCONT)
        except ProcessLookupError:
            pass


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("pause", [_pause, _pause_all], ids=["the-kit", "the-kit-and-its-program"])
def test_a_run_stopped_and_resumed_at_each_stage_is_never_a_false_timeout(pause):
    """A correct adapter that takes a quarter of a second on each answer (so that the kit,
    stopped at any moment, is almost surely waiting for one), in the cases and the property
    suites: stopped as it waits for the hello,
    then every 0.7 s of the run (six times) for longer than a request may take (a quarter more
    than its 1 s timeout); a correct program still conforms, nothing timed out, the program
    started once."""
    kit = subprocess.Popen([TURUB, "check", "--python", SLOW, "--no-generated", "--examples", "0", "--properties", "2",
                            "-k", "worked or test_second_ace_never_beats_the_first",
                            "--timeout", "1", "--quiet", "--json", "-"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + generous(6)
        _awaiting_the_hello(kit, end)
        pauses = 0
        while kit.poll() is None and time.monotonic() < end and pauses < 6:
            pause(kit.pid, 1.25)
            pauses += 1
            time.sleep(0.7)
        out, err = kit.communicate(timeout=generous(30))
    finally:
        kit.kill()
        kit.wait()
    assert pauses >= 2, pauses
    assert "Traceback" not in err, err
    report = json.loads(out)
    assert report["verdict"] == "CONFORMS" and kit.returncode == 0, (
        [c for c in report["cases"] if c["status"] != "passed"][:3], report.get("startup_failure"), err[-2000:])
    assert report["restarts"] == 0 and "timeout" not in json.dumps(report["summary"]), report["summary"]


BUSY_LOOPS = 11  # beside them, on the same CPU, the program gets about a twelfth of it


@pytest.mark.skipif(not os.path.exists("/proc/self/schedstat") or not hasattr(os, "sched_setaffinity"),
                    reason="no scheduler statistics to tell the program's time from the machine's (Linux only)")
def test_time_the_machine_keeps_the_program_waiting_is_not_a_timeout(tmp_path):
    """A request's deadline counts the time the program had (``run_clock``): pinned to one CPU
    beside busy loops, a program that needs a tenth of its timeout in CPU for each answer
    takes longer than the timeout by the wall clock, and is still no timeout."""
    cpu = min(os.sched_getaffinity(0))
    argv = program(tmp_path, f"""
        import os
        os.sched_setaffinity(0, {{{cpu}}})
        send(HELLO % hid)
        while True:
            began = time.process_time()
            while time.process_time() - began < 0.1:  # a tenth of a second of the CPU an answer
                pass
            if answer()["op"] == "bye":
                break
    """)

    # each loop in a session of its own, as the program is (the scheduler shares a CPU
    # between sessions' groups first): other jobs on the machine
    loops = spinning(BUSY_LOOPS, {cpu}, new_session=True)
    target = ProtocolTarget(argv, timeout=1.0, start_timeout=generous(6))
    try:
        assert target.start() is None
        took = []
        for _ in range(3):
            began = time.monotonic()
            answer = target.call("trick_winner", {"cards": ["AS", "6S", "7S", "8S"], "trump": "H"})
            took.append(time.monotonic() - began)
            assert answer.kind == "result", (answer, took)
    finally:
        target.close()
        for loop in loops:
            loop.kill()
            loop.wait()
    assert max(took) > 1.0, f"the busy loops did not hold the program past its timeout: nothing was tested {took}"
