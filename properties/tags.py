"""Tagging checks with the clauses they verify.

``@verifies("play.follow-suit", ...)`` on a test, property or proof records the clause IDs
on the function (``__verifies__``) and, when it runs under pytest, as a pytest marker
(``clauses``; the kit imports the suites without pytest, which it does not need).  The IDs are
checked against the registry when the module is imported, so a check cannot cite a clause
that does not exist.  The specification's traceability matrix reads these decorators from
the source (statically), so every check that names a clause is listed under it.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import TypeVar

from turub.clauses import clause

__all__ = ["verifies"]

F = TypeVar("F", bound=Callable)


def verifies(*clause_ids: str) -> Callable[[F], F]:
    """Mark a check as verifying ``clause_ids`` (each must be in the registry)."""
    if not clause_ids:
        raise ValueError("verifies() needs at least one clause ID")
    for cid in clause_ids:
        clause(cid)  # KeyError names an unknown ID

    def mark(check: F) -> F:
        check.__verifies__ = tuple(getattr(check, "__verifies__", ())) + clause_ids  # type: ignore[attr-defined]
        pytest = sys.modules.get("pytest")  # under pytest: mark it; never import it
        return pytest.mark.clauses(*clause_ids)(check) if pytest is not None else check

    return mark
