"""House rules that read the game (issue 31): each takes the read-only view ``game``
(:class:`turub.decisions.Game`) besides its decision's arguments."""

from turub import Side
from turub.variants import Variant, VariantClause


def trumps_unbroken(hand, trick, trump, game):
    """Trump may not be led until a trump has been played to an earlier trick, unless the
    leader holds nothing else."""
    if trick or trump is None or game.tricks is None:
        return None  # following, no trump yet, or the tricks are not known: the standard rule
    if any(card.suit is trump for past in game.tricks for card in past.cards):
        return None  # trumps are broken
    return [card for card in hand if card.suit is not trump] or None


def non_dealers_on_18(ns, ew, closed_early, game):
    """A deal of 36 tricks shared 18-18 goes to the side that did not deal."""
    if closed_early or ns != 18 or ew != 18 or game.dealer is None:
        return None
    return Side.EAST_WEST if game.dealer.side is Side.NORTH_SOUTH else Side.NORTH_SOUTH


def dealers_copy_wins(cards, trump, game):
    """Of identical winning cards, the dealer's copy wins."""
    from turub.rules import trick_winner
    if game.seats is None or game.dealer is None:
        return None
    best = trick_winner(list(cards), trump)
    mine = [i for i, card in enumerate(cards) if card == cards[best] and game.seats[i] == game.dealer]
    return mine[0] if mine and mine[0] != best else None


TRUMPS = Variant("seeing-trumps", "1", clauses=[VariantClause(
    "seeing.trumps-unbroken", "Trump is not led until trumps are broken", decides="legal_plays",
    rule=trumps_unbroken, applies_to="lead")])
NON_DEALERS = Variant("seeing-non-dealers", "1", clauses=[VariantClause(
    "seeing.non-dealers-on-18", "18-18 goes to the non-dealers", decides="deal_result",
    rule=non_dealers_on_18, replaces=["result.draw-18"])])
DEALERS_COPY = Variant("seeing-dealers-copy", "1", clauses=[VariantClause(
    "seeing.dealers-copy", "The dealer's copy wins", decides="trick_winner",
    rule=dealers_copy_wins, amends=["trick.earliest-identical"])])
