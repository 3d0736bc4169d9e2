"""The sources' own words, found by a citation's locator and read from the files at run time.

The project never stores a sentence of the sources (every clause is in our words); this module opens the source file named by a citation and returns the
words the citation points at, verbatim, so a reader can set them beside ours.

A citation is a **locator**: the source's short name, the section, the paragraph and,
optionally, the sentences::

    000 §03 ¶2 s1-2                   the guide, section 03, 2nd paragraph, sentences 1 to 2
    001 The deal ¶3 s1                the brief, the section headed "The deal", 3rd paragraph
    001 FAQ Who calls trumps ¶1 s2    the brief's question beginning "Who calls trumps"
    002 FAQ 2 ¶1                      the Spanish guide's second question, its answer (all of it)
    000 Common questions ¶0           a heading itself (paragraph 0 is the section's heading)
    002 FAQ 2 ¶0-1                    paragraphs 0 to 1: the question and its answer

* Sections: ``§NN`` is a numbered section of the guides (000, 002), opened by a line
  ``NN /`` whose next line is its heading; ``FAQ N`` is the Nth question of 002, ``FAQ
  words`` the question of 001 that begins with those words; any other name is a heading
  of :data:`OUTLINE` (001's headings, the guides' questions headings); ``head`` is what
  comes before a source's first section (its title).
* Paragraphs are the section's non-empty lines after its heading, counted from 1.
* Sentences are counted from 1 within a paragraph; a sentence ends at ``.``, ``!`` or ``?``
  (and a closing quote) followed by a space and a capital, a digit or an opening mark.

>>> parse("000 §03 ¶2 s1-2")
Locator(source='000', section='§03', paragraph=2, to=2, first=1, last=2)
>>> section_of("001 FAQ Who calls trumps ¶1 s2")
'001 FAQ Who calls trumps'
"""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple

from ..user_files import InputFileError, read_input_text

__all__ = ["CitationError", "Locator", "OUTLINE", "ENV_VAR", "parse", "section_of", "resolve",
           "sentences", "paragraphs", "find_folder", "split_sentences"]

#: The environment variable that names the folder holding the source files.
ENV_VAR = "TURUB_SOURCES"

#: The headings of each source that are not numbered sections: the brief's (001) sections,
#: in order, and the questions headings of the guides.  A question of 001 is named ``FAQ``
#: and the first words of the question.
OUTLINE: dict[str, tuple[str, ...]] = {
    "000": ("Common questions",),
    "001": (
        "Players and equipment", "The deal", "Play", "Scoring", "A worked deal", "Ending",
        "Calling trumps on a sixth of your hand", "Count the duplicates, not just the cards",
        "Read your partner's knock",
        "Play for the whole deal, not just the trick in front of you",
        "Watch who leads a duplicate first", "Playing counter-clockwise",
        "Settling the stake deal by deal",
        "FAQ How many cards", "FAQ How do you win a game", "FAQ Who calls trumps",
        "FAQ What happens when two identical cards", "FAQ How do you win the stake",
        "FAQ Is Arba'a Turub related",
    ),
    "002": ("Preguntas frecuentes",),
}

_LOCATOR = re.compile(r"^(?P<source>\d{3}) (?P<section>.+?) ¶(?P<paragraph>\d+)(?:-(?P<to>\d+))?"
                      r"(?: s(?P<first>\d+)(?:-(?P<last>\d+))?)?$")
_NUMBERED = re.compile(r"^(\d\d) /$")
_SENTENCE_END = re.compile(r"[.!?][\"”’)]?\s+(?=[\"“‘'¿¡(]?[A-Z0-9ÁÉÍÓÚÑ])")


class CitationError(ValueError):
    """A citation that does not locate words in the sources; the message says why."""

    def __init__(self, citation: str, reason: str) -> None:
        super().__init__(f"citation {citation!r}: {reason}")
        self.citation = citation
        self.reason = reason


class Locator(NamedTuple):
    """A parsed citation: paragraphs ``paragraph`` to ``to``; sentences ``first`` to ``last``
    of that paragraph (both 0: the whole paragraph)."""

    source: str
    section: str
    paragraph: int
    to: int
    first: int = 0
    last: int = 0


def parse(citation: str) -> Locator:
    """The locator of ``citation``; :class:`CitationError` if it is not one."""
    m = _LOCATOR.match(citation)
    if not m:
        raise CitationError(citation, "not a locator 'SRC SECTION ¶P [sA[-B]]'")
    paragraph = int(m["paragraph"])
    to = int(m["to"] or paragraph)
    first = int(m["first"] or 0)
    last = int(m["last"] or first)
    if to < paragraph or last < first:
        raise CitationError(citation, "a range runs backwards")
    if to != paragraph and first:
        raise CitationError(citation, "sentences are counted within one paragraph")
    return Locator(m["source"], m["section"], paragraph, to, first, last)


def section_of(citation: str) -> str:
    """The source and section a citation points into: ``000 §03 ¶2 s1`` → ``000 §03``."""
    loc = parse(citation)
    return f"{loc.source} {loc.section}"


