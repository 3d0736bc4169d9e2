"""The pytest plugin (turub.conformance.commands.plugin): the kit's cases as pytest items, in a
folder with no test files, run the way an implementer's own CI would run them."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from turub.properties.tags import verifies

from pace import generous
from plugin_runs import BROKEN, CASES, LIGHT, REFERENCE, counts, pytest_in


@verifies("trick.earliest-identical", "play.follow-suit", "contest.second-win-beats-mark")
def test_a_correct_implementation_passes_every_item(tmp_path):
    done = pytest_in(tmp_path, "-q", "--turub-python", REFERENCE, *LIGHT, "--junitxml", "run.xml")
    assert done.returncode == 0, done.stdout[-2000:]
    n = counts(done.stdout)
    assert n["passed"] > 300 and "failed" not in n, n
    # the committed vectors, the generated cases, differential play and the properties: each
    # among the items the run passed (its JUnit report names them; no second run to list them)
    ran = [f"{c.get('classname')}::{c.get('name')}" for c in ET.parse(tmp_path / "run.xml").iter("testcase")
           if not any(c.find(end) is not None for end in ("failure", "error", "skipped"))]
    for item in ("turub::trick_winner/worked-duplicate-aces", "turub::legal_plays/generated-1-r000",
                 "turub::differential/deal", "turub::property/test_tricks."):
        assert any(name == item or name.startswith(item) and item.endswith(".") for name in ran), (item, ran[:5])
    # a deep run splits differential play into searches, one seed each, for -n to spread
    split = pytest_in(tmp_path, "-q", "--collect-only", "--turub-python", REFERENCE, *LIGHT,
                      "--turub-searches", "3", "--turub-seed", "7").stdout
    assert [f"turub::differential/{what}/seed-{s}" in split
            for what in ("deal", "sitting") for s in (7, 8, 9)] == [True] * 6


@verifies("play.follow-suit")
def test_a_broken_program_fails_under_xdist_naming_its_clause(tmp_path):
    program = f"{sys.executable} {BROKEN} no-follow-suit"
    done = pytest_in(tmp_path, "-q", "-n", "2", "--turub-program", program, *LIGHT)
    assert done.returncode == 1, done.stdout[-2000:]
    failed = re.findall(r"^FAILED (\S+) - (.*)$", done.stdout, flags=re.M)
    assert failed and all("play.follow-suit" in why for _, why in failed), failed[:5]
    assert "breaks play.follow-suit (" in done.stdout and "outcome: illegal-action-accepted" in done.stdout
    assert counts(done.stdout)["passed"] > 200  # only the cases about following suit fail


@pytest.fixture(scope="module")
def follow_suit_items(tmp_path_factory):
    """One run of the items about following suit against a program that never follows suit,
    with its JUnit report: what ``-k`` chose (the test below) and how the report names each
    failing case (the test after it), read from the same run."""
    folder = tmp_path_factory.mktemp("follow-suit")
    program = f"{sys.executable} {BROKEN} no-follow-suit"
    done = pytest_in(folder, "-q", "-k", "play.follow-suit", "--junitxml", "report.xml",
                     "--turub-program", program, *CASES)
    return done, folder / "report.xml"


@verifies("play.follow-suit")
def test_k_selects_by_clause_and_x_stops_at_the_first_failure(tmp_path, follow_suit_items):
    program = f"{sys.executable} {BROKEN} no-follow-suit"
    chosen = follow_suit_items[0]
    n = counts(chosen.stdout)
    # -k ran some of the items, and fewer than it left out (its own last line counts both)
    assert 0 < n["passed"] + n["failed"] < n["deselected"], n
    stopped = pytest_in(tmp_path, "-q", "-x", "--turub-program", program, *CASES)
    assert stopped.returncode == 1 and counts(stopped.stdout)["failed"] == 1


def test_the_junit_report_names_each_case_and_its_clauses(follow_suit_items):
    cases = ET.parse(follow_suit_items[1]).getroot().iter("testcase")
    failing = [c for c in cases if c.find("failure") is not None]
    assert failing and any(c.get("name").startswith("legal_plays/") for c in failing)
    props = {p.get("name"): p.get("value") for p in failing[0].iter("property")}
    assert "play.follow-suit" in props["failing_clauses"] and props["outcome"]
    assert "breaks play.follow-suit" in failing[0].find("failure").text


def test_usage_errors_name_the_option(tmp_path):
    both = pytest_in(tmp_path, "--turub-sample", "--turub-python", REFERENCE)
    assert both.returncode == 4 and "give one of --turub-program" in both.stderr
    bad = pytest_in(tmp_path, "--turub-python", REFERENCE, "--turub-rules", "direction=sideways")
    assert bad.returncode == 4 and "--turub-rules direction=sideways" in bad.stderr


def test_without_its_options_the_plugin_adds_nothing(tmp_path):
    (tmp_path / "test_one.py").write_text("def test_one():\n    pass\n", encoding="utf-8")
    done = pytest_in(tmp_path, "-q")
    assert done.returncode == 0 and counts(done.stdout) == {"passed": 1}


def test_a_program_that_cannot_start_is_one_failure_and_nothing_passes(tmp_path):
    # Nothing passes against a program that dies before its handshake: the first item says
    # why, once, in one clear line; the cases, the differential searches and the properties
    # after it are not run (skipped), not a wall of identical failures.
    program = f"{sys.executable} -c 'import sys; sys.exit(7)'"
    done = pytest_in(tmp_path, "-q", "--turub-program", program, *LIGHT,
                     "-k", "worked-duplicate-aces or differential or property/test_tricks")
    assert done.returncode == 1, done.stdout[-2000:]
    n = counts(done.stdout)
    assert "passed" not in n and n["failed"] == 1 and n["skipped"] >= 2, n
    # Counted in the report's failures, not in pytest's short summary, whose width (and so
    # whether it repeats the message) depends on the terminal and on a CI variable.
    failures = done.stdout.split("short test summary info")[0]
    assert failures.count("could not start the implementation") == 1, done.stdout[-3000:]
    assert "exit status 7" in done.stdout


FAULTS = Path(__file__).resolve().parent / "faults" / "adapters.py"


@pytest.mark.parametrize("adapter", ["ExitsTheProcess", "Aborts", "ExitsFromC"])
def test_an_adapter_that_ends_its_process_is_a_crash_never_pytests_exit(adapter, tmp_path):
    # The adapter runs in a worker process, as under `turub check --python`: os._exit(0),
    # abort() or a C library's exit() in the middle of the run ends the worker, never pytest;
    # the item it was answering fails as a crash, and pytest goes on and says so.
    done = pytest_in(tmp_path, "-q", "--turub-python", f"{FAULTS}:{adapter}", *CASES)
    assert done.returncode == 1, (done.returncode, done.stdout[-2000:], done.stderr[-1000:])
    n = counts(done.stdout)
    assert n.get("passed", 0) >= 2 and n["failed"] >= 1, n
    assert "crash" in done.stdout and "short test summary" in done.stdout


# --- nothing left running (issue 19, item 5); the deep campaigns: test_plugin_replays.py -----


def test_the_plugins_options_are_checked_like_the_command_lines(tmp_path):
    for bad in (["--turub-timeout", "nan"], ["--turub-timeout", "inf"], ["--turub-timeout", "0"],
                ["--turub-scale", "nan"]):
        done = pytest_in(tmp_path, "--turub-python", REFERENCE, *bad)
        assert done.returncode == 4 and bad[0] in done.stderr, (bad, done.stderr[-500:])
        assert "Traceback" not in done.stderr + done.stdout
    # bad quoting: one usage line, not a traceback for each item
    quoted = pytest_in(tmp_path, "--turub-program", "node 'my impl.js", *CASES)
    assert quoted.returncode == 4 and "--turub-program" in quoted.stderr, quoted.stderr[-500:]
    assert "Traceback" not in quoted.stdout + quoted.stderr and "FAILED" not in quoted.stdout
    unknown = pytest_in(tmp_path, "--turub-python", REFERENCE, "--turub-item", "no/such-item")
    assert unknown.returncode == 4 and "no such item: no/such-item" in unknown.stderr


#: A correct program that leaves a helper running beside it (a program alone would exit when
#: its input closes): both pids are written down.
PIDS_PROGRAM = ("sh -c 'sleep 600 & echo $! >> {pids}; echo $$ >> {pids}; exec "
                + sys.executable + " " + str(BROKEN) + " ok'")


def _alive(pid: int) -> bool:
    import os
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[1][0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="reads /proc")
@pytest.mark.parametrize("how", ["SIGTERM", "SIGINT", "SIGKILL -n 2"])
def test_nothing_is_left_running_when_pytest_is_stopped(tmp_path, how):
    # Each program the plugin started (one per worker) is gone soon after pytest itself is
    # stopped by a signal sent to pytest alone, and pytest ends; under xdist, even when the
    # controller is killed outright, each worker stops its own program.
    import os
    import signal as signals
    import time
    sig, *workers = how.split()
    pids = tmp_path / "pids"
    program = PIDS_PROGRAM.format(pids=pids)
    pytest_run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *workers,
         "--turub-program", program, "--turub-scale", "0", "--turub-properties", "0",
         "--turub-examples", "100000", "--turub-searches", "2", "-k", "differential"],
        cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        expected = 4 if workers else 2  # a program and its helper in each worker
        deadline = time.monotonic() + generous(20)
        while time.monotonic() < deadline and (not pids.exists() or
                                               len(pids.read_text().split()) < expected):
            time.sleep(0.2)
        started = [int(p) for p in pids.read_text().split()]
        assert len(started) >= expected and all(_alive(p) for p in started)
        time.sleep(1.0)  # the searches are under way
        os.kill(pytest_run.pid, getattr(signals, sig))
        try:
            pytest_run.wait(generous(5))
        except subprocess.TimeoutExpired:  # (a SIGINT landing in Hypothesis's gc callback was lost)
            pytest.fail(f"pytest went on after {how}")
        end = time.monotonic() + generous(3)
        while time.monotonic() < end and any(_alive(p) for p in started):
            time.sleep(0.2)
        assert not [p for p in started if _alive(p)], f"left running after {how}"
    finally:
        try:
            os.killpg(pytest_run.pid, signals.SIGKILL)
        except ProcessLookupError:
            pass
        pytest_run.wait(10)
        for p in [int(p) for p in pids.read_text().split()] if pids.exists() else []:
            try:
                os.kill(p, signals.SIGKILL)
            except ProcessLookupError:
                pass


