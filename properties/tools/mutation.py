"""Mutation testing of the engine's rule code with mutmut, in a scratch copy of the project.

mutmut 3 mutates a package it can import by its file path (``src/turub/rules.py`` is
``turub.rules``), while this project keeps the engine in ``reference/`` and installs it as
``turub``.  So this script lays out a scratch copy with a real package tree, writes the
mutmut and pytest settings there (the project's own files are not touched), runs
``mutmut run`` and prints the score and the surviving mutants.

Usage, from the project's root, with mutmut installed in the virtualenv::

    .venv/bin/python properties/tools/mutation.py                 # rules, contest, kernels
    .venv/bin/python properties/tools/mutation.py --modules rules contest kernels deal
    .venv/bin/python properties/tools/mutation.py --tests tests properties/test_proofs.py

Each mutant runs only the tests that call the mutated function (mutmut records this in a
first, unmutated run).  The copy lives in ``$TMPDIR/turub-mutation`` unless ``--workdir``
says otherwise; ``mutmut show NAME`` there shows one mutant's diff.
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
MODULES = ("rules", "contest", "kernels", "deal", "sitting", "cards", "seats", "options")
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
    args = parser.parse_args(argv)

    mutmut = Path(sys.executable).with_name("mutmut")
    if not args.keep or not args.workdir.exists():
        build(args.workdir, args.modules, args.tests)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    start = time.perf_counter()
    subprocess.run([str(mutmut), "run", f"--max-children={args.max_children}"],
                   cwd=args.workdir, env=env, check=False)
    minutes = (time.perf_counter() - start) / 60
    done = subprocess.run([str(mutmut), "results", "--all", "true"], cwd=args.workdir, env=env,
                          capture_output=True, text=True, check=False)
    status = re.findall(r"^\s*(\S+): (\w[\w ]*)$", done.stdout, re.MULTILINE)
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
