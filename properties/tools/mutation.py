"""Mutation testing of the engine's rule code with mutmut, in a scratch copy of the project.

mutmut 3 mutates a package it can import by its file path (``src/turub/rules.py`` is
``turub.rules``), while this project keeps the engine in ``reference/`` and installs it as
``turub``.  So this script lays out a scratch copy with a real package tree, writes the
mutmut and pytest settings there (the project's own files are not touched), runs
``mutmut run`` and prints the score and the surviving mutants.

Usage, from the project's root, with mutmut installed in the virtualenv::

    .venv/bin/python properties/tools/mutation.py                 # rules, contest, branch_free_rules
    .venv/bin/python properties/tools/mutation.py --modules rules contest branch_free_rules deal
    .venv/bin/python properties/tools/mutation.py --tests tests properties/test_proofs.py

Each mutant runs only the tests that call the mutated function (mutmut records this in a
first, unmutated run).

``--kit`` turns the run round: the subject is the correct program of the engine-free
implementation ``tests/broken/independent.py``, its bug switches folded away
(:mod:`mutation_subject`), copied in as ``turub.kit_subject``; the only test is the
conformance kit's default check (:data:`KIT_TEST`): a mutant is killed when ``turub check``
finds it does not conform, under some option set, at seed 1 (the verification power of the
kit, measured by machine; results in docs/guides/verification-power.md)::

    .venv/bin/python properties/tools/mutation.py --kit

The copy lives in ``$TMPDIR/turub-mutation`` (``--kit``: ``$TMPDIR/turub-kit-mutation``)
unless ``--workdir`` says otherwise; ``mutmut show NAME`` there shows one mutant's diff.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: The engine's modules mutated by default (``reference/NAME.py``).
MODULES = ("rules", "contest", "branch_free_rules", "deal", "sitting", "cards", "seats", "options")
#: The tests run against the mutants: the project's in-process tests of the engine, the
#: engine's doctests and the property suites, except the CrossHair run (a subprocess that
#: imports the installed, unmutated engine).  Left out: the documentation build and the
#: conformance kit's process tests (other parts, slowly); tests/test_spec_clauses.py (it
#: reads the engine's source, which mutmut rewrites) and tests/test_cli.py (mutmut's
#: workers close standard error, which the CLI's progress bar inspects).
TESTS = ("tests/test_cards.py", "tests/test_clause_coverage.py", "tests/test_clauses.py",
         "tests/test_rules.py", "tests/test_contest.py", "tests/test_deal.py",
         "tests/test_sitting.py", "tests/test_doctests.py", "tests/test_wrong_engines.py",
         "properties")
IGNORED = ("properties/test_contracts.py",)

SETUP_CFG = """\
[mutmut]
source_paths = src
also_copy =
{also}
only_mutate =
{only}
pytest_add_cli_args_test_selection =
{tests}
pytest_add_cli_args =
    -p
    no:randomly
    -p
    no:cacheprovider
    --import-mode=importlib
{ignores}

[tool:pytest]
markers = clauses(*ids): the clause IDs a check verifies
xfail_strict = true
"""


#: The one test of a ``--kit`` run: the kit's default check (``turub check`` at seed 1) of
#: the implementation under every option set.  A mutant is killed when a run says the program
#: does not conform (exit status 1, or 3: it could not start); a run that could not finish
#: (4: a time budget ran out), gave no verdict, or in which the kit itself failed (an
#: exception out of the check) is reported to mutmut as suspicious (exit 35), never as a kill.
#: The cheapest questions come first and each is asked once: the cases (vectors, the
#: clause-directed cases, the generated cases) of every option set, stopping at the first
#: failure (``-x``), the standard rules first; then the rest of the default check, its
#: differential play and property suites.  mutmut calls each function through a trampoline
#: that looks the mutant up on every call (a few times slower over a check); for a mutant's
#: run the test binds each function straight to its original or to the mutant instead.
KIT_TEST = """\
import pytest
from mutmut.mutation.trampoline import get_mutant_under_test

