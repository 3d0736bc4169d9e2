"""The engine playing by a rule variant: :class:`HouseRuleDeal`, the :class:`~turub.deal.Deal`
of a variant with house rules (:attr:`turub.variants.Variant.deal_class`), declared once as
python-chess declares ``SuicideBoard(Board)``: it overrides the deal's hooks of the decisions
the house rules may take (each decision's ``hooks``, :mod:`turub.decisions`) and consults its
variant there, given the position the deal already knows.  Only the decisions the variant
overrides are asked; its random playout asks only those, and keeps the standard engine's
fast paths wherever a rule defers or is not overridden."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Final

from . import playout
from .cards import CARDS, HAND_ORDER, SUITS, Card, parse_card
from .decisions import (DEAL_RESULT, LEGAL_PLAYS, SIGNAL, TRICK_WINNER, TRUMP_CALLER, Game, asker, drawable, game_at,
                        play_askers, sees_game)
from .deal import Deal, Phase
from .errors import IllegalActionError, MustFollowSuitError
from .playout import Position
from .rules import TrickDecision
from .seats import Seat

__all__ = ["HouseRuleDeal"]


class HouseRuleDeal(Deal):
    """A deal played by a variant whose house rules override some of the engine's decisions.

    Each variant plays with its own class, :meth:`for_variant` (``Variant.deal_class``): this
    one, with the variant and its rules' askers bound as class attributes (data only, no
    method); the methods are all here.  A hook the variant does not override keeps the
    standard engine's (and its fast path)."""

    __slots__ = ()

    #: The variant the deal plays by, and what it decides (bound by :meth:`for_variant`).
    variant: ClassVar[Any] = None
    decides_plays: ClassVar[bool] = False
    decides_tricks: ClassVar[bool] = False
    decides_result: ClassVar[bool] = False
    decides_signals: ClassVar[bool] = False
    decides_caller: ClassVar[bool] = False
    #: The house rules deciding the plays by kind of play, and the tricks (``None``: not decided).
    play_rules: ClassVar[dict[str, Any] | None] = None
    trick_rule: ClassVar[Any] = None
    #: Whether a rule deciding the plays, the tricks, the result reads the game (:class:`Game`).
    plays_see: ClassVar[bool] = False
    tricks_see: ClassVar[bool] = False
    result_sees: ClassVar[bool] = False
    signals_see: ClassVar[bool] = False

    @classmethod
    def for_variant(cls, variant: Any) -> type[HouseRuleDeal]:
        """The deal class playing by ``variant`` (made once per variant, by
        :attr:`turub.variants.Variant.deal_class`)."""
        decides_plays = bool(variant.decides(LEGAL_PLAYS.name))
        decides_tricks = bool(variant.decides(TRICK_WINNER.name))
        bound = {
            "__slots__": (), "__module__": cls.__module__, "variant": variant,
            "decides_plays": decides_plays, "decides_tricks": decides_tricks,
            "decides_result": bool(variant.decides(DEAL_RESULT.name)),
            "plays_see": variant.sees_game(LEGAL_PLAYS.name),
            "tricks_see": variant.sees_game(TRICK_WINNER.name),
            "result_sees": variant.sees_game(DEAL_RESULT.name),
            "decides_signals": bool(variant.decides(SIGNAL.name)),
            "signals_see": variant.sees_game(SIGNAL.name),
            "decides_caller": bool(variant.decides(TRUMP_CALLER.name)),
            # the variant's legal plays decide, in place of play.follow-suit
            "checks_follow_suit": not decides_plays,
            "play_rules": _told_where(play_askers(variant.label, variant.decides(LEGAL_PLAYS.name), drawable),
                                      variant) if decides_plays else None,
            "trick_rule": staticmethod(asker(variant.label, TRICK_WINNER.name,
                                             variant.decides(TRICK_WINNER.name)))
            if decides_tricks else None}
        made = type(f"Deal[{variant.name}]", (cls,), bound)
        made.__qualname__ = made.__name__
        return made

    def to_record(self) -> dict[str, Any]:
        """The record names the variant and its version (:meth:`Deal.replay` rebuilds
        the deal with it)."""
        return {**super().to_record(), "variant": self.variant.name,
                "variant_version": self.variant.version}

    def game(self, seat: Seat | None) -> Game:
        """What a rule reading the game sees now (:class:`~turub.decisions.Game`): ``seat``
        (the seat to act, or the trick's leader), the trick being played, the tricks
        completed, the rules and the dealer."""
        return game_at(seat, self.trick_count + 1, self.tricks_before, self.rules, self.dealer)

    def tricks_before(self, count: int | None) -> tuple[Any, ...]:
        """The first ``count`` tricks of :attr:`Deal.tricks` (``None``: all of them), as a
        rule reading the game is shown them (built when it first reads them)."""
        tricks = self.tricks
        return tricks if count is None else tricks[:count]

    # --- the hooks ---------------------------------------------------------------------

    def legal_plays(self, seat: Seat | None = None) -> tuple[Card, ...]:
        """:meth:`Deal.legal_plays` as the variant decides them."""
        if not self.decides_plays:
            return super().legal_plays(seat)
        if self.phase is not Phase.PLAYING or (seat is not None and seat != self.to_act):
            return ()
        hand = self.hand(self.to_act)  # type: ignore[arg-type]  # playing: a seat is to act
        legal, _ = self.variant.legal_plays(hand, [c for _, c in self.current_trick], self.trump,
                                            self.game(self.to_act) if self.plays_see else None)
        return tuple(c for c in CARDS if c in legal)

    def play(self, seat: Seat, card: Card | str) -> Any:
        """The standard checks of turn and hand first, then the house rule's refusal in
        place of ``play.follow-suit`` (the documented refusal order)."""
        if self.decides_plays and self.phase is Phase.PLAYING and seat == self.to_act:
            card = card if isinstance(card, Card) else parse_card(card)
            if self.holds(seat, card):
                trick = [c for _, c in self.current_trick]
                legal, clauses = self.variant.legal_plays(self.hand(seat), trick, self.trump,
                                                          self.game(seat) if self.plays_see else None)
                if card not in legal:
                    error = MustFollowSuitError if clauses[0] == "play.follow-suit" else IllegalActionError
                    raise error(f"{seat} may not play {card} here", clause=clauses[0])
        return Deal.play(self, seat, card)

    def decide_trick(self, leader: Seat, codes: tuple[int, ...], position: int, trump: int,  # type: ignore[override]
                     order: Any) -> TrickDecision:
        """:meth:`Deal.decide_trick` as the variant decides it."""
        if not self.decides_tricks:
            return super().decide_trick(leader, codes, position, trump, order)
        return self.variant.decide_trick([CARDS[c] for c in codes], SUITS[trump], leader,
                                         self.rules.direction, self.game(leader) if self.tricks_see else None)

    def decide_caller(self, dealer: Seat) -> Seat:
        """:meth:`Deal.decide_caller` as the variant decides it (the rule sees the dealer and
        the rules; the first packet goes to the seat it names)."""
        if not self.decides_caller:
            return super().decide_caller(dealer)
        return self.variant.trump_caller(dealer, self.rules)[0]

    @property
    def caller_clause(self) -> str:
        """:attr:`Deal.caller_clause`: the house clause where the variant's rule chose the
        caller, else ``trump.caller``."""
        if not self.decides_caller:
            return "trump.caller"
        return self.variant.trump_caller(self.dealer, self.rules)[1][0]

    def may_signal(self, seat: Seat, kind: str) -> str | None:
        """:meth:`Deal.may_signal` as the variant decides it (the game seen from the
        signalling seat, at the trick being played)."""
        if not self.decides_signals:
            return super().may_signal(seat, kind)
        return self.variant.may_signal(seat, self.leader, kind,  # type: ignore[arg-type]  # playing
                                       self.game(seat) if self.signals_see else None)

    def decide_result(self, north_south: int, east_west: int, closed_early: bool = False) -> Any:
        """:meth:`Deal.decide_result` as the variant decides it."""
        if not self.decides_result:
            return super().decide_result(north_south, east_west, closed_early)
        return self.variant.deal_result(north_south, east_west, closed_early=closed_early,
                                        rules=self.rules, dealer=self.dealer,
                                        game=game_at(None, None, self.tricks_before, self.rules, self.dealer)
                                        if self.result_sees else None)  # (the tricks built if read)

    def play_tricks(self, position: Position, rnd: Any) -> Seat:
        """:meth:`Deal.play_tricks`: the tricks left at random, as the standard playout plays
        them but asking the house rules that decide the plays (by kind of play:
        :func:`turub.decisions.play_askers`) and the tricks (:func:`turub.decisions.asker`).
        Only those pay: a play rule only at the kinds of play it applies to (the hand it is
        shown built there, unless it is asked at most plays); a trick rule alone is asked
        once a trick from the standard playout's own loop (:mod:`turub.playout`); a rule
        reading the game is given a view built where it is asked; and wherever a rule
        defers, the standard draw and trick table serve, from the same random numbers."""
        if not (self.decides_plays or self.decides_tricks):
            return super().play_tricks(position, rnd)
        trump = SUITS[position.trump]
        seen = _seen(self) if self.plays_see or self.tricks_see else None  # (made only for a rule reading it)
        decide = _trick_rule(self.variant, self.trick_rule, trump, position.tricks,
                             seen if self.tricks_see else None) if self.trick_rule is not None else None
        if self.play_rules is None:  # a trick rule, reading the game or not: the standard loop
            return playout.random_tricks(position, rnd, decide)
        return _plays_by(self.variant, position, rnd, self.play_rules, trump, decide,
                         seen if self.plays_see else None)


