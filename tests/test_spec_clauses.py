"""The specification's pages account for the registry exactly, and cite the sources right."""

import hashlib
import re
import sys
from pathlib import Path

import pytest

from turub.clauses import CLAUSES, SOURCES
from turub.options import OPTIONS
from turub.tools.sources import find_folder
from turub.properties.tags import verifies

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs" / "_ext"))
import turub_trace  # noqa: E402

SEEDS = find_folder()
ITEM = re.compile(r"^(:{3,})\{spec-clause\}[ ]+(\S+)\n((?::[\w-]+:[^\n]*\n)*)(.*?)^\1$", re.M | re.S)


def items():
    for page in sorted((ROOT / "spec").glob("*.md")):
        for m in ITEM.finditer(page.read_text(encoding="utf-8")):
            fields = dict(re.findall(r"^:([\w-]+):\s*(.*)$", m.group(3), re.M))
            yield page.name, m.group(2), fields, m.group(4)


def test_the_spec_places_every_clause_of_the_registry_exactly_once():
    placed = [cid for ids in turub_trace.scan_spec().values() for cid in ids]
    assert sorted(placed) == sorted(set(placed)), "a clause is placed twice"
    assert set(placed) == set(CLAUSES)
    assert len(list(items())) == len(placed)  # the stricter parse finds them all too


def test_each_item_says_whether_the_sources_agree_and_decides_where_they_do_not():
    for page, cid, fields, body in items():
        assert fields.get("agreement") in ("agree", "silent", "disagree"), (page, cid)
        if fields["agreement"] != "agree" and CLAUSES[cid].kind != "context":
            assert "{interpretation}" in body, (page, cid)
            options = [o.strip() for o in fields.get("option", "").split(",") if o.strip()]
            assert options and all(o == "none" or o in OPTIONS for o in options), (page, cid)
        assert len(body.strip()) > 40, f"{cid} needs its prose"


def test_clauses_the_registry_calls_interpretations_are_where_sources_fall_silent_or_disagree():
    agreement = {cid: fields["agreement"] for _, cid, fields, _ in items()}
    for cid, clause in CLAUSES.items():
        if clause.kind == "interpretation":
            assert agreement[cid] in ("silent", "disagree"), cid


def test_every_option_controls_a_clause_that_names_it():
    named = {o.strip() for _, _, f, _ in items() for o in f.get("option", "").split(",")}
    assert set(OPTIONS) <= named


def test_every_citation_points_at_a_section_of_the_sources_page_and_every_section_is_cited():
    page = (ROOT / "spec" / "sources.md").read_text(encoding="utf-8")
    labels = set(re.findall(r"^\((src-[a-z0-9-]+)\)=$", page, re.M))
    cited = {turub_trace.citation_label(c) for clause in CLAUSES.values() for c in clause.cites}
    assert cited == labels
    for clause in CLAUSES.values():
        for c in clause.cites:
            assert c.split()[0] in SOURCES, (clause.id, c)


def test_the_sources_page_records_the_sha256_of_each_source():
    page = (ROOT / "spec" / "sources.md").read_text(encoding="utf-8")
    for short, filename in SOURCES.items():
        assert re.search(rf"\*\*{short}\*\* \| `{re.escape(filename)}` \| `[0-9a-f]{{64}}`", page)


@pytest.mark.skipif(SEEDS is None, reason="the source files are not beside the project")
def test_the_recorded_hashes_are_those_of_the_source_files():
    # That every citation resolves to the words it cites: tests/test_sources.py.
    page = (ROOT / "spec" / "sources.md").read_text(encoding="utf-8")
    for short, filename in SOURCES.items():
        text = (SEEDS / filename).read_bytes()
        assert hashlib.sha256(text).hexdigest() in page, filename


