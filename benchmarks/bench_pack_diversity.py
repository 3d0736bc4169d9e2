"""How many different packs differential play draws (not a test; #24).

    .venv/bin/python benchmarks/bench_pack_diversity.py [--draws 2000] [--seeds 1 2 3]
        [--against /work/main/.venv/bin/python]

Draws ``--draws`` deals with ``deal_plans()`` exactly as differential play searches them
(the same settings: one Hypothesis seed, generation and mutation, no database) and counts the
distinct packs (a pack and its cut both come from the plan's seed, so distinct seeds are
distinct (pack, cut) pairs), and the sittings drawn by ``sitting_plans()`` likewise.  With
``--against PYTHON`` the same count is made by that interpreter's installed kit too (e.g. main's
virtual environment), in one command, before and after side by side.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys


def count(draws: int, seed: int) -> dict:
    """Distinct packs among ``draws`` drawn deals and distinct sittings among as many sittings."""
    from turub.conformance.questions.differential import deal_plans, sitting_plans

    out = {}
    for name, strategy, key in (("deals", deal_plans(), lambda p: p["seed"]),
                                ("sittings", sitting_plans(), repr)):
        out[name] = _distinct(strategy, key, draws, seed)
    return out


def _distinct(strategy, key, draws: int, seed: int) -> dict:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed
    seen: list = []

    @hypothesis_seed(seed)
    @settings(max_examples=draws, database=None, deadline=None, phases=(Phase.generate,),
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def draw(plan):
        seen.append(key(plan))

    draw()
    return {"drawn": len(seen), "distinct": len(set(seen))}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--draws", type=int, default=2000)
    p.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    p.add_argument("--against", help="another interpreter with the kit installed (e.g. main's .venv/bin/python)")
    p.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one interpreter's counts
    a = p.parse_args()
    if a.json:
        print(json.dumps({s: count(a.draws, s) for s in a.seeds}))
        return
    sides = [("this", sys.executable)] + ([("against", a.against)] if a.against else [])
    print(f"{'kit':8} {'seed':>4} {'deals drawn':>11} {'distinct packs':>14} {'sittings':>8} {'distinct':>8}")
    for name, python in sides:
        cmd = [python, __file__, "--json", "--draws", str(a.draws), "--seeds", *map(str, a.seeds)]
        counts = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True,
                                           cwd="/").stdout)
        for seed, c in counts.items():
            d, s = c["deals"], c["sittings"]
            print(f"{name:8} {seed:>4} {d['drawn']:>11} {d['distinct']:>14} {s['drawn']:>8} {s['distinct']:>8}")


if __name__ == "__main__":
    main()
