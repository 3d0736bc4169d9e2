"""A traceable diff of two rule variants, case by case, decision by decision.

:func:`variant_report` asks both variants every committed vector's question and referees
deals played under each, traces each answer as a list of decisions (an action accepted
or refused, a trick won, the deal's result, a contest step...) with the clauses behind each,
and reports for every case whose answers differ its *first differing decision*::

    referee/full-deal, action 69: play.no-forced-trump -> club.must-trump

Each such case is attributed to the *replaced* clauses (the changes between the two
variants that alone reproduce the difference: an option's clause such as
``table.direction``, or a variant's own clause such as ``club.must-trump``) and lists the
clauses *affected* downstream (those of the decisions that differ after the first, or of
the first decision itself when it is not a replaced clause).  The site's variant pages and
``turub variants diff`` render this same data, so they cannot disagree.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from turub import Contest, RuleError, Seat, parse_card, parse_seat, parse_suit
from turub.cards import card_name
from turub.deal import Phase
from turub.options import OPTIONS, Rules
from turub.variants import BUILTIN, Variant, resolve

from ..adapter import outcome_text, side_text, winner_of
from ..operations import REGISTRY, operation_part
from ..option_checks import PLAYED_DEALS

__all__ = ["variant_report", "render_report", "trace", "changes_between", "variants_diff"]


Step = tuple[str, tuple[str, ...], Any]  # (where, clauses, value)


def _flat(v: Variant, name: str, options: Mapping[str, str], clauses) -> Variant:
    return Variant(name, v.version, None, dict(options), tuple(replace(c, variant=c.variant) for c in clauses),
                   description="probe")


def changes_between(a: Variant, b: Variant) -> list[dict[str, Any]]:
    """The single changes that turn ``a`` into ``b``: each option that differs (named by its
    clause) and each clause one has and the other lacks.  Each with ``probe``: ``a`` with
    only that change made."""
    out = []
    ca = {c.id: c for c in a.all_clauses}
    cb = {c.id: c for c in b.all_clauses}
    for option, (mine, theirs) in a.rules.differences(b.rules).items():
        probe = _flat(a, f"probe.{option}", {**a.rules.to_dict(), option: theirs}, ca.values())
        out.append({"clause": OPTIONS[option], "kind": "option", "change": f"{option}: {mine} -> {theirs}",
                    "probe": probe})
    for cid, c in cb.items():
        if cid not in ca:
            probe = _flat(a, f"probe.{cid}", a.rules.to_dict(), [*ca.values(), c])
            out.append({"clause": cid, "kind": "added", "change": f"{b.name} adds {cid} "
                        f"({c.relation} {', '.join(c.targets) or 'nothing'})", "probe": probe,
                        "targets": list(c.targets)})
    for cid, c in ca.items():
        if cid not in cb:
            probe = _flat(a, f"probe.no-{cid}", a.rules.to_dict(), [x for x in ca.values() if x.id != cid])
            out.append({"clause": cid, "kind": "removed", "change": f"{b.name} drops {cid}",
                        "probe": probe, "targets": list(c.targets)})
    return out


# --- the decisions of one answer -----------------------------------------------------------------

def _legal_clauses(v: Variant, hand, trick, trump) -> tuple[tuple[str, ...], Any]:
    legal, clauses = v.legal_plays(hand, trick, trump)
    return clauses, sorted(card_name(c, ascii=True) for c in legal)


def trace(op: str, args: Mapping[str, Any], v: Variant) -> list[Step]:
    """The decisions ``v`` makes answering ``(op, args)``, in order, each ``(where, clauses,
    value)`` (each operation's ``trace`` part; one without is traced by its answer)."""
    def by_its_answer(args: Mapping[str, Any], v: Variant) -> list[Step]:
        return _answer_trace(op, args, v)
    record = REGISTRY.get(op)
    return (by_its_answer if record is None else record.part_or("trace", by_its_answer))(args, v)


def _answer_trace(op: str, args: Mapping[str, Any], v: Variant) -> list[Step]:
    from ..questions.cases import answer, expected_case  # no overridable decision: the answer itself
    case = expected_case("trace", op, args, v)  # type: ignore[arg-type]  # a Variant stands for its rules
    return [("the answer", tuple(case["clauses"]), answer(op, args, v))]  # type: ignore[arg-type]  # a Variant stands for its rules


@operation_part("trick_winner", "trace")
def _trick_winner_trace(args: Mapping[str, Any], v: Variant) -> list[Step]:
    pos, clauses = v.trick_winner([parse_card(c) for c in args["cards"]], parse_suit(args["trump"]))
    return [("the trick's winner", clauses, pos)]


@operation_part("legal_plays", "trace")
def _legal_plays_trace(args: Mapping[str, Any], v: Variant) -> list[Step]:
    trump = args.get("trump")
    clauses, value = _legal_clauses(v, [parse_card(c) for c in args["hand"]],
                                    [parse_card(c) for c in args["trick"]],
                                    parse_suit(trump) if trump else None)
    return [("the legal plays", clauses, value)]


@operation_part("deal", "trace")
def _deal_trace(args: Mapping[str, Any], v: Variant) -> list[Step]:
    d = v.deal([parse_card(c) for c in args["pack"]], parse_seat(args["dealer"]), args["cut"])
    caller, chosen = d.caller.letter, d.caller_clause  # trump.caller, or the house clause that chose it
    d.name_trump(d.caller, "S")
    return [("the caller", ("table.left-of-dealer", "trump.caller") if chosen == "trump.caller" else (chosen,), caller),
            ("the hands", ("deal.packets",),
             {s.letter: [card_name(c, ascii=True) for c in d.hand(s)] for s in Seat})]


@operation_part("deal_result", "trace")
def _deal_result_trace(args: Mapping[str, Any], v: Variant) -> list[Step]:
    try:
        r = v.deal_result(args["ns"], args["ew"], closed_early=args["closed_early"])
    except RuleError as e:
        return [("the result", (e.clause,), {"refused": e.clause})]
    return [("the result", r.clauses, outcome_text(r.winner))]


@operation_part("next_dealer", "trace")
def _next_dealer_trace(args: Mapping[str, Any], v: Variant) -> list[Step]:
    nd = v.next_dealer(parse_seat(args["dealer"]), winner_of(args["outcome"]))
    return [("the next dealer", nd.clauses, nd.seat.letter)]


@operation_part("contest", "trace")
def _contest_trace(args: Mapping[str, Any], v: Variant) -> list[Step]:
    steps: list[Step] = []
    c = Contest()
    for i, (ns, ew, closed) in enumerate(args["results"]):
        where = f"after result {i + 1} ({ns}-{ew}{' closed' if closed else ''})"
        try:
            r = v.deal_result(ns, ew, closed_early=bool(closed))
        except RuleError as e:
            steps.append((where, (e.clause,), {"refused": e.clause}))
            continue
        c = v.contest_step(Contest() if c.is_decided else c, r)
        steps.append((where, tuple(r.clauses) + tuple(c.clauses),
                      [side_text(c.holder), c.mark, side_text(c.winner)]))
    return steps


@operation_part("referee", "trace")
def _referee_trace(args: Mapping[str, Any], v: Variant) -> list[Step]:
    d = v.deal([parse_card(c) for c in args["pack"]], parse_seat(args["dealer"]), args["cut"])
    steps: list[Step] = []
    for i, action in enumerate(args["actions"]):
        where = f"action {i + 1}"
        kind = action.get("act")
        clauses: tuple[str, ...] = ()
        if kind == "play" and d.to_act is not None and d.trump is not None:
            try:
                seat, card = parse_seat(action["seat"]), parse_card(action["card"])
                if seat == d.to_act and d.holds(seat, card):
                    legal, clauses = v.legal_plays(d.hand(seat), [c for _, c in d.current_trick], d.trump)
                    if not d.current_trick:
                        clauses = ("play.first-lead" if not d.tricks else "play.winner-leads",)
            except (RuleError, KeyError):
                pass
        elif kind == "trump":
            clauses = (d.caller_clause,)  # trump.caller, or the house clause that chose the caller
        elif kind == "signal":
            clauses = ("signal.leader-only",)
            kind_given = action.get("signal")
            if v.decides("may_signal") and d.phase is Phase.PLAYING and isinstance(kind_given, str) \
                    and kind_given.strip():  # who may signal: the house rule's, if it says
                try:
                    asked = v.house("may_signal", parse_seat(action["seat"]), d.leader, kind_given,
                                    game=d.game(parse_seat(action["seat"])) if v.sees_game("may_signal") else None)
                except (RuleError, KeyError):
                    asked = None
                clauses = (asked[1].id,) if asked is not None else clauses
        elif kind == "close":
            clauses = ("sheet.any-player-closes",)
        before = len(d.tricks)
        try:
            d.apply(action)
            steps.append((where, clauses or ("play.turn",), "ok"))
        except RuleError as e:
            steps.append((where, (e.clause,), f"refused: {e.clause}"))
            continue
        if len(d.tricks) > before:
            t = d.tricks[-1]
            steps.append((f"trick {len(d.tricks)} (action {i + 1})", t.decision.clauses, t.winner.letter))
    if d.result is not None:
        steps.append(("the result", d.result.clauses, [*d.result.tricks, outcome_text(d.result.winner)]))
    return steps


def first_difference(ta: list[Step], tb: list[Step]) -> tuple[int, Step | None, Step | None] | None:
    """The first decision where two traces differ (by value, or by where they stand)."""
    for i in range(max(len(ta), len(tb))):
        a = ta[i] if i < len(ta) else None
        b = tb[i] if i < len(tb) else None
        if a is None or b is None or a[0] != b[0] or a[2] != b[2]:
            return i, a, b
    return None


# --- the report ---------------------------------------------------------------------------------

def _questions(a: Variant, b: Variant, deals: int) -> list[tuple[str, str, dict]]:
    from ..questions.cases import VECTOR_COUNTS, VECTOR_SEED, inputs, play_stream
    out = [(cid, op, args) for cid, op, args in inputs(VECTOR_SEED, VECTOR_COUNTS)]  # no streams without rules
    played = {n: VECTOR_COUNTS[n] for n, r in REGISTRY.items() if r.drawn_under_rules}
    for v in (a, b) if a.rules.direction == b.rules.direction else (a,):  # the vectors' deals
        out += [(f"{cid}@{v.name}" if v is b else cid, op, args)
                for cid, op, args in inputs(VECTOR_SEED, played, v)]  # type: ignore[arg-type]  # a Variant stands for its rules
    for v in (a, b):
        rng = random.Random(f"{VECTOR_SEED}/played/{v.name}")
        for k in range(deals):
            args = play_stream(rng.getrandbits(32), "NESW"[k % 4], v, 36, rng=rng, signal_rate=0.2)  # type: ignore[arg-type]  # a Variant stands for its rules
            out.append((f"played/{v.name}/{k + 1}", "referee", args))
    return out


def _side_text(step: Step | None) -> str:
    if step is None:
        return "(no such decision)"
    value = step[2] if isinstance(step[2], str) else json.dumps(step[2], ensure_ascii=False)
    return f"{', '.join(step[1])} ({value})"


def _what(op: str, args: Mapping[str, Any], where: str) -> str:
    """What was done at ``where`` in a refereed deal ("action 69" -> " (N plays 7H)")."""
    if not where.startswith("action "):  # only a refereed deal's trace stands at its actions
        return ""
    try:
        a = args["actions"][int(where.split()[1]) - 1]
    except (ValueError, IndexError, KeyError):
        return ""
    thing = a.get("card") or a.get("suit") or a.get("signal") or ""
    return f" ({a.get('seat', '?')} {a.get('act', '?')}s {thing})".replace(" closes )", " closes)")


def variant_report(a: str | Variant, b: str | Variant, deals: int = PLAYED_DEALS) -> dict[str, Any]:
    """The diff of variants ``a`` and ``b`` as plain data (see the module documentation):
    ``{"a", "b", "changes", "cases": [...], "replaced": {clause: n}, "affected": {clause: n}}``."""
    va, vb = resolve(a), resolve(b)
    changes = changes_between(va, vb)
    cases = []
    replaced: Counter[str] = Counter()
    affected: Counter[str] = Counter()
    standard_replaced: Counter[str] = Counter()
    for cid, op, args in _questions(va, vb, deals if va != vb else 0):
        try:
            ta, tb = trace(op, args, va), trace(op, args, vb)
        except RuleError:
            continue
        first = first_difference(ta, tb)
        if first is None:
            continue
        index, sa, sb = first
        causes = []
        for ch in changes:
            try:
                tp = trace(op, args, ch["probe"])
            except RuleError:
                continue
            if first_difference(ta, tp) is not None:
                causes.append(ch["clause"])
        if not causes:
            causes = [ch["clause"] for ch in changes]  # only the changes together make it
        later = set()
        for x, y in zip(ta[index:], tb[index:]):
            if x[2] != y[2] or x[0] != y[0]:
                later |= set(x[1]) | set(y[1])
        standard = sorted({t for cause in causes for t in _targets(cause)})  # what the house clauses set aside
        downstream = sorted(later - set(causes) - set(standard))
        where = (sa or sb)[0]  # type: ignore[index]  # one side differs here, so is not None
        text = f"{where}{_what(op, args, where)}: {_side_text(sa)} -> {_side_text(sb)}"
        cases.append({"id": cid, "op": op, "first": {"where": where, "index": index,
                                                     "a": {"clauses": list(sa[1]), "value": sa[2]} if sa else None,
                                                     "b": {"clauses": list(sb[1]), "value": sb[2]} if sb else None},
                      "decision": text, "replaced": causes, "standard_replaced": standard,
                      "affected": downstream, "args": dict(args)})
        replaced.update(causes)
        standard_replaced.update(standard)
        affected.update(downstream)
    touched: Counter[str] = Counter()
    for c in cases:
        c["clauses"] = sorted(set(c["replaced"]) | set(c["standard_replaced"]) | set(c["affected"]))
        c["where"] = c["decision"]
        touched.update(c["clauses"])
    return {"a": va.describe(), "b": vb.describe(),
            "differences": {k: list(x) for k, x in va.rules.differences(vb.rules).items()},
            "changes": [{k: v for k, v in ch.items() if k != "probe"} for ch in changes],
            "cases": cases, "replaced": dict(replaced.most_common()),
            "standard_replaced": dict(standard_replaced.most_common()),
            "affected": dict(affected.most_common()),
            "clauses": dict(sorted(touched.items())),  # replaced or affected, by cases
            "questions": {"vectors": "the committed vectors' questions", "played_deals": 2 * deals}}


def _targets(clause: str) -> tuple[str, ...]:
    """The standard clauses a house clause replaces or amends (none for a standard clause)."""
    from turub.clauses import VARIANT_CLAUSES
    return tuple(getattr(VARIANT_CLAUSES.get(clause), "targets", ()))


def _options_text(options: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items())


def render_report(d: dict) -> str:
    """The diff as text, every case in full (no truncation), in words: no Python notation.
    Three headings: the house clause (or option) that decides differently, the standard
    clauses it replaces or amends, and what is affected downstream."""
    a, b = d["a"], d["b"]
    lines = [f"A: {a['name']} {a['version']} ({_options_text(a['options'])})",
             f"B: {b['name']} {b['version']} ({_options_text(b['options'])})"]
    if d["changes"]:
        lines.append("Changes from A to B:")
        lines += [f"  {c['clause']}: {c['change']}" for c in d["changes"]]
    if not d["cases"]:
        return "\n".join(lines + ["No case's answer differs."]) + "\n"
    lines.append(f"{len(d['cases'])} cases answer differently.")
    lines.append("House clause (or option) deciding differently, the change that alone makes the difference, by cases:")
    lines += [f"  {c:<32} {n}" for c, n in d["replaced"].items()]
    if d.get("standard_replaced"):
        lines.append("Standard clauses it replaces or amends, by cases:")
        lines += [f"  {c:<32} {n}" for c, n in d["standard_replaced"].items()]
    if d["affected"]:
        lines.append("Affected downstream, by cases:")
        lines += [f"  {c:<32} {n}" for c, n in d["affected"].items()]
    lines.append("Cases (the first decision that differs: A's clauses -> B's):")
    for c in d["cases"]:
        parts = [f"house clause: {', '.join(c['replaced'])}"]
        if c.get("standard_replaced"):
            parts.append(f"replaces: {', '.join(c['standard_replaced'])}")
        if c["affected"]:
            parts.append(f"affected: {', '.join(c['affected'])}")
        lines.append(f"  {c['id']}, {c['decision']}  [{'; '.join(parts)}]")
    return "\n".join(lines) + "\n"


def variants_diff(a: Any, b: Any) -> dict[str, Any]:
    """:func:`variant_report` for two option sets or variants (the name docs called first)."""
    def as_variant(x: Any) -> Variant:
        if isinstance(x, Rules):
            return next((v for v in BUILTIN.values() if v.rules == x), None) or \
                Variant("custom", "1", None, x.to_dict())
        return resolve(x)
    return variant_report(as_variant(a), as_variant(b))
