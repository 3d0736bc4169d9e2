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
