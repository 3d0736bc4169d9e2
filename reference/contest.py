"""The contest: the traditional stake, won over a sequence of deals (clauses ``contest.*``).

A side wins the contest with two deal wins and no loss between them, the later win taking
more tricks than the first (the *mark*).  A win that does not beat the mark counts as a
draw; draws never break a sequence; a win by the other side ends it and sets that side's
own mark.  Under the house option ``stake=per-deal`` each won deal settles the stake.

>>> from turub.rules import deal_result
>>> c = Contest()
>>> c = c.record(deal_result(20, 16)); (c.holder, c.mark)
(Side.NORTH_SOUTH, 20)
>>> c = c.record(deal_result(19, 17)); (c.mark, c.winner)
(20, None)
>>> c = c.record(deal_result(22, 14)); c.winner
Side.NORTH_SOUTH
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .clauses import cite
from . import argument_checks
from .errors import ContestDecidedError, RuleError
from .options import Rules
from .rules import TRICKS_PER_DEAL, DealResult
from .seats import Side

__all__ = ["Contest", "contest_step", "contest_of", "contests_after"]


@dataclass(frozen=True, slots=True)
class Contest:
    """The state of one contest.

    ``holder`` is the side whose sequence is running (``None`` before any win), ``mark``
    the trick count its next win must beat, ``winner`` the side that won the contest
    (``None`` while open), ``deals`` how many results it has taken, and ``clauses`` the
    clauses that decided the last step.
    """

    holder: Side | None = None
    mark: int | None = None
    winner: Side | None = None
    deals: int = 0
    clauses: tuple[str, ...] = ()

    @property
    def is_decided(self) -> bool:
        return self.winner is not None

    def record(self, result: DealResult, rules: Rules = Rules()) -> Contest:
        """The contest after one more deal result (see :func:`contest_step`)."""
        return contest_step(self, result, rules)


def contest_step(contest: Contest, result: DealResult, rules: Rules = Rules()) -> Contest:
    """One deal result applied to the contest.  Pure: returns the new state.

    * ``contest.decided-is-final``: a decided contest takes no more results.
    * ``contest.draw-keeps-sequence``: a drawn deal changes nothing.
    * ``contest.first-win-sets-mark`` / ``contest.other-side-resets``: a win by a side with
      no running sequence starts one, its trick count the mark.
    * ``contest.second-win-beats-mark``: a win by the holder with more tricks than the mark
      decides the contest.
    * ``contest.insufficient-win``: a win by the holder that does not beat the mark counts
      as a draw and leaves the mark; ``contest.unbeatable-mark`` is cited when the mark
      is 36, which no win can beat.
    * ``stake.per-deal``: under that option every won deal decides the stake on its own:
      there is no sequence and no mark (``holder`` and ``mark`` stay ``None``).

    Contract (checked by CrossHair)::

        pre: (contest.holder is None) == (contest.mark is None)
        pre: contest.winner is None or contest.winner is contest.holder or contest.holder is None
        pre: result.winner is None or result.tricks[result.winner] > 18
        raises: ContestDecidedError
        post: contest.winner is None and __return__.deals == contest.deals + 1
        post: result.winner is not None or (__return__.holder, __return__.mark, __return__.winner) == (contest.holder, contest.mark, None)
        post: rules.stake == "per-deal" or __return__.holder is not contest.holder or __return__.mark == contest.mark
        post: rules.stake == "per-deal" or (__return__.winner is not None) == (result.winner is not None and result.winner is contest.holder and result.tricks[result.winner] > contest.mark)
        post: __return__.winner is None or __return__.winner is result.winner
    """
    _check(contest, result, rules)
    if contest.winner is not None:
        raise ContestDecidedError(
            f"the contest was decided for {contest.winner} after {contest.deals} deal(s): "
            "start a new contest for a new stake")
    deals = contest.deals + 1
    side = result.winner
    if side is None:
        return Contest(contest.holder, contest.mark, None, deals, cite("contest.draw-keeps-sequence"))
    tricks = result.tricks[side]
    if rules.stake == "per-deal":
        return Contest(None, None, side, deals, cite("stake.per-deal"))
    if contest.holder is not side:
        clause = "contest.first-win-sets-mark" if contest.holder is None else "contest.other-side-resets"
        return Contest(side, tricks, None, deals, cite(clause))
    assert contest.mark is not None
    if tricks > contest.mark:
        return Contest(side, contest.mark, side, deals, cite("contest.second-win-beats-mark"))
    clauses = ["contest.insufficient-win"]
    if contest.mark >= TRICKS_PER_DEAL:
        clauses.append("contest.unbeatable-mark")
    return Contest(side, contest.mark, None, deals, cite(*clauses))


def contest_of(results: Iterable[DealResult], rules: Rules = Rules()) -> Contest:
    """The contest after a sequence of results, from an open contest."""
    contest = Contest()
    for result in _results(results):
        contest = contest_step(contest, result, rules)
    return contest


def contests_after(results: Iterable[DealResult], rules: Rules = Rules()) -> Iterable[Contest]:
    """The contest after each result of a run of deals, as a score sheet keeps it.

    ``contest.decided-is-final``: a decided contest takes no more results, so the result
    after a decision opens a new contest for a new stake (under ``stake.per-deal`` every
    won deal settles a stake, and the next result opens the next one).
    """
    contest = Contest()
    for result in _results(results):
        if contest.is_decided:
            contest = Contest()
        contest = contest_step(contest, result, rules)
        yield contest


def _check(contest: object, result: object, rules: object) -> None:
    """The arguments of :func:`contest_step`, checked before anything is decided."""
    if not isinstance(contest, Contest):
        raise RuleError(f"a contest is a turub.Contest (derived from the sheet), not {contest!r:.60}",
                        clause="sheet.contest-derived")
    if not isinstance(result, DealResult):
        raise RuleError(f"a result is a turub.DealResult (see turub.deal_result), not {result!r:.60}",
                        clause="result.more-tricks-wins")
    argument_checks.rules(rules)


def _results(results: object) -> list[DealResult]:
    return argument_checks.sequence(results, "result.more-tricks-wins", "the results")
