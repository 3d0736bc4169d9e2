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

The deal drives it: :meth:`Deal.play_out <turub.deal.Deal.play_out>` hands it the
:class:`Position` it already knows (this module reads nothing of the deal itself), and
:func:`turub.deal.play_random_deal` deals from :func:`shuffled_pack`;
:meth:`Deal.from_seed <turub.deal.Deal.from_seed>` sorts its pack by :func:`keyed_pack`.
"""

from __future__ import annotations

import struct
import sys
from array import array
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from .cards import CARDS, PACK, SUIT_OF, Card
from .views import Signal
from .rules import TRICKS_PER_DEAL
from .seats import Seat

if TYPE_CHECKING:
    import random

__all__ = ["Position", "CompletedTrick", "keyed_pack", "shuffled_pack", "random_tricks"]

_PACK_BYTES: Final = bytes(c.index for c in PACK)
_KEY_EXPONENT: Final = b"\x3f" * 144  # the top bytes of a float in [1, 2)
_KEY_MANTISSA_TOP: Final = b"\xf0" * 144
_PACK_CODES: Final = tuple(_PACK_BYTES)
_DOUBLES: Final = struct.Struct("<144d").pack  # 144 floats as bytes, in order


#: A completed trick as a deal keeps it, compact: its leader, its card codes in the order
#: played, the signal, the winning position, and the clauses that decided it (``None``: the
#: standard ones, derived from the cards when asked, :func:`turub.rules.decision_at`).
CompletedTrick = tuple[Seat, Sequence[int], "Signal | None", int, "tuple[str, ...] | None"]


class Position(NamedTuple):
    """Where a deal's random playout starts, no trick begun: the hands in their list form
    (per seat, per suit, a sorted list of card codes), which card beats which
    (:func:`turub.rules.beats_table`), the seat after each, the order of play from each, the
    completed tricks and the tricks won by each side (both grown in place), the leader and
    the trump suit's number.  :meth:`turub.deal.Deal.play_out` passes it to the playout."""

    hands: list[list[list[int]]]
    beats: bytes
    next_seat: tuple[Seat, ...]
    order: tuple[tuple[Seat, ...], ...]
    tricks: list[CompletedTrick]
    won: list[int]
    leader: Seat
    trump: int


def keyed_pack(keys: bytes) -> bytes:
    """The pack's card codes (PACK's order, four copies of each card) sorted by 144 random
    64-bit keys, ``keys`` read as native unsigned integers (``deal.shuffle``, the shuffle of
    :meth:`Deal.from_seed <turub.deal.Deal.from_seed>`): the same order as
    ``sorted(range(144), key=keys)``, a tie (probability below 1e-15) going to the earlier
    card of PACK.  A seed names the same deal in every version: this order never changes."""
    if sys.byteorder == "little":
        # Sort floats in [1, 2) whose mantissa holds each key's top 40 bits, then the card's
        # code in its lowest byte, all built as bytes: the keys' order wherever no two keys
        # share their top 40 bits, which the sorted floats show (two neighbours that share
        # even their top 24 bits send the pack to the integer sort: probability about 6e-4).
        shifted = bytearray(keys[2:])  # key bytes 3-7 (its top 40 bits) as mantissa bytes 1-5
        shifted += b"\0\0"
        shifted[0::8] = _PACK_BYTES
        shifted[6::8] = _KEY_MANTISSA_TOP
        shifted[7::8] = _KEY_EXPONENT
        order = memoryview(shifted).cast("d").tolist()
        order.sort()
        ranked = _DOUBLES(*order)
        tops = bytearray(3 * 144)  # each key's top 24 bits, in sorted order
        tops[0::3] = ranked[3::8]
        tops[1::3] = ranked[4::8]
        tops[2::3] = ranked[5::8]
        # each key's top 24 bits XORed with the next one's: three zero bytes where two are
        # the same (or, at worst, across two neighbouring pairs: that only costs the integer sort)
        top = int.from_bytes(tops, "little")
        if (top ^ top >> 24).to_bytes(3 * 144, "little").find(b"\0\0\0") < 0:
            return ranked[0::8]
    order = memoryview(keys).cast("Q").tolist()
    return bytes(itemgetter(*sorted(range(144), key=order.__getitem__))(_PACK_CODES))


def shuffled_pack(rng: random.Random) -> bytes:
    """A pack of card codes shuffled by ``rng`` (``deal.shuffle``), for runs of random deals:
    the same uniform shuffle as :meth:`Deal.from_seed <turub.deal.Deal.from_seed>`, by a
    faster route (the caller draws the cut after it)."""
    # Sort the pack by random keys, each card's key a float in [1, 2) with 44 random bits
    # of mantissa and the card's code in its lowest byte, all built as bytes (a tie in the
    # random bits has probability below 1e-9 and only orders two cards by their codes).
    keys = bytearray(rng.randbytes(8 * 144))
    keys[0::8] = _PACK_BYTES
    keys[6::8] = _KEY_MANTISSA_TOP
    keys[7::8] = _KEY_EXPONENT
    order = memoryview(keys).cast("d").tolist()
    order.sort()
    # The pack as bytes, one card code each: a sequence of codes, as a deal reads it, made faster.
    return array("d", order).tobytes()[0::8]


def random_tricks(position: Position, rnd: Callable[[], float],
                  decide: Callable[[tuple[Card, ...], int, Any], tuple[int, tuple[str, ...] | None]] | None = None
                  ) -> Seat:
    """The deal's remaining tricks from ``position``, each card drawn at random from those
    its seat may play; returns the last trick's winner.  Every hand holds ``left`` cards
    before each trick.  ``decide``, if given, decides each trick in place of the table (a
    variant's house rule, :mod:`turub.house_rule_deal`): given the trick's cards, the
    standard winning position and the trick's leader (for a rule that reads the game), it returns the winning position and the clauses that decided
    it (``None``: the standard ones)."""
    hands, beats, nxt, order, tricks, won, leader, _ = position
    clauses = None
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
        position_now = 0
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
                best, position_now = code, k
            seat = nxt[seat]
        if decide is not None:
            first, second, third, fourth = codes
            position_now, clauses = decide((CARDS[first], CARDS[second], CARDS[third], CARDS[fourth]),
                                           position_now, leader)
        tricks.append((leader, tuple(codes), None, position_now, clauses))
        leader = order[leader][position_now]  # play.winner-leads
        won[leader & 1] += 1
    return leader
