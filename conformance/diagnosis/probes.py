"""Blame by root cause beyond the catalogue of misreadings: the follow-up questions.

The clause-directed cases (:mod:`turub.conformance.questions.directed`) include questions
asked only to locate a cause, and :func:`reblame` reads their answers after a run:

* **the rank order, pair by pair** (``directed/rank/...``: every pair of ranks, led and
  trumped).  When some of them fail, the program's own order of the ranks is read off
  them; every failed trick (and first-dealer draw) that this order explains is blamed on
  ``pack.rank-order``, not on the trick rule where the symptom shows;
* **a refusal that changed the state** (``directed/refused/...`` and their controls
  ``directed/control/...``, the same stream without the refused action).  A stream that
  fails only after its refused action, while its control passes, is blamed on
  ``play.refusal-changes-nothing``;
* **the clause a directed question was asked about** (``directed/...``, :func:`about`):
  a wrong value of a question built for one clause is blamed on it;
* **an error the program reports** on a well-formed question is blamed on the clause the
  question was asked about: ``pack.card-notation`` when the question writes a card in any
  notation but the plain ``AC``/``10H``, otherwise the directed clause.

Each re-blamed failure keeps the judge's blame in ``judge_blamed`` and says why in
``probe``, so the reasoning is in the report.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import AbstractSet, Any, Final

from ..operations import REGISTRY, SEARCHES, operation_part

__all__ = ["reblame", "reblame_by_evidence", "implementation_ranks"]

_RANKS: Final = ("A", "K", "Q", "J", "10", "9", "8", "7", "6")
_CANONICAL_SUITS: Final = "SHDC"


def _is_canonical(text: Any) -> bool:
    """A card written the plain way (``AC``, ``10H``), as the kit writes its own questions."""
    return isinstance(text, str) and text[-1:] in _CANONICAL_SUITS and text[:-1] in _RANKS


def _cards_in(op: str, args: Any) -> list[Any]:
    """The card texts a question of ``op`` writes (its record's ``cards`` part; none: none)."""
    record = REGISTRY.get(op)
    if not isinstance(args, dict) or record is None:
        return []
    return record.part_or("cards", _no_cards)(args)


def _no_cards(args: dict) -> list[Any]:
    return []


@operation_part("trick_winner", "cards")
def _trick_cards(args: dict) -> list[Any]:
    return list(args.get("cards") or [])


@operation_part("legal_plays", "cards")
def _hand_and_trick(args: dict) -> list[Any]:
    return list(args.get("hand") or []) + list(args.get("trick") or [])


@operation_part("deal", "cards")
def _pack_and_plays(args: dict) -> list[Any]:
    cards = list(args.get("pack") or [])
    cards += [a.get("card") for a in args.get("actions") or [] if isinstance(a, dict) and "card" in a
              and a.get("act") == "play"]
    return cards


operation_part("referee", "cards")(_pack_and_plays)  # the same pack, and the cards played


@operation_part("first_dealer", "cards")
def _drawn_cards(args: dict) -> list[Any]:
    return [c for r in args.get("rounds") or [] if isinstance(r, dict) for c in r.values()]


def _is_stream(c: dict) -> bool:
    """A question answered action by action, a refereed deal (its record's ``drawn_under_rules``)."""
    record = REGISTRY.get(c.get("op", ""))
    return record is not None and record.drawn_under_rules


def about(case_id: str, rules: dict) -> str | None:
    """The clause the directed case ``case_id`` was asked about (None: not a directed case)."""
    if not case_id.startswith("directed/"):
        return None
    from turub.options import rules_from_dict

    from ..questions.directed import directed_clause
    try:
        return directed_clause(case_id, rules_from_dict(rules or {}))
    except Exception:  # noqa: BLE001 - rules the kit cannot read: no directed case to name
        return None


def _control(case_id: str, rules: dict) -> str | None:
    from turub.options import rules_from_dict

    from ..questions.directed import control_of
    try:
        return control_of(case_id, rules_from_dict(rules or {}))
    except Exception:  # noqa: BLE001 - rules the kit cannot read: no control
        return None


#: The directed questions about a decided value (the others are refusals, their controls
#: and the notations, whose failures the judge and the probes above blame).
_VALUE_QUESTIONS: Final = ("directed/duty/", "directed/packets/")
# (the rank pairs are read as a whole above: a trumped pair failing while every led pair
# passes is the trump rule's, which the judge names)


def _is_value_question(case_id: str) -> bool:
    return case_id.startswith(_VALUE_QUESTIONS)


def _set(case: dict, clause: str, why: str) -> None:
    if case.get("blamed") != clause:
        case.setdefault("judge_blamed", case.get("blamed"))
        case["blamed"] = clause
        case["failing_clauses"] = [clause]
    case["probe"] = why


# --- the rank order, read off the pairwise questions ----------------------------------------

def implementation_ranks(results: Iterable[dict], passed: Iterable[str] = ()) -> dict[str, int] | None:
    """The program's height of each rank, read off the pairwise rank questions it answered
    (``directed/rank/led/...``; ``passed``: the ids of those it answered as the rules do):
    each rank's count of ranks it beat.  None if it answered them all as the rules do."""
    wins = {r: 0 for r in _RANKS}
    wrong = False
    seen = 0
    for c in list(results) + [{"id": i, "status": "passed"} for i in passed]:
        cid = c.get("id", "")
        if "directed/rank/led/" not in cid:
            continue
        first, second = cid.rsplit("/", 1)[1].split("-")
        if c.get("status") == "passed":
            got = 0 if _RANKS.index(first) < _RANKS.index(second) else 1
        elif isinstance(c.get("got"), int) and c["got"] in (0, 1):
            got, wrong = c["got"], True
        else:
            continue
        seen += 1
        wins[(first, second)[got]] += 1
    if not wrong or not seen:
        return None
    return wins


def _winner(cards: list[str], trump: str, height: dict[str, int]) -> int:
    """The trick rule as written, with the program's rank heights."""
    def suit(c: str) -> str:
        return c[-1]
    best = 0
    for i, c in enumerate(cards[1:], 1):
        b = cards[best]
        if suit(c) == suit(b) and height[c[:-1]] > height[b[:-1]]:
            best = i
        elif suit(c) == trump and suit(b) != trump:
            best = i
    return best


@operation_part("referee", "by_ranks")
def _refereed_trick_explained(c: dict, height: dict[str, int]) -> bool:
    """The first trick of a refereed deal whose winner differs is won, by the program's
    rank heights, by the seat the program named."""
    from ..judging.judge import card_text
    import re
    args, expected, got = c.get("args") or {}, c.get("expected") or {}, c.get("got")
    if isinstance(got, dict):
        ew, gw = expected.get("winners") or [], got.get("winners") or []
        k = next((i for i, (a, b) in enumerate(zip(ew, gw)) if a != b), None)
        named = gw[k] if k is not None else None
    else:  # a long answer the report keeps cut short: the judge's detail names the trick
        m = re.search(r"trick (\d+) \(completed by action \d+.*?: expected \w+ to win it, got (\w+)",
                      c.get("detail", ""))
        k, named = (int(m.group(1)) - 1, m.group(2)) if m else (None, None)
    if k is None:
        return False
    trump, trick, tricks = None, [], []
    for action, answer in zip(args.get("actions") or [], expected.get("responses") or []):
        if "ok" not in answer:
            continue
        if action.get("act") == "trump":
            trump = card_text("A" + str(action["suit"]))[-1]
        elif action.get("act") == "play":
            trick.append((action["seat"], card_text(action["card"])))
            if len(trick) == 4:
                tricks.append(trick)
                trick = []
    if k >= len(tricks) or trump is None:
        return False
    cards = [x for _, x in tricks[k]]
    return tricks[k][_winner(cards, trump, height)][0] == named


def _rank_explains(c: dict, height: dict[str, int]) -> bool:
    """Whether the program's heights of the ranks explain its answer (its record's ``by_ranks``
    part; an operation with none: no)."""
    record = REGISTRY.get(c.get("op", ""))
    if record is None:
        return False
    try:
        return record.part_or("by_ranks", _explains_nothing)(c, height)
    except Exception:  # noqa: BLE001 - a question it cannot read explains nothing
        return False


def _explains_nothing(c: dict, height: dict[str, int]) -> bool:
    return False


@operation_part("trick_winner", "by_ranks")
def _trick_explained(c: dict, height: dict[str, int]) -> bool:
    from ..judging.judge import card_text
    args = c.get("args") or {}
    cards = [card_text(x) for x in args["cards"]]
    trump = card_text("A" + str(args["trump"]))[-1]
    return _winner(cards, trump, height) == c.get("got")


@operation_part("first_dealer", "by_ranks")
def _draw_explained(c: dict, height: dict[str, int]) -> bool:
    from ..judging.judge import card_text
    args = c.get("args") or {}
    if not isinstance(c.get("got"), dict):
        return False
    first = args["rounds"][0]
    top = max(height[card_text(x)[:-1]] for x in first.values())
    highest = [s for s, x in first.items() if height[card_text(x)[:-1]] == top]
    if "dealer" in c["got"]:
        return c["got"]["dealer"] in highest
    # refused as a tie: by the program's order the first round is tied at the top
    return c["got"].get("refused") == "dealer.first-draw-ties" and len(highest) > 1


# --- a refusal that changed the state ---------------------------------------------------------

def _diverged_after_refusal(c: dict) -> bool:
    """The stream's first divergence comes after an action the rules refuse, which the
    program refused too."""
    expected, got = c.get("expected"), c.get("got")
    if not (isinstance(expected, dict) and isinstance(got, dict)):
        return False
    er, gr = expected.get("responses") or [], got.get("responses") or []
    for i, (e, g) in enumerate(zip(er, gr)):
        if e != g:
            return i > 0 and any("refused" in er[j] and "refused" in (gr[j] or {}) for j in range(i))
    return False


def _legal_play_refused_as(c: dict, clause: str) -> tuple[int, list, list] | None:
    """Where a refereed stream first differs, if there the rules accepted a play and the
    program refused it as ``clause``: its index, the actions and the expected responses."""
    expected, got = c.get("expected"), c.get("got")
    if not _is_stream(c) or not (isinstance(expected, dict) and isinstance(got, dict)):
        return None
    actions = (c.get("args") or {}).get("actions") or []
    er, gr = expected.get("responses") or [], got.get("responses") or []
    for i, (e, g) in enumerate(zip(er, gr)):
        if e == g:
            continue
        if "ok" not in e or not isinstance(g, dict) or g.get("refused") != clause:
            return None
        return i, actions, er
    return None


def _refused_card_spent(c: dict) -> str | None:
    """A legal play refused as a card not held, where the same seat's play of that card was
    refused earlier in the stream (by the rules too): the refusal spent the card."""
    from ..judging.judge import card_text
    found = _legal_play_refused_as(c, "play.card-in-hand")
    if found is None:
        return None
    i, actions, er = found
    try:
        me = (actions[i]["seat"], card_text(actions[i]["card"]))
        earlier = [j for j in range(i) if "refused" in er[j] and actions[j].get("act") == "play"
                   and (actions[j].get("seat"), card_text(actions[j].get("card"))) == me]
    except Exception:  # noqa: BLE001 - text that is no card: no such evidence
        return None
    return (f"action {i + 1} plays a card held, refused as not held; the same play was "
            f"refused at action {earlier[0] + 1} and took the card") if earlier else None


#: Refusals of a play by the seat to act, for the card it named.
_CARD_REFUSALS: Final = frozenset({"play.card-in-hand", "play.follow-suit", "pack.card-notation"})


def _refused_play_passed_turn(c: dict) -> str | None:
    """A legal play refused as out of turn, where the same seat's play was refused just
    before (by the rules too, with no card accepted since): the refusal passed the turn."""
    found = _legal_play_refused_as(c, "play.turn")
    if found is None:
        return None
    i, actions, er = found
    for j in range(i - 1, -1, -1):
        a = actions[j] if isinstance(actions[j], dict) else {}
        if "ok" in er[j] and a.get("act") != "signal":
            return None  # an action was accepted since: the turn may have moved
        if a.get("act") == "play" and er[j].get("refused") in _CARD_REFUSALS and \
                a.get("seat") == actions[i].get("seat"):
            return (f"action {i + 1} is the same seat's turn, refused as out of turn right "
                    f"after its play at action {j + 1} was refused: that refusal passed the turn")
    return None


def _exercises(op: Any, clause: str) -> bool:
    """Whether a question of ``op`` (an operation's, by its record, or a differential search's)
    exercises ``clause``."""
    record = REGISTRY.get(op)
    if record is not None:
        return clause in record.clauses
    return any(s.asks == op and clause in s.clauses() for s in SEARCHES)


def _unbeatable_mark(c: dict) -> bool:
    """A run of contest states (a ``contest`` question, a sitting of differential play, or
    the smallest situation a property found) whose first differing state is a side
    holding the mark of 36, undecided."""
    shown = c if _exercises(c.get("op"), "contest.unbeatable-mark") else c.get("situation")
    if not isinstance(shown, dict) or not _exercises(shown.get("op"), "contest.unbeatable-mark"):
        return False
    expected, got = shown.get("expected"), shown.get("got")
    if not isinstance(expected, list) or not isinstance(got, list):
        return False
    for e, g in zip(expected, got):
        if e != g:
            return isinstance(e, dict) and e.get("mark") == 36 and e.get("winner") is None
    return False


def _mark_met_read_right(failed: list[dict], rules: dict) -> bool:
    """A mark met but not beaten is read right below 36: no directed case about it failed.
    A failure at the mark of 36 is then the unbeatable mark's, not the general rule's."""
    return not any(about(f.get("id", ""), rules) == "contest.insufficient-win" for f in failed)


def _goes_round(op: Any) -> bool:
    record = REGISTRY.get(op)
    return record is not None and record.goes_round


def _direction_read_right_elsewhere(c: dict, failed: list[dict], passed: set[str], rules: dict) -> bool:
    """A legal play refused as out of turn, blamed on the direction of play, while every
    deal asked under this direction was dealt right (the question under the other
    decision): the turn is the decision read wrong, not the direction."""
    if c.get("blamed") != "table.direction" or not _is_stream(c) or \
            (rules or {}).get("direction") != "counterclockwise" or "got refused for play.turn" not in c.get("detail", ""):
        return False
    if any(_goes_round(f.get("op")) for f in failed):
        return False  # a deal dealt or passed on otherwise: the direction may be the fault
    return any(i.startswith(("deal/", "directed/deal/")) or "/deal/" in i for i in passed)


@operation_part("check_packets", "probe")
def _first_round_out_of_order(c: dict, rules: dict) -> tuple[str, str] | None:
    """``deal.packets`` for a check of packets wrongly standing whose only fault is the first
    round's order."""
    if _packets_order_only(c):
        return "deal.packets", ("every packet holds three and goes round in one order, but the "
                                "first round is not in the direction of play from the dealer's left")
    return None


@operation_part("contest", "probe")
def _settled_per_deal(c: dict, rules: dict) -> tuple[str, str] | None:
    """``stake.per-deal`` for a contest's clause blamed under stake=per-deal."""
    if (rules or {}).get("stake") == "per-deal" and str(c.get("blamed") or "").startswith("contest."):
        return "stake.per-deal", ("under stake=per-deal no contest is played: each won deal "
                                  "settles a stake, and that rule decides every state")
    return None


def _own_probe(c: dict, rules: dict) -> tuple[str, str] | None:
    """The clause, with why, that the operation's own probe of a wrong answer names (its
    record's ``probe`` part; none: none)."""
    record = REGISTRY.get(c.get("op", ""))
    return record.part_or("probe", _no_probe)(c, rules) if record is not None else None


def _no_probe(c: dict, rules: dict) -> None:
    return None


def _packets_order_only(c: dict) -> bool:
    """A check of packets wrongly standing whose only fault is the first round's order."""
    if c.get("expected") != {"stands": False} or c.get("got") != {"stands": True}:
        return False
    packets = (c.get("args") or {}).get("packets") or []
    try:
        seats = [p[0] for p in packets]
        sizes = [p[1] if isinstance(p[1], int) else len(p[1]) for p in packets]
    except Exception:  # noqa: BLE001
        return False
    return len(packets) == 48 and set(sizes) == {3} and len(set(seats[:4])) == 4 and \
        seats == seats[:4] * 12 and seats[3] == (c.get("args") or {}).get("dealer")


def _turn_ignored_mid_trick(failed: list[dict]) -> bool:
    """Some failure is a play out of turn accepted in the middle of a trick: the program
    ignores the turn itself, not only who leads."""
    for c in failed:
        if _is_stream(c) and "expected refused for play.turn, got accepted" in c.get("detail", "") \
                and _disputes_leader(c, at_lead=False) == "mid-trick":
            return True
    return False


def _disputes_leader(c: dict, at_lead: bool = True) -> str | None:
    """At a lead (every trick so far complete), the program refuses as out of turn a play by
    the seat the rules have lead, or accepts a lead the rules refuse as out of turn: who
    leads is the rule it reads otherwise (``play.first-lead`` at the first trick,
    ``play.winner-leads`` after)."""
    expected, got = c.get("expected"), c.get("got")
    if not _is_stream(c) or not (isinstance(expected, dict) and isinstance(got, dict)):
        return None
    actions = (c.get("args") or {}).get("actions") or []
    er, gr = expected.get("responses") or [], got.get("responses") or []
    i = next((k for k, (e, g) in enumerate(zip(er, gr)) if e != g), None)
    if i is None or i >= len(actions) or not isinstance(actions[i], dict) or actions[i].get("act") != "play":
        return None
    played = sum(1 for a, e in zip(actions[:i], er) if isinstance(a, dict) and a.get("act") == "play" and "ok" in e)
    if played % 4:
        return None if at_lead else "mid-trick"
    leader = next((a.get("seat") for a, e in zip(actions[i + 1:], er[i + 1:])
                   if isinstance(a, dict) and a.get("act") == "play" and "ok" in e), None)
    g = gr[i] if isinstance(gr[i], dict) else {}
    refused_leader = g.get("refused") == "play.turn" and er[i].get("refused") != "play.turn" and \
        actions[i].get("seat") == leader
    accepted_other = "ok" in g and er[i].get("refused") == "play.turn"
    if refused_leader or accepted_other:
        return "play.first-lead" if played == 0 else "play.winner-leads"
    return None


def _first_divergence_refused(c: dict) -> bool:
    """The first action answered otherwise is one the rules refuse."""
    expected, got = c.get("expected"), c.get("got")
    if not (isinstance(expected, dict) and isinstance(got, dict)):
        return False
    for e, g in zip(expected.get("responses") or [], got.get("responses") or []):
        if e != g:
            return "refused" in e
    return False


def reblame(failed: list[dict], passed: set[str], rules: dict) -> None:
    """Re-blame ``failed`` (the failed results of a run) by the follow-up questions'
    answers (``passed``: the ids of the cases that passed)."""
    height = implementation_ranks(failed, passed)
    turn_ignored: bool | None = None
    mark_met_read_right: bool | None = None
    for c in failed:
        if c.get("consequence_of") or c.get("blamed") == "play.refusal-order":
            continue  # a refusal named out of order is the order's (blame._order_or_rule)
        cid = c.get("id", "")
        if c.get("outcome") in ("error-reported", "crash"):
            _reblame_error(c, cid, rules)
            continue
        if c.get("outcome") not in ("wrong-answer", "illegal-action-accepted", "legal-action-refused"):
            continue
        if _reblame_refusal_that_changed_something(c, cid, passed, rules):
            continue
        own = _own_probe(c, rules)  # the stake under stake=per-deal, the packets' first round
        if own is not None:
            _set(c, *own)
            continue
        if _unbeatable_mark(c):
            if mark_met_read_right is None:
                mark_met_read_right = _mark_met_read_right(failed, rules)
            if mark_met_read_right:
                _set(c, "contest.unbeatable-mark", "the first state that differs holds a mark of 36, "
                     "which no second win can beat")
                continue
        if _direction_read_right_elsewhere(c, failed, passed, rules):
            _set(c, "play.turn", "the deals under this direction of play pass (the direction is read "
                 "right there); the turn within a trick is not")
            continue
        leads = _disputes_leader(c)
        if leads and (turn_ignored is None):
            turn_ignored = _turn_ignored_mid_trick(failed)
        if leads and not turn_ignored:
            _set(c, leads, "at a lead, the program takes the seat the rules say leads for a seat out "
                 "of turn, or lets another seat lead: it disagrees about who leads")
            continue
        if cid.startswith("directed/refused/") and about(cid, rules) == "play.malformed-action" \
                and _first_divergence_refused(c):
            _set(c, "play.malformed-action", "the action refused differently is not well formed")
            continue
        _reblame_by_question(c, cid, rules, height)


def _reblame_error(c: dict, cid: str, rules: dict) -> None:
    """An error reported (or a crash) on a question: its cards' notation, or what it asked about."""
    cards = _cards_in(c.get("op", ""), c.get("args"))
    if any(not _is_canonical(x) for x in cards):
        _set(c, "pack.card-notation", "the program reported an error on a question whose "
             "cards are written in a notation the spec accepts")
        return
    clause = about(cid, rules)
    if clause:
        _set(c, clause, f"the program reported an error on a question asked about {clause}")


def _reblame_refusal_that_changed_something(c: dict, cid: str, passed: set[str], rules: dict) -> bool:
    """``play.refusal-changes-nothing`` when the stream without the refused action passes, or
    when the refused card or turn was spent; True if it re-blamed ``c``."""
    if cid.startswith("directed/refused/") and _diverged_after_refusal(c):
        control = _control(cid, rules)
        if control in passed:
            _set(c, "play.refusal-changes-nothing",
                 f"the same stream without the refused action ({control}) passes")
            return True
    spent = _refused_card_spent(c) or _refused_play_passed_turn(c)
    if spent:
        _set(c, "play.refusal-changes-nothing", spent)
        return True
    return False


def _reblame_by_question(c: dict, cid: str, rules: dict, height: dict | None) -> None:
    """The last probes: the rank order the pairwise questions give, or the clause the
    question was asked about."""
    if height is not None and _rank_explains(c, height):
        order = " ".join(sorted(_RANKS, key=lambda r: -height[r]))
        _set(c, "pack.rank-order", f"the pairwise rank questions give the order {order}, "
             "which explains this answer")
        return
    clause = about(cid, rules)
    if clause and _is_value_question(cid):
        _set(c, clause, f"a question asked about {clause}")
    elif clause == "pack.card-notation" and "got refused for pack.card-notation" in c.get("detail", ""):
        _set(c, clause, "a card written in a notation the spec accepts was refused as no card")


# --- the program's own refusals and the decisions upstream (issue 35) -----------------------------
#
# Run after the judge, the catalogue and the probes above, under the standard rules and under a
# house rule alike: each step re-blames a failure only where the evidence names one rule.

#: Clauses of reading a text (a card, a seat): a refusal citing another clause for a text
#: the rules read otherwise is the reading's fault.
_READINGS: Final = frozenset({"pack.card-notation", "table.partnerships"})


def _first_response(c: dict) -> tuple[int, dict, Any, Any] | None:
    """The first response of a refereed deal the program answered otherwise: its index,
    the action, the expected response and the program's (None: no response differs)."""
    expected, got = c.get("expected"), c.get("got")
    if not _is_stream(c) or not (isinstance(expected, dict) and isinstance(got, dict)):
        return None
    actions = (c.get("args") or {}).get("actions") or []
    er, gr = expected.get("responses") or [], got.get("responses") or []
    for i, (e, g) in enumerate(zip(er, gr)):
        if e != g:
            action = actions[i] if i < len(actions) and isinstance(actions[i], dict) else {}
            return i, action, e, g
    return None


def _cited(response: Any) -> str | None:
    return response.get("refused") if isinstance(response, dict) and isinstance(response.get("refused"), str) \
        else None


def _play_at(c: dict, i: int, played_by: Any) -> dict | None:
    """The led suit, the card and the hand of the seat playing at action ``i`` of a refereed
    deal, replayed by ``played_by`` (the run's rules: a Rules or a house rule's Variant)."""
    try:
        from turub import RuleError, Seat, parse_card
        from turub.cards import card_name

        from ..judging.variant_reference import new_deal
        a = c["args"]
        deal = new_deal(played_by, [parse_card(x) for x in a["pack"]], Seat("NESW".index(a["dealer"])), a["cut"])
        for action in a["actions"][:i]:
            try:
                deal.apply(action)
            except RuleError:
                pass
        seat = Seat("NESW".index(a["actions"][i]["seat"]))
        trick = deal.current_trick
        return {"led": card_name(trick[0][1], ascii=True)[-1] if trick else None,
                "trump": None if deal.trump is None else deal.trump.letter,
                "card": card_name(parse_card(a["actions"][i]["card"]), ascii=True),
                "hand": [card_name(x, ascii=True) for x in deal.hand(seat)]}
    except Exception:  # noqa: BLE001 - a deal the replay cannot follow: no such evidence
        return None


def _trick_replayed(c: dict, played_by: Any) -> tuple[str, str] | None:
    """A refereed deal whose first divergence is a trick won by another seat, judged again on
    the trick as ``played_by`` plays the deal to it (a house rule's own replay; seats written
    in any form the rules read): the clause that decides between the two cards, where the
    judge's replay could not follow the deal and named the turn."""
    import re
    m = re.match(r"trick (\d+) \(completed by action (\d+),.*?: expected (\w+) to win it, got (\w+)",
                 str(c.get("detail", "")))
    if not _is_stream(c) or m is None:
        return None
    end, want, got = int(m.group(2)) - 1, m.group(3), m.group(4)
    try:
        from turub import RuleError, Seat, parse_card
        from turub.cards import card_name

        from ..judging.judge import trick_blame
        from ..judging.variant_reference import new_deal
        a = c["args"]
        deal = new_deal(played_by, [parse_card(x) for x in a["pack"]], Seat("NESW".index(a["dealer"])), a["cut"])
        for action in a["actions"][:end]:
            try:
                deal.apply(action)
            except RuleError:
                pass
        trick = list(deal.current_trick) + [(deal.to_act, parse_card(a["actions"][end]["card"]))]
        seats = [s.letter for s, _ in trick]
        if len(trick) != 4 or want not in seats or got not in seats or deal.trump is None:
            return None
        clause = trick_blame([card_name(x, ascii=True) for _, x in trick], deal.trump.letter,
                             seats.index(want), seats.index(got))
    except Exception:  # noqa: BLE001 - a deal the replay cannot follow: no such evidence
        return None
    return (clause, f"trick {m.group(1)} replayed as the run's rules play it: {clause} decides between "
            f"{want}'s card and {got}'s") if clause else None


def _played_by(rules: dict, variant: Any):
    """The run's rules as the engine plays them: the house rule's variant, by its name and
    version in the table of variants, or the options."""
    from turub.options import rules_from_dict
    if isinstance(variant, dict) and variant.get("clauses"):
        from turub.variants import find
        found = find(str(variant.get("name")), variant.get("version"))
        if found is not None:
            return found
    return rules_from_dict(rules or {})


def _refusal_blame(c: dict, void_read_right: bool, seats_read_right: bool, played_by: Any,
                   house: AbstractSet[str] = frozenset()) -> tuple[str, str] | None:
    """The clause a refereed deal's first differing response points to by the program's own
    refusal, with why: the rule that should have decided (a text the rules read refused
    under another clause: the reading), or the clause it cites at a moment the rules do not
    apply it (a deal's result refused as impossible; the follow-suit duty held against a
    player who holds none of the led suit)."""
    found = _first_response(c)
    if found is None:
        return None
    i, action, e, g = found
    cited, due = _cited(g), _cited(e)
    if cited is None:
        return None
    from turub.errors import REFUSAL_ORDER
    order = list(REFUSAL_ORDER)
    earlier = cited in order and due in order and order.index(cited) < order.index(due)  # checked first
    if due in _READINGS and cited != due and not earlier and not str(c.get("detail", "")).endswith("decides)"):
        return due, (f"action {i + 1} is refused for {due} by the rules; the program cites {cited}, "
                     f"a rule that does not decide a text it cannot read")
    if "ok" not in e:
        return None
    seat = action.get("seat")
    if isinstance(seat, str) and seat not in ("N", "E", "S", "W") and seats_read_right:
        return "table.partnerships", (f"action {i + 1} names its seat as {seat!r}, which the rules read; "
                                      f"the program refuses it (citing {cited})")
    if cited.startswith("result.") and action.get("act") == "close":
        return cited, f"action {i + 1} closes the deal; the program refuses it citing {cited}, which holds here"
    if cited in house and action.get("act") == "play" and void_read_right:
        m = _play_at(c, i, played_by)
        if m and m.get("led") and not any(x[-1:] == m["led"] for x in m.get("hand") or []) and \
                (m.get("trump") is None or not any(x[-1:] == m["trump"] for x in m.get("hand") or [])):
            return "play.follow-suit", (f"action {i + 1}: the player holds none of the led suit nor of trump, "
                                        f"yet the program applies {cited} (its own count of the hand)")
    if cited == "play.follow-suit" and action.get("act") == "play":
        m = _play_at(c, i, played_by)
        if m and m.get("led") and str(m.get("card"))[-1:] == m["led"]:
            return "play.follow-suit", (f"action {i + 1} follows the led suit; the program refuses it "
                                        f"citing play.follow-suit: it holds the player to another suit")
        if void_read_right and m and m.get("led") and not any(x[-1:] == m["led"] for x in m.get("hand") or []):
            return "play.follow-suit", (f"action {i + 1}: the player holds none of the led suit, yet the "
                                        f"program holds it to follow suit (its own count of the hand)")
    return None


def _own_evidence(c: dict) -> tuple[str, str] | None:
    """The clause, with why, that the operation's answer shows on its face (its record's
    ``evidence`` part; none: none)."""
    record = REGISTRY.get(c.get("op", ""))
    return record.part_or("evidence", _no_evidence)(c) if record is not None else None


def _no_evidence(c: dict) -> None:
    return None


@operation_part("deal_result", "evidence")
def _possible_result_refused(c: dict) -> tuple[str, str] | None:
    """A question of one result answered with a refusal citing a result rule for a result the
    rules accept: that rule, at the moment it was misapplied."""
    expected, got = c.get("expected"), c.get("got")
    if isinstance(got, dict) and _cited(got) and "outcome" in (expected or {}):
        return (got["refused"], "a possible result refused citing it") if got["refused"].startswith("result.") \
            else None
    return None


@operation_part("contest", "evidence")
def _contest_refusal(c: dict) -> tuple[str, str] | None:
    """A contest whose first differing answer is a refusal citing a result rule for a result the
    rules accept: that rule, at the moment it was misapplied."""
    expected, got = c.get("expected"), c.get("got")
    if not isinstance(expected, list) or not isinstance(got, list):
        return None
    for k, (e, g) in enumerate(zip(expected, got)):
        if e != g:
            cited = _cited(g)
            if cited and cited.startswith("result.") and _cited(e) is None:
                return cited, f"result {k + 1} is possible; the program refuses it citing {cited}"
            return None
    return None


def _stand_in(outcome: str, tricks: tuple[int, int]) -> list | None:
    """A result the rules decide as ``outcome``, the winner with its tricks (None: none)."""
    if outcome == "draw":
        return [18, 18, False]
    t = tricks[0] if outcome == "NS" else tricks[1]
    if t < 19:
        return None
    return [t, 36 - t, False] if outcome == "NS" else [36 - t, t, False]


def _results_decided_by(op: Any) -> str | None:
    """The operation deciding each result a question of ``op`` carries (its record's ``results_by``)."""
    record = REGISTRY.get(op)
    return record.results_by if record is not None else None


def _contest_upstream(c: dict, rules: dict, asked: dict) -> tuple[str, str] | None:
    """A contest whose first differing state is the state the rules give had that deal's
    result been read as another outcome: the result is the decision read wrong, the contest
    step merely carries it.  ``asked``: the direct questions of one result of the run, by
    ``(ns, ew, closed)``, each ``(passed, the program's outcome)``; one that passed is
    evidence against (the program reads that result right when asked)."""
    q = c if _results_decided_by(c.get("op")) else c.get("situation")
    if not isinstance(q, dict) or not _results_decided_by(q.get("op")):
        return None
    expected, got = q.get("expected"), q.get("got")
    results = (q.get("args") or {}).get("results")
    if not (isinstance(expected, list) and isinstance(got, list) and isinstance(results, list)):
        return None
    k = next((j for j, (e, g) in enumerate(zip(expected, got)) if e != g), None)
    if k is None or k >= len(results) or _cited(expected[k]) or _cited(got[k]):
        return None
    try:
        ns, ew, closed = results[k]
        from turub import deal_result
        from turub.options import rules_from_dict
        standard = rules_from_dict({o: v for o, v in (rules or {}).items()})
        r = deal_result(ns, ew, closed_early=bool(closed), rules=standard)
        right = "draw" if r.winner is None else r.winner.short
        from ..adapter import ReferenceImplementation
        plain = {o: v for o, v in (rules or {}).items()}
        for alt in ("NS", "EW", "draw"):
            stand_in = _stand_in(alt, (ns, ew))
            if alt == right or stand_in is None:
                continue
            state = ReferenceImplementation().contest(list(results[:k]) + [stand_in], plain)[-1]
            if state != got[k]:
                continue
            seen = asked.get((ns, ew, bool(closed)))
            if seen is not None and seen[0]:
                return None  # asked directly, the program reads this result right
            from ..judging.judge import result_blame
            clause = result_blame(ns, ew, bool(closed))
            how = "as the program answers the direct question" if seen is not None and seen[1] == alt \
                else "(the direct question of this result was not asked)" if seen is None else ""
            return clause, (f"the state after result {k + 1} ({ns}-{ew}{' closed' if closed else ''}) is the "
                            f"rules' had that deal been {'a draw' if alt == 'draw' else alt + ' win'}, {how}".strip())
    except Exception:  # noqa: BLE001 - a result the rules cannot read: no such evidence
        return None
    return None


@operation_part("legal_plays", "evidence")
def _another_suit_followed(c: dict) -> tuple[str, str] | None:
    """``play.follow-suit`` for a list of legal plays following another card than the one led."""
    if _follows_another_card(c):
        return "play.follow-suit", ("the list is the follow-suit rule applied to the suit of another "
                                    "card of the trick than the one led: the cards missing and those "
                                    "listed are that one fault")
    return None


def _follows_another_card(c: dict) -> bool:
    """A list of legal plays that is the follow-suit rule applied to the suit of a card of the
    trick other than the one led: the legal cards missing and the forbidden ones listed are
    one fault, the suit to follow read wrong."""
    if not isinstance(c.get("got"), list):
        return False
    from ..judging.judge import card_text
    try:
        args = c.get("args") or {}
        hand = {card_text(x) for x in args["hand"]}
        trick = [card_text(x) for x in args["trick"]]
        got = {card_text(x) for x in c["got"]}
    except Exception:  # noqa: BLE001
        return False
    if len(trick) < 2:
        return False
    for other in {x[-1] for x in trick[1:]} - {trick[0][-1]}:
        following = {x for x in hand if x[-1] == other}
        if following and got == following:
            return True
    return False


def _asked_results(failed: Iterable[dict], passed: AbstractSet[str]) -> dict:
    """The direct questions of one deal's result the run asked, by ``(ns, ew, closed)``: each
    ``(passed, the program's outcome)`` (the directed ones, ``directed/result/NS-EW[-closed]``,
    are known by their id when they passed)."""
    asked: dict = {}
    deciders = {r.results_by for r in REGISTRY.values() if r.results_by is not None}
    for c in failed:
        a = c.get("args")
        if c.get("op") in deciders and isinstance(a, dict):
            try:
                key = (a["ns"], a["ew"], bool(a["closed_early"]))
            except (KeyError, TypeError):
                continue
            got = c.get("got") if isinstance(c.get("got"), dict) else {}
            asked.setdefault(key, (False, (got or {}).get("outcome")))
    for cid in passed:
        if cid.startswith("directed/result/"):
            ns, _, rest = cid[len("directed/result/"):].partition("-")
            ew, _, closed = rest.partition("-")
            if ns.isdigit() and ew.isdigit():
                asked[(int(ns), int(ew), closed == "closed")] = (True, None)
    return asked


def reblame_by_evidence(failed: list[dict], passed: AbstractSet[str], rules: dict,
                        variant: Any = None) -> None:
    """Re-blame ``failed`` by the program's own refusals and by the decisions upstream of the
    first divergence (``passed``: the ids of the cases that passed, among them the direct
    questions asked of the upstream decisions; ``variant``: the run's variant as the report records it, whose
    house clauses are never moved: they
    are blamed only where the house rule alone decides)."""
    house = frozenset(variant.get("clauses") or ()) if isinstance(variant, dict) else frozenset()
    played_by = _played_by(rules, variant)
    mine = [c for c in failed if not c.get("consequence_of") and c.get("blamed") not in house
            and c.get("outcome") in ("wrong-answer", "illegal-action-accepted", "legal-action-refused")]
    # asked directly, the void player's legal plays come right: a refusal in play is the hand's
    void_read_right = not any(c.get("id", "").startswith("directed/duty/void/") for c in failed) and \
        any(i.startswith("directed/duty/void/") for i in passed)
    asked = _asked_results(failed, passed)
    # the same deal with every seat by its initial refereed right: the seat's text is the fault
    seats_read_right = "directed/seat/initial/refereed" in passed
    height = implementation_ranks(failed, passed) if house else None  # (the standard run reads it above)
    for c in mine:
        if height is not None and _rank_explains(c, height):
            _set(c, "pack.rank-order", "the pairwise rank questions give the program's order of the ranks, "
                 "which explains this answer where the standard rule decides it")
            continue
        found = _refusal_blame(c, void_read_right, seats_read_right, played_by, house) or _own_evidence(c)
        if found is None and (c.get("blamed") == "play.turn" or (house and str(c.get("blamed")).startswith("trick."))):
            found = _trick_replayed(c, played_by)
        if found is None and str(c.get("blamed") or "").startswith(("contest.", "stake.")):
            found = _contest_upstream(c, rules, asked)
        if found is not None:
            _set(c, *found)
