"""Differential play: a failure of the kit itself during a search is reported as the kit's
failure, never as a pass (#22).  The search used to end at any exception it met, as if it
were a disagreement; with no disagreement kept, the search said "passed"."""

from __future__ import annotations

import pytest

from turub.conformance.commands.check import CheckOptions, reference_target, run_check
from turub.conformance.questions import differential
from turub.conformance.reports.report import EXIT_CONFORMS, finish
from turub.conformance.programs.targets import PythonTarget
from turub.conformance.adapter import ReferenceImplementation
from turub.options import Rules

SEARCHES = {"deal": differential.differential_deals, "sitting": differential.differential_sittings}


class KitBug(RuntimeError):
    """Stands for a bug in the kit's judging code."""


def _judging_that_crashes(*_args, **_kwargs):
    raise KitBug("the kit's judge broke")


@pytest.mark.parametrize("what", sorted(SEARCHES))
def test_a_kit_crash_during_a_search_is_raised_not_passed(monkeypatch, what):
    monkeypatch.setattr(differential, "verdict_of", _judging_that_crashes)
    target = PythonTarget(ReferenceImplementation(), 5.0)
    target.start()
    with pytest.raises(KitBug):
        SEARCHES[what](target, Rules(), 30, 1)


def test_a_kit_crash_during_differential_play_makes_the_run_incomplete(monkeypatch):
    monkeypatch.setattr(differential, "verdict_of", _judging_that_crashes)
    report = finish(run_check(reference_target(), CheckOptions(vectors=False, scale=0.0, examples=30)))
    searched = [c for c in report["cases"] if c["id"].startswith("differential/")]
    assert [c["status"] for c in searched] == ["not-run", "not-run"], searched
    assert all("the kit failed while playing: KitBug" in c["detail"] for c in searched)
    assert report["exit_status"] != EXIT_CONFORMS


def test_a_disagreement_still_ends_the_search_as_a_failure():
    class RefusesNothing(ReferenceImplementation):
        def referee(self, *args, **kwargs):
            answer = super().referee(*args, **kwargs)
            return {**answer, "responses": [{"ok": True} for _ in answer["responses"]]}

    target = PythonTarget(RefusesNothing(), 5.0)
    target.start()
    result = differential.differential_deals(target, Rules(), 60, 1)
    assert result["status"] == "failed", result
