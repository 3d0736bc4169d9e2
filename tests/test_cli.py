"""The command line: play, simulate, explain; usage errors exit 2 with one line."""

import io
import json

import pytest

from turub.tools.cli import main
from turub.properties.tags import verifies


def run(*argv):
    out = io.StringIO()
    return main(list(argv), out), out.getvalue()


def test_play_shows_every_trick_and_the_result():
    status, text = run("play", "--seed", "3")
    assert status == 0
    assert text.count(" -> ") == 36 and "Result: North-South" in text and "Next dealer" in text


@verifies("table.direction")
def test_play_json_is_a_record_that_replays():
    from turub import Deal
    status, text = run("play", "--seed", "4", "--json", "--rules", "direction=ccw")
    deal = Deal.replay(json.loads(text))
    assert status == 0 and len(deal.tricks) == 36 and deal.rules.direction.name == "COUNTERCLOCKWISE"


@verifies("trick.earliest-identical", "trick.highest-trump")
def test_explain_names_the_duplicate_rule():
    status, text = run("explain", "--trump", "♥", "A♣", "A♣", "6♣", "K♣")
    assert status == 0 and "first card, A♣" in text and "trick.earliest-identical" in text
    status, text = run("explain", "--trump", "H", "AC", "AC", "6H", "KC")
    assert "third card, 6♥" in text and "trick.highest-trump" in text


@verifies("dealer.first-draw", "dealer.after-win", "dealer.after-loss", "dealer.after-draw")
def test_play_a_sitting_shows_the_first_dealer_and_each_deals_dealer_contest_and_next_dealer():
    status, text = run("play", "--sitting", "6", "--seed", "3")
    assert status == 0 and text.startswith("Sitting of 6 deals from seed 3")
    assert "First dealer: East, drawn N 8♦ E 10♣ S 8♣ W 10♦ / E 10♥ W 7♥" in text
    rows = [line for line in text.splitlines() if line[:4].strip().rstrip(".").isdigit()]
    steps = [line for line in text.splitlines() if line.strip().startswith("contest ")]
    assert len(rows) == len(steps) == 6
    # each deal's dealer is the one the row before it named
    dealers = [line.split(". ", 1)[1].split(" deals")[0] for line in rows]
    named = [line.rsplit("next dealer ", 1)[1].split(" (")[0] for line in steps]
    assert dealers[0] == "East" and dealers[1:] == named[:-1]
    status, data = run("play", "--sitting", "2", "--seed", "3", "--json")
    data = json.loads(data)
    assert status == 0 and data["draw"]["seat"] == "E" and len(data["deals"]) == 2
    assert data["deals"][1]["dealer"] == named[0][0]


@verifies("result.draw-18", "result.closed-early", "dealer.after-draw", "contest.insufficient-win")
def test_explain_a_result_a_next_dealer_and_the_contest_step_by_step():
    status, text = run("explain", "--result", "18-18")
    assert status == 0 and "a draw" in text and "result.draw-18" in text
    status, text = run("explain", "--result", "20-3:closed", "--rules", "early-close=known-result")
    assert status == 0 and "North-South win" in text and "result.closed-early" in text
    status, text = run("explain", "--next-dealer", "draw", "--dealer", "E")
    assert status == 0 and "East deals next" in text and "dealer.after-draw" in text
    status, text = run("explain", "--contest", "20-16", "19-17", "--dealer", "S")
    lines = text.splitlines()
    assert status == 0 and lines[0].startswith("  1. South deals") and "contest.first-win-sets-mark" in lines[1]
    assert "contest.insufficient-win" in lines[3] and "to beat 20" in lines[3]


@pytest.mark.parametrize("argv", [["explain", "--result", "18"], ["explain", "--result", "18-18:late"],
                                  ["explain", "--next-dealer", "north"], ["explain", "--result", "18-18", "--trump", "H"],
                                  ["explain", "AC"], ["play", "--sitting", "0"]])
