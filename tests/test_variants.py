"""Rule variants (issue 14): a house rule in one file, checked, diffed and baselined.

The house rules and the programs live in ``tests/variants/`` as a club would write them:
``club.py`` (a void player must trump when able; a draw ends the sequence), a declarative
``ccw-previous.toml``, and ``club_programs.py`` (programs implementing the house rule by
hand, right and wrong).  The expected answers here are stated from the club's words, not
from the variant's own rule function.
"""

from __future__ import annotations

import copy
import functools
import json
import subprocess
import sys
from pathlib import Path

import pytest

from turub import Deal, Direction, RuleError, Rules, Seat, Suit, parse_card
from turub.clauses import clause, is_clause
from turub.conformance.reports.baseline import compare_reports
from turub.conformance.commands.check import CheckOptions, run_check, vector_cases
from turub.conformance.reports.report import XfailError, finish, load_xfail
from turub.conformance.programs.targets import PythonTarget
from turub.conformance.reports.variants import render_report, variant_report
from turub.rules import deal_result
from turub.variants import BUILTIN, Variant, VariantClause, VariantError, resolve, select

HERE = Path(__file__).parent / "variants"
CLUB = f"{HERE / 'club.py'}:club"
CLUB_DRAWS = f"{HERE / 'club.py'}:club-draws"
sys.path.insert(0, str(HERE))
import club_programs as P  # noqa: E402

SMALL = dict(scale=0.12, examples=10, properties=0, budget=3.0)


def turub(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "import sys; from turub.tools.cli import main; "
                           "sys.exit(main(sys.argv[1:]))", *args], capture_output=True, text=True, timeout=300)


def check(impl, variant, **options) -> dict:
    return finish(run_check(PythonTarget(impl), CheckOptions(rules=resolve(variant), **{**SMALL, **options})))


@functools.cache
def _checked_once(app: type, variant: str) -> dict:
    return check(app(), variant)


def checked(app: type, variant: str) -> dict:
    """``check`` of a new ``app`` under ``variant`` at ``SMALL``, run once per worker: the tests
    reading one same run share it (each gets its own copy, to read as it likes)."""
    return copy.deepcopy(_checked_once(app, variant))


# --- a variant is a named, versioned object with its own clauses ------------------------------------

def test_a_house_rule_written_in_one_file_has_its_own_clauses():
    club = resolve(CLUB)
    assert (club.name, club.version) == ("club", "1")
    (rule,) = club.clauses
    assert (rule.id, rule.relation, rule.targets) == ("club.must-trump", "replaces", ("play.no-forced-trump",))
    assert "have to play a trump" in rule.text
    assert is_clause("club.must-trump") and clause("club.must-trump").title.startswith("A void player")
    draws = resolve(CLUB_DRAWS)
    assert draws.base == club and [c.id for c in draws.all_clauses] == ["club.draw-ends-sequence",
                                                                       "club.must-trump"]


def test_a_declarative_file_changes_only_options():
    v = resolve(str(HERE / "ccw-previous.toml"))
    assert v.rules == Rules(direction=Direction.COUNTERCLOCKWISE, opponent_dealer="previous")
    assert not v.has_rules and v.deal_class is Deal  # served by the standard engine unchanged


@pytest.mark.parametrize("bad, says", [
    (lambda: VariantClause("must-trump", "x"), "namespaced"),
    (lambda: VariantClause("play" + ".must-trump", "x"), "standard part"),
    (lambda: VariantClause("club.x", "x", replaces=["play" + ".nothing"]), "not a standard clause"),
    (lambda: VariantClause("club.x", "x", decides="legal_plays"), "needs the decision"),
    (lambda: Variant("club2", options={"direction": "sideways"}), "direction=sideways"),
    (lambda: resolve("no-such-variant"), "the variants are standard, counterclockwise"),
    (lambda: resolve(str(HERE / "missing.py") + ":X"), "no variant file"),
])
def test_a_malformed_variant_is_refused_naming_what_is_wrong(bad, says):
    with pytest.raises(VariantError) as refused:
        bad()
    assert says in str(refused.value) and "[table.direction]" not in str(refused.value)


