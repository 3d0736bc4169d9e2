"""The verdict is true on the kit's worst day (issue 19: classes 1, 3, 4, 6, 8).

Each test puts the kit in one hostile condition and checks the documented exit status
(:data:`turub.conformance.reports.report.EXIT_STATUSES`, the implementers' guide's table),
one line and no traceback, and reports that are strict JSON or clearly absent.
"""

from __future__ import annotations

import fcntl
import importlib
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

TURUB = shutil.which("turub", path=str(Path(sys.executable).parent)) or "turub"
#: The cheapest run that still judges something: the committed vectors only.
QUICK = ["--no-generated", "--examples", "0", "--properties", "0", "--quiet"]


def turub(*argv: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 120):
    return subprocess.run([TURUB, *argv], cwd=cwd, capture_output=True, text=True, errors="replace", timeout=timeout,
                          env={**os.environ, **(env or {})})


def one_line(stderr: str) -> str:
    """The one message a refused run prints: no traceback."""
    assert "Traceback" not in stderr, stderr
    lines = [x for x in stderr.splitlines() if x.strip()]
    assert lines, "no message at all"
    return lines[-1]


def strict(text: str):
    """JSON as RFC 8259 has it: NaN and Infinity refused."""
    def refuse(name):
        raise ValueError(f"not strict JSON: {name}")
    return json.loads(text, parse_constant=refuse)


# --- 1. the exit status is the verdict, nothing else ------------------------------------

