"""One deal as a state machine: the deal, the trump call, 36 tricks, signals, the result.

A :class:`Deal` takes actions from the seat whose turn it is: :meth:`Deal.name_trump`,
:meth:`Deal.play`, :meth:`Deal.signal` and :meth:`Deal.close` (any seat).  Every action is
checked in full before anything changes, so a refused action (a :class:`RuleError` naming
its clause) leaves the deal exactly as it was.  Every decision (a trick won, the result)
names its clauses.  :meth:`Deal.to_record` gives a JSON record that :meth:`Deal.replay`
turns back into the same deal; :meth:`Deal.view` shows what one seat may see.
:meth:`Deal.play_out` plays the rest of a deal at random in one call, by the fast path of
:mod:`turub.playout` (simulations, differential play).

>>> deal = Deal.from_seed(7)
>>> deal.phase, deal.caller, deal.cutter, len(deal.view(deal.caller).hand), len(deal.view(Seat.NORTH).hand)
(<Phase.CALLING: 'calling'>, Seat.EAST, Seat.EAST, 3, 0)
>>> deal.name_trump(Seat.EAST, Suit.HEARTS)
>>> deal.phase, deal.to_act, [len(deal.view(s).hand) for s in Seat]
(<Phase.PLAYING: 'playing'>, Seat.EAST, [36, 36, 36, 36])

Inside, a played card is its code ``Card.index`` (0..35, see :data:`turub.cards.SUIT_OF`) and
each hand is kept in one of two forms: the checked form, for :meth:`Deal.play`,
:meth:`Deal.play_turn` and :meth:`Deal.legal_plays`: one list per seat holding the copies held
of each card code, then per suit a 9-bit mask of the cards held (bit ``i``: the suit's
``i``-th code), an always-empty mask (read when a card leads: no suit to follow), and the
seat's legal plays when it leads or is void (kept until its hand changes), so that whether a
card is held and whether the seat must follow suit are read in constant time and a seat's
legal plays are a tuple looked up by its mask (:data:`_SUITED`), never built card by card; the
legal plays of the seat to act are kept until a card is played; and
for :meth:`Deal.play_out` (:mod:`turub.playout`), a sorted list of card codes, from which a
random legal card is drawn in constant time.  A deal's hands are dealt straight into the form
its first reader wants, and each form is built from the other when the deal switches between
them; the public methods take and give :class:`Card` and :class:`Seat` values.
"""

from __future__ import annotations

import copy
import random
from bisect import bisect_left
from itertools import compress
from collections.abc import Iterable, Mapping, Sequence
from operator import attrgetter
from typing import Any, Final

from .cards import CARDS, HAND_ORDER, SUIT_OF, SUIT_START, SUITS, Card, Suit, card_name, parse_suit
from . import argument_checks, playout, records
from .errors import (CardFormatError, CardNotHeldError, MustFollowSuitError, OutOfTurnError,
                     PhaseError, RecordError, RuleError, SignalError, TrumpCallError)
from .options import Rules
from .playout import CompletedTrick, Position
from .rules import (PACKET_SIZE, TRICKS_PER_DEAL, DealResult, TrickDecision, beats_table,
                    deal_result, decision_at)
from .views import SIGNALS, Phase, SeatView, Signal, Trick
from .records import RECORD_FORMAT
from .seats import PLAY_ORDER, SEATS, Direction, Seat

__all__ = ["Phase", "Signal", "Trick", "SeatView", "Deal", "SIGNALS", "RECORD_FORMAT",
           "play_random_deal"]

_CARD: Final = CARDS.__getitem__  # a card code to its Card
_TUPLE: Final = tuple.__new__  # a named tuple's fields given at once, as its own __new__ gives them


def _cards(codes: Iterable[int]) -> tuple[Card, ...]:
    return tuple(map(_CARD, codes))


def _by_suit(codes: list[int]) -> list[list[int]]:
    """Sorted card codes split into four lists, one per suit."""
    hearts, diamonds, clubs = (bisect_left(codes, first) for first in SUIT_START[1:])
    return [codes[:hearts], codes[hearts:diamonds], codes[diamonds:clubs], codes[clubs:]]


def _subsets(first: int) -> tuple[tuple[Card, ...], ...]:
    """Per 9-bit mask, the cards of the suit whose codes start at ``first`` that the mask's
    bits name (bit ``i``: code ``first + i``), in code order (the order of CARDS)."""
    table: list[tuple[Card, ...]] = [()] * 512
    for mask in range(1, 512):
        low = mask & -mask
        table[mask] = (CARDS[first + low.bit_length() - 1],) + table[mask ^ low]
    return tuple(table)


# A checked hand (see the module documentation): a list of the copies held of each card code
# (items 0-35), the suits' masks (items 36-39, suit s at 36 + s), an empty mask (item 40,
# _NO_LED: the deal's ``_led`` while no card is led), the legal plays when leading or void
# (item 41, _EVERY: None until asked, again once the hand changes), the seat holding it (item
# 42, _SEAT), the number of the seat after it (item 43, _NEXT: where its hand is in the list
# of the deal's checked hands) and its side's number (item 44, _SIDE), so that the hot path
# never indexes by a Seat; and the seat's number (item 45, _NUMBER).
_NO_LED: Final = 40
_EVERY: Final = 41
_SEAT: Final = 42
_NEXT: Final = 43
_SIDE: Final = 44
_NUMBER: Final = 45
#: Where each card code's suit mask sits in a checked hand (36 + its suit).
_MASK_AT: Final = tuple(36 + suit for suit in SUIT_OF)
#: A seat's distinct cards of one suit, by where the suit's mask sits in a checked hand (36 +
#: the suit) and the mask: a seat's legal plays when it follows suit, looked up, never built.
_SUITED: Final = ((),) * 36 + tuple(_subsets(first) for first in SUIT_START)
_SPADES, _HEARTS, _DIAMONDS, _CLUBS = _SUITED[36:]  # (one look-up less where the suit is known)
#: The bit of each card code in its suit's mask, and in a hand's 36-bit mask.
_BIT: Final = tuple(1 << (code - SUIT_START[SUIT_OF[code]]) for code in range(36))
_BIT36: Final = tuple(1 << code for code in range(36))


