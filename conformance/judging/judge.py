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
from dataclasses import dataclass, field
from typing import Any, Final

from turub import CardFormatError, parse_card
from turub.cards import card_name

from ..programs.targets import RESULT

__all__ = ["OUTCOMES", "Verdict", "judge", "verdict_of", "trick_blame", "legal_plays_blame", "result_blame", "WRONG", "ILLEGAL_ACCEPTED", "LEGAL_REFUSED",
           "ERROR", "CRASH", "TIMEOUT", "PROTOCOL", "WRONG_ANSWERS"]

WRONG: Final = "wrong-answer"
ILLEGAL_ACCEPTED: Final = "illegal-action-accepted"
LEGAL_REFUSED: Final = "legal-action-refused"
ERROR: Final = "error-reported"
CRASH: Final = "crash"
TIMEOUT: Final = "timeout"
PROTOCOL: Final = "protocol-violation"

#: The outcome classes of a failure, in the order reports list them.
OUTCOMES: Final = (WRONG, ILLEGAL_ACCEPTED, LEGAL_REFUSED, ERROR, CRASH, TIMEOUT, PROTOCOL)
#: The outcomes that are a wrong answer (the program's rule is wrong); the others are the
#: program misbehaving (an error it reported, a crash, a hang, a broken protocol).
WRONG_ANSWERS: Final = (WRONG, ILLEGAL_ACCEPTED, LEGAL_REFUSED)


@dataclass(frozen=True)
class Verdict:
    """``outcome`` is None when the answer agrees; ``blame`` is the one clause the failure
    points to (None: no single rule, e.g. a crash); ``clauses`` are those the failure is
    about (the blamed one, or the case's clauses when nothing is blamed)."""

    outcome: str | None
    clauses: tuple[str, ...] = ()
    detail: str = ""
    extra: dict = field(default_factory=dict)
    blame: str | None = None

    @property
    def passed(self) -> bool:
        return self.outcome is None


PASS: Final = Verdict(None)


class _Shape(Exception):
    """The answer does not have the shape the protocol defines."""


def _card(text: Any) -> str:
    if not isinstance(text, str):
        raise _Shape(f"{text!r} is not a card")
    try:
        return card_name(parse_card(text), ascii=True)
    except CardFormatError:
        raise _Shape(f"{text!r} is not a card") from None


