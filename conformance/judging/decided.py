"""Where a rule variant's house clauses decided in one case, and whom a wrong answer there blames.

:func:`variant_decisions` walks a case under the variant and names each point where a house
clause decided (``"*"`` for a one-decision operation, ``"action:12"``, ``"trick:3"``,
``"result"`` in a refereed deal, ``"step:2"`` in a contest).  Each named clause also carries
what the *standard* rule answers at that point (:class:`Decided`), so that :func:`reblame`
can tell the two ways a program goes wrong inside an overridden decision:

* its answer is what the standard rule gives: it ignored the house rule; the **house
  clause** is blamed;
* its answer matches neither: it broke a rule the house rule keeps; the **standard clause**
  the judge names is blamed (a lower trump chosen under a "last identical card wins" rule is
  still ``trick.highest-trump``; a card off the led suit accepted under a house rule of
  following is still ``play.follow-suit``), unless the house clause replaces or amends that
  clause, when the house clause is blamed.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any, Final

from turub import Contest, RuleError, parse_card, parse_seat, parse_suit
from turub.cards import card_name
from turub.clauses import VARIANT_CLAUSES
from turub.contest import contest_step
from turub.rules import DealResult, check_packets, deal_result, decide_trick, first_dealer, next_dealer
from turub.rules import legal_plays as standard_legal_plays
from turub import Rules
from turub.decisions import DEAL_STANDS, FIRST_DEALER, LEGAL_PLAYS, SIGNAL, TRUMP_CALLER
from turub.options import rules_from_dict
from turub.seats import PLAY_ORDER
from turub.deal import SIGNALS, Phase
from turub.variants import DECISIONS, Variant

from ..adapter import winner_of
from ..operations import REGISTRY, operation_part

__all__ = ["Decided", "variant_decisions", "reblame", "results_dealt"]

_UNKNOWN: Final = object()


class Decided(str):
    """A house clause's ID (it *is* the string) that also knows what the standard rule
    answers at the point where it decided (``standard``, in the answer's plain form)."""

    standard: Any

    def __new__(cls, clause: str, standard: Any = _UNKNOWN) -> Decided:
        self = super().__new__(cls, clause)
        self.standard = standard
        return self

    def __reduce__(self):
        return (Decided, (str(self), self.standard))


def _own(variant: Variant, clauses) -> str | None:
    ids = {c.id for c in variant.all_clauses}
    return next((c for c in clauses if c in ids), None)


def _side(side) -> str:
    return "draw" if side is None else side.short


def _state(contest: Contest) -> dict[str, Any]:
    return {"holder": None if contest.holder is None else contest.holder.short, "mark": contest.mark,
            "winner": None if contest.winner is None else contest.winner.short}


def variant_decisions(variant: Variant | None, op: str, args: Mapping[str, Any]) -> dict[str, str]:
    """Where ``variant``'s clauses decided in the case ``(op, args)`` (empty: nowhere); each
    operation's walk is its record's ``decisions`` part."""
    record = REGISTRY.get(op)
    if variant is None or record is None:
        return {}
    try:
        return record.part_or("decisions", _nowhere)(variant, args)
    except RuleError:
        return {}


def _nowhere(variant: Variant, args: Mapping[str, Any]) -> dict[str, str]:
    return {}  # an operation no house clause decides in


@operation_part("trick_winner", "decisions")
def _trick_winner(variant: Variant, args: Mapping[str, Any]) -> dict[str, str]:
    cards, trump = [parse_card(x) for x in args["cards"]], parse_suit(args["trump"])
    c = _own(variant, variant.trick_winner(cards, trump)[1])
    return {"*": Decided(c, decide_trick(cards, trump, parse_seat("N")).position)} if c else {}


@operation_part("legal_plays", "decisions")
def _legal_plays(variant: Variant, args: Mapping[str, Any]) -> dict[str, str]:
    named = args.get("trump")
    hand, trick = [parse_card(x) for x in args["hand"]], [parse_card(x) for x in args["trick"]]
    c = _own(variant, variant.legal_plays(hand, trick, parse_suit(named) if named else None)[1])
    std = standard_legal_plays(hand, trick[0].suit if trick else None)
    return {"*": Decided(c, frozenset(card_name(x, ascii=True) for x in std))} if c else {}


@operation_part("deal_result", "decisions")
def _deal_result(variant: Variant, args: Mapping[str, Any]) -> dict[str, str]:
    dealer = args.get("dealer")  # protocol 2: who dealt, which a rule reading the game sees
    c = _own(variant, variant.deal_result(args["ns"], args["ew"], closed_early=args["closed_early"],
                                          dealer=parse_seat(dealer) if dealer else None).clauses)
    standard = deal_result(args["ns"], args["ew"], closed_early=args["closed_early"])
    return {"*": Decided(c, _side(standard.winner))} if c else {}


@operation_part("next_dealer", "decisions")
def _next_dealer(variant: Variant, args: Mapping[str, Any]) -> dict[str, str]:
    side = winner_of(args["outcome"])
    dealer = parse_seat(args["dealer"])
    c = _own(variant, variant.next_dealer(dealer, side).clauses)
    return {"*": Decided(c, next_dealer(dealer, side, variant.rules).seat.letter)} if c else {}


def results_dealt(variant: Variant, results, rules: Rules, dealer: str | None
                  ) -> Iterator[tuple[int, DealResult | RuleError]]:
    """Each of a contest's ``results`` (``[ns, ew, closed]``) as ``variant`` decides it, with
    its position, or the refusal of a count that cannot happen.  ``dealer`` (protocol 2: who
    dealt the first deal; ``None``: not said) is what a rule reading the game sees, each
    later deal dealt by the variant's next dealer after the one before; a refused count is
    no deal, and the same seat deals the next."""
    seat = parse_seat(dealer) if dealer else None
    for i, (ns, ew, closed) in enumerate(results):
        try:
            result = variant.deal_result(ns, ew, closed_early=bool(closed), rules=rules, dealer=seat)
        except RuleError as e:
            yield i, e
            continue
        yield i, result
        if seat is not None:
            seat = variant.next_dealer(seat, result.winner, rules).seat



@operation_part("contest", "decisions")
def _contest(variant: Variant, args: Mapping[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    contest = Contest()
    for i, result in results_dealt(variant, args["results"], variant.rules, args.get("dealer")):
        if isinstance(result, RuleError):
            continue
        ns, ew = result.tricks
        closed = result.closed_early
        before = Contest() if contest.is_decided else contest
        c = _own(variant, result.clauses)
        contest = variant.contest_step(before, result)
        c = c or _own(variant, contest.clauses)
        if c:
            std_result = deal_result(ns, ew, closed_early=bool(closed), rules=variant.rules)
            out[f"step:{i}"] = Decided(c, _state(contest_step(before, std_result, variant.rules)))
    return out


@operation_part("first_dealer", "decisions")
def _first_dealer(variant: Variant, args: Mapping[str, Any]) -> dict[str, str]:
    if not variant.decides(FIRST_DEALER.name):
        return {}
    rounds = [{parse_seat(s): parse_card(c) for s, c in r.items()} for r in args["rounds"]]

    def answer(decide) -> tuple[Any, tuple[str, ...]]:
        try:
            drawn = decide(rounds)
            return drawn.seat.letter, drawn.clauses
        except RuleError as e:
            return e.clause, (e.clause,)
    c = _own(variant, answer(variant.first_dealer)[1])
    return {"*": Decided(c, answer(first_dealer)[0])} if c else {}


@operation_part("check_packets", "decisions")
def _check_packets(variant: Variant, args: Mapping[str, Any]) -> dict[str, str]:
    if not variant.decides(DEAL_STANDS.name):
        return {}
    packets, dealer = [(parse_seat(s), n) for s, n in args["packets"]], parse_seat(args["dealer"])
    c = _own(variant, variant.check_packets(packets, dealer, Rules()).clauses)
    return {"*": Decided(c, check_packets(packets, dealer).stands)} if c else {}


@operation_part("deal", "decisions")
def _deal(variant: Variant, args: Mapping[str, Any]) -> dict[str, str]:
    if not variant.decides(TRUMP_CALLER.name):
        return {}
    rules, dealer = rules_from_dict(args.get("rules") or {}), parse_seat(args["dealer"])
    c = _own(variant, variant.trump_caller(dealer, rules)[1])
    return {"*": Decided(c, PLAY_ORDER[rules.direction][dealer][1].letter)} if c else {}


@operation_part("referee", "decisions")
def _referee(variant: Variant, args: Mapping[str, Any]) -> dict[str, str]:
    out: dict[str, str] = {}
    deal = variant.deal([parse_card(x) for x in args["pack"]], parse_seat(args["dealer"]), args["cut"])
    tricks = 0
    for i, action in enumerate(args["actions"]):
        if action.get("act") == "play" and deal.to_act is not None:
            _play_point(variant, deal, i, action, out)
        elif action.get("act") == "signal" and deal.phase is Phase.PLAYING:
            _signal_point(variant, deal, i, action, out)
        elif action.get("act") == "trump" and deal.phase is Phase.CALLING:
            _caller_point(variant, deal, i, action, out)
        try:
            deal.apply(action)
        except RuleError:
            continue
        if len(deal.tricks) > tricks:
            tricks = len(deal.tricks)
            t = deal.tricks[-1]
            c = _own(variant, t.decision.clauses)
            if c:
                std = decide_trick(t.cards, deal.trump, t.leader, deal.rules.direction)
                out[f"trick:{tricks - 1}"] = Decided(c, std.seat.letter)
    if deal.result is not None:
        c = _own(variant, deal.result.clauses)
        if c:
            ns, ew = deal.result.tricks
            result = deal_result(ns, ew, closed_early=deal.result.closed_early, rules=deal.rules)
            out["result"] = Decided(c, _side(result.winner))
    return out


def _play_point(variant: Variant, deal, i: int, action: Mapping[str, Any], out: dict) -> None:
    try:
        card = parse_card(action["card"])
        seat = parse_seat(action["seat"])
    except (RuleError, KeyError):
        return
    if seat != deal.to_act or not deal.holds(seat, card):
        return
    hand, trick = deal.hand(seat), [c for _, c in deal.current_trick]
    # a rule reading the game sees it here as the deal's own check of the play did: without
    # it the rule defers, and the play its clause decided would be judged by the standard one
    game = deal.game(seat) if variant.sees_game(LEGAL_PLAYS.name) else None
    _legal, clauses = variant.legal_plays(hand, trick, deal.trump, game)
    c = _own(variant, clauses)
    if c:
        led = trick[0].suit if trick else None
        std = "ok" if card in standard_legal_plays(hand, led) else "play.follow-suit"
        out[f"action:{i}"] = Decided(c, std)


def _signal_point(variant: Variant, deal, i: int, action: Mapping[str, Any], out: dict) -> None:
    """A signal whose giver a house rule allowed or refused (``signal.leader-only``'s
    decision), with the standard answer there: ``ok`` for the leader, else refused."""
    if not variant.decides(SIGNAL.name):
        return
    try:
        seat = parse_seat(action["seat"])
    except (RuleError, KeyError):
        return
    kind = action.get("signal")
    if type(kind) is not str or not kind.strip() or (
            kind not in SIGNALS and deal.rules.signal_kinds == "documented"):
        return  # refused by signal.kinds before the rule is asked
    game = deal.game(seat) if variant.sees_game(SIGNAL.name) else None
    asked = variant.house(SIGNAL.name, seat, deal.leader, kind, game=game)
    if asked is not None:
        out[f"action:{i}"] = Decided(asked[1].id, "ok" if seat is deal.leader else "signal.leader-only")


def _caller_point(variant: Variant, deal, i: int, action: Mapping[str, Any], out: dict) -> None:
    """A trump call where a house rule chose the caller (``trump.caller``'s decision), with
    the standard answer there: ``ok`` from the seat after the dealer, else refused."""
    if not variant.decides(TRUMP_CALLER.name):
        return
    try:
        seat = parse_seat(action["seat"])
    except (RuleError, KeyError):
        return
    c = _own(variant, (deal.caller_clause,))
    if c:
        standard = PLAY_ORDER[deal.rules.direction][deal.dealer][1]
        out[f"action:{i}"] = Decided(c, "ok" if seat is standard else "trump.caller")


# --- whom a wrong answer at such a point blames ---------------------------------------------------

#: The standard clauses a wrong answer at an overridden decision may be blamed on by the
#: standard judge: at such a point the variant's clause is the rule that decided.
_DECIDED_BY: Final = frozenset(c for cs in DECISIONS.values() for c in cs) | {
    "play.turn", "table.direction", "play.all-tricks", "table.partnerships"}
_STANDARD: Final = frozenset(c for cs in DECISIONS.values() for c in cs)
#: Whom the standard judge blames for a signal refused as not the leader's (who led).
_WHO_LED: Final = frozenset({"play.first-lead", "play.winner-leads"})


def _is_signal(case: Mapping[str, Any], key: str) -> bool:
    kind, _, n = key.partition(":")
    try:
        return kind == "action" and case["args"]["actions"][int(n)].get("act") == "signal"
    except (KeyError, IndexError, TypeError, ValueError, AttributeError):
        return False


def _point(where: Mapping[str, Any], extra: Mapping[str, Any]) -> str:
    if "trick" in extra and f"trick:{extra['trick']}" in where:
        return f"trick:{extra['trick']}"
    if "action" in extra:
        return f"action:{extra['action']}"
    if "step" in extra:
        return f"step:{extra['step']}"
    return "*" if "*" in where else "result"


def _as_given(got: Any) -> Any:
    return got  # the answer is the decision's (a trick's position, a seat)


@operation_part("legal_plays", "decided_at")
def _legal_plays_at(got: Any) -> Any:
    return frozenset(card_name(parse_card(c), ascii=True) for c in got)


@operation_part("deal_result", "decided_at")
def _deal_result_at(got: Any) -> Any:
    return got.get("outcome") if "outcome" in got else _UNKNOWN


@operation_part("first_dealer", "decided_at")
def _first_dealer_at(got: Any) -> Any:
    return got["dealer"] if "dealer" in got else got.get("refused", _UNKNOWN)


@operation_part("check_packets", "decided_at")
def _check_packets_at(got: Any) -> Any:
    return got.get("stands", _UNKNOWN)


@operation_part("deal", "decided_at")
def _deal_at(got: Any) -> Any:
    return got.get("caller", _UNKNOWN)


def _answer_at(op: str, key: str, got: Any) -> Any:
    """The program's answer at decision point ``key`` of its answer ``got``, in the form the
    standard answer is kept in (or _UNKNOWN)."""
    try:
        if key == "*":
            record = REGISTRY.get(op)
            return got if record is None else record.part_or("decided_at", _as_given)(got)
        kind, _, n = key.partition(":")
        if kind == "trick":
            return got["winners"][int(n)]
        if kind == "action":
            r = got["responses"][int(n)]
            return "ok" if r == {"ok": True} else r.get("refused", _UNKNOWN)
        if kind == "step":
            return got[int(n)]
        if kind == "result":
            return got["outcome"]
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, RuleError):
        pass
    return _UNKNOWN


def reblame(case: Mapping[str, Any], verdict, got: Any = _UNKNOWN):
    """``verdict`` with its blame chosen inside the house rule's decision (see the module
    documentation) when the failure is at a point a house clause decided."""
    if verdict.outcome not in ("wrong-answer", "illegal-action-accepted", "legal-action-refused"):
        return verdict  # a pass, or a crash, timeout or protocol violation: no rule to blame
    where = (case.get("why") or {}).get("variant")
    if not where:
        return verdict
    key = _point(where, verdict.extra or {})
    clause = where.get(key)
    if clause is not None and verdict.blame in _WHO_LED and _is_signal(case, key):
        pass  # a signal refused as by someone who did not lead: who may signal was the house rule's
    elif clause is None or (verdict.blame is not None and verdict.blame not in _DECIDED_BY):
        return verdict  # a failure elsewhere in the case
    standard = getattr(clause, "standard", _UNKNOWN)
    mine = _answer_at(case["op"], key, got) if got is not _UNKNOWN else _UNKNOWN
    house = VARIANT_CLAUSES.get(str(clause))
    replaced = set(getattr(house, "targets", ()))
    if standard is not _UNKNOWN and mine is not _UNKNOWN and mine != standard:
        kept = verdict.blame
        if key.startswith("action:") and mine == "ok" and standard != "ok":
            kept = standard  # accepted a card the standard rule refuses too
        if kept in _STANDARD and kept not in replaced:
            return replace(verdict, blame=kept, clauses=(kept,),
                           detail=f"{verdict.detail} (inside the house rule {clause}: the answer is "
                                  f"neither the house rule's nor the standard one; {kept} still holds)")
    return replace(verdict, blame=str(clause), clauses=(str(clause),),
                   detail=f"{verdict.detail} (decided by the variant's {clause})")
