"""The house-rules guide shows its examples inline (issue 31): read as Markdown in the checkout
or on the site, each example is a fenced ``python`` block, not an include that only the site
renders.  Each block is marked with the file and the top-level name it is taken from
(``<!-- example: tests/variants/kinds.py nell_wins -->``), and must be that definition's text
exactly, so the guide and the examples the tests run cannot drift apart."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "guides" / "house-rules.md"
MARKED = re.compile(r"<!-- example: (\S+) (\w+) -->\n```python\n(.*?)\n```\n", re.S)


def definition(path: Path, name: str) -> str:
    """The text of the top-level ``def name`` or ``name = ...`` in ``path``: from its line to
    the line before the next line that starts in column 0 (trailing blank lines dropped)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines)
                 if line.startswith((f"def {name}(", f"{name} = ")))
    end = next((i for i in range(start + 1, len(lines))
                if lines[i] and not lines[i][0].isspace() and not lines[i].startswith((")", "]"))), len(lines))
    body = lines[start:end]
    while body and not body[-1].strip():
        body.pop()
    return "\n".join(body)


def test_the_guide_shows_its_examples_inline_and_includes_none():
    text = GUIDE.read_text(encoding="utf-8")
    assert "literalinclude" not in text  # an include shows nothing in the Markdown
    assert len(MARKED.findall(text)) >= 17
    # every python block of the guide is a marked example (none copied by hand, unmarked)
    assert text.count("```python\n") == len(MARKED.findall(text))


def test_each_inline_example_is_its_source_exactly():
    found = MARKED.findall(GUIDE.read_text(encoding="utf-8"))
    for path, name, shown in found:
        source = ROOT / path
        assert source.is_file(), path
        assert shown == definition(source, name), f"{path} {name}: the guide's copy differs from the file"


def test_an_edited_example_is_caught(tmp_path):
    # The comparison itself can fail: a copy one character off is not its source.
    path, name, shown = MARKED.findall(GUIDE.read_text(encoding="utf-8"))[0]
    assert shown.replace("trump", "trumps", 1) != definition(ROOT / path, name)
