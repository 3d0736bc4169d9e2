"""The rules as branch-free kernels over small integers, for proofs.

Each kernel restates one rule of :mod:`turub.rules` or :mod:`turub.contest` as a formula
over small integers, with every choice made by an injectable :class:`Logic` (if-then-else,
and, or, not) instead of a Python ``if``.  The same function then runs two ways:

* on ints with :data:`PY` (the default), where the proofs' exhaustive enumerations check
  it against the public functions over their whole finite domain;
* on z3 terms with ``Logic(z3.If, z3.And, z3.Or, z3.Not)``, where the SMT proofs in
  :mod:`turub.properties.proofs` check it against a declarative statement of the rule.

So a proof about a kernel is a proof about the engine: the enumeration ties the two
together.  The engine itself does not call the kernels and does not need z3.  Their
CrossHair contracts sit on int-only faces of them in :mod:`turub.properties.contracts`
(CrossHair would otherwise invent ``logic`` objects too).

The integer encoding (:data:`NOBODY` stands for every ``None``):

* a suit is ``0..3`` (:class:`~turub.cards.Suit`), a rank ``6..14``
  (:class:`~turub.cards.Rank`), a card the pair ``(suit, rank)``;
* a seat is ``0..3`` (:class:`~turub.seats.Seat`), a side ``0`` (North-South) or ``1``
  (East-West), a direction ``+1`` (clockwise) or ``-1`` (counter-clockwise);
* a deal's outcome is the winning side or :data:`NOBODY` for a draw;
* the contest's state is ``(holder, mark, winner)``, each :data:`NOBODY` when unset.

>>> trick_winner(((3, 14), (3, 14), (1, 6), (3, 13)), trump=1)
2
>>> next_dealer(0, outcome=0, direction=1, previous=False)
1
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

__all__ = [
    "Logic", "PY", "NOBODY", "TRICKS_PER_DEAL", "beats", "trick_winner", "may_play",
    "deal_outcome", "next_dealer", "contest_step",
]

#: The integer standing for "nobody / no suit / no mark": a draw, a lead, an open contest.
NOBODY: Final = -1
#: Tricks in a complete deal (``play.all-tricks``).
TRICKS_PER_DEAL: Final = 36


@dataclass(frozen=True)
class Logic:
    """The connectives a kernel decides with: if-then-else, and, or, not."""

    ite: Callable[[Any, Any, Any], Any]
    and_: Callable[..., Any]
    or_: Callable[..., Any]
    not_: Callable[[Any], Any]


def _ite(condition: Any, then: Any, otherwise: Any) -> Any:
    return then if condition else otherwise


def _and(*conditions: Any) -> bool:
    return all(conditions)


def _or(*conditions: Any) -> bool:
    return any(conditions)


def _not(condition: Any) -> bool:
    return not condition


#: Plain Python on ints and bools.
PY: Final = Logic(_ite, _and, _or, _not)

Card = tuple[int, int]


def beats(challenger: Card, holder: Card, trump: int, logic: Logic = PY) -> Any:
    """Whether ``challenger``, played later, takes the trick from the card ``holder``.

    ``trick.highest-led`` and ``trick.highest-trump``: a card of the holder's suit that
    is strictly higher, or a trump over a card that is not.  ``trick.earliest-identical``:
    strictly, so an identical copy played later never takes it.
    """
    same_suit_higher = logic.and_(challenger[0] == holder[0], challenger[1] > holder[1])
    trumps_it = logic.and_(challenger[0] == trump, holder[0] != trump)
    return logic.or_(same_suit_higher, trumps_it)


def trick_winner(cards: Sequence[Card], trump: int, logic: Logic = PY) -> Any:
    """The position (0 = the lead) of the card winning the trick ``cards``.

    The lead holds the trick until a later card :func:`beats` the card holding it.
    """
    best_suit, best_rank = cards[0]
    position: Any = 0
    for i in range(1, len(cards)):
        take = beats(cards[i], (best_suit, best_rank), trump, logic)
        best_suit = logic.ite(take, cards[i][0], best_suit)
        best_rank = logic.ite(take, cards[i][1], best_rank)
        position = logic.ite(take, i, position)
    return position


def may_play(suit: int, led: int, holds_led: Any, logic: Logic = PY) -> Any:
    """Whether a card of ``suit`` may be played to a trick led in ``led``.

    ``led`` is :data:`NOBODY` when the card leads; ``holds_led`` says whether the hand
    holds a card of the led suit.  ``play.follow-suit``: holding the led suit, play it;
    ``play.void-any-card`` and ``play.no-forced-trump``: void, any card.
    """
    return logic.or_(led == NOBODY, suit == led, logic.not_(holds_led))


def deal_outcome(north_south: int, east_west: int, closed_early: Any, logic: Logic = PY,
                 known_result: Any = False) -> Any:
    """The side winning a deal with these trick counts, or :data:`NOBODY` for a draw.

    ``result.more-tricks-wins``, ``result.draw-18``, ``result.closed-early``: a deal closed
    early is a draw, unless ``known_result`` (the option ``early-close=known-result``) and a
    side already has more than 18 tricks.  The counts are assumed valid
    (``result.tricks-add-up``: 36 in all, fewer if closed early).
    """
    known = logic.and_(known_result, logic.or_(north_south > 18, east_west > 18))
    draw = logic.or_(logic.and_(closed_early, logic.not_(known)), north_south == east_west)
    return logic.ite(draw, NOBODY, logic.ite(north_south > east_west, 0, 1))


def next_dealer(dealer: int, outcome: int, direction: int, previous: Any,
                logic: Logic = PY) -> Any:
    """The seat dealing after ``dealer``'s deal ended with ``outcome``.

    ``dealer.after-draw``: a draw, the same dealer.  ``dealer.after-loss``: the dealer's
    side lost, the dealer's partner.  ``dealer.after-win``: the dealer's side won, the
    opponent next in ``direction``, or the other opponent when ``previous`` (the option
    ``opponent-dealer=previous``).
    """
    partner = (dealer + 2) % 4
    following = (dealer + direction) % 4
    opponent = logic.ite(previous, (following + 2) % 4, following)
    won = outcome == dealer % 2
    return logic.ite(outcome == NOBODY, dealer, logic.ite(won, opponent, partner))


def contest_step(holder: int, mark: int, winner: int, outcome: int, tricks: int,
                 per_deal: Any = False, logic: Logic = PY) -> tuple[Any, Any, Any]:
    """The contest ``(holder, mark, winner)`` after a deal won by ``outcome`` with ``tricks``.

    ``contest.decided-is-final``: a decided contest stays as it is (the engine refuses
    the result).  ``contest.draw-keeps-sequence``: a draw changes nothing.
    ``contest.first-win-sets-mark``, ``contest.other-side-resets``: a win by a side
    without the running sequence starts its own, ``tricks`` the mark.
    ``contest.second-win-beats-mark``: the holder's win with more than the mark decides.
    ``contest.insufficient-win``: any other win by the holder changes nothing.
    ``stake.per-deal`` (``per_deal``): every won deal decides, with no sequence and no mark.
    """
    unchanged = logic.or_(winner != NOBODY, outcome == NOBODY)
    decides = logic.or_(per_deal, logic.and_(holder == outcome, tricks > mark))
    new_holder = outcome
    new_mark = logic.ite(holder != outcome, tricks, mark)
    if per_deal is not False:  # the option is a constant of the run; only a live one adds terms
        new_holder = logic.ite(per_deal, NOBODY, new_holder)
        new_mark = logic.ite(per_deal, NOBODY, new_mark)
    return (
        logic.ite(unchanged, holder, new_holder),
        logic.ite(unchanged, mark, new_mark),
        logic.ite(unchanged, winner, logic.ite(decides, outcome, NOBODY)),
    )
