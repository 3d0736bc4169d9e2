"""Clause-directed cases: each clause broken in each way it can be broken, on purpose.

The seeded cases (:mod:`.cases`) find bugs where random play happens to go; the cases here
are built for a clause, never left to chance, and do not depend on ``--seed``:

* **refusals** (:func:`refusal_streams`): for every refusal, in every phase (before trump,
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
from collections.abc import Iterator
from functools import lru_cache
from typing import Final

from turub import Rules, Seat, parse_card

from ..judging.variant_reference import deal_from_seed
from ..operations import REGISTRY
from .cases import Case, expected_case
# The refusals and the notation tables moved to .offences; their names are still importable here.
from .offences import (OFFENCE_SEEDS, ACCEPTED_NOTATIONS, ACCEPTED_SEATS, NON_SUITS, REFUSED_NOTATIONS, Offence,
                       as_text, all_offences, refusal_streams)

__all__ = ["directed_cases", "directed_clause", "coverage_matrix", "DEFINED_CELLS", "defined_cells",
           "matrix_markdown", "ACCEPTED_NOTATIONS",
           "REFUSED_NOTATIONS", "NON_SUITS"]

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
    ("table.partnerships", "referee", "accepted"),
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
        refereed = REGISTRY[op].drawn_under_rules  # answered action by action
        for clause in clauses:
            if not refereed:
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


def _directed(case: Case, clause: str, way: str, cell: str) -> Case:
    case["directed"] = {"clause": clause, "way": way, "cell": cell}
    case["clauses"] = sorted(set(case["clauses"]) | {clause})
    return case


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
    """A deal of a fixed seed whose every card is written in one accepted notation (the suit
    named trump by its letter: ``turub.well_formed``)."""
    for form, write in ACCEPTED_NOTATIONS.items():
        deal = deal_from_seed(rules, OFFENCE_SEEDS[0], Seat.SOUTH)
        actions = [{"act": "trump", "seat": deal.caller.letter, "suit": "H"}]  # a suit: its letter
        deal.apply(actions[0])
        for _ in range(12):
            card = as_text(deal.legal_plays()[0])
            action = {"act": "play", "seat": deal.to_act.letter, "card": write(card)}
            deal.apply({**action, "card": card})
            actions.append(action)
        yield f"notation/{form}/refereed", {"pack": [write(as_text(c)) for c in deal.pack], "dealer": "S",
                                            "cut": deal.cut, "actions": actions}


def _seat_streams(rules: Rules) -> Iterator[tuple[str, dict]]:
    """A deal of a fixed seed whose every action names its seat in one form the referee
    reads (``table.partnerships``): trump, three tricks with a signal, the close."""
    for form, write in ACCEPTED_SEATS.items():
        deal = deal_from_seed(rules, OFFENCE_SEEDS[1], Seat.WEST)
        plain: list[dict] = []

        def act(action: dict) -> None:
            plain.append(action)
            deal.apply(action)
        act({"act": "trump", "seat": deal.caller.letter, "suit": "D"})
        for k in range(12):
            act({"act": "play", "seat": deal.to_act.letter, "card": as_text(deal.legal_plays()[0])})
            if k == 0:
                act({"act": "signal", "seat": deal.leader.letter, "signal": "knock"})
        act({"act": "close", "seat": deal.dealer.letter})
        yield f"seat/{form}/refereed", {"pack": [as_text(c) for c in deal.pack], "dealer": "W", "cut": deal.cut,
                                        "actions": [{**a, "seat": write(a["seat"])} for a in plain]}


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
    for k in range(48):  # deal.dealer-check judges every packet: each one sent astray in turn,
        # then that packet and the same one of every later round (a seat skipped from there on)
        dealer = "NESW"[k % 4]
        seats = ["NESW"[("NESW".index(dealer) + j) % 4] for j in range(1, 5)]
        for name, astray in (("astray", (k,)), ("astray-from", range(k, 48, 4))):
            if name == "astray-from" and k < 4:
                continue  # from the first round on: a first round out of order, above
            packets = [[seats[j % 4], 3] for j in range(48)]
            for j in astray:
                packets[j][0] = seats[(j + 1) % 4]
            yield (f"packets/{name}-{k + 1}", "deal.dealer-check", "check_packets",
                   {"packets": packets, "dealer": dealer})
    for dealer in "NESW":
        d = "NESW".index(dealer)
        for name, order in (("clockwise", 1), ("counterclockwise", 3)):
            seats = ["NESW"[(d + order * k) % 4] for k in range(1, 5)]
            yield (f"packets/{dealer}/{name}", "deal.packets", "check_packets",
                   {"packets": [[seats[k % 4], 3] for k in range(48)], "dealer": dealer})
        # a packet of 0 cards (the schema allows a size of 0) among the 48 good ones, early,
        # midway and before the dealer's last: no packet of three, so the deal does not stand
        for at in (1, 24, 47):
            clockwise = ["NESW"[(d + k) % 4] for k in range(1, 5)]
            packets = [[clockwise[k % 4], 3] for k in range(48)]
            packets.insert(at, [clockwise[at % 4], 0])
            yield (f"packets/{dealer}/empty-packet-{at + 1}", "deal.packets", "check_packets",
                   {"packets": packets, "dealer": dealer})


# --- boundaries of the rules of play (issue 35) -----------------------------------------------

def _boundary_streams(rules: Rules) -> Iterator[tuple[str, str, str, str, dict]]:
    """``(id, clause, way, cell, args)``: each rule of play at the edge of the deal where a
    program most often writes it as a special case, so that no rule rests on one example:
    a card not held on the 36th trick (by the leader and by a follower, then the last cards
    played); a close after each number of cards of a trick, first and later tricks (accepted:
    the trick in play is not counted); the first lead of each card the caller holds in a suit
    other than trump (any card may lead)."""
    from turub import CARDS, Phase

    def legal(deal, actions: list[dict]) -> None:
        action = {"act": "play", "seat": deal.to_act.letter, "card": as_text(deal.legal_plays()[0])}
        deal.apply(action)
        actions.append(action)

    def start(seed: int, dealer: Seat):
        deal = deal_from_seed(rules, seed, dealer)
        actions = [{"act": "trump", "seat": deal.caller.letter, "suit": "SHDC"[seed % 4]}]
        deal.apply(actions[0])
        return deal, actions, {"pack": [as_text(c) for c in deal.pack], "dealer": dealer.letter, "cut": deal.cut}
    for seed, dealer in ((OFFENCE_SEEDS[2], Seat.NORTH), (OFFENCE_SEEDS[3], Seat.EAST)):
        for position in (0, 1, 3):  # the leader, the second seat, the last seat of the last trick
            deal, actions, head = start(seed, dealer)
            while sum(deal.tricks_won) < 35 or len(deal.current_trick) < position:
                legal(deal, actions)
            seat = deal.to_act
            actions.append({"act": "play", "seat": seat.letter,
                            "card": as_text(next(c for c in CARDS if not deal.holds(seat, c)))})
            while deal.phase is Phase.PLAYING:
                legal(deal, actions)
            yield (f"boundary/not-held-last-trick/{dealer.letter}{position}", "play.card-in-hand",
                   "last-trick", "refused", {**head, "actions": actions})
        for tricks, cards in ((0, 1), (0, 3), (4, 2), (20, 1), (35, 3)):  # a close in a trick
            deal, actions, head = start(seed, dealer)
            while sum(deal.tricks_won) < tricks or len(deal.current_trick) < cards:
                legal(deal, actions)
            actions.append({"act": "close", "seat": deal.dealer.letter})
            yield (f"boundary/close-mid-trick/{dealer.letter}{tricks}-{cards}", "sheet.any-player-closes",
                   "mid-trick", "accepted", {**head, "actions": actions})
        deal, actions, head = start(seed, dealer)
        hand, trump = deal.hand(deal.caller), deal.trump
        for card in sorted({c for c in hand if c.suit is not trump}, key=as_text)[:4]:
            lead = {"act": "play", "seat": deal.caller.letter, "card": as_text(card)}
            yield (f"boundary/first-lead/{dealer.letter}-{as_text(card)}", "play.first-lead", "first-lead",
                   "accepted", {**head, "actions": actions + [lead]})


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
        pack = [as_text(parse_card(c)) for c in args["pack"]]  # in plain names
        key = (tuple(pack), args["dealer"], args["cut"])
        if key not in dealt:
            dealt.add(key)
            yield expected_case(f"directed/deal/{len(dealt)}", "deal",
                                {"pack": pack, "dealer": args["dealer"], "cut": args["cut"]}, rules)
    controls: dict[str, str] = {}  # each distinct control stream, by its actions
    for case_id, clause, way, args in refusal_streams(rules):
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
    for case_id, args in _seat_streams(rules):
        yield from deal_of(args)
        yield _directed(expected_case(f"directed/{case_id}", "referee", args, rules),
                        "table.partnerships", case_id.split("/")[1], "accepted")
    for case_id, op, args in _notation_cases():
        yield _directed(expected_case(f"directed/{case_id}", op, args, rules), "pack.card-notation",
                        case_id.split("/")[1], "accepted")
    for ns in range(37):  # each deal's result asked directly (diagnosis.probes reads them, to tell
        # a result read wrong from the contest step that carries it); and a few closed early
        yield _directed(expected_case(f"directed/result/{ns}-{36 - ns}", "deal_result",
                                      {"ns": ns, "ew": 36 - ns, "closed_early": False}, rules),
                        "result.more-tricks-wins" if ns != 18 else "result.draw-18", "complete", "value")
    for ns, ew in ((0, 0), (1, 0), (10, 5), (17, 18), (19, 3), (3, 20), (35, 0)):
        yield _directed(expected_case(f"directed/result/{ns}-{ew}-closed", "deal_result",
                                      {"ns": ns, "ew": ew, "closed_early": True}, rules),
                        "result.closed-early", "closed", "value")
    for case_id, clause, way, cell, args in _boundary_streams(rules):
        yield from deal_of(args)
        yield _directed(expected_case(f"directed/{case_id}", "referee", args, rules), clause, way, cell)
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
        record = REGISTRY.get(case["op"])
        if record is None or not record.drawn_under_rules:  # one answer, not one per action
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
