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
        "signals_see", "decides_caller"}
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


# --- who names trump (``trump_caller``, Deal.decide_caller) ---------------------------------------

PARTNER_CALLS = Variant("partner-calls", clauses=[
    VariantClause("partner-calls.rule", "The dealer's partner names trump", decides="trump_caller",
                  rule=lambda dealer, rules: dealer.partner, replaces=["trump.caller"])])


def test_the_dealers_partner_takes_the_first_packet_names_trump_and_leads():
    from turub import Deal
    from turub.errors import TrumpCallError
    deal, plain = PARTNER_CALLS.deal_from_seed(9, Seat.WEST), Deal.from_seed(9, Seat.WEST)
    # deal.pause-for-trump: the caller alone holds its first packet, the stock's top three
    assert deal.caller is Seat.EAST and deal.caller_clause == "partner-calls.rule"
    assert [len(deal.hand(s)) for s in Seat] == [0, 3, 0, 0]
    assert deal.hand(Seat.EAST) == plain.hand(plain.caller)  # the same packet, to another seat
    assert deal.cutter is plain.cutter is Seat.NORTH  # deal.cut: still the seat after the dealer
    with pytest.raises(TrumpCallError) as refused:
        deal.name_trump(Seat.NORTH, Suit.HEARTS)
    assert refused.value.clause == "partner-calls.rule" and deal.trump is None
    deal.name_trump(Seat.EAST, Suit.HEARTS)
    plain.name_trump(plain.caller, Suit.HEARTS)
    # deal.packets: round from the caller, so each hand is the standard deal's hand of the
    # seat as far round from the standard caller
    for seat in Seat:
        assert deal.hand(seat) == plain.hand(Seat((seat - 1) % 4))
    assert deal.to_act is Seat.EAST  # play.first-lead: the caller leads
    # a record replays by the variant, the call included
    assert PARTNER_CALLS.replay(deal.to_record()).state() == deal.state()


def test_a_caller_rule_that_defers_deals_the_standard_deal_card_for_card():
    defers = Variant("defers", clauses=[VariantClause("defers.caller", "Defers", decides="trump_caller",
                                                      rule=lambda dealer, rules: None)])
    mine, plain = defers.play_random_deal(Seat.SOUTH, random.Random(4)), Variant("plain").play_random_deal(
        Seat.SOUTH, random.Random(4))
    assert mine.caller_clause == "trump.caller" and mine.to_record()["actions"] == plain.to_record()["actions"]


# --- the first dealer (``first_dealer``) and whether a deal stands (``deal_stands``) -------------------

def suit_breaks_ties(rounds):
    shown = dict(rounds[-1])
    top = max(card.rank for card in shown.values())
    tied = [seat for seat, card in shown.items() if card.rank is top]
    best = min(shown[seat].suit for seat in tied)
    first = [seat for seat in tied if shown[seat].suit is best]
    return first[0] if len(tied) > 1 and len(first) == 1 else None


SUIT_TIES = Variant("suit-ties", clauses=[VariantClause(
    "suit-ties.rule", "Suits break a tie", decides="first_dealer", rule=suit_breaks_ties,
    replaces=["pack.suits-equal"])])


def test_suits_break_a_tie_in_the_draw_and_a_round_after_it_is_refused_naming_the_clause():
    from turub import parse_card
    from turub.errors import FirstDealerError
    tie = {Seat.NORTH: parse_card("AH"), Seat.EAST: parse_card("6S"), Seat.SOUTH: parse_card("AS"),
           Seat.WEST: parse_card("9C")}
    drawn = SUIT_TIES.first_dealer([tie])
    assert drawn.seat is Seat.SOUTH and drawn.clauses == ("suit-ties.rule",)
    with pytest.raises(FirstDealerError) as refused:  # the draw was decided by the house rule
        SUIT_TIES.first_dealer([tie, {Seat.NORTH: parse_card("7C"), Seat.SOUTH: parse_card("8C")}])
    assert refused.value.clause == "suit-ties.rule"
    # the same card shown: the rule defers and those tied on rank draw again (the standard rule)
    same = {**tie, Seat.NORTH: parse_card("AS")}
    again = SUIT_TIES.first_dealer([same, {Seat.NORTH: parse_card("7C"), Seat.SOUTH: parse_card("8C")}])
    assert again.seat is Seat.SOUTH and again.clauses == ("dealer.first-draw", "dealer.first-draw-ties")
    with pytest.raises(FirstDealerError) as refused:  # shown to someone not tied: the standard refusal
        SUIT_TIES.first_dealer([same, {Seat.EAST: parse_card("7C"), Seat.SOUTH: parse_card("8C")}])
    assert refused.value.clause == "dealer.first-draw-ties"


def test_the_drawn_first_dealer_follows_the_house_rule_and_is_the_standard_draw_where_it_defers():
    from turub import draw_first_dealer
    decided_by_suit = 0
    for seed in range(60):
        plain, mine = draw_first_dealer(seed), SUIT_TIES.draw_first_dealer(seed)
        # the club's words, round by round over the standard draw's cards (the same cards are
        # shown while the rule defers): a tie for the top rank goes to a suit alone above the others
        for k, shown in enumerate(plain.rounds):
            top = max(card.rank for _, card in shown)
            tied = [(seat, card) for seat, card in shown if card.rank is top]
            best = [seat for seat, card in tied if all(card.suit <= other.suit for _, other in tied)]
            if len(tied) > 1 and len(best) == 1:
                assert (mine.seat, mine.rounds, mine.clauses) == (best[0], plain.rounds[:k + 1], ("suit-ties.rule",))
                decided_by_suit += 1
                break
        else:
            assert mine == plain
    assert decided_by_suit > 5


def test_a_deal_whose_slips_cancel_out_stands_when_only_the_dealers_last_packet_is_checked():
    from turub import check_packets
    last_only = Variant("last-only", clauses=[VariantClause(
        "last-only.rule", "Only the dealer's last packet", decides="deal_stands", amends=["deal.dealer-check"],
        rule=lambda packets, dealer, rules: [n for s, n in packets if s is dealer][-1] == 3)])
    packets = [(Seat((k + 1) % 4), 3) for k in range(48)]
    packets[0], packets[4] = (Seat.EAST, 4), (Seat.EAST, 2)  # East: four, then two
    assert not check_packets(packets, Seat.NORTH).stands
    check = last_only.check_packets(packets, Seat.NORTH)
    assert check.stands and check.clauses == ("last-only.rule",)
    packets[47] = (Seat.NORTH, 2)
    check = last_only.check_packets(packets, Seat.NORTH)
    assert not check.stands and check.clauses == ("last-only.rule", "deal.redeal")
    # the sheet's hook asks the variant
    assert last_only.sitting(Seat.NORTH).check_deal(packets, Seat.NORTH).clauses[0] == "last-only.rule"
