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
