"""One deal as a state machine: the deal, the trump call, 36 tricks, signals, the result.

A :class:`Deal` takes actions from the seat whose turn it is: :meth:`Deal.name_trump`,
:meth:`Deal.play`, :meth:`Deal.signal` and :meth:`Deal.close` (any seat).  Every action is
checked in full before anything changes, so a refused action (a :class:`RuleError` naming
its clause) leaves the deal exactly as it was.  Every decision (a trick won, the result)
names its clauses.  :meth:`Deal.to_record` gives a JSON record that :meth:`Deal.replay`
turns back into the same deal; :meth:`Deal.view` shows what one seat may see.

>>> deal = Deal.from_seed(7)
>>> deal.phase, deal.caller, len(deal.view(deal.caller).hand), len(deal.view(Seat.NORTH).hand)
(<Phase.CALLING: 'calling'>, Seat.EAST, 3, 0)
>>> deal.name_trump(Seat.EAST, Suit.HEARTS)
>>> deal.phase, deal.to_act, [len(deal.view(s).hand) for s in Seat]
(<Phase.PLAYING: 'playing'>, Seat.EAST, [36, 36, 36, 36])
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from operator import itemgetter
from typing import Any, Final, NamedTuple

from .cards import CARDS, PACK, Card, Suit, card_name, parse_card, parse_suit, sort_hand
from .errors import (CardFormatError, CardNotHeldError, MustFollowSuitError, OutOfTurnError,
                     PhaseError, RecordError, RuleError, SignalError, TrumpCallError)
from .options import Rules, rules_from_dict
from .rules import (PACKET_SIZE, TRICKS_PER_DEAL, DealResult, TrickDecision, deal_result,
                    decide_trick)
from .seats import PLAY_ORDER, Seat, next_seat, parse_seat

__all__ = ["Phase", "Signal", "Trick", "SeatView", "Deal", "SIGNALS", "RECORD_FORMAT",
           "play_random_deal"]

#: The signals a trick's leader may give, and what each says of the led suit (``signal.kinds``).
SIGNALS: Final = {"knock": "strong", "click": "weak"}
#: The version tag of a deal record.
RECORD_FORMAT: Final = "turub-deal/1"
_CARDS_BY_SUIT: Final = tuple(CARDS[9 * s:9 * s + 9] for s in Suit)
_ROUND: Final = 4 * PACKET_SIZE  # the cards of one round of packets


def _action_record(act: str, seat: Seat, what: Any) -> dict[str, str]:
    record = {"act": act, "seat": seat.letter}
    if act == "trump":
        record["suit"] = what.letter
    elif act == "play":
        record["card"] = card_name(what, ascii=True)
    elif act == "signal":
        record["signal"] = what
    return record


def _seat(seat: object, clause: str) -> Seat:
    """``seat`` as a :class:`Seat`, or a refusal naming ``clause``."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < 4:
        return Seat(seat)
    raise RuleError(f"{seat!r} is not a seat (0-3, North East South West)", clause=clause)


class Phase(Enum):
    """Where a deal stands."""

    CALLING = "calling"  # dealing paused: the caller has three cards and must name trump
    PLAYING = "playing"  # trump named, all 144 cards dealt, tricks being played
    FINISHED = "finished"  # 36 tricks played, or the deal closed early


_PLAYING: Final = Phase.PLAYING  # bound once for the hot path of Deal.play


@dataclass(frozen=True, slots=True)
class Signal:
    """A knock or a click by a trick's leader, about the suit led (``signal.kinds``)."""

    seat: Seat
    kind: str
    suit: Suit

    @property
    def meaning(self) -> str:
        return SIGNALS[self.kind]


