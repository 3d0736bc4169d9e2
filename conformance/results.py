"""Results as types: a case's :class:`Status`, and :class:`CaseResult`, one case as the
report records it, with the one place the report's case format is written (:meth:`CaseResult.to_json`).

>>> CaseResult("trick/r000", "generated", "trick_winner", ("trick.highest-led",), Status.PASSED).to_json()
{'id': 'trick/r000', 'kind': 'generated', 'op': 'trick_winner', 'clauses': ['trick.highest-led'], 'status': 'passed'}
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, ClassVar, Final

__all__ = ["Status", "CaseResult", "UNSET"]


class Status(enum.StrEnum):
    """What became of one planned check (a ``str``: the report writes its value)."""

    PASSED = "passed"
    FAILED = "failed"
    UNSUPPORTED = "unsupported"  # the program said it does not do this operation or rule
    NOT_RUN = "not-run"  # asked of nobody, or not judged: never a pass
    XFAIL = "xfail"  # failed, as an expected-failures list says it does
    XPASS = "xpass"  # passed, though listed as an expected failure: a failure of the list


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


#: A field the case does not carry (``None`` is a value a report may hold: ``"got": null``).
UNSET: Final[Any] = _Unset()


@dataclass(frozen=True, slots=True)
class CaseResult:
    """One case as the report records it; the fields in the order the report writes them."""

    id: str
    kind: str
    op: str
    clauses: tuple[str, ...]
    status: Status
    rules: Any = UNSET  # the options it was asked under ({name: value})
    expected_digest: Any = UNSET
    answer_digest: Any = UNSET
    outcome: Any = UNSET  # a failure's kind: wrong-answer, crash, ...
    failing_clauses: Any = UNSET
    blamed: Any = UNSET
    detail: Any = UNSET
    args: Any = UNSET
    expected: Any = UNSET
    got: Any = UNSET
    minimal: Any = UNSET  # the smallest failing example, as text
    situation: Any = UNSET  # a property's first wrong answer, as a question ({op, args, expected, got})
    house_rule_failed: Any = UNSET  # the clause of the variant's house rule that broke (not judged)
    plan: Any = UNSET  # a differential sitting's smallest drawn plan
    house_clauses: Any = UNSET  # a differential row under house rules: {clause: decisions it made}

    #: The report's key order (each construction site once wrote it; now here, once).
    _ORDER: ClassVar[tuple[str, ...]] = ("id", "kind", "op", "clauses", "rules", "expected_digest", "answer_digest", "status",
              "outcome", "failing_clauses", "blamed", "detail", "args", "expected", "got", "minimal",
              "situation", "house_rule_failed", "plan", "house_clauses")
    #: A differential search's row, in the order reports have written it: the detail just after
    #: the status, the rules of the drawn question after the answers, then the drawn plan.
    _SEARCH_ORDER: ClassVar[tuple[str, ...]] = ("id", "kind", "op", "clauses", "status", "detail", "outcome",
              "failing_clauses", "blamed", "minimal", "args", "expected", "got", "rules", "plan",
              "house_rule_failed", "expected_digest", "answer_digest", "situation", "house_clauses")

    def to_json(self) -> dict[str, Any]:
        """The case as the report's ``cases`` rows hold it (unset fields left out)."""
        out: dict[str, Any] = {}
        for name in self._SEARCH_ORDER if self.kind == "differential" else self._ORDER:
            value = getattr(self, name)
            if value is not UNSET:
                out[name] = list(value) if name == "clauses" else \
                    str(value) if name == "status" else value
        return out

