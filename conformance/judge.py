"""The judge: an implementation's answer against the expected one, clause by clause.

:func:`judge` returns a :class:`Verdict`: passed, or failed with an outcome class
(:data:`OUTCOMES`), the clauses the disagreement is about and a one-line detail.  Cards are
compared as cards (``"A♣"`` equals ``"AC"``), lists of distinct cards as sets, hands as
multisets.  An answer of the wrong shape is a protocol violation, not a wrong answer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from turub import CardFormatError, parse_card
from turub.cards import card_name

__all__ = ["OUTCOMES", "Verdict", "judge", "WRONG", "ILLEGAL_ACCEPTED", "LEGAL_REFUSED",
           "ERROR", "CRASH", "TIMEOUT", "PROTOCOL"]

WRONG: Final = "wrong-answer"
ILLEGAL_ACCEPTED: Final = "illegal-action-accepted"
LEGAL_REFUSED: Final = "legal-action-refused"
ERROR: Final = "error-reported"
CRASH: Final = "crash"
TIMEOUT: Final = "timeout"
PROTOCOL: Final = "protocol-violation"

#: The outcome classes of a failure, in the order reports list them.
OUTCOMES: Final = (WRONG, ILLEGAL_ACCEPTED, LEGAL_REFUSED, ERROR, CRASH, TIMEOUT, PROTOCOL)


@dataclass(frozen=True)
class Verdict:
    """``outcome`` is None when the answer agrees; ``clauses`` are those the failure is about."""

    outcome: str | None
    clauses: tuple[str, ...] = ()
    detail: str = ""
    extra: dict = field(default_factory=dict)

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


def judge(case: dict, got: Any) -> Verdict:
    """The verdict on ``got``, the implementation's answer to ``case``."""
    try:
        return _JUDGES[case["op"]](case, case["expected"], got)
    except _Shape as e:
        return Verdict(PROTOCOL, tuple(case["clauses"]), f"malformed answer: {e}")


def _all(case: dict) -> tuple[str, ...]:
    return tuple(case["clauses"])


def _trick_winner(case, expected, got) -> Verdict:
    if not isinstance(got, int) or isinstance(got, bool) or not 0 <= got < len(case["args"]["cards"]):
        raise _Shape(f"a position 0-{len(case['args']['cards']) - 1}, not {_short(got)}")
    if got == expected:
        return PASS
    cards = case["args"]["cards"]
    right, wrong = parse_card(cards[expected]), parse_card(cards[got])
    if right is wrong:  # the same card, another copy: which copy wins is the question
        clauses: tuple[str, ...] = ("trick.earliest-identical",)
    else:
        clauses = tuple(c for c in case["clauses"] if c in ("trick.highest-trump", "trick.highest-led"))
        if right.suit is wrong.suit:
            clauses += ("pack.rank-order",)
    return Verdict(WRONG, clauses or _all(case), f"trump {case['args']['trump']}, trick {' '.join(cards)}: "
                   f"expected the card at {expected} ({cards[expected]}) to win, got {got} ({cards[got]})")


def _legal_plays(case, expected, got) -> Verdict:
    got_set, exp_set = set(_cards(got)), set(_cards(expected))
    if got_set == exp_set:
        return PASS
    hand = {_card(c) for c in case["args"]["hand"]}
    rules_clauses = tuple(c for c in case["clauses"] if c != "pack.card-notation")
    where = f"hand {' '.join(case['args']['hand'])}, trick {' '.join(case['args']['trick']) or '(lead)'}"
    extra, missing = sorted(got_set - exp_set), sorted(exp_set - got_set)
    if extra:
        clauses = ("play.card-in-hand",) if any(c not in hand for c in extra) else rules_clauses
        return Verdict(ILLEGAL_ACCEPTED, clauses, f"{where}: {' '.join(extra)} listed as legal")
    return Verdict(LEGAL_REFUSED, rules_clauses, f"{where}: legal {' '.join(missing)} not listed")


def _deal(case, expected, got) -> Verdict:
    got = _obj(got, "caller", "caller_saw", "hands")
    problems, clauses = [], []
    if _seat(got["caller"]) != expected["caller"]:
        problems.append(f"caller expected {expected['caller']}, got {got['caller']}")
        clauses += ["trump.caller", "table.left-of-dealer", "table.direction"]
    if Counter(_cards(got["caller_saw"])) != Counter(expected["caller_saw"]):
        problems.append(f"caller saw expected {' '.join(expected['caller_saw'])}, "
                        f"got {' '.join(map(str, got['caller_saw']))}")
        clauses += ["trump.three-cards", "deal.cut", "deal.pause-for-trump"]
    hands = _obj(got["hands"])
    for seat, cards in expected["hands"].items():
        mine = hands.get(seat)
        if mine is None or Counter(_cards(mine)) != Counter(cards):
            problems.append(f"{seat}'s hand differs")
            clauses += ["deal.packets", "deal.full-hands", "deal.cut"]
    if not problems:
        return PASS
    return Verdict(WRONG, tuple(dict.fromkeys(clauses)), "; ".join(problems))


def _check_packets(case, expected, got) -> Verdict:
    got = _obj(got, "stands")
    if not isinstance(got["stands"], bool):
        raise _Shape("'stands' is true or false")
    if got["stands"] == expected["stands"]:
        return PASS
    last = [n for s, n in case["args"]["packets"] if s == case["args"]["dealer"]][-1:] or ["no packet"]
    return Verdict(WRONG, ("deal.dealer-check", "deal.redeal"),
                   f"dealer's last packet {last[0]}: expected "
                   f"{'the deal stands' if expected['stands'] else 'a redeal'}, got the opposite")


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


