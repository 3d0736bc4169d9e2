"""The club's house rules of the "tricks" group (``kind_checks.GROUPS``): for each kind, the right
program conforms, the standard one is blamed on the house clause alone, the wrong one where its
bug lies (``kind_checks.py``; the kinds are spread over three files for the suite's workers)."""

from __future__ import annotations

import pytest

from kind_checks import GROUPS, judges_its_programs_by_its_own_rules


@pytest.mark.parametrize("kind", GROUPS["tricks"])
def test_each_kind_of_house_rule_judges_its_programs_by_its_own_rules(kind, tmp_path):
    judges_its_programs_by_its_own_rules(kind, tmp_path)
