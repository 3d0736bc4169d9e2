"""Card conservation on the reference engine: the pack is 144 cards, four of each; a deal
gives each seat 36; every card is in exactly one place at every moment; every card is
played exactly once; a deal played out has 36 tricks.

The step-by-step version, with illegal actions mixed in, is the state machine in
``test_deal_machine.py``; here deals are sampled at random moments."""

from collections import Counter

from hypothesis import example, given
from hypothesis import strategies as st

from turub import PACK, CARDS, Deal, Phase, RuleError, Seat, parse_card, play_random_deal
from turub.cards import card_name
from turub.options import rules_from_dict
from turub.properties import oracles as O
from turub.properties import strategies as S
from turub.properties.tags import verifies
from turub.properties.test_deal_machine import places_of_every_card


@verifies("pack.composition", "pack.rank-order")
def test_the_pack_is_144_cards_four_of_each_of_36():
    names = Counter(card_name(c, ascii=True) for c in PACK)
    assert len(PACK) == 144 and names == O.FULL_PACK
    # Nine ranks in each of four suits, A K Q J 10 9 8 7 6.
    assert sorted({card_name(c, ascii=True) for c in CARDS}) == sorted(O.ALL_CARDS)


@verifies("pack.composition")
@given(seed=st.integers(0, 2**32 - 1), change=st.sampled_from(("drop", "swap", "extra")),
       at=st.integers(0, 143), card=S.cards)
@example(seed=0, change="drop", at=0, card="AC")
@example(seed=0, change="swap", at=143, card="6S")
def test_a_pack_that_is_not_four_of_each_is_refused(seed, change, at, card):
    pack = [parse_card(c) for c in S.pack_from_seed(seed)]
    new = parse_card(card)
    if change == "drop":
        del pack[at]
    elif change == "extra":
        pack.insert(at, new)
    else:
        if pack[at] is new:
            new = CARDS[(new.index + 1) % 36]
        pack[at] = new
    try:
        Deal(pack)
    except RuleError as e:
        assert e.clause == "pack.composition"
    else:
        raise AssertionError(f"a pack of {len(pack)} cards that is not four of each was accepted")


@verifies("pack.composition", "deal.full-hands", "play.all-tricks", "play.card-in-hand",
          "result.tricks-add-up")
@S.scaled(0.5)
@given(deal=S.deals_in_progress())
@example(deal=S.deal_in_progress(7, "N", {}, None))  # trump not yet named
@example(deal=S.deal_in_progress(7, "E", {"direction": "counterclockwise"}, "S", 61))  # mid-trick
def test_every_card_is_in_exactly_one_place_at_any_moment_of_a_deal(deal):
    assert places_of_every_card(deal) == O.FULL_PACK
    if deal.phase is Phase.CALLING:
        assert [len(deal.hand(s)) for s in Seat].count(3) == 1 and len(deal.stock) == 141
        return
    # Each seat was dealt 36 and has played one card per trick it took part in.
    played = Counter(s for t in deal.tricks for s in t.seats) + Counter(s for s, _ in deal.current_trick)
    assert all(len(deal.hand(s)) + played[s] == 36 for s in Seat)
    assert sum(deal.tricks_won) == len(deal.tricks)


@verifies("play.all-tricks", "result.tricks-add-up", "pack.composition", "deal.full-hands")
@S.scaled(0.5)
@given(seed=st.integers(0, 2**32 - 1), dealer=S.seats, rules=S.rules_dicts())
@example(7, "N", {})
def test_every_card_is_played_exactly_once_and_the_tricks_add_to_36(seed, dealer, rules):
    deal = play_random_deal(seed, Seat("NESW".index(dealer)), rules_from_dict(rules))
    assert deal.phase is Phase.FINISHED and len(deal.tricks) == 36
    assert Counter(card_name(c, ascii=True) for t in deal.tricks for c in t.cards) == O.FULL_PACK
    assert all(len(t.cards) == 4 and sorted(t.seats) == list(Seat) for t in deal.tricks)
    assert sum(deal.result.tricks) == 36 and not any(deal.hand(s) for s in Seat)
