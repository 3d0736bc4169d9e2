"""The one-call random playout (``Deal.play_out``, ``play_random_deal``): legal play only,
decided by the rules, the same deal from the same seed, replayable card by card."""

import random
import sys
from collections import Counter

import pytest

from turub import PACK, Deal, Direction, Phase, PhaseError, Rules, Seat, Suit, play_random_deal
from turub.playout import keyed_pack
from turub.properties.tags import verifies

RULES = [Rules(), Rules(direction=Direction.COUNTERCLOCKWISE)]


def strength(card, trump, led):
    """The rule as the sources state it: a trump beats any other suit, the led suit beats the
    rest, and within those the higher rank; of identical cards the one played first."""
    return (card.suit == trump, card.suit == led, int(card.rank) if card.suit in (trump, led) else 0)


def check_as_played_by_hand(deal):
    """Walk the finished deal's tricks: every card legal when it was played, every trick won by
    the first card of the highest strength, the winner leading the next, the counts adding up."""
    hands = {seat: Counter(card for t in deal.tricks for s, card in zip(t.seats, t.cards) if s is seat)
             for seat in Seat}
    assert all(sum(h.values()) == 36 for h in hands.values())
    leader, won = deal.caller, [0, 0]
    for trick in deal.tricks:
        assert trick.leader is leader and trick.seats[0] is leader
        led = trick.cards[0].suit
        for seat, card in zip(trick.seats, trick.cards):
            assert hands[seat][card] > 0  # a card held
            if card.suit != led:  # off suit only when void
                assert not any(c.suit == led and n for c, n in hands[seat].items())
            hands[seat][card] -= 1
        top = max(strength(c, deal.trump, led) for c in trick.cards)
        position = next(i for i, c in enumerate(trick.cards) if strength(c, deal.trump, led) == top)
        assert trick.winner is trick.seats[position]
        leader = trick.winner
        won[leader % 2] += 1
    assert tuple(won) == deal.result.tricks == deal.tricks_won


@verifies("play.follow-suit", "play.void-any-card", "play.winner-leads", "trick.highest-trump",
          "trick.highest-led", "trick.earliest-identical", "result.more-tricks-wins")
@pytest.mark.parametrize("rules", RULES, ids=lambda r: str(r.direction))
def test_a_random_playout_is_legal_play_decided_by_the_rules(rules):
    for seed in range(30):
        deal = play_random_deal(seed, Seat(seed % 4), rules)
        assert deal.phase is Phase.FINISHED and len(deal.tricks) == 36 and deal.trick_count == 36
        check_as_played_by_hand(deal)
        # Every card replays through the checked step (Deal.play) to the same deal.
        assert Deal.replay(deal.to_record()).state() == deal.state()


@verifies("deal.shuffle", "pack.composition")
def test_a_run_of_deals_from_one_random_source_is_a_run_of_whole_packs():
    rng = random.Random(5)
    first_cards = Counter()
    for _ in range(720):
        deal = play_random_deal(rng=rng)
        assert Counter(deal.pack) == Counter(PACK)
        first_cards[deal.pack[0]] += 1
        check_as_played_by_hand(deal)
    # A uniform shuffle puts each of the 36 cards on top about 20 times in 720 deals.
    assert len(first_cards) == 36 and max(first_cards.values()) < 45
    again = random.Random(5)
    assert play_random_deal(rng=again).to_record() == play_random_deal(rng=random.Random(5)).to_record()


def sorted_by_keys(keys):
    """The seed's shuffle as its contract states it: PACK in the order of 144 keys, each 8 bytes
    read as a native unsigned integer, two equal keys in PACK's order."""
    return [PACK[i] for i in sorted(range(144), key=lambda i: int.from_bytes(keys[8 * i:8 * i + 8], sys.byteorder))]


@verifies("deal.shuffle")
def test_a_seeds_pack_is_in_the_order_of_its_keys_even_where_keys_share_their_top_bits():
    # The fast sort reads each key's top 40 bits only: keys sharing their top 3, 4, 5 or 6
    # bytes, or all 8, must still come out in the order of the whole keys.
    rng = random.Random(33)
    for case in range(2000):
        keys = bytearray(rng.randbytes(8 * 144))
        for _ in range(case % 4):
            i, j, shared = rng.randrange(144), rng.randrange(144), rng.choice((3, 4, 5, 5, 6, 8))
            keys[8 * i + 8 - shared:8 * i + 8] = keys[8 * j + 8 - shared:8 * j + 8]
        assert [PACK[code] for code in keyed_pack(bytes(keys))] == sorted_by_keys(keys)  # (PACK[code]: its card)
    for seed in (0, 1, 99, 2**70, -5):
        assert list(Deal.from_seed(seed).pack) == sorted_by_keys(random.Random(seed).randbytes(8 * 144))


@verifies("play.follow-suit", "play.turn")
def test_a_playout_finishes_a_trick_already_begun_and_plays_on_from_cards_played_by_hand():
    deal = Deal.from_seed(11)
    deal.name_trump(deal.caller, Suit.CLUBS)
    for _ in range(6):  # a trick and a half by hand
        deal.play(deal.to_act, deal.legal_plays()[-1])
    result = deal.play_out(random.Random(3))
    assert result is deal.result and sum(result.tricks) == 36
    check_as_played_by_hand(deal)
    assert Deal.replay(deal.to_record()).state() == deal.state()


@verifies("play.order-of-actions")
def test_no_playout_before_trump_or_after_the_end():
    deal = Deal.from_seed(4)
    with pytest.raises(PhaseError):
        deal.play_out(random.Random(1))
    done = play_random_deal(4)
    with pytest.raises(PhaseError):
        done.play_out(random.Random(1))
