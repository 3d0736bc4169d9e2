"""Clause addresses and glossary links (issue #21).

* A clause's ID is its address: ``spec/play.html#play.follow-suit`` (the item carries the ID
  as its HTML id, with a visible permalink; its parts carry ``ID.words``, ``ID.interpretation``,
  ``ID.mistake`` and ``ID.sources``: see :class:`ClausePartDirective`).
* ``clause-index``: every clause ID, in alphabetical order, with its title and page, and the
  withdrawn IDs (tombstones) with the release that withdrew them.
* Each clause ID is an object of the search index (type "clause"): a search for
  ``play.follow-suit`` offers the clause itself first.
* Every use of a glossary term in a clause's own text (our words, the interpretation, the
  common mistake) is linked to the term's entry (``spec/glossary.html#term-WORD``) by a
  post-transform; a check at the end fails the build (a warning under ``-W``) on a clause
  whose text still uses a term without its link.  ``turub_link_terms = False`` turns the
  linking off (the test that proves the check fails).
"""

from __future__ import annotations

import re

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger("turub_addresses")

#: The page that holds the glossary (``vocabulary-table``).
GLOSSARY_DOC = "spec/glossary"
#: The parts of a clause that are its own text (the sources' words and the trace are not).
OWN_TEXT = ("turub-words", "turub-mistake")
#: Nodes whose text is never a use of a term: code, links, the permalink.
_SKIP = (nodes.literal, nodes.literal_block, nodes.reference, addnodes.pending_xref,
         nodes.raw, nodes.title, nodes.doctest_block, nodes.math)


# --- the parts of a clause ------------------------------------------------------------------

#: A clause's "common mistake" paragraph, which gets its own sub-anchor (ID.mistake).
_MISTAKE = re.compile(r"^\*\*A common mistake\*\*.*?(?=\n\s*\n|\Z)", re.M | re.S)


def part_markdown(part: str, text: str) -> str:
    """``text`` as the clause part ``part`` (anchor ``ID.part``, see :class:`ClausePartDirective`)."""
    return f"::::::{{clause-part}} {part}\n{text}\n::::::"


def clause_parts(text: str) -> str:
    """The clause's own text as its parts: our words (with the interpretation, which has its
    own anchor) and the common mistake, if the clause names one."""
    mistake = _MISTAKE.search(text)
    if mistake is None:
        return part_markdown("words", text)
    words = (text[:mistake.start()] + text[mistake.end():]).strip()
    return part_markdown("words", words) + "\n\n" + part_markdown("mistake", mistake.group(0))


class ClausePartDirective(SphinxDirective):
    """``clause-part NAME``: one part of the clause being placed, with the sub-anchor
    ``ID.NAME`` (a clause's words start with its visible permalink)."""

    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        cid = self.env.temp_data.get("turub_clause", "")
        part = self.arguments[0]
        node = nodes.container(classes=["turub-part", f"turub-{part}"], turub_clause=cid,
                               turub_part=part)
        if cid:
            node["ids"].append(f"{cid}.{part}")
        if cid and part == "words":
            link = nodes.paragraph(classes=["turub-permalink"])
            ref = nodes.reference("", "", refuri=f"#{cid}", classes=["turub-permalink"],
                                  reftitle=f"the address of clause {cid}")
            ref += nodes.literal("", f"#{cid}")
            link += ref
            node += link
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


# --- glossary terms ---------------------------------------------------------------------------

#: A quotation of the sources is never a use of our terms: the words between double quotes,
#: and the sources' words set by the ``said`` role or folded under a clause.
_QUOTES = {"\u201c": "\u201d", '"': '"'}
#: Elements whose text is the sources' or already says what it means: ``said`` (the sources'
#: words), ``sense`` (a use of a named entry), ``plain`` (a word in another sense than the
#: glossary's, e.g. the card ``draw`` for the first dealer is not a deal's draw).
_NOT_A_USE = ("turub-said", "turub-plain", "turub-term")


#: Senses told apart by the words that follow: "deals it", "deal the pack" are the verb.
SENSE_RULES = (("deal", re.compile(r"\s+(?:it|them|first|next|again|no|the|for|out|anew)\b"),
                "dealing"),)


def _sense(entry: str, after: str) -> str:
    """The entry a match stands for, given the text right after it (:data:`SENSE_RULES`)."""
    for word, follows, other in SENSE_RULES:
        if entry == word and follows.match(after):
            return other
    return entry


def _merge_texts(container: nodes.Element) -> None:
    """Join neighbouring text nodes (a soft line break is a node of its own), so that a
    phrase such as "draw for the first dealer" is found across a line's end."""
    for element in list(container.findall(nodes.Element)):
        i = 0
        while i < len(element.children) - 1:
            a, b = element.children[i], element.children[i + 1]
            if isinstance(a, nodes.Text) and isinstance(b, nodes.Text):
                element.replace(a, nodes.Text(str(a) + str(b)))
                element.remove(b)
                continue
            i += 1


