"""The score sheet of a sitting: an open-ended list of deals (clauses ``sheet.*``).

Each row holds the deal's number, its dealer, the trump named, the tricks per side and
the result.  The sheet itself only records deals (``sheet.contest-derived``); who deals
next (``dealer.*``) and the state of the contest (``contest.*``) are derived from the rows
at any point.  A decided contest is final (``contest.decided-is-final``): the next deal
recorded opens a new contest for a new stake.

>>> from turub.rules import deal_result
>>> sheet = Sitting(first_dealer=Seat.NORTH)
>>> row = sheet.record(deal_result(20, 16)); sheet.dealer, sheet.contest.mark
(Seat.EAST, 20)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, SupportsIndex

from .cards import PACK, Card, Suit
from . import argument_checks
from .errors import RuleError, refuse_pickle_unless_named
from .contest import Contest, contest_step
from .options import Rules
from .rules import (DealResult, FirstDealer, NextDealer, PacketCheck, check_packets, first_dealer,
                    next_dealer)
from .seats import Seat, Side, seats_from

__all__ = ["SheetRow", "Sitting", "HouseRuleSitting", "draw_first_dealer"]


def draw_first_dealer(seed: int, rules: Rules = Rules(),
                      decide: Callable[[Sequence[Mapping[Seat, Card]]], FirstDealer | None] | None = None
                      ) -> FirstDealer:
    """The first dealer of a sitting, drawn from a pack shuffled from ``seed``.

    ``dealer.first-draw``: one card is shown to each player from the top of the pack, going
    round in the direction of play from North; ``dealer.first-draw-ties``: while players tie
    for the highest rank, only they are shown another card each.  The pack is shuffled
    again if it runs out (it practically never does).  ``decide``, if given, is asked after
    each round with the rounds so far (a variant's house rule: the draw it decides, or
    ``None`` to let the standard rule read the round).

    >>> fd = draw_first_dealer(3)
    >>> fd.seat, len(fd.rounds), fd.clauses
    (Seat.EAST, 2, ('dealer.first-draw', 'dealer.first-draw-ties'))
    """
    argument_checks.whole(seed, "dealer.first-draw", "a seed", at_least=-(2 ** 10000))
    argument_checks.rules(rules)
    rng = random.Random(seed)

    def rounds() -> Iterator[Mapping[Seat, Card]]:
        pack: list[Card] = []
        contenders = list(seats_from(Seat.NORTH, rules.direction))
        while True:
            if len(pack) < len(contenders):
                pack = list(PACK)
                rng.shuffle(pack)
            shown = {seat: pack.pop() for seat in contenders}
            yield shown
            top = max(card.rank for card in shown.values())
            contenders = [seat for seat in contenders if shown[seat].rank == top]
            if len(contenders) == 1:
                return  # decided: nobody draws again (dealer.first-draw-ties)

    if decide is None:
        return first_dealer(rounds())
    drawn: list[Mapping[Seat, Card]] = []
    for shown in rounds():
        drawn.append(shown)
        found = decide(drawn)
        if found is not None:
            return found
    return first_dealer(drawn)


@dataclass(frozen=True, slots=True)
class SheetRow:
    """One deal on the sheet, with what follows from it."""

    number: int
    dealer: Seat
    trump: Suit | None
    result: DealResult
    next_dealer: NextDealer
    contest: Contest  # the contest this deal was recorded in, after it
    contest_number: int


class Sitting:
    """A sitting's score sheet.  Rows are immutable; the sheet only grows.

    ``sheet.one-deal-per-row``, ``sheet.open-ended``: any number of deals.
    """

    __slots__ = ("first_dealer", "rules", "_rows", "_last", "_keep")
    # The hooks of the decisions a house rule may override (turub.decisions: each decision's
    # ``hooks``; HouseRuleSitting overrides them): the standard ones here.
    #: Who deals after ``dealer``'s deal won by ``winner``: ``(dealer, winner, rules)``.
    decide_next_dealer = staticmethod(next_dealer)
    #: The contest after one more deal: ``(contest, result, rules)``.
    decide_contest = staticmethod(contest_step)
    #: The first dealer from the rounds of cards shown: ``(rounds)`` (``dealer.first-draw``).
    decide_first_dealer = staticmethod(first_dealer)
    #: Whether a deal as dealt stands: ``(packets, dealer, rules)`` (``deal.dealer-check``).
    check_deal = staticmethod(check_packets)

    def __init__(self, first_dealer: Seat = Seat.NORTH, rules: Rules = Rules(),
                 results: Iterable[DealResult] = (), *, keep_rows: bool = True) -> None:
        """A sheet starting with ``first_dealer``.  With ``keep_rows=False`` the sheet keeps
        only its last row (the dealer and the contest derive from it), so a long run of
        deals takes constant memory; :attr:`rows` and :attr:`contests` then hold the last only.
        """
        self.first_dealer = argument_checks.seat(first_dealer, "dealer.first-draw")
        self.rules = argument_checks.rules(rules)
        self._rows: list[SheetRow] = []
        self._last: SheetRow | None = None
        self._keep = argument_checks.flag(keep_rows, "sheet.open-ended", "keep_rows")
        for result in argument_checks.sequence(results, "sheet.one-deal-per-row", "the results"):
            self.record(result)

    @property
    def rows(self) -> tuple[SheetRow, ...]:
        return tuple(self._rows)

    @property
    def dealer(self) -> Seat:
        """Who deals the next deal (``dealer.after-win``, ``-after-loss``, ``-after-draw``)."""
        return self._last.next_dealer.seat if self._last else self.first_dealer

    @property
    def contest(self) -> Contest:
        """The contest now: the last one, or a fresh one if the last was decided."""
        if not self._last or self._last.contest.is_decided:
            return Contest()
        return self._last.contest

    @property
    def contests(self) -> tuple[Contest, ...]:
        """Every contest of the sitting, decided ones first, in order."""
        last: dict[int, Contest] = {}
        for row in self._rows:
            last[row.contest_number] = row.contest
        return tuple(last.values())

    def record(self, result: DealResult, trump: Suit | None = None) -> SheetRow:
        """Add the next deal's result (``sheet.tap-winner``, ``sheet.end-match-draw``)."""
        if not isinstance(result, DealResult):
            raise RuleError(f"record takes a DealResult (see turub.rules.deal_result), not {result!r:.60}",
                            clause="sheet.one-deal-per-row")
        trump = argument_checks.suit(trump, "trump.any-suit", none=True, text=False)
        previous = self._last
        number = previous.number + 1 if previous else 1
        if previous is None:
            contest_number, contest = 1, Contest()
        elif previous.contest.is_decided:
            contest_number, contest = previous.contest_number + 1, Contest()
        else:
            contest_number, contest = previous.contest_number, previous.contest
        dealer = self.dealer
        row = SheetRow(number, dealer, trump, result,
                       self.decide_next_dealer(dealer, result.winner, self.rules),
                       self.decide_contest(contest, result, self.rules), contest_number)
        if not self._keep:
            self._rows.clear()
        self._rows.append(row)
        self._last = row
        return row

    def __copy__(self) -> Sitting:
        """An independent sheet: a deal recorded on the copy never reaches this one (the rows
        themselves are immutable, so they are shared)."""
        twin = object.__new__(type(self))
        twin.first_dealer, twin.rules, twin._last, twin._keep = (
            self.first_dealer, self.rules, self._last, self._keep)
        twin._rows = list(self._rows)
        return twin

    def __deepcopy__(self, memo: dict[int, Any]) -> Sitting:
        twin = memo[id(self)] = self.__copy__()
        return twin

    def __reduce_ex__(self, protocol: SupportsIndex) -> Any:
        """Pickled by value (the rows); the sheet of a rule variant is refused, as its class
        cannot be found again by name."""
        refuse_pickle_unless_named(type(self), "a sheet kept by a rule variant", "pickle its "
                                   "rows' results and record them again on variant.sitting()")
        return super().__reduce_ex__(protocol)

    def dealers(self) -> tuple[Seat, ...]:
        """The dealer of every deal so far, then the next deal's dealer."""
        return tuple(r.dealer for r in self._rows) + (self.dealer,)


