"""The judge: an implementation's answer against the expected one, clause by clause.

:func:`judge` returns a :class:`Verdict`: passed, or failed with an outcome class
(:data:`OUTCOMES`), the *one* clause the evidence points to (``blame``), the clauses the
disagreement touches (``clauses``) and a one-line detail.  Cards are compared as cards
(``"A♣"`` equals ``"AC"``), lists of distinct cards as sets, hands as multisets.  An answer
of the wrong shape is a protocol violation, not a wrong answer.

How the blame is chosen (the root cause of one failing case):

* a legal action refused: the clause that makes it legal there (a lead: who leads; a
  follower's lower card: ``play.no-forced-trump``; a void player's discard:
  ``play.void-any-card``, or ``play.no-forced-trump`` when the player held trump);
* an illegal action accepted: the clause that forbids it;
* an illegal action refused under another clause: ``play.refusal-order`` when the action
  breaks both rules, otherwise the clause the reference names;
* a wrong value: the clause that decides it (a trick: the highest trump, the highest of
  the led suit, or the earliest of identical cards; a result: the 18-18 draw, the early
  close or the trick count; a contest step: the clause that decided that step).

Differences after the first one are consequences: a referee answer is judged at its first
divergence only, a contest at its first differing state.
"""


from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

from ..programs.targets import RESULT
from ..operations import REGISTRY, operation_part
from .referee import moment_of, referee
from .verdict import (CRASH, ERROR, ILLEGAL_ACCEPTED, LEGAL_REFUSED, OUTCOMES, PASS, PROTOCOL,
                      TIMEOUT, WRONG, WRONG_ANSWERS, Verdict, card_text, card_texts, direction_of, fail_verdict,
                      object_with, rank_of, refusal_of, seat_text, MalformedAnswer, short_text, suit_of, trick_blame)

__all__ = ["OUTCOMES", "Verdict", "judge", "verdict_of", "trick_blame", "legal_plays_blame", "result_blame", "WRONG", "ILLEGAL_ACCEPTED", "LEGAL_REFUSED",
           "ERROR", "CRASH", "TIMEOUT", "PROTOCOL", "WRONG_ANSWERS"]


def verdict_of(case: dict, answer: Any) -> Verdict:
    """The verdict on an answer of any kind (a :class:`~turub.conformance.programs.targets.Answer`;
    ``unsupported`` is the caller's business)."""
    if answer.kind == RESULT:
        return judge(case, answer.value)
    return Verdict(answer.kind, tuple(case["clauses"]), answer.detail)


def judge(case: dict, got: Any) -> Verdict:
    """The verdict on ``got``, the implementation's answer to ``case``."""
    try:
        verdict = REGISTRY[case["op"]].part("judge")(case, case["expected"], got)
        if "variant" in case.get("why", ()):
            from .variant_reference import reblame  # a variant's clause decided somewhere in this case
            return reblame(case, verdict, got)
        return verdict
    except MalformedAnswer as e:
        return Verdict(PROTOCOL, tuple(case["clauses"]), f"malformed answer: {e}")


operation_part("referee", "judge")(referee)  # the referee's verdict has a module of its own


@operation_part("trick_winner", "judge")
def _trick_winner(case, expected, got) -> Verdict:
    if not isinstance(got, int) or isinstance(got, bool):
        raise MalformedAnswer(f"a position 0-{len(case['args']['cards']) - 1}, not {short_text(got)}")
    if got == expected:
        return PASS
    cards = case["args"]["cards"]
    if not 0 <= got < len(cards):  # well-formed (the schema's 0-3), but no card of this trick
        return fail_verdict(WRONG, None, case, f"trump {case['args']['trump']}, trick {' '.join(cards)}: "
                     f"expected the card at {expected} ({cards[expected]}) to win, got {got}, "
                     f"a position this trick of {len(cards)} has not")
    names = [card_text(c) for c in cards]
    trump = suit_of(card_text("A" + case["args"]["trump"])) if len(case["args"]["trump"]) == 1 else \
        case["args"]["trump"]
    return fail_verdict(WRONG, trick_blame(names, trump, expected, got), case,
                 f"trump {case['args']['trump']}, trick {' '.join(cards)}: expected the card at "
                 f"{expected} ({cards[expected]}) to win, got {got} ({cards[got]})")


