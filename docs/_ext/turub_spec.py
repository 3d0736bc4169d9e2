"""The literate specification's Sphinx extension: clause items, code items, check items.

* ``spec-clause`` (in ``spec/*.md``): one clause.  Its ID, kind, title and citations come
  from the registry (``turub.clauses``); the directive's content is the prose in our words.
  The item also gets, generated: links to the cited source sections, the code that
  implements the clause (rendered from the source with ``literalinclude``) and the checks
  that verify it.
* ``interpretation``: the note on a clause where the sources are silent or disagree.
* ``code-items`` / ``check-items``: one item per piece of engine code citing a clause and
  per check tagged ``@verifies``, found by reading the source (:mod:`turub_trace`).
* ``cited-by``: the clauses citing a section of a source (on the sources page).
* ``details``: a collapsible block (HTML ``<details>``).
* ``injected-clauses``: renders nothing, unless ``turub_inject_clause`` names a fake
  normative clause (used by the test that proves the gate fails).

The gate (``needs_warnings`` in ``conf.py`` and the checks below) fails the build when a
normative clause has no code or no check, when code or a check cites an unknown clause,
when a clause of the registry is missing from the spec or placed twice, or when a clause
item breaks the spec's own rules (an interpretation note where the sources are silent or
disagree, an option that exists).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

import turub_trace
from turub_addresses import clause_parts, part_markdown
from turub_trace import CheckItem, CodeItem, citation_label, need_id

logger = logging.getLogger("turub_spec")

AGREEMENTS = ("agree", "silent", "disagree")


# --- the data every directive shares ------------------------------------------------

class Trace:
    """The registry and the scans, read once per build."""

    def __init__(self, app: Sphinx, cache: dict | None = None) -> None:
        from turub.clauses import CLAUSES, NORMATIVE_KINDS, Clause
        from turub.options import OPTIONS

        self.clauses = dict(CLAUSES)
        for cid in filter(None, (app.config.turub_inject_clause or "").split(",")):
            self.clauses[cid] = Clause(cid, "rule", "A clause injected to test the gate", ())
        for spec in filter(None, (app.config.turub_inject_citation or "").split(";")):
            cid, _, citation = spec.partition("=")
            if cid in self.clauses:
                c = self.clauses[cid]
                self.clauses[cid] = Clause(c.id, c.kind, c.title, c.cites + (citation,))
        self.normative = NORMATIVE_KINDS
        self.options = OPTIONS
        prefixes = frozenset(cid.split(".")[0] for cid in self.clauses)
        self.code: list[CodeItem] = turub_trace.scan_code(turub_trace.ROOT, prefixes, cache)
        self._add_pending(app.config.turub_pending_citations)
        self.checks: list[CheckItem] = turub_trace.scan_checks(turub_trace.ROOT, cache=cache)
        for spec in filter(None, (app.config.turub_inject_check or "").split(",")):
            name, _, cid = spec.partition("=")
            self.checks.append(CheckItem(f"injected.{name}", turub_trace.ROOT / "docs" / "conf.py",
                                         1, (cid,), "A check injected to test the gate"))
        self.code_by_clause: dict[str, list[CodeItem]] = {}
        for item in self.code:
            for cid in item.clauses:
                self.code_by_clause.setdefault(cid, []).append(item)
        self.checks_by_clause: dict[str, list[CheckItem]] = {}
        for check in self.checks:
            for cid in check.clauses:
                self.checks_by_clause.setdefault(cid, []).append(check)
        self.rests_on_back: dict[str, list[str]] = {}
        for cid, targets in turub_trace.scan_rests_on().items():
            for target in targets:
                self.rests_on_back.setdefault(target, []).append(cid)
        self.sources_folder = sources_folder(app)
        self.mentions = mention_pattern(prefixes)


    def _add_pending(self, pending: dict) -> None:
        """Citations asked of the engine's docstrings but not there yet (see conf.py)."""
        from dataclasses import replace

        for name, ids in pending.items():
            for i, item in enumerate(self.code):
                if item.name == name:
                    new = tuple(c for c in ids if c not in item.clauses)
                    if new:
                        logger.info("turub_spec: %s implements %s by a pending citation "
                                    "(conf.py turub_pending_citations)", name, ", ".join(new))
                        self.code[i] = replace(item, clauses=item.clauses + new)
                    break
            else:
                logger.warning("turub_pending_citations names %r, which is not engine code citing "
                               "a clause", name, type="turub", subtype="pending")


