"""The kit: run the kinds of check against a target and build the report.

1. the committed vectors of the option set (computed from the reference when the set is
   not committed);
2. cases generated from a seed, one at a time;
3. differential play with shrinking;
4. the project's property suites.

:func:`run_check` returns the report as plain data (see :mod:`turub.conformance.reports.report`).
Each answer is judged when it arrives and only a bounded result is kept
(:mod:`~turub.conformance.reports.spool`), so memory stays flat however many cases run.  The
whole-run ``deadline`` covers everything: generation, each check, closing the program; a
run it cuts says so (``cut``) and keeps what it has, the rest ``not-run``.  A signal
(:class:`~turub.conformance.programs.targets.Interrupted`) ends the run the same way, marked
``interrupted``.  A program that could not be started gets no per-case rows at all, only
``startup_failure``.
"""

from __future__ import annotations

import gc
import heapq
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TextIO

from turub import Rules
from turub.progress import Progress

from ..adapter import DIFFERENTIAL_CHECKS
from ..questions.directed import directed_cases
from ..questions.cases import RULED_OPS, Case, ask_args, build_vectors, generated_counts, iter_generated_cases, rules_name
from ..judging.judge import verdict_of
from ..questions.select import Selection
from ..reports.spool import CaseLog
from ..programs.lane import Lane
from ..programs.targets import NOT_RUN, Answer, Interrupted, PythonTarget, Request, Target
from ..text import bounded, safe_text
from ..questions.vectors import load_vectors
from ..reports.baseline import digest, request_variant, run_variant, spec_identity

__all__ = ["CheckOptions", "run_check", "vector_cases", "DETAIL_LIMIT", "VALUE_LIMIT"]

KIT_VERSION = "1"
#: What a report keeps of one case: characters of a detail, of a value the program sent, of
#: a smallest situation.
DETAIL_LIMIT, VALUE_LIMIT, MINIMAL_LIMIT = 2000, 4096, 8000
#: Seconds the property suites' second process may run past their budget (its last property
#: may overrun it) before it is stopped and what it did not finish runs here.
LANE_GRACE = 5.0
_AMEND_WINDOW = 512  # results held back so that a late duplicate answer can amend them


@dataclass
class CheckOptions:
    """What to run.  ``scale`` multiplies the generated cases; ``examples`` is per
    differential property; ``budget`` bounds each property's search and shrinking;
    ``properties`` is the number of examples for each property of :mod:`turub.properties`
    run against the implementation, within ``properties_budget`` seconds in all."""

    rules: Rules = Rules()  # or a turub.variants.Variant: the variant's expected answers
    vectors: bool = True
    seed: int | None = 1
    scale: float = 1.0
    examples: int = 300
    budget: float = 8.0
    progress: bool = False
    properties: int = 0  # examples per property of turub.properties (0: don't; the CLI asks 25)
    properties_budget: float = 30.0
    selection: Selection = Selection()  # -k, --clause, --op (turub.conformance.questions.select)
    exitfirst: bool = False  # -x: stop at the first failure
    #: run the property suites in a forked second process while the other checks run, when
    #: the target is in-process (:class:`~turub.conformance.programs.targets.PythonTarget`) and the
    #: machine allows it (:mod:`turub.conformance.programs.lane`); the report is the same either way
    second_process: bool = False


def vector_cases(rules: Rules) -> list[Case]:
    """The committed vectors of ``rules``, or the same inputs answered now if not committed."""
    from ..judging.oracle import variant_of
    variant = variant_of(rules)
    committed = load_vectors(rules) if variant is None else None
    if committed is not None:
        return committed
    if variant is not None and variant in _VARIANT_VECTORS:
        return _VARIANT_VECTORS[variant]
    name = "custom"
    cases = build_vectors({"standard": Rules(), name: rules})[name]
    if variant is not None:  # a variant's own expected answers, computed once per process
        _VARIANT_VECTORS[variant] = cases
    return cases


