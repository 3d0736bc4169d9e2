"""The kit: run the three kinds of check against a target and build the report.

1. the committed vectors of the option set (computed from the reference when the set is
   not committed);
2. cases generated from a seed;
3. differential play with shrinking.

:func:`run_check` returns the report as plain data (see :mod:`turub.conformance.report`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

from turub import Rules

from .cases import RULED_OPS, Case, ask_args, build_vectors, generated_cases, rules_name
from .differential import differential_deals, differential_sittings, verdict_of
from .targets import Answer, Request, Target
from .vectors import load_vectors

__all__ = ["CheckOptions", "run_check", "vector_cases"]

KIT_VERSION = "1"


@dataclass
class CheckOptions:
    """What to run.  ``scale`` multiplies the generated cases; ``examples`` is per
    differential property; ``budget`` bounds each property's search and shrinking;
    ``properties`` is the number of examples for each property of :mod:`turub.properties`
    run against the implementation, within ``properties_budget`` seconds in all."""

    rules: Rules = Rules()
    vectors: bool = True
    seed: int | None = 1
    scale: float = 1.0
    examples: int = 300
    budget: float = 8.0
    progress: bool = False
    properties: int = 0  # examples per property of turub.properties (0: don't; the CLI asks 25)
    properties_budget: float = 30.0


def vector_cases(rules: Rules) -> list[Case]:
    """The committed vectors of ``rules``, or the same inputs answered now if not committed."""
    committed = load_vectors(rules)
    if committed is not None:
        return committed
    name = "custom"
    return build_vectors({"standard": Rules(), name: rules})[name]


class _Progress:
    def __init__(self, total: int, stream: TextIO | None) -> None:
        self.total, self.stream, self.done, self.last = max(total, 1), stream, 0, 0.0

    def step(self, n: int = 1) -> None:
        self.done += n
        now = time.monotonic()
        if self.stream is not None and (now - self.last > 0.1 or self.done >= self.total):
            self.last = now
            filled = min(30, 30 * self.done // self.total)
            self.stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {self.done}/{self.total}")
            self.stream.flush()

    def end(self) -> None:
        if self.stream is not None:
            self.stream.write("\n")
            self.stream.flush()


def _case_result(case: Case, kind: str, answer: Answer | None, rules: Rules) -> dict:
    out: dict[str, Any] = {"id": case["id"], "kind": kind, "op": case["op"],
                           "clauses": list(case["clauses"]), "rules": case["rules"]}
    if answer is None:
        answer = Answer("crash", None, "no answer was recorded")
    if answer.kind == "unsupported":
        out["status"] = "unsupported"
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
        from .differential import describe_deal
        try:
            out["minimal"] = describe_deal({**case, "rules": rules.to_dict()}, verdict, answer.value)
        except Exception as e:  # noqa: BLE001 - a description is a nicety, never a crash
            out["minimal"] = f"(could not describe: {e})"
    return out


def run_check(target: Target, options: CheckOptions, *, describe: dict | None = None,
              progress_stream: TextIO | None = None, deadline: float | None = None,
              log: Callable[[str], None] | None = None) -> dict:
    """Run every check on ``target``; the report as plain data (before expected failures)."""
    started = time.monotonic()
    rules = options.rules
    work: list[tuple[str, Case]] = []
    if options.vectors:
        work += [("vector", c) for c in vector_cases(rules)]
    if options.seed is not None and options.scale > 0:
        work += [("generated", c) for c in generated_cases(options.seed, rules, options.scale)]
    failure = target.start()
    progress = _Progress(len(work), progress_stream)
    answers: dict[int, Answer] = {}
    rules_ok = failure is None and target.supports_rules(rules.to_dict())

    def record(key: int, answer: Answer) -> None:
        if key not in answers:
            progress.step()
        answers[key] = answer

    requests = []
    for i, (_, case) in enumerate(work):
        if failure is not None:
            answers[i] = failure
        elif case["op"] not in target.operations or (case["op"] in RULED_OPS and not rules_ok):
            answers[i] = Answer("unsupported")
        else:
            requests.append(Request(i, case["op"], ask_args(case["op"], case["args"], rules)))
    try:
        if requests:
            target.run(requests, record)
        progress.end()
        results = [_case_result(case, kind, answers.get(i), rules) for i, (kind, case) in enumerate(work)]
        fatal = getattr(target, "fatal", None)
        if options.examples > 0:
            for prop in (differential_deals, differential_sittings):
                if failure is not None or fatal is not None:
                    break
                if deadline is not None and time.monotonic() > deadline:
                    break
                if log:
                    log(f"differential play: {prop.__name__.split('_')[1]}…")
                seed = options.seed if options.seed is not None else 0
                results.append(prop(target, rules, options.examples, seed, options.budget))
        if options.properties > 0 and failure is None and getattr(target, "fatal", None) is None:
            if log:
                log("property suites…")
            from .properties import property_results
            results += property_results(target, options.properties, options.properties_budget)
    finally:
        target.close()
    return {
        "format": "turub-report/1",
        "kit": {"name": "turub conformance kit", "version": KIT_VERSION,
                "engine": __import__("turub").__version__},
        "implementation": {"name": target.name, "version": target.version,
                           "operations": sorted(target.operations), "rules": target.rules,
                           **(describe or {})},
        "rules": rules.to_dict(),
        "rules_name": rules_name(rules),
        "seed": options.seed,
        "duration": round(time.monotonic() - started, 3),
        "restarts": target.restarts,
        "diagnostics": list(target.diagnostics),
        "cases": results,
    }


def reference_target(timeout: float = 5.0) -> Target:
    """The bundled reference engine as a target."""
    from .adapter import ReferenceImplementation
    from .targets import PythonTarget
    return PythonTarget(ReferenceImplementation(), timeout)


def _stderr_progress() -> TextIO | None:
    return sys.stderr if sys.stderr.isatty() else None
