"""Cards, suits, ranks and the 144-card pack (clauses ``pack.*``).

A :class:`Card` is one of the 36 distinct cards; the pack holds four identical copies of
each.  Cards are interned: ``Card(Suit.CLUBS, Rank.ACE) is Card(Suit.CLUBS, Rank.ACE)``,
so two copies of a card in a trick are told apart by *when* they were played, never by
identity (clause ``trick.earliest-identical``).

>>> parse_card("A♣"), parse_card("10h")
(Card.parse('A♣'), Card.parse('10♥'))
>>> card_name(parse_card("qd")), card_name(parse_card("QD"), ascii=True)
('Q♦', 'QD')
>>> len(PACK)
144
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum
from typing import Final

from .errors import CardFormatError

__all__ = [
    "Suit", "Rank", "Card", "SUITS", "RANKS", "CARDS", "PACK",
    "parse_card", "card_name", "parse_suit", "suit_name", "parse_cards", "sort_hand",
    "alternating_suits", "HAND_ORDER",
    "SUIT_OF", "SUIT_START",
]


class Suit(IntEnum):
    """The four suits.  Suits do not rank against each other (``pack.suits-equal``)."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def symbol(self) -> str:
        return "♠♥♦♣"[self]

    @property
    def letter(self) -> str:
        return "SHDC"[self]

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    __str__ = symbol.fget  # type: ignore[attr-defined]


class Rank(IntEnum):
    """The nine ranks, valued so that a higher rank is a larger number (``pack.rank-order``)."""

    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def symbol(self) -> str:
        return _RANK_SYMBOLS[self]

    def __repr__(self) -> str:
        return f"Rank.{self.name}"

    __str__ = symbol.fget  # type: ignore[attr-defined]


_RANK_SYMBOLS: Final = {Rank.ACE: "A", Rank.KING: "K", Rank.QUEEN: "Q", Rank.JACK: "J",
                        Rank.TEN: "10", Rank.NINE: "9", Rank.EIGHT: "8", Rank.SEVEN: "7",
                        Rank.SIX: "6"}
_RANK_BY_TEXT: Final = {v: k for k, v in _RANK_SYMBOLS.items()} | {"T": Rank.TEN}
_SUIT_BY_TEXT: Final = {s.symbol: s for s in Suit} | {s.letter: s for s in Suit} | {
    "♤": Suit.SPADES, "♡": Suit.HEARTS, "♢": Suit.DIAMONDS, "♧": Suit.CLUBS}

#: The suits in a fixed order (for listing only: suits do not rank).
SUITS: Final = tuple(Suit)
#: The ranks from the highest down, as the sources list them.
RANKS: Final = tuple(sorted(Rank, reverse=True))


class Card:
    """One of the 36 distinct cards: a suit and a rank.  Immutable and interned.

    ``index`` numbers the 36 cards 0..35 (suit-major, highest rank first), for tables.
    """

    __slots__ = ("suit", "rank", "index")
    suit: Suit
    rank: Rank
    index: int

    _interned: dict[tuple[int, int], Card] = {}

    def __new__(cls, suit: Suit | int, rank: Rank | int) -> Card:
        if type(suit) in (Suit, int) and type(rank) in (Rank, int):
            card = cls._interned.get((suit, rank))
            if card is not None:
                return card
        raise CardFormatError(f"no card with suit {suit!r:.40} and rank {rank!r:.40}")

    @classmethod
    def _make(cls, suit: Suit, rank: Rank) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "index", suit * 9 + (14 - rank))
        cls._interned[(suit, rank)] = card
        return card

    @classmethod
    def parse(cls, text: str) -> Card:
        """The card written as ``text`` (see :func:`parse_card`)."""
        return parse_card(text)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[type[Card], tuple[int, int]]:
        return (Card, (int(self.suit), int(self.rank)))

    def __repr__(self) -> str:
        return f"Card.parse({card_name(self)!r})"

    def __str__(self) -> str:
        return card_name(self)


for _s in Suit:
    for _r in RANKS:
        Card._make(_s, _r)

#: The 36 distinct cards, suit by suit, highest rank first.
CARDS: Final[tuple[Card, ...]] = tuple(Card(s, r) for s in Suit for r in RANKS)
#: The pack in a fixed, unshuffled order: four copies of each card (``pack.composition``).
PACK: Final[tuple[Card, ...]] = CARDS * 4

# The integer coding the deal state machine runs on: a card is its ``index`` (0..35, suit by
# suit, highest rank first, so within a suit a smaller code is a higher rank), ``CARDS[code]``
# turns a code back into the card.
#: The suit (0..3) of each card code.
SUIT_OF: Final[tuple[int, ...]] = tuple(int(c.suit) for c in CARDS)
#: The first card code of each suit: the codes of suit ``s`` are ``SUIT_START[s]`` to ``+ 8``.
SUIT_START: Final[tuple[int, ...]] = tuple(9 * s for s in Suit)


