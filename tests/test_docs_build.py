"""The site builds with -W -n (warnings are errors, nitpicky), fast; and its gate really fails.

The build is how CI proves the specification's traceability: every normative clause has
code and a check, no code or check cites an unknown clause, every reference resolves.
"""

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from html import escape

from turub.clauses import CLAUSES, RELEASES, SPEC_VERSION, VOCABULARY
from turub.tools.sources import find_folder, resolve
from turub.tools.sources import sentences as sentences_of

from pace import generous
from sitebuild import sphinx

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


@pytest.fixture(scope="module")
def site(built_site):
    """The site as the default build makes it: built once for the whole run (``sitebuild.py``)
    and shared with the other files that read it."""
    return built_site


def test_the_site_builds_with_warnings_as_errors(site):
    # Its speed is measured by benchmarks/bench_docs.py, not asserted here.
    html, run = site.html, site
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert "WARNING" not in run.stderr
    assert (html / "index.html").exists() and (html / "spec/play.html").exists()


def test_the_exported_needs_link_every_normative_clause_to_code_and_checks(site):
    html, run = site.html, site
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
    html = site.html
    pictures = list((html / "_pictures").glob("*.svg"))
    kinds = {p.name.rsplit("-", 1)[0] for p in pictures}
    assert kinds == {"trick", "seating", "contest", "deal-sequence", "rotation", "worked-deal",
                     "full-deal"} and len(pictures) >= 10
    play = (html / "spec/play.html").read_text()
    assert "_pictures/trick-" in play and "<figcaption>" in play


def _conf_value(name: str):
    """A value docs/conf.py sets with a literal (read, not run)."""
    tree = ast.parse((DOCS / "conf.py").read_text(encoding="utf-8"))
    return next(ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                and any(isinstance(t, ast.Name) and t.id == name for t in node.targets))


#: The spec pages the gate's test reads (``index`` holds their table of contents).
GATE_READS = ("index.md", "play.md", "changelog.md")
#: What the gate's build leaves out: the guides and the variants' pages (a third of the
#: build's CPU, the options guide's diffs most of it) hold no clause, code or check item, and
#: the gate's test reads none of them; nor every spec page but those it reads (half the
#: rest): the injected items and the checks of the code and check items are made all the
#: same (built so without the injections, the gate passes: tried by hand). The warnings for the
#: links to what is left out are silenced, or (the items linking to a clause left out) are
#: among the build's many, which the test does not count.
GATE_LEAVES_OUT = ("guides/**", "variants/**",
                   *sorted(f"spec/{p.name}" for p in (ROOT / "spec").glob("*.md") if p.name not in GATE_READS))


def test_the_gate_fails_on_an_uncovered_clause_and_on_a_check_citing_no_clause(tmp_path):
    # Built without the sources too (a folder that does not hold them): see the next test.
    run = sphinx(tmp_path, "--keep-going",
                    "-D", "exclude_patterns=" + ",".join([*_conf_value("exclude_patterns"), *GATE_LEAVES_OUT]),
                    "-D", "suppress_warnings=toc.excluded,ref.doc",
                    "-D", "turub_inject_clause=fake.uncovered-rule",
                    "-D", "turub_inject_check=test_of_nothing=nowhere.no-such-clause",
                    "-D", "turub_inject_citation=play.turn=000 §03 paragraph 2",
                    "-D", f"turub_sources={tmp_path}",
                    "-D", "turub_link_terms=0",
                    "-D", "turub_inject_withdrawn=zz.old-rule=Replaced by play.follow-suit.")
    log = run.stdout + run.stderr
    assert run.returncode != 0
    # Glossary terms left unlinked in a clause's text fail the build.
    assert "clause play.follow-suit uses the glossary term 'suit' without a link" in log
    # A withdrawn ID keeps a tombstone that resolves, on the changelog page and by search.
    changelog = (tmp_path / "html" / "spec/changelog.html").read_text()
    assert 'id="zz.old-rule"' in changelog and "Replaced by play.follow-suit." in changelog
    assert '"zz.old-rule": "spec/changelog.html#zz.old-rule"' in \
        (tmp_path / "html" / "_static/turub-clauses.js").read_text()
    assert "normative clause without implementing code: failed" in log
    assert "normative clause without a check: failed" in log
    assert "fake:uncovered-rule" in log
    assert "nowhere.no-such-clause" in log and "not a clause of the registry" in log
    assert "clause play.turn: citation '000 §03 paragraph 2': not a locator" in log
    # Without the sources the build still renders every clause, with its locators only.
    play = (tmp_path / "html" / "spec/play.html").read_text()
    assert "Where the sources say it" in play and "What the sources say" not in play
    assert "000 §03 ¶1 s3" in play and "compulsory trumping" not in play


