"""Who deals next: after a draw the same dealer; after a loss the partner; after a win the
next opponent in the direction of play (or the other one, by option).  Every seat, outcome,
direction and option, and sequences over many deals."""

from hypothesis import strategies as st

from turub import Sitting, deal_result, parse_seat
from turub.options import rules_from_dict
from turub.properties import oracles as O
from turub.properties import strategies as S
from turub.properties.checks import check_dealer_sequence, check_next_dealer, requires
from turub.properties.factory import property_test, worked
from turub.properties.tags import verifies

_ALL_RULES = [{"direction": d, "opponent-dealer": o}
              for d in ("clockwise", "counterclockwise") for o in ("next", "previous")]


@verifies("dealer.after-win", "dealer.after-loss", "dealer.after-draw", "table.direction")
@property_test(dealer=S.seats, outcome=S.outcomes, rules=S.rules_dicts(), examples=[
    worked("N", "NS", {}),  # North-South won: East deals
    worked("N", "EW", {}),  # lost: South deals
    worked("N", "draw", {}),  # a draw: North again
    worked("N", "NS", {"direction": "counterclockwise"}),  # West
    worked("E", "EW", {"opponent-dealer": "previous"}),  # North
])
def test_next_dealer_after_a_win_a_loss_and_a_draw(impl, dealer, outcome, rules):
    requires(impl, "next_dealer")
    check_next_dealer(impl, dealer, outcome, rules)


@verifies("dealer.after-win", "dealer.after-loss", "dealer.after-draw", "table.direction")
def test_next_dealer_for_every_seat_outcome_direction_and_option(impl):
    """Exhaustive: 4 seats × 3 outcomes × 2 directions × 2 opponent-dealer choices."""
    requires(impl, "next_dealer")
    for rules in _ALL_RULES:
        for dealer in O.SEAT_LETTERS:
            for outcome in ("NS", "EW", "draw"):
                check_next_dealer(impl, dealer, outcome, rules)


@verifies("dealer.after-win", "dealer.after-loss", "dealer.after-draw")
@property_test(first=S.seats, outcomes=st.lists(S.outcomes, max_size=30), rules=S.rules_dicts(),
               examples=[
    worked("N", ["NS", "EW", "draw", "EW", "NS"], {}),
])
def test_the_deal_moves_round_the_table_as_the_rule_says_over_many_deals(impl, first, outcomes, rules):
    requires(impl, "next_dealer")
    check_dealer_sequence(impl, first, outcomes, rules)


@verifies("dealer.after-win", "dealer.after-loss", "dealer.after-draw", "sheet.one-deal-per-row")
@property_test(first=S.seats, results=st.lists(S.deal_results(), max_size=25), rules=S.rules_dicts(),
               examples=[
    worked("N", [[20, 16, False], [16, 20, False], [18, 18, False]], {}),
])
def test_the_score_sheet_names_each_deals_dealer(first, results, rules):
    # The reference engine's score sheet derives the rotation from its rows.
    sheet = Sitting(parse_seat(first), rules_from_dict(rules))
    for ns, ew, closed in results:
        sheet.record(deal_result(ns, ew, closed_early=closed))
    outcomes = [O.deal_outcome(*r) for r in results]
    assert [s.letter for s in sheet.dealers()] == O.dealers_over(first, outcomes, rules)
    assert [r.dealer.letter for r in sheet.rows] == O.dealers_over(first, outcomes, rules)[:-1]
