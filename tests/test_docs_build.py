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

from html import escape

from turub.clauses import CLAUSES, VOCABULARY
from turub.tools.sources import find_folder, resolve
from turub.tools.sources import sentences as sentences_of

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
    kinds = {p.name.rsplit("-", 1)[0] for p in pictures}
    assert kinds == {"trick", "seating", "contest", "deal-sequence", "rotation", "worked-deal",
                     "full-deal"} and len(pictures) >= 10
    play = (html / "spec/play.html").read_text()
    assert "_pictures/trick-" in play and "<figcaption>" in play


def test_the_gate_fails_on_an_uncovered_clause_and_on_a_check_citing_no_clause(tmp_path):
    # Built without the sources too (a folder that does not hold them): see the next test.
    run, _ = sphinx(tmp_path, "--keep-going",
                    "-D", "turub_inject_clause=fake.uncovered-rule",
                    "-D", "turub_inject_check=test_of_nothing=nowhere.no-such-clause",
                    "-D", "turub_inject_citation=play.turn=000 §03 paragraph 2",
                    "-D", f"turub_sources={tmp_path}")
    log = run.stdout + run.stderr
    assert run.returncode != 0
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
    html, _, _ = site
    shots = screenshot.render(html, tmp_path)
    assert [p.name for p in shots] == ["index.png", "clause-page.png"]
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and p.stat().st_size > 20_000 for p in shots)


def test_no_page_overflows_horizontally_at_1280_pixels(site):
    sys.path.insert(0, str(DOCS))
    import screenshot

    if screenshot.chromium() is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    html, _, _ = site
    for viewport in (1280, 1200, 1400):  # the issue saw overflow between 1200 and 1400 px
        widths = screenshot.overflow(html, width=viewport)
        assert len(widths) >= 25 and "spec/play.html" in widths and "traceability/matrix.html" in widths
        wider = {page: w for page, w in widths.items() if w[0] > w[1]}
        assert not wider, f"pages wider than the {viewport} px viewport (scrollWidth, viewport): {wider}"


@pytest.mark.skipif(find_folder() is None, reason="the source files are not at hand")
def test_each_clause_shows_the_sentences_it_cites_folded_beside_our_words(site):
    html, _, _ = site
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
    html, _, _ = site
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

    html, _, _ = site
    from turub.variants import BUILTIN

    # The site is built in another process: variants that other tests register at run time in
    # this one have no page there, so only the built-in ones are compared.
    found = {k: v for k, v in turub_variants.variants().items() if k in BUILTIN}
    assert {"counterclockwise", "stake-per-deal"} <= set(found)
    for name, rules in found.items():
        page = (html / "variants" / f"{name}.html").read_text()
        changed = variants_diff(Rules(), rules)["clauses"]
        assert f"Clauses whose answers change ({len(changed)})" in page
        for cid in changed:
            assert f'href="../spec/' in page and cid in page, (name, cid)


def test_the_first_page_for_players_and_the_matrix_by_part_of_the_game(site):
    html, _, _ = site
    index = (html / "index.html").read_text()
    assert index.index("five-minutes.html") < index.index("guides/reading.html")
    matrix = (html / "traceability/matrix.html").read_text()
    titles = ["The pack and the cards", "Signals", "The contest and the stake"]
    positions = [matrix.find(t) for t in titles]
    assert all(p > 0 for p in positions) and positions == sorted(positions), positions


def test_touching_one_page_rebuilds_only_that_page(site):
    # The speed of it is measured in benchmarks/bench_docs.py.
    html, _, _ = site
    out = html.parent
    page = ROOT / "spec/pack.md"
    os.utime(page)
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-n", "-b", "html", str(DOCS), str(out / "html"),
         "-d", str(out / "doctrees")], capture_output=True, text=True, cwd=ROOT, timeout=300,
        env={**os.environ, "PYTHONHASHSEED": "0"})
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

    html, _, _ = site
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
                assert f'#{other.replace(".", ":")}"' in box, (cid, other)
                checked += 1
    assert checked >= 30, checked


def test_the_kit_reports_link_every_clause_to_its_item_in_the_site(site):
    # turub check --html and turub report link each clause to SITE/spec/PAGE.html#ID: the
    # page of its part of the game, and the anchor sphinx-needs gives the clause's item
    from turub.conformance.reports.html import clause_url
    html, _, _ = site
    for cid in CLAUSES:
        page, anchor = clause_url(cid, str(html)).split("#")
        assert f'id="{anchor}"' in Path(page).read_text(encoding="utf-8"), cid
