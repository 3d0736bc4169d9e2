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


LOOPS_ON_A_DRAW = """
    def loops(ns, ew, closed_early):
        # asked about every deal's result; loops for ever on 18-18
        while ns == ew == 18:
            pass
        return None
    LOOP = Variant("thursday-draw-loop", "1", clauses=[VariantClause("thursday.draw-loop", "A loop",
        decides="deal_result", rule=loops)])
"""


@pytest.mark.parametrize("command", [
    ["play", "--sitting", "3"],
    ["explain", "--result", "18-18"],
    ["explain", "--contest", "20-16", "18-18"],
])
def test_a_result_rule_that_loops_stops_a_sitting_or_an_explanation_at_the_time_limit(command, tmp_path):
    path = club_file(tmp_path, LOOPS_ON_A_DRAW)
    done = turub(*command, "--variant", str(path), "--time-limit", "1", timeout=30)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == TIME_LIMIT_STATUS, done.stderr[-800:]
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr[-800:]
    assert "thursday-draw-loop 1" in lines[0] and "thursday.draw-loop" in lines[0]
    assert "a deal's result: NS 18, EW 18" in lines[0] and str(path) in lines[0]


LOOPS_AFTER_A_DRAW = """
    def loops(dealer, winner, rules):
        while winner is None:
            pass
        return None
    LOOP = Variant("thursday-dealer-loop", "1", clauses=[VariantClause("thursday.dealer-loop", "A loop",
        decides="next_dealer", rule=loops)])
"""


def test_a_next_dealer_rule_that_loops_stops_its_explanation_at_the_time_limit(tmp_path):
    path = club_file(tmp_path, LOOPS_AFTER_A_DRAW)
    done = turub("explain", "--next-dealer", "draw", "--variant", str(path), "--time-limit", "1", timeout=30)
    lines = done.stderr.strip().splitlines()
    assert done.returncode == TIME_LIMIT_STATUS and len(lines) == 1, done.stderr[-800:]
    assert "thursday.dealer-loop" in lines[0] and "the next dealer" in lines[0]


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
    assert "must be text" in line or "not text" in line or "'riverside.x'" in line, line


# --- a rule is asked twice, and shown values it cannot change ------------------------------

@pytest.mark.parametrize("body, decision", [
    # a trick winner that answers at random: the kit would blame the program for its chance
    ("""
     import random
     def coin(cards, trump):
         return random.randrange(len(cards))
     V = Variant("riverside-coin", "1", clauses=[VariantClause("riverside.coin", "A coin",
         decides="trick_winner", rule=coin)])
     """, "trick winner"),
    # a legal-play rule that keeps count of its calls, void plays only
    ("""
     calls = []
     def every_other(hand, trick, trump):
         calls.append(1)
         return [hand[0]] if len(calls) % 2 else None
     V = Variant("riverside-count", "1", clauses=[VariantClause("riverside.count", "A count",
         decides="legal_plays", rule=every_other, applies_to="void")])
     """, "legal plays"),
    # a deal result that remembers what it saw
    ("""
     seen = set()
     def once(ns, ew, closed_early):
         first = (ns, ew) not in seen
         seen.add((ns, ew))
         return "draw" if first else None
     V = Variant("riverside-once", "1", clauses=[VariantClause("riverside.once", "Once",
         decides="deal_result", rule=once)])
     """, "deal result"),
    # who may signal, by turns
    ("""
     calls = []
     def by_turns(seat, leader, kind):
         calls.append(1)
         return len(calls) % 2 == 0
     V = Variant("riverside-turns", "1", clauses=[VariantClause("riverside.turns", "By turns",
         decides="may_signal", rule=by_turns)])
     """, "may signal"),
])
def test_a_rule_that_answers_one_situation_two_ways_is_refused(body, decision, tmp_path):
    path = club_file(tmp_path, body)
    name = body.split('Variant("')[1].split('"')[0]
    clause = body.split('VariantClause("')[1].split('"')[0]
    for command in (["explain", "--trump", "S", "9S", "KS", "7D", "7D"], ["simulate", "--deals", "3"],
                    ["check", "--scale", "0.1"]):
        done = turub(*command, "--variant", str(path))
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, done.stderr[-800:]
        # One line naming the file, the variant, the clause and what it did.
        for words in (str(path), f"variant {name} 1", clause, f"({decision})", "two ways"):
            assert words in lines[0], lines[0]


