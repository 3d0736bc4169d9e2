"""House rules for ``bench_variant_simulate.py``, written as a club would write them: from
the guide (``docs/guides/house-rules.md``) alone, in a file outside the package.

* ``bench-heads`` (legal plays, a second rule beside ``tests/variants/club.py``'s
  must-trump): a player following suit must head the trick, playing a card of the led suit
  higher than every one played to it so far, when holding one.  It decides about a third
  of the plays (must-trump: about one in twenty-five), so it weighs the engine's cost of a
  decision, where must-trump weighs the cost of asking.
  It says it applies to the plays following suit (``applies_to``), as the guide advises.
* ``bench-defers`` (legal plays): a rule that never applies.  Asked at every play and
  always deferring, it costs the engine's asking alone.
* ``bench-trumps-everywhere``: ``tests/variants/club.py``'s must-trump without saying
  where it applies: asked at every play, where the club's own is asked at void plays only.
* ``bench-draws`` (contest): ``club.py``'s "a drawn deal ends the running sequence" alone
  (``club-draws`` carries the must-trump too).
"""

from dataclasses import replace
from pathlib import Path

from turub.variants import Variant, VariantClause, resolve


def must_head(hand, trick, trump):
    """Following suit and holding a card of the led suit higher than every one played to
    the trick so far: only those cards may be played."""
    if not trick:
        return None  # leading: any card
    led = trick[0].suit
    top = max(card.rank for card in trick if card.suit is led)
    higher = [card for card in hand if card.suit is led and card.rank > top]
    return higher or None  # void, or unable to head: the standard rule


def never_applies(hand, trick, trump):
    """A house rule for a situation that never arises: it always defers."""
    return None


HEADS = Variant("bench-heads", version="1", description="Head the trick when you can.", clauses=[
    VariantClause("bench.must-head", "A player following suit must head the trick",
                  text="Following suit, you have to beat the best card of the led suit if you can.",
                  replaces=["play.follow-suit"], decides="legal_plays", rule=must_head,
                  applies_to="follow")])

DEFERS = Variant("bench-defers", version="1", description="A rule that never applies.", clauses=[
    VariantClause("bench.never", "A rule that never applies",
                  text="Nothing changes: the rule is asked at every play and always defers.",
                  amends=["play.follow-suit"], decides="legal_plays", rule=never_applies)])

_CLUB = f"{Path(__file__).resolve().parent.parent / 'tests' / 'variants' / 'club.py'}"
EVERYWHERE = Variant("bench-trumps-everywhere", version="1", description="Must trump, asked at every play.",
                     clauses=[replace(resolve(f"{_CLUB}:club").clauses[0], applies_to=None, variant="")])
DRAWS = Variant("bench-draws", version="1", description="A draw ends the sequence.",
                clauses=[replace(resolve(f"{_CLUB}:club-draws").clauses[0], variant="")])
