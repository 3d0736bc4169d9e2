"""The fault catalogue: misbehaving programs, adapters and option mistakes, each with the exact
verdict the kit must give.

Every run here is checked for the same things besides its verdict: the exit status, the
outcome class of what failed, that the JSON report parses and the JUnit XML is well-formed,
that nothing the program sent reached the terminal as a raw control character, and that no
process the run started is left (found by a marker in its command line, scanning /proc).
The programs are ``tests/faults/prog.py MODE`` (started with this Python) and the adapters
``tests/faults/adapters.py``; the runs are small (15 ``trick_winner`` cases, 1 s timeout).
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import uuid
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from turub.tools.cli import main
from pace import generous

FAULTS = Path(__file__).parent / "faults"
PROG = FAULTS / "prog.py"
SMALL = ["--no-vectors", "--scale", "0.05", "--examples", "0", "--properties", "0",
         "--timeout", "1", "--max-restarts", "1", "--time-limit", "30"]
# Anything but newline and printable text: C0/C1 controls, DEL, bidi controls, surrogates.
RAW_CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def leftovers(marker: str) -> list[str]:
    """Command lines of running processes that carry ``marker``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().decode("utf-8", "replace")
        except OSError:
            continue
        if marker in cmdline:
            found.append(f"{entry}: {cmdline!r}")
    return found


class Run:
    def __init__(self, status, report, xml, text, err, elapsed):
        self.status, self.report, self.xml, self.text, self.err = status, report, xml, text, err
        self.elapsed = elapsed

    def outcomes(self) -> set[str]:
        return {c["outcome"] for c in self.report["cases"] if c["status"] == "failed"}

    def failed(self) -> list[dict]:
        return [c for c in self.report["cases"] if c["status"] == "failed"]


def check(tmp_path, capsys, program: list[str] | None, *options: str, marker: str | None = None) -> Run:
    """``turub check`` in this process, with every general expectation checked."""
    marker = marker or f"turub-fault-{uuid.uuid4().hex}"
    js, xml = tmp_path / "r.json", tmp_path / "r.xml"
    argv = ["check", *SMALL, *options, "--json", str(js), "--junit", str(xml)]
    if program is not None:
        argv += ["--", *program]
    argv = [a.replace("{marker}", marker) for a in argv]
    out = io.StringIO()
    started = time.monotonic()
    status = main(argv, out)
    elapsed = time.monotonic() - started
    err = capsys.readouterr().err
    text = out.getvalue()
    # the program's output is data: no raw control character on the terminal
    assert not RAW_CONTROL.search(text), RAW_CONTROL.findall(text)
    assert not RAW_CONTROL.search(err), RAW_CONTROL.findall(err)
    report = json.loads(js.read_text(encoding="utf-8")) if js.exists() else None
    tree = ET.parse(xml) if xml.exists() else None  # well-formed, or this raises
    # nothing the run started is left running
    assert leftovers(marker) == []
    return Run(status, report, tree, text, err, elapsed)


def prog(mode: str, *extra: str) -> list[str]:
    return [sys.executable, str(PROG), mode, "{marker}", *extra]


