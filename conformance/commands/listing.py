"""``turub check --list``: every check a run would make, without running anything.

One line per check: its ID, its operation and the clauses it is about, in the order the run
makes them (the committed vectors, the generated cases, differential play, the property
suites), after the selection (``-k``, ``--clause``, ``--op``).
"""

from __future__ import annotations

from typing import Any

from ..questions.cases import generated_cases
from ..questions.directed import directed_cases
from ..operations import SEARCHES
from .check import CheckOptions, vector_cases

__all__ = ["planned_checks", "render_list"]


def planned_checks(options: CheckOptions) -> list[dict[str, Any]]:
    """The checks ``run_check`` would make with ``options``: ``{id, kind, op, clauses}``."""
    rules = options.rules
    checks: list[dict[str, Any]] = []
    if options.vectors:
        checks += [{"id": c["id"], "kind": "vector", "op": c["op"], "clauses": list(c["clauses"])}
                   for c in vector_cases(rules) + directed_cases(rules)]
    if options.seed is not None and options.scale > 0:
        checks += [{"id": c["id"], "kind": "generated", "op": c["op"], "clauses": list(c["clauses"])}
                   for c in generated_cases(options.seed, rules, options.scale)]
    if options.examples > 0:
        checks += [{"id": s.check_id, "kind": "differential", "op": s.asks, "clauses": list(s.clauses())}
                   for s in SEARCHES]
    if options.properties > 0:
        from turub.properties.checks import interface_properties
        checks += [{"id": f"property/{name}", "kind": "property", "op": name,
                    "clauses": sorted(getattr(test, "__verifies__", ()))}
                   for name, test in interface_properties().items()]
    return [c for c in checks if options.selection.matches(c["id"], c["op"], c["clauses"])]


def render_list(checks: list[dict[str, Any]]) -> str:
    """One line per check: ID, operation, clauses; then the count."""
    width = max((len(c["id"]) for c in checks), default=0)
    lines = [f"{c['id']:<{width}}  {c['op']}  {' '.join(c['clauses'])}" for c in checks]
    return "\n".join(lines + [f"{len(checks)} checks"]) + "\n"
