"""Checks written to kill the mutants of the deal, the sheet, the cards, the seats and the options.

Mutation testing (``properties/tools/mutation.py``, see docs/guides/proofs.md) changes the
engine one small edit at a time and reruns the tests; an edit no test notices is a gap.
``properties/test_mutants.py`` closed the gaps in the rule functions; these close the ones
found in ``turub.deal``, ``turub.sitting``, ``turub.cards``, ``turub.seats`` and
``turub.options``.  Each check states the behaviour from the rules and the engine's
documented interface (the clause a refusal cites, the facts its message gives, what a record
or a view holds), never from the engine's own helpers.
"""

from __future__ import annotations

import importlib.util
import json
import random
from collections import Counter

import pytest

import turub.cards
from turub import (PACK, CardFormatError, CardNotHeldError, Deal, Direction, MustFollowSuitError,
                   OutOfTurnError, Phase, PhaseError, RuleError, Rules, RulesOptionError, Seat,
                   Side, SignalError, Sitting, Suit, TrumpCallError, deal_result, parse_card,
                   parse_cards, parse_rules, play_random_deal)
from turub.cards import parse_suit, suit_name
from turub.errors import RecordError
from turub.options import rules_from_dict
from turub.properties.tags import verifies
from turub.seats import parse_seat
from turub.sitting import draw_first_dealer

# The seats as the rules name them, clockwise from North (not the engine's numbering helpers).
N, E, S, W = Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST


# --- the cards ---------------------------------------------------------------------------------

@verifies("pack.composition", "pack.rank-order")
def test_a_pack_built_from_scratch_holds_36_distinct_cards_each_knowing_its_suit_and_rank():
    # The engine builds its 36 cards once, when turub.cards is imported.  Build them again in
    # a fresh copy of the module (not registered anywhere) and check every card: its suit, its
    # rank, its number (suits in the order spades, hearts, diamonds, clubs; in each suit the
    # ace first, down to the six) and that asking for the same card gives the same object.
    spec = importlib.util.spec_from_file_location("turub.cards", turub.cards.__file__)
    fresh = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fresh)
    ranks_high_to_low = (14, 13, 12, 11, 10, 9, 8, 7, 6)
    assert len(fresh.CARDS) == 36 and len(fresh.PACK) == 144
    for number, card in enumerate(fresh.CARDS):
        suit, rank = divmod(number, 9)
        assert (int(card.suit), int(card.rank), card.index) == (suit, ranks_high_to_low[rank], number)
        assert fresh.Card(suit, ranks_high_to_low[rank]) is card
        with pytest.raises(AttributeError):
            card.rank = 6
    assert Counter(fresh.PACK) == {card: 4 for card in fresh.CARDS}


@verifies("pack.card-notation")
def test_a_card_with_a_rank_but_no_suit_is_refused_with_the_way_to_write_one():
    for text in ("AX", "10", "Q♛"):
        with pytest.raises(CardFormatError) as refused:
            parse_card(text)
        assert refused.value.detail == (
            f"{text!r} is not a card: write the rank (A K Q J 10 9 8 7 6) then the suit "
            "(♠ ♥ ♦ ♣ or S H D C), as 'A♣' or '10H'")
    with pytest.raises(CardFormatError) as not_text:
        parse_card(14)
    assert "not 14" in not_text.value.detail


@verifies("pack.card-notation")
def test_a_suit_may_be_named_in_the_singular_and_only_in_full():
    for text, suit in (("heart", Suit.HEARTS), ("Spade", Suit.SPADES), ("DIAMOND", Suit.DIAMONDS),
                       ("club", Suit.CLUBS), ("clubs", Suit.CLUBS)):
        assert parse_suit(text) is suit
    for text in ("hear", "spad", "diamon", "clu", "", None):
        with pytest.raises(CardFormatError) as refused:
            parse_suit(text)
        assert repr(text) in refused.value.detail


@verifies("pack.card-notation")
def test_a_suit_is_written_as_its_symbol_or_letter_and_reads_back():
    assert [suit_name(s) for s in Suit] == ["♠", "♥", "♦", "♣"]
    assert [suit_name(s, ascii=True) for s in Suit] == ["S", "H", "D", "C"]
    for suit in Suit:
        assert parse_suit(suit_name(suit)) is parse_suit(suit_name(suit, ascii=True)) is suit


@verifies("pack.card-notation")
def test_several_cards_read_from_a_list_as_from_a_line():
    assert parse_cards(["A♠", "10h", " qd "]) == parse_cards("A♠ 10h qd") == (
        parse_card("AS"), parse_card("10H"), parse_card("QD"))
    assert parse_cards(iter(["6C"])) == (parse_card("6♣"),)


# --- the seats ---------------------------------------------------------------------------------

@verifies("table.partnerships")
def test_only_the_four_seats_are_seats():
    assert [parse_seat(t) for t in ("n", " East ", "SOUTH", "w")] == [N, E, S, W]
    for text in ("X", "northeast", "", 2, None):
        with pytest.raises(RulesOptionError) as refused:
            parse_seat(text)
        assert refused.value.clause == "table.partnerships"
        assert refused.value.detail == f"{text!r} is not a seat: write N, E, S or W"


# --- the options -------------------------------------------------------------------------------

