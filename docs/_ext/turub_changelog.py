"""The specification's versions, its changelog, and the faithfulness of its quotations (#21).

* ``spec-changelog``: one section per release (``turub.clauses.RELEASES``, newest first):
  the clauses added, changed (with what changed) and withdrawn.  A withdrawn ID keeps a
  tombstone there, an anchor under its own ID, so old links and ``{ref}`` still resolve.
* :func:`clause_texts` / :func:`digests`: a clause's text is its registry entry (kind, title,
  citations) with its item in ``spec/*.md`` (fields and prose); ``spec/digests/VERSION.json``
  holds each clause's digest at a frozen release.  ``tests/test_spec_clauses.py`` refuses a
  clause whose text differs from the last frozen digest without a changelog entry.
  Freeze a release (after its last entry): ``python docs/_ext/turub_changelog.py freeze``.
* :func:`text_digests`: the pages' prose (``page:NAME``) and the glossary's entries
  (``term:WORD``) are versioned like the clauses: ``VERSION.texts.json`` holds their digests,
  and a change needs its entry in ``changed`` (or ``added``) of a later release.
* :func:`misquotes`: every phrase in double quotes in the spec's prose is a quotation of a
  source and must be found verbatim in one (spacing, apostrophes and case aside) when the
  source files are at hand; the build warns (fails under ``-W``) on any that is not.  Our own
  phrases go in single quotes or italics.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

ROOT = Path(__file__).resolve().parents[2]
DIGESTS = ROOT / "spec" / "digests"
logger = logging.getLogger("turub_changelog")

_ITEM = re.compile(r"^(:{3,})\{spec-clause\}[ ]+(\S+)\n(.*?)^\1[ ]*$", re.M | re.S)


# --- a clause's text and its digest -----------------------------------------------------------

def clause_texts(clauses: dict, root: Path = ROOT) -> dict[str, str]:
    """Each clause's text: its registry entry and its item in ``spec/*.md``, spacing
    normalised (re-wrapping a paragraph is not a change)."""
    items: dict[str, str] = {}
    for page in sorted((root / "spec").glob("*.md")):
        for m in _ITEM.finditer(page.read_text(encoding="utf-8")):
            items[m.group(2)] = " ".join(m.group(3).split())
    return {cid: json.dumps([c.kind, c.title, list(c.cites), items.get(cid, "")],
                            ensure_ascii=False)
            for cid, c in clauses.items()}


def digests(clauses: dict, root: Path = ROOT) -> dict[str, str]:
    """Each clause's digest (SHA-256 of its text, 16 hex digits)."""
    return {cid: hashlib.sha256(text.encode()).hexdigest()[:16]
            for cid, text in clause_texts(clauses, root).items()}


#: The page prose and the glossary are versioned with the clauses (#34): a page's prose is
#: ``page:NAME`` (``spec/NAME.md`` without its clause items), a glossary entry ``term:WORD``
#: (its word, meaning and the sources' words).  Their digests at a frozen release are in
#: ``spec/digests/VERSION.texts.json``, beside the clauses' ``VERSION.json``.
PAGE, TERM = "page:", "term:"


def prose_texts(root: Path = ROOT) -> dict[str, str]:
    """Each spec page's own prose: the page with its clause items taken out, spacing
    normalised."""
    return {f"{PAGE}{page.stem}": " ".join(_ITEM.sub("", page.read_text(encoding="utf-8")).split())
            for page in sorted((root / "spec").glob("*.md"))}


def glossary_texts(vocabulary=None) -> dict[str, str]:
    """Each glossary entry's text: its word, its meaning and the sources' words for it."""
    if vocabulary is None:
        from turub.clauses import VOCABULARY as vocabulary
    return {f"{TERM}{t.word}": json.dumps([t.word, t.meaning, t.guide, t.spanish, t.brief],
                                          ensure_ascii=False) for t in vocabulary}


def text_digests(clauses: dict, root: Path = ROOT, vocabulary=None) -> dict[str, str]:
    """The digests of everything versioned: the clauses, the pages' prose, the glossary."""
    texts = {**prose_texts(root), **glossary_texts(vocabulary)}
    return {**digests(clauses, root),
            **{k: hashlib.sha256(v.encode()).hexdigest()[:16] for k, v in texts.items()}}


def _kind(key: str) -> str:
    return key[:5] if key.startswith((PAGE, TERM)) else "clause"


