"""Results and interfaces as types: a case's status is one of six, a case row is written in
one place, in the report's key order, and every target answers the run's questions itself."""

from turub.options import Rules
from turub.variants import BUILTIN

from turub.conformance.programs.parallel import ParallelTarget
from turub.conformance.programs.targets import Answer, PythonTarget, Target
from turub.conformance.results import UNSET, CaseResult, Status
from turub.conformance.ruleset import name_of, options_of, variant_of
from turub.conformance.adapter import ReferenceImplementation


def test_a_case_has_one_of_the_six_statuses_the_report_documents():
    # The report's statuses, as docs/guides/implementers.md lists them.
    assert {s.value for s in Status} == {"passed", "failed", "unsupported", "not-run", "xfail", "xpass"}


def test_a_failed_case_is_written_in_the_reports_key_order():
    row = CaseResult("trick/r001", "generated", "trick_winner", ("trick.highest-led",), Status.FAILED,
                     rules={"direction": "clockwise"}, expected_digest="e", answer_digest="a",
                     outcome="wrong-answer", failing_clauses=["trick.highest-led"], blamed="trick.highest-led",
                     detail="d", args={}, expected=1, got=None).to_json()
    # The order of a report written before CaseResult existed (turub check --json, seed 1).
    assert list(row) == ["id", "kind", "op", "clauses", "rules", "expected_digest", "answer_digest",
                         "status", "outcome", "failing_clauses", "blamed", "detail", "args",
                         "expected", "got"]
    # A value of null is kept; a field never set is left out.
    assert row["got"] is None and "minimal" not in row
    assert type(row["status"]) is str and row["status"] == "failed"


def test_an_unset_field_is_left_out_and_says_so():
    assert repr(UNSET) == "UNSET"
    assert "detail" not in CaseResult("x", "vector", "deal", (), Status.PASSED).to_json()


def test_every_target_declares_what_a_run_reads_of_it():
    plain = PythonTarget(ReferenceImplementation())
    assert (plain.fatal, plain.cut, plain.noise) == (None, False, {"lines": 0, "examples": []})
    plain.abort()  # nothing running: it closes


def test_several_instances_are_fatal_cut_and_noisy_as_any_of_them_is():
    one, two = Target(), Target()
    both = ParallelTarget([one, two])
    assert both.fatal is None and not both.cut
    two.fatal, two.cut = Answer("crash", None, "exited"), True
    two.noise = {"lines": 2, "examples": ["a", "b"]}
    assert both.fatal == two.fatal and both.cut
    assert both.noise == {"lines": 2, "examples": ["a", "b"]}


def test_the_rules_of_a_check_are_read_the_same_way_from_options_or_a_variant():
    counter = BUILTIN["counterclockwise"]
    assert options_of(counter) == counter.rules and options_of(Rules()) == Rules()
    assert name_of(counter) == "counterclockwise" and name_of(Rules()) == "custom"
    assert variant_of(Rules()) is None


def test_every_field_of_a_case_has_its_place_in_each_key_order():
    # No field set on a result is left out of the report, whatever its kind.
    from dataclasses import fields
    names = sorted(f.name for f in fields(CaseResult))
    assert sorted(CaseResult._ORDER) == names and sorted(CaseResult._SEARCH_ORDER) == names


def test_a_differential_search_is_written_in_the_order_its_reports_have():
    row = CaseResult("differential/sitting", "differential", "sitting", ("dealer.after-win",), Status.FAILED,
                     detail="d", outcome="wrong-answer", failing_clauses=["dealer.after-win"],
                     blamed="dealer.after-win", minimal="m", args={}, expected="N", got="E",
                     rules={}, plan={"first": "N", "results": []}).to_json()
    # The order of a report written before differential rows were CaseResults (seed 1).
    assert list(row) == ["id", "kind", "op", "clauses", "status", "detail", "outcome", "failing_clauses",
                         "blamed", "minimal", "args", "expected", "got", "rules", "plan"]
