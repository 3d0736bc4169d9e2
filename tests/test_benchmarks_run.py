"""The benchmark scripts still run (a benchmark that rots is found here, not in a README row).

Each runs once at its smallest size through pyperf (one worker process, one value), and its
closing line is checked; the figures themselves are not asserted: speed is measured by the
benchmarks, never by the tests.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("pyperf")

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
ONCE = ["--processes", "1", "--values", "1", "--warmups", "0", "--quiet"]


def run(script: str, *args: str) -> str:
    done = subprocess.run([sys.executable, str(BENCH / script), *args], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_bench_simulate_prints_the_ratio() -> None:
    out = run("bench_simulate.py", "--deals", "20", *ONCE)
    assert "simulate / naive (CPU, medians):" in out and "target at most 0.67" in out


def test_bench_protocol_prints_the_ratio() -> None:
    out = run("bench_protocol.py", "--loops", "300", *ONCE)
    assert "ratio kit/minimal:" in out and "calls/s" in out


def test_bench_client_cpu_prints_the_ratios() -> None:
    out = run("bench_client_cpu.py", "--requests", "128", "--rounds", "1", "--window", "16")
    assert out.count("kit/bare") == 2 and "lock-step" in out and "windowed" in out


def test_bench_load_prints_the_peak_memory() -> None:
    out = run("bench_load.py", "--cases", "1200", *ONCE)
    assert "peak memory of the kit" in out


def test_bench_check_prints_the_figures() -> None:
    out = run("bench_check.py", "--split-rounds", "1", "--quick", *ONCE)  # `turub check --quick` timed
    assert "turub check (medians):" in out and "s CPU" in out and "target at most 2.0 s wall" in out
    assert "split per question" in out and "property suites" in out and "report writing" in out
    assert "the second process" in out and "inside one --one-process check" in out and "Hypothesis" in out


def test_bench_variant_simulate_paired_only_prints_the_kinds_asked() -> None:
    out = run("bench_variant_simulate.py", "--deals", "5", "--rounds", "1", "--paired-only", "signal rule,trick rule")
    assert "Paired, 1 rounds, 5 deals" in out and "  signal rule: " in out and "  trick rule: " in out
    assert "play rule" not in out


def test_bench_variant_simulate_prints_the_ratios() -> None:
    out = run("bench_variant_simulate.py", "--deals", "5", "--rounds", "1", *ONCE)
    assert "trick rule / standard (CPU, medians):" in out and "play rule / standard" in out
    for kind in ("play rule, asked at every play", "play rule 2", "deferring play rule", "deal result rule",
                 "next dealer rule", "contest rule"):
        assert f"{kind} / standard (CPU, medians):" in out
    assert "Paired, 1 rounds" in out and "  play rule 2: " in out
    for kind in ("signal rule", "deal stands rule", "play rule reading the game", "trick rule reading the game"):
        assert f"{kind} / standard (CPU, medians):" in out
    # where a legal-play rule's time goes: its own against the engine's
    assert out.count("the rule's own") == 4 and "the engine's" in out
