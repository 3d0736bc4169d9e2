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
