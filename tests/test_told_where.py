"""A variant whose legal-play rules read the game at some kinds of play and not at others:
the playout tells the rule reading it where it is asked (its view built there), asks the
other with its decision's arguments alone, and every play drawn is one the rules allow, as
the card-by-card replay of each deal says."""

from __future__ import annotations

import random
from collections import Counter

from turub import Seat
from turub.cards import sort_hand
from turub.variants import Variant, VariantClause


def _last_card_at_trick_three(hand, trick, trump, game):
    """At the lead of trick 3, the last card of the hand (as it is sorted)."""
    return [hand[-1]] if game.trick_number == 3 and game.seat is not None else None


def _trump_when_void(hand, trick, trump):
    """Void in the led suit (or following) and holding trump: only trumps (it reads no game)."""
    return [c for c in hand if c.suit is trump] or None


MIXED = Variant("test-told-where", "1", clauses=[
    VariantClause("tw.third-lead", "The third lead is the last card", decides="legal_plays",
                  rule=_last_card_at_trick_three, amends=["play.follow-suit"], applies_to="lead"),
    VariantClause("tw.trump", "Trump when able", decides="legal_plays", rule=_trump_when_void,
                  replaces=["play.no-forced-trump"], applies_to=("follow", "void"))])


def test_rules_reading_the_game_at_some_kinds_of_play_only_decide_each_play_they_apply_to():
    rng = random.Random(3)
    for i in range(6):
        deal = MIXED.play_random_deal(Seat(i % 4), rng)
        again = MIXED.replay(deal.to_record())  # every play re-checked by the variant's rules
        assert again.to_record() == deal.to_record()
        hands = {seat: Counter() for seat in Seat}
        for trick in deal.tricks:
            for seat, card in zip(trick.seats, trick.cards):
                hands[seat][card] += 1
        for number, trick in enumerate(deal.tricks, 1):
            if number == 3:  # the lead rule, reading the game, decided
                assert trick.cards[0] is sort_hand(hands[trick.leader].elements())[-1]
            for k, (seat, card) in enumerate(zip(trick.seats, trick.cards)):
                if k and any(c.suit is deal.trump for c in hands[seat].elements()):
                    assert card.suit is deal.trump  # the rule not reading the game, asked alone
                hands[seat][card] -= 1
