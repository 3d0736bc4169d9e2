"""The deal state machine: dealing, the trump call, play, signals, closing, records, views."""

import json
import random
from collections import Counter

import pytest

from turub import (PACK, CardFormatError, CardNotHeldError, Deal, Direction, MustFollowSuitError,
                   OutOfTurnError, Phase, PhaseError, RuleError, Rules, Seat, SignalError, Suit,
                   TrumpCallError, parse_card, play_random_deal)
from turub.errors import RecordError
from turub.properties.tags import verifies


def called(seed=1, dealer=Seat.NORTH, rules=Rules(), trump=Suit.HEARTS):
    deal = Deal.from_seed(seed, dealer, rules)
    deal.name_trump(deal.caller, trump)
    return deal


def all_cards(deal):
    """Every card's place: hands, the undealt stock, the trick on the table, won tricks."""
    places = Counter()
    for seat in Seat:
        places.update(deal.hand(seat))
    places.update(deal.stock)
    places.update(c for _, c in deal.current_trick)
    for trick in deal.tricks:
        places.update(trick.cards)
    return places


def refused(deal, action, error, clause):
    """The action raises ``error`` naming ``clause`` and the deal is exactly as it was."""
    before = json.dumps(deal.state(), sort_keys=True)
    with pytest.raises(error) as e:
        action()
    assert e.value.clause == clause
    assert json.dumps(deal.state(), sort_keys=True) == before


# --- dealing and the trump call -------------------------------------------------------

@verifies("trump.caller", "trump.three-cards", "deal.pause-for-trump", "table.left-of-dealer", "deal.cut")
def test_the_caller_names_trump_having_seen_three_cards_only():
    deal = Deal.from_seed(5, Seat.SOUTH)
    assert deal.caller is Seat.WEST  # left of the dealer, clockwise
    view = deal.view(Seat.WEST)
    assert view.phase is Phase.CALLING and len(view.hand) == 3
    assert [len(deal.view(s).hand) for s in Seat] == [0, 0, 0, 3]
    # The three are the first packet: the top three cards after the cut.
    assert sorted(c.index for c in view.hand) == sorted(c.index for c in (deal.pack[deal.cut:] + deal.pack[:deal.cut])[:3])


@verifies("table.direction", "table.left-of-dealer", "deal.packets")
def test_counterclockwise_the_seat_before_calls_and_dealing_goes_the_other_way():
    deal = Deal.from_seed(5, Seat.SOUTH, Rules(direction=Direction.COUNTERCLOCKWISE))
    assert deal.caller is Seat.EAST
    deal.name_trump(Seat.EAST, "♠")
    stock = deal.pack[deal.cut:] + deal.pack[:deal.cut]
    # The second packet goes to the seat after the caller counter-clockwise: North.
    assert Counter(stock[3:6]) <= Counter(deal.hand(Seat.NORTH))


@verifies("deal.packets", "deal.full-hands", "play.first-lead")
def test_packets_of_three_in_order_after_the_call_everyone_holds_36():
    deal = called(9, Seat.EAST)
    stock = deal.pack[deal.cut:] + deal.pack[:deal.cut]
    order = [Seat.SOUTH, Seat.WEST, Seat.NORTH, Seat.EAST]
    for seat in Seat:
        expected = Counter(c for p in range(48) if order[p % 4] is seat for c in stock[3 * p:3 * p + 3])
        assert Counter(deal.hand(seat)) == expected
    assert deal.stock == () and deal.to_act is Seat.SOUTH  # the caller leads


@verifies("trump.any-suit")
def test_any_suit_may_be_named():
    for suit in Suit:
        assert called(trump=suit).trump is suit


@verifies("trump.caller")
def test_the_wrong_seat_cannot_call_trump():
    deal = Deal.from_seed(3)
    refused(deal, lambda: deal.name_trump(Seat.SOUTH, Suit.CLUBS), TrumpCallError, "trump.caller")


@verifies("trump.once")
def test_a_second_trump_call_is_refused():
    deal = called()
    refused(deal, lambda: deal.name_trump(deal.caller, Suit.CLUBS), TrumpCallError, "trump.once")


@verifies("play.order-of-actions")
def test_no_card_is_played_before_trump():
    deal = Deal.from_seed(3)
    card = deal.view(deal.caller).hand[0]
    refused(deal, lambda: deal.play(deal.caller, card), PhaseError, "play.order-of-actions")


@verifies("trump.any-suit")
def test_only_one_of_the_four_suits_can_be_named_trump():
    # Any of the four suits may be named, and nothing else: no-trump is not a call.
    for not_a_suit in ("NT", "no trump", "trumps", "", 1.0, None, ["H"], 1, True):
        deal = Deal.from_seed(3)
        refused(deal, lambda: deal.name_trump(deal.caller, not_a_suit), TrumpCallError, "trump.any-suit")


