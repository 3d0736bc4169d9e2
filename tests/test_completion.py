"""Shell completion for ``turub`` (argcomplete, the ``completion`` extra): the shell asks
with argcomplete's variables and gets the commands and options of every part, the kit's
included."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("argcomplete", reason="the completion extra (turub[completion]) is not installed")

TURUB = Path(sys.executable).with_name("turub")


def completions(tmp_path, line: str) -> list[str]:
    out = tmp_path / "completions"
    env = {**os.environ, "_ARGCOMPLETE": "1", "COMP_LINE": line, "COMP_POINT": str(len(line)),
           "_ARGCOMPLETE_STDOUT_FILENAME": str(out)}
    done = subprocess.run([str(TURUB)], env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return out.read_text().split()


@pytest.mark.skipif(not TURUB.exists(), reason="turub is not installed beside this Python")
def test_the_shell_completes_commands_and_the_kits_options(tmp_path):
    assert completions(tmp_path, "turub ch") == ["check"]
    assert completions(tmp_path, "turub check --sm") == ["--smoke"]
    assert "--seed" in completions(tmp_path, "turub play --s")
