"""Benchmark: the checked card-by-card public API against a naive unvalidated loop, alternating.

Three loops over the same number of random deals, each a block of ``--deals`` deals timed by
CPU time (``time.process_time``), the blocks alternating naive / three calls / one call for
``--rounds`` rounds in one process, so a busy machine weighs on all three alike; the figure
per loop is the median block:

* ``naive``: ``naive_deals.py`` (plain tuples, nothing validated, the yardstick);
* ``three calls``: the public API written the obvious way: ``Deal.from_seed``, ``name_trump``,
  then per card ``legal_plays()``, ``to_act`` and ``play()``, every play checked;
* ``one call``: the same, one checked call a card: ``legal = deal.play_turn(card)`` gives
  the next seat's legal plays.

Printed: µs per deal and per card, and each loop's speed as a multiple of the naive loop's
(naive time / its time: above 1 means faster than the naive loop); the engine's part is
split into the set-up of a deal (``from_seed`` + ``name_trump`` + the first ``legal_plays``)
and the cards.

    .venv/bin/python benchmarks/bench_card_by_card.py [--deals 300] [--rounds 7]

Measured on the 2-core shared machine, busy (CPython 3.11.7), with
``nice .venv/bin/python benchmarks/bench_card_by_card.py``:
before #33 (commit e445993, no ``play_turn``): three calls 0.71× the naive loop's speed
(231 µs a deal against 163 µs);
after: see the report of #33 and the figures this prints.
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


LOOPS = {"naive": naive, "set-up": set_up, "three calls": three_calls, "one call": one_call}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300, help="deals per block (default: 300)")
    parser.add_argument("--rounds", type=int, default=7, help="blocks of each loop (default: 7)")
    args = parser.parse_args()
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
        speed = "" if name == "set-up" else f", {base / t:4.2f}× the naive loop's speed"
        print(f"  {name:<12} {t * 1e6:7.1f} µs a deal, {t / CARDS_PER_DEAL * 1e6:5.2f} µs a card{speed}")
    for name in ("three calls", "one call"):
        cards = median[name] - median["set-up"]
        print(f"  {name}: set-up {median['set-up'] * 1e6:.1f} µs + cards {cards * 1e6:.1f} µs "
              f"({cards / CARDS_PER_DEAL * 1e6:.2f} µs a card)")


if __name__ == "__main__":
    main()
