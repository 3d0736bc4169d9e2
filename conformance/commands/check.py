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

:func:`run_check` reads as the run goes: start the program, ask the cases (each answer
judged as it comes, :mod:`.case_stage`), play the differential checks, run the property
suites, close the program, assemble the raw report.  Each stage is a function of the run's
state (:class:`_Run`) and the options; none calls back up.  Diagnosis and the verdict come
after, in :func:`turub.conformance.reports.report.finish`.
"""

from __future__ import annotations

import gc
import math
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TextIO

from turub import Rules
from turub.decisions import HouseRuleError
from turub.tools.exiting import ends_the_process
from turub.tools.progress import Progress

from ..operations import SEARCHES
from ..programs.lane import Lane
from ..programs import run_clock
from ..programs.targets import NOT_RUN, Interrupted, PythonTarget, Target
from ..questions.directed import directed_cases
from ..questions.cases import Case, build_vectors, generated_counts, iter_generated_cases, rules_name
from ..questions.planned import planned_cases
from ..questions.select import Selection
from ..questions.vectors import load_vectors
from ..reports.baseline import request_variant, run_variant, spec_identity
from ..reports.spool import CaseLog
from ..text import safe_text
from .case_stage import DETAIL_LIMIT, VALUE_LIMIT, CaseStage, not_run_if_unjudged, kit_failure, stray_output
from .usercode import run_out_of_time

__all__ = ["CheckOptions", "run_check", "interrupted_before_the_run", "vector_cases", "DETAIL_LIMIT",
           "VALUE_LIMIT"]

KIT_VERSION = "1"
#: Seconds the property suites' second process may run past their budget (its last property
#: may overrun it) before it is stopped and what it did not finish runs here.
LANE_GRACE = 5.0


@dataclass
class CheckOptions:
    """What to run.  ``scale`` multiplies the generated cases; ``examples`` is per
    differential property; ``budget`` bounds each property's search and shrinking;
    ``properties`` is the number of examples for each property of :mod:`turub.properties`
    run against the implementation, within ``properties_budget`` seconds in all (none by
    default: the searches are sized by examples, and only the whole-run time limit cuts them,
    so a slow machine never makes a correct program incomplete)."""

    rules: Rules = Rules()  # or a turub.variants.Variant: the variant's expected answers
    vectors: bool = True
    seed: int | None = 1
    scale: float = 1.0
    examples: int = 300
    budget: float = 8.0
    progress: bool = False
    properties: int = 0  # examples per property of turub.properties (0: don't; the CLI asks 25)
    properties_budget: float = math.inf
    selection: Selection = Selection()  # -k, --clause, --op (turub.conformance.questions.select)
    exitfirst: bool = False  # -x: stop at the first failure
    #: run the property suites in a forked second process while the other checks run, when
    #: the target is in-process (:class:`~turub.conformance.programs.targets.PythonTarget`) and the
    #: machine allows it (:mod:`turub.conformance.programs.lane`); the report is the same either way
    second_process: bool = False
    #: judge by a frozen release's cases (``--spec VERSION``, :mod:`turub.releases`): only its
    #: committed cases run; the generated cases, differential play and the property suites are
    #: produced by the current code, so they cannot be pinned and are skipped (None: the
    #: current release, everything)
    spec: str | None = None
    #: only the committed cases with these IDs (``--example N``: example N's case)
    example_ids: frozenset[str] | None = None


def vector_cases(rules: Rules, spec: str | None = None) -> list[Case]:
    """The committed vectors of ``rules``, or the same inputs answered now if not committed;
    under ``spec``, release ``spec``'s frozen cases of ``rules`` (a ValueError if it has none)."""
    from ..ruleset import variant_of
    if spec is not None:
        return pinned_cases(rules, spec)
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


def pinned_cases(rules: Rules, spec: str) -> list[Case]:
    """Release ``spec``'s frozen cases for ``rules`` (a ValueError naming the option sets it
    has when it has none for these, or the frozen releases when ``spec`` is not one)."""
    from ..ruleset import variant_of
    from ..questions.releases import load_release
    if variant_of(rules) is not None:
        raise ValueError(f"--spec {spec}: a frozen release holds the cases of the option sets "
                         "only, not of a house-rule variant")
    try:
        sets = load_release(spec)
    except ValueError as e:
        raise ValueError(f"--spec {spec}: {e}") from None
    for s in sets.values():
        if s.rules == rules.to_dict():
            return s.cases
    raise ValueError(f"--spec {spec}: release {spec} has no cases for the options "
                     f"{rules.to_dict()}; its option sets: {', '.join(sets)}")


