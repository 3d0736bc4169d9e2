"""What is well-formed: one definition the engine, the kit and the guide read (#28).

:data:`WELL_FORMED` lists every class of input whose reading the specification promises:
where it occurs, the forms read (each with an example and what it is read as), the texts
refused and the clause a refusal names.  The engine reads refereed actions with
:func:`read_action_seat` and :func:`read_trump_suit`; the kit's directed cases ask each row
on both sides (``cases``: the directed cases' ID prefixes); the implementers' guide's table
"What is well-formed" is generated from these rows (``docs/_ext/turub_spec.py``), and
``tests/test_well_formed.py`` fails if a row has no case on a side it promises.

Seats and trump suits in refereed actions are written one way, stated once: a seat is one of
the letters ``N E S W``, a suit named trump one of ``S H D C`` (upper case, nothing around).
Card texts keep their wider notation (``pack.card-notation``).

>>> read_action_seat("E")
Seat.EAST
>>> read_action_seat("east")
Traceback (most recent call last):
...
turub.errors.RulesOptionError: 'east' is not a seat: a seat in an action is one of the letters N, E, S, W
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from .cards import Suit
from .errors import RulesOptionError
from .seats import Seat

__all__ = ["InputClass", "WELL_FORMED", "SEAT_LETTERS", "TRUMP_LETTERS", "read_action_seat",
           "read_trump_suit", "NotASuit", "input_class"]

#: The seats as a refereed action writes them (``table.partnerships``), by seat order.
SEAT_LETTERS: Final = tuple(s.letter for s in Seat)
#: The suits as a trump call writes them (``trump.any-suit``).
TRUMP_LETTERS: Final = tuple(s.letter for s in Suit)


class InputClass(NamedTuple):
    """One class of input and how it is read: ``read`` holds ``(form, example, read as)``,
    ``refused`` the example texts refused (as ``refused_as``, the clause a refusal names);
    ``cases`` the directed cases' ID prefixes that ask it, read and refused."""

    id: str
    where: str
    read: tuple[tuple[str, str, str], ...]
    refused: tuple[str, ...]
    refused_as: str
    clause: str
    cases: tuple[str, ...] = ()
    why: str = ""
    rules: tuple[tuple[str, str], ...] = ()  # the rule options it holds under (none: any)


WELL_FORMED: Final[tuple[InputClass, ...]] = (
    InputClass(
        "action-seat", "the seat of a refereed action (`seat` of a trump, play, signal or close)",
        read=(("initial", "N", "North"),),
        refused=("n", "north", "North", "NORTH", " N ", "Nx", "NE", "NORTHEAST", "", "Wes",
                 "SOUTH WEST"),
        refused_as="table.partnerships", clause="table.partnerships",
        cases=("directed/seat/initial/", "directed/refused/seat-text-"),
        why="one spelling, the letters N E S W: a name, another case or spaces are refused"),
    InputClass(
        "trump-suit", "the suit of a trump call (`suit` of a trump action)",
        read=(("letter", "H", "hearts"),),
        refused=("h", "♥", "♡", "hearts", "Hearts", " H ", "NT", "no-trump", "none", "X", "", "SH"),
        refused_as="trump.any-suit", clause="trump.any-suit",
        cases=("directed/notation/ascii/refereed", "directed/refused/trump-named-"),
        why="one of the four suits by its letter S H D C; no no-trump call, no symbol"),
    InputClass(
        "card-text", "a card (in a pack, a hand, a trick, a play)",
        read=(("ascii", "10H", "ten of hearts"), ("symbol", "10♥", "ten of hearts"),
              ("outline symbol", "10♡", "ten of hearts"), ("t-for-ten", "TH", "ten of hearts"),
              ("lower case", "10h", "ten of hearts"), ("spaces around", " AH ", "ace of hearts")),
        refused=("ZZ", "1H", "11S", "AX", "", "A", "10", "SA", "A♣♣", "0S", "AS AS", "T0H", "KKS"),
        refused_as="pack.card-notation", clause="pack.card-notation",
        cases=("directed/notation/", "directed/refused/card-text-"),
        why="rank then suit; a tab or a newline around a card is not a space"),
    InputClass(
        "signal-kind", "the kind of a signal (`signal` of a signal action) under "
                       "`signal-kinds=documented`",
        read=(("the knock", "knock", "a strong suit"), ("the click", "click", "a weak suit")),
        refused=("strong", "weak", "Knock", "wink"),
        refused_as="signal.kinds", clause="signal.kinds",
        cases=("directed/refused/documented-signal-",),
        why="the two documented kinds by their names; the sources' words for what they mean "
            "are not kinds (under the default, any non-empty word is a kind)",
        rules=(("signal-kinds", "documented"),)),
)


def input_class(class_id: str) -> InputClass:
    """The row of :data:`WELL_FORMED` called ``class_id``."""
    for row in WELL_FORMED:
        if row.id == class_id:
            return row
    raise KeyError(class_id)


def read_action_seat(text: Any) -> Seat:
    """``table.partnerships``: the seat a refereed action names, one of the letters N E S W."""
    if type(text) is str and text in SEAT_LETTERS:
        return Seat(SEAT_LETTERS.index(text))
    raise RulesOptionError(f"{text!r:.40} is not a seat: a seat in an action is one of the "
                           "letters N, E, S, W", clause="table.partnerships")


class NotASuit(NamedTuple):
    """A text named trump that is not one of ``S H D C``: the deal refuses it where it judges
    the suit (after the moment and the caller: ``play.refusal-order``)."""

    text: Any

    def __repr__(self) -> str:
        return repr(self.text)


def read_trump_suit(text: Any) -> Suit | NotASuit:
    """``trump.any-suit``: the suit a trump call names, one of the letters S H D C (anything
    else a :class:`NotASuit`, which :meth:`~turub.deal.Deal.name_trump` refuses in turn)."""
    if type(text) is str and text in TRUMP_LETTERS:
        return Suit(TRUMP_LETTERS.index(text))
    return NotASuit(text)