def test_the_built_in_options_are_variants_in_one_table_of_names():
    assert list(BUILTIN) == ["standard", "counterclockwise", "stake-per-deal", "opponent-previous",
                             "signals-documented", "early-close-known"]
    assert select(None, ["opponent-previous"]).rules == Rules(opponent_dealer="previous")
    assert select("counterclockwise").rules == Rules(direction=Direction.COUNTERCLOCKWISE)
    assert select(None, ["direction=counterclockwise"]) is BUILTIN["counterclockwise"]
    # the same committed vectors, through the variant or through the options
    assert vector_cases(BUILTIN["counterclockwise"]) == vector_cases(Rules(direction=Direction.COUNTERCLOCKWISE))
    for command in (["play", "--rules", "opponent-previous"], ["play", "--variant", "opponent-previous"],
                    ["check", "--rules", "opponent-previous", "--quick", "--properties", "0",
                     "--examples", "0", "--no-vectors"]):
        assert turub(*command).returncode == 0, command


def test_an_option_error_names_the_option_not_a_clause():
    done = turub("play", "--rules", "direction=sideways")
    assert done.returncode == 2
    assert "direction=sideways is not allowed" in done.stderr and "[table.direction]" not in done.stderr


# --- the variant is the oracle -----------------------------------------------------------------------

def _void_with_trump():
    """A deal at the moment a player void in the led suit holds trump (found by playing)."""
    import random
    club = resolve(CLUB)
    for seed in range(200):
        deal = club.deal_from_seed(seed)
        deal.name_trump(deal.caller, Suit.HEARTS)
        rng = random.Random(seed)
        while deal.result is None:
            trick = deal.current_trick
            hand = deal.hand(deal.to_act)
            if trick and not any(c.suit is trick[0][1].suit for c in hand) and \
                    any(c.suit is Suit.HEARTS for c in hand) and any(c.suit is not Suit.HEARTS for c in hand):
                return club, deal, hand
            deal.play(deal.to_act, rng.choice(deal.legal_plays()))
    raise AssertionError("no such moment in 200 deals")


def test_a_void_player_holding_trump_must_trump_under_the_club_rule():
    club, deal, hand = _void_with_trump()
    trumps = {c for c in hand if c.suit is Suit.HEARTS}
    assert set(deal.legal_plays()) == trumps  # the club's words: only trumps
    before = deal.state()
    discard = next(c for c in hand if c.suit is not Suit.HEARTS)
    with pytest.raises(RuleError) as refused:
        deal.play(deal.to_act, discard)
    assert refused.value.clause == "club.must-trump"
    assert deal.state() == before  # a refusal changes nothing
    record = {k: v for k, v in deal.to_record().items() if not k.startswith("variant")}
    standard = Deal.replay(record)  # the same moment, standard rules
    assert set(standard.legal_plays()) == set(hand)
    standard.play(standard.to_act, discard)  # no duty to trump


def test_a_variant_without_rules_costs_the_standard_engine_nothing():
    for v in BUILTIN.values():
        assert v.deal_class is Deal
    from turub.rules import decision_at
    assert Deal.decide_trick is decision_at and Deal.decide_result.__qualname__ == "Deal.decide_result"
    assert Deal.from_seed(1).decide_result(20, 16) == deal_result(20, 16)
    assert Deal.checks_follow_suit is True


def test_a_draw_ends_the_sequence_under_the_club_draws_rule():
    from turub import Contest
    draws = resolve(CLUB_DRAWS)
    c = draws.contest_step(Contest(), deal_result(20, 16))
    assert (c.holder, c.mark) is not (None, None)
    c = draws.contest_step(c, deal_result(18, 18))
    assert (c.holder, c.mark, c.winner, c.clauses) == (None, None, None, ("club.draw-ends-sequence",))
    sheet = draws.sitting(Seat.NORTH)
    for r in (deal_result(20, 16), deal_result(18, 18), deal_result(21, 15)):
        sheet.record(r)
    assert sheet.contest.winner is None and sheet.contest.mark == 21  # the 21 starts afresh