def _need_doc(env) -> None:
    """Tell sphinx-needs this document holds needs (its directives do so themselves)."""
    from sphinx_needs.utils import add_doc

    add_doc(env, env.docname)


def trace(env) -> Trace:
    """The trace, made once per build; the parsed files are kept in the environment between
    builds (``turub_scan_cache``), so an incremental build parses only the files that changed."""
    app = env.app
    if not hasattr(app, "_turub_trace"):
        if not isinstance(getattr(env, "turub_scan_cache", None), dict):
            env.turub_scan_cache = {}
        app._turub_trace = Trace(app, env.turub_scan_cache)
    return app._turub_trace


# --- nodes -------------------------------------------------------------------------

class details(nodes.General, nodes.Element):
    """A collapsible block; ``summary`` is its one-line label."""


def visit_details_html(self, node: details) -> None:
    classes = " ".join(["turub-details", *node.get("classes", [])])
    self.body.append('<details class="%s"><summary>%s</summary>'
                     % (classes, self.encode(node["summary"])))


def depart_details_html(self, node: details) -> None:
    self.body.append("</details>")


def visit_details_other(self, node: details) -> None:
    pass


def depart_details_other(self, node: details) -> None:
    pass


class DetailsDirective(SphinxDirective):
    """``details``: content that opens on a click."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True
    option_spec = {"class": directives.class_option}

    def run(self) -> list[nodes.Node]:
        node = details(summary=self.arguments[0], classes=self.options.get("class", []))
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


class InterpretationDirective(SphinxDirective):
    """``interpretation``: our decision where the sources are silent or disagree."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        node = nodes.admonition(classes=["turub-interpretation"])
        cid = self.env.temp_data.get("turub_clause")
        if cid:  # the clause's sub-anchor: spec/PAGE.html#ID.interpretation
            node["ids"].append(f"{cid}.interpretation")
        node += nodes.title("", self.arguments[0] if self.arguments else "Interpretation")
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


# --- the clause item ------------------------------------------------------------------

def _rel(env, docname: str, path: Path) -> str:
    """``path`` for an include directive: Sphinx reads ``/x`` as relative to the source dir."""
    return "/" + os.path.relpath(path, env.srcdir)


def code_markdown(env, docname: str, item: CodeItem) -> str:
    """A collapsible listing of ``item``'s source, included from the file.

    By line numbers, which the scan read from the file's syntax tree (decorators to the last
    line of the body), not by ``:pyobject:``: that makes Sphinx tokenize the whole module
    again for every listing, the largest cost of a one-page rebuild.  The lines move with
    the code: the scan is part of the trace's fingerprint, so a page whose listing moved is
    read again."""
    rel = _rel(env, docname, item.path)
    where = f"{item.path.relative_to(turub_trace.ROOT)}, line {item.start}"
    return (f":::{{details}} Source of {item.name} ({where})\n"
            f"```{{literalinclude}} {rel}\n:language: python\n:lines: {item.start}-{item.end}\n"
            ":lineno-match:\n```\n:::\n")


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#|~$])")


def _escape(text: str) -> str:
    """Source text as literal MyST text (every markup character escaped)."""
    return _MARKDOWN_SPECIAL.sub(r"\\\1", text)


def without_furniture(words: str) -> str:
    """The sources' words without the page's furniture: the Spanish guide's questions end in
    the "+" of a control that opens the answer ("¿...?+"), which is no word of theirs."""
    return re.sub(r"\?\+(?=\s|$)", "?", words)


def sources_markdown(env, cid: str) -> str:
    """The clause's citations, each with the cited words when the sources are at hand."""
    from turub.tools import sources

    t = trace(env)
    clause = t.clauses[cid]
    if not clause.cites:
        return "**Sources:** none state it; the clause is our decision (see the note)."
    folder = t.sources_folder
    lines: list[str] = []
    for c in clause.cites:
        link = f"{{ref}}`{c} <{citation_label(c)}>`"
        if folder is None:
            try:
                sources.parse(c)  # without the files, at least the locator's form is checked
            except sources.CitationError as e:
                logger.warning("clause %s: %s", cid, e, type="turub", subtype="citation")
            lines.append(f"- {link}")
            continue
        try:
            words = sources.resolve(c, folder)
        except sources.CitationError as e:
            logger.warning("clause %s: %s", cid, e, type="turub", subtype="citation")
            lines.append(f"- {link}")
            continue
        lines.append(f"- {link}: \u201c{_escape(without_furniture(words))}\u201d")
    said = "What the sources say" if folder is not None else "Where the sources say it"
    return (f"::::{{details}} {said} ({len(clause.cites)} "
            f"citation{'s' if len(clause.cites) > 1 else ''})\n:class: turub-sources\n"
            + "\n".join(lines) + "\n::::")


