"""The cause, not the symptom, on programs nobody here wrote (issue 35).

``tests/broken/outsiders.py`` is an implementation written apart from the engine and from
``independent.py``'s referee, with one rule wrong on demand, of the kinds that showed where
they are seen rather than where they are: a refusal citing a wrong clause or the right clause
at the wrong moment, a decision whose output the next one carries (a deal's result into the
contest, a trick's winner into the turn, a suit count into the next play), an answer with two
faults under a house rule, a rule broken only at its boundary.  Each is checked with the
property suites off (``--properties 0``: the directed cases alone must kill it) and, for the
costliest kinds, on: the broken rule is first in the diagnosis with strictly more failures than
the next, and the correct program conforms under the same rules.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from turub.conformance.commands.check import CheckOptions, run_check
from turub.conformance.programs.targets import PythonTarget
from turub.conformance.questions.cases import OPTION_SETS
from turub.conformance.reports.report import finish
from turub.properties.tags import verifies
from turub.variants import resolve

BROKEN = Path(__file__).parent / "broken"
_spec = importlib.util.spec_from_file_location("outsiders", BROKEN / "outsiders.py")
O = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(O)

#: (bug, house rule or None): each bug under the standard rules, and those a house rule builds
#: on under it (the house clause is blamed only for what the house rule alone decides).
CASES = [(bug, None) for bug in O.BUGS] + [
    (bug, house) for house in ("club", "club-nell")
    for bug in ("nineteen-is-a-draw", "discard-counts-led-suit", "jack-above-queen", "follow-last-card",
                "later-copy-wins")]


@functools.cache
def _check(bug, house, *, examples, properties):
    """The report of one check at seed 1, made once per worker: a test reading another thing
    of a run a parametrized case already made reads that same report (none mutates it)."""
    rules = resolve(O.HOUSE[house]) if house else OPTION_SETS["standard"]
    return finish(run_check(PythonTarget(O.Outsider(bug, house)),
                            CheckOptions(rules=rules, seed=1, examples=examples, properties=properties)))


def _ranked(report) -> list[tuple[str, int]]:
    return [(b["clause"], b["failures"]) for b in report["diagnosis"]["blamed"]]


def _assert_blamed_first(report, clause: str, house: str | None) -> None:
    ranked = _ranked(report)
    assert report["exit_status"] == 1, "the bug was not caught"
    assert ranked and ranked[0][0] == clause, ranked[:4]
    assert len(ranked) == 1 or ranked[0][1] > ranked[1][1], ranked[:4]
    if house:  # the house clauses: never blamed for the standard rule's bug
        assert not {c for c, _ in ranked} & set(report["variant"]["clauses"]), ranked


@verifies("pack.card-notation", "table.partnerships", "result.tricks-add-up", "result.more-tricks-wins",
          "play.follow-suit", "play.card-in-hand", "sheet.any-player-closes", "pack.rank-order")
@pytest.mark.parametrize("bug,house", CASES, ids=[f"{b}-{h or 'standard'}" for b, h in CASES])
def test_the_broken_rule_is_first_with_the_property_suites_off(bug, house):
    _assert_blamed_first(_check(bug, house, examples=0, properties=0), O.BUGS[bug][0], house)


@pytest.mark.parametrize("bug,house", [("nineteen-is-a-draw", None), ("discard-counts-led-suit", "club"),
                                       ("seat-name-read", None)])
def test_the_broken_rule_is_first_with_the_property_suites_on(bug, house):
    # the suites on at 5 examples a property: their failures (and their blame of the clauses
    # a broken rule drags along) are in the ranking, at about half the cost of 10
    _assert_blamed_first(_check(bug, house, examples=30, properties=5), O.BUGS[bug][0], house)


@pytest.mark.parametrize("house", [None, "club", "club-nell"])
def test_the_correct_outsider_conforms(house):
    report = _check(None, house, examples=0, properties=0)
    bad = [(c["id"], c.get("detail")) for c in report["cases"] if c["status"] != "passed"]
    assert report["exit_status"] == 0 and not bad, bad[:3]


def test_a_refusal_cites_a_clause_and_the_diagnosis_says_why_it_is_another():
    # the program refuses text that is no card citing play.card-in-hand: the failure is the
    # notation's, and the report keeps both the judge's blame and the reason
    report = _check("bad-card-cited-as-not-held", None, examples=0, properties=0)
    moved = [c for c in report["cases"] if c["status"] == "failed" and c.get("judge_blamed") == "play.card-in-hand"]
    assert moved and all(c["blamed"] == "pack.card-notation" and "cites play.card-in-hand" in c["probe"]
                         for c in moved)


def test_a_deal_result_read_wrong_blames_the_result_not_the_contest_steps_that_carry_it():
    report = _check("nineteen-is-a-draw", None, examples=0, properties=0)
    contest = [c for c in report["cases"] if c["status"] == "failed" and c["op"] == "contest"]
    assert contest and {c["blamed"] for c in contest} == {"result.more-tricks-wins"}
    assert all(str(c.get("judge_blamed", "")).startswith("contest.") for c in contest)
    # the direct question of the 19-17 result, asked by the directed cases, confirms it
    direct = next(c for c in report["cases"] if c["id"] == "directed/result/19-17")
    assert direct["status"] == "failed" and direct["blamed"] == "result.more-tricks-wins"


def test_the_command_line_names_the_cause(tmp_path):
    out = tmp_path / "report.json"
    done = subprocess.run([sys.executable, "-c", "import sys; from turub.tools.cli import main; sys.exit(main(sys.argv[1:]))",
                           "check", "--python", "outsiders:NineteenIsADraw", "--properties", "0", "--examples", "0",
                           "--json", str(out)],
                          capture_output=True, text=True, timeout=600, cwd=BROKEN,
                          env={**os.environ, "PYTHONPATH": str(BROKEN)})
    assert done.returncode == 1, done.stdout[-2000:] + done.stderr[-2000:]
    assert "1. result.more-tricks-wins" in done.stdout, done.stdout[:2000]
    report = json.loads(out.read_text())
    assert report["diagnosis"]["blamed"][0]["clause"] == "result.more-tricks-wins"
