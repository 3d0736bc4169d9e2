"""A green report under house rules says how often each house clause decided (issue 31): each
differential row lists the house clauses its drawn deals or sittings asked, with the number of
decisions each made there (0 for a rule never asked), and the report's summary adds them up.
The standard game's report has neither (its bytes are unchanged)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent

#: The nell (asked at every trick, deciding where a nine of trumps is played) and a rule that
#: only the check_packets question asks, never a drawn deal or sitting.
TWO_RULES = f"""
import sys
sys.path.insert(0, {str(HERE)!r})
from kinds import nell_wins, last_packet_only
from turub.variants import Variant, VariantClause
V = Variant("riverside-two", "1", clauses=[
    VariantClause("riverside.nell", "The nell", amends=["trick.highest-trump"], decides="trick_winner",
                  rule=nell_wins),
    VariantClause("riverside.last-packet", "The last packet", amends=["deal.dealer-check"],
                  decides="deal_stands", rule=last_packet_only)])
"""

QUICK = ["--no-generated", "--properties", "0", "--examples", "12", "-k", "differential"]


def check(tmp: Path, *argv: str) -> tuple[dict, str]:
    report = tmp / "report.json"
    done = subprocess.run([sys.executable, "-m", "turub.tools.cli", "check", *QUICK, *argv, "--json", str(report)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "Traceback" not in done.stderr, (done.stdout[-1500:], done.stderr[-800:])
    return json.loads(report.read_text(encoding="utf-8")), done.stdout


@pytest.fixture(scope="module")
def two_rules(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("exercised")
    (tmp / "riverside.py").write_text(TWO_RULES, encoding="utf-8")
    return check(tmp, "--variant", str(tmp / "riverside.py"))


def test_a_green_differential_row_names_the_house_clauses_it_exercised(two_rules):
    report, _text = two_rules
    rows = {c["id"]: c for c in report["cases"] if c["kind"] == "differential"}
    deals = rows["differential/deal"]
    assert deals["status"] == "passed"
    # Every house clause with a rule is listed; the nell decided in the drawn deals, at most once
    # a trick of each deal refereed; the packets' rule was never asked there.
    drawn = int(re.match(r"(\d+) drawn deals", deals["detail"]).group(1))
    assert set(deals["house_clauses"]) == {"riverside.nell", "riverside.last-packet"}
    assert 0 < deals["house_clauses"]["riverside.nell"] <= 36 * drawn
    assert deals["house_clauses"]["riverside.last-packet"] == 0
    # A sitting (next dealers, the contest) never asks who wins a trick nor whether a deal stands.
    sittings = next(c for c in rows.values() if c["id"] != "differential/deal")
    assert sittings["house_clauses"] == {"riverside.last-packet": 0, "riverside.nell": 0}


def test_the_report_counts_each_house_clause_over_its_rows(two_rules):
    report, text = two_rules
    rows = [c for c in report["cases"] if c["kind"] == "differential"]
    total = report["summary"]["house_clauses"]
    assert total == {k: sum(r["house_clauses"][k] for r in rows) for k in total}
    assert total["riverside.nell"] > 0 and total["riverside.last-packet"] == 0
    assert (f"house clauses deciding in differential play: riverside.last-packet 0, "
            f"riverside.nell {total['riverside.nell']}") in text


def test_a_rule_of_the_next_dealer_is_counted_in_the_sittings(tmp_path):
    # A draw passes the deal on: decided in a drawn sitting at each draw (every 18-18 or closed deal).
    report, _ = check(tmp_path, "--variant", f"{HERE / 'kinds.py'}:PASSES")
    rows = {c["id"]: c for c in report["cases"] if c["kind"] == "differential"}
    sittings = next(c for c in rows.values() if c["id"] != "differential/deal")
    assert sittings["status"] == "passed" and sittings["house_clauses"]["club.draw-passes"] > 0


def test_the_standard_game_counts_no_house_clause(tmp_path):
    report, text = check(tmp_path)
    assert not any("house_clauses" in c for c in report["cases"])
    assert "house_clauses" not in report["summary"] and "house clauses deciding" not in text