def test_the_site_renders_in_headless_chromium(site, tmp_path):
    sys.path.insert(0, str(DOCS))
    import screenshot

    if screenshot.chromium() is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    html = site.html
    shots = screenshot.render(html, tmp_path, timeout=generous(6))
    assert [p.name for p in shots] == ["index.png", "clause-page.png"]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and p.stat().st_size > 20_000 for p in shots)


def _chromium_or_skip():
    sys.path.insert(0, str(DOCS))
    import screenshot

    if screenshot.chromium() is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    return screenshot


#: A phone (390 px), a tablet (768) and a desktop (1280).
WIDTHS = (390, 768, 1280)


@pytest.fixture(scope="module")
def laid_out(site):
    """Every page at each of ``WIDTHS`` in headless Chromium, in one run that loads each page
    once (``screenshot.layouts``)."""
    screenshot = _chromium_or_skip()
    return screenshot.layouts(site.html, WIDTHS, timeout=generous(30))


@pytest.mark.parametrize("width", WIDTHS)
def test_every_page_fits_the_screen_keeps_words_whole_and_shows_the_navigation_at_the_top(laid_out, width):
    pages = laid_out[width]
    assert len(pages) >= 30 and "spec/play.html" in pages and "traceability/matrix.html" in pages
    # laid out at this width (the screen's width, no scroll bar)
    assert {v["scroll"][1] for v in pages.values()} == {width}
    # No page scrolls sideways, and nothing is drawn past the screen's edge outside a frame
    # of its own that scrolls (a wide diagram, a long code line, a wide table).
    wider = {page: v["scroll"] for page, v in pages.items() if v["scroll"][0] > v["scroll"][1]}
    assert not wider, f"pages wider than {width} px (scrollWidth, clientWidth): {wider}"
    spilled = {page: v["spill"] for page, v in pages.items() if v["spill"]}
    assert not spilled, f"drawn past the {width} px screen: {spilled}"
    # Tables wrap at word boundaries: no plain word is split over two lines ("sittin g").
    broken = {page: v["broken"] for page, v in pages.items() if v["broken"]}
    assert not broken, f"words broken inside a table at {width} px: {broken}"
    # The navigation is reachable from the top of each page (the menu of a phone's top bar,
    # the search box of the desktop's side bar), within the first 200 px of the screen.
    far = {page: v["nav"] for page, v in pages.items() if v["nav"] is None or v["nav"] > 200}
    assert not far, f"pages whose navigation is not at the top at {width} px: {far}"


def _dom(url: str) -> str:
    """The document Chromium ends up showing for ``url``, after its scripts ran."""
    import tempfile

    screenshot = _chromium_or_skip()
    for attempt in (1, 2):  # a start that hangs on a loaded machine is tried once more
        with tempfile.TemporaryDirectory(prefix="turub-chromium-") as profile:
            try:
                run = subprocess.run([screenshot.chromium(), *screenshot.FLAGS,
                                      f"--user-data-dir={profile}", "--dump-dom", url],
                                     capture_output=True, text=True, timeout=generous(9))
            except subprocess.TimeoutExpired:
                if attempt == 2:
                    raise
                continue
        return run.stdout
    raise AssertionError("unreachable")


