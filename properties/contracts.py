"""CrossHair contracts on the rule kernels, through int-only faces of them.

Each function here calls one kernel of :mod:`turub.branch_free_rules` on plain ints (the kernels'
default :data:`~turub.branch_free_rules.PY` logic) and carries its contract as PEP 316 docstring
lines, in a literal block so that the documentation shows them as code.  CrossHair
(``crosshair check --analysis_kind=PEP316``) explores the kernel's code through these
faces: the kernels themselves take a ``logic`` argument that CrossHair would fill with
invented objects, and a contract on a called function would let CrossHair assume it instead
of checking it.

The public rule functions carry their own contracts in :mod:`turub.rules` and
:mod:`turub.contest`.  ``properties/tools/crosshair_deep.sh`` asks CrossHair to confirm each
condition over all paths; ``properties/test_contracts.py`` runs a budgeted search in CI.
"""

from __future__ import annotations

from turub import branch_free_rules

__all__ = ["beats", "trick_winner", "trick_winner4", "may_play", "deal_outcome",
           "next_dealer", "contest_step"]


def beats(challenger: tuple[int, int], holder: tuple[int, int], trump: int) -> bool:
    """:func:`turub.branch_free_rules.beats` on ints.

    ::

        pre: 0 <= challenger[0] <= 3 and 6 <= challenger[1] <= 14
        pre: 0 <= holder[0] <= 3 and 6 <= holder[1] <= 14
        pre: 0 <= trump <= 3
        post: not (__return__ and challenger == holder)
        post: not (__return__ and beats(holder, challenger, trump))
        post: __return__ == ((challenger[0] == holder[0] and challenger[1] > holder[1]) or (challenger[0] == trump != holder[0]))
    """
    return branch_free_rules.beats(challenger, holder, trump)


def trick_winner(cards: list[tuple[int, int]], trump: int) -> int:
    """:func:`turub.branch_free_rules.trick_winner` on ints.

    ::

        pre: 1 <= len(cards) <= 4
        pre: all(0 <= s <= 3 and 6 <= r <= 14 for s, r in cards)
        pre: 0 <= trump <= 3
        post: 0 <= __return__ < len(cards)
        post: cards[__return__][0] in (trump, cards[0][0])
        post: not any(branch_free_rules.beats(c, cards[__return__], trump) for c in cards)
        post: cards[__return__] not in cards[:__return__]
    """
    return branch_free_rules.trick_winner(cards, trump)


def trick_winner4(s0: int, r0: int, s1: int, r1: int, s2: int, r2: int, s3: int, r3: int,
                  trump: int) -> int:
    """:func:`turub.branch_free_rules.trick_winner` on a whole trick given as eight ints.

    ::

        pre: all(0 <= s <= 3 for s in (s0, s1, s2, s3, trump))
        pre: all(6 <= r <= 14 for r in (r0, r1, r2, r3))
        post: 0 <= __return__ <= 3
        post: ((s0, s1, s2, s3)[__return__], (r0, r1, r2, r3)[__return__]) not in list(zip((s0, s1, s2, s3), (r0, r1, r2, r3)))[:__return__]
        post: (s0, s1, s2, s3)[__return__] == (trump if trump in (s0, s1, s2, s3) else s0)
        post: (r0, r1, r2, r3)[__return__] == max(r for s, r in zip((s0, s1, s2, s3), (r0, r1, r2, r3)) if s == (s0, s1, s2, s3)[__return__])
    """
    return branch_free_rules.trick_winner(((s0, r0), (s1, r1), (s2, r2), (s3, r3)), trump)


def may_play(suit: int, led: int, holds_led: bool) -> bool:
    """:func:`turub.branch_free_rules.may_play` on ints.

    ::

        pre: 0 <= suit <= 3 and -1 <= led <= 3
        post: __return__ == (led == -1 or suit == led or not holds_led)
        post: __return__ or (led != -1 and holds_led)
    """
    return branch_free_rules.may_play(suit, led, holds_led)


def deal_outcome(north_south: int, east_west: int, closed_early: bool, known_result: bool) -> int:
    """:func:`turub.branch_free_rules.deal_outcome` on ints (``known_result``: ``early-close=known-result``).

    ::

        pre: north_south >= 0 and east_west >= 0
        pre: (north_south + east_west < 36) if closed_early else (north_south + east_west == 36)
        post: __return__ in (-1, 0, 1)
        post: (__return__ == -1) == (north_south == east_west or (closed_early and not (known_result and max(north_south, east_west) >= 19)))
        post: __return__ == -1 or (north_south, east_west)[__return__] > 18
    """
    return branch_free_rules.deal_outcome(north_south, east_west, closed_early, known_result=known_result)


def next_dealer(dealer: int, outcome: int, direction: int, previous: bool) -> int:
    """:func:`turub.branch_free_rules.next_dealer` on ints.

    ::

        pre: 0 <= dealer <= 3 and -1 <= outcome <= 1 and direction in (1, -1)
        post: 0 <= __return__ <= 3
        post: (__return__ == dealer) == (outcome == -1)
        post: outcome == -1 or __return__ % 2 != outcome
        post: outcome != dealer % 2 or __return__ == (dealer + (-direction if previous else direction)) % 4
    """
    return branch_free_rules.next_dealer(dealer, outcome, direction, previous)


def contest_step(holder: int, mark: int, winner: int, outcome: int, tricks: int,
                 per_deal: bool) -> tuple[int, int, int]:
    """:func:`turub.branch_free_rules.contest_step` on ints.

    ::

        pre: holder in (-1, 0, 1) and winner in (-1, holder) and outcome in (-1, 0, 1)
        pre: (mark == -1) if holder == -1 else (19 <= mark <= 36)
        pre: outcome == -1 or 19 <= tricks <= 36
        post: winner == -1 or __return__ == (holder, mark, winner)
        post: winner != -1 or __return__[2] in (-1, outcome)
        post: winner != -1 or outcome == -1 or __return__[0] == (-1 if per_deal else outcome)
        post: winner != -1 or outcome == -1 or not per_deal or __return__[:2] == (-1, -1)
        post: winner != -1 or per_deal or __return__[0] != holder or __return__[1] == mark
        post: winner != -1 or per_deal or (__return__[2] != -1) == (outcome == holder != -1 and tricks > mark)
        post: per_deal or __return__[2] in (-1, __return__[0])
    """
    return branch_free_rules.contest_step(holder, mark, winner, outcome, tricks, per_deal)
