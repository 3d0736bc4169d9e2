"""House rules of legal plays that read the game (issue 31), as a club keeps them outside the
package, and two programs for each: the club's app (the reference refereeing with the
variant) and the standard app (the reference, though it says it plays the variant).

* ``seeing-head-late`` (follow plays): from trick 19 on, a player following suit must beat
  the best card of the led suit if able.
* ``seeing-dealer-sixes`` (every play): the dealer may not play a six while another card
  is legal by the standard rule.

``python -m turub.tools.cli check --variant seeing_judged.py:seeing-head-late --python
seeing_judged.py:HeadLateApp`` checks the club's app."""

from turub import parse_card, parse_seat
from turub.cards import Rank
from turub.conformance.adapter import ReferenceImplementation
from turub.options import rules_from_dict
from turub.rules import legal_plays
from turub.variants import Variant, VariantClause


def must_head_late(hand, trick, trump, game):
    """From trick 19 on, a player following suit must beat the best card of the led suit if able."""
    if not trick or game.trick_number is None or game.trick_number < 19:
        return None
    led = trick[0].suit
    best = max(c.rank for c in trick if c.suit is led)
    heads = [c for c in hand if c.suit is led and c.rank > best]
    return heads or None


def dealer_keeps_sixes(hand, trick, trump, game):
    """The dealer may not play a six while another card is legal by the standard rule."""
    if game.seat is None or game.seat is not game.dealer:
        return None
    legal = legal_plays(hand, trick[0].suit if trick else None)
    others = [c for c in hand if c in legal and c.rank is not Rank.SIX]
    return others if others and len(others) < len([c for c in hand if c in legal]) else None


HEAD_LATE = Variant("seeing-head-late", "1", clauses=[VariantClause(
    "seeing.head-late", "Head the trick from trick 19", decides="legal_plays", rule=must_head_late,
    applies_to="follow", amends=["play.follow-suit"])])
DEALER_SIXES = Variant("seeing-dealer-sixes", "1", clauses=[VariantClause(
    "seeing.dealer-sixes", "The dealer keeps sixes", decides="legal_plays", rule=dealer_keeps_sixes)])


def club_app(variant):
    """The club's app: the reference, refereeing every deal with the club's variant (a
    question asked outside a deal carries no game: the rules defer there, as the app does)."""
    class App(ReferenceImplementation):
        name, version, variants = "club-app", "1", [variant.name]

        def _deal(self, pack, dealer, rules, cut):
            return variant.deal_class([parse_card(c) for c in pack], parse_seat(dealer),
                                      rules_from_dict(rules), cut)
    return App


def standard_app(variant):
    """The standard rules, though the app says it plays the club's variant."""
    class App(ReferenceImplementation):
        name, version, variants = "standard-app", "1", [variant.name]
    return App


HeadLateApp, DealerSixesApp = club_app(HEAD_LATE), club_app(DEALER_SIXES)
HeadLateStandardApp, DealerSixesStandardApp = standard_app(HEAD_LATE), standard_app(DEALER_SIXES)