#: Why a run pinned to a release (``--spec``) skips what it skips (its report's diagnostics).
PINNED_NOTE = ("judged by release {spec}'s frozen cases only: the directed and generated cases, "
               "differential play and the property suites are produced by the current code "
               "and cannot be pinned to a release, so they were not run")


#: Allocations between two collections of the youngest generation during a run (Python's
#: default is 700).  Hypothesis allocates hundreds of thousands of short-lived objects, and
#: each collection of the older generations walks everything the run keeps alive: collected
#: this rarely, the cyclic garbage collector takes a few percent of a default run instead of
#: a tenth, and the garbage a run may hold at once stays bounded (memory stays flat).
GC_YOUNG_THRESHOLD = 100_000


def _settled() -> None:
    """What the run has made so far (the imports, the plan, the cases' results) lives to its
    end: when the process ends with the run, it is frozen (``gc.freeze``) before the
    Hypothesis searches, whose first collects everything once (``register_random``), so that
    no collection walks it again."""
    if ends_the_process():
        gc.freeze()


@contextmanager
def _fewer_collections() -> Iterator[None]:
    """The cyclic garbage collector's youngest threshold raised for a run, then restored;
    kept raised when the process ends with its command (``turub check`` as a script,
    :func:`turub.tools.exiting.ends_the_process`): set back, it would collect at once all
    the run left, about a tenth of a second of CPU the exit does without."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], GC_YOUNG_THRESHOLD), *before[1:])
    try:
        yield
    finally:
        if not ends_the_process():
            gc.set_threshold(*before)


@dataclass
class _Run:
    """What one run has so far: the results kept, whether a limit cut it or a signal
    stopped it, and the property suites' second process (or why there is none)."""

    deadline: float | None
    on_result: Callable[[dict], None] | None
    results: CaseLog = field(default_factory=CaseLog)
    cut: bool = False
    interrupted: int | None = None
    lane: Lane | str | None = None
    lane_ends: float = 0.0  # when the property suites' budget ends, if in a second process
    where: str = ""  # where the property suites ran, when a second process was asked for
    cases: CaseStage | None = None
    progress: Progress | None = None
    stuck: bool = False  # the whole-run limit stopped something still running here
    broken_rules: list[str] = field(default_factory=list)  # house rules that failed in the run
    broken: list[HouseRuleError] = field(default_factory=list)  # one that failed working out cases
    kit_failed: list[tuple[str, str, Exception]] = field(default_factory=list)  # the kit's own: (id, while, error)

    def keep(self, result: dict) -> None:
        if result.get("house_rule_failed"):
            self.broken_rules.append(result["house_rule_failed"])
        self.results.append(result)
        if self.on_result is not None:
            self.on_result(result)

    def past_deadline(self) -> bool:
        return self.deadline is not None and run_clock.past(self.deadline)

    def left(self, budget: float) -> float:
        return budget if self.deadline is None else max(0.0, min(budget, self.deadline - run_clock.now()))

    def raised_by(self, budget: float) -> str:
        """The option that raises a budget of ``budget`` seconds as :meth:`left` gives it:
        the suites' own, or the whole run's limit when that comes first."""
        if self.deadline is not None and self.deadline - run_clock.now() < budget:
            return "--time-limit"
        return "--properties-budget"


def run_check(target: Target, options: CheckOptions, *, describe: dict | None = None,
              progress_stream: TextIO | None = None, deadline: float | None = None,
              log: Callable[[str], None] | None = None,
              on_result: Callable[[dict], None] | None = None) -> dict:
    """Run every check on ``target``; the report as plain data (before expected failures).
    ``on_result`` gets each result as soon as it is judged (``--jsonl``)."""
    started = time.monotonic()
    run = _Run(deadline, on_result)
    failure = None
    with _fewer_collections():
        try:
            failure, variant_ok = _start(target, options, run)
            if failure is None:
                _ask_cases(target, options, run, progress_stream)
                stopped = run.cases.logged_failure if options.exitfirst else False  # type: ignore[union-attr]
                if options.spec is not None:  # pinned: nothing generated by today's code runs
                    target.diagnostics.append(PINNED_NOTE.format(spec=options.spec))
                    stopped = True
                if options.examples > 0 and variant_ok and not stopped:
                    _settled()
                    _differential(target, options, run, log)
                if not stopped:  # -x: nothing runs after the first failure
                    _settled()
                    _properties(target, options, run, variant_ok, log)
        except Interrupted as e:
            if isinstance(e, run_out_of_time()):  # something in this process ran past the limit
                run.cut, run.stuck = True, True
                why = "not answered before the whole-run time limit"
            else:
                run.interrupted = e.signum
                why = "not answered: the kit was interrupted"
            if run.cases is not None:
                run.cases.flush(why)
        finally:
            _close(target, run)
    return _assemble(target, options, run, failure, describe, started)


