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
import random
from collections import Counter

import pytest

import turub.cards
from turub import (PACK, CardFormatError, CardNotHeldError, Deal, Direction, MustFollowSuitError,
                   OutOfTurnError, Phase, PhaseError, RuleError, Rules, RulesOptionError, Seat,
                   SignalError, Sitting, Suit, TrumpCallError, deal_result, parse_card,
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
        assert (card.suit, card.rank, card.index) == (suit, ranks_high_to_low[rank], number)
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
                                    "direction, stake, opponent-dealer, signal-kinds, early-close")


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
    with pytest.raises(RuleError) as refused:
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


# --- the deal: a pack laid out by hand ------------------------------------------------------------

def two_of_each(suit):
    """Two copies of each of the nine cards of ``suit``, ace first."""
    ranks = ("A", "K", "Q", "J", "10", "9", "8", "7", "6")
    return [card for card in parse_cards([rank + suit for rank in ranks]) for _ in range(2)]


#: Who holds what in the laid-out deal: each seat two suits, two copies of each card.  East
#: spades and hearts, South spades and diamonds, West hearts and clubs, North diamonds and clubs.
#: (So South must follow East's spade lead, and West, void in spades, may trump it.)
HANDS = {E: two_of_each("♠") + two_of_each("♥"), S: two_of_each("♠") + two_of_each("♦"),
         W: two_of_each("♥") + two_of_each("♣"), N: two_of_each("♦") + two_of_each("♣")}


def laid_out_deal(trump=Suit.HEARTS):
    """North deals, uncut: packets of three go East, South, West, North, twelve rounds
    (``deal.packets``), so each seat receives the hand above; East names ``trump``."""
    order, taken, pack = [E, S, W, N], {seat: 0 for seat in Seat}, []
    for packet in range(48):
        seat = order[packet % 4]
        pack += HANDS[seat][taken[seat]:taken[seat] + 3]
        taken[seat] += 3
    deal = Deal(pack, N, cut=0)
    if trump is not None:
        deal.name_trump(E, trump)
    return deal


def refusal(action, error, clause):
    """The refusal ``action`` raises: of type ``error``, naming ``clause``."""
    with pytest.raises(error) as refused:
        action()
    assert refused.value.clause == clause
    return refused.value.detail


@verifies("deal.packets", "play.first-lead")
def test_a_pack_laid_out_by_hand_deals_each_seat_the_hand_it_was_laid_out_for():
    deal = laid_out_deal()
    for seat in Seat:
        assert Counter(deal.hand(seat)) == Counter(HANDS[seat])
    assert deal.cut == 0 and deal.to_act is E


@verifies("play.order-of-actions", "play.turn", "play.card-in-hand", "play.follow-suit")
def test_each_refused_card_says_whose_turn_what_is_held_and_what_must_be_followed():
    calling = laid_out_deal(trump=None)
    assert refusal(lambda: calling.play(E, "A♠"), PhaseError, "play.order-of-actions") == (
        "cards are played only after trump is named and before the deal ends")
    deal = laid_out_deal()
    assert refusal(lambda: deal.play(S, "A♠"), OutOfTurnError, "play.turn") == (
        "it is East's turn, not South's")
    assert refusal(lambda: deal.play(E, "A♣"), CardNotHeldError, "play.card-in-hand") == (
        "East holds no A♣")
    deal.play(E, "A♠")
    # South holds spades: it must follow; a diamond is refused.
    assert refusal(lambda: deal.play(S, "A♦"), MustFollowSuitError, "play.follow-suit") == (
        "South holds ♠ and must follow suit, not play A♦")
    deal.close(W)
    assert refusal(lambda: deal.play(S, "K♠"), PhaseError, "play.order-of-actions") == (
        "the deal is over")


@verifies("play.turn", "trump.caller", "signal.leader-only", "table.partnerships")
def test_a_seat_given_by_its_number_acts_as_that_seat_and_a_number_off_the_table_is_refused():
    deal = laid_out_deal(trump=None)
    # Seats are numbered clockwise from North: East is 1.
    assert refusal(lambda: deal.name_trump(7, Suit.HEARTS), RuleError, "trump.caller") == (
        "7 is not a seat (0-3, North East South West)")
    deal.name_trump(1, Suit.HEARTS)
    assert refusal(lambda: deal.play(4, "A♠"), RuleError, "play.turn") == (
        "4 is not a seat (0-3, North East South West)")
    deal.play(1, "A♠")
    assert refusal(lambda: deal.signal(-1, "knock"), RuleError, "signal.leader-only") == (
        "-1 is not a seat (0-3, North East South West)")
    assert deal.signal(1, "knock").seat is E
    deal.play(2, "K♠")
    assert deal.current_trick == ((E, parse_card("A♠")), (S, parse_card("K♠")))
    for dealer in (4, -1, True, "N", None):
        assert refusal(lambda: Deal(PACK, dealer), RuleError, "table.partnerships") == (
            f"{dealer!r} is not a seat (0-3, North East South West)")
        assert refusal(lambda: Deal.from_seed(1, dealer), RuleError, "table.partnerships") == (
            f"{dealer!r} is not a seat (0-3, North East South West)")