def term_anchor(word: str) -> str:
    """The glossary entry's anchor: ``term-led-suit`` for "led suit"."""
    return "term-" + re.sub(r"[^a-z0-9]+", "-", word.lower()).strip("-")


def _surfaces() -> dict[str, str]:
    """Each written form of a term (its word, its inflections ``Term.forms``), lowercased,
    and the entry it stands for."""
    from turub.clauses import VOCABULARY

    out: dict[str, str] = {}
    for t in VOCABULARY:
        for form in (t.word, *t.forms):
            out.setdefault(" ".join(form.lower().split()), t.word)
    return out


def term_pattern() -> re.Pattern[str]:
    """Any written form of a glossary term as a whole word (longest first), singular or
    plural: "trick winner" before "trick", "dealt" for the verb, "won" for a win."""
    words = sorted(_surfaces(), key=len, reverse=True)
    alternatives = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words)
    return re.compile(r"(?<![\w.-])(%s)(?:s|es)?(?![\w-])" % alternatives, re.I)


def _term_of(match: re.Match[str]) -> str:
    return _surfaces()[" ".join(match.group(1).lower().split())]


def _own_text(doctree: nodes.Node):
    """The containers holding a clause's own text."""
    for node in doctree.findall(nodes.Element):
        if any(c in node.get("classes", []) for c in OWN_TEXT):
            yield node


def _skipped(text: nodes.Text, container: nodes.Element) -> bool:
    parent = text.parent
    while parent is not None and parent is not container:
        if isinstance(parent, _SKIP) or any(c in parent.get("classes", []) for c in _NOT_A_USE):
            return True
        parent = parent.parent
    return False


def _blocks(container: nodes.Element):
    """The paragraphs (text blocks, not inline markup) of ``container``."""
    for node in container.findall(nodes.TextElement):
        if not isinstance(node, nodes.Inline):
            yield node


def _uses(container: nodes.Element):
    """(text node, [(start, end) of the stretches outside quotations]) for each text node of
    ``container`` that is our own prose: not code, a link, a title, nor the sources' words.
    A quotation is followed across the nodes of its paragraph (it may hold emphasis)."""
    for block in _blocks(container):
        closing = None
        for text in block.findall(nodes.Text):
            if _block_of(text) is not block:
                continue
            source, free, start = str(text), [], 0
            skipped = _skipped(text, container)
            for i, ch in enumerate(source):
                if closing is None and ch in _QUOTES:
                    free.append((start, i))
                    closing = _QUOTES[ch]
                elif closing is not None and ch == closing:
                    closing, start = None, i + 1
            if closing is None:
                free.append((start, len(source)))
            if not skipped:
                yield text, [(a, b) for a, b in free if b > a]


def _block_of(node: nodes.Node) -> nodes.Element:
    parent = node.parent
    while isinstance(parent, nodes.Inline) or not isinstance(parent, nodes.TextElement):
        if parent.parent is None:
            return parent
        parent = parent.parent
    return parent


def _sentence(text: nodes.Text, start: int, end: int) -> str:
    """The sentence around ``text[start:end]``, the word in ⟦brackets⟧ (for the review)."""
    block = _block_of(text)
    before = ""
    for t in block.findall(nodes.Text):
        if t is text:
            break
        before += str(t)
    rest = block.astext()[len(before) + len(str(text)):]
    whole = before + str(text)[:start] + "\u27e6" + str(text)[start:end] + "\u27e7" + \
        str(text)[end:] + rest
    whole = " ".join(whole.split())
    at = whole.find("\u27e6")
    left = max(whole.rfind(". ", 0, at), whole.rfind("; ", 0, at))
    right = whole.find(". ", at)
    return whole[left + 2 if left >= 0 else 0:right + 1 if right >= 0 else len(whole)]


