"""A club's house rules, written as a user would, outside the package (issue 14's example).

``club``: a void player must trump when able.  ``club-draws``: on top of it, a drawn deal
ends the running sequence of the contest.
"""

from turub.contest import Contest
from turub.variants import Variant, VariantClause


def must_trump(hand, trick, trump):
    """Void in the led suit and holding trump: only trumps may be played."""
    if not trick or trump is None or any(c.suit is trick[0].suit for c in hand):
        return None  # leading, or following suit: the standard rule decides
    trumps = [c for c in hand if c.suit is trump]
    return trumps or None


def draw_ends_sequence(contest, result, rules):
    """A drawn deal ends the running sequence: no holder, no mark."""
    if result.winner is None and contest.holder is not None:
        return Contest()
    return None


CLUB = Variant(
    "club", version="1",
    description="The Thursday club's rules.",
    clauses=[VariantClause(
        "club.must-trump", "A void player must trump when able",
        text="If you can't follow suit and you have a trump, you have to play a trump.",
        replaces=["play.no-forced-trump"], decides="legal_plays", rule=must_trump,
        applies_to="void")])

CLUB_DRAWS = Variant(
    "club-draws", version="1", base=CLUB,
    clauses=[VariantClause(
        "club.draw-ends-sequence", "A drawn deal ends the sequence",
        text="A draw wipes the slate: whoever was on a run starts again from nothing.",
        replaces=["contest.draw-keeps-sequence"], decides="contest_step",
        rule=draw_ends_sequence)])
