"""The smallest situation of a failure, drawn as a person reads a game.

:func:`draw` takes one failed question (an operation, its arguments, the expected answer and
the one the implementation gave) and the clause blamed, and returns the lines the terminal
shows: the seats, the trick so far with suit symbols, trump, the hand where it matters,
the rule in one line, what was expected and what came back.  Plain text, no colour, so it
reads the same in a log.
"""

from __future__ import annotations

import json
from typing import Any, Final

from ..operations import REGISTRY, operation_part

__all__ = ["draw", "question_of"]

_SYMBOL: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_ORDER: Final = "SHCD"  # red and black alternating, as a hand is sorted
_RANKS: Final = ("A", "K", "Q", "J", "10", "9", "8", "7", "6")


def _canon(text: Any) -> str | None:
    try:
        from turub import parse_card
        from turub.cards import card_name
        return card_name(parse_card(text), ascii=True)
    except Exception:  # noqa: BLE001 - malformed text is shown as it came
        return None


def card(text: Any) -> str:
    """``"10H"`` → ``"10♥"``; malformed text is quoted as it came."""
    c = _canon(text)
    return json.dumps(text, ensure_ascii=False) if c is None else c[:-1] + _SYMBOL[c[-1]]


def cards(texts) -> str:
    return " ".join(card(t) for t in texts) or "—"


def hand(texts) -> str:
    """A hand by suit: ``♠ A K 9 · ♥ 10 · ♣ — · ♦ 7``."""
    by_suit: dict[str, list[str]] = {s: [] for s in _SUIT_ORDER}
    for t in texts:
        c = _canon(t)
        if c is not None:
            by_suit[c[-1]].append(c[:-1])
    parts = [f"{_SYMBOL[s]} {' '.join(sorted(r, key=_RANKS.index)) or '—'}" for s, r in by_suit.items()]
    return " · ".join(parts)


def suit(letter: Any) -> str:
    return _SYMBOL.get(str(letter).upper()[:1], str(letter)) if letter else "not named"


def _short(value: Any, limit: int = 100) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + "…"


def _rule(clause: str | None) -> str:
    if not clause:
        return "rule: none blamed"
    from turub.clauses import CLAUSES, VARIANT_CLAUSES
    c = CLAUSES.get(clause) or VARIANT_CLAUSES.get(clause)
    return f"rule {clause}: {c.title}" if c else f"rule {clause}"  # type: ignore[attr-defined]


def question_of(result: dict) -> dict | None:
    """The question behind a failed result: ``{"op", "args", "expected", "got"}``."""
    if "situation" in result:
        return result["situation"]
    if "args" in result and "expected" in result and "got" in result:
        args = dict(result["args"])
        record = REGISTRY.get(result["op"])
        played = record is not None and record.drawn_under_rules  # its question is played under them
        if "rules" in result and isinstance(result["rules"], dict) and played:
            args.setdefault("rules", result["rules"])
        return {"op": result["op"], "args": args, "expected": result["expected"], "got": result["got"]}
    if "args" in result and "expected" in result and result.get("outcome") in ("error-reported", "crash"):
        # no answer to draw: the question, and what the program said instead
        return {"op": result["op"], "args": dict(result["args"]), "expected": result["expected"],
                "got": {"error": str(result.get("detail", ""))[:200]}}
    return None


def draw(question: dict, blamed: str | None) -> list[str]:
    """The lines that show ``question`` (see :func:`question_of`) as a game situation."""
    op, args = question["op"], question["args"]
    try:
        body = REGISTRY[op].part("situation")(args, question["expected"], question["got"])
    except Exception as e:  # noqa: BLE001 - a drawing is a nicety, never a crash
        body = [f"{op} {_short(args)}", f"expected {_short(question['expected'])}",
                f"got      {_short(question['got'])}",
                "(shown as the question and the two answers: they do not make a game situation)"]
    return [_rule(blamed)] + body


@operation_part("trick_winner", "situation")
def _trick_winner(args, expected, got) -> list[str]:
    t = args["cards"]
    shown = [f"{i}:{card(c)}" + (" (led)" if i == 0 else "") for i, c in enumerate(t)]
    return [f"trump {suit(args['trump'])}; trick in the order played: {'  '.join(shown)}",
            f"expected: {card(t[expected])} at {expected} wins",
            f"got:      {card(t[got]) + f' at {got}' if isinstance(got, int) and 0 <= got < len(t) else _short(got)}"]


