"""Cases: the questions the kit asks, and the reference's answers.

A *case* is plain JSON data::

    {"id": "trick_winner/worked-duplicate-aces", "op": "trick_winner",
     "args": {"cards": ["AC", "AC", "6C", "KC"], "trump": "H"},
     "rules": "any", "clauses": ["trick.earliest-identical", ...],
     "expected": 0, "why": {...}}

``rules`` is ``"any"`` when every option set gives the same answer, otherwise the option
set (as ``{"direction": ..., ...}``) the expected answer holds under.  Operations that take
rules (:data:`RULED_OPS`) get the run's rules added to ``args`` when the case is asked.
``why`` (optional) holds what the judge needs to name the clause of a disagreement.

The inputs come from seeded generators (:func:`inputs`); the expected answers, clauses and
``why`` from the reference engine (:func:`expected_case`).  :func:`build_vectors` makes the
committed vectors (``conformance/vectors/``); :func:`generated_cases` the run-time cases of
a seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any, Final

from turub import (CARDS, Contest, Deal, Phase, RuleError, Rules, Seat, decide_trick,
                   deal_result, parse_card)
from turub.cards import card_name
from turub.deal import SIGNALS
from turub.options import rules_from_dict

from ..adapter import OPERATIONS, ReferenceImplementation
from ..judging.oracle import deal_from_seed, new_deal, reference_for, variant_decisions, variant_of

__all__ = ["OPTION_SETS", "RULED_OPS", "Case", "rules_name", "inputs", "expected_case",
           "build_vectors", "generated_cases", "ask_args", "VECTOR_FORMAT"]

Case = dict[str, Any]

VECTOR_FORMAT: Final = "turub-vectors/1"

#: The named option sets the vectors are generated for.
OPTION_SETS: Final[dict[str, Rules]] = {
    "standard": Rules(),
    "counterclockwise": rules_from_dict({"direction": "counterclockwise"}),
    "stake-per-deal": Rules(stake="per-deal"),
    "opponent-previous": Rules(opponent_dealer="previous"),
    "signals-documented": Rules(signal_kinds="documented"),
    "early-close-known": Rules(early_close="known-result"),
}

#: Operations whose arguments include the rules in force.
RULED_OPS: Final = frozenset({"deal", "referee", "next_dealer", "contest"})

#: The clause each option allows (to tag the cases whose answer depends on it).
_OPTION_CLAUSE: Final = {"direction": "table.direction", "stake": "stake.per-deal",
                         "opponent-dealer": "dealer.after-win", "signal-kinds": "signal.kinds",
                         "early-close": "result.closed-early"}

#: Signal kinds a table may use besides the documented knock and click (accepted unless
#: ``signal-kinds=documented``), and names that are no signal under any option.
_UNUSUAL_SIGNALS: Final = ("wink", "cough", "tap twice", "nod")
_NO_SIGNAL: Final = ("", " ", "\t")

_REF = ReferenceImplementation()
_SEATS = "NESW"
_SUITS = "SHDC"


def rules_name(rules: Rules) -> str:
    """The name of ``rules`` among :data:`OPTION_SETS`, or ``custom:...``."""
    if getattr(rules, "name", "custom") != "custom":
        return rules.name  # type: ignore[attr-defined]  # a named rule variant (turub.variants)
    for name, r in OPTION_SETS.items():
        if r == rules:
            return name
    return "custom:" + ",".join(f"{k}={v}" for k, v in rules.to_dict().items())


def _a(card) -> str:
    return card_name(card, ascii=True)


def _u(card) -> str:
    return card_name(card)


# --- input generators --------------------------------------------------------------------
# Each yields (slug, args).  Arguments never include the rules: see ask_args.

def _pool(rng: random.Random, size: int) -> list:
    """A tiny pool of distinct cards, so that copies of one card meet often."""
    return rng.sample(CARDS, size)


def _trick_winner_inputs(rng: random.Random, n: int) -> Iterator[tuple[str, dict]]:
    worked = [("worked-duplicate-aces", "AC AC 6C KC", "H"),
              ("worked-small-trump-wins", "AC AC 6H KC", "H"),
              ("worked-second-trump-copy-loses", "6H AC 6H KC", "C"),
              ("worked-off-suit-ace-loses", "6S AH AD AC", "S"),
              ("worked-higher-trump-overtrumps", "KD 9S 10S 6D", "S"),
              ("worked-lead-alone", "QC", "D"),
              ("worked-trump-led", "7H 8H AS 7H", "H"),
              ("worked-three-copies", "JD JD JD 10D", "C")]
    for slug, cards, trump in worked:
        yield slug, {"cards": cards.split(), "trump": trump}
    for i in range(n):
        pool = _pool(rng, rng.choice((2, 3, 4, 6)))
        size = rng.choice((1, 2, 3, 4, 4, 4))
        cards = [rng.choice(pool) for _ in range(size)]  # type: ignore[assignment]
        text = [(_u if rng.random() < 0.1 else _a)(c) for c in cards]
        yield f"r{i:03d}", {"cards": text, "trump": rng.choice(_SUITS)}


def _legal_plays_inputs(rng: random.Random, n: int) -> Iterator[tuple[str, dict]]:
    yield "worked-must-follow", {"hand": "AS 6H 9H KD".split(), "trick": ["10H"]}
    yield "worked-void-plays-anything", {"hand": "AS 6C KD".split(), "trick": ["10H", "AH"]}
    yield "worked-lead-anything", {"hand": "AS 6C KD 6C".split(), "trick": []}
    yield "worked-no-duty-to-trump", {"hand": "7S 8D".split(), "trick": ["AC", "6C", "QC"]}
    # protocol version 2: the trump is given, so the duty (or not) to trump shows where it lives
    yield "v2-void-may-discard-holding-trump", {"hand": "7S 8D 9H".split(), "trick": ["AC"], "trump": "H"}
    yield "v2-void-may-trump", {"hand": "7S KH".split(), "trick": ["AC", "KC"], "trump": "H"}
    yield "v2-follow-low-under-trump", {"hand": "7C KC 9H".split(), "trick": ["AC", "6H"], "trump": "H"}
    yield "v2-lead-before-trump-known", {"hand": "7C KC".split(), "trick": [], "trump": None}
    for i in range(n):
        suits = rng.sample(range(4), rng.choice((1, 2, 2, 3, 4)))
        cards = [c for c in CARDS if c.suit in suits]
        hand = [rng.choice(cards) for _ in range(rng.randint(1, 9))]
        trick = [rng.choice(CARDS) for _ in range(rng.choice((0, 1, 1, 2, 3)))]
        form = _u if rng.random() < 0.1 else _a
        args = {"hand": [form(c) for c in hand], "trick": [form(c) for c in trick]}
        if i % 3 == 0:  # protocol version 2, a trump the hand holds more often than not
            args["trump"] = _SUITS[rng.choice(suits) if rng.random() < 0.7 else rng.randrange(4)]  # type: ignore[assignment]
        yield f"r{i:03d}", args


def _seeded_pack(rng: random.Random) -> tuple[list[str], int]:
    d = Deal.from_seed(rng.getrandbits(32))
    return [_a(c) for c in d.pack], d.cut


def _deal_inputs(rng: random.Random, n: int) -> Iterator[tuple[str, dict]]:
    from turub import PACK
    yield "worked-unshuffled-north", {"pack": [_a(c) for c in PACK], "dealer": "N", "cut": 0}
    yield "worked-unshuffled-cut-5", {"pack": [_a(c) for c in PACK], "dealer": "W", "cut": 5}
    for i in range(n):
        pack, cut = _seeded_pack(rng)
        yield f"r{i:03d}", {"pack": pack, "dealer": _SEATS[i % 4], "cut": cut}


def _packets_as_dealt(rng: random.Random, dealer: str, misdeal: float) -> list[list]:
    """Packets as a person deals them: mostly three, sometimes two or four, until 144."""
    order = [_SEATS[(_SEATS.index(dealer) + k) % 4] for k in range(1, 5)]
    packets: list[list] = []
    left = 144
    k = 0
    while left > 0:
        size = 3 if rng.random() >= misdeal else rng.choice((2, 4))
        size = min(size, left)
        packets.append([order[k % 4], size])
        left -= size
        k += 1
    return packets


def _packet_faults(dealer: str) -> dict[str, list[list]]:
    """A clean deal by ``dealer`` spoiled in one way each."""
    clean = _packets_as_dealt(random.Random(0), dealer, 0.0)
    order = [p[0] for p in clean[:4]]
    faults = {
        "four-then-two": [list(p) for p in clean],
        "skipped-seat": [list(p) for p in clean[:9]] + [list(p) for p in clean[10:]] + [list(clean[9])],
        "one-packet-missing": [list(p) for p in clean[:46]] + [list(clean[47])],
        "extra-packet": [list(p) for p in clean] + [[order[0], 3]],
        "dealer-serves-first": [[order[(k + 3) % 4], 3] for k in range(48)],
        "a-seat-twice-in-the-first-round": [list(p) for p in clean],
        "last-packet-of-four": [list(p) for p in clean],
        "two-everywhere-then-four": [[s, 2 if k < 24 else 4] for k, (s, _) in enumerate(clean)],
        "other-way-round": [[order[(2 - k) % 4] if k % 4 < 3 else order[3], 3] for k in range(48)],
    }
    faults["four-then-two"][5][1], faults["four-then-two"][6][1] = 4, 2
    faults["a-seat-twice-in-the-first-round"][1][0] = order[0]
    faults["last-packet-of-four"][-1][1], faults["last-packet-of-four"][-5][1] = 4, 2
    return faults


def _check_packets_inputs(rng: random.Random, n: int) -> Iterator[tuple[str, dict]]:
    yield "worked-clean-deal", {"packets": _packets_as_dealt(rng, "N", 0.0), "dealer": "N"}
    short = _packets_as_dealt(random.Random(3), "E", 0.0)
    short[-1][1] = 2
    yield "worked-dealer-last-packet-short", {"packets": short, "dealer": "E"}
    yield "worked-dealer-got-nothing", {"packets": [["E", 3], ["S", 3], ["W", 3]], "dealer": "N"}
    # every kind of fault, each leaving the dealer's last packet at three (deal.dealer-check
    # judges every packet), under each dealer
    for dealer in _SEATS:
        for fault, packets in _packet_faults(dealer).items():
            yield f"fault-{fault}-{dealer}", {"packets": packets, "dealer": dealer}
    for i in range(n):
        dealer = rng.choice(_SEATS)
        yield f"r{i:03d}", {"packets": _packets_as_dealt(rng, dealer, rng.choice((0.0, 0.02, 0.1))),
                            "dealer": dealer}


def _deal_result_inputs(rng: random.Random, n: int) -> Iterator[tuple[str, dict]]:
    for ns, ew, closed in [(18, 18, False), (19, 17, False), (17, 19, False), (36, 0, False),
                           (0, 36, False), (10, 5, True), (0, 0, True), (30, 5, True),
                           (20, 20, False), (10, 10, False), (18, 18, True), (-1, 37, False),
                           (35, 0, False), (20, 16, True)]:
        yield f"t{ns}-{ew}-{'closed' if closed else 'played'}", {
            "ns": ns, "ew": ew, "closed_early": closed}
    # protocol version 2: the dealer is given, so an 18-18 given to the dealer's side shows
    for dealer in _SEATS:
        for ns, ew, closed in [(18, 18, False), (19, 17, False), (17, 19, False), (12, 12, True),
                               (20, 10, True)]:
            yield f"v2-dealer-{dealer}-t{ns}-{ew}-{'closed' if closed else 'played'}", {
                "ns": ns, "ew": ew, "closed_early": closed, "dealer": dealer}


def _next_dealer_inputs(rng: random.Random, n: int) -> Iterator[tuple[str, dict]]:
    for dealer in _SEATS:
        for outcome in ("NS", "EW", "draw"):
            yield f"{dealer}-{outcome}", {"dealer": dealer, "outcome": outcome}


def _first_dealer_inputs(rng: random.Random, n: int) -> Iterator[tuple[str, dict]]:
    yield "worked-one-highest", {"rounds": [{"N": "9S", "E": "KH", "S": "6D", "W": "QC"}]}
    yield "worked-suits-do-not-break-ties", {"rounds": [
        {"N": "AS", "E": "AH", "S": "6D", "W": "QC"}, {"N": "7C", "E": "8C"}]}
    yield "worked-still-tied", {"rounds": [{"N": "AS", "E": "AH", "S": "6D", "W": "QC"}]}
    yield "worked-wrong-seat-redraws", {"rounds": [
        {"N": "AS", "E": "AH", "S": "6D", "W": "QC"}, {"N": "7C", "S": "8C"}]}
    # ties of three and of four players, resolved after several rounds; a round too many
    yield "tie-of-three", {"rounds": [{"N": "KS", "E": "KH", "S": "KD", "W": "QC"},
                                      {"N": "9C", "E": "9D", "S": "6H"}, {"N": "JS", "E": "10S"}]}
    yield "tie-of-four", {"rounds": [{"N": "AS", "E": "AH", "S": "AD", "W": "AC"},
                                     {"N": "7S", "E": "7H", "S": "7D", "W": "7C"},
                                     {"N": "6S", "E": "QH", "S": "QD", "W": "6C"}, {"E": "8S", "S": "9S"}]}
    yield "tie-of-four-still-tied", {"rounds": [{"N": "AS", "E": "AH", "S": "AD", "W": "AC"},
                                                {"N": "7S", "E": "7H", "S": "7D", "W": "7C"}]}
    yield "round-after-the-decision", {"rounds": [{"N": "KS", "E": "KH", "S": "KD", "W": "QC"},
                                                  {"N": "AS", "E": "9D", "S": "6H"},
                                                  {"N": "JS", "E": "10S", "S": "6S", "W": "7D"}]}
    for i in range(n):
        ranks = rng.sample(CARDS, rng.choice((2, 3, 9)))
        contenders = list(_SEATS)
        rounds = []
        for _ in range(rng.randint(1, 4)):
            r = {s: _a(rng.choice(ranks)) for s in contenders}
            rounds.append(r)
            top = max(parse_card(c).rank for c in r.values())
            contenders = [s for s in contenders if parse_card(r[s]).rank == top]
            if len(contenders) == 1 and rng.random() < 0.7:
                break
        if rng.random() < 0.1 and len(rounds) > 1:  # a redraw shown to the wrong players
            rounds[-1] = {s: _a(rng.choice(ranks)) for s in _SEATS}
        yield f"r{i:03d}", {"rounds": rounds}


def _contest_inputs(rng: random.Random, n: int) -> Iterator[tuple[str, dict]]:
    worked = {
        "worked-second-win-beats-mark": [[20, 16, False], [22, 14, False]],
        "worked-insufficient-win-keeps-mark": [[20, 16, False], [19, 17, False], [21, 15, False]],
        "worked-draw-keeps-sequence": [[20, 16, False], [18, 18, False], [5, 5, True], [21, 15, False]],
        "worked-other-side-resets": [[20, 16, False], [10, 26, False], [19, 17, False], [14, 22, False],
                                     [9, 27, False]],
        "worked-unbeatable-mark": [[36, 0, False], [36, 0, False], [0, 36, False]],
        "worked-decided-is-final": [[20, 16, False], [25, 11, False], [18, 18, False]],
        # closed with the winner known: a draw, or under early-close=known-result a win
        "worked-closed-result-known": [[20, 16, False], [21, 3, True], [22, 14, False]],
        "worked-closed-result-known-other-side": [[20, 16, False], [4, 19, True], [17, 19, False]],
    }
    for slug, results in worked.items():
        yield slug, {"results": results}
    # long runs of draws before the contest is decided, and (protocol version 2) the dealer
    for k in range(4):
        draws = [[18, 18, False] if rng.random() < 0.6 else [rng.randint(0, 12), rng.randint(0, 12), True]
                 for _ in range(rng.randint(6, 14))]
        win = rng.randint(19, 30)
        yield f"long-draws-{k}", {"results": draws[:4] + [[win, 36 - win, False]] + draws[4:]
                                  + [[win + 1, 35 - win, False]]}
        yield f"v2-long-draws-dealer-{k}", {"results": draws + [[win, 36 - win, False]] + draws[:3],
                                            "dealer": _SEATS[k]}
    for i in range(n):
        results = []
        for _ in range(rng.randint(1, 8)):
            if rng.random() < 0.15:
                played = rng.randint(0, 35)
                ns = rng.randint(0, played)
                results.append([ns, played - ns, True])
            else:
                ns = min(36, max(0, int(rng.gauss(18, 3.5))))
                results.append([ns, 36 - ns, False])
        args = {"results": results}
        if i % 4 == 0:  # protocol version 2: who dealt the first of them
            args["dealer"] = rng.choice(_SEATS)  # type: ignore[arg-type]
        yield f"r{i:03d}", args


# --- action streams for the referee ----------------------------------------------------------

#: The kinds of illegal action the stream generator slips in.
INJECTIONS: Final = ("out-of-turn", "not-held", "revoke", "signal-not-leader", "signal-late",
                     "signal-twice", "signal-unknown", "trump-twice", "trump-wrong-seat",
                     "play-before-trump", "bad-card", "after-close")

#: Actions that break two rules at once (``play.refusal-order``): every pair one action can
#: break together, so that a referee naming them in another order is caught.
PAIRS: Final = ("turn+held", "turn+notation", "turn+revoke", "held+revoke", "order+turn",
                "order+held", "after-close+turn", "once+caller", "caller+suit", "once+suit",
                "kinds+leader", "kinds+timing", "kinds+twice", "leader+timing", "leader+twice",
                "timing+twice", "order+kinds")


def rules_broken(deal: Deal, action: Mapping[str, Any]) -> list[str]:
    """Every rule ``action`` breaks in ``deal`` now, each judged on its own (whatever the
    order of refusals would name first)."""
    broken: list[str] = []
    kind = action.get("act")
    seat_text = action.get("seat")
    seat = Seat("NESW".index(seat_text)) if seat_text in ("N", "E", "S", "W") else None
    phase = deal.phase
    if kind == "trump":
        if phase is not Phase.CALLING:
            broken.append("trump.once" if deal.trump is not None else "play.order-of-actions")
        if seat != deal.caller:
            broken.append("trump.caller")
        if str(action.get("suit", "")).upper() not in ("S", "H", "D", "C", "♠", "♥", "♦", "♣"):
            broken.append("trump.any-suit")
        return broken
    if kind == "play":
        if phase is not Phase.PLAYING:
            broken.append("play.order-of-actions")
        if seat != (deal.to_act if phase is Phase.PLAYING else deal.caller):
            broken.append("play.turn")
        try:
            card = parse_card(action.get("card"))  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - text that is no card
            return broken + ["pack.card-notation"]
        if seat is not None and not deal.holds(seat, card):
            broken.append("play.card-in-hand")
        trick = deal.current_trick
        if seat is not None and phase is Phase.PLAYING and trick:
            led = trick[0][1].suit
            if card.suit is not led and any(c.suit is led for c in deal.hand(seat)):
                broken.append("play.follow-suit")
        return broken
    if kind == "signal":
        bad_kind = not _signal_kind_ok(deal, action.get("signal"))
        if phase is not Phase.PLAYING:
            return ["play.order-of-actions"] + (["signal.kinds"] if bad_kind else [])
        if bad_kind:
            broken.append("signal.kinds")
        if seat != deal.leader:
            broken.append("signal.leader-only")
        if len(deal.current_trick) != 1:
            broken.append("signal.timing")
        if deal.view(deal.leader).signal is not None:
            broken.append("signal.once-per-trick")
        return broken
    if kind == "close" and phase is Phase.FINISHED:
        return ["play.order-of-actions"]
    return broken


def _signal_kind_ok(deal: Deal, kind: Any) -> bool:
    """``signal.kinds``: a non-empty name; only the knock or the click under
    ``signal-kinds=documented``."""
    if not isinstance(kind, str) or not kind.strip():
        return False
    return kind in SIGNALS or deal.rules.signal_kinds != "documented"


def _bad_kind(deal: Deal, rng: random.Random) -> str:
    """A signal kind ``deal`` refuses (``signal.kinds``) under its options."""
    return rng.choice(_UNUSUAL_SIGNALS if deal.rules.signal_kinds == "documented" else _NO_SIGNAL)


def _pair(deal: Deal, kind: str, rng: random.Random) -> dict | None:
    """An action breaking both rules of ``kind`` now, or None if there is none yet."""
    to_act, trick, phase = deal.to_act, deal.current_trick, deal.phase
    others = [s for s in Seat if s != to_act]
    if kind == "order+turn" and phase is Phase.CALLING:
        seat = rng.choice([s for s in Seat if s != deal.caller])
        return {"act": "play", "seat": seat.letter, "card": "AS"}
    if kind == "order+held" and phase is Phase.CALLING:
        missing = [c for c in CARDS if not deal.holds(deal.caller, c)]
        return {"act": "play", "seat": deal.caller.letter, "card": _a(rng.choice(missing))}
    if kind == "order+kinds" and phase is Phase.CALLING:
        return {"act": "signal", "seat": deal.caller.letter, "signal": _bad_kind(deal, rng)}
    if kind == "after-close+turn" and phase is Phase.FINISHED:
        return {"act": "play", "seat": rng.choice(_SEATS), "card": "ZZ"}
    if kind == "caller+suit" and phase is Phase.CALLING:
        seat = rng.choice([s for s in Seat if s != deal.caller])
        return {"act": "trump", "seat": seat.letter, "suit": "X"}
    if kind == "once+caller" and phase is Phase.PLAYING:
        seat = rng.choice([s for s in Seat if s != deal.caller])
        return {"act": "trump", "seat": seat.letter, "suit": rng.choice(_SUITS)}
    if kind == "once+suit" and phase is Phase.PLAYING:
        return {"act": "trump", "seat": deal.caller.letter, "suit": "X"}
    if phase is not Phase.PLAYING or to_act is None:
        return None
    if kind == "turn+held":
        seat = rng.choice(others)
        missing = [c for c in CARDS if not deal.holds(seat, c)]
        return missing and {"act": "play", "seat": seat.letter, "card": _a(rng.choice(missing))}  # type: ignore[return-value]
    if kind == "turn+notation":
        return {"act": "play", "seat": rng.choice(others).letter, "card": rng.choice(("ZZ", "1H", "11S"))}
    if kind == "turn+revoke" and trick:
        led = trick[0][1].suit
        played = {s for s, _ in trick}
        for seat in [s for s in others if s not in played]:
            hand = deal.hand(seat)
            off = [c for c in hand if c.suit is not led]
            if off and any(c.suit is led for c in hand):
                return {"act": "play", "seat": seat.letter, "card": _a(rng.choice(off))}
        return None
    if kind == "held+revoke" and trick:
        led = trick[0][1].suit
        if any(c.suit is led for c in deal.hand(to_act)):
            missing = [c for c in CARDS if c.suit is not led and not deal.holds(to_act, c)]
            return missing and {"act": "play", "seat": to_act.letter, "card": _a(rng.choice(missing))}  # type: ignore[return-value]
        return None
    leader = deal.leader
    not_leader = rng.choice([s for s in Seat if s != leader]).letter

    def signalled() -> bool:  # read only when a kind needs it: a view is costly
        return deal.view(leader).signal is not None

    if kind == "kinds+leader" and len(trick) == 1:
        return {"act": "signal", "seat": not_leader, "signal": _bad_kind(deal, rng)}
    if kind == "kinds+timing" and len(trick) >= 2:
        return {"act": "signal", "seat": leader.letter, "signal": _bad_kind(deal, rng)}
    if kind == "kinds+twice" and len(trick) == 1 and signalled():
        return {"act": "signal", "seat": leader.letter, "signal": _bad_kind(deal, rng)}
    if kind == "leader+timing" and len(trick) >= 2:
        return {"act": "signal", "seat": not_leader, "signal": "knock"}
    if kind == "leader+twice" and len(trick) == 1 and signalled():
        return {"act": "signal", "seat": not_leader, "signal": "click"}
    if kind == "timing+twice" and len(trick) >= 2 and signalled():
        return {"act": "signal", "seat": leader.letter, "signal": "knock"}
    return None


def _illegal(deal: Deal, kind: str, rng: random.Random) -> dict | None:
    """An action of ``kind`` that the deal refuses now, or None if there is none."""
    if "+" in kind:
        return _pair(deal, kind, rng)
    to_act = deal.to_act
    if kind == "trump-wrong-seat" and deal.phase is Phase.CALLING:
        seat = rng.choice([s for s in Seat if s != deal.caller])
        return {"act": "trump", "seat": seat.letter, "suit": rng.choice(_SUITS)}
    if kind == "play-before-trump" and deal.phase is Phase.CALLING:
        held = deal.hand(deal.caller)
        return {"act": "play", "seat": deal.caller.letter, "card": _a(held[0])}
    if kind == "after-close" and deal.phase is Phase.FINISHED:
        seat = rng.choice(list(Seat))
        return rng.choice([{"act": "play", "seat": seat.letter, "card": "AS"},
                           {"act": "close", "seat": seat.letter},
                           {"act": "signal", "seat": seat.letter, "signal": "knock"}])
    if deal.phase is not Phase.PLAYING or to_act is None:
        return None
    trick = deal.current_trick
    if kind == "out-of-turn":
        seat = rng.choice([s for s in Seat if s != to_act])
        return {"act": "play", "seat": seat.letter, "card": _a(rng.choice(deal.hand(seat)))}
    if kind == "not-held":
        missing = [c for c in CARDS if not deal.holds(to_act, c)]
        return missing and {"act": "play", "seat": to_act.letter, "card": _a(rng.choice(missing))}  # type: ignore[return-value]
    if kind == "revoke" and trick:
        led = trick[0][1].suit
        hand = deal.hand(to_act)
        off = [c for c in hand if c.suit is not led]
        if off and any(c.suit is led for c in hand):
            return {"act": "play", "seat": to_act.letter, "card": _a(rng.choice(off))}
        return None
    if kind == "signal-not-leader" and len(trick) == 1:
        seat = rng.choice([s for s in Seat if s != deal.leader])
        return {"act": "signal", "seat": seat.letter, "signal": rng.choice(list(SIGNALS))}
    if kind == "signal-late" and len(trick) >= 2:
        return {"act": "signal", "seat": deal.leader.letter, "signal": rng.choice(list(SIGNALS))}
    if kind == "signal-twice" and len(trick) == 1 and deal.view(deal.leader).signal is not None:
        return {"act": "signal", "seat": deal.leader.letter, "signal": rng.choice(list(SIGNALS))}
    if kind == "signal-unknown" and len(trick) == 1:
        return {"act": "signal", "seat": deal.leader.letter, "signal": _bad_kind(deal, rng)}
    if kind == "trump-twice":
        return {"act": "trump", "seat": deal.caller.letter, "suit": rng.choice(_SUITS)}
    if kind == "bad-card":
        return {"act": "play", "seat": to_act.letter, "card": rng.choice(("ZZ", "1H", "AX", "11S"))}
    return None


def play_stream(seed: int, dealer: str, rules: Rules, tricks: int, choices: list[int] = (),  # type: ignore[assignment]
                signal_rate: float = 0.3, inject: list[tuple[int, str]] = (),  # type: ignore[assignment]
                close_at: int | None = None, rng: random.Random | None = None,
                default_pick: int | None = None, finished: list | None = None,
                signals: tuple[str, ...] = tuple(SIGNALS)) -> dict:
    """The referee arguments of a deal of seeded legal play, with illegal actions slipped in.

    ``tricks`` tricks are played (legal plays chosen by ``choices`` in turn, else by ``rng``),
    ``inject`` puts an illegal action of a kind before action number ``i``, and ``close_at``
    closes the deal after that many tricks; a leader's signal is one of ``signals``.
    """
    rng = rng or random.Random(seed)
    deal = deal_from_seed(rules, seed, Seat("NESW".index(dealer)))  # played by the variant
    args = {"pack": [_a(c) for c in deal.pack], "dealer": dealer, "cut": deal.cut}
    actions: list[dict] = []
    pending = sorted(inject)
    picks = iter(choices)
    trace = RefereeTrace(deal)

    def act(action: dict, card: Any = None) -> None:
        actions.append(action)
        trace.apply(action, card)

    def injections() -> None:
        # an injection waits until the deal reaches a moment where it is possible
        if not pending:
            return
        for item in [p for p in pending if p[0] <= len(actions)]:
            bad = _illegal(deal, item[1], rng)
            if bad:
                pending.remove(item)
                act(bad)

    injections()
    act({"act": "trump", "seat": deal.caller.letter, "suit": _SUITS[rng.randrange(4)]})
    # Under a variant that decides the legal plays, held cards it forbids are slipped in
    # too (drawn apart, so the standard game's streams stay as they are).
    slip = random.Random(f"{seed}/variant") if variant_of(rules) and rules.decides("legal_plays") else None  # type: ignore[attr-defined]
    while deal.phase is Phase.PLAYING and len(trace.winners) < tricks:
        injections()
        legal = deal.legal_plays()
        if slip is not None and slip.random() < 0.3:
            forbidden = sorted(set(deal.hand(deal.to_act)) - set(legal), key=lambda c: c.index)
            if forbidden:
                act({"act": "play", "seat": deal.to_act.letter, "card": _a(slip.choice(forbidden))})
        pick = next(picks, default_pick)
        card = legal[pick % len(legal)] if pick is not None else rng.choice(legal)
        leading = deal.to_act is deal.leader  # (a trick is completed at its fourth card)
        act({"act": "play", "seat": deal.to_act.letter, "card": _a(card)}, card)
        if leading and rng.random() < signal_rate:
            act({"act": "signal", "seat": deal.leader.letter, "signal": rng.choice(signals)})
    injections()
    if close_at is not None and deal.phase is Phase.PLAYING:
        act({"act": "close", "seat": rng.choice(_SEATS)})
    injections()
    args["actions"] = actions
    if finished is not None:
        finished.append(deal)
        finished.append(trace)
    return args


def _traced(*args: Any, **kwargs: Any) -> tuple[dict, RefereeTrace]:
    """:func:`play_stream`'s arguments and the reference's trace of the deal it played."""
    end: list = []
    played = play_stream(*args, finished=end, **kwargs)  # type: ignore[misc]
    return played, end[1]


def _referee_inputs(rng: random.Random, n: int, rules: Rules, rare: int = 2
                    ) -> Iterator[tuple[str, tuple[dict, RefereeTrace]]]:
    """The seeded streams for the referee, each with the reference's trace of it."""
    yield "full-deal", _traced(rng.getrandbits(32), "N", rules, 36, rng=rng)
    yield "full-deal-many-signals", _traced(rng.getrandbits(32), "E", rules, 36,
                                            signal_rate=0.9, rng=rng)
    yield "closed-early", _traced(rng.getrandbits(32), "S", rules, 20, close_at=20, rng=rng)
    yield "closed-before-first-trick", _traced(rng.getrandbits(32), "W", rules, 0, close_at=0, rng=rng)
    # signals of kinds other than the documented two: accepted unless signal-kinds=documented
    yield "unusual-signals", _traced(rng.getrandbits(32), "N", rules, 12, signal_rate=0.8, rng=rng,
                                     signals=_UNUSUAL_SIGNALS + tuple(SIGNALS))
    for j, kind in enumerate(INJECTIONS):
        where = {"trump-wrong-seat": 0, "play-before-trump": 0}.get(kind)
        for k in range(2):
            at = where if where is not None else rng.randint(2, 14)
            seed = rng.getrandbits(32)
            close = 3 if kind == "after-close" else None
            yield f"illegal-{kind}-{k}", _traced(
                seed, _SEATS[(j + k) % 4], rules, 4, inject=[(at, kind)], close_at=close, rng=rng)
    for j, kind in enumerate(PAIRS):
        at = 0 if kind in ("order+turn", "order+held", "order+kinds", "caller+suit") else rng.randint(2, 14)
        seed = rng.getrandbits(32)
        close = 2 if kind == "after-close+turn" else None
        yield f"order-{kind}", _traced(seed, _SEATS[j % 4], rules, 3, inject=[(at, kind)],
                                       close_at=close, rng=rng, signal_rate=0.6)
    yield from _rare_deals(rng, rare, rules)
    for i in range(n):
        seed = rng.getrandbits(32)
        kinds = [(rng.randint(0, 40), rng.choice(INJECTIONS)) for _ in range(rng.randint(0, 3))]
        yield f"r{i:03d}", _traced(seed, rng.choice(_SEATS), rules, rng.choice((3, 6, 36)),
                                   inject=kinds, rng=rng)


