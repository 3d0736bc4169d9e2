"""The conformance kit against known implementations: the reference, the JavaScript sample,
and Python adapters with one wrong rule each (tests/broken/adapters.py).

A kit that passes everything proves nothing: each wrong rule must be reported under its
clause with the right outcome class, and a conforming implementation must pass it all.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from turub.conformance.questions.cases import OPTION_SETS
from turub.conformance.commands.check import CheckOptions, reference_target, run_check
from turub.conformance.programs.protocol import ProtocolTarget
from turub.conformance.reports.report import finish
from turub.conformance.programs.targets import PythonTarget
from turub.properties.tags import verifies

BROKEN = Path(__file__).parent / "broken"
sys.path.insert(0, str(BROKEN))
from adapters import EXPECTED, RULE_BREAKS  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "examples" / "turub-sample.js"


def check(target, rules="standard", **options):
    opts = CheckOptions(rules=OPTION_SETS[rules], **options)
    return finish(run_check(target, opts))


@verifies("trick.earliest-identical", "play.follow-suit", "contest.second-win-beats-mark",
          "dealer.after-loss", "deal.dealer-check")
def test_the_reference_engine_passes_its_own_kit():
    report = check(reference_target(), examples=40, properties=10)
    assert report["exit_status"] == 0, report["summary"]
    assert report["summary"]["failed"] == 0 and report["summary"]["unsupported"] == 0
    assert {c["kind"] for c in report["cases"]} == {"vector", "generated", "differential", "property"}
    # every operation is asked, and the report is per clause
    assert {c["op"] for c in report["cases"]} >= {"trick_winner", "legal_plays", "deal", "check_packets",
                                                   "referee", "deal_result", "next_dealer", "first_dealer",
                                                   "contest"}
    assert report["clauses"]["trick.earliest-identical"]["passed"] > 10


@pytest.mark.skipif(shutil.which("node") is None, reason="Node.js is not installed")
@pytest.mark.parametrize("rules", ["standard", "counterclockwise"])
@verifies("table.direction", "trick.highest-trump", "signal.leader-only", "contest.insufficient-win")
def test_the_javascript_sample_passes_the_whole_kit(rules):
    target = ProtocolTarget([shutil.which("node"), str(SAMPLE)], timeout=10)
    # The property suites run over the protocol too, request by request.
    light = {"properties": 10} if rules == "standard" else {"scale": 0.3, "examples": 40}
    report = check(target, rules, **light)
    assert report["exit_status"] == 0, [c for c in report["cases"] if c["status"] != "passed"][:3]
    assert report["summary"]["passed"] == report["summary"]["cases"]
    assert target.name == "turub-sample-js" and report["restarts"] == 0


@pytest.mark.parametrize("mode", sorted(EXPECTED))
def test_each_wrong_rule_is_reported_under_its_clause(mode):
    rules, clause, outcome = EXPECTED[mode]
    report = check(PythonTarget(RULE_BREAKS[mode]()), rules, scale=0.0, examples=25)
    assert report["exit_status"] == 1
    assert report["clauses"][clause]["status"] == "failed", {
        k: v["status"] for k, v in report["clauses"].items() if v["status"] != "passed"}
    outcomes = {c["outcome"] for c in report["cases"]
                if c["status"] == "failed" and clause in c["failing_clauses"]}
    assert outcome in outcomes


# Tag the parametrised test with every clause a broken rule targets.
test_each_wrong_rule_is_reported_under_its_clause = verifies(
    *sorted({c for _, c, _ in EXPECTED.values()}))(test_each_wrong_rule_is_reported_under_its_clause)


@verifies("play.follow-suit")
def test_differential_play_shrinks_a_revoke_to_a_few_actions():
    report = check(PythonTarget(RULE_BREAKS["no-follow-suit"]()), vectors=False, scale=0.0,
                   examples=100)
    deal = next(c for c in report["cases"] if c["id"] == "differential/deal")
    assert deal["status"] == "failed" and deal["outcome"] == "illegal-action-accepted"
    assert deal["failing_clauses"] == ["play.follow-suit"]
    # the smallest situation: trump named, a lead, the revoke (and maybe the trick's end)
    assert len(deal["args"]["actions"]) <= 6, deal["minimal"]
    assert "expected refused for play.follow-suit, got accepted" in deal["minimal"]


@verifies("dealer.after-loss")
def test_differential_play_shrinks_a_sitting_to_one_deal():
    report = check(PythonTarget(RULE_BREAKS["loss-passes-left"]()), vectors=False, scale=0.0,
                   examples=100)
    sitting = next(c for c in report["cases"] if c["id"] == "differential/sitting")
    assert sitting["status"] == "failed" and sitting["failing_clauses"] == ["dealer.after-loss"]
    assert len(sitting["plan"]["results"]) == 1, sitting["minimal"]


class OnlyTricks:
    """An implementation that knows only who wins a trick."""

    name, version = "only-tricks", "1"

    def supports(self):
        return ["trick_winner"]

    def trick_winner(self, cards, trump):
        from turub.conformance.adapter import ReferenceImplementation
        return ReferenceImplementation().trick_winner(cards, trump)


@verifies("trick.highest-led")
def test_unsupported_operations_are_never_reported_as_passed():
    report = check(PythonTarget(OnlyTricks()), scale=0.1, examples=10)
    statuses = {c["op"]: c["status"] for c in report["cases"] if c["op"] != "trick_winner"}
    assert set(statuses.values()) == {"unsupported"}
    assert report["clauses"]["deal.dealer-check"]["status"] == "unsupported"
    assert report["clauses"]["trick.highest-led"]["status"] == "passed"
    assert report["exit_status"] == 0  # everything it supports conforms


class OnlyClockwise(RULE_BREAKS["dealer-calls"].__mro__[1]):
    """The reference, declaring that it supports clockwise play only."""

    name = "only-clockwise"
    rules_supported = {"direction": ["clockwise"], "stake": ["contest", "per-deal"]}


@verifies("table.direction")
def test_unsupported_rule_options_make_ruled_cases_unsupported():
    report = check(PythonTarget(OnlyClockwise()), "counterclockwise", scale=0.1, examples=10)
    ruled = {c["status"] for c in report["cases"] if c["op"] in ("deal", "referee", "next_dealer", "contest")}
    assert ruled == {"unsupported"}
    assert {c["status"] for c in report["cases"] if c["op"] == "trick_winner"} == {"passed"}


class Raises:
    name, version = "raises", "1"

    def supports(self):
        return ["trick_winner", "legal_plays"]

    def trick_winner(self, cards, trump):
        from turub.conformance.adapter import ImplementationError
        raise ImplementationError("cannot count")

    def legal_plays(self, hand, trick):
        raise KeyError("oops")


@verifies("trick.highest-led", "play.follow-suit")
def test_adapter_errors_and_exceptions_are_reported_as_what_they_are():
    report = check(PythonTarget(Raises()), scale=0.0, examples=0)
    outcomes = {c["op"]: c["outcome"] for c in report["cases"] if c["status"] == "failed"}
    assert outcomes == {"trick_winner": "error-reported", "legal_plays": "crash"}


@verifies("contest.insufficient-win", "trick.earliest-identical")
def test_the_property_suites_run_against_the_implementation_under_test():
    # The kit reuses turub.properties: each property is one result, under its clauses.
    sys.path.insert(0, str(Path(__file__).parent))
    import wrong_engines

    report = check(PythonTarget(wrong_engines.LoweredMark()), vectors=False, seed=None,
                   examples=0, properties=10)
    failed = {c["id"] for c in report["cases"] if c["status"] == "failed"}
    assert "property/test_contest.test_insufficient_win_keeps_the_mark" in failed
    assert all(c["kind"] == "property" for c in report["cases"])
    broken = next(c for c in report["cases"] if c["id"] == "property/test_contest.test_insufficient_win_keeps_the_mark")
    assert "contest.insufficient-win" in broken["clauses"] and "results=" in broken["minimal"]
    # A property about tricks does not fail for a contest bug.
    assert not any(c["status"] == "failed" for c in report["cases"] if c["op"].startswith("test_tricks."))
    report = check(PythonTarget(wrong_engines.LaterIdenticalWins()), vectors=False, seed=None,
                   examples=0, properties=10)
    failed = {c["op"] for c in report["cases"] if c["status"] == "failed"}
    assert any(op.startswith("test_tricks.") for op in failed)
    assert not any(op.startswith("test_contest.") for op in failed)


@verifies("table.direction", "signal.kinds")
@pytest.mark.parametrize("rules", ["counterclockwise", "signals-documented"])
def test_a_python_adapter_without_rules_supported_is_checked_under_every_option_set(rules):
    # No ``rules_supported`` means every option value (the adapter interface); behind the
    # protocol the worker process must say so in its hello, or every ruled case would be
    # reported unsupported.
    command = [sys.executable, "-P", "-m", "turub.conformance.programs.shim",
               "turub.conformance.adapter:ReferenceImplementation"]
    report = check(ProtocolTarget(command), rules, scale=0.1, examples=5, properties=0)
    ruled = [c for c in report["cases"] if c["op"] in ("deal", "referee", "next_dealer", "contest")]
    assert ruled and {c["status"] for c in ruled} == {"passed"}
    # and it speaks the version its methods take (the reference: 2), so no question is skipped
    assert {c["status"] for c in report["cases"]} == {"passed"}
    assert report["exit_status"] == 0
