"""The README says what the code says."""

import re
from pathlib import Path

from turub.clauses import VOCABULARY

ROOT = Path(__file__).resolve().parent.parent


def test_the_readme_vocabulary_is_the_registrys():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Vocabulary", 1)[1].split("\n## ", 1)[0]
    words = re.findall(r"^\| \*\*(\w+)\*\* \|", table, flags=re.M)
    assert words == [term.word for term in VOCABULARY if term.core]


def test_the_readme_commands_run_as_written_on_a_fresh_machine():
    """Every command in a ``sh`` block runs the project's tools from the virtual environment
    the quick start makes (``.venv/bin/...``), never a bare ``turub`` or ``pytest`` that
    only works with the environment activated."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"^```sh\n(.*?)^```", readme, flags=re.M | re.S)
    assert len(blocks) >= 5
    tools = ("turub", "pytest", "python", "pip", "sphinx")
    for block in blocks:
        for line in block.splitlines():
            for command in re.split(r"&&|\|", line.split("  #")[0]):
                words = command.split()
                while words and "=" in words[0]:  # VARIABLE=value before the command
                    words.pop(0)
                if words and words[0] in tools:
                    raise AssertionError(f"README runs a bare {words[0]!r}: {line.strip()}")


def test_the_readme_python_examples_run():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
