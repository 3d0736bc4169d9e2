"""Seeing a house rule at work outside ``turub check`` (issue 31): ``turub simulate
--close-early P`` closes a share of the deals early, so a closing rule is asked."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent


def simulate(*argv: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "turub.tools.cli", "simulate", *argv],
                          capture_output=True, text=True, timeout=120)


def test_no_share_closed_is_the_standard_run_unchanged():
    plain, none = simulate("--deals", "40"), simulate("--deals", "40", "--close-early", "0")
    assert plain.returncode == none.returncode == 0 and plain.stdout == none.stdout


def test_a_deal_closed_early_is_a_draw_under_the_standard_rules():
    done = simulate("--deals", "200", "--close-early", "0.4")
    closed = int(re.search(r"Closed early: (\d+) deals", done.stdout).group(1))
    draws = int(re.search(r"draws (\d+)", done.stdout).group(1))
    # result.closed-early: a deal closed before its last trick is banked as a draw.
    assert 40 <= closed <= 120 and draws >= closed, done.stdout


def test_a_closing_house_rule_is_asked_when_deals_close_early():
    variant = str(HERE / "kinds.py") + ":club-closed"
    asked = re.compile(r"club\.closed-lead: (\d+) deal results decided")
    never = simulate("--deals", "200", "--variant", variant)
    closing = simulate("--deals", "200", "--variant", variant, "--close-early", "0.5")
    assert int(asked.search(never.stdout).group(1)) == 0
    # Closed ten tricks or more ahead: the house rule decides (about one closed deal in ten).
    assert int(asked.search(closing.stdout).group(1)) > 0, closing.stdout


@pytest.mark.parametrize("bad", ["-0.1", "1.5", "nan", "inf", "half"])
def test_a_share_is_a_number_from_0_to_1(bad):
    done = simulate("--deals", "2", "--close-early", bad)
    assert done.returncode == 2 and "--close-early" in done.stderr
