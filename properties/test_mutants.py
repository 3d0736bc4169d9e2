"""Checks written to kill the mutants that survived the project's other tests.

Mutation testing (``properties/tools/mutation.py``, see docs/guides/proofs.md) changes the
rule code one small edit at a time and reruns the tests; a change no test notices is a gap.
These tests close the gaps that matter: the clauses each decision cites, the facts each
refusal states, the result's flags and text, and the options passed through.  Each states
the behaviour from the rules and the engine's documented interface, not from its code.
"""

from __future__ import annotations

import pytest

from turub import (Contest, ContestDecidedError, FirstDealerError, ResultError, Rules, Seat,
                   Side, Suit, check_packets, contest_of, contest_step, deal_result,
                   decide_trick, first_dealer, is_legal_play, branch_free_rules, parse_card, parse_cards)
from turub.branch_free_rules import NOBODY
from turub.properties.tags import verifies

NS, EW = Side.NORTH_SOUTH, Side.EAST_WEST


# --- legal play: the clause behind each answer -----------------------------------------------

@verifies("play.follow-suit", "play.void-any-card", "play.card-in-hand")
def test_each_answer_about_a_play_names_the_clause_that_decides_it():
    hand = parse_cards("A♠ 6♥")
    # Leading: any card held; there is no suit to follow yet.
    assert is_legal_play(hand, None, parse_card("6♥")) == (True, "play.follow-suit")
    # Following suit.
    assert is_legal_play(hand, Suit.SPADES, parse_card("A♠")) == (True, "play.follow-suit")
    # Holding the led suit and not playing it.
    assert is_legal_play(hand, Suit.SPADES, parse_card("6♥")) == (False, "play.follow-suit")
    # Void in the led suit: any card.
    assert is_legal_play(hand, Suit.CLUBS, parse_card("6♥")) == (True, "play.void-any-card")
    # A card not held.
    assert is_legal_play(hand, None, parse_card("K♦")) == (False, "play.card-in-hand")


@verifies("play.follow-suit")
def test_a_lead_is_legal_whatever_the_hand_holds():
    # The kernel is told NOBODY for "leading"; whatever holds_led says, a lead is free.
    for suit in range(4):
        for holds in (False, True):
            assert branch_free_rules.may_play(suit, NOBODY, holds)


# --- the trick: the decision names the winning card ------------------------------------------

@verifies("trick.earliest-identical", "trick.highest-led")
def test_the_decision_names_the_first_ace_as_the_winning_card():
    cards = parse_cards("A♣ A♣ 6♣ K♣")
    decision = decide_trick(cards, Suit.HEARTS, Seat.NORTH)
    assert (decision.position, decision.seat, decision.card) == (0, Seat.NORTH, parse_card("A♣"))
    assert decision.clauses == ("trick.highest-led", "trick.earliest-identical")


# --- the deal's result ---------------------------------------------------------------------

@verifies("result.more-tricks-wins", "result.draw-18", "result.closed-early")
def test_only_a_deal_closed_early_is_marked_closed_early():
    assert deal_result(18, 18).closed_early is False
    assert deal_result(20, 16).closed_early is False
    assert deal_result(10, 12, closed_early=True).closed_early is True


@verifies("result.more-tricks-wins", "result.draw-18", "result.closed-early")
def test_a_result_reads_as_the_score_then_the_outcome():
    assert str(deal_result(17, 19)) == "17–19, East-West wins"
    assert str(deal_result(20, 16)) == "20–16, North-South wins"
    assert str(deal_result(18, 18)) == "18–18, draw"
    assert str(deal_result(10, 12, closed_early=True)) == "10–12, draw (closed early)"


@verifies("result.tricks-add-up")
def test_a_refused_result_states_the_counts_and_what_is_wrong():
    with pytest.raises(ResultError) as short:
        deal_result(17, 18)
    assert short.value.detail == "17–18 adds to 35, not 36"
    with pytest.raises(ResultError) as complete:
        deal_result(18, 18, closed_early=True)
    assert complete.value.detail == "18–18 is a complete deal, not one closed early"
    with pytest.raises(ResultError) as negative:
        deal_result(-1, 37)
    assert negative.value.detail == "trick counts must be whole numbers from 0, not (-1, 37)"


# --- the first dealer -----------------------------------------------------------------------

