"""A house rule's deal (``turub.house_rule_deal.HouseRuleDeal``, issue 29): a trick's house rule
is asked once per trick, whoever reads the tricks afterwards.

Reading ``Deal.tricks`` rebuilds each trick from what decided it; it asks no rule again, so
a tally of the house rule's decisions (``turub simulate --variant``) counts each trick once.
"""

import copy
import pickle
import random

import pytest

from turub import Seat, Suit
from turub.rules import trick_winner
from turub.house_rule_deal import HouseRuleDeal
from turub.variants import Variant, VariantClause


def counting_variant(calls):
    """A house rule deciding every trick: the last card wins; ``calls`` counts its asks."""
    def last_card_wins(cards, trump):
        calls.append(tuple(cards))
        return len(cards) - 1 if len(cards) == 4 else None

    return Variant("last-card", clauses=[VariantClause(
        "last-card.wins", "The last card wins the trick", decides="trick_winner",
        rule=last_card_wins, replaces=["trick.highest-led"])])


def two_tricks(variant):
    deal = variant.deal_from_seed(5)
    deal.name_trump(deal.caller, Suit.SPADES)
    for _ in range(8):
        deal.play(deal.to_act, deal.legal_plays()[0])
    return deal


def test_reading_the_tricks_asks_the_trick_rule_no_second_time():
    calls = []
    variant = counting_variant(calls)
    tally = variant.tally()
    try:
        deal = two_tricks(variant)
        # 2 tricks played: the rule asked once each.
        assert len(calls) == 2 and tally == {"last-card.wins": [2, tally["last-card.wins"][1]]}
        tricks = deal.tricks
        deal.tricks, deal.to_record(), deal.state(), copy.copy(deal).tricks
        # Reading them, their record, the state or a copy's asks no rule again.
        assert len(calls) == 2 and tally["last-card.wins"][0] == 2
    finally:
        variant.stop_tally()
    # Each trick is still as the house rule decided it, naming its clause.
    assert [t.decision.position for t in tricks] == [3, 3]
    assert [t.decision.clauses for t in tricks] == [("last-card.wins",)] * 2


def test_the_fast_playout_keeps_the_house_rules_trick_decisions():
    calls = []
    variant = counting_variant(calls)
    deal = variant.play_random_deal(Seat.NORTH, random.Random(3))
    asked = len(calls)
    assert asked == 36
    tricks = deal.tricks
    assert len(calls) == asked  # rebuilt from what decided them
    for trick in tricks:
        # The last card wins; the standard rule would name another card in most tricks.
        assert trick.decision.position == 3 and trick.decision.clauses == ("last-card.wins",)
        assert trick.winner is trick.seats[3]
    assert any(trick_winner(list(t.cards), Suit(deal.trump)) != 3 for t in tricks)


def test_a_house_rule_deal_is_the_declared_class_bound_to_its_variant():
    variant = counting_variant([])
    cls = variant.deal_class
    assert issubclass(cls, HouseRuleDeal) and cls.variant is variant
    assert variant.deal_class is cls  # made once per variant
    # Nothing but data is bound (the variant, what it decides, its rules' askers): every
    # method is HouseRuleDeal's (or Deal's).
    assert {k for k in vars(cls) if not k.startswith("__")} == {
        "variant", "decides_plays", "decides_tricks", "decides_result", "checks_follow_suit",
        "play_rules", "trick_rule", "plays_see", "tricks_see", "result_sees", "decides_signals",
        "signals_see"}
    deal = two_tricks(variant)
    # A copy plays on alone; a pickle is refused, naming what to pickle instead.
    twin = copy.deepcopy(deal)
    twin.play(twin.to_act, twin.legal_plays()[0])
    assert deal.state() != twin.state() and deal.state() == two_tricks(variant).state()
    with pytest.raises(TypeError, match=r"rule variant.*to_record"):
        pickle.dumps(deal)


# --- who may signal (the ``may_signal`` decision, Deal.may_signal) ---------------------------------

def partner_too(seat, leader, kind):
    return True if seat is leader.partner else None


def none_late(seat, leader, kind, game):
    return False if game.trick_number > 30 else None


SIGNALLING = Variant("signalling", clauses=[
    VariantClause("signalling.partner", "The leader's partner may signal too", decides="may_signal",
                  rule=partner_too, amends=["signal.leader-only"]),
    VariantClause("signalling.none-late", "No signals after trick 30", decides="may_signal",
                  rule=none_late, amends=["signal.timing"])])


def led(variant, tricks=0):
    """A deal of ``variant`` after ``tricks`` whole tricks and the next lead."""
    deal = variant.deal_from_seed(5)
    deal.name_trump(deal.caller, Suit.SPADES)
    for _ in range(4 * tricks + 1):
        deal.play(deal.to_act, deal.legal_plays()[0])
    return deal


def test_the_leaders_partner_signals_under_the_house_rule_and_an_opponent_is_still_refused():
    from turub.errors import SignalError
    deal = led(SIGNALLING)
    leader = deal.leader
    # the standard engine: the partner is refused (signal.leader-only)
    plain = led(Variant("plain"))
    with pytest.raises(SignalError) as refused:
        plain.signal(leader.partner, "knock")
    assert refused.value.clause == "signal.leader-only"
    opponent = next(s for s in Seat if s.side is not leader.side)
    with pytest.raises(SignalError) as refused:
        deal.signal(opponent, "knock")
    assert refused.value.clause == "signal.leader-only"  # the house rule deferred
    given = deal.signal(leader.partner, "knock")
    assert given.seat is leader.partner and deal.current_signal == given
    with pytest.raises(SignalError) as refused:  # still one signal a trick
        deal.signal(leader, "click")
    assert refused.value.clause == "signal.once-per-trick"


def test_a_rule_reading_the_game_refuses_late_signals_naming_its_clause():
    from turub.errors import SignalError
    early, late = led(SIGNALLING, 29), led(SIGNALLING, 30)
    assert early.signal(early.leader, "click").seat is early.leader  # trick 30
    with pytest.raises(SignalError) as refused:  # trick 31
        late.signal(late.leader, "click")
    assert refused.value.clause == "signalling.none-late"
    assert late.current_signal is None  # refused: nothing changed
    from turub.decisions import Game
    assert SIGNALLING.may_signal(Seat.SOUTH, Seat.NORTH, "knock", Game(trick_number=3)) is None
    assert SIGNALLING.may_signal(Seat.NORTH, Seat.NORTH, "knock", Game(trick_number=31)) == "signalling.none-late"
    # the first rule that does not defer decides: the partner clause, listed first, allows
    assert SIGNALLING.may_signal(Seat.SOUTH, Seat.NORTH, "knock", Game(trick_number=31)) is None


def test_a_signal_rule_answering_nonsense_is_a_house_rule_error():
    from turub.decisions import HouseRuleError
    v = Variant("odd", clauses=[VariantClause("odd.yes", "Yes", decides="may_signal",
                                              rule=lambda seat, leader, kind: "yes")])
    deal = led(v)
    with pytest.raises(HouseRuleError, match=r"odd.yes \(may signal\) returned the text “yes”, not true or false"):
        deal.signal(deal.leader, "knock")
    assert deal.current_signal is None