# mode → (exit status, the outcome classes of the failures, words in a failure's detail)
PROGRAM_FAULTS = {
    # well-behaved on the wire, whatever they do with processes: pass, and leave nothing
    "launcher": (0, set(), ""),            # exits at once; its worker answers
    "helper": (0, set(), ""),              # starts a helper that would outlive it
    "setsid-escapee": (0, set(), ""),      # a grandchild leaves the process group (setsid)
    "spawn-per-request": (0, set(), ""),   # a child process per request
    "slow": (0, set(), ""),                # 0.15 s per answer, 15 in the pipe (2.25 s), 1.2 s timeout
    # wrong on the wire: the program's fault, on the request it belongs to
    "escapes-in-errors": (1, {"error-reported"}, "\\x1b[2J"),
    "surrogates": (1, {"protocol-violation"}, "\\udfff"),
    "wrong-type": (1, {"protocol-violation"}, "malformed answer"),
    "nan": (1, {"protocol-violation"}, "not JSON"),
    "not-utf8": (1, {"protocol-violation"}, "not JSON"),
    "deep": (1, {"protocol-violation"}, "not JSON"),
    "huge": (1, {"protocol-violation"}, "longer than 1048576 bytes"),
    "duplicate": (1, {"protocol-violation"}, "answered twice"),
    "unasked-id": (1, {"protocol-violation"}, "never asked"),
    "blank-and-noise": (1, {"protocol-violation"}, "a blank line"),
    "hang": (1, {"timeout"}, "no answer within 1 s"),
    "ignore-term": (1, {"timeout"}, "no answer within 1 s"),
    "resend-then-hang": (1, {"timeout", "protocol-violation"}, "answered twice"),
    "crash-loop": (1, {"crash"}, "exit status 1"),
    "close-stdout": (1, {"crash"}, "exited"),
    # could not start: one message, exit 3, no per-case rows, no retries
    "crash-at-start": (3, set(), ""),
    "bad-hello": (3, set(), ""),
    "wrong-version": (3, set(), ""),
    "hang-at-start": (3, set(), ""),
    # nothing checked: never CONFORMS, never 0
    "nothing-supported": (4, set(), ""),
    "unsupported-everything": (4, set(), ""),
}


@pytest.mark.parametrize("mode", sorted(PROGRAM_FAULTS))
def test_each_misbehaving_program_gets_its_verdict(mode, tmp_path, capsys):
    status, outcomes, words = PROGRAM_FAULTS[mode]
    run = check(tmp_path, capsys, prog(mode), *(["--timeout", "1.2"] if mode == "slow" else []))
    assert run.status == status == run.report["exit_status"], (run.status, run.err, run.text[-800:])
    assert run.outcomes() == outcomes, [(c["id"], c.get("outcome"), c.get("detail")) for c in run.failed()]
    if words:
        assert any(words in c.get("detail", "") for c in run.failed()), [c.get("detail") for c in run.failed()]
    assert run.elapsed < generous(12)
    if status == 0:
        assert "CONFORMS" in run.text and run.report["summary"]["passed"] == 15
    if status == 3:
        # one message naming the command, no per-case rows, never retried
        assert run.report["cases"] == [] and run.report["restarts"] == 0
        assert "could not start the implementation" in run.err and str(PROG) in run.err
        assert "COULD NOT START" in run.text
    if status == 4:
        assert "NOTHING CHECKED" in run.text and "CONFORMS" not in run.text.replace("DOES NOT", "")
        assert run.report["summary"]["passed"] == 0


def test_a_crash_at_start_shows_its_last_stderr_lines_escaped(tmp_path, capsys):
    run = check(tmp_path, capsys, prog("crash-at-start"))
    assert "exit status 3" in run.err and "loading the rules" in run.err
    assert "the \\x1b[31mdeck\\x1b[0m is missing" in run.err


def test_a_duplicate_is_blamed_on_the_request_it_duplicates(tmp_path, capsys):
    run = check(tmp_path, capsys, prog("duplicate"))
    [bad] = run.failed()
    assert bad["detail"].startswith("answered twice")
    # the third request asked is the one answered twice
    asked = [c["id"] for c in run.report["cases"] if c["op"] == "trick_winner"]
    assert bad["id"] == asked[2]


def test_resent_answers_never_extend_a_timeout(tmp_path, capsys):
    run = check(tmp_path, capsys, prog("resend-then-hang"), "--max-restarts", "0")
    timeouts = [c for c in run.failed() if c["outcome"] == "timeout"]
    assert len(timeouts) == 1 and run.elapsed < generous(5)
    # what was never asked after the restart limit is "not run", not a crash
    assert {c["status"] for c in run.report["cases"] if c["op"] == "trick_winner"} >= {"not-run"}