def test_one_control_unfolds_the_sources_words_of_every_clause(site):
    html = site.html
    page = (html / "spec/play.html").resolve().as_uri()
    folded, unfolded = _dom(page), _dom(page + "?sources=open")
    boxes = re.findall(r'<details class="turub-details turub-sources"( open="")?', unfolded)
    assert len(boxes) >= 10 and all(boxes), "every clause's sources unfolded at once"
    assert 'id="turub-sources-toggle"' in unfolded and 'aria-pressed="true"' in unfolded
    assert re.findall(r'<details class="turub-details turub-sources"( open="")?', folded) == [""] * len(boxes)


def test_a_search_for_a_clause_id_lands_on_the_clause(site):
    html = site.html
    landed = _dom((html / "search.html").resolve().as_uri() + "?q=trick.earliest-identical")
    assert 'id="trick.earliest-identical.words"' in landed and "<title>Playing the tricks" in landed
    # Any other query is searched as text, as before.
    stays = _dom((html / "search.html").resolve().as_uri() + "?q=trump")
    assert "trick.earliest-identical.words" not in stays


@pytest.mark.skipif(find_folder() is None, reason="the source files are not at hand")
def test_each_clause_shows_the_sentences_it_cites_folded_beside_our_words(site):
    html = site.html
    play = (html / "spec/play.html").read_text()
    words = resolve("000 §03 ¶1 s3", find_folder())  # cited by play.no-forced-trump
    assert escape(words, quote=False) in play
    box = play[play.index('id="play:no-forced-trump"'):]
    box = box[:box.index("</table>")]
    # reading mode: our words first, then the sources' words and the traceability, folded
    ours = box.index("obligation") if "obligation" in box else box.index("<p>")
    assert ours < box.index("What the sources say") < box.index("Code (")
    assert box.count('<details class="turub-details">') >= 2


def test_the_source_texts_are_never_stored_in_the_project():
    folder = find_folder()
    if folder is None:
        pytest.skip("the source files are not at hand")
    sentences = {s for clause in CLAUSES.values() for c in clause.cites
                 for s in sentences_of(c, folder) if len(s) > 60}
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    for name in tracked:
        path = ROOT / name
        if path.suffix in {".py", ".md", ".json", ".txt", ".js", ".toml", ".css"} and path.is_file():
            text = path.read_text(encoding="utf-8", errors="replace")
            copied = [s for s in sentences if s in text]
            assert not copied, (name, copied[:2])


def test_the_glossary_renders_the_vocabulary_with_spanish_and_brief_words(site):
    html = site.html
    page = (html / "spec/glossary.html").read_text()
    for term in VOCABULARY:
        for word in (term.word, term.spanish, term.brief):
            if word:
                assert escape(word, quote=False) in page, word
    assert "encuentro" in page and "baza" in page and "referencia" in page


def test_each_variant_has_a_page_listing_the_clauses_the_engine_diff_changes(site):
    sys.path.insert(0, str(DOCS / "_ext"))
    import turub_variants
    from turub.conformance.reports.variants import variants_diff
    from turub.options import Rules

    html = site.html
    from turub.variants import BUILTIN

    # The site is built in another process: variants that other tests register at run time in
    # this one have no page there, so only the built-in ones are compared.
    found = {k: v for k, v in turub_variants.variants().items() if k in BUILTIN}
    assert {"counterclockwise", "stake-per-deal"} <= set(found)
    for name, rules in found.items():
        page = (html / "variants" / f"{name}.html").read_text()
        diff = variants_diff(Rules(), rules)
        changed = diff["clauses"]
        assert f"in {len(changed)} clauses" in page
        for cid in changed:
            assert f'href="../spec/' in page and cid in page, (name, cid)
        # The clause the variant replaces comes first, under the clauses it changes.
        changes = page[page.index("Clauses the variant changes"):page.index("Clauses it leaves alone")]
        first = re.search(r'href="\.\./spec/\w+\.html#([\w.-]+)"', changes).group(1)
        assert first in diff["replaced"], (name, first)
    # Counter-clockwise play leaves card notation and the trick rules alone: their cases
    # differ only because other seats hold the cards.
    page = (html / "variants" / "counterclockwise.html").read_text()
    changes = page[page.index("Clauses the variant changes"):page.index("Clauses it leaves alone")]
    alone = page[page.index("Clauses it leaves alone"):]
    for cid in ("pack.card-notation", "trick.highest-trump", "trick.earliest-identical"):
        assert cid not in changes and cid in alone, cid
    assert "table.direction" in changes and "table.left-of-dealer" in changes


