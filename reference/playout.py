"""The fast random playout: a whole deal of random legal play in one call.

This is not where the rules are read: :class:`~turub.deal.Deal` states them, one checked
action at a time.  Simulations (``turub simulate``) and the kit's differential play need
thousands of random deals, so this module plays the same rules without checking each card
again: every seat draws uniformly from the cards it may play (``play.follow-suit``,
``play.void-any-card``), each trick is decided by the deal's own table of which card beats
which (``trick.*``), the winner leads (``play.winner-leads``) and ``result.*`` decides.

It works on the deal's hands in their list form (per suit, a sorted list of card codes; see
:mod:`turub.deal`), from which a random legal card is drawn in constant time.  The tests tie
it to the checked step (``tests/test_playout.py``): every deal played here replays card by
card through :meth:`Deal.play` to the same state, and every trick is won as the rules say.

>>> deal = play_random_deal(1)
>>> deal.phase, sum(deal.result.tricks), deal.to_record() == Deal.replay(deal.to_record()).to_record()
(<Phase.FINISHED: 'finished'>, 36, True)
"""

from __future__ import annotations

import random
from array import array
from collections.abc import Callable
from typing import Final, TypeVar

from . import arguments
from .cards import CARDS, PACK, SUIT_OF, SUITS, Card
from .deal import Deal, Phase
from .errors import PhaseError, RuleError
from .options import Rules
from .rules import TRICKS_PER_DEAL, DealResult, deal_result
from .seats import Seat

__all__ = ["play_random_deal", "play_out", "shuffled"]

_PACK_BYTES: Final = bytes(c.index for c in PACK)
_KEY_EXPONENT: Final = b"\x3f" * 144  # the top bytes of a float in [1, 2)
_KEY_MANTISSA_TOP: Final = b"\xf0" * 144
_D = TypeVar("_D", bound=Deal)


def play_random_deal(seed: int | None = None, dealer: Seat = Seat.NORTH, rules: Rules = Rules(),
                     rng: random.Random | None = None) -> Deal:
    """A whole deal of random legal play, in one call: the fast path of simulations.

    The pack is shuffled and cut from ``seed`` (as :meth:`Deal.from_seed`), the caller names a
    suit drawn at random, and :meth:`Deal.play_out` plays the 36 tricks.  The trump and the
    cards are drawn from ``rng`` if given, else from the seed's own random source, so the
    same arguments always give the same deal.  Without a seed, ``rng`` shuffles too (a run of
    deals from one ``random.Random``, as ``turub simulate`` plays them).
    """
    if rng is not None and not isinstance(rng, random.Random):
        raise RuleError(f"rng must be a random.Random, not {rng!r:.40}", clause="deal.shuffle")
    if seed is None:
        if rng is None:
            raise RuleError("a random deal needs a seed or a random source (rng)", clause="deal.shuffle")
        deal = shuffled(Deal, rng, dealer, rules)
    else:
        deal, seeded = Deal._seeded(seed, dealer, rules)
        rng = rng if rng is not None else seeded
    deal.name_trump(deal.caller, SUITS[int(rng.random() * 4)])
    deal.play_out(rng)
    return deal


def shuffled(cls: type[_D], rng: random.Random, dealer: Seat, rules: Rules) -> _D:
    """A deal of class ``cls`` shuffled and cut by ``rng`` (``deal.shuffle``, ``deal.cut``), for
    runs of random deals: the same uniform shuffle as :meth:`Deal.from_seed`, by a faster route."""
    seat = arguments.seat(dealer, "table.partnerships")
    if not isinstance(rules, Rules):
        arguments.rules(rules)
    # Sort the pack by random keys, each card's key a float in [1, 2) with 44 random bits
    # of mantissa and the card's code in its lowest byte, all built as bytes (a tie in the
    # random bits has probability below 1e-9 and only orders two cards by their codes).
    keys = bytearray(rng.randbytes(8 * 144))
    keys[0::8] = _PACK_BYTES
    keys[6::8] = _KEY_MANTISSA_TOP
    keys[7::8] = _KEY_EXPONENT
    order = memoryview(keys).cast("d").tolist()
    order.sort()
    deal = cls.__new__(cls)  # a permutation of the pack needs no check of its composition
    # The pack as bytes, one card code each: a sequence of codes, as _setup reads it, made faster.
    codes = array("d", order).tobytes()[0::8]
    deal._setup(codes, seat, rules, rng.randrange(1, 144))  # type: ignore[arg-type]
    return deal


def play_out(deal: Deal, rng: random.Random | None = None) -> DealResult:
    """:meth:`Deal.play_out`: play the rest of ``deal`` at random and return its result.

    A trick already begun is finished through the checked step (:meth:`Deal.play`); the
    tricks after it are drawn here, from the hands in their list form.
    """
    if deal._phase is not Phase.PLAYING:
        raise PhaseError("a deal is played out only after trump is named and before it ends")
    rng = rng if rng is not None else random.Random()
    if not isinstance(rng, random.Random):
        raise RuleError(f"rng must be a random.Random, not {rng!r}", clause="deal.shuffle")
    rnd = rng.random
    while deal._trick:
        legal = deal.legal_plays()
        deal.play(deal._to_act, legal[int(rnd() * len(legal))])  # type: ignore[arg-type]
        if deal._phase is not Phase.PLAYING:
            return deal._result  # type: ignore[return-value]
    deal._leader = deal._to_act = _random_tricks(deal, rnd)
    deal._finish(deal_result(deal._won[0], deal._won[1]))
    return deal._result  # type: ignore[return-value]


def _random_tricks(deal: Deal, rnd, decide: Callable[[tuple[Card, ...], int], int] | None = None
                   ) -> Seat:
    """The deal's remaining tricks, each card drawn at random from those its seat may play;
    returns the last trick's winner.  Every hand holds ``left`` cards before each trick.
    ``decide``, if given, decides each trick in place of the table (a variant's house rule,
    :mod:`turub.variant_deal`): given the trick's cards and the standard winning position,
    it returns the winning position."""
    hands, beats, nxt = deal._as_lists(), deal._beats, deal._next
    order, tricks, won = deal._order, deal._tricks, deal._won
    leader = deal._leader
    for left in range(TRICKS_PER_DEAL - len(tricks), 0, -1):
        hand = hands[leader]
        i = int(rnd() * left)  # the leader: any card
        for suit in hand:
            if i < len(suit):
                break
            i -= len(suit)
        best = suit[i]
        del suit[i]
        led = SUIT_OF[best]
        codes = [best]
        position = 0
        seat = nxt[leader]
        for k in (1, 2, 3):
            hand = hands[seat]
            suit = hand[led]
            if suit:  # holding the led suit (play.follow-suit): one of those cards
                i = int(rnd() * len(suit))
            else:  # void (play.void-any-card): any card
                i = int(rnd() * left)
                for suit in hand:
                    if i < len(suit):
                        break
                    i -= len(suit)
            code = suit[i]
            del suit[i]
            codes.append(code)
            if beats[36 * code + best]:  # trick.*: the card now winning
                best, position = code, k
            seat = nxt[seat]
        if decide is not None:
            position = decide(tuple(map(CARDS.__getitem__, codes)), position)
        tricks.append((leader, tuple(codes), None, position))
        leader = order[leader][position]  # play.winner-leads
        won[leader & 1] += 1
    return leader
