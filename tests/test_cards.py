"""The pack and the cards (clauses pack.*)."""

import pickle
from collections import Counter

import pytest

from turub import CARDS, PACK, Card, CardFormatError, Rank, Suit, card_name, parse_card, sort_hand
from turub.cards import parse_cards, parse_suit
from turub.properties.tags import verifies


@verifies("pack.composition")
def test_the_pack_is_four_copies_of_each_of_36_cards():
    # pack.composition: 144 cards, four identical copies of each of 36.
    assert len(PACK) == 144
    counts = Counter((c.suit, c.rank) for c in PACK)
    assert len(counts) == 36 and set(counts.values()) == {4}
    assert {c.rank for c in PACK} == {6, 7, 8, 9, 10, 11, 12, 13, 14}


@verifies("pack.rank-order")
def test_ranks_run_ace_high_down_to_six():
    # pack.rank-order: A K Q J 10 9 8 7 6.
    order = [Rank.ACE, Rank.KING, Rank.QUEEN, Rank.JACK, Rank.TEN, Rank.NINE, Rank.EIGHT,
             Rank.SEVEN, Rank.SIX]
    assert all(a > b for a, b in zip(order, order[1:]))


@pytest.mark.parametrize("text, suit, rank", [
    ("A♣", Suit.CLUBS, Rank.ACE), ("10♥", Suit.HEARTS, Rank.TEN), ("AC", Suit.CLUBS, Rank.ACE),
    ("10H", Suit.HEARTS, Rank.TEN), ("th", Suit.HEARTS, Rank.TEN), ("6d", Suit.DIAMONDS, Rank.SIX),
    (" Q♠ ", Suit.SPADES, Rank.QUEEN), ("J♧", Suit.CLUBS, Rank.JACK),
])
@verifies("pack.card-notation")
def test_cards_parse_from_symbols_and_ascii(text, suit, rank):
    card = parse_card(text)
    assert (card.suit, card.rank) == (suit, rank)


@pytest.mark.parametrize("text", ["", "A", "1H", "5C", "AX", "11S", "♣A", "AC ♣", None, 14])
@verifies("pack.card-notation")
def test_malformed_cards_are_refused_with_the_notation_clause(text):
    with pytest.raises(CardFormatError) as e:
        parse_card(text)
    assert e.value.clause == "pack.card-notation"


@verifies("pack.card-notation")
def test_every_card_round_trips_through_both_notations():
    for card in CARDS:
        assert parse_card(card_name(card)) is card
        assert parse_card(card_name(card, ascii=True)) is card
        assert eval(repr(card), {"Card": Card}) is card
        assert pickle.loads(pickle.dumps(card)) is card


def test_cards_are_immutable():
    with pytest.raises(AttributeError):
        parse_card("AC").rank = Rank.KING


@verifies("pack.card-notation")
def test_suits_parse_from_symbol_letter_and_name():
    assert parse_suit("♥") is parse_suit("h") is parse_suit("Hearts") is Suit.HEARTS
    with pytest.raises(CardFormatError):
        parse_suit("trumps")


@verifies("pack.sort-hand")
def test_a_hand_sorts_by_suit_alternating_colour_highest_first():
    # pack.sort-hand: by suit, red and black alternating, highest rank first.
    hand = sort_hand(parse_cards("6♦ A♠ K♥ 10♣ A♦ 9♠ 7♥ 7♥"))
    assert [card_name(c) for c in hand] == ["A♠", "9♠", "K♥", "7♥", "7♥", "10♣", "A♦", "6♦"]


@verifies("pack.sort-hand")
def test_sorting_alternates_colours_even_with_a_suit_missing():
    # Without hearts: black, red, black.
    hand = sort_hand(parse_cards("6♣ A♠ K♦"))
    colours = [c.suit.is_red for c in hand]
    assert colours == [False, True, False]
    # Two reds and one black: red, black, red.
    hand = sort_hand(parse_cards("6♥ A♠ K♦"))
    assert [c.suit.is_red for c in hand] == [True, False, True]
