"""The contest for the stake (contest.*, stake.per-deal), with guide §04's example."""

import pytest

from turub import Contest, ContestDecidedError, Rules, Side, contest_of, deal_result
from turub.properties.tags import verifies

A, B = Side.NORTH_SOUTH, Side.EAST_WEST


def win(side, tricks):
    return deal_result(tricks, 36 - tricks) if side is A else deal_result(36 - tricks, tricks)


DRAW = deal_result(18, 18)


@verifies("contest.first-win-sets-mark", "contest.insufficient-win", "contest.second-win-beats-mark")
def test_guide_example_a_wins_with_22_after_20_and_an_insufficient_19():
    # 000 §04: A wins 20-16; 19-17 is not enough; 22-14 wins the contest.
    c = Contest().record(win(A, 20))
    assert (c.holder, c.mark, c.winner) == (A, 20, None)
    c = c.record(win(A, 19))
    assert (c.holder, c.mark, c.winner, c.clauses) == (A, 20, None, ("contest.insufficient-win",))
    c = c.record(win(A, 22))
    assert c.winner is A and c.clauses == ("contest.second-win-beats-mark",)


@verifies("contest.other-side-resets")
def test_guide_example_b_wins_instead_and_sets_its_own_mark():
    c = contest_of([win(A, 20), win(A, 19), win(B, 19)])
    assert (c.holder, c.mark, c.winner, c.clauses) == (B, 19, None, ("contest.other-side-resets",))
    assert contest_of([win(A, 20), win(B, 19), win(A, 21)]).winner is None  # A starts over


@verifies("contest.insufficient-win")
def test_insufficient_win_keeps_the_mark():
    c = contest_of([win(A, 20), win(A, 20)])
    assert (c.mark, c.winner) == (20, None)


@verifies("contest.draw-keeps-sequence", "result.closed-early")
def test_draws_never_break_a_sequence():
    c = contest_of([win(A, 19), DRAW, DRAW, deal_result(18, 10, closed_early=True), win(A, 20)])
    assert c.winner is A and c.deals == 5


@verifies("contest.draw-keeps-sequence")
def test_a_draw_first_starts_nothing():
    c = contest_of([DRAW])
    assert (c.holder, c.mark, c.winner) == (None, None, None)


@verifies("contest.unbeatable-mark", "contest.other-side-resets")
def test_a_first_win_of_36_can_only_be_ended_by_the_other_side():
    c = contest_of([win(A, 36), win(A, 36)])
    assert c.winner is None and "contest.unbeatable-mark" in c.clauses
    c = c.record(win(B, 19))
    assert (c.holder, c.mark) == (B, 19)


@verifies("contest.decided-is-final")
def test_recording_after_the_contest_is_decided_is_refused_and_changes_nothing():
    c = contest_of([win(B, 19), win(B, 25)])
    assert c.winner is B
    before = c
    with pytest.raises(ContestDecidedError) as e:
        c.record(DRAW)
    assert e.value.clause == "contest.decided-is-final" and c == before


@verifies("stake.per-deal")
def test_stake_per_deal_settles_on_each_won_deal():
    rules = Rules(stake="per-deal")
    assert Contest().record(win(B, 19), rules).winner is B
    assert Contest().record(DRAW, rules).winner is None
