"""Seats, sides and the direction of play (clauses ``table.*``).

>>> Seat.NORTH.partner, Seat.NORTH.side, Seat.EAST.side
(Seat.SOUTH, Side.NORTH_SOUTH, Side.EAST_WEST)
>>> next_seat(Seat.NORTH, Direction.CLOCKWISE), next_seat(Seat.NORTH, Direction.COUNTERCLOCKWISE)
(Seat.EAST, Seat.WEST)
"""

from __future__ import annotations

from enum import Enum, IntEnum
from typing import Final

from .errors import RulesOptionError

__all__ = ["Seat", "Side", "Direction", "SEATS", "SIDES", "next_seat", "seats_from", "parse_seat",
           "PLAY_ORDER"]


class Seat(IntEnum):
    """The four seats, numbered clockwise.  Partners sit opposite (``table.partnerships``)."""

    NORTH = 0
    EAST = 1
    SOUTH = 2
    WEST = 3

    @property
    def partner(self) -> Seat:
        return Seat((self + 2) % 4)

    @property
    def side(self) -> Side:
        return Side(self % 2)

    @property
    def letter(self) -> str:
        return self.name[0]

    @classmethod
    def _missing_(cls, value: object) -> Seat:
        raise RulesOptionError(f"{value!r:.40} is not a seat (0-3, North East South West)",
                               clause="table.partnerships")

    def __repr__(self) -> str:
        return f"Seat.{self.name}"

    def __str__(self) -> str:
        return self.name.title()


class Side(IntEnum):
    """The two partnerships."""

    NORTH_SOUTH = 0
    EAST_WEST = 1

    @property
    def other(self) -> Side:
        return Side(1 - self)

    @property
    def seats(self) -> tuple[Seat, Seat]:
        return (Seat(self), Seat(self + 2))

    @property
    def short(self) -> str:
        return ("NS", "EW")[self]

    @classmethod
    def _missing_(cls, value: object) -> Side:
        raise RulesOptionError(f"{value!r:.40} is not a side (0 North-South, 1 East-West)",
                               clause="table.partnerships")

    def __repr__(self) -> str:
        return f"Side.{self.name}"

    def __str__(self) -> str:
        return ("North-South", "East-West")[self]


class Direction(Enum):
    """The direction in which the deal and the play go round (``table.direction``)."""

    CLOCKWISE = 1
    COUNTERCLOCKWISE = -1

    @classmethod
    def _missing_(cls, value: object) -> Direction:
        raise RulesOptionError(f"{value!r:.40} is not a direction (1 clockwise, -1 counter-clockwise)",
                               clause="table.direction")

    def __repr__(self) -> str:
        return f"Direction.{self.name}"

    def __str__(self) -> str:
        return self.name.lower()


SEATS: Final = tuple(Seat)
SIDES: Final = tuple(Side)
_SEAT_BY_TEXT: Final = {s.name: s for s in Seat} | {s.letter: s for s in Seat}


def next_seat(seat: Seat, direction: Direction) -> Seat:
    """The seat after ``seat`` in the direction of play: its 'left' (``table.left-of-dealer``)."""
    return seats_from(seat, direction)[1]


def seats_from(first: Seat, direction: Direction) -> tuple[Seat, Seat, Seat, Seat]:
    """The four seats in the order of play, starting with ``first``."""
    if type(direction) is not Direction:
        raise RulesOptionError(f"{direction!r:.40} is not a direction (Direction.CLOCKWISE or "
                               "Direction.COUNTERCLOCKWISE)", clause="table.direction")
    if type(first) is not Seat and not (type(first) is int and 0 <= first < 4):
        raise RulesOptionError(f"{first!r:.40} is not a seat (0-3, North East South West)",
                               clause="table.partnerships")
    return PLAY_ORDER[direction][first]  # type: ignore[return-value]  # four seats, built below


#: For each direction, the order of play starting from each seat (indexed by seat): the
#: table behind :func:`seats_from` and :func:`next_seat`, computed once.
PLAY_ORDER: Final = {d: tuple(tuple(Seat((first + d.value * i) % 4) for i in range(4))
                              for first in range(4)) for d in Direction}


def parse_seat(text: str) -> Seat:
    """A seat from its name or initial: ``N``, ``north``, ``East``..."""
    if isinstance(text, str) and text.strip().upper() in _SEAT_BY_TEXT:
        return _SEAT_BY_TEXT[text.strip().upper()]
    raise RulesOptionError(f"{text!r} is not a seat: write N, E, S or W", clause="table.partnerships")