def frozen(folder: Path = DIGESTS) -> tuple[str, dict[str, str]] | None:
    """The last frozen release and its digests (None: nothing frozen): its clauses'
    (``VERSION.json``) and, where recorded, its prose and glossary (``VERSION.texts.json``)."""
    from turub.clauses import RELEASES

    for release in reversed(RELEASES):
        path = folder / f"{release.version}.json"
        if path.is_file():
            found = json.loads(path.read_text(encoding="utf-8"))
            texts = folder / f"{release.version}.texts.json"
            if texts.is_file():
                found.update(json.loads(texts.read_text(encoding="utf-8")))
            return release.version, found
    return None


def unexplained_changes(current: dict[str, str], folder: Path = DIGESTS,
                        releases=None, withdrawn=None) -> list[str]:
    """What changed since the last frozen release with no entry in a later release: one
    line per clause added, changed or withdrawn without its changelog entry."""
    from turub import clauses

    releases = clauses.RELEASES if releases is None else releases
    last = frozen(folder)
    if last is None:
        return ["no release is frozen (spec/digests/VERSION.json)"]
    version, before = last
    kinds = {_kind(k) for k in current}  # compare like with like: clauses, pages, terms
    before = {k: v for k, v in before.items() if _kind(k) in kinds}
    later = list(releases)[[r.version for r in releases].index(version) + 1:]
    added = {c for r in later for c in r.added}
    changed = {c for r in later for c, _ in r.changed}
    gone = {c for r in later for c, _ in r.withdrawn}
    problems = []
    for cid, digest in current.items():
        if cid not in before and cid not in added:
            problems.append(f"{cid}: added since {version} without an entry in 'added'")
        elif cid in before and before[cid] != digest and cid not in changed:
            problems.append(f"{cid}: its text changed since {version} without an entry in "
                            "'changed' (turub.clauses.RELEASES)")
    for cid in before:
        if cid not in current and cid not in gone:
            problems.append(f"{cid}: withdrawn since {version} without an entry in 'withdrawn'")
    return problems


# --- quotations -----------------------------------------------------------------------------

_FENCE = re.compile(r"^(`{3,}|~{3,})[^\n]*\n.*?^\1[ ]*$", re.M | re.S)
_QUOTE = re.compile(r'"([^"\n]+(?:\n[^"\n]+)*?)"|\u201c([^\u201d]+?)\u201d')


def _normal(text: str) -> str:
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\\", "")
    return " ".join(text.lower().split())


def quotations(markdown: str) -> list[tuple[int, str]]:
    """The phrases in double quotes in a page's prose (not in code, examples or roles),
    with their line numbers."""
    text = _FENCE.sub(lambda m: "\n" * m.group(0).count("\n"), markdown)
    lines = []
    for line in text.split("\n"):
        if line.lstrip().startswith((">>>", "...", ":")):
            line = ""
        lines.append(re.sub(r"`[^`\n]*`", "", line))
    text = "\n".join(lines)
    found = []
    for paragraph in re.finditer(r"(?:[^\n]+\n?)+", text):
        for m in _QUOTE.finditer(paragraph.group(0)):
            phrase = " ".join((m.group(1) or m.group(2)).split())
            line = text.count("\n", 0, paragraph.start() + m.start()) + 1
            found.append((line, phrase))
    return found


def misquotes(folder: Path, root: Path = ROOT) -> list[tuple[str, int, str]]:
    """Every quoted phrase of ``spec/*.md`` not found verbatim in any source file."""
    from turub.clauses import SOURCES

    sources = _normal(" ".join((folder / name).read_text(encoding="utf-8")
                               for name in SOURCES.values()))
    from turub.clauses import CLAUSES

    texts = [(f"spec/{page.name}", page.read_text(encoding="utf-8"))
             for page in sorted((root / "spec").glob("*.md"))]
    # the clauses' titles too (turub.clauses), one a line
    texts.append(("reference/clauses.py (titles)", "\n\n".join(c.title for c in CLAUSES.values())))
    out = []
    for name, text in texts:
        for line, phrase in quotations(text):
            pieces = [p for p in re.split(r"\s*(?:\u2026|\.\.\.)\s*", phrase) if p.strip()]
            if not all(_normal(p) in sources for p in pieces):
                out.append((name, line, phrase))
    return out


def check_quotations(app: Sphinx, env) -> None:
    """The build check: every quotation in the spec is the sources' exact words."""
    from turub_spec import trace

    folder = trace(env).sources_folder
    if folder is None:
        return
    for page, line, phrase in misquotes(folder):
        logger.warning("the quotation \u201c%s\u201d is not found verbatim in any source "
                       "(our own phrases go in single quotes)", phrase,
                       location=(str(ROOT / page.split(" ")[0]), line), type="turub",
                       subtype="misquote")


# --- the changelog page ----------------------------------------------------------------------