@verifies("dealer.first-draw-ties")
def test_a_wrong_draw_round_is_refused_with_who_should_have_been_shown():
    with pytest.raises(FirstDealerError) as wrong:
        first_dealer([{Seat.NORTH: parse_card("A♥")}])
    assert wrong.value.detail == ("each round shows one card to each player still tied, and only "
                                  "to them: expected ['E', 'N', 'S', 'W'], got ['N']")
    with pytest.raises(FirstDealerError) as tied:
        first_dealer([{s: parse_card("A♥") for s in Seat}])
    assert tied.value.detail == "the draw is still tied between ['E', 'N', 'S', 'W']: show them another card"


# --- the dealer's check ---------------------------------------------------------------------

@verifies("deal.dealer-check", "deal.redeal")
def test_the_dealers_check_says_why_a_deal_stands_or_is_dealt_again():
    round_ = [(Seat.EAST, 3), (Seat.SOUTH, 3), (Seat.WEST, 3), (Seat.NORTH, 3)]
    stands = check_packets(round_ * 12, Seat.NORTH)
    assert (stands.stands, stands.reason, stands.hand_sizes, stands.clauses) == (
        True, "every packet holds three cards, dealt in turn", (36, 36, 36, 36), ("deal.dealer-check",))
    short = check_packets(round_ * 11 + round_[:3] + [(Seat.NORTH, 2)], Seat.NORTH)
    assert (short.stands, short.reason, short.hand_sizes, short.clauses) == (
        False, "packet 48 (to North) holds 2 card(s), not three: deal again", (35, 36, 36, 36),
        ("deal.dealer-check", "deal.redeal"))
    skipped = check_packets(round_ * 2 + round_[1:] + round_ * 9 + round_[:1], Seat.NORTH)
    assert (skipped.stands, skipped.reason) == (
        False, "packet 9 goes to South, out of turn (a packet was skipped): deal again")
    none = check_packets([(Seat.EAST, 3)], Seat.NORTH)
    assert (none.stands, none.reason) == (False, "1 packets were dealt, not 48: deal again")
    twice = check_packets([(Seat.EAST, 3), (Seat.EAST, 3)] + round_[2:] + round_ * 11, Seat.NORTH)
    assert (twice.stands, twice.reason) == (
        False, "packet 2 goes to East a second time in the first round: deal again")
    first = check_packets(([round_[-1]] + round_[:-1]) * 12, Seat.NORTH)
    assert (first.stands, first.reason) == (
        False, "the first round does not end with the dealer's own packet: deal again")


@verifies("deal.dealer-check")
def test_the_dealers_check_accepts_seats_given_as_numbers():
    # Packets read from a record may name seats by number (North 0 .. West 3).
    check = check_packets([(0, 3), (1, 3), (2, 3), (3, 3)] * 12, Seat.WEST)
    assert check.stands and check.hand_sizes == (36, 36, 36, 36)
    assert not check_packets([(0, 3), (3, 1)], Seat.WEST).stands


# --- the contest: the clause behind each step, and the options passed on ------------------------

def win(side, tricks):
    return deal_result(tricks, 36 - tricks) if side is NS else deal_result(36 - tricks, tricks)


@verifies("contest.first-win-sets-mark", "contest.other-side-resets", "contest.draw-keeps-sequence",
          "stake.per-deal")
def test_each_contest_step_names_the_clause_that_decided_it():
    first = Contest().record(win(NS, 20))
    assert first.clauses == ("contest.first-win-sets-mark",)
    assert first.record(win(EW, 21)).clauses == ("contest.other-side-resets",)
    assert first.record(deal_result(18, 18)).clauses == ("contest.draw-keeps-sequence",)
    per_deal = Contest().record(win(EW, 19), Rules(stake="per-deal"))
    assert (per_deal.winner, per_deal.clauses) == (EW, ("stake.per-deal",))


@verifies("stake.per-deal")
def test_a_contest_of_deals_played_for_a_stake_each_is_settled_by_the_first_win():
    contest = contest_of([deal_result(18, 18), win(NS, 19)], Rules(stake="per-deal"))
    assert (contest.winner, contest.deals) == (NS, 2)


@verifies("contest.decided-is-final")
def test_a_result_after_the_decision_is_refused_and_says_who_won():
    decided = contest_of([win(NS, 20), win(NS, 22)])
    with pytest.raises(ContestDecidedError) as refused:
        contest_step(decided, win(EW, 30))
    assert refused.value.clause == "contest.decided-is-final"
    assert refused.value.detail == ("the contest was decided for North-South after 2 deal(s): "
                                    "start a new contest for a new stake")
