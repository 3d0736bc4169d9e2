"""Every citation of every clause pins a few sentences of the sources, verbatim.

``turub.tools.sources.resolve`` reads the words a citation's locator points at from the source
file; these tests run wherever the source files are found (``../shared/seeds`` beside the
project, ``$TURUB_SOURCES``) and skip, saying why, where they are not.  The locator grammar
and its refusals are tested on a small made-up source written here, so they run everywhere.
"""

import hashlib
import re
from pathlib import Path

import pytest

from turub.tools import sources
from turub.clauses import CLAUSES, SOURCES

FOLDER = sources.find_folder()
needs_sources = pytest.mark.skipif(FOLDER is None, reason="the source files are not at hand "
                                   f"(../shared/seeds beside the project, or ${sources.ENV_VAR})")

# At most a few sentences: three, or a handful of short lines such as a score table.
MAX_SENTENCES, MAX_SHORT_CHARS = 3, 120


@needs_sources
def test_every_citation_of_every_clause_resolves_to_a_few_sentences_of_the_source():
    checked = 0
    for clause in CLAUSES.values():
        for citation in clause.cites:
            said = sources.sentences(citation, FOLDER)
            words = sources.resolve(citation, FOLDER)
            assert said and words, citation
            assert len(said) <= MAX_SENTENCES or len(words) <= MAX_SHORT_CHARS, (clause.id, citation)
            checked += 1
    assert checked > 200


@needs_sources
def test_the_resolved_words_are_the_sources_own_verbatim():
    texts = {short: (FOLDER / name).read_text(encoding="utf-8") for short, name in SOURCES.items()}
    for clause in CLAUSES.values():
        for citation in clause.cites:
            for sentence in sources.sentences(citation, FOLDER):
                assert sentence in texts[citation[:3]], (citation, sentence)


@needs_sources
def test_known_citations_pin_the_expected_words():
    # Independent of the splitter: the sentence as a reader finds it in the file.
    # The sentence by its digest: the project never stores a sentence of the sources (#34).
    assert hashlib.sha256(sources.resolve("000 §03 ¶1 s3", FOLDER).encode()).hexdigest() == \
        "c9ac668d208fad77f71455a4737cd14c973f34a3164a72742e1463306848d071"
    assert sources.resolve("001 The deal ¶5 s4", FOLDER).startswith("If the last deal was a draw")
    assert sources.resolve("002 FAQ 3 ¶1", FOLDER).startswith("La definitiva")
    assert sources.resolve("000 §04 ¶2 s2-3", FOLDER).count(".") == 2


@needs_sources
def test_every_sentence_of_every_source_is_cited_by_some_clause():
    cited: set[tuple[str, str, int, int]] = set()
    for clause in CLAUSES.values():
        for citation in clause.cites:
            loc = sources.parse(citation)
            for p in range(loc.paragraph, loc.to + 1):
                n = len(sources.split_sentences(sources.paragraphs(loc.source, loc.section, FOLDER)[p]))
                first, last = (loc.first, loc.last) if loc.first else (1, n)
                cited |= {(loc.source, loc.section, p, k) for k in range(first, last + 1)}
    missing = []
    for short in SOURCES:
        for section in _sections(short):
            paras = sources.paragraphs(short, section, FOLDER)
            for p, text in enumerate(paras[1:], 1):
                for k, sentence in enumerate(sources.split_sentences(text), 1):
                    if (short, section, p, k) not in cited:
                        missing.append(f"{short} {section} ¶{p} s{k}: {sentence[:60]}")
    assert not missing, missing


def _sections(short: str) -> list[str]:
    text = (FOLDER / SOURCES[short]).read_text(encoding="utf-8")
    found = ["head"] + [f"§{m}" for m in re.findall(r"^(\d\d) /$", text, re.M)]
    found += list(sources.OUTLINE.get(short, ()))
    found += [f"FAQ {i}" for i in range(1, text.count("?+") + 1)]
    return found


@needs_sources
def test_every_line_of_every_source_lands_in_a_section():
    for short, name in SOURCES.items():
        lines = [ln.strip() for ln in (FOLDER / name).read_text(encoding="utf-8").splitlines()]
        placed = [p for s in _sections(short) for p in sources.paragraphs(short, s, FOLDER)]
        numbered = [ln for ln in lines if re.fullmatch(r"\d\d /", ln)]
        # Every non-empty line once, plus the empty heading of the part before the first section.
        assert sorted(placed + numbered) == sorted([ln for ln in lines if ln] + [""]), short


# --- the grammar and the refusals, on a made-up source --------------------------------------

GUIDE = """Title line

01 /

First heading

One. Two! Is it three? "Four," said she. 5 is a number.

Second paragraph here.
Common questions
"""


@pytest.fixture()
def folder(tmp_path):
    for short, name in SOURCES.items():
        (tmp_path / name).write_text(GUIDE if short == "000" else "x\n", encoding="utf-8")
    return tmp_path


def test_a_locator_picks_sentences_paragraphs_and_headings(folder):
    assert sources.resolve("000 §01 ¶1 s2", folder) == "Two!"
    assert sources.resolve("000 §01 ¶1 s2-4", folder) == 'Two! Is it three? "Four," said she.'
    assert sources.resolve("000 §01 ¶1 s5", folder) == "5 is a number."
    assert sources.resolve("000 §01 ¶0", folder) == "First heading"
    assert sources.resolve("000 §01 ¶1-2", folder).endswith("number. Second paragraph here.")
    assert sources.resolve("000 Common questions ¶0", folder) == "Common questions"
    assert sources.resolve("000 head ¶1", folder) == "Title line"
    assert sources.section_of("000 §01 ¶1 s2-4") == "000 §01"


@pytest.mark.parametrize("citation, reason", [
    ("000 §01", "not a locator"),
    ("000 §01 ¶1 s3-2", "backwards"),
    ("000 §01 ¶1-2 s1", "within one paragraph"),
    ("999 §01 ¶1", "no source '999'"),
    ("000 §02 ¶1", "no section '§02'"),
    ("000 §01 ¶3", "has paragraphs 1-2"),
    ("000 §01 ¶1 s6", "has 5 sentence"),
    ("000 head ¶0", "has paragraphs"),
])
def test_a_broken_citation_is_refused_naming_the_citation_and_the_fault(folder, citation, reason):
    with pytest.raises(sources.CitationError) as e:
        sources.resolve(citation, folder)
    assert reason in str(e.value) and citation in str(e.value)
    assert isinstance(e.value, ValueError)


def test_a_missing_source_file_is_refused(tmp_path):
    with pytest.raises(sources.CitationError, match="missing"):
        sources.resolve("000 §01 ¶1", tmp_path)


def test_the_folder_is_found_from_the_argument_or_the_environment(folder, monkeypatch, tmp_path_factory):
    assert sources.find_folder(folder) == Path(folder)
    monkeypatch.setenv(sources.ENV_VAR, str(folder))
    assert sources.find_folder(tmp_path_factory.mktemp("empty")) == Path(folder)


def test_every_citation_is_a_locator_into_a_known_source():
    # Runs without the sources: the grammar alone.
    for clause in CLAUSES.values():
        for citation in clause.cites:
            assert sources.parse(citation).source in SOURCES, citation