def clause_extras(env, docname: str, cid: str) -> str:
    """The generated part of a clause item, as MyST: the sources' words and the
    traceability, both folded so that the clause's own text comes first."""
    t = trace(env)
    parts: list[str] = [part_markdown("sources", sources_markdown(env, cid))]
    resting = t.rests_on_back.get(cid, [])
    if resting:
        parts.append("**Advice resting on it:** " + ", ".join(f"{{ref}}`{r}`" for r in resting))
    code = t.code_by_clause.get(cid, [])
    checks = t.checks_by_clause.get(cid, [])
    if code or checks:
        inner: list[str] = []
        if code:
            inner.append("**Implemented by:** " + ", ".join(f"{{need}}`{i.need_id}`" for i in code))
            inner.extend(code_markdown(env, docname, i) for i in code)
        if checks:
            inner.append(f"**Checked by** ({len(checks)}):\n\n" + "\n".join(
                f"- {{need}}`{c.need_id}`" for c in checks))
        label = f"Code ({len(code)}) and checks ({len(checks)})"
        parts.append(f"::::{{details}} {label}\n" + "\n\n".join(inner) + "\n::::")
    return "\n\n".join(parts)


def link_mentions(text: str, pattern: re.Pattern[str], known, own: str) -> str:
    """The clause's prose with every mention of another clause's ID made a link, outside
    code blocks and roles that already link it."""
    out: list[str] = []
    fence = None
    for line in text.split("\n"):
        stripped = line.lstrip()
        if fence is None and stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
        elif fence is not None and stripped.startswith(fence):
            fence = None
            out.append(line)
            continue
        if fence is not None or stripped.startswith(">>>"):
            out.append(line)
            continue

        def link(m: re.Match[str]) -> str:
            cid = m.group(1) or m.group(2)
            return f"{{ref}}`{cid}`" if cid in known and cid != own else m.group(0)

        out.append(pattern.sub(link, line))
    return "\n".join(out)


def mention_pattern(prefixes) -> re.Pattern[str]:
    """A clause ID in backquotes not part of a role (``{ref}`x```), or bare in prose."""
    alternatives = "|".join(sorted(map(re.escape, prefixes)))
    cid = r"(?:%s)\.[a-z0-9]+(?:-[a-z0-9]+)*" % alternatives
    return re.compile(r"(?<![}\w])`(%s)`|(?<![\w.`<-])(%s)(?![\w(`>-])" % (cid, cid))