def test_a_closed_stdout_is_never_a_pass():
    """`turub check --json - | head -c 100` under pipefail: SIGPIPE's status, never 0."""
    p = subprocess.Popen([TURUB, "check", "--json", "-", *QUICK], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    assert p.stdout is not None
    p.stdout.read(100)
    p.stdout.close()  # the reader went away
    _, err = p.communicate(timeout=120)
    assert p.returncode == 141, err
    assert b"Traceback" not in err


def test_property_suites_cut_by_their_budget_are_not_run_and_the_run_incomplete():
    """A check cut by a time budget is `not-run`, and the run is INCOMPLETE (4), never CONFORMS."""
    from turub.conformance.commands.check import CheckOptions, reference_target, run_check
    from turub.conformance.reports.report import finish
    report = finish(run_check(reference_target(), CheckOptions(vectors=False, scale=0.02, examples=0,
                                                               properties=5, properties_budget=0.0)))
    rows = [c for c in report["cases"] if c["kind"] == "property"]
    assert rows and all(c["status"] == "not-run" for c in rows)
    assert report["exit_status"] == 4 and report["verdict"] == "INCOMPLETE"


def test_user_code_that_exits_while_a_case_is_judged_makes_it_not_run(monkeypatch):
    """SystemExit(0) raised by user code while an answer is judged (a variant's rule) is no
    exit and no pass: the case is `not-run` with the reason, the run goes on, exit 4."""
    from turub.conformance.commands import check
    from turub.conformance.commands.check import CheckOptions, reference_target, run_check
    from turub.conformance.reports.report import finish
    try:
        judging = importlib.import_module("turub.conformance.commands.case_stage")
    except ImportError:
        judging = check

    def exits(case, answer):
        raise SystemExit(0)

    monkeypatch.setattr(judging, "verdict_of", exits)
    report = finish(run_check(reference_target(), CheckOptions(vectors=False, scale=0.02, examples=0)))
    assert report["cases"] and all(c["status"] == "not-run" and "SystemExit" in c["detail"]
                                   for c in report["cases"])
    assert report["exit_status"] == 4


# --- 3. reports are never lost and never corrupt ------------------------------------------

def test_a_report_that_cannot_be_written_has_its_own_status_and_one_line():
    r = turub("check", "--json", "/dev/full", *QUICK)
    assert r.returncode == 5
    assert "/dev/full" in one_line(r.stderr)


def test_a_failed_write_keeps_the_old_report(tmp_path, monkeypatch):
    """The report is written beside its file and renamed: a write that fails half way
    leaves the old file whole."""
    from turub.tools.cli import main
    from turub.conformance.reports import report as report_module
    old = tmp_path / "r.json"
    old.write_text('{"old": true}\n')

    def half_then_full(report, out):
        out.write('{"half": ')
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(report_module, "write_json", half_then_full)
    status = main(["check", "--json", str(old), *QUICK])
    assert status == 5
    assert json.loads(old.read_text()) == {"old": True}


@pytest.mark.parametrize("make", ["dangling", "folder", "twice", "long", "twice-by-link"])
def test_output_paths_are_checked_before_the_run(tmp_path, make):
    a = tmp_path / "a.json"
    if make == "dangling":
        a.symlink_to(tmp_path / "missing" / "x.json")
        argv = ["--json", str(a)]
    elif make == "folder":
        a.mkdir()
        argv = ["--json", str(a)]
    elif make == "twice":
        argv = ["--json", str(a), "--junit", str(tmp_path / "." / "a.json")]
    elif make == "twice-by-link":
        a.write_text("")
        (tmp_path / "b.xml").symlink_to(a)
        argv = ["--json", str(a), "--junit", str(tmp_path / "b.xml")]
    else:
        argv = ["--json", str(tmp_path / ("x" * 300 + ".json"))]
    began = time.monotonic()
    r = turub("check", *argv, "--quiet")
    assert r.returncode == 2, r.stderr
    assert one_line(r.stderr).startswith("turub check: error: --")
    assert time.monotonic() - began < generous(30)  # refused before the run, not after it


def test_a_value_json_cannot_hold_is_recorded_as_text():
    """An answer of 1e999 (read as infinity) is written as text: strict JSON only."""
    import io

    from turub.conformance.reports.report import as_json, write_json
    report = {"format": "turub-report/1", "cases": [{"id": "x", "got": float("inf"),
                                                     "expected": [float("nan")]}]}
    out = io.StringIO()
    write_json(report, out)
    assert strict(out.getvalue())["cases"][0]["got"] == "inf"
    assert strict(as_json({"v": float("-inf")}))["v"] == "-inf"


def test_two_runs_never_write_one_jsonl(tmp_path):
    """While one run writes a --jsonl file, a second run naming it is refused (exit 2) and
    leaves it alone."""
    path = tmp_path / "run.jsonl"
    path.write_text('{"type": "start"}\n')
    with open(path, "a") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        r = turub("check", "--jsonl", str(path), *QUICK)
    assert r.returncode == 2 and "another run" in one_line(r.stderr)
    assert path.read_text() == '{"type": "start"}\n'


# --- 4. user code is untrusted too ---------------------------------------------------------

VARIANT = """
from dataclasses import replace
from turub.variants import BUILTIN
club = replace(BUILTIN["counterclockwise"], name="{name}")
"""


def test_what_a_variant_writes_at_import_underneath_python_never_reaches_the_json_on_stdout(tmp_path):
    # A write to the descriptor itself, which no check of the file sees: the report stays clean.
    (tmp_path / "club.py").write_text("import os; os.write(1, b'hello from the club\\n')\n"
                                      + VARIANT.format(name="club"))
    r = turub("check", "--variant", "club.py", "--json", "-", *QUICK, cwd=tmp_path)
    assert r.returncode in (0, 1, 4), r.stderr
    assert strict(r.stdout)["variant"]["name"] == "club"
    assert "hello from the club" in r.stderr


def test_a_variant_that_prints_at_import_is_refused_in_one_line(tmp_path):
    # Its words would mix with the report on standard output: refused as it loads, as in every
    # command (docs/guides/house-rules.md), nothing on standard output.
    (tmp_path / "club.py").write_text("print('hello from the club')\n" + VARIANT.format(name="club"))
    r = turub("check", "--variant", "club.py", "--json", "-", *QUICK, cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == "", (r.stdout[-300:], r.stderr[-300:])
    line = one_line(r.stderr)
    assert "club.py" in line and "printed 'hello from the club'" in line


@pytest.mark.parametrize("body, says", [
    ("import sys\nsys.exit(0)\n", "SystemExit"),
    ("raise KeyboardInterrupt\n", "KeyboardInterrupt"),
    ("def f(): f()\nf()\n", "RecursionError"),
])
def test_a_variant_file_that_exits_or_raises_at_import_is_one_line_exit_2(tmp_path, body, says):
    (tmp_path / "bad.py").write_text(body)
    r = turub("check", "--variant", "bad.py", *QUICK, cwd=tmp_path)
    assert r.returncode == 2
    line = one_line(r.stderr)
    assert "bad.py" in line and says in line


def test_the_time_limit_covers_loading_a_variant(tmp_path):
    (tmp_path / "loops.py").write_text("while True:\n    pass\n")
    began = time.monotonic()
    # (the limit counts from when the file begins to load: the loop waits it out)
    r = turub("check", "--variant", "loops.py", "--time-limit", "0.5", *QUICK, cwd=tmp_path, timeout=60)
    assert time.monotonic() - began < generous(30)
    assert r.returncode == 2 and "loops.py" in one_line(r.stderr)


def test_a_variant_file_may_not_take_a_built_in_name(tmp_path):
    (tmp_path / "std.py").write_text(VARIANT.format(name="standard"))
    r = turub("check", "--variant", "std.py:standard", *QUICK, cwd=tmp_path)
    assert r.returncode == 2 and "built-in" in one_line(r.stderr)


# --- 6. untrusted text is escaped, any encoding works ------------------------------------

def test_turub_report_of_someone_elses_report_escapes_it(tmp_path):
    evil = "\x1b[2J\x1b]0;pwned\x07\u202e"
    report = {"format": "turub-report/1", "verdict": "CONFORMS" + evil, "summary": {},
              "kit": {"version": "1" + evil}, "rules": {"direction": "clockwise" + evil},
              "implementation": {"name": "x" + evil, "version": "1"},
              "clauses": {"play.follow-suit" + evil: {"status": "passed" + evil}}}
    path = tmp_path / ("r" + "\x1b[31m" + ".json")
    path.write_text(json.dumps(report))
    r = turub("report", str(path))
    assert r.returncode == 0, r.stderr
    for bad in ("\x1b", "\x07", "\u202e"):
        assert bad not in r.stdout and bad not in r.stderr


@pytest.mark.parametrize("env", [{"PYTHONIOENCODING": "cp1252"}, {"PYTHONIOENCODING": "ascii", "LANG": "C",
                                                                   "LC_ALL": "C"}])
@pytest.mark.parametrize("argv", [["play", "--seed", "1"], ["explain", "--trump", "H", "AC", "AC", "6H", "KC"],
                                  ["clause", "play.follow-suit"]])
def test_every_command_works_under_a_narrow_encoding(env, argv):
    r = turub(*argv, env=env)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    if argv[0] == "explain":
        assert "AC" in r.stdout  # the ASCII card notation


# --- 8. arguments of any size ---------------------------------------------------------------

@pytest.mark.parametrize("argv", [
    ["-k", "(" * 5000 + "play" + ")" * 5000, "--list"],
    ["-k", "not " * 20000 + "play", "--list"],
    ["--xfail", "x" * 300 + ".json"],
    ["--diff", "x" * 300, "y"],
    ["--variant", "x" * 300 + ".py"],
])
def test_arguments_of_any_size_are_usage_errors(argv):
    r = turub("check", *argv, *QUICK)
    assert r.returncode == 2
    assert one_line(r.stderr).startswith("turub check: error:")
    assert len(one_line(r.stderr)) < 1000


def test_user_code_that_loops_during_the_run_is_stopped_by_the_time_limit(tmp_path, monkeypatch):
    """A rule that never returns (here: judging itself loops) cannot outlast --time-limit:
    the run stops, the report is written with what was judged, and it is INCOMPLETE (4)."""
    from turub.tools.cli import main
    from turub.conformance.commands import check
    try:
        judging = importlib.import_module("turub.conformance.commands.case_stage")
    except ImportError:
        judging = check
    real = judging.verdict_of
    calls = [0]

    def loops_after_a_while(case, answer):
        calls[0] += 1
        if calls[0] > 50:
            while True:
                time.sleep(0.01)
        return real(case, answer)

    monkeypatch.setattr(judging, "verdict_of", loops_after_a_while)
    began = time.monotonic()
    report = tmp_path / "r.json"
    # (the limit leaves a loaded machine time to judge the first 50 cases, a twentieth of a
    # second on a quiet one; the loop then waits it out)
    status = main(["check", "--time-limit", "1", "--json", str(report), *QUICK])
    assert time.monotonic() - began < generous(20)
    assert status == 4
    data = strict(report.read_text())
    assert data["verdict"] == "INCOMPLETE" and data["cut"] is True
    assert data["summary"]["passed"] >= 50 and data["summary"]["not-run"] >= 1


def test_check_diff_of_someone_elses_reports_escapes_them(tmp_path):
    evil = "x\x1b[2J\u202e"
    old = {"format": "turub-report/1", "cases": [{"id": evil, "status": "passed"}], "clauses": {}}
    new = {"format": "turub-report/1", "cases": [{"id": evil, "status": "failed", "outcome": "crash"}],
           "clauses": {}}
    (tmp_path / "a.json").write_text(json.dumps(old))
    (tmp_path / "b.json").write_text(json.dumps(new))
    r = turub("check", "--diff", str(tmp_path / "a.json"), str(tmp_path / "b.json"))
    assert r.returncode == 1, r.stderr
    assert "\x1b" not in r.stdout and "\u202e" not in r.stdout and "\\x1b" in r.stdout
