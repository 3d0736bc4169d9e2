"""The property suites: a search that ends for the kit's own reasons is never a pass.

A property run against a program is ``unsupported`` only for something the program lacks
(an operation, or the options every example was drawn under); ``failed`` for a falsified
property or a program that crashed.  A search the kit itself cut short (Hypothesis's own
error or skip, an example no filter of the kit lets through, a ``NotImplementedError`` of
the kit's code, a profile loaded in the process that turns the drawing off) is
``not-run``: the run is INCOMPLETE (exit 4), never CONFORMS ("unsupported" counts for a
conforming run, so it must not hide the kit's failure either)."""

from __future__ import annotations

import unittest

import pytest
from hypothesis import Phase, settings
from hypothesis import strategies as st

from turub.conformance.adapter import ReferenceImplementation
from turub.conformance.commands.check import CheckOptions, reference_target, run_check
from turub.conformance.programs.targets import PythonTarget
from turub.conformance.questions.properties import property_result
from turub.conformance.reports.report import EXIT_CONFORMS, EXIT_INCOMPLETE, finish
from turub.decisions import HouseRuleError
from turub.properties.checks import interface_properties, requires
from turub.properties.factory import property_test

# A property of the suites that draws its examples (a trick and a trump), and its examples'
# share of the budget is the whole of it.
DRAWN = "test_tricks.test_second_ace_never_beats_the_first"


class Counting(PythonTarget):
    """The reference, counting the questions it is asked."""

    def __init__(self, impl=None) -> None:
        super().__init__(impl or ReferenceImplementation(), 5.0)
        self.asked = 0

    def call(self, op, args):
        self.asked += 1
        return super().call(op, args)


def _reference() -> Counting:
    target = Counting()
    target.start()
    return target


class OnlyClockwise(ReferenceImplementation):
    rules_supported = {"direction": ["clockwise"]}


class NoTricks(ReferenceImplementation):
    def supports(self):
        return [op for op in super().supports() if op != "trick_winner"]


# --- a profile loaded in the process does not choose what the kit draws --------------------------

@pytest.fixture
def profile():
    """Load a profile of Hypothesis for the test; the one loaded before comes back after."""
    before = settings.get_current_profile_name()
    loaded = []

    def load(name: str, **kwargs) -> None:
        settings.register_profile(name, **kwargs)
        settings.load_profile(name)
        loaded.append(name)
    yield load
    settings.load_profile(before)


@pytest.mark.parametrize("phases", [(Phase.reuse, Phase.shrink), (Phase.explicit,), (Phase.explicit, Phase.reuse)],
                         ids=["replay-only", "worked-examples-only", "no-generation"])
@pytest.mark.parametrize("seed", [None, 3], ids=["derandomized", "seeded"])
def test_a_loaded_profile_without_generation_still_draws_every_example(profile, phases, seed):
    """The project's ``replay`` profile (or an implementer's quick one) loaded in the
    process made the kit's property searches draw nothing: each was "unsupported"
    (Hypothesis's skip) or "passed" on its worked examples alone."""
    test = interface_properties()[DRAWN]
    plain = _reference()
    expected = property_result(plain, DRAWN, test, 20, seed=seed)
    assert expected["status"] == "passed" and plain.asked > 20, (expected, plain.asked)
    profile("h-verdicts-no-generation", phases=phases)
    target = _reference()
    got = property_result(target, DRAWN, test, 20, seed=seed)
    # The same search, question for question, whatever profile is loaded.
    assert got["status"] == "passed", got
    assert target.asked == plain.asked


# --- properties whose search the kit itself ends ------------------------------------------------

@property_test(rules=st.just({"direction": "counterclockwise"}))
def prop_asked_counterclockwise(impl, rules):
    impl.next_dealer("N", "NS", rules)


@property_test(n=st.integers().filter(lambda _: False))
def prop_nothing_gets_through_the_kits_filter(impl, n):
    impl.next_dealer("N", "NS", {})


@property_test(trump=st.sampled_from("SHDC"))
def prop_asks_a_trick(impl, trump):
    impl.trick_winner(["6S", "7S", "8S", "9S"], trump)


@property_test(trump=st.sampled_from("SHDC"))
def prop_the_oracle_is_not_written(impl, trump):
    impl.trick_winner(["6S", "7S", "8S", "9S"], trump)
    raise NotImplementedError("the oracle of this rule")


@property_test(trump=st.sampled_from("SHDC"))
def prop_requires_trick_winner(impl, trump):
    requires(impl, "trick_winner")
    impl.trick_winner(["6S", "7S", "8S", "9S"], trump)


@property_test(trump=st.sampled_from("SHDC"))
def prop_the_kit_skips_itself(impl, trump):
    impl.trick_winner(["6S", "7S", "8S", "9S"], trump)
    raise unittest.SkipTest("the kit skipped this for a reason of its own")


@property_test(n=st.integers(min_value=5, max_value=1))
def prop_with_an_invalid_strategy(impl, n):
    impl.trick_winner(["6S", "7S", "8S", "9S"], "S")


