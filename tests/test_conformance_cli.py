"""The kit's command line: check, its exit statuses, reports, expected failures, diffs;
vectors; variants diff.  And the committed vectors are what the reference answers now."""

from __future__ import annotations

import io
import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from turub.tools.cli import main
from turub.conformance.questions.cases import build_vectors
from turub.conformance.questions.vectors import VECTOR_DIR, render_vectors
from turub.properties.tags import verifies

BROKEN = Path(__file__).parent / "broken"
QUICK = ["--no-generated", "--examples", "10", "--properties", "0"]
DRAW_GOES_NORTH_SOUTH = f"{BROKEN / 'adapters.py'}:DrawGoesNorthSouth"


def run(*argv):
    out = io.StringIO()
    try:
        status = main(list(argv), out)
    except SystemExit as e:
        status = e.code
    return status, out.getvalue()


@pytest.fixture(scope="module")
def reference_quick(tmp_path_factory):
    """``turub check`` of the reference at ``QUICK``, with its JSON report: the status, the text
    and the report's path (one run, read by the tests of a check alone and of ``--diff``)."""
    path = tmp_path_factory.mktemp("reference") / "r.json"
    return (*run("check", *QUICK, "--json", str(path)), path)


@pytest.fixture(scope="module")
def draw_goes_north_south(tmp_path_factory):
    """``turub check --quiet`` of a program that gives a drawn deal to North-South, at ``QUICK``,
    writing its JSON and JUnit reports and its failures as an expected-failures file: the
    status and the reports' folder (one run, read by three tests)."""
    folder = tmp_path_factory.mktemp("draw-goes-north-south")
    status, _ = run("check", "--python", DRAW_GOES_NORTH_SOUTH, *QUICK, "--json", str(folder / "r.json"),
                    "--junit", str(folder / "r.xml"), "--write-xfail", str(folder / "xfail.json"), "--quiet")
    return status, folder


@pytest.fixture(scope="module")
def reference_vectors():
    """The vectors as the reference answers them now: built once for this file's tests (a
    build answers every case of every option set, seconds of CPU; it used to run four times)."""
    return build_vectors()


@pytest.fixture
def vectors_built_once(reference_vectors, monkeypatch):
    """`turub vectors --check` and `--regenerate`, run here, take the module's build for the
    default build they make (they only render it: no copy); anything else is built as ever."""
    from turub.conformance.questions import cases, vectors
    real = cases.build_vectors

    def once(*args, **kwargs):
        return reference_vectors if not args and not kwargs else real(*args, **kwargs)
    monkeypatch.setattr(cases, "build_vectors", once)
    monkeypatch.setattr(vectors, "build_vectors", once)


@verifies("trick.earliest-identical", "contest.second-win-beats-mark", "dealer.after-loss",
          "deal.dealer-check", "signal.leader-only", "table.direction", "result.draw-18")
def test_committed_vectors_are_what_the_reference_answers_now(reference_vectors):
    # A change to the engine that changes any expected answer shows up here, and as a diff
    # of conformance/vectors/ once `turub vectors --regenerate` is run.
    files = render_vectors(reference_vectors)
    for name, text in files.items():
        committed = (VECTOR_DIR / name).read_text(encoding="utf-8")
        assert committed == text, f"{name} differs from the reference: run `turub vectors --regenerate`"


def test_every_vector_has_a_stable_id_clauses_and_rules():
    from turub.clauses import CLAUSES
    for name in ("standard", "counterclockwise", "stake-per-deal", "opponent-previous"):
        cases = json.loads((VECTOR_DIR / f"{name}.json").read_text(encoding="utf-8"))
        ids = [c["id"] for c in cases]
        assert len(ids) == len(set(ids))
        for c in cases:
            assert c["clauses"] and all(x in CLAUSES for x in c["clauses"]), c["id"]
            assert c["rules"] == "any" or isinstance(c["rules"], dict)


def test_check_alone_runs_the_reference_and_exits_0(reference_quick):
    status, text, _ = reference_quick
    assert status == 0 and "CONFORMS" in text and "trick.earliest-identical" in text


def test_check_of_a_broken_adapter_exits_1_naming_clause_and_outcome():
    status, text = run("check", "--python", f"{BROKEN / 'adapters.py'}:LaterCopyWins", *QUICK)
    assert status == 1 and "DOES NOT CONFORM" in text
    assert "trick.earliest-identical" in text and "wrong-answer" in text


def test_check_of_a_protocol_program_after_the_double_dash():
    status, text = run("check", "--no-vectors", "--scale", "0.05", "--examples", "0", "--",
                       sys.executable, str(BROKEN / "impl.py"), "ok")
    assert status == 0, text
    assert "broken-ok" in text


def test_check_sample_runs_node_or_falls_back_to_the_reference():
    status, text = run("check", "--sample", *QUICK)
    assert status == 0 and "CONFORMS" in text


@pytest.mark.parametrize("argv", [
    ["check", "--timeout", "0"],
    ["check", "--python", "no_such_module:Thing"],
    ["check", "--python", "nocolon"],
    ["check", "--sample", "--python", "x:Y"],
    ["check", "--rules", "direction=sideways"],
    ["check", "--xfail", "/nonexistent.json"],
    ["check", "--diff", "/nonexistent1.json", "/nonexistent2.json"],
    ["check", "--bogus"],
    ["vectors", "--rules", "stake=everything"],
    ["variants", "diff", "standard", "direction=diagonal"],
    ["variants"],
])
def test_usage_errors_exit_2(argv, capsys):
    status, _ = run(*argv)
    assert status == 2
    assert capsys.readouterr().err.strip()