def interrupted_before_the_run(signum: int, options: CheckOptions, describe: dict, stage: str,
                               started: float) -> dict:
    """The raw report of a run a signal stopped before anything was asked (while the variant
    loaded, the expected failures or the vectors were read, the program was made ready):
    nothing checked, marked ``interrupted`` by ``signum``, with a line saying at which
    ``stage``; the reports are then written as for any interrupted run."""
    run = _Run(None, None, interrupted=signum)
    target = Target()  # nothing started: no hello, no name
    target.diagnostics.append(f"interrupted by {signal.Signals(signum).name} while {stage}: "
                              "nothing was asked")
    return _assemble(target, options, run, None, describe, started)


def _start(target: Target, options: CheckOptions, run: _Run) -> tuple[Any, bool]:
    """Start the program (its startup failure, or None) and say whether it plays the
    variant; a second process starts the property suites meanwhile when it may."""
    rules = options.rules
    failure = target.start()
    variant_ok = failure is None and target.supports_variant(run_variant(rules)["name"])
    if failure is None and not variant_ok:
        target.diagnostics.append(f"it declares the variants {target.variants}, not "
                                  f"{run_variant(rules)['name']}: nothing is asked under it")
    if failure is None:
        target.variant = request_variant(rules, target)  # named in every request
        if options.second_process and options.properties > 0 and variant_ok and options.spec is None \
                and not options.exitfirst and isinstance(target, PythonTarget):
            run.lane, run.lane_ends = _property_lane(target, options, rules, run.left(options.properties_budget),
                                                     run.raised_by(options.properties_budget))
            run.where = "a second process" if isinstance(run.lane, Lane) else f"this process ({run.lane})"
    return failure, variant_ok


def _planned_cases(options: CheckOptions, run: _Run) -> Iterator[tuple[str, Case]]:
    """The vectors, then the generated cases, as chosen by ``-k``, ``--clause``, ``--op``;
    a house rule that fails while the expected answers are worked out ends them (kept in
    ``run.broken``), and so does a failure of the kit's own code (``run.kit_failed``, with
    the kind of case it was working out): never a traceback that loses the report."""
    rules = options.rules
    kind = "vector"
    try:
        if options.spec is not None:  # a frozen release: its cases, nothing generated now
            for c in vector_cases(rules, options.spec):
                if options.selection.matches(c["id"], c["op"], c["clauses"]):
                    yield "vector", c
            return
        if options.example_ids is not None:  # --example N: that committed case, nothing else
            for c in vector_cases(rules):
                if c["id"] in options.example_ids:
                    yield "vector", c
            return
        # the defaults' directed and generated cases, shipped worked out (None: work them out)
        shipped = planned_cases(rules, options.seed, options.scale)
        if options.vectors:
            directed = shipped.directed if shipped is not None else directed_cases(rules)
            for c in vector_cases(rules) + directed:  # fixed cases (questions.directed)
                if options.selection.matches(c["id"], c["op"], c["clauses"]):
                    yield "vector", c
        kind = "generated"
        if options.seed is not None and options.scale > 0:
            generated = shipped.generated if shipped is not None else \
                iter_generated_cases(options.seed, rules, options.scale)
            for c in generated:
                if options.selection.matches(c["id"], c["op"], c["clauses"]):
                    yield "generated", c
    except HouseRuleError as e:  # no expected answers past it: say so, keep the reports
        run.broken.append(e)
    except Exception as e:  # noqa: BLE001 - the kit's own bug: the planned cases past it are not run
        run.kit_failed.append((f"{kind}/*", f"working out the {kind} cases' expected answers "
                                             "(none past it was asked)", e))


