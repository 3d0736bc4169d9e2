"""Run every worked example of the specification (``spec/*.md``) as a test, with Sybil.

Python blocks written as doctests (``>>>``) are checked against the output they show;
other Python blocks are run and must not raise.  Each page's examples share one namespace,
in page order, as a reader would run them.
"""

from doctest import ELLIPSIS, NORMALIZE_WHITESPACE

from sybil import Sybil
from sybil.parsers.myst import PythonCodeBlockParser, SkipParser

pytest_collect_file = Sybil(
    parsers=[PythonCodeBlockParser(doctest_optionflags=ELLIPSIS | NORMALIZE_WHITESPACE),
             SkipParser()],
    patterns=["*.md"],
).pytest()