@operation_part("legal_plays", "situation")
def _legal_plays(args, expected, got) -> list[str]:
    trick = args["trick"]
    lines = [f"trick so far: {cards(trick) if trick else '(none: a lead)'}"
             + (f" — {suit(_canon(trick[0])[-1])} led" if trick and _canon(trick[0]) else "")  # type: ignore[index]
             + (f"; trump {suit(args['trump'])}" if args.get("trump") else ""),
             f"hand: {hand(args['hand'])}",
             f"expected legal: {cards(sorted(set(map(_canon, expected)), key=str))}",
             f"got:            {cards(got) if isinstance(got, list) else _short(got)}"]
    return lines


def _seat_name(letter: str) -> str:
    return {"N": "North", "E": "East", "S": "South", "W": "West"}.get(letter, str(letter))


@operation_part("referee", "situation")
def _referee(args, expected, got) -> list[str]:
    from turub.options import rules_from_dict

    from ..questions.cases import expected_case
    from ..judging.judge import moment_of, judge
    rules = rules_from_dict(args.get("rules") or {})
    plain = {k: v for k, v in args.items() if k != "rules"}
    case = expected_case("situation", "referee", plain, rules)
    verdict = judge(case, got)
    i = verdict.extra.get("action", len(plain["actions"]) - 1)
    m = moment_of(case, i) or {}
    action = plain["actions"][i] if plain["actions"] else {}
    lines = [f"dealer {_seat_name(plain['dealer'])}, play {rules.to_dict()['direction']}, trump "
             f"{suit(m.get('trump'))}, {m.get('tricks', 0)} trick(s) played; action {i + 1} of "
             f"{len(plain['actions'])}"]
    trick = m.get("trick") or []
    if trick:
        lines.append("trick so far: " + "  ".join(f"{_seat_name(s)} {card(c)}" + (" (led)" if k == 0 else "")
                                                  for k, (s, c) in enumerate(trick)))
    else:
        lines.append("trick so far: (none: a lead)")
    if m.get("hand") and action.get("act") == "play":
        lines.append(f"{_seat_name(action.get('seat'))} holds: {hand(m['hand'])}")  # type: ignore[arg-type]
    kind = action.get("act")
    what = {"play": f"plays {card(action.get('card'))}", "trump": f"names trump {suit(action.get('suit'))}",
            "signal": f"signals {_short(action.get('signal'))}", "close": "closes the deal"}.get(kind, _short(action))  # type: ignore[arg-type]
    lines.append(f"then {_seat_name(action.get('seat', '?'))} {what}")
    if "trick" in verdict.extra:
        t = verdict.extra["trick"]
        w = got.get("winners", []) if isinstance(got, dict) else []
        lines.append(f"expected: {_seat_name(expected['winners'][t])} wins trick {t + 1}")
        lines.append(f"got:      {_seat_name(w[t]) if t < len(w) else 'no winner'}")
    elif "action" in verdict.extra:
        e = expected["responses"][i]
        g = got["responses"][i]
        lines.append(f"expected: {'accepted' if e.get('ok') else 'refused for ' + str(e.get('refused'))}")
        lines.append(f"got:      {'accepted' if isinstance(g, dict) and g.get('ok') else 'refused for ' + str((g or {}).get('refused'))}")
    else:
        lines.append(f"expected: {_tricks_text(expected.get('tricks'), expected.get('outcome'))}")
        lines.append(f"got:      {_tricks_text(got.get('tricks'), got.get('outcome'))}")
    return lines


def _tricks_text(tricks: Any, outcome: Any) -> str:
    """A deal's tricks and outcome in words (``outcome`` null: the deal is not over)."""
    counts = (f"North-South {tricks[0]} tricks, East-West {tricks[1]}"
              if isinstance(tricks, list) and len(tricks) == 2 else f"tricks {_short(tricks)}")
    ending = {None: "the deal is not over", "draw": "a draw", "NS": "North-South win",
              "EW": "East-West win"}.get(outcome, f"outcome {_short(outcome)}") \
        if outcome is None or isinstance(outcome, str) else f"outcome {_short(outcome)}"
    return f"{counts}; {ending}"


