"""The Thursday club's house rules, one per kind of decision, written from the guide alone
(``docs/guides/house-rules.md``), as a club keeps them outside the package.

* ``club-nell`` (trick winner): the nine of trumps, the *nell*, beats every card; of two
  nells the first played.
* ``club-closed`` (deal result): a deal closed early with one side ten tricks or more ahead
  is that side's win.
* ``club-passes`` (next dealer): after a drawn deal the deal passes to the next player.
* ``club`` (legal plays, in ``club.py``): a void player holding trump must trump.
* ``club-lead-ace`` (legal plays, at leads only): a player leading while holding the ace of
  trumps leads it.  Its rule does not look at the trick: its clause says it applies to
  leads (``applies_to``), and it is asked nowhere else.
* ``club-partner-signals`` (may_signal): the leader's partner may signal too.
* ``club-suit-ties`` (first_dealer): of players tied for the highest rank in the draw, the
  higher suit deals (♠ ♥ ♦ ♣); the same card shown, those tied on rank draw again.
* ``club-last-packet`` (deal_stands): as at the table, only the dealer's own last packet is
  checked.
* ``club-partner-calls`` (trump_caller): the dealer's partner names trump (and so receives
  the first packet and leads).
"""

from turub.cards import Rank
from turub.seats import next_seat
from turub.variants import Variant, VariantClause


def nell_wins(cards, trump):
    """The first nine of trumps played wins the trick; without one, the standard rule."""
    for position, card in enumerate(cards):
        if card.suit is trump and card.rank is Rank.NINE:
            return position
    return None


def closed_lead_wins(ns, ew, closed_early):
    """Closed early ten tricks or more ahead: the side ahead wins."""
    if closed_early and abs(ns - ew) >= 10:
        return "NS" if ns > ew else "EW"
    return None


def draw_passes(dealer, winner, rules):
    """After a draw the next player deals."""
    if winner is None:
        return next_seat(dealer, rules.direction)
    return None


def lead_the_ace(hand, trick, trump):
    """The aces of trumps held (asked at leads only: the clause's applies_to)."""
    aces = [card for card in hand if card.suit is trump and card.rank is Rank.ACE]
    return aces or None


NELL = Variant("club-nell", version="1", description="The nine of trumps beats every card.", clauses=[
    VariantClause("club.nell", "The nine of trumps beats every card",
                  text="The nine of trumps takes the trick, whatever else is played; of two, the first.",
                  amends=["trick.highest-trump"], decides="trick_winner", rule=nell_wins)])

CLOSED = Variant("club-closed", version="1", description="A closed deal far ahead is a win.", clauses=[
    VariantClause("club.closed-lead", "A closed deal ten tricks ahead is won",
                  text="Close a deal with one side ten or more tricks ahead and that side wins it.",
                  amends=["result.closed-early"], decides="deal_result", rule=closed_lead_wins)])

PASSES = Variant("club-passes", version="1", description="After a draw the deal passes on.", clauses=[
    VariantClause("club.draw-passes", "After a draw the deal passes on",
                  text="A drawn deal is dealt again by the next player, not the same dealer.",
                  replaces=["dealer.after-draw"], decides="next_dealer", rule=draw_passes)])

LEAD_ACE = Variant("club-lead-ace", version="1", description="Lead the ace of trumps.", clauses=[
    VariantClause("club.lead-ace", "Lead the ace of trumps when you hold it",
                  text="Leading, if you hold the ace of trumps you lead it.",
                  decides="legal_plays", rule=lead_the_ace, applies_to="lead")])


def partner_may_signal(seat, leader, kind):
    """The leader's partner may signal too; anyone else as the standard rule says."""
    return True if seat is leader.partner else None


PARTNER_SIGNALS = Variant("club-partner-signals", version="1",
                          description="The leader's partner may signal too.", clauses=[
    VariantClause("club.partner-signals", "The leader's partner may signal too",
                  text="After the lead, the leader's partner may give the trick's one signal instead of the leader.",
                  amends=["signal.leader-only"], decides="may_signal", rule=partner_may_signal)])


def suit_breaks_ties(rounds):
    """Of players tied for the highest rank in the round just shown, the higher suit deals
    (♠, then ♥, ♦, ♣); no tie, or the same card shown, the standard rule."""
    shown = dict(rounds[-1])
    top = max(card.rank for card in shown.values())
    tied = [seat for seat, card in shown.items() if card.rank is top]
    best = min(shown[seat].suit for seat in tied)  # the suits in order: ♠ ♥ ♦ ♣
    first = [seat for seat in tied if shown[seat].suit is best]
    return first[0] if len(tied) > 1 and len(first) == 1 else None


SUIT_TIES = Variant("club-suit-ties", version="1", description="Suits break a tie in the draw.", clauses=[
    VariantClause("club.suit-ties", "Suits break a tie for the first deal",
                  text="Of players tied for the highest card shown, spades beat hearts, hearts diamonds, "
                       "diamonds clubs; the same card shown, those tied draw again.",
                  replaces=["pack.suits-equal"], decides="first_dealer", rule=suit_breaks_ties)])


def last_packet_only(packets, dealer, rules):
    """The deal stands when the dealer's own last packet holds three cards."""
    mine = [n for seat, n in packets if seat is dealer]
    return bool(mine) and mine[-1] == 3


LAST_PACKET = Variant("club-last-packet", version="1", description="Only the dealer's last packet is checked.",
                      clauses=[
    VariantClause("club.last-packet", "Only the dealer's last packet is checked",
                  text="The dealer shows their own last packet: three cards and the deal stands, "
                       "whatever slipped before.",
                  amends=["deal.dealer-check"], decides="deal_stands", rule=last_packet_only)])


def partner_calls(dealer, rules):
    """The dealer's partner names trump."""
    return dealer.partner


PARTNER_CALLS = Variant("club-partner-calls", version="1", description="The dealer's partner names trump.",
                        clauses=[
    VariantClause("club.partner-calls", "The dealer's partner names trump",
                  text="The dealer's partner takes the first packet, names trump from it and leads.",
                  replaces=["trump.caller"], decides="trump_caller", rule=partner_calls)])