@verifies("table.direction", "stake.per-deal", "dealer.after-win")
def test_a_value_an_option_does_not_take_is_refused_under_that_options_clause():
    cases = (
        (dict(direction="sideways"), "table.direction",
         "direction=sideways is not allowed: choose one of clockwise, counterclockwise"),
        (dict(stake="double"), "stake.per-deal",
         "stake=double is not allowed: choose one of contest, per-deal"),
        (dict(opponent_dealer="left"), "dealer.after-win",
         "opponent-dealer=left is not allowed: choose one of next, previous"),
    )
    for options, clause, detail in cases:
        with pytest.raises(RulesOptionError) as refused:
            Rules(**options)
        assert (refused.value.clause, refused.value.detail) == (clause, detail)


@verifies("table.direction", "stake.per-deal")
def test_two_tables_rules_differ_exactly_in_the_options_they_chose_differently():
    house = Rules(direction=Direction.COUNTERCLOCKWISE, stake="per-deal")
    assert house.differences(Rules()) == {"direction": ("counterclockwise", "clockwise"),
                                          "stake": ("per-deal", "contest")}
    assert Rules().differences(Rules()) == {}


@verifies("table.direction")
def test_the_direction_may_be_written_with_hyphens_underscores_or_as_cw_and_ccw():
    ccw = Direction.COUNTERCLOCKWISE
    for text in ("counter-clockwise", "Counter_Clockwise", "ccw", " CCW ", "counterclockwise"):
        assert rules_from_dict({"direction": text}).direction is ccw
    for text in ("clock-wise", "cw", "CW", "clockwise"):
        assert rules_from_dict({"direction": text}).direction is Direction.CLOCKWISE


@verifies("table.direction")
def test_an_unknown_option_is_refused_with_the_list_of_options():
    with pytest.raises(RulesOptionError) as refused:
        rules_from_dict({"trumps": "hearts"})
    assert refused.value.detail == ("there is no rule option 'trumps': the options are "
                                    "direction, stake, opponent-dealer")


@verifies("table.direction", "stake.per-deal")
def test_presets_and_options_apply_left_to_right_from_the_standard_game():
    assert parse_rules() == Rules() == parse_rules([])
    assert parse_rules(["counterclockwise"]) == Rules(direction=Direction.COUNTERCLOCKWISE)
    assert parse_rules(["counterclockwise", "stake=per-deal"]) == Rules(
        direction=Direction.COUNTERCLOCKWISE, stake="per-deal")
    assert parse_rules(["stake=per-deal", "standard"]) == Rules()
    with pytest.raises(RulesOptionError) as refused:
        parse_rules(["dance"])
    assert refused.value.detail == ("'dance' is neither OPTION=VALUE nor a preset "
                                    "(standard, counterclockwise, stake-per-deal)")
    # Only the first '=' separates the option from its value.
    with pytest.raises(RulesOptionError) as odd:
        parse_rules(["stake=per=deal"])
    assert odd.value.clause == "stake.per-deal" and "stake=per=deal" in odd.value.detail


# --- the score sheet ---------------------------------------------------------------------------

@verifies("sheet.one-deal-per-row", "dealer.after-win", "dealer.after-draw")
def test_a_sheet_started_from_past_results_is_the_sheet_they_were_recorded_on():
    results = [deal_result(20, 16), deal_result(18, 18), deal_result(10, 26)]
    given = Sitting(N, results=results)
    recorded = Sitting(N)
    for result in results:
        recorded.record(result)
    assert given.rows == recorded.rows and len(given.rows) == 3
    # North's side wins: East, the next opponent, deals; a draw: East again; East's side
    # wins: South, the opponent after East, deals.
    assert given.dealers() == (N, E, E, S)


@verifies("sheet.one-deal-per-row")
def test_a_row_keeps_the_trump_named_in_its_deal():
    sheet = Sitting(N)
    assert sheet.record(deal_result(20, 16), Suit.CLUBS).trump is Suit.CLUBS
    assert sheet.record(deal_result(18, 18)).trump is None
    with pytest.raises(TypeError) as refused:
        sheet.record((20, 16))
    assert "not (20, 16)" in str(refused.value)


class _StackedDeck(random.Random):
    """A random source whose shuffles lay the pack out as the test needs (the last card is
    drawn first): first every rank together (everyone ties, round after round), then one ace
    on top of sixes."""

    shuffles = 0

    def shuffle(self, cards):
        type(self).shuffles += 1
        cards.sort(key=lambda c: c.rank)
        if type(self).shuffles > 1:
            ace = cards.pop()
            cards[-3:] = [c for c in cards if c.rank == 6][:3]
            cards.append(ace)


@verifies("dealer.first-draw", "dealer.first-draw-ties")
def test_the_first_draw_uses_the_pack_to_its_last_card_before_shuffling_again(monkeypatch):
    # 144 cards give 36 rounds of four; the laid-out pack makes every round a four-way tie,
    # so the draw shows all 144 cards, the last round the four lowest, then shuffles again.
    monkeypatch.setattr(_StackedDeck, "shuffles", 0)
    monkeypatch.setattr(random, "Random", _StackedDeck)
    drawn = draw_first_dealer(0)
    assert _StackedDeck.shuffles == 2
    assert len(drawn.rounds) == 37
    assert [card.rank for _, card in drawn.rounds[35]] == [6, 6, 6, 6]
    # From the new pack North, the first shown, gets the ace and deals.
    assert drawn.seat is N and [card.rank for _, card in drawn.rounds[36]] == [14, 6, 6, 6]
