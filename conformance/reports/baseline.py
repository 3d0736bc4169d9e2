"""Baselines: what a report records to be compared later, and the comparison.

A report records, for each case, a digest of the expected answer (the spec's side) and of
the program's answer (``answer_digest``: the answer, or its outcome class when there was
none), and, for the whole run, the spec it was judged under (:func:`spec_identity`: the
engine's version and a digest of the clause registry) and the variant (:func:`run_variant`).

:func:`compare_reports` says which changes between two reports came from the program (its
answer changed, the expected one did not) and which from the spec (the expected answer
changed), and warns when the two were made under different variants, option sets or spec
versions.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

__all__ = ["digest", "spec_identity", "judged_by", "run_variant", "request_variant", "compare_reports",
           "render_comparison"]


def digest(value: Any) -> str:
    """A short, stable digest of a JSON value."""
    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def spec_identity(judged_by: str | None = None) -> dict[str, str]:
    """The spec a report is judged under: the engine's version, its clause registry, and the
    release whose cases judged the run (``judged_by``: the current one unless ``--spec``)."""
    import turub
    from turub.clauses import CLAUSES, SPEC_VERSION
    return {"version": turub.__version__, "spec_version": SPEC_VERSION,
            "clauses": digest([[c.id, c.kind, c.title] for c in CLAUSES.values()]),
            "judged_by": judged_by or SPEC_VERSION}


def judged_by(report: dict) -> str:
    """The release whose cases judged a report (a report before #28: its spec version)."""
    spec = report.get("spec") or {}
    return str(spec.get("judged_by") or spec.get("spec_version") or "")


def run_variant(rules: Any) -> dict[str, Any]:
    """The variant a run is judged under, as the report records it."""
    from turub.variants import BUILTIN, Variant
    if isinstance(rules, Variant):
        v = rules
    else:
        v = next((b for b in BUILTIN.values() if b.rules == rules), None)  # type: ignore[assignment]
        if v is None:
            return {"name": "custom", "version": "1", "clauses": [], "options": rules.to_dict()}
    # a variant loaded from a file keeps the file (``source``): the command that asks a failed
    # case again names it there (``--variant FILE:NAME``), as no command knows the name alone
    return {"name": v.name, "version": v.version, "lineage": v.lineage(),
            "clauses": [c.id for c in v.all_clauses], "options": v.rules.to_dict(),
            **({"source": v.source} if v.source else {})}


def request_variant(rules: Any, target: Any) -> str | None:
    """The variant name each request carries: a variant the options alone do not describe,
    or any variant when the program declared the variants it supports."""
    from turub.variants import BUILTIN, Variant
    if not isinstance(rules, Variant):
        return None
    if rules.name not in BUILTIN or getattr(target, "variants", None) is not None:
        return rules.name
    return None


def compare_reports(old: dict, new: dict) -> dict:
    """What changed from ``old`` to ``new``, each change with its origin (``program``,
    ``spec`` or ``both``), and warnings when the two were made under different variants,
    options or spec versions."""
    from .report import FAILING, diff_reports
    d = diff_reports(old, new)
    o = {c["id"]: c for c in old.get("cases") or []}
    n = {c["id"]: c for c in new.get("cases") or []}
    counts = {"program": 0, "spec": 0, "both": 0, "unknown": 0}
    for change in d["cases"]:
        a, b = o.get(change["id"], {}), n.get(change["id"], {})
        spec = a.get("expected_digest") != b.get("expected_digest")
        program = a.get("answer_digest") != b.get("answer_digest")
        if not a or not b:
            origin = "spec"  # a question one report asked and the other did not: the suite changed
        elif "expected_digest" not in a or "expected_digest" not in b:
            # a search (differential play, a property): its questions are drawn, so only the
            # spec and variant of the two reports can tell
            same = old.get("spec") == new.get("spec") and (old.get("variant") or {}).get("name") == \
                (new.get("variant") or {}).get("name")
            origin = "program" if same and old.get("spec") else "unknown"
        else:
            origin = "both" if spec and program else "spec" if spec else "program"
        change["origin"] = origin
        counts[origin] += 1
    warnings = []
    va, vb = old.get("variant") or {}, new.get("variant") or {}
    if (va.get("name"), va.get("version")) != (vb.get("name"), vb.get("version")):
        warnings.append(f"the reports were judged under different variants: "
                        f"{va.get('name', '?')} {va.get('version', '')} and {vb.get('name', '?')} "
                        f"{vb.get('version', '')}".replace("  ", " "))
    if old.get("rules") != new.get("rules"):
        warnings.append(f"the reports were made under different options: {old.get('rules')} and "
                        f"{new.get('rules')}")
    sa, sb = old.get("spec") or {}, new.get("spec") or {}
    if sa != sb:
        warnings.append(f"the reports were judged under different spec versions: "
                        f"{sa.get('version', '?')} ({sa.get('clauses', '?')}) and "
                        f"{sb.get('version', '?')} ({sb.get('clauses', '?')})")
    d["origins"] = counts
    d["warnings"] = warnings
    d["regressions_by_origin"] = {
        k: sum(1 for c in d["cases"] if c["origin"] == k and c["new"] in FAILING and c["old"] not in FAILING)
        for k in counts}
    return d


def render_comparison(d: dict) -> str:
    """The comparison as text: warnings first, every change with its origin, no truncation."""
    lines = [f"warning: {w}" for w in d["warnings"]]
    o = d["origins"]
    lines.append(f"{len(d['cases'])} cases changed: {d['regressions']} now failing, {d['fixes']} fixed; "
                 f"from the program {o['program']}, from the spec {o['spec']}, both {o['both']}"
                 + (f", unknown {o['unknown']} (a report without answer digests)" if o["unknown"] else ""))
    for c in d["clauses"]:
        lines.append(f"  clause {c['clause']}: {c['old']} -> {c['new']}")
    for c in d["cases"]:
        extra = f" ({c['new_outcome']})" if c["new_outcome"] else ""
        lines.append(f"  {c['id']}: {c['old']} -> {c['new']}{extra} [{c['origin']}]")
    return "\n".join(lines) + "\n"