def test_play_and_simulate_play_by_the_variant():
    done = turub("play", "--seed", "3", "--variant", CLUB)
    assert done.returncode == 0 and "variant club 1" in done.stdout
    done = turub("simulate", "--deals", "30", "--variant", CLUB_DRAWS)
    assert done.returncode == 0 and "variant club-draws 1" in done.stdout


# --- checking a program against the variant ---------------------------------------------------------

def test_a_program_with_the_house_rule_conforms():
    report = checked(P.ClubApp, CLUB)
    assert report["conforms"], [c["detail"] for c in report["cases"] if c["status"] == "failed"][:3]
    assert report["variant"]["name"] == "club" and report["variant"]["clauses"] == ["club.must-trump"]


@pytest.mark.parametrize("app", [P.StandardApp, P.WrongClauseApp], ids=["standard-rule", "wrong-clause"])
def test_a_program_with_the_standard_rule_fails_blamed_on_the_variants_clause(app):
    report = checked(app, CLUB)
    assert not report["conforms"]
    blamed = {c["blamed"] for c in report["cases"] if c["status"] == "failed"}
    assert blamed == {"club.must-trump"}
    assert report["clauses"]["club.must-trump"]["status"] == "failed"


# The club's programs over the protocol (the right one conforms, the standard one is diagnosed on
# the club's clause, in the report and on the terminal): kind "legal plays" of kind_checks.py.


def test_a_crashing_program_never_passes_even_with_its_failures_listed():
    # One run, finished twice (finish fills in the report it is given: the first gets a copy):
    # as it is, and with the clauses of its crashes listed as expected failures.
    run = run_check(PythonTarget(P.CrashingApp()), CheckOptions(rules=resolve(CLUB), **SMALL))
    crashing = finish(copy.deepcopy(run))
    assert not crashing["conforms"]
    listed = [{"clause": c, "reason": "known"} for c in ("club.must-trump", "play.turn")]
    report = finish(run, listed)
    assert not report["conforms"] and report["summary"]["failed"] > 0
    with pytest.raises(XfailError):
        load_xfail(json.dumps({"format": "turub-xfail/1", "expected_failures": [
            {"clause": "club.must-trump", "outcome": "crash", "reason": "it crashes"}]}))


def test_a_contest_house_rule_fails_a_program_without_it_on_its_clause():
    draws_app = P.ClubApp(draws=True)
    assert check(draws_app, CLUB_DRAWS)["conforms"]
    plain = P.ClubApp()
    plain.variants = ["club-draws"]
    report = check(plain, CLUB_DRAWS)
    blamed = {c["blamed"] for c in report["cases"] if c["status"] == "failed"}
    assert not report["conforms"] and blamed == {"club.draw-ends-sequence"}


def test_a_program_declaring_other_variants_is_not_asked_and_does_not_pass():
    report = check(P.ClubApp(), CLUB_DRAWS)  # it declares only "club"
    assert report["summary"]["passed"] == 0 and not report["conforms"]


def test_a_program_of_one_variant_gets_the_property_checks_under_it():
    class OnlyCounterclockwise(P.StandardApp):
        variants = None
        rules_supported = {"direction": ["counterclockwise"]}
    report = check(OnlyCounterclockwise(), "counterclockwise", properties=1, scale=0.05, examples=0,
                   vectors=False, properties_budget=12.0)
    props = [c for c in report["cases"] if c["kind"] == "property"]
    assert sum(c["status"] == "passed" for c in props) >= len(props) // 2, \
        [(c["id"], c.get("detail")) for c in props if c["status"] != "passed"]