class LinkTerms(SphinxPostTransform):
    """Link every use of a glossary term in a clause's own text to the term's entry: its
    word or an inflected form, outside quotations of the sources and outside words marked
    with another sense (``{plain}``) or a named entry (``{sense}``).  Each link is recorded,
    with its sentence, for the review file ``term-links.txt``."""

    default_priority = 5
    formats = ("html",)

    def run(self, **kwargs) -> None:
        if not self.app.config.turub_link_terms or self.env.docname == GLOSSARY_DOC:
            return
        pattern = term_pattern()
        if not hasattr(self.app, "_turub_linked_docs"):
            self.app._turub_linked_docs = set()
        self.app._turub_linked_docs.add(self.env.docname)
        uri = self.app.builder.get_relative_uri(self.env.docname, GLOSSARY_DOC)
        for container in list(_own_text(self.document)):
            for ref in list(container.findall(nodes.reference)):
                if "turub-term" in ref.get("classes", []) and ref.get("turub_entry"):
                    ref["refuri"] = f"{uri}#{term_anchor(ref['turub_entry'])}"
                    words = next(iter(ref.findall(nodes.Text)), None)
                    if words is not None:
                        self._record(container, ref["turub_entry"], ref.astext(),
                                     _sentence(words, 0, len(words)))
            _merge_texts(container)
            for text, free in list(_uses(container)):
                self._link(container, text, free, pattern, uri)

    def _record(self, container, entry: str, word: str, sentence: str) -> None:
        links = getattr(self.app, "_turub_term_links", None)
        if links is None:
            links = self.app._turub_term_links = []
        links.append((self.env.docname, _clause_of(container), entry, " ".join(word.split()),
                      " ".join(sentence.split())))

    def _link(self, container, text: nodes.Text, free, pattern: re.Pattern[str], uri: str) -> None:
        source = str(text)
        found = [m for a, b in free for m in pattern.finditer(source, a, b)]
        if not found:
            return
        pieces: list[nodes.Node] = []
        last = 0
        for m in found:
            entry = _sense(_term_of(m), source[m.end():])
            pieces.append(nodes.Text(source[last:m.start()]))
            ref = nodes.reference("", m.group(0), refuri=f"{uri}#{term_anchor(entry)}",
                                  internal=True, classes=["turub-term"],
                                  reftitle=f"glossary: {entry}")
            self._record(container, entry, m.group(0), _sentence(text, m.start(), m.end()))
            pieces.append(ref)
            last = m.end()
        pieces.append(nodes.Text(source[last:]))
        text.parent.replace(text, [p for p in pieces if not isinstance(p, nodes.Text) or str(p)])


