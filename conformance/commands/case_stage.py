"""Asking and judging, one case at a time: the per-case stage of a run of
:mod:`.check`.  Requests are drawn lazily from the planned work, each answer is judged the
moment it arrives (:func:`judged`) and only a bounded result is kept.  Judging runs user
code when a variant brings its own rules: whatever it raises (``SystemExit`` and
``KeyboardInterrupt`` included) makes that case ``not-run`` with the reason, never a pass
and never the end of the run.
"""

from __future__ import annotations

import heapq
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from turub import Rules
from turub.tools.progress import Progress

from ..judging.judge import verdict_of
from ..operations import REGISTRY, asked_with_rules
from ..programs import run_clock
from ..programs.targets import NOT_RUN, Answer, Interrupted, Request, Target
from ..questions.cases import Case, ask_args
from ..reports.baseline import digest, run_variant
from ..reports.spool import CaseLog
from ..results import UNSET, CaseResult, Status
from ..text import bounded, safe_text

__all__ = ["CaseStage", "judged", "not_run_if_unjudged", "kit_failure", "bound_result", "stray_output",
           "DETAIL_LIMIT", "VALUE_LIMIT", "MINIMAL_LIMIT"]

#: What a report keeps of one case: characters of a detail, of a value the program sent, of
#: a smallest situation.
DETAIL_LIMIT, VALUE_LIMIT, MINIMAL_LIMIT = 2000, 4096, 8000
_AMEND_WINDOW = 512  # results held back so that a late duplicate answer can amend them


def bound_result(out: dict) -> dict:
    """A case result with everything that can be long cut to the report's limits."""
    if "detail" in out:
        out["detail"] = safe_text(out["detail"], DETAIL_LIMIT)
    if "minimal" in out and out["minimal"] is not None:
        out["minimal"] = safe_text(out["minimal"], MINIMAL_LIMIT, keep_lines=True)
    if "got" in out:
        out["got"] = bounded(out["got"], VALUE_LIMIT)
    return out


def _case_result(case: dict, kind: str, answer: Answer | None, rules: Rules) -> dict:
    if answer is None:
        answer = Answer(NOT_RUN, None, "no answer was recorded")
    asked = CaseResult(case["id"], kind, case["op"], tuple(case["clauses"]), Status.PASSED,
                       rules=case["rules"], expected_digest=digest(case["expected"]),
                       answer_digest=digest(answer.value) if answer.kind == "result" else answer.kind)
    if answer.kind == "unsupported":
        return replace(asked, status=Status.UNSUPPORTED, detail=answer.detail or UNSET).to_json()
    if answer.kind == NOT_RUN:
        return replace(asked, status=Status.NOT_RUN, detail=safe_text(answer.detail, DETAIL_LIMIT)).to_json()
    verdict = verdict_of(case, answer)
    if verdict.passed:
        return asked.to_json()
    failed = replace(asked, status=Status.FAILED, outcome=verdict.outcome,
                     failing_clauses=list(verdict.clauses), blamed=verdict.blame, detail=verdict.detail,
                     args=ask_args(case["op"], case["args"], rules), expected=case["expected"])
    if answer.kind == "result" or answer.value is not None:  # a malformed answer's value too
        failed = replace(failed, got=answer.value)
    record = REGISTRY.get(case["op"])
    if record is not None and record.drawn_under_rules and answer.kind == "result":  # a refereed deal
        from ..questions.differential import describe_deal
        try:
            failed = replace(failed, minimal=describe_deal({**case, "rules": rules.to_dict()}, verdict, answer.value))
        except Exception as e:  # noqa: BLE001 - a description is a nicety, never a crash
            failed = replace(failed, minimal=f"(could not describe: {e})")
    return bound_result(failed.to_json())


def kit_failure(result: dict, what: str, e: BaseException) -> dict:
    """A check the kit (or user code it ran, a variant's rule) could not complete: never a
    pass, never the program's fault."""
    return {**result, "status": Status.NOT_RUN.value,
            "detail": safe_text(f"not judged: the kit failed while {what}: {type(e).__name__}: {e}", DETAIL_LIMIT)}


def judged(case: dict, kind: str, answer: Answer, rules: Rules) -> dict:
    """:func:`_case_result`, or a ``not-run`` row if the answer cannot be judged (a kit bug,
    or a variant's rule that raised or exited: ``BaseException`` but a signal)."""
    try:
        return _case_result(case, kind, answer, rules)
    except Interrupted:
        raise
    except BaseException as e:  # noqa: BLE001 - SystemExit too: user code must not end the run
        asked = CaseResult(case["id"], kind, case["op"], tuple(case["clauses"]), Status.NOT_RUN,
                           rules=case["rules"])
        return kit_failure(asked.to_json(), "judging the answer", e)