def _cards(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise _Shape(f"expected a list of cards, got {_short(value)}")
    return [_card(c) for c in value]


def _seat(value: Any) -> str:
    if not isinstance(value, str) or value.strip().upper()[:1] not in ("N", "E", "S", "W") or \
            value.strip().upper() not in ("N", "E", "S", "W", "NORTH", "EAST", "SOUTH", "WEST"):
        raise _Shape(f"{_short(value)} is not a seat")
    return value.strip().upper()[0]


def _obj(value: Any, *keys: str) -> dict:
    if not isinstance(value, dict) or any(k not in value for k in keys):
        raise _Shape(f"expected an object with {', '.join(keys)}, got {_short(value)}")
    return value


def _short(value: Any, limit: int = 120) -> str:
    import json
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def _refusal(value: Any) -> str | None:
    """The clause of a refusal answer, None for any other answer."""
    if isinstance(value, dict) and "refused" in value:
        if not isinstance(value["refused"], str):
            raise _Shape(f"a refusal names a clause ID, not {_short(value['refused'])}")
        return value["refused"]
    return None


def verdict_of(case: dict, answer: Any) -> Verdict:
    """The verdict on an answer of any kind (a :class:`~turub.conformance.programs.targets.Answer`;
    ``unsupported`` is the caller's business)."""
    if answer.kind == RESULT:
        return judge(case, answer.value)
    return Verdict(answer.kind, tuple(case["clauses"]), answer.detail)


def judge(case: dict, got: Any) -> Verdict:
    """The verdict on ``got``, the implementation's answer to ``case``."""
    try:
        verdict = _JUDGES[case["op"]](case, case["expected"], got)
        if "variant" in case.get("why", ()):
            from .oracle import reblame  # a variant's clause decided somewhere in this case
            return reblame(case, verdict, got)
        return verdict
    except _Shape as e:
        return Verdict(PROTOCOL, tuple(case["clauses"]), f"malformed answer: {e}")


# --- cards as text (the judge reads answers, so it leans on no engine internals) ----------------

_RANKS: Final = ("6", "7", "8", "9", "10", "J", "Q", "K", "A")


def _suit_of(card: str) -> str:
    """The suit letter of a canonical (ASCII) card name."""
    return card[-1]


def _rank_of(card: str) -> int:
    return _RANKS.index(card[:-1])


def _direction(case: dict) -> str:
    rules = case.get("rules")
    if isinstance(rules, dict):
        return rules.get("direction", "clockwise")
    return case.get("args", {}).get("rules", {}).get("direction", "clockwise")


def _fail(outcome: str, blame: str | None, case: dict, detail: str, **extra: Any) -> Verdict:
    return Verdict(outcome, (blame,) if blame else tuple(case["clauses"]), detail, extra, blame)


def trick_blame(cards: Sequence[str], trump: str, expected: int, got: int) -> str:
    """The clause that decides between the card that wins (``expected``) and the one
    named (``got``), in a trick of canonical card names."""
    right, wrong = cards[expected], cards[got]
    if right == wrong:
        return "trick.earliest-identical"
    if _suit_of(right) == trump:
        return "trick.highest-trump"
    return "trick.highest-led"





def _trick_winner(case, expected, got) -> Verdict:
    if not isinstance(got, int) or isinstance(got, bool):
        raise _Shape(f"a position 0-{len(case['args']['cards']) - 1}, not {_short(got)}")
    if got == expected:
        return PASS
    cards = case["args"]["cards"]
    if not 0 <= got < len(cards):  # well-formed (the schema's 0-3), but no card of this trick
        return _fail(WRONG, None, case, f"trump {case['args']['trump']}, trick {' '.join(cards)}: "
                     f"expected the card at {expected} ({cards[expected]}) to win, got {got}, "
                     f"a position this trick of {len(cards)} has not")
    names = [_card(c) for c in cards]
    trump = _suit_of(_card("A" + case["args"]["trump"])) if len(case["args"]["trump"]) == 1 else \
        case["args"]["trump"]
    return _fail(WRONG, trick_blame(names, trump, expected, got), case,
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
    led = _suit_of(trick[0])
    following = any(_suit_of(c) == led for c in hand)
    if extra:
        return "play.follow-suit" if following else "play.void-any-card"
    if following:
        listed = [c for c in got if _suit_of(c) == led]
        if listed and all(_suit_of(c) == led for c in missing) and \
                min(map(_rank_of, missing)) < max(map(_rank_of, listed)):
            return "play.no-forced-trump"
        return "play.follow-suit"
    suits = {_suit_of(c) for c in got}
    if got and (suits == {trump} if trump else len(suits) == 1) and any(_suit_of(c) != trump for c in missing):
        return "play.no-forced-trump"
    if trump and any(_suit_of(c) == trump for c in got) and not any(_suit_of(c) == trump for c in missing):
        return "play.no-forced-trump"
    return "play.void-any-card"


def _legal_plays(case, expected, got) -> Verdict:
    got_list = _cards(got)
    got_set, exp_set = set(got_list), set(_cards(expected))
    if got_set == exp_set:
        return PASS
    a = case["args"]
    hand = [_card(c) for c in a["hand"]]
    trick = [_card(c) for c in a["trick"]]
    trump = a.get("trump")
    where = f"hand {' '.join(a['hand'])}, trick {' '.join(a['trick']) or '(lead)'}" + (
        f", trump {trump}" if trump else "")
    extra, missing = sorted(got_set - exp_set), sorted(exp_set - got_set)
    blame = legal_plays_blame(hand, trick, trump, extra, missing, got_list)
    if extra:
        return _fail(ILLEGAL_ACCEPTED, blame, case, f"{where}: {' '.join(extra)} listed as legal")
    return _fail(LEGAL_REFUSED, blame, case, f"{where}: legal {' '.join(missing)} not listed")


_NEXT = {"clockwise": dict(zip("NESW", "ESWN")), "counterclockwise": dict(zip("NESW", "WNES"))}


def _deal(case, expected, got) -> Verdict:
    got = _obj(got, "caller", "caller_saw", "hands")
    problems, blame = [], None
    dealer = case["args"]["dealer"]
    direction = _direction(case)
    caller = _seat(got["caller"])
    if caller != expected["caller"]:
        problems.append(f"caller expected {expected['caller']}, got {got['caller']}")
        other = "counterclockwise" if direction == "clockwise" else "clockwise"
        if caller == _NEXT[other][dealer]:
            blame = "table.direction" if direction != "clockwise" else "table.left-of-dealer"
        else:
            blame = "trump.caller"
    hands = _obj(got["hands"])
    wrong_hands = [s for s, cards in expected["hands"].items()
                   if hands.get(s) is None or Counter(_cards(hands.get(s))) != Counter(cards)]
    if wrong_hands:
        problems.append(f"{', '.join(wrong_hands)}'s hand{'s' if len(wrong_hands) > 1 else ''} differ")
        blame = blame or "deal.packets"
    if Counter(_cards(got["caller_saw"])) != Counter(expected["caller_saw"]):
        problems.append(f"caller saw expected {' '.join(expected['caller_saw'])}, "
                        f"got {' '.join(map(str, got['caller_saw']))}")
        blame = blame or "trump.three-cards"
    if not problems:
        return PASS
    return _fail(WRONG, blame, case, "; ".join(problems))


def _check_packets(case, expected, got) -> Verdict:
    got = _obj(got, "stands")
    if not isinstance(got["stands"], bool):
        raise _Shape("'stands' is true or false")
    if got["stands"] == expected["stands"]:
        return PASS
    fault = case.get("why", {}).get("fault") or "every packet holds three, in turn"
    return _fail(WRONG, "deal.dealer-check", case,
                 f"{fault}: expected {'the deal stands' if expected['stands'] else 'a redeal'}, "
                 f"got the opposite")


def _describe(action: dict) -> str:
    seat = action.get("seat", "?")
    kind = action.get("act")
    if kind == "play":
        return f"{seat} plays {action.get('card')}"
    if kind == "trump":
        return f"{seat} names trump {action.get('suit')}"
    if kind == "signal":
        return f"{seat} signals {action.get('signal')}"
    return f"{seat} {kind}s"


def _response(value: Any) -> str | None:
    """'ok' or the clause of a refusal; anything else is a shape error."""
    if isinstance(value, dict) and value.get("ok") is True and len(value) == 1:
        return "ok"
    clause = _refusal(value)
    if clause is None:
        raise _Shape(f"a response is {{\"ok\": true}} or {{\"refused\": CLAUSE}}, not {_short(value)}")
    return clause


def _referee_blame_refused(case: dict, i: int, got_clause: str, moment: dict | None) -> str:
    """The clause that makes action ``i`` legal, which the implementation refused."""
    action = case["args"]["actions"][i]
    why = case.get("why", {}).get("actions", [[]] * (i + 1))[i]
    ccw = _direction(case) != "clockwise"
    kind = action.get("act")
    if kind == "trump":
        if got_clause == "trump.caller" or got_clause not in _KNOWN:
            return "table.direction" if ccw else "trump.caller"
        return got_clause if got_clause in ("trump.any-suit", "trump.once") else "trump.caller"
    if kind == "signal":
        if got_clause == "signal.leader-only" and moment is not None:
            return "play.first-lead" if moment["tricks"] == 0 else "play.winner-leads"  # who led
        return got_clause if got_clause.startswith("signal.") else "signal.timing"
    if kind == "close":
        return "sheet.any-player-closes"
    if kind != "play":
        return got_clause
    leading = "play.first-lead" in why or "play.winner-leads" in why
    if got_clause == "play.turn" or got_clause in ("trump.caller", "table.direction"):
        if leading:
            return next(c for c in why if c in ("play.first-lead", "play.winner-leads"))
        return "table.direction" if ccw else "play.turn"
    if got_clause == "play.card-in-hand":
        return "play.card-in-hand"
    if got_clause == "play.order-of-actions":
        return "play.all-tricks" if moment and moment.get("tricks", 0) > 0 else "play.order-of-actions"
    if leading:
        return "play.follow-suit"
    if moment is None:
        return "play.void-any-card" if "play.void-any-card" in why else "play.no-forced-trump"
    card, led, trump, hand = moment["card"], moment["led"], moment["trump"], moment["hand"]
    if _suit_of(card) == led:
        return "play.no-forced-trump"  # following with a card that does not beat the trick
    if trump and _suit_of(card) != trump and any(_suit_of(c) == trump for c in hand):
        return "play.no-forced-trump"
    return "play.void-any-card"


def _moment(case: dict, i: int) -> dict | None:
    """The deal at action ``i`` (replayed by the reference): trump, led suit, the hand of
    the seat acting, the trick so far, tricks played."""
    try:
        from turub import Deal, RuleError, Seat, parse_card
        from turub.cards import card_name
        from turub.options import rules_from_dict
        a = case["args"]
        rules = rules_from_dict(case["rules"] if isinstance(case.get("rules"), dict) else {})
        deal = Deal([parse_card(c) for c in a["pack"]], Seat("NESW".index(a["dealer"])), rules, a["cut"])
        for action in a["actions"][:i]:
            try:
                deal.apply(action)
            except RuleError:
                pass
        action = a["actions"][i]
        seat = action.get("seat")
        trick = [(s.letter, card_name(c, ascii=True)) for s, c in deal.current_trick]
        hand = []
        if isinstance(seat, str) and seat in ("N", "E", "S", "W"):
            hand = [card_name(c, ascii=True) for c in deal.hand(Seat("NESW".index(seat)))]
        card = action.get("card")
        try:
            card = _card(card) if card is not None else None
        except _Shape:
            pass
        return {"trump": None if deal.trump is None else deal.trump.letter,
                "led": _suit_of(trick[0][1]) if trick else None, "trick": trick, "hand": hand,
                "card": card, "tricks": len(deal.tricks), "seat": seat}
    except Exception:  # noqa: BLE001 - a replay is a help for naming the clause, never a crash
        return None


def _referee(case, expected, got) -> Verdict:
    got = _obj(got, "responses", "winners", "tricks", "outcome")
    actions = case["args"]["actions"]
    responses = got["responses"]
    if not isinstance(responses, list):
        raise _Shape(f"one response per action ({len(actions)}), got {_short(responses, 40)}")
    if len(responses) != len(actions):  # well-formed, but not an answer to these actions
        return _fail(WRONG, None, case, f"{len(responses)} responses to {len(actions)} actions "
                     f"(one response per action)")
    why = case.get("why", {})
    first_action = None
    for i, (e, g) in enumerate(zip(expected["responses"], responses)):
        e, g = _response(e), _response(g)
        if e != g:
            first_action = (i, e, g)
            break
    winners = got["winners"]
    if not isinstance(winners, list):
        raise _Shape("'winners' is a list of seats")
    winners = [_seat(w) for w in winners]
    first_trick = next((t for t, (e, g) in enumerate(zip(expected["winners"], winners)) if e != g), None)
    if first_trick is None and len(winners) != len(expected["winners"]):
        first_trick = min(len(winners), len(expected["winners"]))
    tricks = why.get("tricks", [])
    if first_trick is not None and first_trick < len(tricks) and (
            first_action is None or tricks[first_trick][0] < first_action[0]):
        end, clauses = tricks[first_trick]
        got_w = winners[first_trick] if first_trick < len(winners) else "nobody"
        blame = clauses[-1] if clauses else "play.turn"
        moment = _moment(case, end)
        if moment is not None and got_w != "nobody":
            seats = [s for s, _ in moment["trick"]] + [moment["seat"]]
            cards = [c for _, c in moment["trick"]] + [moment["card"]]
            want = expected["winners"][first_trick]
            if got_w in seats and want in seats and None not in cards:
                blame = trick_blame(cards, moment["trump"], seats.index(want), seats.index(got_w))
            elif got_w not in seats:
                blame = "play.turn"
        return _fail(WRONG, blame, case,
                     f"trick {first_trick + 1} (completed by action {end + 1}, "
                     f"{_describe(actions[end])}): expected {expected['winners'][first_trick]} "
                     f"to win it, got {got_w}", action=end, trick=first_trick)
    if first_action is not None:
        i, e, g = first_action
        where = f"action {i + 1} ({_describe(actions[i])})"
        if e == "ok":
            blame = _referee_blame_refused(case, i, g, _moment(case, i))  # type: ignore[arg-type]  # refused: g names the clause
            return _fail(LEGAL_REFUSED, blame, case, f"{where}: legal, got refused for {g}", action=i)
        if g == "ok":
            blame = e
            if _direction(case) != "clockwise" and blame in ("play.turn", "trump.caller"):
                blame = "table.direction"
            return _fail(ILLEGAL_ACCEPTED, blame, case, f"{where}: expected refused for {e}, got accepted",
                         action=i)
        broken = set(why.get("broken", [[]] * len(actions))[i] or ()) if why.get("broken") else set()
        if g in broken:
            blame = "play.refusal-order"
        elif g in _KNOWN and g not in ("pack.card-notation",):
            # it saw a rule broken that is not: the clause that makes the action right there
            blame = _referee_blame_refused(case, i, g, _moment(case, i))
        else:
            blame = e
        return _fail(WRONG, blame, case, f"{where}: expected refused for {e}, got refused for {g}"
                     + (" (it breaks both: the order of refusals decides)" if g in broken else ""),
                     action=i)
    if first_trick is not None:
        return _fail(WRONG, "play.all-tricks", case, f"winners differ from trick {first_trick + 1}")
    t = got["tricks"]
    if not (isinstance(t, list) and len(t) == 2 and all(isinstance(x, int) for x in t)):
        raise _Shape("'tricks' is [north-south, east-west]")
    if t != expected["tricks"]:
        return _fail(WRONG, "table.partnerships", case,
                     f"tricks per side expected {expected['tricks']}, got {t}")
    if got["outcome"] != expected["outcome"]:
        result = why.get("result") or []
        if "result.closed-early" in result:
            blame = "result.closed-early"
        elif expected["outcome"] is None or got["outcome"] is None:
            blame = "play.all-tricks"
        elif expected["outcome"] == "draw":
            blame = "result.draw-18"
        else:
            blame = "result.more-tricks-wins"
        return _fail(WRONG, blame, case,
                     f"tricks {expected['tricks'][0]}-{expected['tricks'][1]}: outcome expected "
                     f"{expected['outcome']}, got {_short(got['outcome'])}")
    return PASS


def result_blame(ns: int, ew: int, closed_early: bool) -> str:
    """The clause that decides the outcome of a deal ``ns``-``ew``."""
    if closed_early:
        return "result.closed-early"
    if ns == ew:
        return "result.draw-18"
    return "result.more-tricks-wins"


def _deal_result(case, expected, got) -> Verdict:
    a = case["args"]
    where = f"result {a['ns']}-{a['ew']}{' closed early' if a['closed_early'] else ''}" + (
        f", dealer {a['dealer']}" if "dealer" in a else "")
    exp_r, got_r = _refusal(expected), _refusal(got)
    if exp_r is not None and got_r is None:
        _obj(got, "outcome")
        return _fail(ILLEGAL_ACCEPTED, exp_r, case, f"{where}: impossible, expected refused for {exp_r}, "
                     f"got {_short(got)}")
    if exp_r is None and got_r is not None:
        return _fail(LEGAL_REFUSED, "result.tricks-add-up", case,
                     f"{where}: expected {_short(expected)}, got refused for {got_r}")
    if exp_r is not None:
        return PASS if got_r == exp_r else _fail(WRONG, exp_r, case,
                                                 f"{where}: expected refused for {exp_r}, got {got_r}")
    if _obj(got, "outcome")["outcome"] == expected["outcome"]:
        return PASS
    return _fail(WRONG, result_blame(a["ns"], a["ew"], a["closed_early"]), case,
                 f"{where}: expected {expected['outcome']}, got {_short(got['outcome'])}")


def _first_dealer(case, expected, got) -> Verdict:
    rounds = case["args"]["rounds"]
    where = "draw " + " / ".join(" ".join(f"{s}:{c}" for s, c in r.items()) for r in rounds)
    exp_r, got_r = _refusal(expected), _refusal(got)
    decided_by = "dealer.first-draw-ties" if len(rounds) > 1 else "dealer.first-draw"
    if exp_r is not None and got_r is None:
        _obj(got, "dealer")
        return _fail(ILLEGAL_ACCEPTED, exp_r, case, f"{where}: expected refused for {exp_r}, got {_short(got)}")
    if exp_r is None and got_r is not None:
        return _fail(LEGAL_REFUSED, decided_by, case, f"{where}: expected {_short(expected)}, "
                     f"got refused for {got_r}")
    if exp_r is not None:
        return PASS if got_r == exp_r else _fail(WRONG, exp_r, case,
                                                 f"{where}: expected refused for {exp_r}, got {got_r}")
    got_v = _seat(_obj(got, "dealer")["dealer"])
    if got_v == expected["dealer"]:
        return PASS
    # a dealer among those tied on rank in the deciding round: suits (or seats) broke the tie
    blame = decided_by
    for r in rounds:
        try:
            top = max(_rank_of(_card(c)) for c in r.values())
            tied = [s for s, c in r.items() if _rank_of(_card(c)) == top]
        except (_Shape, ValueError):
            break
        if len(tied) > 1 and got_v in tied:
            blame = "pack.suits-equal"
            break
    return _fail(WRONG, blame, case, f"{where}: expected {expected['dealer']} to deal first, got {got_v}")


def _next_dealer(case, expected, got) -> Verdict:
    if _seat(got) == expected:
        return PASS
    a = case["args"]
    blame = {"draw": "dealer.after-draw"}.get(a["outcome"])
    if blame is None:
        dealer_side = "NS" if a["dealer"] in "NS" else "EW"
        blame = "dealer.after-win" if a["outcome"] == dealer_side else "dealer.after-loss"
        direction = _direction(case)
        other = "counterclockwise" if direction == "clockwise" else "clockwise"
        if blame == "dealer.after-win" and direction != "clockwise" and \
                _seat(got) in (_NEXT[other][a["dealer"]],):
            blame = "table.direction"
    return _fail(WRONG, blame, case, f"dealer {a['dealer']}, outcome {a['outcome']}: "
                 f"expected {expected} to deal next, got {got}")


def _result_text(result: Any) -> str:
    """A deal's result as the question gives it, in words: ``20-16``, ``10-5 closed early``."""
    try:
        ns, ew, closed = result
        return f"North-South {ns}, East-West {ew}" + (", closed early" if closed else "")
    except (TypeError, ValueError):
        return _short(result)


def _contest(case, expected, got) -> Verdict:
    results = case["args"]["results"]
    if not isinstance(got, list):
        raise _Shape(f"one state per result ({len(results)}), got {_short(got, 60)}")
    if len(got) != len(results):  # well-formed, but not an answer to these results
        return _fail(WRONG, None, case, f"{len(got)} contest states for {len(results)} results "
                     f"(one state per result)")
    steps = case.get("why", {}).get("steps") or [list(case["clauses"])] * len(results)
    for i, (e, g) in enumerate(zip(expected, got)):
        e_r, g_r = _refusal(e), _refusal(g)
        where = f"after result {i + 1} ({_result_text(results[i])}) of {len(results)}"
        decided = (steps[i] or ["contest.first-win-sets-mark"])[0]
        if e_r is not None and g_r is None:
            _obj(g, "holder", "mark", "winner")
            return _fail(ILLEGAL_ACCEPTED, e_r, case, f"{where}: expected refused for {e_r}, got {_short(g)}",
                         step=i)
        if e_r is None and g_r is not None:
            if "contest.decided-is-final" in steps[i]:
                decided = "contest.decided-is-final"  # refused: it read "final" as "no more deals"
            return _fail(LEGAL_REFUSED, decided, case, f"{where}: expected {_short(e)}, "
                         f"got refused for {g_r}", step=i)
        if e_r is not None:
            if e_r != g_r:
                return _fail(WRONG, e_r, case, f"{where}: expected refused for {e_r}, got {g_r}", step=i)
            continue
        g = _obj(g, "holder", "mark", "winner")
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
            return _fail(WRONG, decided, case, f"{where}: expected {_short(e)}, got "
                         f"{_short({k: g[k] for k in ('holder', 'mark', 'winner')})}", step=i)
    return PASS


_JUDGES: Final = {
    "trick_winner": _trick_winner,
    "legal_plays": _legal_plays,
    "deal": _deal,
    "check_packets": _check_packets,
    "referee": _referee,
    "deal_result": _deal_result,
    "next_dealer": _next_dealer,
    "first_dealer": _first_dealer,
    "contest": _contest,
}


def _known() -> frozenset[str]:
    from turub.clauses import CLAUSES
    return frozenset(CLAUSES)


_KNOWN: Final = _known()
