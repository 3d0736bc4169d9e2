"""benchmarks/bench_campaign.py still runs (its figures are in docs/guides/deep-campaign.md):
once, at its smallest size, against the reference; the closing lines are checked, never the
figures (speed is measured by the benchmark, never by the tests)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from pace import generous

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_campaign.py"


def test_bench_campaign_prints_a_rate_and_the_scaling():
    done = subprocess.run([sys.executable, str(BENCH), "--impl", "reference", "--routes",
                           "differential,scaling", "--examples", "3", "--searches", "1"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    rates = re.findall(r"^differential\s+reference -n (\d): +(\d+) examples.* examples per core-second",
                       done.stdout, flags=re.M)
    assert [w for w, _ in rates] == ["2", "1", "2"] and all(int(n) == 3 for _, n in rates), done.stdout
    assert re.search(r"^scaling: two workers / one = \d+\.\d\d", done.stdout, flags=re.M)


DEEP = BENCH.parent.parent / ".venv-deep" / "bin" / "hypothesis"


@__import__("pytest").mark.skipif(not DEEP.exists(), reason="no .venv-deep (.ci/run makes it): "
                                  "the HypoFuzz route needs turub[deep]")
def test_bench_campaign_counts_what_hypofuzz_ran():
    done = subprocess.run([sys.executable, str(BENCH), "--impl", "reference", "--routes", "hypofuzz",
                           "--fuzz-seconds", f"{generous(25):g}", "--fuzz-until-reported"],
                          capture_output=True, text=True, timeout=generous(25) + 120)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    (count,) = re.findall(r"^hypofuzz\s+reference -n 2: +(\d+) examples", done.stdout, flags=re.M)
    assert int(count) > 0 and re.search(r"^hypofuzz: [1-9]\d* targets reported", done.stdout, flags=re.M)
