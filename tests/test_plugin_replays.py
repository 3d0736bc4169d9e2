"""The pytest plugin's deep campaigns (issue 24): a failure found is kept and replayed, and the
command each failing item prints reproduces it, alone, in another folder; a whole deal dealt
as a misreading names that rule.  (In a file of their own, beside ``test_plugin.py``: each is
a campaign or two, and the suite's workers share them.)"""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET

from plugin_runs import BROKEN, counts, pytest_in


def _failed_block(output: str, name: str) -> str:
    """The failure text pytest printed for the kit's item ``name``."""
    start = output.index(f"_ turub {name} [")
    end = output.find("\n_ turub ", start + 1)
    end = output.find("short test summary", start) if end < 0 else end
    return "\n".join(line for line in output[start:end].splitlines()
                     if not line.startswith("[gw"))  # xdist's "[gw1] linux -- Python ..."


def test_a_failure_found_is_kept_and_replayed_first_in_another_folder(tmp_path):
    # Differential play drawing one deal finds nothing (its first draw plays no card);
    # with the database of a run that drew more, it fails at once, in another folder.
    program = f"{sys.executable} {BROKEN} no-follow-suit"
    shared, first, second = tmp_path / "db", tmp_path / "one", tmp_path / "two"
    first.mkdir(), second.mkdir()
    found = pytest_in(first, "-q", "--turub-program", program, "--turub-database", str(shared),
                      "--turub-item", "differential/deal", "--turub-examples", "150")
    assert found.returncode == 1 and "breaks play.follow-suit" in found.stdout, found.stdout[-2000:]
    tiny = ["-q", "--turub-program", program, "--turub-examples", "1", "--turub-seed", "99",
            "--turub-item", "differential/deal"]
    assert pytest_in(second, *tiny).returncode == 0  # alone, too small to find it
    replayed = pytest_in(second, *tiny, "--turub-database", str(shared))
    assert replayed.returncode == 1 and "breaks play.follow-suit" in replayed.stdout, replayed.stdout[-2000:]
    # TURUB_DATABASE names the same folder when the option is not given
    by_env = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *tiny],
                            cwd=second, capture_output=True, text=True, timeout=300,
                            env={**__import__("os").environ, "TURUB_DATABASE": str(shared)})
    assert by_env.returncode == 1, by_env.stdout[-2000:]


def test_the_printed_command_reproduces_a_failure_whatever_ran_beside_it(tmp_path):
    # A campaign on two workers, differential play split into searches; each failing item
    # prints one command, and that command, run alone in another folder without the
    # database, fails the same way (its seed comes from its name and --turub-seed alone).
    program = f"{sys.executable} {BROKEN} no-follow-suit"
    campaign = pytest_in(tmp_path, "-n", "2", "--turub-program", program, "--turub-scale", "0.1",
                         "--turub-examples", "30", "--turub-searches", "2", "--turub-properties", "3",
                         "--turub-seed", "5", "--turub-database", str(tmp_path / "db"))
    assert campaign.returncode == 1
    # The failures section only: on CI (the CI variable set) pytest's short summary repeats
    # each failure's whole text, its reproduce line included.
    failures = campaign.stdout.split("short test summary info")[0]
    commands = re.findall(r"^reproduce: (.*)$", failures, flags=re.M)
    names = re.findall(r"^FAILED turub::(\S+)", campaign.stdout, flags=re.M)
    assert len(commands) == len(names) > 2
    for name in [n for n in names if n.startswith(("differential/deal/seed-6", "property/test_play."))]:
        command = next(c for c in commands if c.endswith(f"--turub-item {name}"))
        assert "--turub-examples 30" in command and "--turub-seed 5" in command
        argv = __import__("shlex").split(command)
        argv = [a for i, a in enumerate(argv) if "--turub-database" not in argv[max(i - 1, 0):i + 1]]
        alone = tmp_path / name.replace("/", "_")
        alone.mkdir()
        again = subprocess.run(argv, cwd=alone, capture_output=True, text=True, timeout=300)
        assert again.returncode == 1 and f"FAILED turub::{name}" in again.stdout, again.stdout[-2000:]
        assert counts(again.stdout) == {"failed": 1, "deselected": counts(again.stdout)["deselected"]}
        # the same disagreement: what was asked and what came back
        was, now = _failed_block(campaign.stdout, name), _failed_block(again.stdout, name)
        assert was.split("reproduce:")[0] == now.split("reproduce:")[0], (was, now)


