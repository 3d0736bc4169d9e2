"""The spec's examples are the conformance cases (#28).

After each clause on a spec page, the committed cases that exercise it
(:func:`turub.conformance.questions.examples.examples_of`), drawn at build time from the same
vectors ``turub check`` runs: each numbered and linkable (``#example-N``), with its case ID,
its option set, the request a program is sent and the answer it must give, as JSON, which
no language owns.  ``turub check --example N`` asks example N.  A case is shown once on a
page (under the first clause there that it exercises); the clauses after it link to it.  A
clause no committed case asks says so.
"""

from __future__ import annotations

import json

from docutils import nodes
from sphinx.application import Sphinx

#: How a clause's examples are introduced (the test of every page looks for it).
HEADING = "Examples: the conformance cases of {cid}"


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _example(ex, request) -> nodes.Element:
    box = nodes.container(ids=[ex.anchor], classes=["turub-example"])
    head = nodes.paragraph()
    head += nodes.strong("", f"Example {ex.number}")
    head += nodes.Text(" · case ")
    head += nodes.literal("", ex.case["id"])
    head += nodes.Text(f" · option set {ex.set}" + (" (any rules)" if ex.case.get("rules") == "any" else ""))
    box += head
    for label, value in (("request", request), ("expected answer", ex.case["expected"])):
        para = nodes.paragraph()
        para += nodes.emphasis("", label)
        box += para
        text = _json(value)
        block = nodes.literal_block(text, text, classes=["turub-example-json"])
        block["language"] = "none"  # plain: no highlighting of thousands of lines
        box += block
    return box


def _link(ex) -> nodes.Node:
    ref = nodes.reference("", f"{ex.number}", refid=ex.anchor, internal=True)
    return ref


def add_examples(app: Sphinx, doctree: nodes.document) -> None:
    """Append its examples after every clause of a spec page."""
    docname = app.env.docname
    if not docname.startswith("spec/"):
        return
    from turub.clauses import CLAUSES
    from turub.conformance.questions.examples import examples_of, request_of

    by_clause = examples_of()
    shown: set[int] = set()
    done: set[str] = set()  # a clause's outermost node comes first (document order)
    for node in list(doctree.findall(nodes.Element)):
        cids = [i for i in node.get("ids", ()) if i in CLAUSES and i not in done]
        if not cids or node.parent is None:
            continue
        cid = cids[0]
        done.add(cid)
        found = by_clause.get(cid, [])
        section = nodes.container(ids=[f"{cid}.examples"], classes=["turub-examples"])
        title = nodes.paragraph()
        title += nodes.strong("", HEADING.format(cid=cid))
        section += title
        if not found:
            section += nodes.paragraph(
                "", "No committed case asks this clause: it is not judged by the kit's cases "
                    "(see the clause's checks above).")
        else:
            fresh = [ex for ex in found if ex.number not in shown]
            again = [ex for ex in found if ex.number in shown]
            section += nodes.paragraph(
                "", f"{len(found)} case(s); run one with turub check --example N.")
            if again:
                para = nodes.paragraph("", "Shown above on this page: ")
                for i, ex in enumerate(again):
                    if i:
                        para += nodes.Text(", ")
                    para += _link(ex)
                section += para
            if fresh:
                holder = nodes.container(classes=["turub-example-list"])
                for ex in fresh:
                    holder += _example(ex, request_of(ex))
                    shown.add(ex.number)
                section += holder
        node.parent.insert(node.parent.index(node) + 1, section)


def setup(app: Sphinx) -> dict:
    app.connect("doctree-read", add_examples)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
