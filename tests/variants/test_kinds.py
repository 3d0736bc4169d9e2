"""The club's house rules, one per kind of decision (issue 20): each variant's own reference,
a property the house rule changes, a program that deals right but refuses the club's caller.

How each kind judges a right, a standard and a wrong program is in ``kind_checks.py``, run by
``test_kinds_of_play.py``, ``test_kinds_of_tricks.py`` and ``test_kinds_of_dealers.py``.
"""

from __future__ import annotations

import sys

import pytest

from kind_checks import CASES, GROUPS, HERE, UNPLAYABLE, blamed, check

from turub.options import Rules
from turub.variants import resolve


@pytest.fixture(scope="module")
def reference_report(tmp_path_factory):
    """The check of a variant's own reference (no program), run once per variant in this file."""
    done: dict[str, tuple[int, dict]] = {}

    def of(variant: str) -> tuple[int, dict]:
        if variant not in done:
            done[variant] = check(variant, tmp=tmp_path_factory.mktemp("reference"))
        return done[variant]
    return of


def test_every_kind_is_judged_in_exactly_one_file():
    kinds = [kind for group in GROUPS.values() for kind in group]
    assert sorted(kinds) == sorted(CASES)


@pytest.mark.parametrize("kind", CASES)
def test_the_variants_own_reference_conforms_with_no_program(kind, reference_report):
    status, report = reference_report(CASES[kind][0])
    assert status == 0 and report["conforms"]
    assert report["implementation"]["name"].startswith("turub-reference[")


@pytest.fixture(scope="module")
def refuses_the_callers_check(tmp_path_factory):
    """The whole check (nothing left out) of a program that deals as the club does but
    referees with the standard caller."""
    return check("kinds.py:club-partner-calls", sys.executable, str(HERE / "kind_programs.py"),
                 "partner-calls-referees-standard", tmp=tmp_path_factory.mktemp("caller"), everything=True)


def test_a_program_that_deals_right_but_refuses_the_clubs_caller_is_blamed_on_the_house_clause(
        refuses_the_callers_check):
    # its deal cases pass, so its refereed deals are not consequences of a wrong deal: the call
    # refused as the standard rule refuses it is a decision of the house clause
    status, report = refuses_the_callers_check
    failed = [c for c in report["cases"] if c["status"] == "failed"]
    assert status == 1 and failed and not [c for c in failed if c["op"] == "deal"]
    assert blamed(report) == {"club.partner-calls"}


def test_a_property_the_house_rule_changes_is_not_applicable_and_says_why(reference_report):
    _status, report = reference_report("kinds.py:club-nell")
    rows = {c["id"]: c for c in report["cases"] if c["kind"] == "property"}
    second_ace = rows["property/test_tricks.test_second_ace_never_beats_the_first"]
    assert second_ace["status"] == "unsupported"
    assert "trick.earliest-identical" in second_ace["detail"] and "club.nell" in second_ace["detail"]
    # the referee's property is restated with the nell deciding the tricks, and holds
    referee = rows["property/test_referee.test_the_referee_accepts_exactly_the_legal_actions_and_scores_the_deal"]
    assert referee["status"] == "passed"


def test_the_properties_a_programs_check_leaves_out_are_never_asked_of_a_program_under_these_rules(
        refuses_the_callers_check):
    # kind_checks.check leaves them out of each program's check: a program is asked only the
    # variant's own options, the standard ones for every house rule here, and these rows need
    # others (here the mirror image is also not applicable: it states the caller the house replaces)
    _status, report = refuses_the_callers_check
    rows = {c["id"]: c for c in report["cases"]}
    for row in UNPLAYABLE:
        assert rows[row]["status"] == "unsupported", (row, rows[row])
    assert rows[UNPLAYABLE[1]]["detail"] == "no example under the options it plays"
    for kind, (variant, *_rest) in CASES.items():
        house = resolve(str(HERE / variant))
        assert house.has_rules and house.rules == Rules(), kind
