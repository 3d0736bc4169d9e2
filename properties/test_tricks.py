"""Who takes a trick: the highest trump, else the highest of the led suit; of identical
cards, the one played first.  Checked through the implementation interface (``impl``)."""

from hypothesis import target
from hypothesis import strategies as st

from turub.properties import strategies as S
from turub.properties.checks import (check_identical_cards, check_trick_winner,
                                     check_trick_winner_invariances, requires)
from turub.properties.factory import property_test, worked
from turub.properties.tags import verifies

# Guide §06: hearts trump; A♣, another A♣, 6♣, K♣: the first ace wins; if the third player
# is void in clubs and plays 6♥, the trump wins.
DUPLICATE_ACES = (["AC", "AC", "6C", "KC"], "H")
DUPLICATE_ACES_TRUMPED = (["AC", "AC", "6H", "KC"], "H")


@verifies("trick.highest-trump", "trick.highest-led", "trick.earliest-identical")
@property_test(cards=S.tricks(), trump=S.suits, examples=[
    worked(*DUPLICATE_ACES),
    worked(*DUPLICATE_ACES_TRUMPED),
    worked(["6H", "AS", "6H", "KH"], "S"),  # the led suit is never trump-proof
    worked(["QD", "KC", "AC"], "S"),  # off-suit cards never win, however high
])
def test_exactly_one_card_wins_and_it_is_the_one_the_rule_names(impl, cards, trump):
    requires(impl, "trick_winner")
    target(S.copies_of_one_card(cards), label="copies of one card")
    check_trick_winner(impl, cards, trump)


@verifies("trick.earliest-identical")
@property_test(cards=S.tricks(min_size=2), trump=S.suits, examples=[
    worked(*DUPLICATE_ACES),
    worked(["AC", "AC", "6H", "6H"], "H"),  # two identical trumps: the earlier one
    worked(["7D", "7D", "7D", "7D"], "C"),
])
def test_second_ace_never_beats_the_first(impl, cards, trump):
    requires(impl, "trick_winner")
    target(S.copies_of_one_card(cards), label="copies of one card")
    check_identical_cards(impl, cards, trump)


_TRICKS = S.tricks(min_size=1)  # built once, not at every draw
_RENAMINGS = st.permutations("SHDC")
_ORDERS = [st.permutations(range(n)) for n in range(4)]  # of the followers of a trick of n + 1


@st.composite
def _invariance_cases(draw):
    cards = draw(_TRICKS)
    renaming = dict(zip("SHDC", draw(_RENAMINGS)))
    order = draw(_ORDERS[len(cards) - 1])
    return cards, draw(S.suits), renaming, order, draw(st.integers(0, 2**16))


@verifies("pack.suits-equal", "trick.highest-trump", "trick.highest-led", "trick.earliest-identical")
@property_test(case=_invariance_cases(), examples=[
    worked(case=(DUPLICATE_ACES[0], "H", {"S": "S", "H": "D", "D": "H", "C": "C"}, [2, 1, 0], 7)),
    worked(case=(["KC", "AC", "AC", "6H"], "H", {"S": "S", "H": "H", "D": "D", "C": "C"}, [2, 0, 1], 1)),
])
def test_renaming_suits_or_reordering_the_followers_changes_nothing(impl, case):
    requires(impl, "trick_winner")
    cards, trump, renaming, order, rank_seed = case
    target(S.copies_of_one_card(cards), label="copies of one card")
    check_trick_winner_invariances(impl, cards, trump, renaming, order, rank_seed)