def test_the_program_is_told_the_variant_in_every_request():
    seen = []

    class Recording(P.ClubApp):
        def trick_winner(self, cards, trump, variant=None):
            seen.append(variant)
            return super().trick_winner(cards, trump)
    check(Recording(), CLUB, scale=0.05, vectors=False)
    assert seen and set(seen) == {"club"}


# --- the diff --------------------------------------------------------------------------------------

def test_the_diff_names_the_first_differing_decision_and_the_replaced_clause():
    d = variant_report("standard", CLUB, deals=4)
    assert d["cases"] and {tuple(c["replaced"]) for c in d["cases"]} == {("club.must-trump",)}
    referee = [c for c in d["cases"] if c["op"] == "referee"]
    assert all(c["decision"].startswith("action ") and
               "play.void-any-card, play.no-forced-trump (ok) -> club.must-trump (refused" in c["decision"]
               for c in referee)
    assert all("club.must-trump" not in c["affected"] for c in d["cases"])
    text = render_report(d)
    assert all(c["id"] in text for c in d["cases"])  # every case, in full


def test_the_direction_is_blamed_on_the_direction_not_the_trump_suit():
    d = variant_report("standard", "counterclockwise", deals=2)
    assert d["replaced"] == {"table.direction": len(d["cases"])}
    assert "trump.any-suit" not in d["replaced"]
    two = variant_report("standard", "direction=counterclockwise,stake=per-deal", deals=0)
    by_op = {}
    for c in two["cases"]:
        by_op.setdefault(c["op"], set()).update(c["replaced"])
    assert by_op["contest"] == {"stake.per-deal"} and by_op["referee"] == {"table.direction"}


def test_variants_diff_writes_json_to_a_file(tmp_path):
    out = tmp_path / "diff.json"
    done = turub("variants", "diff", "standard", CLUB, "--deals", "2", "--json", str(out))
    assert done.returncode == 0
    d = json.loads(out.read_text())
    assert d["b"]["name"] == "club" and d["replaced"] == {"club.must-trump": len(d["cases"])}
    listed = turub("variants", "show", CLUB)
    assert "club.must-trump (replaces play.no-forced-trump; decides legal_plays at void plays only)" \
        in listed.stdout


# --- baselines -------------------------------------------------------------------------------------

def test_a_comparison_separates_program_changes_from_spec_changes_and_warns():
    good, bad = checked(P.ClubApp, CLUB), checked(P.StandardApp, CLUB)
    d = compare_reports(good, bad)
    assert d["regressions"] > 0 and d["warnings"] == []
    assert all(c["origin"] == "program" for c in d["cases"])
    plain = P.StandardApp()
    plain.variants = None  # it says nothing of variants: asked under the standard game too
    standard = finish(run_check(PythonTarget(plain),
                                CheckOptions(rules=BUILTIN["standard"], **SMALL)))
    d = compare_reports(standard, bad)
    assert any("different variants" in w for w in d["warnings"])
    # a drawn search asks other questions under another variant: its origin is unknown
    assert all(c["origin"] != "unknown" or c["id"].startswith(("differential/", "property/"))
               for c in d["cases"])
    assert any(c["origin"] in ("spec", "both") for c in d["cases"])


def test_every_request_under_a_house_rule_fits_the_published_schema():
    from jsonschema import Draft202012Validator

    from turub.conformance.resources import schema_text
    schema = json.loads(schema_text())
    message = Draft202012Validator(schema)
    problems, asked = [], []

    class Recording(PythonTarget):
        def call(self, op, args):
            request = {"id": len(asked) + 1, "op": op, "args": self.with_variant(args)}
            asked.append(request)
            answer = super().call(op, args)
            for what, value in (("request", request), ("answer", {"id": 1, "result": answer.value})):
                error = next(iter(message.iter_errors(value)), None)
                if error is not None and len(problems) < 3:
                    problems.append(f"{what} {json.dumps(value)[:150]}: {error.message[:200]}")
            return answer
    run_check(Recording(P.ClubApp()), CheckOptions(rules=resolve(CLUB), scale=0.05, examples=0,
                                                   properties=0, vectors=False))
    assert asked and all(r["args"]["variant"] == "club" for r in asked)
    assert problems == []
    hello = {"protocol": 1, "name": "club-app", "version": "1", "operations": ["referee"],
             "variants": ["club"]}
    assert not list(Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/result_hello"})
                    .iter_errors(hello))