@verifies("pack.composition", "deal.cut")
def test_a_pack_that_is_not_144_cards_four_of_each_is_refused():
    with pytest.raises(RuleError) as e:
        Deal(PACK[:-1] + (parse_card("AS"),))
    assert e.value.clause == "pack.composition"
    with pytest.raises(RuleError) as e:
        Deal(PACK, cut=144)
    assert e.value.clause == "deal.cut"


# --- play ---------------------------------------------------------------------------

@verifies("play.turn")
def test_playing_out_of_turn_is_refused():
    deal = called()
    other = Seat((deal.to_act + 1) % 4)
    refused(deal, lambda: deal.play(other, deal.hand(other)[0]), OutOfTurnError, "play.turn")


@verifies("play.card-in-hand")
def test_a_card_not_held_is_refused():
    deal = called()
    seat = deal.to_act
    missing = next(c for c in set(PACK) if deal.holds(seat, c) == 0)
    refused(deal, lambda: deal.play(seat, missing), CardNotHeldError, "play.card-in-hand")


@verifies("pack.card-notation")
def test_a_malformed_card_is_refused():
    deal = called()
    refused(deal, lambda: deal.play(deal.to_act, "ZZ"), CardFormatError, "pack.card-notation")


def find_renege(seed_range=range(200)):
    """A deal and seat holding the led suit and another suit, after the lead."""
    for seed in seed_range:
        deal = called(seed)
        lead = deal.hand(deal.to_act)[0]
        deal.play(deal.to_act, lead)
        seat = deal.to_act
        hand = deal.hand(seat)
        off = [c for c in hand if c.suit is not lead.suit]
        if off and any(c.suit is lead.suit for c in hand):
            return deal, seat, off[0]
    raise AssertionError("no such deal")


@verifies("play.follow-suit")
def test_not_following_suit_when_able_is_refused():
    deal, seat, off = find_renege()
    refused(deal, lambda: deal.play(seat, off), MustFollowSuitError, "play.follow-suit")


@verifies("play.void-any-card", "play.no-forced-trump")
def test_void_in_the_led_suit_any_card_is_accepted():
    for seed in range(300):
        deal = called(seed)
        while deal.phase is Phase.PLAYING:
            seat = deal.to_act
            trick = deal.current_trick
            hand = deal.hand(seat)
            if trick and not any(c.suit is trick[0][1].suit for c in hand):
                # Void: every distinct card held is legal, trump or not.
                assert set(deal.legal_plays()) == set(hand)
                deal.play(seat, hand[-1])
                return
            deal.play(seat, deal.legal_plays()[0])
    raise AssertionError("no void found")


@verifies("play.winner-leads")
def test_the_trick_winner_leads_the_next_trick():
    deal = called(4)
    for _ in range(4):
        decision = deal.play(deal.to_act, deal.legal_plays()[0])
    assert decision is not None and deal.to_act is decision.seat is deal.leader
    assert deal.tricks_won[decision.seat.side] == 1


@verifies("play.all-tricks", "pack.composition", "result.tricks-add-up")
def test_a_whole_deal_conserves_the_144_cards():
    deal = Deal.from_seed(11)
    assert all_cards(deal) == Counter(PACK)
    deal.name_trump(deal.caller, Suit.SPADES)
    rng = random.Random(11)
    while deal.phase is Phase.PLAYING:
        deal.play(deal.to_act, rng.choice(deal.legal_plays()))
        assert all_cards(deal) == Counter(PACK)
    assert len(deal.tricks) == 36 and sum(deal.tricks_won) == 36
    assert Counter(c for t in deal.tricks for c in t.cards) == Counter(PACK)
    assert deal.result is not None and sum(deal.result.tricks) == 36


@verifies("play.order-of-actions")
def test_after_the_last_trick_nothing_more_is_accepted():
    deal = play_random_deal(2)
    refused(deal, lambda: deal.play(Seat.NORTH, "AS"), PhaseError, "play.order-of-actions")
    refused(deal, lambda: deal.close(Seat.NORTH), PhaseError, "play.order-of-actions")


# --- signals ---------------------------------------------------------------------------

@verifies("signal.kinds", "signal.once-per-trick", "signal.leader-only")
def test_the_leader_may_knock_or_click_once_after_leading():
    deal = called()
    leader = deal.to_act
    card = deal.legal_plays()[0]
    deal.play(leader, card)
    signal = deal.signal(leader, "knock")
    assert (signal.seat, signal.suit, signal.meaning) == (leader, card.suit, "strong")
    refused(deal, lambda: deal.signal(leader, "click"), SignalError, "signal.once-per-trick")


