"""The specification site, built once for the whole test run and shared by every file that reads it.

A full build costs about 28 s of CPU; three files read the built pages (``test_docs_build.py``,
``test_site_words.py``, ``test_spec_examples.py``) and each used to build its own. Under xdist
the workers of one run share ``tmp_path_factory``'s parent folder: the first worker to ask builds
there, under a lock, and writes the build's status and output beside it; the others wait for the
lock and read them. A test that changes a build (an incremental rebuild) works on a copy.
"""
from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from pace import generous

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def sphinx(out: Path, *extra: str) -> subprocess.CompletedProcess:
    """``sphinx -W -n`` (warnings are errors, nitpicky) of the site into ``out``."""
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-n", "-b", "html", str(DOCS), str(out / "html"),
         "-d", str(out / "doctrees"), *extra],
        capture_output=True, text=True, cwd=ROOT, timeout=generous(60),
        env={**os.environ, "PYTHONHASHSEED": "0"})


@dataclass(frozen=True)
class Build:
    """A finished build: its folder (``html``, ``doctrees``), exit status and output."""
    out: Path
    returncode: int
    stdout: str
    stderr: str

    @property
    def html(self) -> Path:
        return self.out / "html"


def shared_build(tmp_path_factory) -> Build:
    """The site as the default build makes it, built at most once per test run."""
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # one folder for all the workers of this run
    out, record = root / "shared-site", root / "shared-site.json"
    with open(root / "shared-site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not record.exists():
            run = sphinx(out)
            record.write_text(json.dumps({"returncode": run.returncode, "stdout": run.stdout,
                                          "stderr": run.stderr}), encoding="utf-8")
        done = json.loads(record.read_text(encoding="utf-8"))
    return Build(out, done["returncode"], done["stdout"], done["stderr"])
