"""Which cards a player may play: follow the led suit if able; void, anything; never a duty
to trump or to overtake.  Checked through the implementation interface (``impl``)."""

from turub.properties import strategies as S
from turub.properties.checks import check_legal_plays, check_no_obligation_to_overtake, requires
from turub.properties.factory import property_test, worked
from turub.properties.tags import verifies


@verifies("play.follow-suit", "play.void-any-card", "play.no-forced-trump", "play.card-in-hand")
@property_test(hand=S.hands(min_size=1), trick=S.tricks(min_size=0, max_size=3), examples=[
    worked(["AC", "6H", "KS"], ["AC", "AC"]),  # holding clubs: only the club
    worked(["6H", "6H", "KS"], ["AC"]),  # void in clubs: anything, trump or not
    worked(["AC", "AC", "10D"], []),  # leading: any card, each distinct card once
])
def test_holding_the_led_suit_you_must_follow_and_void_you_may_play_anything(impl, hand, trick):
    requires(impl, "legal_plays")
    check_legal_plays(impl, hand, trick)


@verifies("play.no-forced-trump", "play.follow-suit")
@property_test(hand=S.hands(min_size=1), trick=S.tricks(min_size=1, max_size=3), examples=[
    worked(["6C", "AC", "KH"], ["QC", "KC"]),  # the 6♣ may be played under the K♣
])
def test_no_one_must_play_higher_than_the_card_to_beat(impl, hand, trick):
    requires(impl, "legal_plays")
    check_no_obligation_to_overtake(impl, hand, trick)
