"""Taking a failure away: each failure the terminal prints ends with one command that asks
that case alone (``turub check --seed S --case ID -- PROGRAM``), and that command, run by
itself, fails the same way."""

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from turub.conformance.resources import sample_path

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node runs the JavaScript sample")


def turub(words, tmp_path, name):
    out = tmp_path / f"{name}.json"
    run = subprocess.run([sys.executable, "-m", "turub.tools.cli", words[0], "--json", str(out), *words[1:]],
                         capture_output=True, text=True, encoding="utf-8", timeout=300, cwd=tmp_path)
    return run, json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize("which", [[], ["-k", "generated"]], ids=["a committed vector", "a generated case"])
def test_each_printed_failure_reproduces_alone(tmp_path, which):
    broken = [sys.executable, str(ROOT / ".ci" / "broken-sample.py"), shutil.which("node"), str(sample_path())]
    run, report = turub(["check", "--seed", "3", "--examples", "0", "--properties", "0", *which, "--", *broken],
                        tmp_path, "all")
    assert run.returncode == 1
    commands = [line.split("reproduce: ", 1)[1] for line in run.stdout.splitlines() if "    reproduce: " in line]
    failing = [c for c in report["cases"] if c["status"] == "failed"]
    # One command per printed failure (the terminal prints the first 15).
    assert len(commands) == min(15, len(failing)) > 0
    words = shlex.split(commands[-1])
    assert words[:2] == ["turub", "check"]
    case_id = words[words.index("--case") + 1]
    again, alone = turub(words[1:], tmp_path, "one")
    assert again.returncode == 1, again.stdout
    # Only that case ran, and it failed the same way.
    assert [c["id"] for c in alone["cases"]] == [case_id]
    first = next(c for c in failing if c["id"] == case_id)
    assert (alone["cases"][0]["status"], alone["cases"][0]["outcome"], alone["cases"][0]["detail"]) \
        == ("failed", first["outcome"], first["detail"])
