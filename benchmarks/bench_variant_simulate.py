"""Benchmark (pyperf): ``turub simulate`` under variants that carry house rules, one of each
kind, against the standard game, whole processes, CPU time (issue 20: within 2x; only the
overridden decisions pay).

Each timing is the CPU time (user + system) of one child process:

* ``standard``: ``python -m turub.tools.cli simulate --deals N --seed S``;
* ``trick rule``: the same under ``tests/variants/kinds.py:club-nell`` (the nine of trumps
  wins: asked once a trick);
* ``play rule``: under ``tests/variants/club.py:club`` (a void player must trump: it says
  it applies to void plays, so it is asked at those only, about 18 a deal, deciding about
  six);
* ``play rule, asked at every play``: the same rule not saying where it applies
  (``benchmarks/house_rules.py:bench-trumps-everywhere``): asked at all 144 plays;
* ``play rule 2``: under ``benchmarks/house_rules.py:bench-heads`` (a player following suit
  must head the trick: asked at the plays following suit, about 90 a deal, deciding about
  48 of them);
* ``deferring play rule``: under ``benchmarks/house_rules.py:bench-defers`` (asked at every
  play, always deferring: the engine's cost of asking alone);
* ``deal result rule``, ``next dealer rule``, ``contest rule``: under ``kinds.py:club-closed``,
  ``kinds.py:club-passes`` and ``house_rules.py:bench-draws`` (asked once a deal);
* ``trump caller rule``: under ``kinds.py:club-partner-calls`` (asked once a deal, as it is
  dealt: every deal a house rule's deal); ``first dealer rule``: under
  ``kinds.py:club-suit-ties`` (asked after each round of the draw, once a run);
* ``signal rule``: under ``kinds.py:club-partner-signals`` (asked at the signals the random
  play gives); ``deal stands rule``: ``kinds.py:club-last-packet`` (never asked by the engine:
  its cost is loading and checking the file);
* rules that read the game (``tests/variants/seeing.py``): a legal-play rule at the leads
  (``seeing-trumps``), a deal result (``seeing-non-dealers``) and a trick rule using the
  seats (``seeing-dealers-copy``).

The figures are the ratios of the medians, variant / standard; the target is at most 2.
On a shared machine pyperf's timings of one benchmark after another meet different loads,
so the ratios are then taken again from ``--rounds`` rounds in which every command runs
once, in turn: each variant's run divided by the standard run of its round, the median of
those ratios (a change of load between rounds cancels out).
Then, for each legal-play rule, where its time goes, in one process (``rule_cost.py``): the
rule's own time against the engine's, per deal.  A rule asked at 144 plays a deal costs its
own time 144 times a deal: a rule of 0.7 µs a call costs about what a standard deal costs;
saying where it applies (``applies_to``) is how a legal-play rule pays only there.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/bench_variant_simulate.py [--deals 2000] [--seed 1] [pyperf options]
    .venv/bin/python benchmarks/bench_variant_simulate.py --paired-only all --rounds 5
"""

from __future__ import annotations

import os
import platform
import statistics
import sys
from pathlib import Path

import pyperf
from processes import child_cpu  # benchmarks/processes.py, beside this script

ROOT = Path(__file__).resolve().parent.parent
TARGET = 2.0
TESTS, HERE = ROOT / "tests" / "variants", ROOT / "benchmarks"
VARIANTS = {"trick rule": f"{TESTS / 'kinds.py'}:club-nell",
            "play rule": f"{TESTS / 'club.py'}:club",
            "play rule, asked at every play": f"{HERE / 'house_rules.py'}:bench-trumps-everywhere",
            "play rule 2": f"{HERE / 'house_rules.py'}:bench-heads",
            "deferring play rule": f"{HERE / 'house_rules.py'}:bench-defers",
            "deal result rule": f"{TESTS / 'kinds.py'}:club-closed",
            "next dealer rule": f"{TESTS / 'kinds.py'}:club-passes",
            "contest rule": f"{HERE / 'house_rules.py'}:bench-draws",
            "trump caller rule": f"{TESTS / 'kinds.py'}:club-partner-calls",
            "first dealer rule": f"{TESTS / 'kinds.py'}:club-suit-ties",
            "signal rule": f"{TESTS / 'kinds.py'}:club-partner-signals",
            "deal stands rule": f"{TESTS / 'kinds.py'}:club-last-packet",
            "play rule reading the game": f"{TESTS / 'seeing.py'}:seeing-trumps",
            "deal result rule reading the game": f"{TESTS / 'seeing.py'}:seeing-non-dealers",
            "trick rule reading the game": f"{TESTS / 'seeing.py'}:seeing-dealers-copy"}
