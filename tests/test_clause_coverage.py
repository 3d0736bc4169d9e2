"""Checks for clauses that had none, and for the rule-level consequence of each piece of advice.

Each expectation is stated independently of the engine's helpers: seats are numbered
clockwise 0-3 and "opposite" is two seats on; a trick's winner is recomputed from the rule
as written; counts are recounted from the played tricks.
"""

import random

import pytest

import turub
from turub import (CARDS, Contest, Deal, Direction, Phase, PhaseError, Rules, Seat, Side,
                   SignalError, Suit, deal_result, parse_cards, play_random_deal, trick_winner)
from turub.clauses import VOCABULARY
from turub.properties.tags import verifies


def rule_winner(cards, trump):
    """The winning position, from the rule as the sources state it (an independent oracle).

    The highest trump wins, else the highest card of the suit led; of identical cards the
    earliest.  Written as "the first position holding the best (is-trump, is-led, rank)".
    """
    led = cards[0].suit

    def strength(card):
        return (card.suit == trump, card.suit == led, int(card.rank) if card.suit in (trump, led) else 0)

    best = max(strength(c) for c in cards)
    return next(i for i, c in enumerate(cards) if strength(c) == best)


# --- the table ---------------------------------------------------------------------------

@verifies("table.partnerships")
@pytest.mark.parametrize("direction", list(Direction))
def test_partners_sit_opposite_so_the_sides_alternate_round_the_table(direction):
    for number in range(4):
        seat = Seat(number)
        opposite = Seat((number + 2) % 4)
        # Partners sit opposite and share a side; a partner's partner is oneself.
        assert seat.partner is opposite and opposite.partner is seat
        assert seat.side is opposite.side
        # Both neighbours, whichever way play runs, are opponents.
        for step in (1, -1):
            assert Seat((number + step) % 4).side is not seat.side
    # Two fixed partnerships of two.
    assert sorted(len([s for s in Seat if s.side is side]) for side in Side) == [2, 2]
    # In play, the order alternates sides in either direction.
    deal = Deal.from_seed(12, Seat.NORTH, Rules(direction=direction))
    deal.name_trump(deal.caller, Suit.CLUBS)
    sides = []
    for _ in range(4):
        sides.append(deal.to_act.side)
        deal.play(deal.to_act, deal.legal_plays()[0])
    assert all(a is not b for a, b in zip(sides, sides[1:]))


# --- what a trick is worth ----------------------------------------------------------------

@verifies("pack.tricks-only", "result.more-tricks-wins")
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_trick_counts_one_whatever_cards_it_holds(seed):
    deal = play_random_deal(seed)
    counts = [0, 0]
    for trick in deal.tricks:
        # the winner recomputed from the rule; the seat that played the winning card
        position = rule_winner(trick.cards, deal.trump)
        counts[trick.seats[position] % 2] += 1  # North(0)/South(2) vs East(1)/West(3)
    assert tuple(counts) == deal.result.tricks
    expected = None if counts[0] == counts[1] else (Side.NORTH_SOUTH if counts[0] > counts[1] else Side.EAST_WEST)
    assert deal.result.winner is expected
    # A trick of four aces and a trick of four sixes are worth the same: one.
    assert deal_result(18, 18).is_draw and deal_result(19, 17).winner is Side.NORTH_SOUTH


# --- the vocabulary ------------------------------------------------------------------------

@verifies("context.vocabulary")
def test_the_engine_names_its_types_with_the_one_vocabulary():
    words = [term.word for term in VOCABULARY if term.core]
    assert len(set(words)) == len(words) == 5
    assert len({term.word for term in VOCABULARY}) == len(VOCABULARY)
    public = {name.lower() for name in turub.__all__}
    # Our words name the engine's types ...
    for word, type_name in [("trick", "Trick"), ("deal", "Deal"), ("sitting", "Sitting"),
                            ("contest", "Contest")]:
        assert word in words and type_name in turub.__all__
    assert "mark" in words and Contest().mark is None
    # ... and the ambiguous words of the sources name nothing.
    assert not [n for n in public if "match" in n or "game" in n]


# --- advice, and the rule each rests on -------------------------------------------------------

POOL = parse_cards("A♠ 10♠ 6♠ A♥ 10♥ 6♥ A♦ 10♦ 6♦ A♣ 10♣ 6♣")


@verifies("advice.lead-twins-first", "trick.earliest-identical")
def test_a_led_card_never_loses_to_its_own_twin():
    for trump in Suit:
        for lead in CARDS:
            for twin_at in (1, 2, 3):
                for a in POOL:
                    for b in POOL:
                        others = [a, b]
                        cards = others[:twin_at - 1] + [lead] + others[twin_at - 1:]
                        trick = [lead] + cards
                        winner = trick_winner(trick, trump)
                        assert winner != twin_at, (trick, trump)
                        assert winner == rule_winner(trick, trump)


