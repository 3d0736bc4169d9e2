"""``well-formed-table``: the guide's "what is well-formed" rows, generated from the one
definition the engine and the kit read (:data:`turub.well_formed.WELL_FORMED`), never written
by hand (#28)."""

from __future__ import annotations

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective


def _texts(texts) -> str:
    return " ".join(f"`{t}`" if t.strip() == t and t and "`" not in t else f"`\u2423{t.strip()}\u2423`"
                    if t.strip() else "(empty)" for t in texts)


def table_lines() -> list[str]:
    """The rows as a MyST table: where, read (each form, an example, what it is read as),
    refused (examples, the clause a refusal names) and why."""
    from turub.well_formed import WELL_FORMED

    lines = ["| input | read | refused (as) | why |", "|---|---|---|---|"]
    for row in WELL_FORMED:
        read = "; ".join(f"{form}: {_texts([example])} ({meaning})" for form, example, meaning in row.read)
        where = row.where + "".join(f" (`{k}={v}`)" for k, v in row.rules if f"`{k}={v}`" not in row.where)
        lines.append(f"| {where} | {read} | {_texts(row.refused)} (`{row.refused_as}`) | "
                     f"{row.why} ({{ref}}`{row.clause}`) |")
    return lines


class WellFormedTableDirective(SphinxDirective):
    def run(self) -> list[nodes.Node]:
        holder = nodes.container(classes=["turub-well-formed"])
        self.state.nested_parse(StringList(table_lines(), source=self.env.docname),
                                self.content_offset, holder)
        return holder.children


def setup(app: Sphinx) -> dict:
    app.add_directive("well-formed-table", WellFormedTableDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
