"""Cases: the questions the kit asks, and the reference's answers.

A *case* is plain JSON data::

    {"id": "trick_winner/worked-duplicate-aces", "op": "trick_winner",
     "args": {"cards": ["AC", "AC", "6C", "KC"], "trump": "H"},
     "rules": "any", "clauses": ["trick.earliest-identical", ...],
     "expected": 0, "why": {...}}

``rules`` is ``"any"`` when every option set gives the same answer, otherwise the option
set (as ``{"direction": ..., ...}``) the expected answer holds under.  Operations that take
rules (:attr:`.operations.Operation.asked_with_rules`) get the run's rules added to ``args``
when the case is asked.
``why`` (optional) holds what the judge needs to name the clause of a disagreement.

The inputs come from seeded generators (:func:`inputs`); the expected answers, clauses and
``why`` from the reference engine (:func:`expected_case`).  :func:`build_vectors` makes the
committed vectors (``conformance/vectors/``); :func:`generated_cases` the run-time cases of
a seed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Final

from turub import Contest, RuleError, Rules, Seat, decide_trick, deal_result, parse_card
from turub.options import rules_from_dict

from ..adapter import OPERATIONS, ReferenceImplementation
from ..operations import REGISTRY, asked_with_rules, context_of, operation_part
from ..judging.variant_reference import new_deal, reference_for, variant_decisions
from ..ruleset import Ruleset, name_of, options_of
# The inputs and the referee's streams moved to .generators and .streams; their names are
# still importable from here.
from .generators import VECTOR_COUNTS, traced_inputs, inputs
from .streams import (INJECTIONS, PAIRS, RefereeTrace, rare_deals, referee_inputs, traced_stream,
                      play_stream, rules_broken)

__all__ = ["OPTION_SETS", "Case", "rules_name", "inputs", "expected_case",
           "build_vectors", "generated_cases", "ask_args", "VECTOR_FORMAT"]

Case = dict[str, Any]

VECTOR_FORMAT: Final = "turub-vectors/1"

#: The named option sets the vectors are generated for.
OPTION_SETS: Final[dict[str, Rules]] = {
    "standard": Rules(),
    "counterclockwise": rules_from_dict({"direction": "counterclockwise"}),
    "stake-per-deal": Rules(stake="per-deal"),
    "opponent-previous": Rules(opponent_dealer="previous"),
    "signals-documented": Rules(signal_kinds="documented"),
    "early-close-known": Rules(early_close="known-result"),
}

#: The clause each option allows (to tag the cases whose answer depends on it).
_OPTION_CLAUSE: Final = {"direction": "table.direction", "stake": "stake.per-deal",
                         "opponent-dealer": "dealer.after-win", "signal-kinds": "signal.kinds",
                         "early-close": "result.closed-early"}

_REF = ReferenceImplementation()


def rules_name(rules: Ruleset) -> str:
    """The name of ``rules`` among :data:`OPTION_SETS`, or ``custom:...``."""
    if name_of(rules) != "custom":
        return name_of(rules)  # a named rule variant (turub.variants)
    for name, r in OPTION_SETS.items():
        if r == rules:
            return name
    return "custom:" + ",".join(f"{k}={v}" for k, v in rules.to_dict().items())



# --- the reference's answers ------------------------------------------------------------------

def ask_args(op: str, args: Mapping[str, Any], rules: Rules, protocol: int = 1) -> dict[str, Any]:
    """The arguments the implementation is asked with: ``args`` plus the rules if the op takes
    them.  (The run's variant, if any, is named by the target: ``Target.with_variant``.)"""
    if asked_with_rules(op):
        return {**args, "rules": rules.to_dict()}
    return dict(args)


def protocol_of(op: str, args: Mapping[str, Any]) -> int:
    """The protocol version a question needs: 2 if it carries version 2's context
    (:attr:`.operations.Operation.context`)."""
    context = context_of(op)
    return 2 if context is not None and context in args else 1


def answer(op: str, args: Mapping[str, Any], rules: Rules) -> Any:
    """The reference's answer (under a rule variant, the variant's: see :mod:`.variant_reference`)."""
    return getattr(reference_for(rules), op)(**ask_args(op, args, rules))


def _why(op: str, args: Mapping[str, Any], rules: Rules, expected: Any) -> tuple[dict | None, list[str]]:
    """What the judge needs to name clauses, and the clauses the case exercises (each
    operation's ``why`` part; one without cites all its clauses)."""
    record = REGISTRY.get(op)
    if record is None:
        return None, sorted(OPERATIONS[op])
    return record.part_or("why", lambda args, rules, expected: (None, sorted(record.clauses)))(args, rules, expected)


@operation_part("trick_winner", "why")
def _trick_winner_why(args: Mapping[str, Any], rules: Rules, expected: Any) -> tuple[dict | None, list[str]]:
    from turub import parse_suit
    d = decide_trick([parse_card(c) for c in args["cards"]], parse_suit(args["trump"]), Seat.NORTH)
    clauses = list(d.clauses) + ["pack.rank-order"]
    if any("♠♥♦♣".find(c[-1]) >= 0 for c in args["cards"]):
        clauses.append("pack.card-notation")
    return None, sorted(clauses)


@operation_part("legal_plays", "why")
def _legal_plays_why(args: Mapping[str, Any], rules: Rules, expected: Any) -> tuple[dict | None, list[str]]:
    hand = [parse_card(c) for c in args["hand"]]
    led = parse_card(args["trick"][0]).suit if args["trick"] else None
    if led is None:
        clauses = ["play.follow-suit"]
    elif any(c.suit is led for c in hand):
        clauses = ["play.follow-suit"]
    else:
        clauses = ["play.void-any-card", "play.no-forced-trump"]
    if any("♠♥♦♣".find(c[-1]) >= 0 for c in args["hand"] + args["trick"]):
        clauses.append("pack.card-notation")
    return None, sorted(clauses)


@operation_part("referee", "why")
def _referee_why(args: Mapping[str, Any], rules: Rules, expected: Any) -> tuple[dict, list[str]]:
    deal = new_deal(rules, [parse_card(c) for c in args["pack"]], Seat("NESW".index(args["dealer"])),
                    args["cut"])
    trace = RefereeTrace(deal)
    for action in args["actions"]:
        trace.apply(action)
    return trace.why()


@operation_part("deal_result", "why")
def _deal_result_why(args: Mapping[str, Any], rules: Rules, expected: Any) -> tuple[dict | None, list[str]]:
    if "refused" in expected:
        return None, [expected["refused"]]
    r = deal_result(args["ns"], args["ew"], closed_early=args["closed_early"])
    return None, sorted(set(r.clauses) | {"result.tricks-add-up"})


@operation_part("first_dealer", "why")
def _first_dealer_why(args: Mapping[str, Any], rules: Rules, expected: Any) -> tuple[dict | None, list[str]]:
    if "refused" in expected:
        return None, [expected["refused"], "dealer.first-draw"]
    return None, ["dealer.first-draw", "dealer.first-draw-ties", "pack.suits-equal"] if len(
        args["rounds"]) > 1 else ["dealer.first-draw"]


@operation_part("next_dealer", "why")
def _next_dealer_why(args: Mapping[str, Any], rules: Rules, expected: Any) -> tuple[dict | None, list[str]]:
    from turub import next_dealer, parse_seat
    from ..adapter import winner_of
    nd = next_dealer(parse_seat(args["dealer"]), winner_of(args["outcome"]), rules)
    return None, list(nd.clauses)


@operation_part("contest", "why")
def _contest_why(args: Mapping[str, Any], rules: Rules, expected: Any) -> tuple[dict | None, list[str]]:
    c = Contest()
    steps: list[list[str]] = []
    for ns, ew, closed in args["results"]:
        try:
            result = deal_result(ns, ew, closed_early=closed, rules=options_of(rules))
        except RuleError as e:
            steps.append([e.clause])
            continue
        fresh = ["contest.decided-is-final"] if c.is_decided else []
        c = (Contest() if c.is_decided else c).record(result, rules)
        steps.append(list(c.clauses) + fresh)
    return {"steps": steps}, sorted({x for s in steps for x in s})


@operation_part("check_packets", "why")
def _check_packets_why(args: Mapping[str, Any], rules: Rules, expected: Any) -> tuple[dict | None, list[str]]:
    return None, ["deal.dealer-check"] + ([] if expected["stands"] else ["deal.redeal"])


def expected_case(case_id: str, op: str, args: Mapping[str, Any], rules: Rules,
                  rules_tag: Any = None, trace: RefereeTrace | None = None) -> Case:
    """The case ``case_id`` with the reference's answer under ``rules`` (for a refereed deal
    already played by the reference, its ``trace`` gives the answer without a replay)."""
    if trace is not None:
        expected = trace.expected()
        why, clauses = trace.why()
    else:
        expected = answer(op, args, rules)
        why, clauses = _why(op, args, rules, expected)  # type: ignore[assignment]
    case: Case = {"id": case_id, "op": op, "args": dict(args),
                  "rules": rules.to_dict() if rules_tag is None else rules_tag,
                  "clauses": clauses, "expected": expected}
    if protocol_of(op, args) > 1:
        case["protocol"] = protocol_of(op, args)
    if why is not None:
        case["why"] = why
    decided = variant_decisions(op, args, rules)  # where a variant's own clause decided
    if decided:
        case["variant"] = rules.name  # type: ignore[attr-defined]
        case.setdefault("why", {})["variant"] = decided
        case["clauses"] = sorted(set(case["clauses"]) | set(decided.values()))
    return case


# --- the committed vectors and the generated cases --------------------------------------------

VECTOR_SEED: Final = 20240501


def _stream_key(rules: Rules) -> tuple[str, ...]:
    """What the refereed streams played under ``rules`` depend on: the direction of play,
    and which signal kinds the slipped-in illegal signals use."""
    return (str(rules.direction), "documented" if rules.signal_kinds == "documented" else "any")


def build_vectors(sets: Mapping[str, Rules] = OPTION_SETS, seed: int = VECTOR_SEED,
                  counts: Mapping[str, int] = VECTOR_COUNTS) -> dict[str, list[Case]]:
    """The vectors: for each option set, every case that holds under it.

    An input's case is tagged ``"rules": "any"`` when all sets give the same answer.  A
    referee stream played under one set is kept for each set that answers it as that set
    does.  A case whose answer depends on an option also cites that option's clause.
    """
    out: dict[str, list[Case]] = {name: [] for name in sets}
    plain = [x for x in inputs(seed, counts)]  # without rules: no stream played under them
    streams: list[tuple[str, str, dict, str]] = []
    seen_streams: dict[tuple[str, ...], str] = {}
    for name, rules in sets.items():
        key = _stream_key(rules)
        if key in seen_streams:
            continue
        seen_streams[key] = name
        only_signals = key[1] != "any" and (key[0], "any") in seen_streams
        suffix = "".join("-" + k for k, default in zip(key, _stream_key(Rules())) if k != default)
        played = {n: counts.get(n, 0) for n, r in REGISTRY.items() if r.drawn_under_rules}
        for case_id, op, args in inputs(seed, {**played, "eighteen-all": counts.get("eighteen-all", 2)}, rules):
            if only_signals and not (
                    REGISTRY[op].drawn_under_rules and any(w in case_id for w in ("signal", "kinds"))):
                continue  # only the signal kinds differ: only the streams whose signals are in question
            streams.append((case_id + suffix, op, args, name))
    standard = next(iter(sets.values()))
    for case_id, op, args, *origin in [(*x,) for x in plain] + streams:
        answers = {name: answer(op, args, rules) for name, rules in sets.items()}
        first = next(iter(answers.values()))
        if all(a == first for a in answers.values()):
            for name, rules in sets.items():
                out[name].append(expected_case(case_id, op, args, rules, "any"))
            continue
        extra = set()
        base = answers[next(iter(sets))]
        for name, rules in sets.items():
            if answers[name] != base:
                extra |= {_OPTION_CLAUSE[k] for k in rules.differences(standard)}
        home = origin[0] if origin else None
        for name, rules in sets.items():
            # a set with streams of its own keeps only the others' streams it answers alike
            own_streams = home is not None and _stream_key(rules) != _stream_key(sets[home])
            if own_streams and answers[name] != answers[home]:  # type: ignore[index]
                continue
            case = expected_case(case_id, op, args, rules)
            case["clauses"] = sorted(set(case["clauses"]) | extra)
            out[name].append(case)
    return out


#: How many cases of each operation ``turub check --seed`` generates by default (each
#: record's ``generated``), and how many of the refereed streams end in an eighteen-all draw.
GENERATED_COUNTS: Final = {"eighteen-all": 2, **{n: r.generated for n, r in REGISTRY.items()}}


def generated_counts(scale: float) -> dict[str, int]:
    """How many inputs of each operation ``scale`` asks for."""
    return {op: max(1, int(n * scale)) if n else 0 for op, n in GENERATED_COUNTS.items()}


def iter_generated_cases(seed: int, rules: Rules, scale: float = 1.0) -> Iterator[Case]:
    """Cases generated from ``seed`` under ``rules``, answered by the reference one at a time."""
    for case_id, op, args, trace in traced_inputs(seed, generated_counts(scale), rules):
        if "/worked-" in case_id or not REGISTRY[op].generated:
            continue  # the worked and exhaustive cases are in the vectors already
        yield expected_case(f"generated/{seed}/{case_id}", op, args, rules, trace=trace)


def generated_cases(seed: int, rules: Rules, scale: float = 1.0) -> list[Case]:
    """Cases generated from ``seed`` under ``rules``, answered by the reference now."""
    return list(iter_generated_cases(seed, rules, scale))
