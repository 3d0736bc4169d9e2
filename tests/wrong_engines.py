"""Deliberately wrong implementations of the interface, one broken rule each.

Each subclasses the reference adapter and overrides one operation with a plausible
misreading of the rules.  ``tests/test_wrong_engines.py`` runs the property suites against
each and requires them to find a counterexample: a property that lets a wrong engine
through is too weak.  :data:`WRONG_ENGINES` maps each engine to the properties that must
reject it.
"""

from __future__ import annotations


from turub import Deal, parse_card, parse_seat
from turub.conformance.adapter import ReferenceImplementation
from turub.options import rules_from_dict
from turub.seats import next_seat

__all__ = ["WRONG_ENGINES"]

_RANKS = "6 7 8 9 10 J Q K A".split()


def _rank(card: str) -> int:
    return _RANKS.index(card[:-1])


class LaterIdenticalWins(ReferenceImplementation):
    """Of identical cards, the one played last wins (the guide says the first)."""

    name = "wrong: later identical card wins"

    def trick_winner(self, cards, trump):
        best = 0
        for i in range(1, len(cards)):
            c, b = cards[i], cards[best]
            if c[-1] == b[-1] and _rank(c) >= _rank(b):
                best = i
            elif c[-1] == trump and b[-1] != trump:
                best = i
        return best


class HighestCardWins(ReferenceImplementation):
    """Without trump, the highest card wins whatever its suit (the led suit is ignored)."""

    name = "wrong: off-suit cards can win"

    def trick_winner(self, cards, trump):
        trumps = [i for i, c in enumerate(cards) if c[-1] == trump]
        pool = trumps or range(len(cards))
        top = max(_rank(cards[i]) for i in pool)
        return min(i for i in pool if _rank(cards[i]) == top)


class ForcedTrumping(ReferenceImplementation):
    """A player void in the led suit who holds trump must trump."""

    name = "wrong: forced trumping"

    def answer_first(self, d: Deal, action: dict) -> dict | None:
        if action.get("act") != "play" or d.trump is None or not d.current_trick:
            return None
        seat, card = parse_seat(action["seat"]), parse_card(action["card"])
        led = d.current_trick[0][1].suit
        hand = d.hand(seat)
        if (seat == d.to_act and card in hand and card.suit not in (led, d.trump)
                and not any(c.suit is led for c in hand) and any(c.suit is d.trump for c in hand)):
            return {"refused": "play.no-forced-trump"}
        return None


class MustOvertake(ReferenceImplementation):
    """Holding the led suit, a player must beat the best card of it so far if able."""

    name = "wrong: must overtake"

    def legal_plays(self, hand, trick):
        legal = super().legal_plays(hand, trick)
        if not trick:
            return legal
        led = trick[0][-1]
        best = max(_rank(c) for c in trick if c[-1] == led)
        higher = [c for c in legal if c[-1] == led and _rank(c) > best]
        return higher or legal


class SignalAnyTime(ReferenceImplementation):
    """The leader may knock or click at any point of the trick, not only right after leading."""

    name = "wrong: signals at any time"

    def answer_first(self, d: Deal, action: dict) -> dict | None:
        if (action.get("act") == "signal" and d.trump is not None and d.to_act is not None
                and parse_seat(action["seat"]) == d.leader and len(d.current_trick) > 1
                and action.get("signal") in ("knock", "click")):
            return {"ok": True}
        return None


class CallerSeesTheUncutPack(ReferenceImplementation):
    """The caller is shown the top three cards of the pack as it was before the cut."""

    name = "wrong: the call ignores the cut"

    def deal(self, pack, dealer, cut, rules):
        answer = super().deal(pack, dealer, cut, rules)
        answer["caller_saw"] = list(pack[:3])
        return answer


class PacketCheckOnFirstPacket(ReferenceImplementation):
    """The dealer shows the first packet dealt to themself, not the last."""

    name = "wrong: the dealer checks the first packet"

    def check_packets(self, packets, dealer):
        own = [n for s, n in packets if s == dealer]
        return {"stands": bool(own) and own[0] == 3}


class EighteenAllGoesToTheDealersSide(ReferenceImplementation):
    """An 18-18 deal is counted as a win for North-South instead of a draw."""

    name = "wrong: 18-18 is not a draw"

    def deal_result(self, ns, ew, closed_early):
        if (ns, ew, bool(closed_early)) == (18, 18, False):
            return {"outcome": "NS"}
        return super().deal_result(ns, ew, closed_early)


class AlwaysClockwiseDealer(ReferenceImplementation):
    """After a win the deal always passes clockwise, whatever the options."""

    name = "wrong: the deal passes clockwise regardless"

    def next_dealer(self, dealer, outcome, rules):
        seat = parse_seat(dealer)
        if outcome not in ("draw",) and outcome == seat.side.short:
            return next_seat(seat, rules_from_dict({}).direction).letter
        return super().next_dealer(dealer, outcome, rules)


class FirstDealerBySuit(ReferenceImplementation):
    """Players tied for the highest card are split by suit (♠ ♥ ♦ ♣) instead of drawing again."""

    name = "wrong: suits break the first dealer's tie"

    def first_dealer(self, rounds):
        if rounds and len(rounds[0]) == 4:
            shown = rounds[0]
            top = max(_rank(c) for c in shown.values())
            tied = [s for s, c in shown.items() if _rank(c) == top]
            if len(tied) > 1:
                return {"dealer": min(tied, key=lambda s: "SHDC".index(shown[s][-1]))}
        return super().first_dealer(rounds)


