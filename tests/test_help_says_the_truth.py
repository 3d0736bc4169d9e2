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


def test_where_processes_cannot_be_policed_the_check_says_so_at_start_up(monkeypatch, capsys):
    from turub.conformance.programs import process
    assert process.can_police_processes() == sys.platform.startswith("linux")
    monkeypatch.setattr(process, "can_police_processes", lambda: False)
    status = main(["check", "--smoke", "--quiet", "--python", "turub.conformance.adapter:ReferenceImplementation"])
    err = capsys.readouterr().err
    assert status == 0
    assert [line for line in err.splitlines() if "cannot police" in line] == [
        f"turub check: on {sys.platform} the kit cannot police the program's processes (it needs Linux's "
        "process groups, /proc and child subreaper): a process the program leaves behind may outlive "
        "the run; supported systems: Linux"]
    monkeypatch.setattr(process, "can_police_processes", lambda: True)
    main(["check", "--smoke", "--quiet", "--python", "turub.conformance.adapter:ReferenceImplementation"])
    assert "cannot police" not in capsys.readouterr().err


def test_the_readme_and_the_package_say_where_it_runs():
    from pathlib import Path
    import tomllib
    root = Path(__file__).resolve().parent.parent
    readme = (root / "README.md").read_text(encoding="utf-8")
    systems = readme.split("## Supported systems", 1)[1].split("\n## ", 1)[0]
    classifiers = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]["classifiers"]
    assert "Linux" in systems and "Operating System :: POSIX :: Linux" in classifiers
    assert [c for c in classifiers if c.startswith("Operating System")] == ["Operating System :: POSIX :: Linux"]
