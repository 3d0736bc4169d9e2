"""The property suites' second process (turub.conformance.programs.lane): the same report as one
process, whatever becomes of the second one (it dies at once, dies half-way, hangs), no
result lost and none invented, and no process left behind (interrupted, or its parent
killed).

A lane is forked only from a process with one thread, and pytest-xdist's workers have
more, so each run here is a fresh interpreter (``_run``)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from turub.conformance.programs.lane import Lane, why_not_fork
from pace import generous

ROOT = Path(__file__).resolve().parents[1]
needs_fork = pytest.mark.skipif(why_not_fork() not in (None, "the kit's process has other threads"),
                                reason=f"no second process here: {why_not_fork()}")

# A script: run the property suites (only) against tests/broken/independent.py, with and
# without the second process (or with it only); ``FAULT`` is what the implementation does in
# a process other than the one that made it (the second process): nothing, exit at once, exit
# after some calls, hang.  It prints each report's cases and where the suites ran.
SCRIPT = textwrap.dedent("""
    import importlib.util, json, os, sys, time
    from turub.conformance.commands import check as kit
    from turub.conformance.commands.check import CheckOptions, run_check
    from turub.conformance.programs.targets import PythonTarget

    spec = importlib.util.spec_from_file_location("independent", sys.argv[1])
    I = importlib.util.module_from_spec(spec); spec.loader.exec_module(I)
    bug, fault, after = (None if sys.argv[2] == "-" else sys.argv[2]), sys.argv[3], int(sys.argv[4])
    kit.LANE_GRACE = 0.2
    home = os.getpid()

    class Faulty(I.Independent):
        calls = 0
        def __getattribute__(self, name):
            attr = object.__getattribute__(self, name)
            if name in I.Independent.__dict__ and callable(attr) and os.getpid() != home:
                Faulty.calls += 1
                if Faulty.calls > after:
                    if fault == "exit":
                        os._exit(3)
                    if fault == "hang":
                        time.sleep(600)
            return attr

    out = {}
    for second in (True, False)[:int(sys.argv[7])]:
        options = CheckOptions(vectors=False, seed=None, examples=0, properties=int(sys.argv[5]),
                               properties_budget=float(sys.argv[6]), second_process=second)
        began = time.monotonic()
        report = run_check(PythonTarget(Faulty(bug)), options)
        out[str(second)] = {"where": report["kit"].get("property_suites"),
                            "seconds": time.monotonic() - began,
                            "cases": [{k: v for k, v in c.items() if k != "time"} for c in report["cases"]]}
    print(json.dumps(out))
