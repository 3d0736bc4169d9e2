"""Working out the cases' expected answers: a failure of the kit's own code there is the
kit's failure, reported, never a traceback that loses the report (#22).  It used to escape
``run_check``: no report at all, and Python's exit status 1, which reads as DOES NOT
CONFORM."""

from __future__ import annotations

import pytest

from turub.conformance.commands import check
from turub.conformance.commands.check import CheckOptions, reference_target, run_check
from turub.conformance.reports.report import EXIT_INCOMPLETE, finish


class KitBug(RuntimeError):
    """Stands for a bug in the kit's code that works out expected answers."""


def _failing_after(real, good: int):
    """``real`` (a function returning the cases in order), failing after ``good`` of them."""
    def cases(*args, **kwargs):
        for i, case in enumerate(real(*args, **kwargs)):
            if i == good:
                raise KitBug("the kit's expected answer broke")
            yield case
    return cases


@pytest.mark.parametrize("kind", ["generated", "vector"])
def test_a_kit_failure_working_out_cases_makes_the_run_incomplete_and_keeps_the_report(monkeypatch, kind):
    if kind == "generated":
        monkeypatch.setattr(check, "iter_generated_cases", _failing_after(check.iter_generated_cases, 5))
        options = CheckOptions(vectors=False, scale=0.05, examples=0)
    else:
        def directed_cases(rules):
            raise KitBug("the kit's directed cases broke")
        monkeypatch.setattr(check, "directed_cases", directed_cases)
        options = CheckOptions(scale=0.0, examples=0)
    report = finish(run_check(reference_target(), options))
    stopped = [c for c in report["cases"] if c["id"] == f"{kind}/*"]
    assert [c["status"] for c in stopped] == ["not-run"], report["cases"][-3:]
    assert "the kit failed while working out" in stopped[0]["detail"] and "KitBug" in stopped[0]["detail"]
    # the cases asked before it are judged and kept
    if kind == "generated":
        assert [c["status"] for c in report["cases"]][:5] == ["passed"] * 5
    assert report["exit_status"] == EXIT_INCOMPLETE


def test_a_kit_failure_while_asking_the_cases_makes_the_run_incomplete_and_keeps_the_report(monkeypatch):
    # A bug in the kit's asking machinery (the programs room), past some answers: the cases
    # judged before it are kept, the run is INCOMPLETE, never a traceback and exit 1.
    from turub.conformance.commands.case_stage import CaseStage
    real = CaseStage.requests

    def requests(self, work):
        for i, request in enumerate(real(self, work)):
            if i == 8:
                raise KitBug("the kit's asking broke")
            yield request
    monkeypatch.setattr(CaseStage, "requests", requests)
    report = finish(run_check(reference_target(), CheckOptions(vectors=False, scale=0.05, examples=0)))
    stopped = [c for c in report["cases"] if c["id"] == "cases/*"]
    assert [c["status"] for c in stopped] == ["not-run"]
    assert "the kit failed while asking the program the cases: KitBug" in stopped[0]["detail"]
    assert [c["status"] for c in report["cases"]][:5] == ["passed"] * 5
    assert report["exit_status"] == EXIT_INCOMPLETE
