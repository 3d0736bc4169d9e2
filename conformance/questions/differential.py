"""Differential play: the reference and the implementation side by side, with shrinking.

Hypothesis draws whole deals (a seeded pack, a dealer, how many tricks, which legal card
each player picks, illegal actions slipped in, signals, an early close) and sittings (a
first dealer and a run of deal results).  Each drawn deal is refereed by both; each
sitting's next dealers and contest states are asked of both.  On the first disagreement
Hypothesis shrinks the draw to a minimal one, which is reported as cards and actions,
expected against got, with the clause.

Shrinking stops at a time budget; the smallest disagreement seen so far is reported.

Each draw costs Hypothesis about as much as playing the deal, so the draws are made to count:
a budget of ``examples`` draws two thirds as many deals, about half of them played out to the
last trick, with up to seven illegal actions slipped in (for the default 300: about 5,000
tricks and 500 illegal actions in 200 deals, where 300 deals of any length with up to four
held 4,600 to 6,000 tricks and 500 to 560 illegal actions), and a third as many sittings of
up to 15 deals (about 800 deal results for the default 300).  The sittings are the cheaper
half of the game to search (a sitting's state is a dealer and a contest, which the generated
cases, the vectors and eight contest properties also walk), so they get the smaller share:
measured on the 38 one-rule-wrong implementations of ``tests/broken/independent.py``, a third
catches what two thirds caught, check for check (``benchmarks/bench_attribution.py``).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Final

from hypothesis import HealthCheck, Phase, Verbosity, given, reject, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from turub import Deal, Rules, Seat, deal_result, next_dealer, parse_card, parse_seat
from turub.cards import card_name
from turub.decisions import HouseRuleError

from ..operations import DEALS, REGISTRY, SITTINGS, Search, operation_part
from ..text import options_text, show
from .cases import INJECTIONS, PAIRS, ask_args, expected_case, play_stream
from ..judging.judge import Verdict, verdict_of
from ..ruleset import variant_of
from ..programs.targets import RESULT, Request, Target
from ..results import CaseResult, Status

__all__ = ["differential_deals", "differential_sittings", "SEARCH_RUNS", "describe_deal"]


class _Stop(BaseException):
    """Ends the search at once (Hypothesis lets BaseException through)."""


class _Disagreement(AssertionError):
    """The program's answer differs from the reference's (the smallest kept aside): what
    Hypothesis shrinks.  Any other exception out of a search is the kit's own failure."""


def _only_disagreements(error: BaseException) -> bool:
    """``error`` is a disagreement, or a group of them (Hypothesis's ``FlakyFailure``: a
    program that answered differently when asked again)."""
    if isinstance(error, BaseExceptionGroup):
        return all(_only_disagreements(e) for e in error.exceptions)
    return isinstance(error, _Disagreement)