#: The stock's cards the k-th seat from the caller is dealt: three slices, one per card of a packet.
_PACKETS: Final = tuple((slice(3 * k, None, 12), slice(3 * k + 1, None, 12), slice(3 * k + 2, None, 12))
                        for k in range(4))
#: The items after the suits' masks in a checked hand, by its seat and the seat after it.
_HAND_TAILS: Final = tuple(tuple((0, None, seat, int(after), seat & 1, int(seat)) for after in SEATS)
                           for seat in SEATS)


def _every_legal(hand: list[Any]) -> tuple[Card, ...]:
    """The distinct cards of a checked hand (the legal plays when its seat leads or is void),
    kept in the hand until it changes."""
    cards = hand[_EVERY] = _SPADES[hand[36]] + _HEARTS[hand[37]] + _DIAMONDS[hand[38]] + _CLUBS[hand[39]]
    return cards  # type: ignore[no-any-return]


#: Per trump suit, :func:`turub.rules.beats_table`, and per card code whether each card code
#: played after it takes the trick from it (``row[challenger]``: the table read by rows), built once.
_TABLES: Final[list[tuple[bytes, tuple[tuple[bool, ...], ...]] | None]] = [None, None, None, None]


def _beats_tables(trump: int) -> tuple[bytes, tuple[tuple[bool, ...], ...]]:
    tables = _TABLES[trump]
    if tables is None:
        table = beats_table(trump)
        tables = _TABLES[trump] = (table, tuple(tuple(bool(table[36 * challenger + holder])
                                                      for challenger in range(36)) for holder in range(36)))
    return tables


#: The standard trick decisions made so far, by trump, winning card code, position, seat and
#: whether the winning card has a twin in the trick (all a decision is made of): a completed
#: trick's TrickDecision, an immutable value, is built once per outcome and shared.
_DECIDED: Final[dict[int, TrickDecision]] = {}

#: Per direction of play, the order of play from each seat and the seat after each.
_SEATING: Final = {d: (order, tuple(order[s][1] for s in range(4))) for d, order in PLAY_ORDER.items()}
_CLOCKWISE: Final = Direction.CLOCKWISE  # the default, read without hashing an Enum
_CLOCKWISE_SEATING: Final = _SEATING[_CLOCKWISE]

_seat = argument_checks.seat
_card = argument_checks.card
#: The code of each card, by the card and by the names :func:`turub.cards.card_name` gives it:
#: the hot path's reading of a card argument (anything else goes through ``_card``).
_CODES: Final[dict[object, int]] = {**{c: c.index for c in CARDS},
                                    **{card_name(c, ascii=a): c.index for c in CARDS for a in (False, True)}}
_PLAYING: Final = Phase.PLAYING  # bound once for the hot paths (an Enum's member is slow to read)
_CALLING: Final = Phase.CALLING


