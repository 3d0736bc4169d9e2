"""The pytest plugin run as a user runs it: ``python -m pytest`` in a folder with no test files,
and what its last line counts; shared by ``test_plugin.py`` and ``test_plugin_replays.py``."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from pace import generous

BROKEN = Path(__file__).resolve().parent / "broken" / "impl.py"

REFERENCE = "turub.conformance.adapter:ReferenceImplementation"

#: A lighter run than the default: fewer generated cases, examples and property examples.
LIGHT = ["--turub-scale", "0.2", "--turub-examples", "5", "--turub-properties", "2"]

#: The cases only: no differential play, no properties.
CASES = ["--turub-scale", "0.1", "--turub-examples", "0", "--turub-properties", "0"]


def pytest_in(folder: Path, *args: str) -> subprocess.CompletedProcess:
    """``python -m pytest ARGS`` in ``folder``, as a user would run it there."""
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
                          cwd=folder, capture_output=True, text=True, timeout=generous(60))


def counts(output: str) -> dict[str, int]:
    tail = output.strip().splitlines()[-1]
    return {word: int(n) for n, word in re.findall(r"(\d+) (passed|failed|skipped|deselected)", tail)}