def check_terms_linked(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """The build check: no clause's own text uses a glossary term without its link."""
    if docname == GLOSSARY_DOC:
        return
    pattern = term_pattern()
    for container in _own_text(doctree):
        for text, free in _uses(container):
            for a, b in free:
                for m in pattern.finditer(str(text), a, b):
                    owner = _clause_of(container)
                    logger.warning("clause %s uses the glossary term %r without a link to its "
                                   "entry", owner, _term_of(m), location=(docname, None),
                                   type="turub", subtype="unlinked-term")


def term_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{sense}`wins <trick winner>```: these words are a use of the named glossary entry
    (a sense the automatic linking would not see).  ``{sense}`draw <->```, or the ``plain``
    role, marks words used in a sense the glossary does not define (not linked)."""
    from sphinx.util.nodes import split_explicit_title

    from turub.clauses import VOCABULARY

    explicit, words, entry = split_explicit_title(text)
    if name == "plain" or entry == "-":
        return [nodes.inline(rawtext, words, classes=["turub-plain"])], []
    if entry not in {t.word for t in VOCABULARY}:
        msg = inliner.reporter.warning(f"{{sense}}: no glossary entry {entry!r}", line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    ref = nodes.reference(rawtext, words, refuri=f"#{term_anchor(entry)}", internal=True,
                          classes=["turub-term"], reftitle=f"glossary: {entry}",
                          turub_entry=entry)
    return [ref], []


def said_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``{said}`002 §05 ¶1 s3```: the sources' words at that locator, read from the source
    file at build time and set in double quotes (the project stores the locator, never the
    sentence); the locator itself where the files are not at hand."""
    from turub.tools import sources

    from turub_spec import trace

    locator = text.strip()
    folder = trace(inliner.document.settings.env).sources_folder
    try:
        sources.parse(locator)
        words = sources.resolve(locator, folder).rstrip(".") if folder is not None else None
    except sources.CitationError as e:
        msg = inliner.reporter.warning(str(e), line=lineno)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    node = nodes.inline(rawtext, "", classes=["turub-said"], title=locator)
    node += nodes.Text(f"\u201c{words}\u201d" if words is not None else f"[{locator}]")
    return [node], []


def write_term_links(app: Sphinx, exception) -> None:
    """``term-links.txt`` in the built site: every glossary link of the clauses' own text,
    one a line (page, clause, the entry, the word, its sentence with the word in ⟦⟧), so
    that a word linked in the wrong sense is seen in review (``tests/test_site_words.py``
    reads it).  An incremental build keeps the lines of the pages it did not write again."""
    if exception is not None or app.builder.format != "html" or not app.config.turub_link_terms:
        return
    path = app.outdir / "term-links.txt"
    written = getattr(app, "_turub_linked_docs", set())
    lines = {"\t".join(link) for link in getattr(app, "_turub_term_links", [])}
    if path.is_file():
        lines |= {line for line in path.read_text(encoding="utf-8").splitlines()
                  if line and line.split("\t", 1)[0] not in written
                  and line.split("\t", 1)[0] in app.env.found_docs}
    path.write_text("\n".join(sorted(lines)) + "\n", encoding="utf-8")
    for name in ("_turub_term_links", "_turub_linked_docs"):  # a process may build again
        if hasattr(app, name):
            delattr(app, name)


def _clause_of(node: nodes.Node) -> str:
    while node is not None:
        if isinstance(node, nodes.Element) and node.get("turub_clause"):
            return node["turub_clause"]
        node = node.parent
    return "?"


class ClauseIndexDirective(SphinxDirective):
    """``clause-index``: every clause ID (and every withdrawn one) with its title and page."""

    def run(self) -> list[nodes.Node]:
        from docutils.statemachine import StringList
        from turub.clauses import CLAUSES, WITHDRAWN, part_of

        rows = ["| clause ID | title | page |", "|---|---|---|"]
        for cid in sorted({*CLAUSES, *WITHDRAWN}):
            if cid in CLAUSES:
                part = part_of(cid)
                page = f"{{doc}}`/spec/{part.page}`" if part else "—"
                rows.append(f"| {{ref}}`{cid} <{cid}>` | {CLAUSES[cid].title} | {page} |")
            else:
                version, why = WITHDRAWN[cid]
                rows.append(f"| {{ref}}`{cid} <{cid}>` | withdrawn in {version}: {why} | "
                            "{doc}`/spec/changelog` |")
        holder = nodes.container()
        self.state.nested_parse(StringList(rows, source=self.env.docname), self.content_offset,
                                holder)
        for table in holder.findall(nodes.table):
            table["classes"] += ["turub-index"]
        return holder.children


def register_search_objects(app: Sphinx, env) -> None:
    """Each clause ID an object of the standard domain (type "clause"), so that the search
    offers the clause for its ID, and ``{ref}`` resolves withdrawn IDs to their tombstones."""
    from turub.clauses import CLAUSES

    std = env.domaindata["std"]
    for key in [k for k in std["objects"] if k[0] == "clause-id"]:
        del std["objects"][key]
    for key, value in list(std["labels"].items()):
        docname, anchor, _ = value
        if anchor == key and key in CLAUSES:
            std["objects"][("clause-id", key)] = (docname, anchor)


def address_the_boxes(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """The clause's box (the table sphinx-needs draws, once it has drawn it) takes the
    clause's ID as its HTML id; the need's id (``play:follow-suit``) stays as a second
    anchor, so the older links still land."""
    from turub.clauses import CLAUSES
    from turub_trace import need_id

    by_need = {need_id(cid): cid for cid in CLAUSES}
    for table in doctree.findall(nodes.table):
        ids = table.get("ids", [])
        if ids and ids[0] in by_need and by_need[ids[0]] not in ids:
            ids.insert(0, by_need[ids[0]])


def write_address_book(app: Sphinx, exception) -> None:
    """``_static/turub-clauses.js``: every clause ID (and tombstone) and its address, so that
    a search for an ID lands on the clause (``turub.js``)."""
    import json

    if exception is not None or app.builder.format != "html":
        return
    std = app.env.domaindata["std"]
    book = {key: f"{app.builder.get_target_uri(docname)}#{anchor}"
            for (kind, key), (docname, anchor) in std["objects"].items() if kind == "clause-id"}
    from turub_changelog import withdrawn_ids

    for cid in withdrawn_ids(app.config):
        book[cid] = f"{app.builder.get_target_uri('spec/changelog')}#{cid}"
    out = app.outdir / "_static" / "turub-clauses.js"
    out.write_text("window.TURUB_CLAUSES = " + json.dumps(book, sort_keys=True) + ";\n",
                   encoding="utf-8")


def setup(app: Sphinx) -> dict:
    app.add_config_value("turub_link_terms", True, "env", types=(bool,))
    app.add_object_type("clause-id", "clause-id", objname="clause")
    app.add_directive("clause-index", ClauseIndexDirective)
    app.add_directive("clause-part", ClausePartDirective)
    app.add_post_transform(LinkTerms)
    app.add_role("sense", term_role)
    app.add_role("plain", term_role)
    app.add_role("said", said_role)
    app.connect("build-finished", write_term_links)
    app.connect("doctree-resolved", check_terms_linked)
    app.connect("doctree-resolved", address_the_boxes, priority=900)
    app.connect("build-finished", write_address_book)
    app.connect("env-updated", lambda app, env: register_search_objects(app, env) or [],
                priority=900)
    # Not parallel writing: the review file gathers the links of every page.
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": False}
