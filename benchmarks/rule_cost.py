"""Where a house rule's time goes, in one process: the standard random deal, the same deals
under the variant (its tally on, as ``turub simulate`` plays them), and the rule's own time
(its calls recorded on those deals, then replayed without the engine).  What is left is the
engine's: building what the rule is given, asking it, checking and counting its answer.

Used by ``bench_variant_simulate.py`` after its process timings; CPU time, the best of
``rounds`` rounds taken alternately, so load affects every side alike.
"""

from __future__ import annotations

import random
import time
from typing import Any

from turub import Seat
from turub.variants import BUILTIN, Variant, VariantClause


def _deals(variant: Any, deals: int, seed: int) -> float:
    rng = random.Random(seed)
    started = time.process_time()
    for i in range(deals):
        variant.play_random_deal(Seat(i % 4), rng)
    return time.process_time() - started


def _recorded_calls(clause: VariantClause, deals: int, seed: int) -> list[tuple]:
    calls: list[tuple] = []
    rule = clause.rule
    assert rule is not None

    def recording(*args):
        calls.append(args)
        return rule(*args)
    copy = Variant("bench-recording", clauses=[VariantClause(
        "bench.recording", "records", decides=clause.decides, rule=recording,
        applies_to=clause.applies_to)])
    _deals(copy, deals, seed)
    return calls


def _replayed(rule: Any, calls: list[tuple]) -> float:
    started = time.process_time()
    for args in calls:
        rule(*args)
    return time.process_time() - started


def rule_cost(variant: Variant, deals: int = 100, seed: int = 1, rounds: int = 15) -> dict[str, float]:
    """Per deal, in microseconds: ``standard`` (the standard engine's random deal),
    ``variant`` (the same deals under ``variant``), ``own`` (its one house rule's own time),
    ``engine`` (the rest of the difference) and ``calls`` (the rule's calls per deal).  Each
    figure is the best of ``rounds`` short rounds: on a shared machine the shortest round is
    the one least disturbed."""
    (clause,) = [c for c in variant.all_clauses if c.rule is not None]
    calls = _recorded_calls(clause, deals, seed)
    best = {"standard": float("inf"), "variant": float("inf"), "own": float("inf")}
    for _ in range(rounds):
        best["standard"] = min(best["standard"], _deals(BUILTIN["standard"], deals, seed))
        variant.tally()
        try:
            best["variant"] = min(best["variant"], _deals(variant, deals, seed))
        finally:
            variant.stop_tally()
        best["own"] = min(best["own"], _replayed(clause.rule, calls))
    out = {k: v / deals * 1e6 for k, v in best.items()}
    out["engine"] = out["variant"] - out["standard"] - out["own"]
    out["calls"] = len(calls) / deals
    return out


def cost_line(name: str, cost: dict[str, float]) -> str:
    """The breakdown in one line."""
    return (f"{name}, per deal in one process: standard {cost['standard']:.0f} µs; with the rule "
            f"{cost['variant']:.0f} µs ({cost['variant'] / cost['standard']:.2f}x) = standard + the "
            f"rule's own {cost['own']:.0f} µs ({cost['calls']:.0f} calls, "
            f"{cost['own'] / max(cost['calls'], 1) * 1000:.0f} ns each) + the engine's "
            f"{cost['engine']:.0f} µs ({cost['engine'] / max(cost['calls'], 1) * 1000:.0f} ns a call)")
