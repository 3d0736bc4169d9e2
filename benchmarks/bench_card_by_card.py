"""Benchmark: the checked card-by-card public API against a naive unvalidated loop, alternating.

Three loops over the same number of random deals, each a block of ``--deals`` deals timed by
CPU time (``time.process_time``), the blocks alternating naive / three calls / one call for
``--rounds`` rounds in one process, so a busy machine weighs on all three alike; the figure
per loop is the median block:

* ``naive``: ``naive_deals.py`` (plain tuples, nothing validated, the yardstick);
* ``three calls``: the public API written the obvious way: ``Deal.from_seed``, ``name_trump``,
  then per card ``legal_plays()``, ``to_act`` and ``play()``, every play checked;
* ``one call``: the same, one checked call a card: ``legal = deal.play_turn(card)`` gives
  the next seat's legal plays;
* ``floor 3 calls``, ``floor 1 call``: the two loops' own work against an engine that costs
  nothing (:class:`Idle`).

Printed: µs per deal and per card, and each loop's speed as a multiple of the naive loop's
(naive time / its time: above 1 means faster than the naive loop); the engine's part is
split into the set-up of a deal (``from_seed`` + ``name_trump`` + the first ``legal_plays``)
and the cards.

    .venv/bin/python benchmarks/bench_card_by_card.py [--deals 300] [--rounds 7]

Measured on the 2-core shared machine, busy (CPython 3.11.7), the engine before and after
#33 run as interleaved processes (before: ``git worktree add /tmp/old e445993``, then
``ln -s /tmp/old/reference /tmp/oldpkg/turub`` and ``PYTHONPATH=/tmp/oldpkg`` in front of the
same command), ``nice .venv/bin/python benchmarks/bench_card_by_card.py --rounds 5``, twice each:

=============  ===================  ===================
per deal       before (e445993)     after
=============  ===================  ===================
naive loop     160-162 µs           161-163 µs
set-up         75 µs                53 µs
three calls    223-226 µs (0.71×)   200-201 µs (0.81×)
one call       (none)               166-167 µs (0.97-0.98×)
=============  ===================  ===================

The cards of the one-call loop cost 0.79 µs each against 1.03 µs through three calls.

Then the hands kept as per-code copies and per-suit masks, legal plays looked up by mask, and
a trick's decision shared (430b9d8), against 9299831, the same way, the machine busier (naive
loop 350-420 µs a deal): three calls 0.74×, 0.83× (before 0.71×, 0.72×), one call 0.99×,
1.15× (before 0.91×, 0.94×).  The ``floor`` loops run the same per-card calls against a
stand-in that does nothing (:class:`Idle`): 57-65 µs a deal, about 0.4 µs a card, the loops'
own share; with the set-up, no engine behind these calls exceeds about 2.3×.

Then (dc10ebe) one checked hand per seat, read by plain numbers (it knows its seat and the
seat after it), the seat to act's hand and legal plays kept, the trick's winner kept as it is
played, a card argument read by one dict look-up, ``to_act`` read in C; against c8d5e86, the
same way (naive loop 154-156 µs a deal, load average 6-8): three calls 1.03×, 0.98× (before
0.89×, 0.87×), one call 1.37×, 1.32× (before 1.21×, 1.16×).  Counted in instructions, free
of load (``--only LOOP`` runs one loop once; per deal, 300 deals less none, over 300)::

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        .venv/bin/python benchmarks/bench_card_by_card.py --only 'one call' --deals 300

naive 2.03 M a deal; three calls 1.86 M (1.09×; before 2.07 M, 0.98×); one call 1.49 M
(1.36×; before 1.66 M, 1.22×); set-up 0.60 M, of which the seed's two ``random.Random`` and
its shuffle are about 0.28 M.

Then (508a2bc) the seed's pack sorted through floats that hold each key's top 40 bits and the
card's code (:func:`turub.playout.keyed_pack`: the integer sort's order whenever no two keys
share their top 40 bits, which the sorted floats show, else the integer sort), the checked
hands counted seat by seat from the stock's packets, ``play_turn``'s lead and follow paths
apart, a completed trick's list kept as its codes, the trump's tables read in one look-up;
against 7d697b9 (the engine of dc10ebe), counted in instructions as above with
``PYTHONHASHSEED=0`` in front (a fixed hash seed: the counts repeat exactly; without it they
move by about 1 k a deal): naive 2.03 M a deal; one call 1.34 M, 1.52× (before 1.48 M,
1.37×); three calls 1.73 M, 1.18× (before 1.86 M, 1.10×); set-up 0.50 M (before 0.60 M); the
floor loops 0.36 M (one call) and 0.42 M (three calls).  Per card, less the set-up and the
loop's own work (the floor less its ``random.Random``, 0.04 M), ``play_turn`` costs 3.6 k
instructions (before 3.9 k), the three calls 5.9 k.  CPU time, the machine busy (load average
12-15; the figures move by several per cent from run to run), ``nice .venv/bin/python
benchmarks/bench_card_by_card.py --rounds 5`` three times: one call 1.49×, 1.50×, 1.52×
(106-112 µs a deal against the naive loop's 161-168); three calls 1.09-1.14×; set-up 36-38 µs;
before, once in between (``PYTHONPATH`` to a copy of 7d697b9's ``reference/`` named
``turub``): one call 1.38×, three calls 1.07×, set-up 46 µs.  Three calls cannot reach 1.5×
this way: with this set-up and the loop's own 0.42 M, 1.5× (1.36 M a deal) leaves each card
about 3.3 k instructions for ``legal_plays()``, ``to_act`` and ``play()`` together, less than
``play_turn`` alone costs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from naive_deals import naive_deals  # noqa: E402

from turub import SUITS, Deal, Phase  # noqa: E402

CARDS_PER_DEAL = 144


def naive(n: int) -> None:
    naive_deals(n, seed=n)


def set_up(n: int) -> None:
    """The deals' set-up only: shuffled, trump named, the first legal plays asked."""
    for seed in range(n):
        pick = random.Random(seed).random
        deal = Deal.from_seed(seed)
        deal.name_trump(deal.caller, SUITS[int(pick() * 4)])
        deal.legal_plays()


