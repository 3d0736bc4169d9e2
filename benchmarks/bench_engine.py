"""Benchmark: complete random legal deals through the deal state machine, every play validated.

Each deal is shuffled and cut from its own seed, the caller names a suit, and each of the 144
plays goes through ``Deal.play`` (turn, card held, follow suit) with a card drawn at random from
``Deal.legal_plays``.  One process, one core.  Prints deals per second and microseconds per card.

    .venv/bin/python benchmarks/bench_engine.py [--deals 3000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import random
import time

from turub import SUITS, Deal, Phase


def play_deals(n: int, seed: int) -> int:
    """Play ``n`` whole deals; returns the number of cards played (to keep the work honest)."""
    played = 0
    finished = Phase.FINISHED
    for i in range(n):
        rng = random.Random(seed + i)
        pick = rng.random
        deal = Deal.from_seed(seed + i)
        deal.name_trump(deal.caller, SUITS[int(pick() * 4)])
        play, legal_plays = deal.play, deal.legal_plays
        while legal := legal_plays():  # empty once the 36th trick is played
            play(deal.to_act, legal[int(pick() * len(legal))])
            played += 1
        assert deal.phase is finished
    return played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    best = float("inf")
    for r in range(args.repeat):
        start = time.perf_counter()
        cards = play_deals(args.deals, seed=1000 * r)
        best = min(best, time.perf_counter() - start)
        assert cards == 144 * args.deals
    print(f"{args.deals / best:,.0f} deals/s, {best / (144 * args.deals) * 1e6:.2f} µs per card "
          f"(best of {args.repeat} runs of {args.deals} deals)")


if __name__ == "__main__":
    main()
