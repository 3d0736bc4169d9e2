"""The expected answers under a rule variant: the reference engine playing by the variant.

:func:`reference_for` gives the implementation-interface object whose answers are the
expected ones under a set of rules or a :class:`~turub.variants.Variant`: the plain
reference when the variant overrides no decision, else a :class:`VariantReference`.

:func:`variant_decisions` says where in one case a variant's clause decided instead of a
standard one (``{"*": "club.must-trump"}`` for a one-decision operation, ``"action:12"``,
``"trick:3"``, ``"result"`` in a refereed deal, ``"step:2"`` in a contest).  The expected
case keeps it (``why["variant"]``), and the judge blames that clause for a wrong answer
there (:func:`reblame`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from turub import Contest, RuleError, Rules, parse_card, parse_seat, parse_suit
from turub.cards import card_name
from turub.options import rules_from_dict
from turub.variants import DECISIONS, Variant

from ..adapter import ReferenceImplementation, _outcome, _side, _winner_of

__all__ = ["VariantReference", "reference_for", "variant_decisions", "reblame", "variant_of",
           "new_deal", "deal_from_seed", "under_options"]

_PLAIN: Final = ReferenceImplementation()


def variant_of(rules: Any) -> Variant | None:
    """``rules`` as a variant that overrides decisions, or None."""
    return rules if isinstance(rules, Variant) and rules.has_rules else None


class VariantReference(ReferenceImplementation):
    """The reference engine answering as ``variant`` plays (every operation)."""

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        self.name = f"turub-reference[{variant.name}]"
        self.variants = [variant.name]

    def _deal(self, pack, dealer, rules, cut):
        return self.variant.deal_class([parse_card(c) for c in pack], parse_seat(dealer),
                                       rules_from_dict(rules), cut)

    def referee(self, pack, dealer, cut, rules, actions, **_: Any) -> dict[str, Any]:
        return super().referee(pack, dealer, cut, rules, actions)

    def trick_winner(self, cards: list[str], trump: str, **_: Any) -> int:
        return self.variant.trick_winner([parse_card(c) for c in cards], parse_suit(trump))[0]

    def legal_plays(self, hand: list[str], trick: list[str], trump: str | None = None, **_: Any) -> list[str]:
        legal, _c = self.variant.legal_plays([parse_card(c) for c in hand], [parse_card(c) for c in trick],
                                             parse_suit(trump) if trump else None)
        return [card_name(c, ascii=True) for c in sorted(legal, key=lambda c: c.index)]

    def deal_result(self, ns: int, ew: int, closed_early: bool, **_: Any) -> dict[str, Any]:
        try:  # the question carries no rules: the options at their defaults (early-close=draw)
            result = self.variant.deal_result(ns, ew, closed_early=closed_early, rules=Rules())
            return {"outcome": _outcome(result.winner)}
        except RuleError as e:
            return {"refused": e.clause}

    def next_dealer(self, dealer: str, outcome: str, rules: dict[str, str], **_: Any) -> str:
        return self.variant.next_dealer(parse_seat(dealer), _winner_of(outcome),
                                        rules_from_dict(rules)).seat.letter

    def contest(self, results, rules, **_: Any) -> list[dict[str, Any]]:
        r = rules_from_dict(rules)
        c = Contest()
        states: list[dict[str, Any]] = []
        for ns, ew, closed in results:
            try:
                result = self.variant.deal_result(ns, ew, closed_early=bool(closed), rules=r)
            except RuleError as e:
                states.append({"refused": e.clause})
                continue
            c = self.variant.contest_step(Contest() if c.is_decided else c, result, r)
            states.append({"holder": _side(c.holder), "mark": c.mark, "winner": _side(c.winner)})
        return states


def new_deal(rules: Any, pack, dealer, cut: int):
    """A deal of ``pack`` (cards) played by ``rules`` (a Rules or a Variant)."""
    from turub import Deal
    if isinstance(rules, Variant):
        return rules.deal(pack, dealer, cut)
    return Deal(pack, dealer, rules, cut)


def deal_from_seed(rules: Any, seed: int, dealer):
    """A seeded deal (:meth:`turub.Deal.from_seed`) played by ``rules`` (a Rules or a Variant)."""
    from turub import Deal
    if isinstance(rules, Variant):
        return rules.deal_from_seed(seed, dealer)
    return Deal.from_seed(seed, dealer, rules)


_CACHE: dict[Variant, VariantReference] = {}


def reference_for(rules: Any) -> ReferenceImplementation:
    """The expected answers' source under ``rules`` (a Rules or a Variant)."""
    variant = variant_of(rules)
    if variant is None:
        return _PLAIN
    ref = _CACHE.get(variant)
    if ref is None or ref.variant is not variant:
        ref = _CACHE[variant] = VariantReference(variant)
    return ref


_UNDER: dict[tuple[Variant, Rules], Variant] = {}


