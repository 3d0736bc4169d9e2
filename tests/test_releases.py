"""Releases are frozen, and a change of an expected answer is a release that says so (#28).

Each frozen release's cases are ``conformance/releases/VERSION.jsonl.gz`` with their digest in
``spec/digests/cases.json``; the committed vectors differ from the last frozen release only in
cases whose clauses a later release's ``CaseChange`` names.
"""

from __future__ import annotations

import gzip
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from turub.clauses import CLAUSES
from turub.conformance.questions import releases as rel
from turub.releases import RELEASES, CaseChange, Release, release_named, releases_after

ROOT = Path(__file__).resolve().parents[1]


def _mutated_copy(tmp_path: Path, version: str, case_id: str) -> Path:
    """A copy of the release folder with one expected answer of ``version`` changed."""
    folder = tmp_path / "releases"
    shutil.copytree(rel.RELEASE_DIR, folder)
    path = folder / f"{version}.jsonl.gz"
    lines = gzip.decompress(path.read_bytes()).decode().splitlines()
    for i, line in enumerate(lines[1:], 1):
        case = json.loads(line)
        if case["id"] == case_id:
            case["expected"] = {"stands": not case["expected"]["stands"]}
            lines[i] = json.dumps(case, separators=(",", ":"))
            break
    else:
        raise AssertionError(case_id)
    path.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))
    return folder


def test_only_the_last_release_is_open():
    # A release before the last is frozen: changes land in the last one.
    assert all(r.frozen for r in RELEASES[:-1])


def test_every_frozen_release_keeps_its_cases_and_texts():
    assert rel.frozen_case_problems() == []
    for r in RELEASES:
        if r.frozen:
            assert (ROOT / "spec" / "digests" / f"{r.version}.json").is_file(), r.version


def test_changing_one_expected_answer_of_a_frozen_release_fails(tmp_path):
    folder = _mutated_copy(tmp_path, "1.1.0", "check_packets/fault-other-way-round-N")
    problems = rel.frozen_case_problems(directory=folder)
    assert len(problems) == 1 and problems[0].startswith("1.1.0: its cases differ"), problems


def test_a_frozen_release_without_its_cases_fails(tmp_path):
    folder = tmp_path / "releases"
    shutil.copytree(rel.RELEASE_DIR, folder)
    (folder / "1.0.0.jsonl.gz").unlink()
    assert [p[:6] for p in rel.frozen_case_problems(directory=folder)] == ["1.0.0:"]


def test_current_cases_differ_from_the_last_frozen_release_only_as_its_successors_say():
    base = rel.last_frozen()
    assert base is not None
    diffs = rel.diff_sets(rel.load_release(base.version), rel.committed_sets())
    assert rel.unexplained_case_changes(diffs, releases_after(base.version)) == []


def test_a_changed_case_without_a_case_change_in_the_open_release_fails(tmp_path):
    # A copy of the committed vectors with one expected answer changed.
    vectors = tmp_path / "vectors"
    shutil.copytree(rel.VECTOR_DIR, vectors)
    standard = json.loads((vectors / "standard.json").read_text())
    target = next(c for c in standard if c["op"] == "trick_winner")
    target["expected"] = (target["expected"] + 1) % 4
    (vectors / "standard.json").write_text(json.dumps(standard))
    base = rel.last_frozen()
    diffs = rel.diff_sets(rel.load_release(base.version), rel.committed_sets(vectors))
    assert [(d.set, d.id, d.kind) for d in diffs] == [("standard", target["id"], "changed")]
    open_release = Release("9.9.9", "2026-12-31", "test")
    problems = rel.unexplained_case_changes(diffs, (open_release,))
    assert len(problems) == 1 and target["id"] in problems[0]
    # Named by a CaseChange of one of its clauses, it is explained.
    named = open_release._replace(cases=(CaseChange(target["clauses"][0], "a", "b", "c"),))
    assert rel.unexplained_case_changes(diffs, (named,)) == []


def test_1_0_0_differs_from_1_1_0_only_on_the_clauses_1_1_0_names():
    diffs = rel.diff_sets(rel.load_release("1.0.0"), rel.load_release("1.1.0"))
    assert diffs, "1.1.0 changed the check_packets order (the issue's 12 failing cases)"
    assert rel.unexplained_case_changes(diffs, (release_named("1.1.0"),)) == []


def test_case_changes_name_real_clauses():
    for r in RELEASES:
        for change in r.cases:
            assert change.clause in CLAUSES, (r.version, change.clause)
            assert change.before and change.after and change.upgrade


