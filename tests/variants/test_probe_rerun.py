"""A failure under a house rule loaded from a file reproduces alone (issue 31): the command
the report prints after each failure names the variant by its file (``--variant
FILE:NAME``), so that it runs as printed; it named the variant alone, which no command
knows (``no variant 'club-nell'``)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent


def turub(words: list[str], cwd: Path, out: Path) -> tuple[subprocess.CompletedProcess, dict]:
    run = subprocess.run([sys.executable, "-m", "turub.tools.cli", words[0], "--json", str(out), *words[1:]],
                         capture_output=True, text=True, encoding="utf-8", timeout=300, cwd=cwd)
    assert out.exists(), run.stderr[-1500:]
    return run, json.loads(out.read_text(encoding="utf-8"))


def test_a_failure_under_a_file_variant_reproduces_alone_as_printed(tmp_path):
    program = [sys.executable, str(HERE / "kind_programs.py"), "nell-standard"]
    run, report = turub(["check", "--variant", f"{HERE / 'kinds.py'}:club-nell", "--no-generated", "--examples",
                         "0", "--properties", "0", "--", *program], HERE, tmp_path / "all.json")
    assert run.returncode == 1
    commands = [line.split("reproduce: ", 1)[1] for line in run.stdout.splitlines() if "    reproduce: " in line]
    words = shlex.split(commands[0])
    assert words[words.index("--variant") + 1] == f"{HERE / 'kinds.py'}:club-nell"
    case_id = words[words.index("--case") + 1]
    # run as printed, from another folder
    again, alone = turub(words[1:], tmp_path, tmp_path / "one.json")
    assert again.returncode == 1, again.stderr[-800:]
    assert [c["id"] for c in alone["cases"]] == [case_id] and alone["cases"][0]["status"] == "failed"


def _variant_words(words: list[str]) -> tuple[str | None, list[str]]:
    variant = words[words.index("--variant") + 1] if "--variant" in words else None
    rules: list[str] = []
    if "--rules" in words:  # turub check's --rules: one word an option, up to the next option
        for word in words[words.index("--rules") + 1:]:
            if word.startswith("--"):
                break
            rules.append(word)
    return variant, rules


def test_the_printed_command_names_the_same_variant_whatever_its_file_and_options(tmp_path):
    # Each way a variant comes from a file (a .py by NAME, a .toml by its path alone), with and
    # without --rules on top: the printed command's --variant and --rules select the same
    # variant again (same name, same options, same clauses), as the command line reads them.
    from turub.conformance.reports.rerun import rerun_command
    from turub.variants import select
    toml = tmp_path / "club.toml"
    toml.write_text('name = "riverside-toml"\nversion = "1"\n[options]\nstake = "per-deal"\n[[clauses]]\n'
                    'id = "riverside-toml.x"\ntitle = "X"\namends = ["play.follow-suit"]\n', encoding="utf-8")
    for given, rules in [(None, ["direction=counterclockwise", "stake=per-deal"]),
                         (f"{HERE / 'kinds.py'}:club-nell", []),
                         (f"{HERE / 'kinds.py'}:club-nell", ["direction=counterclockwise"]),
                         (str(toml), []), (str(toml), ["direction=counterclockwise", "early-close=known-result"])]:
        first = select(given, rules)
        words = shlex.split(rerun_command({"seed": 3, "variant": first.describe(),
                                           "rules": first.rules.to_dict()}, "vectors/x"))
        variant, again_rules = _variant_words(words)
        again = select(variant, again_rules)
        assert (again.name, again.rules, [c.id for c in again.all_clauses]) == \
            (first.name, first.rules, [c.id for c in first.all_clauses]), words
