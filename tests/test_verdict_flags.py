"""Verdicts independent of the interpreter's flags (#30, class 1).

``python -O``, ``-OO`` and ``PYTHONOPTIMIZE`` remove every ``assert`` statement; images set
them.  A property judged with ``assert`` then holds for any answer, and a program that
breaks a rule got ``CONFORMS``, exit 0.  Here a program that breaks one rule (a later copy
of a card beats the first: ``trick.earliest-identical``), checked by the property suites
alone, gets the same verdict and exit status under every flag that changes how Python
runs; and no ``assert`` is left in the code the kit judges with.
"""

from __future__ import annotations

import ast
import inspect
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pace import generous

TURUB = shutil.which("turub", path=str(Path(sys.executable).parent)) or "turub"
BROKEN = str(Path(__file__).parent / "broken" / "adapters.py") + ":LaterCopyWins"
#: The property suites only (no vector, no generated case can catch it instead).
PROPERTIES_ONLY = ["--no-vectors", "--no-generated", "--examples", "0", "--properties", "10",
                   "-k", "test_second_ace_never_beats_the_first"]

FLAGS = {
    "plain": ([], {}),
    "-O": (["-O"], {}),
    "-OO": (["-OO"], {}),
    "PYTHONOPTIMIZE=1": ([], {"PYTHONOPTIMIZE": "1"}),
    "PYTHONOPTIMIZE=2": ([], {"PYTHONOPTIMIZE": "2"}),
    "PYTHONWARNINGS=error": ([], {"PYTHONWARNINGS": "error"}),
    "PYTHONHASHSEED=0": ([], {"PYTHONHASHSEED": "0"}),
    "PYTHONHASHSEED=4242": ([], {"PYTHONHASHSEED": "4242"}),
    "PYTHONHASHSEED=random": ([], {"PYTHONHASHSEED": "random"}),
}


def check_broken(flags: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONOPTIMIZE", "PYTHONWARNINGS", "PYTHONHASHSEED")}
    return subprocess.run([sys.executable, *flags, TURUB, "check", "--python", BROKEN, *PROPERTIES_ONLY],
                          capture_output=True, text=True, errors="replace", env={**clean, **env},
                          timeout=generous(30))


@pytest.mark.parametrize("name", list(FLAGS))
def test_a_rule_broken_is_found_whatever_the_interpreters_flags(name):
    flags, env = FLAGS[name]
    run = check_broken(flags, env)
    assert "Traceback" not in run.stderr, run.stderr
    assert run.stdout.rstrip().splitlines()[-1].startswith("DOES NOT CONFORM ("), (run.stdout[-2000:], run.stderr[-2000:])
    assert run.returncode == 1, (run.returncode, run.stderr[-2000:])
    assert "trick.earliest-identical" in run.stdout


def _judging_modules() -> list[Path]:
    """Every module the kit judges with: the kit itself, the property checks and oracles,
    and the suites whose properties the kit runs (their functions taking ``impl``)."""
    import turub.conformance as kit
    import turub.properties.checks as checks
    import turub.properties.oracles as oracles
    return sorted(Path(kit.__file__).parent.rglob("*.py")) + [Path(checks.__file__), Path(oracles.__file__)]


def _asserts(tree: ast.AST) -> list[int]:
    return [node.lineno for node in ast.walk(tree) if isinstance(node, ast.Assert)]


def test_no_assert_statement_in_the_kits_judging_code():
    found = {}
    for path in _judging_modules():
        lines = _asserts(ast.parse(path.read_text(encoding="utf-8")))
        if lines:
            found[str(path)] = lines
    assert found == {}, f"assert statements (gone under python -O) in judging code: {found}"


def test_no_assert_statement_in_a_property_the_kit_runs():
    """The suites' own tests of the reference may assert (pytest runs them); the properties
    the kit runs against a program (``impl``) may not."""
    import importlib

    from turub.properties.checks import INTERFACE_SUITES
    found = {}
    for suite in INTERFACE_SUITES:
        module = importlib.import_module(f"turub.properties.{suite}")
        tree = ast.parse(inspect.getsource(module))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and any(a.arg == "impl" for a in node.args.args):
                if lines := _asserts(node):
                    found[f"{suite}.{node.name}"] = lines
    assert found == {}, f"assert statements (gone under python -O) in properties the kit runs: {found}"


#: Each stage of ``turub check`` alone, against a program that never follows suit (every
#: stage finds that): the committed vectors, the generated cases, the differential play.
STAGES = {
    "vectors": ["--no-generated", "--examples", "0", "--properties", "0"],
    "generated": ["--no-vectors", "--examples", "0", "--properties", "0"],
    "differential": ["--no-vectors", "--no-generated", "--examples", "20", "--properties", "0"],
}
#: The flags that change what Python runs or how (-O's removal of asserts is within -OO's).
CHANGING = ["-OO", "PYTHONOPTIMIZE=2", "PYTHONWARNINGS=error", "PYTHONHASHSEED=random"]
NO_FOLLOW = str(Path(__file__).parent / "broken" / "adapters.py") + ":NoFollowSuit"


def under(name: str) -> tuple[list[str], dict[str, str]]:
    flags, env = FLAGS[name]
    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONOPTIMIZE", "PYTHONWARNINGS", "PYTHONHASHSEED")}
    return flags, {**clean, **env}


@pytest.mark.parametrize("name", CHANGING)
@pytest.mark.parametrize("stage", list(STAGES))
def test_a_rule_broken_is_found_at_every_stage_whatever_the_interpreters_flags(stage, name, tmp_path):
    flags, env = under(name)
    report = tmp_path / "r.json"
    run = subprocess.run([sys.executable, *flags, TURUB, "check", "--python", NO_FOLLOW, *STAGES[stage],
                          "--quiet", "--json", str(report)],
                         capture_output=True, text=True, errors="replace", env=env, timeout=generous(30))
    assert "Traceback" not in run.stderr, run.stderr
    assert run.returncode == 1, (run.returncode, run.stderr[-2000:])
    import json
    judged = json.loads(report.read_text(encoding="utf-8"))
    assert judged["verdict"] == "DOES NOT CONFORM"
    assert any(c["status"] == "failed" and "play.follow-suit" in c["clauses"] for c in judged["cases"])


@pytest.mark.parametrize("name", ["-OO", "PYTHONOPTIMIZE=2"])
def test_the_pytest_plugin_fails_a_broken_program_whatever_the_interpreters_flags(name, tmp_path):
    """pytest under ``-O`` neither rewrites nor runs an ``assert``: the plugin's items still
    fail a program that breaks a rule, in the cases and in the property suites."""
    flags, env = under(name)
    run = subprocess.run([sys.executable, *flags, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "--turub-python", BROKEN, "--turub-scale", "0.1", "--turub-examples", "0",
                          "--turub-properties", "10", "-k", "earliest-identical or test_second_ace_never_beats_the_first"],
                         cwd=tmp_path, capture_output=True, text=True, errors="replace", env=env, timeout=generous(30))
    assert run.returncode == 1, (run.returncode, run.stdout[-2000:], run.stderr[-2000:])
    failed = [line for line in run.stdout.splitlines() if line.startswith("FAILED ")]
    assert any("property/" in line for line in failed), run.stdout[-2000:]
    assert any("property/" not in line for line in failed), run.stdout[-2000:]
