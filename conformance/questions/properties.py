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
from dataclasses import replace
from typing import Any

from turub.decisions import HouseRuleError

from ..adapter import OPERATIONS, Implementation
from ..operations import REGISTRY
from ..programs import run_clock
from .restate import not_applicable, restated
from ..programs.targets import RESULT, UNSUPPORTED, Answer, Interrupted, Target
from ..results import UNSET, CaseResult, Status
from ..text import readable

__all__ = ["TargetImplementation", "TargetFailure", "TargetUnsupported", "property_result",
           "property_results"]

_SIGNATURES = {op: inspect.signature(getattr(Implementation, op)) for op in OPERATIONS}


class TargetFailure(Exception):
    """The target crashed, timed out, broke the protocol or reported an error."""

    def __init__(self, op: str, answer: Answer) -> None:
        self.answer = answer
        super().__init__(f"{op}: {answer.kind}: {answer.detail}")


class TargetUnsupported(NotImplementedError):
    """The target answered that it does not support the operation asked (the only
    ``NotImplementedError`` that makes a property ``unsupported``: one raised by the kit's
    own code is the kit's failure)."""


class TargetImplementation:
    """The implementation interface answered by a kit target, one request per call.

    It keeps what makes a property *unsupported* rather than not run: whether the property
    asked which operations the target supports while the target lacks one
    (:func:`turub.properties.checks.requires`), and how many examples were drawn under
    options the target does not play.  :meth:`begin` clears both for each property."""

    def __init__(self, target: Target, only_rules: Any = None) -> None:
        self.target = target
        self.name, self.version = target.name, target.version
        self.calls: deque[tuple[str, dict, Answer]] = deque(maxlen=400)
        # Under a variant that overrides decisions, only its own option values are asked.
        self.only_rules = only_rules
        self.lacking_seen = False  # supports() was asked, and the target lacks an operation
        self.unplayed = 0  # examples refused for options the target does not play

    def begin(self) -> None:
        """A new property: no calls, nothing skipped or refused yet."""
        self.calls.clear()
        self.lacking_seen, self.unplayed = False, 0

    def supports(self) -> list[str]:
        self.lacking_seen = self.lacking_seen or not set(OPERATIONS) <= set(self.target.operations)
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
                self.unplayed += 1
                if not currently_in_test_context():
                    raise unittest.SkipTest("asked under options it does not play")
                reject()  # an example under options it does not play: draw another
            answer = self.target.call(op, params)
            self.calls.append((op, params, answer))
            if answer.kind == RESULT:
                return answer.value
            if answer.kind == UNSUPPORTED:
                raise TargetUnsupported(op)
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
    from ..judging.variant_reference import under_options
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
        record = REGISTRY.get(op)
        dealer = record.dealt_by if record is not None else None  # a wrong deal fails it too
        if not verdict.passed and dealer is not None and target is not None and dealer in target.operations:
            deal_args = {k: args[k] for k in ("pack", "dealer", "cut")}
            deal_params = {**deal_args, "rules": params.get("rules") or {}}
            dealt = target.call(dealer, deal_params)
            deal_case = expected_case("property-call", dealer, deal_args, rules)
            if dealt.kind == RESULT and not (v := judge(deal_case, dealt.value)).passed:
                return v.blame, f"{dealer}: {v.detail}", {"op": dealer, "args": deal_params,
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
    failures found and replays earlier ones first (the pytest plugin's deep campaigns).
    How a search that does not hold ends is :func:`_ended`'s to say."""
    from hypothesis import HealthCheck, Phase

    from turub.properties.checks import search

    out = _row(name, test)
    why_not = not_applicable(name, list(out.clauses), rules)
    if why_not:  # under a variant whose house rule replaces the rule it states
        return replace(out, status=Status.UNSUPPORTED, detail=why_not).to_json()
    impl = impl if impl is not None else TargetImplementation(target)
    impl.begin()
    # Every phase of Hypothesis, whatever profile the process has loaded: a loaded profile's
    # phases used to reach the kit's searches, and one without ``generate`` (the project's
    # ``replay``, an implementer's quick profile) made each property "unsupported"
    # (Hypothesis's skip: no test case to run) or "passed" on its worked examples alone.
    kit = {"deadline": None, "print_blob": False, "phases": tuple(Phase),
           "suppress_health_check": list(HealthCheck)}
    try:
        examples = examples_for(test, examples)
        with restated(rules):  # under a variant: the oracles answer as its house rules decide
            if seed is None:
                search(test, impl, max_examples=examples, derandomize=True, database=None, **kit)
            elif getattr(test, "build", None) is None:  # a property that draws nothing
                test(impl=impl)
            else:
                test.build(seed=seed, max_examples=examples, derandomize=False, database=database,
                           **kit)(impl=impl)
    except Exception as e:  # noqa: BLE001 - every way a search ends has its row (_ended)
        return _ended(out, name, e, impl, target, rules)
    return replace(out, status=Status.PASSED, detail=f"held for up to {examples} drawn examples").to_json()


def _ended(out: CaseResult, name: str, error: Exception, impl: TargetImplementation,
           target: Target, rules: Any) -> dict[str, Any]:
    """The row of a property whose search ended with ``error``.  ``unsupported`` only for
    what the program lacks: an operation (the property's ``requires()``), an operation it
    answers it does not support, or the options every example was drawn under.  The same
    endings with nothing the program lacks behind them (Hypothesis's own skip, an example
    no filter of the kit lets through), Hypothesis's own errors and a ``NotImplementedError``
    of the kit's code are the kit's failure: ``not-run``, never a pass.  A broken house rule
    of the variant is ``not-run`` too; the rest (a falsified assertion) is the verdict."""
    from hypothesis.errors import HypothesisException, Unsatisfiable

    if isinstance(error, unittest.SkipTest) and (impl.lacking_seen or impl.unplayed):
        return replace(out, status=Status.UNSUPPORTED, detail=str(error)).to_json()
    if isinstance(error, Unsatisfiable) and impl.unplayed:  # every example under options it does not play
        return replace(out, status=Status.UNSUPPORTED, detail="no example under the options it plays").to_json()
    if isinstance(error, TargetUnsupported):
        return replace(out, status=Status.UNSUPPORTED, detail=f"{error} is not supported").to_json()
    if isinstance(error, TargetFailure):
        return replace(out, status=Status.FAILED, outcome=error.answer.kind, failing_clauses=list(out.clauses),
                       blamed=None, detail=str(error), minimal=readable(_counterexample(error))).to_json()
    house = _house_rule_error(error)
    if house is not None:  # the variant's own rule is broken: not the program's fault
        return replace(out, status=Status.NOT_RUN, detail=f"not judged: {house}",
                       house_rule_failed=house.clause).to_json()
    if _is_the_kits_own(error, HypothesisException):
        leaf = _first_leaf(error)
        return _kit_failed(out, name, leaf, "no example got through the kit's own filters"
                           if isinstance(leaf, Unsatisfiable) else None)
    first = (str(error).strip().splitlines() or [type(error).__name__])[0]
    blamed, why, situation = blame_of_calls(impl.calls, target, rules)
    return replace(out, status=Status.FAILED, outcome="wrong-answer",
                   failing_clauses=[blamed] if blamed else list(out.clauses), blamed=blamed,
                   # the property's message and Hypothesis's example are Python: no reprs in a report
                   detail=readable(first[:500]) + (f" (first wrong answer: {why})" if why else ""),
                   minimal=readable(_counterexample(error)), situation=situation or UNSET).to_json()


def _is_the_kits_own(error: BaseException, hypothesis_error: type) -> bool:
    """Whether ``error`` (or every failure of a group of them) is the kit's own: a skip or
    a ``NotImplementedError`` not from the target, or an error of Hypothesis itself."""
    if isinstance(error, BaseExceptionGroup):
        return all(_is_the_kits_own(e, hypothesis_error) for e in error.exceptions)
    return isinstance(error, (unittest.SkipTest, hypothesis_error)) or (
        isinstance(error, NotImplementedError) and not isinstance(error, TargetUnsupported))


def _first_leaf(error: BaseException) -> BaseException:
    return _first_leaf(error.exceptions[0]) if isinstance(error, BaseExceptionGroup) else error


def _house_rule_error(error: BaseException) -> HouseRuleError | None:
    """The broken house rule that ended a search: ``error``, or one among the failures
    Hypothesis reports together (a group)."""
    if isinstance(error, HouseRuleError):
        return error
    if isinstance(error, BaseExceptionGroup):
        return next((h for e in error.exceptions if (h := _house_rule_error(e)) is not None), None)
    return None


def property_results(target: Target, examples: int, budget: float, rules: Any = None,
                     select: Callable[[str, str, list[str]], bool] | None = None,
                     exitfirst: bool = False,
                     on_result: Callable[[dict[str, Any]], None] | None = None,
                     known: dict[str, dict[str, Any]] | None = None,
                     budget_option: str = "--properties-budget") -> list[dict[str, Any]]:
    """Run every interface property of :mod:`turub.properties` against ``target``.

    ``examples`` bounds each property's search; the properties draw their own rule options,
    so a target that supports only some options gets them reported as unsupported.  Searches
    are derandomized, so two runs on the same implementation ask the same questions.
    ``select(id, name, clauses)`` chooses the properties to run (``-k``, ``--clause``);
    ``exitfirst`` stops after the first that fails.  Each result carries its ``time`` and
    goes to ``on_result`` as soon as it is known.  ``known`` holds results already had
    elsewhere (a second process, :mod:`turub.conformance.programs.lane`), by ID: they take their
    place in the order and are not run again.  A row the ``budget`` cuts names the option that
    raises it (``budget_option``: the suites' own, or the whole run's ``--time-limit``).
    """
    from turub.properties.checks import interface_properties

    impl = TargetImplementation(target)
    results: list[dict[str, Any]] = []
    stop_at = run_clock.now() + budget
    for name, test in interface_properties().items():
        if select is not None and not select(f"property/{name}", name,
                                             sorted(getattr(test, "__verifies__", ()))):
            continue
        if exitfirst and results and results[-1]["status"] == Status.FAILED:
            break
        if known and f"property/{name}" in known:
            results.append(known[f"property/{name}"])
        elif run_clock.now() > stop_at:
            # its time before its detail, as reports have written a cut row (since #30)
            results.append({**_row(name, test).to_json(), "time": 0.0,
                            "detail": f"not run: the property suites' time budget ({budget:g} s) ran out; "
                                      f"{budget_option} raises it"})
        else:
            began = time.monotonic()
            results.append({**_one_property(target, name, test, examples, impl, rules),
                            "time": round(time.monotonic() - began, 4)})
        if on_result is not None:
            on_result(results[-1])
    return results


def _one_property(target: Target, name: str, test: Any, examples: int, impl: TargetImplementation,
                  rules: Any) -> dict[str, Any]:
    """:func:`property_result`, or its ``not-run`` row if the kit (or user code it ran)
    raised what is no ``Exception`` (``SystemExit``): never a pass, and the other
    properties still run.  A signal, the whole-run limit and Ctrl-C stop the run."""
    try:
        return property_result(target, name, test, examples, impl, rules)
    except (Interrupted, KeyboardInterrupt):
        raise
    except BaseException as e:  # noqa: BLE001 - SystemExit too: user code must not end the run
        return _kit_failed(_row(name, test), name, e)


def _row(name: str, test: Any) -> CaseResult:
    """A property's row of the report, before it ran (``not-run``): its ID and the clauses it verifies."""
    return CaseResult(f"property/{name}", "property", name, tuple(sorted(getattr(test, "__verifies__", ()))),
                      Status.NOT_RUN)


def _kit_failed(out: CaseResult, name: str, error: BaseException, what: str | None = None) -> dict[str, Any]:
    """The ``not-run`` row of a property the kit (or user code it ran) could not run to its
    end, ``error`` said in one line (``what``, if given, in place of its message)."""
    first = what if what is not None else (str(error).strip().splitlines() or [""])[0]
    return replace(out, status=Status.NOT_RUN, detail=readable(
        f"not judged: the kit failed while running property {name}: {type(error).__name__}: {first}"[:500])).to_json()