def _rare_deals(rng: random.Random, n: int, rules: Rules
                ) -> Iterator[tuple[str, tuple[dict, RefereeTrace]]]:
    """Deals that luck seldom plays: ``n`` full deals ending 18-18 (about one in eight does),
    and deals closed early, one with a side already past 18 tricks.  Found by playing seeded
    deals until one ends as wanted: built on purpose, never left to chance."""
    def search(want: Callable[[Deal], bool], tricks: int, close: bool) -> tuple[dict, RefereeTrace]:
        while True:
            seed = rng.getrandbits(32)
            end: list = []
            args = play_stream(seed, rng.choice(_SEATS), rules, tricks, rng=random.Random(seed),
                               signal_rate=0.2, close_at=tricks if close else None, finished=end)
            if want(end[0]):
                return args, end[1]
    for k in range(n):
        yield f"eighteen-all-{k}", search(lambda d: d.tricks_won == (18, 18), 36, False)
    yield "closed-past-18", search(lambda d: max(d.tricks_won) > 18, 30, True)
    yield "closed-level", search(lambda d: d.tricks_won[0] == d.tricks_won[1], 24, True)


_INPUTS: Final[dict[str, Callable[[random.Random, int], Iterator[tuple[str, dict]]]]] = {
    "trick_winner": _trick_winner_inputs,
    "legal_plays": _legal_plays_inputs,
    "deal": _deal_inputs,
    "check_packets": _check_packets_inputs,
    "deal_result": _deal_result_inputs,
    "next_dealer": _next_dealer_inputs,
    "first_dealer": _first_dealer_inputs,
    "contest": _contest_inputs,
}