import turub.kit_subject as subject
from turub.conformance.commands.check import CheckOptions, run_check
from turub.conformance.programs.targets import PythonTarget
from turub.conformance.questions.cases import OPTION_SETS
from turub.conformance.reports.report import finish

SEPARATOR = "\u01c1"  # mutmut's class separator in a mangled name


def _bind(mutant):
    \"\"\"Bind every trampolined function of the subject to its original, or to ``mutant``
    (its mangled name); the bindings undone afterwards.\"\"\"
    undo = []
    for key, table in list(vars(subject).items()):
        if not (key.startswith("mutants_") and key.endswith("__mutmut") and isinstance(table, dict)):
            continue
        mangled = key[len("mutants_"):-len("__mutmut")]
        if mangled.startswith("x" + SEPARATOR):
            _, cls, attr = mangled.split(SEPARATOR)
            owner = getattr(subject, cls)
        else:
            owner, attr = subject, mangled[len("x_"):]
        undo.append((owner, attr, vars(owner)[attr]))
        setattr(owner, attr, table.get(mutant, table["_mutmut_orig"]))
    return undo


def _status(options):
    target = PythonTarget(subject.Independent(), timeout=2.0)
    return finish(run_check(target, options))["exit_status"]


def test_the_default_check_finds_nothing_wrong():
    active = get_mutant_under_test()
    module, _, mutant = active.rpartition(".")
    undo = _bind(mutant) if module == subject.__name__ and "__mutmut_" in mutant else []
    try:
        runs = [(name, CheckOptions(rules=rules, seed=1, examples=0, properties=0, exitfirst=True))
                for name, rules in OPTION_SETS.items()]
        runs.append(("standard, differential play and property suites",
                     CheckOptions(seed=1, examples=300, properties=25, vectors=False, scale=0,
                                  exitfirst=True)))
        for name, options in runs:
            try:
                status = _status(options)
            except Exception as e:  # the kit's own failure says nothing of the mutant
                pytest.exit(f"{name}: the kit failed: {type(e).__name__}: {e}", returncode=35)
            if status not in (0, 1, 3):  # 4: a time budget ran out; any other: no verdict
                pytest.exit(f"{name}: the check did not finish (exit status {status})", returncode=35)
            assert status == 0, name
    finally:
        for owner, attr, value in undo:
            setattr(owner, attr, value)