def parse_card(text: str) -> Card:
    """The card written ``text``: rank then suit, as ``A♣``, ``10♥``, ``AC``, ``10h`` or ``TH``.

    Clause ``pack.card-notation``.  Anything else raises :class:`CardFormatError`.
    """
    card = _BY_NAME.get(text) if type(text) is str else None
    if card is not None:  # the usual spellings, read at once
        return card
    if not isinstance(text, str):
        raise CardFormatError(f"a card is written as text such as 'A♣' or '10H', not {text!r}")
    t = text.strip().upper()
    rank = _RANK_BY_TEXT.get(t[:-1])
    suit = _SUIT_BY_TEXT.get(t[-1:])
    if rank is None or suit is None:
        raise CardFormatError(
            f"{text!r} is not a card: write the rank (A K Q J 10 9 8 7 6) then the suit "
            "(♠ ♥ ♦ ♣ or S H D C), as 'A♣' or '10H'")
    return Card(suit, rank)


def card_name(card: Card, *, ascii: bool = False) -> str:
    """The card as text, ``A♣`` (or ``AC`` with ``ascii=True``); inverse of :func:`parse_card`."""
    if type(card) is not Card:
        raise CardFormatError(f"card_name takes a turub.Card, not {card!r:.40}")
    return (_ASCII_NAMES if ascii else _NAMES)[card.index]


#: Each card's name by its code, with the suit's symbol and in ASCII (see :func:`card_name`).
_NAMES: Final = tuple(c.rank.symbol + c.suit.symbol for c in CARDS)
_ASCII_NAMES: Final = tuple(c.rank.symbol + c.suit.letter for c in CARDS)
#: The cards by the names :func:`card_name` gives (:func:`parse_card` reads these first).
_BY_NAME: Final = dict(zip(_NAMES, CARDS)) | dict(zip(_ASCII_NAMES, CARDS))


def parse_suit(text: str) -> Suit:
    """A suit from its symbol, letter or English name (``♥``, ``H``, ``hearts``)."""
    if isinstance(text, str):
        t = text.strip().upper()
        if t in _SUIT_BY_TEXT:
            return _SUIT_BY_TEXT[t]
        for s in Suit:
            if t in (s.name, s.name[:-1]):
                return s
    raise CardFormatError(f"{text!r} is not a suit: write ♠ ♥ ♦ ♣, S H D C or a suit's name")


def suit_name(suit: Suit, *, ascii: bool = False) -> str:
    """The suit as text; inverse of :func:`parse_suit`."""
    if type(suit) is not Suit:
        raise CardFormatError(f"suit_name takes a turub.Suit, not {suit!r:.40}")
    return suit.letter if ascii else suit.symbol


def parse_cards(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Several cards, from a space-separated string or an iterable of card texts."""
    if isinstance(text, str):
        items = text.split()
    elif isinstance(text, Iterable) and not isinstance(text, (bytes, dict, set, frozenset)):
        items = list(text)
    else:
        raise CardFormatError(f"cards are written as one text or a list of texts, not {text!r:.40}")
    return tuple(parse_card(t) for t in items)


def alternating_suits(suits: Iterable[Suit]) -> list[Suit]:
    """The suits held in the order a sorted hand shows them (``pack.sort-hand``): red and
    black alternating wherever the suits allow it, the colour held more often first (black
    on a tie)."""
    held = set(suits)
    black: list[Suit] = [s for s in (Suit.SPADES, Suit.CLUBS) if s in held]
    red: list[Suit] = [s for s in (Suit.HEARTS, Suit.DIAMONDS) if s in held]
    first, second = (black, red) if len(black) >= len(red) else (red, black)
    order: list[Suit] = []
    for i in range(max(len(first), len(second))):
        order += first[i:i + 1] + second[i:i + 1]
    return order


#: The order of the suits in a sorted hand (``pack.sort-hand``, :func:`alternating_suits`),
#: by the suits held (bit ``s`` of the index: suit ``s`` held): a hand kept as card codes,
#: sorted, is sorted by showing its suits in this order.
HAND_ORDER: Final = tuple(tuple(alternating_suits(s for s in Suit if held >> s & 1)) for held in range(16))


def sort_hand(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The hand sorted by suit, red and black suits alternating, highest rank first.

    Clause ``pack.sort-hand``.  The suits held are ordered so that no two suits of one
    colour sit side by side wherever the suits held allow it (black first on a tie).

    >>> " ".join(map(str, sort_hand(parse_cards("6♦ A♠ K♥ 10♣ A♦ 9♠"))))
    'A♠ 9♠ K♥ 10♣ A♦ 6♦'
    """
    if isinstance(cards, (str, bytes)) or not isinstance(cards, Iterable):
        raise CardFormatError(f"sort_hand takes turub.Card values, not {cards!r:.40}")
    cards = list(cards)
    if any(type(c) is not Card for c in cards):
        raise CardFormatError(f"sort_hand takes turub.Card values, not {next(c for c in cards if type(c) is not Card)!r:.40}")
    position = {s: i for i, s in enumerate(alternating_suits(c.suit for c in cards))}
    return tuple(sorted(cards, key=lambda c: (position[c.suit], -c.rank)))
