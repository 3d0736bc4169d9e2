"""The catalogue of common misreadings: the rules with one clause read another way.

Each :class:`Misreading` names the clause it misreads, says in one line what it does
instead, and answers the kit's questions as a program with that one misreading would.  The
catalogue is kept in the spec too, as the reader's note "a common mistake" under each clause
(``spec/*.md``); a test keeps the two in step.

:func:`explain` puts each failed question of a run to every misreading: a misreading
*explains* a failure when it gives the answer the implementation gave.  The misreadings are
ranked by how many failures each explains; a failure explained by the best-ranked one that
explains it is blamed on that misreading's clause.  A misreading that cannot answer a
question (the refereed deals, mostly) explains nothing there: the judge's blame stands.

The answers come from a small model of the rules written here (cards as numbers, no engine
state), so that a misreading is one switch, and the reference's own answers decide which
of them differ from the rules.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import AbstractSet, Any, Final

from ..operations import REGISTRY, operation_part

__all__ = ["Misreading", "MISREADINGS", "explain", "answer"]

_SEATS: Final = "NESW"
_SUITS: Final = "SHDC"
_RANKS: Final = ("A", "K", "Q", "J", "10", "9", "8", "7", "6")
_SYMBOLS: Final = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


class _NotApplicable(Exception):
    """This misreading gives no answer of its own to this question."""


@dataclass(frozen=True)
class Misreading:
    """One clause read another way: ``id``, the ``clause`` misread, what it does instead."""

    id: str
    clause: str
    text: str
    ops: frozenset[str]


def _m(id: str, clause: str, text: str, *ops: str) -> Misreading:
    return Misreading(id, clause, text, frozenset(ops))


#: The catalogue, one entry per plausible misreading (several for a clause misread in
#: several common ways).
MISREADINGS: Final[tuple[Misreading, ...]] = (
    _m("later-copy-wins", "trick.earliest-identical", "of identical cards, the one played later wins",
       "trick_winner"),
    _m("any-suit-wins", "trick.highest-led", "without trump, the highest card of any suit wins",
       "trick_winner"),
    _m("first-trump-wins", "trick.highest-trump", "the first trump played wins, not the highest",
       "trick_winner"),
    _m("aces-low", "pack.rank-order", "aces rank below the six", "trick_winner"),
    _m("ten-low", "pack.rank-order", "the ten ranks below the six (read as 1-0)", "trick_winner"),
    _m("no-duty-to-follow", "play.follow-suit", "any card may be played, holding the led suit or not",
       "legal_plays"),
    _m("must-overtake", "play.no-forced-trump", "a follower who can beat the trick must",
       "legal_plays"),
    _m("must-trump", "play.no-forced-trump", "a player void in the led suit must trump if able",
       "legal_plays"),
    _m("void-may-not-trump", "play.void-any-card", "a player void in the led suit may not trump",
       "legal_plays"),
    _m("no-cut", "deal.cut", "the cut is ignored: dealing starts from the top of the shuffled pack",
       "deal"),
    _m("cut-from-bottom", "deal.cut", "the cut lifts cards from the bottom, not the top", "deal"),
    _m("packets-of-four", "deal.packets", "cards are dealt in packets of four", "deal"),
    _m("one-at-a-time", "deal.packets", "cards are dealt one at a time", "deal"),
    _m("dealer-first", "deal.packets", "the dealer deals the first packet to themself", "deal"),
    _m("caller-right", "table.left-of-dealer", "the seat before the dealer calls trump and leads",
       "deal"),
    _m("dealer-calls", "trump.caller", "the dealer names trump", "deal"),
    _m("second-packet", "trump.three-cards", "trump is named on the caller's second packet", "deal"),
    _m("always-clockwise", "table.direction", "play and the deal always go clockwise",
       "deal", "next_dealer"),
    _m("last-packet-only", "deal.dealer-check", "only the dealer's last packet is checked",
       "check_packets"),
    _m("draw-to-dealer", "result.draw-18", "18-18 goes to the dealer's side",
       "deal_result", "referee", "contest"),
    _m("closed-counts", "result.closed-early", "a deal closed early goes to the side with more tricks",
       "deal_result", "referee"),
    _m("known-result-ignored", "result.closed-early",
       "early-close=known-result is ignored: every deal closed early is a draw", "referee", "contest"),
    _m("documented-signals-only", "signal.kinds",
       "only a knock or a click is taken as a signal: any other kind the table uses is refused",
       "referee"),
    _m("signal-kinds-ignored", "signal.kinds",
       "signal-kinds=documented is ignored: any named signal is accepted", "referee"),
    _m("loss-next-seat", "dealer.after-loss", "after a loss the next seat deals", "next_dealer"),
    _m("draw-passes", "dealer.after-draw", "after a draw the deal passes to the next seat",
       "next_dealer"),
    _m("win-partner", "dealer.after-win", "after a win the dealer's partner deals", "next_dealer"),
    _m("option-ignored", "dealer.after-win", "the opponent-dealer option is ignored", "next_dealer"),
    _m("suits-break-ties", "pack.suits-equal", "suits break ties in the draw (♠ ♥ ♦ ♣)",
       "first_dealer"),
    _m("everyone-redraws", "dealer.first-draw-ties", "after a tie everyone draws again",
       "first_dealer"),
    _m("lowest-deals", "dealer.first-draw", "the lowest card shown deals", "first_dealer"),
    _m("late-rounds-ignored", "dealer.first-draw-ties",
       "rounds given after the draw is decided are ignored", "first_dealer"),
    _m("equal-beats-mark", "contest.insufficient-win", "a second win equal to the mark wins",
       "contest"),
    _m("short-win-lowers-mark", "contest.insufficient-win", "a win short of the mark lowers the mark",
       "contest"),
    _m("draw-breaks-sequence", "contest.draw-keeps-sequence", "a draw ends the running sequence",
       "contest"),
    _m("other-side-keeps-mark", "contest.other-side-resets",
       "the other side's win takes over the old mark", "contest"),
    _m("decided-refuses", "contest.decided-is-final",
       "a decided contest refuses every later result", "contest"),
    _m("decided-continues", "contest.decided-is-final",
       "a decided contest goes on taking results", "contest"),
    _m("per-deal-ignored", "stake.per-deal", "stake=per-deal is played as a contest", "contest"),
    _m("per-deal-keeps-mark", "stake.per-deal",
       "under stake=per-deal a won deal also sets a holder and a mark", "contest"),
)

BY_ID: Final = {m.id: m for m in MISREADINGS}


# --- a small model of the rules, one switch per misreading ----------------------------------------

def _card(text: Any) -> int:
    if not isinstance(text, str):
        raise _NotApplicable
    t = text.strip().upper()
    suit, rank = _SYMBOLS.get(t[-1:], t[-1:]), t[:-1]
    if suit not in _SUITS or rank not in _RANKS:
        raise _NotApplicable
    return _SUITS.index(suit) * 9 + _RANKS.index(rank)


def _name(card: int) -> str:
    return _RANKS[card % 9] + _SUITS[card // 9]


def _suit(card: int) -> int:
    return card // 9


def _height(card: int, m: str) -> int:
    h = 8 - card % 9  # ace 8 .. six 0
    if m == "aces-low" and h == 8:
        return -1
    if m == "ten-low" and h == 4:
        return -1
    return h


def _seat(text: Any) -> int:
    t = str(text).strip().upper()[:1]
    if t not in _SEATS:
        raise _NotApplicable
    return _SEATS.index(t)


def _step(rules: dict, m: str) -> int:
    if m == "always-clockwise":
        return 1
    return 3 if (rules or {}).get("direction") == "counterclockwise" else 1


@operation_part("trick_winner", "misread")
def _trick_winner(m: str, cards, trump) -> int:
    cs = [_card(c) for c in cards]
    t = _card("A" + str(trump))  // 9
    best = 0
    for i in range(1, len(cs)):
        c, b = cs[i], cs[best]
        if _suit(c) == _suit(b):
            if m == "first-trump-wins" and _suit(c) == t:
                continue
            if _height(c, m) > _height(b, m) or (m == "later-copy-wins" and c == b):
                best = i
        elif _suit(c) == t:
            best = i
        elif m == "any-suit-wins" and _suit(b) != t and _height(c, m) > _height(b, m):
            best = i
    return best


@operation_part("legal_plays", "misread")
def _legal_plays(m: str, hand, trick, trump=None) -> list[str]:
    hs = sorted(set(_card(c) for c in hand))
    ts = [_card(c) for c in trick]
    t = None if trump is None else _card("A" + str(trump)) // 9
    if not ts or m == "no-duty-to-follow":
        return [_name(c) for c in hs]
    led = _suit(ts[0])
    following = [c for c in hs if _suit(c) == led]
    if following:
        if m == "must-overtake" and not any(_suit(c) == t for c in ts[1:]):
            top = max(_height(c, m) for c in ts if _suit(c) == led)
            following = [c for c in following if _height(c, m) > top] or following
        return [_name(c) for c in following]
    if m in ("must-trump", "void-may-not-trump"):
        if t is None:
            raise _NotApplicable  # a version-1 question carries no trump
        trumps = [c for c in hs if _suit(c) == t]
        others = [c for c in hs if _suit(c) != t]
        return [_name(c) for c in ((trumps or hs) if m == "must-trump" else (others or hs))]
    return [_name(c) for c in hs]


@operation_part("deal", "misread")
def _deal(m: str, pack, dealer, cut, rules) -> dict:
    cards = [_card(c) for c in pack]
    if m == "cut-from-bottom":
        cards = cards[-cut:] + cards[:-cut] if cut else cards
    elif m != "no-cut":
        cards = cards[cut:] + cards[:cut]
    d, step = _seat(dealer), _step(rules, m)
    caller = {"caller-right": (d - step) % 4, "dealer-calls": d}.get(m, (d + step) % 4)
    first = d if m == "dealer-first" else caller
    size = {"packets-of-four": 4, "one-at-a-time": 1}.get(m, 3)
    hands: list[list[int]] = [[], [], [], []]
    seat = first
    for p in range(0, 144, size):
        hands[seat].extend(cards[p:p + size])
        seat = (seat + step) % 4
    saw = cards[3:6] if m == "second-packet" else hands[caller][:3]
    return {"caller": _SEATS[caller], "caller_saw": [_name(c) for c in saw],
            "hands": {_SEATS[s]: [_name(c) for c in hands[s]] for s in range(4)}}


@operation_part("check_packets", "misread")
def _check_packets(m: str, packets, dealer) -> dict:
    d = _seat(dealer)
    own = [n if isinstance(n, int) else len(n) for s, n in packets if _seat(s) == d]
    return {"stands": own[-1:] == [3]}


#: The option each "option ignored" misreading reads at its other value.
_MISREAD_OPTION: Final = {"known-result-ignored": ("early-close", "draw"),
                          "documented-signals-only": ("signal-kinds", "documented"),
                          "signal-kinds-ignored": ("signal-kinds", "any")}


def _as_misread(m: str, rules: dict | None) -> dict:
    """The rules as the misreading ``m`` plays them."""
    rules = dict(rules or {})
    if m in _MISREAD_OPTION:
        option, value = _MISREAD_OPTION[m]
        rules[option] = value
    return rules


def _outcome(m: str, ns, ew, closed, dealer=None, rules=None) -> str:
    from turub import RuleError, deal_result
    from turub.options import rules_from_dict
    try:
        r = deal_result(ns, ew, closed_early=bool(closed), rules=rules_from_dict(_as_misread(m, rules)))
    except (RuleError, TypeError, ValueError):
        raise _NotApplicable from None
    if m == "closed-counts" and closed and ns != ew:
        return "NS" if ns > ew else "EW"
    if m == "draw-to-dealer" and not closed and ns == ew and dealer is not None:
        return "NS" if _seat(dealer) % 2 == 0 else "EW"
    return "draw" if r.winner is None else r.winner.short


@operation_part("deal_result", "misread")
def _deal_result(m: str, ns, ew, closed_early, dealer=None) -> dict:
    if m == "draw-to-dealer" and dealer is None:
        raise _NotApplicable
    return {"outcome": _outcome(m, ns, ew, closed_early, dealer)}


@operation_part("next_dealer", "misread")
def _next_dealer(m: str, dealer, outcome, rules) -> str:
    d, step = _seat(dealer), _step(rules, m)
    if outcome == "draw":
        return _SEATS[(d + step) % 4 if m == "draw-passes" else d]
    if outcome != ("NS" if d % 2 == 0 else "EW"):
        return _SEATS[(d + step) % 4 if m == "loss-next-seat" else (d + 2) % 4]
    if m == "win-partner":
        return _SEATS[(d + 2) % 4]
    nxt = (d + step) % 4
    previous = (rules or {}).get("opponent-dealer") == "previous" and m != "option-ignored"
    return _SEATS[(nxt + 2) % 4 if previous else nxt]


@operation_part("first_dealer", "misread")
def _first_dealer(m: str, rounds) -> dict:
    contenders = [0, 1, 2, 3]
    for k, r in enumerate(rounds):
        shown = {_seat(s): _card(c) for s, c in r.items()}
        if sorted(shown) != contenders:
            return {"refused": "dealer.first-draw-ties"}
        sign = -1 if m == "lowest-deals" else 1
        if m == "suits-break-ties":
            best = max(shown.values(), key=lambda c: (_height(c, m), -_suit(c)))
            contenders = [next(s for s in sorted(shown) if shown[s] == best)]
        else:
            top = max(sign * _height(c, m) for c in shown.values())
            contenders = sorted(s for s, c in shown.items() if sign * _height(c, m) == top)
        if len(contenders) == 1:
            if k + 1 < len(rounds) and m != "late-rounds-ignored":
                return {"refused": "dealer.first-draw-ties"}
            return {"dealer": _SEATS[contenders[0]]}
        if m == "everyone-redraws":
            contenders = [0, 1, 2, 3]
    return {"refused": "dealer.first-draw-ties"}


@operation_part("contest", "misread")
def _contest(m: str, results, rules, dealer=None) -> list:
    if m == "draw-to-dealer" and dealer is None:
        raise _NotApplicable
    per_deal = (rules or {}).get("stake") == "per-deal" and m != "per-deal-ignored"
    holder = mark = winner = None
    out: list = []
    d = dealer
    for ns, ew, closed in results:
        try:
            side = _outcome(m, ns, ew, closed, d, rules)
        except _NotApplicable:
            out.append({"refused": "result.tricks-add-up"})
            continue
        if winner is not None:
            if m == "decided-refuses":
                out.append({"refused": "contest.decided-is-final"})
                continue
            if m != "decided-continues":
                holder = mark = winner = None
        if side != "draw" and not (m == "decided-continues" and winner is not None):
            tricks = ns if side == "NS" else ew
            if per_deal:
                holder, mark, winner = (side, tricks, side) if m == "per-deal-keeps-mark" else (None, None, side)
            elif holder != side:
                holder = side
                if not (m == "other-side-keeps-mark" and mark is not None):
                    mark = tricks
            elif tricks > mark or (m == "equal-beats-mark" and tricks == mark):
                winner = side
            elif m == "short-win-lowers-mark":
                mark = tricks
        elif side == "draw" and m == "draw-breaks-sequence" and not per_deal:
            holder = mark = None
        elif per_deal and side == "draw":
            holder = mark = winner = None
        out.append({"holder": holder, "mark": mark, "winner": winner})
        if d is not None:
            d = _next_dealer("", d, side, rules)
    return out


@operation_part("referee", "misread")
def _referee(m: str, pack, dealer, cut, rules, actions) -> dict:
    """The result misreadings and the misread options answer a refereed deal: the
    reference's answer under the options as misread, with the outcome read their way."""
    from ..adapter import ReferenceImplementation
    got = ReferenceImplementation().referee(pack, dealer, cut, _as_misread(m, rules), actions)
    if got["outcome"] is None:
        return got
    ns, ew = got["tricks"]
    closed = ns + ew < 36
    return {**got, "outcome": _outcome(m, ns, ew, closed, dealer, rules)}


