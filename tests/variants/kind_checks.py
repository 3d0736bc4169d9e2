"""The club's house rules, one per kind of decision (issue 20), and how a program is judged by one.

For each kind (the trick winner, the deal result, the next dealer, a legal-play
restriction) the club's right program conforms under every kind of check, the program with
the standard rules is blamed on the house clause alone, and the wrong one is blamed where
its bug lies: the standard clause the house rule keeps when its answer is neither the house
rule's nor the standard one, the house clause when it gives the standard answer.

Each kind costs three whole checks: the kinds are spread over three test files
(``GROUPS``: ``test_kinds_of_play.py``, ``test_kinds_of_tricks.py``,
``test_kinds_of_dealers.py``) so that the suite's workers share them; ``test_kinds.py``
checks that every kind is in exactly one group.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent
KINDS = HERE / "kinds.py"

#: kind -> (variant, programs file, right, standard, wrong, house clause, the wrong one's blame)
CASES = {
    "trick winner": ("kinds.py:club-nell", "kind_programs.py", "nell", "nell-standard", "nell-wrong",
                     "club.nell", {"trick.earliest-identical"}),
    "deal result": ("kinds.py:club-closed", "kind_programs.py", "closed", "closed-standard", "closed-wrong",
                    "club.closed-lead", {"club.closed-lead"}),
    "next dealer": ("kinds.py:club-passes", "kind_programs.py", "passes", "passes-standard", "passes-wrong",
                    "club.draw-passes", {"club.draw-passes"}),
    "legal plays": ("club.py:club", "club_programs.py", "club", "standard", "wrong-clause",
                    "club.must-trump", {"club.must-trump"}),
    # a rule asked at leads only (applies_to), which does not look at the trick itself
    "legal plays at leads": ("kinds.py:club-lead-ace", "kind_programs.py", "lead-ace", "lead-ace-standard",
                             "lead-ace-wrong", "club.lead-ace", {"play.no-forced-trump"}),
    # who may signal: refereed deals only (no single question asks it)
    "signals": ("kinds.py:club-partner-signals", "kind_programs.py", "partner-signals",
                "partner-signals-standard", "partner-signals-wrong", "club.partner-signals",
                {"signal.leader-only"}),
    # the first dealer, from the cards shown: suits break a tie
    "first dealer": ("kinds.py:club-suit-ties", "kind_programs.py", "suit-ties", "suit-ties-standard",
                     "suit-ties-wrong", "club.suit-ties", {"dealer.first-draw"}),
    # whether the deal stands: the dealer's last packet only
    "deal stands": ("kinds.py:club-last-packet", "kind_programs.py", "last-packet", "last-packet-standard",
                    "last-packet-wrong", "club.last-packet", {"club.last-packet"}),
    # who names trump: the dealer's partner (the deal, and every refereed deal's call)
    "trump caller": ("kinds.py:club-partner-calls", "kind_programs.py", "partner-calls",
                     "partner-calls-standard", "partner-calls-wrong", "club.partner-calls",
                     {"table.left-of-dealer"}),
}
#: every kind of check on, with budgets small enough for the suite
CHECK = ["--scale", "0.1", "--examples", "20", "--properties", "3", "--budget", "3"]
#: The properties a program is never asked under these house rules: under a variant that
#: overrides decisions the kit asks a program only the variant's own options, and every house
#: rule here keeps the standard ones, while these play counter-clockwise or stakes per deal.
#: The kit draws examples for each until Hypothesis gives up and reports it unsupported: half
#: the CPU of a program's check.  A program's check leaves them out (``-k``); ``test_kinds.py``
#: runs one in full and checks that both rows are unsupported there, and that every variant
#: of ``CASES`` overrides decisions and keeps the standard options.
UNPLAYABLE = ("property/test_referee.test_the_mirror_image_of_a_deal_played_the_other_way_round_ends_the_same",
              "property/test_contest.test_with_stakes_per_deal_the_first_win_settles_it")
PLAYABLE = ["-k", " and ".join(f"not {row.rsplit('.', 1)[1]}" for row in UNPLAYABLE)]


@dataclass(frozen=True)
class Checked:
    """A finished check: its exit status, its JSON report and what it printed."""
    status: int
    report: dict
    stdout: str


def checked(variant: str, *program: str, tmp: Path, everything: bool = False) -> Checked:
    """The check of ``program`` (none: the variant's own reference) under ``variant``; a
    program's check leaves out the rows it is never asked (``UNPLAYABLE``) unless
    ``everything``."""
    out = tmp / "report.json"
    done = subprocess.run([sys.executable, "-m", "turub.tools.cli", "check", "--variant", str(HERE / variant),
                           *CHECK, *(PLAYABLE if program and not everything else []), "--json", str(out),
                           *(["--", *program] if program else [])],
                          capture_output=True, text=True, timeout=600)
    assert out.exists(), done.stderr[-2000:]
    return Checked(done.returncode, json.loads(out.read_text()), done.stdout)


def check(variant: str, *program: str, tmp: Path, everything: bool = False) -> tuple[int, dict]:
    """The exit status and report of ``checked``."""
    done = checked(variant, *program, tmp=tmp, everything=everything)
    return done.status, done.report


def blamed(report: dict) -> set[str]:
    """The clauses the failures blame (a refereed deal failing because the program dealt its
    pack wrong is a consequence of that deal case, and blames nothing on its own)."""
    return {c["blamed"] for c in report["cases"] if c["status"] == "failed" and "consequence_of" not in c}


#: the kinds each test file judges (every kind in exactly one group)
GROUPS = {
    "play": ("legal plays", "legal plays at leads", "signals"),
    "tricks": ("trick winner", "deal result", "trump caller"),
    "dealers": ("first dealer", "next dealer", "deal stands"),
}


def judges_its_programs_by_its_own_rules(kind: str, tmp_path: Path) -> None:
    """The right program conforms under every kind of check; the standard one is blamed on the
    house clause alone; the wrong one where its bug lies.  The terminal report says so too:
    the verdict on its last line, the house clause first in the standard one's diagnosis
    (for "legal plays", the club's programs over version 2 of the protocol, where
    legal_plays carries the trump and contest the dealer)."""
    variant, programs, right, standard, wrong, house, wrong_blame = CASES[kind]
    run = [sys.executable, str(HERE / programs)]
    done = checked(variant, *run, right, tmp=tmp_path)
    failures = [(c["id"], c.get("detail")) for c in done.report["cases"] if c["status"] == "failed"]
    assert done.status == 0 and done.report["conforms"], failures[:3]
    assert done.stdout.rstrip().splitlines()[-1].startswith("CONFORMS"), done.stdout[-3000:]
    kinds_run = {c["kind"] for c in done.report["cases"] if c["status"] == "passed"}
    assert {"vector", "generated", "differential", "property"} <= kinds_run
    done = checked(variant, *run, standard, tmp=tmp_path)
    assert done.status == 1 and blamed(done.report) == {house}  # the program ignored the house rule
    assert f"1. {house}" in done.stdout, done.stdout[:3000]
    status, report = check(variant, *run, wrong, tmp=tmp_path)
    assert status == 1 and blamed(report) == wrong_blame
