"""House rules are user code, checked like a program (issue 31): a rule that loops is
stopped by ``--time-limit`` with one line and a documented status; a rule that answers at
random or changes what it is shown is refused when the variant is loaded, naming the file,
the variant and the clause; a definition error names the file and the variant."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

#: The exit status of a command past its --time-limit (docs/guides/house-rules.md).
TIME_LIMIT_STATUS = 4


def turub(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "turub.tools.cli", *argv], capture_output=True,
                          text=True, timeout=timeout)


def club_file(tmp: Path, body: str, name: str = "club.py") -> Path:
    path = tmp / name
    path.write_text("from turub.variants import Variant, VariantClause\n" + textwrap.dedent(body),
                    encoding="utf-8")
    return path


LOOPS_ON_NELL = """
    from turub import Rank
    def loops(cards, trump):
        # asked about every trick; loops for ever on a trick with the nine of trumps
        while any(c.rank is Rank.NINE and c.suit is trump for c in cards):
            pass
        return None
    LOOP = Variant("thursday-loop", "1", clauses=[VariantClause("thursday.loop", "A loop",
        decides="trick_winner", rule=loops)])
"""


@pytest.mark.parametrize("command", [
    ["simulate", "--deals", "50"],
    ["play", "--seed", "3"],
    ["explain", "--trump", "S", "9S", "KS", "7D", "7D"],
])
def test_a_rule_that_loops_stops_at_the_time_limit_with_one_line(command, tmp_path):
    path = club_file(tmp_path, LOOPS_ON_NELL)
    done = turub(*command, "--variant", str(path), "--time-limit", "1", timeout=30)
    # One line, naming the variant, the clause and what it was deciding; no traceback.
    lines = done.stderr.strip().splitlines()
    assert done.returncode == TIME_LIMIT_STATUS, done.stderr[-800:]
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[-800:]
    assert "time limit reached" in lines[0]
    assert "thursday-loop 1" in lines[0] and "thursday.loop" in lines[0] and "a trick" in lines[0]
    assert str(path) in lines[0]


@pytest.mark.parametrize("bad", ["0", "-1", "nan", "inf", "soon"])
def test_a_time_limit_is_a_finite_number_of_seconds(bad):
    done = turub("explain", "--trump", "S", "9S", "--time-limit", bad)
    assert done.returncode == 2 and "--time-limit" in done.stderr
