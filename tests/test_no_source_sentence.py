"""No sentence of the sources is stored in the repository (#34).

The project quotes the sources by locator (``000 §03 ¶1 s3``) and reads their words from the
files at build time (:mod:`turub.tools.sources`); the files themselves are never stored.  This
test splits every source into its sentences (headings and sentences of fewer than
``MIN_WORDS`` words aside: "Remove jokers." is not a quotation of anything) and looks for each
one in every file git tracks, spacing, case, apostrophes and Markdown's escapes and emphasis
aside.  It runs wherever the source files are found and skips, saying why, where they are not.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from turub.clauses import SOURCES
from turub.tools import sources

ROOT = Path(__file__).resolve().parent.parent
FOLDER = sources.find_folder()
needs_sources = pytest.mark.skipif(
    FOLDER is None, reason="the source files are not at hand (../shared/seeds beside the "
                           f"project, or ${sources.ENV_VAR}): nothing to look for")

#: Shorter sentences are common phrases, not quotations ("The first ace wins.").
MIN_WORDS = 5
#: A line that is a sentence (or several) ends as one; a heading does not.
_SENTENCE_LINE = re.compile(r"[.!?:][\"”’)]?\+?$")
_CLOSING = ".!?:\"”’)+ "


def _normal(text: str) -> str:
    text = text.replace("\u2019", "'").replace("\u2018", "'")
    text = re.sub(r"[\\*_`]", "", text)
    return " ".join(text.lower().split())


def source_sentences(folder: Path) -> set[str]:
    """Every sentence of the sources of ``MIN_WORDS`` words or more, without its closing
    punctuation (a quotation that drops the full stop is still the sentence)."""
    out: set[str] = set()
    for name in SOURCES.values():
        for line in (folder / name).read_text(encoding="utf-8").splitlines():
            line = line.strip()
            if not _SENTENCE_LINE.search(line):
                continue  # a heading, a number, a caption
            for sentence in sources.split_sentences(line):
                body = sentence.rstrip(_CLOSING)
                if len(body.split()) >= MIN_WORDS:
                    out.add(_normal(body))
    return out


def stored_sentences(files: dict[str, str], sentences: set[str]) -> list[tuple[str, str]]:
    """(file, sentence) for every sentence of ``sentences`` found in a file's text."""
    found = []
    for name, text in files.items():
        normal = _normal(text)
        found += [(name, s) for s in sorted(sentences) if s in normal]
    return found


def tracked_texts(root: Path = ROOT) -> dict[str, str]:
    """Every file git tracks that reads as UTF-8 text, by its path."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True,
                            check=True).stdout.decode().split("\0")
    texts = {}
    for name in filter(None, listed):
        path = root / name
        if not path.is_file():
            continue
        try:
            texts[name] = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # an image, a binary
    return texts


@needs_sources
def test_no_tracked_file_holds_a_whole_sentence_of_the_sources():
    sentences = source_sentences(FOLDER)
    assert len(sentences) > 150  # the three sources, split: not an empty net
    found = stored_sentences(tracked_texts(), sentences)
    assert not found, "source sentences stored in the repository (cite them by locator):\n" + \
        "\n".join(f"{name}: {s!r}" for name, s in found)


@needs_sources
def test_a_stored_sentence_is_found_however_it_is_wrapped_or_marked_up():
    # Sentences the audit found stored, read from the sources here (never written down), put
    # into files as they were stored: wrapped, without the full stop, in a Python string,
    # lowercased in a comment, with a Markdown emphasis.  Each is found.
    sentences = source_sentences(FOLDER)
    said = {loc: sources.resolve(loc, FOLDER) for loc in
            ("002 §05 ¶1 s3", "000 §03 ¶1 s3", "000 §05 ¶1 s3", "000 §05 ¶1 s1")}
    first, second, third, fourth = said.values()
    words = fourth.split()
    stored = {
        "spec/sources.md": '"' + " ".join(first.split()[:3]) + "\n" +
                           " ".join(first.split()[3:]).rstrip(".") + '": after a draw',
        "tests/test_sources.py": f'    assert resolve(loc) == \\\n        "{second}"',
        "tests/x.py": f"return dealer  # {third.lower().rstrip('.')}",
        "spec/x.md": "the guide: " + " ".join(words[:2] + [f"*{words[2]}*"] + words[3:]),
    }
    found = stored_sentences(stored, sentences)
    assert [name for name, _ in found] == list(stored), found
    # Our own words about the same rules are not sentences of the sources, nor is a
    # sentence shorter than MIN_WORDS.
    ours = {"spec/play.md": "A player void in the led suit may trump or discard; neither is "
                            "compulsory.",
            "x.md": sources.resolve("000 §01 ¶1 s4", FOLDER)}
    assert len(ours["x.md"].split()) < MIN_WORDS
    assert stored_sentences(ours, sentences) == []
