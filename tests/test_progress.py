"""Progress on the terminal: one implementation (turub.tools.progress), a bar on a terminal and a
plain line every few seconds elsewhere, NO_COLOR and FORCE_COLOR honoured, rich loaded only
when a bar is drawn."""

from __future__ import annotations

import ast
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

from turub.tools.progress import Progress

ROOT = Path(__file__).resolve().parents[1]
ESCAPE = re.compile(r"\x1b\[")
COLOUR = re.compile(r"\x1b\[[0-9;]*m")  # SGR: colours and styles (cursor moves are not colour)


@pytest.fixture
def plain_env(monkeypatch):
    for name in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def run_to(stream, total=50, **kw):
    p = Progress(total, stream, label="turub test", unit="cases", **kw)
    for i in range(1, total + 1):
        p.update(i)
    p.close()
    return stream.getvalue()


def test_a_log_gets_plain_lines_with_the_rate_and_no_escape(plain_env):
    text = run_to(io.StringIO(), plain_every=0.0)
    lines = text.splitlines()
    # every few seconds (here: at every step) one line with the count, the total and the rate
    assert lines and all(re.fullmatch(r"turub test: \d+ of 50 cases \(\d+/s(, (about \d.*|under a second) left)?\)", x)
                         for x in lines), lines
    assert not ESCAPE.search(text)


def test_a_log_is_not_flooded(plain_env):
    # the default: a line every few seconds, so a quick run writes nothing at all
    assert run_to(io.StringIO(), total=10_000) == ""


def test_an_estimated_total_says_about(plain_env):
    text = run_to(io.StringIO(), total=5, approximate=True, plain_every=0.0)
    assert "of about 5 cases" in text


def test_an_estimate_the_count_passed_leaves_the_count_alone_and_no_time_left_is_guessed_early(plain_env):
    p = Progress(100, out := io.StringIO(), label="turub test", unit="cases", approximate=True, plain_every=0.0)
    for i in (1, 2, 50, 150):
        p.update(i)
    p.close()
    lines = out.getvalue().splitlines()
    assert [("left" in x) for x in lines] == [False, True, True, False], lines  # 1 is under a fiftieth of 100
    assert lines[-1].startswith("turub test: 150 cases (") and "of about" not in lines[-1], lines


def test_force_color_draws_a_bar_even_when_not_a_terminal(plain_env):
    plain_env.setenv("FORCE_COLOR", "1")
    text = run_to(io.StringIO())
    assert COLOUR.search(text), "FORCE_COLOR makes the stream a terminal: a coloured bar"
    assert "50/50" in text


def test_no_color_draws_without_colour(plain_env):
    plain_env.setenv("NO_COLOR", "1")
    assert not ESCAPE.search(run_to(io.StringIO(), plain_every=0.0))  # not a terminal: plain
    plain_env.setenv("FORCE_COLOR", "1")  # a terminal without colour: a bar, no colour codes
    text = run_to(io.StringIO())
    assert "50/50" in text and not COLOUR.search(text)


def test_nothing_when_no_stream_or_a_closed_one(plain_env):
    assert not Progress(10, None).active
    closed = io.StringIO()
    closed.close()
    p = Progress(10, closed, plain_every=0.0)
    p.update(5)
    p.close()  # no error: a worker that closed stderr still runs


def run_cli(*args, env_extra=None):
    import os
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "TTY_COMPATIBLE")}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "turub.tools.cli", *args], capture_output=True, text=True,
                          env=env, timeout=120)


def test_simulate_under_force_color_shows_the_bar_and_keeps_stdout_clean():
    done = run_cli("simulate", "--deals", "300", env_extra={"FORCE_COLOR": "1"})
    assert done.returncode == 0
    assert "300/300" in done.stderr and COLOUR.search(done.stderr)
    assert not ESCAPE.search(done.stdout)


def test_start_up_never_loads_rich():
    # turub explain --help and a simulate whose stderr is a pipe draw no bar: rich stays out
    for args in (["explain", "--help"], ["simulate", "--deals", "5"]):
        done = subprocess.run([sys.executable, "-X", "importtime", "-m", "turub.tools.cli", *args],
                              capture_output=True, text=True, timeout=120,
                              env={"PATH": "/usr/bin:/bin", "PYTHONPATH": ""})
        assert done.returncode == 0, done.stderr
        imported = [line.split("|")[-1].strip() for line in done.stderr.splitlines() if "|" in line]
        assert not [m for m in imported if m.split(".")[0] == "rich"], args


def test_one_progress_implementation():
    # the engine's command line and the kit both draw through turub.tools.progress.Progress; no
    # other module defines a progress class of its own
    defined = []
    for folder in ("reference", "conformance", "properties"):
        for path in (ROOT / folder).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef) and "progress" in node.name.lower():
                    defined.append(f"{path.relative_to(ROOT)}:{node.name}")
    assert defined == ["reference/tools/progress.py:Progress"]
    for path in ("reference/tools/cli.py", "conformance/commands/check.py"):
        text = (ROOT / path).read_text(encoding="utf-8")
        assert "Progress(" in text and "progress import Progress" in text, path