def test_explain_and_a_sitting_refuse_what_they_cannot_read_in_one_line(argv, capsys):
    status, _ = run(*argv)
    err = capsys.readouterr().err
    assert status == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_simulate_reports_wins_and_contests():
    status, text = run("simulate", "--deals", "20", "--seed", "5")
    assert status == 0 and "Wins: North-South" in text and "Contests decided" in text


@pytest.mark.parametrize("argv", [["explain", "--trump", "X", "AC"], ["play", "--rules", "foo=1"],
                                  ["play", "--seed", "x"], ["explain", "--trump", "H", "ZZ"],
                                  ["simulate", "--deals", "0"], ["nonsense"]])
def test_bad_arguments_exit_2_with_one_line(argv, capsys):
    try:
        status = main(argv, io.StringIO())
    except SystemExit as e:
        status = e.code
    assert status == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("turub") and "Traceback" not in err


@verifies("trick.highest-trump", "table.direction")
def test_explain_takes_its_cards_wherever_the_options_are():
    # --rules takes one value per flag, so the cards after it stay cards.
    for argv in (["explain", "--trump", "H", "--rules", "direction=counterclockwise", "AC", "6H", "KC", "QC"],
                 ["explain", "--rules", "direction=counterclockwise", "--trump", "H", "AC", "6H", "KC", "QC"],
                 ["explain", "AC", "6H", "KC", "QC", "--trump", "H", "--rules", "direction=ccw,stake=per-deal"]):
        status, text = run(*argv)
        # Counter-clockwise, the seat after North is West: it plays the second card.
        assert status == 0 and "second card, 6♥ played by West" in text, argv