def _ask_cases(target: Target, options: CheckOptions, run: _Run, progress_stream: TextIO | None) -> None:
    """Ask every planned case and judge each answer as it comes (:class:`.case_stage.CaseStage`)."""
    generating = options.seed is not None and options.scale > 0
    planned = sum(generated_counts(options.scale).values()) if generating else 0
    run.progress = Progress(planned + (400 if options.vectors else 0), progress_stream,
                            label="turub check", unit="cases", approximate=True)
    run.cases = CaseStage(target, options.rules, run.results, run.progress, run.deadline,
                      options.exitfirst, run.on_result)
    try:
        target.run(run.cases.requests(_planned_cases(options, run)), run.cases.record)
    except HouseRuleError as e:  # the reference playing the variant (no program): its rule broke
        run.broken.append(e)
    except Exception as e:  # noqa: BLE001 - the kit's own asking failed: what it had not judged is not run
        run.kit_failed.append(("cases/*", "asking the program the cases", e))
        run.cases.flush(f"not judged: the kit failed while asking: {type(e).__name__}")
    run.cases.flush("not answered before the whole-run time limit" if run.cases.cut else None)
    run.progress.close()
    if run.broken:
        run.keep(_broken_rule(run.broken[0]))
        target.diagnostics.append(f"not judged past this point: {run.broken[0]}")
    for where, what, error in run.kit_failed:
        run.keep(kit_failure({"id": where, "kind": where.split("/")[0], "op": "cases", "clauses": []},
                             what, error))
    run.cut = run.cases.cut or target.cut


def _differential(target: Target, options: CheckOptions, run: _Run, log: Callable[[str], None] | None) -> None:
    """Differential play, one search per record of :data:`~turub.conformance.operations.
    SEARCHES`; what the time limit or a lost program leaves is ``not-run``."""
    for search in SEARCHES:
        check_id, op, clauses = search.check_id, search.asks, search.clauses()
        if not options.selection.matches(check_id, op, clauses):
            continue
        fatal = target.fatal
        if fatal is not None or run.past_deadline():
            run.cut = run.cut or run.past_deadline()
            why = "the whole-run time limit came first" if run.past_deadline() else \
                f"the implementation is gone: {fatal.detail if fatal else ''}"
            run.keep({"id": check_id, "kind": "differential", "op": op, "clauses": list(clauses),
                      "status": NOT_RUN, "detail": safe_text(f"not run: {why}", DETAIL_LIMIT)})
            continue
        from ..questions import differential  # Hypothesis: imported when differential play runs
        if log:
            log(f"differential play: {search.name}…")
        began = time.monotonic()
        try:
            searched = not_run_if_unjudged(differential.SEARCH_RUNS[search](
                target, options.rules, options.examples, options.seed if options.seed is not None else 0,
                run.left(options.budget)))
        except Interrupted:
            raise
        except BaseException as e:  # noqa: BLE001 - a kit bug or user code must not lose the report
            searched = kit_failure({"id": check_id, "kind": "differential", "op": op,
                                    "clauses": list(clauses)}, "playing", e)
        run.keep({**searched, "time": round(time.monotonic() - began, 4)})


def _properties(target: Target, options: CheckOptions, run: _Run, variant_ok: bool,
                log: Callable[[str], None] | None) -> None:
    """The project's property suites against the program (what a second process already
    ran is taken from it); past the time limit they are cut."""
    if options.properties <= 0:
        return
    if target.fatal is not None or run.past_deadline() or not variant_ok:
        run.cut = run.cut or run.past_deadline()
        return
    if log:
        log("property suites…")
    from ..questions.properties import property_results
    known: dict[str, dict] = {}
    had: list[dict] = []
    complete = False  # the second process ran every property: nothing is left to run here
    budget = run.left(options.properties_budget)
    if isinstance(run.lane, Lane):
        # the budget began when the second process did: what it left undone gets the rest
        had, why = run.lane.collect(until=min(run.lane_ends + LANE_GRACE, run.deadline or math.inf))
        budget = run.left(max(0.0, run.lane_ends - run_clock.now()))
        run.lane = None
        if why is not None:
            run.where = f"a second process, which {why}, then this process"
        known = {r["id"]: r for r in had if isinstance(r.get("id"), str)}
        # its work returned, so it gave a row for each property (run, or past the budget), in
        # the order of the suites: the rows are the results, and the suites need not be
        # imported here again (Hypothesis strategies are built at import, about 0.05 s)
        complete = why is None and len(known) == len(had)
    on_result = run.on_result
    found: list[dict] = []  # each result as it comes: what a signal or the time limit cuts keeps them

    def keep(result: dict) -> None:
        found.append(result)
        if on_result is not None:
            on_result(not_run_if_unjudged(dict(result)))
    try:
        if complete:
            for result in had:
                keep(result)
        else:
            property_results(target, options.properties, budget, options.rules,
                             select=options.selection.matches, exitfirst=options.exitfirst,
                             on_result=keep, known=known, budget_option=run.raised_by(options.properties_budget))
    except Interrupted:
        raise
    except BaseException as e:  # noqa: BLE001 - a kit bug or user code must not lose the report
        found.append(kit_failure({"id": "property/*", "kind": "property", "op": "properties",
                                  "clauses": []}, "running the property suites", e))
        if on_result is not None:
            on_result(found[-1])
    finally:
        run.results.extend(not_run_if_unjudged(r) for r in found)  # each already went to on_result
        run.broken_rules.extend(r["house_rule_failed"] for r in found if r.get("house_rule_failed"))