@property_test(n=st.integers(0, 10))
def prop_a_house_rule_breaks_and_an_assertion_fails(impl, n):
    impl.trick_winner(["6S", "7S", "8S", "9S"], "S")
    if n >= 5:
        raise HouseRuleError("v", "house.x", "trick_winner", "raised ValueError", "a trick")
    assert n == 0, "a second failure, of another kind, at another line"


@property_test(n=st.integers(0, 10))
def prop_two_unwritten_oracles(impl, n):
    impl.trick_winner(["6S", "7S", "8S", "9S"], "S")
    if n >= 5:
        raise NotImplementedError("the oracle of the later tricks")
    if n >= 1:
        raise NotImplementedError("the oracle of the first trick")


def _row(test, target=None):
    target = target or _reference()
    return property_result(target, test.__name__, test, 20)


def _kit_failed(row: dict, test) -> None:
    assert row["status"] == "not-run", row
    # one line, naming the property the kit could not run
    assert "\n" not in row["detail"] and test.__name__ in row["detail"], row["detail"]
    assert "the kit failed" in row["detail"], row["detail"]


def test_an_example_no_filter_of_the_kit_lets_through_is_not_run():
    """Hypothesis's ``Unsatisfiable`` with nothing the program refused: the kit's own
    filter kept every example out, so nothing was checked; it was "unsupported"."""
    _kit_failed(_row(prop_nothing_gets_through_the_kits_filter), prop_nothing_gets_through_the_kits_filter)


def test_every_example_under_options_the_program_does_not_play_is_unsupported():
    target = PythonTarget(OnlyClockwise(), 5.0)
    target.start()
    row = _row(prop_asked_counterclockwise, target)
    assert row["status"] == "unsupported" and "options" in row["detail"], row
    # the same property, asked of a program that plays the options, is judged
    assert _row(prop_asked_counterclockwise)["status"] == "passed"


def test_a_not_implemented_error_of_the_kits_code_is_not_run():
    _kit_failed(_row(prop_the_oracle_is_not_written), prop_the_oracle_is_not_written)


def test_an_operation_the_program_does_not_support_is_unsupported():
    target = PythonTarget(NoTricks(), 5.0)
    target.start()
    row = _row(prop_asks_a_trick, target)
    assert row["status"] == "unsupported" and "trick_winner" in row["detail"], row
    row = _row(prop_requires_trick_winner, target)
    assert row["status"] == "unsupported" and "trick_winner" in row["detail"], row


def test_a_skip_with_nothing_the_program_lacks_is_not_run():
    """``unittest.SkipTest`` is how a property says the program lacks an operation; raised
    while the program lacks nothing, it is the kit's (or Hypothesis's) own skip."""
    _kit_failed(_row(prop_the_kit_skips_itself), prop_the_kit_skips_itself)


def test_hypothesis_refusing_the_kits_strategy_is_not_run_and_not_the_programs_failure():
    row = _row(prop_with_an_invalid_strategy)
    _kit_failed(row, prop_with_an_invalid_strategy)
    assert "InvalidArgument" in row["detail"]


def test_distinct_failures_all_of_the_kits_own_are_not_run():
    """Hypothesis reports distinct failures together (a group): all of the kit's own, the
    property is not run, as for one."""
    _kit_failed(_row(prop_two_unwritten_oracles), prop_two_unwritten_oracles)


def test_a_house_rule_that_broke_among_other_failures_is_not_judged():
    """Hypothesis reports distinct failures together (a group): a broken house rule among
    them leaves the property not judged, as it does alone."""
    row = _row(prop_a_house_rule_breaks_and_an_assertion_fails)
    assert row["status"] == "not-run" and row["house_rule_failed"] == "house.x", row


def test_a_falsified_property_is_still_a_failure():
    @property_test(trump=st.sampled_from("SHDC"))
    def test_the_first_card_never_wins(impl, trump):
        assert impl.trick_winner(["6S", "7S", "8S", "9S"], trump) != 0 or trump != "S", "first won"

    @property_test(trump=st.sampled_from("SHDC"))
    def test_a_wrong_claim(impl, trump):
        assert impl.trick_winner(["6S", "7S", "8S", "9S"], trump) == 0, "the first card won"

    assert _row(test_the_first_card_never_wins)["status"] == "passed"
    row = _row(test_a_wrong_claim)
    assert row["status"] == "failed" and "the first card won" in row["detail"], row


@pytest.mark.parametrize("broken", [prop_nothing_gets_through_the_kits_filter, prop_the_oracle_is_not_written,
                                    prop_the_kit_skips_itself, prop_with_an_invalid_strategy],
                         ids=lambda t: t.__name__)
