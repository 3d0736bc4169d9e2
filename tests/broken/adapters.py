"""Implementations with one wrong rule each, as Python adapters.

Each class answers everything as the reference does except one operation, where a rule is
written out wrongly.  ``EXPECTED`` says what the kit must report for each: the clause the
failures are about and their outcome class.  They run in-process (``turub check --python
tests/broken/adapters.py:...`` after putting the folder on the path) or behind the
protocol (``tests/broken/impl.py MODE``).
"""

from __future__ import annotations

from turub import parse_card, parse_suit
from turub.conformance.adapter import ReferenceImplementation


class LaterCopyWins(ReferenceImplementation):
    """Of two identical cards, the later one takes the trick (breaks trick.earliest-identical)."""

    name = "later-copy-wins"

    def trick_winner(self, cards, trump):
        cs = [parse_card(c) for c in cards]
        t = parse_suit(trump)
        best = 0
        for i, c in enumerate(cs[1:], 1):
            b = cs[best]
            if (c.suit is b.suit and c.rank >= b.rank) or (c.suit is t and b.suit is not t):
                best = i
        return best


class NoFollowSuit(ReferenceImplementation):
    """Any card may be played at any time (breaks play.follow-suit)."""

    name = "no-follow-suit"

    def legal_plays(self, hand, trick):
        return sorted({c.upper() for c in (self._ascii(x) for x in hand)})

    @staticmethod
    def _ascii(text):
        from turub.cards import card_name
        return card_name(parse_card(text), ascii=True)

    def referee(self, pack, dealer, cut, rules, actions):
        out = super().referee(pack, dealer, cut, rules, actions)
        out["responses"] = [{"ok": True} if r.get("refused") == "play.follow-suit" else r
                            for r in out["responses"]]
        return out


class MustTrumpWhenVoid(ReferenceImplementation):
    """A player void in the led suit must trump if able (breaks play.no-forced-trump).
    Its legal_plays is told the trump suit through a fixed guess: spades."""

    name = "must-trump"

    def legal_plays(self, hand, trick):
        plays = super().legal_plays(hand, trick)
        if trick and not any(parse_card(c).suit is parse_card(trick[0]).suit for c in plays):
            trumps = [c for c in plays if parse_card(c).suit.letter == "S"]
            return trumps or plays
        return plays


class SignalFromAnyone(ReferenceImplementation):
    """Any player may signal (breaks signal.leader-only)."""

    name = "signal-from-anyone"

    def referee(self, pack, dealer, cut, rules, actions):
        out = super().referee(pack, dealer, cut, rules, actions)
        out["responses"] = [{"ok": True} if r.get("refused") == "signal.leader-only" else r
                            for r in out["responses"]]
        return out


class LossPassesLeft(ReferenceImplementation):
    """After a loss the deal passes to the next seat, not the partner (breaks dealer.after-loss)."""

    name = "loss-passes-left"

    def next_dealer(self, dealer, outcome, rules):
        seat = "NESW".index(dealer)
        if outcome != "draw" and outcome != ("NS" if seat % 2 == 0 else "EW"):
            return "NESW"[(seat + 1) % 4]
        return super().next_dealer(dealer, outcome, rules)


class EqualBeatsMark(ReferenceImplementation):
    """A second win equal to the mark wins the contest (breaks contest.second-win-beats-mark)."""

    name = "equal-beats-mark"

    def contest(self, results, rules):
        holder = mark = winner = None
        out = []
        for ns, ew, closed in results:
            if winner is not None:
                out.append({"refused": "contest.decided-is-final"})
                continue
            side = None if closed or ns == ew else ("NS" if ns > ew else "EW")
            if side is not None:
                tricks = ns if side == "NS" else ew
                if rules.get("stake") == "per-deal":
                    holder, mark, winner = side, tricks, side
                elif side != holder:
                    holder, mark = side, tricks
                elif tricks >= mark:
                    winner = side
            out.append({"holder": holder, "mark": mark, "winner": winner})
        return out


class DrawGoesNorthSouth(ReferenceImplementation):
    """Eighteen tricks each counts as a North-South win (breaks result.draw-18)."""

    name = "draw-goes-ns"

    def deal_result(self, ns, ew, closed_early):
        out = super().deal_result(ns, ew, closed_early)
        if out.get("outcome") == "draw" and not closed_early:
            return {"outcome": "NS"}
        return out


class SuitsBreakTies(ReferenceImplementation):
    """In the first-dealer draw, spades beat hearts beat diamonds beat clubs (breaks
    pack.suits-equal and dealer.first-draw-ties)."""

    name = "suits-break-ties"

    def first_dealer(self, rounds):
        if not rounds:
            return {"refused": "dealer.first-draw-ties"}
        first = rounds[0]
        try:
            cards = {s: parse_card(c) for s, c in first.items()}
        except Exception:  # noqa: BLE001
            return super().first_dealer(rounds)
        best = max(cards, key=lambda s: (cards[s].rank, -cards[s].suit))
        return {"dealer": best}


class ShortPacketStands(ReferenceImplementation):
    """The deal always stands (breaks deal.dealer-check)."""

    name = "short-packet-stands"

    def check_packets(self, packets, dealer):
        return {"stands": True}


class DealerCallsTrump(ReferenceImplementation):
    """The dealer names trump (breaks trump.caller)."""

    name = "dealer-calls"

    def deal(self, pack, dealer, cut, rules):
        out = super().deal(pack, dealer, cut, rules)
        out["caller"] = dealer
        return out


class AlwaysClockwise(ReferenceImplementation):
    """Ignores the direction option (breaks table.direction when it is counter-clockwise)."""

    name = "always-clockwise"

    def deal(self, pack, dealer, cut, rules):
        return super().deal(pack, dealer, cut, {**rules, "direction": "clockwise"})

    def referee(self, pack, dealer, cut, rules, actions):
        return super().referee(pack, dealer, cut, {**rules, "direction": "clockwise"}, actions)

    def next_dealer(self, dealer, outcome, rules):
        return super().next_dealer(dealer, outcome, {**rules, "direction": "clockwise"})


RULE_BREAKS = {cls.name: cls for cls in (
    LaterCopyWins, NoFollowSuit, MustTrumpWhenVoid, SignalFromAnyone, LossPassesLeft,
    EqualBeatsMark, DrawGoesNorthSouth, SuitsBreakTies, ShortPacketStands, DealerCallsTrump,
    AlwaysClockwise)}

#: What the kit must report: mode → (rules to check under, clause, outcome class).
EXPECTED = {
    "later-copy-wins": ("standard", "trick.earliest-identical", "wrong-answer"),
    "no-follow-suit": ("standard", "play.follow-suit", "illegal-action-accepted"),
    "must-trump": ("standard", "play.no-forced-trump", "legal-action-refused"),
    "signal-from-anyone": ("standard", "signal.leader-only", "illegal-action-accepted"),
    "loss-passes-left": ("standard", "dealer.after-loss", "wrong-answer"),
    "equal-beats-mark": ("standard", "contest.insufficient-win", "wrong-answer"),
    "draw-goes-ns": ("standard", "result.draw-18", "wrong-answer"),
    "suits-break-ties": ("standard", "pack.suits-equal", "wrong-answer"),
    "short-packet-stands": ("standard", "deal.dealer-check", "wrong-answer"),
    "dealer-calls": ("standard", "trump.caller", "wrong-answer"),
    "always-clockwise": ("counterclockwise", "table.direction", "wrong-answer"),
}