class ClauseDirective(SphinxDirective):
    """``spec-clause ID``: one clause of the registry, with its prose as content."""

    required_arguments = 1
    has_content = True
    option_spec = {
        "agreement": lambda a: directives.choice(a, AGREEMENTS),
        "option": directives.unchanged,
        "rests-on": directives.unchanged,
    }

    def run(self) -> list[nodes.Node]:
        from sphinx_needs.api import add_need
        from sphinx_needs.api.need import MarkupContent

        t = trace(self.env)
        _need_doc(self.env)
        cid = self.arguments[0]
        location = self.get_location()
        if cid not in t.clauses:
            logger.warning("spec-clause %r is not in the clause registry (turub.clauses)", cid,
                           location=location, type="turub", subtype="unknown-clause")
            return []
        clause = t.clauses[cid]
        agreement = self.options.get("agreement", "")
        option = self.options.get("option", "")
        rests_on = self.options.get("rests-on", "")
        text = "\n".join(self.content)
        if not agreement:
            logger.warning("clause %s: say whether the sources agree, are silent or disagree "
                           "(:agreement:)", cid, location=location, type="turub", subtype="clause")
        if clause.kind != "context" and agreement in ("silent", "disagree"):
            if "{interpretation}" not in text:
                logger.warning("clause %s: the sources are %s: add an interpretation note", cid,
                               agreement, location=location, type="turub", subtype="clause")
            if not option:
                logger.warning("clause %s: the interpretation must name the rule option that "
                               "controls it, or 'none' (:option:)", cid, location=location,
                               type="turub", subtype="clause")
        for name in filter(None, (o.strip() for o in option.split(","))):
            if name != "none" and name not in t.options:
                logger.warning("clause %s: %r is not a rule option (turub.options.OPTIONS: %s)",
                               cid, name, ", ".join(t.options), location=location, type="turub",
                               subtype="clause")
        for rid in filter(None, (r.strip() for r in rests_on.split(","))):
            if rid not in t.clauses:
                logger.warning("clause %s rests on %r, which is not a clause", cid, rid,
                               location=location, type="turub", subtype="unknown-clause")
        text = link_mentions(text, t.mentions, t.clauses, cid)
        if rests_on:
            text += "\n\n**Rests on:** " + ", ".join(
                f"{{ref}}`{r.strip()}`" for r in rests_on.split(",") if r.strip())
        body = clause_parts(text) + "\n\n" + clause_extras(self.env, self.env.docname, cid)
        self.env.temp_data["turub_clause"] = cid  # the parts' anchors: ID.words, ID.sources...
        try:
            made = add_need(
                self.env.app, self.state, self.env.docname, self.lineno, "clause", clause.title,
                id=need_id(cid),
                content=MarkupContent(body, markup=".md"),
                clause=cid,
                kind=clause.kind,
                cites=" · ".join(clause.cites),
                agreement=agreement,
                option=option,
                rests_on=[need_id(r.strip()) for r in rests_on.split(",") if r.strip()],
                layout="clause",
            )
        finally:
            del self.env.temp_data["turub_clause"]
        for node in made:  # the clause's address: spec/PAGE.html#ID (and the old #PREFIX:REST)
            if need_id(cid) in node.get("ids", []):
                node["ids"].append(cid)
        return made


class InjectedClausesDirective(SphinxDirective):
    """Items for clauses injected with ``-D turub_inject_clause=ID`` (the gate's test)."""

    def run(self) -> list[nodes.Node]:
        from sphinx_needs.api import add_need

        out: list[nodes.Node] = []
        _need_doc(self.env)
        for cid in filter(None, (self.config.turub_inject_clause or "").split(",")):
            out += add_need(self.env.app, self.state, self.env.docname, self.lineno, "clause",
                            "A clause injected to test the gate", id=need_id(cid),
                            clause=cid, content="Injected.", kind="rule", cites="", agreement="agree",
                            option="", layout="clause")
        return out


# --- code and check items ---------------------------------------------------------------

class CodeItemsDirective(SphinxDirective):
    """One item per piece of engine code citing a clause, grouped by module."""

    def run(self) -> list[nodes.Node]:
        from sphinx_needs.api import add_need
        from sphinx_needs.api.need import MarkupContent

        t = trace(self.env)
        _need_doc(self.env)
        out: list[nodes.Node] = []
        modules: dict[str, list[CodeItem]] = {}
        for item in t.code:
            modules.setdefault(item.path.name, []).append(item)
        for filename, items in modules.items():
            section = nodes.section(ids=[f"code-{Path(filename).stem}"])
            section += nodes.title("", f"reference/{filename}")
            for item in items:
                self._check_known(t, item.need_id, item.clauses, item.path, item.start)
                text = (f"{item.summary}\n\n" if item.summary else "") + \
                    f"A {item.kind} in `reference/{filename}`, line {item.start}.\n\n" + \
                    code_markdown(self.env, self.env.docname, item)
                section += add_need(
                    self.env.app, self.state, self.env.docname, self.lineno, "impl", item.name,
                    id=item.need_id, content=MarkupContent(text, markup=".md"),
                    implements=[need_id(c) for c in item.clauses], layout="trace")
            out.append(section)
        return out

    @staticmethod
    def _check_known(t: Trace, need_id: str, ids, path: Path, line: int) -> None:
        for cid in ids:
            if cid not in t.clauses:
                logger.warning("%s cites %r, which is not a clause of the registry", need_id, cid,
                               location=(str(path), line), type="turub", subtype="unknown-clause")


