"""The property suites under a rule variant: each property restated from the variant's
decisions, or not applicable with the true reason.

The properties of :mod:`turub.properties` state the standard rules through independent
oracles (:mod:`turub.properties.oracles`).  Under a variant whose house rules override
decisions (:mod:`turub.decisions`) a property falls in one of three kinds, by what its
statement rests on (:data:`RESTS_ON`):

* it rests on no overridden decision: it runs as it is;
* it reads an overridden decision only through the oracles (who wins a trick, a deal, who
  deals next, what the contest is): it is **restated**: while it runs, those oracles answer
  as the variant decides (the house rule where it decides, the independent oracle where it
  defers), so the trick winner is the variant's trick winner and a deal is won as the variant
  says;
* it states the standard rule of an overridden decision itself (the second ace never beats
  the first; a void player may discard): it is **not applicable**, and says so with the
  clause it rests on and the house clause that replaces it.

A property not in the table (a new one) is not applicable under a variant that overrides a
decision whose clauses it verifies.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final

from turub.decisions import (CONTEST_STEP, DEAL_RESULT, DEAL_STANDS, FIRST_DEALER, LEGAL_PLAYS, NEXT_DEALER,
                             SIGNAL, TRICK_WINNER, TRUMP_CALLER, Decision)
from turub.variants import DECISIONS, Variant

__all__ = ["RESTS_ON", "not_applicable", "restated"]


def _named(decisions: tuple[Decision, ...]) -> frozenset[str]:
    return frozenset(d.name for d in decisions)


#: ``{property: (decisions it reads through the oracles, decisions it states itself)}``, each
#: decision by its record's name (:mod:`turub.decisions`).
RESTS_ON: Final[dict[str, tuple[frozenset[str], frozenset[str]]]] = {
    name: (_named(reads), _named(states)) for name, reads, states in (
        ("test_tricks.test_exactly_one_card_wins_and_it_is_the_one_the_rule_names", (), (TRICK_WINNER,)),
        ("test_tricks.test_second_ace_never_beats_the_first", (), (TRICK_WINNER,)),
        ("test_tricks.test_renaming_suits_or_reordering_the_followers_changes_nothing", (), (TRICK_WINNER,)),
        ("test_play.test_holding_the_led_suit_you_must_follow_and_void_you_may_play_anything", (), (LEGAL_PLAYS,)),
        ("test_play.test_no_one_must_play_higher_than_the_card_to_beat", (), (LEGAL_PLAYS,)),
        ("test_dealing.test_each_seat_gets_its_packets_of_three_and_every_card_lands_once", (), (TRUMP_CALLER,)),
        ("test_dealing.test_the_caller_names_trump_on_the_first_packet_after_the_cut", (), (TRUMP_CALLER,)),
        ("test_dealing.test_the_deal_stands_only_if_the_dealers_last_packet_holds_three", (), (DEAL_STANDS,)),
        ("test_dealing.test_the_highest_card_shown_deals_and_ties_draw_again", (), (FIRST_DEALER,)),
        ("test_dealing.test_suits_never_decide_the_first_dealer", (), (FIRST_DEALER,)),
        ("test_dealers.test_next_dealer_after_a_win_a_loss_and_a_draw", (), (NEXT_DEALER,)),
        ("test_dealers.test_next_dealer_for_every_seat_outcome_direction_and_option", (), (NEXT_DEALER,)),
        ("test_dealers.test_the_deal_moves_round_the_table_as_the_rule_says_over_many_deals", (NEXT_DEALER,), ()),
        ("test_contest.test_more_tricks_win_and_eighteen_each_is_a_draw", (DEAL_RESULT,), ()),
        ("test_contest.test_the_contest_follows_the_runs_of_wins_after_every_deal", (DEAL_RESULT, CONTEST_STEP), ()),
        ("test_contest.test_insufficient_win_keeps_the_mark", (DEAL_RESULT,), (CONTEST_STEP,)),
        ("test_contest.test_a_draw_or_a_short_win_changes_nothing", (DEAL_RESULT,), (CONTEST_STEP,)),
        ("test_contest.test_the_other_sides_win_resets_the_mark_to_its_own_count", (DEAL_RESULT,), (CONTEST_STEP,)),
        ("test_contest.test_the_contest_is_decided_exactly_when_due_and_never_earlier", (DEAL_RESULT, CONTEST_STEP), ()),
        ("test_contest.test_a_first_win_of_36_can_only_be_ended_by_the_other_side", (DEAL_RESULT,), (CONTEST_STEP,)),
        ("test_contest.test_with_stakes_per_deal_the_first_win_settles_it", (DEAL_RESULT,), (CONTEST_STEP,)),
        ("test_referee.test_the_referee_accepts_exactly_the_legal_actions_and_scores_the_deal",
         (LEGAL_PLAYS, TRICK_WINNER, DEAL_RESULT, SIGNAL), (TRUMP_CALLER,)),
        ("test_referee.test_a_void_player_may_discard_though_holding_trump",
         (TRICK_WINNER, DEAL_RESULT), (LEGAL_PLAYS, TRUMP_CALLER)),
        ("test_referee.test_a_follower_may_play_low_under_a_higher_card",
         (TRICK_WINNER, DEAL_RESULT), (LEGAL_PLAYS, TRUMP_CALLER)),
        # compares two answers of the program (a deal and its mirror image): house rules of
        # the cards alone (plays, tricks, counts) treat both alike
        ("test_referee.test_the_mirror_image_of_a_deal_played_the_other_way_round_ends_the_same",
         (LEGAL_PLAYS, TRICK_WINNER, DEAL_RESULT, SIGNAL), (TRUMP_CALLER,)),
        ("test_options.test_the_presets_are_rule_options_the_interface_understands", (), (NEXT_DEALER,)),
        ("test_options.test_each_option_changes_the_answer_it_governs", (),
         (NEXT_DEALER, CONTEST_STEP, TRUMP_CALLER)),
    )}


def _house(variant: Variant, decision: str):
    return next(iter(variant.decides(decision)), None)


def not_applicable(name: str, verifies: list[str], variant: Any) -> str | None:
    """Why property ``name`` (verifying ``verifies``) does not hold under ``variant``, or
    None when it runs (as it is, or restated)."""
    if not isinstance(variant, Variant) or not variant.has_rules:
        return None
    reads, states = RESTS_ON.get(name, (frozenset(), frozenset(d for d, cs in DECISIONS.items()
                                                               if set(cs) & set(verifies))))
    for decision in sorted(reads - states):
        vc = _house(variant, decision)
        if vc is not None and variant.sees_game(decision):
            return (f"not applicable under variant {variant.name}: it reads the "
                    f"{decision.replace('_', ' ')} through an oracle that knows only the cards and "
                    f"counts, and house clause {vc.id} reads the game (turub.decisions.Game) "
                    "(checked by the variant's cases and differential play)")
    for decision in sorted(states):
        vc = _house(variant, decision)
        if vc is None:
            continue
        rests = sorted(set(verifies) & set(DECISIONS[decision])) or list(vc.targets) or \
            list(DECISIONS[decision][:1])
        return (f"not applicable under variant {variant.name}: it states the standard rule "
                f"{', '.join(rests)}, which house clause {vc.id} {vc.relation if vc.targets else 'overrides'}"
                f"{' ' + ', '.join(vc.targets) if vc.targets else ''} (the {decision.replace('_', ' ')} "
                "is checked by the variant's cases and differential play)")
    return None


# --- the oracles, answering as the variant decides ------------------------------------------------

def _patched(variant: Variant, O: Any) -> dict[str, Any]:
    """Replacements for the oracles of :mod:`turub.properties.oracles` that ask the house
    rules first and defer to the independent oracle."""
    from turub import parse_card, parse_seat, parse_suit
    from turub.options import rules_from_dict
    from turub.seats import Side

    std = {k: getattr(O, k) for k in ("trick_winner", "deal_outcome", "next_dealer",
                                      "contest_states", "contest_decided_at", "TableModel")}
    out: dict[str, Any] = {}
    side = {Side.NORTH_SOUTH: "NS", Side.EAST_WEST: "EW", None: "draw"}
    winner_of = {"NS": Side.NORTH_SOUTH, "EW": Side.EAST_WEST, "draw": None}

    if variant.decides(TRICK_WINNER.name):
        def trick_winner(cards, trump):
            asked = variant.house("trick_winner", tuple(parse_card(c) for c in cards), parse_suit(trump))
            return asked[0] if asked is not None else std["trick_winner"](cards, trump)
        out["trick_winner"] = trick_winner

    if variant.decides(DEAL_RESULT.name):
        def deal_outcome(ns, ew, closed_early, rules=None):
            outcome = std["deal_outcome"](ns, ew, closed_early, rules)
            if outcome is None:  # counts that cannot happen are refused before any rule
                return None
            asked = variant.house("deal_result", ns, ew, bool(closed_early))
            return side[asked[0]] if asked is not None else outcome
        out["deal_outcome"] = deal_outcome

    if variant.decides(NEXT_DEALER.name):
        def next_dealer(dealer, outcome, rules=None):
            asked = variant.house("next_dealer", parse_seat(dealer), winner_of[outcome],
                                  rules_from_dict(dict(rules or {})))
            return asked[0].letter if asked is not None else std["next_dealer"](dealer, outcome, rules)
        out["next_dealer"] = next_dealer

    if variant.decides(CONTEST_STEP.name):
        def contest_states(results, rules=None):
            return _stepped_states(variant, results, rules, out.get("deal_outcome", std["deal_outcome"]))

        def contest_decided_at(results, rules=None):
            states = contest_states(results, rules)
            return next((k for k, s in enumerate(states) if s.get("winner") is not None), None)
        out["contest_states"] = contest_states
        out["contest_decided_at"] = contest_decided_at

    if variant.decides(LEGAL_PLAYS.name) or variant.decides(DEAL_RESULT.name) or variant.decides(SIGNAL.name):
        out["TableModel"] = _table_model(variant, std["TableModel"], parse_card, parse_suit)
    return out


def _stepped_states(variant: Variant, results, rules, deal_outcome) -> list[dict[str, Any]]:
    """The contest interface's answers after each result, stepped by the variant (its
    contest rule where it decides, the engine's standard step where it defers)."""
    from turub import Contest
    from turub.options import rules_from_dict
    from turub.rules import DealResult
    from turub.seats import Side

    r = rules_from_dict(dict(rules or {}))
    winner_of = {"NS": Side.NORTH_SOUTH, "EW": Side.EAST_WEST, "draw": None}
    states: list[dict[str, Any]] = []
    contest = Contest()
    for ns, ew, closed in results:
        outcome = deal_outcome(ns, ew, closed, rules)
        if outcome is None:
            states.append({"refused": {"result.tricks-add-up"}})
            continue
        result = DealResult((ns, ew), winner_of[outcome], bool(closed), ())
        contest = variant.contest_step(Contest() if contest.winner is not None else contest, result, r)
        states.append({"holder": _short(contest.holder), "mark": contest.mark,
                       "winner": _short(contest.winner)})
    return states