_VARIANT_VECTORS: dict = {}


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
    out: dict[str, Any] = {"id": case["id"], "kind": kind, "op": case["op"],
                           "clauses": list(case["clauses"]), "rules": case["rules"],
                           "expected_digest": digest(case["expected"])}
    if answer is None:
        answer = Answer(NOT_RUN, None, "no answer was recorded")
    out["answer_digest"] = digest(answer.value) if answer.kind == "result" else answer.kind
    if answer.kind == "unsupported":
        out["status"] = "unsupported"
        if answer.detail:
            out["detail"] = answer.detail
        return out
    if answer.kind == NOT_RUN:
        out.update(status=NOT_RUN, detail=safe_text(answer.detail, DETAIL_LIMIT))
        return out
    verdict = verdict_of(case, answer)
    if verdict.passed:
        out["status"] = "passed"
        return out
    out.update(status="failed", outcome=verdict.outcome, failing_clauses=list(verdict.clauses),
               blamed=verdict.blame, detail=verdict.detail, args=ask_args(case["op"], case["args"], rules),
               expected=case["expected"])
    if answer.kind == "result":
        out["got"] = answer.value
    if case["op"] == "referee" and answer.kind == "result":
        from ..questions.differential import describe_deal
        try:
            out["minimal"] = describe_deal({**case, "rules": rules.to_dict()}, verdict, answer.value)
        except Exception as e:  # noqa: BLE001 - a description is a nicety, never a crash
            out["minimal"] = f"(could not describe: {e})"
    return bound_result(out)


def _kit_failure(result: dict, what: str, e: Exception) -> dict:
    """A check the kit itself could not complete: never a pass, never the program's fault."""
    return {**result, "status": NOT_RUN,
            "detail": safe_text(f"not judged: the kit failed while {what}: {type(e).__name__}: {e}", DETAIL_LIMIT)}


def _judged(case: dict, kind: str, answer: Answer, rules: Rules) -> dict:
    """:func:`_case_result`, or a ``not-run`` row if the kit cannot judge the answer."""
    try:
        return _case_result(case, kind, answer, rules)
    except Exception as e:  # noqa: BLE001 - a kit bug must not lose the report
        return _kit_failure({"id": case["id"], "kind": kind, "op": case["op"],
                             "clauses": list(case["clauses"]), "rules": case["rules"]}, "judging the answer", e)


def _honest(result: dict) -> dict:
    """A check result whose only "failure" is that it was not run is ``not-run``."""
    if result.get("status") == "failed" and result.get("outcome") == NOT_RUN:
        result = {k: v for k, v in result.items() if k not in ("outcome", "failing_clauses", "minimal")}
        result["status"] = NOT_RUN
    return bound_result(result)


class _Cases:
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
            if self.deadline is not None and time.monotonic() >= self.deadline:
                self.cut = True
                return
            self.waiting[i] = (kind, case)
            if case["op"] not in self.target.operations or not self.variant_ok or (
                    case["op"] in RULED_OPS and not self.rules_ok):
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
        result = _judged(case, kind, answer, self.rules)
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


def _stray_output(target: Target, late: list[str]) -> dict | None:
    """Lines the program sent that answered nothing outstanding, as one failed result."""
    noise = getattr(target, "noise", None) or {"lines": 0, "examples": []}
    count = noise["lines"] + len(late)
    if not count:
        return None
    examples = noise["examples"] + [x for x in late if x]
    return bound_result({
        "id": "protocol/stray-output", "kind": "protocol", "op": "protocol", "clauses": [],
        "rules": "any", "status": "failed", "outcome": "protocol-violation", "failing_clauses": [],
        "detail": f"{count} line(s) answered no request still waiting (noise, duplicates, unasked "
                  f"ids); first: {'; '.join(examples[:5])}"})