class CheckItemsDirective(SphinxDirective):
    """One item per check tagged ``@verifies``, grouped by file."""

    def run(self) -> list[nodes.Node]:
        from sphinx_needs.api import add_need
        from sphinx_needs.api.need import MarkupContent

        t = trace(self.env)
        _need_doc(self.env)
        out: list[nodes.Node] = []
        files: dict[Path, list[CheckItem]] = {}
        for check in t.checks:
            files.setdefault(check.path, []).append(check)
        for path, checks in files.items():
            rel = path.relative_to(turub_trace.ROOT)
            section = nodes.section(ids=["checks-" + "-".join(rel.with_suffix("").parts)])
            section += nodes.title("", str(rel))
            for check in checks:
                CodeItemsDirective._check_known(t, check.need_id, check.clauses, path, check.line)
                text = (f"{check.summary}\n\n" if check.summary else "") + \
                    f"`{rel}`, line {check.line}: `{check.name.rsplit('.', 1)[-1]}`."
                section += add_need(
                    self.env.app, self.state, self.env.docname, self.lineno, "check", check.title,
                    id=check.need_id, content=MarkupContent(text, markup=".md"),
                    verifies=[need_id(c) for c in check.clauses], layout="trace")
            out.append(section)
        return out


class CitedByDirective(SphinxDirective):
    """``cited-by 000 §01``: the clauses that cite this section of a source."""

    required_arguments = 1
    final_argument_whitespace = True

    def run(self) -> list[nodes.Node]:
        from sphinx.addnodes import pending_xref

        t = trace(self.env)
        citation = self.arguments[0]
        citing = [c for c in t.clauses.values()
                  if citation in map(turub_trace.citation_section, c.cites)]
        if not citing:
            logger.warning("no clause cites %r: every part of the sources needs a clause",
                           citation, location=self.get_location(), type="turub",
                           subtype="uncited")
        para = nodes.paragraph()
        para += nodes.strong("", "Clauses: ")
        for i, c in enumerate(citing):
            if i:
                para += nodes.Text(", ")
            ref = pending_xref("", refdomain="std", reftype="ref", reftarget=c.id.lower(),
                               refexplicit=True, refwarn=True)
            ref += nodes.literal("", c.id)
            para += ref
        return [para]


class VocabularyTableDirective(SphinxDirective):
    """The glossary, from the registry's ``VOCABULARY``."""

    def run(self) -> list[nodes.Node]:
        from turub.clauses import VOCABULARY

        header = ("our word", "meaning", "guide, English (000)", "guide, Spanish (002)",
                  "brief (001)")
        # the sources' words and our entries themselves: not uses of a term (never linked)
        table = nodes.table(classes=["turub-vocabulary", "turub-plain"])
        group = nodes.tgroup(cols=len(header))
        table += group
        for width in (14, 34, 18, 18, 18):
            group += nodes.colspec(colwidth=width)

        def row(cells, strong=False):
            r = nodes.row()
            for i, text in enumerate(cells):
                entry = nodes.entry()
                para = nodes.paragraph()
                text = text or "—"
                para += nodes.strong("", text) if strong or i == 0 else nodes.Text(text)
                entry += para
                r += entry
            return r

        head = nodes.thead()
        head += row(header, strong=True)
        body = nodes.tbody()
        from turub_addresses import term_anchor

        std = self.env.domaindata["std"]
        for term in VOCABULARY:
            entry = row((term.word, term.meaning, term.guide, term.spanish, term.brief))
            anchor = term_anchor(term.word)
            entry["ids"].append(anchor)  # glossary.html#term-led-suit
            body += entry
            # a {ref} target (the changelog names a changed entry)
            std["labels"][anchor] = (self.env.docname, anchor, f"{term.word} (glossary)")
            std["anonlabels"][anchor] = (self.env.docname, anchor)
        group += head
        group += body
        return [table]


