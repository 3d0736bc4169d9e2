"""The site true to every word (#34): glossary links in their sense, every decision listed,
the prose and the glossary versioned with the clauses.

The glossary linker links a word only where it carries the glossary's meaning.

The build writes ``term-links.txt`` beside the site: every link from a clause's own words to
a glossary entry, one a line (page, clause, entry, the word as written, its sentence with the
word in ⟦⟧), so that a word linked in the wrong sense is seen in review.  These tests read it:
the senses the audit found wrong (the card draw for the first dealer linked to a deal's draw,
a card that wins a trick linked to a deal's win, "the deal is void" linked to a player's
void, the physical side linked to a partnership, links inside quotations of the sources)
must be gone, and the inflected forms (dealt, won, led, closed, winner) linked.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from turub.clauses import VOCABULARY

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs" / "_ext"))


class Link(tuple):
    """One line of ``term-links.txt``."""

    page = property(lambda self: self[0])
    clause = property(lambda self: self[1])
    entry = property(lambda self: self[2])
    word = property(lambda self: self[3])
    sentence = property(lambda self: self[4])


def read_links(path: Path) -> list[Link]:
    return [Link(line.split("\t")) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _inside_quotation(sentence: str) -> bool:
    before = sentence[:sentence.index("\u27e6")]
    return before.count("\u201c") > before.count("\u201d") or before.count('"') % 2 == 1


#: Each wrong sense, stated apart from the linker: (what is wrong, a test of one link).
WRONG = (
    ("the card draw for the first dealer linked to a deal's draw",
     lambda l: l.entry == "draw" and (l.clause.startswith("dealer.first-draw")
                                      or "first dealer" in l.sentence
                                      or "Suits break ties" in l.sentence)),
    ("a card that wins a trick linked to a deal's win",
     lambda l: l.entry == "win" and (l.clause.startswith("trick.")
                                     or re.search(r"(trump|ace|later|first|led) \u27e6wins\u27e7"
                                                  r"|(trick is|each|whenever it is) \u27e6won\u27e7 by|whenever it is \u27e6won",
                                                  l.sentence))),
    ("a void deal linked to a player's void in a suit",
     lambda l: l.entry == "void" and re.search(r"deal is \u27e6void|\u27e6void\u27e7 deal", l.sentence)),
    ("the physical side of the table linked to a partnership",
     lambda l: l.entry == "side" and "physical \u27e6side" in l.sentence),
    ("a word inside a quotation of the sources linked", lambda l: _inside_quotation(l.sentence)),
    ("the verb to deal linked to a deal", lambda l: l.entry == "deal" and re.search(
        r"\u27e6deals?\u27e7 (it|them|first|next|again|no|the)\b", l.sentence)),
)


def wrong_senses(links: list[Link]) -> list[str]:
    return [f"{why}: {l.clause}: {l.sentence}" for l in links for why, test in WRONG if test(l)]


@pytest.fixture(scope="module")
def site(built_site) -> Path:
    """The site built once for the run, shared with the other files that read it (``sitebuild.py``)."""
    assert built_site.returncode == 0, built_site.stdout[-3000:] + built_site.stderr[-3000:]
    return built_site.html


@pytest.fixture(scope="module")
def links(site) -> list[Link]:
    return read_links(site / "term-links.txt")


def test_every_link_is_listed_with_its_sentence_and_none_is_in_a_wrong_sense(links):
    assert len(links) > 500
    entries = {t.word for t in VOCABULARY}
    assert all(l.entry in entries and "\u27e6" in l.sentence for l in links)
    wrong = wrong_senses(links)
    assert not wrong, "glossary links in the wrong sense (see term-links.txt):\n" + "\n".join(wrong)


def test_inflected_forms_and_other_senses_are_linked_to_their_own_entries(links):
    words = {(l.word.lower(), l.entry) for l in links}
    for word, entry in [("dealt", "dealing"), ("won", "win"), ("led", "lead"),
                        ("closed", "close"), ("winner", "win"), ("draw", "card draw"),
                        ("wins", "trick winner"), ("void deal", "void deal")]:
        assert (word, entry) in words, (word, entry)


def test_the_check_finds_the_wrong_senses_the_audit_found():
    # Lines as the linker wrote them before it knew senses: each one is caught.
    old = [
        ("spec/table", "dealer.first-draw-ties", "draw", "draw",
         "The others drop out of the \u27e6draw\u27e7."),
        ("spec/play", "trick.highest-trump", "win", "wins",
         "If any trump was played to a trick, the highest trump \u27e6wins\u27e7 it."),
        ("spec/dealing", "deal.dealer-check", "void", "void",
         "if it does not, the deal is \u27e6void\u27e7."),
        ("spec/table", "table.left-of-dealer", "side", "side",
         "We take the role rather than the physical \u27e6side\u27e7, because"),
        ("spec/dealing", "deal.cut", "cut", "cuts",
         "The Spanish guide says only \u201cCorta el vecino izquierdo\u201d, \u2018the left neighbour "
         "\u27e6cuts\u27e7\u2019"),
        ("spec/dealing", "deal.cut", "dealer", "dealer",
         "The sources say \u201cleft of \u27e6dealer\u27e7\u201d and more."),
        ("spec/dealing", "deal.redeal", "deal", "deals", "none says who \u27e6deals\u27e7 it."),
    ]
    found = wrong_senses([Link(line) for line in old])
    assert len(found) == len(old) - 1, found  # the single-quoted translation is ours: linked
    assert not any("neighbour" in f for f in found)


def test_the_linker_skips_quotations_and_marked_senses():
    from docutils import nodes

    import turub_addresses

    words = nodes.container(classes=["turub-words"])
    para = nodes.paragraph()
    para += nodes.Text("The guide: \u201cthe deal ")
    para += nodes.emphasis("", "dealt")
    para += nodes.Text(" void\u201d, and our deal is ")
    para += nodes.inline("", "void", classes=["turub-plain"])
    para += nodes.Text(".")
    words += para
    free = [(str(t), spans) for t, spans in turub_addresses._uses(words)]
    # the quotation runs over the emphasis: only "the guide" and ", and our deal is " are ours
    assert free[0] == ("The guide: \u201cthe deal ", [(0, 11)])
    assert free[1] == ("dealt", [])
    assert free[2][1] == [(6, len(" void\u201d, and our deal is "))]
    assert len(free) == 4 and free[3][0] == "."  # the plain "void" is not a use
    pattern = turub_addresses.term_pattern()
    found = [turub_addresses._term_of(m) for m in pattern.finditer(
        "won the trick, dealt, led, closed, the winner, the deal is void, twin")]
    assert found == ["trick winner", "dealing", "lead", "close", "win", "void deal", "twins"]


# --- every clause that goes beyond the sources is listed (#34) ---------------------------------

_ITEM = re.compile(r"^(:{3,})\{spec-clause\}[ ]+(\S+)\n(.*?)^\1$", re.M | re.S)


def beyond_the_sources_as_written(root: Path = ROOT) -> set[str]:
    """Read from the pages apart from the site's directive: a clause of kind interpretation,
    one whose sources are silent or disagree, one with an interpretation note."""
    from turub.clauses import CLAUSES

    found = set()
    for page in (root / "spec").glob("*.md"):
        for m in _ITEM.finditer(page.read_text(encoding="utf-8")):
            cid, body = m.group(2), m.group(3)
            if (CLAUSES[cid].kind == "interpretation" or "{interpretation}" in body
                    or re.search(r"^:agreement:\s*(silent|disagree)", body, re.M)):
                found.add(cid)
    return found


def _listed(html: str) -> set[str]:
    table = html[html.index("turub-decisions"):]
    table = table[:table.index("</table>")]
    return set(re.findall(r'<tr class="row-(?:odd|even)"><td><p><a class="reference internal" '
                          r'href="[^"]*#([\w.-]+)"', table))


def test_the_open_questions_list_every_clause_that_goes_beyond_the_sources(site):
    expected = beyond_the_sources_as_written()
    assert {"deal.dealer-check", "deal.cut", "sheet.one-deal-per-row",
            "trick.earliest-identical", "table.direction"} <= expected
    listed = _listed((site / "spec/open-questions.html").read_text(encoding="utf-8"))
    assert listed == expected, (expected - listed, listed - expected)


def test_a_clause_with_a_new_note_is_listed_without_editing_the_page(tmp_path):
    import turub_trace
    from turub.clauses import CLAUSES

    (tmp_path / "spec").mkdir()
    for page in (ROOT / "spec").glob("*.md"):
        (tmp_path / "spec" / page.name).write_text(page.read_text(encoding="utf-8"), encoding="utf-8")
    play = tmp_path / "spec/play.md"
    text = play.read_text(encoding="utf-8")
    assert "play.follow-suit" not in turub_trace.beyond_the_sources(CLAUSES, tmp_path)
    marker = "::::{spec-clause} play.follow-suit\n:agreement: agree\n"
    assert marker in text
    play.write_text(text.replace(marker, marker + "\n:::{interpretation} The project's addition\n"
                                 "A made-up addition.\n:::\n"), encoding="utf-8")
    found = turub_trace.beyond_the_sources(CLAUSES, tmp_path)
    assert found["play.follow-suit"] == ("The project's addition",)
    assert set(found) == beyond_the_sources_as_written(tmp_path)


# --- the pages' prose and the glossary are versioned with the clauses (#34) ---------------------

def test_a_change_to_a_page_or_a_glossary_meaning_needs_a_changelog_entry(tmp_path):
    import turub_changelog
    from turub.clauses import CLAUSES, VOCABULARY

    assert turub_changelog.unexplained_changes(turub_changelog.text_digests(CLAUSES)) == []
    (tmp_path / "spec").mkdir()
    for page in (ROOT / "spec").glob("*.md"):
        (tmp_path / "spec" / page.name).write_text(page.read_text(encoding="utf-8"), encoding="utf-8")
    pack = tmp_path / "spec/pack.md"
    text = pack.read_text(encoding="utf-8")
    pack.write_text(text.replace("one large pack made of four ordinary packs", "one large pack "
                                 "made of four square packs"), encoding="utf-8")
    vocabulary = [t._replace(meaning="a deal one side took") if t.word == "win" else t
                  for t in VOCABULARY]
    now = turub_changelog.text_digests(CLAUSES, tmp_path, vocabulary)
    problems = turub_changelog.unexplained_changes(now)
    assert [p.split(": ")[0] for p in problems] == ["page:pack", "term:win"], problems
    assert all("without an entry in 'changed'" in p for p in problems)
    # Re-wrapping the prose is not a change.
    pack.write_text(text.replace("one large pack made of", "one large\npack made of"),
                    encoding="utf-8")
    assert turub_changelog.unexplained_changes(turub_changelog.text_digests(CLAUSES, tmp_path)) == []


def test_the_changelog_names_the_changed_pages_and_glossary_entries(site):
    from turub.clauses import RELEASES

    changelog = (site / "spec/changelog.html").read_text(encoding="utf-8")
    keys = [k for r in RELEASES for k in (*r.added, *(c for c, _ in r.changed))]
    assert any(k.startswith("page:") for k in keys) and any(k.startswith("term:") for k in keys)
    for key in keys:
        if key.startswith("term:"):
            from turub_addresses import term_anchor

            assert f'glossary.html#{term_anchor(key[5:])}"' in changelog, key
        elif key.startswith("page:") and key != "page:changelog":  # not a link to itself
            assert f'href="{key[5:]}.html"' in changelog, key