def legal_plays_blame(hand: Sequence[str], trick: Sequence[str], trump: str | None,
                      extra: Sequence[str], missing: Sequence[str], got: Sequence[str]) -> str:
    """The clause behind a wrong list of legal plays (canonical card names).

    A card listed but not held: ``play.card-in-hand``; a card of another suit listed while
    holding the led suit: ``play.follow-suit``; a lower card of the led suit left out while
    a higher one is listed: ``play.no-forced-trump`` (no duty to overtake); a void player's
    non-trump cards left out while trumps (or one suit) are listed: ``play.no-forced-trump``;
    other cards of a void player left out: ``play.void-any-card``.
    """
    held = set(hand)
    if any(c not in held for c in extra):
        return "play.card-in-hand"
    if not trick:
        return "play.follow-suit"  # a lead: any card, there is no suit to follow
    led = suit_of(trick[0])
    following = any(suit_of(c) == led for c in hand)
    if extra:
        return "play.follow-suit" if following else "play.void-any-card"
    if following:
        listed = [c for c in got if suit_of(c) == led]
        if listed and all(suit_of(c) == led for c in missing) and \
                min(map(rank_of, missing)) < max(map(rank_of, listed)):
            return "play.no-forced-trump"
        return "play.follow-suit"
    suits = {suit_of(c) for c in got}
    if got and (suits == {trump} if trump else len(suits) == 1) and any(suit_of(c) != trump for c in missing):
        return "play.no-forced-trump"
    if trump and any(suit_of(c) == trump for c in got) and not any(suit_of(c) == trump for c in missing):
        return "play.no-forced-trump"
    return "play.void-any-card"


@operation_part("legal_plays", "judge")
def _legal_plays(case, expected, got) -> Verdict:
    got_list = card_texts(got)
    got_set, exp_set = set(got_list), set(card_texts(expected))
    if got_set == exp_set:
        return PASS
    a = case["args"]
    hand = [card_text(c) for c in a["hand"]]
    trick = [card_text(c) for c in a["trick"]]
    trump = a.get("trump")
    where = f"hand {' '.join(a['hand'])}, trick {' '.join(a['trick']) or '(lead)'}" + (
        f", trump {trump}" if trump else "")
    extra, missing = sorted(got_set - exp_set), sorted(exp_set - got_set)
    blame = legal_plays_blame(hand, trick, trump, extra, missing, got_list)
    if extra:
        return fail_verdict(ILLEGAL_ACCEPTED, blame, case, f"{where}: {' '.join(extra)} listed as legal")
    return fail_verdict(LEGAL_REFUSED, blame, case, f"{where}: legal {' '.join(missing)} not listed")


_NEXT = {"clockwise": dict(zip("NESW", "ESWN")), "counterclockwise": dict(zip("NESW", "WNES"))}


@operation_part("deal", "judge")
def _deal(case, expected, got) -> Verdict:
    got = object_with(got, "caller", "caller_saw", "hands")
    problems, blame = [], None
    dealer = case["args"]["dealer"]
    direction = direction_of(case)
    caller = seat_text(got["caller"])
    if caller != expected["caller"]:
        problems.append(f"caller expected {expected['caller']}, got {got['caller']}")
        other = "counterclockwise" if direction == "clockwise" else "clockwise"
        if caller == _NEXT[other][dealer]:
            blame = "table.direction" if direction != "clockwise" else "table.left-of-dealer"
        else:
            blame = "trump.caller"
    hands = object_with(got["hands"])
    wrong_hands = [s for s, cards in expected["hands"].items()
                   if hands.get(s) is None or Counter(card_texts(hands.get(s))) != Counter(cards)]
    if wrong_hands:
        problems.append(f"{', '.join(wrong_hands)}'s hand{'s' if len(wrong_hands) > 1 else ''} differ")
        blame = blame or "deal.packets"
    if Counter(card_texts(got["caller_saw"])) != Counter(expected["caller_saw"]):
        problems.append(f"caller saw expected {' '.join(expected['caller_saw'])}, "
                        f"got {' '.join(map(str, got['caller_saw']))}")
        blame = blame or "trump.three-cards"
    if not problems:
        return PASS
    return fail_verdict(WRONG, blame, case, "; ".join(problems))