def _close(target: Target, run: _Run) -> None:
    """Stop what is still running: the second process, the progress bar, the program."""
    if isinstance(run.lane, Lane):
        run.lane.cancel()  # its results were not needed (a failure to start, -x, a signal)
        run.where = ""
    if run.progress is not None:
        run.progress.close()  # a terminal gets its cursor back, whatever stopped the run
    if (run.interrupted is not None or run.stuck):
        target.abort()
        return
    try:
        target.close()
    except Interrupted as e:
        if isinstance(e, run_out_of_time()):
            run.cut = True
        else:
            run.interrupted = e.signum
        target.abort()


def _assemble(target: Target, options: CheckOptions, run: _Run, failure: Any, describe: dict | None,
              started: float) -> dict:
    """The raw report: who was checked, under what, and every result kept."""
    # a broken house rule leaves its row not run (the run is incomplete); it cut nothing
    run.cut = run.cut or target.cut
    stray = stray_output(target, run.cases.late_amendments if run.cases is not None else [])
    if stray is not None:
        run.keep(stray)
    rules = options.rules
    startup = target.startup_failure
    return {
        "format": "turub-report/1",
        "kit": {"name": "turub conformance kit", "version": KIT_VERSION,
                "engine": __import__("turub").__version__,
                **({"property_suites": run.where} if run.where else {})},
        "implementation": {"name": target.name, "version": target.version,
                           "operations": sorted(target.operations), "rules": target.rules,
                           "protocol": target.protocol, **(describe or {})},
        "rules": rules.to_dict(),
        "rules_name": rules_name(rules),
        "variant": run_variant(rules),
        "spec": spec_identity(options.spec),
        "seed": options.seed,
        "duration": round(time.monotonic() - started, 3),
        "restarts": target.restarts,
        "diagnostics": [safe_text(d, 4000, keep_lines=True) for d in target.diagnostics],
        "cut": run.cut,
        "interrupted": run.interrupted,
        "startup_failure": startup if failure is not None else None,
        "cases": run.results if startup is None or failure is None else CaseLog(),
    }


def _property_lane(target: Target, options: CheckOptions, rules: Any,
                   budget: float, budget_option: str) -> tuple[Lane | str, float]:
    """The property suites started in a forked second process (:mod:`.lane`), and when
    their ``budget`` ends (raised by ``budget_option``); or why they will run in this process."""
    import hypothesis  # noqa: F401 - imported once, before the fork, for both processes

    from ..questions.properties import property_results

    def work(emit: Callable[[dict], None]) -> None:
        property_results(target, options.properties, budget, rules,
                         select=options.selection.matches, on_result=emit, budget_option=budget_option)
    return Lane.fork(work), run_clock.now() + budget


def _broken_rule(error: HouseRuleError) -> dict:
    """The row of a house rule that failed while the expected answers were worked out."""
    return {"id": "variant/house-rules", "kind": "variant", "op": error.decision,
            "clauses": [error.clause], "status": NOT_RUN, "house_rule_failed": error.clause,
            "detail": safe_text(f"not judged: {error}", DETAIL_LIMIT)}


def reference_target(timeout: float = 5.0, rules: Any = None) -> Target:
    """The bundled reference engine as a target (under a rule variant: playing by it)."""
    from ..judging.variant_reference import reference_program
    from ..programs.targets import PythonTarget
    return PythonTarget(reference_program(rules), timeout, trusted=True)

