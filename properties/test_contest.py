"""A deal's result, and the contest for the stake over a sequence of deals.

Checked through the implementation interface (``impl``: ``deal_result`` and ``contest``)
against the contest stated as runs of wins (``oracles.contest_states``)."""

from hypothesis import strategies as st

from turub.properties import strategies as S
from turub.properties.checks import (check_contest, check_contest_decided_exactly_when_due,
                                     check_contest_draws_and_short_wins_change_nothing,
                                     check_contest_mark_holds, check_contest_other_side_resets,
                                     check_contest_unbeatable_mark, check_deal_result,
                                     check_stake_per_deal, requires)
from turub.properties.factory import property_test, worked
from turub.properties.tags import verifies

# Guide §04: A (North-South here) wins 20-16; 19-17 next is not enough; 22-14 later wins.
A_WINS = [[20, 16, False], [19, 17, False], [22, 14, False]]
# ... or B wins instead: A's sequence ends and B's count is the new mark.
B_WINS_INSTEAD = [[20, 16, False], [19, 17, False], [14, 22, False]]
# 18-18 is a draw and breaks nothing.
DRAW_BETWEEN = [[20, 16, False], [18, 18, False], [21, 15, False]]
# A win short of the mark does not lower it: 20, then 19 (short), then 20 is still short.
SHORT_THEN_EQUAL = [[20, 16, False], [19, 17, False], [20, 16, False]]
# A first win of 36 cannot be beaten.
WHITEWASH = [[36, 0, False], [36, 0, False], [0, 36, False], [10, 26, False]]
STANDARD = {}


@verifies("result.more-tricks-wins", "result.draw-18", "result.closed-early", "result.tricks-add-up")
@property_test(result=S.deal_results(valid_only=False), examples=[
    worked([18, 18, False]),
    worked([20, 16, False]),
    worked([16, 20, False]),
    worked([30, 5, True]),
    worked([20, 20, False]),
])
def test_more_tricks_win_and_eighteen_each_is_a_draw(impl, result):
    requires(impl, "deal_result")
    check_deal_result(impl, *result)


@verifies("contest.first-win-sets-mark", "contest.second-win-beats-mark", "contest.insufficient-win",
          "contest.draw-keeps-sequence", "contest.other-side-resets", "contest.unbeatable-mark",
          "contest.decided-is-final", "stake.per-deal")
@property_test(results=S.contest_sequences(), rules=S.rules_dicts(), examples=[
    worked(A_WINS, STANDARD),
    worked(B_WINS_INSTEAD, STANDARD),
    worked(DRAW_BETWEEN, STANDARD),
    worked(SHORT_THEN_EQUAL, STANDARD),
    worked(WHITEWASH, STANDARD),
    worked(A_WINS, {"stake": "per-deal"}),
])
def test_the_contest_follows_the_runs_of_wins_after_every_deal(impl, results, rules):
    requires(impl, "contest")
    check_contest(impl, results, rules)


@verifies("contest.first-win-sets-mark", "contest.insufficient-win", "contest.draw-keeps-sequence")
@property_test(results=S.contest_sequences(), examples=[
    worked(A_WINS),
    worked(SHORT_THEN_EQUAL),
    worked(DRAW_BETWEEN),
])
def test_insufficient_win_keeps_the_mark(impl, results):
    requires(impl, "contest")
    check_contest_mark_holds(impl, results, STANDARD)


@verifies("contest.insufficient-win", "contest.draw-keeps-sequence", "result.draw-18",
          "result.closed-early")
@property_test(results=S.contest_sequences(), examples=[
    worked(A_WINS),
    worked(SHORT_THEN_EQUAL),
    worked(DRAW_BETWEEN),
    worked([[20, 16, False], [5, 3, True], [18, 18, False]]),
])
def test_a_draw_or_a_short_win_changes_nothing(impl, results):
    requires(impl, "contest")
    check_contest_draws_and_short_wins_change_nothing(impl, results, STANDARD)


@verifies("contest.other-side-resets", "contest.first-win-sets-mark")
@property_test(results=S.contest_sequences(), examples=[
    worked(B_WINS_INSTEAD),
    worked([[30, 6, False], [14, 22, False], [6, 30, False]]),
])
def test_the_other_sides_win_resets_the_mark_to_its_own_count(impl, results):
    requires(impl, "contest")
    check_contest_other_side_resets(impl, results, STANDARD)


@verifies("contest.second-win-beats-mark", "contest.decided-is-final", "contest.draw-keeps-sequence")
@property_test(results=S.contest_sequences(), rules=S.rules_dicts(), examples=[
    worked(A_WINS, STANDARD),
    worked(B_WINS_INSTEAD + [[10, 26, False]], STANDARD),
    worked(SHORT_THEN_EQUAL, STANDARD),
    worked(DRAW_BETWEEN + [[22, 14, False]], STANDARD),
])
def test_the_contest_is_decided_exactly_when_due_and_never_earlier(impl, results, rules):
    requires(impl, "contest")
    check_contest_decided_exactly_when_due(impl, results, rules)


@verifies("contest.unbeatable-mark")
@property_test(results=st.lists(S.complete_results(near=(36,)), max_size=6).map(
    lambda rest: [[36, 0, False]] + rest), examples=[
    worked(WHITEWASH),
])
def test_a_first_win_of_36_can_only_be_ended_by_the_other_side(impl, results):
    requires(impl, "contest")
    check_contest_unbeatable_mark(impl, results, STANDARD)


@verifies("stake.per-deal", "contest.draw-keeps-sequence")
@property_test(results=S.contest_sequences(min_size=1), examples=[
    worked([[18, 18, False], [20, 16, False]]),
    worked([[2, 1, True], [16, 20, False]]),
])
def test_with_stakes_per_deal_the_first_win_settles_it(impl, results):
    requires(impl, "contest")
    check_stake_per_deal(impl, results)