def _referee(case, expected, got) -> Verdict:
    got = _obj(got, "responses", "winners", "tricks", "outcome")
    actions = case["args"]["actions"]
    responses = got["responses"]
    if not isinstance(responses, list) or len(responses) != len(actions):
        raise _Shape(f"one response per action ({len(actions)}), got {_short(responses, 40)}")
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
        return Verdict(WRONG, tuple(clauses),
                       f"trick {first_trick + 1} (completed by action {end + 1}, "
                       f"{_describe(actions[end])}): expected {expected['winners'][first_trick]} "
                       f"to win it, got {got_w}", {"action": end, "trick": first_trick})
    if first_action is not None:
        i, e, g = first_action
        where = f"action {i + 1} ({_describe(actions[i])})"
        allowed = tuple(why.get("actions", [[]] * len(actions))[i]) or _all(case)
        if e == "ok":
            return Verdict(LEGAL_REFUSED, allowed, f"{where}: legal, got refused for {g}", {"action": i})
        if g == "ok":
            return Verdict(ILLEGAL_ACCEPTED, (e,), f"{where}: expected refused for {e}, got accepted",
                           {"action": i})
        return Verdict(WRONG, (e,), f"{where}: expected refused for {e}, got refused for {g}",
                       {"action": i})
    if first_trick is not None:
        return Verdict(WRONG, _all(case), f"winners differ from trick {first_trick + 1}")
    t = got["tricks"]
    if not (isinstance(t, list) and len(t) == 2 and all(isinstance(x, int) for x in t)):
        raise _Shape("'tricks' is [north-south, east-west]")
    if t != expected["tricks"]:
        return Verdict(WRONG, ("table.partnerships", "pack.tricks-only"),
                       f"tricks per side expected {expected['tricks']}, got {t}")
    if got["outcome"] != expected["outcome"]:
        return Verdict(WRONG, tuple(why.get("result") or _all(case)),
                       f"outcome expected {expected['outcome']}, got {_short(got['outcome'])}")
    return PASS


def _outcome_or_refusal(name: str, key: str, accept_clause: Sequence[str]):
    def check(case, expected, got) -> Verdict:
        got_r = _refusal(got)
        exp_r = _refusal(expected)
        where = name + " " + _short(case["args"], 80)
        if exp_r is not None and got_r is None:
            _obj(got, key)
            return Verdict(ILLEGAL_ACCEPTED, (exp_r,), f"{where}: expected refused for {exp_r}, "
                           f"got {_short(got)}")
        if exp_r is None and got_r is not None:
            return Verdict(LEGAL_REFUSED, _all(case), f"{where}: expected {_short(expected)}, "
                           f"got refused for {got_r}")
        if exp_r is not None:
            if got_r == exp_r:
                return PASS
            return Verdict(WRONG, (exp_r,), f"{where}: expected refused for {exp_r}, got {got_r}")
        got_v = _obj(got, key)[key]
        if key == "dealer":
            got_v = _seat(got_v)
        if got_v == expected[key]:
            return PASS
        clauses = tuple(c for c in case["clauses"] if c != "result.tricks-add-up") or _all(case)
        return Verdict(WRONG, clauses, f"{where}: expected {_short(expected)}, got {_short(got)}")
    return check


def _next_dealer(case, expected, got) -> Verdict:
    if _seat(got) == expected:
        return PASS
    a = case["args"]
    return Verdict(WRONG, _all(case), f"dealer {a['dealer']}, outcome {a['outcome']}: "
                   f"expected {expected} to deal next, got {got}")


def _contest(case, expected, got) -> Verdict:
    results = case["args"]["results"]
    if not isinstance(got, list) or len(got) != len(results):
        raise _Shape(f"one state per result ({len(results)}), got {_short(got, 60)}")
    steps = case.get("why", {}).get("steps") or [list(case["clauses"])] * len(results)
    for i, (e, g) in enumerate(zip(expected, got)):
        e_r, g_r = _refusal(e), _refusal(g)
        where = f"after result {i + 1} {results[i]} of {results}"
        if e_r is not None and g_r is None:
            _obj(g, "holder", "mark", "winner")
            return Verdict(ILLEGAL_ACCEPTED, (e_r,), f"{where}: expected refused for {e_r}, got {_short(g)}",
                           {"step": i})
        if e_r is None and g_r is not None:
            return Verdict(LEGAL_REFUSED, tuple(steps[i]), f"{where}: expected {_short(e)}, "
                           f"got refused for {g_r}", {"step": i})
        if e_r is not None:
            if e_r != g_r:
                return Verdict(WRONG, (e_r,), f"{where}: expected refused for {e_r}, got {g_r}", {"step": i})
            continue
        g = _obj(g, "holder", "mark", "winner")
        if any(g[k] != e[k] for k in ("holder", "mark", "winner")):
            return Verdict(WRONG, tuple(steps[i]), f"{where}: expected {_short(e)}, got "
                           f"{_short({k: g[k] for k in ('holder', 'mark', 'winner')})}", {"step": i})
    return PASS


_JUDGES: Final = {
    "trick_winner": _trick_winner,
    "legal_plays": _legal_plays,
    "deal": _deal,
    "check_packets": _check_packets,
    "referee": _referee,
    "deal_result": _outcome_or_refusal("result", "outcome", ()),
    "next_dealer": _next_dealer,
    "first_dealer": _outcome_or_refusal("draw", "dealer", ()),
    "contest": _contest,
}
