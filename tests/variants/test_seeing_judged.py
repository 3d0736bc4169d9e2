"""A legal-play rule that reads the game, judged in refereed deals (issue 31): the kit must
know where such a rule decided a play, as it knows for a rule of cards alone.  Where it did
not, a standard program was blamed on a standard clause (``play.no-forced-trump``) for
naming ``play.follow-suit`` on a card that breaks both rules, which the guide allows, and
``turub check`` counted 0 decisions of the house clause in differential play."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from turub import Seat
from turub.conformance.judging.variant_reference import variant_decisions
from turub.variants import load_file

HERE = Path(__file__).parent
FILE = HERE / "seeing_judged.py"


@pytest.mark.parametrize("name", ["seeing-head-late", "seeing-dealer-sixes"])
def test_the_plays_a_rule_reading_the_game_decided_in_a_refereed_deal_are_its_clauses(name):
    v = load_file(FILE, name)
    (clause,) = [vc.id for vc in v.clauses]
    marked = 0
    for k in range(6):
        deal = v.play_random_deal(Seat(k % 4), random.Random(k))
        record = deal.to_record()
        args = {key: record[key] for key in ("pack", "dealer", "cut", "actions")}
        decided = variant_decisions("referee", args, v)
        # every play the house rule restricted is a point of the house clause
        marked += sum(1 for key, c in decided.items() if key.startswith("action:") and c == clause)
    assert marked > 0


def check(variant: str, app: str, tmp: Path) -> tuple[int, dict]:
    out = tmp / "report.json"
    done = subprocess.run([sys.executable, "-m", "turub.tools.cli", "check", "--variant", f"{FILE}:{variant}",
                           "--scale", "0.1", "--examples", "20", "--properties", "0", "--budget", "3",
                           "--json", str(out), "--python", f"{FILE}:{app}"],
                          capture_output=True, text=True, timeout=600)
    assert out.exists(), done.stderr[-2000:]
    return done.returncode, json.loads(out.read_text())


def test_the_standard_program_is_blamed_on_the_house_clause_alone_and_the_clubs_conforms(tmp_path):
    status, report = check("seeing-dealer-sixes", "DealerSixesStandardApp", tmp_path)
    blamed = {c["blamed"] for c in report["cases"] if c["status"] == "failed" and "consequence_of" not in c}
    assert status == 1 and blamed == {"seeing.dealer-sixes"}, blamed
    # the house clause decided in differential play, and the report says so
    assert report["summary"]["house_clauses"]["seeing.dealer-sixes"] > 0
    status, report = check("seeing-dealer-sixes", "DealerSixesApp", tmp_path)
    failed = [(c["id"], c.get("detail")) for c in report["cases"] if c["status"] == "failed"]
    assert status == 0 and report["conforms"], failed[:3]


# --- a deal-result rule that reads who dealt: the questions that say it (protocol 2) -------------

NON_DEALERS = load_file(HERE / "seeing.py", "NON_DEALERS")  # 18-18 goes to the non-dealers
STANDARD_RULES = {"direction": "clockwise", "stake": "contest", "opponent-dealer": "next"}


def test_a_deal_result_that_says_who_dealt_is_the_house_clauses_decision():
    args = {"ns": 18, "ew": 18, "closed_early": False, "dealer": "N"}
    assert variant_decisions("deal_result", args, NON_DEALERS) == {"*": "seeing.non-dealers-on-18"}
    assert variant_decisions("deal_result", {**args, "dealer": None}, NON_DEALERS) == {}


def test_a_contest_that_says_who_dealt_first_is_decided_deal_by_deal_with_its_dealer():
    # North deals deal 1: 18-18 goes to East-West (mark 18); North-South lost, so South deals
    # deal 2: North-South win 20 (mark 20); they won, so West deals deal 3: 18-18 goes to
    # North-South, the holder, and does not beat their mark.
    from turub.conformance.judging.variant_reference import reference_for
    results = [[18, 18, False], [20, 16, False], [18, 18, False]]
    got = reference_for(NON_DEALERS).contest(results, STANDARD_RULES, dealer="N")
    assert got == [{"holder": "EW", "mark": 18, "winner": None}, {"holder": "NS", "mark": 20, "winner": None},
                   {"holder": "NS", "mark": 20, "winner": None}], got
    decided = variant_decisions("contest", {"results": results, "rules": STANDARD_RULES, "dealer": "N"},
                                NON_DEALERS)
    assert set(decided) == {"step:0", "step:2"}, decided
    # without a dealer, the rule cannot tell: the standard draws
    plain = reference_for(NON_DEALERS).contest(results, STANDARD_RULES)
    assert plain[0] == {"holder": None, "mark": None, "winner": None}
