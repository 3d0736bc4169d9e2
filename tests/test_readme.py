"""The README says what the code does: its Quick start runs as written, on the base install
for the first command and as CI runs it for the second; its failing report is what a broken
program gets; it names every top folder and links only to files that exist."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
TOOLS = ("turub", "pytest", "python", "pip", "sphinx")


def sh_blocks(text: str) -> list[str]:
    return re.findall(r"^```sh\n(.*?)^```", text, flags=re.M | re.S)


def quick_start() -> list[str]:
    """The Quick start's two commands, in order."""
    section = README.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [block.strip() for block in sh_blocks(section)]


def test_the_readme_is_a_front_door():
    # At most 100 lines; the rest is in the guides.
    assert len(README.splitlines()) <= 100
    # The command that checks one's own program is named within the first 40 lines, and the
    # paragraph naming it links (one hop, a link to follow) to the guide for doing it.
    first = "\n".join(README.splitlines()[:40])
    own = first.split("## Quick start", 1)[1].split("Then check your own program", 1)[1].split("\n\n", 1)[0]
    assert ".venv/bin/turub check -- " in own
    assert "](docs/guides/implementers.md)" in own
    # A failing report is shown, before the Quick start.
    assert "```text\n" in README.split("## Quick start", 1)[0]


def test_the_first_command_needs_no_extra_and_runs_the_main_job():
    first, _ = quick_start()
    installs = [c.strip() for c in first.split("&&") if " install " in c]
    assert installs == [".venv/bin/pip install -q ."], "the base install, no extras"
    assert first.split("&&")[-1].split() == [".venv/bin/turub", "check", "--sample"]


def test_the_second_command_is_the_one_ci_runs():
    _, second = quick_start()
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    ci = [line.strip() for line in ci if line.strip() and not line.lstrip().startswith("#")]
    for step in second.split("&&")[1:]:  # the venv is made fresh by CI too
        step = " ".join(step.split()).replace(".venv/bin/pip ", ".venv/bin/python -m pip ")
        assert step in [" ".join(line.split()) for line in ci], step


def test_the_readme_commands_run_as_written_on_a_fresh_machine():
    """Every command in a ``sh`` block runs the project's tools from the virtual environment
    the quick start makes (``.venv/bin/...``), never a bare ``turub`` or ``pytest`` that
    only works with the environment activated."""
    for text in (README, (ROOT / "docs" / "guides" / "tour.md").read_text(encoding="utf-8")):
        for block in sh_blocks(text):
            for line in block.splitlines():
                for command in re.split(r"&&|\|", line.split("  #")[0]):
                    words = command.split()
                    while words and "=" in words[0]:  # VARIABLE=value before the command
                        words.pop(0)
                    assert not (words and words[0] in TOOLS), f"a bare {words[0]!r}: {line.strip()}"


def test_the_readme_names_each_top_folder_and_links_to_files_that_exist():
    layout = README.split("## Layout", 1)[1].split("\n## ", 1)[0]
    named = re.findall(r"^- `(\w+)/`", layout, flags=re.M)
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout
    folders = {path.split("/", 1)[0] for path in tracked.splitlines() if "/" in path} - {".ci"}
    assert sorted(named) == sorted(folders)
    for path in re.findall(r"`((?:docs|spec|examples|benchmarks|conformance|tests|\.ci)/[\w./-]*)`", README):
        assert (ROOT / path).exists(), path
    links = re.findall(r"\]\(([^)#]+)\)", README)
    assert links, "the audiences' guides are links"
    for path in links:
        assert (ROOT / path).is_file(), path


@pytest.mark.skipif(shutil.which("node") is None, reason="node runs the JavaScript sample")
def test_the_readmes_failing_report_is_what_a_broken_program_gets():
    """The report lines the README shows are printed, in that order, for the sample with
    follow-suit broken (the wheel check's broken program, .ci/broken-sample.py)."""
    shown = README.split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    # It names its clause, by the clause's title in the registry, and ends with the verdict.
    from turub.clauses import clause
    named = re.match(r"\s+1\. (\S+) — (.+?): \d+ failures? points? to it$", shown[0])
    assert named and clause(named[1]).title == named[2], shown[0]
    assert any(named[1] in line for line in shown[1:]), "the smallest situation of that clause"
    assert shown[-1].startswith("DOES NOT CONFORM ")
    from turub.conformance.resources import sample_path
    run = subprocess.run(
        [sys.executable, "-m", "turub.tools.cli", "check", "--", sys.executable,
         str(ROOT / ".ci" / "broken-sample.py"), shutil.which("node"), str(sample_path())],
        capture_output=True, text=True, encoding="utf-8", timeout=300)
    assert run.returncode == 1, run.stderr
    printed = run.stdout.splitlines()
    at = 0
    for line in shown:
        assert line in printed[at:], f"not printed (in this order): {line}\n{run.stdout}"
        at = printed.index(line, at) + 1


def test_the_tours_vocabulary_is_the_registrys():
    from turub.clauses import VOCABULARY
    tour = (ROOT / "docs" / "guides" / "tour.md").read_text(encoding="utf-8")
    table = tour.split("## Vocabulary", 1)[1].split("\n## ", 1)[0]
    words = re.findall(r"^\| \*\*(\w+)\*\* \|", table, flags=re.M)
    assert words == [term.word for term in VOCABULARY if term.core]


def test_the_tours_python_examples_run():
    tour = (ROOT / "docs" / "guides" / "tour.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", tour, flags=re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "tour.md", "exec"), {})