def test_restarts_are_counted_once_each(tmp_path, capsys):
    run = check(tmp_path, capsys, prog("crash-loop"), "--max-restarts", "2")
    assert run.report["restarts"] == 2 and "restarts 2" in run.text
    crashes = [c for c in run.failed() if c["outcome"] == "crash"]
    assert len(crashes) == 3  # one per process
    not_run = [c for c in run.report["cases"] if c["status"] == "not-run"]
    assert not_run and all("restarted 2 times" in c["detail"] for c in not_run)


def test_everything_after_the_first_double_dash_goes_to_the_program(tmp_path, capsys):
    run = check(tmp_path, capsys, prog("args", "--", "-x", "--", "--timeout", "nan"))
    assert run.status == 0, run.err


def test_a_time_limit_cut_keeps_what_it_has_and_says_so(tmp_path, capsys):
    run = check(tmp_path, capsys, prog("slow"), "--time-limit", "1", "--scale", "0.2", "--timeout", "5")
    s = run.report["summary"]
    assert run.status == 4 and run.report["cut"] and "time limit cut this run" in run.text, run.text[-500:]
    # what was answered in time is kept; the rest is "not run", never a failure
    assert s["failed"] == 0 and s["not-run"] >= 1 and s["passed"] + s["not-run"] == 60
    assert ("INCOMPLETE" if s["passed"] else "NOTHING CHECKED") in run.text
    assert run.elapsed < generous(1 + 3)


# --- answers too big for memory ---------------------------------------------------------------

def test_huge_answers_are_refused_at_the_size_cap_and_bounded_in_the_report(tmp_path, capsys):
    run = check(tmp_path, capsys, prog("huge"), "--max-line", "4096")
    assert run.failed() and all("longer than 4096 bytes" in c["detail"] for c in run.failed())
    assert len((tmp_path / "r.json").read_text()) < 200_000


def test_a_run_of_megabyte_answers_stays_under_150_mb(tmp_path):
    """Every answer about 1 MiB (170,000 strings once parsed, some 10 MB of objects each): the
    kit judges each as it comes and keeps a bounded part, so its peak stays flat."""
    marker = f"turub-fault-{uuid.uuid4().hex}"
    js = tmp_path / "r.json"
    # The peak is the process's own high-water mark: VmHWM where Linux gives it, since
    # ru_maxrss survives fork and exec and would report this (large) test process's peak.
    code = ("import resource, sys; from turub.tools.cli import main; status = main(sys.argv[1:]); "
            "hwm = [int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM:')] "
            "if sys.platform == 'linux' else []; "
            "sys.stderr.write(f'PEAK {hwm[0] if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n'); "
            "sys.exit(status)")
    done = subprocess.run([sys.executable, "-c", code, "check", *SMALL, "--scale", "0.1", "--quiet",
                           "--json", str(js), "--", sys.executable, str(PROG), "megabyte", marker],
                          capture_output=True, text=True, timeout=120)
    peak_kb = int(re.search(r"PEAK (\d+)", done.stderr).group(1))
    report = json.loads(js.read_text())
    assert done.returncode == 1 and report["summary"]["failed"] == 30  # 30 answers of 1 MiB, all malformed
    assert peak_kb < 150 * 1024, peak_kb
    assert all(len(str(c.get("got", ""))) < 4200 for c in report["cases"])  # bounded, marked
    assert any("…[truncated" in str(c.get("got", "")) for c in report["cases"])
    assert leftovers(marker) == []


# --- options and files, checked before anything runs ------------------------------------------