PLAY_RULES = ("play rule", "play rule, asked at every play", "play rule 2", "deferring play rule")


def paired_ratios(simulate: list[str], rounds: int, names: list[str] | None = None) -> dict[str, float]:
    """``{variant: median of its run's CPU time / the standard run's, round by round}``."""
    ratios: dict[str, list[float]] = {name: [] for name in names or VARIANTS}
    for _ in range(rounds):
        standard = child_cpu(1, simulate)
        for name in ratios:
            v = VARIANTS[name]
            ratios[name].append(child_cpu(1, [*simulate, "--variant", v]) / max(standard, 1e-3))
    return {name: statistics.median(values) for name, values in ratios.items()}


def main() -> None:
    runner = pyperf.Runner(processes=4, values=2, warmups=1, loops=1,
                           add_cmdline_args=lambda cmd, args: cmd.extend(
                               ["--deals", str(args.deals), "--seed", str(args.seed)]))
    runner.argparser.add_argument("--deals", type=int, default=2000,
                                  help="deals per process (default: %(default)s)")
    runner.argparser.add_argument("--seed", type=int, default=1,
                                  help="seed of every process (default: %(default)s)")
    runner.argparser.add_argument("--rounds", type=int, default=7,
                                  help="rounds of paired runs, every command once a round "
                                       "(default: %(default)s; 0: none)")
    runner.argparser.add_argument("--paired-only", metavar="KIND,...",
                                  help="only the paired rounds, of these kinds (names as printed, "
                                       "comma-separated; 'all': every kind), no pyperf runs")
    args = runner.parse_args()
    if args.paired_only:
        names = list(VARIANTS) if args.paired_only == "all" else args.paired_only.split(",")
        simulate = [sys.executable, "-m", "turub.tools.cli", "simulate", "--deals", str(args.deals),
                    "--seed", str(args.seed)]
        print(f"Paired, {args.rounds} rounds, {args.deals} deals, load average {os.getloadavg()[0]:.1f}:")
        for name, ratio in paired_ratios(simulate, args.rounds, names).items():
            print(f"  {name}: {ratio:.2f} ({'met' if ratio <= TARGET else 'NOT met'})")
        return
    runner.metadata["description"] = "turub simulate under house rules against the standard game"
    simulate = [sys.executable, "-m", "turub.tools.cli", "simulate", "--deals", str(args.deals),
                "--seed", str(args.seed)]
    standard = runner.bench_time_func("standard (process)", child_cpu, simulate)
    timed = {name: runner.bench_time_func(f"{name} (process)", child_cpu, [*simulate, "--variant", v])
             for name, v in VARIANTS.items()}
    if standard is None or any(t is None for t in timed.values()) or runner.args.worker:
        return  # a worker process
    print(f"\n{args.deals} deals, seed {args.seed}; {platform.machine()}, {os.cpu_count()} cores, "
          f"{platform.python_implementation()} {platform.python_version()}, "
          f"load average {os.getloadavg()[0]:.1f}")
    for name, bench in timed.items():
        ratio = bench.median() / standard.median()
        print(f"{name} / standard (CPU, medians): {bench.median():.3f} s / {standard.median():.3f} s "
              f"= {ratio:.2f}; target at most {TARGET:.0f}: {'met' if ratio <= TARGET else 'NOT met'}")
    if args.rounds > 0:
        print(f"\nPaired, {args.rounds} rounds (each variant run / the standard run of its round, "
              f"median; load average {os.getloadavg()[0]:.1f}):")
        for name, ratio in paired_ratios(simulate, args.rounds).items():
            print(f"  {name}: {ratio:.2f} ({'met' if ratio <= TARGET else 'NOT met'})")
    print()
    from rule_cost import cost_line, rule_cost  # beside this script; imports the engine
    from turub.variants import resolve
    for name in PLAY_RULES:
        print(cost_line(name, rule_cost(resolve(VARIANTS[name]), deals=min(args.deals, 100),
                                        seed=args.seed)))


if __name__ == "__main__":
    main()