def test_an_installed_package_offers_its_variant_by_entry_point(monkeypatch):
    import importlib.metadata

    import turub.variants as V

    class EntryPoint:  # what importlib.metadata yields for a package's [project.entry-points]
        name, value = "pub", "pubrules:PUB"

        def load(self):
            return Variant("pub", "3", "counterclockwise", description="The pub's rules")

    monkeypatch.setattr(importlib.metadata, "entry_points",
                        lambda group=None: [EntryPoint()] if group == V.ENTRY_POINT_GROUP else [])
    monkeypatch.setattr(V, "_ENTRY_POINTS_LOADED", [False])
    monkeypatch.setattr(V, "_REGISTERED", {})
    assert "pub" in V.variant_names()
    pub = select("pub")
    assert pub.version == "3" and pub.rules.direction is Direction.COUNTERCLOCKWISE
    assert pub.describe()["source"] == "entry point pubrules:PUB"


# --- issue 20: rules as user code, records, the decision table, the house rules at work -----------

import random  # noqa: E402

from turub.decisions import DECISION_TABLE, HouseRuleError  # noqa: E402
from turub.deal import RecordError  # noqa: E402
from turub.variants import register  # noqa: E402

import kinds  # noqa: E402


def _trick_rule(rule, name="broken-rule", version="1"):
    return Variant(name, version, clauses=[VariantClause(
        "broken.rule", "A broken rule", decides="trick_winner", rule=rule)])


def test_every_decision_is_a_typed_signature_with_the_tables_parameters():
    import inspect
    for name, decision in DECISION_TABLE.items():
        params = list(inspect.signature(decision.protocol.__call__).parameters)[1:]
        assert tuple(params) == decision.parameters, name
        assert "return None to defer" in (decision.protocol.__call__.__doc__ or "").replace("or ``None`` to defer",
                                                                                           "return None to defer")


def test_a_rule_with_the_wrong_signature_is_refused_when_the_variant_is_made():
    with pytest.raises(VariantError) as refused:
        _trick_rule(lambda cards: 0)
    # one line naming the variant, the clause, the decision and the arguments it should take
    assert str(refused.value).count("\n") == 0
    assert "broken-rule 1" in str(refused.value) and "broken.rule" in str(refused.value)
    assert "(cards, trump)" in str(refused.value)


@pytest.mark.parametrize("rule, says", [
    (lambda cards, trump: 1 / 0, "raised ZeroDivisionError"),
    (lambda cards, trump: "the first", "returned the text “the first”, not a position in the trick"),
    (lambda cards, trump: 7, "returned 7, not a position"),
    (lambda cards, trump: True, "returned true, not a position"),
])
def test_a_rule_that_raises_or_answers_nonsense_is_one_line_naming_variant_rule_and_situation(rule, says):
    v = _trick_rule(rule)
    with pytest.raises(HouseRuleError) as broken:
        v.trick_winner([parse_card(c) for c in ("AS", "KS", "AS", "6H")], Suit.SPADES)
    text = str(broken.value)
    assert "\n" not in text and says in text
    assert text.startswith("variant broken-rule 1: house rule broken.rule (trick winner)")
    assert "a trick: A♠ K♠ A♠ 6♥, trump ♠" in text  # the situation, in the game's words
    assert not isinstance(broken.value, RuleError)  # never mistaken for a refusal of the game


BROKEN = HERE / "broken_rule.py"


