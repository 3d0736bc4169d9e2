"""The referee's verdict: an implementation refereeing a whole deal, judged at its first divergence.

A referee case is a deal's actions; the answer is one response per action (``ok`` or the
clause of a refusal), the trick winners, the tricks per side and the outcome.  The first
difference decides the blame (later ones are its consequences): a trick won by the wrong
seat (the clause that decides the trick), a legal action refused (the clause that makes it
legal there), an illegal one accepted (the clause that forbids it), a refusal for the wrong
clause (``play.refusal-order`` when the action breaks both), then the tricks per side
(``table.partnerships``) and the outcome (``result.*``).
Split out of :mod:`~turub.conformance.judging.judge`, whose dispatch calls :func:`referee`.
"""

from __future__ import annotations

from typing import Any

from .verdict import (KNOWN_CLAUSES, ILLEGAL_ACCEPTED, LEGAL_REFUSED, PASS, WRONG, Verdict, card_text,
                      direction_of, fail_verdict, object_with, refusal_of, seat_text, MalformedAnswer, short_text, suit_of,
                      trick_blame)

__all__ = ["referee"]


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
    clause = refusal_of(value)
    if clause is None:
        raise MalformedAnswer(f"a response is {{\"ok\": true}} or {{\"refused\": CLAUSE}}, not {short_text(value)}")
    return clause


def _referee_blame_refused(case: dict, i: int, got_clause: str, moment: dict | None) -> str:
    """The clause that makes action ``i`` legal, which the implementation refused."""
    action = case["args"]["actions"][i]
    why = case.get("why", {}).get("actions", [[]] * (i + 1))[i]
    ccw = direction_of(case) != "clockwise"
    kind = action.get("act")
    if kind == "trump":
        if got_clause == "trump.caller" or got_clause not in KNOWN_CLAUSES:
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
    if suit_of(card) == led:
        return "play.no-forced-trump"  # following with a card that does not beat the trick
    if trump and suit_of(card) != trump and any(suit_of(c) == trump for c in hand):
        return "play.no-forced-trump"
    return "play.void-any-card"


def moment_of(case: dict, i: int) -> dict | None:
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
            card = card_text(card) if card is not None else None
        except MalformedAnswer:
            pass
        return {"trump": None if deal.trump is None else deal.trump.letter,
                "led": suit_of(trick[0][1]) if trick else None, "trick": trick, "hand": hand,
                "card": card, "tricks": len(deal.tricks), "seat": seat}
    except Exception:  # noqa: BLE001 - a replay is a help for naming the clause, never a crash
        return None


def referee(case, expected, got) -> Verdict:
    """The verdict on a referee answer: its first divergence from the expected one."""
    got = object_with(got, "responses", "winners", "tricks", "outcome")
    actions = case["args"]["actions"]
    responses = got["responses"]
    if not isinstance(responses, list):
        raise MalformedAnswer(f"one response per action ({len(actions)}), got {short_text(responses, 40)}")
    if len(responses) != len(actions):  # well-formed, but not an answer to these actions
        return fail_verdict(WRONG, None, case, f"{len(responses)} responses to {len(actions)} actions "
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
        raise MalformedAnswer("'winners' is a list of seats")
    winners = [seat_text(w) for w in winners]
    first_trick = next((t for t, (e, g) in enumerate(zip(expected["winners"], winners)) if e != g), None)
    if first_trick is None and len(winners) != len(expected["winners"]):
        first_trick = min(len(winners), len(expected["winners"]))
    tricks = why.get("tricks", [])
    if first_trick is not None and first_trick < len(tricks) and (
            first_action is None or tricks[first_trick][0] < first_action[0]):
        return _wrong_trick(case, expected, winners, first_trick)
    if first_action is not None:
        return _wrong_response(case, *first_action)
    if first_trick is not None:
        return fail_verdict(WRONG, "play.all-tricks", case, f"winners differ from trick {first_trick + 1}")
    return _wrong_totals(case, expected, got)


def _wrong_trick(case: dict, expected: dict, winners: list[str], first_trick: int) -> Verdict:
    """A trick won by the wrong seat, before any response differs: the clause deciding it."""
    actions = case["args"]["actions"]
    end, clauses = case.get("why", {}).get("tricks", [])[first_trick]
    got_w = winners[first_trick] if first_trick < len(winners) else "nobody"
    blame = clauses[-1] if clauses else "play.turn"
    moment = moment_of(case, end)
    if moment is not None and got_w != "nobody":
        seats = [s for s, _ in moment["trick"]] + [moment["seat"]]
        cards = [c for _, c in moment["trick"]] + [moment["card"]]
        want = expected["winners"][first_trick]
        if got_w in seats and want in seats and None not in cards:
            blame = trick_blame(cards, moment["trump"], seats.index(want), seats.index(got_w))
        elif got_w not in seats:
            blame = "play.turn"
    return fail_verdict(WRONG, blame, case,
                 f"trick {first_trick + 1} (completed by action {end + 1}, "
                 f"{_describe(actions[end])}): expected {expected['winners'][first_trick]} "
                 f"to win it, got {got_w}", action=end, trick=first_trick)


def _wrong_response(case: dict, i: int, e: str | None, g: str | None) -> Verdict:
    """The first response that differs (``e`` expected, ``g`` got: 'ok' or a clause)."""
    actions = case["args"]["actions"]
    why = case.get("why", {})
    where = f"action {i + 1} ({_describe(actions[i])})"
    blame: str | None
    if e == "ok":
        blame = _referee_blame_refused(case, i, g, moment_of(case, i))  # type: ignore[arg-type]  # refused: g names the clause
        return fail_verdict(LEGAL_REFUSED, blame, case, f"{where}: legal, got refused for {g}", action=i)
    if g == "ok":
        blame = e
        if direction_of(case) != "clockwise" and blame in ("play.turn", "trump.caller"):
            blame = "table.direction"
        return fail_verdict(ILLEGAL_ACCEPTED, blame, case, f"{where}: expected refused for {e}, got accepted",
                     action=i)
    broken = set(why.get("broken", [[]] * len(actions))[i] or ()) if why.get("broken") else set()
    if g in broken:
        blame = "play.refusal-order"
    elif g in KNOWN_CLAUSES and g not in ("pack.card-notation",):
        # it saw a rule broken that is not: the clause that makes the action right there
        blame = _referee_blame_refused(case, i, g, moment_of(case, i))
    else:
        blame = e
    return fail_verdict(WRONG, blame, case, f"{where}: expected refused for {e}, got refused for {g}"
                 + (" (it breaks both: the order of refusals decides)" if g in broken else ""),
                 action=i)


def _wrong_totals(case: dict, expected: dict, got: dict) -> Verdict:
    """Every response and winner agrees: the tricks per side, then the outcome."""
    why = case.get("why", {})
    t = got["tricks"]
    if not (isinstance(t, list) and len(t) == 2 and all(isinstance(x, int) for x in t)):
        raise MalformedAnswer("'tricks' is [north-south, east-west]")
    if t != expected["tricks"]:
        return fail_verdict(WRONG, "table.partnerships", case,
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
        return fail_verdict(WRONG, blame, case,
                     f"tricks {expected['tricks'][0]}-{expected['tricks'][1]}: outcome expected "
                     f"{expected['outcome']}, got {short_text(got['outcome'])}")
    return PASS