class Trick(NamedTuple):
    """A completed trick: its leader, the cards in order of play, the signal, the decision."""

    leader: Seat
    cards: tuple[Card, ...]
    seats: tuple[Seat, ...]
    signal: Signal | None
    decision: TrickDecision

    @property
    def winner(self) -> Seat:
        return self.decision.seat


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may see: its own hand, the table, never another hand."""

    seat: Seat
    phase: Phase
    dealer: Seat
    caller: Seat
    trump: Suit | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, int, int, int]
    to_act: Seat | None
    current_trick: tuple[tuple[Seat, Card], ...]
    signal: Signal | None
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, int]
    legal: tuple[Card, ...]
    result: DealResult | None


class Deal:
    """The state machine of one deal.  See the module documentation."""

    __slots__ = ("rules", "dealer", "caller", "pack", "cut", "_stock", "_dealt", "_held",
                 "_phase", "_trump", "_to_act", "_leader", "_trick", "_led",
                 "_signal", "_tricks", "_won", "_result", "_closed_by", "_order")

    def __init__(self, pack: Sequence[Card], dealer: Seat = Seat.NORTH, rules: Rules = Rules(),
                 cut: int = 0) -> None:
        """A deal of ``pack`` (top card first) by ``dealer``, cut ``cut`` cards from the top.

        ``deal.shuffle`` is the caller's (see :meth:`from_seed`); ``deal.cut``: the cut moves
        the top ``cut`` cards under the rest; ``deal.packets``: packets of three from the
        seat after the dealer; ``deal.pause-for-trump``: dealing stops after the first packet.
        """
        pack = tuple(pack)
        strangers = [c for c in set(map(type, pack)) if c is not Card]
        if strangers:
            raise CardFormatError(f"the pack holds a {strangers[0].__name__}, not only cards",
                                  clause="pack.composition")
        counts = Counter(pack)
        if len(pack) != 144 or len(counts) != 36 or set(counts.values()) != {4}:
            raise RuleError(f"a pack is 144 cards, four of each; this one has {len(pack)} cards "
                            f"of {len(counts)} kinds", clause="pack.composition")
        if not isinstance(cut, int) or isinstance(cut, bool) or not 0 <= cut < 144:
            raise RuleError(f"a cut lifts 0 to 143 cards, not {cut!r}", clause="deal.cut")
        if not isinstance(rules, Rules):
            raise RuleError(f"rules must be a turub.Rules, not {rules!r}", clause="table.direction")
        self._setup(pack, _seat(dealer, "table.partnerships"), rules, cut)

    def _setup(self, pack: tuple[Card, ...], dealer: Seat, rules: Rules, cut: int) -> None:
        """Start the deal of a pack already checked, up to the pause for trump."""
        self.rules = rules
        self.dealer = dealer
        self.caller = next_seat(self.dealer, rules.direction)
        self.pack = pack
        self.cut = cut
        self._stock = pack[cut:] + pack[:cut]
        self._dealt = 0
        # _held[seat][suit]: {card: copies held}, in the order of CARDS once dealt.
        self._held: list[list[dict[Card, int]]] = [[{}, {}, {}, {}] for _ in range(4)]
        self._phase = Phase.CALLING
        self._trump: Suit | None = None
        self._to_act: Seat | None = self.caller
        self._leader = self.caller
        self._trick: list[Card] = []
        self._led: Suit | None = None  # the suit led to the current trick
        self._signal: Signal | None = None
        # Completed tricks as plain tuples in Trick's field order (cheaper to build in the
        # hot path); the ``tricks`` property hands them out as Trick values.
        self._tricks: list[tuple[Seat, tuple[Card, ...], tuple[Seat, ...], Signal | None, TrickDecision]] = []
        self._won = [0, 0]
        self._result: DealResult | None = None
        self._closed_by: Seat | None = None
        self._order = PLAY_ORDER[rules.direction]  # the order of play from each seat
        self._deal_packets(1)

    @classmethod
    def from_seed(cls, seed: int, dealer: Seat = Seat.NORTH, rules: Rules = Rules()) -> Deal:
        """A deal shuffled and cut from ``seed`` (``deal.shuffle``, ``deal.cut``).

        Deterministic: the same seed always gives the same deal; no global random state.
        """
        rng = random.Random(seed)
        # A uniform shuffle: sort the pack by 144 independent random 64-bit keys (a tie, which
        # would favour the earlier card, has probability below 1e-15).  Same result as a
        # Fisher-Yates shuffle in distribution, several times faster in CPython.
        keys = memoryview(rng.randbytes(8 * 144)).cast("Q")
        pack = itemgetter(*sorted(range(144), key=keys.__getitem__))(PACK)
        deal = cls.__new__(cls)  # a permutation of PACK needs no check of its composition
        deal._setup(pack, _seat(dealer, "table.partnerships"), rules, rng.randrange(1, 144))
        return deal

    # --- dealing ----------------------------------------------------------------------

    def _deal_packets(self, n: int) -> None:
        """Deal ``n`` more packets of three, going round from the caller (``deal.packets``)."""
        self._dealt += PACKET_SIZE * n
        # Packet p goes to the p-th seat (mod 4) from the caller: the k-th seat from the caller
        # holds the stock's cards 12r+3k .. 12r+3k+2 of the packets dealt so far.
        stock = self._stock[:self._dealt]
        for k, seat in enumerate(self._order[self.caller]):
            cards = stock[3 * k::_ROUND] + stock[3 * k + 1::_ROUND] + stock[3 * k + 2::_ROUND]
            if not cards:  # before the call only the caller has a packet
                continue
            copies = Counter(cards).get
            # Each hand kept suit by suit in the order of CARDS: spades, hearts, diamonds, clubs.
            self._held[seat] = [{card: count for card in suit if (count := copies(card))}
                                for suit in _CARDS_BY_SUIT]

    # --- reading the state ----------------------------------------------------------------

    @property
    def phase(self) -> Phase:
        return self._phase

    @property
    def trump(self) -> Suit | None:
        return self._trump

    @property
    def to_act(self) -> Seat | None:
        """The seat whose turn it is: to name trump, or to play; ``None`` when finished."""
        return self._to_act

    @property
    def leader(self) -> Seat:
        """The leader of the current trick."""
        return self._leader

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(map(Trick._make, self._tricks))

    @property
    def current_trick(self) -> tuple[tuple[Seat, Card], ...]:
        return tuple(zip(self._order[self._leader], self._trick))

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
        return self._stock[self._dealt:]

    def hand(self, seat: Seat) -> tuple[Card, ...]:
        """The cards ``seat`` holds, sorted (``pack.sort-hand``)."""
        return sort_hand(c for suit in self._held[seat] for c, n in suit.items() for _ in range(n))

    def holds(self, seat: Seat, card: Card) -> int:
        """How many copies of ``card`` ``seat`` holds."""
        return self._held[seat][card.suit].get(card, 0)

    def legal_plays(self, seat: Seat | None = None) -> tuple[Card, ...]:
        """The distinct cards ``seat`` (by default the seat to act) may play now.

        Empty unless it is that seat's turn to play.  ``play.follow-suit``,
        ``play.void-any-card``.
        """
        to_act = self._to_act
        if self._phase is not _PLAYING or (seat is not None and seat != to_act):
            return ()
        held = self._held[to_act]
        led = self._led
        if led is not None and held[led]:
            return tuple(held[led])
        spades, hearts, diamonds, clubs = held
        return (*spades, *hearts, *diamonds, *clubs)

    def view(self, seat: Seat) -> SeatView:
        """What ``seat`` may see now.  The caller's view at the call holds three cards."""
        return SeatView(
            seat=_seat(seat, "table.partnerships"), phase=self._phase, dealer=self.dealer, caller=self.caller,
            trump=self._trump, hand=self.hand(seat),
            hand_sizes=tuple(sum(sum(s.values()) for s in h) for h in self._held),  # type: ignore[arg-type]
            to_act=self._to_act, current_trick=self.current_trick, signal=self._signal,
            tricks=self.tricks, tricks_won=self.tricks_won, legal=self.legal_plays(seat),
            result=self._result)

    # --- actions -----------------------------------------------------------------------

    def name_trump(self, seat: Seat, suit: Suit | str) -> None:
        """``seat`` names ``suit`` trump, and dealing resumes.

        ``trump.caller``: only the seat after the dealer calls; ``trump.three-cards``: it has
        seen its first packet only; ``trump.any-suit``: any suit may be named;
        ``trump.once``: once per deal.  Then ``deal.full-hands``: the rest is dealt, the
        dealer's final packet is three (``deal.dealer-check``, always so when the engine
        deals), and ``play.first-lead``: the caller leads.
        """
        if self._phase is not Phase.CALLING:
            if self._trump is not None:
                raise TrumpCallError(f"trump is already {self._trump.symbol}: it is named once",
                                     clause="trump.once")
            raise PhaseError("the deal is over: no trump can be named")
        if seat != self.caller:
            raise TrumpCallError(f"{_seat(seat, 'trump.caller')} cannot name trump: "
                                 f"{self.caller}, after the dealer, does")
        if not isinstance(suit, Suit):
            suit = parse_suit(suit)
        self._trump = suit
        self._deal_packets(144 // PACKET_SIZE - 1)
        self._phase = Phase.PLAYING
        self._to_act = self.caller

    def play(self, seat: Seat, card: Card | str) -> TrickDecision | None:
        """``seat`` plays ``card``; returns the trick's decision when it completes a trick.

        ``play.turn``, ``play.card-in-hand``, ``play.follow-suit`` (``play.void-any-card``:
        void, any card), then ``trick.*`` decides the trick, ``play.winner-leads``, and after
        36 tricks ``result.*`` decides the deal.
        """
        if self._phase is not _PLAYING:
            raise PhaseError("cards are played only after trump is named and before the deal ends"
                             if self._phase is Phase.CALLING else "the deal is over")
        if seat is not self._to_act and seat != self._to_act:
            raise OutOfTurnError(f"it is {self._to_act}'s turn, not {_seat(seat, 'play.turn')}'s")
        if not isinstance(card, Card):
            card = parse_card(card)
        held = self._held[seat]
        same_suit = held[card.suit]
        copies = same_suit.get(card)
        if not copies:
            raise CardNotHeldError(f"{self._to_act} holds no {card}")
        led = self._led
        if led is not None and card.suit is not led and held[led]:
            raise MustFollowSuitError(
                f"{self._to_act} holds {led.symbol} and must follow suit, not play {card}")
        trick = self._trick
        if copies == 1:
            del same_suit[card]
        else:
            same_suit[card] = copies - 1
        trick.append(card)
        if led is None:
            self._led = card.suit
        actor = self._to_act
        if len(trick) < 4:
            self._to_act = self._order[actor][1]
            return None
        return self._complete_trick()

    def _complete_trick(self) -> TrickDecision:
        assert self._trump is not None
        cards = tuple(self._trick)
        leader = self._leader
        decision = decide_trick(cards, self._trump, leader, self.rules.direction)
        self._tricks.append((leader, cards, self._order[leader], self._signal, decision))
        self._won[decision.seat & 1] += 1
        self._trick = []
        self._led = None
        self._signal = None
        self._leader = self._to_act = decision.seat
        if len(self._tricks) == TRICKS_PER_DEAL:
            self._finish(deal_result(self._won[0], self._won[1]))
        return decision

    def signal(self, seat: Seat, kind: str) -> Signal:
        """The trick's leader knocks or clicks about the suit led.

        ``signal.leader-only``: only the current trick's leader; ``signal.timing``: after
        the lead, before the next card; ``signal.once-per-trick``; ``signal.kinds``: a knock
        (strong) or a click (weak).
        """
        if self._phase is not Phase.PLAYING:
            raise PhaseError("signals are given only while tricks are played")
        if kind not in SIGNALS:
            raise SignalError(f"{kind!r} is not a signal: a knock or a click", clause="signal.kinds")
        if seat != self._leader:
            raise SignalError(f"{_seat(seat, 'signal.leader-only')} did not lead this trick: "
                              f"only {self._leader} may signal")
        if len(self._trick) != 1:
            raise SignalError("a signal comes after the lead and before the next card",
                              clause="signal.timing")
        if self._signal is not None:
            raise SignalError("one signal per trick", clause="signal.once-per-trick")
        self._signal = Signal(self._leader, kind, self._trick[0].suit)
        return self._signal

    def close(self, seat: Seat) -> DealResult:
        """Any seat closes the deal before its last trick: it is banked as a draw.

        ``sheet.any-player-closes``, ``result.closed-early``.
        """
        if self._phase is Phase.FINISHED:
            raise PhaseError("the deal is already over")
        closer = _seat(seat, "sheet.any-player-closes")  # checked before anything changes
        self._closed_by = closer
        self._finish(deal_result(self._won[0], self._won[1], closed_early=True))
        assert self._result is not None
        return self._result

    def _finish(self, result: DealResult) -> None:
        self._result = result
        self._phase = Phase.FINISHED
        self._to_act = None

    def apply(self, action: Mapping[str, str]) -> Any:
        """Apply one action in record form: ``{"act": "play", "seat": "E", "card": "AC"}``."""
        act = action.get("act") if isinstance(action, Mapping) else None
        try:
            if act == "trump":
                return self.name_trump(parse_seat(action["seat"]), action["suit"])
            if act == "play":
                return self.play(parse_seat(action["seat"]), action["card"])
            if act == "signal":
                return self.signal(parse_seat(action["seat"]), action["signal"])
            if act == "close":
                return self.close(parse_seat(action["seat"]))
        except KeyError as e:
            raise RecordError(f"action {action!r} lacks {e.args[0]!r}") from None
        raise RecordError(f"{action!r} is not an action: 'act' is trump, play, signal or close")

    # --- record and replay ------------------------------------------------------------------

    def to_record(self) -> dict[str, Any]:
        """The complete record of the deal as JSON-ready data; :meth:`replay` inverts it."""
        return {
            "format": RECORD_FORMAT,
            "rules": self.rules.to_dict(),
            "dealer": self.dealer.letter,
            "pack": [card_name(c, ascii=True) for c in self.pack],
            "cut": self.cut,
            "actions": [_action_record(*a) for a in self._action_log()],
        }

    def _action_log(self) -> list[tuple[str, Seat, Any]]:
        """The actions taken, in order, rebuilt from the state: the call, then each trick's
        cards with its signal right after the lead (``signal.timing``), then the close."""
        if self._trump is None:
            log: list[tuple[str, Seat, Any]] = []
        else:
            log = [("trump", self.caller, self._trump)]
        tricks = [(t.seats, t.cards, t.signal) for t in self.tricks]
        tricks.append((self._order[self._leader], tuple(self._trick), self._signal))
        for seats, cards, signal in tricks:
            for i, (seat, card) in enumerate(zip(seats, cards)):
                log.append(("play", seat, card))
                if i == 0 and signal is not None:
                    log.append(("signal", signal.seat, signal.kind))
        if self._closed_by is not None:
            log.append(("close", self._closed_by, None))
        return log

    @classmethod
    def replay(cls, record: Mapping[str, Any]) -> Deal:
        """The deal a record describes, every action re-checked by the rules."""
        if not isinstance(record, Mapping) or record.get("format") != RECORD_FORMAT:
            raise RecordError(f"not a deal record: expected format {RECORD_FORMAT!r}")
        try:
            deal = cls([parse_card(c) for c in record["pack"]], parse_seat(record["dealer"]),
                       rules_from_dict(record.get("rules", {})), cut=record.get("cut", 0))
            actions: Iterable[Mapping[str, str]] = record["actions"]
        except KeyError as e:
            raise RecordError(f"a deal record needs {e.args[0]!r}") from None
        for action in actions:
            deal.apply(action)
        return deal

    def state(self) -> dict[str, Any]:
        """Everything about the deal as plain data (for comparing two states)."""
        return {
            "record": self.to_record(),
            "phase": self._phase.value,
            "trump": self._trump.letter if self._trump else None,
            "to_act": self._to_act.letter if self._to_act is not None else None,
            "leader": self._leader.letter,
            "hands": {s.letter: [card_name(c, ascii=True) for c in self.hand(s)] for s in Seat},
            "stock": len(self.stock),
            "trick": [(Seat(s).letter, card_name(c, ascii=True)) for s, c in self.current_trick],
            "signal": None if self._signal is None else (self._signal.seat.letter, self._signal.kind),
            "tricks": [(t.leader.letter, [card_name(c, ascii=True) for c in t.cards],
                        t.winner.letter) for t in self.tricks],
            "won": list(self._won),
            "result": None if self._result is None else list(self._result.tricks),
        }

    def __repr__(self) -> str:
        return (f"<Deal dealer={self.dealer.letter} trump={self._trump and self._trump.symbol} "
                f"phase={self._phase.value} tricks={len(self._tricks)} won={self._won}>")


def play_random_deal(seed: int, dealer: Seat = Seat.NORTH, rules: Rules = Rules(),
                     rng: random.Random | None = None) -> Deal:
    """A whole deal of random legal play from ``seed``: the caller names a random suit."""
    rng = rng or random.Random(seed)
    deal = Deal.from_seed(seed, dealer, rules)
    deal.name_trump(deal.caller, rng.choice(tuple(Suit)))
    choice = rng.choice
    while deal._phase is Phase.PLAYING:
        seat = deal._to_act
        deal.play(seat, choice(deal.legal_plays(seat)))  # type: ignore[arg-type]
    return deal