@pytest.fixture()
def broken_file(tmp_path):
    path = tmp_path / "broken_rule.py"
    path.write_text("from turub.variants import Variant, VariantClause\n"
                    "def boom(cards, trump):\n    if len(cards) == 4:\n        raise KeyError('nine')\n"
                    "BOOM = Variant('boom', version='2', clauses=[VariantClause('boom.rule', 'Boom',"
                    " decides='trick_winner', rule=boom)])\n")
    return f"{path}:BOOM"


@pytest.fixture()
def broken_in_play_file(tmp_path):
    """A rule that raises on a trick of four copies of one card: never in the sample of tricks
    its file is checked on as it loads (turub.rule_checks), so it breaks while the game runs."""
    path = tmp_path / "broken_in_play.py"
    path.write_text("from turub.variants import Variant, VariantClause\n"
                    "def boom(cards, trump):\n    if len(cards) == 4 and len(set(cards)) == 1:\n"
                    "        raise KeyError('nine')\n"
                    "BOOM = Variant('boom', version='2', clauses=[VariantClause('boom.rule', 'Boom',"
                    " decides='trick_winner', rule=boom)])\n")
    return f"{path}:BOOM"


@pytest.mark.parametrize("command", [["play", "--seed", "3"], ["simulate", "--deals", "5"], ["vectors"],
                                     ["explain", "--trump", "S", "AS", "KS", "AS", "QS"]])
def test_every_command_says_a_broken_rule_in_one_line(command, broken_file):
    done = turub(*command, "--variant", broken_file)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert "variant boom 2: house rule boom.rule (trick winner) raised KeyError" in line and "a trick:" in line


def test_variants_diff_says_a_broken_rule_in_one_line(broken_file):
    done = turub("variants", "diff", "standard", broken_file, "--deals", "1")
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "house rule boom.rule" in done.stderr


def test_a_check_under_a_broken_rule_keeps_its_reports_and_is_incomplete(broken_in_play_file, tmp_path):
    broken_file = broken_in_play_file
    report, junit = tmp_path / "r.json", tmp_path / "r.xml"
    done = turub("check", "--variant", broken_file, "--quick", "--json", str(report), "--junit", str(junit),
                 "--python", "turub.conformance.adapter:ReferenceImplementation")
    assert "Traceback" not in done.stderr and report.exists() and junit.exists()
    data = json.loads(report.read_text())
    assert data["verdict"] == "INCOMPLETE" and done.returncode == 4
    row = next(c for c in data["cases"] if c["id"] == "variant/house-rules")
    assert row["status"] == "not-run" and "house rule boom.rule" in row["detail"]
    assert any("house rule boom.rule" in d for d in data["diagnostics"])


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_smoke_test_of_a_broken_rule_is_incomplete_never_a_failure_of_the_reference(broken_in_play_file,
                                                                                      tmp_path, jobs):
    broken_file = broken_in_play_file
    # No program: the reference plays the variant, every kind of check on.  Its rule raising
    # is the variant's fault: the run is INCOMPLETE (4), the reference fails no case for it,
    # and no time limit is said to have cut the run.
    report = tmp_path / "r.json"
    done = turub("check", "--variant", broken_file, "--examples", "20", "--properties", "3",
                 "-j", jobs, "--json", str(report))
    assert "Traceback" not in done.stderr and done.returncode == 4, (done.stdout[-1500:], done.stderr[-800:])
    data = json.loads(report.read_text())
    assert data["verdict"] == "INCOMPLETE" and not data["cut"]
    assert not [c["id"] for c in data["cases"] if c["status"] == "failed"]
    assert any(c.get("house_rule_failed") == "boom.rule" for c in data["cases"])
    # what was not run says why: the house rule (the question it broke on included)
    assert all("house rule boom.rule" in c["detail"] for c in data["cases"] if c["status"] == "not-run")
    assert "time limit" not in done.stdout and "house rule boom.rule" in done.stdout