def test_an_item_that_gets_a_whole_deal_as_a_misreading_deals_it_names_that_rule(tmp_path):
    # A program that ignores the cut in some deals only: differential play's item shows the
    # symptom in every clause of dealing, but the four hands are exactly the misreading
    # `no-cut`'s, which settles it in one item: it breaks deal.cut, and only that.
    (tmp_path / "cut_sometimes.py").write_text(
        "from turub.conformance.adapter import ReferenceImplementation\n"
        "def cut_used(pack, cut):\n    return 0 if cut % 3 == 1 and pack[0] == pack[-1] else cut\n"
        "class CutSometimes(ReferenceImplementation):\n"
        "    def deal(self, pack, dealer, cut, rules):\n"
        "        return super().deal(pack, dealer, cut_used(pack, cut), rules)\n"
        "    def _deal(self, pack, dealer, rules, cut):\n"
        "        return super()._deal(pack, dealer, rules, cut_used(pack, cut))\n")
    done = pytest_in(tmp_path, "--turub-python", "cut_sometimes.py:CutSometimes", "--turub-examples", "2000",
                     "--turub-item", "differential/deal")
    assert done.returncode == 1, done.stdout[-2000:]
    breaks = re.findall(r"^breaks (.*)$", _failed_block(done.stdout, "differential/deal"), flags=re.M)
    assert breaks == ["deal.cut (The player after the dealer cuts)"], done.stdout[-2000:]


def test_a_failing_item_prints_turub_checks_own_command_and_it_fails_the_same_way(tmp_path):
    # The plugin's failure ends with the line `turub check` itself prints for that check
    # (one builder, turub.conformance.reports.rerun); run alone, it asks that check only,
    # and the check fails with the item's outcome and clauses.
    import json
    import shlex
    program = f"{sys.executable} {BROKEN} no-follow-suit"
    junit = tmp_path / "junit.xml"
    campaign = pytest_in(tmp_path, "-q", "--turub-program", program, "--turub-scale", "0.2",
                         "--turub-examples", "150", "--turub-properties", "0", "--turub-seed", "7",
                         f"--junitxml={junit}")
    assert campaign.returncode == 1
    failures = campaign.stdout.split("short test summary info")[0]
    failed = {c.get("name"): {p.get("name"): p.get("value") for p in c.iter("property")}
              for c in ET.parse(junit).iter("testcase") if c.find("failure") is not None}
    wanted = {next(n for n in failed if n.startswith(kind)) for kind in
              ("legal_plays/worked-", "referee/generated-", "differential/deal")}
    for name in sorted(wanted):
        start = failures.index(f" turub {name} [")
        block = re.split(r"\n_+ turub ", failures[start:], maxsplit=1)[0]
        lines = re.findall(r"^reproduce with turub check: (.*)$", block, flags=re.M)
        assert len(lines) == 1, block
        words = shlex.split(lines[0])
        assert words[:2] == ["turub", "check"] and words[words.index("--") + 1:] == shlex.split(program)
        case_id = words[words.index("--case") + 1]
        out = tmp_path / f"{name.replace('/', '_')}.json"
        again = subprocess.run([sys.executable, "-m", "turub.tools.cli", "check", "--json", str(out), *words[2:]],
                               capture_output=True, text=True, timeout=300, cwd=tmp_path)
        assert again.returncode == 1, (lines[0], again.stdout[-2000:])
        cases = json.loads(out.read_text(encoding="utf-8"))["cases"]
        assert [c["id"] for c in cases] == [case_id]
        assert (cases[0]["status"], cases[0]["outcome"], " ".join(cases[0]["failing_clauses"])) \
            == ("failed", failed[name]["outcome"], failed[name]["failing_clauses"]), (name, lines[0])

