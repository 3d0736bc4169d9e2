"""House rules are user code, checked like a program (issue 31): a rule that loops is
stopped by ``--time-limit`` with one line and a documented status; a rule that answers at
random or changes what it is shown is refused when the variant is loaded, naming the file,
the variant and the clause; a definition error names the file and the variant."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

#: The exit status of a command past its --time-limit (docs/guides/house-rules.md).
TIME_LIMIT_STATUS = 4


def turub(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "turub.tools.cli", *argv], capture_output=True,
                          text=True, timeout=timeout)


def club_file(tmp: Path, body: str, name: str = "club.py") -> Path:
    path = tmp / name
    path.write_text("from turub.variants import Variant, VariantClause\n" + textwrap.dedent(body),
                    encoding="utf-8")
    return path


LOOPS_ON_NELL = """
    from turub import Rank
    def loops(cards, trump):
        # asked about every trick; loops for ever on a trick with the nine of trumps
        while any(c.rank is Rank.NINE and c.suit is trump for c in cards):
            pass
        return None
    LOOP = Variant("thursday-loop", "1", clauses=[VariantClause("thursday.loop", "A loop",
        decides="trick_winner", rule=loops)])
"""


@pytest.mark.parametrize("command", [
    ["simulate", "--deals", "50"],
    ["play", "--seed", "3"],
    ["explain", "--trump", "S", "9S", "KS", "7D", "7D"],
])
def test_a_rule_that_loops_stops_at_the_time_limit_with_one_line(command, tmp_path):
    path = club_file(tmp_path, LOOPS_ON_NELL)
    done = turub(*command, "--variant", str(path), "--time-limit", "1", timeout=30)
    # One line, naming the variant, the clause and what it was deciding; no traceback.
    lines = done.stderr.strip().splitlines()
    assert done.returncode == TIME_LIMIT_STATUS, done.stderr[-800:]
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[-800:]
    assert "time limit reached" in lines[0]
    assert "thursday-loop 1" in lines[0] and "thursday.loop" in lines[0] and "a trick" in lines[0]
    assert str(path) in lines[0]


@pytest.mark.parametrize("bad", ["0", "-1", "nan", "inf", "soon"])
def test_a_time_limit_is_a_finite_number_of_seconds(bad):
    done = turub("explain", "--trump", "S", "9S", "--time-limit", bad)
    assert done.returncode == 2 and "--time-limit" in done.stderr


# --- a definition error names the file and the variant -------------------------------------

@pytest.mark.parametrize("body, says", [
    # a clause ID in a part of the standard game: renamed after the variant, not "club."
    ("""
     V = Variant("thursday-nell", "1", clauses=[VariantClause("trick.nell", "The nell")])
     """, ["variant thursday-nell", "'thursday-nell.nell'"]),
    # a clause defined before its variant: the file's only variant is named
    ("""
     C = VariantClause("club.x", "X", replaces=["play.no-such-clause"])
     V = Variant("riverside", "1", clauses=[C])
     """, ["variant riverside", "'play.no-such-clause' is not a standard clause"]),
    # a rule that takes the wrong arguments
    ("""
     V = Variant("riverside", "1", clauses=[VariantClause("riverside.x", "X",
         decides="trick_winner", rule=lambda cards: None)])
     """, ["variant riverside 1", "riverside.x", "a trick_winner rule takes (cards, trump)"]),
    # a version is text, as the guide says
    ("""
     V = Variant("riverside", 2)
     """, ["variant riverside", "version 2 is not text"]),
])
def test_a_definition_error_is_one_line_naming_the_file_and_the_variant(body, says, tmp_path):
    path = club_file(tmp_path, body)
    for command in (["explain", "--trump", "S", "9S"], ["simulate", "--deals", "2"], ["play"]):
        done = turub(*command, "--variant", str(path))
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, done.stderr[-800:]
        assert str(path) in lines[0], lines[0]
        for words in says:
            assert words in lines[0], lines[0]
        assert "club.…" not in lines[0]


@pytest.mark.parametrize("suffix, text", [
    (".toml", 'name = "riverside"\nversion = 2\n'),
    (".json", '{"name": "riverside", "version": 1.5}'),
    (".toml", 'name = "riverside"\n[[clauses]]\nid = "dealer.x"\ntitle = "X"\n'),
])
def test_a_declarative_variant_names_its_file_and_variant_and_wants_a_text_version(suffix, text, tmp_path):
    path = tmp_path / f"club{suffix}"
    path.write_text(text, encoding="utf-8")
    done = turub("explain", "--trump", "S", "9S", "--variant", str(path))
    line = done.stderr.strip()
    assert done.returncode == 2 and "\n" not in line, done.stderr
    assert f"{path}: variant riverside" in line, line
    assert "not text" in line or "'riverside.x'" in line, line
