"""CrossHair on the rule contracts, within a CI budget bounded by iterations.

``crosshair check --analysis_kind=PEP316`` reads the ``pre:``/``post:`` lines of the
docstrings in :mod:`turub.properties.contracts` (the kernels) and of the public rule
functions.  Silence is not proof: the small kernels must come back "Confirmed over all
paths"; the rest are only searched here (``properties/tools/crosshair_deep.py`` gives them
a longer budget), and a planted wrong rule shows that the search can find a failure.

The budget is counted in iterations that find nothing new (``--max_uninteresting_iterations``),
not in seconds, so the run does the same work on any machine.  CrossHair is pinned in
pyproject.toml (crosshair-tool 0.0.112).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from turub.properties.tags import verifies

#: How CrossHair builds a turub.Rules: one symbolic choice per option (see the plugin's docstring).
PLUGIN = Path(__file__).with_name("crosshair_plugin.py")
CROSSHAIR = [sys.executable, "-m", "crosshair", "check", "--analysis_kind=PEP316", "--report_all",
             "--extra_plugin", str(PLUGIN)]
#: Iterations without a new path before CrossHair moves on (per condition), for the
#: kernels: enough for CrossHair to satisfy the trick's preconditions and exhaust every path.
KERNEL_ITERATIONS = 100
#: The same for the engine's functions, which are only searched in CI.
CI_ITERATIONS = 20
#: Kernels whose every path CrossHair exhausts within the CI budget (23 conditions).
KERNELS = ["turub.properties.contracts." + name for name in (
    "beats", "may_play", "deal_outcome", "next_dealer", "trick_winner4", "contest_step")]
#: The engine's functions: searched within the budget, not confirmed (their error messages
#: and option values make the paths unbounded; the enumerations in proofs.py cover them).
#: The list-taking face ``contracts.trick_winner`` is left to the deep run: CrossHair needs
#: more than the CI budget to build lists that meet its precondition.
SEARCHED = ["turub.rules.trick_winner", "turub.rules.legal_plays", "turub.rules.deal_result",
            "turub.rules.next_dealer", "turub.contest.contest_step"]
LINE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+): (?P<level>info|error|warning): (?P<text>.*)$",
                  re.MULTILINE)


def crosshair(targets: list[str], *, iterations: int = CI_ITERATIONS,
              path: Path | None = None) -> tuple[int, list[tuple[str, int, str, str]]]:
    """Run CrossHair on ``targets``; its exit code and ``(file, line, level, text)`` reports."""
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(path), env.get("PYTHONPATH")]))
    done = subprocess.run(CROSSHAIR + [f"--max_uninteresting_iterations={iterations}", *targets],
                          capture_output=True, text=True, timeout=300, env=env)
    reports = [(m["file"], int(m["line"]), m["level"], m["text"])
               for m in LINE.finditer(done.stdout + done.stderr)]
    return done.returncode, reports


@pytest.fixture(scope="module")
def searched():
    return crosshair(SEARCHED)


@verifies("trick.highest-trump", "trick.highest-led", "trick.earliest-identical",
          "play.follow-suit", "play.void-any-card", "result.more-tricks-wins", "result.draw-18",
          "result.closed-early", "dealer.after-win", "dealer.after-loss", "dealer.after-draw",
          "contest.second-win-beats-mark", "contest.insufficient-win",
          "contest.draw-keeps-sequence", "contest.other-side-resets", "contest.decided-is-final")
def test_the_kernels_hold_on_every_path():
    code, reports = crosshair(KERNELS, iterations=KERNEL_ITERATIONS)
    assert code == 0, reports
    assert len(reports) == 23, reports  # one report per condition
    assert {text for *_, text in reports} == {"Confirmed over all paths."}, reports


@verifies("trick.highest-trump", "trick.highest-led", "trick.earliest-identical",
          "play.follow-suit", "play.void-any-card", "play.no-forced-trump",
          "result.more-tricks-wins", "result.draw-18", "result.closed-early",
          "result.tricks-add-up", "dealer.after-win", "dealer.after-loss", "dealer.after-draw",
          "contest.first-win-sets-mark", "contest.second-win-beats-mark",
          "contest.insufficient-win", "contest.draw-keeps-sequence",
          "contest.other-side-resets", "contest.decided-is-final", "stake.per-deal")
def test_no_rule_contract_is_broken_within_the_budget(searched):
    code, reports = searched
    errors = [r for r in reports if r[2] == "error"]
    assert code == 0 and not errors, errors
    # every condition was reached: none is starved by an unsatisfiable precondition
    assert reports and all(text in ("Confirmed over all paths.", "Not confirmed.")
                           for *_, text in reports), reports


PLANTED = '''
from turub import branch_free_rules
from turub.cards import Card, Suit
from turub.rules import trick_winner


def beats(challenger: tuple[int, int], holder: tuple[int, int], trump: int) -> bool:
    """
    pre: 0 <= challenger[0] <= 3 and 6 <= challenger[1] <= 14
    pre: 0 <= holder[0] <= 3 and 6 <= holder[1] <= 14
    pre: 0 <= trump <= 3
    post: not (__return__ and challenger == holder)
    """
    # wrong: a later copy of the same card takes the trick
    return branch_free_rules.beats(challenger, holder, trump) or challenger == holder


def winner_of_a_trick(cards: list[Card], trump: Suit) -> int:
    """
    pre: 1 <= len(cards) <= 4
    post: cards[__return__] not in cards[:__return__]
    """
    # wrong: the last of several identical cards wins
    position = trick_winner(cards, trump)
    return max(i for i, c in enumerate(cards) if c is cards[position])
'''


PLANTED_OPTIONS = '''
from turub.options import Rules
from turub.rules import deal_result


def closed_with_a_side_past_18(ns: int, ew: int, rules: Rules) -> bool:
    """
    pre: 19 <= ns <= 35 and 0 <= ew and ns + ew < 36
    post: __return__
    """
    # wrong: the contract forgets early-close=known-result
    return deal_result(ns, ew, closed_early=True, rules=rules).winner is None
'''


@verifies("result.closed-early")
def test_a_contract_that_forgets_an_option_is_caught_within_the_budget(tmp_path):
    """The plugin builds every combination of options: a contract wrong only under
    early-close=known-result (four other options at any value) is refuted."""
    (tmp_path / "planted_options.py").write_text(textwrap.dedent(PLANTED_OPTIONS), encoding="utf-8")
    code, reports = crosshair(["planted_options"], path=tmp_path)
    errors = [text for _, _, level, text in reports if level == "error"]
    assert code != 0 and len(errors) == 1 and "early_close='known-result'" in errors[0], reports


@verifies("trick.earliest-identical")
def test_a_planted_second_ace_win_is_found_within_the_budget(tmp_path):
    (tmp_path / "planted_rules.py").write_text(textwrap.dedent(PLANTED), encoding="utf-8")
    code, reports = crosshair(["planted_rules"], path=tmp_path)
    errors = [text for _, _, level, text in reports if level == "error"]
    assert code != 0 and len(errors) == 2, reports
    assert any("beats((" in e for e in errors) and any("Card" in e for e in errors), errors
