"""Programs implementing the club's house rules of ``kinds.py``, right, standard and wrong.

Each is a Python adapter on the reference engine: its single answers (who wins a trick, a
deal, who deals next) are written out here by hand from the club's words; its referee plays
the deal with the club's variant (``Variant.deal_class``), as a club's app built on the
reference would.  ``python kind_programs.py NAME`` serves one over the JSON-lines protocol.

* ``nell``, ``closed``, ``passes``: the house rule, right;
* ``nell-standard``, ``closed-standard``, ``passes-standard``: the standard rules, though
  they say they play the club's variant;
* ``nell-wrong``: of two nines of trumps it gives the trick to the *last* (a standard bug,
  ``trick.earliest-identical``, inside the overridden decision);
* ``closed-wrong``: counts "ten ahead" from eleven (it ignores the house rule at ten);
* ``passes-wrong``: after a draw it passes the deal to the previous player.
* ``lead-ace``, ``lead-ace-standard``, ``lead-ace-wrong``: the last forces the ace of trumps
  on a void player too, where the house rule is not asked (a standard bug: a void player
  need not trump).
* ``partner-signals``, ``partner-signals-standard``, ``partner-signals-wrong``: the last
  lets anyone signal (a standard bug, ``signal.leader-only``, where the house rule defers).
* ``suit-ties``, ``suit-ties-standard``, ``suit-ties-wrong``: the last gives the deal to the
  lowest card shown where nobody ties for the highest (a standard bug, ``dealer.first-draw``,
  where the house rule defers).
* ``last-packet``, ``last-packet-standard``, ``last-packet-wrong``: the last checks the
  dealer's *first* packet (it ignores the house rule's words).
* ``partner-calls``, ``partner-calls-standard``, ``partner-calls-wrong``: the last has the
  seat before the dealer call (a standard bug, ``table.left-of-dealer``);
  ``partner-calls-referees-standard`` deals as the club does but referees with the standard
  caller.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import kinds  # noqa: E402
from club_programs import serve  # noqa: E402

from turub import Contest, Deal, RuleError, Seat, parse_card, parse_seat  # noqa: E402
from turub.conformance.adapter import ReferenceImplementation, side_text  # noqa: E402
from turub.options import rules_from_dict  # noqa: E402

SEATS = "NESW"


class HouseApp(ReferenceImplementation):
    """The reference, declaring the club's variant, refereeing with it."""

    VARIANT = kinds.NELL
    name, version = "club-app", "1"

    @property
    def variants(self) -> list[str]:
        return [self.VARIANT.name]

    def _deal(self, pack, dealer, rules, cut):
        return self.VARIANT.deal_class([parse_card(c) for c in pack], parse_seat(dealer),
                                       rules_from_dict(rules), cut)


class NellApp(HouseApp):
    def trick_winner(self, cards, trump):
        nells = [i for i, c in enumerate(cards) if c.upper().replace("♠", "S").replace("♥", "H")
                 .replace("♦", "D").replace("♣", "C") == "9" + trump.upper()[0]]
        return self.pick(nells) if nells else super().trick_winner(cards, trump)

    def pick(self, nells: list[int]) -> int:
        return nells[0]  # of two nells, the first played


class NellWrongApp(NellApp):
    def pick(self, nells):
        return nells[-1]


class ClosedApp(HouseApp):
    VARIANT = kinds.CLOSED
    AHEAD = 10

    def deal_result(self, ns, ew, closed_early, dealer=None):
        standard = super().deal_result(ns, ew, closed_early, dealer)
        if "refused" not in standard and closed_early and abs(ns - ew) >= self.AHEAD:
            return {"outcome": "NS" if ns > ew else "EW"}
        return standard

    def contest(self, results, rules, dealer=None):
        r = rules_from_dict(rules)
        contest, states = Contest(), []
        for ns, ew, closed in results:
            try:
                result = self.VARIANT.deal_result(ns, ew, closed_early=bool(closed), rules=r)
            except RuleError as e:
                states.append({"refused": e.clause})
                continue
            contest = (Contest() if contest.is_decided else contest).record(result, r)
            states.append({"holder": side_text(contest.holder), "mark": contest.mark, "winner": side_text(contest.winner)})
        return states


class ClosedWrongApp(ClosedApp):
    AHEAD = 11

    def contest(self, results, rules, dealer=None):
        return ReferenceImplementation.contest(self, results, rules, dealer)


class PassesApp(HouseApp):
    VARIANT = kinds.PASSES
    STEP = 1

    def next_dealer(self, dealer, outcome, rules):
        if outcome != "draw":
            return super().next_dealer(dealer, outcome, rules)
        step = self.STEP if rules_from_dict(rules).direction.name == "CLOCKWISE" else -self.STEP
        return SEATS[(SEATS.index(dealer) + step) % 4]


class PassesWrongApp(PassesApp):
    STEP = -1


class LeadAceApp(HouseApp):
    VARIANT = kinds.LEAD_ACE
    AT = ("lead",)

    def legal_plays(self, hand, trick, trump=None):
        standard = super().legal_plays(hand, trick, trump)
        void = bool(trick) and not [c for c in hand if parse_card(c).suit is parse_card(trick[0]).suit]
        if trump is None or ("lead" if not trick else "void" if void else "follow") not in self.AT:
            return standard
        aces = [c for c in standard if parse_card(c) == parse_card("A" + trump.upper()[0])]
        return aces or standard


class LeadAceWrongApp(LeadAceApp):
    AT = ("lead", "void")


