"""Clause-directed cases: each clause broken in each way it can be broken, on purpose.

The seeded cases (:mod:`.cases`) find bugs where random play happens to go; the cases here
are built for a clause, never left to chance, and do not depend on ``--seed``:

* **refusals** (:func:`_refusal_streams`): for every refusal, in every phase (before trump,
  at a lead, in the leader's signal window, while following, after the close), each kind of
  offending action (a trump while holding the led suit, a card of a third suit, a card not
  held, out of turn, too early, too late, a non-suit named trump, text that is no card),
  each followed by the legal continuation: the next actions must behave as if the refused
  one had never happened (the turn, the trick, the signal window, the hand);
* **notations** (:func:`_notation_cases`): every card notation ``pack.card-notation``
  accepts, in each question that reads cards, and a set it refuses (in the referee, where a
  refusal is an answer);
* **values** (:func:`_value_cases`): the boundary cases of each decided value: every pair of
  ranks led and trumped (``pack.rank-order``), the follow-suit duty apart from the trump
  duty, and each mark of the contest met, missed by one and beaten by one.

Each case names the clause it is *about* in ``directed`` (``{"clause", "way", "cell"}``,
``cell`` one of ``accepted``, ``refused``, ``value``): :func:`coverage_matrix` counts them
into the clause × operation × cell matrix, and :data:`DEFINED_CELLS` is the list of cells
the spec defines (a test keeps every one of them non-empty).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from functools import lru_cache
from typing import Any, Final

from turub import CARDS, Phase, Rules, Seat, parse_card
from turub.cards import card_name

from ..judging.oracle import deal_from_seed
from .cases import Case, RefereeTrace, expected_case

__all__ = ["directed_cases", "directed_clause", "coverage_matrix", "DEFINED_CELLS", "defined_cells",
           "matrix_markdown", "ACCEPTED_NOTATIONS",
           "REFUSED_NOTATIONS", "NON_SUITS"]

#: Seeds of the deals the refusal streams play (fixed: the cases never depend on --seed).
_SEEDS: Final = tuple(range(7001, 7061))

#: Card texts ``pack.card-notation`` accepts, by the form each is written in (from the
#: canonical ASCII name ``AS``/``10H``).
ACCEPTED_NOTATIONS: Final[dict[str, Callable[[str], str]]] = {
    "ascii": lambda a: a,
    "symbol": lambda a: a[:-1] + "♠♥♦♣"["SHDC".index(a[-1])],
    "t-for-ten": lambda a: "T" + a[-1] if a.startswith("10") else a,
    "lower-case": lambda a: a.lower(),
    "lower-t": lambda a: ("t" + a[-1] if a.startswith("10") else a).lower(),
}
#: Texts that are no card (``pack.card-notation`` refuses them).
REFUSED_NOTATIONS: Final = ("ZZ", "1H", "11S", "AX", "", "A", "10", "SA", "A♣♣", "0S", "AS AS")
#: Things named trump that are not one of the four suits (``trump.any-suit``), a no-trump
#: call among them.
NON_SUITS: Final = ("NT", "no-trump", "notrump", "none", "X", "", "N", "SH", "1")

#: The cells the directed cases are built for: a clause's refusal is ``refused``, an action
#: or question it allows ``accepted``, a value it decides ``value``.
_LISTED_CELLS: Final = frozenset({
    ("play.order-of-actions", "referee", "refused"),
    ("trump.caller", "referee", "refused"), ("trump.caller", "referee", "accepted"),
    ("trump.any-suit", "referee", "refused"), ("trump.any-suit", "referee", "accepted"),
    ("trump.once", "referee", "refused"),
    ("play.turn", "referee", "refused"), ("play.turn", "referee", "accepted"),
    ("play.card-in-hand", "referee", "refused"),
    ("play.follow-suit", "referee", "refused"), ("play.follow-suit", "referee", "accepted"),
    ("play.follow-suit", "legal_plays", "value"),
    ("play.void-any-card", "referee", "accepted"), ("play.void-any-card", "legal_plays", "value"),
    ("play.no-forced-trump", "legal_plays", "value"),
    ("play.first-lead", "referee", "refused"), ("play.winner-leads", "referee", "refused"),
    ("play.refusal-changes-nothing", "referee", "accepted"), ("play.malformed-action", "referee", "refused"),
    ("signal.leader-only", "referee", "refused"), ("signal.leader-only", "referee", "accepted"),
    ("signal.timing", "referee", "refused"), ("signal.timing", "referee", "accepted"),
    ("signal.once-per-trick", "referee", "refused"),
    ("signal.kinds", "referee", "refused"), ("signal.kinds", "referee", "accepted"),
    ("pack.card-notation", "referee", "refused"), ("pack.card-notation", "referee", "accepted"),
    ("pack.card-notation", "trick_winner", "accepted"), ("pack.card-notation", "legal_plays", "accepted"),
    ("pack.rank-order", "trick_winner", "value"),
    ("trick.highest-led", "trick_winner", "value"), ("trick.highest-trump", "trick_winner", "value"),
    ("contest.insufficient-win", "contest", "value"), ("contest.second-win-beats-mark", "contest", "value"),
    ("contest.unbeatable-mark", "contest", "value"),
    ("deal.dealer-check", "check_packets", "value"), ("deal.packets", "check_packets", "value"),
})


def _spec_cells() -> frozenset[tuple[str, str, str]]:
    """The cells each operation's clauses define (:data:`~turub.conformance.adapter.OPERATIONS`):
    a value for every clause of a question; for the referee a refusal for each clause in the
    order of refusals (``play.refusal-order``), a value for the result and the count of
    tricks, an accepted action for the others."""
    from turub.errors import REFUSAL_ORDER

    from ..adapter import OPERATIONS
    cells = set()
    for op, clauses in OPERATIONS.items():
        for clause in clauses:
            if op != "referee":
                cells.add((clause, op, "value"))
            elif clause in REFUSAL_ORDER:
                cells.add((clause, op, "refused"))
            elif clause.startswith("result.") or clause == "play.all-tricks":
                cells.add((clause, op, "value"))
            else:
                cells.add((clause, op, "accepted"))
    return frozenset(cells)


#: Every (clause, operation, cell) the spec defines: those of each operation's clauses
#: (:func:`_spec_cells`) and the directed ones listed above.
DEFINED_CELLS: Final = _LISTED_CELLS | _spec_cells()


def defined_cells(rules: Rules) -> frozenset[tuple[str, str, str]]:
    """:data:`DEFINED_CELLS` under ``rules``: under ``stake=per-deal`` no contest is played,
    so the contest's own clauses define no cell (``stake.per-deal`` decides every state)."""
    if rules.to_dict().get("stake") == "per-deal":
        return frozenset(c for c in DEFINED_CELLS if not c[0].startswith("contest.")) | \
            {("stake.per-deal", "contest", "value")}
    return DEFINED_CELLS