BAD_OPTIONS = {
    "--timeout nan": (["--timeout", "nan"], "--timeout"),
    "--timeout inf": (["--timeout", "inf"], "--timeout"),
    "--timeout -1": (["--timeout", "-1"], "--timeout"),
    "--time-limit nan": (["--time-limit", "nan"], "--time-limit"),
    "--time-limit 0": (["--time-limit", "0"], "--time-limit"),
    "--scale nan": (["--scale", "nan"], "--scale"),
    "--scale inf": (["--scale", "inf"], "--scale"),
    "--scale -0.5": (["--scale", "-0.5"], "--scale"),
    "--budget nan": (["--budget", "nan"], "--budget"),
    "--max-restarts -1": (["--max-restarts", "-1"], "--max-restarts"),
    "--examples -3": (["--examples", "-3"], "--examples"),
    "--max-line 10": (["--max-line", "10"], "--max-line"),
    "--json in a missing folder": (["--json", "/nonexistent/dir/r.json"], "--json"),
    "--junit is a folder": (["--junit", "{tmp}"], "--junit"),
    "--write-xfail in a missing folder": (["--write-xfail", "/nonexistent/x.json"], "--write-xfail"),
    "--xfail missing": (["--xfail", "/nonexistent.json"], "--xfail"),
    "--xfail is a folder": (["--xfail", "{tmp}"], "--xfail"),
    "--xfail not UTF-8": (["--xfail", "{tmp}/latin1.json"], "--xfail"),
    "--xfail a list": (["--xfail", "{tmp}/list.json"], "--xfail"),
    "--xfail entries of the wrong shape": (["--xfail", "{tmp}/shapes.json"], "--xfail"),
    "--xfail a case that is a number": (["--xfail", "{tmp}/number.json"], "--xfail"),
    "--python without a colon": (["--python", "nocolon"], "--python"),
    "--python and a program": (["--python", "x:Y"], "give one of"),
}


def _bad_files(tmp: Path) -> None:
    (tmp / "latin1.json").write_bytes(b'{"format": "turub-xfail/1", "expected_failures": [], "x": "\xe9"}')
    (tmp / "list.json").write_text('[{"case": "x", "reason": "y"}]')
    (tmp / "shapes.json").write_text('{"format": "turub-xfail/1", "expected_failures": [["case", "x"]]}')
    (tmp / "number.json").write_text('{"format": "turub-xfail/1", "expected_failures": [{"case": 3, "reason": "r"}]}')


@pytest.mark.parametrize("name", sorted(BAD_OPTIONS))
def test_a_bad_option_is_one_line_and_exit_2_before_anything_runs(name, tmp_path, capsys):
    options, named = BAD_OPTIONS[name]
    _bad_files(tmp_path)
    started = tmp_path / "started"
    argv = ["check", *[o.replace("{tmp}", str(tmp_path)) for o in options], "--",
            sys.executable, str(PROG), "touch", "marker", str(started)]
    out = io.StringIO()
    status = main(argv, out)
    err = capsys.readouterr().err
    assert status == 2
    assert len(err.strip().splitlines()) == 1 and named in err and "Traceback" not in err, err
    assert not started.exists()  # the program was never started
    assert out.getvalue() == ""


def test_vectors_output_path_is_checked_first(capsys):
    status = main(["vectors", "-o", "/nonexistent/dir/cases.json"], io.StringIO())
    err = capsys.readouterr().err
    assert status == 2 and "-o/--output" in err and len(err.strip().splitlines()) == 1


# --- --python adapters, in a worker process ---------------------------------------------------------

ADAPTER_FAULTS = {
    "Good": (0, set()),
    "ReturnsASet": (1, {"protocol-violation"}),
    "ReturnsAnObject": (1, {"protocol-violation"}),
    "CallsExit": (1, {"crash"}),
    "ExitsTheProcess": (1, {"crash"}),
    "Aborts": (1, {"crash"}),
    "ExitsFromC": (1, {"crash"}),
    "RaisesKeyboardInterrupt": (1, {"crash"}),
    "Hangs": (1, {"timeout"}),
    "Prints": (0, set()),
}


@pytest.mark.parametrize("name", sorted(ADAPTER_FAULTS))
def test_each_misbehaving_adapter_gets_its_verdict(name, tmp_path, capsys):
    status, outcomes = ADAPTER_FAULTS[name]
    run = check(tmp_path, capsys, None, "--python", f"{FAULTS / 'adapters.py'}:{name}")
    assert run.status == status, (run.err, run.text[-600:])
    assert run.outcomes() == outcomes
    assert run.elapsed < generous(10)


BROKEN_ADAPTER_FILES = {
    "syntax error": ("def broken(:\n", "SyntaxError"),
    "import error": ("import no_such_module_here\n", "ModuleNotFoundError"),
    "exit at import": ("import sys\nsys.exit(0)\n", "SystemExit"),
    "no such class": ("x = 1\n", "AttributeError"),
}