def withdrawn_ids(config) -> dict[str, tuple[str, str]]:
    """The tombstones: the registry's withdrawn IDs and any injected by a test."""
    from turub.clauses import WITHDRAWN

    out = dict(WITHDRAWN)
    for spec in filter(None, (config.turub_inject_withdrawn or "").split(";")):
        cid, _, rest = spec.partition("=")
        out[cid] = ("test", rest or "injected to test the tombstones")
    return out


def _entry(key: str) -> str:
    """A changelog entry's subject as MyST: a clause, a page's prose or a glossary entry."""
    if key.startswith(PAGE):
        return f"the prose of {{doc}}`/spec/{key[len(PAGE):]}`"
    if key.startswith(TERM):
        from turub_addresses import term_anchor

        return f"the glossary's {{ref}}`{key[len(TERM):]} <{term_anchor(key[len(TERM):])}>`"
    return f"{{ref}}`{key}`"


class ChangelogDirective(SphinxDirective):
    """``spec-changelog``: one section per release, newest first."""

    def run(self) -> list[nodes.Node]:
        from docutils.statemachine import StringList
        from turub.releases import RELEASES

        tombstones = withdrawn_ids(self.config)
        lines: list[str] = []
        for r in reversed(RELEASES):
            state = ("frozen: its texts and its cases can no longer change" if r.frozen else
                     "open: changes land here until it is frozen")
            lines += [f"## Version {r.version} ({r.date})", "", f"{r.summary} *({state}.)*", ""]
            if r.added:
                lines += ["**Added:**", ""] + [f"- {_entry(c)}" for c in r.added] + [""]
            if r.changed:
                lines += ["**Changed:**", ""] + [f"- {_entry(c)}: {what}" for c, what in r.changed]
                lines.append("")
            if r.withdrawn:
                lines += ["**Withdrawn:**", ""] + [f"- `{c}`: {why}" for c, why in r.withdrawn]
                lines.append("")
            if r.cases:  # the expected answers that changed (turub.releases.CaseChange)
                lines += ["**Cases changed** (what a program that conformed to the previous "
                          "release must change):", ""]
                for c in r.cases:
                    lines += [f"- {_entry(c.clause)}: used to conform: {c.before} Conforms "
                              f"now: {c.after} Upgrade: {c.upgrade}"]
                lines.append("")
            elif r is not RELEASES[0]:
                lines += ["No expected answer changed since the previous release.", ""]
            if not (r.added or r.changed or r.withdrawn):
                lines += ["No clause added, changed or withdrawn since the previous release.", ""]
        out: list[nodes.Node] = []
        holder = nodes.container()
        self.state.nested_parse(StringList(lines, source=self.env.docname), self.content_offset,
                                holder)
        out += holder.children
        if tombstones:
            section = nodes.section(ids=["tombstones"])
            section += nodes.title("", "Withdrawn clause IDs")
            for cid, (version, why) in sorted(tombstones.items()):
                para = nodes.paragraph(ids=[cid], classes=["turub-tombstone"])
                para += nodes.literal("", cid)
                para += nodes.Text(f": withdrawn in {version}. {why}")
                section += para
            out.append(section)
        return out


def register_tombstones(app: Sphinx, env) -> None:
    """Withdrawn IDs resolve (``{ref}`` and the clause index) to their tombstones."""
    std = env.domaindata["std"]
    for cid in withdrawn_ids(app.config):
        std["labels"][cid] = ("spec/changelog", cid, f"{cid} (withdrawn)")
        std["anonlabels"][cid] = ("spec/changelog", cid)


def setup(app: Sphinx) -> dict:
    app.add_config_value("turub_inject_withdrawn", "", "env", types=(str,))
    app.add_directive("spec-changelog", ChangelogDirective)
    app.connect("env-check-consistency", check_quotations)
    app.connect("env-updated", lambda app, env: register_tombstones(app, env) or [],
                priority=800)
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": True}


def main(argv: list[str]) -> int:
    """``freeze``: write the digests of the current release (its changelog is complete)."""
    if argv != ["freeze"]:
        print("usage: python docs/_ext/turub_changelog.py freeze", file=sys.stderr)
        return 2
    from turub.clauses import CLAUSES, SPEC_VERSION

    path = DIGESTS / f"{SPEC_VERSION}.json"
    DIGESTS.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(digests(CLAUSES), indent=1, sort_keys=True) + "\n",
                    encoding="utf-8")
    texts = {k: v for k, v in text_digests(CLAUSES).items() if _kind(k) != "clause"}
    (DIGESTS / f"{SPEC_VERSION}.texts.json").write_text(
        json.dumps(texts, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