def _a(card: Any) -> str:
    return card_name(card, ascii=True)


def _directed(case: Case, clause: str, way: str, cell: str) -> Case:
    case["directed"] = {"clause": clause, "way": way, "cell": cell}
    case["clauses"] = sorted(set(case["clauses"]) | {clause})
    return case


# --- refusals in the referee -----------------------------------------------------------------

#: An offending action: (name, clause it breaks, moment, builder(deal) -> action or None).
#: The moments: ``calling`` (before trump), ``lead`` (a trick to lead), ``window`` (the
#: leader has led, no signal yet), ``follow`` (a follower to play), ``late`` (two cards or
#: more in the trick), ``signalled`` (the leader has signalled), ``closed`` (after the close).
Offence = tuple[str, str, str, Callable[[Any], "dict | None"]]


def _others(deal: Any, seat: Seat) -> list[Seat]:
    return [s for s in Seat if s != seat]


def _missing(deal: Any, seat: Seat) -> str:
    return _a(next(c for c in CARDS if not deal.holds(seat, c)))


def _led(deal: Any) -> Any:
    return deal.current_trick[0][1].suit


def _off_card(deal: Any, want_trump: bool) -> "dict | None":
    """The player to act, holding the led suit, plays a trump (``want_trump``) or a card of
    a third suit instead: ``play.follow-suit``."""
    seat, led, trump = deal.to_act, _led(deal), deal.trump
    hand = deal.hand(seat)
    if led is trump or not any(c.suit is led for c in hand):
        return None
    off = [c for c in hand if (c.suit is trump) == want_trump and c.suit is not led]
    return {"act": "play", "seat": seat.letter, "card": _a(off[0])} if off else None


