"""The seeded inputs of each operation: the arguments the kit asks about, before any answer.

One generator per operation (trick winners, legal plays, deals, packets, results, dealers,
contests) yields ``(slug, args)`` from a seeded :class:`random.Random`; the referee's streams
come from :mod:`.streams`.  :func:`inputs` names them ``op/slug``.  Arguments never include
the rules (see :func:`~turub.conformance.questions.cases.ask_args`).  Split out of
:mod:`~turub.conformance.questions.cases`, which re-exports these names.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Final

from turub import CARDS, Deal, Rules, parse_card
from turub.cards import card_name

from ..operations import REGISTRY, operation_part
from .streams import SEATS, SUITS, RefereeTrace, as_text, referee_inputs

__all__ = ["VECTOR_COUNTS", "inputs"]


def _u(card) -> str:
    return card_name(card)



# --- input generators --------------------------------------------------------------------
# Each yields (slug, args).  Arguments never include the rules: see ask_args.

def _pool(rng: random.Random, size: int) -> list:
    """A tiny pool of distinct cards, so that copies of one card meet often."""
    return rng.sample(CARDS, size)


@operation_part("trick_winner", "inputs")
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
        text = [(_u if rng.random() < 0.1 else as_text)(c) for c in cards]
        yield f"r{i:03d}", {"cards": text, "trump": rng.choice(SUITS)}


@operation_part("legal_plays", "inputs")
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
        form = _u if rng.random() < 0.1 else as_text
        args = {"hand": [form(c) for c in hand], "trick": [form(c) for c in trick]}
        if i % 3 == 0:  # protocol version 2, a trump the hand holds more often than not
            args["trump"] = SUITS[rng.choice(suits) if rng.random() < 0.7 else rng.randrange(4)]  # type: ignore[assignment]
        yield f"r{i:03d}", args


def _seeded_pack(rng: random.Random) -> tuple[list[str], int]:
    d = Deal.from_seed(rng.getrandbits(32))
    return [as_text(c) for c in d.pack], d.cut


@operation_part("deal", "inputs")
def _deal_inputs(rng: random.Random, n: int) -> Iterator[tuple[str, dict]]:
    from turub import PACK
    yield "worked-unshuffled-north", {"pack": [as_text(c) for c in PACK], "dealer": "N", "cut": 0}
    yield "worked-unshuffled-cut-5", {"pack": [as_text(c) for c in PACK], "dealer": "W", "cut": 5}
    for i in range(n):
        pack, cut = _seeded_pack(rng)
        yield f"r{i:03d}", {"pack": pack, "dealer": SEATS[i % 4], "cut": cut}


def _packets_as_dealt(rng: random.Random, dealer: str, misdeal: float) -> list[list]:
    """Packets as a person deals them: mostly three, sometimes two or four, until 144."""
    order = [SEATS[(SEATS.index(dealer) + k) % 4] for k in range(1, 5)]
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


@operation_part("check_packets", "inputs")
def _check_packets_inputs(rng: random.Random, n: int) -> Iterator[tuple[str, dict]]:
    yield "worked-clean-deal", {"packets": _packets_as_dealt(rng, "N", 0.0), "dealer": "N"}
    short = _packets_as_dealt(random.Random(3), "E", 0.0)
    short[-1][1] = 2
    yield "worked-dealer-last-packet-short", {"packets": short, "dealer": "E"}
    yield "worked-dealer-got-nothing", {"packets": [["E", 3], ["S", 3], ["W", 3]], "dealer": "N"}
    # every kind of fault, each leaving the dealer's last packet at three (deal.dealer-check
    # judges every packet), under each dealer
    for dealer in SEATS:
        for fault, packets in _packet_faults(dealer).items():
            yield f"fault-{fault}-{dealer}", {"packets": packets, "dealer": dealer}
    for i in range(n):
        dealer = rng.choice(SEATS)
        yield f"r{i:03d}", {"packets": _packets_as_dealt(rng, dealer, rng.choice((0.0, 0.02, 0.1))),
                            "dealer": dealer}


@operation_part("deal_result", "inputs")
def _deal_result_inputs(rng: random.Random, n: int) -> Iterator[tuple[str, dict]]:
    for ns, ew, closed in [(18, 18, False), (19, 17, False), (17, 19, False), (36, 0, False),
                           (0, 36, False), (10, 5, True), (0, 0, True), (30, 5, True),
                           (20, 20, False), (10, 10, False), (18, 18, True), (-1, 37, False),
                           (35, 0, False), (20, 16, True)]:
        yield f"t{ns}-{ew}-{'closed' if closed else 'played'}", {
            "ns": ns, "ew": ew, "closed_early": closed}
    # protocol version 2: the dealer is given, so an 18-18 given to the dealer's side shows
    for dealer in SEATS:
        for ns, ew, closed in [(18, 18, False), (19, 17, False), (17, 19, False), (12, 12, True),
                               (20, 10, True)]:
            yield f"v2-dealer-{dealer}-t{ns}-{ew}-{'closed' if closed else 'played'}", {
                "ns": ns, "ew": ew, "closed_early": closed, "dealer": dealer}


@operation_part("next_dealer", "inputs")
def _next_dealer_inputs(rng: random.Random, n: int) -> Iterator[tuple[str, dict]]:
    for dealer in SEATS:
        for outcome in ("NS", "EW", "draw"):
            yield f"{dealer}-{outcome}", {"dealer": dealer, "outcome": outcome}


@operation_part("first_dealer", "inputs")
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
        contenders = list(SEATS)
        rounds = []
        for _ in range(rng.randint(1, 4)):
            r = {s: as_text(rng.choice(ranks)) for s in contenders}
            rounds.append(r)
            top = max(parse_card(c).rank for c in r.values())
            contenders = [s for s in contenders if parse_card(r[s]).rank == top]
            if len(contenders) == 1 and rng.random() < 0.7:
                break
        if rng.random() < 0.1 and len(rounds) > 1:  # a redraw shown to the wrong players
            rounds[-1] = {s: as_text(rng.choice(ranks)) for s in SEATS}
        yield f"r{i:03d}", {"rounds": rounds}


@operation_part("contest", "inputs")
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
                                            "dealer": SEATS[k]}
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
            args["dealer"] = rng.choice(SEATS)  # type: ignore[arg-type]
        yield f"r{i:03d}", args


#: How many seeded cases of each operation the committed vectors hold (besides worked ones:
#: each record's ``vectors``), and how many of the refereed streams end in an eighteen-all draw.
VECTOR_COUNTS: Final = {"eighteen-all": 20, **{n: r.vectors for n, r in REGISTRY.items()}}


def inputs(seed: int, counts: Mapping[str, int], rules: Rules | None = None
           ) -> Iterator[tuple[str, str, dict]]:
    """``(id, op, args)`` of the seeded inputs.  Streams for the referee are played under
    ``rules`` (skipped when ``rules`` is None)."""
    for case_id, op, args, _ in traced_inputs(seed, counts, rules):
        yield case_id, op, args


def traced_inputs(seed: int, counts: Mapping[str, int], rules: Rules | None = None
                   ) -> Iterator[tuple[str, str, dict, RefereeTrace | None]]:
    """:func:`inputs`, each refereed stream with the reference's trace of its play (so its
    expected answer needs no replay)."""
    for op, record in REGISTRY.items():
        if op not in counts or record.drawn_under_rules:
            continue
        make = record.part("inputs")
        rng = random.Random(f"{seed}/{op}")
        for slug, args in make(rng, counts[op]):
            yield f"{op}/{slug}", op, args, None
    if rules is None:
        return  # no rules to play the streams under
    for op in [n for n, r in REGISTRY.items() if r.drawn_under_rules and n in counts]:
        rng = random.Random(f"{seed}/{op}/{rules.direction}")
        for slug, (args, trace) in referee_inputs(rng, counts[op], rules, counts.get("eighteen-all", 2)):
            yield f"{op}/{slug}", op, args, trace
            # the deal of the same pack: when the implementation deals it wrong, the refereed
            # deal fails as a consequence of that, not of a rule of play
            yield f"deal/of-{slug}", "deal", {k: args[k] for k in ("pack", "dealer", "cut")}, None