def test_the_engine_commands_start_without_the_kit_or_hypothesis():
    import subprocess
    import sys
    probe = ("import io, sys; from turub.tools.cli import main; "
             "main(sys.argv[1:], io.StringIO()); "
             "print(sorted(m for m in sys.modules if m.startswith(('hypothesis', 'turub.conformance'))))")
    for argv in (["play", "--seed", "2"], ["explain", "--trump", "H", "AC", "KC"],
                 ["simulate", "--deals", "3"]):
        done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip().splitlines()[-1] == "[]", argv
    for argv in (["--help"], ["explain", "--help"]):
        done = subprocess.run([sys.executable, "-c", probe, *argv], capture_output=True, text=True,
                              timeout=60)
        assert done.returncode == 0 and "usage: turub" in done.stdout
        assert "hypothesis" not in done.stdout
    # The kit's commands are listed, and load when they run.
    done = subprocess.run([sys.executable, "-m", "turub.tools.cli", "--help"], capture_output=True, text=True,
                          timeout=60)
    assert all(name in done.stdout for name in ("check", "vectors", "variants"))
    done = subprocess.run([sys.executable, "-m", "turub.tools.cli", "vectors", "--help"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and "usage: turub vectors" in done.stdout


def test_the_kit_loads_hypothesis_only_to_run_differential_play_or_the_property_suites():
    import json
    import subprocess
    import sys
    # each command line in turn in one process, and after each whether Hypothesis is loaded
    probe = ("import io, json, sys; from turub.tools.cli import main\n"
             "for argv in json.loads(sys.argv[1]):\n"
             "    try:\n        main(argv, io.StringIO())\n    except SystemExit:\n        pass\n"
             "    print('after it:', 'HYPOTHESIS' if 'hypothesis' in sys.modules else 'NONE')")

    def loads_hypothesis(*argvs: list[str]) -> list[bool]:
        done = subprocess.run([sys.executable, "-c", probe, json.dumps(argvs)], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode in (0, 1), done.stderr[-2000:]
        said = [line for line in done.stdout.splitlines() if line.startswith("after it: ")]
        assert len(said) == len(argvs), done.stdout[-500:]
        return [line == "after it: HYPOTHESIS" for line in said]
    # (--list does: it lists the properties, which are Hypothesis tests).  None of these
    # loads it: they run in one process, one after the other, and none has loaded it after it.
    unloaded = (["check", "--help"], ["vectors", "--help"], ["variants", "list"],
                ["check", "--quick", "--quiet", "--examples", "0", "--properties", "0"])
    assert loads_hypothesis(*unloaded) == [False] * len(unloaded), unloaded
    # differential play alone, then the property suites alone, load it (no case asked before)
    no_cases = ["--no-vectors", "--no-generated"]
    assert loads_hypothesis(["check", "--quick", "--quiet", "--properties", "0", "--one-process", *no_cases]) == [True]
    assert loads_hypothesis(["check", "--quick", "--quiet", "--examples", "0", "--one-process", *no_cases]) == [True]


# A command that is its process's whole work leaves its garbage to the exit (turub.tools.exiting);
# a caller's main(argv) in a process that lives on finds the collector as it left it.
_GC_PROBE = ("import atexit, gc, sys\n"
             "from turub.tools.cli import main\n"
             "default = gc.get_threshold()[0]\n"
             "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0,\n"
             "                              'raised', gc.get_threshold()[0] > default, flush=True))\n"
             "sys.argv = ['turub', *sys.argv[1:]]\n"
             "sys.exit(main())\n")
_SMALL_CHECK = ["check", "--quick", "--quiet", "--no-generated", "--examples", "0", "--properties", "0"]


def test_a_check_that_is_its_process_leaves_its_garbage_to_the_exit():
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-c", _GC_PROBE, *_SMALL_CHECK], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    # the run's raised threshold kept (set back, it would collect all the run left), the rest frozen
    assert done.stdout.splitlines()[-1] == "frozen True raised True"
    done = subprocess.run([sys.executable, "-c", _GC_PROBE, "simulate", "--deals", "3"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.splitlines()[-1] == "frozen True raised False"


@pytest.mark.parametrize("search, options", [
    ("questions.differential:differential_deals", ["--examples", "6", "--properties", "0"]),
    ("questions.properties:property_results", ["--examples", "0", "--properties", "5"])])
def test_a_check_that_is_its_process_freezes_its_cases_before_the_first_search(search, options):
    import subprocess
    import sys
    # Hypothesis's first search collects everything once (register_random): the imports, the
    # plan and the cases' results are frozen by then, so that collection does not walk them
    module, name = search.split(":")
    probe = ("import gc, sys\n"
             f"from turub.conformance.{module} import {name} as plain\n"
             f"import turub.conformance.{module} as where\n"
             "def searched(*a, **k):\n"
             "    print('at the search', gc.get_freeze_count(), len(gc.get_objects()), file=sys.stderr, flush=True)\n"
             "    return plain(*a, **k)\n"
             f"where.{name} = searched\n"
             # a table of the searches (SEARCH_RUNS) holds the function itself: point it here too
             "for table in [v for v in vars(where).values() if isinstance(v, dict)]:\n"
             "    table.update({k: searched for k, v in table.items() if v is plain})\n"
             "from turub.tools.cli import main\n"
             "sys.argv = ['turub', *sys.argv[1:]]\n"
             "sys.exit(main())\n")
    small = [*_SMALL_CHECK[:-4], *options, "--one-process"]
    done = subprocess.run([sys.executable, "-c", probe, *small], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    said = [line.split() for line in done.stderr.splitlines() if line.startswith("at the search")]
    assert len(said) == 1, done.stderr[-500:]  # (the kit's stdout is its reports')
    frozen, walked = int(said[0][-2]), int(said[0][-1])
    assert frozen > 20_000 and walked < 100, said


def test_a_callers_main_leaves_the_collector_as_it_found_it():
    import gc
    before = (gc.get_threshold(), gc.get_freeze_count())
    status, _ = run(*_SMALL_CHECK)
    assert status == 0
    assert (gc.get_threshold(), gc.get_freeze_count()) == before
    from turub.tools.exiting import ends_the_process
    assert not ends_the_process()