#: Allocations between two collections of the youngest generation during a run (Python's
#: default is 700).  Hypothesis allocates hundreds of thousands of short-lived objects, and
#: each collection of the older generations walks everything the run keeps alive: collected
#: this rarely, the cyclic garbage collector takes a few percent of a default run instead of
#: a tenth, and the garbage a run may hold at once stays bounded (memory stays flat).
GC_YOUNG_THRESHOLD = 100_000


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """The cyclic garbage collector's youngest threshold raised for a run, then restored."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], GC_YOUNG_THRESHOLD), *before[1:])
    try:
        yield
    finally:
        gc.set_threshold(*before)


def run_check(target: Target, options: CheckOptions, *, describe: dict | None = None,
              progress_stream: TextIO | None = None, deadline: float | None = None,
              log: Callable[[str], None] | None = None,
              on_result: Callable[[dict], None] | None = None) -> dict:
    """Run every check on ``target``; the report as plain data (before expected failures).
    ``on_result`` gets each result as soon as it is judged (``--jsonl``)."""
    with _fewer_collections():
        return _run_check(target, options, describe=describe, progress_stream=progress_stream,
                          deadline=deadline, log=log, on_result=on_result)


def _run_check(target: Target, options: CheckOptions, *, describe: dict | None,
               progress_stream: TextIO | None, deadline: float | None,
               log: Callable[[str], None] | None, on_result: Callable[[dict], None] | None) -> dict:
    started = time.monotonic()
    rules = options.rules
    variant = run_variant(rules)
    results = CaseLog()

    def keep(result: dict) -> None:
        results.append(result)
        if on_result is not None:
            on_result(result)
    interrupted: int | None = None
    cut = False

    def past_deadline() -> bool:
        return deadline is not None and time.monotonic() >= deadline

    def left(budget: float) -> float:
        return budget if deadline is None else max(0.0, min(budget, deadline - time.monotonic()))

    failure = None
    lane: Lane | str | None = None  # the property suites' second process, or why there is none
    lane_ends = 0.0  # when the property suites' budget ends, if they began in a second process
    where = ""  # where the property suites ran, when a second process was asked for
    phase: _Cases | None = None
    progress: Progress | None = None
    try:
        failure = target.start()
        variant_ok = failure is None and target.supports_variant(variant["name"])
        if failure is None and not variant_ok:
            target.diagnostics.append(f"it declares the variants {target.variants}, not "
                                      f"{variant['name']}: nothing is asked under it")
        if failure is None:
            target.variant = request_variant(rules, target)  # named in every request
            if options.second_process and options.properties > 0 and variant_ok \
                    and not options.exitfirst and isinstance(target, PythonTarget):
                lane, lane_ends = _property_lane(target, options, rules, left(options.properties_budget))
                where = "a second process" if isinstance(lane, Lane) else f"this process ({lane})"
            planned = sum(generated_counts(options.scale).values()) if options.seed is not None and options.scale > 0 else 0

            def work() -> Iterator[tuple[str, Case]]:
                if options.vectors:
                    for c in vector_cases(rules):
                        yield "vector", c
                    for c in directed_cases(rules):  # fixed too (questions.directed)
                        yield "vector", c
                if options.seed is not None and options.scale > 0:
                    for c in iter_generated_cases(options.seed, rules, options.scale):
                        yield "generated", c

            chosen = ((kind, c) for kind, c in work()
                      if options.selection.matches(c["id"], c["op"], c["clauses"]))
            progress = Progress(planned + (400 if options.vectors else 0), progress_stream,
                                label="turub check", unit="cases", approximate=True)
            phase = _Cases(target, rules, results, progress, deadline, options.exitfirst, on_result)
            target.run(phase.requests(chosen), phase.record)
            phase.flush("not answered before the whole-run time limit" if phase.cut else None)
            progress.close()
            cut = phase.cut or getattr(target, "cut", False)
            fatal = getattr(target, "fatal", None)
            stopped = phase.logged_failure if options.exitfirst else False
            if options.examples > 0 and variant_ok and not stopped:
                for name, (check_id, op, clauses) in DIFFERENTIAL_CHECKS.items():
                    if stopped or not options.selection.matches(check_id, op, clauses):
                        continue
                    if fatal is not None or past_deadline():
                        cut = cut or past_deadline()
                        why = "the whole-run time limit came first" if past_deadline() else \
                            f"the implementation is gone: {fatal.detail if fatal else ''}"
                        keep({"id": check_id, "kind": "differential", "op": op,
                              "clauses": list(clauses), "status": NOT_RUN,
                              "detail": safe_text(f"not run: {why}", DETAIL_LIMIT)})
                        continue
                    from ..questions import differential  # Hypothesis: imported when differential play runs
                    prop = getattr(differential, f"differential_{name}")
                    if log:
                        log(f"differential play: {name}…")
                    seed = options.seed if options.seed is not None else 0
                    began = time.monotonic()
                    try:
                        searched = _honest(prop(target, rules, options.examples, seed, left(options.budget)))
                    except Exception as e:  # noqa: BLE001 - a kit bug must not lose the report
                        searched = _kit_failure({"id": check_id, "kind": "differential",
                                                 "op": op, "clauses": list(clauses)}, "playing", e)
                    keep({**searched, "time": round(time.monotonic() - began, 4)})
                    fatal = getattr(target, "fatal", None)
            if stopped:
                pass  # -x: nothing runs after the first failure
            elif options.properties > 0 and fatal is None and not past_deadline() and variant_ok:
                if log:
                    log("property suites…")
                from ..questions.properties import property_results
                known: dict[str, dict] = {}
                budget = left(options.properties_budget)
                if isinstance(lane, Lane):
                    # the budget began when the second process did: what it left undone gets the rest
                    had, why = lane.collect(until=min(lane_ends + LANE_GRACE, deadline or math.inf))
                    budget = left(max(0.0, lane_ends - time.monotonic()))
                    lane = None
                    if why is not None:
                        where = f"a second process, which {why}, then this process"
                    known = {r["id"]: r for r in had if isinstance(r.get("id"), str)}
                try:
                    found = property_results(target, options.properties, budget, rules,
                                             select=options.selection.matches, exitfirst=options.exitfirst,
                                             on_result=None if on_result is None else
                                             lambda r: on_result(_honest(dict(r))), known=known)
                except Exception as e:  # noqa: BLE001 - a kit bug must not lose the report
                    found = [_kit_failure({"id": "property/*", "kind": "property", "op": "properties",
                                           "clauses": []}, "running the property suites", e)]
                    if on_result is not None:
                        on_result(found[0])
                results.extend(_honest(r) for r in found)  # each already went to on_result
            elif options.properties > 0:
                cut = cut or past_deadline()
    except Interrupted as e:
        interrupted = e.signum
        if phase is not None:
            phase.flush("not answered: the kit was interrupted")
    finally:
        if isinstance(lane, Lane):
            lane.cancel()  # its results were not needed (a failure to start, -x, a signal)
            where = ""
        if progress is not None:
            progress.close()  # a terminal gets its cursor back, whatever stopped the run
        if interrupted is not None and hasattr(target, "abort"):
            target.abort()  # type: ignore[attr-defined]
        else:
            try:
                target.close()
            except Interrupted as e:
                interrupted = e.signum
                if hasattr(target, "abort"):
                    target.abort()  # type: ignore[attr-defined]
    cut = cut or bool(getattr(target, "cut", False))
    stray = _stray_output(target, phase.late_amendments if phase is not None else [])
    if stray is not None:
        keep(stray)
    startup = getattr(target, "startup_failure", None)
    report = {
        "format": "turub-report/1",
        "kit": {"name": "turub conformance kit", "version": KIT_VERSION,
                "engine": __import__("turub").__version__,
                **({"property_suites": where} if where else {})},
        "implementation": {"name": target.name, "version": target.version,
                           "operations": sorted(target.operations), "rules": target.rules,
                           "protocol": getattr(target, "protocol", 1), **(describe or {})},
        "rules": rules.to_dict(),
        "rules_name": rules_name(rules),
        "variant": variant,
        "spec": spec_identity(),
        "seed": options.seed,
        "duration": round(time.monotonic() - started, 3),
        "restarts": target.restarts,
        "diagnostics": [safe_text(d, 4000, keep_lines=True) for d in target.diagnostics],
        "cut": cut,
        "interrupted": interrupted,
        "startup_failure": startup if failure is not None else None,
        "cases": results if startup is None or failure is None else CaseLog(),
    }
    return report


def _property_lane(target: Target, options: CheckOptions, rules: Any,
                   budget: float) -> tuple[Lane | str, float]:
    """The property suites started in a forked second process (:mod:`.lane`), and when
    their ``budget`` ends; or why they will run in this process."""
    import hypothesis  # noqa: F401 - imported once, before the fork, for both processes

    from ..questions.properties import property_results

    def work(emit: Callable[[dict], None]) -> None:
        property_results(target, options.properties, budget, rules,
                         select=options.selection.matches, on_result=emit)
    return Lane.fork(work), time.monotonic() + budget


def reference_target(timeout: float = 5.0) -> Target:
    """The bundled reference engine as a target."""
    from ..adapter import ReferenceImplementation
    from ..programs.targets import PythonTarget
    return PythonTarget(ReferenceImplementation(), timeout, trusted=True)