def test_the_first_page_for_players_and_the_matrix_by_part_of_the_game(site):
    html = site.html
    index = (html / "index.html").read_text()
    assert index.index("five-minutes.html") < index.index("guides/reading.html")
    matrix = (html / "traceability/matrix.html").read_text()
    titles = ["The pack and the cards", "Signals", "The contest and the stake"]
    positions = [matrix.find(t) for t in titles]
    assert all(p > 0 for p in positions) and positions == sorted(positions), positions


def test_touching_one_page_rebuilds_only_that_page(site, tmp_path):
    # The speed of it is measured in benchmarks/bench_docs.py.  The rebuild works on a copy
    # of the shared build (times kept), which other files read meanwhile.
    out = tmp_path / "site"
    shutil.copytree(site.out, out, symlinks=True)
    page = ROOT / "spec/pack.md"
    os.utime(page)
    run = sphinx(out)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    assert "0 added, 1 changed, 0 removed" in run.stdout, run.stdout[-2000:]
    # Sphinx redraws its status line (an erase-line escape) where it thinks it may, e.g. under CI=true.
    read = [line for line in run.stdout.splitlines() if "reading sources" in line]
    assert len(read) == 1 and "spec/pack" in read[0], read
    assert "The configuration has changed" not in run.stdout


def test_every_clause_that_mentions_another_links_to_it(site):
    # Independent of the directive: the mentions are found in the spec's MyST source, the
    # links in the built HTML.
    sys.path.insert(0, str(DOCS / "_ext"))
    import re as _re

    import turub_trace

    html = site.html
    prefixes = "|".join(sorted({cid.split(".")[0] for cid in CLAUSES}))
    mention = _re.compile(r"(?<![\w.])((?:%s)\.[a-z0-9]+(?:-[a-z0-9]+)*)(?![\w(-])" % prefixes)
    item = _re.compile(r"^(:{3,})\{spec-clause\}[ ]+(\S+)\n(.*?)^\1$", _re.M | _re.S)
    fence = _re.compile(r"^```.*?^```", _re.M | _re.S)
    checked = 0
    for page in turub_trace.scan_spec():
        built = (html / "spec" / page.replace(".md", ".html")).read_text()
        source = (ROOT / "spec" / page).read_text(encoding="utf-8")
        for m in item.finditer(source):
            cid, body = m.group(2), fence.sub("", m.group(3))
            mentioned = {x for x in mention.findall(body) if x in CLAUSES and x != cid}
            if not mentioned:
                continue
            box = built[built.index(f'id="{cid.replace(".", ":")}"'):]
            box = box[:box.index('<tr class="need content')] + \
                box[box.index('<tr class="need content'):].split("</table>", 1)[0]
            for other in mentioned:
                assert f'#{other}"' in box, (cid, other)
                checked += 1
    assert checked >= 30, checked


def test_the_kit_reports_link_every_clause_to_its_item_in_the_site(site):
    # turub check --html and turub report link each clause to SITE/spec/PAGE.html#ID: the
    # page of its part of the game, and the anchor sphinx-needs gives the clause's item
    from turub.conformance.reports.html import clause_url
    html = site.html
    for cid in CLAUSES:
        page, anchor = clause_url(cid, str(html)).split("#")
        assert f'id="{anchor}"' in Path(page).read_text(encoding="utf-8"), cid


