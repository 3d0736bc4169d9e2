"""A slice of the mutation campaign in CI: small edits of the engine-free implementation
(``tests/broken/independent.py``), each of the kind mutmut makes, must be caught by the kit's
checks at seed 1 (vectors, the clause-directed cases and the generated cases; the whole
campaign: ``properties/tools/mutation.py --kit``, results in docs/guides/verification-power.md).

The first is a mutant the first (sampled) campaign found alive before the directed cases
named trump by the suit's symbol; those after ``first-round-offset`` are survivors of the
whole campaign, one or two of each class of gap it found.  The campaign's subject, the
correct program with its bug switches folded away, must itself conform.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

import pytest

from turub.conformance.commands.check import CheckOptions, run_check
from turub.conformance.programs.targets import PythonTarget
from turub.conformance.questions.cases import OPTION_SETS
from turub.conformance.reports.report import finish

SOURCE = Path(__file__).parent / "broken" / "independent.py"
TOOLS = Path(__file__).resolve().parents[1] / "properties" / "tools"

#: (name, the text replaced, its mutant): one edit each, in the correct implementation's code.
MUTANTS = [
    # a seat or a trump suit in an action is written one way (turub.well_formed, #28): the
    # readings 1.1.0 asked for are bugs now
    ("trump-suit-read-leniently", 'if not (isinstance(suit, str) and len(suit) == 1 and suit in "SHDC"):\n'
     '                raise Refused("trump.any-suit")\n            self.trump = "SHDC".index(suit)',
     "self.trump = suit_letter(suit)"),
    ("ten-not-t", 'rank = "10" if t[:-1] == "T" else t[:-1]', 'rank = "10" if t[:-1] == "XXTXX" else t[:-1]'),
    ("closed-at-36", "(36 if self.bug == \"closed-at-36\" else 35)", "(36 if self.bug == \"closed-at-36\" else 36)"),
    ("signal-window-two", "if len(self.trick) != 1 and", "if len(self.trick) > 1 and"),
    ("missing-field-passes", "if any(k not in a for k in needs.get(kind, ())):",
     "if all(k not in a for k in needs.get(kind, ())):"),
    ("first-round-offset", "[(d + k) % 4 for k in range(1, 5)]", "[(d + k) % 4 for k in range(0, 4)]"),
    # survivors of the whole campaign (docs/guides/verification-power.md), each closed by a
    # directed case built for its class
    ("ten-read-from-first-letter", 'rank = "10" if t[:-1] == "T" else t[:-1]',
     'rank = "10" if t[:+1] == "T" else t[:-1]'),
    ("seat-read-from-first-letter", 'len(text) == 1 and text in "NESW":\n        return "NESW".index(text)',
     'text.strip()[:1].upper() in "NESW" and text.strip():\n'
     '        return "NESW".index(text.strip()[0].upper())'),
    ("outline-symbol-not-read", '"♤": "S", "♡": "H"', '"XX": "S", "♡": "H"'),
    ("empty-packet-skipped", "sizes = [n if isinstance(n, int) else len(n) for _, n in packets]",
     "sizes = [n if isinstance(n, int) else len(n) for _, n in packets]\n"
     "        packets = [p for p, n in zip(packets, sizes) if n]; sizes = [n for n in sizes if n]\n"
     "        seats = [seat_of(s) for s, _ in packets]"),
    ("seat-case-folded", 'len(text) == 1 and text in "NESW":\n        return "NESW".index(text)',
     'len(text) == 1 and text.upper() in "NESW":\n        return "NESW".index(text.upper())'),
    ("later-packets-unchecked", "for k in range(4, 48)))", "for k in range(4, )))"),
    ("fifth-packet-unchecked", "for k in range(4, 48)))", "for k in range(5, 48)))"),
    ("trump-after-early-close-is-second", "self.trump: int | None = None", 'self.trump: int | None = ""'),
    ("refused-trump-always-once", '"trump.once" if self.trump is not None else',
     '"trump.once" if self.trump is not None or True else'),
    ("trump-fields-unchecked", 'needs = {"trump": ("seat", "suit")', 'needs = {"XXtrumpXX": ("seat", "suit")'),
    ("signal-fields-unchecked", '"signal": ("seat", "signal"),', '"XXsignalXX": ("seat", "signal"),'),
    ("close-fields-unchecked", '"close": ("seat",)}', '"XXcloseXX": ("seat",)}'),
]


def _mutant(name: str, old: str, new: str):
    text = SOURCE.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{name}: the code to mutate moved"
    return _load(name, text.replace(old, new))


def _load(name: str, text: str):
    spec = importlib.util.spec_from_loader(f"independent_{name.replace('-', '_')}", loader=None)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses and friends look their module up
    try:
        exec(compile(text, str(SOURCE), "exec"), module.__dict__)
    finally:
        del sys.modules[spec.name]
    return module


@pytest.mark.parametrize("name, old, new", MUTANTS, ids=[m[0] for m in MUTANTS])
def test_the_kit_kills_the_mutant(name, old, new):
    module = _mutant(name, old, new)
    report = finish(run_check(PythonTarget(module.Independent(), timeout=5.0),
                              CheckOptions(seed=1, examples=0, properties=0)))
    assert report["exit_status"] == 1, f"mutant {name} survived"


def test_the_kit_kills_the_sources_words_as_signal_kinds():
    # Under signal-kinds=documented the kinds are knock and click; 'strong' and 'weak' (what
    # they mean) are no kinds (turub.well_formed's signal-kind row, #28).
    from turub import Rules
    module = _mutant("sources-words-are-signal-kinds", 'kind not in ("knock", "click")',
                     'kind not in ("knock", "click", "strong", "weak")')
    report = finish(run_check(PythonTarget(module.Independent(), timeout=5.0),
                              CheckOptions(rules=Rules(signal_kinds="documented"), seed=1,
                                           examples=0, properties=0)))
    assert report["exit_status"] == 1, "the mutant survived"


def _correct_source() -> str:
    """The campaign's subject: the correct program, its bug switches folded away."""
    spec = importlib.util.spec_from_file_location("mutation_subject", TOOLS / "mutation_subject.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.correct_source(SOURCE)


def test_the_campaigns_subject_names_no_bug_and_conforms_under_every_option_set():
    source = _correct_source()
    code = ast.parse(source)
    names = {n.id for n in ast.walk(code) if isinstance(n, ast.Name)} | \
        {n.attr for n in ast.walk(code) if isinstance(n, ast.Attribute)} | \
        {n.name for n in ast.walk(code) if isinstance(n, ast.FunctionDef)}
    assert not names & {"bug", "STRICT", "RANK_BUG", "_in_bug", "BUGS"}, names & {"bug", "STRICT"}
    assert not any(n.decorator_list for n in ast.walk(code) if isinstance(n, ast.FunctionDef)), \
        "mutmut never mutates a decorated function"
    module = _load("folded", source)
    for name, rules in OPTION_SETS.items():
        report = finish(run_check(PythonTarget(module.Independent(), timeout=5.0),
                                  CheckOptions(rules=rules, seed=1, examples=0, properties=0)))
        assert report["exit_status"] == 0, (name, report["summary"])


def test_the_unmutated_implementation_conforms():
    module = _mutant("none", "class Independent:", "class Independent:")
    report = finish(run_check(PythonTarget(module.Independent(), timeout=5.0),
                              CheckOptions(seed=1, examples=0, properties=0)))
    assert report["exit_status"] == 0


# --- the campaign's test: what each exit status of `turub check` tells mutmut ----------------------

#: mutmut 3.8.1's reading of the exit status of a mutant's pytest run (``mutmut.stats.
#: status_by_exit_code``, the entries a run of :data:`KIT_TEST` can give; any other status is
#: "suspicious" too).  Checked against mutmut itself where it is installed.
MUTMUT_STATUS = {0: "survived", 1: "killed", 3: "killed", 35: "suspicious"}
#: How mutmut runs the test of a mutant (``mutmut.runners.harness``), with the campaign's
#: own arguments (``SETUP_CFG``).
MUTMUT_PYTEST_ARGS = ["--rootdir=.", "--tb=native", "-x", "-q", "-p", "no:randomly", "-p", "no:random-order",
                      "-p", "no:cacheprovider", "--import-mode=importlib"]

#: Stands in for mutmut (its trampoline: no mutant active), the subject, and the check:
#: each ``run_check`` of the test is answered by ``finish`` with the next exit status of
#: ``TURUB_STATUSES`` (then 0; -1: the kit raises), so no check runs and no campaign either.
_FAKES = '''
import os, sys, types
import turub
import turub.conformance.commands.check as check
import turub.conformance.reports.report as report

for name in ("mutmut", "mutmut.mutation", "mutmut.mutation.trampoline"):
    sys.modules[name] = types.ModuleType(name)
sys.modules["mutmut.mutation.trampoline"].get_mutant_under_test = lambda: ""
subject = types.ModuleType("turub.kit_subject")
subject.Independent = type("Independent", (), {})
sys.modules["turub.kit_subject"] = turub.kit_subject = subject

STATUSES = [int(s) for s in os.environ["TURUB_STATUSES"].split(",")]
ASKED = []

def run_check(target, options):
    ASKED.append(options)
    return {"run": len(ASKED) - 1}

def finish(raw):
    status = STATUSES[raw["run"]] if raw["run"] < len(STATUSES) else 0
    if status < 0:  # the kit itself fails during this check
        raise RuntimeError("the kit's own bug")
    return {"exit_status": status}

check.run_check, report.finish = run_check, finish
'''


def _mutmut_status(tmp_path: Path, statuses: list[int]) -> str:
    """What mutmut records for a mutant whose checks exit with ``statuses`` in turn: the
    campaign's test (:data:`mutation.KIT_TEST`) run as mutmut runs it, in a pytest of its own."""
    import os
    import subprocess

    spec = importlib.util.spec_from_file_location("mutation_tool", TOOLS / "mutation.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    (tmp_path / "conftest.py").write_text(_FAKES, encoding="utf-8")
    (tmp_path / "test_kit_mutants.py").write_text(tool.KIT_TEST, encoding="utf-8")
    env = {**os.environ, "TURUB_STATUSES": ",".join(map(str, statuses))}
    env.pop("PYTEST_ADDOPTS", None)
    run = subprocess.run([sys.executable, "-m", "pytest", *MUTMUT_PYTEST_ARGS, "test_kit_mutants.py"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    return MUTMUT_STATUS.get(run.returncode, "suspicious")


def test_mutmut_reads_the_exit_statuses_as_this_test_says():
    stats = pytest.importorskip("mutmut.stats")
    assert {code: stats.status_by_exit_code[code] for code in MUTMUT_STATUS} == MUTMUT_STATUS


@pytest.mark.parametrize("statuses, verdict", [
    # every check conforms: the mutant survived
    ([0] * (len(OPTION_SETS) + 1), "survived"),
    # a check cut by its time budget (4) is no kill, wherever it comes, even before a failure
    ([0] * len(OPTION_SETS) + [4], "suspicious"),
    ([0, 4, 1], "suspicious"),
    # a kit that fails during a check says nothing of the mutant: no kill either
    ([0, -1, 1], "suspicious"),
    # a check that says "does not conform" kills it
    ([0, 1], "killed"),
], ids=["all-conform", "last-cut", "cut-then-failing", "kit-failure", "failing"])
def test_the_campaigns_test_reports_a_cut_check_as_suspicious_never_as_a_kill(tmp_path, statuses, verdict):
    assert _mutmut_status(tmp_path, statuses) == verdict
