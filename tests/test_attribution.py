"""The kit names the broken rule: one-rule-wrong implementations, written independently of
the engine (``tests/broken/independent.py``), each fail with their broken clause the most
blamed one and few clause rows failed; the same implementation with no bug conforms.

Each run is the kit's own vectors and generated cases (differential play and the property
suites are left out to keep the suite short); ``benchmarks/bench_attribution.py`` runs the
defaults and prints the table.
"""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

import pytest

from turub.conformance.questions.cases import OPTION_SETS
from turub.conformance.diagnosis.blame import failed_rows, top_blamed
from turub.conformance.commands.check import CheckOptions, run_check
from turub.conformance.reports.report import finish, render_text
from turub.conformance.programs.targets import PythonTarget
from turub.properties.tags import verifies

_spec = importlib.util.spec_from_file_location("independent", Path(__file__).parent / "broken" / "independent.py")
I = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(I)

#: The option set under which a bug shows (it breaks an option's rule); default: standard.
SHOWS_UNDER = {"always-clockwise": "counterclockwise", "per-deal-ignored": "stake-per-deal",
              "turn-always-clockwise": "counterclockwise", "per-deal-draw-keeps-winner": "stake-per-deal",
              "known-result-ignored": "early-close-known", "documented-ignored": "signals-documented",
              "previous-ignored": "opponent-previous"}

def _check(bug, rules_name="standard"):
    """The report of ``bug``'s check under ``rules_name``, run once per file (the tests read it)."""
    return _checked(bug, rules_name)


@functools.cache
def _checked(bug, rules_name):
    options = CheckOptions(rules=OPTION_SETS[rules_name], examples=0, properties=0)
    return finish(run_check(PythonTarget(I.Independent(bug)), options))


@verifies("play.follow-suit", "trick.earliest-identical", "result.draw-18", "contest.insufficient-win")
@pytest.mark.parametrize("bug", list(I.BUGS))
def test_the_broken_rule_is_the_most_blamed_clause(bug):
    clause = I.BUGS[bug][0]
    report = _check(bug, SHOWS_UNDER.get(bug, "standard"))
    assert report["exit_status"] == 1, f"{bug} was not caught"
    assert top_blamed(report) == clause, (top_blamed(report), report["diagnosis"]["blamed"][:3])
    rows = failed_rows(report)
    assert clause in rows and len(rows) <= 2, rows
    # every failure is blamed on one clause, or marked a consequence
    for c in report["cases"]:
        if c["status"] == "failed":
            assert c.get("blamed") or c.get("consequence_of"), c["id"]
    text = render_text(report)
    assert f"Smallest situation for {clause}" in text and "rule " + clause in text


@verifies("table.direction", "stake.per-deal", "deal.dealer-check", "contest.decided-is-final")
@pytest.mark.parametrize("rules_name", list(OPTION_SETS))
def test_the_correct_independent_implementation_conforms(rules_name):
    report = _check(None, rules_name)
    bad = [c for c in report["cases"] if c["status"] != "passed"]
    assert report["exit_status"] == 0 and not bad, bad[:2]
    assert "Diagnosis" not in render_text(report)


def test_affected_rows_are_not_failed_rows():
    report = _check("must-overtake")
    assert report["clauses"]["play.no-forced-trump"]["status"] == "failed"
    assert report["clauses"]["play.follow-suit"]["status"] == "affected"
    assert report["clauses"]["play.follow-suit"]["failed"] == 0 < report["clauses"]["play.follow-suit"]["affected"]


@verifies("play.refusal-order")
def test_the_engine_refuses_by_the_first_rule_in_the_order():
    # Each pair of rules one action can break together: the earlier in the order is named.
    from turub import Deal, RuleError, Seat, parse_card
    from turub.errors import REFUSAL_ORDER

    deal = Deal.from_seed(5, Seat.NORTH)
    caller = deal.caller

    def refusal(action):
        try:
            deal.apply(action)
        except RuleError as e:
            return e.clause
        raise AssertionError(f"{action} accepted")

    other = next(s for s in Seat if s != caller)
    assert refusal({"act": "play", "seat": other.letter, "card": "AS"}) == "play.order-of-actions"
    deal.name_trump(caller, "H")
    assert refusal({"act": "trump", "seat": other.letter, "suit": "S"}) == "trump.once"
    leader = deal.to_act
    follower = next(s for s in Seat if s != leader)
    missing = next(c for c in ("AS", "AH", "AD", "AC", "6S", "6H") if not deal.holds(follower, parse_card(c)))
    assert refusal({"act": "play", "seat": follower.letter, "card": missing}) == "play.turn"
    assert refusal({"act": "play", "seat": follower.letter, "card": "ZZ"}) == "play.turn"
    assert refusal({"act": "signal", "seat": follower.letter, "signal": ""}) == "signal.kinds"
    assert refusal({"act": "signal", "seat": follower.letter, "signal": "knock"}) == "signal.leader-only"
    deal.play(leader, deal.legal_plays()[0])
    deal.signal(leader, "knock")
    assert refusal({"act": "signal", "seat": follower.letter, "signal": "knock"}) == "signal.leader-only"
    assert refusal({"act": "signal", "seat": leader.letter, "signal": " "}) == "signal.kinds"
    order = list(REFUSAL_ORDER)
    assert order.index("play.turn") < order.index("play.card-in-hand") < order.index("play.follow-suit")