""")


#: Examples a property: enough for each bug here to be caught by the suites, and for a second
#: process to answer far more than 150 calls before it dies (the claims are about where the
#: suites ran and that both reports agree, not about how hard they search).
EXAMPLES = 10


def _run(bug=None, fault="none", after=0, examples=EXAMPLES, budget=generous(30.0), timeout=generous(120),
         both=True):
    """The script's output: the run with the second process ("True") and, when ``both``, the
    run in one process ("False")."""
    done = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT / "tests" / "broken" / "independent.py"),
                           bug or "-", fault, str(after), str(examples), str(budget), str(1 + both)],
                          capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


@needs_fork
@pytest.mark.parametrize("bug", [None, "draw-to-dealer", "must-trump", "win-partner-deals"])
def test_the_second_process_gives_the_report_of_one(bug):
    out = _run(bug)
    lane, one = out["True"], out["False"]
    assert lane["where"] == "a second process"
    assert one["where"] is None
    assert len(lane["cases"]) == 27
    assert lane["cases"] == one["cases"]
    if bug is not None:  # a bug the property suites catch is caught the same way
        assert any(c["status"] == "failed" for c in lane["cases"]), bug


@needs_fork
@pytest.mark.parametrize("after", [0, 150])
def test_what_a_second_process_that_dies_did_not_finish_runs_here(after):
    out = _run("draw-to-dealer", fault="exit", after=after)
    lane, one = out["True"], out["False"]
    assert lane["where"] == "a second process, which exited with status 3, then this process"
    assert lane["cases"] == one["cases"]
    assert {c["status"] for c in lane["cases"]} >= {"passed", "failed"}


@needs_fork
def test_a_hung_second_process_is_stopped_and_nothing_it_did_not_finish_passes():
    # the budget leaves a loaded machine time to finish the first suite before the hang (40
    # calls: on a quiet one a few hundredths of a second after the fork, and the budget is
    # counted on the run's clock, which leaves out what the machine kept it waiting); the hang
    # then uses up the rest of it.  Only the run with the second process is looked at.
    out = _run(fault="hang", after=40, examples=10, budget=generous(0.1), both=False)
    lane = out["True"]
    assert lane["where"] == "a second process, which ran out of time, then this process"
    assert lane["seconds"] < generous(10)
    rows = lane["cases"]
    assert len(rows) == 27
    finished = [c for c in rows if c["status"] == "passed"]
    not_run = [c for c in rows if c["detail"].startswith("not run: the property suites' time budget")]
    assert finished and not_run  # some finished before the hang; the rest are not passes
    assert len(finished) + len(not_run) == 27


def _children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as f:
                    stat = f.read()
            except OSError:
                continue
            if int(stat[stat.rindex(b")") + 2:].split()[1]) == pid:
                found.append(int(entry))
    return found


def _gone(pid: int, within: float = 3.0) -> bool:
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            return True
        if stat[stat.rindex(b")") + 2:].split()[0] == b"Z":
            return True  # dead, waiting for whoever adopted it
        time.sleep(0.02)
    return False


@needs_fork
def test_the_command_line_checks_the_reference_in_two_processes_with_the_same_report(tmp_path):
    def check(*extra):
        report, lines = tmp_path / "r.json", tmp_path / "r.jsonl"
        done = subprocess.run([sys.executable, "-m", "turub.tools.cli", "check", "--quiet", "--quick",
                               "--json", str(report), "--jsonl", str(lines), *extra],
                              capture_output=True, text=True, timeout=generous(60))
        assert done.returncode == 0, done.stderr[-2000:]
        streamed = [json.loads(x) for x in lines.read_text().splitlines()]
        return json.loads(report.read_text()), [x for x in streamed if x.get("type") == "case"]

    def untimed(rows):
        return [{k: v for k, v in c.items() if k not in ("time", "type")} for c in rows]
    (lane, lane_lines), (one, one_lines) = check(), check("--one-process")
    assert lane["kit"]["property_suites"] == "a second process"
    assert "property_suites" not in one["kit"]
    assert untimed(lane["cases"]) == untimed(one["cases"])
    assert lane["verdict"] == one["verdict"]
    # the lines of --jsonl come in the same order, the property suites' after the rest
    assert untimed(lane_lines) == untimed(one_lines)
    assert [c["kind"] for c in lane_lines][-27:] == ["property"] * 27


@needs_fork
@pytest.mark.parametrize("whole_group", [False, True], ids=["the-kit", "its-process-group"])
def test_an_interrupted_check_leaves_no_second_process(whole_group):
    # SIGINT to the kit alone, or to its whole process group as a terminal's Ctrl-C sends it
    kit = subprocess.Popen([sys.executable, "-m", "turub.tools.cli", "check", "--quiet"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)
    try:
        lanes: list[int] = []
        end = time.monotonic() + generous(5)
        while not lanes and time.monotonic() < end and kit.poll() is None:
            lanes = _children(kit.pid)
            time.sleep(0.01)
        assert lanes, "the check never forked its second process"
        if whole_group:
            os.killpg(kit.pid, signal.SIGINT)
        else:
            kit.send_signal(signal.SIGINT)
        assert kit.wait(generous(10)) == 128 + signal.SIGINT, kit.stderr.read()[-2000:]
        assert all(_gone(pid) for pid in lanes)
    finally:
        kit.kill()
        kit.wait()


@needs_fork
def test_a_second_process_dies_with_its_parent():
    # a parent forks a lane that would sleep for a minute, says its pid, then is killed
    parent = subprocess.Popen([sys.executable, "-c", textwrap.dedent("""
        import sys, time
        from turub.conformance.programs.lane import Lane
        lane = Lane.fork(lambda emit: time.sleep(60))
        print(lane.pid, flush=True)
        time.sleep(60)
    """)], stdout=subprocess.PIPE, text=True)
    try:
        pid = int(parent.stdout.readline())
        parent.kill()
        parent.wait()
        assert _gone(pid)
    finally:
        parent.kill()


# --- the lane itself, in this process: forked only without other threads ---------------------

def test_no_second_process_is_forked_beside_other_threads():
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        assert isinstance(Lane.fork(lambda emit: None), str)  # why not, never a lane
        assert why_not_fork() is not None
    finally:
        stop.set()
        t.join()


@needs_fork
def test_collect_keeps_the_whole_lines_and_says_why_the_rest_is_missing():
    # work that ends normally, raises after two results, emits what JSON cannot hold, hangs
    script = textwrap.dedent("""
        import json, sys, time
        from turub.conformance.programs.lane import Lane
        limit = float(sys.argv[1])
        def fine(emit):
            emit({"id": "a"}); emit({"id": "b"})
        def raises(emit):
            emit({"id": "a"}); emit({"id": "b"}); raise RuntimeError("boom")
        def unencodable(emit):
            emit({"id": "a"}); emit({"id": object()})
        def hangs(emit):
            emit({"id": "a"}); time.sleep(3600)
        out = {}
        for work in (fine, raises, unencodable, hangs):
            lane = Lane.fork(work)
            began = time.monotonic()
            results, why = lane.collect(until=time.monotonic() + limit)
            out[work.__name__] = [[r["id"] for r in results], why, round(time.monotonic() - began, 1)]
        print(json.dumps(out))
    """)
    # the limit leaves a loaded machine time to fork and emit (a few milliseconds on a quiet
    # one); the hang outlasts it by far, and waits it out
    limit = generous(0.1)
    done = subprocess.run([sys.executable, "-c", script, str(limit)], capture_output=True, text=True,
                          timeout=generous(60))
    assert done.returncode == 0, done.stderr[-2000:]
    out = json.loads(done.stdout)
    assert out["fine"][:2] == [["a", "b"], None]
    assert out["raises"][:2] == [["a", "b"], "exited with status 70"]
    assert out["unencodable"][:2] == [["a"], "exited with status 70"]
    assert out["hangs"][:2] == [["a"], "ran out of time"] and out["hangs"][2] < generous(1.0)