@operation_part("deal", "situation")
def _deal(args, expected, got) -> list[str]:
    lines = [f"dealer {_seat_name(args['dealer'])}, play {(args.get('rules') or {}).get('direction', 'clockwise')}, "
             f"cut {args['cut']}; the pack from the top after the cut: "
             f"{cards((args['pack'][args['cut']:] + args['pack'][:args['cut']])[:12])} …"]
    lines.append(f"expected: {expected['caller']} calls, having seen {cards(expected['caller_saw'])}")
    if isinstance(got, dict):
        lines.append(f"got:      {got.get('caller')} calls, having seen {cards(got.get('caller_saw') or [])}")
        for seat, h in expected["hands"].items():
            mine = (got.get("hands") or {}).get(seat)
            if mine is not None and sorted(map(_canon, mine)) != sorted(map(_canon, h)):  # type: ignore[type-var]
                lines.append(f"{_seat_name(seat)} expected: {hand(h)}")
                lines.append(f"{' ' * len(_seat_name(seat))} got:      {hand(mine)}")
                want, have = sorted(map(_canon, h), key=str), sorted(map(_canon, mine), key=str)
                lines.append(f"{' ' * len(_seat_name(seat))} missing:  {cards([c for c in set(want) if want.count(c) > have.count(c)]) or 'none'}; "
                             f"extra: {cards([c for c in set(have) if have.count(c) > want.count(c)]) or 'none'}")
                break
    return lines


@operation_part("check_packets", "situation")
def _check_packets(args, expected, got) -> list[str]:
    packets = args["packets"]
    odd = [f"#{k + 1} {s}:{n}" for k, (s, n) in enumerate(packets) if n != 3]
    return [f"dealer {_seat_name(args['dealer'])}; {len(packets)} packets, in order "
            f"{' '.join(s for s, _ in packets[:8])}{' …' if len(packets) > 8 else ''}; "
            f"packets not of three: {', '.join(odd) or 'none'}; last to the dealer: "
            f"{next((n for s, n in reversed(packets) if s == args['dealer']), 'none')}",
            f"expected: {'the deal stands' if expected['stands'] else 'deal again'}",
            f"got:      {_short(got)}"]


@operation_part("deal_result", "situation")
def _deal_result(args, expected, got) -> list[str]:
    return [f"North-South {args['ns']}, East-West {args['ew']}"
            + (", closed early" if args["closed_early"] else ", all 36 tricks played")
            + (f"; dealer {_seat_name(args['dealer'])}" if "dealer" in args else ""),
            f"expected: {_short(expected)}", f"got:      {_short(got)}"]


@operation_part("next_dealer", "situation")
def _next_dealer(args, expected, got) -> list[str]:
    return [f"{_seat_name(args['dealer'])} dealt; the deal went to {args['outcome']}; play "
            f"{(args.get('rules') or {}).get('direction', 'clockwise')}",
            f"expected next dealer: {_seat_name(expected)}", f"got:                  {_short(got)}"]


@operation_part("first_dealer", "situation")
def _first_dealer(args, expected, got) -> list[str]:
    lines = [f"round {k + 1}: " + "  ".join(f"{_seat_name(s)} {card(c)}" for s, c in r.items())
             for k, r in enumerate(args["rounds"])]
    return lines + [f"expected: {_short(expected)}", f"got:      {_short(got)}"]


@operation_part("contest", "situation")
def _contest(args, expected, got) -> list[str]:
    results = args["results"]
    stake = (args.get("rules") or {}).get("stake", "contest")
    lines = [f"stake: {stake}"]
    for k, (ns, ew, closed) in enumerate(results):
        e = expected[k] if k < len(expected) else None
        g = got[k] if isinstance(got, list) and k < len(got) else None
        mark = "" if e == g else "   <-- differs"
        lines.append(f"deal {k + 1}: {ns}-{ew}{' closed' if closed else ''}   expected {_short(e, 60)}"
                     f"   got {_short(g, 60)}{mark}")
        if e != g:
            break
    return lines