def _pairs_in_vectors():
    """Every pair of rules one action of the standard vectors breaks together, with the rule
    the reference names first."""
    from turub.conformance.commands.check import vector_cases
    from turub import Rules
    pairs = set()
    for case in vector_cases(Rules()):
        for i, broken in enumerate(case.get("why", {}).get("broken", [])):
            named = case["expected"]["responses"][i].get("refused")
            pairs |= {(named, other) for other in broken if other != named}
    return sorted(pairs)


class _SwappedOrder:
    """The reference, except that when an action breaks both rules of ``pair`` it names the
    second: a referee with that one pair of refusals in the other order."""

    def __new__(cls, pair):
        from turub.conformance.adapter import ReferenceImplementation
        from turub.conformance.questions.cases import rules_broken

        class Swapped(ReferenceImplementation):
            name = f"swapped {pair[0]} / {pair[1]}"

            def answer_first(self, deal, action):
                broken = rules_broken(deal, action)
                if pair[0] in broken and pair[1] in broken:
                    from turub import RuleError
                    try:
                        deal.apply(action)
                    except RuleError as e:
                        if e.clause == pair[0]:
                            return {"refused": pair[1]}
                return None
        return Swapped()


@verifies("play.refusal-order")
@pytest.mark.parametrize("pair", _pairs_in_vectors(), ids="/".join)
def test_every_pair_of_refusals_has_a_case_and_a_swap_is_blamed_on_the_order(pair):
    options = CheckOptions(examples=0, properties=0, seed=None)
    report = finish(run_check(PythonTarget(_SwappedOrder(pair)), options))
    assert report["exit_status"] == 1, f"swapping {pair} went unnoticed"
    assert top_blamed(report) == "play.refusal-order" and failed_rows(report) == ["play.refusal-order"]


def test_every_pair_the_guide_orders_is_covered():
    # the pairs one action can break together, from the order of refusals (clause
    # play.refusal-order): each is met by the vectors
    found = {frozenset(p) for p in _pairs_in_vectors()}
    for pair in [("play.order-of-actions", "play.turn"), ("play.order-of-actions", "play.card-in-hand"),
                 ("play.turn", "play.card-in-hand"), ("play.turn", "pack.card-notation"),
                 ("play.turn", "play.follow-suit"), ("play.card-in-hand", "play.follow-suit"),
                 ("trump.once", "trump.caller"), ("trump.caller", "trump.any-suit"),
                 ("trump.once", "trump.any-suit"), ("signal.kinds", "signal.leader-only"),
                 ("signal.kinds", "signal.timing"), ("signal.kinds", "signal.once-per-trick"),
                 ("signal.leader-only", "signal.timing"), ("signal.leader-only", "signal.once-per-trick"),
                 ("signal.timing", "signal.once-per-trick"), ("play.order-of-actions", "signal.kinds"),
                 ("play.order-of-actions", "pack.card-notation")]:
        assert frozenset(pair) in found, pair


@verifies("result.draw-18")
def test_eighteen_all_to_the_dealers_side_fails_dozens_of_cases():
    report = _check("draw-to-dealer")
    failed = [c for c in report["cases"] if c["status"] == "failed"]
    assert len(failed) >= 20 and {c["blamed"] for c in failed} == {"result.draw-18"}


@verifies("contest.unbeatable-mark", "contest.insufficient-win")
@pytest.mark.parametrize("bug", ["equal-mark-at-36", "equal-beats-mark"])
def test_a_win_equal_to_the_mark_is_blamed_on_the_edge_it_breaks_in_the_full_check(bug):
    # With differential play and the property suites on, the same disagreement shows in a
    # sitting and in the properties' smallest situations too: a program wrong only at the mark
    # of 36 (the mark met is read right below it) is the unbeatable mark's, one wrong at every
    # mark is the general rule's, and each is one failed clause row.
    report = finish(run_check(PythonTarget(I.Independent(bug)),
                              CheckOptions(seed=1, examples=300, properties=25)))
    clause = I.BUGS[bug][0]
    assert top_blamed(report) == clause and failed_rows(report) == [clause], \
        (top_blamed(report), failed_rows(report))
    assert any(c["status"] == "failed" and c["kind"] in ("differential", "property")
               for c in report["cases"]), "the full check's own failures are the point"