#: How many seeded cases of each operation the committed vectors hold (besides worked ones).
VECTOR_COUNTS: Final = {"eighteen-all": 20, "trick_winner": 60, "legal_plays": 40, "deal": 4, "check_packets": 10,
                        "deal_result": 0, "next_dealer": 0, "first_dealer": 16, "contest": 30,
                        "referee": 8}


def inputs(seed: int, counts: Mapping[str, int], rules: Rules | None = None
           ) -> Iterator[tuple[str, str, dict]]:
    """``(id, op, args)`` of the seeded inputs.  Streams for the referee are played under
    ``rules`` (skipped when ``rules`` is None)."""
    for case_id, op, args, _ in _traced_inputs(seed, counts, rules):
        yield case_id, op, args


def _traced_inputs(seed: int, counts: Mapping[str, int], rules: Rules | None = None
                   ) -> Iterator[tuple[str, str, dict, RefereeTrace | None]]:
    """:func:`inputs`, each refereed stream with the reference's trace of its play (so its
    expected answer needs no replay)."""
    for op, make in _INPUTS.items():
        if op not in counts:
            continue
        rng = random.Random(f"{seed}/{op}")
        for slug, args in make(rng, counts[op]):
            yield f"{op}/{slug}", op, args, None
    if rules is not None and "referee" in counts:
        rng = random.Random(f"{seed}/referee/{rules.direction}")
        for slug, (args, trace) in _referee_inputs(rng, counts["referee"], rules, counts.get("eighteen-all", 2)):
            yield f"referee/{slug}", "referee", args, trace
            # the deal of the same pack: when the implementation deals it wrong, the refereed
            # deal fails as a consequence of that, not of a rule of play
            yield f"deal/of-{slug}", "deal", {k: args[k] for k in ("pack", "dealer", "cut")}, None