def _offences() -> list[Offence]:
    play = lambda seat, card: {"act": "play", "seat": seat.letter, "card": card}  # noqa: E731
    signal = lambda seat, kind: {"act": "signal", "seat": seat.letter, "signal": kind}  # noqa: E731
    out: list[Any] = [  # Offences, and None where an offence is built elsewhere
        ("caller-plays-before-trump", "play.order-of-actions", "calling",
         lambda d: play(d.caller, _a(d.hand(d.caller)[0]))),
        ("other-plays-before-trump", "play.order-of-actions", "calling",
         lambda d: play(_others(d, d.caller)[1], "AS")),
        ("signal-before-trump", "play.order-of-actions", "calling", lambda d: signal(d.caller, "knock")),
        ("close-then-trump", "play.order-of-actions", "calling", None),
        ("lead-not-held", "play.card-in-hand", "lead", lambda d: play(d.to_act, _missing(d, d.to_act))),
        ("signal-before-the-lead", "signal.timing", "lead", lambda d: signal(d.to_act, "knock")),
        ("second-trump-by-caller", "trump.once", "lead", lambda d: {"act": "trump", "seat": d.caller.letter,
                                                                     "suit": "SHDC"[(int(d.trump) + 1) % 4]}),
        ("second-trump-by-other", "trump.once", "lead", lambda d: {"act": "trump",
                                                                    "seat": _others(d, d.caller)[0].letter,
                                                                    "suit": "SHDC"[int(d.trump)]}),
        ("in-window-out-of-turn", "play.turn", "window",
         lambda d: play(_after(d, 2), _a(d.hand(_after(d, 2))[0]))),
        ("in-window-not-held", "play.card-in-hand", "window", lambda d: play(d.to_act, _missing(d, d.to_act))),
        ("in-window-signal-by-follower", "signal.leader-only", "window", lambda d: signal(d.to_act, "knock")),
        ("in-window-signal-by-partner", "signal.leader-only", "window", lambda d: signal(_after(d, 1), "click")),
        ("in-window-signal-no-kind", "signal.kinds", "window", lambda d: signal(d.leader, "")),
        ("in-window-not-a-card", "pack.card-notation", "window", lambda d: play(d.to_act, "ZZ")),
        ("trump-holding-led-suit", "play.follow-suit", "follow", lambda d: _off_card(d, True)),
        ("third-suit-holding-led-suit", "play.follow-suit", "follow", lambda d: _off_card(d, False)),
        ("follow-not-held", "play.card-in-hand", "follow", lambda d: play(d.to_act, _missing(d, d.to_act))),
        ("signal-late", "signal.timing", "late", lambda d: signal(d.leader, "knock")),
        ("signal-twice", "signal.once-per-trick", "signalled", lambda d: signal(d.leader, "click")),
        ("play-after-close", "play.order-of-actions", "closed", lambda d: play(d.dealer, "AS")),
        ("signal-after-close", "play.order-of-actions", "closed", lambda d: signal(d.dealer, "knock")),
        ("close-after-close", "play.order-of-actions", "closed", lambda d: {"act": "close", "seat": "N"}),
        ("trump-after-close", "trump.once", "closed", lambda d: {"act": "trump", "seat": d.caller.letter,
                                                                  "suit": "S"}),
    ]
    for moment in ("calling", "lead"):  # play.malformed-action, before trump and at a lead
        out += [
            (f"{moment}-unknown-act", "play.malformed-action", moment,
             lambda d: {"act": "pass", "seat": (d.to_act or d.caller).letter}),
            (f"{moment}-play-without-card", "play.malformed-action", moment,
             lambda d: {"act": "play", "seat": (d.to_act or d.caller).letter}),
            (f"{moment}-play-without-seat", "play.malformed-action", moment,
             lambda d: {"act": "play", "card": _a(d.hand(d.to_act or d.caller)[0])}),
            (f"{moment}-unknown-seat", "play.malformed-action", moment,
             lambda d: {"act": "play", "seat": "X", "card": "AS"}),
        ]
    out = [o for o in out if o[3] is not None]
    for k in (1, 2, 3):  # out of turn at a lead, from each other seat
        out.append((f"lead-out-of-turn-{k}", "play.turn", "lead",
                    lambda d, k=k: play(_after(d, k), _a(d.hand(_after(d, k))[0]))))
    for k in (1, 2, 3):
        out.append((f"trump-by-seat-{k}-after-caller", "trump.caller", "calling",
                    lambda d, k=k: {"act": "trump", "seat": Seat((d.caller + k * _step(d)) % 4).letter,
                                    "suit": "H"}))
    for text in NON_SUITS:
        out.append((f"trump-named-{text!s:.12}".replace(" ", "-"), "trump.any-suit", "calling",
                    lambda d, t=text: {"act": "trump", "seat": d.caller.letter, "suit": t}))
    for text in REFUSED_NOTATIONS:
        out.append((f"card-text-{'empty' if text == '' else text}".replace(" ", "-").replace("'", ""),
                    "pack.card-notation", "lead",
                    lambda d, t=text: play(d.to_act, t)))
    return out