def under_options(variant: Any, rules: Rules) -> Any:
    """``variant`` (with house rules) played under the option set ``rules`` (a property's
    drawn options): a variant based on it with those options; else ``rules`` itself."""
    v = variant_of(variant)
    if v is None or rules == v.rules:
        return v if v is not None and rules == v.rules else rules
    key = (v, rules)
    if key not in _UNDER:
        changed = {k: mine for k, (mine, _theirs) in rules.differences(v.rules).items()}
        _UNDER[key] = Variant(v.name, v.version, v, changed, description=v.description)
    return _UNDER[key]


# --- where the variant decided -----------------------------------------------------------------

def _own(variant: Variant, clauses) -> str | None:
    ids = {c.id for c in variant.all_clauses}
    return next((c for c in clauses if c in ids), None)


def variant_decisions(op: str, args: Mapping[str, Any], rules: Any) -> dict[str, str]:
    """Where the variant's clauses decided in the case ``(op, args)`` (empty: nowhere)."""
    variant = variant_of(rules)
    if variant is None:
        return {}
    try:
        return _decisions(variant, op, args)
    except RuleError:
        return {}


def _decisions(variant: Variant, op: str, args: Mapping[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    if op == "trick_winner":
        c = _own(variant, variant.trick_winner([parse_card(x) for x in args["cards"]],
                                               parse_suit(args["trump"]))[1])
        return {"*": c} if c else {}
    if op == "legal_plays":
        trump = args.get("trump")
        c = _own(variant, variant.legal_plays([parse_card(x) for x in args["hand"]],
                                              [parse_card(x) for x in args["trick"]],
                                              parse_suit(trump) if trump else None)[1])
        return {"*": c} if c else {}
    if op == "deal_result":
        c = _own(variant, variant.deal_result(args["ns"], args["ew"], closed_early=args["closed_early"]).clauses)
        return {"*": c} if c else {}
    if op == "next_dealer":
        c = _own(variant, variant.next_dealer(parse_seat(args["dealer"]), _winner_of(args["outcome"])).clauses)
        return {"*": c} if c else {}
    if op == "contest":
        contest = Contest()
        for i, (ns, ew, closed) in enumerate(args["results"]):
            try:
                result = variant.deal_result(ns, ew, closed_early=bool(closed))
            except RuleError:
                continue
            c = _own(variant, result.clauses)
            contest = variant.contest_step(Contest() if contest.is_decided else contest, result)
            c = c or _own(variant, contest.clauses)
            if c:
                out[f"step:{i}"] = c
        return out
    if op == "referee":
        deal = variant.deal([parse_card(x) for x in args["pack"]], parse_seat(args["dealer"]), args["cut"])
        tricks = 0
        for i, action in enumerate(args["actions"]):
            if action.get("act") == "play" and deal.to_act is not None:
                try:
                    card = parse_card(action["card"])
                    seat = parse_seat(action["seat"])
                except (RuleError, KeyError):
                    card = seat = None
                if seat == deal.to_act and card is not None and deal.holds(seat, card):
                    _legal, clauses = variant.legal_plays(
                        deal.hand(seat), [c for _, c in deal.current_trick], deal.trump)
                    c = _own(variant, clauses)
                    if c:
                        out[f"action:{i}"] = c
            try:
                deal.apply(action)
            except RuleError:
                continue
            if len(deal.tricks) > tricks:
                tricks = len(deal.tricks)
                c = _own(variant, deal.tricks[-1].decision.clauses)
                if c:
                    out[f"trick:{tricks - 1}"] = c
        if deal.result is not None:
            c = _own(variant, deal.result.clauses)
            if c:
                out["result"] = c
        return out
    return out


#: The standard clauses a wrong answer at an overridden decision may be blamed on by the
#: standard judge: at such a point the variant's clause is the rule that decided.
_DECIDED_BY: Final = frozenset(c for cs in DECISIONS.values() for c in cs) | {
    "play.turn", "table.direction", "play.all-tricks", "table.partnerships"}


def reblame(case: Mapping[str, Any], verdict):
    """``verdict`` with its blame moved to the variant's clause when the failure is at a
    point the variant decided (and the judge blamed a rule of that decision)."""
    if verdict.outcome not in ("wrong-answer", "illegal-action-accepted", "legal-action-refused"):
        return verdict  # a pass, or a crash, timeout or protocol violation: no rule to blame
    where = (case.get("why") or {}).get("variant")
    if not where:
        return verdict
    extra = verdict.extra or {}
    if "trick" in extra and f"trick:{extra['trick']}" in where:
        key = f"trick:{extra['trick']}"
    elif "action" in extra:
        key = f"action:{extra['action']}"
    elif "step" in extra:
        key = f"step:{extra['step']}"
    elif "*" in where:
        key = "*"
    else:
        key = "result"
    clause = where.get(key)
    if clause is None or (verdict.blame is not None and verdict.blame not in _DECIDED_BY
                          and verdict.blame not in DECISIONS.get("contest_step", ())):
        return verdict
    from dataclasses import replace
    return replace(verdict, blame=clause, clauses=(clause,),
                   detail=f"{verdict.detail} (decided by the variant's {clause})")