class Deal:
    """The state machine of one deal.  See the module documentation."""

    __slots__ = ("rules", "dealer", "caller", "cut", "_pack", "_stock", "_dealt", "_card_codes",
                 "_held", "_hand", "_legal", "_phase", "_trump", "_beats", "_rows", "_top", "_win_hand", "_to_act", "_leader",
                 "_trick", "_led", "_winning", "_signal", "_tricks", "_built", "_won", "_result",
                 "_closed_by", "_play_order", "_seat_after")

    # The hooks of the decisions a house rule may override (turub.decisions: each decision's
    # ``hooks``; turub.house_rule_deal.HouseRuleDeal overrides them): the standard ones here.
    #: Whether :meth:`play` refuses a card that does not follow suit (``play.follow-suit``);
    #: a deal whose house rule decides the legal plays checks them itself.
    checks_follow_suit = True
    #: The decision of a completed trick of card ``codes`` led by ``leader``, the card at
    #: ``position`` winning by the table, under the trump suit's number ``trump`` and the
    #: ``order`` of play from each seat: ``(leader, codes, position, trump, order)``.
    decide_trick = staticmethod(decision_at)

    def __init__(self, pack: Sequence[Card], dealer: Seat = Seat.NORTH, rules: Rules = Rules(),
                 cut: int = 0) -> None:
        """A deal of ``pack`` (top card first) by ``dealer``, cut ``cut`` cards from the top.

        ``deal.shuffle`` is the caller's (see :meth:`from_seed`); ``deal.cut``: the player
        after the dealer (:attr:`cutter`) moves the top ``cut`` cards under the rest;
        ``deal.packets``: packets of three from the seat after the dealer;
        ``deal.pause-for-trump``: dealing stops after the first packet.
        """
        pack = argument_checks.pack(pack)
        if type(cut) is not int or not 0 <= cut < 144:
            raise RuleError(f"a cut lifts 0 to 143 cards, not {cut!r}", clause="deal.cut")
        if not isinstance(rules, Rules):
            argument_checks.rules(rules)
        self._setup(bytes(c.index for c in pack), _seat(dealer, "table.partnerships"), rules, cut)

    def _setup(self, pack: bytes, dealer: Seat, rules: Rules, cut: int) -> None:
        """Start the deal of a pack of card codes already checked, up to the pause for trump."""
        self.rules = rules
        self.dealer = dealer
        # the order of play from each seat, and the seat after each
        direction = rules.direction
        self._play_order, self._seat_after = _CLOCKWISE_SEATING if direction is _CLOCKWISE else _SEATING[direction]
        self.caller = self.decide_caller(dealer)  # trump.caller (a variant's hook may decide)
        self._pack = pack
        self.cut = cut
        self._stock = pack[cut:] + pack[:cut]
        self._dealt = 0
        # The hands, in one of two forms (the other is None): sorted lists of card codes, or
        # the checked hands.  See the module documentation.
        self._card_codes: list[list[list[int]]] | None = None
        self._held: list[list[Any]] | None = None
        self._hand: list[Any] | None = None  # the checked hand of the seat to act, once read
        self._legal: tuple[Card, ...] | None = None  # the seat to act's legal plays, once asked
        self._phase = _CALLING
        self._trump = -1  # the trump suit's number once named
        self._beats = b""
        self._rows: tuple[tuple[bool, ...], ...] = ()
        self._top: tuple[bool, ...] = ()  # the row (_TABLES) of the card winning the trick
        self._win_hand: list[Any] = []  # the checked hand of the seat winning the trick so far
        self._to_act: Seat | None = self.caller
        self._leader = self.caller
        self._trick: list[int] = []  # the codes played to the current trick
        self._led = _NO_LED  # where the led suit's mask sits in a checked hand
        self._winning = 0  # the position of the card winning the current trick so far
        self._signal: Signal | None = None
        # Completed tricks, compact (turub.playout.CompletedTrick: leader, card codes, signal,
        # winning position, clauses).  The ``tricks`` property builds Trick values from them,
        # once each, asking no rule again.
        self._tricks: list[CompletedTrick] = []
        self._built: list[Trick] = []
        self._won = [0, 0]
        self._result: DealResult | None = None
        self._closed_by: Seat | None = None
        self._deal_packets(1)

    @classmethod
    def from_seed(cls, seed: int, dealer: Seat = Seat.NORTH, rules: Rules = Rules()) -> Deal:
        """A deal shuffled and cut from ``seed`` (``deal.shuffle``, ``deal.cut``).

        Deterministic: the same seed always gives the same deal; no global random state.
        """
        return cls._seeded(seed, dealer, rules)[0]

    @classmethod
    def _seeded(cls, seed: int, dealer: Seat, rules: Rules) -> tuple[Deal, random.Random]:
        """:meth:`from_seed`, and the random source it shuffled with (to go on drawing from)."""
        if type(seed) is not int:
            raise RuleError(f"a seed is a whole number, not {seed!r:.40}", clause="deal.shuffle")
        seat = _seat(dealer, "table.partnerships")
        if not isinstance(rules, Rules):
            argument_checks.rules(rules)
        rng = random.Random(seed)
        # A uniform shuffle: sort the pack by 144 independent random 64-bit keys (a tie, which
        # would favour the earlier card, has probability below 1e-15).  Same result as a
        # Fisher-Yates shuffle in distribution, several times faster in CPython.  A seed must
        # name the same deal in every version (records, vectors): this never changes.
        pack = playout.keyed_pack(rng.randbytes(8 * 144))
        deal = cls.__new__(cls)  # a permutation of PACK needs no check of its composition
        deal._setup(pack, seat, rules, rng.randrange(1, 144))
        return deal, rng

    @classmethod
    def shuffled(cls, rng: random.Random, dealer: Seat = Seat.NORTH, rules: Rules = Rules()) -> Deal:
        """A deal shuffled and cut by ``rng`` (``deal.shuffle``, ``deal.cut``), for runs of
        random deals: the same uniform shuffle as :meth:`from_seed`, by a faster route
        (:func:`turub.playout.shuffled_pack`)."""
        seat = _seat(dealer, "table.partnerships")
        if not isinstance(rules, Rules):
            argument_checks.rules(rules)
        deal = cls.__new__(cls)  # a permutation of the pack needs no check of its composition
        deal._setup(playout.shuffled_pack(rng), seat, rules, rng.randrange(1, 144))
        return deal

    def decide_caller(self, dealer: Seat) -> Seat:
        """The hook of who names trump (``trump.caller``): the seat after ``dealer``
        (``table.left-of-dealer``), who receives the first packet and leads the first trick
        (a variant's ``trump_caller`` rule decides in
        :class:`turub.house_rule_deal.HouseRuleDeal`)."""
        return self._seat_after[dealer]

    @property
    def caller_clause(self) -> str:
        """The clause that chose :attr:`caller` (``trump.caller``, or a variant's house clause):
        a call by anyone else is refused naming it."""
        return "trump.caller"

    # --- dealing ----------------------------------------------------------------------

    def _deal_packets(self, n: int) -> None:
        """Deal ``n`` more packets of three, going round from the caller (``deal.packets``)."""
        self._dealt += PACKET_SIZE * n
        # The hands are built from the stock when first read, straight into the form the first
        # reader wants (the list form for play_out, the checked form for play): neither yet.
        self._card_codes = self._held = self._hand = None

    def _dealt_codes(self) -> list[bytes]:
        """Each seat's card codes as dealt (the packets dealt so far), in no particular order."""
        # Packet p goes to the p-th seat (mod 4) from the caller (_PACKETS).
        stock = self._stock[:self._dealt]
        hands = [b"", b"", b"", b""]
        for seat, (one, two, three) in zip(self._play_order[self.caller], _PACKETS):
            hands[seat] = stock[one] + stock[two] + stock[three]
        return hands

    def _as_lists(self) -> list[list[list[int]]]:
        """The hands as, per suit, a sorted list of card codes (the form :meth:`play_out` draws from)."""
        if self._card_codes is None:
            if self._held is None:  # just dealt
                self._card_codes = [_by_suit(sorted(codes)) for codes in self._dealt_codes()]
            else:
                self._card_codes = [[[c for c in range(first, first + 9) for _ in range(copies[c])]
                                     for first in SUIT_START] for copies in self._held]
            self._held = self._hand = None
        return self._card_codes

    def _as_checked(self) -> list[list[Any]]:
        """The hands as checked hands (what :meth:`play` checks against; see the module
        documentation)."""
        if self._held is None:
            held: list[list[Any]] = [[0] * 36, [0] * 36, [0] * 36, [0] * 36]
            if self._card_codes is None:  # just dealt: counted straight from the stock
                # Packet p goes to the p-th seat (mod 4) from the caller: the k-th seat from
                # the caller holds the stock's cards 12r+3k .. 12r+3k+2 (as far as it is dealt).
                stock = self._stock[:self._dealt]
                for seat, (one, two, three) in zip(self._play_order[self.caller], _PACKETS):
                    copies = held[seat]
                    for code in stock[one] + stock[two] + stock[three]:
                        copies[code] += 1
            else:
                for copies, hand in zip(held, self._card_codes):
                    for suit in hand:
                        for code in suit:
                            copies[code] += 1
            after = self._seat_after
            for seat in SEATS:  # the suits' masks, then the items after them
                copies = held[seat]
                mask = sum(compress(_BIT36, copies))
                copies += (mask & 511, mask >> 9 & 511, mask >> 18 & 511, mask >> 27)
                copies += _HAND_TAILS[seat][after[seat]]
            self._held = held
            self._card_codes = None
        return self._held

    def _hand_now(self) -> list[Any]:
        """The checked hand of the seat to act, kept in ``_hand`` until the turn passes (``_hand``
        is None whenever no card may be played: this raises PhaseError then)."""
        if self._phase is not _PLAYING:
            raise PhaseError("cards are played only after trump is named and before the deal ends"
                             if self._phase is Phase.CALLING else "the deal is over")
        hand = self._hand = self._as_checked()[self._to_act]  # type: ignore[index]
        return hand

    def _legal_now(self) -> tuple[Card, ...]:
        """The legal plays of the seat to act, looked up in its checked hand and kept until a
        card is played (``play.follow-suit``, ``play.void-any-card``); none unless playing."""
        if self._phase is not _PLAYING:
            return ()
        hand = self._hand or self._hand_now()
        led = self._led
        held = hand[led]
        self._legal = legal = _SUITED[led][held] if held else (hand[_EVERY] or _every_legal(hand))
        return legal

    def _codes(self, seat: Seat) -> list[int]:
        """The codes of the cards ``seat`` holds, sorted, whatever the form of the hands."""
        if self._card_codes is None and self._held is None:
            self._as_lists()
        if self._card_codes is not None:
            return [code for suit in self._card_codes[seat] for code in suit]
        copies = self._held[seat]  # type: ignore[index]
        return [c for c in range(36) for _ in range(copies[c])]

    # --- reading the state ----------------------------------------------------------------

    @property
    def cutter(self) -> Seat:
        """The seat that cuts the pack: the player after the dealer (``deal.cut``)."""
        return self._seat_after[self.dealer]

    @property
    def pack(self) -> tuple[Card, ...]:
        """The pack as shuffled, top card first, before the cut."""
        return _cards(self._pack)

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def trump(self) -> Suit | None:
        return None if self._trump < 0 else SUITS[self._trump]

    #: The seat whose turn it is: to name trump, or to play; ``None`` when finished (read-only;
    #: read in C, no Python frame: a card-by-card loop reads it at every card).
    to_act = property(attrgetter("_to_act"),
                      doc="The seat whose turn it is: to name trump, or to play; ``None`` when finished.")

    @property
    def leader(self) -> Seat:
        """The leader of the current trick."""
        return self._leader

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks, in order (built from what decided them: no rule is asked
        again)."""
        built = self._built
        if len(built) < len(self._tricks):
            trump, order = self._trump, self._play_order
            for leader, codes, signal, position, clauses in self._tricks[len(built):]:
                # TrickDecision(...) and Trick(...), their tuples made at once (a rule reading
                # the game builds one a trick); a completed trick holds four cards (play.turn)
                decision = decision_at(leader, codes, position, trump, order) if clauses is None \
                    else _TUPLE(TrickDecision, (position, order[leader][position], CARDS[codes[position]], clauses))
                first, second, third, fourth = codes
                built.append(_TUPLE(Trick, (leader, (CARDS[first], CARDS[second], CARDS[third], CARDS[fourth]),
                                            order[leader], signal, decision)))
        return tuple(built)

    @property
    def trick_count(self) -> int:
        """How many tricks are complete (``len(deal.tricks)`` without building them)."""
        return len(self._tricks)

    @property
    def current_trick(self) -> tuple[tuple[Seat, Card], ...]:
        return tuple(zip(self._play_order[self._leader], _cards(self._trick)))

    @property
    def current_signal(self) -> Signal | None:
        """The signal given to the current trick, if any (``signal.timing``)."""
        return self._signal

    @property
    def winning_position(self) -> int | None:
        """The position in the current trick of the card winning it so far (``None``: no
        card played to it yet)."""
        return self._winning if self._trick else None

    @property
    def closed_by(self) -> Seat | None:
        """The seat that closed the deal early (``sheet.any-player-closes``), if one did."""
        return self._closed_by

    @property
    def tricks_won(self) -> tuple[int, int]:
        """Tricks taken so far by North-South and East-West."""
        return (self._won[0], self._won[1])

    @property
    def result(self) -> DealResult | None:
        return self._result

    @property
    def stock(self) -> tuple[Card, ...]:
        """The cards not yet dealt (all but three while trump is being named)."""
        return _cards(self._stock[self._dealt:])

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        """The cards ``seat`` holds, sorted (``pack.sort-hand``)."""
        # the codes sorted lie suit by suit, each highest rank first: shown in the order of
        # the suits held, they are the hand sorted (sort_hand's order)
        suits = _by_suit(self._codes(_seat(seat, "table.partnerships")))
        held = (1 if suits[0] else 0) | (2 if suits[1] else 0) | (4 if suits[2] else 0) | (8 if suits[3] else 0)
        return tuple([CARDS[code] for suit in HAND_ORDER[held] for code in suits[suit]])

    def holds(self, seat: Seat, card: Card) -> int:
        """How many copies of ``card`` ``seat`` holds."""
        hand = self._codes(_seat(seat, "table.partnerships"))
        code = _card(card).index
        i = bisect_left(hand, code)
        return bisect_left(hand, code + 1, i) - i

    def legal_plays(self, seat: Seat | None = None) -> tuple[Card, ...]:
        """The distinct cards ``seat`` (by default the seat to act) may play now.

        Empty unless it is that seat's turn to play.  ``play.follow-suit``,
        ``play.void-any-card``.
        """
        if seat is not None and seat is not self._to_act:
            seat = _seat(seat, "table.partnerships")
            if seat is not self._to_act:
                return ()
        return self._legal or self._legal_now()  # kept until a card is played

    def view(self, seat: Seat) -> SeatView:
        """What ``seat`` may see now.  The caller's view at the call holds three cards."""
        seat = _seat(seat, "table.partnerships")
        return SeatView(
            seat=seat, phase=self._phase, dealer=self.dealer, caller=self.caller,
            trump=self.trump, hand=self.hand(seat),
            hand_sizes=tuple(len(self._codes(s)) for s in SEATS),  # type: ignore[arg-type]
            to_act=self._to_act, current_trick=self.current_trick, signal=self._signal,
            tricks=self.tricks, tricks_won=self.tricks_won, legal=self.legal_plays(seat),
            result=self._result, cutter=self.cutter)

    # --- actions -----------------------------------------------------------------------

    def name_trump(self, seat: Seat, suit: Suit | str) -> None:
        """``seat`` names ``suit`` trump, and dealing resumes.

        ``trump.caller``: only the seat after the dealer calls; ``trump.three-cards``: it has
        seen its first packet only; ``trump.any-suit``: any of the four suits may be named,
        and nothing else; ``trump.once``: once per deal.  Then ``deal.full-hands``: the rest
        is dealt, the dealer's final packet is three (``deal.dealer-check``, always so when
        the engine deals), and ``play.first-lead``: the caller leads.
        """
        if self._phase is not _CALLING:
            if self._trump >= 0:
                raise TrumpCallError(f"trump is already {SUITS[self._trump].symbol}: it is named once",
                                     clause="trump.once")
            raise PhaseError("the deal is over: no trump can be named")
        if type(seat) is not Seat:
            seat = _seat(seat, "trump.caller")
        if seat is not self.caller:
            clause = self.caller_clause
            raise TrumpCallError(f"{seat} cannot name trump: {self.caller}, after the dealer, does"
                                 if clause == "trump.caller" else
                                 f"{seat} cannot name trump: {self.caller} does ({clause})", clause=clause)
        if type(suit) is not Suit:
            try:
                suit = parse_suit(suit)  # type: ignore[arg-type]
            except CardFormatError:
                raise TrumpCallError(f"{suit!r:.40} is not a suit: trump is one of the four suits "
                                     "(♠ ♥ ♦ ♣), nothing else", clause="trump.any-suit") from None
        self._trump = trump = int(suit)
        self._beats, self._rows = _TABLES[trump] or _beats_tables(trump)
        self._deal_packets(144 // PACKET_SIZE - 1)
        self._phase = _PLAYING
        self._to_act = self.caller

    def play(self, seat: Seat, card: Card | str) -> TrickDecision | None:
        """``seat`` plays ``card``; returns the trick's decision when it completes a trick.

        ``play.turn``, ``play.card-in-hand``, ``play.follow-suit`` (``play.void-any-card``:
        void, any card), then ``trick.*`` decides the trick, ``play.winner-leads``, and after
        36 tricks ``result.*`` decides the deal.
        """
        hand = self._hand or self._hand_now()  # play.* only while playing (else PhaseError)
        if seat is not self._to_act:
            seat = _seat(seat, "play.turn")
            if seat is not self._to_act:
                raise OutOfTurnError(f"it is {self._to_act}'s turn, not {seat}'s")
        try:
            code = _CODES[card]
        except (KeyError, TypeError):
            code = _card(card).index
        copies = hand[code]
        if copies == 0:
            raise CardNotHeldError(f"{seat} holds no {CARDS[code]}")
        suit = _MASK_AT[code]
        led = self._led
        if suit != led and hand[led] and self.checks_follow_suit:  # leading: hand[_NO_LED] is 0
            raise MustFollowSuitError(
                f"{seat} holds {SUITS[led - 36].symbol} and must follow suit, not play {CARDS[code]}")
        # Checked: from here on the state changes.
        hand[code] = copies - 1
        if copies == 1:  # its last copy: the suit's mask and the seat's legal plays change
            hand[suit] ^= _BIT[code]
            hand[_EVERY] = None
        trick = self._trick
        if led == _NO_LED:
            self._led = led = suit
            self._winning = 0
            self._top = self._rows[code]
            self._win_hand = hand
        elif self._top[code]:  # trick.*: the card now winning
            self._winning = len(trick)
            self._top = self._rows[code]
            self._win_hand = hand
        trick.append(code)
        if len(trick) < 4:  # the turn passes (the checked hands know the seat after each)
            self._hand = hand = self._held[hand[_NEXT]]  # type: ignore[index]
            self._to_act = hand[_SEAT]
            held = hand[led]
            self._legal = _SUITED[led][held] if held else (hand[_EVERY] or _every_legal(hand))
            return None
        return self._complete_trick()

    def play_turn(self, card: Card | str) -> tuple[Card, ...]:
        """The seat to act plays ``card``; returns the cards the next seat to act may play
        (:meth:`legal_plays`), empty once the deal is over.  One call a card:

        >>> deal = Deal.from_seed(7)
        >>> deal.name_trump(Seat.EAST, Suit.HEARTS)
        >>> legal = deal.legal_plays()
        >>> while legal:
        ...     legal = deal.play_turn(legal[0])
        >>> deal.phase, sum(deal.result.tricks)
        (<Phase.FINISHED: 'finished'>, 36)

        Every card is checked as :meth:`play` checks it (``play.turn`` is the seat to act by
        construction; ``play.card-in-hand``, ``play.follow-suit``) before anything changes;
        the tricks, the decisions and the result are :meth:`play`'s.  The trick's
        :class:`TrickDecision` is not built here (:attr:`tricks` builds it when asked).  A
        subclass of :class:`Deal` plays through its hooks (:meth:`_play_turn_by_hooks`).
        """
        hand = self._hand or self._hand_now()  # only while playing (else PhaseError)
        try:
            code = _CODES[card]
        except (KeyError, TypeError):
            code = _card(card).index
        copies = hand[code]
        if copies == 0:
            raise CardNotHeldError(f"{self._to_act} holds no {CARDS[code]}")
        suit = _MASK_AT[code]
        led = self._led
        trick = self._trick
        if led == _NO_LED:  # the lead: any card held (play.void-any-card's "no suit to follow")
            hand[code] = copies - 1  # checked: from here on the state changes (as play changes it)
            if copies == 1:  # its last copy: the suit's mask and the seat's legal plays change
                hand[suit] ^= _BIT[code]
                hand[_EVERY] = None
            self._led = suit
            self._winning = 0
            self._top = self._rows[code]
            self._win_hand = hand
            trick.append(code)
            self._hand = hand = self._held[hand[_NEXT]]  # type: ignore[index]
            self._to_act = hand[_SEAT]
            held = hand[suit]
            legal = self._legal = _SUITED[suit][held] if held else (hand[_EVERY] or _every_legal(hand))
            return legal  # type: ignore[no-any-return]
        if suit != led and hand[led]:
            raise MustFollowSuitError(
                f"{self._to_act} holds {SUITS[led - 36].symbol} and must follow suit, not play {CARDS[code]}")
        hand[code] = copies - 1  # checked: from here on the state changes (as play changes it)
        if copies == 1:  # its last copy: the suit's mask and the seat's legal plays change
            hand[suit] ^= _BIT[code]
            hand[_EVERY] = None
        if self._top[code]:  # trick.*: the card now winning
            self._winning = len(trick)
            self._top = self._rows[code]
            self._win_hand = hand
        trick.append(code)
        if len(trick) < 4:  # the turn passes (the checked hands know the seat after each)
            self._hand = hand = self._held[hand[_NEXT]]  # type: ignore[index]
            self._to_act = hand[_SEAT]
            held = hand[led]
            legal = self._legal = _SUITED[led][held] if held else (hand[_EVERY] or _every_legal(hand))
            return legal  # type: ignore[no-any-return]
        # trick.*: the standard decision (the table's position), its clauses derived when asked
        tricks = self._tricks
        tricks.append((self._leader, trick, self._signal, self._winning, None))  # (never changed again)
        self._hand = hand = self._win_hand
        self._leader = self._to_act = hand[_SEAT]  # play.winner-leads
        self._won[hand[_SIDE]] += 1
        self._trick = []
        self._led = _NO_LED
        self._signal = None
        if len(tricks) == TRICKS_PER_DEAL:
            self._finish(self.decide_result(self._won[0], self._won[1]))
            return ()
        legal = self._legal = hand[_EVERY] or _every_legal(hand)
        return legal  # type: ignore[no-any-return]

    def _play_turn_by_hooks(self, card: Card | str) -> tuple[Card, ...]:
        """:meth:`play_turn` for a subclass (its hooks decide): :meth:`play`, then
        :meth:`legal_plays`."""
        self.play(self._to_act, card)  # type: ignore[arg-type]
        return self.legal_plays()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A subclass's :meth:`play_turn` goes through its hooks, unless it defines its own."""
        super().__init_subclass__(**kwargs)
        if cls.play_turn is Deal.play_turn:
            cls.play_turn = Deal._play_turn_by_hooks  # type: ignore[method-assign]

    def _complete_trick(self) -> TrickDecision:
        codes: Sequence[int] = self._trick  # kept as the trick's codes (never changed again)
        leader = self._leader
        if self.decide_trick is decision_at:  # the standard decision: one value per outcome, kept
            position = self._winning
            code = codes[position]
            key = ((((self._trump * 36 + code) << 2 | position) << 2 | self._win_hand[_NUMBER])
                   << 1 | (codes.count(code) > 1))
            decision = _DECIDED.get(key) or _DECIDED.setdefault(
                key, decision_at(leader, codes, position, self._trump, self._play_order))
        else:  # a house rule's hook is given a tuple
            codes = tuple(codes)
            decision = self.decide_trick(leader, codes, self._winning, self._trump, self._play_order)
        self._tricks.append((leader, codes, self._signal, decision.position, decision.clauses))
        self._won[decision.seat & 1] += 1
        self._trick = []
        self._led = _NO_LED
        self._signal = None
        self._leader = self._to_act = seat = decision.seat
        if len(self._tricks) == TRICKS_PER_DEAL:
            self._finish(self.decide_result(self._won[0], self._won[1]))
        else:  # the winner leads: any card it holds
            self._hand = hand = self._held[seat]  # type: ignore[index]
            self._legal = hand[_EVERY] or _every_legal(hand)
        return decision

    def decide_result(self, north_south: int, east_west: int, closed_early: bool = False) -> DealResult:
        """The hook of the deal's result (``result.*``): :func:`turub.rules.deal_result` under
        the deal's rules."""
        return deal_result(north_south, east_west, closed_early=closed_early, rules=self.rules)

    def play_out(self, rng: random.Random | None = None) -> DealResult:
        """Play the rest of the deal at random, in one call, and return its result.

        Each seat in turn plays a card drawn uniformly from the cards in its hand it may
        play, copy by copy: its cards of the led suit if it holds any (``play.follow-suit``),
        else any card (``play.void-any-card``); the leader any card.  The tricks are decided
        by the same table as :meth:`play` (``trick.*``), the winner leads
        (``play.winner-leads``), and after 36 tricks ``result.*`` decides.  No signals.
        ``rng`` (a ``random.Random``) draws the cards; by default a fresh, unseeded one.
        A trick already begun is finished through the checked step (:meth:`Deal.play`); the
        tricks after it by the fast path (:meth:`play_tricks`).
        """
        if self._phase is not _PLAYING:
            raise PhaseError("a deal is played out only after trump is named and before it ends")
        rng = rng if rng is not None else random.Random()
        if not isinstance(rng, random.Random):
            raise RuleError(f"rng must be a random.Random, not {rng!r}", clause="deal.shuffle")
        rnd = rng.random
        while self._trick:
            legal = self.legal_plays()
            # the checked step, the legal plays just given not asked again
            Deal.play(self, self._to_act, legal[int(rnd() * len(legal))])  # type: ignore[arg-type]
            if self._phase is not _PLAYING:
                return self._result  # type: ignore[return-value]
        position = Position(self._as_lists(), self._beats, self._seat_after, self._play_order, self._tricks,
                            self._won, self._leader, self._trump)
        self._leader = self._to_act = self.play_tricks(position, rnd)
        self._finish(self.decide_result(self._won[0], self._won[1]))
        return self._result  # type: ignore[return-value]

    def play_tricks(self, position: Position, rnd: Any) -> Seat:
        """The hook of the fast playout: the tricks left from ``position`` (no trick begun),
        drawn by ``rnd``; returns the last winner (:func:`turub.playout.random_tricks`)."""
        return playout.random_tricks(position, rnd)

    def signal(self, seat: Seat, kind: str) -> Signal:
        """The trick's leader signals about the suit led.

        ``signal.leader-only``: only the current trick's leader; ``signal.timing``: after
        the lead, before the next card; ``signal.once-per-trick``; ``signal.kinds``: any
        kind the table uses, named by a non-empty word (the knock, strong, and the click,
        weak, are the documented ones); under ``signal-kinds=documented`` only those two.
        """
        if self._phase is not Phase.PLAYING:
            raise PhaseError("signals are given only while tricks are played")
        if type(kind) is not str or not kind.strip():
            raise SignalError(f"{kind!r:.40} is not a signal: a signal is named by a non-empty word",
                              clause="signal.kinds")
        if kind not in SIGNALS and self.rules.signal_kinds == "documented":
            raise SignalError(f"{kind!r:.40} is not a documented signal: under signal-kinds=documented "
                              "only a knock or a click", clause="signal.kinds")
        seat = _seat(seat, "signal.leader-only")
        refused = self.may_signal(seat, kind)
        if refused is not None:
            raise SignalError(f"{seat} did not lead this trick: only {self._leader} may signal"
                              if refused == "signal.leader-only" else
                              f"{seat} may not give a {kind:.40} signal here ({refused})", clause=refused)
        if len(self._trick) != 1:
            raise SignalError("a signal comes after the lead and before the next card",
                              clause="signal.timing")
        if self._signal is not None:
            raise SignalError("one signal per trick", clause="signal.once-per-trick")
        self._signal = Signal(seat, kind, SUITS[SUIT_OF[self._trick[0]]])
        return self._signal

    def may_signal(self, seat: Seat, kind: str) -> str | None:
        """The hook of who may signal: ``None`` when ``seat`` may give ``kind`` now, else the
        clause refusing it (standard: ``signal.leader-only``, the trick's leader only; a
        variant's ``may_signal`` rule decides in :class:`turub.house_rule_deal.HouseRuleDeal`)."""
        return None if seat is self._leader else "signal.leader-only"

    def close(self, seat: Seat) -> DealResult:
        """Any seat closes the deal before its last trick: it is banked as a draw, or under
        ``early-close=known-result`` as the win of a side already past 18 tricks.

        ``sheet.any-player-closes``, ``result.closed-early``.
        """
        if self._phase is Phase.FINISHED:
            raise PhaseError("the deal is already over")
        closer = _seat(seat, "sheet.any-player-closes")  # checked before anything changes
        result = self.decide_result(self._won[0], self._won[1], closed_early=True)
        self._closed_by = closer
        self._finish(result)
        assert self._result is not None
        return self._result

    def _finish(self, result: DealResult) -> None:
        self._result = result
        self._phase = Phase.FINISHED
        self._to_act = self._hand = None
        self._legal = ()

    def apply(self, action: Mapping[str, str]) -> Any:
        """Apply one action in record form: ``{"act": "play", "seat": "E", "card": "AC"}``."""
        return records.apply(self, action)

    # --- record and replay, copies and pickles (turub.records) ----------------------------

    def to_record(self) -> dict[str, Any]:
        """The complete record of the deal as JSON-ready data; :meth:`replay` inverts it."""
        return records.to_record(self)

    @classmethod
    def replay(cls, record: Mapping[str, Any]) -> Deal:
        """The deal a record describes, every action re-checked by the rules (a record made
        under a rule variant is replayed by that variant, or refused when it is not loaded)."""
        return records.replay(cls, record)

    def state(self) -> dict[str, Any]:
        """Everything about the deal as plain data (for comparing two states)."""
        return records.state(self)

    # --- copies and pickles --------------------------------------------------------------

    def __copy__(self) -> Deal:
        """An independent copy: playing on it never changes this deal, nor the reverse.  Only
        the hands, the trick and the tallies are containers; all else is immutable."""
        twin = object.__new__(type(self))
        for klass in type(self).__mro__:
            for name in getattr(klass, "__slots__", ()):
                if hasattr(self, name):
                    setattr(twin, name, getattr(self, name))
        if hasattr(self, "__dict__"):
            twin.__dict__.update(self.__dict__)
        if self._card_codes is not None:
            twin._card_codes = [[list(suit) for suit in hand] for hand in self._card_codes]
        if self._held is not None:
            twin._held = [list(hand) for hand in self._held]
            twin._hand = None  # the seat to act's hand among the twin's own
            if self._trick:  # and the hand winning the trick so far
                twin._win_hand = twin._held[self._win_hand[_NUMBER]]
        twin._trick, twin._tricks = list(self._trick), list(self._tricks)
        twin._built, twin._won = list(self._built), list(self._won)
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> Deal:
        """:meth:`__copy__`, with anything a subclass keeps in its ``__dict__`` deep-copied."""
        twin = memo[id(self)] = self.__copy__()
        if hasattr(self, "__dict__"):
            twin.__dict__.update(copy.deepcopy(self.__dict__, memo))
        return twin

    # A pickle is the deal's record, replayed (every action re-checked).
    __reduce__ = records.reduced  # type: ignore[assignment]

    def __repr__(self) -> str:
        trump = None if self._trump < 0 else SUITS[self._trump].symbol
        return (f"<Deal dealer={self.dealer.letter} trump={trump} "
                f"phase={self._phase.value} tricks={len(self._tricks)} won={self._won}>")


def play_random_deal(seed: int | None = None, dealer: Seat = Seat.NORTH, rules: Rules = Rules(),
                     rng: random.Random | None = None) -> Deal:
    """A whole deal of random legal play, in one call: the fast path of simulations.

    The pack is shuffled and cut from ``seed`` (as :meth:`Deal.from_seed`), the caller names a
    suit drawn at random, and :meth:`Deal.play_out` plays the 36 tricks.  The trump and the
    cards are drawn from ``rng`` if given, else from the seed's own random source, so the
    same arguments always give the same deal.  Without a seed, ``rng`` shuffles too (a run of
    deals from one ``random.Random``, as ``turub simulate`` plays them,
    :meth:`Deal.shuffled`).

    >>> deal = play_random_deal(1)
    >>> deal.phase, sum(deal.result.tricks), deal.to_record() == Deal.replay(deal.to_record()).to_record()
    (<Phase.FINISHED: 'finished'>, 36, True)
    """
    if rng is not None and not isinstance(rng, random.Random):
        raise RuleError(f"rng must be a random.Random, not {rng!r:.40}", clause="deal.shuffle")
    if seed is None:
        if rng is None:
            raise RuleError("a random deal needs a seed or a random source (rng)", clause="deal.shuffle")
        deal = Deal.shuffled(rng, dealer, rules)
    else:
        deal, seeded = Deal._seeded(seed, dealer, rules)
        rng = rng if rng is not None else seeded
    deal.name_trump(deal.caller, SUITS[int(rng.random() * 4)])
    deal.play_out(rng)
    return deal
