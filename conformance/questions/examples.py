"""The spec's examples are the conformance cases (#28).

Every committed case (``conformance/vectors/``) is an example of the clauses it exercises:
the spec's clause pages render them (``docs/_ext/turub_examples.py``), numbered, with the
request a program is sent and the answer it must give, and ``turub check --example N`` asks
example N.  The numbers follow the committed files: first every case of the ``standard``
option set in its committed order, then, set by set, the cases of the other option sets
whose answer holds under that set only (``"rules"`` not ``"any"``: the others are the
standard set's cases again).

>>> first = numbered_examples()[0]
>>> first.number, first.set, first.case["id"]
(1, 'standard', 'trick_winner/worked-duplicate-aces')
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple

from .cases import Case, ask_args
from .vectors import VECTOR_DIR, vector_sets

__all__ = ["Example", "numbered_examples", "example_number", "request_of", "examples_of"]


class Example(NamedTuple):
    """Example ``number``: a committed case of the option set ``set`` (its rules ``rules``)."""

    number: int
    set: str
    rules: dict[str, Any]
    case: Case

    @property
    def anchor(self) -> str:
        """Its address on a clause page: ``#example-N``."""
        return f"example-{self.number}"


@lru_cache(maxsize=4)
def _numbered(directory: str) -> tuple[Example, ...]:
    sets = vector_sets(Path(directory))
    out: list[Example] = []
    for name in sorted(sets, key=lambda n: n != "standard"):  # standard first, then as indexed
        entry = sets[name]
        for case in json.loads((Path(directory) / entry["file"]).read_text(encoding="utf-8")):
            if name == "standard" or case.get("rules") != "any":
                out.append(Example(len(out) + 1, name, entry["rules"], case))
    return tuple(out)


def numbered_examples(directory: Path = VECTOR_DIR) -> tuple[Example, ...]:
    """Every example, numbered from 1."""
    return _numbered(str(directory))


def example_number(number: int, directory: Path = VECTOR_DIR) -> Example:
    """Example ``number`` (a ValueError naming the range if there is none)."""
    found = numbered_examples(directory)
    if not 1 <= number <= len(found):
        raise ValueError(f"--example {number}: the examples are numbered 1 to {len(found)}")
    return found[number - 1]


def request_of(example: Example) -> dict[str, Any]:
    """The request a program is sent for ``example`` (the rules filled in, as
    ``turub vectors`` writes it)."""
    from turub.options import rules_from_dict
    case = example.case
    return {"op": case["op"], "args": ask_args(case["op"], case["args"],
                                               rules_from_dict(example.rules))}


def examples_of(directory: Path = VECTOR_DIR) -> dict[str, list[Example]]:
    """Each clause's examples (the cases that exercise it), in number order."""
    by_clause: dict[str, list[Example]] = {}
    for ex in numbered_examples(directory):
        for clause in ex.case.get("clauses", ()):
            by_clause.setdefault(clause, []).append(ex)
    return by_clause