@pytest.mark.parametrize("name", sorted(BROKEN_ADAPTER_FILES))
def test_an_adapter_that_cannot_load_is_one_line_and_exit_2(name, tmp_path, capsys):
    source, words = BROKEN_ADAPTER_FILES[name]
    (tmp_path / "mine.py").write_text(source)
    status = main(["check", *SMALL, "--python", f"{tmp_path / 'mine.py'}:Engine"], io.StringIO())
    err = capsys.readouterr().err
    assert status == 2 and words in err and len(err.strip().splitlines()) == 1, err


def test_a_user_module_named_turub_neither_shadows_the_kit_nor_is_shadowed(tmp_path, capsys, monkeypatch):
    (tmp_path / "turub.py").write_text(
        "from turub.conformance.adapter import ReferenceImplementation\n"  # the kit's turub
        "class Engine(ReferenceImplementation):\n"
        "    name = 'users-own-turub'\n"
        "    def supports(self):\n"
        "        return ['trick_winner']\n")
    monkeypatch.chdir(tmp_path)
    run = check(tmp_path, capsys, None, "--python", "turub:Engine")
    assert run.status == 0, run.err
    assert run.report["implementation"]["name"] == "users-own-turub"


# --- signals: the kit stops its program, writes its reports, exits with the signal's code -------------

@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_to_the_kit_stops_everything_and_still_writes_the_reports(sig, tmp_path):
    marker = f"turub-fault-{uuid.uuid4().hex}"
    js, stream = tmp_path / "r.json", tmp_path / "r.jsonl"
    kit = subprocess.Popen([sys.executable, "-c", "import sys; from turub.tools.cli import main; sys.exit(main())", "check", *SMALL, "--scale", "1", "--json", str(js),
                            "--jsonl", str(stream), "--", sys.executable, str(PROG), "slow-helper", marker],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    # wait for the program (and its helper) to be running
    def others() -> list[str]:  # the kit's own command line holds the marker too
        return [p for p in leftovers(marker) if not p.startswith(f"{kit.pid}:")]

    def answered() -> bool:  # a case judged passed, in the stream of results as they come
        try:
            lines = stream.read_text(encoding="utf-8").splitlines(keepends=True)
        except OSError:
            return False
        return any(line.endswith("\n") and '"passed"' in line for line in lines)

    deadline = time.monotonic() + generous(1.5)
    while (len(others()) < 2 or not answered()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(others()) >= 2 and answered()
    kit.send_signal(sig)
    out, err = kit.communicate(timeout=generous(1.5))
    assert kit.returncode == 128 + sig, err.decode()
    report = json.loads(js.read_text())
    assert report["interrupted"] == sig and report["verdict"] == "INTERRUPTED"
    assert report["summary"]["passed"] >= 1 and report["summary"]["not-run"] >= 1
    assert leftovers(marker) == []


def test_a_kit_failure_while_judging_is_not_run_never_a_pass_nor_a_lost_report(monkeypatch):
    """Should the judge itself fail on some answer, the run goes on, the case is 'not run'
    with the reason, and the report is written."""
    from turub.conformance.commands import case_stage
    from turub.conformance.commands.check import CheckOptions, run_check
    from turub.conformance.reports.report import finish
    from turub.conformance.programs.targets import PythonTarget, load_python
    good = load_python(f"{FAULTS / 'adapters.py'}:Good")

    def broken_judge(case, answer):
        raise RuntimeError("a bug in the judge")

    monkeypatch.setattr(case_stage, "verdict_of", broken_judge)
    report = finish(run_check(PythonTarget(good), CheckOptions(vectors=False, scale=0.05, examples=0)))
    rows = [c for c in report["cases"] if c["op"] == "trick_winner"]
    assert rows and all(c["status"] == "not-run" and "a bug in the judge" in c["detail"] for c in rows)
    assert report["exit_status"] == 4 and report["verdict"] == "NOTHING CHECKED"