def _step(deal: Any) -> int:
    """1 when play runs clockwise (N E S W), 3 when counter-clockwise (``table.direction``)."""
    rules = getattr(deal, "rules", None)
    direction = (rules.to_dict() if rules is not None else {}).get("direction", "clockwise")
    return 3 if direction == "counterclockwise" else 1


def _after(deal: Any, k: int) -> Seat:
    """The seat ``k`` places after the one to act, in the direction of play."""
    return Seat((deal.to_act + k * _step(deal)) % 4)


def _moment(deal: Any) -> set[str]:
    """The moments ``deal`` is at now (see :data:`Offence`)."""
    phase = deal.phase
    if phase is Phase.CALLING:
        return {"calling"}
    if phase is not Phase.PLAYING:
        return {"closed"}
    n = len(deal.current_trick)
    signalled = n >= 1 and deal.view(deal.leader).signal is not None
    if n == 0:
        return {"lead"}
    return {"follow"} | ({"window"} if n == 1 and not signalled else set()) | \
        ({"late"} if n >= 2 else set()) | ({"signalled"} if n == 1 and signalled else set())


def _stream(rules: Rules, offence: Offence, seed: int, dealer: Seat, tricks_before: int) -> dict | None:
    """The referee arguments of a deal played legally (the first legal card each time,
    signals after each lead of an odd trick) until the offence is possible after
    ``tricks_before`` tricks, the offence, then the legal continuation: the rest of that
    trick and one more (the leader's signal first when the offence came in its window)."""
    name, clause, moment, build = offence
    deal = deal_from_seed(rules, seed, dealer)
    args: dict[str, Any] = {"pack": [_a(c) for c in deal.pack], "dealer": dealer.letter, "cut": deal.cut}
    actions: list[dict] = []
    offence_at: list[int] = []
    done = False
    trace = RefereeTrace(deal)  # the reference's answers, kept as the stream is played

    def act(action: dict) -> None:
        actions.append(action)
        trace.apply(action)

    def try_offence() -> bool:
        if moment not in _moment(deal):
            return False
        if moment not in ("calling", "closed") and sum(deal.tricks_won) < tricks_before:
            return False
        bad = build(deal)
        if not bad:
            return False
        offence_at.append(len(actions))
        act(bad)
        if "refused" not in trace.responses[-1]:
            raise _NoOffence  # accepted: no offence here (a variant's rule, say)
        return True

    try:
        done = _play_stream(deal, seed, moment, tricks_before, act, try_offence)
    except _NoOffence:
        return None
    if not done:
        return None
    args["actions"] = actions
    args["offence_at"] = offence_at[0]
    args["trace"] = trace
    return args


class _NoOffence(Exception):
    """The reference accepts the action built as an offence: not one at this moment."""


