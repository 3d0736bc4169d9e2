"""The site builds with -W -n (warnings are errors, nitpicky), fast; and its gate really fails.

The build is how CI proves the specification's traceability: every normative clause has
code and a check, no code or check cites an unknown clause, every reference resolves.
"""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from turub.clauses import CLAUSES

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def sphinx(out: Path, *extra: str) -> tuple[subprocess.CompletedProcess, float]:
    start = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-n", "-b", "html", str(DOCS), str(out / "html"),
         "-d", str(out / "doctrees"), *extra],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
        env={**os.environ, "PYTHONHASHSEED": "0"})
    return run, time.perf_counter() - start


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    run, seconds = sphinx(out)
    return out / "html", run, seconds


def test_the_site_builds_with_warnings_as_errors(site):
    # Its speed is measured by benchmarks/bench_docs.py, not asserted here.
    html, run, seconds = site
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "WARNING" not in run.stderr
    assert (html / "index.html").exists() and (html / "spec/play.html").exists()


def test_the_exported_needs_link_every_normative_clause_to_code_and_checks(site):
    html, run, _ = site
    data = json.loads((html / "needs.json").read_text())
    needs = next(iter(data["versions"].values()))["needs"]
    clauses = {n["clause"]: n for n in needs.values() if n["type"] == "clause"}
    assert set(clauses) == set(CLAUSES)
    for cid, clause in CLAUSES.items():
        if clause.is_normative:
            assert clauses[cid]["implements_back"] and clauses[cid]["verifies_back"], cid
    assert any(n["type"] == "impl" for n in needs.values())
    assert any(n["type"] == "check" for n in needs.values())


def test_the_pictures_are_svg_files_in_the_site(site):
    html, _, _ = site
    pictures = list((html / "_pictures").glob("*.svg"))
    kinds = {p.name.split("-")[0] for p in pictures}
    assert kinds == {"trick", "seating", "contest"} and len(pictures) >= 6
    play = (html / "spec/play.html").read_text()
    assert "_pictures/trick-" in play and "<figcaption>" in play


def test_the_gate_fails_on_an_uncovered_clause_and_on_a_check_citing_no_clause(tmp_path):
    run, _ = sphinx(tmp_path, "--keep-going",
                    "-D", "turub_inject_clause=fake.uncovered-rule",
                    "-D", "turub_inject_check=test_of_nothing=nowhere.no-such-clause")
    log = run.stdout + run.stderr
    assert run.returncode != 0
    assert "normative clause without implementing code: failed" in log
    assert "normative clause without a check: failed" in log
    assert "fake:uncovered-rule" in log
    assert "nowhere.no-such-clause" in log and "not a clause of the registry" in log


def test_the_site_renders_in_headless_chromium(site, tmp_path):
    sys.path.insert(0, str(DOCS))
    import screenshot

    if screenshot.chromium() is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    html, _, _ = site
    shots = screenshot.render(html, tmp_path)
    assert [p.name for p in shots] == ["index.png", "clause-page.png"]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and p.stat().st_size > 20_000 for p in shots)
