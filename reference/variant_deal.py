"""The engine playing by a rule variant: the :class:`~turub.deal.Deal` subclass of a variant
with house rules (:attr:`turub.variants.Variant.deal_class`).  Only the decisions the variant
overrides are hooked; its random playout asks only those, and keeps the standard engine's
fast paths wherever a rule defers or is not overridden."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CARDS, SUITS, Card, parse_card
from .errors import IllegalActionError, MustFollowSuitError
from .rules import legal_plays as _legal_plays
from .seats import PLAY_ORDER, Seat

if TYPE_CHECKING:
    from .deal import Deal

__all__ = ["variant_deal_class"]


def _direction_of(order) -> Any:
    from .seats import Direction
    return next(d for d in Direction if PLAY_ORDER[d] is order or PLAY_ORDER[d] == order)


def variant_deal_class(variant: Any) -> type[Deal]:
    """The Deal subclass playing by ``variant``: only the decisions it overrides are hooked
    (the others keep the standard engine's fast paths)."""
    from .deal import Deal, Phase

    decides_plays = bool(variant.decides("legal_plays"))
    decides_tricks = bool(variant.decides("trick_winner"))
    decides_result = bool(variant.decides("deal_result"))

    class VariantDeal(Deal):
        __slots__ = ()

        def to_record(self) -> dict[str, Any]:
            """The record names the variant and its version (:meth:`Deal.replay` rebuilds
            the deal with it)."""
            return {**super().to_record(), "variant": variant.name, "variant_version": variant.version}

        def play_out(self, rng=None):
            """Random legal play to the end: the standard fast path when the variant decides
            neither the plays nor the tricks, else every card through the checked step."""
            import random
            if not (decides_plays or decides_tricks):
                super().play_out(rng)
                if decides_result and self._closed_by is None:
                    won = self._won
                    self._result = variant.deal_result(won[0], won[1], rules=self.rules)
                return self.result
            rng = rng if rng is not None else random.Random()
            while self._trick and self.phase is Phase.PLAYING:  # a trick begun: the checked step
                legal = self.legal_plays()
                Deal.play(self, self.to_act, legal[int(rng.random() * len(legal))])
            if self.phase is Phase.PLAYING:
                _play_out_by(variant, self, rng, decides_plays, decides_tricks)
            return self.result

    if decides_plays:
        VariantDeal._check_follow_suit = False  # the variant's legal plays decide, below
        VariantDeal.legal_plays, VariantDeal.play = _legal_play_methods(variant)  # type: ignore[method-assign]
    if decides_tricks:
        def trick_decision(leader, codes, position, trump, order):
            return variant.decide_trick([CARDS[c] for c in codes], SUITS[trump], leader,
                                        _direction_of(order))
        VariantDeal._trick_decision = staticmethod(trick_decision)
    if decides_result:
        VariantDeal._judge_result = staticmethod(variant.deal_result)
    VariantDeal.__name__ = VariantDeal.__qualname__ = f"Deal[{variant.name}]"
    VariantDeal.variant = variant  # type: ignore[attr-defined]
    return VariantDeal


def _legal_play_methods(variant: Any) -> tuple[Any, Any]:
    """``Deal.legal_plays`` and ``Deal.play`` as a variant whose house rule restricts the
    legal plays decides them."""
    from .deal import Deal, Phase

    def legal_plays(self: Deal, seat: Seat | None = None) -> tuple[Card, ...]:
        if self.phase is not Phase.PLAYING or (seat is not None and seat != self.to_act):
            return ()
        hand = self.hand(self.to_act)  # type: ignore[arg-type]  # playing: a seat is to act
        legal, _ = variant.legal_plays(hand, [c for _, c in self.current_trick], self.trump)
        return tuple(c for c in CARDS if c in legal)

    def play(self: Deal, seat: Seat, card: Card | str) -> Any:
        """The standard checks of turn and hand first, then the house rule's refusal in
        place of ``play.follow-suit`` (the documented refusal order)."""
        if self.phase is Phase.PLAYING and seat == self.to_act:
            card = card if isinstance(card, Card) else parse_card(card)
            if self.holds(seat, card):
                trick = [c for _, c in self.current_trick]
                legal, clauses = variant.legal_plays(self.hand(seat), trick, self.trump)
                if card not in legal:
                    error = MustFollowSuitError if clauses[0] == "play.follow-suit" else IllegalActionError
                    raise error(f"{seat} may not play {card} here", clause=clauses[0])
        return Deal.play(self, seat, card)

    return legal_plays, play


def _play_out_by(variant: Any, deal: Any, rng: Any, plays: bool, tricks: bool) -> None:
    """The rest of ``deal`` (no trick begun) at random, as :meth:`Deal.play_out` plays it, but
    asking the house rules that decide the plays (``plays``) and the tricks (``tricks``):
    each card drawn uniformly, copy by copy, from those the rules allow.  Only the overridden
    decisions pay: the hands are kept as Card lists in :meth:`Deal.hand`'s order, the standard
    choice and the standard trick table serve wherever a rule defers or is not overridden."""
    rnd, order, nxt, beats = rng.random, deal._order, deal._next, deal._beats
    hands = deal._as_lists()
    held = [list(deal.hand(seat)) for seat in Seat] if plays else []  # the hands as a rule sees them
    trump_code = deal._trump
    trump = SUITS[trump_code]
    house, count = variant.house, variant._count
    leader = deal._leader
    while len(deal._tricks) < 36:
        codes: list[int] = []
        cards: list[Card] = []
        seat = leader
        for _k in range(4):
            hand = hands[seat]
            mine: list[Card] = held[seat] if plays else []
            asked = house("legal_plays", tuple(mine), tuple(cards), trump) if plays else None
            if asked is not None:
                if variant._tally is not None:
                    count("legal_plays", asked, lambda: _legal_plays(mine, cards[0].suit if cards else None))
                choice = [c for c in mine if c in asked[0]]
                card = choice[int(rnd() * len(choice))]
            else:
                suit = hand[codes[0] // 9] if codes else None  # holding the led suit: one of those
                pool = suit if suit else [c for s in hand for c in s]
                card = CARDS[pool[int(rnd() * len(pool))]]
            code = card.index
            hand[code // 9].remove(code)  # the hands' lists are per suit, 9 cards a suit
            if plays:
                mine.remove(card)
            codes.append(code)
            cards.append(card)
            seat = nxt[seat]
        asked = house("trick_winner", tuple(cards), trump) if tricks else None
        if asked is not None:
            position = asked[0]
            if variant._tally is not None:
                count("trick_winner", asked, lambda: _standard_position(codes, beats))
        else:
            position = _standard_position(codes, beats)
        deal._tricks.append((leader, tuple(codes), None, position))
        leader = order[leader][position]
        deal._won[leader & 1] += 1
    deal._leader = deal._to_act = leader
    deal._finish(deal._judge_result(deal._won[0], deal._won[1]))


def _standard_position(codes: list[int], beats: Any) -> int:
    """The position of the winning card by the standard trick table (``trick.*``)."""
    position, best = 0, codes[0]
    for k in (1, 2, 3):
        if beats[36 * codes[k] + best]:
            position, best = k, codes[k]
    return position