@verifies("trick.earliest-identical", "trick.highest-trump")
def test_the_guides_duplicate_aces_picture_is_decided_by_the_engine():
    from turub_pictures import trick_svg

    svg, alt = trick_svg("A♣ A♣ 6♣ K♣", "♥", "N", "clockwise")
    assert "North wins with card 1" in svg and "trick.earliest-identical" in alt
    svg, alt = trick_svg("A♣ A♣ 6♥ K♣", "♥", "N", "clockwise")
    assert "South wins with card 3" in svg and "trick.highest-trump" in alt
    assert svg.startswith("<svg") and svg.endswith("</svg>")


def test_the_code_scan_reads_citations_not_code():
    code = {item.name: item for item in turub_trace.scan_code()}
    assert "trick.highest-led" in code["turub.rules.trick_winner"].clauses
    # doctest lines and contracts use names such as deal.view or dealer.side: not citations
    found = {cid for item in code.values() for cid in item.clauses}
    assert found <= set(CLAUSES), found - set(CLAUSES)
    # the registry's own table defines every clause and implements none of them
    assert "turub.clauses._ALL" not in code


def test_the_check_scan_finds_verifies_decorators():
    checks = {c.name: c for c in turub_trace.scan_checks()}
    this = checks["tests.test_spec_clauses.test_the_guides_duplicate_aces_picture_is_decided_by_the_engine"]
    assert this.clauses == ("trick.earliest-identical", "trick.highest-trump")
    assert all(cid in CLAUSES for c in checks.values() for cid in c.clauses)


# --- versions and the changelog (#21) ---------------------------------------------------------

import turub_changelog  # noqa: E402


def test_no_clause_changed_since_the_last_release_without_a_changelog_entry():
    # Each clause's text (registry entry and spec item) against its digest at the last
    # frozen release (spec/digests/VERSION.json): a change needs an entry in RELEASES.
    from turub.clauses import RELEASES

    # The pages' prose and the glossary likewise (#34).
    problems = turub_changelog.unexplained_changes(turub_changelog.text_digests(CLAUSES))
    assert not problems, "\n".join(problems)
    # ... and every entry of the releases since is a real change.
    version, before = turub_changelog.frozen()
    now = turub_changelog.text_digests(CLAUSES)
    later = RELEASES[[r.version for r in RELEASES].index(version) + 1:]
    for release in later:
        for cid, what in release.changed:
            assert what and before.get(cid) != now.get(cid), (release.version, cid)


def test_a_changed_clause_without_an_entry_is_refused(tmp_path):
    # The first release's digests against this branch's clauses, with the next release's
    # entries taken away: every clause changed since is named.
    from turub.clauses import RELEASES

    (tmp_path / "1.0.0.json").write_text((ROOT / "spec/digests/1.0.0.json").read_text())
    now = turub_changelog.digests(CLAUSES)
    bare = (RELEASES[0], *(r._replace(changed=()) for r in RELEASES[1:]))
    problems = turub_changelog.unexplained_changes(now, tmp_path, releases=bare)
    named = {p.split(":")[0] for p in problems}
    assert named == {cid for r in RELEASES[1:] for cid, _ in r.changed if cid in CLAUSES}
    assert all("without an entry in 'changed'" in p for p in problems)
    # A clause added or withdrawn since is named too.
    extra = {**now, "zz.brand-new": "0" * 16}
    del extra["play.turn"]
    problems = turub_changelog.unexplained_changes(extra, tmp_path, releases=RELEASES)
    assert any(p.startswith("zz.brand-new: added") for p in problems)
    assert any(p.startswith("play.turn: withdrawn") for p in problems)


def test_rewrapping_a_paragraph_is_not_a_change_but_a_word_is(tmp_path):
    (tmp_path / "spec").mkdir()
    path = ROOT / "spec/play.md"
    page = path.read_text(encoding="utf-8")
    ids = list(turub_trace.scan_spec()[path.name])
    base = turub_changelog.digests({c: CLAUSES[c] for c in ids}, ROOT)
    rewrapped = page.replace("A player who holds at least one card of the suit led",
                             "A player who holds at least\none card of the suit led")
    assert rewrapped != page
    (tmp_path / "spec/play.md").write_text(rewrapped, encoding="utf-8")
    assert turub_changelog.digests({c: CLAUSES[c] for c in ids}, tmp_path) == base
    (tmp_path / "spec/play.md").write_text(page.replace("at least one card of the suit led",
                                                        "at least two cards of the suit led"))
    after = turub_changelog.digests({c: CLAUSES[c] for c in ids}, tmp_path)
    assert [c for c in ids if after[c] != base[c]] == ["play.follow-suit"]


