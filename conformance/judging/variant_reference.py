"""The expected answers under a rule variant: the reference engine playing by the variant.

:func:`reference_for` gives the implementation-interface object whose answers are the
expected ones under a set of rules or a :class:`~turub.variants.Variant`: the plain
reference when the variant overrides no decision, else a :class:`VariantReference`;
:func:`reference_program` the same as a program under test (``turub check --variant V`` with
no program: a broken house rule is its reported error).

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
from turub.decisions import HouseRuleError
from turub.options import rules_from_dict
from turub.variants import Variant

from ..adapter import ReferenceImplementation, outcome_text, side_text, winner_of
from ..ruleset import Ruleset, variant_of

__all__ = ["VariantReference", "reference_for", "variant_decisions", "reblame",
           "new_deal", "deal_from_seed", "under_options", "reference_program"]

_PLAIN: Final = ReferenceImplementation()


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

    def deal(self, pack, dealer, cut, rules, **_: Any) -> dict[str, Any]:
        return super().deal(pack, dealer, cut, rules)

    def first_dealer(self, rounds, **_: Any) -> dict[str, Any]:
        try:
            fd = self.variant.first_dealer([{parse_seat(s): parse_card(c) for s, c in r.items()} for r in rounds])
        except RuleError as e:
            return {"refused": e.clause}
        return {"dealer": fd.seat.letter}

    def check_packets(self, packets, dealer, **_: Any) -> dict[str, Any]:
        # the question carries no rules: the options at their defaults, as the standard's
        check = self.variant.check_packets([(parse_seat(s), n) for s, n in packets], parse_seat(dealer), Rules())
        return {"stands": check.stands}

    def trick_winner(self, cards: list[str], trump: str, **_: Any) -> int:
        return self.variant.trick_winner([parse_card(c) for c in cards], parse_suit(trump))[0]

    def legal_plays(self, hand: list[str], trick: list[str], trump: str | None = None, **_: Any) -> list[str]:
        legal, _c = self.variant.legal_plays([parse_card(c) for c in hand], [parse_card(c) for c in trick],
                                             parse_suit(trump) if trump else None)
        return [card_name(c, ascii=True) for c in sorted(legal, key=lambda c: c.index)]

    def deal_result(self, ns: int, ew: int, closed_early: bool, **_: Any) -> dict[str, Any]:  # type: ignore[override]  # dealer in **_
        dealer = _.get("dealer")  # protocol 2: who dealt, which a rule reading the game sees
        try:  # the question carries no rules: the options at their defaults (early-close=draw)
            result = self.variant.deal_result(ns, ew, closed_early=closed_early, rules=Rules(),
                                              dealer=parse_seat(dealer) if dealer else None)
            return {"outcome": outcome_text(result.winner)}
        except RuleError as e:
            return {"refused": e.clause}

    def next_dealer(self, dealer: str, outcome: str, rules: dict[str, str], **_: Any) -> str:
        return self.variant.next_dealer(parse_seat(dealer), winner_of(outcome),
                                        rules_from_dict(rules)).seat.letter

    def contest(self, results, rules, **_: Any) -> list[dict[str, Any]]:  # type: ignore[override]  # dealer in **_
        r = rules_from_dict(rules)
        c = Contest()
        states: list[dict[str, Any]] = []
        from .decided import results_dealt
        for _i, result in results_dealt(self.variant, results, r, _.get("dealer")):
            if isinstance(result, RuleError):
                states.append({"refused": result.clause})
                continue
            c = self.variant.contest_step(Contest() if c.is_decided else c, result, r)
            states.append({"holder": side_text(c.holder), "mark": c.mark, "winner": side_text(c.winner)})
        return states


class VariantProgram(VariantReference):
    """The variant's reference as a program under test (``turub check --variant V`` with no
    program).  A broken house rule raises :class:`~turub.decisions.HouseRuleError` here as
    in the oracle: the kit's trusted target lets it through, and the run says the rule broke
    (not judged past it, ``INCOMPLETE``) instead of failing the reference for it."""


def reference_program(rules: Any) -> ReferenceImplementation:
    """The reference as a program under test, playing by ``rules`` (a Rules or a Variant)."""
    variant = variant_of(rules)
    return _PLAIN if variant is None else VariantProgram(variant)


def new_deal(rules: Ruleset, pack, dealer, cut: int):
    """A deal of ``pack`` (cards) played by ``rules`` (a Rules or a Variant)."""
    from turub import Deal
    if isinstance(rules, Variant):
        return rules.deal(pack, dealer, cut)
    return Deal(pack, dealer, rules, cut)


def deal_from_seed(rules: Ruleset, seed: int, dealer):
    """A seeded deal (:meth:`turub.Deal.from_seed`) played by ``rules`` (a Rules or a Variant)."""
    from turub import Deal
    if isinstance(rules, Variant):
        return rules.deal_from_seed(seed, dealer)
    return Deal.from_seed(seed, dealer, rules)


_CACHE: dict[Variant, VariantReference] = {}


def reference_for(rules: Ruleset) -> ReferenceImplementation:
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


# --- where the variant decided (judging.decided) ---------------------------------------------------

def variant_decisions(op: str, args: Mapping[str, Any], rules: Any) -> dict[str, str]:
    """Where the variant's clauses decided in the case ``(op, args)`` (empty: nowhere); each
    clause also knows the standard answer there (:class:`~.decided.Decided`)."""
    from .decided import variant_decisions as decisions
    return decisions(variant_of(rules), op, args)


def reblame(case: Mapping[str, Any], verdict, got: Any = None):
    """See :func:`.decided.reblame`."""
    from .decided import reblame as chosen
    return chosen(case, verdict) if got is None else chosen(case, verdict, got)
