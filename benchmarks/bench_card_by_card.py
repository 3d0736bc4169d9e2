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
if not hasattr(Deal, "play_turn"):  # an engine from before #33 (to compare against it)
    del LOOPS["one call"]


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
    for name in LOOPS.keys() - {"naive", "set-up"}:
        cards = median[name] - median["set-up"]
        print(f"  {name}: set-up {median['set-up'] * 1e6:.1f} µs + cards {cards * 1e6:.1f} µs "
              f"({cards / CARDS_PER_DEAL * 1e6:.2f} µs a card)")


if __name__ == "__main__":
    main()