def _contest(rules, results, step):
    """A contest interpreter with its own ``step(state, side, tricks) -> state``."""
    from turub.properties.oracles import deal_outcome
    state = {"holder": None, "mark": None, "winner": None}
    out = []
    for ns, ew, closed in results:
        outcome = deal_outcome(ns, ew, closed, rules)
        if outcome is None:
            out.append({"refused": "result.tricks-add-up"})
            continue
        if state["winner"] is not None:  # decided: the next result opens a new contest
            state = {"holder": None, "mark": None, "winner": None}
        state = step(dict(state), outcome, ns if outcome == "NS" else ew, rules)
        out.append(dict(state))
    return out


def _traditional(state, outcome, tricks, rules, *, lower=False, draws_break=False, equal_wins=False):
    if rules.get("stake") == "per-deal":
        return {"holder": None, "mark": None, "winner": None if outcome == "draw" else outcome}
    if outcome == "draw":
        return {"holder": None, "mark": None, "winner": None} if draws_break else state
    if state["holder"] != outcome:
        return {"holder": outcome, "mark": tricks, "winner": None}
    if tricks > state["mark"] or (equal_wins and tricks == state["mark"]):
        return state | {"winner": outcome}
    return state | {"mark": tricks} if lower else state


class LoweredMark(ReferenceImplementation):
    """A win short of the mark lowers the mark to its own count."""

    name = "wrong: an insufficient win lowers the mark"

    def contest(self, results, rules):
        return _contest(rules, results, lambda s, o, t, r: _traditional(s, o, t, r, lower=True))


class DrawBreaksTheSequence(ReferenceImplementation):
    """A drawn deal ends the running sequence and clears the mark."""

    name = "wrong: a draw breaks the sequence"

    def contest(self, results, rules):
        return _contest(rules, results, lambda s, o, t, r: _traditional(s, o, t, r, draws_break=True))


class EqualCountWins(ReferenceImplementation):
    """A second win equalling the mark (not beating it) decides the contest."""

    name = "wrong: equalling the mark wins"

    def contest(self, results, rules):
        return _contest(rules, results, lambda s, o, t, r: _traditional(s, o, t, r, equal_wins=True))


class StakePerDealIgnored(ReferenceImplementation):
    """The ``stake=per-deal`` option is ignored: always the traditional contest."""

    name = "wrong: stake per deal ignored"

    def contest(self, results, rules):
        return super().contest(results, {k: v for k, v in rules.items() if k != "stake"})


#: Each wrong engine, and the properties (module, test name) that must reject it.
WRONG_ENGINES: dict[type, tuple[tuple[str, str], ...]] = {
    LaterIdenticalWins: (
        ("test_tricks", "test_second_ace_never_beats_the_first"),
        ("test_tricks", "test_exactly_one_card_wins_and_it_is_the_one_the_rule_names"),
        ("test_tricks", "test_renaming_suits_or_reordering_the_followers_changes_nothing"),
    ),
    HighestCardWins: (
        ("test_tricks", "test_exactly_one_card_wins_and_it_is_the_one_the_rule_names"),
    ),
    ForcedTrumping: (
        ("test_referee", "test_a_void_player_may_discard_though_holding_trump"),
        ("test_referee", "test_the_referee_accepts_exactly_the_legal_actions_and_scores_the_deal"),
    ),
    MustOvertake: (
        ("test_play", "test_no_one_must_play_higher_than_the_card_to_beat"),
        ("test_play", "test_holding_the_led_suit_you_must_follow_and_void_you_may_play_anything"),
    ),
    SignalAnyTime: (
        ("test_referee", "test_the_referee_accepts_exactly_the_legal_actions_and_scores_the_deal"),
    ),
    CallerSeesTheUncutPack: (
        ("test_dealing", "test_the_caller_names_trump_on_the_first_packet_after_the_cut"),
    ),
    PacketCheckOnFirstPacket: (
        ("test_dealing", "test_the_deal_stands_only_if_the_dealers_last_packet_holds_three"),
    ),
    EighteenAllGoesToTheDealersSide: (
        ("test_contest", "test_more_tricks_win_and_eighteen_each_is_a_draw"),
    ),
    AlwaysClockwiseDealer: (
        ("test_dealers", "test_next_dealer_after_a_win_a_loss_and_a_draw"),
        ("test_dealers", "test_the_deal_moves_round_the_table_as_the_rule_says_over_many_deals"),
    ),
    FirstDealerBySuit: (
        ("test_dealing", "test_the_highest_card_shown_deals_and_ties_draw_again"),
        ("test_dealing", "test_suits_never_decide_the_first_dealer"),
    ),
    LoweredMark: (
        ("test_contest", "test_insufficient_win_keeps_the_mark"),
        ("test_contest", "test_the_contest_follows_the_runs_of_wins_after_every_deal"),
        ("test_contest", "test_the_contest_is_decided_exactly_when_due_and_never_earlier"),
    ),
    DrawBreaksTheSequence: (
        ("test_contest", "test_a_draw_or_a_short_win_changes_nothing"),
        ("test_contest", "test_the_contest_follows_the_runs_of_wins_after_every_deal"),
    ),
    EqualCountWins: (
        ("test_contest", "test_the_contest_is_decided_exactly_when_due_and_never_earlier"),
        ("test_contest", "test_a_first_win_of_36_can_only_be_ended_by_the_other_side"),
        ("test_contest", "test_the_contest_follows_the_runs_of_wins_after_every_deal"),
    ),
    StakePerDealIgnored: (
        ("test_contest", "test_with_stakes_per_deal_the_first_win_settles_it"),
    ),
}
