"""The engine playing by a rule variant: the :class:`~turub.deal.Deal` subclass of a variant
with house rules (:attr:`turub.variants.Variant.deal_class`).  Only the decisions the variant
overrides are hooked; its random playout asks only those, and keeps the standard engine's
fast paths wherever a rule defers or is not overridden."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from .cards import CARDS, SUITS, Card, _alternating_suits, parse_card
from .decisions import asker, drawable, play_askers
from .errors import IllegalActionError, MustFollowSuitError
from .playout import _random_tricks
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
    ask_plays = play_askers(variant.label, variant.decides("legal_plays"), drawable) \
        if decides_plays else None
    ask_trick = asker(variant.label, "trick_winner", variant.decides("trick_winner")) if decides_tricks else None

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
                _play_out_by(variant, self, rng, ask_plays, ask_trick)
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


def _play_out_by(variant: Any, deal: Any, rng: Any, ask_plays: Any, ask_trick: Any) -> None:
    """The tricks left of ``deal`` (none begun) at random, as :meth:`Deal.play_out` plays
    them but asking the house rules that decide the plays (``ask_plays``, by kind of play:
    :func:`turub.decisions.play_askers`) and the tricks (``ask_trick``:
    :func:`turub.decisions.asker`), each ``None`` where the variant does not decide.  Only
    those pay: a play rule only at the kinds of play it applies to; a trick rule alone is
    asked once a trick from the standard playout's own loop (:mod:`turub.playout`); and
    wherever a rule defers, the standard draw and trick table serve, from the same random
    numbers."""
    trump = SUITS[deal._trump]
    decide = _trick_rule(variant, ask_trick, trump) if ask_trick is not None else None
    if ask_plays is None:
        leader = _random_tricks(deal, rng.random, decide)
    else:
        leader = _plays_by(variant, deal, rng.random, ask_plays, trump, decide)
    deal._leader = deal._to_act = leader


def _plays_by(variant: Any, deal: Any, rnd: Any, asks: Any, trump: Any, decide: Any) -> Seat:
    """The tricks left, each play asked of the rules applying to its kind (``asks``, from
    :func:`turub.decisions.play_askers`): if none answers, :mod:`turub.playout`'s draw, else
    :func:`_drawn_by`; each trick to ``decide`` if given, else the table.  The last winner."""
    order, nxt, beats = deal._order, deal._next, deal._beats
    ask_lead, ask_follow, ask_void = asks["lead"], asks["follow"], asks["void"]
    hands = deal._as_lists()
    held = [_in_hand_order(hand) for hand in hands]  # the hands as a rule sees them
    leader, done, won = deal._leader, deal._tricks, deal._won
    for left in range(36 - len(done), 0, -1):  # every hand holds ``left`` cards before a trick
        hand, mine = hands[leader], held[leader]
        if ask_lead is None or (asked := ask_lead(view := tuple(mine), (), trump)) is None:
            i = int(rnd() * left)  # the standard draw: any card
            for suit in hand:
                if i < len(suit):
                    break
                i -= len(suit)
            card = CARDS[best := suit.pop(i)]
        else:
            card = _drawn_by(variant, asked, view, rnd, ())
            (suit := hand[(best := card.index) // 9]).remove(best)  # per suit, 9 cards a suit
        mine.remove(card)
        if not suit:  # a suit ran out: the others may alternate in colour anew (pack.sort-hand)
            held[leader] = _after_running_out(mine, best // 9, hand)
        led, codes, position, seat = best // 9, [best], 0, nxt[leader]
        cards: tuple[Card, ...] = (card,)  # the trick as a rule sees it: grown card by card
        for k in (1, 2, 3):
            hand, mine = hands[seat], held[seat]
            suit = hand[led]
            ask = ask_follow if suit else ask_void
            if ask is None or (asked := ask(view := tuple(mine), cards, trump)) is None:
                if suit:  # the standard draw: the led suit if held, else any card
                    i = int(rnd() * len(suit))
                else:
                    i = int(rnd() * left)
                    for suit in hand:
                        if i < len(suit):
                            break
                        i -= len(suit)
                code = suit[i]
                del suit[i]
                card = CARDS[code]
            else:
                card = _drawn_by(variant, asked, view, rnd, suit)
                (suit := hand[(code := card.index) // 9]).remove(code)
            mine.remove(card)
            if not suit:
                held[seat] = _after_running_out(mine, code // 9, hand)
            if beats[36 * code + best]:  # trick.*: the card now winning
                best, position = code, k
            codes.append(code)
            cards += (card,)
            seat = nxt[seat]
        if decide is not None:
            position = decide(cards, position)
        done.append((leader, tuple(codes), None, position))
        leader = order[leader][position]  # play.winner-leads
        won[leader & 1] += 1
    return leader


#: The order of the suits in a hand (``pack.sort-hand``), by the suits held (bit ``s`` of
#: the index: suit ``s`` held).
_HAND_ORDER: Final = tuple(tuple(_alternating_suits(s for s in SUITS if held >> s & 1))
                           for held in range(16))


#: ``(suits left, the suit that ran out)``: the order of the suits left, old and new, where
#: they alternate in colour otherwise (``pack.sort-hand``); ``None`` where they do not.
_REORDERED: Final = tuple(
    (old, new) if old != new and not held >> s & 1 else None
    for held in range(16) for s in range(4)  # at ``held << 2 | s``, ``held``: the suits left
    for old, new in [(tuple(x for x in _HAND_ORDER[held | 1 << s] if x != s), tuple(_HAND_ORDER[held]))])


def _after_running_out(mine: list[Card], suit: int, hand: list[list[int]]) -> list[Card]:
    """``mine``, the hand as a rule sees it, once its ``suit`` ran out: its suits' cards
    moved where the suits left alternate in colour otherwise (``pack.sort-hand``, as
    :meth:`Deal.hand` sorts them)."""
    held = (1 if hand[0] else 0) | (2 if hand[1] else 0) | (4 if hand[2] else 0) | (8 if hand[3] else 0)
    orders = _REORDERED[held << 2 | suit]
    if orders is None:
        return mine
    blocks, start = [mine, mine, mine, mine], 0
    for s in orders[0]:  # ``mine`` lies suit by suit in the old order
        blocks[s] = mine[start:start + len(hand[s])]
        start += len(hand[s])
    return sum(map(blocks.__getitem__, orders[1]), [])


def _in_hand_order(suits: list[list[int]]) -> list[Card]:
    """A hand kept as per suit a sorted list of card codes, as :meth:`Deal.hand` gives it
    (``pack.sort-hand``): the suits held alternating in colour, each highest rank first
    (a card's code counts down the ranks of its suit)."""
    held = (suits[0] != []) | (suits[1] != []) << 1 | (suits[2] != []) << 2 | (suits[3] != []) << 3
    return [CARDS[code] for suit in _HAND_ORDER[held] for code in suits[suit]]


def _drawn_by(variant: Any, asked: tuple[tuple[frozenset[Card], list[Card]], Any], mine: tuple[Card, ...],
              rnd: Any, following: Sequence[int]) -> Card:
    """A card drawn uniformly, copy by copy, from those the house rule allows (``asked``:
    its answer checked, :func:`turub.decisions.drawable`, and its clause), counted for
    ``turub simulate``'s tally against the standard draw's pool: the cards of the led suit
    held (``following``, their codes), else the whole hand (``mine``)."""
    (_, copies), vc = asked
    tally = variant._tally
    if tally is not None:
        counts = tally.get(vc.id)
        if counts is None:
            counts = tally[vc.id] = [0, 0]
        counts[0] += 1
        # The copies allowed, in hand order, are the standard pool when they are as many:
        # the whole hand, or (following) the led suit's, which lie together in hand order,
        # so the first and the last of the led suit make all of them so.
        if len(copies) != len(following or mine) or (
                following and not copies[0].index // 9 == following[0] // 9 == copies[-1].index // 9):
            counts[1] += 1
    return copies[int(rnd() * len(copies))]


def _trick_rule(variant: Any, ask: Any, trump: Any) -> Any:
    """The winning position of a trick as the house rules decide it (``ask``), given its
    cards and the standard position (when every rule defers)."""
    def decide(cards: tuple[Card, ...], standard: int) -> int:
        asked = ask(cards, trump)
        if asked is None:
            return standard
        if variant._tally is not None:
            variant._count("trick_winner", asked, lambda: standard)
        return asked[0]
    return decide