def _told_where(asks: dict[str, Any], variant: Any) -> dict[str, Any]:
    """The askers by kind of play (:func:`turub.decisions.play_askers`) as the playout calls
    them: where a rule deciding the plays reads the game, every asker is told where it is
    asked (the seat, the trick's number, the game's other fields), so one whose rules do not
    read it is given a front that leaves that out (each asker of one rule that does not read
    the game takes the decision's arguments alone)."""
    if not variant.sees_game(LEGAL_PLAYS.name):
        return asks
    clauses = variant.decides(LEGAL_PLAYS.name)
    return {kind: ask if ask is None or any(sees_game(vc.rule) for vc in clauses if kind in vc.plays)
            else _without_where(ask) for kind, ask in asks.items()}


def _without_where(ask: Callable[..., Any]) -> Callable[..., Any]:
    """``ask``, told where it is asked, asking with the decision's arguments alone."""
    def asked(hand: Any, trick: Any, trump: Any, seat: Any, number: Any, seen: Any) -> Any:
        return ask(hand, trick, trump)
    return asked


#: What :func:`_seen` gives: the game's fields a deal's playout passes its askers
#: (``rules, dealer, tricks_of``, :func:`turub.decisions.asker`).
Seen = tuple[Any, Seat, Callable[[int | None], tuple[Any, ...]]]