def answer(misreading: Misreading, op: str, args: dict) -> Any:
    """What a program with ``misreading`` answers; raises ``LookupError`` when it gives no
    answer of its own to ``op``."""
    if op not in misreading.ops:
        raise LookupError(op)
    try:
        return REGISTRY[op].part("misread")(misreading.id, **{k: v for k, v in args.items() if k != "variant"})
    except (_NotApplicable, TypeError, KeyError, IndexError, ValueError):
        raise LookupError(op) from None


def takes_rules(op: str) -> bool:
    """Whether ``op``'s misreading answers under the rules of the check (its part takes ``rules``)."""
    record = REGISTRY.get(op)
    return record is not None and "misread" in record.parts and \
        "rules" in inspect.signature(record.parts["misread"]).parameters


# --- explaining a run's failures ------------------------------------------------------------------

def _contradictions(m: Misreading, passed: set[str], rules: dict) -> int:
    """How many fixed cases (the committed vectors and the clause-directed cases) the
    implementation answered as the rules do where the misreading answers otherwise:
    evidence against it.  The directed cases hold each boundary (every mark met, every
    pair of ranks), so a misreading that is wrong only at one edge of it is told apart
    from the general one that would fail all along it."""
    from turub.options import rules_from_dict

    from ..questions.directed import directed_cases
    from ..questions.vectors import load_vectors
    try:
        parsed = rules_from_dict(rules)
        cases = (load_vectors(parsed) or []) + directed_cases(parsed)
    except Exception:  # noqa: BLE001 - no fixed cases, no counter-evidence
        return 0
    n = 0
    for case in cases:
        if case["id"] not in passed or case["op"] not in m.ops or REGISTRY[case["op"]].drawn_under_rules:
            continue  # a stream played under the rules (the referee's) is not weighed against it
        args = dict(case["args"])
        if takes_rules(case["op"]):
            args["rules"] = rules
        try:
            if answer(m, case["op"], args) != case["expected"]:
                n += 1
        except LookupError:
            continue
    return n