class ClauseMatrixDirective(SphinxDirective):
    """The compliance matrix: one section per part of the game (a page of the spec, in the
    order of the spec), one row per clause in the order of its page: the clause with its
    title, its kind, whether the sources agree, the code and the checks."""

    def run(self) -> list[nodes.Node]:
        from docutils.statemachine import StringList

        t = trace(self.env)
        fields = turub_trace.scan_spec_fields()
        out: list[nodes.Node] = []
        pages = turub_trace.scan_spec()
        for page in sorted(pages, key=turub_trace.spec_order().index):
            ids = pages[page]
            if not ids:
                continue
            title = turub_trace.page_title(page)
            rows = ["| clause | kind | sources | code | checks |", "|---|---|---|---|---|"]
            for cid in ids:
                if cid not in t.clauses:
                    continue
                code = ", ".join(f"{{need}}`{i.need_id}`" for i in t.code_by_clause.get(cid, []))
                checks = t.checks_by_clause.get(cid, [])
                listed = ", ".join(f"{{need}}`{c.need_id}`" for c in checks)
                rows.append(f"| {{ref}}`{cid}` | {t.clauses[cid].kind} | "
                            f"{fields.get(cid, {}).get('agreement', '')} | {code or '—'} | "
                            f"{len(checks)}{': ' + listed if listed else ''} |")
            section = nodes.section(ids=[f"matrix-{Path(page).stem}"])
            section += nodes.title("", title)
            para = nodes.paragraph()
            para += nodes.Text(f"{len(ids)} clauses, on ")
            ref = pending_xref_doc(f"/spec/{Path(page).stem}")
            para += ref
            para += nodes.Text(".")
            section += para
            holder = nodes.container()
            self.state.nested_parse(StringList(rows, source=self.env.docname), self.content_offset,
                                    holder)
            for table in holder.findall(nodes.table):
                table["classes"] += ["turub-matrix", "turub-wrap"]
            section += holder.children
            out.append(section)
        return out


class DecisionsTableDirective(SphinxDirective):
    """``decisions-table``: every clause whose text goes beyond the sources (our decisions,
    our readings of a source's wording, the project's additions), generated from the
    registry and the spec's items (:func:`turub_trace.beyond_the_sources`), so that a new
    one cannot be missed."""

    def run(self) -> list[nodes.Node]:
        from docutils.statemachine import StringList

        t = trace(self.env)
        fields = turub_trace.scan_spec_fields()
        rows = ["| clause | title | kind | sources | what is ours | rule option |",
                "|---|---|---|---|---|---|"]
        for cid, notes in turub_trace.beyond_the_sources(t.clauses).items():
            f = fields.get(cid, {})
            ours = "; ".join(notes) if notes else "the clause itself (kind interpretation)"
            rows.append(f"| {{ref}}`{cid} <{cid}>` | {t.clauses[cid].title} | "
                        f"{t.clauses[cid].kind} | {f.get('agreement', '')} | {ours} | "
                        f"{f.get('option', '') or '—'} |")
        holder = nodes.container()
        self.state.nested_parse(StringList(rows, source=self.env.docname), self.content_offset,
                                holder)
        for table in holder.findall(nodes.table):
            table["classes"] += ["turub-decisions", "turub-wrap"]
        return holder.children


def pending_xref_doc(target: str):
    from sphinx.addnodes import pending_xref

    ref = pending_xref("", refdomain="std", reftype="doc", reftarget=target, refexplicit=False,
                       refwarn=True)
    ref += nodes.inline("", target.rsplit("/", 1)[-1])
    return ref


# --- checks at the end of reading ----------------------------------------------------------

def _needs(env):
    """The needs during the read phase, without freezing them (as get_needs_view would)."""
    from sphinx_needs.data import SphinxNeedsData

    data = SphinxNeedsData(env)
    return data.get_needs_view() if data.needs_is_post_processed else data.get_needs_mutable()


def check_consistency(app: Sphinx, env) -> None:
    """Every registry clause is placed in the spec exactly once."""
    from sphinx_needs.data import SphinxNeedsData

    t = trace(env)
    needs = _needs(env)
    placed = {need["clause"] for need in needs.values() if need["type"] == "clause"}
    for cid in t.clauses:
        if cid not in placed:
            logger.warning("clause %s of the registry has no item in the spec (spec/*.md)", cid,
                           type="turub", subtype="missing-clause")
    logger.info("turub_spec: %d clauses, %d code items, %d checks", len(placed), len(t.code),
                len(t.checks))


def register_clause_labels(app: Sphinx, env) -> None:
    """Each clause item is a ``ref`` target under its ID, so prose can link ``{ref}`play.turn```."""
    from sphinx_needs.data import SphinxNeedsData

    labels = env.domaindata["std"]["labels"]
    anon = env.domaindata["std"]["anonlabels"]
    for nid, need in _needs(env).items():
        if need["type"] == "clause":
            key = need["clause"].lower()
            labels[key] = (need["docname"], need["clause"], f"{need['clause']} ({need['title']})")
            anon[key] = (need["docname"], need["clause"])


