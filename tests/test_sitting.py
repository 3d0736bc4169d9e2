"""The score sheet: the brief's worked deal, dealer rotation and the derived contest."""

import pytest

from turub import Direction, RuleError, Rules, Seat, Side, Sitting, deal_result
from turub.properties.tags import verifies


@verifies("result.more-tricks-wins", "sheet.tap-winner", "sheet.one-deal-per-row")
def test_the_briefs_worked_deal_east_west_wins_19_to_17():
    # 001 'A worked deal': NS lead 14-4 after 18 tricks; EW take nine of the next ten
    # (NS 15-13); of the last eight EW take six: NS 17, EW 19.
    ns, ew = 14, 4
    ns, ew = ns + 1, ew + 9
    ns, ew = ns + 2, ew + 6
    assert (ns, ew) == (17, 19)
    sheet = Sitting(Seat.NORTH)
    row = sheet.record(deal_result(ns, ew))
    assert row.result.winner is Side.EAST_WEST and row.result.clauses == ("result.more-tricks-wins",)


@verifies("dealer.after-win", "dealer.after-loss", "dealer.after-draw")
def test_dealer_sequence_clockwise():
    # N deals, NS wins -> E; E deals, NS wins (E lost) -> W; W deals, draw -> W;
    # W deals, EW wins -> N.
    sheet = Sitting(Seat.NORTH)
    for r in [deal_result(20, 16), deal_result(20, 16), deal_result(18, 18), deal_result(10, 26)]:
        sheet.record(r)
    assert sheet.dealers() == (Seat.NORTH, Seat.EAST, Seat.WEST, Seat.WEST, Seat.NORTH)


@verifies("dealer.after-win", "table.direction")
def test_dealer_sequence_counterclockwise():
    # Counter-clockwise the next opponent after North is West.
    sheet = Sitting(Seat.NORTH, Rules(direction=Direction.COUNTERCLOCKWISE))
    for r in [deal_result(20, 16), deal_result(20, 16), deal_result(18, 18), deal_result(10, 26)]:
        sheet.record(r)
    assert sheet.dealers() == (Seat.NORTH, Seat.WEST, Seat.EAST, Seat.EAST, Seat.NORTH)


@verifies("sheet.contest-derived", "contest.decided-is-final", "sheet.open-ended")
def test_the_contest_is_derived_from_the_sheet_and_a_new_one_follows_a_decision():
    sheet = Sitting(Seat.NORTH)
    for r in [deal_result(20, 16), deal_result(19, 17), deal_result(18, 18), deal_result(22, 14)]:
        sheet.record(r)
    assert sheet.rows[-1].contest.winner is Side.NORTH_SOUTH
    assert sheet.contest.holder is None  # a new contest, for a new stake
    sheet.record(deal_result(16, 20))
    assert [c.winner for c in sheet.contests] == [Side.NORTH_SOUTH, None]
    assert sheet.rows[-1].contest_number == 2


@verifies("sheet.one-deal-per-row")
def test_recording_something_that_is_not_a_result_changes_nothing():
    sheet = Sitting(Seat.NORTH)
    with pytest.raises(RuleError):
        sheet.record((20, 16))
    assert sheet.rows == () and sheet.dealer is Seat.NORTH


@pytest.mark.parametrize("seed", range(40))
def test_the_drawn_first_dealer_showed_the_highest_card_in_every_round(seed):
    from turub import draw_first_dealer
    fd = draw_first_dealer(seed)
    for n, shown in enumerate(fd.rounds):
        top = max(card.rank for _, card in shown)
        highest = [seat for seat, card in shown if card.rank == top]
        assert fd.seat in highest
        # Only the last round has a single highest card; earlier rounds were ties,
        # and the next round shows cards to exactly the tied players.
        if n + 1 < len(fd.rounds):
            assert len(highest) > 1 and [s for s, _ in fd.rounds[n + 1]] == sorted(highest)
        else:
            assert highest == [fd.seat]


@verifies("sheet.open-ended", "dealer.after-win", "dealer.after-loss", "dealer.after-draw",
          "contest.decided-is-final")
def test_a_sheet_that_keeps_only_its_last_row_derives_the_same_dealers_and_contests():
    # A long run (turub simulate) keeps one row: the next dealer and the contest derive from it.
    from turub import deal_result
    import random
    rng = random.Random(8)
    full, streaming = Sitting(Seat.EAST), Sitting(Seat.EAST, keep_rows=False)
    for n in range(1, 300):
        ns = rng.choice([10, 16, 18, 19, 20, 25, 36])
        result = deal_result(ns, 36 - ns)
        a, b = full.record(result), streaming.record(result)
        assert a == b and a.number == n
        assert (full.dealer, full.contest) == (streaming.dealer, streaming.contest)
    assert len(streaming.rows) == 1 and len(full.rows) == 299
