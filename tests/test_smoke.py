"""``turub check --smoke``: is the program alive?  The handshake and one question of each
operation it declares, in seconds, and a line per problem."""

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from turub.conformance.resources import sample_path

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node runs the JavaScript sample")


def smoke(tmp_path, *program):
    started = time.monotonic()
    run = subprocess.run([sys.executable, "-m", "turub.tools.cli", "check", "--smoke", "--json",
                          str(tmp_path / "r.json"), *program], capture_output=True, text=True,
                         encoding="utf-8", timeout=60)
    return run, json.loads((tmp_path / "r.json").read_text(encoding="utf-8")), time.monotonic() - started


def test_the_sample_answers_one_question_of_each_operation_in_under_five_seconds(tmp_path):
    run, report, took = smoke(tmp_path, "--sample")
    assert run.returncode == 0 and took < 5, (run.returncode, took)
    # One question per operation the handshake declared, no more.
    asked = [c["op"] for c in report["cases"]]
    assert sorted(asked) == sorted(report["implementation"]["operations"])


def test_a_broken_operation_is_one_line(tmp_path):
    broken = [sys.executable, str(ROOT / ".ci" / "broken-sample.py"), shutil.which("node"), str(sample_path())]
    run, report, _ = smoke(tmp_path, "--", *broken)
    assert run.returncode == 1
    failures = run.stdout.split("\nFailures:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert [line for line in failures if not line.startswith("    reproduce: ")] == [
        line for line in failures if line.startswith("  legal_plays/") and "[play.follow-suit]" in line]
    assert len(failures) == 2


def test_smoke_takes_no_selection(tmp_path):
    run = subprocess.run([sys.executable, "-m", "turub.tools.cli", "check", "--smoke", "--clause",
                          "play.follow-suit", "--sample"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "--smoke" in run.stderr