@operation_part("check_packets", "judge")
def _check_packets(case, expected, got) -> Verdict:
    got = object_with(got, "stands")
    if not isinstance(got["stands"], bool):
        raise MalformedAnswer("'stands' is true or false")
    if got["stands"] == expected["stands"]:
        return PASS
    fault = case.get("why", {}).get("fault") or "every packet holds three, in turn"
    return fail_verdict(WRONG, "deal.dealer-check", case,
                 f"{fault}: expected {'the deal stands' if expected['stands'] else 'a redeal'}, "
                 f"got the opposite")


def result_blame(ns: int, ew: int, closed_early: bool) -> str:
    """The clause that decides the outcome of a deal ``ns``-``ew``."""
    if closed_early:
        return "result.closed-early"
    if ns == ew:
        return "result.draw-18"
    return "result.more-tricks-wins"


@operation_part("deal_result", "judge")
def _deal_result(case, expected, got) -> Verdict:
    a = case["args"]
    where = f"result {a['ns']}-{a['ew']}{' closed early' if a['closed_early'] else ''}" + (
        f", dealer {a['dealer']}" if "dealer" in a else "")
    exp_r, got_r = refusal_of(expected), refusal_of(got)
    if exp_r is not None and got_r is None:
        object_with(got, "outcome")
        return fail_verdict(ILLEGAL_ACCEPTED, exp_r, case, f"{where}: impossible, expected refused for {exp_r}, "
                     f"got {short_text(got)}")
    if exp_r is None and got_r is not None:
        return fail_verdict(LEGAL_REFUSED, "result.tricks-add-up", case,
                     f"{where}: expected {short_text(expected)}, got refused for {got_r}")
    if exp_r is not None:
        return PASS if got_r == exp_r else fail_verdict(WRONG, exp_r, case,
                                                 f"{where}: expected refused for {exp_r}, got {got_r}")
    if object_with(got, "outcome")["outcome"] == expected["outcome"]:
        return PASS
    return fail_verdict(WRONG, result_blame(a["ns"], a["ew"], a["closed_early"]), case,
                 f"{where}: expected {expected['outcome']}, got {short_text(got['outcome'])}")


@operation_part("first_dealer", "judge")
def _first_dealer(case, expected, got) -> Verdict:
    rounds = case["args"]["rounds"]
    where = "draw " + " / ".join(" ".join(f"{s}:{c}" for s, c in r.items()) for r in rounds)
    exp_r, got_r = refusal_of(expected), refusal_of(got)
    decided_by = "dealer.first-draw-ties" if len(rounds) > 1 else "dealer.first-draw"
    if exp_r is not None and got_r is None:
        object_with(got, "dealer")
        return fail_verdict(ILLEGAL_ACCEPTED, exp_r, case, f"{where}: expected refused for {exp_r}, got {short_text(got)}")
    if exp_r is None and got_r is not None:
        return fail_verdict(LEGAL_REFUSED, decided_by, case, f"{where}: expected {short_text(expected)}, "
                     f"got refused for {got_r}")
    if exp_r is not None:
        return PASS if got_r == exp_r else fail_verdict(WRONG, exp_r, case,
                                                 f"{where}: expected refused for {exp_r}, got {got_r}")
    got_v = seat_text(object_with(got, "dealer")["dealer"])
    if got_v == expected["dealer"]:
        return PASS
    # a dealer among those tied on rank in the deciding round: suits (or seats) broke the tie
    blame = decided_by
    for r in rounds:
        try:
            top = max(rank_of(card_text(c)) for c in r.values())
            tied = [s for s, c in r.items() if rank_of(card_text(c)) == top]
        except (MalformedAnswer, ValueError):
            break
        if len(tied) > 1 and got_v in tied:
            blame = "pack.suits-equal"
            break
    return fail_verdict(WRONG, blame, case, f"{where}: expected {expected['dealer']} to deal first, got {got_v}")