"""


def build_kit(workdir: Path) -> None:
    """The scratch copy of a ``--kit`` run: the engine and the kit as they are, the subject
    to mutate (the correct program of ``tests/broken/independent.py``, its bug switches
    folded away: :mod:`mutation_subject`), and :data:`KIT_TEST`."""
    sys.path.insert(0, str(Path(__file__).parent))
    from mutation_subject import correct_source

    build(workdir, [], [])
    shutil.rmtree(workdir / "tests")
    (workdir / "tests").mkdir()
    subject = correct_source(ROOT / "tests" / "broken" / "independent.py")
    (workdir / "src" / "turub" / "kit_subject.py").write_text(subject, encoding="utf-8")
    (workdir / "tests" / "test_kit_mutants.py").write_text(KIT_TEST, encoding="utf-8")
    (workdir / "setup.cfg").write_text(SETUP_CFG.format(
        also="", only="    src/turub/kit_subject.py", tests="    tests/test_kit_mutants.py",
        ignores=""), encoding="utf-8")


def _place(path: str) -> str:
    """Where a project path lands in the scratch copy."""
    for folder, package in (("reference", "src/turub"), ("properties", "src/turub/properties"),
                            ("conformance", "src/turub/conformance")):
        if path == folder or path.startswith(folder + "/"):
            return package + path[len(folder):]
    return path


def build(workdir: Path, modules: list[str], tests: list[str]) -> None:
    if workdir.exists():
        shutil.rmtree(workdir)
    src = workdir / "src" / "turub"
    shutil.copytree(ROOT / "reference", src, ignore=shutil.ignore_patterns("__pycache__"))
    for folder in ("properties", "conformance"):
        if (ROOT / folder).is_dir():
            shutil.copytree(ROOT / folder, src / folder,
                            ignore=shutil.ignore_patterns("__pycache__", "tools"))
    shutil.copytree(ROOT / "tests", workdir / "tests", ignore=shutil.ignore_patterns("__pycache__"))
    extras = [extra for extra in ("spec", "docs", "examples") if (ROOT / extra).is_dir()]
    for extra in extras:  # some tests read these files
        shutil.copytree(ROOT / extra, workdir / extra,
                        ignore=shutil.ignore_patterns("__pycache__", "_build", "node_modules"))

    def lines(items: list[str]) -> str:
        return "\n".join(f"    {item}" for item in items)

    ignores = [f"--ignore={_place(p)}" for p in IGNORED]
    (workdir / "setup.cfg").write_text(SETUP_CFG.format(
        also=lines(extras), only=lines([f"src/turub/{m}.py" for m in modules]),
        tests=lines([_place(t) for t in tests]),
        ignores=lines(ignores)), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modules", nargs="+", default=list(MODULES))
    parser.add_argument("--tests", nargs="+", default=list(TESTS))
    parser.add_argument("--workdir", type=Path,
                        default=Path(tempfile.gettempdir()) / "turub-mutation")
    parser.add_argument("--max-children", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="reuse the copy and mutmut's results")
    parser.add_argument("--sample", type=int, default=1, metavar="N",
                        help="run every Nth mutant only (1: all)")
    parser.add_argument("--kit", action="store_true",
                        help="mutate tests/broken/independent.py, with the kit's default check as the test")
    args = parser.parse_args(argv)

    mutmut = Path(sys.executable).with_name("mutmut")
    if args.kit:
        args.modules = ["kit_subject (tests/broken/independent.py)"]
        if args.workdir == parser.get_default("workdir"):
            args.workdir = Path(tempfile.gettempdir()) / "turub-kit-mutation"
    if not args.keep or not args.workdir.exists():
        if args.kit:
            build_kit(args.workdir)
        else:
            build(args.workdir, args.modules, args.tests)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    start = time.perf_counter()
    names: list[str] = []
    if args.sample > 1:  # generate the mutants (and mutmut's stats) with one, then every Nth
        subprocess.run([str(mutmut), "run", f"--max-children={args.max_children}", "none-such"],
                       cwd=args.workdir, env=env, check=False, capture_output=True)
        listed = subprocess.run([str(mutmut), "results", "--all", "true"], cwd=args.workdir, env=env,
                                capture_output=True, text=True, check=False)
        names = re.findall(r"^\s*(\S+): \w", listed.stdout, re.MULTILINE)[::args.sample]
        if not names:
            print("mutmut generated no mutants: nothing to sample", file=sys.stderr)
            return 1
    subprocess.run([str(mutmut), "run", f"--max-children={args.max_children}", *names],
                   cwd=args.workdir, env=env, check=False)
    minutes = (time.perf_counter() - start) / 60
    done = subprocess.run([str(mutmut), "results", "--all", "true"], cwd=args.workdir, env=env,
                          capture_output=True, text=True, check=False)
    status = re.findall(r"^\s*(\S+): (\w[\w ]*)$", done.stdout, re.MULTILINE)
    if names:
        status = [(name, verdict) for name, verdict in status if name in set(names)]
    counts: dict[str, int] = {}
    for _, verdict in status:
        counts[verdict] = counts.get(verdict, 0) + 1
    total = sum(counts.values())
    killed = counts.get("killed", 0) + counts.get("timeout", 0)
    score = 100 * killed / total if total else 0.0
    print(f"\n{total} mutants of {', '.join(args.modules)} in {minutes:.1f} min: "
          + ", ".join(f"{n} {v}" for v, n in sorted(counts.items())) + f"; score {score:.1f}%")
    for name, verdict in status:
        if verdict not in ("killed", "timeout"):
            print(f"  {verdict}: {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
