"""The report: per clause and per case, as a terminal table, JSON and JUnit XML.

A case's status is ``passed``, ``failed``, ``unsupported``, ``xfail`` (a listed expected
failure) or ``xpass`` (listed, but it passed: that fails the run, so the list cannot rot).
A failed case names its outcome class (:data:`~turub.conformance.judge.OUTCOMES`) and the
one clause it blames (``blamed``; none for a crash, a timeout, a protocol violation or a
consequence of an earlier wrong answer, ``consequence_of``).  A clause row is ``failed``
if a failure blames it, ``affected`` if failing cases exercise it but none blames it,
``passed`` if at least one case exercising it passed and none failed, and ``unsupported``
if all its cases were.  The report opens with the diagnosis
(:mod:`turub.conformance.diagnosis`): the clauses blamed, the known misreading that
reproduces the answers, and the smallest situation of each.

The expected-failures file is JSON::

    {"format": "turub-xfail/1", "expected_failures": [
        {"case": "referee/illegal-revoke-0", "reason": "..."},
        {"clause": "signal.once-per-trick", "reason": "..."}]}
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable
from typing import Any, Final

from turub.clauses import CLAUSES

from .judge import OUTCOMES

__all__ = ["finish", "render_text", "render_junit", "diff_reports", "render_diff", "load_xfail",
           "xfail_document", "XFAIL_FORMAT"]

XFAIL_FORMAT: Final = "turub-xfail/1"
STATUSES: Final = ("passed", "failed", "unsupported", "xfail", "xpass")


class XfailError(ValueError):
    pass


def load_xfail(text: str) -> list[dict]:
    """The entries of an expected-failures file; ``XfailError`` says what is wrong."""
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise XfailError(f"not JSON: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != XFAIL_FORMAT:
        raise XfailError(f"expected an object with \"format\": \"{XFAIL_FORMAT}\"")
    entries = doc.get("expected_failures")
    if not isinstance(entries, list):
        raise XfailError("'expected_failures' must be a list")
    for e in entries:
        if not isinstance(e, dict) or (("case" in e) == ("clause" in e)) or not isinstance(e.get("reason"), str):
            raise XfailError(f"each entry has a 'case' or a 'clause' and a 'reason': {e!r}")
        if "clause" in e and e["clause"] not in CLAUSES:
            raise XfailError(f"no clause {e['clause']!r} in the registry")
    return entries


def xfail_document(report: dict) -> dict:
    """The current failures as an expected-failures document (one entry per failing case)."""
    entries = [{"case": c["id"], "reason": f"{c.get('outcome')}: {c.get('detail', '')}"[:300]}
               for c in report["cases"] if c["status"] in ("failed", "xfail")]
    return {"format": XFAIL_FORMAT, "expected_failures": entries}


def finish(report: dict, xfail: Iterable[dict] = ()) -> dict:
    """Apply expected failures, then add the clause table, the summary and the exit status."""
    entries = list(xfail)
    by_case = {e["case"]: e for e in entries if "case" in e}
    by_clause = {e["clause"]: e for e in entries if "clause" in e}
    used_clauses: set[str] = set()
    seen_cases = set()
    for c in report["cases"]:
        seen_cases.add(c["id"])
        listed = by_case.get(c["id"])
        if c["status"] == "failed":
            if listed is None:
                blamed = [c["blamed"]] if c.get("blamed") else c.get("failing_clauses", [])
                listed = next((by_clause[x] for x in blamed if x in by_clause), None)
                if listed is not None:
                    used_clauses.add(listed["clause"])
            if listed is not None:
                c["status"] = "xfail"
                c["xfail_reason"] = listed["reason"]
        elif c["status"] == "passed" and listed is not None:
            c["status"] = "xpass"
            c["detail"] = f"listed as an expected failure ({listed['reason']}) but it passed"
    from .diagnosis import attribute
    attribute(report)
    clauses = _clause_table(report["cases"])
    stale = []
    for cid, e in by_clause.items():
        if cid not in used_clauses and clauses.get(cid, {}).get("status") == "passed":
            stale.append({"clause": cid, "reason": e["reason"], "why": "no failure is about it any more"})
    missing = [{"case": k, "why": "not run"} for k in by_case if k not in seen_cases]
    counts = Counter(c["status"] for c in report["cases"])
    outcomes = Counter(c.get("outcome") for c in report["cases"] if c["status"] in ("failed", "xfail"))
    report["clauses"] = clauses
    report["summary"] = {"cases": len(report["cases"]), **{s: counts.get(s, 0) for s in STATUSES},
                         "outcomes": {o: outcomes[o] for o in OUTCOMES if outcomes[o]},
                         "clauses": dict(Counter(v["status"] for v in clauses.values()))}
    report["stale_expected_failures"] = stale
    report["expected_failures_not_run"] = missing
    bad = counts.get("failed", 0) + counts.get("xpass", 0) + len(stale)
    report["conforms"] = bad == 0
    report["exit_status"] = 0 if bad == 0 else 1
    return report


def _clause_table(cases: list[dict]) -> dict[str, dict]:
    """One row per clause: ``failed`` counts the failures that blame it, ``affected`` the
    failing cases that exercise it without blaming it (a consequence blames nothing)."""
    table: dict[str, dict] = {}

    def row(cid: str) -> dict:
        return table.setdefault(cid, {"passed": 0, "failed": 0, "affected": 0, "unsupported": 0,
                                      "xfail": 0, "xpass": 0, "outcomes": {}})
    for c in cases:
        status = c["status"]
        if status in ("failed", "xfail"):
            blamed = c.get("blamed")
            if blamed:
                r = row(blamed)
                r[status] += 1
                r["outcomes"][c["outcome"]] = r["outcomes"].get(c["outcome"], 0) + 1
            for cid in c["clauses"]:
                if cid != blamed:
                    row(cid)["affected"] += 1
        else:
            for cid in c["clauses"]:
                row(cid)[status] += 1
    for r in table.values():
        r["status"] = ("failed" if r["failed"] or r["xpass"] else "xfail" if r["xfail"]
                       else "affected" if r["affected"]
                       else "passed" if r["passed"] else "unsupported")
    order = list(CLAUSES)
    return {k: table[k] for k in sorted(table, key=lambda k: order.index(k) if k in order else 10**6)}


# --- terminal ------------------------------------------------------------------------------------

def render_text(report: dict, failures: int = 15) -> str:
    impl = report["implementation"]
    lines = [f"turub check: {impl['name']} {impl['version']} under rules {report['rules_name']} "
             f"({', '.join(f'{k}={v}' for k, v in report['rules'].items())}), seed {report['seed']}", ""]
    from .diagnosis import render_diagnosis
    lines += render_diagnosis(report)
    width = max([len(k) for k in report["clauses"]] + [6])
    lines.append(f"{'clause':<{width}}  {'result':<11} {'pass':>5} {'fail':>5} {'aff':>5} {'unsup':>5}  "
                 "failures by outcome")
    for cid, r in report["clauses"].items():
        fails = r["failed"] + r["xfail"]
        status = r["status"] + ("" if r["status"] != "xfail" else " (listed)")
        outcomes = ", ".join(f"{o} {n}" for o, n in r["outcomes"].items())
        lines.append(f"{cid:<{width}}  {status:<11} {r['passed']:>5} {fails:>5} {r.get('affected', 0):>5} "
                     f"{r['unsupported']:>5}  {outcomes}")
    uncovered = [c.id for c in CLAUSES.values() if c.is_normative and c.id not in report["clauses"]]
    if uncovered:
        lines.append(f"(not exercised by the kit: {', '.join(uncovered)})")
    s = report["summary"]
    lines += ["", f"{s['cases']} cases in {report['duration']:.1f} s: {s['passed']} passed, "
              f"{s['failed']} failed, {s['unsupported']} unsupported, {s['xfail']} expected failures, "
              f"{s['xpass']} listed but passing; restarts {report['restarts']}"]
    if s["outcomes"]:
        lines.append("failures by outcome: " + ", ".join(f"{o} {n}" for o, n in s["outcomes"].items()))
    bad = [c for c in report["cases"] if c["status"] in ("failed", "xpass")]
    if bad:
        lines += ["", f"Failures ({len(bad)}{', first ' + str(failures) if len(bad) > failures else ''}):"]
        for c in bad[:failures]:
            blame = c.get("blamed") or (f"consequence of {c['consequence_of']}" if c.get("consequence_of")
                                        else "no clause")
            lines.append(f"  {c['id']} [{blame}] {c.get('outcome', c['status'])}: {c.get('detail', '')}")
    for e in report["stale_expected_failures"]:
        lines.append(f"stale expected failure: clause {e['clause']} ({e['why']}): remove it from the list")
    diag = report.get("diagnostics") or []
    if diag:
        lines += ["", "Diagnostics (never a verdict):"] + ["  " + d.replace("\n", "\n    ") for d in diag[:10]]
    lines += ["", "CONFORMS" if report["conforms"] else "DOES NOT CONFORM"]
    return "\n".join(lines) + "\n"


# --- JUnit XML -------------------------------------------------------------------------------------

def render_junit(report: dict) -> str:
    s = report["summary"]
    suite = ET.Element("testsuite", name=f"turub conformance: {report['implementation']['name']}",
                       tests=str(s["cases"]), failures=str(s["failed"] + s["xpass"]),
                       skipped=str(s["unsupported"] + s["xfail"]), errors="0",
                       time=f"{report['duration']:.3f}")
    props = ET.SubElement(suite, "properties")
    for k, v in report["rules"].items():
        ET.SubElement(props, "property", name=f"rules.{k}", value=v)
    for c in report["cases"]:
        tc = ET.SubElement(suite, "testcase", classname=f"{c['kind']}.{c['op']}", name=c["id"])
        ET.SubElement(tc, "properties").extend(
            [ET.Element("property", name="clause", value=x) for x in c["clauses"]])
        if c["status"] == "failed":
            f = ET.SubElement(tc, "failure", type=c.get("outcome", "failed"),
                              message=f"[{c.get('blamed') or ', '.join(c.get('failing_clauses', []))}] "
                                      f"{c.get('detail', '')}"[:1000])
            f.text = c.get("minimal") or c.get("detail", "")
        elif c["status"] == "xpass":
            ET.SubElement(tc, "failure", type="xpass", message=c.get("detail", ""))
        elif c["status"] == "unsupported":
            ET.SubElement(tc, "skipped", message="unsupported")
        elif c["status"] == "xfail":
            ET.SubElement(tc, "skipped", message=f"expected failure: {c.get('xfail_reason', '')}"[:1000])
    ET.indent(suite)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suite, encoding="unicode") + "\n"


# --- two reports ------------------------------------------------------------------------------

def diff_reports(old: dict, new: dict) -> dict:
    """What changed from ``old`` to ``new``: cases and clauses whose status changed."""
    def key(c: dict) -> tuple:
        return (c["id"], json.dumps(c.get("rules"), sort_keys=True) if c.get("rules") != "any" else "any")
    o = {c["id"]: c for c in old.get("cases", [])}
    n = {c["id"]: c for c in new.get("cases", [])}
    changed = []
    for cid in sorted(set(o) | set(n)):
        a = o.get(cid, {}).get("status", "absent")
        b = n.get(cid, {}).get("status", "absent")
        oa, ob = o.get(cid, {}).get("outcome"), n.get(cid, {}).get("outcome")
        if a != b or oa != ob:
            changed.append({"id": cid, "old": a, "new": b, "old_outcome": oa, "new_outcome": ob,
                            "detail": n.get(cid, {}).get("detail", "")})
    clauses = []
    oc, nc = old.get("clauses", {}), new.get("clauses", {})
    for cid in sorted(set(oc) | set(nc)):
        a = oc.get(cid, {}).get("status", "absent")
        b = nc.get(cid, {}).get("status", "absent")
        if a != b:
            clauses.append({"clause": cid, "old": a, "new": b})
    worse = {"failed", "xpass"}
    return {"cases": changed, "clauses": clauses,
            "regressions": sum(1 for c in changed if c["new"] in worse and c["old"] not in worse),
            "fixes": sum(1 for c in changed if c["old"] in worse and c["new"] not in worse),
            "old": {k: old.get(k) for k in ("implementation", "rules", "summary")},
            "new": {k: new.get(k) for k in ("implementation", "rules", "summary")}}


def render_diff(d: dict) -> str:
    lines = [f"{len(d['cases'])} cases changed: {d['regressions']} now failing, {d['fixes']} fixed"]
    for c in d["clauses"]:
        lines.append(f"  clause {c['clause']}: {c['old']} -> {c['new']}")
    for c in d["cases"][:200]:
        extra = f" ({c['new_outcome']})" if c["new_outcome"] else ""
        lines.append(f"  {c['id']}: {c['old']} -> {c['new']}{extra}")
    if len(d["cases"]) > 200:
        lines.append(f"  … and {len(d['cases']) - 200} more")
    return "\n".join(lines) + "\n"


def as_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
