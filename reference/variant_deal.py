"""The engine playing by a rule variant: the :class:`~turub.deal.Deal` subclass of a variant
with house rules (:attr:`turub.variants.Variant.deal_class`).  Only the decisions the variant
overrides are hooked; its random playout asks only those, and keeps the standard engine's
fast paths wherever a rule defers or is not overridden."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .cards import CARDS, SUITS, Card, _alternating_suits, parse_card
from .decisions import normalised, raised
from .errors import IllegalActionError, MustFollowSuitError
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
                self._finish(self._judge_result(self._won[0], self._won[1]))
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
    """The tricks left of ``deal`` (none begun) at random, as :meth:`Deal.play_out` plays
    them but asking the house rules that decide the plays and the tricks.  Only those pay:
    the standard draw (:mod:`turub.playout`'s) and trick table serve where a rule defers."""
    rnd, order, nxt, beats = rng.random, deal._order, deal._next, deal._beats
    hands = deal._as_lists()
    held = [list(in_hand_order(hand)) for hand in hands] if plays else []  # as a rule sees them
    asked = tuple((vc, vc.rule) for vc in variant.decides("legal_plays")) if plays else ()
    trump = SUITS[deal._trump]  # the trick as a rule sees it: a tuple grown card by card
    winner = _trick_rule(variant, trump) if tricks else None
    leader, done, won = deal._leader, deal._tricks, deal._won
    out = None  # a house rule's answer: set at each play when a rule decides the plays
    for left in range(36 - len(done), 0, -1):  # every hand holds ``left`` cards before a trick
        codes: list[int] = []
        cards: tuple[Card, ...] = ()
        seat, led, best, position = leader, -1, 0, 0
        for k in (0, 1, 2, 3):
            hand = hands[seat]
            if plays:
                mine = tuple(held[seat])
                for vc, rule in asked:  # the house rules, own before the base's: usually one
                    try:
                        out = rule(mine, cards, trump)
                    except KeyboardInterrupt:
                        raise
                    except BaseException as e:  # noqa: BLE001 - user code: say which rule, where
                        raise raised(variant.label, vc.id, "legal_plays", e, (mine, cards, trump)) from None
                    if out is not None:
                        break
            if out is None:  # the standard draw (play.follow-suit, play.void-any-card)
                if k and (suit := hand[led]):
                    i = int(rnd() * len(suit))
                else:
                    i = int(rnd() * left)
                    for suit in hand:
                        if i < len(suit):
                            break
                        i -= len(suit)
                code = suit[i]  # type: ignore[index]  # a hand of ``left`` cards holds the i-th
                del suit[i]  # type: ignore[union-attr]
                card = CARDS[code]
            else:
                card = _drawn_by(variant, vc, out, mine, cards, trump, rnd, hand[led] if k else [])
                code = card.index
                hand[code // 9].remove(code)  # the hands' lists are per suit, 9 cards a suit
            if plays:
                held[seat].remove(card)
            if not k:
                led, best = code // 9, code
            elif beats[36 * code + best]:  # trick.*: the card now winning
                best, position = code, k
            codes.append(code)
            cards += (card,)
            seat = nxt[seat]
        if winner is not None:
            position = winner(cards, codes, position)
        done.append((leader, tuple(codes), None, position))
        leader = order[leader][position]  # play.winner-leads
        won[leader & 1] += 1
    deal._leader = deal._to_act = leader


def in_hand_order(suits: list[list[int]]) -> tuple[Card, ...]:
    """A hand kept as per suit a sorted list of card codes, as :meth:`Deal.hand` gives it
    (``pack.sort-hand``): the suits held alternating in colour, each highest rank first
    (a card's code counts down the ranks of its suit)."""
    return tuple(CARDS[code] for suit in _alternating_suits(s for s in SUITS if suits[s])
                 for code in suits[suit])


def _drawn_by(variant: Any, vc: Any, out: Any, mine: tuple[Card, ...], cards: tuple[Card, ...],
              trump: Any, rnd: Any, following: list[int]) -> Card:
    """A card drawn uniformly, copy by copy, from those house rule ``vc`` allows (its answer
    ``out``, checked here), counted for ``turub simulate``'s tally against the standard
    draw's pool: the cards of the led suit held (``following``), else the whole hand."""
    allowed = normalised(variant.label, vc.id, "legal_plays", out, (mine, cards, trump))
    if variant._tally is not None:
        variant._count("legal_plays", (allowed, vc),
                       lambda: frozenset(map(CARDS.__getitem__, following)) if following else frozenset(mine))
    choice = [c for c in mine if c in allowed]
    return choice[int(rnd() * len(choice))]


def _trick_rule(variant: Any, trump: Any) -> Any:
    """The winning position of a trick as the house rules decide it, given its cards, their
    codes and the standard position (when every rule defers)."""
    house, count = variant.house, variant._count

    def winner(cards: tuple[Card, ...], codes: list[int], standard: int) -> int:
        asked = house("trick_winner", cards, trump)
        if asked is None:
            return standard
        if variant._tally is not None:
            count("trick_winner", asked, lambda: standard)
        return asked[0]
    return winner