@verifies("signal.leader-only", "signal.timing", "signal.kinds")
def test_signals_refused_from_others_before_the_lead_and_after_the_second_card():
    deal = called()
    leader = deal.to_act
    refused(deal, lambda: deal.signal(leader, "knock"), SignalError, "signal.timing")
    deal.play(leader, deal.legal_plays()[0])
    partner = leader.partner
    refused(deal, lambda: deal.signal(partner, "knock"), SignalError, "signal.leader-only")
    refused(deal, lambda: deal.signal(leader, ""), SignalError, "signal.kinds")
    deal.play(deal.to_act, deal.legal_plays()[0])
    refused(deal, lambda: deal.signal(leader, "click"), SignalError, "signal.timing")


@verifies("signal.kinds")
def test_the_signal_is_kept_with_its_trick():
    deal = called()
    leader = deal.to_act
    deal.play(leader, deal.legal_plays()[0])
    deal.signal(leader, "click")
    for _ in range(3):
        deal.play(deal.to_act, deal.legal_plays()[0])
    assert deal.tricks[0].signal.kind == "click"


# --- closing ---------------------------------------------------------------------------

@verifies("sheet.any-player-closes", "result.closed-early")
def test_any_player_may_close_and_the_deal_is_a_draw():
    deal = called()
    for _ in range(9):
        deal.play(deal.to_act, deal.legal_plays()[0])
    result = deal.close(Seat.WEST)
    assert result.is_draw and result.closed_early and sum(result.tricks) == 2
    assert deal.phase is Phase.FINISHED


@verifies("sheet.any-player-closes")
def test_closing_with_a_bad_seat_is_refused():
    deal = called()
    refused(deal, lambda: deal.close(7), RuleError, "sheet.any-player-closes")


# --- record and replay, views -------------------------------------------------------------

def test_the_record_replays_to_the_same_state():
    deal = play_random_deal(21, Seat.WEST, Rules(direction=Direction.COUNTERCLOCKWISE))
    record = json.loads(json.dumps(deal.to_record()))
    again = Deal.replay(record)
    assert again.state() == deal.state()


def test_a_record_with_signals_and_a_close_replays():
    deal = called(8)
    leader = deal.to_act
    deal.play(leader, deal.legal_plays()[0])
    deal.signal(leader, "knock")
    deal.close(Seat.SOUTH)
    assert Deal.replay(deal.to_record()).state() == deal.state()


@verifies("play.turn")
def test_a_record_with_an_illegal_action_is_refused_with_its_clause():
    deal = called(8)
    record = deal.to_record()
    record["actions"].append({"act": "play", "seat": Seat((deal.to_act + 1) % 4).letter, "card": "AS"})
    with pytest.raises(OutOfTurnError):
        Deal.replay(record)
    with pytest.raises(RecordError):
        Deal.replay({"format": "something else"})
    with pytest.raises(RecordError):
        Deal.replay({**record, "actions": [{"act": "dance", "seat": "N"}]})


def test_a_view_shows_only_the_seats_own_hand():
    deal = called(6)
    for seat in Seat:
        view = deal.view(seat)
        assert view.hand == deal.hand(seat) and view.hand_sizes == (36, 36, 36, 36)
        assert view.legal == (deal.legal_plays() if seat is deal.to_act else ())


@verifies("deal.shuffle")
def test_the_same_seed_gives_the_same_deal():
    assert Deal.from_seed(99).state() == Deal.from_seed(99).state()
    assert Deal.from_seed(99).pack != Deal.from_seed(100).pack


def test_a_view_for_a_seat_that_does_not_exist_is_refused():
    deal = called()
    with pytest.raises(RuleError) as e:
        deal.view(7)
    assert e.value.clause == "table.partnerships"


def test_a_hand_is_shown_sorted_at_every_play():
    # pack.sort-hand: Deal.hand shows the suits held alternating in colour, each highest rank
    # first, as sort_hand sorts the same cards, whatever suits a hand has run out of.
    from turub.cards import sort_hand
    shapes = set()
    for seed in range(40):
        deal = called(seed, trump=Suit(seed % 4))
        rng = random.Random(seed)
        while deal.phase is Phase.PLAYING:
            for seat in Seat:
                hand = deal.hand(seat)
                assert hand == sort_hand(reversed(hand)), (seed, seat)
                shapes.add(frozenset(c.suit for c in hand))
            deal.play(deal.to_act, rng.choice(deal.legal_plays()))
    assert len(shapes) == 16  # every set of suits held, the empty hand included