# --- quotations: the sources' exact words (#21) ------------------------------------------------

@pytest.mark.skipif(SEEDS is None, reason="the source files are not at hand")
def test_every_quotation_in_the_spec_is_found_verbatim_in_a_source():
    assert turub_changelog.misquotes(SEEDS) == []


@pytest.mark.skipif(SEEDS is None, reason="the source files are not at hand")
def test_a_misquotation_is_found(tmp_path):
    # The audit's misquotes, put back into a copy of the pages, are all found.
    (tmp_path / "spec").mkdir()
    for page in (ROOT / "spec").glob("*.md"):
        (tmp_path / "spec" / page.name).write_text(page.read_text(encoding="utf-8"), encoding="utf-8")
    bad = ['the guide\'s draw ("highest deals")', 'counts as "treated as a draw"',
           'the opponent "next clockwise"', 'all say "left of the dealer"',
           'a deal "dealt as the rule says"']
    (tmp_path / "spec" / "zz.md").write_text("Prose.\n\n" + "\n\n".join(bad) + "\n\n"
                                             '```python\n>>> "not a quotation"\n```\n'
                                             'The guide: "highest dealing", "the next eligible\n'
                                             'player clockwise".\n', encoding="utf-8")
    found = [q for page, _, q in turub_changelog.misquotes(SEEDS, tmp_path) if page == "spec/zz.md"]
    assert found == ["highest deals", "treated as a draw", "next clockwise", "left of the dealer",
                     "dealt as the rule says"]


# --- the version in turub clause and in the kit's reports (#21) ---------------------------------

def test_turub_clause_shows_the_version_and_never_breaks_a_clause_id(capsys):
    import io

    from turub.tools.cli import main
    from turub.clauses import SPEC_VERSION

    out = io.StringIO()
    assert main(["clause", "contest.insufficient-win"], out) == 0
    text = out.getvalue()
    assert text.splitlines()[1] == f"  specification {SPEC_VERSION}"
    ids = set(CLAUSES)
    for line in text.splitlines():
        for word in line.split():
            stem = word.strip(".,;:()\u201c\u201d")
            # a line that ends in a piece of an ID ("contest.second-" / "win-beats-mark")
            if stem.endswith("-") and "." in stem:
                assert not any(cid.startswith(stem) for cid in ids), line
    from turub.tools.clause_cli import _wrap
    text = "See contest.second-win-beats-mark, then dealer.after-insufficient-win or play.no-forced-trump."
    for width in range(20, 100):
        lines = _wrap(text, width=width).splitlines()
        for cid in ("contest.second-win-beats-mark", "play.no-forced-trump"):
            assert any(cid in line for line in lines), (width, lines)


def test_every_report_the_kit_writes_carries_the_spec_version(tmp_path):
    import io
    import json as _json

    from turub.tools.cli import main
    from turub.clauses import SPEC_VERSION

    status = main(["check", "--quiet", "--quick", "--examples", "0", "--properties", "0",
                   "--json", str(tmp_path / "r.json"), "--junit", str(tmp_path / "r.xml"),
                   "--html", str(tmp_path / "html"), "--python", "turub.conformance.adapter:ReferenceImplementation"],
                  io.StringIO())
    report = _json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    assert report["spec"]["spec_version"] == SPEC_VERSION, status
    assert f'<property name="spec_version" value="{SPEC_VERSION}" />' in (tmp_path / "r.xml").read_text()
    assert f"version {SPEC_VERSION}" in (tmp_path / "html/index.html").read_text(encoding="utf-8")
