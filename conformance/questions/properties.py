"""The property suites of :mod:`turub.properties`, run against the implementation under test.

The suites state each rule independently of the engine (``turub.properties.oracles``) and
take the implementation as a parameter.  Here that parameter is a :class:`TargetImplementation`:
the implementation interface over any kit target, so the same properties run in-process
against a Python adapter or, request by request, over the JSON-lines protocol.  Each property
becomes one result in the report, under the clauses it verifies; a falsified property carries
Hypothesis's shrunk counterexample.
"""

from __future__ import annotations

import inspect
import time
import unittest
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from turub.decisions import HouseRuleError

from ..adapter import OPERATIONS, Implementation
from .restate import not_applicable, restated
from ..programs.targets import RESULT, UNSUPPORTED, Answer, Target
from ..text import readable

__all__ = ["TargetImplementation", "TargetFailure", "property_result", "property_results"]

_SIGNATURES = {op: inspect.signature(getattr(Implementation, op)) for op in OPERATIONS}


class TargetFailure(Exception):
    """The target crashed, timed out, broke the protocol or reported an error."""

    def __init__(self, op: str, answer: Answer) -> None:
        self.answer = answer
        super().__init__(f"{op}: {answer.kind}: {answer.detail}")


class TargetImplementation:
    """The implementation interface answered by a kit target, one request per call."""

    def __init__(self, target: Target, only_rules: Any = None) -> None:
        self.target = target
        self.name, self.version = target.name, target.version
        self.calls: deque[tuple[str, dict, Answer]] = deque(maxlen=400)
        # Under a variant that overrides decisions, only its own option values are asked.
        self.only_rules = only_rules

    def supports(self) -> list[str]:
        return sorted(self.target.operations)

    def __repr__(self) -> str:  # as Hypothesis shows it in a counterexample
        return f"<{self.name} {self.version}>"

    def __getattr__(self, op: str) -> Any:
        if op not in _SIGNATURES:
            raise AttributeError(op)

        def ask(*args: Any, **kwargs: Any) -> Any:
            bound = _SIGNATURES[op].bind(self, *args, **kwargs)
            params = {k: v for k, v in bound.arguments.items() if k != "self"}
            if "rules" in params and not self._askable(params["rules"]):
                from hypothesis import currently_in_test_context, reject
                if not currently_in_test_context():
                    raise unittest.SkipTest("asked under options it does not play")
                reject()  # an example under options it does not play: draw another
            answer = self.target.call(op, params)
            self.calls.append((op, params, answer))
            if answer.kind == RESULT:
                return answer.value
            if answer.kind == UNSUPPORTED:
                raise NotImplementedError(op)
            raise TargetFailure(op, answer)

        return ask

    def _askable(self, rules: Any) -> bool:
        from turub.options import rules_from_dict
        try:
            full = rules_from_dict(dict(rules or {}))
        except Exception:  # noqa: BLE001 - a property's own invalid options: let it ask
            return True
        if self.only_rules is not None and full != self.only_rules:
            return False
        return self.target.supports_rules(full.to_dict())


def blame_of_calls(calls: Iterable[tuple[str, dict, Answer]], target: Target | None = None,
                   variant: Any = None) -> tuple[str | None, str, dict | None]:
    """The clause of the falsified assertion: the latest call whose answer the reference
    does not give (the last example run is the shrunk one that failed), judged as a case.
    A refereed deal whose dealing the target gets wrong is blamed on the dealing (asked of
    ``target``).  Returns ``(clause, detail, situation)``; ``(None, "", None)`` when no
    answer disagrees."""
    from turub.options import rules_from_dict

    from .cases import expected_case
    from ..judging.judge import judge
    from ..judging.oracle import under_options
    for op, params, answer in reversed(list(calls)):
        if answer.kind != RESULT:
            continue
        args = {k: v for k, v in params.items() if k != "rules"}
        try:
            rules = under_options(variant, rules_from_dict(params.get("rules") or {}))
            case = expected_case("property-call", op, args, rules)
        except Exception:  # noqa: BLE001 - a call the reference cannot answer names nothing
            continue
        verdict = judge(case, answer.value)
        if not verdict.passed and op == "referee" and target is not None and "deal" in target.operations:
            deal_args = {k: args[k] for k in ("pack", "dealer", "cut")}
            deal_params = {**deal_args, "rules": params.get("rules") or {}}
            dealt = target.call("deal", deal_params)
            deal_case = expected_case("property-call", "deal", deal_args, rules)
            if dealt.kind == RESULT and not (v := judge(deal_case, dealt.value)).passed:
                return v.blame, f"deal: {v.detail}", {"op": "deal", "args": deal_params,
                                                     "expected": deal_case["expected"], "got": dealt.value}
        if not verdict.passed:
            return verdict.blame, f"{op}: {verdict.detail}", {
                "op": op, "args": dict(params), "expected": case["expected"], "got": answer.value}
    return None, "", None


def _counterexample(error: BaseException) -> str:
    notes = [n for n in getattr(error, "__notes__", []) if not n.startswith("You can reproduce")]
    return "\n".join(notes).strip()


def examples_for(test: Any, examples: int) -> int:
    """The examples a property draws of a budget of ``examples`` each: its declared share
    (``scale`` in :func:`turub.properties.factory.property_test`, under 1 for the costlier
    properties that play whole deals), at least 5 (or ``examples``, if fewer), as when the
    suites run under pytest."""
    return max(min(examples, 5), int(examples * getattr(test, "scale", 1.0)))