class HouseRuleSitting(Sitting):
    """The score sheet of a variant whose house rules decide the next dealer or the contest
    (``Variant.sitting``): its hooks ask the variant.  Each variant keeps its sheets with its
    own class, :meth:`for_variant`: this one with the variant bound (data only)."""

    __slots__ = ()

    #: The variant the sheet is kept by (bound by :meth:`for_variant`).
    variant: ClassVar[Any] = None

    @classmethod
    def for_variant(cls, variant: Any) -> type[HouseRuleSitting]:
        """The sheet class keeping score by ``variant``."""
        made = type(f"Sitting[{variant.name}]", (cls,),
                         {"__slots__": (), "__module__": cls.__module__, "variant": variant})
        made.__qualname__ = made.__name__
        return made

    def decide_next_dealer(self, dealer: Seat, winner: Side | None, rules: Rules) -> NextDealer:  # type: ignore[override]
        """:meth:`Sitting.decide_next_dealer` as the variant decides it."""
        return self.variant.next_dealer(dealer, winner, rules)

    def decide_contest(self, contest: Contest, result: DealResult, rules: Rules) -> Contest:  # type: ignore[override]
        """:meth:`Sitting.decide_contest` as the variant decides it."""
        return self.variant.contest_step(contest, result, rules)

    @classmethod
    def decide_first_dealer(cls, rounds: Iterable[Mapping[Seat, Card]]) -> FirstDealer:  # type: ignore[override]
        """:meth:`Sitting.decide_first_dealer` as the variant decides it."""
        return cls.variant.first_dealer(rounds)

    @classmethod
    def check_deal(cls, packets: Sequence[Any], dealer: Seat, rules: Rules | None = None) -> PacketCheck:  # type: ignore[override]
        """:meth:`Sitting.check_deal` as the variant decides it."""
        return cls.variant.check_packets(packets, dealer, rules)
