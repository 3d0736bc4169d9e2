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

def term_anchor(word: str) -> str:
    """The glossary entry's anchor: ``term-led-suit`` for "led suit"."""
    return "term-" + re.sub(r"[^a-z0-9]+", "-", word.lower()).strip("-")


def term_pattern() -> re.Pattern[str]:
    """Any glossary word as a whole word (longest first), singular or plural."""
    from turub.clauses import VOCABULARY

    words = sorted((t.word for t in VOCABULARY), key=len, reverse=True)
    alternatives = "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in words)
    return re.compile(r"(?<![\w.-])(%s)(?:s|es)?(?![\w-])" % alternatives, re.I)


def _term_of(match: re.Match[str]) -> str:
    return " ".join(match.group(1).lower().split())


def _own_text(doctree: nodes.Node):
    """The containers holding a clause's own text."""
    for node in doctree.findall(nodes.Element):
        if any(c in node.get("classes", []) for c in OWN_TEXT):
            yield node


def _free_text(container: nodes.Element):
    """The text nodes of ``container`` not inside code, a link or a title."""
    for text in container.findall(nodes.Text):
        parent, skip = text.parent, False
        while parent is not None and parent is not container:
            if isinstance(parent, _SKIP):
                skip = True
                break
            parent = parent.parent
        if not skip:
            yield text


class LinkTerms(SphinxPostTransform):
    """Link every use of a glossary term in a clause's own text to the term's entry."""

    default_priority = 5
    formats = ("html",)

    def run(self, **kwargs) -> None:
        if not self.app.config.turub_link_terms or self.env.docname == GLOSSARY_DOC:
            return
        pattern = term_pattern()
        for container in list(_own_text(self.document)):
            for text in list(_free_text(container)):
                self._link(text, pattern)

    def _link(self, text: nodes.Text, pattern: re.Pattern[str]) -> None:
        source = str(text)
        if not pattern.search(source):
            return
        uri = self.app.builder.get_relative_uri(self.env.docname, GLOSSARY_DOC)
        pieces: list[nodes.Node] = []
        last = 0
        for m in pattern.finditer(source):
            pieces.append(nodes.Text(source[last:m.start()]))
            ref = nodes.reference("", m.group(0), refuri=f"{uri}#{term_anchor(_term_of(m))}",
                                  internal=True, classes=["turub-term"],
                                  reftitle=f"glossary: {_term_of(m)}")
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
        for text in _free_text(container):
            for m in pattern.finditer(str(text)):
                owner = _clause_of(container)
                logger.warning("clause %s uses the glossary term %r without a link to its entry",
                               owner, _term_of(m), location=(docname, None), type="turub",
                               subtype="unlinked-term")


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
    app.connect("doctree-resolved", check_terms_linked)
    app.connect("doctree-resolved", address_the_boxes, priority=900)
    app.connect("build-finished", write_address_book)
    app.connect("env-updated", lambda app, env: register_search_objects(app, env) or [],
                priority=900)
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": True}