def drawn(examples: int, thirds: int) -> int:
    """How many are drawn for a budget of ``examples``: ``thirds`` thirds of it, rounded up
    (deals: two thirds; sittings: one)."""
    return -(-thirds * examples // 3) if examples > 0 else 0


def _settings(examples: int, database: Any = None) -> settings:
    return settings(max_examples=examples, database=database, deadline=None,
                    suppress_health_check=list(HealthCheck), verbosity=Verbosity.quiet,
                    phases=(Phase.explicit, Phase.reuse, Phase.generate, Phase.shrink),
                    report_multiple_bugs=False, print_blob=False)


# A deal's draw, one Hypothesis choice per decision, every choice drawn through one
# ``st.randoms()`` (Hypothesis-generated values, shrunk like any other draw).  Two reasons:
# * The pack's seed is four random bytes, uniform over all 2**32 seeds: an integer choice
#   leans towards small numbers and the shared constants (0, 160, 2**32 - 1...), so packs
#   repeated.
# * The choices of a ``randoms()`` draw open no span, so no two parts of a plan share a
#   label, and Hypothesis's mutator (which, after each new draw, re-runs it up to five times
#   with one part copied over another of the same label, the pack's seed left as it was)
#   has nothing to copy: every draw is a new deal.  With spans, 2,000 draws held 150 to 450
#   packs (``benchmarks/bench_pack_diversity.py``).
# Shrinking stays meaningful: fewer tricks, fewer injections, earlier positions, the first
# legal card and the first kinds, as before; the pack's bytes shrink towards seed 0 only
# where another pack shows the same disagreement.
_RANDOMS = st.randoms(use_true_random=False)
_PACK_SEED_BYTES = 4
_INJECTED_MAX, _PAIRED_MAX, _POSITIONS = 5, 2, 161  # up to five of one broken rule, two of two
_SIGNAL_RATES = (0.0, 0.3, 1.0)


def _injections(rnd, kinds, most: int) -> list:
    """Up to ``most`` illegal actions, each a position (an action number) and a kind."""
    return [(rnd.randrange(_POSITIONS), rnd.choice(kinds)) for _ in range(rnd.randrange(most + 1))]


@st.composite
def deal_plans(draw) -> dict:
    """A drawn deal: its pack's seed, dealer, how many tricks are played (about half the deals
    to the end: 0-72, capped at 36), the first legal cards chosen (each byte, modulo the
    number of legal cards, picks one; then the first legal card), the illegal actions
    slipped in, an early close and the rate of signals."""
    rnd = draw(_RANDOMS)
    seed = int.from_bytes(rnd.randbytes(_PACK_SEED_BYTES), "big")
    tricks = min(rnd.randrange(73), 36)
    return {
        "seed": seed,
        "dealer": rnd.choice("NESW"),
        "tricks": tricks,
        "choices": list(rnd.randbytes(rnd.randrange(min(4 * tricks, 12) + 1))),
        "inject": _injections(rnd, INJECTIONS, _INJECTED_MAX) + _injections(rnd, PAIRS, _PAIRED_MAX),
        "close_at": None if rnd.randrange(2) == 0 else 0,
        "signal_rate": rnd.choice(_SIGNAL_RATES),
    }


def _result(case_id: str, op: str, clauses, status: Status, verdict: Verdict | None = None,
            detail: str = "", **extra: Any) -> dict:
    """The search's row of the report (``extra``: more fields of :class:`CaseResult`)."""
    failed: dict[str, Any] = {}
    if verdict is not None and not verdict.passed:
        failed = {"outcome": verdict.outcome, "failing_clauses": list(verdict.clauses), "blamed": verdict.blame}
    return CaseResult(case_id, "differential", op, tuple(sorted(clauses)), status, detail=detail,
                      **failed, **extra).to_json()


class _Exercised:
    """How often each house clause of the run's variant decided in the cases a differential
    search asked (each case's ``why["variant"]``: where the variant's own clause decided), a
    clause that never did 0; nothing (no field in the row) for a run without house rules."""

    def __init__(self, rules: Any) -> None:
        variant = variant_of(rules)
        self.counts: dict[str, int] | None = None if variant is None else \
            {vc.id: 0 for vc in variant.all_clauses if vc.decides is not None}

    def add(self, case: dict) -> None:
        if self.counts is None:
            return
        for clause in (case.get("why") or {}).get("variant", {}).values():
            if str(clause) in self.counts:
                self.counts[str(clause)] += 1

    def field(self) -> dict[str, Any]:
        """The row's ``house_clauses`` (as keyword arguments of :func:`_result`)."""
        return {} if self.counts is None else {"house_clauses": dict(sorted(self.counts.items()))}


def _search(test, plans, examples: int, seed: int, database: Any = None) -> HouseRuleError | None:
    """Run the search with ``seed``; a broken house rule of the variant stops it and is
    returned.  A disagreement (:class:`_Disagreement`) is shrunk and ends it; any other
    exception is the kit's own failure: it ends the search at once and is raised, so that
    the caller reports a kit failure, never a pass.  ``database`` (a Hypothesis example
    database, None: none) keeps the failures found and gives back those of earlier runs
    first (the settings go on top of ``@seed``, which would otherwise drop the database)."""
    broken: list[HouseRuleError] = []
    failed: list[Exception] = []

    def guarded(plan: dict) -> None:
        try:
            test(plan)
        except HouseRuleError as e:  # the variant's rule, not the program: stop, say so
            broken.append(e)
            raise _Stop from None
        except (_Disagreement, HypothesisException):  # shrunk; reject() and friends: Hypothesis's
            raise
        except Exception as e:  # the kit's own failure: not shrunk, raised when the search ends
            failed.append(e)
            raise _Stop from None

    run = _settings(examples, database)(hypothesis_seed(seed)(given(plans)(guarded)))
    try:
        run()
    except _Stop:
        pass
    except Exception as e:
        if not _only_disagreements(e):
            raise  # the kit failed (its own bug, Hypothesis's error): the caller reports it, never a pass
    if failed:
        raise failed[0]
    return broken[0] if broken else None


def _not_judged(case_id: str, op: str, clauses, error: HouseRuleError) -> dict:
    return _result(case_id, op, clauses, Status.NOT_RUN, detail=f"not judged: {error}",
                   house_rule_failed=error.clause)


def _played(plan: dict, rules: Rules, played: list) -> dict:
    """The referee arguments of a drawn plan (``play_stream``).  A plan the kit cannot build
    (``cases._illegal`` draws an out-of-turn card from an empty hand, late in a deal) is
    rejected as invalid: taken for a disagreement, it was shrunk, ended the search and was
    reported a pass."""
    try:
        return play_stream(plan["seed"], plan["dealer"], rules, plan["tricks"], plan["choices"],
                           plan["signal_rate"], plan["inject"], plan["close_at"], default_pick=0,
                           finished=played)
    except IndexError:
        reject()
        raise  # not reached: reject() raises


def differential_deals(target: Target, rules: Rules, examples: int, seed: int,
                       budget: float = 10.0, database: Any = None) -> dict:
    """Referee drawn deals with both; the smallest disagreement, or a pass."""
    check_id, op, clauses = DEALS.check_id, DEALS.asks, DEALS.clauses()  # the referee's question, drawn
    dealt_by = REGISTRY[op].dealt_by  # the deal of the same pack
    if op not in target.operations or not target.supports_rules(rules.to_dict()):
        return _result(check_id, op, clauses, Status.UNSUPPORTED)
    best: dict[str, Any] = {}
    ran = [0]
    stop_at = time.monotonic() + budget
    exercised = _Exercised(rules)

    def test(plan: dict) -> None:
        played: list = []
        args = _played(plan, rules, played)
        case = expected_case(check_id, op, args, rules, trace=played[1])
        exercised.add(case)
        answer = target.call(op, ask_args(op, args, rules))
        ran[0] += 1
        if answer.kind == "unsupported":
            best.setdefault("unsupported", True)
            raise _Stop
        verdict = verdict_of(case, answer)
        if verdict.passed:
            return
        if answer.kind == RESULT and dealt_by is not None and dealt_by in target.operations:
            # a wrong deal makes every later trick differ: then the deal is the failure
            deal_args = {k: args[k] for k in ("pack", "dealer", "cut")}
            deal_case = expected_case(check_id, dealt_by, deal_args, rules)
            dealt = target.call(dealt_by, ask_args(dealt_by, deal_args, rules))
            deal_verdict = verdict_of(deal_case, dealt)
            if not deal_verdict.passed:
                case, answer, verdict = deal_case, dealt, deal_verdict
        size = len(args["actions"])
        if "size" not in best or size <= best["size"]:
            best.update(size=size, case=case, verdict=verdict, got=answer.value, plan=plan)
        if answer.kind != RESULT or time.monotonic() > stop_at:
            raise _Stop  # a crash or a hang is not shrunk; nor anything past the budget
        raise _Disagreement(verdict.detail)

    broken = _search(test, deal_plans(), drawn(examples, 2), seed, database)
    if broken is not None:
        return _not_judged(check_id, op, clauses, broken)
    if "case" not in best:
        if best.get("unsupported"):
            return _result(check_id, op, clauses, Status.UNSUPPORTED)
        return _result(check_id, op, clauses, Status.PASSED,
                       detail=f"{ran[0]} drawn deals refereed alike", **exercised.field())
    case, verdict = best["case"], best["verdict"]
    if dealt_by is not None and case["op"] == dealt_by:  # the drawn deal's dealing was wrong
        return _result(check_id, dealt_by, clauses, Status.FAILED, verdict, detail=verdict.detail,
                       args=ask_args(dealt_by, case["args"], rules), expected=case["expected"],
                       got=best["got"], rules=rules.to_dict(), **exercised.field())
    text = describe_deal(case, verdict, best["got"])
    return _result(check_id, op, clauses, Status.FAILED, verdict,
                   detail=verdict.detail, minimal=text, args=case["args"],
                   expected=case["expected"], got=best["got"], rules=rules.to_dict(), **exercised.field())


# A deal's result in one choice: played out (NS's tricks, EW the rest) or closed early (fewer
# than 36 tricks in all, so a draw), each list in the order it shrinks to.
_PLAYED = st.sampled_from([(ns, 36 - ns, False) for ns in range(37)])
_CLOSED = st.sampled_from([(ns, total - ns, True) for total in range(36) for ns in range(total + 1)])
_DEALERS = st.sampled_from("NESW")
_RESULTS = st.lists(st.one_of(_PLAYED, _CLOSED), min_size=1, max_size=15)


def _sitting_step(rules: Any, dealer: str, ns: int, ew: int, closed: bool):
    """One deal of a sitting: its result and the next dealer, as the rules (or the rule
    variant, with its house rules) decide them."""
    variant = variant_of(rules)
    if variant is None:
        r = deal_result(ns, ew, closed_early=closed)
        return r, next_dealer(parse_seat(dealer), r.winner, rules)
    r = variant.deal_result(ns, ew, closed_early=closed, dealer=parse_seat(dealer))  # a rule may read who dealt
    return r, variant.next_dealer(parse_seat(dealer), r.winner)


@st.composite
def sitting_plans(draw) -> dict:
    return {"first": draw(_DEALERS), "results": [list(r) for r in draw(_RESULTS)]}


@operation_part("next_dealer", "in_sitting")
def _next_dealers(plan: dict, rules: Any) -> list[dict]:
    """Each deal's next dealer, dealt on from the sitting's first dealer."""
    cases: list[dict] = []
    dealer = plan["first"]
    standard = REGISTRY["next_dealer"].clauses
    for i, (ns, ew, closed) in enumerate(plan["results"]):
        r, nd = _sitting_step(rules, dealer, ns, ew, closed)  # the reference, asked once
        outcome = "draw" if r.winner is None else r.winner.short
        case = {"id": f"deal {i + 1}", "op": "next_dealer", "rules": rules.to_dict(),
                "args": {"dealer": dealer, "outcome": outcome}, "clauses": list(nd.clauses),
                "expected": nd.seat.letter}
        if variant_of(rules) is not None and nd.clauses[0] not in standard:
            case["why"] = {"variant": {"*": nd.clauses[0]}}  # the house rule decided
        cases.append(case)
        dealer = nd.seat.letter
    return cases


@operation_part("contest", "in_sitting")
def _contest(plan: dict, rules: Any) -> list[dict]:
    """The contest over the sitting's results."""
    return [expected_case("contest", "contest", {"results": plan["results"]}, rules)]


def differential_sittings(target: Target, rules: Rules, examples: int, seed: int,
                          budget: float = 10.0, database: Any = None) -> dict:
    """Ask both, of a drawn sitting, what each operation searched in sittings answers (its
    record's ``in_sitting`` part: each deal's next dealer, the contest)."""
    check_id, op, clauses = SITTINGS.check_id, SITTINGS.asks, SITTINGS.clauses()
    asked = [REGISTRY[n].part("in_sitting") for n in SITTINGS.operations() if n in target.operations]
    if not asked or not target.supports_rules(rules.to_dict()):
        return _result(check_id, op, clauses, Status.UNSUPPORTED)
    best: dict[str, Any] = {}
    ran = [0]
    stop_at = time.monotonic() + budget
    exercised = _Exercised(rules)

    def test(plan: dict) -> None:
        cases = [case for part in asked for case in part(plan, rules)]
        for case in cases:
            exercised.add(case)
        answers: dict[int, Any] = {}
        target.run([Request(i, c["op"], ask_args(c["op"], c["args"], rules)) for i, c in enumerate(cases)],
                   answers.__setitem__)
        ran[0] += 1
        for i, case in enumerate(cases):
            answer = answers[i]
            if answer.kind == "unsupported":
                continue
            verdict = verdict_of(case, answer)
            if verdict.passed:
                continue
            size = len(plan["results"])
            if "size" not in best or size <= best["size"]:
                best.update(size=size, case=case, verdict=verdict, got=answer.value, plan=plan)
            if answer.kind != RESULT or time.monotonic() > stop_at:
                raise _Stop
            raise _Disagreement(verdict.detail)

    broken = _search(test, sitting_plans(), drawn(examples, 1), seed, database)
    if broken is not None:
        return _not_judged(check_id, op, clauses, broken)
    if "case" not in best:
        return _result(check_id, op, clauses, Status.PASSED,
                       detail=f"{ran[0]} drawn sittings answered alike", **exercised.field())
    case, verdict, plan = best["case"], best["verdict"], best["plan"]
    results = ", ".join(f"{ns}–{ew}{' closed' if c else ''}" for ns, ew, c in plan["results"])
    text = (f"first dealer {plan['first']}; deal results in order: {results}\n"
            f"asked {case['op']} {show(case['args'])}: expected {show(case['expected'])}, got {show(best['got'])}\n"
            f"{verdict.detail}")
    return _result(check_id, op, clauses, Status.FAILED, verdict, detail=verdict.detail,
                   minimal=text, args=case["args"], expected=case["expected"], got=best["got"],
                   rules=rules.to_dict(), plan=plan, **exercised.field())



#: Each search's function, by its record (:data:`~turub.conformance.operations.SEARCHES`).
SEARCH_RUNS: Final[dict[Search, Callable[..., dict]]] = {DEALS: differential_deals, SITTINGS: differential_sittings}


def describe_deal(case: dict, verdict: Verdict, got: Any) -> str:
    """A referee disagreement as a game situation: the deal, the actions up to it, the hand
    and trick at that moment, expected against got."""
    args = case["args"]
    rules = Rules() if not isinstance(case.get("rules"), dict) else None
    from turub.options import rules_from_dict
    rules = rules or rules_from_dict(case["rules"])
    deal = Deal([parse_card(c) for c in args["pack"]], Seat("NESW".index(args["dealer"])), rules, args["cut"])
    stop = verdict.extra.get("action", len(args["actions"]) - 1)
    lines = [f"dealer {args['dealer']}, cut {args['cut']}, rules {options_text(rules.to_dict())}"]
    shown = []
    for i, action in enumerate(args["actions"][:stop]):
        try:
            deal.apply(action)
            shown.append(_short_action(action))
        except Exception:  # noqa: BLE001 - a refused action: shown as such
            shown.append(_short_action(action) + "(refused)")
    if shown:
        lines.append(f"actions 1-{len(shown)}: " + " ".join(shown))
    if stop < len(args["actions"]):
        action = args["actions"][stop]
        seat = action.get("seat", "N")
        trick = " ".join(f"{s.letter}:{c}" for s, c in deal.current_trick) or "(none)"
        hand = ""
        if seat in "NESW" and len(seat) == 1:
            hand = f"; {seat} holds {' '.join(map(str, deal.hand(Seat('NESW'.index(seat)))))}"
        lines.append(f"then action {stop + 1}: {_short_action(action)}; trump "
                     f"{deal.trump.symbol if deal.trump is not None else 'not named'}; trick so far {trick}{hand}")
    lines.append(f"{verdict.outcome} [{', '.join(verdict.clauses)}]: {verdict.detail}")
    return "\n".join(lines)


def _short_action(action: dict) -> str:
    kind = action.get("act")
    seat = action.get("seat", "?")
    if kind == "play":
        try:
            return f"{seat}:{card_name(parse_card(action['card']))}"
        except Exception:  # noqa: BLE001
            return f"{seat}:{action.get('card')!r}"
    if kind == "trump":
        return f"{seat}:trump={action.get('suit')}"
    if kind == "signal":
        return f"{seat}:{action.get('signal')}"
    return f"{seat}:{kind}"