@verifies("trump.once", "trump.caller", "play.order-of-actions")
def test_each_refused_trump_call_says_who_calls_or_what_was_named():
    deal = laid_out_deal(trump=None)
    assert refusal(lambda: deal.name_trump(S, Suit.CLUBS), TrumpCallError, "trump.caller") == (
        "South cannot name trump: East, after the dealer, does")
    deal.name_trump(E, Suit.HEARTS)
    assert refusal(lambda: deal.name_trump(E, Suit.CLUBS), TrumpCallError, "trump.once") == (
        "trump is already ♥: it is named once")
    closed = laid_out_deal(trump=None)
    closed.close(N)  # closed while trump was being named: no trump, and none can follow
    assert refusal(lambda: closed.name_trump(E, Suit.CLUBS), PhaseError,
                   "play.order-of-actions") == "the deal is over: no trump can be named"
    assert refusal(lambda: closed.close(E), PhaseError, "play.order-of-actions") == (
        "the deal is already over")


@verifies("signal.kinds", "signal.leader-only", "signal.timing", "signal.once-per-trick")
def test_each_refused_signal_says_which_rule_of_signals_it_breaks():
    calling = laid_out_deal(trump=None)
    assert refusal(lambda: calling.signal(E, "knock"), PhaseError, "play.order-of-actions") == (
        "signals are given only while tricks are played")
    deal = laid_out_deal()
    assert refusal(lambda: deal.signal(E, "knock"), SignalError, "signal.timing") == (
        "a signal comes after the lead and before the next card")
    deal.play(E, "A♠")
    assert refusal(lambda: deal.signal(E, ""), SignalError, "signal.kinds") == (
        "'' is not a signal: a signal is named by a non-empty word")
    assert refusal(lambda: deal.signal(W, "knock"), SignalError, "signal.leader-only") == (
        "West did not lead this trick: only East may signal")
    deal.signal(E, "click")
    assert refusal(lambda: deal.signal(E, "knock"), SignalError, "signal.once-per-trick") == (
        "one signal per trick")


@verifies("pack.composition", "deal.cut", "table.rule-options")
def test_a_deal_refuses_a_pack_of_text_a_wrong_count_a_cut_not_a_number_and_rules_not_rules():
    texts = [str(card) for card in PACK]
    assert refusal(lambda: Deal(texts), CardFormatError, "pack.composition") == (
        "the pack holds a str, not only cards")
    assert refusal(lambda: Deal(PACK[:-1]), RuleError, "pack.composition") == (
        "a pack is 144 cards, four of each; this one has 143 cards of 36 kinds")
    assert refusal(lambda: Deal(PACK[:-1] + PACK[:1]), RuleError, "pack.composition") == (
        "a pack is 144 cards, four of each; this one has 144 cards of 36 kinds")
    for cut in (144, -1, True, "3", 2.0):
        assert refusal(lambda: Deal(PACK, cut=cut), RuleError, "deal.cut") == (
            f"a cut lifts 0 to 143 cards, not {cut!r}")
    not_rules = {"direction": "ccw"}
    assert refusal(lambda: Deal(PACK, rules=not_rules), RuleError, "table.rule-options") == (
        "rules must be a turub.Rules (see turub.parse_rules), not {'direction': 'ccw'}")
    # Without a cut the pack is dealt from its top card.
    assert Deal(PACK).cut == 0 and Counter(Deal(PACK).view(E).hand) == Counter(PACK[:3])


# --- the deal: seeds --------------------------------------------------------------------------

@verifies("deal.shuffle", "deal.cut")
def test_a_seed_deals_the_same_cards_in_every_version_of_the_engine():
    # Records, the conformance vectors and bug reports name deals by seed: the pack and the
    # cut a seed gives must never drift.  (Values recorded from the engine when this was written.)
    deal = Deal.from_seed(7)
    assert deal.cut == 120
    assert [str(c) for c in deal.pack[:6]] == ["J♣", "Q♠", "K♦", "J♥", "6♥", "8♣"]
    assert sorted(map(str, deal.view(deal.caller).hand)) == ["7♠", "9♦", "K♣"]


@verifies("deal.cut")
def test_a_seeded_cut_lifts_at_least_one_card_and_leaves_at_least_one():
    cuts = {Deal.from_seed(seed).cut for seed in range(2000)}
    assert cuts == set(range(1, 144))