def test_a_property_the_kit_could_not_run_makes_the_run_incomplete(monkeypatch, broken):
    """End to end: the run is INCOMPLETE (4), never CONFORMS, and says which property."""
    import turub.properties.checks as checks
    monkeypatch.setattr(checks, "interface_properties", lambda: {broken.__name__: broken})
    report = finish(run_check(reference_target(), CheckOptions(vectors=False, scale=0.02, examples=0,
                                                               properties=5)))
    rows = [c for c in report["cases"] if c["kind"] == "property"]
    assert [c["status"] for c in rows] == ["not-run"], rows
    assert report["exit_status"] == EXIT_INCOMPLETE != EXIT_CONFORMS


# --- user code that exits, and the whole-run limit, during the property suites --------------------

@property_test(trump=st.sampled_from("SHDC"))
def prop_exits(impl, trump):
    impl.trick_winner(["6S", "7S", "8S", "9S"], trump)
    raise SystemExit(0)


@property_test(trump=st.sampled_from("SHDC"))
def prop_runs_out_of_time(impl, trump):
    """The whole-run time limit comes while it runs (what ``whole_run_limit`` raises)."""
    import signal

    from turub.conformance.commands.usercode import run_out_of_time
    impl.trick_winner(["6S", "7S", "8S", "9S"], trump)
    raise run_out_of_time()(signal.SIGALRM)


def _run_properties(monkeypatch, properties: dict, **options) -> dict:
    import turub.properties.checks as checks
    monkeypatch.setattr(checks, "interface_properties", lambda: dict(properties))
    return finish(run_check(reference_target(), CheckOptions(vectors=False, scale=0.02, examples=0,
                                                             properties=5, **options)))


def test_a_property_that_exits_is_not_run_and_the_others_still_run(monkeypatch):
    """``SystemExit(0)`` while a property runs is no exit and no pass: that property is
    ``not-run`` with the reason, the others run (they were lost with it: one row in all)."""
    report = _run_properties(monkeypatch, {"first": prop_asks_a_trick, "exits": prop_exits,
                                           "last": prop_requires_trick_winner})
    rows = {c["id"]: c for c in report["cases"] if c["kind"] == "property"}
    assert {k: r["status"] for k, r in rows.items()} == {
        "property/first": "passed", "property/exits": "not-run", "property/last": "passed"}, rows
    assert "SystemExit" in rows["property/exits"]["detail"] and "exits" in rows["property/exits"]["detail"]
    assert report["exit_status"] == EXIT_INCOMPLETE


def test_the_whole_run_limit_during_the_property_suites_keeps_what_they_found(monkeypatch):
    """The run is cut (INCOMPLETE), and the properties judged before the limit are in the
    report: a failure found before it still makes the verdict DOES NOT CONFORM."""
    @property_test(trump=st.sampled_from("SHDC"))
    def prop_wrong(impl, trump):
        assert impl.trick_winner(["6S", "7S", "8S", "9S"], trump) == 0, "the first card won"

    report = _run_properties(monkeypatch, {"first": prop_asks_a_trick, "wrong": prop_wrong,
                                           "cut": prop_runs_out_of_time})
    rows = {c["id"]: c["status"] for c in report["cases"] if c["kind"] == "property"}
    assert rows == {"property/first": "passed", "property/wrong": "failed"}, rows
    assert report["cut"] and report["exit_status"] == 1
    report = _run_properties(monkeypatch, {"first": prop_asks_a_trick, "cut": prop_runs_out_of_time})
    assert [c["status"] for c in report["cases"] if c["kind"] == "property"] == ["passed"]
    assert report["cut"] and report["exit_status"] == EXIT_INCOMPLETE


# --- the pytest plugin: a property the kit could not run is no passed item ----------------------

_PLUGIN_CONFTEST = '''
import hypothesis.strategies as st
import turub.properties.checks as checks
from turub.properties.factory import property_test


@property_test(n=st.integers().filter(lambda _: False))
def prop_nothing_gets_through(impl, n):
    impl.next_dealer("N", "NS", {})


@property_test(trump=st.sampled_from("SHDC"))
def prop_holds(impl, trump):
    impl.trick_winner(["6S", "7S", "8S", "9S"], trump)


checks.interface_properties = lambda: {"kit.nothing_gets_through": prop_nothing_gets_through,
                                       "kit.holds": prop_holds}
'''


def test_the_pytest_plugin_fails_a_property_the_kit_could_not_run(tmp_path):
    """The plugin passed every item that was neither unsupported nor failed: a property the
    kit could not run (``not-run``) was a passed test."""
    import subprocess
    import sys
    (tmp_path / "conftest.py").write_text(_PLUGIN_CONFTEST, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:randomly", "-q",
                           "-rA", "--turub-python", "turub.conformance.adapter:ReferenceImplementation",
                           "--turub-scale", "0.01", "--turub-examples", "0", "--turub-properties", "5",
                           "-k", "property"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stdout[-2000:]
    assert "FAILED turub::property/kit.nothing_gets_through - Failed: not run" in done.stdout, done.stdout[-2000:]
    assert "not run: not judged: the kit failed while running property kit.nothing_gets_through" in done.stdout
    assert "PASSED turub::property/kit.holds" in done.stdout, done.stdout[-2000:]
