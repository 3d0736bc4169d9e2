"""Who deals after an insufficient win: a decision of the spec, stated in ``dealer.after-loss``
and ``contest.insufficient-win`` (spec/result.md, spec/contest.md) and checked here.

The guide counts a win that does not beat the mark as an intervening draw *for the contest*
(000 §04), and says that after a draw the same dealer deals again (000 §05).  The spec decides
that the deal still passes by the deal's own result: an insufficient win is a win of the deal,
so the dealer's side lost it and the dealer's partner deals next, not the same dealer.

The expected dealers come from the rotation as the sources state it (won: the next opponent
in the direction of play; lost: the partner; 18-18: the same dealer), written out here, not
from the engine's own helper.
"""

import pytest

from turub import Seat, Side, Sitting, deal_result
from turub.options import parse_rules
from turub.properties.tags import verifies

CLOCKWISE = "NESW"


def rotation(dealer: str, ns: int, ew: int, order: str = CLOCKWISE) -> str:
    """The next dealer from a deal's trick counts, by the sources' words only."""
    if ns == ew:
        return dealer  # after a draw, the dealer deals again (000 §05 ¶1 s3)
    winners = "NS" if ns > ew else "EW"
    i = order.index(dealer)
    if dealer in winners:
        return order[(i + 1) % 4]  # the opposing partnership: the next one in the direction
    return order[(i + 2) % 4]  # the dealer's partner


SEAT = {"N": Seat.NORTH, "E": Seat.EAST, "S": Seat.SOUTH, "W": Seat.WEST}


@verifies("dealer.after-loss", "contest.insufficient-win")
def test_an_insufficient_win_passes_the_deal_to_the_losing_dealers_partner():
    sheet = Sitting(first_dealer=Seat.NORTH)
    sheet.record(deal_result(20, 16))  # North deals; North-South win and set the mark, 20
    assert sheet.dealer is Seat.EAST  # the deal passes to the opponents
    sheet.record(deal_result(19, 17))  # East deals; North-South win again, short of the mark
    contest = sheet.contest
    # For the contest it is a draw: the mark stays 20, the sequence runs on, nothing decided ...
    assert (contest.holder, contest.mark, contest.is_decided) == (Side.NORTH_SOUTH, 20, False)
    # ... but the deal was won: East's side lost it, so East's partner deals, not East again.
    assert sheet.dealer is Seat.WEST
    assert sheet.dealer is not Seat.EAST


@pytest.mark.parametrize("direction", ["clockwise", "counterclockwise"])
@verifies("dealer.after-loss", "dealer.after-win", "dealer.after-draw", "contest.insufficient-win")
def test_the_rotation_follows_each_deals_result_whatever_the_contest_makes_of_it(direction):
    rules = parse_rules([f"direction={direction}"])
    order = CLOCKWISE if direction == "clockwise" else "NWSE"
    # 20-16 sets North-South's mark; 19-17 and 20-16 fall short of it (draws for the contest);
    # 18-18 is a drawn deal; 17-19 is East-West's first win (mark 19); 19-17 and 21-15 are
    # North-South's again, the first starting a new sequence.
    results = [(20, 16), (19, 17), (20, 16), (18, 18), (17, 19), (19, 17), (21, 15)]
    sheet = Sitting(first_dealer=Seat.NORTH, rules=rules)
    expected = "N"
    for ns, ew in results:
        assert sheet.dealer is SEAT[expected]
        sheet.record(deal_result(ns, ew))
        expected = rotation(expected, ns, ew, order)
    assert sheet.dealer is SEAT[expected]
    # The contest saw the short wins as draws: North-South's sequence of 20 ran until East-West won.
    assert [row.contest.mark for row in sheet.rows[:4]] == [20, 20, 20, 20]