def _short(side) -> str | None:
    return None if side is None else side.short


def _table_model(variant: Variant, base: type, parse_card, parse_suit) -> type:
    from turub import parse_seat

    """The oracles' table model with the variant's plays and deal results."""

    class VariantTableModel(base):  # type: ignore[misc, valid-type]
        def broken(self, action):
            broken = super().broken(action)
            if action.get("act") == "signal":
                return self._signal_broken(action, broken)
            if action.get("act") != "play" or self.phase != "playing" or \
                    broken & {"play.turn", "play.card-in-hand"}:
                return broken
            hand = tuple(parse_card(c) for c, n in Counter(self.hands[action["seat"]]).items()
                         for _ in range(n))
            asked = variant.house("legal_plays", hand, tuple(parse_card(c) for _, c in self.trick),
                                  parse_suit(self.trump))
            if asked is None:
                return broken
            legal, vc = asked
            if parse_card(action["card"]) in legal:
                return broken - {"play.follow-suit"}  # the house rule decides the play
            return broken | {vc.id}  # refused by the house clause (or follow-suit, if broken too)

        def _signal_broken(self, action, broken):
            """Who may signal as the house rule says, where it decides (``signal.kinds`` is
            checked before the rule is asked)."""
            if not variant.decides(SIGNAL.name) or self.phase != "playing" or "signal.kinds" in broken:
                return broken
            asked = variant.house(SIGNAL.name, parse_seat(action["seat"]), parse_seat(self.leader), action["signal"])
            if asked is None:
                return broken
            allowed, vc = asked
            return broken - {"signal.leader-only"} if allowed else broken - {"signal.leader-only"} | {vc.id}

        def apply(self, action):
            super().apply(action)
            if self.phase == "finished" and len(self.winners) == 36 and action.get("act") == "play":
                self.outcome = self._outcome(self.won["NS"], self.won["EW"])

        def _outcome(self, ns, ew):
            import turub.properties.oracles as O
            return O.deal_outcome(ns, ew, False, self.rules)

    return VariantTableModel


@contextmanager
def restated(variant: Any) -> Iterator[None]:
    """While inside, the property oracles answer as ``variant`` decides (nothing changes for
    a variant without house rules)."""
    if not isinstance(variant, Variant) or not variant.has_rules:
        yield
        return
    import turub.properties.oracles as O
    patches = _patched(variant, O)
    saved = {k: getattr(O, k) for k in patches}
    for k, v in patches.items():
        setattr(O, k, v)
    try:
        yield
    finally:
        for k, v in saved.items():
            setattr(O, k, v)