@pytest.mark.parametrize("body, decision", [
    # changes the options it is shown (a frozen value, changed with object.__setattr__)
    ("""
     from turub import Direction
     def turn(dealer, winner, rules):
         object.__setattr__(rules, "direction", Direction.COUNTERCLOCKWISE)
         return None
     V = Variant("riverside-turn", "1", clauses=[VariantClause("riverside.turn", "Turn",
         decides="next_dealer", rule=turn)])
     """, "next dealer"),
    ("""
     def keep(contest, result, rules):
         object.__setattr__(contest, "mark", 30)
         return None
     V = Variant("riverside-keep", "1", clauses=[VariantClause("riverside.keep", "Keep",
         decides="contest_step", rule=keep)])
     """, "contest step"),
    # changes a card of an earlier trick it reads in the game (an interned card: every copy)
    ("""
     from turub import Rank
     def bends(hand, trick, trump, game):
         if game.tricks and len(game.tricks) == 9:
             card = game.tricks[3].cards[2]
             object.__setattr__(card, "rank", Rank.SIX if card.rank is not Rank.SIX else Rank.ACE)
         return None
     V = Variant("riverside-bends", "1", clauses=[VariantClause("riverside.bends", "Bends",
         decides="legal_plays", rule=bends, applies_to="lead")])
     """, "legal plays"),
    # renames the seat that led the last trick it reads in the game
    ("""
     def renames(cards, trump, game):
         if game.tricks and len(game.tricks) == 20:
             object.__setattr__(game.tricks[-1].leader, "_name_", "NOBODY")
         return None
     V = Variant("riverside-renames", "1", clauses=[VariantClause("riverside.renames", "Renames",
         decides="trick_winner", rule=renames)])
     """, "trick winner"),
    # changes the options the game shows, late in a deal
    ("""
     from turub import Direction
     def turns(hand, trick, trump, game):
         if game.tricks and len(game.tricks) == 5 and trick:
             object.__setattr__(game.rules, "direction", Direction.COUNTERCLOCKWISE)
         return None
     V = Variant("riverside-turns", "1", clauses=[VariantClause("riverside.turns", "Turns",
         decides="legal_plays", rule=turns)])
     """, "legal plays"),
])
def test_a_rule_that_changes_what_it_is_shown_is_refused(body, decision, tmp_path):
    path = club_file(tmp_path, body)
    done = turub("simulate", "--deals", "3", "--variant", str(path))
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2 and len(lines) == 1, done.stderr[-800:]
    for words in (str(path), "house rule riverside.", f"({decision})", "changed a value it was shown"):
        assert words in lines[0], lines[0]


def test_the_clubs_own_rules_pass_the_checks():
    # Every rule of the project's example clubs answers each situation one way and changes nothing.
    import importlib.util

    from turub.rule_checks import check_rules
    from turub.variants import Variant
    checked = []
    for file in ("kinds.py", "club.py"):
        spec = importlib.util.spec_from_file_location(f"clubs_{file[:-3]}", Path(__file__).parent / file)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        for variant in (v for v in vars(module).values() if isinstance(v, Variant) and v.has_rules):
            check_rules(variant)
            checked.append(variant.name)
    assert len(checked) >= 5, checked


def test_a_rule_that_raises_while_the_game_runs_is_named_with_its_file(tmp_path):
    path = club_file(tmp_path, """
        def boom(cards, trump):
            return 1 // (len(cards) - 4) if len(cards) == 4 and cards[0] == cards[1] else None
        V = Variant("riverside-boom", "1", clauses=[VariantClause("riverside.boom", "Boom",
            decides="trick_winner", rule=boom)])
        """)
    done = turub("explain", "--trump", "S", "9S", "9S", "7D", "7D", "--variant", str(path))
    (line,) = done.stderr.strip().splitlines()
    assert done.returncode == 2 and "riverside.boom (trick winner) raised ZeroDivisionError" in line
    assert str(path) in line, line


@pytest.mark.parametrize("body, says", [
    ("import sys\nsys.exit(3)\n", "the file exited while it was loaded"),
    ("""
     def leaves(cards, trump):
         raise SystemExit(0)
     V = Variant("riverside-leaves", "1", clauses=[VariantClause("riverside.leaves", "Leaves",
         decides="trick_winner", rule=leaves)])
     """, "house rule riverside.leaves (trick winner) raised SystemExit"),
])
def test_user_code_that_exits_is_one_line_naming_the_file(body, says, tmp_path):
    path = club_file(tmp_path, body)
    for command in (["explain", "--trump", "S", "9S"], ["simulate", "--deals", "2"], ["play"]):
        done = turub(*command, "--variant", str(path))
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2 and len(lines) == 1, done.stderr[-800:]
        assert str(path) in lines[0] and says in lines[0], lines[0]


def test_a_rule_reading_the_game_is_checked_with_it(tmp_path):
    # Reads the game and keeps count across the calls: refused, as any other rule would be.
    path = club_file(tmp_path, """
        seen = []
        def counts(ns, ew, closed_early, game):
            seen.append(game.dealer)
            return "draw" if seen.count(game.dealer) % 2 else None
        V = Variant("riverside-game", "1", clauses=[VariantClause("riverside.game", "Game",
            decides="deal_result", rule=counts)])
        """)
    done = turub("simulate", "--deals", "2", "--variant", str(path))
    assert done.returncode == 2 and "riverside.game (deal result) answered one situation two ways" in done.stderr