def not_run_if_unjudged(result: dict) -> dict:
    """A check result whose only "failure" is that it was not run is ``not-run``."""
    if result.get("status") == "failed" and result.get("outcome") == NOT_RUN:
        result = {k: v for k, v in result.items() if k not in ("outcome", "failing_clauses", "minimal")}
        result["status"] = NOT_RUN
    return bound_result(result)


class CaseStage:
    """The per-case phase: requests drawn lazily from the work, answers judged as they come,
    results held back a little (a duplicate answer amends its request) then logged in the
    order of the cases, whatever the order of the answers (so ``-j N`` reports as ``-j 1``).
    With ``exitfirst`` (``-x``) no request follows the first failure, and nothing after it
    is logged.  Each result gets its ``time`` (seconds from the request to its answer) and
    goes to ``emit`` as soon as it is judged (an amendment goes again)."""

    def __init__(self, target: Target, rules: Rules, log: CaseLog, progress: Progress,
                 deadline: float | None, exitfirst: bool = False,
                 emit: Callable[[dict], None] | None = None) -> None:
        self.target, self.rules, self.log, self.progress = target, rules, log, progress
        self.emit = emit
        self.sent: dict[int, float] = {}  # when each request still unanswered was asked
        self.deadline = deadline
        self.exitfirst, self.failed, self.logged_failure = exitfirst, False, False
        self.waiting: dict[int, tuple[str, Case]] = {}
        self.recent: OrderedDict[int, tuple[str, Case, dict]] = OrderedDict()
        self.order: list[int] = []  # heap of the keys held back, the earliest case first
        self.late_amendments: list[str] = []
        self.cut = False
        self.rules_ok = target.supports_rules(rules.to_dict())
        self.variant_ok = target.supports_variant(run_variant(rules)["name"])

    def requests(self, work: Iterator[tuple[str, Case]]) -> Iterator[Request]:
        for i, (kind, case) in enumerate(work):
            if self.exitfirst and self.failed:
                return
            if self.deadline is not None and run_clock.past(self.deadline):
                self.cut = True
                return
            self.waiting[i] = (kind, case)
            if case["op"] not in self.target.operations or not self.variant_ok or (
                    asked_with_rules(case["op"]) and not self.rules_ok):
                self.record(i, Answer("unsupported"))
            elif case.get("protocol", 1) > self.target.protocol:
                self.record(i, Answer("unsupported", None, f"not applicable: the question needs protocol "
                                                           f"version {case['protocol']}"))
            else:
                self.sent[i] = time.monotonic()
                yield Request(i, case["op"], ask_args(case["op"], case["args"], self.rules,
                                                      self.target.protocol))

    def record(self, key: int, answer: Answer) -> None:
        now = time.monotonic()
        if key in self.waiting:
            kind, case = self.waiting.pop(key)
            took = now - self.sent.pop(key, now)
            self.progress.step()
        elif key in self.recent:  # an amendment: answered twice
            kind, case, first = self.recent.pop(key)
            took = first.get("time", 0.0)
        else:
            if len(self.late_amendments) < 5:
                self.late_amendments.append(f"case {key}: {safe_text(answer.detail, 200)}")
            else:
                self.late_amendments.append("")
            return
        try:
            result = judged(case, kind, answer, self.rules)
        except Interrupted:  # stopped while judging it: it stays waiting, then is not run
            self.waiting[key] = (kind, case)
            raise
        result["time"] = round(took, 4)
        if self.emit is not None:
            self.emit(result)
        self.recent[key] = (kind, case, result)
        heapq.heappush(self.order, key)
        self.failed = self.failed or result["status"] == "failed"
        if len(self.recent) > _AMEND_WINDOW:
            self._log_earliest()

    def _log_earliest(self) -> None:
        key = heapq.heappop(self.order)
        while key not in self.recent:  # pushed again by an amendment
            key = heapq.heappop(self.order)
        result = self.recent.pop(key)[2]
        if not (self.exitfirst and self.logged_failure):
            self.log.append(result)
            self.logged_failure = self.logged_failure or result["status"] == "failed"

    def flush(self, why: str | None = None) -> None:
        """Log everything held back; what is still waiting is ``not-run`` (``why``)."""
        for key in list(self.waiting):
            self.record(key, Answer(NOT_RUN, None, why or "no answer was recorded"))
        while self.recent:
            self._log_earliest()


def stray_output(target: Target, late: list[str]) -> dict | None:
    """Lines the program sent that answered nothing outstanding, as one failed result."""
    noise = target.noise
    count = noise["lines"] + len(late)
    if not count:
        return None
    examples = noise["examples"] + [x for x in late if x]
    return bound_result({
        "id": "protocol/stray-output", "kind": "protocol", "op": "protocol", "clauses": [],
        "rules": "any", "status": "failed", "outcome": "protocol-violation", "failing_clauses": [],
        "detail": f"{count} line(s) answered no request still waiting (noise, duplicates, unasked "
                  f"ids); first: {'; '.join(examples[:5])}"})
