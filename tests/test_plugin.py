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

BROKEN = Path(__file__).resolve().parent / "broken" / "impl.py"
REFERENCE = "turub.conformance.adapter:ReferenceImplementation"
#: A lighter run than the default: fewer generated cases, examples and property examples.
LIGHT = ["--turub-scale", "0.2", "--turub-examples", "5", "--turub-properties", "2"]
#: The cases only: no differential play, no properties.
CASES = ["--turub-scale", "0.1", "--turub-examples", "0", "--turub-properties", "0"]


def pytest_in(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """``python -m pytest ARGS`` in ``folder``, as a user would run it there."""
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=folder, capture_output=True, text=True, timeout=300)


def counts(output: str) -> dict[str, int]:
    tail = output.strip().splitlines()[-1]
    return {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped|deselected)", tail)}


@verifies("trick.earliest-identical", "play.follow-suit", "contest.second-win-beats-mark")
def test_a_correct_implementation_passes_every_item(tmp_path):
    done = pytest_in(tmp_path, "-q", "--turub-python", REFERENCE, *LIGHT)
    assert done.returncode == 0, done.stdout[-2000:]
    n = counts(done.stdout)
    assert n["passed"] > 300 and "failed" not in n, n
    # the committed vectors, the generated cases, differential play and the properties
    listed = pytest_in(tmp_path, "-q", "--collect-only", "--turub-python", REFERENCE, *LIGHT).stdout
    for item in ("turub::trick_winner/worked-duplicate-aces", "turub::legal_plays/generated-1-r000",
                 "turub::differential/deal", "turub::property/test_tricks."):
        assert item in listed
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


@verifies("play.follow-suit")
def test_k_selects_by_clause_and_x_stops_at_the_first_failure(tmp_path):
    program = f"{sys.executable} {BROKEN} no-follow-suit"
    every = counts(pytest_in(tmp_path, "-q", "--collect-only", "--turub-program", program, *CASES).stdout)
    chosen = pytest_in(tmp_path, "-q", "-k", "play.follow-suit", "--turub-program", program, *CASES)
    n = counts(chosen.stdout)
    assert 0 < n["passed"] + n["failed"] < every.get("passed", 0) + n["deselected"]
    stopped = pytest_in(tmp_path, "-q", "-x", "--turub-program", program, *CASES)
    assert stopped.returncode == 1 and counts(stopped.stdout)["failed"] == 1


def test_the_junit_report_names_each_case_and_its_clauses(tmp_path):
    program = f"{sys.executable} {BROKEN} no-follow-suit"
    pytest_in(tmp_path, "-q", "--junitxml", "report.xml", "-k", "legal_plays",
              "--turub-program", program, *CASES)
    cases = ET.parse(tmp_path / "report.xml").getroot().iter("testcase")
    failing = [c for c in cases if c.find("failure") is not None]
    assert failing
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


def test_a_program_that_cannot_start_fails_every_item_it_would_have_answered(tmp_path):
    # Nothing passes against a program that dies before its handshake: the cases, the
    # differential searches and the properties alike fail with the reason.
    program = f"{sys.executable} -c 'import sys; sys.exit(7)'"
    done = pytest_in(tmp_path, "-q", "--turub-program", program, *LIGHT,
                     "-k", "worked-duplicate-aces or differential or property/test_tricks")
    assert done.returncode == 1, done.stdout[-2000:]
    n = counts(done.stdout)
    assert "passed" not in n and n["failed"] >= 3, n
    failed = re.findall(r"^FAILED (\S+)", done.stdout, flags=re.M)
    assert any("differential/" in f for f in failed) and any("property/" in f for f in failed), failed