# --- the reference's answers ------------------------------------------------------------------

def ask_args(op: str, args: Mapping[str, Any], rules: Rules, protocol: int = 1) -> dict[str, Any]:
    """The arguments the implementation is asked with: ``args`` plus the rules if the op takes
    them.  (The run's variant, if any, is named by the target: ``Target.with_variant``.)"""
    if op in RULED_OPS:
        return {**args, "rules": rules.to_dict()}
    return dict(args)


#: Protocol version 2's context, by operation: a case whose arguments carry it needs version 2.
VERSION_2_ARGS: Final = {"legal_plays": "trump", "deal_result": "dealer", "contest": "dealer"}


def protocol_of(op: str, args: Mapping[str, Any]) -> int:
    """The protocol version a question needs: 2 if it carries version 2's context."""
    return 2 if VERSION_2_ARGS.get(op) in args else 1


def answer(op: str, args: Mapping[str, Any], rules: Rules) -> Any:
    """The reference's answer (under a rule variant, the variant's: see :mod:`.oracle`)."""
    return getattr(reference_for(rules), op)(**ask_args(op, args, rules))


class RefereeTrace:
    """The reference refereeing a deal action by action, keeping what the kit needs in one
    pass: the expected answer (responses, trick winners, tricks, outcome) and the ``why``
    (the clauses behind each action and trick, the rules an illegal action breaks)."""

    def __init__(self, deal: Deal) -> None:
        self.deal = deal
        self.responses: list[dict] = []
        self.actions: list[list[str]] = []
        self.tricks: list[list] = []
        self.winners: list[str] = []
        self.broken: list[list[str]] = []
        self._led: Any = None  # the suit led to the current trick

    def apply(self, action: Any, card: Any = None) -> None:
        """Referee ``action``; ``card``: its card already parsed (a play the caller made)."""
        deal = self.deal
        i = len(self.responses)
        # while cards are played, the seat to act leads exactly when the trick is empty
        leading = deal.to_act is deal.leader
        led = None if leading else self._led
        try:
            done = deal.apply(action) if card is None else deal.play(deal.to_act, card)  # type: ignore[arg-type]
        except RuleError as e:
            self.responses.append({"refused": e.clause})
            self.actions.append([e.clause])
            also = rules_broken(deal, action) if isinstance(action, Mapping) else []
            self.broken.append(also if len(also) > 1 else [])
            return
        self.responses.append({"ok": True})
        self.broken.append([])
        kind = action["act"]
        if kind == "trump":
            self.actions.append(["trump.caller", "trump.any-suit"])
        elif kind == "play":
            card = card if card is not None else parse_card(action["card"])
            if leading:
                self._led = card.suit
            # accepted: of the led suit (or a lead) it followed; of another, the player was void
            clauses = ["play.turn", "play.follow-suit" if led is None or card.suit is led
                       else "play.void-any-card"]
            if leading:
                clauses.append("play.first-lead" if not self.winners else "play.winner-leads")
            self.actions.append(clauses)
            if done is not None:
                self.tricks.append([i, list(done.clauses)])
                self.winners.append(done.seat.letter)
        elif kind == "signal":
            self.actions.append(["signal.leader-only", "signal.timing", "signal.kinds"])
        else:
            self.actions.append(["sheet.any-player-closes", "result.closed-early"])

    def expected(self) -> dict:
        result = self.deal.result
        return {"responses": self.responses, "winners": list(self.winners),
                "tricks": list(self.deal.tricks_won),
                "outcome": None if result is None else ("draw" if result.winner is None else result.winner.short)}

    def why(self) -> tuple[dict, list[str]]:
        result = self.deal.result
        clauses_r = list(result.clauses) if result else []
        if result and not result.closed_early:
            clauses_r.append("play.all-tricks")
        why = {"actions": self.actions, "tricks": self.tricks, "result": clauses_r}
        if any(self.broken):
            why["broken"] = self.broken
        clauses = {c for a in self.actions for c in a} | {c for _, cs in self.tricks for c in cs} | set(clauses_r)
        clauses |= {"play.refusal-order"} if any(self.broken) else set()
        clauses |= {"table.partnerships"} if self.tricks else set()
        return why, sorted(clauses)


