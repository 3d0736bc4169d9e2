"""A whole deal refereed through the interface: streams of actions, legal and not, against
an independent model of the table (``oracles.TableModel``).

Covers the order of play, following suit, the trump call (once, by the caller), signals,
closing, who wins each trick, who leads next, the count of tricks and the outcome."""

from turub.properties import strategies as S
from turub.properties.checks import check_referee, check_referee_mirror, requires
from turub.properties.factory import property_test, worked
from turub.properties.tags import verifies

_PACK = S.pack_from_seed(3)
# Dealer North, clockwise: East calls and leads; a few mistakes among the plays.
_WORKED = (_PACK, "N", 10, {}, [
    {"act": "play", "seat": "E", "card": _PACK[10]},  # before trump: refused
    {"act": "trump", "seat": "S", "suit": "H"},  # not the caller: refused
    {"act": "trump", "seat": "E", "suit": "H"},
    {"act": "trump", "seat": "E", "suit": "S"},  # a second call: refused
    {"act": "signal", "seat": "E", "signal": "knock"},  # before the lead: refused
    {"act": "close", "seat": "W"},
    {"act": "close", "seat": "N"},  # already over: refused
])


@verifies("play.first-lead", "play.turn", "play.card-in-hand", "play.follow-suit",
          "play.void-any-card", "play.winner-leads", "play.all-tricks", "play.order-of-actions",
          "trump.caller", "trump.once", "trump.any-suit", "signal.leader-only", "signal.timing",
          "signal.once-per-trick", "signal.kinds", "trick.highest-trump", "trick.highest-led",
          "trick.earliest-identical", "result.more-tricks-wins", "result.draw-18",
          "result.closed-early", "result.tricks-add-up", "sheet.any-player-closes",
          "table.direction")
@property_test(case=S.action_streams(), scale=0.5, examples=[
    worked(case=_WORKED),
])
def test_the_referee_accepts_exactly_the_legal_actions_and_scores_the_deal(impl, case):
    requires(impl, "referee")
    check_referee(impl, *case)


@verifies("play.no-forced-trump", "play.void-any-card", "play.follow-suit")
@property_test(case=S.action_streams(policy="discard", mistakes=False), scale=0.3, examples=[
    worked(case=S.DealCase(0, "N", 0, {}, policy="discard", suit="S", mistakes=False)),
])
def test_a_void_player_may_discard_though_holding_trump(impl, case):
    requires(impl, "referee")
    check_referee(impl, *case)


@verifies("play.no-forced-trump", "play.follow-suit")
@property_test(case=S.action_streams(policy="underplay", mistakes=False), scale=0.3, examples=[
    worked(case=S.DealCase(0, "N", 0, {}, policy="underplay", suit="S", mistakes=False)),
])
def test_a_follower_may_play_low_under_a_higher_card(impl, case):
    requires(impl, "referee")
    check_referee(impl, *case)


@verifies("table.direction", "table.left-of-dealer", "play.turn", "play.winner-leads")
@property_test(case=S.action_streams(), scale=0.3, examples=[
    worked(case=_WORKED),
    worked(case=S.DealCase(5, "E", 77, {"direction": "counterclockwise"}, play_seed=3)),
])
def test_the_mirror_image_of_a_deal_played_the_other_way_round_ends_the_same(impl, case):
    requires(impl, "referee")
    check_referee_mirror(impl, *case)
