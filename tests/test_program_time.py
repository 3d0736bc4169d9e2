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

from pace import generous

TURUB = shutil.which("turub", path=str(Path(sys.executable).parent)) or "turub"
SHIM = [sys.executable, "-P", "-m", "turub.conformance.programs.shim",
        "turub.conformance.adapter:ReferenceImplementation"]

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


def _pause(pid: int, seconds: float) -> None:
    os.kill(pid, signal.SIGSTOP)
    time.sleep(seconds)
    os.kill(pid, signal.SIGCONT)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_kit_stopped_and_resumed_still_finds_a_correct_program_conforms():
    """Stopped as soon as the program starts (longer than the 2 s the handshake may take),
    and again mid-run (longer than the 1 s each answer may take): the answers waited in the
    pipe, so the verdict is the program's, CONFORMS."""
    kit = subprocess.Popen([TURUB, "check", "--no-generated", "--examples", "0", "--properties", "0",
                            "--timeout", "1", "--quiet", "--json", "-", "--", *SHIM],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        end = time.monotonic() + generous(6)
        while not _children(kit.pid) and time.monotonic() < end:
            time.sleep(0.001)
        _pause(kit.pid, 3.0)  # around the hello
        time.sleep(0.5)
        _pause(kit.pid, 2.5)  # mid-run
        out, err = kit.communicate(timeout=generous(30))
    finally:
        kit.kill()
        kit.wait()
    assert "Traceback" not in err, err
    report = json.loads(out)
    assert report["verdict"] == "CONFORMS", ([c for c in report["cases"] if c["status"] != "passed"][:3],
                                             report.get("startup_failure"), err[-2000:])
    assert kit.returncode == 0