def _referee_why(args: Mapping[str, Any], rules: Rules) -> tuple[dict, list[str]]:
    deal = new_deal(rules, [parse_card(c) for c in args["pack"]], Seat("NESW".index(args["dealer"])),
                    args["cut"])
    trace = RefereeTrace(deal)
    for action in args["actions"]:
        trace.apply(action)
    return trace.why()


def _why(op: str, args: Mapping[str, Any], rules: Rules, expected: Any) -> tuple[dict | None, list[str]]:
    """What the judge needs to name clauses, and the clauses the case exercises."""
    if op == "trick_winner":
        from turub import parse_suit
        d = decide_trick([parse_card(c) for c in args["cards"]], parse_suit(args["trump"]), Seat.NORTH)
        clauses = list(d.clauses) + ["pack.rank-order"]
        if any("♠♥♦♣".find(c[-1]) >= 0 for c in args["cards"]):
            clauses.append("pack.card-notation")
        return None, sorted(clauses)
    if op == "legal_plays":
        hand = [parse_card(c) for c in args["hand"]]
        led = parse_card(args["trick"][0]).suit if args["trick"] else None
        if led is None:
            clauses = ["play.follow-suit"]
        elif any(c.suit is led for c in hand):
            clauses = ["play.follow-suit"]
        else:
            clauses = ["play.void-any-card", "play.no-forced-trump"]
        if any("♠♥♦♣".find(c[-1]) >= 0 for c in args["hand"] + args["trick"]):
            clauses.append("pack.card-notation")
        return None, sorted(clauses)
    if op == "referee":
        return _referee_why(args, rules)
    if op == "deal_result":
        if "refused" in expected:
            return None, [expected["refused"]]
        r = deal_result(args["ns"], args["ew"], closed_early=args["closed_early"])
        return None, sorted(set(r.clauses) | {"result.tricks-add-up"})
    if op == "first_dealer":
        if "refused" in expected:
            return None, [expected["refused"], "dealer.first-draw"]
        return None, ["dealer.first-draw", "dealer.first-draw-ties", "pack.suits-equal"] if len(
            args["rounds"]) > 1 else ["dealer.first-draw"]
    if op == "next_dealer":
        from turub import next_dealer, parse_seat
        from ..adapter import _winner_of
        nd = next_dealer(parse_seat(args["dealer"]), _winner_of(args["outcome"]), rules)
        return None, list(nd.clauses)
    if op == "contest":
        c = Contest()
        steps: list[list[str]] = []
        for ns, ew, closed in args["results"]:
            try:
                result = deal_result(ns, ew, closed_early=closed, rules=getattr(rules, "rules", rules))
            except RuleError as e:
                steps.append([e.clause])
                continue
            fresh = ["contest.decided-is-final"] if c.is_decided else []
            c = (Contest() if c.is_decided else c).record(result, rules)
            steps.append(list(c.clauses) + fresh)
        return {"steps": steps}, sorted({x for s in steps for x in s})
    if op == "check_packets":
        return None, ["deal.dealer-check"] + ([] if expected["stands"] else ["deal.redeal"])
    return None, sorted(OPERATIONS[op])


