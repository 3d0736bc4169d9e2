"""Signals and pipes as documented, for every command (#30, class 5): closed output.

``turub report``, ``turub vectors``, ``turub variants`` and ``turub clause`` keep the promise
``turub check`` keeps: when the reader of their output goes away before the end (``| head
-1``), the exit status is 141, SIGPIPE's, even when everything fitted in the pipe's buffer
(a short output raised no error, so the command said 0).  And a standard stream the caller
closed (``>&-``) is output discarded as asked: no traceback, and the exit status is still
the verdict, never turned red for a conforming run nor green for a failing one.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from turub.tools.cli import main

TURUB = shutil.which("turub", path=str(Path(sys.executable).parent)) or "turub"
QUICK = ["--no-generated", "--examples", "0", "--properties", "0"]
BROKEN = str(Path(__file__).parent / "broken" / "adapters.py") + ":LaterCopyWins"


class PipeWhoseReaderLeaves(io.TextIOBase):
    """Standard output as a pipe: every write goes through at once (it fits the buffer);
    the reader takes one line and goes away before the command ends."""

    def __init__(self) -> None:
        self.read_end, self.write_end = os.pipe()
        self.written = 0
        self.gone = False

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self.write_end

    def write(self, text: str) -> int:
        self.written += os.write(self.write_end, text.encode())
        return len(text)

    def flush(self) -> None:
        if self.written and not self.gone:
            os.read(self.read_end, 100)  # | head -1: a line, and gone
            os.close(self.read_end)
            self.gone = True


@pytest.mark.parametrize("argv", [["variants", "list"], ["clause", "play.turn"], ["report", "REPORT"],
                                  ["variants", "show", "counterclockwise"],
                                  ["explain", "--trump", "H", "AH", "KH", "QH", "JH"],
                                  ["check", "--diff", "REPORT", "REPORT"]],
                         ids=" ".join)
def test_a_reader_that_leaves_early_is_141_for_every_command(argv, tmp_path, monkeypatch):
    if "REPORT" in argv:
        report = tmp_path / "r.json"
        assert main(["check", *QUICK, "--quiet", "--json", str(report)], io.StringIO()) == 0
        argv = [a if a != "REPORT" else str(report) for a in argv]
    pipe = PipeWhoseReaderLeaves()
    monkeypatch.setattr(sys, "stdout", pipe)
    try:
        assert main(argv) == 141
    finally:
        os.close(pipe.write_end)


def test_a_long_output_cut_by_head_is_141():
    """``turub vectors | head -1``: more than a pipe holds, so the writes themselves fail."""
    p = subprocess.Popen([TURUB, "vectors"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None
    p.stdout.readline()
    p.stdout.close()
    _, err = p.communicate(timeout=120)
    assert p.returncode == 141 and b"Traceback" not in err, err


def test_a_reader_that_reads_everything_is_0(tmp_path):
    run = subprocess.run([TURUB, "clause", "play.turn"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout


@pytest.mark.parametrize("adapter, status", [(None, 0), (BROKEN, 1)], ids=["conforming", "failing"])
def test_a_closed_stdout_keeps_the_verdict(adapter, status, tmp_path):
    report = tmp_path / "r.json"
    argv = [TURUB, "check", *QUICK, "--json", str(report), *(["--python", adapter] if adapter else [])]
    run = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=300,
                         preexec_fn=lambda: os.close(1))
    assert "Traceback" not in run.stderr, run.stderr
    assert run.returncode == status, run.stderr
    assert report.stat().st_size > 0


@pytest.mark.parametrize("argv", [["clause", "play.turn"], ["vectors"], ["variants", "list"]], ids=lambda a: a[0])
def test_closed_standard_streams_are_no_traceback(argv):
    run = subprocess.run([TURUB, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         timeout=120, preexec_fn=lambda: os.close(1))
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr


def with_reader_gone(argv: list[str], **kwargs) -> subprocess.CompletedProcess:
    """``argv`` with standard output a pipe whose reader left before the command began."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        return subprocess.run([TURUB, *argv], stdout=write_end, stderr=subprocess.PIPE, text=True,
                              timeout=300, **kwargs)
    finally:
        os.close(write_end)


@pytest.mark.parametrize("argv", [["--help"], ["check", "--help"], ["--version"], ["schema"],
                                  ["report", "--json", "-", "REPORT"], ["vectors", "--op", "trick_winner"],
                                  ["variants", "diff", "standard", "counterclockwise", "--deals", "1"],
                                  ["play", "--seed", "3"], ["simulate", "--deals", "2"], ["check", "--list"]],
                         ids=" ".join)
def test_help_version_and_every_output_to_a_gone_reader_are_141(argv, tmp_path):
    if "REPORT" in argv:
        report = tmp_path / "r.json"
        assert main(["check", *QUICK, "--quiet", "--json", str(report)], io.StringIO()) == 0
        argv = [a if a != "REPORT" else str(report) for a in argv]
    run = with_reader_gone(argv)
    assert run.returncode == 141, (run.returncode, run.stderr[-600:])
    assert run.stderr == "", "a closed pipe is said by the status, not by an error line"


@pytest.mark.parametrize("streamed", ["--json", "--jsonl"])
def test_a_report_to_a_gone_reader_loses_no_other_report(streamed, tmp_path):
    """``turub check --json - --junit r.xml ... | head -c 100``: standard output's reader
    left, so that report is incomplete (141); every report to a file is still written."""
    files = {"--junit": tmp_path / "r.xml", "--write-xfail": tmp_path / "x.json", "--html": tmp_path / "site"}
    if streamed == "--jsonl":
        files["--json"] = tmp_path / "r.json"
    run = with_reader_gone(["check", *QUICK, streamed, "-", *(a for o, p in files.items() for a in (o, str(p)))])
    assert run.returncode == 141 and "Traceback" not in run.stderr, (run.returncode, run.stderr[-600:])
    written = {o: (p / "index.html" if o == "--html" else p).is_file() for o, p in files.items()}
    assert written == dict.fromkeys(files, True)