def split_sentences(paragraph: str) -> tuple[str, ...]:
    """A paragraph's sentences, verbatim (the spaces between them dropped)."""
    out, start = [], 0
    for m in _SENTENCE_END.finditer(paragraph):
        out.append(paragraph[start:m.end()].rstrip())
        start = m.end()
    out.append(paragraph[start:].strip())
    return tuple(s for s in out if s)


def _heading_key(source: str, line: str, question_count: list[int]) -> str | None:
    """The section name a line opens, or None."""
    if source == "001":
        for name in OUTLINE["001"]:
            if name.startswith("FAQ "):
                if line.endswith("?") and line.startswith(name[4:]):
                    return name
            elif line == name:
                return name
        return None
    if line in OUTLINE.get(source, ()):
        return line
    if line.endswith("?+"):  # the Spanish guide's questions: "¿...?+"
        question_count[0] += 1
        return f"FAQ {question_count[0]}"
    return None


@lru_cache(maxsize=8)
def _outline(path: Path, mtime: float) -> dict[str, tuple[str, ...]]:
    """Each section of a source file: its heading (index 0), then its paragraphs."""
    source = path.name[:3]
    lines = [line.strip() for line in read_input_text(path).splitlines()]
    sections: dict[str, list[str]] = {"head": [""]}
    current = sections["head"]
    questions = [0]
    i = 0
    while i < len(lines):
        line = lines[i]
        i += 1
        if not line:
            continue
        numbered = _NUMBERED.match(line)
        if numbered:
            while i < len(lines) and not lines[i]:
                i += 1
            current = sections.setdefault(f"§{numbered[1]}", [lines[i] if i < len(lines) else ""])
            i += 1
            continue
        key = _heading_key(source, line, questions)
        if key is not None:
            current = sections.setdefault(key, [line])
            continue
        current.append(line)
    return {k: tuple(v) for k, v in sections.items()}


def find_folder(folder: str | os.PathLike[str] | None = None) -> Path | None:
    """The folder holding the source files: ``folder``, else ``$TURUB_SOURCES``, else
    ``shared/seeds`` beside the project's root (``../shared/seeds``) or beside one of the
    folders above it; ``None`` if none of these holds them."""
    from ..clauses import SOURCES

    root = Path(__file__).resolve().parents[2]
    beside = [parent / "shared" / "seeds" for parent in root.parents]
    candidates = [folder, os.environ.get(ENV_VAR), *beside]
    for c in candidates:
        if c and all((Path(c) / name).is_file() for name in SOURCES.values()):
            return Path(c)
    return None


def _file(citation: str, loc: Locator, folder: str | os.PathLike[str]) -> Path:
    from ..clauses import SOURCES

    if loc.source not in SOURCES:
        raise CitationError(citation, f"no source {loc.source!r} (sources: {', '.join(SOURCES)})")
    path = Path(folder) / SOURCES[loc.source]
    if not path.is_file():
        raise CitationError(citation, f"the source file {path} is missing")
    return path


def _outline_of(citation: str, path: Path) -> dict[str, tuple[str, ...]]:
    """:func:`_outline` of the source file ``path``; a file that cannot be read as an input
    file (:mod:`turub.user_files`) is a :class:`CitationError`."""
    try:
        return _outline(path, path.stat().st_mtime)
    except InputFileError as e:
        raise CitationError(citation, str(e)) from None


def paragraphs(source: str, section: str, folder: str | os.PathLike[str]) -> tuple[str, ...]:
    """A section's heading (index 0) and paragraphs, verbatim."""
    citation = f"{source} {section} ¶0"
    path = _file(citation, Locator(source, section, 0, 0), folder)
    outline = _outline_of(citation, path)
    if section not in outline:
        raise CitationError(citation, f"no section {section!r} in {path.name} "
                                      f"(sections: {', '.join(outline)})")
    return outline[section]


def sentences(citation: str, folder: str | os.PathLike[str]) -> tuple[str, ...]:
    """The sentences ``citation`` points at, verbatim, in order."""
    loc = parse(citation)
    path = _file(citation, loc, folder)
    outline = _outline_of(citation, path)
    if loc.section not in outline:
        raise CitationError(citation, f"no section {loc.section!r} in {path.name}")
    section = outline[loc.section]
    if loc.to >= len(section) or not all(section[loc.paragraph:loc.to + 1]):
        raise CitationError(citation, f"section {loc.section!r} has paragraphs 1-{len(section) - 1}")
    if not loc.first:
        return tuple(s for p in section[loc.paragraph:loc.to + 1] for s in split_sentences(p))
    said = split_sentences(section[loc.paragraph])
    if loc.last > len(said):
        raise CitationError(citation, f"paragraph {loc.paragraph} has {len(said)} sentence(s)")
    return said[loc.first - 1:loc.last]


def resolve(citation: str, folder: str | os.PathLike[str]) -> str:
    """The words ``citation`` points at, verbatim from the source file in ``folder``.

    Raises :class:`CitationError` (a ``ValueError``) naming the citation and what is wrong
    with it: not a locator, an unknown source, a missing file, section, paragraph or sentence.
    """
    return " ".join(sentences(citation, folder))