def expected_case(case_id: str, op: str, args: Mapping[str, Any], rules: Rules,
                  rules_tag: Any = None, trace: RefereeTrace | None = None) -> Case:
    """The case ``case_id`` with the reference's answer under ``rules`` (for a refereed deal
    already played by the reference, its ``trace`` gives the answer without a replay)."""
    if trace is not None:
        expected = trace.expected()
        why, clauses = trace.why()
    else:
        expected = answer(op, args, rules)
        why, clauses = _why(op, args, rules, expected)  # type: ignore[assignment]
    case: Case = {"id": case_id, "op": op, "args": dict(args),
                  "rules": rules.to_dict() if rules_tag is None else rules_tag,
                  "clauses": clauses, "expected": expected}
    if protocol_of(op, args) > 1:
        case["protocol"] = protocol_of(op, args)
    if why is not None:
        case["why"] = why
    decided = variant_decisions(op, args, rules)  # where a variant's own clause decided
    if decided:
        case["variant"] = rules.name  # type: ignore[attr-defined]
        case.setdefault("why", {})["variant"] = decided
        case["clauses"] = sorted(set(case["clauses"]) | set(decided.values()))
    return case


# --- the committed vectors and the generated cases --------------------------------------------

VECTOR_SEED: Final = 20240501