def _seen(deal: HouseRuleDeal) -> Seen:
    """What :meth:`HouseRuleDeal.game` reads of the deal, for the random playout's askers to
    build the game at each ask (as :func:`turub.decisions.game_at` does): its rules, its
    dealer, and how its tricks are given when a rule reads them (each count's once, then
    looked up: asked again within a trick, and by every later view that reads them)."""
    return deal.rules, deal.dealer, _TricksBefore(deal).__getitem__


class _TricksBefore(dict):  # type: ignore[type-arg]
    """The deal's first ``count`` tricks by ``count``, as :meth:`HouseRuleDeal.tricks_before`
    gives them, built when first asked (a key missing) and kept: a trick once complete never changes, and a
    view only asks for the tricks complete when it was built.  Reading a kept count is
    the dictionary's own lookup, no Python call."""

    __slots__ = ("deal",)

    def __init__(self, deal: HouseRuleDeal) -> None:
        super().__init__()
        self.deal = deal

    def __missing__(self, count: int | None) -> tuple[Any, ...]:
        tricks = self.deal.tricks
        if count is None:  # all of them (a view after the deal): not kept, the deal may go on
            return tricks
        tricks = self[count] = tricks[:count]  # (the same tuple where all are asked for)
        return tricks


def _plays_by(variant: Any, position: Position, rnd: Any, asks: Any, trump: Any, decide: Any,
              seen: Seen | None) -> Seat:
    """The tricks left, each play asked of the rules of its kind (``asks``,
    :func:`turub.decisions.play_askers`; given where it is asked, and ``seen``, :func:`_seen`,
    for a rule reading the game): if none answers, :mod:`turub.playout`'s draw,
    else :func:`_drawn_by`; each trick to ``decide`` if given, else the table.  The last
    winner.  The hand a rule is shown is kept play by play where a rule is asked at the plays
    following suit (most of a deal's), else built where it is asked (:func:`_hand_view`);
    the trick so far grows a card at a time (a tuple: shown as it is)."""
    hands, beats, nxt, order, done, won, leader, _ = position
    ask_lead, ask_follow, ask_void = asks["lead"], asks["follow"], asks["void"]
    held = [_in_hand_order(hand) for hand in hands] if ask_follow is not None else None
    for left in range(36 - len(done), 0, -1):  # every hand holds ``left`` cards before a trick
        number, hand = 37 - left, hands[leader]  # the trick being played
        asked = None
        if ask_lead is not None:
            view = tuple(held[leader]) if held is not None else _hand_view(hand)
            asked = ask_lead(view, (), trump) if seen is None else ask_lead(view, (), trump, leader, number, seen)
        if asked is None:
            i = int(rnd() * left)  # the standard draw: any card
            for suit in hand:
                if i < len(suit):
                    break
                i -= len(suit)
            best = suit.pop(i)
        else:
            best = _drawn_by(variant, asked, view, rnd, ()).index
            (suit := hand[best // 9]).remove(best)  # per suit, 9 cards a suit
        if held is not None:
            (mine := held[leader]).remove(CARDS[best])
            if not suit:  # a suit ran out: the others may alternate in colour anew (pack.sort-hand)
                held[leader] = _after_running_out(mine, best // 9, hand)
        cards: tuple[Card, ...] = (CARDS[best],)  # the trick so far, as a rule sees it
        led, codes, winning, seat = best // 9, [best], 0, nxt[leader]
        for k in (1, 2, 3):
            hand = hands[seat]
            suit = hand[led]
            ask = ask_follow if suit else ask_void
            asked = None
            if ask is not None:
                view = tuple(held[seat]) if held is not None else _hand_view(hand)
                asked = ask(view, cards, trump) if seen is None else ask(view, cards, trump, seat, number, seen)
            if asked is None:
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
            else:
                code = _drawn_by(variant, asked, view, rnd, suit).index
                (suit := hand[code // 9]).remove(code)
            if held is not None:
                (mine := held[seat]).remove(CARDS[code])
                if not suit:
                    held[seat] = _after_running_out(mine, code // 9, hand)
            if beats[36 * code + best]:  # trick.*: the card now winning
                best, winning = code, k
            codes.append(code)
            cards += (CARDS[code],)
            seat = nxt[seat]
        clauses = None
        if decide is not None:
            winning, clauses = decide(cards, winning, leader)
        done.append((leader, tuple(codes), None, winning, clauses))
        leader = order[leader][winning]  # play.winner-leads
        won[leader & 1] += 1
    return leader


_HAND_ORDER: Final = HAND_ORDER  # the order of the suits in a hand, by the suits held


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


#: The suits of a hand in the order it shows them (``pack.sort-hand``), as numbers, by the
#: suits held (as :data:`_HAND_ORDER`).
_SUIT_ORDER: Final = tuple(tuple(int(s) for s in order) for order in _HAND_ORDER)


def _hand_view(suits: list[list[int]]) -> tuple[Card, ...]:
    """:func:`_in_hand_order` as the tuple a rule is shown, built at once (where the
    hand is not kept play by play)."""
    held = (1 if suits[0] else 0) | (2 if suits[1] else 0) | (4 if suits[2] else 0) | (8 if suits[3] else 0)
    return tuple([CARDS[code] for suit in _SUIT_ORDER[held] for code in suits[suit]])


def _drawn_by(variant: Any, asked: tuple[tuple[frozenset[Card], list[Card]], Any], mine: tuple[Card, ...],
              rnd: Any, following: Sequence[int]) -> Card:
    """A card drawn uniformly, copy by copy, from those the house rule allows (``asked``:
    its answer checked, :func:`turub.decisions.drawable`, and its clause) of the hand it was
    shown (``mine``), counted for ``turub simulate``'s tally against the standard draw's
    pool: the cards of the led suit held (``following``, their codes), else the whole hand."""
    (_, copies), vc = asked
    tally = variant.tallying
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


def _trick_rule(variant: Any, ask: Any, trump: Any, done: Sequence[Any], seen: Seen | None = None) -> Any:
    """The winning position of a trick as the house rules decide it (``ask``), given its
    cards, the standard position (when every rule defers) and its leader (for a rule that
    reads the game: ``seen``, :func:`_seen`, the game at the leader once the tricks ``done``
    are complete), and the clauses that decided it (``None``: the standard ones)."""

    def decide(cards: tuple[Card, ...], standard: int, leader: Seat | None = None
               ) -> tuple[int, tuple[str, ...] | None]:
        asked = ask(cards, trump) if seen is None or leader is None else \
            ask(cards, trump, leader, len(done) + 1, seen)
        if asked is None:
            return standard, None
        if variant.tallying is not None:
            variant.count_decision(TRICK_WINNER.name, asked, lambda: standard)
        return asked[0], (asked[1].id,)
    return decide