@verifies("advice.lead-twins-first", "trick.earliest-identical")
def test_whoever_plays_the_twin_first_takes_the_tie():
    # You hold A♣ and suspect an opponent holds the other: lead it and you win the tie ...
    assert trick_winner(parse_cards("A♣ A♣ 7♣ 8♣"), Suit.HEARTS) == 0
    # ... wait, and the opponent who leads it first wins it from you.
    assert trick_winner(parse_cards("7♣ A♣ A♣ 8♣"), Suit.HEARTS) == 1


@verifies("advice.call-on-three", "trump.three-cards", "deal.pause-for-trump")
@pytest.mark.parametrize("direction", list(Direction))
def test_at_the_call_the_caller_holds_three_cards_and_nobody_else_any(direction):
    for seed in range(5):
        deal = Deal.from_seed(seed, Seat(seed % 4), Rules(direction=direction))
        held = {s: len(deal.view(s).hand) for s in Seat}
        assert held == {s: (3 if s is deal.caller else 0) for s in Seat}
        assert len(deal.stock) == 141 and deal.phase is Phase.CALLING
        # Nothing can happen before the call: no waiting for more cards.
        with pytest.raises(PhaseError):
            deal.play(deal.caller, deal.view(deal.caller).hand[0])


@verifies("advice.count-duplicates", "pack.composition", "trick.earliest-identical")
def test_a_card_seen_once_can_fall_three_more_times_even_in_one_trick():
    deal = play_random_deal(8)
    played = {}
    for trick in deal.tricks:
        for card in trick.cards:
            played[card] = played.get(card, 0) + 1
    assert set(played.values()) == {4} and len(played) == 36
    # Four copies of one card in one trick: the first of them wins.
    assert trick_winner(parse_cards("K♦ K♦ K♦ K♦"), Suit.SPADES) == 0


@verifies("advice.read-signals", "signal.kinds", "signal.leader-only", "signal.timing")
def test_a_signal_names_the_led_suit_and_comes_only_from_the_leader_at_the_start():
    deal = Deal.from_seed(30)
    deal.name_trump(deal.caller, Suit.DIAMONDS)
    rng = random.Random(30)
    for _ in range(12):
        leader = deal.to_act
        lead = rng.choice(deal.legal_plays())
        deal.play(leader, lead)
        for other in Seat:
            if other is not leader:
                with pytest.raises(SignalError):
                    deal.signal(other, "knock")
        kind = rng.choice(["knock", "click"])
        signal = deal.signal(leader, kind)
        assert signal.suit is lead.suit and signal.meaning == {"knock": "strong", "click": "weak"}[kind]
        deal.play(deal.to_act, rng.choice(deal.legal_plays()))
        with pytest.raises(SignalError):
            deal.signal(leader, kind)  # partway through: too late
        for _ in range(2):
            deal.play(deal.to_act, rng.choice(deal.legal_plays()))


@verifies("advice.whole-deal", "pack.tricks-only", "result.more-tricks-wins")
def test_the_deal_is_decided_by_the_final_count_alone():
    # The brief's worked deal: 4-14 behind after eighteen tricks, 19-17 ahead at the end.
    assert deal_result(17, 19).winner is Side.EAST_WEST
    comebacks = 0
    for seed in range(40):
        deal = play_random_deal(seed)
        early = [0, 0]
        for trick in deal.tricks[:12]:
            early[trick.winner % 2] += 1
        final = deal.result.tricks
        winner = deal.result.winner
        assert winner is (None if final[0] == final[1] else Side(0 if final[0] > final[1] else 1))
        if winner is not None and early[winner] < early[1 - winner]:
            comebacks += 1
    assert comebacks > 0  # leading after a third of the deal decides nothing


@verifies("advice.agree-beforehand", "table.direction", "stake.per-deal")
def test_the_options_change_the_deal_so_they_are_fixed_beforehand_and_recorded():
    clockwise = Deal.from_seed(4, Seat.NORTH)
    counter = Deal.from_seed(4, Seat.NORTH, Rules(direction=Direction.COUNTERCLOCKWISE))
    assert clockwise.caller is Seat.EAST and counter.caller is Seat.WEST
    record = counter.to_record()
    assert record["rules"]["direction"] == "counterclockwise"
    assert Deal.replay(record).caller is Seat.WEST
    # The same results decide the stake differently under the two stake rules.
    results = [deal_result(20, 16), deal_result(19, 17)]
    contest = Contest()
    per_deal = Contest()
    for r in results:
        contest = contest.record(r)
    per_deal = per_deal.record(results[0], Rules(stake="per-deal"))
    assert contest.winner is None and per_deal.winner is Side.NORTH_SOUTH


# --- the score sheet's draw ---------------------------------------------------------------------

@verifies("sheet.end-match-draw", "result.draw-18", "dealer.after-draw", "contest.draw-keeps-sequence")
def test_an_18_18_deal_goes_on_the_sheet_as_a_draw_and_changes_neither_dealer_nor_mark():
    sheet = turub.Sitting(Seat.WEST)
    sheet.record(deal_result(16, 20))  # West's side wins: the next opponent (North) deals
    row = sheet.record(deal_result(18, 18))
    assert row.result.winner is None and row.dealer is Seat.NORTH and sheet.dealer is Seat.NORTH
    assert (sheet.contest.holder, sheet.contest.mark) == (Side.EAST_WEST, 20)
