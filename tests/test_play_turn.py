"""Deal.play_turn: one call a card, every card checked as Deal.play checks it.

The legal plays and the trick winners are checked against the rules stated here again, from
the cards alone (not from the engine's helpers)."""

import copy
import json
import random

import pytest

from turub import (PACK, CardNotHeldError, Deal, MustFollowSuitError, Phase, PhaseError, Seat,
                   Suit)


def called(seed, trump=Suit.HEARTS):
    deal = Deal.from_seed(seed)
    deal.name_trump(deal.caller, trump)
    return deal


def refused(deal, action, error, clause):
    """The action raises ``error`` naming ``clause`` and the deal is exactly as it was."""
    before = json.dumps(deal.state(), sort_keys=True)
    with pytest.raises(error) as e:
        action()
    assert e.value.clause == clause
    assert json.dumps(deal.state(), sort_keys=True) == before


def may_play(hand, trick):
    # Follow suit when able; void (or leading), any card held.
    if trick:
        led = trick[0][1].suit
        following = {c for c in hand if c.suit is led}
        if following:
            return following
    return set(hand)


def winner(trick, trump):
    # The highest trump wins, else the highest card of the suit led; of identical cards, the
    # first played.
    led = trick[0][1].suit
    def strength(card):
        return (card.suit is trump, card.suit is led, card.rank)
    best = max(strength(c) for _, c in trick)
    return next(seat for seat, c in trick if strength(c) == best)


@pytest.mark.parametrize("seed", [1, 7, 23])
def test_one_call_a_card_plays_the_deal_the_rules_allow(seed):
    deal = called(seed, Suit(seed % 4))
    rng = random.Random(seed)
    legal = deal.legal_plays()
    while legal:
        seat, trick = deal.to_act, deal.current_trick
        assert set(legal) == may_play(deal.hand(seat), trick) and len(set(legal)) == len(legal)
        card = rng.choice(legal)
        legal = deal.play_turn(card)
        if len(trick) == 3:  # that card completed a trick
            done = deal.tricks[-1]
            assert done.winner == winner(trick + ((seat, card),), deal.trump)
            assert deal.phase is Phase.FINISHED or deal.to_act == done.winner
        assert legal == deal.legal_plays()
    assert deal.phase is Phase.FINISHED and sum(deal.result.tricks) == 36


@pytest.mark.parametrize("seed", [2, 5])
def test_one_call_a_card_keeps_the_same_record_as_play(seed):
    by_play, by_turn = called(seed), called(seed)
    picks = random.Random(seed)
    while legal := by_play.legal_plays():
        card = legal[int(picks.random() * len(legal))]
        by_play.play(by_play.to_act, card)
        by_turn.play_turn(card)
    assert by_turn.to_record() == by_play.to_record()
    assert by_turn.state() == by_play.state()
    assert by_turn.tricks == by_play.tricks and by_turn.result == by_play.result


def test_a_card_not_held_is_refused_in_one_call():
    deal = called(1)
    missing = next(c for c in set(PACK) if deal.holds(deal.to_act, c) == 0)
    refused(deal, lambda: deal.play_turn(missing), CardNotHeldError, "play.card-in-hand")


def test_not_following_suit_when_able_is_refused_in_one_call():
    for seed in range(200):
        deal = called(seed)
        lead = deal.legal_plays()[0]
        deal.play_turn(lead)
        hand = deal.hand(deal.to_act)
        off = [c for c in hand if c.suit is not lead.suit]
        if off and any(c.suit is lead.suit for c in hand):
            refused(deal, lambda: deal.play_turn(off[0]), MustFollowSuitError, "play.follow-suit")
            return
    raise AssertionError("no such deal")


def test_no_card_in_one_call_before_trump_or_after_the_deal():
    deal = Deal.from_seed(3)
    refused(deal, lambda: deal.play_turn(deal.hand(deal.caller)[0]), PhaseError, "play.order-of-actions")
    deal.name_trump(deal.caller, Suit.CLUBS)
    deal.play_out(random.Random(3))
    refused(deal, lambda: deal.play_turn(PACK[0]), PhaseError, "play.order-of-actions")


@pytest.mark.parametrize("seed", [4, 11])
def test_the_kept_legal_plays_and_trick_winner_follow_copies_and_refusals(seed):
    # The engine keeps the seat to act's legal plays and the hand winning the trick between
    # calls: a copy taken mid-trick, a refused card and a seat asked by name never see stale ones.
    deal = called(seed, Suit(seed % 4))
    rng = random.Random(seed)
    twins = []
    while deal.phase is Phase.PLAYING:
        seat, trick = deal.to_act, deal.current_trick
        expected = may_play(deal.hand(seat), trick)
        assert set(deal.legal_plays()) == expected == set(deal.legal_plays(seat))
        assert all(deal.legal_plays(s) == () for s in Seat if s is not seat)
        wrong = [c for c in deal.hand(seat) if c not in expected]
        if wrong:
            refused(deal, lambda: deal.play(seat, wrong[0]), MustFollowSuitError, "play.follow-suit")
            assert set(deal.legal_plays()) == expected
        if trick and len(twins) < 3:
            twins.append(copy.copy(deal))
        card = rng.choice(sorted(expected, key=lambda c: c.index))
        if rng.random() < 0.5:
            deal.play(seat, card)
        else:
            deal.play_turn(card)
        if len(trick) == 3:
            assert deal.tricks[-1].winner == winner(trick + ((seat, card),), deal.trump)
    for twin in twins:  # each copy plays on alone, by the same rules, to its own end
        while legal := twin.legal_plays():
            seat, trick = twin.to_act, twin.current_trick
            assert set(legal) == may_play(twin.hand(seat), trick)
            card = legal[-1]
            twin.play_turn(card)
            if len(trick) == 3:
                assert twin.tricks[-1].winner == winner(trick + ((seat, card),), twin.trump)
        assert sum(twin.result.tricks) == 36


def test_a_subclass_plays_one_call_a_card_through_its_hooks():
    class LeaderWins(Deal):  # a house rule of sorts: the trick's leader always takes it
        __slots__ = ()

        def decide_trick(self, leader, codes, position, trump, order):
            return Deal.decide_trick(leader, codes, 0, trump, order)

    deal = LeaderWins.from_seed(9)
    deal.name_trump(deal.caller, Suit.SPADES)
    legal = deal.legal_plays()
    while legal:
        legal = deal.play_turn(legal[0])
    assert all(t.winner == t.leader for t in deal.tricks)
    assert deal.tricks[0].leader == deal.caller and len({t.leader for t in deal.tricks}) == 1