def three_calls(n: int) -> None:
    for seed in range(n):
        pick = random.Random(seed).random
        deal = Deal.from_seed(seed)
        deal.name_trump(deal.caller, SUITS[int(pick() * 4)])
        while legal := deal.legal_plays():  # empty once the 36th trick is played
            deal.play(deal.to_act, legal[int(pick() * len(legal))])
    assert deal.phase is Phase.FINISHED


def one_call(n: int) -> None:
    for seed in range(n):
        pick = random.Random(seed).random
        deal = Deal.from_seed(seed)
        deal.name_trump(deal.caller, SUITS[int(pick() * 4)])
        legal = deal.legal_plays()
        while legal:  # empty once the 36th trick is played
            legal = deal.play_turn(legal[int(pick() * len(legal))])
    assert deal.phase is Phase.FINISHED


class Idle:
    """A stand-in for the deal that checks, decides and changes nothing: 144 cards of the
    same legal plays, then none.  The floor loops run the two loops' own per-card work (the
    random pick, the method calls) against it: what the cards cost through these calls with
    an engine that costs nothing."""

    __slots__ = ("to_act", "_legal", "_left")

    def __init__(self, legal: tuple) -> None:
        self.to_act = 0
        self._legal = legal
        self._left = CARDS_PER_DEAL

    def legal_plays(self) -> tuple:
        return self._legal if self._left else ()

    def play(self, seat: int, card: object) -> None:
        self._left -= 1

    def play_turn(self, card: object) -> tuple:
        self._left -= 1
        return self._legal if self._left else ()


LEGAL = tuple(range(5))  # about the mean number of legal plays


def floor_three_calls(n: int) -> None:
    for seed in range(n):
        pick = random.Random(seed).random
        deal = Idle(LEGAL)
        while legal := deal.legal_plays():
            deal.play(deal.to_act, legal[int(pick() * len(legal))])


def floor_one_call(n: int) -> None:
    for seed in range(n):
        pick = random.Random(seed).random
        deal = Idle(LEGAL)
        legal = deal.legal_plays()
        while legal:
            legal = deal.play_turn(legal[int(pick() * len(legal))])


LOOPS = {"naive": naive, "set-up": set_up, "three calls": three_calls, "one call": one_call,
         "floor 3 calls": floor_three_calls, "floor 1 call": floor_one_call}
if not hasattr(Deal, "play_turn"):  # an engine from before #33 (to compare against it)
    del LOOPS["one call"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals per block (default: 300)")
    parser.add_argument("--rounds", type=int, default=7, help="blocks of each loop (default: 7)")
    parser.add_argument("--only", choices=LOOPS, help="run this loop once over --deals deals and print "
                        "nothing (to count its instructions: see the module documentation)")
    args = parser.parse_args()
    if args.only:
        LOOPS[args.only](args.deals)
        return
    times: dict[str, list[float]] = {name: [] for name in LOOPS}
    for _ in range(args.rounds):
        for name, loop in LOOPS.items():
            start = time.process_time()
            loop(args.deals)
            times[name].append((time.process_time() - start) / args.deals)
    median = {name: statistics.median(values) for name, values in times.items()}
    base = median["naive"]
    print(f"{args.rounds} alternating rounds of {args.deals} deals, CPU time, median per deal:")
    for name, t in median.items():
        speed = "" if name == "set-up" or name.startswith("floor") else f", {base / t:4.2f}× the naive loop's speed"
        print(f"  {name:<12} {t * 1e6:7.1f} µs a deal, {t / CARDS_PER_DEAL * 1e6:5.2f} µs a card{speed}")
    for name in ("three calls", "one call"):
        if name not in median:
            continue
        cards = median[name] - median["set-up"]
        print(f"  {name}: set-up {median['set-up'] * 1e6:.1f} µs + cards {cards * 1e6:.1f} µs "
              f"({cards / CARDS_PER_DEAL * 1e6:.2f} µs a card)")
        floor = median[{"three calls": "floor 3 calls", "one call": "floor 1 call"}[name]]
        print(f"    the loop's own work (an engine that costs nothing): {floor * 1e6:.1f} µs a deal; "
              f"at best, with this set-up, {base / (median['set-up'] + floor):4.2f}× the naive loop")


if __name__ == "__main__":
    main()