def _play_stream(deal: Any, seed: int, moment: str, tricks_before: int, act: Callable[[dict], None],
                 try_offence: Callable[[], bool]) -> bool:
    """Legal play round the offence (see :func:`_stream`); whether the offence was made."""
    done = False
    if moment == "calling":
        done = try_offence()
    act({"act": "trump", "seat": deal.caller.letter, "suit": "SHDC"[seed % 4]})
    after = 0
    while deal.phase is Phase.PLAYING and sum(deal.tricks_won) < 36:
        if not done and moment not in ("calling", "closed"):
            done = try_offence()
        if done:
            after += 1
            if after > 6:
                break
            if "window" == moment and len(deal.current_trick) == 1 and deal.view(deal.leader).signal is None:
                act({"act": "signal", "seat": deal.leader.letter, "signal": "knock"})  # the window is still open
        if not done and moment == "closed" and sum(deal.tricks_won) >= tricks_before:
            act({"act": "close", "seat": deal.dealer.letter})
            done = try_offence()
            break
        leading = not deal.current_trick
        act({"act": "play", "seat": deal.to_act.letter, "card": _a(deal.legal_plays()[0])})
        if leading and sum(deal.tricks_won) % 2 == 1 and moment != "window":
            act({"act": "signal", "seat": deal.leader.letter, "signal": "click"})
        if sum(deal.tricks_won) > tricks_before + 8 and not done:
            return False
    return done


#: The clauses whose offences are made again later in the deal.
_LATER: Final = frozenset({"play.turn", "play.follow-suit", "play.card-in-hand", "trump.once",
                           "signal.once-per-trick"})


def _refusal_streams(rules: Rules) -> Iterator[tuple[str, str, str, dict]]:
    """``(id, clause, way, args)``: each offence at two moments of the deal (early and later),
    under two dealers, from the first fixed seed where it can happen."""
    for offence in _offences():
        name, clause, moment, _ = offence
        # later in the deal too (another dealer, after three tricks) where the moment
        # changes the rule: who leads, and what a follower holds
        later = clause in _LATER and not name.startswith("card-text-")
        places = [(Seat.NORTH, 0), (Seat.EAST, 3)] if later and moment != "calling" else [(Seat.NORTH, 0)]
        for dealer, before in places:
            about = clause
            if name.startswith("lead-out-of-turn"):  # who may lead: the caller, then the winner
                about = "play.first-lead" if before == 0 else "play.winner-leads"
            for seed in _SEEDS:
                args = _stream(rules, offence, seed, dealer, before)
                if args is not None:
                    yield f"refused/{name}/{dealer.letter}{before}", about, name, args
                    break


# --- notations ------------------------------------------------------------------------------

def _notation_cases() -> Iterator[tuple[str, str, dict]]:
    """``(id, op, args)``: the same tricks and hands written in every accepted notation."""
    trick = ["10H", "AH", "10H", "KS"]
    hand, led = ["10S", "AH", "6C", "10C", "QD"], ["JC"]
    for form, write in ACCEPTED_NOTATIONS.items():
        yield f"notation/{form}/trick", "trick_winner", {"cards": [write(c) for c in trick], "trump": "S"}
        yield f"notation/{form}/trick-no-trump-played", "trick_winner", {
            "cards": [write(c) for c in ("10D", "AD", "10D", "AC")], "trump": "H"}
        yield f"notation/{form}/hand", "legal_plays", {"hand": [write(c) for c in hand],
                                                       "trick": [write(c) for c in led]}


def _notation_streams(rules: Rules) -> Iterator[tuple[str, dict]]:
    """A deal of a fixed seed whose every card (and the suit named trump) is written in one
    accepted notation."""
    for form, write in ACCEPTED_NOTATIONS.items():
        deal = deal_from_seed(rules, _SEEDS[0], Seat.SOUTH)
        actions = [{"act": "trump", "seat": deal.caller.letter, "suit": write("AH")[-1]}]
        deal.apply({**actions[0], "suit": "H"})
        for _ in range(12):
            card = _a(deal.legal_plays()[0])
            action = {"act": "play", "seat": deal.to_act.letter, "card": write(card)}
            deal.apply({**action, "card": card})
            actions.append(action)
        yield f"notation/{form}/refereed", {"pack": [write(_a(c)) for c in deal.pack], "dealer": "S",
                                            "cut": deal.cut, "actions": actions}


# --- decided values: boundaries -------------------------------------------------------------

_RANKS: Final = ("A", "K", "Q", "J", "10", "9", "8", "7", "6")