def test_a_clause_id_is_its_address_with_a_permalink_and_anchored_parts(site):
    from turub.clauses import part_of

    html = site.html
    interpretations = _spec_parts("{interpretation}")
    mistakes = _spec_parts("**A common mistake**")
    for cid in CLAUSES:
        page = (html / "spec" / f"{part_of(cid).page}.html").read_text(encoding="utf-8")
        assert f'id="{cid}"' in page and f'href="#{cid}"' in page, cid  # lands; permalink
        assert f'id="{cid}.words"' in page and f'id="{cid}.sources"' in page, cid
        assert (f'id="{cid}.interpretation"' in page) == (cid in interpretations), cid
        assert (f'id="{cid}.mistake"' in page) == (cid in mistakes), cid
        # the older anchor still lands (links written before #21)
        assert f'id="{cid.replace(".", ":", 1)}"' in page
    index = (html / "spec/clause-index.html").read_text(encoding="utf-8")
    for cid in CLAUSES:
        assert f'href="{part_of(cid).page}.html#{cid}"' in index, cid
    book = (html / "_static/turub-clauses.js").read_text(encoding="utf-8")
    found = json.loads(book[book.index("{"):book.rindex("}") + 1])
    assert {k: v for k, v in found.items() if k in CLAUSES} == {
        cid: f"spec/{part_of(cid).page}.html#{cid}" for cid in CLAUSES}
    search = (html / "searchindex.js").read_text(encoding="utf-8")
    assert '"clause-id"' in search and '"follow-suit"' in search


def _spec_parts(marker: str) -> set[str]:
    """The clauses whose item in spec/*.md holds ``marker`` (read from the MyST source)."""
    item = re.compile(r"^(:{3,})\{spec-clause\}[ ]+(\S+)\n(.*?)^\1$", re.M | re.S)
    return {m.group(2) for page in (ROOT / "spec").glob("*.md")
            for m in item.finditer(page.read_text(encoding="utf-8")) if marker in m.group(3)}


def test_every_glossary_term_in_a_clause_links_to_its_entry(site):
    html = site.html
    glossary = (html / "spec/glossary.html").read_text(encoding="utf-8")
    anchors = set(re.findall(r'id="(term-[\w-]+)"', glossary))
    assert len(anchors) == len(VOCABULARY)
    play = (html / "spec/play.html").read_text(encoding="utf-8")
    links = re.findall(r'class="turub-term reference internal" href="glossary\.html#(term-[\w-]+)"', play)
    assert len(links) >= 20 and set(links) <= anchors
    box = play[play.index('id="play.follow-suit.words"'):play.index('id="play.follow-suit.mistake"')]
    # "the suit led" is the led suit (a form of its entry, #34), the next "suit" the suit
    assert 'href="glossary.html#term-suit"' in box
    assert '>suit led</a>' in box and 'href="glossary.html#term-led-suit"' in box


def test_the_version_is_on_every_page_and_the_changelog_names_the_changed_clauses(site):
    html = site.html
    pages = [p for p in html.rglob("*.html") if "_static" not in p.parts and not p.name.startswith("_")
             and p.name != "permalink.html"]  # sphinx-needs' redirect, not a page
    assert len(pages) >= 30
    for page in pages:
        assert f"version {SPEC_VERSION}" in page.read_text(encoding="utf-8"), page
    changelog = (html / "spec/changelog.html").read_text(encoding="utf-8")
    for release in RELEASES:
        assert f"Version {release.version}" in changelog
    # (a page's prose and a glossary entry: tests/test_site_words.py)
    changed = [cid for release in RELEASES[1:] for cid, _ in release.changed if cid in CLAUSES]
    assert changed
    for cid in changed:
        assert f'#{cid}"' in changelog, cid