def test_json_and_junit_reports(draw_goes_north_south):
    status, folder = draw_goes_north_south
    js, xml = folder / "r.json", folder / "r.xml"
    report = json.loads(js.read_text())
    assert status == 1 and report["exit_status"] == 1
    assert report["clauses"]["result.draw-18"]["status"] == "failed"
    suite = ET.parse(xml).getroot()
    failures = suite.findall(".//failure")
    assert len(failures) == report["summary"]["failed"] >= 1
    assert failures[0].get("type") == "wrong-answer" and "result.draw-18" in failures[0].get("message")


def test_expected_failures_file_cannot_rot(tmp_path, draw_goes_north_south):
    impl = DRAW_GOES_NORTH_SOUTH
    status, folder = draw_goes_north_south
    assert status == 1
    xfail = tmp_path / "xfail.json"
    xfail.write_text((folder / "xfail.json").read_text())  # a copy: this test rewrites it
    entries = json.loads(xfail.read_text())["expected_failures"]
    # one entry per blamed clause and outcome class, so the list holds for another seed too
    assert [(e["clause"], e["outcome"]) for e in entries] == [("result.draw-18", "wrong-answer")]
    # the listed failures no longer fail the run, whatever the seed
    status, text = run("check", "--python", impl, *QUICK, "--xfail", str(xfail))
    assert status == 0, text
    status, text = run("check", "--python", impl, *QUICK, "--seed", "2", "--xfail", str(xfail))
    assert status == 0, text
    # a listed case that passes fails the run
    doc = {"format": "turub-xfail/1", "expected_failures": [
        {"case": "deal_result/t18-18-played", "reason": "known"}]}
    xfail.write_text(json.dumps(doc))
    status, text = run("check", *QUICK, "--xfail", str(xfail))
    assert status == 1 and "DOES NOT CONFORM" in text
    # so does a listed clause that no failure is about any more
    doc = {"format": "turub-xfail/1", "expected_failures": [{"clause": "result.draw-18", "reason": "house rule"}]}
    xfail.write_text(json.dumps(doc))
    assert run("check", "--python", impl, *QUICK, "--xfail", str(xfail))[0] == 0
    status, text = run("check", *QUICK, "--xfail", str(xfail))
    assert status == 1 and "stale expected failure: clause result.draw-18" in text


def test_diff_of_two_reports_shows_what_changed(reference_quick, draw_goes_north_south):
    old, new = reference_quick[2], draw_goes_north_south[1] / "r.json"
    status, text = run("check", "--diff", str(old), str(new))
    assert status == 1  # something newly fails
    assert "deal_result/t18-18-played: passed -> failed (wrong-answer)" in text
    assert "clause result.draw-18: passed -> failed" in text
    assert run("check", "--diff", str(new), str(old))[0] == 0


def test_vectors_export_is_self_contained(tmp_path):
    status, text = run("vectors", "--rules", "direction=counterclockwise", "--op", "next_dealer")
    doc = json.loads(text)
    assert status == 0 and doc["rules"]["direction"] == "counterclockwise"
    assert {c["op"] for c in doc["cases"]} == {"next_dealer"}
    assert all(c["args"]["rules"]["direction"] == "counterclockwise" for c in doc["cases"])
    status, text = run("vectors", "--format", "jsonl", "--op", "trick_winner")
    lines = text.splitlines()
    assert status == 0 and all(json.loads(x)["op"] == "trick_winner" for x in lines)


def test_vectors_check_compares_with_the_reference(tmp_path, vectors_built_once):
    status, text = run("vectors", "--check")
    assert status == 0 and "up to date" in text
    run("vectors", "--regenerate", "--dir", str(tmp_path))
    first = tmp_path / "standard.json"
    first.write_text(first.read_text().replace('"expected":0', '"expected":1', 1))
    status, text = run("vectors", "--check", "--dir", str(tmp_path))
    assert status == 1 and "standard.json" in text


@verifies("table.direction", "stake.per-deal", "dealer.after-win")
def test_variants_diff_names_the_option_clauses():
    status, text = run("variants", "diff", "standard", "counterclockwise", "--json", "-")
    d = json.loads(text)
    assert status == 0 and d["clauses"].get("table.direction", 0) > 0
    assert d["replaced"] == {"table.direction": len(d["cases"])}  # never trump.any-suit
    assert {c["op"] for c in d["cases"]} >= {"deal", "referee", "next_dealer"}
    status, text = run("variants", "diff", "standard", "stake=per-deal", "--json", "-")
    d = json.loads(text)
    assert {c["op"] for c in d["cases"]} == {"contest"} and "stake.per-deal" in d["clauses"]
    status, text = run("variants", "diff", "standard", "opponent-dealer=previous")
    assert status == 0 and "dealer.after-win" in text
    assert "No case" in run("variants", "diff", "standard", "direction=clockwise")[1]


@pytest.mark.parametrize("extra", [["--variant", "counterclockwise"], ["--rules", "direction=counterclockwise"],
                                   ["--op", "trick_winner"], ["--spec", "1"], ["--format", "jsonl"]])
@pytest.mark.parametrize("mode", ["--check", "--regenerate"])
def test_vectors_check_and_regenerate_refuse_a_choice_they_would_ignore(mode, extra, tmp_path, capsys):
    """`--check` and `--regenerate` cover every committed set as the reference answers it: a
    variant, an option set, an operation, a release or a format given with them is a usage
    error naming it, never silently dropped (`--check --variant X` said "up to date")."""
    status, text = run("vectors", mode, "--dir", str(tmp_path), *extra)
    assert status == 2, (status, text)
    assert extra[0] in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []  # nothing written