def property_result(target: Target, name: str, test: Any, examples: int,
                    impl: TargetImplementation | None = None, rules: Any = None,
                    seed: int | None = None, database: Any = None) -> dict[str, Any]:
    """Run one interface property (``name`` in :func:`~turub.properties.checks.
    interface_properties`) against ``target``, as one result of the report; it draws
    :func:`examples_for` of ``examples``.  Derandomized by default; with a ``seed``, that
    seed draws the examples, and a ``database`` (Hypothesis example database) keeps the
    failures found and replays earlier ones first (the pytest plugin's deep campaigns)."""
    from hypothesis import HealthCheck
    from hypothesis.errors import Unsatisfiable

    from turub.properties.checks import search

    clauses = sorted(getattr(test, "__verifies__", ()))
    out: dict[str, Any] = {"id": f"property/{name}", "kind": "property", "op": name,
                           "clauses": clauses}
    why_not = not_applicable(name, clauses, rules)
    if why_not:  # under a variant whose house rule replaces the rule it states
        return {**out, "status": "unsupported", "detail": why_not}
    impl = impl if impl is not None else TargetImplementation(target)
    impl.calls.clear()
    try:
        examples = examples_for(test, examples)
        with restated(rules):  # under a variant: the oracles answer as its house rules decide
            if seed is None:
                search(test, impl, max_examples=examples, derandomize=True, database=None,
                       deadline=None, print_blob=False, suppress_health_check=list(HealthCheck))
            elif getattr(test, "build", None) is None:  # a property that draws nothing
                test(impl=impl)
            else:
                test.build(seed=seed, max_examples=examples, derandomize=False, database=database,
                           deadline=None, print_blob=False,
                           suppress_health_check=list(HealthCheck))(impl=impl)
    except unittest.SkipTest as e:  # the property's requires(): an operation missing
        return {**out, "status": "unsupported", "detail": str(e)}
    except Unsatisfiable:  # every example drew options it does not play
        return {**out, "status": "unsupported", "detail": "no example under the options it plays"}
    except NotImplementedError as e:
        return {**out, "status": "unsupported", "detail": f"{e} is not supported"}
    except TargetFailure as e:
        return {**out, "status": "failed", "outcome": e.answer.kind,
                "failing_clauses": clauses, "blamed": None, "detail": str(e),
                "minimal": readable(_counterexample(e))}
    except HouseRuleError as e:  # the variant's own rule is broken: not the program's fault
        return {**out, "status": "not-run", "detail": f"not judged: {e}", "house_rule_failed": e.clause}
    except Exception as e:  # noqa: BLE001 - a falsified property is the verdict
        first = (str(e).strip().splitlines() or [type(e).__name__])[0]
        blamed, why, situation = blame_of_calls(impl.calls, target, rules)
        return {**out, "status": "failed", "outcome": "wrong-answer",
                "failing_clauses": [blamed] if blamed else clauses, "blamed": blamed,
                # the property's message and Hypothesis's example are Python: no reprs in a report
                "detail": readable(first[:500]) + (f" (first wrong answer: {why})" if why else ""),
                "minimal": readable(_counterexample(e)), **({"situation": situation} if situation else {})}
    return {**out, "status": "passed", "detail": f"held for up to {examples} drawn examples"}


def property_results(target: Target, examples: int, budget: float, rules: Any = None,
                     select: Callable[[str, str, list[str]], bool] | None = None,
                     exitfirst: bool = False,
                     on_result: Callable[[dict[str, Any]], None] | None = None,
                     known: dict[str, dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Run every interface property of :mod:`turub.properties` against ``target``.

    ``examples`` bounds each property's search; the properties draw their own rule options,
    so a target that supports only some options gets them reported as unsupported.  Searches
    are derandomized, so two runs on the same implementation ask the same questions.
    ``select(id, name, clauses)`` chooses the properties to run (``-k``, ``--clause``);
    ``exitfirst`` stops after the first that fails.  Each result carries its ``time`` and
    goes to ``on_result`` as soon as it is known.  ``known`` holds results already had
    elsewhere (a second process, :mod:`turub.conformance.programs.lane`), by ID: they take their
    place in the order and are not run again.
    """
    from turub.properties.checks import interface_properties

    impl = TargetImplementation(target)
    results: list[dict[str, Any]] = []
    stop_at = time.monotonic() + budget
    for name, test in interface_properties().items():
        if select is not None and not select(f"property/{name}", name,
                                             sorted(getattr(test, "__verifies__", ()))):
            continue
        if exitfirst and results and results[-1]["status"] == "failed":
            break
        if known and f"property/{name}" in known:
            results.append(known[f"property/{name}"])
        elif time.monotonic() > stop_at:
            results.append({"id": f"property/{name}", "kind": "property", "op": name,
                            "clauses": sorted(getattr(test, "__verifies__", ())),
                            "status": "not-run", "detail": "not run: out of time budget", "time": 0.0})
        else:
            began = time.monotonic()
            results.append({**property_result(target, name, test, examples, impl, rules),
                            "time": round(time.monotonic() - began, 4)})
        if on_result is not None:
            on_result(results[-1])
    return results