def explain(failed: Iterable[dict], rules: dict, passed: AbstractSet[str] = frozenset()) -> list[dict]:
    """The misreadings that explain failures of a run, best first, each ``{"id", "clause",
    "text", "explains", "of"}``; re-blames each explained failure (``blamed``, keeping the
    judge's in ``judge_blamed``) on the best-ranked misreading that explains it.  Misreadings
    are ranked by the failures they explain less the passed vectors they contradict
    (``passed``: the ids of the cases that passed); one contradicted more often than it
    explains is dropped, unless it reproduced a whole deal (an operation whose record is
    :attr:`~turub.conformance.operations.Operation.decisive`)."""
    from ..judging.judge import judge
    from .situation import question_of
    failed = [c for c in failed if not c.get("consequence_of")]
    explained: dict[str, list[dict]] = {}
    whole_deal: set[str] = set()  # misreadings that reproduced a whole deal the program gave
    questions = [(c, question_of(c)) for c in failed]
    for m in MISREADINGS:
        for c, q in questions:
            if q is None or q["op"] not in m.ops:
                continue
            args = dict(q["args"])
            if takes_rules(q["op"]):
                args.setdefault("rules", rules)
            try:
                alt = answer(m, q["op"], args)
            except LookupError:
                continue
            if alt == q["expected"]:
                continue  # the misreading changes nothing here
            case = {"id": c["id"], "op": q["op"], "args": args, "clauses": c.get("clauses", []),
                    "expected": alt, "rules": rules}
            if judge(case, q["got"]).passed:
                explained.setdefault(m.id, []).append(c)
                if REGISTRY[q["op"]].decisive:
                    whole_deal.add(m.id)
    n = len(failed)
    against = {k: _contradictions(BY_ID[k], set(passed), rules) for k in explained} if passed else {}
    ranked = sorted(explained, key=lambda k: (-(len(explained[k]) - against.get(k, 0)),
                                              MISREADINGS.index(BY_ID[k])))
    # more for than against; or four hands of 36 cards given exactly as the misreading deals
    # them, which no chance explains: a misreading in some deals only (a rare bug) is still it
    ranked = [k for k in ranked if len(explained[k]) > against.get(k, 0) or k in whole_deal]
    for k in reversed(ranked):  # the best-ranked misreading has the last word
        for c in explained[k]:
            if c.get("blamed") != BY_ID[k].clause:
                c.setdefault("judge_blamed", c.get("blamed"))
                c["blamed"] = BY_ID[k].clause
                c["failing_clauses"] = [BY_ID[k].clause]
            c["misreading"] = k
    return [{"id": k, "clause": BY_ID[k].clause, "text": BY_ID[k].text, "explains": len(explained[k]),
             "of": n} for k in ranked]