def test_a_variants_record_names_it_and_replays_by_it_or_refuses_clearly():
    v = Variant("replay-club", "4", clauses=list(kinds.NELL.clauses))
    deal = v.play_random_deal(Seat.NORTH, random.Random(2))
    record = deal.to_record()
    assert (record["variant"], record["variant_version"]) == ("replay-club", "4")
    with pytest.raises(RecordError) as refused:
        Deal.replay(record)  # not loaded
    assert "replay-club 4" in str(refused.value) and "load it first" in str(refused.value)
    register(v)
    again = Deal.replay(record)
    assert again.variant is v and again.to_record() == record and again.result == deal.result
    with pytest.raises(RecordError) as other:
        Deal.replay({**record, "variant_version": "5"})
    assert "loaded at version 4, not 5" in str(other.value)


@pytest.mark.parametrize("variant", [kinds.NELL, resolve(CLUB), kinds.CLOSED], ids=lambda v: v.name)
def test_the_fast_random_play_of_a_variant_is_what_its_checked_step_accepts(variant):
    # the playout asks only the overridden decisions; each deal replays card by card through
    # the variant's checked step to the same tricks and result
    rng = random.Random(7)
    for i in range(40):
        deal = variant.play_random_deal(Seat(i % 4), rng)
        again = variant.deal_class.replay(deal.to_record())
        assert [t.winner for t in again.tricks] == [t.winner for t in deal.tricks]
        assert again.result == deal.result


def test_simulate_says_how_many_decisions_each_house_clause_made_differently():
    done = turub("simulate", "--deals", "200", "--variant", f"{HERE / 'kinds.py'}:club-nell")
    assert done.returncode == 0
    line = next(x for x in done.stdout.splitlines() if x.strip().startswith("club.nell:"))
    made, differ = [int(w) for w in line.replace(",", " ").split() if w.isdigit()][:2]
    # stated independently: a trick holding a nine of trumps and a higher trump is won differently
    assert 0 < differ <= made and "differently from trick.highest-trump" in line
    for python_notation in ("{", "}", "[", "'"):
        assert python_notation not in done.stdout


def test_simulate_and_show_say_where_a_play_rule_is_asked():
    line = next(x for x in turub("simulate", "--deals", "20", "--variant", CLUB).stdout.splitlines()
                if "club.must-trump" in x)
    assert line.strip().startswith("club.must-trump (asked at void plays only): ")
    plain = turub("simulate", "--deals", "20", "--variant", f"{HERE / 'kinds.py'}:club-nell").stdout
    assert "asked at" not in plain  # a trick rule: asked at every trick, nothing to say


def test_the_diff_separates_house_clause_standard_clause_and_downstream():
    d = variant_report("standard", f"{HERE / 'kinds.py'}:club-nell", deals=2)
    assert d["replaced"] == {"club.nell": len(d["cases"])}
    assert d["standard_replaced"] == {"trick.highest-trump": len(d["cases"])}
    assert "trick.highest-trump" not in d["affected"]
    text = render_report(d)
    assert "House clause" in text and "Standard clauses it replaces or amends" in text and "Affected downstream" in text
    for python_notation in ("{", "}", "['", "': "):
        assert python_notation not in text


def test_a_rule_that_reads_the_hands_order_conforms_in_its_own_smoke_test():
    # Every path gives a rule the hand as Deal.hand sorts it: the oracle, the checked step,
    # the kit's restated properties and the fast playout, so a rule that reads the order
    # (the middle card of the hand) is judged as it plays.
    from turub.conformance.commands.check import reference_target
    v = Variant("middle", clauses=[VariantClause(
        "middle.card", "Play the middle card of the hand", decides="legal_plays",
        rule=lambda hand, trick, trump: [hand[len(hand) // 2]])])
    report = finish(run_check(reference_target(rules=v), CheckOptions(
        rules=v, scale=0.1, examples=20, properties=3, budget=5.0)))
    failures = [(c["id"], c.get("detail", "")[:300]) for c in report["cases"] if c["status"] == "failed"]
    assert report["conforms"] and not failures, failures
    assert {"differential", "property"} <= {c["kind"] for c in report["cases"] if c["status"] == "passed"}