@operation_part("next_dealer", "judge")
def _next_dealer(case, expected, got) -> Verdict:
    if seat_text(got) == expected:
        return PASS
    a = case["args"]
    blame = {"draw": "dealer.after-draw"}.get(a["outcome"])
    if blame is None:
        dealer_side = "NS" if a["dealer"] in "NS" else "EW"
        blame = "dealer.after-win" if a["outcome"] == dealer_side else "dealer.after-loss"
        direction = direction_of(case)
        other = "counterclockwise" if direction == "clockwise" else "clockwise"
        if blame == "dealer.after-win" and direction != "clockwise" and \
                seat_text(got) in (_NEXT[other][a["dealer"]],):
            blame = "table.direction"
    return fail_verdict(WRONG, blame, case, f"dealer {a['dealer']}, outcome {a['outcome']}: "
                 f"expected {expected} to deal next, got {got}")


def _result_text(result: Any) -> str:
    """A deal's result as the question gives it, in words: ``20-16``, ``10-5 closed early``."""
    try:
        ns, ew, closed = result
        return f"North-South {ns}, East-West {ew}" + (", closed early" if closed else "")
    except (TypeError, ValueError):
        return short_text(result)


@operation_part("contest", "judge")
def _contest(case, expected, got) -> Verdict:
    results = case["args"]["results"]
    if not isinstance(got, list):
        raise MalformedAnswer(f"one state per result ({len(results)}), got {short_text(got, 60)}")
    if len(got) != len(results):  # well-formed, but not an answer to these results
        return fail_verdict(WRONG, None, case, f"{len(got)} contest states for {len(results)} results "
                     f"(one state per result)")
    steps = case.get("why", {}).get("steps") or [list(case["clauses"])] * len(results)
    for i, (e, g) in enumerate(zip(expected, got)):
        e_r, g_r = refusal_of(e), refusal_of(g)
        where = f"after result {i + 1} ({_result_text(results[i])}) of {len(results)}"
        decided = (steps[i] or ["contest.first-win-sets-mark"])[0]
        if e_r is not None and g_r is None:
            object_with(g, "holder", "mark", "winner")
            return fail_verdict(ILLEGAL_ACCEPTED, e_r, case, f"{where}: expected refused for {e_r}, got {short_text(g)}",
                         step=i)
        if e_r is None and g_r is not None:
            if "contest.decided-is-final" in steps[i]:
                decided = "contest.decided-is-final"  # refused: it read "final" as "no more deals"
            return fail_verdict(LEGAL_REFUSED, decided, case, f"{where}: expected {short_text(e)}, "
                         f"got refused for {g_r}", step=i)
        if e_r is not None:
            if e_r != g_r:
                return fail_verdict(WRONG, e_r, case, f"{where}: expected refused for {e_r}, got {g_r}", step=i)
            continue
        g = object_with(g, "holder", "mark", "winner")
        if any(g[k] != e[k] for k in ("holder", "mark", "winner")):
            ns, ew, closed = results[i]
            drawn = closed or ns == ew
            if "contest.decided-is-final" in steps[i] and g["winner"] is not None and \
                    i > 0 and g["winner"] == (expected[i - 1] or {}).get("winner"):
                decided = "contest.decided-is-final"  # the decided contest went on taking results
            elif drawn and ns != ew and ("NS" if ns > ew else "EW") in (g["holder"], g["winner"]):
                decided = result_blame(ns, ew, closed)  # the draw was counted as a win
            elif drawn and ns == ew and not closed and (
                    (g["holder"] is not None and g["holder"] != e["holder"])
                    or (g["winner"] is not None and g["winner"] != e["winner"])):
                decided = "result.draw-18"  # 18-18 was counted as a win for one side
            return fail_verdict(WRONG, decided, case, f"{where}: expected {short_text(e)}, got "
                         f"{short_text({k: g[k] for k in ('holder', 'mark', 'winner')})}", step=i)
    return PASS