#: The pages that show the trace (clauses, code, checks) and so depend on files outside docs/.
TRACE_PAGES = ("spec/", "traceability/", "guides/options", "variants/")


def fingerprint(app: Sphinx, env) -> str:
    """A digest of everything the clause pages show that lives outside ``docs/``: the
    registry, the code and checks found by the scan (names, places, clauses cited) and the
    source files the citations quote.  Same digest, same pages."""
    import hashlib

    t = trace(env)
    h = hashlib.sha256()
    for path in ("clauses.py", "options.py", "tools/sources.py"):
        h.update((turub_trace.ROOT / "reference" / path).read_bytes())
    for item in t.code:
        h.update(repr((item.name, item.kind, str(item.path), item.start, item.end,
                       item.clauses, item.summary)).encode())
    for check in t.checks:
        h.update(repr((check.name, str(check.path), check.line, check.clauses,
                       check.summary)).encode())
    h.update(repr(sorted(t.rests_on_back.items())).encode())
    folder = t.sources_folder
    h.update(str(folder).encode())
    if folder is not None:
        for path in sorted(folder.iterdir()):
            if path.is_file():
                h.update(path.read_bytes())
    return h.hexdigest()


def outdated_by_the_trace(app: Sphinx, env, added, changed, removed) -> list[str]:
    """Re-read the pages that show the trace only when the trace itself changed.

    (Returning them unconditionally, as this hook once did, re-read every page on every
    build.)  Code shown with ``literalinclude`` is a dependency Sphinx tracks by itself."""
    digest = fingerprint(app, env)
    old = getattr(env, "turub_fingerprint", None)
    env.turub_fingerprint = digest
    if old == digest:
        return []
    return sorted(d for d in env.found_docs if d.startswith(TRACE_PAGES))


def sources_folder(app: Sphinx):
    """The folder of the source files: ``turub_sources`` in conf.py (relative to docs/; only
    that folder when it is set), else the ``TURUB_SOURCES`` environment variable, else
    ``../shared/seeds`` beside the project (:func:`turub.tools.sources.find_folder`)."""
    from turub.tools import sources

    configured = app.config.turub_sources
    if configured:  # named in the configuration: that folder or none
        folder = Path(app.confdir, configured)
        return folder if sources.find_folder(folder) == folder else None
    return sources.find_folder()


def reset(app: Sphinx, exception) -> None:
    """Forget the trace when a build ends (a process may build again, e.g. sphinx-autobuild)."""
    if hasattr(app, "_turub_trace"):
        del app._turub_trace


def setup(app: Sphinx) -> dict:
    app.add_config_value("turub_inject_clause", "", "env", types=(str,))
    app.add_config_value("turub_inject_check", "", "env", types=(str,))
    app.add_config_value("turub_inject_citation", "", "env", types=(str,))
    app.add_config_value("turub_pending_citations", {}, "env", types=(dict,))
    app.add_config_value("turub_sources", "", "env", types=(str,))
    app.add_node(details, html=(visit_details_html, depart_details_html),
                 latex=(visit_details_other, depart_details_other),
                 text=(visit_details_other, depart_details_other))
    app.add_directive("details", DetailsDirective)
    app.add_directive("interpretation", InterpretationDirective)
    app.add_directive("spec-clause", ClauseDirective)
    app.add_directive("injected-clauses", InjectedClausesDirective)
    app.add_directive("code-items", CodeItemsDirective)
    app.add_directive("check-items", CheckItemsDirective)
    app.add_directive("cited-by", CitedByDirective)
    app.add_directive("vocabulary-table", VocabularyTableDirective)
    app.add_directive("clause-matrix", ClauseMatrixDirective)
    app.add_directive("decisions-table", DecisionsTableDirective)
    app.connect("build-finished", reset)
    app.connect("env-get-outdated", outdated_by_the_trace)
    app.connect("env-check-consistency", check_consistency)
    app.connect("env-updated", lambda app, env: register_clause_labels(app, env) or [])
    return {"version": "1", "parallel_read_safe": False, "parallel_write_safe": True}