def _stream_key(rules: Rules) -> tuple[str, ...]:
    """What the refereed streams played under ``rules`` depend on: the direction of play,
    and which signal kinds the slipped-in illegal signals use."""
    return (str(rules.direction), "documented" if rules.signal_kinds == "documented" else "any")


def build_vectors(sets: Mapping[str, Rules] = OPTION_SETS, seed: int = VECTOR_SEED,
                  counts: Mapping[str, int] = VECTOR_COUNTS) -> dict[str, list[Case]]:
    """The vectors: for each option set, every case that holds under it.

    An input's case is tagged ``"rules": "any"`` when all sets give the same answer.  A
    referee stream played under one set is kept for each set that answers it as that set
    does.  A case whose answer depends on an option also cites that option's clause.
    """
    out: dict[str, list[Case]] = {name: [] for name in sets}
    plain = [x for x in inputs(seed, {k: v for k, v in counts.items() if k != "referee"})]
    streams: list[tuple[str, str, dict, str]] = []
    seen_streams: dict[tuple[str, ...], str] = {}
    for name, rules in sets.items():
        key = _stream_key(rules)
        if key in seen_streams:
            continue
        seen_streams[key] = name
        only_signals = key[1] != "any" and (key[0], "any") in seen_streams
        suffix = "".join("-" + k for k, default in zip(key, _stream_key(Rules())) if k != default)
        for case_id, op, args in inputs(seed, {"referee": counts.get("referee", 0),
                                               "eighteen-all": counts.get("eighteen-all", 2)}, rules):
            if only_signals and not (
                    op == "referee" and any(w in case_id for w in ("signal", "kinds"))):
                continue  # only the signal kinds differ: only the streams whose signals are in question
            streams.append((case_id + suffix, op, args, name))
    standard = next(iter(sets.values()))
    for case_id, op, args, *origin in [(*x,) for x in plain] + streams:
        answers = {name: answer(op, args, rules) for name, rules in sets.items()}
        first = next(iter(answers.values()))
        if all(a == first for a in answers.values()):
            for name, rules in sets.items():
                out[name].append(expected_case(case_id, op, args, rules, "any"))
            continue
        extra = set()
        base = answers[next(iter(sets))]
        for name, rules in sets.items():
            if answers[name] != base:
                extra |= {_OPTION_CLAUSE[k] for k in rules.differences(standard)}
        home = origin[0] if origin else None
        for name, rules in sets.items():
            # a set with streams of its own keeps only the others' streams it answers alike
            own_streams = home is not None and _stream_key(rules) != _stream_key(sets[home])
            if own_streams and answers[name] != answers[home]:  # type: ignore[index]
                continue
            case = expected_case(case_id, op, args, rules)
            case["clauses"] = sorted(set(case["clauses"]) | extra)
            out[name].append(case)
    return out


