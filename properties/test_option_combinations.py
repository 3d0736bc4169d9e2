"""Every rule option, every value: the strategies reach each one, and under each
combination a whole deal, the dealer rotation and the contest follow the rules."""

import itertools

import pytest
from hypothesis import find, settings

from turub.properties import oracles as O
from turub.properties import strategies as S
from turub.properties.checks import (check_contest, check_deal, check_next_dealer, check_referee,
                                     requires)
from turub.properties.factory import property_test, worked
from turub.properties.tags import verifies

OPTION_VALUES = {
    "direction": ("clockwise", "counterclockwise"),
    "stake": ("contest", "per-deal"),
    "opponent-dealer": ("next", "previous"),
}
EVERY_COMBINATION = [dict(zip(OPTION_VALUES, values))
                     for values in itertools.product(*OPTION_VALUES.values())]
_IDS = ["/".join(r.values()) for r in EVERY_COMBINATION]


@verifies("table.direction", "stake.per-deal", "dealer.after-win")
@pytest.mark.parametrize(("option", "value"),
                         [(k, v) for k, vs in OPTION_VALUES.items() for v in vs])
def test_the_strategies_reach_every_option_value(option, value):
    quick = settings(database=None, max_examples=500, derandomize=True)
    # rules_dicts() feeds every property that takes rules, the action streams included.
    find(S.rules_dicts(), lambda d: d.get(option) == value, settings=quick)
    find(S.full_rules_dicts(), lambda d: d[option] == value, settings=quick)


@verifies("table.direction", "stake.per-deal", "dealer.after-win", "dealer.after-loss",
          "dealer.after-draw", "contest.second-win-beats-mark")
@pytest.mark.parametrize("rules", EVERY_COMBINATION, ids=_IDS)
@property_test(case=S.action_streams(max_plays=144), results=S.contest_sequences(),
               scale=0.1, examples=[
    worked(case=S.DealCase(1, "S", 40, {}, play_seed=1),
           results=[[20, 16, False], [19, 17, False], [22, 14, False]]),
])
def test_under_every_combination_of_options_deals_dealers_and_contests_follow_the_rules(
        impl, rules, case, results):
    requires(impl, "referee", "deal", "next_dealer", "contest")
    pack, dealer, cut, _, actions = case
    check_referee(impl, pack, dealer, cut, rules, actions)
    check_deal(impl, pack, dealer, cut, rules)
    for seat, outcome in itertools.product(O.SEAT_LETTERS, ("NS", "EW", "draw")):
        check_next_dealer(impl, seat, outcome, rules)
    check_contest(impl, results, rules)
