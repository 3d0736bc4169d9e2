"""The engine's arguments, checked once at its public boundary.

Each function returns the argument as the engine's own value, or raises a
:class:`~turub.errors.RuleError` naming the clause that defines what the argument must be:
a seat (``table.partnerships``: four seats, North East South West, or their numbers 0-3), a
side, a suit or a card (``pack.card-notation``), rule options (``table.rule-options``), or a
count.  A ``bool`` is never taken for a number, nor a :class:`~turub.seats.Side` or a
:class:`~turub.cards.Suit` for a seat.  Nothing is changed before these checks pass, so a
refused call leaves every state as it was.

>>> seat(2, "table.partnerships")
Seat.SOUTH
>>> seat(True, "table.partnerships")
Traceback (most recent call last):
...
turub.errors.RuleError: [table.partnerships] True is not a seat (0-3, North East South West)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from .cards import Card, Suit, parse_card, parse_suit
from .errors import CardFormatError, RuleError
from .options import Rules
from .seats import SEATS, Direction, Seat, Side

__all__ = ["pack", "seat", "side", "suit", "card", "cards", "rules", "direction", "whole", "flag",
           "sequence"]


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def pack(value: object) -> tuple[Card, ...]:
    """A pack (``pack.composition``): a sequence of 144 :class:`Card` values, four of each."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Iterable):
        raise RuleError(f"a pack is a sequence of 144 turub.Card values, not {value!r:.60}",
                        clause="pack.composition")
    cards = tuple(value)
    strangers = [c for c in set(map(type, cards)) if c is not Card]
    if strangers:
        raise CardFormatError(f"the pack holds a {strangers[0].__name__}, not only cards",
                              clause="pack.composition")
    counts = Counter(cards)
    if len(cards) != 144 or len(counts) != 36 or set(counts.values()) != {4}:
        raise RuleError(f"a pack is 144 cards, four of each; this one has {len(cards)} cards "
                        f"of {len(counts)} kinds", clause="pack.composition")
    return cards


def seat(value: object, clause: str = "table.partnerships") -> Seat:
    """A :class:`Seat`, or its number 0-3."""
    if type(value) is Seat:
        return value
    if type(value) is int and 0 <= value < 4:
        return SEATS[value]
    raise RuleError(f"{_shown(value)} is not a seat (0-3, North East South West)", clause=clause)


def side(value: object, clause: str = "table.partnerships", *, none: bool = False) -> Side | None:
    """A :class:`Side` (or ``None`` where ``none`` allows it: a draw, nobody)."""
    if type(value) is Side or (none and value is None):
        return value  # type: ignore[return-value]
    raise RuleError(f"{_shown(value)} is not a side (Side.NORTH_SOUTH or Side.EAST_WEST"
                    f"{', or None' if none else ''})", clause=clause)


def suit(value: object, clause: str = "pack.card-notation", *, none: bool = False,
         text: bool = True) -> Suit | None:
    """A :class:`Suit`, or its text (``♥``, ``H``, ``hearts``) where ``text`` allows it."""
    if type(value) is Suit or (none and value is None):
        return value  # type: ignore[return-value]
    if text and isinstance(value, str):
        try:
            return parse_suit(value)
        except CardFormatError:
            pass
    raise CardFormatError(f"{_shown(value)} is not a suit: ♠ ♥ ♦ ♣ (Suit.SPADES ...)"
                          + (" or None" if none else ""), clause=clause)


def card(value: object, clause: str = "pack.card-notation") -> Card:
    """A :class:`Card`, or its text (``A♣``, ``10H``)."""
    if type(value) is Card:
        return value
    if isinstance(value, str):
        return parse_card(value)
    raise CardFormatError(f"a card is a turub.Card or its text such as 'A♣' or '10H', not "
                          f"{_shown(value)}", clause=clause)


def sequence(value: object, clause: str, what: str) -> list[Any]:
    """The items of a list, tuple or other iterable that is not text, a mapping or a set."""
    if isinstance(value, (str, bytes, Mapping, set, frozenset)) or not isinstance(value, Iterable):
        raise RuleError(f"{what} must be a list or tuple, not {_shown(value)}", clause=clause)
    return list(value)


def cards(value: object, clause: str = "pack.card-notation", *, what: str = "cards",
          at_least: int = 0, at_most: int | None = None, size_clause: str | None = None) -> tuple[Card, ...]:
    """Cards (or their texts) as a tuple, between ``at_least`` and ``at_most`` of them."""
    items = tuple(card(c, clause) for c in sequence(value, clause, what))
    if len(items) < at_least or (at_most is not None and len(items) > at_most):
        span = f"{at_least} to {at_most}" if at_most is not None else f"at least {at_least}"
        raise RuleError(f"{what} must be {span} cards, not {len(items)}", clause=size_clause or clause)
    return items


def rules(value: object) -> Rules:
    """A :class:`~turub.options.Rules` value, or a rule variant standing for one (a value whose
    ``rules`` is a :class:`~turub.options.Rules`, see :mod:`turub.variants`) (``table.rule-options``)."""
    if isinstance(value, Rules) or isinstance(getattr(value, "rules", None), Rules):
        return value  # type: ignore[return-value]
    raise RuleError(f"rules must be a turub.Rules (see turub.parse_rules), not {_shown(value)}",
                    clause="table.rule-options")


def direction(value: object) -> Direction:
    """A :class:`~turub.seats.Direction` (``table.direction``)."""
    if type(value) is Direction:
        return value
    raise RuleError(f"{_shown(value)} is not a direction (Direction.CLOCKWISE or "
                    "Direction.COUNTERCLOCKWISE)", clause="table.direction")


def whole(value: object, clause: str, what: str, *, at_least: int = 0) -> int:
    """A whole number (an ``int``, not a ``bool``) of at least ``at_least``."""
    if type(value) is int and value >= at_least:
        return value
    raise RuleError(f"{what} must be a whole number from {at_least}, not {_shown(value)}",
                    clause=clause)


def flag(value: object, clause: str, what: str) -> bool:
    """``True`` or ``False``, nothing else."""
    if type(value) is bool:
        return value
    raise RuleError(f"{what} must be True or False, not {_shown(value)}", clause=clause)
