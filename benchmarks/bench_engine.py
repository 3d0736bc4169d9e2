"""Benchmark: random legal deals through the engine, side by side with a naive loop (pyperf).

Three timings in one pyperf run (the same worker processes, interleaved), each per deal of
144 cards:

* ``naive``: ``naive_deals.py``, plain tuples, nothing validated (the yardstick);
* ``engine-playout``: ``turub.play_random_deal(rng=rng)``, the one-call random playout that
  ``turub simulate`` runs, every deal from one random source (as the naive loop): shuffle,
  cut, deal, trump call, 36 tricks, the result;
* ``engine-per-card``: the same deals card by card through the public API, three calls a
  card (``legal_plays``, ``to_act``, ``play``), ``play`` checking the turn, the card held and
  the suit before it changes anything.

Each timing is the worker process's CPU time (``time.process_time``), which a busy machine
disturbs far less than wall time.  The ratios (naive time / engine time: above 1 means the
engine is faster) hold from machine to machine far better than the absolute figures, which
are printed too.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_engine.py [pyperf options, e.g. --fast or --rigorous]
"""

from __future__ import annotations

import platform
import sys
import time
from pathlib import Path

import pyperf

sys.path.insert(0, str(Path(__file__).parent))
from naive_deals import naive_deals  # noqa: E402

from turub import SUITS, Deal, Phase, play_random_deal  # noqa: E402

CARDS_PER_DEAL = 144


def time_naive(loops: int) -> float:
    start = time.process_time()
    naive_deals(loops, seed=loops)
    return time.process_time() - start


def time_playout(loops: int) -> float:
    import random
    rng = random.Random(loops)
    start = time.process_time()
    for _ in range(loops):
        deal = play_random_deal(rng=rng)
    elapsed = time.process_time() - start
    assert deal.phase is Phase.FINISHED and sum(deal.result.tricks) == 36
    return elapsed


def time_per_card(loops: int) -> float:
    import random
    start = time.process_time()
    for seed in range(loops):
        rng = random.Random(seed)
        pick = rng.random
        deal = Deal.from_seed(seed)
        deal.name_trump(deal.caller, SUITS[int(pick() * 4)])
        play, legal_plays = deal.play, deal.legal_plays
        while legal := legal_plays():  # empty once the 36th trick is played
            play(deal.to_act, legal[int(pick() * len(legal))])
    elapsed = time.process_time() - start
    assert deal.phase is Phase.FINISHED
    return elapsed


def main() -> None:
    runner = pyperf.Runner(processes=6, values=3, warmups=1)
    runner.metadata["description"] = "random legal deals: engine against a naive loop"
    naive = runner.bench_time_func("naive", time_naive)
    playout = runner.bench_time_func("engine-playout", time_playout)
    per_card = runner.bench_time_func("engine-per-card", time_per_card)
    if naive is None or playout is None or per_card is None:  # a worker process
        return
    base = naive.median()
    print(f"\nmachine: {platform.processor() or platform.machine()}, "
          f"{platform.python_implementation()} {platform.python_version()}")
    for bench in (naive, playout, per_card):
        t = bench.median()
        print(f"{bench.get_name():<16} {t * 1e6:8.1f} µs per deal, {t / CARDS_PER_DEAL * 1e6:5.2f} µs "
              f"per card, {1 / t:7,.0f} deals/s, {base / t:4.2f}× the naive loop")


if __name__ == "__main__":
    main()