#: How many cases of each operation ``turub check --seed`` generates by default.
GENERATED_COUNTS: Final = {"eighteen-all": 2, "trick_winner": 300, "legal_plays": 200, "deal": 8, "check_packets": 30,
                           "deal_result": 0, "next_dealer": 0, "first_dealer": 60, "contest": 150,
                           "referee": 40}


def generated_counts(scale: float) -> dict[str, int]:
    """How many inputs of each operation ``scale`` asks for."""
    return {op: max(1, int(n * scale)) if n else 0 for op, n in GENERATED_COUNTS.items()}


def iter_generated_cases(seed: int, rules: Rules, scale: float = 1.0) -> Iterator[Case]:
    """Cases generated from ``seed`` under ``rules``, answered by the reference one at a time."""
    for case_id, op, args, trace in _traced_inputs(seed, generated_counts(scale), rules):
        if "/worked-" in case_id or op in ("deal_result", "next_dealer"):
            continue  # the worked and exhaustive cases are in the vectors already
        yield expected_case(f"generated/{seed}/{case_id}", op, args, rules, trace=trace)


def generated_cases(seed: int, rules: Rules, scale: float = 1.0) -> list[Case]:
    """Cases generated from ``seed`` under ``rules``, answered by the reference now."""
    return list(iter_generated_cases(seed, rules, scale))