def test_a_release_file_round_trips(tmp_path):
    sets = rel.load_release("1.0.0")
    digests = tmp_path / "cases.json"
    path = rel.write_release("1.0.0", sets, tmp_path, digests)
    assert path.read_bytes() == (rel.RELEASE_DIR / "1.0.0.jsonl.gz").read_bytes()
    assert rel.release_cases("1.0.0", {"direction": "counterclockwise", "stake": "contest",
                                       "opponent-dealer": "next"}, tmp_path) == \
        sets["counterclockwise"].cases


def test_an_unknown_release_is_refused_by_name():
    with pytest.raises(ValueError, match="no release '0.9.0'.*1.0.0"):
        release_named("0.9.0")
    with pytest.raises(ValueError, match="has no frozen cases.*1.0.0"):
        rel.load_release("1.2.0")


@pytest.mark.parametrize("version", ["1.0.0", "1.1.0"])
def test_a_past_release_is_rebuilt_from_the_projects_history(version):
    sys.path.insert(0, str(ROOT / "properties" / "tools"))
    import release_from_commit as tool
    commit = tool.RELEASE_COMMITS[version]
    if subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", commit],
                      capture_output=True).returncode:
        pytest.skip(f"commit {commit} is not in this clone's history")
    assert rel.release_lines(version, tool.sets_at(commit)) == \
        gzip.decompress((rel.RELEASE_DIR / f"{version}.jsonl.gz").read_bytes())
    texts = json.loads((ROOT / "spec/digests" / f"{version}.json").read_text())
    texts.update(json.loads((ROOT / "spec/digests" / f"{version}.texts.json").read_text()))
    assert tool.text_digests_at(commit) == texts


# --- judging by a frozen release (turub check --spec, turub vectors --spec) --------------------

def _check(tmp_path, *extra):
    import io

    from turub.tools.cli import main
    err = io.StringIO()
    status = main(["check", "--quiet", "--json", str(tmp_path / "r.json"), "--junit",
                   str(tmp_path / "r.xml"), "--html", str(tmp_path / "html"), "--jsonl",
                   str(tmp_path / "r.jsonl"), *extra,
                   "--python", "turub.conformance.adapter:ReferenceImplementation"], err)
    return status


@pytest.fixture(scope="module")
def judged_by_1_1_0(tmp_path_factory):
    """The reference's check by release 1.1.0, with every report: its status and their folder
    (one run, read by the two tests below)."""
    folder = tmp_path_factory.mktemp("by-1.1.0")
    return _check(folder, "--spec", "1.1.0"), folder


def test_the_current_engine_fails_1_0_0_only_on_the_clause_1_1_0_changed(tmp_path, judged_by_1_1_0):
    # The reference conforms to the release it is (1.1.0's cases are today's) and fails
    # 1.0.0 only where 1.1.0's changelog names a case change.
    assert _check(tmp_path, "--spec", "1.0.0") == 1
    report = json.loads((tmp_path / "r.json").read_text())
    failed = {c for c, row in report["clauses"].items() if row["status"] != "passed"}
    assert failed == {ch.clause for ch in release_named("1.1.0").cases}
    assert {c["id"].split("/")[0] for c in report["cases"] if c["status"] != "passed"} == {"check_packets"}
    # Only the frozen cases ran, and the report says what was not pinned.
    assert {c["kind"] for c in report["cases"]} == {"vector"}
    assert any("cannot be pinned" in d for d in report["diagnostics"])
    assert judged_by_1_1_0[0] == 0


def test_every_report_names_the_release_it_judged_by(judged_by_1_1_0):
    _status, folder = judged_by_1_1_0
    assert json.loads((folder / "r.json").read_text())["spec"]["judged_by"] == "1.1.0"
    assert json.loads((folder / "r.jsonl").read_text().splitlines()[0])["judged_by"] == "1.1.0"
    assert '<property name="judged_by" value="1.1.0" />' in (folder / "r.xml").read_text()
    assert "the cases of release 1.1.0" in (folder / "html/index.html").read_text()
    assert "<title>turub 1.1.0:" in (folder / "html/badge.svg").read_text()


def test_an_unfrozen_or_unknown_release_is_a_usage_error(tmp_path, capsys):
    from turub.releases import OPEN_RELEASE
    for version in ("0.9.0", OPEN_RELEASE.version if OPEN_RELEASE else "99.0.0"):
        assert _check(tmp_path, "--spec", version) == 2
        assert f"--spec {version}" in capsys.readouterr().err
        assert not (tmp_path / "r.json").exists()


def test_turub_vectors_gives_a_releases_cases(tmp_path):
    import io

    from turub.tools.cli import main
    out = tmp_path / "v.json"
    assert main(["vectors", "--spec", "1.0.0", "-o", str(out)], io.StringIO()) == 0
    exported = json.loads(out.read_text())
    assert exported["release"] == "1.0.0"
    assert [c["id"] for c in exported["cases"]] == \
        [c["id"] for c in rel.load_release("1.0.0")["standard"].cases]
