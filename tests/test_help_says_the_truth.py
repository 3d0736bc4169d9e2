"""The help says what the kit does: ``--python`` runs the adapter in a worker process."""

import os
import subprocess
import sys
import textwrap

import pytest

from turub.tools.cli import main


def test_python_adapters_run_in_a_worker_process_as_the_help_says(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["check", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    after = text[text.index("--python MODULE:OBJECT", text.index("options:")):]
    assert "worker process" in after[:300] and "in-process" not in text
    (tmp_path / "where.py").write_text(textwrap.dedent("""
        import os
        from turub.conformance.adapter import ReferenceImplementation
        with open(os.environ["WHERE_FILE"], "w") as f:
            f.write(str(os.getpid()))
        class Engine(ReferenceImplementation):
            pass
    """), encoding="utf-8")
    kit = subprocess.Popen([sys.executable, "-m", "turub.tools.cli", "check", "--quiet", "--quick",
                            "--examples", "0", "--properties", "0", "--no-generated",
                            "--python", str(tmp_path / "where.py") + ":Engine"],
                           env={**os.environ, "WHERE_FILE": str(tmp_path / "pid")}, cwd=tmp_path,
                           stdout=subprocess.DEVNULL)
    assert kit.wait(timeout=120) == 0
    # The adapter was loaded in a process of its own, not in the kit's.
    assert int((tmp_path / "pid").read_text()) != kit.pid