def _value_cases() -> Iterator[tuple[str, str, str, dict]]:
    """``(id, clause, op, args)``: every pair of ranks, the duties apart, each mark's edges."""
    for i, high in enumerate(_RANKS):
        for low in _RANKS[i + 1:]:
            for first, second in ((high, low), (low, high)):
                yield (f"rank/led/{first}-{second}", "pack.rank-order", "trick_winner",
                       {"cards": [first + "D", second + "D"], "trump": "S"})
                yield (f"rank/trumped/{first}-{second}", "pack.rank-order", "trick_winner",
                       {"cards": ["7D", first + "S", second + "S"], "trump": "S"})
    duties = {  # (clause, hand, trick, trump)
        "follow/holding-led-and-trump": ("play.follow-suit", ["7C", "KH", "9D"], ["AC"], "H"),
        "follow/only-led-card": ("play.follow-suit", ["7C", "AH", "AS"], ["QC", "6H"], "H"),
        "follow/trump-led": ("play.follow-suit", ["7H", "AC", "AS"], ["QH"], "H"),
        "void/trump-and-others": ("play.no-forced-trump", ["KH", "9D", "8S"], ["AC", "QC"], "H"),
        "void/only-trump": ("play.void-any-card", ["KH", "9H"], ["AC"], "H"),
        "void/no-trump-held": ("play.void-any-card", ["9D", "8S"], ["AC"], "H"),
        "follow/cannot-beat": ("play.no-forced-trump", ["7C", "8C", "KH"], ["AC"], "H"),
    }
    for slug, (clause, hand, trick, trump) in duties.items():
        yield f"duty/{slug}", clause, "legal_plays", {"hand": hand, "trick": trick, "trump": trump}
    for mark in range(19, 37):  # the mark met, beaten by one, missed by one
        opening = [mark, 36 - mark, False]
        yield (f"mark/{mark}/met", "contest.insufficient-win" if mark < 36 else "contest.unbeatable-mark", "contest",
               {"results": [opening, [mark, 36 - mark, False]]})
        if mark < 36:
            yield (f"mark/{mark}/beaten-by-one", "contest.second-win-beats-mark", "contest",
                   {"results": [opening, [mark + 1, 35 - mark, False]]})
        else:
            yield (f"mark/{mark}/unbeatable", "contest.unbeatable-mark", "contest",
                   {"results": [opening, [36, 0, False], [18, 18, False], [36, 0, False]]})
        if mark > 19:
            yield (f"mark/{mark}/missed-by-one", "contest.insufficient-win", "contest",
                   {"results": [opening, [mark - 1, 37 - mark, False]]})
    for dealer in "NESW":
        d = "NESW".index(dealer)
        for name, order in (("clockwise", 1), ("counterclockwise", 3)):
            seats = ["NESW"[(d + order * k) % 4] for k in range(1, 5)]
            yield (f"packets/{dealer}/{name}", "deal.packets", "check_packets",
                   {"packets": [[seats[k % 4], 3] for k in range(48)], "dealer": dealer})


# --- all of them ----------------------------------------------------------------------------

def directed_cases(rules: Rules) -> list[Case]:
    """The clause-directed cases under ``rules``, each answered by the reference."""
    return list(_directed_cases(rules))


@lru_cache(maxsize=8)
def _cached(rules: Rules) -> tuple[Case, ...]:
    return tuple(_build(rules))


def _directed_cases(rules: Rules) -> Iterator[Case]:
    try:
        yield from _cached(rules)
    except TypeError:  # rules that cannot be a cache key
        yield from _build(rules)