@verifies("deal.shuffle", "table.direction")
def test_a_random_deal_is_played_the_same_way_from_the_same_seed_under_the_rules_given():
    ccw = Rules(direction=Direction.COUNTERCLOCKWISE)
    first, again = play_random_deal(5, W, ccw), play_random_deal(5, W, ccw)
    assert first.to_record() == again.to_record() and first.rules == ccw
    # The dealer's left counter-clockwise is South.
    assert first.caller is S and first.phase is Phase.FINISHED
    # A random source given is the one used to choose the trump and the cards.
    chosen = play_random_deal(5, rng=random.Random(99))
    assert chosen.to_record() == play_random_deal(5, rng=random.Random(99)).to_record()
    assert chosen.to_record()["actions"] != play_random_deal(5).to_record()["actions"]


# --- the deal: what a seat sees, records and replays ----------------------------------------------

@verifies("signal.kinds", "play.winner-leads", "result.closed-early")
def test_a_seat_sees_the_table_as_it_stands_after_a_trick_a_lead_and_a_signal():
    deal = laid_out_deal(trump=Suit.CLUBS)
    for seat, card in ((E, "A♠"), (S, "6♠"), (W, "A♣"), (N, "6♣")):
        deal.play(seat, card)
    # West trumped the ace of spades with the ace of clubs: West takes the trick and leads.
    deal.play(W, "K♥")
    deal.signal(W, "knock")
    view = deal.view(S)
    assert (view.seat, view.dealer, view.caller, view.trump) == (S, N, E, Suit.CLUBS)
    assert (view.to_act, view.tricks_won, view.result) == (N, (0, 1), None)
    assert (view.signal.seat, view.signal.kind, view.signal.suit) == (W, "knock", Suit.HEARTS)
    assert [(t.leader, t.winner, [str(c) for c in t.cards]) for t in view.tricks] == [
        (E, W, ["A♠", "6♠", "A♣", "6♣"])]
    assert view.current_trick == ((W, parse_card("K♥")),) and view.hand_sizes == (35, 35, 35, 34)
    result = deal.close(S)
    assert deal.view(E).result == result and deal.view(E).to_act is None


@verifies("pack.card-notation")
def test_a_record_writes_every_card_in_ascii_as_the_protocol_does():
    deal = laid_out_deal()
    deal.play(E, "10♠")
    record = deal.to_record()
    assert record["pack"][:3] == ["AS", "AS", "KS"]
    assert record["actions"] == [{"act": "trump", "seat": "E", "suit": "H"},
                                 {"act": "play", "seat": "E", "card": "10S"}]
    assert all(name.isascii() for name in record["pack"])


@verifies("table.direction", "deal.cut")
def test_a_record_without_rules_or_cut_is_the_standard_game_dealt_uncut():
    deal = laid_out_deal()
    deal.play(E, "A♠")
    record = deal.to_record()
    del record["rules"], record["cut"]
    again = Deal.replay(record)
    assert again.rules == Rules() and again.cut == 0
    assert again.to_record() == deal.to_record()


@verifies("play.order-of-actions")
def test_a_record_or_action_that_is_not_one_is_refused_as_such():
    deal = laid_out_deal()
    for junk in (["format"], "turub-deal/1", {"format": "turub-deal/0"}):
        assert refusal(lambda: Deal.replay(junk), RecordError, "play.order-of-actions") == (
            "not a deal record: expected format 'turub-deal/1'")
    assert refusal(lambda: Deal.replay({"format": "turub-deal/1"}), RecordError,
                   "play.order-of-actions") == "a deal record needs 'pack'"
    for junk in (["act", "play"], {"act": "dance"}):
        assert refusal(lambda: deal.apply(junk), RecordError, "play.order-of-actions") == (
            f"{junk!r} is not an action: 'act' is trump, play, signal or close")
    assert refusal(lambda: deal.apply({"act": "play", "seat": "E"}), RecordError,
                   "play.order-of-actions") == "action {'act': 'play', 'seat': 'E'} lacks 'card'"
    assert deal.to_record()["actions"] == [{"act": "trump", "seat": "E", "suit": "H"}]


@verifies("signal.kinds", "result.closed-early")
def test_a_deals_state_spells_out_phase_turn_hands_trick_signal_and_result():
    deal = laid_out_deal(trump=Suit.CLUBS)
    deal.play(E, "A♠")
    deal.signal(E, "click")
    state = deal.state()
    assert state["record"] == deal.to_record()
    assert (state["phase"], state["trump"], state["to_act"], state["leader"]) == (
        "playing", "C", "S", "E")
    assert state["hands"]["E"][:3] == ["AS", "KS", "KS"]  # one ace of spades led, one left
    assert len(state["hands"]["E"]) == 35
    assert (state["stock"], state["trick"], state["signal"]) == (0, [("E", "AS")], ("E", "click"))
    for seat, card in ((S, "6♠"), (W, "A♣"), (N, "6♣")):
        deal.play(seat, card)
    state = deal.state()
    assert state["tricks"] == [("E", ["AS", "6S", "AC", "6C"], "W")] and state["won"] == [0, 1]
    assert state["signal"] is None and state["result"] is None
    deal.close(N)
    state = deal.state()
    assert (state["phase"], state["to_act"], state["result"]) == ("finished", None, [0, 1])
