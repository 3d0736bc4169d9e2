"""The yardstick: random deals played by a naive loop over plain tuples that validates nothing.

Each deal: a ``(suit, rank)`` tuple per card, the 144 shuffled with ``random.shuffle`` and dealt
in four slices, a random trump and leader, then 36 tricks where each seat plays
``random.choice`` of its cards of the led suit (or of its hand when void), the trick going to
the highest trump, else the highest card of the led suit.  No turn, card-held or follow-suit
check, no records, no clauses: the least a program must do to play a random legal deal in
Python.  The engine's figures are quoted as ratios to this loop, measured side by side
(``bench_engine.py`` in one process, ``bench_simulate.py`` as whole processes).

    .venv/bin/python benchmarks/naive_deals.py [--deals 4000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random


def naive_deals(n: int, seed: int = 1) -> list[int]:
    """Play ``n`` deals; returns [North-South wins, East-West wins, draws] (to keep the work)."""
    rng = random.Random(seed)
    pack = [(suit, rank) for suit in range(4) for rank in range(6, 15)] * 4
    outcomes = [0, 0, 0]
    for _ in range(n):
        cards = pack[:]
        rng.shuffle(cards)
        hands = [cards[i::4] for i in range(4)]
        trump = rng.randrange(4)
        leader = rng.randrange(4)
        won = [0, 0]
        for _trick in range(36):
            seat = leader
            trick = []
            for _k in range(4):
                hand = hands[seat]
                if trick:
                    led = trick[0][1][0]
                    choices = [c for c in hand if c[0] == led] or hand
                else:
                    choices = hand
                card = rng.choice(choices)
                hand.remove(card)
                trick.append((seat, card))
                seat = (seat + 1) % 4
            best = trick[0]
            for played in trick[1:]:
                card, top = played[1], best[1]
                if (card[0] == top[0] and card[1] > top[1]) or (card[0] == trump and top[0] != trump):
                    best = played
            leader = best[0]
            won[leader % 2] += 1
        outcomes[0 if won[0] > 18 else 1 if won[1] > 18 else 2] += 1
    return outcomes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ns, ew, draws = naive_deals(args.deals, args.seed)
    print(f"{args.deals} deals: North-South {ns}, East-West {ew}, draws {draws}")


if __name__ == "__main__":
    main()