class PartnerDeal(Deal):
    """The standard deal with the club's signalling written out by hand (the public hook)."""

    def may_signal(self, seat, kind):
        return None if seat in (self.leader, self.leader.partner) else "signal.leader-only"


class AnyoneDeal(Deal):
    def may_signal(self, seat, kind):
        return None


class PartnerSignalsApp(HouseApp):
    VARIANT = kinds.PARTNER_SIGNALS
    DEAL = PartnerDeal

    def _deal(self, pack, dealer, rules, cut):
        return self.DEAL([parse_card(c) for c in pack], parse_seat(dealer), rules_from_dict(rules), cut)


class PartnerSignalsWrongApp(PartnerSignalsApp):
    DEAL = AnyoneDeal


class SuitTiesApp(HouseApp):
    """The draw walked by hand: after each round, a tie for the highest rank goes to the
    higher suit (♠ ♥ ♦ ♣), the same card shown draws again among those tied on rank."""

    VARIANT = kinds.SUIT_TIES

    def first_dealer(self, rounds):
        contenders, decided = set(SEATS), None
        for k, shown in enumerate(rounds):
            if decided is not None:
                return {"refused": "club.suit-ties"}  # decided by the club's rule: nobody draws again
            if len(contenders) == 1 or set(shown) != contenders:
                return super().first_dealer(rounds[:k + 1])  # the standard refusals
            cards = {seat: parse_card(card) for seat, card in shown.items()}
            ranks = {seat: int(card.rank) for seat, card in cards.items()}
            top = max(ranks.values())
            tied = [seat for seat in ranks if ranks[seat] == top]
            if len(tied) == 1:
                contenders = set(tied)  # the standard rule decided: a round after it is its refusal
                continue
            best = min("SHDC".index(cards[seat].suit.letter) for seat in tied)
            first = [seat for seat in tied if "SHDC".index(cards[seat].suit.letter) == best]
            if len(first) == 1:
                decided = first[0]
            else:
                contenders = set(tied)
        if decided is None:
            return super().first_dealer(rounds)  # the standard's dealer, or still tied: refused
        return {"dealer": decided}


class SuitTiesWrongApp(SuitTiesApp):
    def first_dealer(self, rounds):
        answer = super().first_dealer(rounds)
        if len(rounds) == 1 and "dealer" in answer and set(rounds[0]) == set(SEATS):
            ranks = {seat: parse_card(card).rank for seat, card in rounds[0].items()}
            if list(ranks.values()).count(max(ranks.values())) == 1:  # nobody tied: the house rule defers
                return {"dealer": min(ranks, key=ranks.get)}  # the lowest card deals
        return answer


class LastPacketApp(HouseApp):
    VARIANT = kinds.LAST_PACKET
    WHICH = -1

    def check_packets(self, packets, dealer):
        mine = [n for seat, n in packets if seat == dealer]
        return {"stands": bool(mine) and mine[self.WHICH] == 3}


class LastPacketWrongApp(LastPacketApp):
    WHICH = 0


class PartnerCallsDeal(Deal):
    """The standard deal with the club's caller written out by hand (the public hooks)."""

    def decide_caller(self, dealer):
        return dealer.partner

    @property
    def caller_clause(self):
        return "club.partner-calls"


class BeforeDealerCallsDeal(PartnerCallsDeal):
    def decide_caller(self, dealer):
        return Seat((dealer + 3) % 4)


class PartnerCallsApp(PartnerSignalsApp):
    VARIANT = kinds.PARTNER_CALLS
    DEAL = PartnerCallsDeal


class PartnerCallsWrongApp(PartnerCallsApp):
    DEAL = BeforeDealerCallsDeal


class PartnerCallsRefereesStandardApp(PartnerCallsApp):
    """Deals as the club does, but referees a deal with the standard caller."""

    def referee(self, *args, **kwargs):
        self.DEAL = Deal  # for this question only
        try:
            return super().referee(*args, **kwargs)
        finally:
            del self.DEAL


def standard(variant):
    class StandardApp(ReferenceImplementation):
        name, version, variants = "standard-app", "1", [variant.name]
    return StandardApp


PROGRAMS = {"nell": NellApp, "nell-wrong": NellWrongApp, "nell-standard": standard(kinds.NELL),
            "closed": ClosedApp, "closed-wrong": ClosedWrongApp, "closed-standard": standard(kinds.CLOSED),
            "passes": PassesApp, "passes-wrong": PassesWrongApp, "passes-standard": standard(kinds.PASSES),
            "lead-ace": LeadAceApp, "lead-ace-wrong": LeadAceWrongApp, "lead-ace-standard": standard(kinds.LEAD_ACE),
            "partner-signals": PartnerSignalsApp, "partner-signals-wrong": PartnerSignalsWrongApp,
            "partner-signals-standard": standard(kinds.PARTNER_SIGNALS),
            "suit-ties": SuitTiesApp, "suit-ties-wrong": SuitTiesWrongApp,
            "suit-ties-standard": standard(kinds.SUIT_TIES),
            "last-packet": LastPacketApp, "last-packet-wrong": LastPacketWrongApp,
            "last-packet-standard": standard(kinds.LAST_PACKET),
            "partner-calls": PartnerCallsApp, "partner-calls-wrong": PartnerCallsWrongApp,
            "partner-calls-standard": standard(kinds.PARTNER_CALLS),
            "partner-calls-referees-standard": PartnerCallsRefereesStandardApp}

if __name__ == "__main__":
    serve(PROGRAMS[sys.argv[1]]())
