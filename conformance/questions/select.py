"""Choosing which checks run: ``-k EXPR``, ``--clause ID``, ``--op NAME`` and ``--case ID``.

A check (a case, a differential search or a property) is known by its ID
(``legal_plays/worked-void-any-card``), its operation and the clauses it is about.  A
:class:`Selection` keeps the checks that pass every filter given:

* ``--clause ID`` (repeatable): the check is about one of these clauses; ``play.*`` stands
  for every clause whose ID starts with ``play.``;
* ``--op NAME`` (repeatable): the check asks one of these operations;
* ``--case ID`` (repeatable): the check's ID is one of these (a failure's reproduce command);
* ``-k EXPR``: a pytest-style expression of words joined by ``and``, ``or``, ``not`` and
  parentheses, where a word holds when it is part of the check's ID, its operation or one
  of its clause IDs (``-k "follow-suit and not generated"``).

Bad selections raise :class:`SelectionError` naming the option, before anything runs.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from turub.clauses import CLAUSES

from ..adapter import OPERATIONS

__all__ = ["Selection", "SelectionError", "keyword_matcher"]


class SelectionError(ValueError):
    """A selection option that cannot be used; the message names the option."""


_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")


def keyword_matcher(expr: str) -> Callable[[Iterable[str]], bool]:
    """A predicate over a check's names (ID, operation, clauses) for the ``-k`` expression."""
    tokens = [t for t in _TOKEN.findall(expr) if t]
    if not tokens:
        raise SelectionError("-k: an empty expression")
    pos = 0

    def peek() -> str | None:
        return tokens[pos] if pos < len(tokens) else None

    def take() -> str:
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def disjunction() -> Callable[[str], bool]:
        parts = [conjunction()]
        while peek() == "or":
            take()
            parts.append(conjunction())
        return lambda text: any(p(text) for p in parts)

    def conjunction() -> Callable[[str], bool]:
        parts = [negation()]
        while peek() == "and":
            take()
            parts.append(negation())
        return lambda text: all(p(text) for p in parts)

    def negation() -> Callable[[str], bool]:
        if peek() == "not":
            take()
            inner = negation()
            return lambda text: not inner(text)
        return atom()

    def atom() -> Callable[[str], bool]:
        token = peek()
        if token is None:
            raise SelectionError(f"-k {expr!r}: the expression ends too early")
        take()
        if token == "(":
            inner = disjunction()
            if peek() != ")":
                raise SelectionError(f"-k {expr!r}: a parenthesis is not closed")
            take()
            return inner
        if token in (")", "and", "or"):
            raise SelectionError(f"-k {expr!r}: unexpected {token!r}")
        word = token.lower()
        return lambda text: word in text

    matcher = disjunction()
    if peek() is not None:
        raise SelectionError(f"-k {expr!r}: unexpected {peek()!r}")
    return lambda names: matcher("\n".join(names).lower())


def _clause_pattern(text: str) -> Callable[[str], bool]:
    if text.endswith(".*") or text.endswith("*"):
        prefix = text.rstrip("*")
        if not any(cid.startswith(prefix) for cid in CLAUSES):
            raise SelectionError(f"--clause {text}: no clause ID starts with {prefix!r}")
        return lambda cid: cid.startswith(prefix)
    if text not in CLAUSES:
        raise SelectionError(f"--clause {text}: no such clause (see the clause list in the spec, "
                             "or give a prefix such as play.*)")
    return lambda cid: cid == text


@dataclass(frozen=True)
class Selection:
    """The filters given on the command line; an empty selection keeps everything."""

    keyword: str | None = None
    clauses: tuple[str, ...] = ()
    ops: tuple[str, ...] = ()
    cases: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for op in self.ops:
            if op not in OPERATIONS:
                raise SelectionError(f"--op {op}: no such operation (one of {', '.join(OPERATIONS)})")
        # Parse now, so a bad selection is refused before anything runs.
        object.__setattr__(self, "_clause_tests", tuple(_clause_pattern(c) for c in self.clauses))
        object.__setattr__(self, "_keyword", keyword_matcher(self.keyword) if self.keyword else None)

    def __bool__(self) -> bool:
        return bool(self.keyword or self.clauses or self.ops or self.cases)

    def matches(self, check_id: str, op: str, clauses: Sequence[str]) -> bool:
        """Whether the check ``check_id`` asking ``op`` about ``clauses`` is selected."""
        if self.cases and check_id not in self.cases:
            return False
        if self.ops and op not in self.ops:
            return False
        tests = self._clause_tests  # type: ignore[attr-defined]
        if tests and not any(t(c) for t in tests for c in clauses):
            return False
        keyword = self._keyword  # type: ignore[attr-defined]
        return keyword is None or keyword([check_id, op, *clauses])
