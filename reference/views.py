"""What a deal shows: where it stands (:class:`Phase`), a leader's :class:`Signal`, a
completed :class:`Trick` and what one seat may see (:class:`SeatView`).  The values
:class:`turub.deal.Deal` gives out, all immutable; ``turub.deal`` offers them under its own
name too."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from operator import attrgetter
from typing import Final, NamedTuple

from .cards import Card, Suit
from .rules import DealResult, TrickDecision
from .seats import Seat

__all__ = ["Phase", "Signal", "Trick", "SeatView", "SIGNALS"]

#: The signals the sources document, and what each says of the led suit (``signal.kinds``):
#: the usual ones, not a closed list (any other kind the table uses is accepted unless
#: ``signal-kinds=documented``).
SIGNALS: Final = {"knock": "strong", "click": "weak"}


class Phase(Enum):
    """Where a deal stands."""

    CALLING = "calling"  # dealing paused: the caller has three cards and must name trump
    PLAYING = "playing"  # trump named, all 144 cards dealt, tricks being played
    FINISHED = "finished"  # 36 tricks played, or the deal closed early


@dataclass(frozen=True, slots=True)
class Signal:
    """A signal by a trick's leader, about the suit led (``signal.kinds``): a knock, a click
    or another kind the table uses."""

    seat: Seat
    kind: str
    suit: Suit

    @property
    def meaning(self) -> str | None:
        """What a documented signal says (``strong``, ``weak``); ``None`` for another kind,
        which means what the table agreed and which the engine records without a meaning."""
        return SIGNALS.get(self.kind)


class Trick(NamedTuple):
    """A completed trick: its leader, the cards in order of play, the signal, the decision."""

    leader: Seat
    cards: tuple[Card, ...]
    seats: tuple[Seat, ...]
    signal: Signal | None
    decision: TrickDecision

    @property
    def winner(self) -> Seat:
        """The seat that won the trick."""
        return self.decision.seat


# The same property read without a Python call (a rule reading the game may read it at every
# trick): a NamedTuple's body takes only its fields and methods.
Trick.winner = property(attrgetter("decision.seat"), doc="The seat that won the trick.")  # type: ignore[method-assign, assignment]


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
    cutter: Seat