def _build(rules: Rules) -> Iterator[Case]:
    dealt: set[tuple] = set()

    def deal_of(args: dict) -> Iterator[Case]:
        # the deal of each pack refereed here: when the program deals it wrong, the refereed
        # deals fail as a consequence of that (diagnosis.blame), not of a rule of play
        pack = [_a(parse_card(c)) for c in args["pack"]]  # in plain names
        key = (tuple(pack), args["dealer"], args["cut"])
        if key not in dealt:
            dealt.add(key)
            yield expected_case(f"directed/deal/{len(dealt)}", "deal",
                                {"pack": pack, "dealer": args["dealer"], "cut": args["cut"]}, rules)
    controls: dict[str, str] = {}  # each distinct control stream, by its actions
    for case_id, clause, way, args in _refusal_streams(rules):
        yield from deal_of(args)
        at, trace = args.pop("offence_at"), args.pop("trace")
        case = expected_case(f"directed/{case_id}", "referee", args, rules, trace=trace)
        # the control: the same stream without the refused action (diagnosis.probes reads
        # the pair: the stream failing after its refusal while its control passes is a
        # refusal that changed the state, play.refusal-changes-nothing); streams that share
        # a control share one case
        control = {**args, "actions": args["actions"][:at] + args["actions"][at + 1:]}
        key = json.dumps(control, sort_keys=True)
        fresh = key not in controls
        if fresh:
            controls[key] = "directed/" + case_id.replace("refused/", "control/", 1)
        case["control"] = controls[key]
        yield _directed(case, clause, way, "refused")
        if fresh:
            yield _directed(expected_case(controls[key], "referee", control, rules),
                            "play.refusal-changes-nothing", way, "accepted")
    for case_id, args in _notation_streams(rules):
        yield from deal_of(args)
        yield _directed(expected_case(f"directed/{case_id}", "referee", args, rules),
                        "pack.card-notation", case_id.split("/")[1], "accepted")
    for case_id, op, args in _notation_cases():
        yield _directed(expected_case(f"directed/{case_id}", op, args, rules), "pack.card-notation",
                        case_id.split("/")[1], "accepted")
    per_deal = rules.to_dict().get("stake") == "per-deal"
    for case_id, clause, op, args in _value_cases():
        if per_deal and clause.startswith("contest."):
            clause = "stake.per-deal"  # no contest is played: each won deal settles a stake
        yield _directed(expected_case(f"directed/{case_id}", op, args, rules), clause,
                        case_id.split("/", 1)[1], "value")


def directed_clause(case_id: str, rules: Rules) -> str | None:
    """The clause the directed case ``case_id`` (under ``rules``) was asked about."""
    return _about(rules).get(case_id, (None, None))[0]


def control_of(case_id: str, rules: Rules) -> str | None:
    """The id of the control of the refusal stream ``case_id``: the same stream without its
    refused action."""
    return _about(rules).get(case_id, (None, None))[1]


@lru_cache(maxsize=8)
def _about(rules: Rules) -> dict[str, tuple[str, str | None]]:
    return {c["id"]: (c["directed"]["clause"], c.get("control")) for c in _cached(rules) if "directed" in c}


def coverage_matrix(cases: list[Case]) -> dict[tuple[str, str, str], int]:
    """How many cases of ``cases`` fill each (clause, operation, cell): a directed case its
    own cell; a refereed one also ``accepted`` for each clause its accepted actions exercise
    and ``refused`` for each clause its refusals name."""
    matrix: dict[tuple[str, str, str], int] = {}

    def add(key: tuple[str, str, str]) -> None:
        matrix[key] = matrix.get(key, 0) + 1
    for case in cases:
        d = case.get("directed")
        if d:
            add((d["clause"], case["op"], d["cell"]))
        if case["op"] != "referee":
            for clause in case.get("clauses", ()):
                if not d or clause != d["clause"]:
                    add((clause, case["op"], "value"))
            continue
        why = case.get("why", {})
        for response, clauses in zip(case["expected"]["responses"], why.get("actions", [])):
            cell = "refused" if "refused" in response else "accepted"
            for clause in clauses:
                add((clause, "referee", cell))
        for _, clauses in why.get("tricks", []):
            for clause in clauses:
                add((clause, "referee", "value"))
        for clause in why.get("result", []):
            add((clause, "referee", "value"))
    return matrix



def matrix_markdown(cases: list[Case]) -> str:
    """The coverage matrix of ``cases`` as a Markdown table: one row per (clause, operation)
    the spec defines a cell for, the number of cases in each of its cells (``—``: a cell the
    spec does not define for that pair)."""
    matrix = coverage_matrix(cases)
    rows = sorted({(clause, op) for clause, op, _ in DEFINED_CELLS})
    lines = ["| clause | operation | accepted | refused | value |", "|---|---|---:|---:|---:|"]
    for clause, op in rows:
        cells = [str(matrix.get((clause, op, cell), 0)) if (clause, op, cell) in DEFINED_CELLS else "—"
                 for cell in ("accepted", "refused", "value")]
        lines.append(f"| `{clause}` | `{op}` | " + " | ".join(cells) + " |")
    return "\n".join(lines)


if __name__ == "__main__":  # python -m turub.conformance.questions.directed: the matrix, standard rules
    from ..questions.vectors import load_vectors
    print(matrix_markdown((load_vectors(Rules()) or []) + directed_cases(Rules())))
