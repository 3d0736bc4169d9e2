"""Engine values copy safely (issue 19, item 7): ``copy.copy``, ``copy.deepcopy`` and
``pickle`` of a deal, a score sheet or a contest give an independent value, or are refused
with a clear message.  Playing on a copy never changes the original, nor the reverse."""

import copy
import pickle
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from turub import Contest, Deal, Phase, Seat, Sitting, Suit, deal_result
from turub.contest import contest_of
from turub.properties.tags import verifies
from turub.variants import Variant, VariantClause

COPIES = {
    "copy": copy.copy,
    "deepcopy": copy.deepcopy,
    "pickle": lambda value: pickle.loads(pickle.dumps(value)),
}


def some_plays(deal, rng, n):
    """Up to ``n`` legal actions on ``deal``: the trump call, then cards, with a signal now
    and then right after a lead (signal.timing), drawn from ``rng``."""
    for _ in range(n):
        if deal.phase is Phase.CALLING:
            deal.name_trump(deal.caller, rng.choice(list(Suit)))
        elif deal.phase is Phase.PLAYING:
            deal.play(deal.to_act, rng.choice(deal.legal_plays()))
            if len(deal.current_trick) == 1 and rng.random() < 0.2:
                deal.signal(deal.leader, rng.choice(["knock", "click"]))


def a_deal(seed, plays, dealer, closed):
    deal = Deal.from_seed(seed, Seat(dealer))
    some_plays(deal, random.Random(seed), plays)
    if closed and deal.phase is not Phase.FINISHED:
        deal.close(Seat(dealer))  # sheet.any-player-closes, at any point
    deal.tricks  # the completed tricks built once, as a reader would
    return deal


def play_on(deal, rng):
    """Everything that can still change a deal: more cards, a full playout, or a close."""
    some_plays(deal, rng, rng.randrange(1, 40))
    if deal.phase is Phase.PLAYING:
        if rng.random() < 0.5:
            deal.play_out(rng)
        else:
            deal.close(deal.leader)


deals = st.builds(a_deal, st.integers(0, 2 ** 32), st.integers(0, 150), st.integers(0, 3),
                  st.booleans())


@verifies("sheet.any-player-closes")
@pytest.mark.parametrize("how", COPIES)
@settings(max_examples=40, deadline=None)
@given(deal=deals, seed=st.integers(0, 2 ** 32))
def test_playing_on_a_copy_of_a_deal_never_changes_the_original(how, deal, seed):
    before = deal.to_record(), deal.state()
    twin = COPIES[how](deal)
    # The copy is the same deal: the same record, the same state, the same next moves.
    assert (twin.to_record(), twin.state()) == before and type(twin) is type(deal)
    assert twin.legal_plays() == deal.legal_plays()
    play_on(twin, random.Random(seed))
    assert (deal.to_record(), deal.state()) == before
    # ... and the reverse: the original played on leaves the copy as it was.
    after = twin.to_record(), twin.state()
    if deal.phase is not Phase.FINISHED:
        play_on(deal, random.Random(seed + 1))
        assert (twin.to_record(), twin.state()) == after
    # Both replay through the rules: neither holds a card twice nor lost one.
    assert Deal.replay(twin.to_record()).state() == twin.state()
    assert Deal.replay(deal.to_record()).state() == deal.state()


results = st.lists(st.tuples(st.integers(0, 36), st.sampled_from([None, *Suit])), max_size=8).map(
    lambda rows: [(deal_result(ns, 36 - ns), trump) for ns, trump in rows])


@verifies("sheet.open-ended")
@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("keep_rows", [True, False])
@settings(max_examples=30, deadline=None)
@given(first=results, more=results.filter(bool))
def test_recording_on_a_copy_of_a_sheet_never_changes_the_original(how, keep_rows, first, more):
    sheet = Sitting(Seat.EAST, keep_rows=keep_rows)
    for result, trump in first:
        sheet.record(result, trump)
    before = sheet.rows, sheet.dealer, sheet.contest, sheet.contests
    twin = COPIES[how](sheet)
    assert (twin.rows, twin.dealer, twin.contest, twin.contests) == before
    for result, trump in more:
        twin.record(result, trump)
    assert (sheet.rows, sheet.dealer, sheet.contest, sheet.contests) == before
    assert twin.rows[-1].number == len(first) + len(more)
    after = twin.rows
    sheet.record(*more[0])
    assert twin.rows == after


@verifies("contest.first-win-sets-mark")
@pytest.mark.parametrize("how", COPIES)
def test_a_copy_of_a_contest_is_the_same_value_and_the_original_stays(how):
    contest = contest_of([deal_result(20, 16)])
    twin = COPIES[how](contest)
    assert twin == contest and isinstance(twin, Contest)
    decided = twin.record(deal_result(22, 14))
    assert decided.winner is not None and contest.winner is None and contest.deals == 1


def _any_card(hand, trick, trump):
    return list(hand)  # a variant with no duty to follow suit


def _draws_reset(contest, result, rules):
    return Contest() if result.winner is None else None


LOOSE = Variant("loose-copies", version="1", clauses=[
    VariantClause("loose.any-card", "Any card may be played", text="Play any card you like.",
                  replaces=["play.follow-suit"], decides="legal_plays", rule=_any_card),
    VariantClause("loose.draw-resets", "A draw ends the sequence", text="A draw wipes the slate.",
                  replaces=["contest.draw-keeps-sequence"], decides="contest_step",
                  rule=_draws_reset)])


@verifies("play.follow-suit")
def test_a_variants_deal_and_sheet_copy_safely_and_refuse_pickle_clearly():
    deal = LOOSE.deal_from_seed(3, Seat.NORTH)
    deal.name_trump(deal.caller, Suit.HEARTS)
    sheet = LOOSE.sitting(Seat.NORTH)
    sheet.record(deal_result(20, 16))
    for how in ("copy", "deepcopy"):
        twin = COPIES[how](deal)
        assert type(twin) is type(deal) and twin.state() == deal.state()
        before = deal.state()
        twin.play_out(random.Random(1))
        assert deal.state() == before
        twin_sheet = COPIES[how](sheet)
        twin_sheet.record(deal_result(18, 18))
        assert len(sheet.rows) == 1 and twin_sheet.contest.holder is None  # the variant's own step
    # A class made for one variant cannot be found again by name: pickle says so, and how.
    with pytest.raises(TypeError, match=r"rule variant.*to_record"):
        pickle.dumps(deal)
    with pytest.raises(TypeError, match=r"rule variant.*variant.sitting"):
        pickle.dumps(sheet)
