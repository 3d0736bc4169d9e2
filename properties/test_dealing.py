"""Dealing: the cut, packets of three from the dealer's left, the trump call on the first
packet, 36 cards each; the dealer's check; the draw for the first dealer.

The deal and the call are checked through the interface (``impl``) and, for what only the
engine shows (each seat's view while the deal is paused), on the reference engine."""

from hypothesis import strategies as st

from turub import Deal, Phase, Seat, parse_card
from turub.options import rules_from_dict
from turub.properties import oracles as O
from turub.properties import strategies as S
from turub.properties.checks import (check_deal, check_first_dealer,
                                     check_first_dealer_ignores_suits, check_packets, requires,
                                     check_trump_call_sees_first_packet)
from turub.properties.factory import property_test, worked
from turub.properties.tags import verifies

_SEAT = {s.letter: s for s in Seat}


@verifies("deal.cut", "deal.packets", "deal.full-hands", "trump.caller", "table.left-of-dealer",
          "table.direction", "pack.composition")
@property_test(pack_seed=S.pack_seeds, dealer=S.seats, cut=S.cuts, rules=S.rules_dicts(),
               scale=0.5, examples=[
    worked(0, "N", 0, {}),
    worked(0, "N", 143, {"direction": "counterclockwise"}),
])
def test_each_seat_gets_its_packets_of_three_and_every_card_lands_once(impl, pack_seed, dealer, cut, rules):
    requires(impl, "deal")
    pack = S.pack_from_seed(pack_seed)
    check_deal(impl, pack, dealer, cut, rules)


@verifies("trump.three-cards", "deal.pause-for-trump", "deal.cut", "trump.caller")
@property_test(pack_seed=S.pack_seeds, dealer=S.seats, cut=S.cuts, rules=S.rules_dicts(),
               scale=0.5, examples=[
    worked(0, "W", 5, {"direction": "counterclockwise"}),
])
def test_the_caller_names_trump_on_the_first_packet_after_the_cut(impl, pack_seed, dealer, cut, rules):
    requires(impl, "deal")
    pack = S.pack_from_seed(pack_seed)
    check_trump_call_sees_first_packet(impl, pack, dealer, cut, rules)


@verifies("trump.three-cards", "deal.pause-for-trump", "trump.caller")
@property_test(pack_seed=S.pack_seeds, dealer=S.seats, cut=S.cuts, rules=S.rules_dicts(),
               scale=0.5, examples=[
    worked(0, "N", 0, {}),
])
def test_while_trump_is_called_only_the_caller_sees_cards_and_only_three(pack_seed, dealer, cut, rules):
    pack = S.pack_from_seed(pack_seed)
    # The reference engine: what each seat's view holds while dealing is paused.
    deal = Deal([parse_card(c) for c in pack], _SEAT[dealer],
                rules_from_dict(rules), cut)
    caller, saw, _ = O.dealing(pack, dealer, cut, O.rules_in_full(rules)["direction"])
    assert deal.phase is Phase.CALLING and deal.caller.letter == caller
    for seat in Seat:
        view = deal.view(seat)
        shown = sorted(O.canonical(str(c)) for c in view.hand)
        if seat.letter == caller:
            assert shown == sorted(saw), f"the caller sees {shown}, not the first packet {saw}"
        else:
            assert shown == [], f"{seat} sees cards before trump is named: {shown}"
        assert view.hand_sizes == tuple(3 if s.letter == caller else 0 for s in Seat)
    # Trump named, dealing resumes and every seat holds 36.
    deal.name_trump(deal.caller, "S")
    assert [len(deal.view(s).hand) for s in Seat] == [36] * 4


@verifies("deal.dealer-check", "deal.redeal")
@property_test(case=S.packet_sequences(), examples=[
    worked(case=([["E", 3], ["S", 3], ["W", 3], ["N", 3]], "N")),
    worked(case=([["E", 3], ["S", 3], ["W", 3], ["N", 3], ["E", 3], ["S", 3], ["W", 3], ["N", 2]], "N")),
    worked(case=([["E", 3], ["S", 3], ["W", 3], ["N", 2], ["E", 3], ["S", 3], ["W", 3], ["N", 3]], "N")),
    worked(case=([["W", 3], ["S", 3], ["E", 3]], "N")),  # no packet to the dealer at all
])
def test_the_deal_stands_only_if_the_dealers_last_packet_holds_three(impl, case):
    requires(impl, "check_packets")
    check_packets(impl, *case)


@verifies("dealer.first-draw", "dealer.first-draw-ties", "pack.suits-equal")
@property_test(rounds=S.first_dealer_draws(), examples=[
    worked([{"N": "KS", "E": "AH", "S": "6C", "W": "AD"}, {"E": "7S", "W": "9S"}]),
    worked([{"N": "AS", "E": "AH", "S": "AC", "W": "AD"}]),  # still tied: draw again
    worked([{"N": "AS", "E": "AH", "S": "6C", "W": "AD"}, {"N": "7S", "E": "9S"}]),  # wrong players
])
def test_the_highest_card_shown_deals_and_ties_draw_again(impl, rounds):
    requires(impl, "first_dealer")
    check_first_dealer(impl, rounds)


@verifies("pack.suits-equal", "dealer.first-draw")
@property_test(rounds=S.first_dealer_draws(), renaming=st.permutations("SHDC").map(lambda p: dict(zip("SHDC", p))),
               examples=[
    worked([{"N": "AS", "E": "AH", "S": "6C", "W": "7D"}, {"N": "KS", "E": "KH"}],
           {"S": "H", "H": "S", "D": "D", "C": "C"}),
])
def test_suits_never_decide_the_first_dealer(impl, rounds, renaming):
    requires(impl, "first_dealer")
    check_first_dealer_ignores_suits(impl, rounds, renaming)
